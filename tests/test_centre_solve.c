/* test_centre_solve.c - the centre lemma on 7x7 and 8x8 by a solve of its
 * small game (solver/centre_solve.h, centre.h "Every n"):
 *   - where it applies (centre_small_game) against the definition written
 *     here: rules original or exact, k = n-1, n = 7 or 8, every ring pair
 *     empty or mixed, the centre's m x m game ongoing;
 *   - soundness against the brute force (tests/brute.h): random 7x7 and
 *     8x8 positions with few empty cells; wherever the route says Order
 *     wins, Order wins the whole game; where the small game is a Chaos
 *     win, the route claims nothing;
 *   - through the binary: `ocsolve solve --proof F` writes F (one line,
 *     'POS lemma centre see F-centre.ocproof') and the small game's
 *     certificate beside it, and the independent verifier accepts F; with
 *     a Chaos-win centre no centre certificate is left behind. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../solver/centre.h"
#include "../solver/centre_solve.h"
#include "../verify/verify.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

/* The ring pairs of n x n (the ends of each full line through the
 * centre), written here from the definition; their number. */
static int ring_pairs(int n, int pair[][2])
{
    int np = 0;
    for (int i = 1; i < n - 1; i++) {
        pair[np][0] = i * n, pair[np++][1] = i * n + n - 1;
        pair[np][0] = i, pair[np++][1] = (n - 1) * n + i;
    }
    pair[np][0] = 0, pair[np++][1] = n * n - 1;
    pair[np][0] = n - 1, pair[np++][1] = (n - 1) * n;
    return np;
}

/* A random n x n position: each pair empty (pct_empty_pair %), mixed, or
 * (pct_odd %) two like symbols or one piece; the centre random with
 * `holes` cells emptied. */
static void random_shaped(int n, int pct_empty_pair, int pct_odd, int holes, uint64_t *rng, char *out)
{
    int pair[14][2], np = ring_pairs(n, pair), m = n - 2;
    memset(out, '.', (size_t)(n * n));
    out[n * n] = '\0';
    for (int p = 0; p < np; p++) {
        int roll = tl_below(rng, 100), x = tl_below(rng, 2);
        if (roll < pct_empty_pair) continue;
        if (roll < pct_empty_pair + pct_odd) {
            static const char *const odd[] = {"XX", "OO", "X.", ".O"};
            const char *o = odd[tl_below(rng, 4)];
            out[pair[p][0]] = o[0], out[pair[p][1]] = o[1];
            continue;
        }
        out[pair[p][0]] = "XO"[x], out[pair[p][1]] = "OX"[x];
    }
    for (int r = 1; r < n - 1; r++)
        for (int c = 1; c < n - 1; c++) out[r * n + c] = "XO"[tl_below(rng, 2)];
    for (int h = 0; h < holes; h++) out[(1 + tl_below(rng, m)) * n + 1 + tl_below(rng, m)] = '.';
}

/* The definition of where the route applies, on the reference rules. */
static bool applies_by_definition(int n, int k, int rules, const char *s)
{
    if (rules == REF_EXACT_END || k != n - 1 || n < 7) return false;
    RefPos p, q;
    ref_parse(&p, n, k, rules, s);
    if (ref_status(&p) != REF_ONGOING) return false;
    int pair[14][2], np = ring_pairs(n, pair), m = n - 2;
    for (int i = 0; i < np; i++) {
        char a = s[pair[i][0]], b = s[pair[i][1]];
        if (!((a == '.' && b == '.') || (a != '.' && b != '.' && a != b))) return false;
    }
    char c[40];
    for (int r = 0; r < m; r++)
        for (int j = 0; j < m; j++) c[r * m + j] = s[(r + 1) * n + j + 1];
    c[m * m] = '\0';
    ref_parse(&q, m, m, rules, c);
    return ref_status(&q) == REF_ONGOING;
}

static int count_empty(const char *s)
{
    int e = 0;
    for (; *s; s++) e += *s == '.';
    return e;
}

Test(centre_solve, where_the_route_applies)
{
    uint64_t rng = 3801;
    int yes = 0, no = 0;
    for (int t = 0; t < 3000; t++) {
        int n = 6 + tl_below(&rng, 3), rules = tl_below(&rng, 3), k = tl_below(&rng, 5) ? n - 1 : n - 2;
        char s[65];
        random_shaped(n, 10, 20, tl_below(&rng, 6), &rng, s);
        RefPos p;
        ref_parse(&p, n, k, rules, s);
        Rules r;
        tl_init_rules(&r, &p);
        bool want = applies_by_definition(n, k, rules, s), got = centre_solve_applies(&r, tl_board(&p));
        cr_assert_eq(got, want, "n=%d k=%d rules %d %s: %d, the definition %d", n, k, rules, s, got, want);
        yes += got, no += !got;
    }
    cr_assert(yes > 30 && no > 1000, "applied %d, not %d", yes, no);
}

