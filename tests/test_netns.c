/* test_netns.c - build/ocsolve-mpi across separate network hosts on this
 * one machine (issue 38): scripts/netns-cluster makes each host a network
 * namespace of its own (192.0.2.0/24 only, joined by a bridge in a
 * namespace of the test's own), and mpirun starts every remote host's
 * daemon through the script's launcher, so the ranks reach each other
 * only over TCP between the hosts' interfaces (the tcp BTL, no shared
 * memory). Checked, each against something other than the run's own
 * output:
 *   - values of random positions against the brute force (tests/brute.h),
 *     and a two-piece position against the threads mode (build/ocsolve),
 *     whose certificate the independent verifier accepts with the threads
 *     mode's winner; no rank but rank 0 holds any file of the store open
 *     (sampled through /proc all run long, every process of every host);
 *   - a whole host killed mid-run, twice: its processes killed (its
 *     connections closed: mpirun notices at once), and its link cut first
 *     (a host that vanishes: only the lease of jobs/mpi_transport.c
 *     notices, with one line naming the host). Each run must end within a
 *     generous hang guard, and a rerun on the store gives the threads
 *     mode's answer with store hits;
 *   - one host behind a slow, lossy link (20 ms, 2 % loss; netwire): the
 *     threads mode's value still;
 *   - the binary missing on one host (hidden by the launcher): mpirun
 *     ends with its error naming the executable, no hang.
 * The only timed assertions are hang guards (a run must end within N s).
 *
 * Skips, saying why in one line, when the machine cannot make network
 * namespaces (not root, no iproute2, no CAP_SYS_ADMIN): `netns-cluster
 * check` decides. The clusters are removed when each test ends, and by a
 * guard process (--owner) if the test process dies first. */
#include <criterion/criterion.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "brute.h"
#include "runbin.h"
#include "testlib.h"

#ifndef OCS_NETNS_CLUSTER
#error "OCS_NETNS_CLUSTER must name scripts/netns-cluster"
#endif

/* mpirun's own limit, and the hang guard every run is held to. Under the
 * sanitizers every process runs several times slower (a resumed run of
 * host_killed_then_resume passed 90 s under ASan on a loaded machine,
 * still making progress), so the guard is wider there. */
#ifdef OCS_SANITIZE
#define HANG_GUARD 360
#define HANG_GUARD_S "360"
TestSuite(netns, .timeout = 900);
#else
#define HANG_GUARD 90
#define HANG_GUARD_S "90"
TestSuite(netns, .timeout = 240);
#endif

/* The 4-piece position the fault runs use (original rules, no centre
 * lemma, jobs of 2 000 nodes: a few thousand jobs, several seconds on the
 * cluster) and the 2-piece one of the value check (62 jobs, 2 expansions
 * in threads mode). */
#define FAULT_OPTS "--quiet", "--no-centre", "--job-nodes", "2000", "--job-tt-mb", "4"
#define FAULT_POS "-", "Xc3", "Oa1", "Xb2", "Of6"
#define TWO_OPTS "--quiet", "--no-centre", "--job-nodes", "500", "--job-nodes-max", "8000", "--job-tt-mb", "4"
#define TWO_POS "-", "Xc3", "Xd4"
#define TWO_ROOT "..............X......X.............."

typedef struct {
    char dir[256];
    char prefix[64]; /* ocs-PID- */
    int hosts;
} Cluster;

typedef struct {
    int exited, code, signo;
    char *out, *err;
    size_t outlen, errlen;
    double seconds;
    bool killed; /* a host was killed during the run */
} CRun;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs a shell-free command, output to the files fo/fe (or /dev/null), and
 * waits; the exit status. */
static int run_wait(char *const argv[], int fo, int fe)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(fo >= 0 ? fo : null, 1);
        dup2(fe >= 0 ? fe : null, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    return st;
}

