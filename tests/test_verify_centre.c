/* test_verify_centre.c - the centre lemma of ocproof 2 certificates
 * ('POSITION lemma centre', verify/verify_centre.* and verify.c):
 *   - the small game against solvers that share nothing with it: brute.h
 *     (over ref.h) on the 4x4 board with k = 4, which is the m = 4 small
 *     game, and a retrograde table written here for m = 2 and 3;
 *   - the lemma itself against brute force on whole 4x4, 5x5 and 6x6
 *     boards: where it says Order wins, Order wins;
 *   - certificates with lemma lines: valid, invalid (each condition, with
 *     its reason), in any symmetric form, deeper in a proof, and malformed,
 *     in process and through the binary. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../verify/verify.h"
#include "../verify/verify_centre.h"
#include "../verify/verify_rules.h"
#include "brute.h"
#include "certgen.h"
#include "runbin.h"
#include "testlib.h"

static void to_cells(const char *s, int count, uint8_t *out)
{
    for (int i = 0; i < count; i++) out[i] = s[i] == 'X' ? VR_X : s[i] == 'O' ? VR_O : VR_EMPTY;
}

static int count_empty(const char *s, int count)
{
    int e = 0;
    for (int i = 0; i < count; i++) e += s[i] == '.';
    return e;
}

/* Cell index of a name like "b1" on an n x n board (a1 top-left). */
static int cell_at(int n, const char *name) { return (name[1] - '1') * n + (name[0] - 'a'); }

/* --- the small game --- */

/* Every m x m position (m = 2, 3) by retrograde analysis, no search: by
 * piece count from the full board down; value[idx] = 1 when Order wins.
 * idx = sum of digit(cell i) * 3^i, digit 0 empty, 1 X, 2 O (VR_* values). */
static void retro_table(int m, uint8_t *value)
{
    int cells = m * m, total = 1, pow3[9];
    for (int i = 0; i < cells; i++) pow3[i] = total, total *= 3;
    for (int pieces = cells; pieces >= 0; pieces--)
        for (int idx = 0; idx < total; idx++) {
            int d[9], count = 0;
            for (int i = 0, v = idx; i < cells; i++, v /= 3) d[i] = v % 3, count += d[i] != 0;
            if (count != pieces) continue;
            /* A line: m equal non-empty digits along a row, a column or a diagonal. */
            int line = 0;
            for (int a = 0; a < m; a++) {
                int row = d[a * m] != 0, col = d[a] != 0;
                for (int b = 1; b < m; b++) {
                    row &= d[a * m + b] == d[a * m];
                    col &= d[b * m + a] == d[a];
                }
                line |= row | col;
            }
            int diag = d[0] != 0, anti = d[m - 1] != 0;
            for (int b = 1; b < m; b++) {
                diag &= d[b * m + b] == d[0];
                anti &= d[b * m + (m - 1 - b)] == d[m - 1];
            }
            line |= diag | anti;
            if (line || pieces == cells) {
                value[idx] = (uint8_t)line;
                continue;
            }
            int wins = 0, moves = 0;
            for (int i = 0; i < cells; i++)
                if (d[i] == 0)
                    for (int s = 1; s <= 2; s++) moves++, wins += value[idx + s * pow3[i]];
            value[idx] = (uint8_t)(pieces % 2 == 0 ? wins > 0 : wins == moves);
        }
}

