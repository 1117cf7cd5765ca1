/* tmpi.c - see tmpi.h. */
#include "tmpi.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../jobs/jobs.h"
#include "testlib.h"

double tmpi_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void tmpi_run_prog(MpiRun *m, int np, const char *prog, const char *const *args)
{
    memset(m, 0, sizeof *m);
    char nps[16];
    snprintf(nps, sizeof nps, "%d", np);
    const char *head[] = {"mpirun", "--allow-run-as-root", "--oversubscribe", "--timeout", TMPI_RUN_TIMEOUT,
                          "-np",    nps,                   prog};
    size_t nh = sizeof head / sizeof head[0], na = 0;
    while (args[na]) na++;
    char **argv = calloc(nh + na + 1, sizeof *argv);
    cr_assert(argv != NULL);
    size_t used = 0;
    for (size_t i = 0; i < nh + na; i++) {
        argv[i] = (char *)(i < nh ? head[i] : args[i - nh]);
        if (used < sizeof m->r.desc)
            used += (size_t)snprintf(m->r.desc + used, sizeof m->r.desc - used, "%s%s", i ? " " : "", argv[i]);
    }
    int fo = make_tmp(), fe = make_tmp();
    fflush(stdout);
    fflush(stderr);
    double t0 = tmpi_now_seconds();
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        if (dup2(fo, 1) < 0 || dup2(fe, 2) < 0) _exit(126);
#ifdef OCS_SANITIZE
        setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
#endif
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    pid_t w;
    do w = waitpid(pid, &status, 0);
    while (w < 0 && errno == EINTR);
    cr_assert(w == pid, "waitpid: %s", strerror(errno));
    m->seconds = tmpi_now_seconds() - t0;
    free(argv);
    m->r.out = slurp(fo, &m->r.outlen);
    m->r.err = slurp(fe, &m->r.errlen);
    close(fo);
    close(fe);
    m->r.exited = WIFEXITED(status);
    m->r.code = m->r.exited ? WEXITSTATUS(status) : -1;
    m->r.signo = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    cr_assert(!(m->r.exited && m->r.code == 127 && m->r.outlen == 0),
              "could not run mpirun (is openmpi-bin installed?)");
}

void tmpi_expect_ran(const MpiRun *m)
{
    cr_assert(m->r.exited && m->r.code == 0, "%s: exit code %d (signal %d) after %.1f s; stderr: %s", m->r.desc,
              m->r.code, m->r.signo, m->seconds, m->r.err);
    cr_assert(strstr(m->r.out, "result: ") != NULL, "%s: no result line: %s", m->r.desc, m->r.out);
}

void tmpi_free(MpiRun *m) { run_free(&m->r); }

int tmpi_program_lines(const char *err, bool *same, char *first, size_t size)
{
    int n = 0;
    *same = true;
    first[0] = '\0';
    for (const char *p = err; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, "ocsolve", 7) != 0) continue;
        size_t len = strcspn(p, "\n");
        if (n == 0) {
            size_t k = len < size - 1 ? len : size - 1;
            memcpy(first, p, k);
            first[k] = '\0';
        } else if (strlen(first) != len || strncmp(first, p, len) != 0) {
            *same = false;
        }
        n++;
    }
    return n;
}

MpiFigures tmpi_figures(const MpiRun *m)
{
    MpiFigures f = {0};
    char buf[256];
    line_value(m->r.out, "result: ", f.result, sizeof f.result);
    unsigned long long dec, stopped, stat;
    cr_assert(sscanf(line_value(m->r.out, "jobs: ", buf, sizeof buf), TMPI_JOBS_LINE,
                     &f.jobs, &dec, &f.undecided, &stopped) == 4,
              "%s: no jobs line: %s", m->r.desc, m->r.out);
    cr_assert(sscanf(line_value(m->r.out, "top tree: ", buf, sizeof buf),
                     "%llu nodes, %llu expansions, %llu decided statically, %llu from the store", &f.tree_nodes,
                     &f.expansions, &stat, &f.from_store) == 4,
              "%s: no top tree line: %s", m->r.desc, m->r.out);
    return f;
}

const char *tmpi_brute_name(BruteMemo *bm, RefPos *p) { return brute_order_wins(bm, p) ? "order" : "chaos"; }

/* A random ongoing 6x6 k=5 position of `empties` empty cells, as text. */
static void random_position(RefPos *p, char s[65], int rules, int empties, uint64_t *rng)
{
    int tries = 0;
    while (tl_random_ongoing(p, 6, 5, rules, 36 - empties, rng) != 0) cr_assert(++tries < 100);
    ref_format(p, s);
}

void tmpi_busy_position(RefPos *p, char s[65], int rules, int empties, uint64_t job_nodes, uint64_t *rng)
{
    for (int tries = 0;; tries++) {
        cr_assert(tries < 400, "no random position needed an expansion");
        random_position(p, s, rules, empties, rng);
        Rules r;
        tl_init_rules(&r, p);
        DfpnConfig cfg = dfpn_default_config();
        cfg.kn.centre = false;
        JobsSpec spec = {.workers = 1, .job_nodes = job_nodes, .job_tt_bytes = (size_t)1 << 20};
        JobsResult res;
        char err[256] = "";
        cr_assert_eq(jobs_solve(&r, tl_board(p), &cfg, &spec, &res, err, sizeof err), 0, "%s", err);
        if (res.expansions >= 1 && res.jobs_run >= 8) return;
    }
}

void tmpi_expect_refused(int np, const char *needle, const char *const *args)
{
    MpiRun m;
    tmpi_run_prog(&m, np, OCSOLVE_MPI_BIN, args);
    cr_expect(m.r.exited && m.r.code == 2, "%s: exit code %d (signal %d), expected 2; stderr: %s", m.r.desc, m.r.code,
              m.r.signo, m.r.err);
    cr_expect(m.r.outlen == 0, "%s: expected nothing on stdout: %s", m.r.desc, m.r.out);
    bool same;
    char first[512];
    int n = tmpi_program_lines(m.r.err, &same, first, sizeof first);
    cr_expect(n >= 1 && n <= np, "%s: %d program lines on stderr: %s", m.r.desc, n, m.r.err);
    cr_expect(same, "%s: the ranks said different things: %s", m.r.desc, m.r.err);
    cr_expect(strstr(first, needle) != NULL, "%s: the message should name '%s': %s", m.r.desc, needle, first);
    cr_expect_lt(m.seconds, 30.0, "%s: took %.1f s", m.r.desc, m.seconds);
    tmpi_free(&m);
}