/* Skips the test, in one line, unless namespaces can be made here. */
static void need_namespaces(void)
{
    int fo = make_tmp();
    char *argv[] = {(char *)OCS_NETNS_CLUSTER, (char *)"check", NULL};
    int st = run_wait(argv, fo, fo);
    size_t len;
    char *why = slurp(fo, &len);
    close(fo);
    why[strcspn(why, "\n")] = '\0';
    bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (!ok) {
        fprintf(stderr, "netns: skipped: %s\n", why);
        free(why);
        cr_skip_test("no network namespaces here (%s)", "root and iproute2 needed");
    }
    free(why);
}

static void cluster_up(Cluster *cl, int hosts, int lossy)
{
    need_namespaces();
    memset(cl, 0, sizeof *cl);
    cl->hosts = hosts;
    tl_tmp_dir(cl->dir, sizeof cl->dir, "netns");
    char h[16], l[16], owner[32];
    snprintf(h, sizeof h, "%d", hosts);
    snprintf(l, sizeof l, "%d", lossy);
    snprintf(owner, sizeof owner, "%d", (int)getpid());
    char *argv[] = {(char *)OCS_NETNS_CLUSTER, (char *)"up", cl->dir, (char *)"--hosts", h, (char *)"--slots",
                    (char *)"2", (char *)"--head-slots", (char *)"1", (char *)"--owner", owner, (char *)"--lossy", l,
                    (char *)"--wire", (char *)OCS_NETWIRE_BIN, NULL};
    if (lossy < 0) argv[11] = NULL;
    int fe = make_tmp();
    int st = run_wait(argv, -1, fe);
    size_t len;
    char *err = slurp(fe, &len);
    close(fe);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "netns-cluster up failed: %s", err);
    free(err);
    char path[300];
    snprintf(path, sizeof path, "%s/prefix", cl->dir);
    FILE *f = fopen(path, "r");
    cr_assert(f && fgets(cl->prefix, sizeof cl->prefix, f), "no %s", path);
    fclose(f);
    cl->prefix[strcspn(cl->prefix, "\n")] = '\0';
}

static void cluster_down(Cluster *cl)
{
    char *argv[] = {(char *)OCS_NETNS_CLUSTER, (char *)"down", cl->dir, NULL};
    int st = run_wait(argv, -1, -1);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "netns-cluster down failed");
    char path[300];
    const char *files[] = {"hosts", "nodes", "wire.out", "wire.err"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", cl->dir, files[i]);
        unlink(path);
    }
    rmdir(cl->dir);
}

/* The pids of the processes in namespace NS (ip netns pids); n returned. */
static int ns_pids(const char *ns, pid_t *pids, int max)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ip netns pids %s 2>/dev/null", ns);
    FILE *p = popen(cmd, "r");
    if (!p) return 0;
    int n = 0;
    long v;
    while (n < max && fscanf(p, "%ld", &v) == 1) pids[n++] = (pid_t)v;
    pclose(p);
    return n;
}

/* What every host looks like, for a run near its hang guard: its
 * processes (state, age, where they wait), its sockets and its neighbour
 * table, appended to DIR/hang.txt, which the failing assertion prints. */
static void dump_hosts(const Cluster *cl)
{
    char cmd[1024];
    for (int h = 0; h < cl->hosts; h++) {
        snprintf(cmd, sizeof cmd,
                 "{ echo '== host %d (%sh%d)'; pids=$(ip netns pids %sh%d 2>/dev/null | tr '\\n' ,); "
                 "[ -n \"$pids\" ] && ps -o pid,ppid,stat,etime,time,wchan:24,args -p \"${pids%%,}\"; "
                 "ip -n %sh%d neigh; ip -n %sh%d -s link show eth0; ip netns exec %sh%d ss -tanpo; } >> '%s/hang.txt' 2>&1",
                 h, cl->prefix, h, cl->prefix, h, cl->prefix, h, cl->prefix, h, cl->prefix, h, cl->dir);
        if (system(cmd) != 0) { /* the dump is only a help; its failure says nothing of the run */
        }
    }
}