Test(verify_centre, small_game_2x2_and_3x3_against_a_retrograde_table)
{
    static uint8_t value[19683];
    for (int m = 2; m <= 3; m++) {
        int cells = m * m, total = 1, wins[2] = {0, 0};
        for (int i = 0; i < cells; i++) total *= 3;
        retro_table(m, value);
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
        if (count_empty(p.cell, 16) > 10) continue;
        uint8_t c[16];
        to_cells(p.cell, 16, c);
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

/* --- the lemma on whole boards --- */

/* The ring pairs, typed in from the definition (the verifier computes them). */
static const char *const PAIRS4[] = {"a2/d2", "a3/d3", "b1/b4", "c1/c4", "a1/d4", "d1/a4"};
static const char *const PAIRS5[] = {"a2/e2", "a3/e3", "a4/e4", "b1/b5", "c1/c5", "d1/d5", "a1/e5", "e1/a5"};
static const char *const PAIRS6[] = {"a2/f2", "a3/f3", "a4/f4", "a5/f5", "b1/b6",
                                     "c1/c6", "d1/d6", "e1/e6", "a1/f6", "f1/a6"};

static const char *const *pairs_of(int n, int *count)
{
    *count = 2 * (n - 1);
    return n == 4 ? PAIRS4 : n == 5 ? PAIRS5 : PAIRS6;
}

/* A random lemma-shaped position on n x n: each pair empty with probability
 * pct_empty_pair %, else mixed; each centre cell empty with pct_empty %.
 * lemma_shaped_but: then, with probability pct_bad %, one pair holds two
 * equal symbols or one piece. */
static void lemma_shaped_but(int n, int pct_empty_pair, int pct_empty, int pct_bad, uint64_t *rng, char *out)
{
    int np;
    const char *const *pairs = pairs_of(n, &np);
    memset(out, '.', (size_t)(n * n));
    out[n * n] = '\0';
    for (int p = 0; p < np; p++) {
        if (tl_below(rng, 100) < pct_empty_pair) continue;
        int x = tl_below(rng, 2);
        out[cell_at(n, pairs[p])] = "XO"[x];
        out[cell_at(n, pairs[p] + 3)] = "OX"[x];
    }
    for (int r = 1; r < n - 1; r++)
        for (int c = 1; c < n - 1; c++)
            if (tl_below(rng, 100) >= pct_empty) out[r * n + c] = "XO"[tl_below(rng, 2)];
    if (tl_below(rng, 100) < pct_bad) {
        const char *pair = pairs[tl_below(rng, np)];
        static const char *const bad[] = {"XX", "OO", "X.", ".X", "O.", ".O"};
        const char *b = bad[tl_below(rng, 6)];
        out[cell_at(n, pair)] = b[0];
        out[cell_at(n, pair + 3)] = b[1];
    }
}

static void lemma_shaped(int n, int pct_empty_pair, int pct_empty, uint64_t *rng, char *out)
{
    lemma_shaped_but(n, pct_empty_pair, pct_empty, 0, rng, out);
}

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
            for (int t = 0; t < 5000 && held < (n == 6 ? 25 : 60); t++) {
                char s[65], why[160];
                lemma_shaped_but(n, n == 4 ? 40 : 15, n == 4 ? 40 : 30, 25, &rng, s);
                RefPos p;
                ref_parse(&p, n, n - 1, rules, s);
                if (count_empty(s, n * n) > max_empty || ref_status(&p) != REF_ONGOING) continue;
                uint8_t c[64];
                to_cells(s, n * n, c);
                int lemma = vr_centre_lemma(&g, true, c, why, sizeof why);
                cr_assert(lemma >= 0);
                if (!lemma) {
                    bool pair = strncmp(why, "pair ", 5) == 0;
                    cr_assert(pair || strstr(why, "the centre small game is a Chaos win"), "%s: %s", s, why);
                    bad_pair += pair;
                    failed += !pair;
                    continue;
                }
                cr_assert(brute_order_wins(memo, &p), "n=%d rules %d: the lemma holds at %s, Chaos wins", n, rules, s);
                held++;
            }
            /* (The 2x2 small game is never a Chaos win: any two of its cells share a line.) */
            cr_assert(held >= (n == 6 ? 25 : 60) && (failed > 0 || n == 4) && bad_pair > 0,
                      "n=%d rules %d: held %d, failed %d, bad pair %d", n, rules, held, failed, bad_pair);
        }
    brute_free(memo);
}

