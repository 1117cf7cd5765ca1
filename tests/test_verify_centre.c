/* test_verify_centre.c - the centre lemma of ocproof 2 certificates
 * ('POSITION lemma centre', verify/verify_centre.* and verify.c) on whole
 * boards, against brute force (brute.h, over ref.h) on 4x4, 5x5 and 6x6:
 * where the lemma says Order wins, Order wins; ring pairs of two like
 * symbols (certificates against brute force and this file's own
 * restricted small game; lying certificates found by search; under exact
 * such a line never counts; exact-end still refused); dead half pairs
 * (accepted in even numbers: with one, some positions are Chaos wins
 * although the plain small game is Order's); and a lone half-full pair,
 * decided by the centre game with its empty cell (accepted only where
 * Order wins by brute force). The conditions on the game and on the ring
 * pairs, checked against the definition, are
 * test_verify_centre_conditions.c's, the small game itself
 * test_verify_centre_small.c's, certificates with lemma lines (valid,
 * invalid, deeper in a proof, malformed) test_verify_centre_cert.c's. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../verify/verify.h"
#include "../verify/verify_centre.h"
#include "../verify/verify_rules.h"
#include "brute.h"
#include "certgen.h"
#include "tcentre.h"
#include "testlib.h"

/* Soundness: wherever the lemma holds, Order wins the whole game, per brute
 * force over the reference rules (original and exact, k = n-1). Some
 * positions have a pair the lemma must refuse. */
Test(verify_centre, where_the_lemma_holds_order_wins_by_brute_force)
{
    uint64_t rng = 302;
    BruteMemo *memo = brute_new();
    for (int n = 4; n <= 6; n++)
        for (int rules = REF_ORIGINAL; rules <= REF_EXACT; rules++) {
            int held = 0, failed = 0, bad_pair = 0, max_empty = n == 4 ? 10 : 9;
            VrGame g = {n, n - 1, rules};
            for (int t = 0; t < 20000 && (held < (n == 6 ? 25 : 60) || (n != 4 && (bad_pair == 0 || failed == 0)));
                 t++) {
                char s[65], why[160];
                tc_lemma_shaped_but(n, n == 4 ? 40 : 15, n == 4 ? 40 : 30, 25, &rng, s);
                RefPos p;
                ref_parse(&p, n, n - 1, rules, s);
                if (tc_count_empty(s, n * n) > max_empty || ref_status(&p) != REF_ONGOING) continue;
                uint8_t c[64];
                tc_to_cells(s, n * n, c);
                int lemma = vr_centre_lemma(&g, true, c, why, sizeof why);
                cr_assert(lemma >= 0);
                if (!lemma) {
                    /* A pair of two like symbols restricts its line; half-full pairs are refused
                     * (two or more; dead ones in odd numbers by the parity), and a lone one by the
                     * centre game with its empty cell (verify_centre.h). */
                    bool half = strncmp(why, "the centre game with ", 21) == 0;
                    bool pair = half || strncmp(why, "pair ", 5) == 0 ||
                                strcmp(why, "the ring holds an odd number of pieces") == 0;
                    cr_assert(half ? strstr(why, "'s half pair (") && strstr(why, ") is a Chaos win (")
                              : pair ? strstr(why, "an empty cell") != NULL || strstr(why, "odd number") != NULL
                                     : strncmp(why, "the centre small game ", 22) == 0 && strstr(why, " is a Chaos win ("),
                              "%s: %s", s, why);
                    bad_pair += pair;
                    failed += !pair;
                    continue;
                }
                cr_assert(brute_order_wins(memo, &p), "n=%d rules %d: the lemma holds at %s, Chaos wins", n, rules, s);
                held++;
            }
            /* (The 2x2 small game is never a Chaos win: any two of its cells share a line.) */
            /* (On 4x4 a lone half pair is always accepted, as the 2x2 game is always Order's.) */
            cr_assert(held >= (n == 6 ? 25 : 60) && (failed > 0 || n == 4) && (bad_pair > 0 || n == 4),
                      "n=%d rules %d: held %d, failed %d, bad pair %d", n, rules, held, failed, bad_pair);
        }
    brute_free(memo);
}

/* --- pairs of like symbols: certificates against brute force --- */

/* A random position for the widened lemma on n x n: each pair empty
 * (pct_empty_pair %) or else mixed, X X or O O, alike often, at least one
 * pair of like symbols; each centre cell empty with pct_empty %. No pair
 * is half full. */
