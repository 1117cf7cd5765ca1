/* test_mpi.c - build/ocsolve-mpi (jobs/mpi_transport.h, app/main_mpi.c)
 * as a black box under Open MPI's mpirun, on this one machine: values of
 * random 6x6 positions against the independent brute force (tests/brute.h)
 * with budgets so small that the top tree must expand (positions that give
 * the search work are picked with the library's jobs_solve, which only
 * chooses inputs, never a value checked); a certificate that
 * the independent verifier accepts; a second run on a store deciding from
 * it; a time limit that the worker ranks obey (STOP); bad input refused
 * with exit 2 and one message; one rank refused; a failure only rank 0
 * sees still ending the whole run; a worker gone silent with its process
 * alive (SIGSTOP) given up after --mpi-lease with one line, and the run
 * ended by the abort after the grace; the worker loop refusing what a
 * rank 0 that breaks the protocol sends (tests/mpi/hostile_rank0.c); and
 * the one-machine ocsolve not linked with MPI. (Separate network hosts: test_netns.c.)
 *
 * Environment: `mpirun` on PATH (Debian openmpi-bin). Every run passes
 * --allow-run-as-root (the tests may run as root) and --oversubscribe
 * (up to 4 ranks on a 2-core machine), and mpirun's --timeout so a hang
 * ends as a failure instead of blocking the suite. Under the sanitizer
 * build (OCS_SANITIZE) the ranks run with ASAN_OPTIONS=detect_leaks=0:
 * Open MPI itself leaves allocations behind at MPI_Finalize (in libmpi,
 * hwloc and plugins it unloads, so LeakSanitizer cannot name them for a
 * suppression), while ASan's and UBSan's other checks stay on. */
#include <criterion/criterion.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../jobs/jobs.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

#ifndef OCSOLVE_MPI_BIN
#error "OCSOLVE_MPI_BIN must name the ocsolve-mpi binary under test"
#endif
#ifndef OCS_HOSTILE_RANK0
#error "OCS_HOSTILE_RANK0 must name build/hostile_rank0 (tests/mpi/hostile_rank0.c)"
#endif

TestSuite(mpi, .timeout = 150);

/* mpirun's own limit on one run: far above what any run here needs. */
#define MPI_RUN_TIMEOUT "60"

#define JOBS_LINE "%llu (%llu decided, %llu undecided, %llu stopped)"

