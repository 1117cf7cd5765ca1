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
 * cells. fill: each table filled whole on first use (Centre.half_fill);
 * then every position is also asked of a copy that may make tables only
 * up to 3 pieces and otherwise reads the kept ones, which must answer
 * the same (the table the first ask made is kept: 5x5's are small). */
static void two_half_sample(int n, int rs, int want, int spread, int fill_min, int max_holes, uint64_t seed, bool fill)
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
    c.half_fill = fill;
    Centre low = c;
    low.half_max_pieces = low.half_two_max_pieces = 3;
    int beyond = 0; /* claims the low copy read from a kept table beyond its 3 pieces */
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
        bool claim = centre_win_with_half(&c, b, NULL, 0);
        if (fill) {
            bool low_claim = centre_win_with_half(&low, b, NULL, 0);
            cr_expect_eq(low_claim, claim, "%dx%d rules %d %s: a kept whole table read beyond its pieces says %d, made "
                         "at this position %d", n, n, rs, s, low_claim, claim);
            beyond += low_claim && board_count(b) > 3;
        }
        if (!claim) {
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
    if (fill) cr_expect(beyond > want / 2, "%dx%d rules %d: only %d claims read beyond the pieces", n, n, rs, beyond);
    brute_free(memo);
}

Test(centre_half_two, against_brute_force_5x5_original) { two_half_sample(5, REF_ORIGINAL, 500, 7, 0, 15, 91, false); }
Test(centre_half_two, against_brute_force_5x5_exact) { two_half_sample(5, REF_EXACT, 500, 7, 0, 15, 92, false); }
Test(centre_half_two, against_brute_force_6x6_original) { two_half_sample(6, REF_ORIGINAL, 200, 8, 4, 14, 93, false); }
Test(centre_half_two, against_brute_force_6x6_exact) { two_half_sample(6, REF_EXACT, 150, 8, 4, 14, 94, false); }
/* Whole tables (centre_half.c half_fill) on 5x5, where each is 3^11
 * positions; 6x6 below, in one configuration. */
Test(centre_half_two, whole_tables_against_brute_force_5x5_original) { two_half_sample(5, REF_ORIGINAL, 300, 7, 0, 15, 95, true); }
Test(centre_half_two, whole_tables_against_brute_force_5x5_exact) { two_half_sample(5, REF_EXACT, 300, 7, 0, 15, 96, true); }

/* 6x6 with whole tables, in one configuration: one X on the corner end
 * (row 0) of each diagonal's pair, as after X a1 X f1 (the two half
 * pairs of exact X a1's open replies), every other pair empty or mixed,
 * which leaves the configuration as it is (centre_half.h), and random
 * centre pieces; positions of at most 14 empty cells, either side to move.
 * Each is asked first of the searched lemma (held against the brute force
 * above), then of the whole-table one (its one table filled once, about
 * 10 s, every entry written by the fill itself, so nothing the searches
 * left in it is read); the two must agree, and every claim is held
 * against the brute force. */
static void whole_table_6x6(int rs, int want, uint64_t seed)
{
    enum { N = 6, CAP = 1024 };
    Rules r;
    Centre c;
    char err[128];
    cr_assert_eq(rules_init(&r, N, N - 1, tl_rules(rs), err, sizeof err), 0, "%s", err);
    centre_init(&c, &r);
    c.half_max_pieces = c.half_two_max_pieces = c.same_max_pieces = N * N;
    int corner[2] = {-1, -1}; /* the pairs holding a1's and f1's cells, and which end */
    int end[2] = {0, 0};
    for (int k = 0; k < c.npairs; k++)
        for (int e = 0; e < 2; e++)
            for (int j = 0; j < 2; j++)
                if (c.pair[k][e] == board_cell(0, j * (N - 1))) corner[j] = k, end[j] = e;
    cr_assert(corner[0] >= 0 && corner[1] >= 0 && corner[0] != corner[1], "no diagonal pairs found");
    static RefPos pos[CAP];
    static bool searched[CAP];
    int count = 0, claims = 0;
    uint64_t rng = seed;
    for (int tries = 0; count < CAP && tries < 100 * CAP; tries++) {
        RefPos *p = &pos[count];
        char s[N * N + 1];
        for (int i = 0; i < N * N; i++) s[i] = '.';
        s[N * N] = '\0';
        for (int k = 0; k < c.npairs; k++) {
            if (k == corner[0] || k == corner[1]) {
                s[ref_at(N, c.pair[k][end[k == corner[1]]])] = 'X';
                continue;
            }
            if (tl_below(&rng, 2)) continue; /* empty */
            int e = tl_below(&rng, 2);
            s[ref_at(N, c.pair[k][e])] = 'X';
            s[ref_at(N, c.pair[k][e ^ 1])] = 'O';
        }
        int fill = 6 + tl_below(&rng, 11);
        for (int i = 0; i < fill; i++) {
            int at = tl_below(&rng, (N - 2) * (N - 2)), cell = (at / (N - 2) + 1) * N + at % (N - 2) + 1;
            s[cell] = tl_below(&rng, 2) ? 'X' : 'O';
        }
        int holes = 0;
        for (int i = 0; i < N * N; i++) holes += s[i] == '.';
        if (holes > 14 || holes == 0 || ref_parse(p, N, N - 1, rs, s) != 0 || ref_status(p) != REF_ONGOING) continue;
        searched[count++] = centre_win_with_half(&c, tl_board(p), NULL, 0);
    }
    cr_assert_eq(count, CAP, "only %d positions drawn", count);
    Centre whole = c;
    whole.half_fill = true;
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    for (int i = 0; i < count; i++) {
        char s[N * N + 1];
        ref_format(&pos[i], s);
        bool claim = centre_win_with_half(&whole, tl_board(&pos[i]), NULL, 0);
        cr_expect_eq(claim, searched[i], "rules %d %s: whole table %d, searched %d", rs, s, claim, searched[i]);
        if (!claim) continue;
        claims++;
        if (claims <= want)
            cr_expect(brute_order_wins(memo, &pos[i]), "rules %d %s: the whole table claims an Order win, the brute "
                      "force says Chaos", rs, s);
    }
    cr_log_info("6x6 rules %d, one configuration: %d positions, %d claims (%d held against the brute force)", rs, count,
                claims, claims < want ? claims : want);
    cr_expect(claims >= want && claims < count, "rules %d: %d claims of %d positions", rs, claims, count);
    brute_free(memo);
}

Test(centre_half_two, whole_table_6x6_exact_one_configuration) { whole_table_6x6(REF_EXACT, 60, 97); }