Test(verify_centre, conditions_on_the_game)
{
    uint8_t c[64] = {0};
    char why[160];
    static const struct { int n, k, rules, order, holds; const char *why; } cases[] = {
        {4, 3, VR_ORIGINAL, 1, 1, ""},
        {5, 4, VR_EXACT, 1, 1, ""},
        {6, 5, VR_ORIGINAL, 1, 1, ""},
        {6, 5, VR_EXACT, 1, 1, ""},
        {6, 5, VR_EXACT_END, 1, 0, "not under exact-end (lines judged on the full board)"},
        {6, 5, VR_ORIGINAL, 0, 0, "the certificate claims chaos"},
        {6, 4, VR_ORIGINAL, 1, 0, "needs k = n-1 and n from 4 to 6"},
        {5, 3, VR_EXACT, 1, 0, "needs k = n-1 and n from 4 to 6"},
        {7, 6, VR_ORIGINAL, 1, 0, "needs k = n-1 and n from 4 to 6"},
        {8, 7, VR_EXACT, 1, 0, "needs k = n-1 and n from 4 to 6"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        VrGame g = {cases[i].n, cases[i].k, cases[i].rules};
        cr_assert_eq(vr_centre_lemma(&g, cases[i].order, c, why, sizeof why), cases[i].holds, "case %zu", i);
        if (!cases[i].holds) cr_assert_str_eq(why, cases[i].why, "case %zu", i);
    }
}

/* Each typed-in pair: two equal symbols or one piece fail and name it;
 * mixed passes; pieces on two cells of different pairs fail. */
Test(verify_centre, ring_pairs_are_the_ends_of_the_lines_through_the_centre)
{
    for (int n = 4; n <= 6; n++) {
        int np;
        const char *const *pairs = pairs_of(n, &np);
        VrGame g = {n, n - 1, VR_ORIGINAL};
        int ring = 0;
        uint8_t in_pair[64] = {0};
        for (int p = 0; p < np; p++) {
            int a = cell_at(n, pairs[p]), b = cell_at(n, pairs[p] + 3);
            in_pair[a]++, in_pair[b]++;
            char want[64], why[160];
            static const uint8_t fill[][2] = {{VR_X, VR_X}, {VR_O, VR_O}, {VR_X, VR_EMPTY}, {VR_EMPTY, VR_O}, {VR_X, VR_O},
                                              {VR_O, VR_X}};
            for (int f = 0; f < 6; f++) {
                uint8_t c[64] = {0};
                c[a] = fill[f][0], c[b] = fill[f][1];
                int got = vr_centre_lemma(&g, true, c, why, sizeof why);
                if (f >= 4) {
                    cr_assert_eq(got, 1, "n=%d pair %s mixed: %s", n, pairs[p], why);
                    continue;
                }
                static const char *const name[3] = {"an empty cell", "X", "O"};
                snprintf(want, sizeof want, "pair %s holds %s and %s", pairs[p], name[fill[f][0]], name[fill[f][1]]);
                cr_assert_eq(got, 0, "n=%d %s accepted", n, want);
                cr_assert_str_eq(why, want);
            }
        }
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                bool on_ring = r == 0 || c == 0 || r == n - 1 || c == n - 1;
                ring += on_ring;
                cr_assert_eq(in_pair[r * n + c], on_ring ? 1 : 0, "n=%d cell %c%d", n, 'a' + c, r + 1);
            }
        cr_assert_eq(ring, 4 * (n - 1));
        /* X and O on two cells that are not a pair: each pair is half full. */
        uint8_t c[64] = {0};
        char why[160];
        c[cell_at(n, "a2")] = VR_X;
        c[cell_at(n, "a3")] = VR_O;
        cr_assert_eq(vr_centre_lemma(&g, true, c, why, sizeof why), 0);
        cr_assert(strstr(why, "pair a2/") && strstr(why, "holds X and an empty cell"), "%s", why);
    }
}

/* --- certificates --- */

static char *cert(int n, int k, const char *rules, const char *winner, const char *root, const char *lines)
{
    size_t len = strlen(lines) + 256;
    char *t = malloc(len);
    snprintf(t, len, "ocproof 2\nboard %d %d\nrules %s\nwinner %s\nroot %s\n%s", n, k, rules, winner, root, lines);
    return t;
}