typedef struct {
    Run r;
    double seconds; /* wall time of the whole mpirun */
} MpiRun;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* mpirun -np np prog args..., stdout and stderr captured. */
static void mpi_run_prog(MpiRun *m, int np, const char *prog, const char *const *args)
{
    memset(m, 0, sizeof *m);
    char nps[16];
    snprintf(nps, sizeof nps, "%d", np);
    const char *head[] = {"mpirun", "--allow-run-as-root", "--oversubscribe", "--timeout", MPI_RUN_TIMEOUT,
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
    double t0 = now_seconds();
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
    m->seconds = now_seconds() - t0;
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
#define mpi_run(m, np, ...) mpi_run_prog((m), (np), OCSOLVE_MPI_BIN, ARGS(__VA_ARGS__))

/* A run that must have succeeded (exit 0, a result line). */
static void expect_ran(const MpiRun *m)
{
    cr_assert(m->r.exited && m->r.code == 0, "%s: exit code %d (signal %d) after %.1f s; stderr: %s", m->r.desc,
              m->r.code, m->r.signo, m->seconds, m->r.err);
    cr_assert(strstr(m->r.out, "result: ") != NULL, "%s: no result line: %s", m->r.desc, m->r.out);
}

static void mpi_free(MpiRun *m) { run_free(&m->r); }

/* The lines of stderr the program wrote (they start with "ocsolve"; the
 * rest is mpirun's own report): how many, and whether all are the same
 * line (every rank parses the same command line and fails alike). The
 * first goes to first. */
static int program_lines(const char *err, bool *same, char *first, size_t size)
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

typedef struct {
    unsigned long long jobs, undecided, tree_nodes, expansions, from_store;
    char result[32];
} Figures;

static Figures figures(const MpiRun *m)
{
    Figures f = {0};
    char buf[256];
    line_value(m->r.out, "result: ", f.result, sizeof f.result);
    unsigned long long dec, stopped, stat;
    cr_assert(sscanf(line_value(m->r.out, "jobs: ", buf, sizeof buf), JOBS_LINE,
                     &f.jobs, &dec, &f.undecided, &stopped) == 4,
              "%s: no jobs line: %s", m->r.desc, m->r.out);
    cr_assert(sscanf(line_value(m->r.out, "top tree: ", buf, sizeof buf),
                     "%llu nodes, %llu expansions, %llu decided statically, %llu from the store", &f.tree_nodes,
                     &f.expansions, &stat, &f.from_store) == 4,
              "%s: no top tree line: %s", m->r.desc, m->r.out);
    return f;
}

static const char *cli_rules(int rules)
{
    return rules == REF_ORIGINAL ? "original" : rules == REF_EXACT ? "exact" : "exact-end";
}

static const char *brute_name(BruteMemo *bm, RefPos *p) { return brute_order_wins(bm, p) ? "order" : "chaos"; }

/* A random ongoing 6x6 k=5 position of `empties` empty cells, as text. */
static void random_position(RefPos *p, char s[65], int rules, int empties, uint64_t *rng)
{
    int tries = 0;
    while (tl_random_ongoing(p, 6, 5, rules, 36 - empties, rng) != 0) cr_assert(++tries < 100);
    ref_format(p, s);
}

/* A random position that gives the job-level search work: most random
 * positions are decided at the root by the static knowledge (fours,
 * pairing), so candidates are screened with the library's own jobs_solve
 * in this process (threads, the budget and no centre lemma as in the run
 * that follows) for one that runs several jobs and expands a leaf. The
 * screen only picks inputs; every value checked comes from the brute
 * force. */
static void busy_position(RefPos *p, char s[65], int rules, int empties, uint64_t job_nodes, uint64_t *rng)
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

/* Values against the brute force: 1, 2 and 3 worker ranks, every rule
 * set, a budget of 1 node so that undecided leaves are expanded (the top
 * tree then grows and its backup decides the root). */
Test(mpi, values_against_brute_force)
{
    BruteMemo *bm = brute_new();
    cr_assert(bm);
    uint64_t rng = 20261212;
    int expanded = 0;
    static const int ranks[6] = {3, 2, 3, 4, 3, 3};
    for (int t = 0; t < 6; t++) {
        RefPos p;
        char pos[65];
        int rules = t % 3;
        busy_position(&p, pos, rules, 12 + t % 2, 1, &rng);
        MpiRun m;
        mpi_run(&m, ranks[t], "jobs", "--quiet", "--no-centre", "--job-nodes", "1", "--job-tt-mb", "1", "--rules",
                cli_rules(rules), pos);
        expect_ran(&m);
        Figures f = figures(&m);
        const char *want = brute_name(bm, &p);
        cr_expect_str_eq(f.result, want, "%s: ocsolve-mpi says %s, the brute force %s", m.r.desc, f.result, want);
        if (f.expansions > 0 && f.undecided > 0) {
            cr_expect_gt(f.tree_nodes, 1, "%s: %llu expansions but one top-tree node", m.r.desc, f.expansions);
            expanded++;
        }
        mpi_free(&m);
    }
    brute_free(bm);
    cr_expect_geq(expanded, 3, "only %d of 6 runs expanded a leaf after an undecided job", expanded);
}

/* A position the top tree must split, its certificate from --certs and
 * --proof, checked by the independent verifier against the brute-force
 * winner. */
Test(mpi, certificate_verifies)
{
    BruteMemo *bm = brute_new();
    cr_assert(bm);
    char dir[256], proof[300];
    tl_tmp_dir(dir, sizeof dir, "mpi-certs");
    snprintf(proof, sizeof proof, "%s/top.ocproof", dir);
    uint64_t rng = 5150;
    RefPos p;
    char pos[65];
    /* 30 nodes: a budget of 1 can make the top tree deeper than the 8
     * levels of "see" files the verifier follows. */
    busy_position(&p, pos, REF_EXACT_END, 13, 30, &rng);
    MpiRun m;
    mpi_run(&m, 3, "jobs", "--quiet", "--no-centre", "--job-nodes", "30", "--job-tt-mb", "1", "--rules", "exact-end",
            "--certs", dir, "--proof", proof, pos);
    expect_ran(&m);
    Figures f = figures(&m);
    cr_expect(strstr(m.r.out, "proof: ") != NULL, "%s: no proof line: %s", m.r.desc, m.r.out);
    cr_expect_gt(f.expansions, 0, "%s: no expansion", m.r.desc);
    const char *want = brute_name(bm, &p);
    cr_expect_str_eq(f.result, want);
    Run v;
    run_argv(&v, ARGS("verify", "--rules", "exact-end", "--root", pos, "--winner", want, proof));
    cr_expect(v.exited && v.code == 0, "%s: exit %d: %s%s", v.desc, v.code, v.out, v.err);
    run_free(&v);
    mpi_free(&m);
    brute_free(bm);
    tl_rm_dir(dir);
}

/* Two runs on one store: the second decides from it (only rank 0 opens
 * the store; the workers write certificates into STORE/certs). */
Test(mpi, store_second_run)
{
    BruteMemo *bm = brute_new();
    cr_assert(bm);
    char dir[256], certs[300];
    tl_tmp_dir(dir, sizeof dir, "mpi-store");
    snprintf(certs, sizeof certs, "%s/certs", dir);
    RefPos p;
    char pos[65];
    uint64_t rng = 31337;
    busy_position(&p, pos, REF_ORIGINAL, 13, 1, &rng);
    const char *want = brute_name(bm, &p);
    Figures f[2];
    for (int run = 0; run < 2; run++) {
        MpiRun m;
        /* the first run's worker ranks run 2-thread jobs */
        mpi_run(&m, 3, "jobs", "--quiet", "--no-centre", "--job-nodes", "1", "--job-tt-mb", "1", "--job-threads",
                run ? "1" : "2", "--store", dir, pos);
        expect_ran(&m);
        f[run] = figures(&m);
        cr_expect_str_eq(f[run].result, want, "%s (run %d): %s, the brute force %s", m.r.desc, run + 1,
                         f[run].result, want);
        mpi_free(&m);
    }
    cr_expect(f[1].from_store > 0 || f[1].jobs == 0, "second run: %llu jobs, %llu from the store", f[1].jobs,
              f[1].from_store);
    cr_expect(f[1].jobs == 0 || f[1].jobs < f[0].jobs, "second run ran %llu jobs, the first %llu", f[1].jobs,
              f[0].jobs);
    brute_free(bm);
    tl_rm_dir(certs);
    tl_rm_dir(dir);
}

/* A hard opening (original rules, no centre lemma) with a budget no job
 * reaches in time: at the time limit rank 0 sends STOP, and the worker
 * ranks' jobs end at once (stopped), not when their budget runs out. */
Test(mpi, time_limit_stops_jobs)
{
    MpiRun m;
    mpi_run(&m, 3, "jobs", "--quiet", "--no-centre", "--job-nodes", "1000000000", "--job-tt-mb", "8",
            "--time-limit", "1", "-", "Xc3", "Oa1");
    expect_ran(&m);
    char buf[256];
    unsigned long long run = 0, dec = 0, undec = 0, stopped = 0;
    cr_assert(sscanf(line_value(m.r.out, "jobs: ", buf, sizeof buf), JOBS_LINE,
                     &run, &dec, &undec, &stopped) == 4,
              "%s", m.r.out);
    cr_expect(strstr(m.r.out, "result: unknown") != NULL, "%s", m.r.out);
    cr_expect_geq(stopped, 1, "%s: no job stopped: %s", m.r.desc, m.r.out);
    cr_expect_lt(m.seconds, 20.0, "%s: took %.1f s with a 1 s limit", m.r.desc, m.seconds);
    mpi_free(&m);
}

/* Bad input: exit 2, nothing on stdout, and the program's one message
 * (each rank parses the command line and prints the same line). */
static void expect_refused(int np, const char *needle, const char *const *args)
{
    MpiRun m;
    mpi_run_prog(&m, np, OCSOLVE_MPI_BIN, args);
    cr_expect(m.r.exited && m.r.code == 2, "%s: exit code %d (signal %d), expected 2; stderr: %s", m.r.desc, m.r.code,
              m.r.signo, m.r.err);
    cr_expect(m.r.outlen == 0, "%s: expected nothing on stdout: %s", m.r.desc, m.r.out);
    bool same;
    char first[512];
    int n = program_lines(m.r.err, &same, first, sizeof first);
    cr_expect(n >= 1 && n <= np, "%s: %d program lines on stderr: %s", m.r.desc, n, m.r.err);
    cr_expect(same, "%s: the ranks said different things: %s", m.r.desc, m.r.err);
    cr_expect(strstr(first, needle) != NULL, "%s: the message should name '%s': %s", m.r.desc, needle, first);
    cr_expect_lt(m.seconds, 30.0, "%s: took %.1f s", m.r.desc, m.seconds);
    mpi_free(&m);
}

Test(mpi, bad_input)
{
    expect_refused(3, "--bogus", ARGS("jobs", "--bogus", "-"));
    expect_refused(2, "--job-nodes", ARGS("jobs", "--job-nodes", "x", "-"));
    expect_refused(3, "only command is jobs", ARGS("solve", "-"));
}

/* A coordinator needs workers. */
Test(mpi, one_rank_refused) { expect_refused(1, "at least 2 ranks", ARGS("jobs", "--quiet", "-")); }

/* A failure only rank 0 sees (its --log file), after the workers entered
 * their loop: rank 0 exits 2 without QUIT, and mpirun must end the run. */
Test(mpi, coordinator_failure_ends_run)
{
    expect_refused(3, "--log", ARGS("jobs", "--quiet", "--log", "/nonexistent-ocsolve-dir/log.csv", "-"));
}

/* A worker trusts nothing rank 0 sends (jobs/mpi_transport.h): a rank 0 of
 * the test's own (tests/mpi/hostile_rank0.c) breaks the protocol one way
 * per case, and the real worker loop must end with -1 and the message
 * naming what came, without hanging (mpirun's --timeout) and without
 * waiting in MPI_Finalize for a FIN that never comes; the "ok" case, the
 * protocol kept, must end with 0, so the harness itself is shown to work.
 * No test sent a wrong message after QUIT before FIN was added
 * (2026-12-04); these cover it and the other checks of server_message. */
Test(mpi, hostile_rank0_messages_refused)
{
    static const struct {
        const char *what, *expect;
    } cases[] = {
        {"ok", "worker rc 0: \n"},
        {"after-quit", "worker rc -1: protocol error: a message with tag 3 and 4 bytes from rank 0 after QUIT\n"},
        {"fin-with-bytes", "worker rc -1: protocol error: a message with tag 7 and 1 bytes from rank 0 after QUIT\n"},
        {"short-order", "worker rc -1: rank 0 sent a 5-byte job, not "},
        {"unknown-tag", "worker rc -1: protocol error: a message with tag 99 and 0 bytes from rank 0\n"},
        {"quit-with-bytes", "worker rc -1: protocol error: a message with tag 4 and 2 bytes from rank 0\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        MpiRun m;
        mpi_run_prog(&m, 2, OCS_HOSTILE_RANK0, ARGS(cases[i].what));
        cr_expect(m.r.exited && m.r.code == 0, "%s: exit code %d (signal %d) after %.1f s; stderr: %s", m.r.desc,
                  m.r.code, m.r.signo, m.seconds, m.r.err ? m.r.err : "");
        cr_expect(m.r.out && strstr(m.r.out, cases[i].expect), "%s: stdout %s, not %s", m.r.desc,
                  m.r.out ? m.r.out : "(none)", cases[i].expect);
        run_free(&m.r);
    }
}

/* The one-machine binary must not need MPI at run time. */
Test(mpi, ocsolve_not_linked_with_mpi)
{
    FILE *f = popen("ldd " OCSOLVE_BIN " 2>&1", "r");
    cr_assert(f != NULL);
    char line[512];
    bool mpi = false, libc = false;
    while (fgets(line, sizeof line, f)) {
        mpi = mpi || strstr(line, "libmpi") != NULL;
        libc = libc || strstr(line, "libc.so") != NULL;
    }
    pclose(f);
    cr_assert(libc, "ldd listed no libc: is " OCSOLVE_BIN " there?");
    cr_expect(!mpi, OCSOLVE_BIN " is linked with libmpi");
}

/* ---------------- a rank killed, then resumed ---------------- */

/* The pid of the process of MPI rank `rank` whose parent is mpirun `parent`
 * (Open MPI starts local ranks as mpirun's children and gives each its
 * OMPI_COMM_WORLD_RANK), 0 if none (yet). */
static pid_t rank_pid(pid_t parent, int rank)
{
    DIR *d = opendir("/proc");
    if (!d) return 0;
    char want[64];
    snprintf(want, sizeof want, "OMPI_COMM_WORLD_RANK=%d", rank);
    pid_t found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        pid_t pid = (pid_t)atol(e->d_name);
        if (pid <= 0) continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        int ppid = 0;
        if (fgets(buf, sizeof buf, f)) {
            char *close = strrchr(buf, ')'); /* the command may hold spaces */
            if (close) sscanf(close + 1, " %*c %d", &ppid);
        }
        fclose(f);
        if (ppid != parent) continue;
        static char env[65536];
        snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
        if (!(f = fopen(path, "r"))) continue;
        size_t got = fread(env, 1, sizeof env - 1, f);
        fclose(f);
        env[got] = '\0';
        for (size_t i = 0; i < got; i += strlen(env + i) + 1)
            if (strcmp(env + i, want) == 0) found = pid;
    }
    closedir(d);
    return found;
}

/* Whether process pid has the file at path (an absolute path) open. */
static bool has_open(pid_t pid, const char *path)
{
    char fds[64];
    snprintf(fds, sizeof fds, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(fds);
    if (!d) return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        char link[400], target[400];
        snprintf(link, sizeof link, "%s/%s", fds, e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = '\0';
        found = strcmp(target, path) == 0;
    }
    closedir(d);
    return found;
}

/* Starts mpirun -np 3 on pos with the store dir, kills rank `rank` with
 * SIGKILL `after` seconds after the run began, waits for mpirun to end. 1
 * if the rank was killed while the run went on; *took (if not NULL) the seconds
 * from the run's beginning to mpirun's end (0 if it never began). The run
 * begins when rank 0 has the store's data file open: it opens the store
 * after MPI_Init, so every rank is past Open MPI's start-up. A rank killed during start-up
 * can leave mpirun waiting (Open MPI's behaviour, not the search's: a
 * rank killed 0.05 s after mpirun started kept it 61 s with --timeout
 * 60, 14-51 s without; one killed 0.1 s or later ended it in 1.3 s);
 * under the sanitizer start-up takes about 0.8 s, so counting from
 * mpirun's start the kills sometimes landed there and the test timed out. */
static int run_and_kill(const char *pos, const char *dir, int rank, double after, double *took)
{
    const char *argv[] = {"mpirun", "--allow-run-as-root", "--oversubscribe", "--timeout", MPI_RUN_TIMEOUT, "-np",
                          "3", OCSOLVE_MPI_BIN, "jobs", "--quiet", "--no-centre", "--job-nodes", "1", "--job-tt-mb",
                          "1", "--store", dir, pos, NULL};
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1), dup2(null, 2);
#ifdef OCS_SANITIZE
        setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
#endif
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    char data[PATH_MAX + 16], *real = realpath(dir, NULL);
    cr_assert(real, "%s", dir);
    snprintf(data, sizeof data, "%s/data.mdb", real);
    free(real);
    double t0 = -1;
    pid_t r0 = 0;
    int status, killed = 0;
    for (;;) {
        if (waitpid(pid, &status, WNOHANG) == pid) {
            if (took) *took = t0 < 0 ? 0 : now_seconds() - t0;
            return killed;
        }
        if (t0 < 0) {
            if (r0 <= 0) r0 = rank_pid(pid, 0);
            if (r0 > 0 && has_open(r0, data)) t0 = now_seconds();
        } else if (!killed && now_seconds() - t0 >= after) {
            pid_t r = rank_pid(pid, rank);
            if (r > 0 && kill(r, SIGKILL) == 0) killed = 1;
            if (r <= 0 && now_seconds() - t0 > after + 5) after = 1e9; /* never found: let it end */
        }
        usleep(2000);
    }
}

/* A worker rank and the coordinator, each killed with SIGKILL at random
 * moments of a run's first half (later runs resume from the store and are
 * shorter; mpirun then ends the whole run): a new run on the same
 * store gives the brute force's value, and every record the killed runs
 * left in the store agrees with the brute force. */
Test(mpi, sigkill_rank_then_resume)
{
    BruteMemo *bm = brute_new();
    cr_assert(bm);
    uint64_t rng = 4242;
    RefPos p;
    char pos[65], dir[256];
    busy_position(&p, pos, REF_ORIGINAL, 13, 1, &rng);
    const char *want = brute_name(bm, &p);
    tl_tmp_dir(dir, sizeof dir, "mpi-kill");
    double whole;
    run_and_kill(pos, dir, 0, 1e9, &whole); /* how long a whole run takes, from the store's opening */
    tl_rm_dir(dir);
    tl_tmp_dir(dir, sizeof dir, "mpi-kill");
    /* Until 4 runs had a rank killed (at most 12 runs): a run that ends
     * before its kill time (later runs resume from the store and are
     * shorter, and a loaded machine changes the times) is only one more
     * resume, and the next kill is drawn from that run's length. Rank 1
     * (a worker), then rank 0 (the coordinator), ... */
    int killed = 0;
    double span = whole;
    for (int k = 0; k < 12 && killed < 4; k++) {
        double took = span;
        int hit = run_and_kill(pos, dir, 1 - killed % 2, span * tl_below(&rng, 50) / 100.0, &took);
        killed += hit;
        if (!hit) span = took;
    }
    MpiRun m;
    mpi_run(&m, 3, "jobs", "--quiet", "--no-centre", "--job-nodes", "1", "--job-tt-mb", "1", "--store", dir, pos);
    expect_ran(&m);
    Figures f = figures(&m);
    cr_expect_str_eq(f.result, want, "%s after %d kills: %s, the brute force %s", m.r.desc, killed, f.result, want);
    mpi_free(&m);
    char err[256] = "";
    Store *st = store_open(dir, true, 0, err, sizeof err);
    cr_assert(st, "%s", err);
    int checked, bad = tl_store_disagreements(st, bm, REF_ORIGINAL, &checked);
    store_close(st);
    cr_expect_eq(bad, 0, "%d of %d stored records disagree with the brute force", bad, checked);
    cr_log_info("whole run %.2f s; %d runs had a rank killed; %d records checked", whole, killed, checked);
    cr_expect_geq(killed, 2, "only %d runs had a rank killed before they ended", killed);
    brute_free(bm);
    tl_rm_dir(dir);
}

/* A worker rank that falls silent while its process and its daemon live
 * (SIGSTOP: nothing closes, so Open MPI notices nothing): rank 0 must give
 * it up after --mpi-lease (one line naming rank 1), leave mpirun the grace
 * of three leases, and then end the job by MPI_Abort. Once the line is
 * out the test lets rank 1 go on (SIGCONT): mpirun itself, whose child
 * the stopped rank is, once hung for good after its abort with every
 * rank already gone (under load; results/jobs/mpi-cluster.md; mpirun's
 * own shutdown deadlocks when it is aborted while a rank waits in
 * MPI_Finalize, which FIN now avoids: jobs/mpi_transport.h). The
 * run must then end by the abort, well within mpirun's own --timeout. */
Test(mpi, silent_worker_lost_by_lease)
{
    char dir[256];
    tl_tmp_dir(dir, sizeof dir, "mpi-lease");
    const char *argv[] = {"mpirun", "--allow-run-as-root", "--oversubscribe", "--timeout", MPI_RUN_TIMEOUT, "-np", "3",
                          OCSOLVE_MPI_BIN, "jobs", "--quiet", "--no-centre", "--job-nodes", "2000", "--job-tt-mb", "4",
                          "--mpi-lease", "2", "--store", dir, "-", "Xc3", "Oa1", "Xb2", "Of6", NULL};
    int fe = make_tmp();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1);
        dup2(fe, 2);
#ifdef OCS_SANITIZE
        setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
#endif
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    char data[PATH_MAX + 16], *real = realpath(dir, NULL);
    cr_assert(real);
    snprintf(data, sizeof data, "%s/data.mdb", real);
    free(real);
    double t0 = -1, stopped_at = -1, line_at = -1;
    pid_t r0 = 0, r1 = 0;
    int status = 0;
    for (;;) {
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        double now = now_seconds();
        if (t0 < 0) {
            if (r0 <= 0) r0 = rank_pid(pid, 0);
            if (r0 > 0 && has_open(r0, data)) t0 = now;
        } else if (stopped_at < 0 && now - t0 >= 1.0) {
            r1 = rank_pid(pid, 1);
            if (r1 > 0 && kill(r1, SIGSTOP) == 0) stopped_at = now;
        } else if (stopped_at > 0 && line_at < 0) {
            size_t n;
            char *so_far = slurp(fe, &n);
            if (strstr(so_far, "lost worker rank 1")) {
                line_at = now;
                kill(r1, SIGCONT);
            }
            free(so_far);
        }
        if (stopped_at > 0 && now - stopped_at > 60) { /* the hang guard: end it, and fail below */
            if (r1 > 0) kill(r1, SIGCONT);
            kill(pid, SIGKILL);
        }
        usleep(5000);
    }
    double took = stopped_at > 0 ? now_seconds() - stopped_at : 0;
    size_t len;
    char *err = slurp(fe, &len);
    close(fe);
    cr_assert(stopped_at > 0, "the run ended before rank 1 was stopped: %s", err);
    cr_expect(!(WIFEXITED(status) && WEXITSTATUS(status) == 0), "exit 0 with a worker stopped: %s", err);
    bool same;
    char first[1024];
    int n = program_lines(err, &same, first, sizeof first);
    cr_expect_eq(n, 1, "%d lines of ours: %s", n, err);
    cr_expect(strstr(first, "lost worker rank 1 (host ") != NULL && strstr(first, "--mpi-lease of 2 s") != NULL,
              "the line should name rank 1 and the lease: %s", first);
    /* lease 2 s + two beats of listening + the grace of 3 leases, with room */
    cr_expect(line_at > 0, "no line gave rank 1 up: %s", err);
    cr_expect_lt(took, 40.0, "the run ended %.1f s after the worker stopped", took);
    cr_log_info("a stopped worker: given up %.1f s after it stopped, the run ended %.1f s after",
                line_at > 0 ? line_at - stopped_at : -1.0, took);
    free(err);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect(system(cmd) == 0);
}

/* --mpi-lease is for ocsolve-mpi; the threads mode refuses it. */
Test(mpi, lease_option_checked)
{
    expect_reject("--mpi-lease", "jobs", "--mpi-lease", "5", "-");
    expect_refused(3, "--mpi-lease", ARGS("jobs", "--mpi-lease", "-1", "-"));
}