static void same_shaped(int n, int pct_empty_pair, int pct_empty, uint64_t *rng, char *out)
{
    int np, a, b, line[VR_SMALL_MAX], same = 0;
    tc_pairs_of(n, &np);
    memset(out, '.', (size_t)(n * n));
    out[n * n] = '\0';
    for (int p = 0; p < np; p++) {
        if (tl_below(rng, 100) < pct_empty_pair) continue;
        int k = tl_below(rng, 3), x = tl_below(rng, 2);
        tc_pair_line(n, p, &a, &b, line);
        out[a] = k ? "XO"[k - 1] : "XO"[x], out[b] = k ? "XO"[k - 1] : "OX"[x];
        same += k > 0;
    }
    if (!same) {
        tc_pair_line(n, tl_below(rng, np), &a, &b, line);
        out[a] = out[b] = "XO"[tl_below(rng, 2)];
    }
    for (int r = 1; r < n - 1; r++)
        for (int c = 1; c < n - 1; c++)
            if (tl_below(rng, 100) >= pct_empty) out[r * n + c] = "XO"[tl_below(rng, 2)];
}

/* The verifier on 'root s' with the line 's lemma centre' in a random one
 * of the 16 forms: 0 valid, 1 invalid. */
static int lemma_cert(int n, int rules, const char *s, uint64_t *rng, VerifyResult *r)
{
    char line[96];
    tc_lemma_line(n, s, tl_below(rng, 16), line);
    char *text = tc_cert(n, n - 1, CG_RULES[rules], "order", s, line);
    int rc = cg_check(text, r);
    free(text);
    return rc;
}

/* Does Order win the unrestricted small game at s's centre? By oracles
 * that share nothing with the verifier: the retrograde table for m = 2, 3,
 * brute force on the 4x4 board with k = 4 for m = 4. */
static int centre_order_wins(int n, const char *s, BruteMemo *memo)
{
    int m = n - 2, idx = 0;
    char centre[17];
    for (int i = 0; i < m * m; i++) centre[i] = s[(i / m + 1) * n + i % m + 1];
    centre[m * m] = '\0';
    if (m == 4) {
        RefPos p;
        ref_parse(&p, 4, 4, REF_ORIGINAL, centre);
        return brute_order_wins(memo, &p);
    }
    static uint8_t table[2][19683];
    static bool ready[2];
    if (!ready[m - 2]) tc_retro_table(m, NULL, table[m - 2]), ready[m - 2] = true;
    for (int i = m * m - 1; i >= 0; i--) idx = idx * 3 + (centre[i] == 'X' ? 1 : centre[i] == 'O' ? 2 : 0);
    return table[m - 2][idx];
}

/* The restricted small game at s's centre under rules, decided here (the
 * widened lemma's rule, this test's geometry, a memoised minimax over the
 * centre's empty cells): allowed[p] for pair p's line is both symbols if
 * the pair is empty or mixed, S if it holds S twice under original, none
 * under exact. 1 Order wins, 0 Chaos wins. */
typedef struct {
    int m, nempty, empty[16];
    uint32_t pow3[16];
    int8_t *val; /* 0 unknown, else the value + 1, indexed by the empty cells' base-3 digits */
    uint8_t allowed[VR_SMALL_LINES];
} SmallRef;

static int small_ref_solve(SmallRef *r, int *d, uint32_t idx, int pieces)
{
    if (r->val[idx]) return r->val[idx] - 1;
    int v = tc_small_won(r->m, d, r->allowed), order = pieces % 2 == 0;
    if (!v && pieces < r->m * r->m) {
        v = !order;
        for (int j = 0; j < r->nempty && v != order; j++) {
            int i = r->empty[j];
            if (d[i]) continue;
            for (int sym = 1; sym <= 2 && v != order; sym++) {
                d[i] = sym;
                if (small_ref_solve(r, d, idx + (uint32_t)sym * r->pow3[j], pieces + 1) == order) v = order;
                d[i] = 0;
            }
        }
    }
    r->val[idx] = (int8_t)(v + 1);
    return v;
}

