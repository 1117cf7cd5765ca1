/* test_verify_centre_conditions.c - the centre lemma's conditions
 * (vr_centre_lemma, verify/verify_centre.*) checked against the definition
 * typed in (tcentre.h), without brute force: the conditions on the game;
 * the ring pairs, the ends of the lines through the centre (one piece,
 * mixed, two like symbols, pieces on cells of different pairs); and which
 * centre line a pair of like symbols restricts, and how, with the reason
 * naming it. The lemma against brute force is test_verify_centre.c's. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../verify/verify_centre.h"
#include "../verify/verify_rules.h"
#include "tcentre.h"
#include "testlib.h"

Test(verify_centre_conditions, conditions_on_the_game)
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

/* Each typed-in pair: one piece fails and names it; mixed passes, and so
 * do two equal symbols under original, which only restrict the pair's
 * line to their symbol (the empty small game stays an Order win so; not
 * so under exact for every line: on 6x6 the empty 4x4 game without its
 * diagonal is a Chaos win); which line is restricted is checked by
 * same_pairs_restrict_the_line_between_them. Pieces on two cells of
 * different pairs fail. */
Test(verify_centre_conditions, ring_pairs_are_the_ends_of_the_lines_through_the_centre)
{
    for (int n = 4; n <= 6; n++) {
        int np;
        const char *const *pairs = tc_pairs_of(n, &np);
        VrGame g = {n, n - 1, VR_ORIGINAL};
        int ring = 0;
        uint8_t in_pair[64] = {0};
        for (int p = 0; p < np; p++) {
            int a = tc_cell_at(n, pairs[p]), b = tc_cell_at(n, pairs[p] + 3);
            in_pair[a]++, in_pair[b]++;
            char want[200], why[200];
            static const uint8_t fill[][2] = {{VR_X, VR_X}, {VR_O, VR_O}, {VR_X, VR_EMPTY}, {VR_EMPTY, VR_O}, {VR_X, VR_O},
                                              {VR_O, VR_X}};
            for (int f = 0; f < 6; f++) {
                uint8_t c[64] = {0};
                c[a] = fill[f][0], c[b] = fill[f][1];
                int got = vr_centre_lemma(&g, true, c, why, sizeof why);
                if (f >= 4 || f < 2) {
                    cr_assert_eq(got, 1, "n=%d pair %s %s: %s", n, pairs[p], f < 2 ? "same" : "mixed", why);
                    continue;
                }
                /* One piece: the pair is the only half-full one, which the centre game with
                 * its empty cell decides (one_half_pair_against_brute_force); refused, the
                 * message names that cell and the piece. */
                static const char *const name[3] = {"an empty cell", "X", "O"};
                int full = fill[f][0] ? a : b, empty = fill[f][0] ? b : a;
                char fn[3], en[3];
                vr_cell_name(n, full, fn);
                vr_cell_name(n, empty, en);
                snprintf(want, sizeof want, "the centre game with %s's half pair (%s on %s) is a Chaos win (Chaos to move)",
                         en, name[fill[f][0] | fill[f][1]], fn);
                cr_assert(got == 1 || (got == 0 && strcmp(why, want) == 0), "n=%d pair %s: %d %s", n, pairs[p], got, why);
            }
        }
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                bool on_ring = r == 0 || c == 0 || r == n - 1 || c == n - 1;
                ring += on_ring;
                cr_assert_eq(in_pair[r * n + c], on_ring ? 1 : 0, "n=%d cell %c%d", n, 'a' + c, r + 1);
            }
        cr_assert_eq(ring, 4 * (n - 1));
        /* X and O on two cells that are not a pair: each pair is half full, and the
         * centre game with both empty cells decides (two_half_pairs_against_brute_force);
         * refused, the message names both pairs, in the order of their lines. */
        uint8_t c[64] = {0};
        char why[200], want[200];
        c[tc_cell_at(n, "a2")] = VR_X;
        c[tc_cell_at(n, "a3")] = VR_O;
        snprintf(want, sizeof want,
                 "the centre game with %c2's half pair (X on a2) and %c3's half pair (O on a3) is a Chaos win (Order to "
                 "move)",
                 'a' + n - 1, 'a' + n - 1);
        int got = vr_centre_lemma(&g, true, c, why, sizeof why);
        cr_assert(got == 1 || (got == 0 && strcmp(why, want) == 0), "n=%d: %d %s", n, got, why);
        /* And X on b1 too: three half pairs, which no form takes; the first is named. */
        c[tc_cell_at(n, "b1")] = VR_X;
        cr_assert_eq(vr_centre_lemma(&g, true, c, why, sizeof why), 0);
        cr_assert(strstr(why, "pair a2/") && strstr(why, "holds X and an empty cell"), "%s", why);
    }
}

