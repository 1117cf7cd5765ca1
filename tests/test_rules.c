/* test_rules.c - win detection, status and the four analysis, on hand-made
 * positions for each rule set and on random ones against ref.c. */
#include <criterion/criterion.h>

#include "brute.h"
#include "testlib.h"

static Winner status_of(const char *pos, int n, int k, int rs)
{
    RefPos p;
    cr_assert_eq(ref_parse(&p, n, k, rs, pos), 0, "bad test position %s", pos);
    Rules r;
    tl_init_rules(&r, &p);
    return rules_status(&r, tl_board(&p));
}


Test(rules, five_in_each_direction)
{
    static const char *const fives[] = {
        /* row */ ".XXXXX" "O....." "......" ".O...." "......" "......",
        /* column */ "O....." "O....." "O....." "O....." "O....." ".X.X..",
        /* diagonal */ "X....." ".X...." "..X..." "...X.." "....X." "OO.O..",
        /* anti-diagonal, off the long one */ "....O." "...O.." "..O..." ".O...." "O....." "XX....",
    };
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(status_of(fives[i], 6, 5, REF_ORIGINAL), WINNER_ORDER, "%d", i);
        cr_expect_eq(status_of(fives[i], 6, 5, REF_EXACT), WINNER_ORDER, "%d", i);
        cr_expect_eq(status_of(fives[i], 6, 5, REF_EXACT_END), WINNER_NONE, "%d", i);
    }
}

Test(rules, six_wins_under_original_only)
{
    const char *six = "XXXXXX" "O....." "......" "..O..." "......" "....O.";
    cr_expect_eq(status_of(six, 6, 5, REF_ORIGINAL), WINNER_ORDER);
    cr_expect_eq(status_of(six, 6, 5, REF_EXACT), WINNER_NONE);
    const char *diag6 = "O....." ".O...." "..O..." "...O.." "....O." ".....O";
    cr_expect_eq(status_of(diag6, 6, 5, REF_ORIGINAL), WINNER_ORDER);
    cr_expect_eq(status_of(diag6, 6, 5, REF_EXACT), WINNER_NONE);
}

/* No run longer than two anywhere. */
static const char *const full_no_line = "XXOOXX" "OOXXOO" "XXOOXX" "OOXXOO" "XXOOXX" "OOXXOO";

Test(rules, full_board_without_line_is_chaos)
{
    for (int rs = 0; rs < 3; rs++) cr_expect_eq(status_of(full_no_line, 6, 5, rs), WINNER_CHAOS);
}

Test(rules, exact_end_judges_the_full_board)
{
    /* First row replaced: an exact five, then a six. */
    const char *five = "XXXXXO" "OOXXOO" "XXOOXX" "OOXXOO" "XXOOXX" "OOXXOO";
    const char *six = "XXXXXX" "OOXXOO" "XXOOXX" "OOXXOO" "XXOOXX" "OOXXOO";
    cr_expect_eq(status_of(five, 6, 5, REF_EXACT_END), WINNER_ORDER);
    cr_expect_eq(status_of(six, 6, 5, REF_EXACT_END), WINNER_CHAOS);
    cr_expect_eq(status_of(six, 6, 5, REF_ORIGINAL), WINNER_ORDER);
    cr_expect_eq(status_of(six, 6, 5, REF_EXACT), WINNER_CHAOS);
}

Test(rules, window_tables)
{
    for (int n = 4; n <= 8; n++)
        for (int k = 3; k <= n; k++) {
            Rules r;
            char err[128];
            cr_assert_eq(rules_init(&r, n, k, RULES_ORIGINAL, err, sizeof err), 0);
            int m = n - k + 1;
            cr_expect_eq(r.nwin, 2 * n * m + 2 * m * m, "n=%d k=%d", n, k);
            int through = 0;
            for (int c = 0; c < 64; c++) through += r.cell_nwin[c];
            cr_expect_eq(through, r.nwin * k);
            for (int i = 0; i < r.nwin; i++) {
                cr_expect_eq(__builtin_popcountll(r.win[i]), k);
                cr_expect_eq(r.win[i] & ~r.cells, 0);
                cr_expect_eq(r.ends[i] & r.win[i], 0);
                cr_expect_leq(__builtin_popcountll(r.ends[i]), 2);
            }
        }
    Rules r;
    char err[128];
    cr_expect_eq(rules_init(&r, 3, 3, RULES_ORIGINAL, err, sizeof err), -1);
    cr_expect_eq(rules_init(&r, 9, 5, RULES_ORIGINAL, err, sizeof err), -1);
    cr_expect_eq(rules_init(&r, 4, 5, RULES_ORIGINAL, err, sizeof err), -1);
    cr_expect_eq(rules_init(&r, 6, 2, RULES_ORIGINAL, err, sizeof err), -1);
}

