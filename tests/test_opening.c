/* test_opening.c - a long run that outlives its machine
 * (scripts/solve-opening, `make solve-opening`): a run stopped by a
 * signal leaves a commit-sized snapshot of its store and journal; a fresh
 * tree holding nothing but the scripts and that snapshot (as a fresh
 * clone would) resumes from it, reaches the brute force's value, and its
 * certificate, made at the end from the store's records (the first
 * machine's certificates are gone), verifies; and the same for the
 * bounded question (OPENING_WITHIN, `make solve-within`).
 *
 * The positions are random 6x6 positions with 15 empty cells under the
 * original rules (the brute force decides them), reached from the empty
 * board by their X and O pieces in any order: under the original rules a
 * line never goes away, so no position on the way has one. */
#include <criterion/criterion.h>

#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "brute.h"
#include "testlib.h"

TestSuite(opening, .timeout = 240);

static void repo_root(char *out, size_t len)
{
    char sig[1024];
    snprintf(sig, sizeof sig, "%s", OCS_SIGNATURE_FILE);
    snprintf(out, len, "%s", dirname(dirname(sig)));
}

/* A tree with scripts/solve-opening only (what it runs needs nothing else). */
static void fresh_tree(char *dir, size_t len)
{
    char root[1024], cmd[4096];
    repo_root(root, sizeof root);
    tl_tmp_dir(dir, len, "opening");
    snprintf(cmd, sizeof cmd, "mkdir -p %s/scripts && cp %s/scripts/solve-opening %s/scripts/", dir, root, dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* p's pieces as moves from the empty board ("Xa1 Ob3 ..."). */
static void moves_of(const RefPos *p, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < 36; i++) {
        if (p->cell[i] == '.') continue;
        at += (size_t)snprintf(out + at, len - at, "%s%c%c%d", at ? " " : "", p->cell[i], 'a' + i % 6, i / 6 + 1);
    }
}

/* Runs the script in dir for MOVES under the original rules (within >= 0:
 * the bounded question, OPENING_WITHIN); with stop_after > 0 sends it
 * SIGTERM after that many seconds (it stops the search cleanly and
 * snapshots). Output in dir/out.txt; the exit status. */
static int run_opening(const char *dir, const char *moves, double stop_after, int within)
{
    char cmd[4096], w[64] = "";
    if (within >= 0) snprintf(w, sizeof w, "OPENING_WITHIN=%d ", within);
    snprintf(cmd, sizeof cmd,
             "cd %s && exec env %sOCSOLVE=%s SOLVE_THREADS=1 OPENING_TT_MB=16 OPENING_JOB_NODES=1 "
             "OPENING_JOB_NODES_MAX=4096 scripts/solve-opening '%s' original >out.txt 2>&1",
             dir, w, OCSOLVE_BIN, moves);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    if (stop_after > 0) {
        struct timespec ts = {(time_t)stop_after, (long)((stop_after - (time_t)stop_after) * 1e9)};
        nanosleep(&ts, NULL);
        kill(pid, SIGTERM);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *slurp_file(const char *dir, const char *name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) return strdup("");
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strdup(buf);
}

Test(opening, stop_snapshot_resume_elsewhere)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 3535;
    for (int t = 0; t < 2; t++) {
        RefPos p;
        cr_assert_eq(tl_random_ongoing(&p, 6, 5, 0, 21, &rng), 0);
        Winner want = tl_brute_winner(m, &p);
        char moves[400], a[256], b[256], name[600], cmd[2000];
        moves_of(&p, moves, sizeof moves);
        fresh_tree(a, sizeof a);
        /* the first machine: stopped early by a signal */
        int rc = run_opening(a, moves, 1.5, -1);
        char *out = slurp_file(a, "out.txt");
        cr_assert(rc == 0 || rc == 1 || rc == 128 + SIGTERM, "first run: exit %d\n%s", rc, out);
        free(out);
        snprintf(name, sizeof name, "original-%s", moves);
        for (char *c = name; *c; c++)
            if (*c == ' ') *c = '-';
        /* a fresh clone: the scripts and the committed snapshot only */
        fresh_tree(b, sizeof b);
        snprintf(cmd, sizeof cmd, "mkdir -p %s/results/openings && cp -r %s/results/openings/%s %s/results/openings/",
                 b, a, name, b);
        cr_assert_eq(system(cmd), 0, "no snapshot after the first run: %s", cmd);
        snprintf(cmd, sizeof cmd, "test -s %s/results/openings/%s/store/data.mdb", b, name);
        cr_assert_eq(system(cmd), 0, "the snapshot has no store");
        rc = run_opening(b, moves, 0, -1);
        out = slurp_file(b, "out.txt");
        cr_assert_eq(rc, 0, "resumed run: exit %d\n%s", rc, out);
        char want_line[200];
        snprintf(want_line, sizeof want_line, "%s wins; certificate", winner_name(want));
        cr_expect(strstr(out, want_line) && strstr(out, ") verified in"), "%s: want %s\n%s", moves,
                  winner_name(want), out);
        cr_expect(strstr(out, "resumed from the snapshot"), "the second run did not start from the snapshot\n%s", out);
        free(out);
        char runs[700];
        snprintf(runs, sizeof runs, "results/openings/%s/runs.csv", name);
        char *csv = slurp_file(b, runs);
        int rows = 0;
        for (char *c = csv; *c; c++) rows += *c == '\n';
        cr_expect_eq(rows, 3, "runs.csv: a header and the two runs:\n%s", csv);
        free(csv);
        snprintf(cmd, sizeof cmd, "rm -rf %s %s", a, b);
        cr_expect_eq(system(cmd), 0);
    }
    brute_free(m);
}

/* The bounded question the same way (OPENING_WITHIN, `make solve-within`):
 * stopped, resumed from the snapshot (its journal is journal-within-N) on
 * a fresh tree, the answer the brute force's distance gives (a yes at D =
 * dtw, a no at D = dtw - 2, the same parity, or at 11 for a Chaos win),
 * its certificate verified by `verify --within D`. */
Test(opening, within_stop_snapshot_resume_elsewhere)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 4747;
    for (int t = 0; t < 2; t++) {
        RefPos p;
        cr_assert_eq(tl_random_ongoing(&p, 6, 5, 0, 21, &rng), 0);
        int dtw = brute_dtw(m, &p), d = dtw < 0 ? 11 : t == 0 || dtw < 3 ? dtw : dtw - 2;
        bool yes = dtw >= 0 && dtw <= d;
        char moves[400], a[256], b[256], name[600], cmd[2000];
        moves_of(&p, moves, sizeof moves);
        fresh_tree(a, sizeof a);
        int rc = run_opening(a, moves, 1.0, d);
        char *out = slurp_file(a, "out.txt");
        cr_assert(rc == 0 || rc == 1 || rc == 128 + SIGTERM, "first run: exit %d\n%s", rc, out);
        free(out);
        snprintf(name, sizeof name, "original-%s-within-%d", moves, d);
        for (char *c = name; *c; c++)
            if (*c == ' ') *c = '-';
        fresh_tree(b, sizeof b);
        snprintf(cmd, sizeof cmd, "mkdir -p %s/results/openings && cp -r %s/results/openings/%s %s/results/openings/",
                 b, a, name, b);
        cr_assert_eq(system(cmd), 0, "no snapshot after the first run: %s", cmd);
        rc = run_opening(b, moves, 0, d);
        out = slurp_file(b, "out.txt");
        cr_assert_eq(rc, 0, "resumed run: exit %d\n%s", rc, out);
        char want[200];
        snprintf(want, sizeof want, "Order %s a line within %d plies; certificate", yes ? "forces" : "cannot force", d);
        cr_expect(strstr(out, want) && strstr(out, ") verified in"), "%s (dtw %d): want '%s'\n%s", moves, dtw, want,
                  out);
        cr_expect(strstr(out, "resumed from the snapshot"), "the second run did not start from the snapshot\n%s", out);
        free(out);
        snprintf(cmd, sizeof cmd, "test -s %s/results/openings/%s/report.md", b, name);
        cr_expect_eq(system(cmd), 0, "no report.md");
        snprintf(cmd, sizeof cmd, "rm -rf %s %s", a, b);
        cr_expect_eq(system(cmd), 0);
    }
    brute_free(m);
}
