/* test_centre_half.c - the one-half-pair centre lemma's stops
 * (solver/centre_half.h): a set flag or a past deadline makes it claim
 * nothing, and without them the same position is claimed. (Its claims
 * against the brute force: tests/test_centre.c, lemma_one_half_pair.)
 * Each test runs in a process of its own, so no table is filled before. */
#include <criterion/criterion.h>

#include "../engine/notation.h"
#include "../solver/centre_half.h"
#include "../solver/clock.h"

/* X b1: Chaos to move with one half pair, an Order win by the lemma under
 * exact, whose one-line certificate the independent verifier accepts
 * (results/openings/exact-Xb1/report.md). Stopped, it is not claimed (the
 * stop is read before any work); then it is. */
Test(centre_half, a_stop_or_a_past_deadline_claims_nothing)
{
    Rules r;
    char err[128];
    cr_assert_eq(rules_init(&r, 6, 5, RULES_EXACT, err, sizeof err), 0, "%s", err);
    Centre c;
    centre_init(&c, &r);
    c.half_max_pieces = CENTRE_HALF_MAX_PIECES;
    Move xb1;
    cr_assert_eq(notation_parse_move("Xb1", 6, &xb1, err, sizeof err), 0, "%s", err);
    Board b = board_empty();
    board_place(&b, xb1);
    atomic_bool stop = true;
    cr_expect_not(centre_half_win(&c, b, &stop, 0), "claimed with the stop flag set");
    cr_expect_not(centre_half_win(&c, b, NULL, clock_seconds() - 1), "claimed past its deadline");
    cr_expect_not(centre_win_with_half(&c, b, &stop, 0), "the combined lemma claimed with the stop flag set");
    atomic_store(&stop, false);
    cr_expect(centre_half_win(&c, b, &stop, clock_seconds() + 3600), "not claimed with time to spare");
    cr_expect(centre_win_with_half(&c, b, NULL, 0), "the combined lemma does not claim it");
}
