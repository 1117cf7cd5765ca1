/* test_centre.c - Order's centre strategy (solver/centre.h) against the
 * brute force (tests/brute.h, which shares no code with the solver): the
 * geometry, the small-game table, the lemma on 6x6 and 5x5 positions, and
 * positions one condition short of it, which it must not claim. */
#include <criterion/criterion.h>

#include <string.h>

#include "../solver/centre.h"
#include "../solver/dfpn.h"
#include "brute.h"
#include "testlib.h"

TestSuite(centre, .timeout = 600);

static void init(Centre *c, Rules *r, int n, int k, RuleSet rs)
{
    char err[128];
    cr_assert_eq(rules_init(r, n, k, rs, err, sizeof err), 0, "%s", err);
    centre_init(c, r);
}

/* Every ring cell in exactly one pair; each pair the two ends of a full
 * line whose inner n-2 cells are a row, column or diagonal of the centre,
 * checked by walking the line cell by cell. */
Test(centre, geometry)
{
    for (int n = 4; n <= 6; n++) {
        Rules r;
        Centre c;
        init(&c, &r, n, n - 1, RULES_ORIGINAL);
        cr_expect(c.on);
        cr_expect_eq(c.npairs, 2 * (n - 1));
        uint64_t seen = 0;
        for (int p = 0; p < c.npairs; p++) {
            int u = c.pair[p][0], v = c.pair[p][1];
            int dr = (cell_row(v) - cell_row(u)) / (n - 1), dc = (cell_col(v) - cell_col(u)) / (n - 1);
            cr_expect_eq(cell_row(u) + (n - 1) * dr, cell_row(v), "pair %d is not a line's two ends", p);
            cr_expect_eq(cell_col(u) + (n - 1) * dc, cell_col(v), "pair %d is not a line's two ends", p);
            for (int i = 1; i < n - 1; i++) {
                int cell = board_cell(cell_row(u) + i * dr, cell_col(u) + i * dc);
                cr_expect(c.centre >> cell & 1, "pair %d: inner cell %d not in the centre", p, cell);
            }
            cr_expect_eq(seen & c.pair_mask[p], 0, "pair %d: a cell in two pairs", p);
            seen |= c.pair_mask[p];
        }
        cr_expect_eq(seen, r.cells & ~c.centre, "n=%d: the pairs are not the ring", n);
        cr_expect_eq(__builtin_popcountll(c.centre), (n - 2) * (n - 2));
    }
    /* Where it does not apply. */
    Rules r;
    Centre c;
    init(&c, &r, 6, 5, RULES_EXACT_END);
    cr_expect(!c.on, "on under exact-end");
    init(&c, &r, 6, 4, RULES_ORIGINAL);
    cr_expect(!c.on, "on with k != n-1");
    init(&c, &r, 7, 6, RULES_ORIGINAL);
    cr_expect(!c.on, "on for 7x7 (no table)");
}

/* The small game by plain minimax, memoised on the base-3 index: the tests'
 * own, for m = 2 and 3 (the reference rules start at 4x4). */
static int small_memo[19683]; /* 0 unknown, 1 Order wins, 2 Chaos wins */

static bool small_brute(char *cell, int m)
{
    int cells = m * m, idx = 0, pieces = 0;
    for (int i = cells - 1; i >= 0; i--) idx = 3 * idx + (cell[i] == '.' ? 0 : cell[i] == 'X' ? 1 : 2);
    if (small_memo[idx]) return small_memo[idx] == 1;
    bool line = false;
    for (int a = 0; a < 2 * m + 2 && !line; a++) { /* rows, columns, the two diagonals */
        char first = 0;
        bool mono = true;
        for (int i = 0; i < m && mono; i++) {
            int cellno = a < m ? a * m + i : a < 2 * m ? i * m + (a - m) : a == 2 * m ? i * m + i : i * m + m - 1 - i;
            char ch = cell[cellno];
            if (ch == '.' || (first && ch != first)) mono = false;
            first = ch;
        }
        line = mono;
    }
    for (int i = 0; i < cells; i++) pieces += cell[i] != '.';
    bool order = pieces % 2 == 0, win;
    if (line) win = true;
    else if (pieces == cells) win = false;
    else {
        win = !order;
        for (int i = 0; i < cells && win != order; i++) {
            if (cell[i] != '.') continue;
            for (int s = 0; s < 2 && win != order; s++) {
                cell[i] = "XO"[s];
                if (small_brute(cell, m) == order) win = order;
                cell[i] = '.';
            }
        }
    }
    small_memo[idx] = win ? 1 : 2;
    return win;
}

