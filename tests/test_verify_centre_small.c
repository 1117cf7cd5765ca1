/* test_verify_centre_small.c - the centre lemma's small game
 * (vr_small_order_wins, vr_small_order_wins_allowed: verify/verify_centre.*)
 * against solvers that share nothing with it: brute.h (over ref.h) on the
 * 4x4 board with k = 4, which is the m = 4 small game, and a retrograde
 * table (tcentre.h) for m = 2 and 3; the restricted small game (lines
 * allowed only some symbols) against the same table and a plain minimax.
 * The lemma on whole boards is test_verify_centre.c's and
 * test_verify_centre_conditions.c's. */
#include <criterion/criterion.h>
#include <string.h>

#include "../verify/verify_centre.h"
#include "../verify/verify_centre_ext.h"
#include "../verify/verify_rules.h"
#include "brute.h"
#include "tcentre.h"
#include "testlib.h"

Test(verify_centre, small_game_2x2_and_3x3_against_a_retrograde_table)
{
    static uint8_t value[19683];
    for (int m = 2; m <= 3; m++) {
        int cells = m * m, total = 1, wins[2] = {0, 0};
        for (int i = 0; i < cells; i++) total *= 3;
        tc_retro_table(m, NULL, value);
        for (int idx = 0; idx < total; idx++) {
            uint8_t c[9];
            for (int i = 0, v = idx; i < cells; i++, v /= 3) c[i] = (uint8_t)(v % 3);
            int got = vr_small_order_wins(m, c);
            cr_assert_eq(got, value[idx], "m=%d position %d: %d, the table says %d", m, idx, got, value[idx]);
            wins[got]++;
        }
        /* Every 2x2 position is an Order win: any two of its cells share a line. */
        cr_assert(m == 2 ? wins[0] == 0 : wins[0] > 100 && wins[1] > 1000, "m=%d: %d Chaos, %d Order", m, wins[0],
                  wins[1]);
        cr_assert_eq(value[0], 1, "the empty %dx%d small game", m, m);
    }
}

/* A position of the 4x4 board with k = 4 is a position of the m = 4 small
 * game: its lines of four are exactly the rows, columns and diagonals. */
Test(verify_centre, small_game_4x4_against_brute_force)
{
    uint64_t rng = 301;
    BruteMemo *memo = brute_new();
    int wins[2] = {0, 0}, done = 0;
    while (done < 1000) {
        RefPos p;
        if (done % 2) {
            if (tl_random_ongoing(&p, 4, 4, REF_ORIGINAL, 6 + tl_below(&rng, 11), &rng) != 0) continue;
        } else {
            tl_random_any(&p, 4, 4, REF_ORIGINAL, 30 + tl_below(&rng, 15), 30 + tl_below(&rng, 15), &rng);
        }
        if (tc_count_empty(p.cell, 16) > 10) continue;
        uint8_t c[16];
        tc_to_cells(p.cell, 16, c);
        int got = vr_small_order_wins(4, c), want = brute_order_wins(memo, &p);
        char s[17];
        ref_format(&p, s);
        cr_assert_eq(got, want, "%s: %d, brute force %d", s, got, want);
        wins[got]++;
        done++;
    }
    brute_free(memo);
    cr_assert(wins[0] > 100 && wins[1] > 100, "%d Chaos, %d Order", wins[0], wins[1]);
}

Test(verify_centre, empty_small_games_are_order_wins)
{
    uint8_t c[16] = {0};
    for (int m = 2; m <= 4; m++) cr_assert_eq(vr_small_order_wins(m, c), 1, "m=%d", m);
    cr_assert_eq(vr_small_order_wins(1, c), -1);
    cr_assert_eq(vr_small_order_wins(5, c), -1);
    c[3] = 3;
    cr_assert_eq(vr_small_order_wins(2, c), -1, "a cell that is not empty, X or O");
}

/* A random allowed vector for the m x m game: each line both symbols
 * (half the time), X only, O only or neither. */
static void random_allowed(int m, uint64_t *rng, uint8_t *allowed)
{
    static const uint8_t sets[] = {VR_ALLOW_BOTH, VR_ALLOW_BOTH, VR_ALLOW_BOTH, VR_ALLOW_X, VR_ALLOW_O, VR_ALLOW_NONE};
    for (int l = 0; l < 2 * m + 2; l++) allowed[l] = sets[tl_below(rng, 6)];
}