Test(verify_centre, lemma_on_the_empty_board)
{
    static const struct { int n, k; const char *rules, *winner, *why; } cases[] = {
        {6, 5, "original", "order", NULL},
        {6, 5, "exact", "order", NULL},
        {5, 4, "original", "order", NULL},
        {4, 3, "exact", "order", NULL},
        {6, 5, "exact-end", "order", "not under exact-end (lines judged on the full board)"},
        {6, 5, "original", "chaos", "the certificate claims chaos"},
        {6, 5, "exact", "chaos", "the certificate claims chaos"},
        {7, 6, "original", "order", "needs k = n-1 and n from 4 to 6"},
        {6, 4, "original", "order", "needs k = n-1 and n from 4 to 6"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *t = cert(cases[i].n, cases[i].k, cases[i].rules, cases[i].winner, "-", "- lemma centre\n");
        VerifyResult r;
        int rc = cg_check(t, &r);
        cr_assert_eq(r.lines, 1);
        cr_assert_eq(r.lines_used, 1);
        cr_assert_eq(r.positions_checked, 1);
        if (!cases[i].why) {
            cr_assert_eq(rc, 0, "case %zu: %s", i, r.error);
        } else {
            char want[VERIFY_ERR_LEN], empty[65];
            memset(empty, '.', 64);
            empty[cases[i].n * cases[i].n] = '\0';
            snprintf(want, sizeof want, "lemma centre at %s: %s (line 6)", empty, cases[i].why);
            cr_assert_eq(rc, 1, "case %zu accepted", i);
            cr_assert_str_eq(r.error, want);
        }
        free(t);
    }
}

/* 'POS MOVE' with the position and the move (sym at cell) in symmetric form s. */
static void move_line(int n, const char *pos, int cell, char sym, int s, char *out)
{
    RefPos p, q;
    char a[65], b[65];
    ref_parse(&p, n, n - 1, REF_ORIGINAL, pos);
    ref_image(&p, s, &q);
    ref_format(&q, a);
    p.cell[cell] = sym;
    ref_image(&p, s, &q);
    ref_format(&q, b);
    int i = 0;
    while (a[i] == b[i]) i++;
    sprintf(out, "%s %c%c%d\n", a, b[i], 'a' + i % n, 1 + i / n);
}

static void lemma_line(int n, const char *pos, int s, char *out)
{
    RefPos p, q;
    ref_parse(&p, n, n - 1, REF_ORIGINAL, pos);
    ref_image(&p, s, &q);
    ref_format(&q, out);
    strcat(out, " lemma centre\n");
}

/* Random 6x6 lemma-shaped roots, the lemma line in a random one of the 16
 * forms: valid exactly when brute force says Order wins the 4x4 small game
 * (the position taken with k = 4 on its own board), else the reason names
 * the root and the side to move. */
Test(verify_centre, lemma_lines_against_brute_force_in_any_form)
{
    uint64_t rng = 303;
    BruteMemo *memo = brute_new();
    int result[2] = {0, 0};
    for (int t = 0; t < 300; t++) {
        char s[37], line[64];
        lemma_shaped(6, 50, 35 + tl_below(&rng, 20), &rng, s);
        RefPos big, small;
        int rules = tl_below(&rng, 2);
        ref_parse(&big, 6, 5, rules, s);
        if (ref_status(&big) != REF_ONGOING) continue;
        char centre[17];
        for (int i = 0; i < 16; i++) centre[i] = s[(i / 4 + 1) * 6 + i % 4 + 1];
        centre[16] = '\0';
        if (count_empty(centre, 16) > 10) continue;
        ref_parse(&small, 4, 4, REF_ORIGINAL, centre);
        int want = brute_order_wins(memo, &small);
        lemma_line(6, s, tl_below(&rng, 16), line);
        char *text = cert(6, 5, CG_RULES[rules], "order", s, line);
        VerifyResult r;
        int rc = cg_check(text, &r);
        if (want) {
            cr_assert_eq(rc, 0, "%s", r.error);
        } else {
            char expect[VERIFY_ERR_LEN];
            snprintf(expect, sizeof expect, "lemma centre at %s: the centre small game is a Chaos win (%s to move) (line 6)",
                     s, (36 - count_empty(s, 36)) % 2 == 0 ? "Order" : "Chaos");
            cr_assert_eq(rc, 1, "%s accepted", s);
            cr_assert_str_eq(r.error, expect);
        }
        result[want]++;
        free(text);
    }
    brute_free(memo);
    cr_assert(result[0] > 20 && result[1] > 20, "%d invalid, %d valid", result[0], result[1]);
}

/* A certificate whose root (Order to move) has a half-full pair: one move
 * line completes it, mixed, and the lemma holds after; the same with the
 * move that makes the pair XX is invalid and says which pair. */
Test(verify_centre, a_move_line_leading_to_a_lemma_position)
{
    uint64_t rng = 304;
    BruteMemo *memo = brute_new();
    for (int round = 0; round < 6; round++) {
        RefPos small, big;
        char s[37], centre[17], root[37], child[37];
        /* A centre with 7 pieces (Chaos to move in the small game) that Order wins. */
        do {
            while (tl_random_ongoing(&small, 4, 4, REF_ORIGINAL, 7, &rng) != 0) {}
        } while (!brute_order_wins(memo, &small));
        ref_format(&small, centre);
        memset(s, '.', 36);
        s[36] = '\0';
        for (int i = 0; i < 16; i++) s[(i / 4 + 1) * 6 + i % 4 + 1] = centre[i];
        s[cell_at(6, "a2")] = 'X'; /* the half-full pair: 8 pieces, Order to move */
        s[cell_at(6, "c1")] = 'O', s[cell_at(6, "c6")] = 'X';
        ref_parse(&big, 6, 5, round % 2, s);
        cr_assert_eq(ref_status(&big), REF_ONGOING);
        strcpy(root, s);
        strcpy(child, s);
        child[cell_at(6, "f2")] = 'O';
        char lines[256];
        move_line(6, root, cell_at(6, "f2"), 'O', tl_below(&rng, 16), lines);
        lemma_line(6, child, tl_below(&rng, 16), lines + strlen(lines));
        char *text = cert(6, 5, CG_RULES[round % 2], "order", root, lines);
        VerifyResult r;
        cr_assert_eq(cg_check(text, &r), 0, "%s\n%s", r.error, text);
        cr_assert(r.lines == 2 && r.lines_used == 2 && r.positions_checked == 2, "lines %llu used %llu checked %llu",
                  (unsigned long long)r.lines, (unsigned long long)r.lines_used,
                  (unsigned long long)r.positions_checked);
        free(text);

        /* Xf2 instead: the pair holds X and X. */
        child[cell_at(6, "f2")] = 'X';
        move_line(6, root, cell_at(6, "f2"), 'X', 0, lines);
        lemma_line(6, child, tl_below(&rng, 16), lines + strlen(lines));
        text = cert(6, 5, CG_RULES[round % 2], "order", root, lines);
        char expect[VERIFY_ERR_LEN];
        snprintf(expect, sizeof expect, "lemma centre at %s: pair a2/f2 holds X and X (line 7)", child);
        cr_assert_eq(cg_check(text, &r), 1, "%s", text);
        cr_assert_str_eq(r.error, expect);
        free(text);
        /* No lemma line for the child: Chaos to move there, and no line is needed, so the
         * verifier follows every Chaos move and finds no line for the replies. */
        move_line(6, root, cell_at(6, "f2"), 'O', 0, lines);
        text = cert(6, 5, CG_RULES[round % 2], "order", root, lines);
        cr_assert_eq(cg_check(text, &r), 1, "%s", text);
        cr_assert(strstr(r.error, "no certificate line for position"), "%s", r.error);
        free(text);
    }
    brute_free(memo);
}

/* The other cell of a 6x6 ring pair, -1 for a centre cell. */
static int partner(int cell)
{
    for (int p = 0; p < 10; p++) {
        int a = cell_at(6, PAIRS6[p]), b = cell_at(6, PAIRS6[p] + 3);
        if (cell == a) return b;
        if (cell == b) return a;
    }
    return -1;
}

/* A root with Chaos to move and no line of its own: the certificate answers
 * each Chaos move on the ring by mixing the pair (a move line, then a lemma
 * line), and each Chaos move in the centre with a lemma line (Order to
 * move), every line in a random form. Valid when Order wins the small game,
 * invalid when Chaos does. */
static char *chaos_to_move_cert(const char *centre, int rules, uint64_t *rng, char *root)
{
    memset(root, '.', 36);
    root[36] = '\0';
    for (int i = 0; i < 16; i++) root[(i / 4 + 1) * 6 + i % 4 + 1] = centre[i];
    root[cell_at(6, "b1")] = 'X', root[cell_at(6, "b6")] = 'O';
    root[cell_at(6, "a3")] = 'O', root[cell_at(6, "f3")] = 'X';
    size_t cap = 8192, len = 0;
    char *lines = malloc(cap);
    lines[0] = '\0';
    for (int i = 0; i < 36; i++) {
        if (root[i] != '.') continue;
        for (int s = 0; s < 2; s++) {
            char child[37], grand[37], sym = "XO"[s];
            strcpy(child, root);
            child[i] = sym;
            if (len + 200 > cap) lines = realloc(lines, cap *= 2);
            int j = partner(i);
            if (j < 0) {
                lemma_line(6, child, tl_below(rng, 16), lines + len);
            } else {
                move_line(6, child, j, "OX"[s], tl_below(rng, 16), lines + len);
                len += strlen(lines + len);
                strcpy(grand, child);
                grand[j] = "OX"[s];
                lemma_line(6, grand, tl_below(rng, 16), lines + len);
            }
            len += strlen(lines + len);
        }
    }
    char *text = cert(6, 5, CG_RULES[rules], "order", root, lines);
    free(lines);
    return text;
}

Test(verify_centre, lemma_lines_for_both_sides_to_move_below_the_root)
{
    uint64_t rng = 305;
    BruteMemo *memo = brute_new();
    int seen[2] = {0, 0};
    for (int round = 0; round < 8; round++) {
        RefPos small, big;
        char centre[17], root[37];
        while (tl_random_ongoing(&small, 4, 4, REF_ORIGINAL, 7, &rng) != 0) {}
        int order = brute_order_wins(memo, &small);
        ref_format(&small, centre);
        char *text = chaos_to_move_cert(centre, round % 2, &rng, root);
        ref_parse(&big, 6, 5, round % 2, root);
        cr_assert_eq(ref_status(&big), REF_ONGOING);
        VerifyResult r;
        int rc = cg_check(text, &r);
        if (order) {
            cr_assert_eq(rc, 0, "%s", r.error);
            cr_assert(r.lines_used > 30 && r.lines_used <= r.lines, "used %llu of %llu",
                      (unsigned long long)r.lines_used, (unsigned long long)r.lines);
        } else {
            cr_assert_eq(rc, 1, "centre %s accepted", centre);
            cr_assert(strstr(r.error, "lemma centre at ") && strstr(r.error, ": the centre small game is a Chaos win ("),
                      "%s", r.error);
        }
        seen[order]++;
        free(text);
    }
    brute_free(memo);
    cr_assert(seen[0] > 0 && seen[1] > 0, "%d Chaos, %d Order centres", seen[0], seen[1]);
}

Test(verify_centre, unreached_lemma_lines_are_ignored_and_v1_proofs_verify_as_v2)
{
    /* The lemma fails for the second position (pair a2/f2 holds X and X), but the proof never gets there. */
    const char *lines = "- lemma centre\n......X....X........................ lemma centre\n";
    char *t = cert(6, 5, "original", "order", "-", lines);
    VerifyResult r;
    cr_assert_eq(cg_check(t, &r), 0, "%s", r.error);
    cr_assert(r.lines == 2 && r.lines_used == 1);
    free(t);
    CgCert c;
    cg_make_cert(&c, 4, 3, VR_ORIGINAL, CG_EMPTY44, 1);
    char *v1 = cg_plain(&c), *v2 = cg_replace(v1, "ocproof 1", "ocproof 2");
    VerifyResult r1, r2;
    cr_assert_eq(cg_check(v1, &r1), 0, "%s", r1.error);
    cr_assert_eq(cg_check(v2, &r2), 0, "%s", r2.error);
    cr_assert(r1.lines == r2.lines && r1.lines_used == r2.lines_used && r1.positions_checked == r2.positions_checked);
    free(v1);
    free(v2);
    cg_free_cert(&c);
}

/* --- malformed, in process and through the binary --- */

static const char HEAD2[] = "ocproof 2\nboard 6 5\nrules original\nwinner order\nroot -\n";
static const char HEAD1[] = "ocproof 1\nboard 6 5\nrules original\nwinner order\nroot -\n";

static const struct {
    const char *head, *body, *error; /* error after "FILE:" */
} MALFORMED[] = {
    {HEAD1, "- lemma centre\n", "6: a lemma line needs 'ocproof 2' (this certificate is 'ocproof 1')"},
    {HEAD2, "- lemma\n", "6: 'lemma' needs a name, as in 'POSITION lemma centre'"},
    {HEAD2, "- lemma centre now\n", "6: a lemma line is 'POSITION lemma centre', not 4 words"},
    {HEAD2, "- lemma pairing a1 b1\n", "6: bad pair 'a1'"},
    {HEAD2, "- lemma Centre\n", "6: unknown lemma 'Centre' (centre, pairing)"},
    {HEAD2, "...... lemma centre\n", "6: bad position"},
    {HEAD2, "- Xc3\n- lemma centre\n",
     "7: conflicts with line 6: the same position (up to symmetry) with a move line and a lemma line"},
    {HEAD2, "- lemma centre\n# twice is fine\n- lemma centre\n- Xc3\n",
     "9: conflicts with line 6: the same position (up to symmetry) with a move line and a lemma line"},
    /* X on a1 and, rotated half a turn with X and O swapped, O on f6 */
    {HEAD2, "X................................... Oc3\n...................................O lemma centre\n",
     "7: conflicts with line 6"},
    {"ocproof 3\n", "", "1: unsupported certificate version (only 'ocproof 1' or 'ocproof 2')"},
    {"ocproof 2 1\n", "", "1: unsupported certificate version"},
};

Test(verify_centre, malformed_lemma_lines)
{
    for (size_t i = 0; i < sizeof MALFORMED / sizeof MALFORMED[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", MALFORMED[i].head, MALFORMED[i].body);
        char tag[32];
        snprintf(tag, sizeof tag, "case %zu", i);
        cg_expect_malformed(text, MALFORMED[i].error, tag);
    }
}

Test(verify_centre, command_line)
{
    char path[] = "/tmp/ocsolve-verify-centre-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    const char *text = "ocproof 2\nboard 6 5\nrules exact\nwinner order\nroot -\n- lemma centre\n";
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    Run r;
    expect_ok(&r, "verify", "--rules", "exact", "--root", "empty", path);
    cr_assert(strstr(r.out, "lines: 1 (used 1)\n") && strstr(r.out, "\nvalid\n"), "%s", r.out);
    run_free(&r);

    FILE *f = fopen(path, "w");
    fputs("ocproof 2\nboard 6 5\nrules exact-end\nwinner order\nroot -\n- lemma centre\n", f);
    fclose(f);
    run_argv(&r, ARGS("verify", "--json", path));
    cr_assert(r.exited && r.code == 1, "%s: %d %s", r.desc, r.code, r.err);
    cr_assert(strstr(r.out, "\"valid\":false") &&
                  strstr(r.out, "\"error\":\"lemma centre at ....................................: not under exact-end"),
              "%s", r.out);
    run_free(&r);
    unlink(path);
}
