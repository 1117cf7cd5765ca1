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

#include <glob.h>
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

/* A tree with scripts/solve-opening and the helpers it sources only (what
 * it runs needs nothing else). */
static void fresh_tree(char *dir, size_t len)
{
    char root[1024], cmd[4096];
    repo_root(root, sizeof root);
    tl_tmp_dir(dir, len, "opening");
    snprintf(cmd, sizeof cmd, "mkdir -p %s/scripts && cp %s/scripts/solve-opening %s/scripts/run-files.sh %s/scripts/", dir,
             root, root, dir);
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

/* Has the run in dir opened its store (work/opening-NAME/store/data.mdb,
 * which LMDB makes non-empty when it opens the store)? */
static bool store_opened(const char *dir)
{
    char pat[1200];
    snprintf(pat, sizeof pat, "%s/work/opening-*/store/data.mdb", dir);
    glob_t g;
    bool found = false;
    if (glob(pat, 0, NULL, &g) == 0) {
        struct stat st;
        for (size_t i = 0; i < g.gl_pathc && !found; i++) found = stat(g.gl_pathv[i], &st) == 0 && st.st_size > 0;
        globfree(&g);
    }
    return found;
}

/* Runs the script in dir for MOVES under the original rules (within >= 0:
 * the bounded question, OPENING_WITHIN); with stop_after > 0 sends it
 * SIGTERM that many seconds after its store is open (it stops the search
 * cleanly and snapshots; a fixed time from the start left no store under
 * the sanitizers on a busy machine), or once it ends. Output in
 * dir/out.txt; the exit status. */
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
    int status;
    if (stop_after > 0) {
        struct timespec tick = {0, 20000000};
        bool ended = false;
        for (int i = 0; i < 6000 && !(ended = waitpid(pid, &status, WNOHANG) == pid) && !store_opened(dir); i++)
            nanosleep(&tick, NULL);
        struct timespec ts = {(time_t)stop_after, (long)((stop_after - (time_t)stop_after) * 1e9)};
        if (!ended) nanosleep(&ts, NULL);
        if (ended || waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        kill(pid, SIGTERM);
    }
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

/* One position's run that outlives its machine: the script started in a
 * fresh tree a for p's moves (within >= 0: the bounded question), stopped
 * by a signal after stop_after seconds; then a fresh tree b holding only
 * the scripts and a's snapshot (as a fresh clone would), where it runs to
 * the end. Returns b's output (to free) with its exit status in *rc; the
 * trees in a and b (for the caller to remove) and the snapshot's name. */
static char *stop_and_resume(const RefPos *p, int within, double stop_after, int *rc, char a[256], char b[256],
                             char name[600])
{
    char moves[400], cmd[2000];
    moves_of(p, moves, sizeof moves);
    fresh_tree(a, 256);
    int first = run_opening(a, moves, stop_after, within);
    char *out = slurp_file(a, "out.txt");
    cr_assert(first == 0 || first == 1 || first == 128 + SIGTERM, "first run: exit %d\n%s", first, out);
    free(out);
    snprintf(name, 600, "original-%s", moves);
    if (within >= 0) snprintf(name + strlen(name), 600 - strlen(name), "-within-%d", within);
    for (char *c = name; *c; c++)
        if (*c == ' ') *c = '-';
    fresh_tree(b, 256);
    snprintf(cmd, sizeof cmd, "mkdir -p %s/results/openings && cp -r %s/results/openings/%s %s/results/openings/", b,
             a, name, b);
    cr_assert_eq(system(cmd), 0, "no snapshot after the first run: %s", cmd);
    snprintf(cmd, sizeof cmd, "test -s %s/results/openings/%s/store/data.mdb", b, name);
    cr_assert_eq(system(cmd), 0, "the snapshot has no store");
    *rc = run_opening(b, moves, 0, within);
    out = slurp_file(b, "out.txt");
    cr_expect(strstr(out, "resumed from the snapshot"), "the second run did not start from the snapshot\n%s", out);
    return out;
}

static void remove_trees(const char *a, const char *b)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", a, b);
    cr_expect_eq(system(cmd), 0);
}

Test(opening, stop_snapshot_resume_elsewhere)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 3535;
    for (int t = 0; t < 2; t++) {
        RefPos p;
        cr_assert_eq(tl_random_ongoing(&p, 6, 5, 0, 21, &rng), 0);
        Winner want = tl_brute_winner(m, &p);
        char a[256], b[256], name[600], want_line[200], runs[700];
        int rc;
        char *out = stop_and_resume(&p, -1, 1.5, &rc, a, b, name);
        cr_assert_eq(rc, 0, "resumed run: exit %d\n%s", rc, out);
        snprintf(want_line, sizeof want_line, "%s wins; certificate", winner_name(want));
        cr_expect(strstr(out, want_line) && strstr(out, ") verified in"), "%s: want %s\n%s", name,
                  winner_name(want), out);
        free(out);
        snprintf(runs, sizeof runs, "results/openings/%s/runs.csv", name);
        char *csv = slurp_file(b, runs);
        int rows = 0;
        for (char *c = csv; *c; c++) rows += *c == '\n';
        cr_expect_eq(rows, 3, "runs.csv: a header and the two runs:\n%s", csv);
        free(csv);
        remove_trees(a, b);
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
        char a[256], b[256], name[600], want[200], cmd[1000];
        int rc;
        char *out = stop_and_resume(&p, d, 1.0, &rc, a, b, name);
        cr_assert_eq(rc, 0, "resumed run: exit %d\n%s", rc, out);
        snprintf(want, sizeof want, "Order %s a line within %d plies; certificate", yes ? "forces" : "cannot force", d);
        cr_expect(strstr(out, want) && strstr(out, ") verified in"), "%s (dtw %d): want '%s'\n%s", name, dtw, want,
                  out);
        free(out);
        snprintf(cmd, sizeof cmd, "test -s %s/results/openings/%s/report.md", b, name);
        cr_expect_eq(system(cmd), 0, "no report.md");
        remove_trees(a, b);
    }
    brute_free(m);
}