static int restricted_centre_wins(int n, int rules, const char *s)
{
    int np, a, b, line[VR_SMALL_MAX], d[16], pieces = 0;
    SmallRef r = {.m = n - 2};
    tc_pairs_of(n, &np);
    for (int p = 0; p < np; p++) {
        tc_pair_line(n, p, &a, &b, line);
        for (int i = 0; i < r.m; i++) /* pair p's line is the small game's line p (the allowed vectors' order) */
            cr_assert_eq(line[i],
                         (tc_small_line_cell(r.m, p, i) / r.m + 1) * n + tc_small_line_cell(r.m, p, i) % r.m + 1);
        r.allowed[p] = s[a] != s[b] || s[a] == '.' ? VR_ALLOW_BOTH
                       : rules == REF_ORIGINAL     ? (s[a] == 'X' ? VR_ALLOW_X : VR_ALLOW_O)
                                                   : VR_ALLOW_NONE;
    }
    uint32_t size = 1;
    for (int i = 0; i < r.m * r.m; i++) {
        char ch = s[(i / r.m + 1) * n + i % r.m + 1];
        d[i] = ch == 'X' ? 1 : ch == 'O' ? 2 : 0;
        pieces += d[i] != 0;
        if (!d[i]) r.pow3[r.nempty] = size, r.empty[r.nempty++] = i, size *= 3;
    }
    r.val = calloc(size, 1);
    cr_assert(r.val);
    int v = small_ref_solve(&r, d, 0, pieces);
    free(r.val);
    return v;
}

/* Soundness with pairs of like symbols: on 4x4, 5x5 and 6x6, original and
 * exact, random ongoing positions with at least one such pair and few
 * empty cells; wherever the verifier accepts the lemma line, brute force
 * over the reference rules says Order wins. Some must be accepted (else
 * the test says nothing) and some refused. Also: it accepts exactly where
 * this test's own restricted small game (restricted_centre_wins) is an
 * Order win. */
Test(verify_centre, same_pairs_where_the_lemma_holds_order_wins_by_brute_force)
{
    uint64_t rng = 308;
    BruteMemo *memo = brute_new();
    for (int n = 4; n <= 6; n++)
        for (int rules = REF_ORIGINAL; rules <= REF_EXACT; rules++) {
            int tried = 0, held = 0, refused = 0, max_empty = n == 4 ? 10 : 9;
            while (tried < 1000) {
                char s[65];
                same_shaped(n, n == 4 ? 30 : 15, n == 4 ? 40 : 25, &rng, s);
                RefPos p;
                ref_parse(&p, n, n - 1, rules, s);
                if (tc_count_empty(s, n * n) > max_empty || ref_status(&p) != REF_ONGOING) continue;
                tried++;
                VerifyResult r;
                int rc = lemma_cert(n, rules, s, &rng, &r);
                if (rc == 0)
                    cr_assert(brute_order_wins(memo, &p), "n=%d rules %d: the lemma holds at %s, Chaos wins", n, rules, s);
                int want = restricted_centre_wins(n, rules, s);
                cr_assert_eq(rc == 0, want, "n=%d rules %d %s: the restricted small game is a%s win here; %s", n, rules,
                             s, want ? "n Order" : " Chaos", rc ? r.error : "valid");
                if (rc == 0) {
                    held++;
                } else {
                    cr_assert(strstr(r.error, ": the centre small game (with ") && strstr(r.error, ") is a Chaos win ("),
                              "%s: %s", s, r.error);
                    refused++;
                }
            }
            cr_log_info("same pairs, n=%d rules %d: %d positions, %d accepted (Order wins by brute force), %d refused",
                        n, rules, tried, held, refused);
            cr_assert(held >= 50 && refused > 0, "n=%d rules %d: held %d, refused %d", n, rules, held, refused);
        }
    brute_free(memo);
}

/* Lying certificates, found by search: positions with a pair of like
 * symbols where brute force says Chaos wins the whole game although the
 * unrestricted small game at the centre is an Order win (so the lemma
 * with like pairs taken as empty or mixed would pass them). The lemma
 * line must be refused, and for the restricted small game. */
