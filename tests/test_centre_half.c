/* test_centre_half.c - the half-pair centre lemma (solver/centre_half.h)
 * beyond its claims (those are held against the brute force in
 * tests/test_centre.c, lemma_one_half_pair, and
 * tests/test_centre_half_two.c): its stops (a set flag or a past deadline
 * makes it claim nothing, and without them the same position is claimed),
 * its tables' symmetry reduction with one and with two half pairs (the
 * value of each of a position's 16 images, reduced, is the position's own
 * without the reduction), and its memory budget. Each test runs in a
 * process of its own, so no table is filled before. */
#include <criterion/criterion.h>

#include "../engine/notation.h"
#include "../solver/centre_half.h"
#include "../engine/symmetry.h"
#include "../solver/clock.h"
#include "../solver/dfpn.h"
#include "testlib.h"

/* X b1 under exact (r), and the lemma's geometry for it (c). */
static Board xb1_exact(Rules *r, Centre *c)
{
    char err[128];
    cr_assert_eq(rules_init(r, 6, 5, RULES_EXACT, err, sizeof err), 0, "%s", err);
    centre_init(c, r);
    c->half_max_pieces = CENTRE_HALF_MAX_PIECES;
    Move xb1;
    cr_assert_eq(notation_parse_move("Xb1", 6, &xb1, err, sizeof err), 0, "%s", err);
    Board b = board_empty();
    board_place(&b, xb1);
    return b;
}

/* X b1 (b) with a mixed pair O a3 X f3 and two centre pieces X c3, O d4:
 * X b1's configuration (a mixed pair allows what an empty one does) at 5
 * pieces, beyond CENTRE_HALF_MAX_PIECES. */
static Board xb1_deep(Board b)
{
    const char *more[] = {"Oa3", "Xf3", "Xc3", "Od4"};
    for (int i = 0; i < 4; i++) {
        Move m;
        char err[64];
        cr_assert_eq(notation_parse_move(more[i], 6, &m, err, sizeof err), 0, "%s", err);
        board_place(&b, m);
    }
    return b;
}

/* X b1: Chaos to move with one half pair, an Order win by the lemma under
 * exact, whose one-line certificate the independent verifier accepts
 * (results/openings/exact-Xb1/report.md). Stopped, it is not claimed (the
 * stop is read before any work); then it is. */
Test(centre_half, a_stop_or_a_past_deadline_claims_nothing)
{
    Rules r;
    Centre c;
    Board b = xb1_exact(&r, &c);
    atomic_bool stop = true;
    cr_expect_not(centre_half_win(&c, b, &stop, 0), "claimed with the stop flag set");
    cr_expect_not(centre_half_win(&c, b, NULL, clock_seconds() - 1), "claimed past its deadline");
    cr_expect_not(centre_win_with_half(&c, b, &stop, 0), "the combined lemma claimed with the stop flag set");
    atomic_store(&stop, false);
    cr_expect(centre_half_win(&c, b, &stop, clock_seconds() + 3600), "not claimed with time to spare");
    cr_expect(centre_win_with_half(&c, b, NULL, 0), "the combined lemma does not claim it");
}

/* X b1 again, its table's fill stopped part way by a deadline 50 ms out
 * (the fill takes seconds): nothing is claimed, and what the stopped fill
 * left in the table must not spoil the next call, which claims it. A
 * fill that kept the values of nodes whose children were cut short would
 * keep X b1 itself as "not won" (the root's children all end stopped). */
Test(centre_half, a_fill_stopped_part_way_leaves_no_wrong_value)
{
    Rules r;
    Centre c;
    Board b = xb1_exact(&r, &c);
    double t0 = clock_seconds();
    cr_expect_not(centre_half_win(&c, b, NULL, t0 + 0.05), "claimed although its fill was cut at 50 ms");
    cr_log_info("the stopped call took %.2f s", clock_seconds() - t0);
    cr_expect(centre_half_win(&c, b, NULL, 0), "not claimed after a stopped fill");
}

/* X b1 with whole tables (Centre.half_fill). A position of X b1's
 * configuration with more pieces than a table may be made at (X b1, a
 * mixed pair O a3 X f3 and two centre pieces: 5 against 3) is not claimed
 * while no whole table is kept; the searched lemma answers it (its own
 * table then holds some entries, which the fill below overwrites every
 * one of). A fill cut by a deadline 50 ms out claims nothing; the next
 * call at X b1 fills the table whole and claims X b1; then the deeper
 * position is answered from the kept table, as the search answered it. */
