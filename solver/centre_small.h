/* centre_small.h - the centre lemma's small game (centre.h): the m x m
 * centre as a game of its own with k = m, Order winning on a line of m
 * like symbols that its restriction allows, Chaos on a full centre; its
 * values by table (built on first use, thread-safe) or, for centres with
 * many pieces under a restriction, a memoised depth-first search. Indices
 * are base 3 over the centre's cells (centre_index, centre.h); the side
 * to move is the one the piece count gives (Order when even). Tests check
 * the tables against the brute force (tests/test_centre.c).
 */
#ifndef OCS_CENTRE_SMALL_H
#define OCS_CENTRE_SMALL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The centre sizes with tables: m = 2..4 (3^16 positions for m = 4; 3^25
 * would be too many). */
enum { CENTRE_SMALL_MIN = 2, CENTRE_SMALL_MAX = 4 };

/* Every symbol allowed on every small-game line (no restriction): two bits
 * per line, 2m+2 <= 10 lines. */
#define CENTRE_ALL_ALLOWED 0xFFFFFu

/* Is the small game at index idx (m x m, side to move from its piece count)
 * an Order win? Computes the table of all 3^(m*m) positions on first use
 * (thread-safe; about 0.6 s for m = 4). */
bool centre_small_win(int m, uint32_t idx);

/* The restricted small game (settled pairs, above): is the position at
 * idx an Order win when line l (small_lines' order: row 0, column 0, row
 * 1, ..., the diagonal, the anti-diagonal; the same order as the pairs)
 * is won only by the symbols of bits 2l (X) and 2l+1 (O) of allowed?
 * CENTRE_ALL_ALLOWED is centre_small_win. */
bool centre_small_win_allowed(int m, uint32_t allowed, uint32_t idx);
/* The same, giving up (false: no claim, which is sound) when *stop is set
 * or the clock passes deadline (monotonic seconds, clock.h; 0: none) while
 * a new restriction's table is being built (0.6 s, more under the
 * sanitizers): a search asked to stop must not wait for it, and one with
 * a time limit must keep it. Why the deadline: a search reads its clock
 * only between nodes, and the first nodes of a ring opening meet a new
 * restriction each, so `solve --time-limit 0.05 - Oa1` took 4.6 s, and
 * `play --protocol --think 0.05`'s genmove O at the empty board 7.6 s, all
 * but a little of it building tables (2026-12-07, before this). A build
 * given up is never read as a table; the next call for the same table
 * goes on with it where it stopped (centre_small.c, SmallPartial), so short
 * think times still build it over a few questions. */
bool centre_small_win_stoppable(int m, uint32_t allowed, uint32_t idx, const atomic_bool *stop, double deadline);

/* The other answer: is the restricted small game at idx certainly a Chaos
 * win (with the side to move of its piece count)? False when it is an
 * Order win and when it is not known (a table given up as above, or past
 * the tables kept): what a Chaos lemma may rely on (centre_ring.h).
 * build false: no new restriction's table is made for the question and
 * no depth-first search is run (the answer is then "not known" unless the
 * unrestricted table or a kept table gives it), so that the Chaos lemma
 * never fills the table slots the Order lemma needs nor pays for the
 * search in the hot path (centre_ring.h). */
bool centre_small_chaos_stoppable(int m, uint32_t allowed, uint32_t idx, const atomic_bool *stop, double deadline,
                                  bool build);

#endif