static char *hang_text(const Cluster *cl)
{
    char path[300];
    snprintf(path, sizeof path, "%s/hang.txt", cl->dir);
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    static char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The MPI rank of process pid (OMPI_COMM_WORLD_RANK), -1 if none. */
static int rank_of(pid_t pid)
{
    char path[64];
    static char env[65536];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t got = fread(env, 1, sizeof env - 1, f);
    fclose(f);
    env[got] = '\0';
    for (size_t i = 0; i < got; i += strlen(env + i) + 1)
        if (strncmp(env + i, "OMPI_COMM_WORLD_RANK=", 21) == 0) return atoi(env + i + 21);
    return -1;
}

/* Whether process pid has a file of the store itself open: one directly
 * in folder dir (a real path): data.mdb, lock.mdb, journal. (The worker
 * ranks do write into dir/certs, the default --certs: certificates are
 * files of their own, written whole and renamed, made for a shared file
 * system; the store's map and lock are not.) */
static bool opens_under(pid_t pid, const char *dir)
{
    char fds[64];
    snprintf(fds, sizeof fds, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(fds);
    if (!d) return false;
    bool found = false;
    size_t dl = strlen(dir);
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        char link[400], target[PATH_MAX];
        snprintf(link, sizeof link, "%s/%s", fds, e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = '\0';
        found = strncmp(target, dir, dl) == 0 && target[dl] == '/' && !strchr(target + dl + 1, '/');
    }
    closedir(d);
    return found;
}

typedef struct {
    const char *store;   /* real path of the store folder, or NULL */
    int kill_host;       /* host to kill mid-run, -1: none */
    bool cut;            /* cut its link before killing it */
    double kill_after;   /* seconds after rank 0 opened the store */
    const char *hide;    /* OCS_NETNS_HIDE for this run, or NULL */
    int *foreign_opens;  /* counts samples where a rank > 0 had the store open */
    int *samples;
} RunOpts;

/* One mpirun in the cluster: `netns-cluster run DIR mpirun ... -np np
 * ocsolve-mpi jobs args`, with the checks of o while it runs. */
static void crun_v(CRun *r, const Cluster *cl, int np, const RunOpts *o, const char *const *args)
{
    memset(r, 0, sizeof *r);
    char nps[16], hosts[300];
    snprintf(nps, sizeof nps, "%d", np);
    snprintf(hosts, sizeof hosts, "%s/hosts", cl->dir);
    const char *head[] = {OCS_NETNS_CLUSTER, "run", cl->dir, "mpirun", "--allow-run-as-root", "--oversubscribe",
                          "--timeout", HANG_GUARD_S, "--hostfile", hosts, "-np", nps, OCSOLVE_MPI_BIN};
    size_t nh = sizeof head / sizeof *head, na = 0;
    while (args[na]) na++;
    char **argv = calloc(nh + na + 1, sizeof *argv);
    cr_assert(argv);
    for (size_t i = 0; i < nh + na; i++) argv[i] = (char *)(i < nh ? head[i] : args[i - nh]);
    int fo = make_tmp(), fe = make_tmp();
    fflush(stdout);
    fflush(stderr);
    double t0 = now_s();
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        if (o && o->hide) setenv("OCS_NETNS_HIDE", o->hide, 1);
#ifdef OCS_SANITIZE
        setenv("ASAN_OPTIONS", "detect_leaks=0", 1); /* Open MPI's own leaks: tmpi.h */
#endif
        execv(argv[0], argv);
        _exit(127);
    }
    double started = -1;
    int st = 0;
    bool dumped = false;
    for (;;) {
        if (waitpid(pid, &st, WNOHANG) == pid) break;
        if (!dumped && now_s() - t0 > HANG_GUARD - 15) {
            dump_hosts(cl); /* mpirun's timeout comes soon: how it stands */
            dumped = true;
        }
        if (now_s() - t0 > HANG_GUARD + 30) { /* mpirun's own --timeout failed too */
            kill(pid, SIGKILL);
            cr_assert_fail("the run did not end within %d s", HANG_GUARD + 30);
        }
        if (o && o->store) {
            /* every process of every host: only rank 0 may have the store open */
            for (int h = 0; h < cl->hosts; h++) {
                char ns[96];
                snprintf(ns, sizeof ns, "%sh%d", cl->prefix, h);
                pid_t pids[256];
                int n = ns_pids(ns, pids, 256);
                for (int i = 0; i < n; i++) {
                    int rank = rank_of(pids[i]);
                    if (rank < 0 || !opens_under(pids[i], o->store)) continue;
                    if (rank == 0 && started < 0) started = now_s(); /* past MPI's start-up */
                    if (rank > 0 && o->foreign_opens) ++*o->foreign_opens;
                }
            }
            if (o->samples) ++*o->samples;
        }
        if (o && o->kill_host >= 0 && !r->killed && started >= 0 && now_s() - started >= o->kill_after) {
            char ns[96], cmd[256];
            if (o->cut) {
                snprintf(cmd, sizeof cmd, "ip -n %ssw link set p%d down", cl->prefix, o->kill_host);
                cr_assert(system(cmd) == 0, "%s", cmd);
            }
            snprintf(ns, sizeof ns, "%sh%d", cl->prefix, o->kill_host);
            pid_t pids[256];
            int n = ns_pids(ns, pids, 256);
            for (int i = 0; i < n; i++) kill(pids[i], SIGKILL);
            r->killed = n > 0;
            r->seconds = now_s(); /* from the kill, below */
        }
        usleep(20000);
    }
    double end = now_s();
    r->seconds = r->killed ? end - r->seconds : end - t0;
    if (o && o->cut && r->killed) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "ip -n %ssw link set p%d up", cl->prefix, o->kill_host);
        cr_expect(system(cmd) == 0, "%s", cmd);
    }
    free(argv);
    r->out = slurp(fo, &r->outlen);
    r->err = slurp(fe, &r->errlen);
    close(fo);
    close(fe);
    r->exited = WIFEXITED(st);
    r->code = r->exited ? WEXITSTATUS(st) : -1;
    r->signo = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}
