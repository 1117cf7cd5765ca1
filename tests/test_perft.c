/* test_perft.c - perft against closed forms and against the independent
 * reference (ref.c), for every rule set, several board sizes, and all three
 * counting methods; and the full visit against the bench's fair baseline
 * (bench/baseline.c), a second independent implementation (original
 * rules). */
#include <criterion/criterion.h>

#include "../bench/bench.h"
#include "../engine/perft.h"
#include "testlib.h"

static uint64_t run_mb(const Rules *r, Board b, int depth, PerftMode mode, size_t mb)
{
    PerftResult res;
    cr_assert_eq(perft_run(r, b, depth, mode, mb << 20, &res), 0);
    return res.count;
}

static uint64_t run(const Rules *r, Board b, int depth, PerftMode mode) { return run_mb(r, b, depth, mode, 16); }

static void setup(Rules *r, int n, int k, RuleSet rs)
{
    char err[128];
    cr_assert_eq(rules_init(r, n, k, rs, err, sizeof err), 0, "%s", err);
}

/* 72*70*...: with fewer than five pieces nothing can end the game. */
static uint64_t falling(int moves, int depth)
{
    uint64_t p = 1;
    for (int i = 0; i < depth; i++) p *= (uint64_t)(moves - 2 * i);
    return p;
}

Test(perft, empty_board_depths_1_to_5_closed_form)
{
    for (int rs = 0; rs < 3; rs++) {
        Rules r;
        setup(&r, 6, 5, (RuleSet)rs);
        for (int d = 0; d <= 5; d++) {
            cr_expect_eq(run(&r, board_empty(), d, PERFT_MEMO), falling(72, d), "rules %d depth %d", rs, d);
            cr_expect_eq(run(&r, board_empty(), d, PERFT_BULK), falling(72, d), "rules %d depth %d", rs, d);
        }
        cr_expect_eq(run(&r, board_empty(), 4, PERFT_FULL), falling(72, 4));
    }
    cr_expect_eq(falling(72, 5), 72ULL * 70 * 68 * 66 * 64);
}

/* A game first ends at ply 5 exactly when the five pieces fill one of the
 * 32 windows with one symbol: 32 windows * 2 symbols * 5! orders = 7680
 * sequences, each of which has no moves at ply 6. Under exact-end nothing
 * ends before the board is full. */
Test(perft, empty_board_depth_6_closed_form)
{
    const uint64_t w5 = 32ULL * 2 * 120;
    Rules r;
    setup(&r, 6, 5, RULES_ORIGINAL);
    cr_expect_eq(run(&r, board_empty(), 6, PERFT_MEMO), falling(72, 6) - w5 * 62);
    setup(&r, 6, 5, RULES_EXACT);
    cr_expect_eq(run(&r, board_empty(), 6, PERFT_MEMO), falling(72, 6) - w5 * 62);
    setup(&r, 6, 5, RULES_EXACT_END);
    cr_expect_eq(run(&r, board_empty(), 6, PERFT_MEMO), falling(72, 6));
}

/* At ply 7 the rule sets part: a six made by the sixth piece wins under
 * original only. Such sequences: 14 lines of six cells * 2 symbols * 4
 * choices of the last cell (an inner one: if it were an end, the first five
 * would already be a five) * 5! orders of the rest; under exact each goes on
 * with 60 moves. Exact-end never ends early. */
Test(perft, empty_board_depth_7_original_against_exact)
{
    Rules ro, re, rz;
    setup(&ro, 6, 5, RULES_ORIGINAL);
    setup(&re, 6, 5, RULES_EXACT);
    setup(&rz, 6, 5, RULES_EXACT_END);
    uint64_t po = run_mb(&ro, board_empty(), 7, PERFT_MEMO, 128);
    uint64_t pe = run_mb(&re, board_empty(), 7, PERFT_MEMO, 128);
    cr_expect_eq(pe - po, 14ULL * 2 * 4 * 120 * 60);
    cr_expect_eq(run_mb(&rz, board_empty(), 7, PERFT_MEMO, 128), falling(72, 7));
}

