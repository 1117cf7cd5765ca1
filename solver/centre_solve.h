/* centre_solve.h - the centre lemma on 7x7 and 8x8 boards (k = n-1, rules
 * original or exact), where its small game (m x m with k = m, m = 5 or 6)
 * has no table: the small game at the centre is decided by a solve of its
 * own, and the big position's certificate is one line naming the small
 * game's certificate, 'POSITION lemma centre see FILE'
 * (verify/verify_centre.h, the see form; the verifier checks both files).
 * Why a small-game win is a big-game win, for every n: centre.h, "Every n".
 *
 * Invariants: the big report says Order only when centre_small_game
 * accepted the position (every pair empty or mixed, the small game
 * ongoing) and the small game's solve decided an Order win, which is
 * exact whatever the limits (solve.h); any other outcome leaves its value
 * WINNER_NONE, and the caller searches the big position itself. The small
 * solve runs under the caller's spec (limits, table, threads, tuning),
 * with its certificate, if any, written to spec->proof; it keeps no
 * checkpoint and computes no distance to win (the small game's distance
 * is not the big game's).
 */
#ifndef OCS_CENTRE_SOLVE_H
#define OCS_CENTRE_SOLVE_H

#include "solve.h"

/* Does the route apply to b under r (centre_small_game)? */
bool centre_solve_applies(const Rules *r, Board b);

/* Solves the small game at b's centre: *small gets its report (moves and
 * figures in the small board's frame), *big the big position's: value
 * Order when the small game is an Order win (the best move, for Order to
 * move, the small game's winning move carried to the big board), else
 * WINNER_NONE; nodes and seconds the small solve's. 0, or -1 with err set
 * when the route does not apply or the solve could not start. */
int centre_solve_run(const Rules *r, Board b, const SolveSpec *spec, SolveReport *big, SolveReport *small, char *err,
                     int errlen);

/* Writes b's certificate (ocproof 2, winner order): the header and the one
 * line 'POSITION lemma centre see SMALL' (SMALL: the small game's
 * certificate, relative to this file's folder). 0, or -1 on a write
 * error; st gets its figures. */
int centre_solve_write(FILE *f, const Rules *r, Board b, const char *small, ProofStats *st);

#endif
