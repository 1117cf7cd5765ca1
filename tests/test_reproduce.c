/* test_reproduce.c - a reproduction changes nothing that is committed
 * (scripts/solve-claim, scripts/solve-search, what `make solve` and
 * `make solve-search` run): by default a run writes only its own folder
 * under work/, and with SOLVE_RECORD=1 (RECORD=1 to make) it records under
 * results/ (results/search/ for solve-search) and keeps the earlier runs there.
 *
 * Each test copies the script (and what it sources) into a scratch tree
 * with a results/ of its own, holding a sentinel where the run would
 * write, and runs it there with the binary under test: the repository's
 * own results/ is never touched, and the sentinel shows whether the run
 * wrote where it must not. */
#include <criterion/criterion.h>

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

TestSuite(reproduce, .timeout = 240);

/* The repository's root: bench/signature.txt's folder's parent. */
static void repo_root(char *out, size_t len)
{
    char sig[1024];
    snprintf(sig, sizeof sig, "%s", OCS_SIGNATURE_FILE);
    snprintf(out, len, "%s", dirname(dirname(sig)));
}

/* A scratch tree: scripts/ with the script and the helpers it sources
 * (json-field.sh, run-files.sh) copied from
 * the repository, an empty results/claims/. */
static void scratch(char *dir, size_t len, const char *script)
{
    char root[1024], cmd[4096];
    repo_root(root, sizeof root);
    tl_tmp_dir(dir, len, "reproduce");
    snprintf(cmd, sizeof cmd, "mkdir -p %s/scripts %s/results/claims && cp %s/scripts/%s %s/scripts/json-field.sh "
             "%s/scripts/run-files.sh %s/scripts/",
             dir, dir, root, script, root, root, dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* Runs `ENV scripts/SCRIPT ARGS` in dir; its stdout and stderr in out.
 * The exit code. */
static int run_script(const char *dir, const char *env, const char *script, const char *args, char *out, size_t len)
{
    char cmd[4096], log[600];
    snprintf(log, sizeof log, "%s/run.log", dir);
    snprintf(cmd, sizeof cmd, "cd %s && env OCSOLVE=%s %s scripts/%s %s >%s 2>&1", dir, OCSOLVE_BIN, env, script, args,
             log);
    int rc = system(cmd);
    FILE *f = fopen(log, "r");
    size_t n = f ? fread(out, 1, len - 1, f) : 0;
    out[n] = '\0';
    if (f) fclose(f);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static long file_size(const char *dir, const char *name)
{
    char path[1200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static int count_in_file(const char *dir, const char *name, const char *needle)
{
    char path[1200], line[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, needle)) n++;
    if (f) fclose(f);
    return n;
}

static const char sentinel[] = "{\"sentinel\":\"a committed result\"}\n";

Test(reproduce, solve_claim_leaves_results_alone)
{
    char dir[256], out[8192];
    scratch(dir, sizeof dir, "solve-claim");
    char claims[400];
    snprintf(claims, sizeof claims, "%s/results/claims", dir);
    tl_write_text(claims, "original.json", sentinel);
    /* by default: a run folder under work/runs, results/ as it was */
    int rc = run_script(dir, "SOLVE_SECONDS=120 SOLVE_TT_MB=64 SOLVE_THREADS=1", "solve-claim", "original", out,
                        sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "original 6x6: Order wins; certificate work/runs/solve-original-"), "%s", out);
    cr_expect_eq(file_size(claims, "original.json"), (long)strlen(sentinel), "the run rewrote results/claims");
    cr_expect_eq(count_in_file(claims, "original.json", "sentinel"), 1, "the run rewrote results/claims");
    cr_expect_eq(file_size(claims, "original.ocproof.gz"), -1, "the run wrote into results/claims");
    cr_expect_eq(file_size(claims, "original-runs.jsonl"), -1, "the run wrote into results/claims");
    /* RECORD=1, twice: the latest in RULES.json, both in the history */
    for (int t = 1; t <= 2; t++) {
        rc = run_script(dir, "SOLVE_RECORD=1 SOLVE_SECONDS=120 SOLVE_TT_MB=64 SOLVE_THREADS=1", "solve-claim",
                        "original", out, sizeof out);
        cr_assert_eq(rc, 0, "%s", out);
        cr_expect(strstr(out, "certificate results/claims/original.ocproof.gz"), "%s", out);
        cr_expect_eq(count_in_file(claims, "original.json", "sentinel"), 0, "RECORD=1 did not record");
        cr_expect_eq(count_in_file(claims, "original-runs.jsonl", "\"result\":\"order\""), t,
                     "after %d recorded runs the history has another count", t);
    }
    cr_expect_gt(file_size(claims, "original.ocproof.gz"), 0);
    rc = run_script(dir, "SOLVE_RECORD=yes", "solve-claim", "original", out, sizeof out);
    cr_expect_eq(rc, 2, "RECORD=yes: %s", out);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

Test(reproduce, solve_search_keeps_earlier_reports)
{
    char dir[256], out[16384];
    scratch(dir, sizeof dir, "solve-search");
    char cmd[2048], root[1024], res[400];
    repo_root(root, sizeof root);
    snprintf(cmd, sizeof cmd, "cp %s/scripts/plot-jobs %s/scripts/", root, dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(res, sizeof res, "%s/results/search", dir);
    /* a position a few plies from its end, reached from the empty board
     * by these moves (no line among them) */
    const char *moves = "SEARCH_ROOT='Xa1 Ob1 Xc1 Od1 Xf1 Oa2 Xb2 Oc2 Xe2 Of2 Xa3 Ob3 Xd3 Oe3 Xf3 Ob4 Xc4 Od4 Xf4 Oa5'";
    char env[1024];
    snprintf(env, sizeof env, "%s SOLVE_THREADS=1 SEARCH_TT_MB=16 SEARCH_DIR=%s/work/s", moves, dir);
    int rc = run_script(dir, env, "solve-search", "original", out, sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "verified"), "%s", out);
    snprintf(cmd, sizeof cmd, "find %s/results -type f | grep -q .", dir);
    cr_expect_neq(system(cmd), 0, "a default run wrote into results/");
    cr_expect_gt(count_in_file(dir, "work/s/search-original-Xa1-Ob1-Xc1-Od1-Xf1-Oa2-Xb2-Oc2-Xe2-Of2-Xa3-Ob3-Xd3-Oe3-Xf3-Ob4-Xc4-Od4-Xf4-Oa5.md",
                               "# Pure search"),
                 0, "no report in the run folder: %s", out);
    char name[] = "search-original-Xa1-Ob1-Xc1-Od1-Xf1-Oa2-Xb2-Oc2-Xe2-Of2-Xa3-Ob3-Xd3-Oe3-Xf3-Ob4-Xc4-Od4-Xf4-Oa5.md";
    snprintf(env, sizeof env, "%s SOLVE_RECORD=1 SOLVE_THREADS=1 SEARCH_TT_MB=16 SEARCH_DIR=%s/work/s", moves, dir);
    for (int t = 1; t <= 2; t++) {
        rc = run_script(dir, env, "solve-search", "original", out, sizeof out);
        cr_assert_eq(rc, 0, "%s", out);
        cr_expect_eq(count_in_file(res, name, "# Pure search"), t, "after %d recorded runs: %s", t, out);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}
