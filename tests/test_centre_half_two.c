/* test_centre_half_two.c - the centre lemma with TWO half-full pairs
 * (solver/centre_half.h) against the brute force (tests/brute.h, over
 * ref.h, which shares no code with the solver): random positions on 5x5
 * (k = 4) and 6x6 (k = 5) under original and exact, with exactly two
 * pairs holding one piece each and every other pair empty, mixed or same.
 * Every position the lemma claims must be an Order win by the brute
 * force; each sample must find a minimum number of claims (a test that
 * checks no claim says nothing), and among the refused positions some
 * must be Chaos wins (the lemma is not just claiming everything that is
 * drawn). The positions are built here from the board's own geometry read
 * off Centre's pair cells (their geometry is checked cell by cell in
 * tests/test_centre.c, geometry). Counts go to the log. */
#include <criterion/criterion.h>

#include "../solver/centre_half.h"
#include "testlib.h"

TestSuite(centre_half_two, .timeout = 900);

/* The ref index of board cell `cell` on n x n. */
static int ref_at(int n, int cell) { return cell_row(cell) * n + cell_col(cell); }

/* p (a random ongoing position) made lemma-shaped: pairs h1 and h2 with
 * one piece each (one kept, or one put on an empty pair, a random symbol
 * on a random end), every other pair empty, mixed or same (a half-full
 * one filled or emptied, a full one kept). False when that ended the game
 * or left no empty cell. */
static bool two_half_shape(RefPos *p, const Centre *c, int h1, int h2, uint64_t *rng)
{
    int n = p->n;
    for (int k = 0; k < c->npairs; k++) {
        char *a = &p->cell[ref_at(n, c->pair[k][0])], *b = &p->cell[ref_at(n, c->pair[k][1])];
        if (tl_below(rng, 2)) { /* which end is looked at first: either */
            char *t = a;
            a = b;
            b = t;
        }
        int pieces = (*a != '.') + (*b != '.');
        if (k == h1 || k == h2) {
            if (pieces == 2) *b = '.';
            else if (pieces == 0) *a = tl_below(rng, 2) ? 'X' : 'O';
            continue;
        }
        if (pieces != 1) continue;
        if (*a == '.') {
            char *t = a;
            a = b;
            b = t;
        }
        int kind = tl_below(rng, 3); /* 0: empty, 1: mixed, 2: same */
        if (kind == 0) *a = '.';
        else *b = kind == 2 ? *a : *a == 'X' ? 'O' : 'X';
    }
    int holes = 0;
    for (int i = 0; i < n * n; i++) holes += p->cell[i] == '.';
    return holes > 0 && ref_status(p) == REF_ONGOING;
}

/* A base position built, not played: each pair empty (one in four), mixed
 * or same, and `fill` random pieces in the centre; the ring's and the
 * centre's counts are then whatever they are, so either side may be to
 * move. Why besides random play: random play leaves few centre cells
 * empty, and the extended game's long fights (a half pair's v filled late)
 * need many. */
static void built_position(RefPos *p, const Centre *c, int n, int rs, int fill, uint64_t *rng)
{
    char s[65];
    for (int i = 0; i < n * n; i++) s[i] = '.';
    s[n * n] = '\0';
    for (int k = 0; k < c->npairs; k++) {
        int kind = tl_below(rng, 4), e = tl_below(rng, 2); /* 0: empty, 1: mixed, 2, 3: same */
        char sym = tl_below(rng, 2) ? 'X' : 'O';
        if (kind == 0) continue;
        s[ref_at(n, c->pair[k][e])] = sym;
        s[ref_at(n, c->pair[k][e ^ 1])] = kind == 1 ? (sym == 'X' ? 'O' : 'X') : sym;
    }
    for (int i = 0; i < fill; i++) {
        int at = tl_below(rng, (n - 2) * (n - 2)), cell = (at / (n - 2) + 1) * n + at % (n - 2) + 1;
        s[cell] = tl_below(rng, 2) ? 'X' : 'O'; /* a cell drawn twice: fewer pieces */
    }
    cr_assert_eq(ref_parse(p, n, n - 1, rs, s), 0);
}

