/* test_jobs_kill.c - the job-level search killed and stopped, `ocsolve
 * jobs` run as a black box: a run killed with SIGKILL at random moments
 * and resumed from its store gives the independent brute force's value
 * (tests/brute.h), and every stored record agrees with the brute force;
 * SIGINT stops a run cleanly, and what is written only at the end (the
 * job log, the last progress row) is written. */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../jobs/jobs.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

TestSuite(jobs_kill, .timeout = 240);

static const char *rules_arg(int rules) { return rules == 0 ? "original" : rules == 1 ? "exact" : "exact-end"; }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Runs `ocsolve jobs` on pos with the store dir; sends it sig (SIGKILL or
 * SIGINT) after `after` seconds unless it ends first. Returns 1 if the
 * signal ended it: killed, or for SIGINT stopped with exit 128 + SIGINT,
 * or killed by it when it came before the handler was installed (at
 * start-up; sigint_stops_cleanly checks the clean stop). A run that ended
 * first exits 0; anything else fails the test. */
static int run_maybe_kill(const char *pos, const char *rules, const char *dir, double after, int sig)
{
    pid_t pid = spawn("jobs", "--workers", "2", "--job-nodes", "1", "--job-tt-mb", "1", "--no-centre", "--quiet",
                      "--rules", rules, "--store", dir, pos);
    cr_assert_gt(pid, 0);
    double t0 = now_s();
    int status;
    while (now_s() - t0 < after) {
        if (waitpid(pid, &status, WNOHANG) == pid) return 0;
        usleep(2000);
    }
    kill(pid, sig);
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status) && WTERMSIG(status) == sig) return 1;
    cr_assert(WIFEXITED(status) && (WEXITSTATUS(status) == 0 || (sig != SIGKILL && WEXITSTATUS(status) == 128 + sig)),
              "%s: status %#x after signal %d", pos, status, sig);
    return WEXITSTATUS(status) != 0;
}

Test(jobs_kill, sigkill_then_resume)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 404;
    int killed = 0, rounds = 0;
    for (int t = 0; t < 5; t++) {
        RefPos p;
        tl_pick_deep(&p, t % 3, 13, &rng);
        char pos[65], dir[256];
        ref_format(&p, pos);
        tl_tmp_dir(dir, sizeof dir, "jobs-kill");
        /* how long a whole run takes, then kills at random moments of it */
        double t0 = now_s();
        run_maybe_kill(pos, rules_arg(p.rules), dir, 1e9, SIGKILL);
        double whole = now_s() - t0;
        tl_rm_dir(dir);
        tl_tmp_dir(dir, sizeof dir, "jobs-kill");
        /* two SIGKILLs, then a SIGINT (a clean stop) */
        for (int k = 0; k < 3; k++)
            killed += run_maybe_kill(pos, rules_arg(p.rules), dir, whole * tl_below(&rng, 90) / 100.0,
                                     k < 2 ? SIGKILL : SIGINT);
        Run r;
        expect_ok(&r, "jobs", "--workers", "2", "--job-nodes", "1", "--job-tt-mb", "1", "--no-centre", "--quiet",
                  "--rules", rules_arg(p.rules), "--store", dir, pos);
        Winner want = tl_brute_winner(m, &p);
        char got[32];
        cr_assert(line_value(r.out, "result: ", got, sizeof got), "%s", r.out);
        cr_assert_str_eq(got, winner_name(want), "%s: resumed run %s, brute force %s", pos, got, winner_name(want));
        run_free(&r);
        char err[256] = "";
        Store *st = store_open(dir, true, 0, err, sizeof err);
        cr_assert(st, "%s", err);
        int checked, bad = tl_store_disagreements(st, m, p.rules, &checked);
        store_close(st);
        cr_expect_eq(bad, 0, "%s: %d of %d stored records disagree with the brute force", pos, bad, checked);
        tl_rm_dir(dir);
        rounds++;
    }
    brute_free(m);
    cr_log_info("%d positions, %d runs killed", rounds, killed);
    cr_assert_eq(rounds, 5);
    cr_assert_geq(killed, 3, "only %d runs were killed before they ended", killed);
}

/* The lines of the file at path (the first one copied to first). */
static size_t count_lines(const char *path, char *first, size_t firstlen)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "%s is missing", path);
    char line[1024];
    size_t n = 0;
    first[0] = '\0';
    for (; fgets(line, sizeof line, f); n++)
        if (n == 0) snprintf(first, firstlen, "%s", line);
    fclose(f);
    return n;
}

/* SIGINT stops a run cleanly: exit 128 + SIGINT within seconds, and what
 * is written only at the end (the job log, the last progress row) is
 * written. The jobs' budget is far beyond 1.5 s of search, so the jobs in
 * flight must be interrupted (and recorded as stopped) to end in time. */
Test(jobs_kill, sigint_stops_cleanly)
{
    char dir[256], store[300], jlog[300], plog[300], first[1024];
    tl_tmp_dir(dir, sizeof dir, "jobs-sigint");
    snprintf(store, sizeof store, "%s/store", dir);
    snprintf(jlog, sizeof jlog, "%s/jobs.csv", dir);
    snprintf(plog, sizeof plog, "%s/progress.csv", dir);
    /* the empty board: far from decided after 1.5 s */
    expect_sigint_exit(1.5, ARGS("jobs", "--workers", "2", "--job-nodes", "100000000", "--job-tt-mb", "8", "--no-centre",
                                 "--quiet", "--store", store, "--log", plog, "--job-log", jlog));
    size_t rows = count_lines(jlog, first, sizeof first);
    cr_expect(strncmp(first, "serial,", 7) == 0, "job log header: %s", first);
    cr_expect_gt(rows, 1, "the job log has no job");
    FILE *f = fopen(jlog, "r");
    cr_assert(f && fgets(first, sizeof first, f), "%s", jlog);
    char line[1024], *fld[TL_JOB_LOG_FIELDS];
    size_t stopped = 0, with_result = 0;
    while (tl_job_log_row(f, line, sizeof line, fld)) {
        const char *res = fld[9];
        stopped += strcmp(res, "stopped") == 0;
        with_result += strcmp(res, "order") == 0 || strcmp(res, "chaos") == 0 || strcmp(res, "undecided") == 0 ||
                       strcmp(res, "stopped") == 0;
    }
    fclose(f);
    cr_expect_gt(stopped, 0, "no job in flight was recorded as stopped");
    cr_expect_eq(with_result, rows - 1, "a job log row with no result");
    size_t prog = count_lines(plog, first, sizeof first);
    cr_expect(strncmp(first, "seconds,", 8) == 0, "progress header: %s", first);
    cr_expect_gt(prog, 1, "no progress row was written");
    tl_rm_dir(dir);
}