/* Engine and reference agree from p at every depth up to max_depth, by all methods. */
static void against_ref(RefPos *p, int max_depth)
{
    Rules r;
    tl_init_rules(&r, p);
    Board b = tl_board(p);
    for (int d = 0; d <= max_depth; d++) {
        uint64_t want = ref_perft(p, d);
        char s[65];
        ref_format(p, s);
        cr_assert_eq(run(&r, b, d, PERFT_FULL), want, "full %s n=%d k=%d rules=%d depth %d", s, p->n, p->k, p->rules, d);
        cr_assert_eq(run(&r, b, d, PERFT_BULK), want, "bulk %s depth %d", s, d);
        cr_assert_eq(run(&r, b, d, PERFT_MEMO), want, "memo %s depth %d", s, d);
    }
}

Test(perft, small_boards_from_empty_against_reference)
{
    static const struct { int n, k, depth; } cases[] = {{4, 4, 5}, {4, 3, 5}, {5, 4, 4}, {5, 5, 4}, {5, 3, 3}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int rs = 0; rs < 3; rs++) {
            RefPos p;
            uint64_t rng = 1;
            cr_assert_eq(tl_random_ongoing(&p, cases[i].n, cases[i].k, rs, 0, &rng), 0);
            against_ref(&p, cases[i].depth);
        }
}

Test(perft, small_boards_to_the_end_against_reference)
{
    uint64_t rng = 77;
    for (int rs = 0; rs < 3; rs++)
        for (int t = 0; t < 20; t++) {
            RefPos p;
            int n = 4 + tl_below(&rng, 2), k = 3 + tl_below(&rng, n - 2);
            int empties = 4 + tl_below(&rng, 3);
            if (tl_random_ongoing(&p, n, k, rs, n * n - empties, &rng) != 0) continue;
            against_ref(&p, empties);
        }
}

Test(perft, midgame_6x6_against_reference)
{
    uint64_t rng = 2026;
    for (int rs = 0; rs < 3; rs++)
        for (int t = 0; t < 40; t++) {
            RefPos p;
            int pieces = 8 + tl_below(&rng, 24);
            if (tl_random_ongoing(&p, 6, 5, rs, pieces, &rng) != 0) continue;
            against_ref(&p, pieces > 24 ? 4 : 2);
        }
}

Test(perft, larger_boards_against_reference)
{
    uint64_t rng = 8;
    static const struct { int n, k; } cases[] = {{7, 5}, {7, 4}, {8, 5}, {8, 3}, {8, 8}, {7, 7}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int rs = 0; rs < 3; rs++)
            for (int t = 0; t < 4; t++) {
                RefPos p;
                int pieces = tl_below(&rng, cases[i].n * cases[i].n - 6);
                if (tl_random_ongoing(&p, cases[i].n, cases[i].k, rs, pieces, &rng) != 0) continue;
                against_ref(&p, 2);
            }
}

/* Hand-made: X on a1 b1 d1 e1 f1, so Xc1 makes a six. Under original that
 * ends the game, under exact it does not; the counts must differ and each
 * must match the reference. */
Test(perft, six_separates_original_from_exact)
{
    const char *pos = "XX.XXX" "O....." "......" "..O..." "......" "...O..";
    uint64_t got[2];
    for (int rs = 0; rs < 2; rs++) {
        RefPos p;
        cr_assert_eq(ref_parse(&p, 6, 5, rs, pos), 0);
        against_ref(&p, 3);
        Rules r;
        tl_init_rules(&r, &p);
        got[rs] = run(&r, tl_board(&p), 3, PERFT_MEMO);
    }
    cr_expect_neq(got[0], got[1]);
    cr_expect_lt(got[0], got[1]);
}

