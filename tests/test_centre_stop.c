/* test_centre_stop.c - the centre lemma's table builds give up when told
 * to (solver/centre.h, centre_small_win_stoppable): with the stop flag set
 * or the clock past the deadline nothing is claimed, a build given up part
 * way is never read as a table, and with time the same position is
 * claimed; a build given up many times and gone on with each time
 * (centre_small.c, SmallPartial) gives the values the brute force gives. The
 * claims themselves are held against the brute force in
 * tests/test_centre.c; here X a1 X f6 under original, whose diagonal pair
 * X X restricts the small game (settled pairs), an Order win by the lemma
 * (results/openings/original-Xa1: decided at 0 nodes). Each test runs in
 * a process of its own, so no table is built before. */
#include <criterion/criterion.h>

#include "../engine/notation.h"
#include "../solver/centre.h"
#include "../solver/clock.h"
#include "brute.h"
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
    /* The whole table first, then the restricted one's build given a
     * deadline 20 ms out (it takes about a second: given up part way). */
    cr_assert(centre_small_win(c.m, 0), "the empty centre, Order to move, is no Order win");
    double t0 = clock_seconds();
    bool early = centre_win_stoppable(&c, b, NULL, t0 + 0.02);
    cr_log_info("with 20 ms: %s after %.2f s", early ? "claimed" : "not claimed", clock_seconds() - t0);
    atomic_store(&stop, false);
    cr_expect(centre_win_stoppable(&c, b, &stop, clock_seconds() + 3600), "not claimed with time to spare");
    cr_expect(centre_win_stoppable(&c, b, NULL, clock_seconds() - 1),
              "the table built is not kept: a past deadline now finds it and claims");
    cr_expect(centre_win(&c, b), "centre_win does not claim it");
}

/* The whole 4x4 table built by many calls of 5 ms each, every one given
 * up and gone on with by the next, then 1 500 random positions against
 * the brute force on the 4x4 board with k = 4 (tests/brute.*). */
Test(centre_stop, a_build_gone_on_with_gives_the_brute_force_values)
{
    Rules r;
    Centre c;
    (void)xa1_xf6(&r, &c);
    int calls = 0;
    while (!centre_small_win_stoppable(c.m, CENTRE_ALL_ALLOWED, 0, NULL, clock_seconds() + 0.005)) {
        cr_assert(++calls < 100000, "the build never ends");
    }
    cr_log_info("the table after %d calls given up", calls);
    cr_assert(calls >= 3, "built in %d calls: too few to have gone on with a kept build", calls);
    int wins = tl_centre_small_against_brute(&c, 707, 1500);
    cr_expect(wins > 100 && wins < 1400, "a one-sided sample: %d Order wins", wins);
}