/* Wherever the route says Order, brute force agrees; where the small game
 * is a Chaos win, it says nothing. */
Test(centre_solve, where_the_route_says_order_order_wins_by_brute_force)
{
    uint64_t rng = 3802;
    BruteMemo *memo = brute_new();
    SolveSpec spec = solve_default_spec();
    spec.tt_bytes = (size_t)16 << 20;
    for (int n = 7; n <= 8; n++)
        for (int rules = REF_ORIGINAL; rules <= REF_EXACT; rules++) {
            int order = 0, none = 0;
            for (int t = 0; t < 400 && (order < (n == 7 ? 12 : 6) || none < 3); t++) {
                char s[65];
                random_shaped(n, 8, 0, 4 + tl_below(&rng, 5), &rng, s);
                if (count_empty(s) > 13) continue;
                RefPos p;
                ref_parse(&p, n, n - 1, rules, s);
                Rules r;
                tl_init_rules(&r, &p);
                if (!centre_solve_applies(&r, tl_board(&p))) continue;
                SolveReport big, small;
                char err[200];
                cr_assert_eq(centre_solve_run(&r, tl_board(&p), &spec, &big, &small, err, sizeof err), 0, "%s", err);
                cr_assert_neq(small.value, WINNER_NONE, "%s: a small game of a few cells undecided", s);
                if (big.value == WINNER_ORDER) {
                    cr_assert(brute_order_wins(memo, &p), "n=%d rules %d: the route says Order at %s, Chaos wins", n,
                              rules, s);
                    order++;
                } else {
                    cr_assert_eq(small.value, WINNER_CHAOS);
                    none++;
                }
            }
            cr_assert(order >= (n == 7 ? 12 : 6) && none >= 3, "n=%d rules %d: order %d, none %d", n, rules, order,
                      none);
        }
    brute_free(memo);
}

/* Through the binary: both certificates written, the big one verified. */
Test(centre_solve, the_binary_writes_both_certificates)
{
    char dir[256], big[300], small[300];
    tl_tmp_dir(dir, sizeof dir, "centre-solve");
    snprintf(big, sizeof big, "%s/b7.ocproof", dir);
    snprintf(small, sizeof small, "%s/b7-centre.ocproof", dir);
    /* centre: an Order win at once (X X X X and an empty cell, Order to move); ring empty */
    const char *win = "......./.XXXX../.OXOXO./.XOO.X./.O.XOX./.XOXOO./.......";
    Run run;
    run_argv(&run, ARGS("solve", "--threads", "1", "--tt-mb", "16", "--board", "7", "--k", "6", "--proof", big, win));
    cr_assert(run.exited && run.code == 0, "%s: %d %s", run.desc, run.code, run.err);
    cr_assert(strstr(run.out, "centre lemma: the 5x5 centre as a game of its own (k=5): order wins"), "%s", run.out);
    cr_assert(strstr(run.out, "result: order wins"), "%s", run.out);
    run_free(&run);
    cr_assert_eq(access(small, R_OK), 0, "the small certificate");
    VerifyResult r;
    VerifyExpect x = {7, 6, 0, VERIFY_WINNER_ORDER, win};
    cr_assert_eq(verify_file_ex(big, &x, &r), VERIFY_VALID, "%s", r.error);

    /* A Chaos-win centre: no centre certificate is left, the position is searched itself. */
    remove(big), remove(small);
    const char *lose = "......./.XOXO../.OXXO../.XOOX../..X.O../.O..X../.......";
    run_argv(&run, ARGS("solve", "--threads", "1", "--tt-mb", "16", "--node-limit", "2000", "--board", "7", "--k", "6",
                        "--proof", big, lose));
    cr_assert(run.exited, "%s", run.desc);
    cr_assert(strstr(run.out, "(k=5): chaos wins; the position is searched itself"), "%s", run.out);
    run_free(&run);
    cr_assert_neq(access(small, F_OK), 0, "a Chaos-win centre's certificate left behind");
    tl_rm_dir(dir);
}