#define crun(r, cl, np, o, ...) crun_v((r), (cl), (np), (o), ARGS(__VA_ARGS__))

static void crun_free(CRun *r)
{
    free(r->out);
    free(r->err);
}

static void expect_result(const CRun *r, const char *want, const char *what)
{
    char got[64] = "";
    cr_assert(r->exited && r->code == 0, "%s: exit %d (signal %d) after %.1f s: %s\nits output: %s", what, r->code,
              r->signo, r->seconds, r->err, r->out);
    line_value(r->out, "result: ", got, sizeof got);
    cr_expect_str_eq(got, want, "%s: %s, expected %s", what, got, want);
}

/* The threads mode's answer (build/ocsolve jobs --workers 2). */
static void threads_result(char *want, size_t size, const char *const *args)
{
    Run t;
    run_argv(&t, args);
    cr_assert(t.exited && t.code == 0, "%s: %s", t.desc, t.err);
    line_value(t.out, "result: ", want, size);
    cr_assert(strcmp(want, "order") == 0 || strcmp(want, "chaos") == 0, "%s: %s", t.desc, t.out);
    run_free(&t);
}

static const char *cli_rules_name(int rules)
{
    return rules == REF_ORIGINAL ? "original" : rules == REF_EXACT ? "exact" : "exact-end";
}

/* ------------------------------------------------------------------ */

/* Values over TCP between hosts: random positions against the brute
 * force, a two-piece position against the threads mode with a verified
 * certificate, and no rank but 0 with the store open. */
