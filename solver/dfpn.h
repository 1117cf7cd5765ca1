/* dfpn.h - depth-first proof-number search (Nagai), Order the OR player.
 *
 * Proof number pn: how many leaves must still be proven for an Order win;
 * disproof number dn: likewise for a Chaos win. pn = 0 is a proof,
 * dn = 0 a disproof; both are exact facts, everything else is a guess.
 * Thresholds follow the 1+epsilon trick (Pawlewicz & Lew): the best child
 * is searched until it is worse than (1+eps) times the second best, which
 * stops the search from thrashing between two siblings. The expansion,
 * the children's evaluation and the choice are the df-pn kernel's
 * (dfpn_kernel.h), which the bounded search (dfpn_depth.h) shares; this
 * search owns its loop (mid), its threads and its certificate moves.
 *
 * Measured (results/solve/heuristics.md): the 1+eps trick saves 1.4x nodes, the
 * mobility-based initial numbers 3.7x, on the solve suite. eps = 0.5 (the
 * default) takes 15% fewer nodes than 0.25 on positions of 0.1-8 M nodes,
 * on the set it was chosen on and on a held-out one alike
 * (results/solve/epsilon.md); eps = 1 takes about twice the nodes of 0.5.
 * Children of equal numbers are tried nearest the centre first (X cells,
 * then O cells; DfpnConfig.center_first, the default since 2026-12-04):
 * with Order's forcing sequences on, it takes 8 % fewer nodes than cell
 * order on the four hardest replies to X c3 (33.7 M against 36.7 M, the
 * same seconds; results/solve/threats.md), and 0.89x on the solve suite.
 * Move order changes work only, never a value.
 *
 * Parallel search (threads > 1), after Kaneko's parallel df-pn: every
 * thread runs the same search from the root over one shared table, so a
 * number one thread stores steers the others when they reach that position,
 * and a proof found by one is used by all. To make threads spread out, a
 * thread entering a position marks it busy (a count in its table bucket,
 * tt_busy_add), and a thread whose best child is busy chooses as if that child's
 * phi number were one higher per thread inside it (a "virtual" number, used
 * only to choose, never stored or returned). Before descending, a frame
 * re-reads the chosen child's entry and takes a proof or disproof another
 * thread has found there. Only proofs and disproofs are facts, they come from the
 * same exact rules in every thread, and the table never lets a guess
 * overwrite one; so the value found cannot depend on the thread count, only
 * node counts and timing can. Measured speedups: results/solve/speedup.csv.
 *
 * Soundness: the table returns a record only for an exactly equal key, and
 * keys are equal only for positions of equal value (knowledge.h); a lost
 * record costs work only. Proofs are never inferred from a hash alone.
 */
#ifndef OCS_DFPN_H
#define OCS_DFPN_H

#include "dfpn_search.h" /* DfpnConfig, Dfpn: one searcher */
#include "dfpn_team.h"   /* the team helpers join (jobs/) */

DfpnConfig dfpn_default_config(void);

void dfpn_init(Dfpn *d, const Rules *r, const DfpnConfig *cfg, TT *tt);

/* Decides b (any status). Returns WINNER_NONE when a limit stopped it;
 * *pn and *dn get the root's numbers. */
Winner dfpn_solve(Dfpn *d, Board b, uint32_t *pn, uint32_t *dn);

/* For a decided, ongoing position with the winner to move: a winning move
 * (searching again where the table has lost it). MOVE_NONE if the search
 * was stopped by a limit. Asked in turn, first answer taken (counted in
 * d->moves): for Order, the threat search and the side table of proven
 * moves (d->wins: wintab.h, b itself or a geometric image of it); the move
 * stored with b's entry; a child the table knows to win; a search of b
 * (on d->scratch when set). Only the search again writes to a table, and
 * with d->scratch not to d's: the kernel's view used here stores no
 * pairing (DfpnKernel.read_only), and a one-level table's probes write
 * nothing, so certifying leaves d's table as the search left it (a
 * two-level table's probes may copy a record from the big level to the
 * hot one, as any probe does: tt.h). */
Move dfpn_winning_move(Dfpn *d, Board b, Winner winner);

#endif
