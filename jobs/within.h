/* within.h - the bounded mode of the job-level search (jobs.h, Bounded
 * mode; internal to jobs/): the question a top-tree node asks, what
 * decides it without a job, the store's bound records, and the
 * certificates. The top tree itself (top_tree.c), the selection, the
 * budgets and the workers are the value search's, unchanged; the tree
 * calls what is here with positions and questions, and nothing here
 * knows the tree's nodes (one direction: top_tree.c -> within).
 *
 * The question. A node of position b asks W(b, d), "does Order force a
 * line within d plies?" (solver/dfpn_depth.h), with d = top_question: the
 * root's plies less the plies from the root, which is fixed by the piece
 * count, so every node of one position (twins) asks the same question and
 * a decision of one is a decision of all. Its value: yes is played by
 * WINNER_ORDER (pn 0), no by WINNER_CHAOS (dn 0), so top_tree.c's backup
 * is the bounded question's own recursion: W(b, d) at an ongoing b with
 * d >= 1 is yes iff some child (Order to move) or every child (Chaos to
 * move) has W(c, d - 1), and every legal move is a child (symmetric ones
 * merged: symmetries and the X/O swap keep every line, so equal answers).
 *
 * Decided without a job (within_static), each a fact of the game:
 *   - a line stands (Order has won): yes, depth 0 (dtw = 0 <= d, d >= 0
 *     for every node: the parent of a node asks d + 1 >= 1);
 *   - a full board without one (Chaos has won): no;
 *   - an ongoing position with no question left in its normal form
 *     (within_question: d <= 0; under exact-end fewer plies than empty
 *     cells, since a line counts only on the full board): no;
 *   - no line can stand within d plies whatever either side plays
 *     (proof_fewest_to_line > d: every window still live for a symbol has
 *     more than d empty cells; the closing rule verify.h argues): no;
 *   - kn_node's decided positions carry their exact dtw (dfpn_depth.h,
 *     Knowledge): yes within d when dtw <= d, else no; a Chaos win (its
 *     zugzwangs, a pairing, no live window) is no at every d.
 * The centre lemma decides a value, not a distance: it is not used.
 *
 * The normal form (within_question) is dfpn_depth.h's parity argument,
 * a fact of the game: under original and exact an ongoing position with
 * Order to move has an odd dtw, one with Chaos to move dtw 1 or an even
 * one, so W(b, d) = W(b, d') for d' the odd number at or below d (Order
 * to move), the even one for d >= 2 (Chaos to move); under exact-end dtw
 * is the empty cells e or none; and d > e asks what d = e asks. It is
 * used where a bound record is read without certificates (a no at the
 * normal form answers every d of its class) and for the static no above;
 * with certificates a record's no is used only at d or below, since the
 * verifier checks horizons without the parity argument (below).
 *
 * The store (within_lookup, within_put): a job's decision and a node's
 * decided by its children are put as bound records (tables/store.h): a
 * yes as "within p" with p the depth of its proof (<= d), and for an Order
 * node the move to the child that proof follows; a no as "not within d".
 * A new leaf is looked up first: a bound record answers as its meaning
 * allows (yes at p answers d >= p, no at n answers d <= n:
 * store_bound_answer), and so does a value record (store_bound_of_value:
 * a Chaos win is no at every d). With certificates on, a record counts
 * only when its certificate is in the folder and its header says the
 * same (winner, root up to symmetry, and the horizon of a no), as value
 * records do (top_tree.c lookup); an Order win's dtw is not used then
 * (no certificate of its length exists). Static decisions are not put:
 * they are cheaper to make again than to look up.
 *
 * Certificates (within_cert.c), one file per decided position and claim,
 * named jobrun_within_name: "-wP" an Order certificate whose longest game
 * is at most P plies, "-hP" a Chaos certificate with 'horizon P'. A job
 * writes its own (proof_write_within at its proof's depth, or
 * proof_write_not_within at its question). A node decided by its children
 * writes, as top_cert.h's nodes do, the winner's move line where the
 * winner is to move (yes: to the child of least proof depth) and a see
 * line for each child the proof follows, naming that child's file:
 *   - yes: an Order certificate; the verifier computes its longest game
 *     through the see lines' files (verify_subs.h, rest), so the longest
 *     game is at most 1 + the chosen child's depth (Order to move) or 1 +
 *     the deepest child's (Chaos to move): the node's depth, <= d;
 *   - no: 'horizon d'; each child's file has a horizon of at least d - 1,
 *     the plies left where its see line stands, or claims a Chaos win:
 *     what the verifier asks of a see line in a horizon certificate
 *     (verify.h, Horizon certificates).
 * With spec->certs_later (Coordinator.certs_at_end) nothing is written
 * during the run and a stored answer counts without its file; at the end
 * the inner nodes the root's proof follows are composed as above, deepest
 * first (jobs.c certify_below), and a missing child's file is composed
 * from the store's bound records where they cover it, down to the jobs'
 * roots, or else made by a bounded job of its own (within_ensure,
 * within_cert.c); a run resumed from a store that decides its root thus
 * rebuilds the proof its first run found, re-proving job by job. The
 * verifier checks the whole as ever, so nothing here is trusted.
 * A child needs no line where the verifier closes it by itself
 * (within_trivial: a line stands, a full board, Order to move completes a
 * line at once; for a no also no line possible within the plies left).
 * A child decided statically, or whose file is missing, gets one written
 * on a small table of its own (the certificates' mini runner, top_cert.h)
 * by a bounded job with that child's question. The run's certificate
 * (--proof) is the root's, with 'horizon D' for a no; `ocsolve verify
 * --within D [--winner chaos]` checks it, every file it names on its own.
 *
 * Nothing here decides a value but the rules, kn_node, the store's
 * checked records, the jobs and the backup above, as in the value search.
 */