Test(netns, values_and_certificate)
{
    Cluster cl;
    cluster_up(&cl, 3, -1);
    BruteMemo *bm = brute_new();
    cr_assert(bm);
    uint64_t rng = 38038;
    for (int t = 0; t < 2; t++) {
        RefPos p;
        char pos[65];
        int rules = t == 0 ? REF_ORIGINAL : REF_EXACT_END, tries = 0;
        while (tl_random_ongoing(&p, 6, 5, rules, 36 - 13, &rng) != 0) cr_assert(++tries < 100);
        ref_format(&p, pos);
        const char *want = tl_brute_winner(bm, &p) == WINNER_ORDER ? "order" : "chaos";
        CRun r;
        crun(&r, &cl, 5, NULL, "jobs", "--quiet", "--no-centre", "--job-nodes", "1", "--job-tt-mb", "1", "--rules",
             cli_rules_name(rules), pos);
        expect_result(&r, want, pos);
        crun_free(&r);
    }
    brute_free(bm);

    char want[32];
    threads_result(want, sizeof want, ARGS("jobs", "--workers", "2", TWO_OPTS, TWO_POS));
    char dir[256], store[PATH_MAX], proof[PATH_MAX + 32];
    tl_tmp_dir(dir, sizeof dir, "netns-store");
    cr_assert(realpath(dir, store));
    snprintf(proof, sizeof proof, "%s/top.ocproof", store);
    int foreign = 0, samples = 0;
    RunOpts o = {.store = store, .kill_host = -1, .foreign_opens = &foreign, .samples = &samples};
    CRun r;
    crun(&r, &cl, 5, &o, "jobs", TWO_OPTS, "--store", store, "--proof", proof, TWO_POS);
    expect_result(&r, want, "two-piece position over the cluster");
    crun_free(&r);
    cr_expect_eq(foreign, 0, "%d samples saw a rank other than 0 with the store open", foreign);
    cr_expect_gt(samples, 3, "only %d samples of open files", samples);
    Run v;
    run_argv(&v, ARGS("verify", "--rules", "original", "--root", TWO_ROOT, "--winner", want, proof));
    cr_expect(v.exited && v.code == 0, "%s: exit %d: %s%s", v.desc, v.code, v.out, v.err);
    run_free(&v);
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", store);
    cr_expect(system(cmd) == 0);
    cluster_down(&cl);
}

/* A whole host killed mid-run, then its link cut and another killed; each
 * run must end within the hang guard, the cut one with one line of ours
 * naming the host; a rerun on the same store gives the threads mode's
 * answer from the store. */