Test(rules, status_of_random_positions_matches_reference)
{
    uint64_t rng = 5;
    for (int t = 0; t < 6000; t++) {
        int n = 4 + tl_below(&rng, 5), k = 3 + tl_below(&rng, n - 2), rs = tl_below(&rng, 3);
        int px = tl_below(&rng, 60), po = tl_below(&rng, 100 - px);
        RefPos p;
        tl_random_any(&p, n, k, rs, px, po, &rng);
        Rules r;
        tl_init_rules(&r, &p);
        char s[65];
        ref_format(&p, s);
        cr_assert_eq((int)rules_status(&r, tl_board(&p)), ref_status(&p), "%s n=%d k=%d rules=%d", s, n, k, rs);
        cr_assert_eq(rules_has_line(&r, tl_board(&p)), ref_has_line(&p) != 0, "%s", s);
    }
}

Test(rules, status_after_a_move_matches_reference)
{
    uint64_t rng = 6;
    for (int t = 0; t < 3000; t++) {
        int n = 4 + tl_below(&rng, 5), k = 3 + tl_below(&rng, n - 2), rs = tl_below(&rng, 3);
        RefPos p;
        if (tl_random_ongoing(&p, n, k, rs, tl_below(&rng, n * n), &rng) != 0) continue;
        Rules r;
        tl_init_rules(&r, &p);
        Board b = tl_board(&p);
        for (int c = 0; c < n * n; c++) {
            if (p.cell[c] != '.') continue;
            for (int s = 0; s < 2; s++) {
                Move m = move_make(s, board_cell(c / n, c % n));
                board_place(&b, m);
                p.cell[c] = s ? 'O' : 'X';
                cr_assert_eq((int)rules_status_after(&r, b, m), ref_status(&p));
                p.cell[c] = '.';
                board_undo(&b, m);
            }
        }
    }
}

/* The brute force judges the moves below its root by ref_status_after
 * (brute.c): it must be ref_status itself wherever the position before
 * the move was ongoing. */
Test(rules, reference_status_after_a_move)
{
    uint64_t rng = 61;
    int wins = 0, ends = 0;
    for (int t = 0; t < 3000; t++) {
        int n = 4 + tl_below(&rng, 5), k = 3 + tl_below(&rng, n - 2), rs = tl_below(&rng, 3);
        RefPos p;
        if (tl_random_ongoing(&p, n, k, rs, tl_below(&rng, n * n), &rng) != 0) continue;
        for (int c = 0; c < n * n; c++) {
            if (p.cell[c] != '.') continue;
            for (int s = 0; s < 2; s++) {
                p.cell[c] = s ? 'O' : 'X';
                int want = ref_status(&p);
                cr_assert_eq(ref_status_after(&p, c), want, "n=%d k=%d rules=%d cell %d", n, k, rs, c);
                wins += want == REF_ORDER_WINS;
                ends += want == REF_CHAOS_WINS;
                p.cell[c] = '.';
            }
        }
    }
    cr_expect(wins > 100 && ends > 10, "%d wins and %d Chaos ends: too few to test", wins, ends);
}

/* The brute force's value search (brute_value: a node stops at its first
 * deciding child) against the sign of its full distance search, each with
 * a memo of its own, and then with one memo shared both ways round. */
Test(rules, brute_value_is_the_sign_of_brute_dtw)
{
    BruteMemo *a = brute_new(), *b = brute_new(), *both = brute_new();
    cr_assert(a && b && both);
    uint64_t rng = 62;
    int wins = 0, tried = 0;
    for (int t = 0; t < 200; t++) {
        int n = 4 + tl_below(&rng, 2), k = 3 + tl_below(&rng, n - 2), rs = tl_below(&rng, 3);
        RefPos p;
        if (tl_random_ongoing(&p, n, k, rs, n * n - 6 - tl_below(&rng, 5), &rng) != 0) continue;
        int dtw = brute_dtw(a, &p), v = brute_value(b, &p);
        cr_assert_eq(v, dtw >= 0, "n=%d k=%d rules=%d: value %d, dtw %d", n, k, rs, v, dtw);
        int first_value = t & 1;
        int v2 = first_value ? brute_value(both, &p) : -1, d2 = brute_dtw(both, &p);
        if (!first_value) v2 = brute_value(both, &p);
        cr_assert_eq(d2, dtw, "shared memo: dtw %d, alone %d", d2, dtw);
        cr_assert_eq(v2, v, "shared memo: value %d, alone %d", v2, v);
        wins += v;
        tried++;
    }
    cr_expect(tried > 100 && wins > tried / 10 && wins < tried - tried / 10, "%d of %d Order wins", wins, tried);
    brute_free(a);
    brute_free(b);
    brute_free(both);
}