#ifndef OCS_WITHIN_H
#define OCS_WITHIN_H

#include "../solver/dfpn.h"
#include "../tables/store.h"
#include "top_cert.h"

/* W(b, d) at an ongoing b (rules_status WINNER_NONE) replaced by the
 * equivalent question of the normal form (above); -1 when the answer is
 * no without search. Idempotent, non-decreasing in d. */
static inline int within_question(const Rules *r, Board b, int d)
{
    int e = __builtin_popcountll(r->cells & ~board_occupied(b));
    if (d > e) d = e; /* the game lasts at most e more plies */
    if (r->rules == RULES_EXACT_END) return d < e ? -1 : d;
    if (board_order_to_move(b)) d -= !(d & 1); /* odd dtw only */
    else if (d >= 2) d -= d & 1;               /* 1 or even */
    return d < 1 ? -1 : d;
}

/* b's answer to W(b, d) without a job (above), under cfg's knowledge:
 * WINNER_ORDER yes (*depth its proof's depth), WINNER_CHAOS no,
 * WINNER_NONE open (then *pn, *dn are a new leaf's numbers, df-pn's
 * initial ones as for value leaves). */
Winner within_static(const Rules *r, const DfpnConfig *cfg, Board b, int d, uint32_t *pn, uint32_t *dn, int *depth);

/* b's answer to W(b, d) from the store st (above; NULL: none): *w
 * (WINNER_NONE: none), *wdepth as TNode.wdepth (top_tree.h); tc: the
 * run's certificates, whose files a record must have (NULL: certificates
 * off). 0, or -1 with a message (a store error, a certificate that
 * disagrees). */
int within_lookup(Store *st, const TopCert *tc, const Rules *r, Board b, int d, Winner *w, int *wdepth, char *err,
                  int errlen);

/* Puts b, decided w with wdepth (TNode.wdepth), into st (NULL: nothing)
 * as a bound record: yes at wdepth with move (an Order node's move to the
 * child its proof follows, else MOVE_NONE), or no at wdepth, its
 * question. 0, or -1 with a message. */
int within_put(Store *st, const Rules *r, Board b, Winner w, int wdepth, Move move, char *err, int errlen);

/* --- certificates (within_cert.c) --- */

/* Does the verifier close b, claimed w with d plies left, without any line
 * (above)? */
bool within_trivial(const TopCert *tc, Board b, Winner w, int d);

/* The file name of a certificate for b's claim (w, plies: TNode.wdepth's
 * meaning) with d plies left, made if missing: composed from the store's
 * records (tc->store set) or re-proved by a bounded job on the re-proving
 * runner (within_cert.c, which argues the composition); "" when none is
 * needed (within_trivial). 0, or -1 with a message. */
int within_ensure(TopCert *tc, Board b, Winner w, int plies, int d, char name[JOBRUN_NAME_MAX], char *err,
                  int errlen);

/* Before the certificates of a run whose root is decided for w: walk(arg)
 * makes the run's certificates dry (TopCert.plan set: within_node and
 * within_ensure write nothing, and list the positions they would
 * re-prove), and those are re-proved tc->threads at a time
 * (topcert_reprove_within); the real walk then finds their files
 * (within_cert.c). Nothing to do with one thread or without a store. 0,
 * or -1 with a message (walk's own in err when it fails). */
int within_prepare(TopCert *tc, int (*walk)(void *arg), void *arg, Winner w, char *err, int errlen);

/* Does the certificate `name` in the folder claim (w, plies) for b: its
 * header's winner, root (up to symmetry) and horizon (a no: plies, or none
 * when plies is -1)? 1 yes, 0 no (message), -1 no file. */
int within_agrees(const TopCert *tc, Board b, Winner w, int plies, const char *name, char *err, int errlen);

/* Writes the certificate of b, a top-tree node decided w (wdepth as
 * TNode.wdepth) by its children, with d plies left: the winner's move
 * (moves[0]) where the winner is to move, and a see line for each of the
 * nk children kids its proof follows (top_proof_children; kid_wdepth
 * theirs), each child's file made if missing (within_ensure); to `path`
 * with see lines prefixed by prefix, or (path NULL) to its own name in
 * the folder. 0, or -1 with a message. */
int within_node(TopCert *tc, Board b, Winner w, int wdepth, int d, const Board kids[], const Move moves[],
                const int kid_wdepth[], int nk, const char *path, const char *prefix, char *err, int errlen);

/* Writes the run's certificate to `path` for root b decided as a whole
 * (w, plies as TNode.wdepth) with D plies: the header, with 'horizon D'
 * for a no, and b handed by one see line to its own file (none when
 * trivial). 0, or -1 with a message. */
int within_see_root(TopCert *tc, Board b, Winner w, int plies, int D, const char *path, const char *prefix, char *err,
                    int errlen);

#endif