Test(perft, finished_game_has_no_moves)
{
    RefPos p;
    cr_assert_eq(ref_parse(&p, 6, 5, REF_ORIGINAL, "XXXXX.OO.O..............O..........."), 0);
    Rules r;
    tl_init_rules(&r, &p);
    for (int mode = 0; mode < 3; mode++) {
        cr_expect_eq(run(&r, tl_board(&p), 0, (PerftMode)mode), 1);
        cr_expect_eq(run(&r, tl_board(&p), 1, (PerftMode)mode), 0);
        cr_expect_eq(run(&r, tl_board(&p), 3, (PerftMode)mode), 0);
    }
}

/* The engine's full visit and the fair baseline (bench/baseline.c: a
 * shift-based detector over the whole board, no window tables) give the
 * same sequences, positions made and sequences ending the game, from p. */
static void against_baseline(const RefPos *p, int depth)
{
    Rules r;
    tl_init_rules(&r, p);
    Board b = tl_board(p);
    PerftResult res;
    cr_assert_eq(perft_run(&r, b, depth, PERFT_FULL, 0, &res), 0);
    uint64_t nodes, ends;
    int windows;
    uint64_t count = bench_baseline_perft(p->n, p->k, b, depth, &nodes, &ends, &windows);
    char s[65];
    ref_format(p, s);
    cr_assert_eq(count, res.count, "%s n=%d k=%d depth %d", s, p->n, p->k, depth);
    cr_assert_eq(nodes, res.nodes, "%s n=%d k=%d depth %d", s, p->n, p->k, depth);
    cr_assert_eq(ends, res.leaf_ends, "%s n=%d k=%d depth %d", s, p->n, p->k, depth);
    int m = p->n - p->k + 1;
    cr_assert_eq(windows, 2 * p->n * m + 2 * m * m);
}

Test(perft, fair_baseline_from_empty_boards)
{
    /* Every n from 4 to 8, the baseline's k = 5 code and its general loop;
     * small depths, since the sanitizer build runs this too (4x4 to the
     * end of 5 plies: lines of three and four made at the last ply). */
    static const struct { int n, k, depth; } cases[] = {
        {4, 4, 5}, {4, 3, 4}, {5, 4, 4}, {5, 5, 3}, {5, 3, 3}, {6, 5, 3}, {7, 5, 3}, {8, 5, 2}, {8, 3, 3}, {8, 8, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        RefPos p;
        uint64_t rng = 1;
        cr_assert_eq(tl_random_ongoing(&p, cases[i].n, cases[i].k, REF_ORIGINAL, 0, &rng), 0);
        against_baseline(&p, cases[i].depth);
    }
}

/* Positions with pieces, where many leaves make a line: the ends count is
 * checked, not only the sequences. n = 8 has no guard column, where a
 * detector that shifted across the row's end would count false lines. */
Test(perft, fair_baseline_from_random_positions)
{
    uint64_t rng = 13;
    static const struct { int n, k, depth; } cases[] = {
        {4, 3, 4}, {5, 4, 3}, {6, 5, 3}, {6, 4, 3}, {7, 5, 2}, {8, 5, 2}, {8, 4, 2}, {8, 3, 2}, {8, 6, 2},
    };
    uint64_t ends = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int t = 0; t < 6; t++) {
            RefPos p;
            int n = cases[i].n, pieces = n * n / 3 + tl_below(&rng, n * n / 3);
            if (tl_random_ongoing(&p, n, cases[i].k, REF_ORIGINAL, pieces, &rng) != 0) continue;
            against_baseline(&p, cases[i].depth);
            Rules r;
            tl_init_rules(&r, &p);
            PerftResult res;
            cr_assert_eq(perft_run(&r, tl_board(&p), cases[i].depth, PERFT_FULL, 0, &res), 0);
            ends += res.leaf_ends;
        }
    cr_expect_gt(ends, 0, "no position had a leaf that makes a line: the check of ends proved nothing");
    /* h1 a2 b2 c2 are consecutive bits (7 to 10): Xd2 would make a false
     * five for a detector that shifted across the end of row 1. */
    RefPos p;
    cr_assert_eq(ref_parse(&p, 8, 5, REF_ORIGINAL,
                           "......OX" "XXX...O." "........" "...O...." "........" "........" "........" "........"),
                 0);
    against_baseline(&p, 3);
}
