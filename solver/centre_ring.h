/* centre_ring.h - the ring lemma: Chaos's counterpart of the centre lemma,
 * a Chaos win without search. Chaos plays the centre's small game
 * (centre.h) to stop every line through the centre, and a pairing of the
 * ring's empty cells (pairing.h's opposite pairs) to stop every other line.
 *
 * Geometry and terms as in centre.h (n x n board, k = n-1, the centre the
 * inner m x m square, m = n-2, the ring the other 4(n-1) cells, the small
 * lines the centre's rows, columns and two diagonals) and knowledge.h (a
 * window is k consecutive cells of a line; it is live for S when it holds
 * no other symbol and, under exact, no S on its ends).
 *
 * The lemma. Rules original or exact, k = n-1, n even (4 or 6: the small
 * game's table needs m <= 4). Let b be an ongoing position and R a set of
 * disjoint pairs of empty ring cells such that
 *   (1) every empty ring cell is in a pair of R (so their number is even);
 *   (2) b's number of empty cells is even with Order to move, or odd with
 *       Chaos to move (on an even board: always);
 *   (3) every window live for X or for O either holds both cells of a pair
 *       of R (it is "covered"), or holds every cell of a small line L (it
 *       "guards" L);
 *   (4) the restricted small game (centre.h) at b's centre, in which line L
 *       is won by S exactly when some window guarding L is live for S in
 *       b, is a Chaos win with the side to move of its piece count.
 * Then Chaos wins b.
 *
 * Proof. The ring holds 4(n-1) cells, an even number, and by (1) an even
 * number of them are empty, so the ring holds an even number of pieces and
 * the centre's piece count has the board's parity: the small game's side
 * to move (by its piece count) is b's. Chaos's strategy: when Order plays
 * a cell of a pair of R, the other symbol on the partner; when Order plays
 * in the centre, a winning move of the restricted small game; when Chaos
 * is to move in b, a winning small-game move. Invariants at Order's turn:
 * every pair of R is empty or holds X and O; the small game at the centre,
 * Order to move, is a Chaos win. They hold at Chaos's first turn or
 * Order's first. Chaos can always answer: after Order's move in a pair its
 * partner is empty (pairs are filled two at a time); after Order's centre
 * move the centre is not full, because at Order's turn the number of empty
 * cells is even (2) and the ring's empty cells are even (pairs), so the
 * centre's empty cells are even, and Order's move leaves an odd number; and
 * at Chaos's first turn the same count is odd, so at least one. The small
 * game's winning replies keep it a Chaos win; ring exchanges leave the
 * centre and its side to move as they were. So the small game never
 * reaches a line of m like S on a line L with S allowed on L.
 *   No winning line ever stands, whoever moves: a winning run of S needs a
 * window w all S that is live for S just before (a run of exactly k, or
 * of k or more under original, fills a window live for S: no other symbol
 * in it and, under exact, no S beyond its ends). Liveness only decreases
 * as pieces are added, so w was live for S in b, and by (3) it is covered
 * or guards a line. Covered: w holds both cells of a pair of R; after
 * Order's move in that pair the partner is still empty, and after Chaos's
 * answer w holds X and O; so w is never all S. Guarding L: w all S makes
 * L all S, with S allowed on L by (4)'s definition, which the small game
 * never allows. The board fills (every pair filled, the centre filled)
 * with no line: Chaos wins. QED.
 *
 * Why (2) and (1): with the wrong parity (odd boards, n = 5) Order could
 * fill the centre's last cell and make Chaos move into a pair, after which
 * Order may play the same symbol on its partner; so the lemma is off on
 * odd boards (on even ones (2) always holds: Order moves first). An
 * unpaired empty ring cell is a cell Order may play without Chaos having
 * an answer that keeps both parts. Conditions (3) and (4) are each needed:
 * tests/test_centre_ring.c finds Order wins (brute force) where only (4)
 * fails, and the brute-force samples fail when either the pairs or the
 * guarded windows' symbols are left out of the code (tried by hand).
 *
 * What it decides: exact X a1 X f6 (results/openings/exact-Xa1/ring.md).
 * Under exact the main diagonal with X on both ends is dead, the small game
 * on the other nine lines is a Chaos win with Order to move, and the ring's
 * 18 empty cells pair up so that every window off the centre lines is
 * covered: c1:d1, c6:d6, a3:a4 and f3:f4 (rows 1 and 6, columns a and f),
 * a2:e6, b1:f5, a5:e1 and b6:f2 (the four short diagonals), f1:a6. So
 * Chaos refutes X a1 under exact with X f6. The matching is found by a
 * small search (centre_ring.c), never typed in.
 *
 * The certificate line: 'POSITION lemma ring A:B~ C:D~ ...', the pairs R
 * in POSITION's frame; the verifier checks (1)-(4) with its own code
 * (verify/verify_pairing.h, vr_ring_lemma), the small game by its own
 * minimax (verify/verify_centre.h).
 *
 * Cost and gates: the pair parity and the windows are a mask scan; the
 * small game is a table read (or nothing, when no centre line can still
 * be made in a symbol it counts for), never a new restriction's table past
 * CENTRE_SAME_MAX_PIECES pieces (centre.h: the Order lemma's tables are
 * kept few, and a Chaos question must not take their places), and never
 * the depth-first search of centres with many pieces; the matching search
 * runs before the small game and is bounded (CENTRE_RING_STEPS). Any
 * bound reached is "no claim", which is sound.
 *
 * Measured worth (2026-12-07, one thread, the machine idle): on the bench's
 * 27 positions (original) 1 052 056 -> 542 848 nodes and 9.7 s -> 6.1 s
 * (bench/signature.txt); asked with the small game's depth-first search
 * for centres of 8 or more pieces too, 538 789 nodes but 11.5 s (the
 * search was over half the time), so that search is not used here. Exact
 * X a1: 1 node, where 24 job-level runs (83 275 s) decided nothing
 * (results/openings/exact-Xa1/ring.md). --no-ring turns it off.
 */
#ifndef OCS_CENTRE_RING_H
#define OCS_CENTRE_RING_H

#include <stdatomic.h>

#include "centre.h"

/* The matching search's budget (pairs tried). */
enum { CENTRE_RING_STEPS = 4096, CENTRE_RING_MAX_PAIRS = 2 * (BOARD_MAX_N - 1) };

typedef struct {
    int n;                               /* pairs */
    int a[CENTRE_RING_MAX_PAIRS], b[CENTRE_RING_MAX_PAIRS]; /* cells (8 * row + col) */
} CentreRing;

/* Is b (under r, with c its centre geometry) a Chaos win by the ring lemma?
 * out (may be NULL) gets the pairs. False also when the lemma does not
 * apply (rules, n, !c->on, !c->ring), when a bound is reached, and when
 * *stop is set or the clock passes deadline (monotonic seconds; 0: none)
 * while the small game's table is being built. */
bool centre_ring_chaos(const Centre *c, const Rules *r, Board b, CentreRing *out, const atomic_bool *stop,
                       double deadline);

#endif