/* The same small position as a Board at the centre of an (m+2)x(m+2) board. */
static Board embed_str(const char *s, int m)
{
    Board b = board_empty();
    for (int i = 0; i < m * m; i++)
        if (s[i] != '.') b.s[s[i] == 'X' ? PIECE_X : PIECE_O] |= 1ULL << board_cell(i / m + 1, i % m + 1);
    return b;
}

/* Every 2x2 and 3x3 small-game position against the tests' own minimax;
 * random 4x4 ones (any arrangement, lines included) against the brute
 * force on the 4x4 board with k = 4. */
Test(centre, small_game_table)
{
    int checked = 0, wins = 0;
    for (int m = 2; m <= 3; m++) {
        Rules r;
        Centre c;
        init(&c, &r, m + 2, m + 1, RULES_ORIGINAL);
        memset(small_memo, 0, sizeof small_memo);
        int cells = m * m, total = 1;
        for (int i = 0; i < cells; i++) total *= 3;
        for (int v = 0; v < total; v++) {
            char s[17];
            for (int i = 0, t = v; i < cells; i++, t /= 3) s[i] = ".XO"[t % 3];
            s[cells] = '\0';
            bool got = centre_small_win(m, centre_index(&c, embed_str(s, m)));
            bool want = small_brute(s, m);
            cr_expect_eq(got, want, "m=%d %s: table %d, minimax %d", m, s, got, want);
            checked++;
            wins += want;
        }
    }
    Rules r;
    Centre c;
    init(&c, &r, 6, 5, RULES_ORIGINAL);
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    uint64_t rng = 4242;
    for (int t = 0; t < 1500; t++) {
        RefPos p;
        int fill = 40 + tl_below(&rng, 40); /* 40-79 % of the cells taken */
        tl_random_any(&p, 4, 4, REF_ORIGINAL, fill / 2, fill - fill / 2, &rng);
        char s[17];
        ref_format(&p, s);
        bool want = brute_order_wins(memo, &p), got = centre_small_win(4, centre_index(&c, embed_str(s, 4)));
        cr_expect_eq(got, want, "m=4 %s: table %d, brute force %d", s, got, want);
        wins += want;
        checked++;
    }
    cr_log_info("small game: %d positions checked, %d Order wins", checked, wins);
    cr_expect(wins > 0 && wins < checked, "a one-sided sample proves little");
    brute_free(memo);
}

/* The empty 4x4 small game: the lemma's claim for the empty 6x6 board,
 * against df-pn on the 4x4 board with k = 4 with every piece of knowledge
 * on (the table is built by other code: a backward pass, no search). */
Test(centre, empty_small_games_against_dfpn)
{
    for (int m = 4; m <= 4; m++) { /* the engine's boards start at 4x4 */
        Rules r, rs;
        Centre c;
        char err[128];
        init(&c, &r, m + 2, m + 1, RULES_ORIGINAL);
        cr_assert_eq(rules_init(&rs, m, m, RULES_ORIGINAL, err, sizeof err), 0, "%s", err);
        TT tt;
        cr_assert_eq(tt_init(&tt, (size_t)16 << 20, false), 0);
        DfpnConfig cfg = dfpn_default_config();
        Dfpn d;
        dfpn_init(&d, &rs, &cfg, &tt);
        uint32_t pn, dn;
        Winner v = dfpn_solve(&d, board_empty(), &pn, &dn);
        cr_expect_neq(v, WINNER_NONE);
        cr_expect_eq(centre_small_win(m, 0), v == WINNER_ORDER, "m=%d: table and df-pn disagree", m);
        tt_free(&tt);
    }
}

/* Makes every pair of p empty or mixed (random play leaves some half full
 * or equal); false if that made a line. */
static bool fix_pairs(RefPos *p, const Centre *c, uint64_t *rng)
{
    int n = p->n;
    for (int k = 0; k < c->npairs; k++) {
        int u = cell_row(c->pair[k][0]) * n + cell_col(c->pair[k][0]);
        int v = cell_row(c->pair[k][1]) * n + cell_col(c->pair[k][1]);
        char *a = &p->cell[u], *b = &p->cell[v];
        if (*a == '.' && *b == '.') continue;
        if (*a != '.' && *b != '.' && *a != *b) continue;
        if (*a == '.' || (*b != '.' && tl_below(rng, 2))) {
            char *t = a;
            a = b;
            b = t;
        }
        /* *a holds a piece: the partner gets the other one, or both go */
        if (tl_below(rng, 3) == 0) *a = *b = '.';
        else *b = *a == 'X' ? 'O' : 'X';
    }
    return ref_status(p) == REF_ONGOING;
}