/* The symbol filling pair p's centre line of s ('X', 'O'), 0 if none does. */
static char line_symbol(int n, int p, const char *s)
{
    int a, b, line[VR_SMALL_MAX];
    tc_pair_line(n, p, &a, &b, line);
    for (int i = 1; i < n - 2; i++)
        if (s[line[i]] != s[line[0]]) return 0;
    return s[line[0]] == '.' ? 0 : s[line[0]];
}

/* Full centres, each pair mixed, X X or O O, one random pair's line made
 * of one symbol: the lemma holds exactly when some centre line of one
 * symbol S has its pair mixed, or (original only) S S. When it fails, the
 * reason names the line of every pair of like symbols (from this test's
 * own geometry), in the group its rules give it. Checks which line each
 * pair restricts, and how. */
Test(verify_centre_conditions, same_pairs_restrict_the_line_between_them)
{
    uint64_t rng = 307;
    for (int n = 4; n <= 6; n++)
        for (int rules = VR_ORIGINAL; rules <= VR_EXACT; rules++) {
            int np, m = n - 2, result[2] = {0, 0};
            tc_pairs_of(n, &np);
            VrGame g = {n, n - 1, rules};
            for (int t = 0; t < 400; t++) {
                char s[65], kind[10]; /* kind: 'M' mixed, 'X' or 'O' for two like symbols */
                int a, b, line[VR_SMALL_MAX];
                memset(s, '.', (size_t)(n * n));
                s[n * n] = '\0';
                for (int p = 0; p < np; p++) {
                    tc_pair_line(n, p, &a, &b, line);
                    int k = tl_below(&rng, 3), x = tl_below(&rng, 2);
                    kind[p] = "MXO"[k];
                    s[a] = k ? kind[p] : "XO"[x], s[b] = k ? kind[p] : "OX"[x];
                }
                for (int r = 1; r <= m; r++)
                    for (int c = 1; c <= m; c++) s[r * n + c] = "XO"[tl_below(&rng, 2)];
                tc_pair_line(n, tl_below(&rng, np), &a, &b, line);
                char sym = "XO"[tl_below(&rng, 2)];
                for (int i = 0; i < m; i++) s[line[i]] = sym;
                bool want = false;
                for (int p = 0; p < np; p++) {
                    char on = line_symbol(n, p, s);
                    want |= on && (kind[p] == 'M' || (rules == VR_ORIGINAL && kind[p] == on));
                }
                uint8_t c[64];
                char why[160];
                tc_to_cells(s, n * n, c);
                int got = vr_centre_lemma(&g, true, c, why, sizeof why);
                cr_assert_eq(got, want, "n=%d rules %d %s: %d (%s)", n, rules, s, got, got ? "" : why);
                result[got]++;
                if (got) continue;
                bool any_same = false;
                for (int p = 0; p < np; p++) {
                    if (kind[p] == 'M') continue;
                    any_same = true;
                    tc_pair_line(n, p, &a, &b, line);
                    char name[24], group[16];
                    snprintf(name, sizeof name, "%c%d-%c%d", 'a' + line[0] % n, 1 + line[0] / n, 'a' + line[m - 1] % n,
                             1 + line[m - 1] / n);
                    if (rules == VR_ORIGINAL) snprintf(group, sizeof group, " for %c only", kind[p]);
                    else strcpy(group, " for neither");
                    const char *at = strstr(why, name), *in = at ? strstr(at, " for ") : NULL;
                    cr_assert(in && strncmp(in, group, strlen(group)) == 0, "n=%d %s: %s not in '%s'", n, s, name, why);
                }
                const char *prefix = any_same ? "the centre small game (with " : "the centre small game is a Chaos win (";
                cr_assert(strncmp(why, prefix, strlen(prefix)) == 0 && (!any_same || strstr(why, ") is a Chaos win (")),
                          "%s", why);
            }
            cr_assert(result[0] > 15 && result[1] > 15, "n=%d rules %d: %d refused, %d held", n, rules, result[0],
                      result[1]);
        }
}
