/* test_cli_solve.c - black-box tests of `ocsolve solve`: options rejected,
 * JSON fields, the progress log, signals. */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runbin.h"

TestSuite(cli_solve, .timeout = 120);

/* ------------------------------------------------------------------ */
/* solve: options, JSON, progress log                                   */
/* ------------------------------------------------------------------ */

Test(cli_solve, rejects_bad_options)
{
    expect_reject("--progress-every", "solve", "--progress-every", "0");
    expect_reject("--time-limit", "solve", "--time-limit", "-3");
    expect_reject("--search", "solve", "--search", "magic");
    expect_reject("--epsilon", "solve", "--epsilon", "x");
    expect_reject("--witness-slack", "solve", "--witness-slack", "-1");
    expect_reject("--witness-slack", "solve", "--witness-slack", "65");
    expect_reject("log file", "solve", "--log", "/nonexistent-dir/log.csv");
    expect_reject("proof file", "solve", "--proof", "/nonexistent-dir/p.txt");
}

/* A deepening search has no proof numbers: alpha-beta's result names its
 * depth instead of a made-up "root pn/dn: 1 / 1", and the bounded df-pn's
 * progress shows its depth, with empty root_pn and root_dn in the log. */
Test(cli_solve, deepening_searches_show_their_depth)
{
    Run r;
    expect_ok(&r, "solve", "--search", "ab", "--node-limit", "20000", "XO...X..OO.O.....XOO...X.O.X.X....XX");
    cr_expect(strstr(r.out, "result: unknown") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "ab depth: ") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "root pn/dn") == NULL, "%s", r.out);
    run_free(&r);
    char log[] = "/tmp/ocsolve-log-XXXXXX";
    int fd = mkstemp(log);
    cr_assert(fd >= 0);
    close(fd);
    expect_ok(&r, "solve", "--within", "13", "--node-limit", "20000", "--progress-every", "0.001", "--log", log, "-");
    cr_expect(strstr(r.out, "within 13: unknown") != NULL, "%s", r.out);
    cr_expect(strstr(r.err, "depth 13") != NULL, "no depth in the progress: %s", r.err);
    cr_expect(strstr(r.err, "root pn") == NULL, "%s", r.err);
    run_free(&r);
    FILE *f = fopen(log, "r");
    cr_assert(f);
    char line[256];
    cr_assert(fgets(line, sizeof line, f));
    cr_assert(fgets(line, sizeof line, f), "no figures in the log");
    int commas = 0;
    const char *p = line;
    for (; *p && commas < 4; p++) commas += *p == ',';
    cr_expect(strncmp(p, ",,", 2) == 0, "root_pn and root_dn not empty: %s", line);
    fclose(f);
    unlink(log);
}

/* A position whose result needs no search beyond one line: Order to move
 * completes XXXX. on row 1. */
Test(cli_solve, json_and_log)
{
    char log[] = "/tmp/ocsolve-log-XXXXXX";
    int fd = mkstemp(log);
    cr_assert(fd >= 0);
    close(fd);
    Run r;
    expect_ok(&r, "solve", "--json", "--dtw", "--log", log, "XXXX..OO.O...X......................");
    cr_expect(strstr(r.out, "\"result\":\"order\"") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "\"dtw\":1") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "\"best_move\":\"Xe1\"") != NULL, "%s", r.out);
    run_free(&r);
    /* A search that runs (the empty board is decided by the centre lemma
     * under original and exact and by a pairing under exact-end; not with
     * the lemma off): the log has its header and the final figures. */
    expect_ok(&r, "solve", "--quiet", "--log", log, "--node-limit", "5000", "--no-centre", "-");
    cr_expect(strstr(r.out, "result: unknown") != NULL, "%s", r.out);
    cr_expect(r.errlen == 0, "--quiet still printed: %s", r.err);
    run_free(&r);
    FILE *f = fopen(log, "r");
    cr_assert(f);
    char line[256];
    cr_assert(fgets(line, sizeof line, f));
    cr_expect(strncmp(line, "seconds,nodes,", 14) == 0, "%s", line);
    cr_expect(fgets(line, sizeof line, f) != NULL, "no figures in the log");
    fclose(f);
    unlink(log);
}

/* ------------------------------------------------------------------ */
/* signals: every phase of a solve stops on SIGINT                      */
/* ------------------------------------------------------------------ */


/* df-pn decides this in a few hundred nodes; its distance to win (14
 * plies) takes alpha-beta about 12 s at -O3 (the bounded df-pn: 0.07 s). */
#define SLOW_DTW "XO...X..OO.O.....XOO...X.O.X.X....XX"

Test(cli_solve, sigint_stops_every_phase, .timeout = 120)
{
    /* The alpha-beta distance phase (the df-pn one, the default, ends in
     * well under a second here: dtw/cli_signals stops it on a slower one). */
    expect_sigint_exit(1.5, ARGS("solve", "--threads", "1", "--quiet", "--dtw", "--dtw-method", "ab", SLOW_DTW));
    expect_sigint_exit(1.5, ARGS("solve", "--threads", "1", "--quiet", "--search", "ab", SLOW_DTW));
    /* A search that takes longer than the wait, with a certificate asked
     * for: the partial file must be gone. */
    char path[] = "/tmp/ocsolve-sigint-proof-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    unlink(path);
    expect_sigint_exit(1.0, ARGS("solve", "--threads", "1", "--quiet", "--proof", path, "--tt-mb", "64", "-", "Xa1"));
    cr_expect(access(path, F_OK) != 0, "the interrupted solve left its proof file %s", path);
    unlink(path);
}