Test(netns, host_killed_then_resume)
{
    Cluster cl;
    cluster_up(&cl, 3, -1);
    char want[32];
    threads_result(want, sizeof want, ARGS("jobs", "--workers", "2", FAULT_OPTS, FAULT_POS));
    char dir[256], store[PATH_MAX];
    tl_tmp_dir(dir, sizeof dir, "netns-kill");
    cr_assert(realpath(dir, store));

    for (int cut = 0; cut < 2; cut++) {
        int host = cut ? 1 : 2;
        RunOpts o = {.store = store, .kill_host = host, .cut = cut, .kill_after = cut ? 1.5 : 2.0};
        CRun r;
        crun(&r, &cl, 5, &o, "jobs", FAULT_OPTS, "--mpi-lease", "4", "--store", store, FAULT_POS);
        cr_assert(r.killed, "the run ended before host %d was killed: %s", host, r.out);
        cr_expect(!(r.exited && r.code == 0), "killed host %d, yet exit 0: %s", host, r.out);
        cr_expect_lt(r.seconds, HANG_GUARD, "the run took %.1f s after the kill", r.seconds);
        char addr[32];
        snprintf(addr, sizeof addr, "192.0.2.%d", 10 + host);
        if (!cut) {
            /* its connections closed: mpirun ends the job and names the host */
            cr_expect(strstr(r.err, addr) != NULL, "no line names %s: %s", addr, r.err);
        } else {
            /* a silent host: our one line, naming the host and the store */
            char ns[96];
            snprintf(ns, sizeof ns, "%sh%d", cl.prefix, host);
            int ours = 0;
            const char *line = NULL;
            for (const char *p = r.err; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
                if (strncmp(p, "ocsolve", 7) == 0) ours++, line = line ? line : p;
            cr_expect_eq(ours, 1, "%d lines of ours: %s", ours, r.err);
            cr_expect(line && strstr(line, "lost worker") && strstr(line, ns), "the line should name host %s: %s", ns,
                      r.err);
        }
        cr_log_info("host %d %s: the run ended %.1f s after", host, cut ? "cut off and killed" : "killed", r.seconds);
        crun_free(&r);
    }
    /* The rerun on a new cluster: what it checks is the store, and the
     * cut run's namespaces keep the kernel's state of that network fault
     * (neighbour entries, sockets the killed processes left) that a run
     * resumed on a repaired cluster does not meet. On the old cluster the
     * rerun twice printed nothing within mpirun's 90 s (on the CI's
     * machine, and once in 20 runs here under heavy load): not one of the
     * progress lines rank 0 prints every 5 s once its search runs. Not
     * understood; dump_hosts shows such a run if it happens again. */
    cluster_down(&cl);
    cluster_up(&cl, 3, -1);
    CRun again;
    RunOpts oa = {.store = store, .kill_host = -1};
    crun(&again, &cl, 5, &oa, "jobs", "--no-centre", "--job-nodes", "2000", "--job-tt-mb", "4", "--store", store,
         FAULT_POS);
    if (!(again.exited && again.code == 0)) cr_log_error("%s", hang_text(&cl) ? hang_text(&cl) : "(no dump)");
    expect_result(&again, want, "rerun on the store");
    char buf[256];
    unsigned long long nodes = 0, expa = 0, stat = 0, hits = 0;
    cr_expect(sscanf(line_value(again.out, "top tree: ", buf, sizeof buf),
                     "%llu nodes, %llu expansions, %llu decided statically, %llu from the store", &nodes, &expa, &stat,
                     &hits) == 4 &&
                  hits > 0,
              "the rerun took nothing from the store: %s", again.out);
    cr_log_info("the rerun on the store: %.1f s, %llu top-tree nodes, %llu from the store", again.seconds, nodes, hits);
    crun_free(&again);
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", store);
    cr_expect(system(cmd) == 0);
    cluster_down(&cl);
}

/* One host behind 20 ms and 2 % loss: the threads mode's value still. */
Test(netns, lossy_link)
{
    Cluster cl;
    cluster_up(&cl, 3, 2);
    char want[32];
    threads_result(want, sizeof want, ARGS("jobs", "--workers", "2", TWO_OPTS, TWO_POS));
    CRun r;
    crun(&r, &cl, 5, NULL, "jobs", TWO_OPTS, TWO_POS);
    expect_result(&r, want, "over a lossy link");
    cr_log_info("two-piece position with host 2 behind the lossy link: %.1f s", r.seconds);
    crun_free(&r);
    cluster_down(&cl);
}

/* The binary missing on one host: mpirun's error, no hang. */
Test(netns, missing_binary)
{
    Cluster cl;
    cluster_up(&cl, 3, -1);
    char bindir[PATH_MAX], hide[PATH_MAX + 32];
    snprintf(bindir, sizeof bindir, "%s", OCSOLVE_MPI_BIN);
    *strrchr(bindir, '/') = '\0';
    snprintf(hide, sizeof hide, "192.0.2.12:%s", bindir);
    RunOpts o = {.kill_host = -1, .hide = hide};
    CRun r;
    crun(&r, &cl, 5, &o, "jobs", "--quiet", "-", "Xc3");
    cr_expect(!(r.exited && r.code == 0), "exit 0 with the binary missing on a host: %s", r.out);
    cr_expect_lt(r.seconds, HANG_GUARD, "took %.1f s", r.seconds);
    cr_expect(strstr(r.out, "result:") == NULL, "a result without a host's ranks: %s", r.out);
    cr_expect(strstr(r.err, "ocsolve-mpi") != NULL && strstr(r.err, "192.0.2.12") != NULL,
              "the error should name the executable and the host: %s", r.err);
    cr_log_info("missing binary: ended in %.1f s: %s", r.seconds, r.err);
    crun_free(&r);
    cluster_down(&cl);
}
