/* test_secured.c - the "secured run" under exact-end: a run of exactly k
 * whose ends are taken by the other symbol (or off the board) stands on the
 * full board, so it is an Order win already. The solver's test
 * (kn_secured, solver/knowledge.h) and the verifier's (vr_secured,
 * verify/verify_rules.h) are written apart; both are checked against the
 * brute force (tests/brute.h) and against each other. */
#include <criterion/criterion.h>

#include "../solver/knowledge.h"
#include "../verify/verify_rules.h"
#include "brute.h"
#include "testlib.h"

TestSuite(secured, .timeout = 300);

static bool verifier_says(const RefPos *p)
{
    VrGame g = {p->n, p->k, VR_EXACT_END};
    uint8_t cells[64];
    for (int i = 0; i < p->n * p->n; i++) cells[i] = p->cell[i] == 'X' ? VR_X : p->cell[i] == 'O' ? VR_O : VR_EMPTY;
    return vr_secured(&g, cells);
}

static void sample(int n, int k, int count, int max_empty, uint64_t seed)
{
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    uint64_t rng = seed;
    int claims = 0, tried = 0;
    for (int t = 0; t < count; t++) {
        RefPos p;
        int empty = 1 + tl_below(&rng, max_empty);
        if (tl_random_ongoing(&p, n, k, REF_EXACT_END, n * n - empty, &rng) != 0) continue;
        tried++;
        Rules r;
        tl_init_rules(&r, &p);
        bool solver = kn_secured(&r, tl_board(&p)), verifier = verifier_says(&p);
        char s[65];
        ref_format(&p, s);
        cr_expect_eq(solver, verifier, "%s: solver %d, verifier %d", s, solver, verifier);
        if (!solver && !verifier) continue;
        claims++;
        cr_expect(brute_order_wins(memo, &p), "%s: secured, but the brute force says Chaos wins", s);
    }
    cr_log_info("%dx%d k=%d: %d positions, %d secured", n, n, k, tried, claims);
    cr_expect_geq(claims, count / 20, "too few secured positions to test");
    brute_free(memo);
}

Test(secured, brute_6x6) { sample(6, 5, 1500, 12, 101); }
Test(secured, brute_5x5_4x4)
{
    sample(5, 4, 1000, 12, 102);
    sample(4, 3, 1000, 10, 103);
}

/* Under original and exact neither says so (a line there has already ended
 * the game), and a run with one end empty is not secured. */
Test(secured, only_exact_end_and_both_ends)
{
    const char *run = "XXXXXO" "......" "......" "......" "......" "......";
    RefPos p;
    Rules r;
    ref_parse(&p, 6, 5, REF_EXACT_END, run);
    tl_init_rules(&r, &p);
    cr_expect(kn_secured(&r, tl_board(&p)) && verifier_says(&p), "a1-e1 X with f1 O, a1 at the edge");
    ref_parse(&p, 6, 5, REF_EXACT_END, "XXXXX." "......" "......" "......" "......" "......");
    tl_init_rules(&r, &p);
    cr_expect(!kn_secured(&r, tl_board(&p)) && !verifier_says(&p), "f1 empty: not secured");
    ref_parse(&p, 6, 5, REF_EXACT_END, ".XXXXX" "O....." "......" "......" "......" "......");
    tl_init_rules(&r, &p);
    cr_expect(!kn_secured(&r, tl_board(&p)) && !verifier_says(&p), "a1 empty: not secured");
    ref_parse(&p, 6, 5, REF_EXACT, run);
    tl_init_rules(&r, &p);
    cr_expect(!kn_secured(&r, tl_board(&p)), "the solver's under exact");
    VrGame g = {6, 5, VR_EXACT};
    uint8_t cells[36] = {VR_X, VR_X, VR_X, VR_X, VR_X, VR_O};
    cr_expect(!vr_secured(&g, cells), "the verifier's under exact");
}
