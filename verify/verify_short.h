/* verify_short.h - the plies the check searches itself instead of
 * reading them from the certificate (verify.h: Horizon certificates, and
 * Order's win within three plies). Internal to the verifier; the game is
 * judged only by verify_rules.* (vr_status_after, vr_wins_at_once, which
 * the test suite checks against trying every move), and every move of
 * both sides is tried, cells in order, X before O.
 *
 * Invariants: each function leaves v->cells as it found it (every cell it
 * fills it empties again); x and o are always the masks of v->cells in
 * geometry 0 (the cells' own frame).
 */
#ifndef OCS_VERIFY_SHORT_H
#define OCS_VERIFY_SHORT_H

#include <stdbool.h>
#include <stdint.h>

#include "verify_cert.h"

/* The most plies a horizon certificate's Chaos node may leave to the
 * check (h <= 4: the writer, solver/proof.c, leaves out no more). */
enum { VR_SHORT_HORIZON = 4 };

/* In a horizon certificate, Chaos to move at v->cells (ongoing; x and o
 * its masks, `empty` empty cells) with h <= VR_SHORT_HORIZON plies left
 * and no line for it: does some Chaos move complete no line and leave
 * Order unable to complete one within h - 1 plies? A move that fills the
 * board without a line ends the game (Chaos has won). Order to move with
 * h plies left fails when none of its moves completes a line, nor leads
 * to one within the plies after them; at h = 1, when none completes one
 * at once. This is exactly S(P, h) of verify.h's argument, by its own
 * induction, so the certificate need not name Chaos's moves there. */
bool vr_chaos_holds(Verifier *v, uint64_t x, uint64_t o, int empty, int h);

/* In an Order certificate, Order to move at v->cells (ongoing, `empty`
 * empty cells, no immediate win) and no line for it: does Order win
 * within three plies? Some move that completes no line and after which
 * every Chaos reply completes a line or leaves one that Order completes
 * at once. Then the game ends within three plies whatever Chaos plays
 * (*rest: the fewest empty cells it can end with), and the certificate
 * need not name the move. */
bool vr_order_move_found(Verifier *v, int empty, int *rest);

#endif