Test(centre_half, a_whole_table_cut_short_claims_nothing_and_is_made_again)
{
    Rules r;
    Centre c;
    Board b = xb1_exact(&r, &c);
    c.half_fill = true;
    Board deep = xb1_deep(b);
    cr_expect_not(centre_half_win(&c, deep, NULL, 0), "claimed beyond its pieces before any whole table was kept");
    Centre searched = c;
    searched.half_fill = false;
    searched.half_max_pieces = 36;
    bool want = centre_half_win(&searched, deep, NULL, 0);
    double t0 = clock_seconds();
    cr_expect_not(centre_half_win(&c, b, NULL, t0 + 0.05), "claimed although its fill was cut at 50 ms");
    cr_log_info("the stopped call took %.2f s", clock_seconds() - t0);
    cr_expect(centre_half_win(&c, b, NULL, 0), "not claimed after a stopped fill");
    cr_expect_eq(centre_half_win(&c, deep, NULL, 0), want, "the kept whole table and the search differ beyond its pieces");
    cr_log_info("the deeper position: %s by the search", want ? "claimed" : "not claimed");
}

/* A search rooted deep, with whole tables: X b1 with the four pieces
 * above (5 pieces, beyond --centre-half 3) is an Order win by the lemma
 * (the searched form, held against the brute force in test_centre.c),
 * and df-pn with whole tables decides it at its root, no node searched:
 * the root's own configuration may be made whatever its pieces
 * (dfpn.c dfpn_root_centre). */
Test(centre_half, a_deep_root_makes_its_own_whole_table)
{
    Rules r;
    Centre c;
    Board deep = xb1_deep(xb1_exact(&r, &c));
    Centre searched = c;
    searched.half_max_pieces = 36;
    cr_assert(centre_half_win(&searched, deep, NULL, 0), "the searched lemma does not claim the position");
    TT tt;
    cr_assert_eq(tt_init(&tt, (size_t)16 << 20, false), 0);
    DfpnConfig cfg = dfpn_default_config();
    cfg.kn.centre_half = 3;
    cfg.kn.centre_half_fill = true;
    Dfpn d;
    dfpn_init(&d, &r, &cfg, &tt);
    d.lim.node_limit = 100000;
    uint32_t pn, dn;
    cr_expect_eq(dfpn_solve(&d, deep, &pn, &dn), WINNER_ORDER, "not decided for Order");
    cr_expect_eq(d.nodes, 0, "%llu nodes searched: the root's table was not made", (unsigned long long)d.nodes);
    tt_free(&tt);
}

/* A random position for the lemma: every pair empty, mixed or same but
 * nhalf (1 or 2), which hold one piece each; `fill` random pieces in the
 * centre; ongoing. False when the draw is not (the caller draws again). */
static bool half_position(const Centre *c, const Rules *r, int nhalf, int fill, uint64_t *rng, Board *out)
{
    Board b = board_empty();
    int star = tl_below(rng, c->npairs), star2 = nhalf < 2 ? -1 : (star + 1 + tl_below(rng, c->npairs - 1)) % c->npairs;
    for (int p = 0; p < c->npairs; p++) {
        bool half = p == star || p == star2;
        int kind = half ? 3 : tl_below(rng, 4); /* 0, 1: empty; 2: mixed; 3: same (star: half) */
        int s = tl_below(rng, 2), e = tl_below(rng, 2);
        if (kind >= 2) board_place(&b, move_make(s, c->pair[p][e]));
        if (kind == 2) board_place(&b, move_make(s ^ 1, c->pair[p][e ^ 1]));
        if (kind == 3 && !half) board_place(&b, move_make(s, c->pair[p][e ^ 1]));
    }
    for (int i = 0; i < fill; i++) {
        uint64_t free = c->centre & ~(b.s[PIECE_X] | b.s[PIECE_O]);
        if (!free) return false;
        int k = tl_below(rng, __builtin_popcountll(free));
        while (k--) free &= free - 1;
        board_place(&b, move_make(tl_below(rng, 2), __builtin_ctzll(free)));
    }
    *out = b;
    return rules_status(r, b) == WINNER_NONE;
}

/* On 5x5 and 6x6 under original and exact: random positions with one or
 * two half pairs (drawn at random, so the two table sizes alternate),
 * and their 16 images (the board's 8 symmetries, each with X and O
 * swapped or not), the images asked with the reduction (several
 * configurations of one class then share a table) and the position
 * without it (on 5x5 with a budget of 1 byte, so one table is kept
 * whatever its size and is replaced as the two kinds of call alternate;
 * on 6x6 the default budget, where a table of either size evicts the
 * other kind). Both values must appear for each number of half pairs, or
 * the sample says nothing. */
