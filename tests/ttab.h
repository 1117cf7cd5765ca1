/* ttab.h - what the tests of the transposition table share (test_tt.c,
 * test_tt_levels.c): random keys, data that only one key with one work
 * would carry (so a read that mixed two entries shows), two threads
 * storing and probing in one shared table, and a depth-bound entry that
 * must be there. */
#ifndef OCS_TTAB_H
#define OCS_TTAB_H

#include <stdint.h>

#include "../tables/tt.h"

/* A random 6x6 board (no two pieces on one cell). */
Board ttab_random_board(uint64_t *rng);
/* Data that only this key with this work would carry: a read that mixed
 * two entries, or two stores of one key, shows as a mismatch. */
TTData ttab_data_for(Board b, uint32_t work);
/* got is want, field by field (the test fails otherwise). */
void ttab_expect_data(TTData got, TTData want);
/* Two threads store and probe their own keys in the shared table t whose
 * buckets they share (nkeys 0: random keys; else keys drawn from the
 * first nkeys); every hit must be that key's data. Returns their hits,
 * and checks that none was wrong. The TSan build of later issues runs a
 * program like this outside Criterion (tests/tsan/tt_threads.c). */
int ttab_two_workers(TT *t, int nkeys);
/* k's depth-bound entry (the test fails if it is gone). */
TTBounds ttab_bounds_of(TT *t, Board k);

#endif
