/* subboard_solve.h - the sub-board lemma (rules original): a position is
 * decided by an m x m window of it, played as a game of its own with the
 * same k, decided by a solve of its own; the big position's certificate is
 * one line naming the window's, 'POSITION lemma subboard CELL M see FILE'
 * (verify/verify_subboard.h; the verifier checks both files).
 *
 * The lemma. Rules original (k or more like symbols in a line win, judged
 * after every move). Let W be an m x m window of the n x n board, k <= m
 * < n, and P an ongoing position such that (a) the empty cells outside W
 * are even in number, (b) P's side to move is that of W's content as a
 * position of the m x m board (their piece counts have one parity), and
 * (c) Order wins the m x m game with k from W's content. Then Order wins
 * P.
 * Proof. Order plays a winning strategy of the window's game inside W, and
 * answers every Chaos move outside W with a move outside W (any symbol).
 * The empty cells outside W are even at every turn where both games have
 * the same side to move; a Chaos move outside leaves an odd number, so at
 * least one for Order's answer, which makes it even again with W unchanged.
 * So the moves inside W alternate as a game of the m x m board in which
 * Order follows its winning strategy: that game never reaches a full W
 * without a line. A line of k or more like symbols inside W is k or more
 * consecutive like symbols of a line of the big board, which under
 * original wins whatever stands beyond W's edge; and any line made
 * elsewhere first (by a Chaos move, or Order's own answers outside W) is
 * Order's win too. Chaos wins only on a full board, where W would be full
 * without a line, so Order wins. Step by step, with the invariant:
 * verify/verify_subboard.h.
 * Why only original: under exact and exact-end a run of exactly k inside
 * W is spoilt by a like symbol just beyond W's edge (a run of k+1 does not
 * count); tests/test_verify_subboard.c keeps a position where the window
 * wins under exact and the position does not.
 *
 * The route: for an ongoing position under original, the windows where
 * (a) and (b) hold and the window's game is ongoing, k <= m < n, m >= 4
 * (the smallest board), are tried largest first and, of one size, the one
 * nearest the centre first, at most SUBBOARD_MAX_TRIES of them; each is
 * solved under the caller's spec. The first whose game is an Order win
 * decides the position. The route is modest: it looks for no clever
 * window, and it is meant for the empty board (whose windows are all
 * empty: 8x8 k=5 by its 6x6 window, which the centre lemma decides) and
 * for positions whose window the search decides quickly.
 *
 * Invariants: the big report says Order only when the window met (a), (b),
 * was ongoing, and its solve decided an Order win (exact whatever the
 * limits: solve.h); anything else leaves the value WINNER_NONE. The small
 * solve keeps no checkpoint and computes no distance to win (the window's
 * is not the position's).
 */
#ifndef OCS_SUBBOARD_SOLVE_H
#define OCS_SUBBOARD_SOLVE_H

#include "solve.h"

/* A window: the m x m square whose top-left cell is row r0, column c0. */
typedef struct {
    int r0, c0, m;
} SubboardWindow;

/* At most this many windows are solved for one position. */
enum { SUBBOARD_MAX_TRIES = 4 };

/* The windows of b where the lemma may apply under r (above), in the order
 * they are to be tried, at most max of them into out: their number (0
 * when the rules are not original, the position has ended, or none). */
int subboard_windows(const Rules *r, Board b, SubboardWindow *out, int max);

/* The window's game: sr the m x m board with r's k, rules original; sb
 * the window's content moved to the top-left corner. */
void subboard_small_game(const Rules *r, Board b, SubboardWindow w, Rules *sr, Board *sb);

/* Solves window w of b (one of subboard_windows'): *small gets its report
 * (in the window's frame), *big the position's: Order when the window's
 * game is an Order win (the best move, for Order to move, the window's
 * winning move carried to the board), else WINNER_NONE; nodes and seconds
 * the small solve's. 0, or -1 with err set when the solve could not start. */
int subboard_solve_run(const Rules *r, Board b, SubboardWindow w, const SolveSpec *spec, SolveReport *big,
                       SolveReport *small, char *err, int errlen);

/* The window's cells as "b2-g7". */
void subboard_window_name(SubboardWindow w, char out[8]);

/* Writes b's certificate (ocproof 2, winner order): the header and the one
 * line 'POSITION lemma subboard CELL M see SMALL' (SMALL: the window's
 * certificate, relative to this file's folder). 0, or -1 on a write
 * error; st gets its figures. */
int subboard_solve_write(FILE *f, const Rules *r, Board b, SubboardWindow w, const char *small, ProofStats *st);

#endif
