/* test_centre_stop.c - the centre lemma's table builds give up when told
 * to (solver/centre.h, centre_small_win_stoppable): with the stop flag set
 * or the clock past the deadline nothing is claimed, a build given up part
 * way keeps no table a later claim could read, and with time the same
 * position is claimed. The claim itself is held against the brute force in
 * tests/test_centre.c; here X a1 X f6 under original, whose diagonal pair
 * X X restricts the small game (settled pairs), an Order win by the lemma
 * (results/openings/original-Xa1: decided at 0 nodes). Each test runs in
 * a process of its own, so no table is built before. */
#include <criterion/criterion.h>

#include "../engine/notation.h"
#include "../solver/centre.h"
#include "../solver/clock.h"
#include "testlib.h"

static Board xa1_xf6(Rules *r, Centre *c)
{
    char err[128];
    cr_assert_eq(rules_init(r, 6, 5, RULES_ORIGINAL, err, sizeof err), 0, "%s", err);
    centre_init(c, r);
    Board b = board_empty();
    const char *moves[] = {"Xa1", "Xf6"};
    for (int i = 0; i < 2; i++) {
        Move m;
        cr_assert_eq(notation_parse_move(moves[i], 6, &m, err, sizeof err), 0, "%s", err);
        board_place(&b, m);
    }
    uint32_t allowed;
    cr_assert(centre_allowed(c, b, &allowed) && allowed != CENTRE_ALL_ALLOWED, "not a restricted small game");
    return b;
}

Test(centre_stop, a_stop_or_a_past_deadline_claims_nothing_and_keeps_nothing)
{
    Rules r;
    Centre c;
    Board b = xa1_xf6(&r, &c);
    atomic_bool stop = true;
    cr_expect_not(centre_win_stoppable(&c, b, &stop, 0), "claimed with the stop flag set");
    cr_expect_not(centre_win_stoppable(&c, b, NULL, clock_seconds() - 1), "claimed past its deadline");
    /* A deadline 20 ms out: the two builds (the whole table, then the
     * restricted one) take about a second, so this gives up part way. */
    double t0 = clock_seconds();
    bool early = centre_win_stoppable(&c, b, NULL, t0 + 0.02);
    cr_log_info("with 20 ms: %s after %.2f s", early ? "claimed" : "not claimed", clock_seconds() - t0);
    atomic_store(&stop, false);
    cr_expect(centre_win_stoppable(&c, b, &stop, clock_seconds() + 3600), "not claimed with time to spare");
    cr_expect(centre_win_stoppable(&c, b, NULL, clock_seconds() - 1),
              "the table built is not kept: a past deadline now finds it and claims");
    cr_expect(centre_win(&c, b), "centre_win does not claim it");
}