/* Lemma positions on 6x6 (original and exact, 4-12 empty cells) and 5x5
 * k = 4 (3x3 centre): every one the lemma claims must be an Order win for
 * the brute force. */
static void lemma_sample(int n, int rs, int want_claims, uint64_t seed)
{
    Rules r;
    Centre c;
    init(&c, &r, n, n - 1, tl_rules(rs));
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    uint64_t rng = seed;
    int claims = 0, tries = 0;
    while (claims < want_claims && tries < 40 * want_claims) {
        tries++;
        /* 4-7 empty cells, one position in 200 10-12 (the brute force's
         * time grows about threefold per empty cell: 1000 positions of 4-9
         * empty cells took 75 s, of 4-7 34 s) */
        int empty = tl_below(&rng, 200) ? 4 + tl_below(&rng, 4) : 10 + tl_below(&rng, 3);
        RefPos p;
        if (tl_random_ongoing(&p, n, n - 1, rs, n * n - empty, &rng) != 0) continue;
        if (!fix_pairs(&p, &c, &rng)) continue;
        int holes = 0;
        for (int i = 0; i < n * n; i++) holes += p.cell[i] == '.';
        if (holes > 14 || holes == 0) continue;
        if (!centre_win(&c, tl_board(&p))) continue;
        claims++;
        char s[65];
        ref_format(&p, s);
        cr_expect(brute_order_wins(memo, &p), "%dx%d %s: the lemma claims an Order win, the brute force says Chaos",
                  n, n, s);
    }
    cr_log_info("%dx%d rules %d: %d lemma positions checked (%d tried)", n, n, rs, claims, tries);
    cr_expect_eq(claims, want_claims, "too few lemma positions found");
    brute_free(memo);
}

Test(centre, lemma_6x6_original) { lemma_sample(6, REF_ORIGINAL, 1000, 11); }
Test(centre, lemma_6x6_exact) { lemma_sample(6, REF_EXACT, 1000, 12); }
Test(centre, lemma_5x5) { lemma_sample(5, REF_ORIGINAL, 500, 13), lemma_sample(5, REF_EXACT, 500, 14); }

/* One condition short: a pair with two equal symbols, a half-full pair,
 * a Chaos-win centre, exact-end. The lemma must claim none of them (what
 * they are worth is not its business). */
Test(centre, one_condition_short)
{
    Rules r, re;
    Centre c, ce;
    init(&c, &r, 6, 5, RULES_ORIGINAL);
    init(&ce, &re, 6, 5, RULES_EXACT_END);
    cr_expect(centre_win(&c, board_empty()), "the empty 6x6 board: the 4x4 small game is an Order win");
    cr_expect(!centre_win(&ce, board_empty()), "claimed under exact-end");
    uint64_t rng = 77;
    int short_pairs = 0, short_centre = 0;
    for (int t = 0; t < 4000; t++) {
        RefPos p;
        if (tl_random_ongoing(&p, 6, 5, REF_ORIGINAL, 10 + tl_below(&rng, 16), &rng) != 0) continue;
        if (!fix_pairs(&p, &c, &rng)) continue;
        Board b = tl_board(&p);
        if (!centre_pairs_ok(&c, b)) continue;
        bool small = centre_small_win(4, centre_index(&c, b));
        cr_expect_eq(centre_win(&c, b), small);
        if (!small) {
            short_centre++;
            continue;
        }
        /* Spoil one pair: two equal symbols, or one piece alone. */
        int k = tl_below(&rng, c.npairs), u = c.pair[k][0], v = c.pair[k][1];
        uint64_t bu = 1ULL << u, bv = 1ULL << v;
        Board s = b;
        s.s[0] &= ~(bu | bv);
        s.s[1] &= ~(bu | bv);
        if (tl_below(&rng, 2)) s.s[PIECE_X] |= bu | bv;
        else s.s[PIECE_O] |= bu;
        cr_expect(!centre_win(&c, s), "claimed with pair %d spoiled", k);
        short_pairs++;
    }
    cr_expect(short_pairs > 500 && short_centre > 100, "%d spoiled pairs, %d Chaos centres", short_pairs, short_centre);
}
