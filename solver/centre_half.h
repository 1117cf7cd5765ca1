/* centre_half.h - the centre lemma with one or two half-full pairs:
 * centre.h's strategy where one or two ring pairs P_j = (u_j, v_j) hold
 * one piece each, S0_j on u_j, v_j empty. The parity argument of centre.h
 * cannot take them (with one, the ring's count is odd; with two on live
 * lines Order cannot just answer one v with the other), so the side to
 * move is given explicitly instead.
 *
 * The extended game: the centre's m x m cells and each v_j as one more
 * cell (m*m + 1 or m*m + 2 cells); either side puts X or O on any empty
 * one; the side to move is the big game's. Order wins as soon as a line
 * counts: a small line other than the L_j* (the half pairs' lines) with
 * m like S, S allowed on it (centre.h: its pair empty, mixed, same, or
 * the line dead), or for some j, L_j* on its full line u_j, L_j*, v_j:
 * L_j* all S0_j with v_j not S0_j under exact (any v_j under original),
 * or L_j* all the other symbol T_j with v_j = T_j. Chaos wins when all
 * its cells are full without that.
 *
 * Claim: under original and exact, if one or two pairs are half full,
 * every other pair is empty, mixed or same (any line; a dead line's pair
 * may also be same or mixed), and Order wins the extended game with the
 * big game's side to move, Order wins the big position.
 * Proof. Order plays: (a) after a Chaos move on a ring cell of an empty
 * pair, the other symbol on its partner; (b) otherwise a winning move of
 * the extended game (a v_j included). With Chaos to move, the invariant
 * is: every pair but the P_j is empty, mixed or same with the allowed
 * sets of the start (a pair only goes from empty to mixed), and the
 * extended game is an Order win with Chaos to move. A Chaos ring move off
 * the P_j lands in an empty pair (every other pair is empty or full) and
 * (a) fills it mixed: the
 * extended state and its side are unchanged. A Chaos move on the centre
 * or on a v_j is an extended-game move from an Order win, and (b)
 * answers it with a winning one. The extended game is finite and never
 * ends in Chaos's favour, so a line comes to count in it; until then one
 * of its cells is empty, the board is not full, and any line made
 * elsewhere is Order's win. Each ring cell is the end of exactly one
 * centre full line (it lies in one pair), so no v_j lies on another
 * counted line's full line. A small line L other than the L_j* that
 * counts has its pair empty, mixed or same, and no v_j is on L's full
 * line: the finish of centre.h applies. L_j* that counts: the one-pair
 * finish on pair j alone (the other half pair's cells are off its full
 * line, so the two are independent): L_j* all S0_j: u_j and L_j* are
 * k = m+1 like S0_j from the edge beyond u_j, ended by v_j, which is not
 * S0_j under exact (a run of exactly k) and may be anything under
 * original (k or more). L_j* all T_j with v_j = T_j: L_j* and v_j are k
 * like T_j from v_j's edge, ended by u_j's S0_j: exactly k. Lines are
 * judged at once under original and exact, so Order has won. QED. (Under
 * exact-end the lemma is off, as centre.h says.)
 *
 * What it decides: X b1 and X c1 under exact (one half pair, Chaos to
 * move), and the replies to X a1 on a row or column pair, answered by the
 * other symbol on f6 (results/openings/); with two half pairs, X a1 X f1
 * under original at once. The verifier checks the same lemma with its own
 * search (verify/verify_centre.h, both forms); tests/test_centre.c (one half pair) and
 * tests/test_centre_half_two.c (two) hold this one against the brute
 * force.
 *
 * Cost: one table per configuration (the half pairs, their S0, the rules
 * and the other lines' allowed sets), 2 bits for each (position, side) of
 * the extended game: 2 x 3^(m*m + nhalf) entries, 65 MB for m = 4 and one
 * half pair, 194 MB for two; filled by a depth-first search on first use
 * (seconds for an empty centre and one half pair, about three times that
 * for two). The tables kept fit in Centre.half_bytes (CENTRE_HALF_MB MiB
 * unless asked: Knowledge.centre_half_mb, the --centre-half-mb option),
 * the least recently used freed to make room; a table larger than the
 * budget is kept alone, so one of each size always fits. So the search
 * asks it only at positions with at most Centre.half_max_pieces pieces
 * (CENTRE_HALF_MAX_PIECES): the ring openings' first plies; and with two
 * half pairs only at Centre.half_two_max_pieces (off unless asked:
 * --centre-half-two). Measured worth of two (exact X a1 X f1, one
 * thread, --centre-half 5, 2 GiB of tables, loaded machine;
 * results/openings/exact-Xa1/centre-half-two.md): the search met 42 new
 * two-half configurations in 100 s (ring moves of either side change
 * which two pairs are half full, with which symbols), each a
 * fresh 194 MB table, and at 4 pieces a call searched 1.6 M positions on
 * average (642 calls, 1.05 G positions, 512 claims): 1 024 nodes of the
 * big search in 128 s, against 10 M nodes (root pn 29 187) in 97 s with
 * one half pair only. A per-call bound of 4 096 positions left 60 claims
 * in 10 029 calls. So it stays off until its tables are shared better.
 *
 * Whole tables (Centre.half_fill, --centre-half-fill): a table is filled
 * entirely on first use by a backward pass (centre_half.c half_fill, 3 s
 * for one half pair and 10 s for two on 6x6), and then every ask is one
 * read, at any number of pieces. Tables are made only within the piece
 * limits above, and at the root of each df-pn solve whatever its pieces
 * (dfpn.c dfpn_root_centre: a job of the job-level search is rooted
 * deep); elsewhere a position is answered only from a whole table
 * already kept (the claim is the same lemma at any number of pieces; the
 * limits only bound which configurations cost a fill). Why:
 * the main lines of a ring opening keep their configuration while pieces
 * pile up (a Chaos ring move answered by the other symbol leaves a mixed
 * pair, which allows what an empty one does), so the tables made in the
 * first plies answer the whole of those lines. Measured (exact X a1 X f1,
 * one thread, 1 GiB table, machine loaded; results/openings/exact-Xa1/
 * centre-half-fill.md): with both limits at 5, 20.0 M nodes in 600 s
 * (the first 120 s filling tables) to root pn 2 051, against root pn
 * 29 196 after 30.2 M nodes with one half pair searched; every
 * configuration filled on first ask up to 8 pieces instead: 1 024 nodes
 * in 300 s (a new configuration every few nodes). Off by default; tests:
 * tests/test_centre_half_two.c (whole tables, 5x5 against the brute
 * force, 6x6 in one configuration against the searched lemma and the
 * brute force), tests/test_centre.c and tests/test_centre_half.c.
 */
#ifndef OCS_CENTRE_HALF_H
#define OCS_CENTRE_HALF_H

#include <stdatomic.h>

#include "centre.h"

/* CENTRE_HALF_MB: the default budget (MiB), four one-half-pair tables or
 * one of each size for m = 4; CENTRE_HALF_TABLES_MAX: tables kept at most
 * (5x5's are 30 KB and 89 KB). */
enum { CENTRE_HALF_MAX_PIECES = 3, CENTRE_HALF_MB = 256, CENTRE_HALF_TABLES_MAX = 256 };

/* The tables' budget in bytes for mb MiB (Centre.half_bytes); mb <= 0:
 * CENTRE_HALF_MB. A table is 2 bits for each of 2 x 3^(m*m + nhalf)
 * (position, side) pairs, 65 MB for m = 4 and one half pair, 194 MB for
 * two; one larger than the budget is kept alone. Its pages are touched as
 * the search fills it. */
uint64_t centre_half_bytes_for(int mb);

/* Is b (ongoing) an Order win by the lemma above? False when it does not
 * apply (not one or two half pairs, more pieces than c->half_max_pieces,
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
    return centre_win_stoppable(c, b, stop, deadline) || centre_half_win(c, b, stop, deadline);
}

#endif