Test(centre_half, the_symmetry_reduction_keeps_every_value, .timeout = 480)
{
    for (int n = 5; n <= 6; n++)
        for (int rs = 0; rs < 2; rs++) {
            Rules r;
            char err[128];
            cr_assert_eq(rules_init(&r, n, n - 1, rs ? RULES_EXACT : RULES_ORIGINAL, err, sizeof err), 0, "%s", err);
            Centre plain, reduced;
            centre_init(&plain, &r);
            plain.half_max_pieces = n * n;
            plain.half_two_max_pieces = n * n;
            plain.half_plain = true;
            reduced = plain;
            reduced.half_plain = false;
            plain.half_bytes = n == 5 ? 1 : 0;
            uint64_t rng = 700 + (uint64_t)(10 * n + rs);
            int wins[3] = {0}, samples[3] = {0}, want = n == 5 ? 120 : 24;
            for (int tries = 0; samples[1] + samples[2] < want && tries < 100 * want; tries++) {
                Board b;
                int nhalf = 1 + tl_below(&rng, 2), fill = (n == 5 ? 1 : 8) + tl_below(&rng, 6);
                if (!half_position(&plain, &r, nhalf, fill, &rng, &b)) continue;
                bool v = centre_half_win(&plain, b, NULL, 0);
                samples[nhalf]++;
                wins[nhalf] += v;
                for (int s = 0; s < SYM_COUNT; s++) {
                    char pos[NOTATION_POS_LEN];
                    notation_format_position(sym_apply(b, s, n), n, pos);
                    cr_expect_eq(centre_half_win(&reduced, sym_apply(b, s, n), NULL, 0), v,
                                 "%dx%d rules %d, %d half: image %d %s: reduced %d, plain %d", n, n, rs, nhalf, s, pos,
                                 !v, v);
                }
            }
            cr_expect_eq(samples[1] + samples[2], want, "%dx%d: too few positions drawn", n, n);
            for (int h = 1; h <= 2; h++) {
                cr_log_info("%dx%d rules %d, %d half: %d positions, %d Order wins", n, n, rs, h, samples[h], wins[h]);
                cr_expect(wins[h] > 0 && wins[h] < samples[h], "%dx%d rules %d, %d half: %d of %d won: one value only",
                          n, n, rs, h, wins[h], samples[h]);
            }
        }
}

/* The budget --centre-half-mb M buys: M MiB; 0: the default. */
Test(centre_half, budget_for_a_memory_size)
{
    cr_expect_eq(centre_half_bytes_for(0), (uint64_t)CENTRE_HALF_MB << 20);
    cr_expect_eq(centre_half_bytes_for(1), 1u << 20);
    cr_expect_eq(centre_half_bytes_for(4096), 4096ull << 20);
}

/* The symmetry maps centre_init computes for the tables' reduction
 * (Centre.sym_cell, sym_pair), against the square's symmetries applied
 * here to whole-board cells: centre cell (i, j) is board cell (i+1, j+1),
 * and small line p's image is the line between the images of pair p's two
 * ring cells (not its small line's cells, which centre_init used). */
Test(centre_half, the_symmetry_maps_match_the_board)
{
    for (int n = 4; n <= 6; n++) { /* every board the lemma applies to (m 2-4) */
        Rules r;
        Centre c;
        char err[128];
        cr_assert_eq(rules_init(&r, n, n - 1, RULES_ORIGINAL, err, sizeof err), 0, "%s", err);
        centre_init(&c, &r);
        cr_assert(c.on, "n %d", n);
        int m = n - 2;
        for (int s = 0; s < 8; s++) {
            int img[BOARD_MAX_N * 8];
            for (int row = 0; row < n; row++)
                for (int col = 0; col < n; col++) {
                    int r2 = s & 1 ? n - 1 - row : row, c2 = s & 2 ? n - 1 - col : col;
                    img[board_cell(row, col)] = s & 4 ? board_cell(c2, r2) : board_cell(r2, c2);
                }
            for (int i = 0; i < m * m; i++) {
                int to = c.sym_cell[s][i];
                cr_assert_eq(img[board_cell(i / m + 1, i % m + 1)], board_cell(to / m + 1, to % m + 1), "n %d s %d cell %d",
                             n, s, i);
            }
            int seen = 0;
            for (int p = 0; p < c.npairs; p++) {
                int q = c.sym_pair[s][p];
                cr_assert(q >= 0 && q < c.npairs, "n %d s %d pair %d: %d", n, s, p, q);
                int a = img[c.pair[p][0]], b = img[c.pair[p][1]];
                cr_assert((a == c.pair[q][0] && b == c.pair[q][1]) || (a == c.pair[q][1] && b == c.pair[q][0]),
                          "n %d s %d pair %d -> %d", n, s, p, q);
                seen |= 1 << q;
            }
            cr_assert_eq(seen, (1 << c.npairs) - 1, "n %d s %d: not a permutation", n, s);
        }
    }
}