Test(verify_centre, lying_same_pair_certificates_are_rejected)
{
    uint64_t rng = 309;
    BruteMemo *big = brute_new(), *small = brute_new();
    for (int n = 4; n <= 6; n++)
        for (int rules = REF_ORIGINAL; rules <= REF_EXACT; rules++) {
            int found = 0, tried = 0, candidates = 0, max_empty = n == 4 ? 10 : 9;
            while (found < 10 && tried < 400000) {
                char s[65];
                same_shaped(n, n == 4 ? 30 : 15, n == 4 ? 40 : 25, &rng, s);
                RefPos p;
                ref_parse(&p, n, n - 1, rules, s);
                if (tc_count_empty(s, n * n) > max_empty || ref_status(&p) != REF_ONGOING) continue;
                tried++;
                /* Candidates: a Chaos win restricted and an Order win unrestricted (cheap, before the brute force). */
                if (restricted_centre_wins(n, rules, s) || !centre_order_wins(n, s, small)) continue;
                candidates++;
                if (brute_order_wins(big, &p)) continue;
                VerifyResult r;
                cr_assert_eq(lemma_cert(n, rules, s, &rng, &r), 1, "n=%d rules %d: %s accepted, Chaos wins", n, rules, s);
                cr_assert(strstr(r.error, ": the centre small game (with ") && strstr(r.error, ") is a Chaos win ("),
                          "%s: %s", s, r.error);
                found++;
            }
            cr_log_info("lies, n=%d rules %d: %d refused (%d candidates, %d positions tried)", n, rules, found,
                        candidates, tried);
            cr_assert_eq(found, 10, "n=%d rules %d: %d lies found in %d positions", n, rules, found, tried);
        }
    brute_free(big);
    brute_free(small);
}

/* Positions whose only way to win by the lemma is the centre line through
 * their one pair of like symbols S (every other pair empty or mixed; on
 * 4x4, where a full 2x2 centre never has just one line of one symbol, the
 * lines through their pairs of like symbols), found by search: the lemma
 * holds under original (there S's line counts, a run of n) and not under
 * exact (an overline), brute force agrees (Order wins under original,
 * Chaos under exact), and the unrestricted small game is an Order win, so
 * only the restriction refuses it. The reason names that line alone (on
 * 4x4: those lines), "for neither". */
Test(verify_centre, under_exact_a_line_between_like_symbols_does_not_count)
{
    uint64_t rng = 310;
    BruteMemo *big = brute_new(), *small = brute_new();
    for (int n = 4; n <= 6; n++) {
        int found = 0, tried = 0, max_empty = n == 4 ? 10 : 9;
        VrGame orig = {n, n - 1, VR_ORIGINAL}, exact = {n, n - 1, VR_EXACT};
        while (found < 3 && tried < 200000) {
            char s[65], why[160];
            /* n > 4: every pair empty or mixed but one, of like symbols. */
            int a, b, line[VR_SMALL_MAX], pct_empty_pair = tl_below(&rng, 2) ? 0 : 15;
            if (n == 4) {
                same_shaped(n, pct_empty_pair, 15 + tl_below(&rng, 20), &rng, s);
            } else {
                tc_lemma_shaped(n, pct_empty_pair, 15 + tl_below(&rng, 20), &rng, s);
                tc_pair_line(n, tl_below(&rng, 2 * (n - 1)), &a, &b, line);
                s[a] = s[b] = "XO"[tl_below(&rng, 2)];
            }
            tried++;
            RefPos po, pe;
            ref_parse(&po, n, n - 1, REF_ORIGINAL, s);
            ref_parse(&pe, n, n - 1, REF_EXACT, s);
            if (tc_count_empty(s, n * n) > max_empty || ref_status(&po) != REF_ONGOING ||
                ref_status(&pe) != REF_ONGOING)
                continue;
            uint8_t c[64];
            tc_to_cells(s, n * n, c);
            if (vr_centre_lemma(&orig, true, c, why, sizeof why) != 1 || vr_centre_lemma(&exact, true, c, why, sizeof why))
                continue;
            if (!centre_order_wins(n, s, small) || !brute_order_wins(big, &po) || brute_order_wins(big, &pe)) continue;
            VerifyResult r;
            cr_assert_eq(lemma_cert(n, REF_ORIGINAL, s, &rng, &r), 0, "%s: %s", s, r.error);
            cr_assert_eq(lemma_cert(n, REF_EXACT, s, &rng, &r), 1, "n=%d: %s accepted under exact", n, s);
            char expect[96] = " for neither) is a Chaos win (";
            if (n > 4)
                snprintf(expect, sizeof expect, ": the centre small game (with %c%d-%c%d for neither) is", 'a' + line[0] % n,
                         1 + line[0] / n, 'a' + line[n - 3] % n, 1 + line[n - 3] / n);
            cr_assert(strstr(r.error, expect), "%s: %s", s, r.error);
            cr_log_info("n=%d: %s, under exact %s", n, s, r.error);
            found++;
        }
        cr_assert_eq(found, 3, "n=%d: %d found in %d positions", n, found, tried);
    }
    brute_free(big);
    brute_free(small);
}

/* Pairs of like symbols lift no other condition: where the lemma line
 * holds (original or exact), it is refused under exact-end, and with one
 * cell of a like pair emptied (half full) the one-half-pair form decides:
 * refused with its message, or accepted where Order wins by brute force. */