Test(rules, winning_cells_match_reference)
{
    uint64_t rng = 7;
    int seen = 0;
    for (int t = 0; t < 4000; t++) {
        int n = 4 + tl_below(&rng, 5), k = 3 + tl_below(&rng, n - 2), rs = tl_below(&rng, 3);
        RefPos p;
        if (tl_random_ongoing(&p, n, k, rs, tl_below(&rng, n * n), &rng) != 0) continue;
        char syms[128];
        int cells[128];
        int nw = ref_winning_moves(&p, syms, cells, 128);
        uint64_t want[2] = {0, 0};
        for (int i = 0; i < nw; i++) want[syms[i] == 'O'] |= 1ULL << board_cell(cells[i] / n, cells[i] % n);
        Rules r;
        tl_init_rules(&r, &p);
        uint64_t got[2];
        rules_winning_cells(&r, tl_board(&p), got);
        char s[65];
        ref_format(&p, s);
        cr_assert_eq(got[0], want[0], "X: %s n=%d k=%d rules=%d", s, n, k, rs);
        cr_assert_eq(got[1], want[1], "O: %s n=%d k=%d rules=%d", s, n, k, rs);
        seen += nw > 0;
    }
    cr_expect_gt(seen, 500, "too few positions with a winning move: the test says little");
}

/* The window scan's four makers against the reference, under original and
 * exact: with no four of S on the board, placing S on c leaves S a winning
 * move exactly when c is in the scan's maker[S] (knowledge.h relies on
 * it). Its fours are rules_winning_cells', checked above. */
Test(rules, scan_makers_match_reference)
{
    uint64_t rng = 8;
    int seen = 0;
    for (int t = 0; t < 3000; t++) {
        int n = 4 + tl_below(&rng, 5), k = 3 + tl_below(&rng, n - 2), rs = tl_below(&rng, 2);
        RefPos p;
        if (tl_random_ongoing(&p, n, k, rs, tl_below(&rng, n * n), &rng) != 0) continue;
        Rules r;
        tl_init_rules(&r, &p);
        Board b = tl_board(&p);
        RulesScan sc = rules_scan(&r, b.s[PIECE_X], b.s[PIECE_O]);
        uint64_t win[2];
        rules_winning_cells(&r, b, win);
        cr_assert(sc.win[0] == win[0] && sc.win[1] == win[1]);
        char s[65];
        ref_format(&p, s);
        for (int sym = 0; sym < 2; sym++) {
            if (win[sym]) continue;
            uint64_t want = 0;
            for (int c = 0; c < n * n; c++) {
                if (p.cell[c] != '.') continue;
                p.cell[c] = sym ? 'O' : 'X';
                char syms[128];
                int cells[128], nw = ref_winning_moves(&p, syms, cells, 128);
                for (int i = 0; i < nw; i++)
                    if (syms[i] == p.cell[c]) want |= 1ULL << board_cell(c / n, c % n);
                p.cell[c] = '.';
            }
            cr_assert_eq(sc.maker[sym], want, "%c: %s n=%d k=%d rules=%d", sym ? 'O' : 'X', s, n, k, rs);
            seen += want != 0;
        }
    }
    cr_expect_gt(seen, 500, "too few positions with a four maker: the test says little");
}

Test(rules, names)
{
    RuleSet rs;
    cr_expect_eq(rules_parse("original", &rs), 0);
    cr_expect_eq(rs, RULES_ORIGINAL);
    cr_expect_eq(rules_parse("exact-end", &rs), 0);
    cr_expect_eq(rs, RULES_EXACT_END);
    cr_expect_eq(rules_parse("Original", &rs), -1);
    cr_expect_str_eq(rules_name(RULES_EXACT), "exact");
}
