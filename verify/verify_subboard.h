/* verify_subboard.h - the sub-board lemma, checked by the verifier on its
 * own (no code shared with the solver; the plain style of verify_rules.h:
 * cell arrays cells[r * n + c] of VR_EMPTY, VR_X, VR_O).
 *
 * The line: 'POSITION lemma subboard CELL M see FILE'. The window W is
 * the M x M square of POSITION (in the frame POSITION is written in) whose
 * top-left cell is CELL; FILE is a certificate of the M x M board with the
 * same k, rules original, winner order, whose root is W's content.
 *
 * Definitions. The game G(n, k) under original: on the n x n board either
 * side puts X or O on an empty cell, Order first, so Order is to move iff
 * the number of pieces is even; Order wins as soon as a run of k OR MORE
 * like symbols stands on a row, a column or a diagonal (judged after every
 * move, whoever made it); Chaos wins when the board is full without one.
 * W = the cells (r0 + i, c0 + j), 0 <= i, j < m, with k <= m < n; O = the
 * other n*n - m*m cells. For a position Q, Q|W is W's content read as an
 * m x m position (small cell (i, j) = big cell (r0 + i, c0 + j)), and the
 * small game at Q|W is G(m, k) from Q|W, its side to move given by Q|W's
 * own piece count. e(Q) = the empty cells of Q in O.
 *
 * Fact 1 (a small line is a big line). W's rows, columns and diagonals are
 * runs of consecutive cells of the big board's rows, columns and diagonals
 * (a translation keeps directions and neighbours). So a run of >= k like S
 * in Q|W is >= k consecutive cells, all S, of a big line: it lies in a
 * maximal run of S of length >= k, which under original is a win.
 *
 * The lemma. Rules original; P an ongoing position of G(n, k) (either side
 * to move) with
 *   (a) e(P) even;
 *   (b) P's side to move the small game's at P|W (pieces(P) and pieces(P|W)
 *       of one parity);
 *   (c) the small game at P|W an Order win (with its side to move).
 * Then Order wins P. ((b) is not implied: pieces(P) = pieces(P|W) + (n*n -
 * m*m - e(P)), so with (a) it holds iff n and m have one parity. The check
 * looks at both counts rather than argue that.)
 *
 * Proof. Order's strategy: after a Chaos move on a cell of O, any symbol on
 * any empty cell of O; otherwise (Order's first move, or after a Chaos move
 * in W) a move in W to an Order-win child of the small game. Invariant, at
 * every position Q of a game with that strategy that has not ended:
 *   (J1) the small game at Q|W is an Order win;
 *   (J2) either AGREE: Q's side to move is the small game's and e(Q) is
 *        even; or AFTER: Order is to move in Q, Chaos in the small game,
 *        and e(Q) is odd (just after a Chaos move in O).
 * At P: (c), and AGREE by (a), (b). Take Q ongoing with J1, J2:
 *   1. AGREE, Order to move: the small game has Order to move and is an
 *      Order win. Q|W has no line (Fact 1: Q would have one) and is not
 *      full (a full Q|W without a line is a Chaos win of the small game),
 *      so it has a move to an Order-win child, which Order plays: the
 *      small game goes to an Order win with Chaos to move, Q to Chaos to
 *      move, e unchanged: AGREE, J1.
 *   2. AGREE, Chaos to move (in both). Chaos in W: every child of a
 *      Chaos-to-move Order win is an Order win, now with Order to move in
 *      both, e unchanged: AGREE, J1. Chaos in O: there was an empty cell
 *      in O, so e was even and >= 2, now odd and >= 1; W is unchanged
 *      (the small game still Chaos to move), Q has Order to move: AFTER, J1.
 *   3. AFTER: e >= 1, so Order can play in O; then e is even, Q and the
 *      small game both Chaos to move, W unchanged: AGREE, J1.
 * A move that makes a line anywhere ends the game with Order's win (under
 * original a run of >= k of either symbol is Order's, whoever made it, so
 * Chaos's moves and Order's own moves in O can only end the game that
 * way). Chaos wins only on a full board without a line; there, Q|W is full
 * and, by Fact 1, without a line: a Chaos win of the small game, against
 * J1, which every move keeps. The game is finite, so Order wins. QED.
 *
 * Symmetry. FILE's root may be any of the 16 images of W's content under
 * the m x m board's symmetries (8 of the square, times swapping X and O),
 * as a see line's root may: each maps the m x m board onto itself, lines
 * onto lines (runs of like symbols onto runs of like symbols, of the same
 * length) and keeps the piece count, so the small game's value, and its
 * side to move, are the same at every image: (c) follows from FILE at
 * any. No strategy is carried across by the check, which needs only the
 * value. The conditions are checked on the line's position as written,
 * with its window as written; the proof may reach an image of it under
 * the big board's 16 symmetries, which keep G(n, k), so Order wins there
 * too.
 *
 * Why not under exact or exact-end (refused): Fact 1 fails. A run of
 * exactly k like S in W may be continued by S on the cells of O just
 * beyond W's edge into a run of k+1, which does not count: Chaos's moves
 * in O (or Order's own answers there) can spoil every small-game line.
 * tests/test_verify_subboard.c keeps a position where the lemma's
 * conditions hold under exact and Chaos wins (brute force).
 *
 * What FILE is asked (verify.h, see lines): the game m x m with the same k
 * and rules original, winner order, no horizon, its root W's content up to
 * the m x m symmetries; checked on its own, within the same reading
 * limits, nested one level deeper under SEE_MAX_DEPTH (a cycle of files
 * proves nothing), each file once per verification, on threads alike.
 */
#ifndef OCS_VERIFY_SUBBOARD_H
#define OCS_VERIFY_SUBBOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verify_rules.h"

/* The window of a 'lemma subboard' line: its top-left cell (row r0, column
 * c0, from the top-left of the board) and its side m. */
typedef struct {
    int r0, c0, m;
} VrWindow;

/* The sub-board lemma's conditions on the big position cells of game g
 * (above), all but the small game's value, which the caller checks by
 * FILE: the claim is Order; the rules original; the window inside the
 * board, smaller than it, at least 4 (the smallest certificate board)
 * and at least k wide; an even number of empty cells outside it; its own
 * piece count of the position's parity. 1: they hold, and small gets the
 * window, small[i * m + j] = cells[(r0 + i) * n + c0 + j]. 0: one fails;
 * why gets one line, e.g. "7 empty cells outside the window b2-g7 (the
 * lemma needs an even number)". */
int vr_subboard_conditions(const VrGame *g, bool claim_order, const uint8_t *cells, VrWindow w, uint8_t *small,
                           char *why, size_t why_len);

#endif
