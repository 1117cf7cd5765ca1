/* test_json.c - every --json output parses, whatever the file names: the
 * output of solve, verify and bench read back by the tests' own JSON
 * reader (jsoncheck.h), and the names found in it equal the names given. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsoncheck.h"
#include "runbin.h"

TestSuite(json, .timeout = 120);

/* The reader itself: it must refuse what is not JSON, or the tests below
 * could not fail. */
Test(json, reader_accepts_and_refuses)
{
    char out[64];
    cr_expect(jc_valid("{\"a\":[1,-2.5e3,true,false,null,{}],\"b\":\"p\\\"q\\\\\\n\\u00e9\"}\n", NULL));
    cr_expect(jc_string("{\"a\":{\"b\":\"x\\\"y\"}}", "b", out, sizeof out) && strcmp(out, "x\"y") == 0, "%s", out);
    cr_expect(jc_string("{\"e\":\"\\u00e9\"}", "e", out, sizeof out) && strcmp(out, "\xc3\xa9") == 0);
    const char *bad[] = {"{\"a\":\"p\"q\"}", "{\"a\":\"line\nbreak\"}", "{\"a\":1,}", "{\"a\" 1}", "[1 2]",
                         "{\"a\":01}", "{\"a\":\"\\x\"}", "{\"a\":1}{", "", "{\"a\":nul}", "{\"a\":.5}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) cr_expect(!jc_valid(bad[i], NULL), "accepted: %s", bad[i]);
}

/* File names with a quote, a backslash, a tab, a newline, a control
 * character and UTF-8, in a fresh directory. */
static const char *const AWKWARD[] = {"p\"q.txt", "back\\slash.txt", "tab\there.txt", "new\nline.txt",
                                      "bell\x07.txt", "caf\xc3\xa9 \"x\".txt"};
enum { NAWKWARD = sizeof AWKWARD / sizeof AWKWARD[0] };

static void tmp_dir(char *dir)
{
    strcpy(dir, "/tmp/ocsolve-json-XXXXXX");
    cr_assert(mkdtemp(dir) != NULL);
}

static void expect_json(const Run *r, const char *what)
{
    size_t at = 0;
    cr_expect(jc_valid(r->out, &at), "%s: not JSON (byte %zu): %s", what, at, r->out);
}

static void expect_member(const Run *r, const char *key, const char *want)
{
    char got[512] = "";
    cr_expect(jc_string(r->out, key, got, sizeof got), "no string \"%s\" in %s", key, r->out);
    cr_expect(strcmp(got, want) == 0, "\"%s\" is '%s', want '%s'", key, got, want);
}

/* An Order win that needs a little search (16 empty cells, about 200 nodes;
 * its certificate has about 200 lines). */
static const char POS[] = "OXO.X.XOX..X..O..O.XOX..X.O..OOO..OX";

Test(json, solve_and_verify_with_awkward_names)
{
    char dir[64];
    tmp_dir(dir);
    for (int i = 0; i < NAWKWARD; i++) {
        char proof[256], ckpt[256], log[256];
        snprintf(proof, sizeof proof, "%s/%s", dir, AWKWARD[i]);
        snprintf(ckpt, sizeof ckpt, "%s/ck-%s", dir, AWKWARD[i]);
        snprintf(log, sizeof log, "%s/log-%s", dir, AWKWARD[i]);
        Run r;
        expect_ok(&r, "solve", "--json", "--quiet", "--threads", "1", "--dtw", "--proof", proof, "--checkpoint", ckpt,
                  "--log", log, POS);
        expect_json(&r, "solve");
        expect_member(&r, "file", proof);
        expect_member(&r, "result", "order");
        run_free(&r);
        run_argv(&r, ARGS("verify", "--json", proof));
        cr_expect(r.exited && r.code == 0, "verify exit %d: %s %s", r.code, r.out, r.err);
        expect_json(&r, "verify");
        expect_member(&r, "file", proof);
        run_free(&r);
        unlink(proof);
        unlink(ckpt);
        unlink(log);
    }
    rmdir(dir);
}

/* verify's error text quotes the certificate's own words. */
Test(json, verify_errors_and_missing_files)
{
    char dir[64], path[256];
    tmp_dir(dir);
    snprintf(path, sizeof path, "%s/%s", dir, AWKWARD[0]);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("ocproof 1\nboard 6 5\nrules \"orig\\inal\"\t\x01\n", f);
    fclose(f);
    Run r;
    run_argv(&r, ARGS("verify", "--json", path));
    cr_expect(r.exited && r.code == 2, "exit %d", r.code);
    expect_json(&r, "verify, malformed");
    expect_member(&r, "result", "malformed");
    run_free(&r);
    unlink(path);
    run_argv(&r, ARGS("verify", "--json", path)); /* no such file */
    cr_expect(r.exited && r.code == 2, "exit %d", r.code);
    expect_json(&r, "verify, missing");
    expect_member(&r, "file", path);
    run_free(&r);
    rmdir(dir);
}

/* Every shape solve's JSON takes: unknown (pn/dn numbers), a Chaos win
 * (infinite pn: null), alpha-beta, a finished game, a failed certificate. */
Test(json, solve_variants)
{
    const char *const *cases[] = {
        ARGS("solve", "--json", "--quiet", "--node-limit", "2000", "--rules", "exact-end", "-"),
        ARGS("solve", "--json", "--quiet", "--search", "ab", "--dtw", POS),
        ARGS("solve", "--json", "--quiet", "XOXOXOOXOXOXXOXOXOOXOXOXXOXOXOOXOXO."),
        ARGS("solve", "--json", "--quiet", "--rules", "exact-end", "--dtw", "XOXOXOOXOXOXXOXOXOOXOXOX............"),
        ARGS("solve", "--json", "--quiet", "--board", "4", "--k", "4", "-"),
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *args[16] = {0};
        int n = 0;
        for (const char *const *a = cases[i]; *a; a++) args[n++] = *a;
        Run r;
        run_argv(&r, args);
        cr_expect(r.exited && r.code == 0, "%s: exit %d %s", r.desc, r.code, r.err);
        expect_json(&r, r.desc);
        run_free(&r);
    }
    /* A certificate that cannot be completed: the JSON carries the error. */
    char dir[64], proof[256];
    tmp_dir(dir);
    snprintf(proof, sizeof proof, "%s/%s", dir, AWKWARD[1]);
    Run r;
    run_argv(&r, ARGS("solve", "--json", "--quiet", "--proof", proof, "--proof-max-lines", "1", POS));
    cr_expect(r.exited && r.code == 1, "exit %d: %s", r.code, r.err);
    expect_json(&r, "solve, proof error");
    expect_member(&r, "file", proof);
    cr_expect(access(proof, F_OK) != 0, "a partial certificate was left behind");
    run_free(&r);
    rmdir(dir);
}

Test(json, bench_quick)
{
    Run r;
    expect_ok(&r, "bench", "--quick", "--solver-only", "--json");
    expect_json(&r, "bench");
    expect_member(&r, "workload", "quick");
    run_free(&r);
}