/* Plain minimax of the restricted small game, no memo (a few empty cells only). */
static int small_minimax(int m, int *d, const uint8_t *allowed, int pieces)
{
    if (tc_small_won(m, d, allowed)) return 1;
    if (pieces == m * m) return 0;
    int order = pieces % 2 == 0;
    for (int i = 0; i < m * m; i++) {
        if (d[i]) continue;
        for (int s = 1; s <= 2; s++) {
            d[i] = s;
            int v = small_minimax(m, d, allowed, pieces + 1);
            d[i] = 0;
            if (v == order) return v;
        }
    }
    return !order;
}

/* The restricted small game (each line allowed a set of symbols): every
 * 2x2 and 3x3 position under a dozen allowed vectors each against the
 * retrograde table; ten 4x4 positions with 4-7 empty cells against a
 * plain minimax, under 40 vectors taken in turn twice, more than the
 * verifier keeps memo tables for (VR_EXT_CACHE), so tables are evicted
 * and recomputed on the way, and a table reused for another vector must
 * not keep the old one's values. */
Test(verify_centre, small_game_with_allowed_lines_against_a_retrograde_table)
{
    static uint8_t value[19683];
    uint64_t rng = 306;
    int seen[2] = {0, 0}, differ = 0;
    for (int m = 2; m <= 3; m++)
        for (int v = 0; v < 12; v++) {
            uint8_t allowed[VR_SMALL_LINES];
            if (v < 2) memset(allowed, v == 0 ? VR_ALLOW_NONE : VR_ALLOW_X, sizeof allowed);
            else random_allowed(m, &rng, allowed);
            tc_retro_table(m, allowed, value);
            int total = m == 2 ? 81 : 19683;
            for (int idx = 0; idx < total; idx++) {
                uint8_t c[9];
                for (int i = 0, x = idx; i < m * m; i++, x /= 3) c[i] = (uint8_t)(x % 3);
                int got = vr_small_order_wins_allowed(m, c, allowed);
                cr_assert_eq(got, value[idx], "m=%d vector %d position %d: %d, the table says %d", m, v, idx, got,
                             value[idx]);
                seen[got]++;
                differ += got != vr_small_order_wins(m, c);
            }
        }
    cr_assert(seen[0] > 1000 && seen[1] > 1000 && differ > 1000, "%d Chaos, %d Order, %d differ from unrestricted",
              seen[0], seen[1], differ);

    /* Ten 4x4 positions under each of 40 vectors, the vectors in turn, twice. */
    _Static_assert(40 > VR_EXT_CACHE, "more vectors than tables kept, so some are evicted");
    uint8_t vec[40][VR_SMALL_LINES], pos[10][16];
    int want[40][10], seen4[2] = {0, 0};
    for (int v = 0; v < 40; v++) random_allowed(4, &rng, vec[v]);
    for (int p = 0; p < 10; p++) {
        for (int i = 0; i < 16; i++) pos[p][i] = (uint8_t)(1 + tl_below(&rng, 2));
        for (int e = 4 + tl_below(&rng, 4); e > 0; e--) pos[p][tl_below(&rng, 16)] = VR_EMPTY;
    }
    for (int round = 0; round < 2; round++)
        for (int v = 0; v < 40; v++)
            for (int p = 0; p < 10; p++) {
                if (round == 0) {
                    int d[16], pieces = 0;
                    for (int i = 0; i < 16; i++) d[i] = pos[p][i], pieces += d[i] != 0;
                    want[v][p] = small_minimax(4, d, vec[v], pieces);
                }
                int got = vr_small_order_wins_allowed(4, pos[p], vec[v]);
                cr_assert_eq(got, want[v][p], "round %d: 4x4 position %d under vector %d: %d, minimax %d", round, p, v,
                             got, want[v][p]);
                seen4[got]++;
            }
    cr_assert(seen4[0] > 40 && seen4[1] > 40, "4x4: %d Chaos, %d Order", seen4[0], seen4[1]);
    uint8_t bad[VR_SMALL_LINES], c[16] = {0};
    memset(bad, VR_ALLOW_BOTH, sizeof bad);
    bad[3] = 1; /* bit 0 would be the empty cell */
    cr_assert_eq(vr_small_order_wins_allowed(2, c, bad), -1, "a set with a bit for the empty cell");
}