/* Exactly two pairs of b hold one piece (the test's own count). */
static bool two_half(const Centre *c, Board b)
{
    int half = 0;
    for (int k = 0; k < c->npairs; k++)
        half += __builtin_popcountll((b.s[PIECE_X] | b.s[PIECE_O]) & c->pair_mask[k]) == 1;
    return half == 2;
}

/* One sample: want claims on n x n under rs (REF_), from positions of
 * 4 to 4 + spread - 1 empty cells after random play (the shaping may add
 * or remove a few) and, every other try, built ones (built_position) with
 * fill_min to fill_min + spread - 1 centre pieces; at most max_holes empty
 * cells. */
static void two_half_sample(int n, int rs, int want, int spread, int fill_min, int max_holes, uint64_t seed)
{
    Rules r;
    Centre c;
    char err[128];
    cr_assert_eq(rules_init(&r, n, n - 1, tl_rules(rs), err, sizeof err), 0, "%s", err);
    centre_init(&c, &r);
    cr_assert(c.on);
    c.half_max_pieces = n * n; /* at every piece count, not only where the search asks */
    c.half_two_max_pieces = n * n;
    c.same_max_pieces = n * n;
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    uint64_t rng = seed;
    int claims = 0, tries = 0, refused = 0, chaos = 0, order_to_move = 0, built_claims = 0;
    while (claims < want && tries < 400 * want) {
        tries++;
        RefPos p;
        bool built = tries % 2;
        if (built) built_position(&p, &c, n, rs, fill_min + tl_below(&rng, spread), &rng);
        else if (tl_random_ongoing(&p, n, n - 1, rs, n * n - 4 - tl_below(&rng, spread), &rng) != 0) continue;
        int h1 = tl_below(&rng, c.npairs), h2 = (h1 + 1 + tl_below(&rng, c.npairs - 1)) % c.npairs;
        if (!two_half_shape(&p, &c, h1, h2, &rng)) continue;
        int holes = 0;
        for (int i = 0; i < n * n; i++) holes += p.cell[i] == '.';
        if (holes > max_holes) continue;
        Board b = tl_board(&p);
        cr_assert(two_half(&c, b), "the shaping left other than two half pairs");
        char s[65];
        ref_format(&p, s);
        if (!centre_win_with_half(&c, b, NULL, 0)) {
            refused++;
            chaos += !brute_order_wins(memo, &p);
            continue;
        }
        claims++;
        built_claims += built;
        order_to_move += board_order_to_move(b);
        cr_expect(brute_order_wins(memo, &p), "%dx%d rules %d %s: the lemma claims an Order win, the brute force says Chaos",
                  n, n, rs, s);
    }
    cr_log_info("%dx%d rules %d, two half pairs: %d claims checked (%d with Order to move, %d built), %d refused (%d "
                "Chaos wins), %d tried",
                n, n, rs, claims, order_to_move, built_claims, refused, chaos, tries);
    cr_expect(built_claims > want / 10 && claims - built_claims > want / 10,
              "%dx%d rules %d: %d of %d claims on built positions: one kind only", n, n, rs, built_claims, claims);
    cr_expect_eq(claims, want, "%dx%d rules %d: too few lemma positions found", n, n, rs);
    cr_expect(claims - order_to_move > want / 10 && order_to_move > want / 10,
              "%dx%d rules %d: the claims are not spread over both sides to move (%d of %d Order's)", n, n, rs,
              order_to_move, claims);
    cr_expect(refused > 0 && chaos > 0, "%dx%d rules %d: refused %d, chaos %d", n, n, rs, refused, chaos);
    brute_free(memo);
}

Test(centre_half_two, against_brute_force_5x5_original) { two_half_sample(5, REF_ORIGINAL, 500, 7, 0, 15, 91); }
Test(centre_half_two, against_brute_force_5x5_exact) { two_half_sample(5, REF_EXACT, 500, 7, 0, 15, 92); }
Test(centre_half_two, against_brute_force_6x6_original) { two_half_sample(6, REF_ORIGINAL, 200, 8, 4, 14, 93); }
Test(centre_half_two, against_brute_force_6x6_exact) { two_half_sample(6, REF_EXACT, 150, 8, 4, 14, 94); }
