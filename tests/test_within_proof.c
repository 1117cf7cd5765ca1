/* test_within_proof.c - certificates of the bounded question ("Order wins
 * within d plies", proof.h proof_write_within, `ocsolve solve --within D
 * --proof F`), checked by the independent verifier and its longest game
 * (`ocsolve verify --within D`).
 *
 * On random positions whose distance to win t the brute force gives
 * (brute.h), the certificate written for "within t" must verify and its
 * longest game must be exactly t: at most t because its moves were chosen
 * within the bound, and at least t because no strategy wins faster than
 * the distance to win. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../solver/dfpn.h"
#include "../solver/dfpn_depth.h"
#include "../solver/proof.h"
#include "../verify/verify.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

TestSuite(within_proof, .timeout = 240);

/* One position: the bounded search says yes at t, its certificate
 * verifies with the longest game t; returns 1 if it was an Order win
 * checked so, 0 for a Chaos win or a position already won. */
static uint64_t reproved; /* the writer's moves from a new proof of their position, in all */

static int check(const Rules *r, const Knowledge *kn, TT *tt, BruteMemo *memo, RefPos *p, bool warm)
{
    int t = brute_dtw(memo, p);
    if (t < 1) return 0;
    char s[65];
    ref_format(p, s);
    Board b = tl_board(p);
    DfpnDepth dd;
    dfpn_depth_init(&dd, r, kn, tt, NULL);
    /* Every other position: first the looser question for each of Order's
     * moves, which leaves facts of slower wins in the table (win <= t + 1),
     * not all of them within the t - 1 a certificate move needs. */
    if (warm && board_order_to_move(b))
        for (uint64_t e = r->cells & ~board_occupied(b); e;) {
            int c = bb_pop(&e);
            for (int sym = 0; sym < 2; sym++) {
                Board cb = b;
                board_place(&cb, move_make(sym, c));
                dfpn_depth_within(&dd, cb, t + 1, NULL);
            }
        }
    int depth = -1;
    cr_assert_eq(dfpn_depth_within(&dd, b, t, &depth), 1, "%s: not within its distance %d", s, t);
    cr_assert_eq(depth, t, "%s: proof depth %d, distance %d", s, depth, t);
    char *text = NULL, err[200] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert(f);
    ProofStats st;
    int rc = proof_write_within(f, &dd, b, depth, 0, &st, err, sizeof err);
    fclose(f);
    reproved += dd.moves.reproved;
    cr_assert_eq(rc, 0, "%s: %s", s, err);
    VerifyResult v;
    cr_assert_eq(verify_text(text, &v), VERIFY_VALID, "%s: %s\n%s", s, v.error, text);
    cr_assert_eq(v.longest, t, "%s (rules %d): the certificate's longest game is %d, the distance to win %d", s,
                 p->rules, v.longest, t);
    free(text);
    return 1;
}

/* Random positions of every rule set on 4x4 (k 3 and 4), 5x5 and 6x6, with
 * a small table so that the writer must search again where entries are
 * gone. */
Test(within_proof, longest_game_is_the_distance)
{
    static const struct {
        int n, k, pieces, count;
    } CASES[] = {{4, 4, 4, 8}, {4, 3, 5, 8}, {5, 4, 13, 8}, {6, 5, 24, 6}};
    uint64_t rng = 0x3141;
    int checked = 0, long_ones = 0;
    for (int rs = 0; rs < 3; rs++)
        for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
            Rules r;
            char err[128];
            cr_assert_eq(rules_init(&r, CASES[c].n, CASES[c].k, tl_rules(rs), err, sizeof err), 0, "%s", err);
            TT tt;
            cr_assert_eq(tt_init(&tt, (size_t)1 << 16, false), 0);
            Knowledge kn = dfpn_default_config().kn;
            BruteMemo *memo = brute_new();
            cr_assert(memo);
            for (int i = 0, tries = 0; i < CASES[c].count && tries < 2000; tries++) {
                RefPos p;
                if (tl_random_ongoing(&p, CASES[c].n, CASES[c].k, rs, CASES[c].pieces, &rng) != 0) continue;
                int got = check(&r, &kn, &tt, memo, &p, checked % 2 == 1);
                i += got;
                checked += got;
                long_ones += got && brute_dtw(memo, &p) >= 5;
            }
            brute_free(memo);
            tt_free(&tt);
        }
    cr_assert_geq(checked, 70, "only %d Order wins checked", checked);
    cr_assert_geq(long_ones, 15, "only %d of them with a distance of 5 or more", long_ones);
    /* The small table made the writer prove positions again (dfpn_depth_proof_move), so
     * that path's moves are among those the verifier and the distances checked. */
    cr_assert_gt(reproved, 0, "no move came from a new proof of its position");
}

#define SLOW_DTW "XO...X..OO.O.....XOO...X.O.X.X....XX" /* Chaos to move, distance 14 */

/* From the outside: a yes writes a certificate that `verify --within`
 * accepts at the bound and refuses below it; a no writes Chaos's
 * certificate to the horizon instead (test_within_cert.c checks it),
 * which `verify --within` (Order's) refuses. */
Test(within_proof, cli)
{
    char dir[64], yes[96], no[96];
    tl_tmp_dir(dir, sizeof dir, "within");
    snprintf(yes, sizeof yes, "%s/w14.ocproof", dir);
    snprintf(no, sizeof no, "%s/w12.ocproof", dir);
    Run r;
    expect_ok(&r, "solve", "--quiet", "--tt-mb", "16", "--within", "14", "--proof", yes, SLOW_DTW);
    cr_expect(strstr(r.out, "within 14: yes") && strstr(r.out, "proof: "), "%s", r.out);
    run_free(&r);
    expect_ok(&r, "verify", "--within", "14", yes);
    cr_expect(strstr(r.out, "longest game: 14 plies") && strstr(r.out, "\nvalid\n"), "%s", r.out);
    run_free(&r);
    run_argv(&r, ARGS("verify", "--within", "13", yes));
    cr_expect(r.exited && r.code == 1 && strstr(r.out, "invalid: --within 13: its longest game is 14 plies"), "%s",
              r.out);
    run_free(&r);
    run_argv(&r, ARGS("solve", "--quiet", "--tt-mb", "16", "--within", "12", "--proof", no, SLOW_DTW));
    cr_expect(r.exited && r.code == 0 && strstr(r.out, "within 12: no") && strstr(r.out, "proof: "), "%s", r.out);
    cr_expect(access(no, F_OK) == 0, "no certificate written for a no");
    run_free(&r);
    run_argv(&r, ARGS("verify", "--within", "12", no));
    cr_expect(r.exited && r.code == 1 && strstr(r.out, "invalid: --within 12: the certificate claims chaos wins"), "%s",
              r.out);
    run_free(&r);
    expect_reject("--within", "verify", "--within", "x", yes);
    tl_rm_dir(dir);
}
