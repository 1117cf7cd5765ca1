/* centre_half.h - the centre lemma with one half-full pair: centre.h's
 * strategy where exactly one ring pair P = (u, v) holds one piece, S0 on
 * u, v empty. The parity argument of centre.h cannot take it (the ring's
 * count is odd), so the side to move is given explicitly instead.
 *
 * The extended game: the centre's m x m cells and v as one more cell;
 * either side puts X or O on any of them; the side to move is the big
 * game's. Order wins as soon as a line counts: a small line other than
 * P's with m like S, S allowed on it (centre.h: its pair empty, mixed,
 * same, or the line dead), or P's line L* on its full line u, L*, v: L*
 * all S0 with v not S0 under exact (any v under original), or L* all the
 * other symbol T with v = T. Chaos wins when all m*m + 1 cells are full
 * without that.
 *
 * Claim: under original and exact, if every pair but P is empty, mixed
 * or same (any line; a dead line's pair may also be same or mixed), and
 * Order wins the extended game with the big game's side to move, Order
 * wins the big position.
 * Proof. Order plays: (a) after a Chaos move on a ring cell of an empty
 * pair, the other symbol on its partner; (b) otherwise a winning move of
 * the extended game (v included). With Chaos to move, the invariant is:
 * every pair but P is empty, mixed or same with the allowed sets of the
 * start (a pair only goes from empty to mixed), and the extended game is
 * an Order win with Chaos to move. A Chaos ring move off P lands in an
 * empty pair (every other one is full) and (a) fills it mixed: the
 * extended state and its side are unchanged. A Chaos move on the centre
 * or on v is an extended-game move from an Order win, and (b) answers it
 * with a winning one. The extended game is finite and never ends in
 * Chaos's favour, so a line comes to count in it; until then one of its
 * cells is empty, the board is not full, and any line made elsewhere is
 * Order's win. A small line L other than L* that counts has its pair
 * empty, mixed or same, and v is not on L's full line (each ring cell is
 * in one pair): the finish of centre.h applies. L* all S0: u and L* are
 * k = m+1 like S0 from the edge beyond u, ended by v, which is not S0
 * under exact (a run of exactly k) and may be anything under original (k
 * or more). L* all T with v = T: L* and v are k like T from v's edge,
 * ended by u's S0: exactly k. Lines are judged at once under original
 * and exact, so Order has won. QED. (Under exact-end the lemma is off, as
 * centre.h says.)
 *
 * What it decides: X b1 and X c1 under exact (one half pair, Chaos to
 * move), and the replies to X a1 on a row or column pair, answered by the
 * other symbol on f6 (results/openings/). The verifier checks the same
 * lemma with its own search (verify/verify_centre.h, the one-HALF-pair
 * form); tests/test_centre.c holds this one against the brute force.
 *
 * Cost: one table per configuration (the half pair, S0, the rules and the
 * other lines' allowed sets), 2 bits for each (position, side) of the
 * extended game, 65 MB for m = 4, filled by a depth-first search on first
 * use (seconds for an empty centre); at most Centre.half_tables kept
 * (CENTRE_HALF_TABLES unless asked: Knowledge.centre_half_mb, the
 * --centre-half-mb option), the least recently used replaced. So the search asks it only at
 * positions with at most Centre.half_max_pieces pieces
 * (CENTRE_HALF_MAX_PIECES): the ring openings' first plies.
 */
#ifndef OCS_CENTRE_HALF_H
#define OCS_CENTRE_HALF_H

#include <stdatomic.h>

#include "centre.h"

enum { CENTRE_HALF_MAX_PIECES = 3, CENTRE_HALF_TABLES = 4, CENTRE_HALF_TABLES_MAX = 256 };

/* How many tables fit in mb MiB on an n x n board (Centre.half_tables):
 * at least 1, at most CENTRE_HALF_TABLES_MAX; mb 0: CENTRE_HALF_TABLES.
 * A table is 2 bits for each of 2 x 3^(m*m + 1) (position, side) pairs,
 * 65 MB for m = 4. Its pages are touched as the search fills it. */
int centre_half_tables_for(int n, int mb);

/* Is b (ongoing) an Order win by the lemma above? False when it does not
 * apply (not exactly one half pair, more pieces than c->half_max_pieces,
 * !c->on), when the extended game is not Order's, and when *stop is set
 * or the clock passes deadline (monotonic seconds, clock.h; 0: none)
 * while a table is being filled (no claim, which is sound). Why a
 * deadline of its own: a search reads its clock only between nodes, and
 * one node's table can take seconds, so a single-threaded solve with
 * --centre-half 8 and --time-limit 90 ran on for over ten minutes of
 * table fills before this (nothing sets the flag at a deadline). */
bool centre_half_win(const Centre *c, Board b, const atomic_bool *stop, double deadline);

/* The centre lemma in every form: centre_win_stoppable (centre.h), else
 * centre_half_win. What the searches and certificate writers ask. */
static inline bool centre_win_with_half(const Centre *c, Board b, const atomic_bool *stop, double deadline)
{
    return centre_win_stoppable(c, b, stop) || centre_half_win(c, b, stop, deadline);
}

#endif