Test(verify_centre, like_pairs_keep_the_other_conditions)
{
    uint64_t rng = 311;
    BruteMemo *memo = brute_new();
    for (int n = 4; n <= 6; n++)
        for (int rules = REF_ORIGINAL; rules <= REF_EXACT; rules++) {
            int done = 0, np;
            const char *const *pairs = tc_pairs_of(n, &np);
            for (int t = 0; t < 20000 && done < 20; t++) {
                char s[65], h[65], want[VERIFY_ERR_LEN];
                same_shaped(n, 30, 40, &rng, s);
                RefPos p;
                ref_parse(&p, n, n - 1, rules, s);
                VerifyResult r;
                if (ref_status(&p) != REF_ONGOING || lemma_cert(n, rules, s, &rng, &r) != 0) continue;
                cr_assert_eq(lemma_cert(n, REF_EXACT_END, s, &rng, &r), 1, "n=%d: %s accepted under exact-end", n, s);
                snprintf(want, sizeof want,
                         "lemma centre at %s: not under exact-end (lines judged on the full board) (line 6)", s);
                cr_assert_str_eq(r.error, want);
                int a, b, line[VR_SMALL_MAX], q = -1;
                for (int i = 0, start = tl_below(&rng, np); i < np && q < 0; i++) {
                    tc_pair_line(n, (start + i) % np, &a, &b, line);
                    if (s[a] != '.' && s[a] == s[b]) q = (start + i) % np;
                }
                cr_assert(q >= 0, "%s has no pair of like symbols", s);
                tc_pair_line(n, q, &a, &b, line);
                strcpy(h, s);
                int gone = tl_below(&rng, 2) ? a : b;
                h[gone] = '.';
                ref_parse(&p, n, n - 1, rules, h);
                if (ref_status(&p) != REF_ONGOING) continue; /* under exact, emptying a cell can leave a run of k */
                /* Now the only half-full pair: the centre game with its empty cell decides
                 * (verify_centre.h); where it accepts, Order wins by brute force. */
                int got = lemma_cert(n, rules, h, &rng, &r);
                if (got == 0) { /* (brute force where it is quick; one_half_pair_against_brute_force has more) */
                    cr_assert(tc_count_empty(h, n * n) > (n == 4 ? 10 : 9) || brute_order_wins(memo, &p),
                              "n=%d rules %d: accepted at %s, Chaos wins", n, rules, h);
                } else {
                    char en[3];
                    vr_cell_name(n, gone, en);
                    snprintf(want, sizeof want, "lemma centre at %s: the centre game with %s's half pair (", h, en);
                    cr_assert(strncmp(r.error, want, strlen(want)) == 0, "%s", r.error);
                }
                (void)pairs;
                done++;
            }
            cr_assert_eq(done, 20, "n=%d rules %d: %d", n, rules, done);
        }
    brute_free(memo);
}

/* Dead half pairs (verify_centre.h): lemma-shaped positions with one or two
 * pairs made half full on lines holding both symbols in the centre. The
 * verifier accepts exactly where their number is even and the small game
 * is an Order win (this test's own oracle), and wherever it accepts, brute
 * force over the reference rules says Order wins. With one such pair the
 * parity is wrong and it refuses; some of those are Chaos wins by brute
 * force although the small game is Order's, which is why the evenness is
 * asked. */
Test(verify_centre, dead_half_pairs_against_brute_force)
{
    uint64_t rng = 512;
    BruteMemo *big = brute_new(), *small = brute_new();
    int lies = 0;
    for (int n = 4; n <= 6; n++)
        for (int rules = REF_ORIGINAL; rules <= REF_EXACT; rules++) {
            int np, tried = 0, held = 0, refused = 0, max_empty = n == 4 ? 10 : 9;
            tc_pairs_of(n, &np);
            for (int t = 0; t < 200000 && tried < 600; t++) {
                char s[65];
                tc_lemma_shaped(n, n == 4 ? 20 : 10, n == 4 ? 40 : 25, &rng, s);
                int want_half = 1 + tl_below(&rng, 2), half = 0;
                for (int i = 0, start = tl_below(&rng, np); i < np && half < want_half; i++) {
                    int q = (start + i) % np, a, b, line[VR_SMALL_MAX];
                    tc_pair_line(n, q, &a, &b, line);
                    if (s[a] == '.' || !tc_line_dead(n, q, s)) continue;
                    s[tl_below(&rng, 2) ? a : b] = '.';
                    half++;
                }
                if (half != want_half) continue;
                RefPos p;
                ref_parse(&p, n, n - 1, rules, s);
                if (tc_count_empty(s, n * n) > max_empty || ref_status(&p) != REF_ONGOING) continue;
                tried++;
                VerifyResult r;
                int rc = lemma_cert(n, rules, s, &rng, &r), centre = centre_order_wins(n, s, small);
                /* Two: accepted exactly where the small game is Order's. One: the centre game
                 * with its empty cell decides (one_half_pair_against_brute_force), and only its
                 * acceptances are checked here, by brute force below. */
                if (half == 2)
                    cr_assert_eq(rc == 0, centre, "n=%d rules %d %s (2 dead half pairs, small game %s): %s", n, rules,
                                 s, centre ? "Order's" : "Chaos's", rc ? r.error : "valid");
                if (rc == 0) {
                    cr_assert(brute_order_wins(big, &p), "n=%d rules %d: the lemma holds at %s, Chaos wins", n, rules, s);
                    held++;
                } else {
                    refused++;
                    if (half == 1 && centre && !brute_order_wins(big, &p)) lies++;
                }
            }
            cr_log_info("dead half pairs, n=%d rules %d: %d positions, %d accepted (Order wins by brute force), %d refused",
                        n, rules, tried, held, refused);
            cr_assert(held >= 20 && (refused > 0 || n == 4), "n=%d rules %d: held %d, refused %d", n, rules, held,
                      refused);
        }
    cr_log_info("one dead half pair, small game Order's, whole game Chaos's: %d", lies);
    cr_assert_gt(lies, 0, "no position shows why the number must be even");
    brute_free(big);
    brute_free(small);
}

/* The one-half-pair form (verify_centre.h): lemma-shaped positions with
 * one pair made half full (a piece put on an empty pair, or one taken off
 * a full one), on 4x4, 5x5 and 6x6 under original and exact. Wherever the
 * verifier accepts, brute force over the reference rules says Order wins;
 * it accepts some and refuses some, and among the refused some are Chaos
 * wins by brute force. */
Test(verify_centre, one_half_pair_against_brute_force)
{
    uint64_t rng = 613;
    BruteMemo *big = brute_new();
    for (int n = 4; n <= 6; n++)
        for (int rules = REF_ORIGINAL; rules <= REF_EXACT; rules++) {
            int np, tried = 0, held = 0, refused = 0, chaos = 0, max_empty = n == 4 ? 10 : 9;
            tc_pairs_of(n, &np);
            for (int t = 0; t < 200000 && tried < 300; t++) {
                char s[65];
                tc_lemma_shaped(n, n == 4 ? 20 : 10, n == 4 ? 40 : 25, &rng, s);
                int q = tl_below(&rng, np), a, b, line[VR_SMALL_MAX];
                tc_pair_line(n, q, &a, &b, line);
                int cell = tl_below(&rng, 2) ? a : b;
                if (s[a] == '.' && s[b] == '.')
                    s[cell] = tl_below(&rng, 2) ? 'X' : 'O';
                else if (s[a] != '.' && s[b] != '.')
                    s[cell] = '.';
                else
                    continue;
                RefPos p;
                ref_parse(&p, n, n - 1, rules, s);
                if (tc_count_empty(s, n * n) > max_empty || ref_status(&p) != REF_ONGOING) continue;
                tried++;
                VerifyResult r;
                if (lemma_cert(n, rules, s, &rng, &r) == 0) {
                    cr_assert(brute_order_wins(big, &p), "n=%d rules %d: the lemma holds at %s, Chaos wins", n, rules, s);
                    held++;
                } else {
                    cr_assert(strstr(r.error, ": the centre game with ") && strstr(r.error, "'s half pair ("), "%s: %s",
                              s, r.error);
                    refused++;
                    chaos += !brute_order_wins(big, &p);
                }
            }
            cr_log_info("one half pair, n=%d rules %d: %d positions, %d accepted (Order wins by brute force), %d refused "
                        "(%d of them Chaos wins)",
                        n, rules, tried, held, refused, chaos);
            cr_assert(tried == 300 && held >= 50, "n=%d rules %d: tried %d, held %d", n, rules, tried, held);
            cr_assert(n == 4 || (refused > 0 && chaos > 0), "n=%d rules %d: refused %d, chaos %d", n, rules, refused,
                      chaos);
        }
    brute_free(big);
}
