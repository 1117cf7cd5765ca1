/* dfpn_depth.h - depth-bounded df-pn: "can Order force a line within d
 * plies from b?", and the distance to win by asking it for growing d.
 * Its expansion, child evaluation and choice are the df-pn kernel it
 * shares with the value search (dfpn_kernel.h); what is its own: the
 * question, the facts, and the drivers below.
 *
 * The question W(b, d) is "dtw(b) <= d", with the distance to win exactly
 * as alphabeta.h and tests/brute.h define it: plies until a winning line
 * appears, Order shortening, Chaos lengthening, a Chaos move that completes
 * a line ending the game at that ply, 0 for a position already won. It is
 * an AND/OR question (Order: one child within d-1; Chaos: every child
 * within d-1), so df-pn answers it: a proof is "yes", a disproof "no".
 * Leaves: a position already won is yes at any d >= 0; an ongoing one at
 * d <= 0, or one Chaos has won, is no.
 *
 * Parity (the game, not the search): under original and exact, an ongoing
 * position with Order to move has an odd distance to win (or none).
 * Induction on empty cells: if Order can complete a line now, dtw = 1.
 * Otherwise, after any Order move m (say an X; O is symmetric) Chaos has a
 * move that completes no line: take any empty cell c; if O on c completed
 * a run of k (exactly k) O's, that run holds no X, so it stood, with the
 * same ends, before m too, and Order could have completed it, contrary to
 * the case. A completing Chaos move lasts 1 ply, any other at least 2, so
 * Chaos never completes a line while it has another move: the Chaos node's
 * dtw is 1 + the greatest dtw over its non-completing moves, each of which
 * leaves Order to move (odd by induction, or none): even, and Order's node
 * odd. A Chaos-to-move position therefore has dtw 1 (every move completes
 * a line), an even one, or none. Under exact-end nothing is won before the
 * board is full, so dtw is the number of empty cells e, or none.
 * Hence a question is replaced by an equivalent one (bounded_question):
 * d > e by d = e; under exact-end d < e is no; otherwise at an Order node d
 * by the odd number at or below it, at a Chaos node with d >= 2 by the even
 * one. With the fours knowledge on, an Order node kn_node leaves open has
 * no completing move (dtw >= 3) and a Chaos node it leaves open has a safe
 * move (dtw >= 4: after it Order cannot win at once), so smaller questions
 * are no without search. The distance to win steps through the distinct
 * questions only: 3, 5, 7, ... from an Order-to-move position.
 *
 * Knowledge (knowledge.h) is used exactly as alpha-beta uses it, where
 * alphabeta.h and knowledge.h argue it keeps distances: kn_node's decided
 * positions carry their exact dtw (a four: 1; zugzwang: 1 or 2; secured and
 * frozen positions under exact-end: e); Chaos's unsafe moves (at most 2
 * plies) are skipped when a safe one exists (at least 3); one dead-cell
 * move stands for all (dead cells are pure tempo); a pairing is a Chaos
 * win, so no at every d. The centre lemma is not used: it decides the
 * value, not the distance.
 *
 * Order's forcing sequences (threats.h; original and exact, with the
 * fours knowledge on) give yes facts, never a no. threats_win returns
 * plies p when its proof tree wins (Order only makes fours, Chaos plays
 * every move kn_node lists), and threats.h proves that the position is
 * then an Order win with dtw <= p: p is an upper bound on the distance to
 * win. So at an Order-to-move position asked q (in normal form), a win
 * with p <= q gives dtw <= p <= q: W(b, q) is yes, with p as the proof's
 * depth (dtw <= p <= q, as for every proof here), and "win = p" is a true
 * fact for the table under the plain key (a yes at p holds at every
 * d' >= p, and the key keeps distances). The search asks it where it
 * expands an Order node of question q, before the expansion, within
 * min(q, threat_plies) plies (threat_nodes positions), so p <= q: a win
 * proves the node without children; its fact is stored with no move.
 * (The value search also asks a 3-ply bound at every Order-to-move child
 * it generates; here that cost more than it saved, dfpn_kernel.h.)
 * A failure claims nothing: the threat search restricts Order to fours
 * and stops at its bounds and budget, so nothing is concluded from it and
 * the node is searched as before. Its memo (dfpn_kernel.c) answers a bound
 * L with a remembered win of p <= L, or a failure at L0 >= L; anything it
 * answers with a failure costs work at most. Certificates: at an Order node
 * the search proved this way no child has a fact, so dfpn_depth_proof_move asks
 * threats_move within min(d, threat_plies) plies: a proof it finds within
 * that bound starts with a move whose child is won within p - 1 <= d - 1,
 * what a certificate move within d needs; a node 2j plies inside such a
 * proof holds one of the same kind within the bound less 2j (threats.h),
 * so the writer finds the next moves the same way (and where the budget
 * stops it, it searches, as before).
 *
 * Shortcuts near the leaves (bounded.c argues each beside its code, the
 * 4-ply refutation dfpn_kernel.h; none changes an answer or a proof's
 * depth, and every fact stored is still one a decided subtree gave: only
 * the work changes):
 *   - a 3-ply question with Order to move (fours knowledge on, original or
 *     exact) is decided where its parent meets it, without a node or a
 *     table entry: only Order's four-making moves can win in 3, unless a
 *     symbol has fewer than two non-maker empty cells (a zugzwang may then
 *     follow a quiet move, and every move is tried); under original each
 *     maker is judged from the windows through it, without playing it;
 *   - at a 5-ply question with Order to move (original), Order's quiet
 *     moves (on a cell in no window live for its symbol with three or
 *     fewer empty cells) are no without a look when Chaos has a quiet
 *     reply and Order has no win in 3: the reply leaves Order only
 *     two-empty windows it already had;
 *   - a 4-ply question with Chaos to move is decided by one expansion:
 *     its numbers are neither stored nor looked for, and no pairing is
 *     tried there; its parent first tries its first move statically, and
 *     a child that is no there is no without a node;
 *   - an expansion stops at a child that settles its node: at a Chaos
 *     node a child that is no; at an Order node a child proven at the
 *     least depth the node can have (3, or the empty cells under
 *     exact-end), so the node's proof depth is the one the full expansion
 *     would give.
 *
 * Table (the "distance table", shared with alpha-beta): two kinds of entry
 * (tt.h), never confused:
 *   - facts, depth-bound entries (TTBounds) under the plain key kn_key:
 *     win = a depth at which the answer is yes, nowin = one at which it is
 *     no; alpha-beta's entries exactly (same key, same meaning), so either
 *     search may use the other's. The key maps positions of equal distance
 *     to win together (alphabeta.h: dead cells are tempo, symmetry and the
 *     X/O swap keep every line), so a fact learnt at one holds at all; a
 *     yes at d holds at every d' >= d and a no at d at every d' <= d, which
 *     is how a probe reads them (win <= d': yes; nowin >= d': no), and why
 *     the table may merge them (least win, greatest nowin). A proof stores
 *     win = the depth the proof tree reaches (<= d: Order's fastest proven
 *     child plus one, Chaos's slowest child plus one), a stronger and still
 *     true fact; a disproof stores nowin = d.
 *   - open questions' proof and disproof numbers (TTData) under the key
 *     with d + 1 in row 7 of the O word: row 7 is off the board for n <= 7
 *     and kn_key writes only the X word's row 7 (the dead-cell count), so a
 *     tagged key never equals a plain one, nor one of another d. Numbers
 *     are guesses: they steer the search and decide nothing; decided
 *     questions are stored only as facts. Hence n = 8 (no free bits) is not
 *     supported (dfpn_depth_supported): callers use alpha-beta there.
 * A table hit thus never answers a question its facts do not imply, and a
 * lost entry costs work only.
 *
 * The value search's table (optional, read only): a disproof there is a
 * Chaos win, hence no at every d. Its keys must be kn_key under the same
 * Knowledge, as df-pn's are; its proofs say nothing about depth and are
 * not read.
 *
 * Limits: a stopped search (limits.h) answers -1 and stores nothing that
 * is not a fact: facts come only from decided subtrees, which no limit can
 * make wrong.
 */
#ifndef OCS_DFPN_DEPTH_H
#define OCS_DFPN_DEPTH_H

#include "../tables/tt.h"
#include "knowledge.h"
#include "limits.h"
#include "threats.h"

typedef struct {
    /* settings */
    const Rules *r;
    Knowledge kn;
    TT *tt;          /* the distance table (above) */
    const TT *value; /* a value search's table, for its disproofs; NULL: none */
    double epsilon;  /* the 1+eps threshold trick (dfpn.h); a caller may set it after init */
    bool center_first; /* children of equal numbers nearest the centre first (dfpn.h's
                        * order), else by cell index (init's default: the order every
                        * bounded figure so far was measured with); a caller may set it.
                        * Screen, 2026-12-07 (`solve --within 19 --tt-mb 1024`, X c3's
                        * replies X d4 and X b2, one thread; node counts exact): 4.74 M
                        * -> 4.11 M and 6.58 M -> 5.57 M nodes (0.87x, 0.85x); with
                        * --epsilon 1 as well 15.97 M and 7.40 M, so eps stays 0.5 */
    int cells_first[64]; /* the centre-first order (dfpn_kernel_center_order), made at init */
    SearchLimits lim; /* progress reports: pn and dn are the question's depth */
    /* state */
    uint64_t nodes;
    bool stopped;
    double started, next_report;
    int depth;        /* the question being asked at the root (progress) */
    Board *memo;      /* the kernel's memos (dfpn_kernel.h), during a call; NULL between calls */
    bool in_call;     /* inside a public call (the memos' owner: dfpn_depth.c) */
    uint64_t memo_due; /* take the memos at this node count (UINT64_MAX: not again) */
    ThreatStats threats; /* the threat searches it asked (threats.h) */
    struct {
        uint64_t known, threat, reproved, searched;
    } moves; /* dfpn_depth_proof_move's moves, by the source that gave each (below) */
} DfpnDepth;

/* Can the bounded search run under r? (n <= 7: see the tagged keys.) */
bool dfpn_depth_supported(const Rules *r);

/* kn must be the Knowledge the table's other users (alpha-beta, and the
 * value search behind value) make their keys with. */
void dfpn_depth_init(DfpnDepth *s, const Rules *r, const Knowledge *kn, TT *tt, const TT *value);

/* W(b, d): 1 yes (then *proof_depth, if not NULL, gets the depth of the
 * proof found: Order wins within it, and it is <= d), 0 no, -1 a limit
 * stopped the search. Any position, any d. */
int dfpn_depth_within(DfpnDepth *s, Board b, int d, int *proof_depth);

/* dfpn_depth_within with one change of order: when the search is still
 * open after `after` nodes (0: never) and no other limit stopped it, it
 * goes on in the other order (s->center_first flipped, and left so for the
 * writer), on the same table. Why: one order may be far better for one
 * position and worse for the rest. Within 19 after X c3, O f6 was open at
 * 720 M nodes in cell order and proved in 110 M centre-first, while X d4's
 * certificate in centre-first order was over twice as big as in cell
 * order (results/dtw/dtw.md). Sound for the reason any order is: an order
 * decides only which of equal children is tried first, and every stored
 * number is a bound or an estimate whatever the order that stored it. */
int dfpn_depth_within_switch(DfpnDepth *s, Board b, int d, int *proof_depth, uint64_t after);

/* The distance to win, as ab_dtw returns it: >= 0 for an Order win (0:
 * already won), -1 for a Chaos win, -2 when a limit stopped the search.
 * Asks the distinct questions (above) in increasing order; the first yes
 * is the answer. */
int dfpn_depth_dtw(DfpnDepth *s, Board b);

/* With Chaos to move in an Order win of distance dtw (>= 1): the move that
 * resists longest, the first in ab_best_move's order (cells ascending, X
 * before O) whose child is not within dtw - 2 (its dtw is then dtw - 1, the
 * greatest possible); so the same move ab_best_move returns. With Order to
 * move: the first move in that order whose child is within dtw - 1.
 * MOVE_NONE when a limit stopped it or none qualifies. */
Move dfpn_depth_best_move(DfpnDepth *s, Board b, int dtw);

/* With Order to move in a position s answered W(b, d) yes: a move whose
 * child is within d - 1 (for a certificate, proof.h). The first child the
 * table or the knowledge already answers yes without search, else the
 * first move of Order's forcing sequence within d (where the search proved
 * b by one: above), else the move of a new proof of b from its children
 * (df-pn's most promising child first: where the children's facts were
 * lost, or b was never searched), else dfpn_depth_best_move's. MOVE_NONE
 * when a limit stopped it or none qualifies. s->moves counts the sources.
 *
 * Measured (2026-12-07, `solve --within 19 --tt-mb 1024 --threads 1
 * --proof F - Xc3 Xd3`, one core; the other ran the old build): with the new proof
 * before dfpn_depth_best_move the run took 47 s and 7.87 M nodes in all,
 * the search's ~7.8 M and the writer's next to nothing, for a certificate
 * of 4.5 MB that verifies within 19. Without it (children in cell order,
 * each "no" before the first "yes" disproved by a search of its own) the
 * writer was still at work after 15 minutes, at 23 MB: its first yes
 * child is no fastest win either, so its certificate is bigger too. */
Move dfpn_depth_proof_move(DfpnDepth *s, Board b, int d);

/* With Chaos to move in a position s answered W(b, d) no: a move whose
 * child is no within d - 1 (a horizon certificate's, proof.h), found by
 * disproving b again from its children (as dfpn_depth_proof_move's new
 * proof: df-pn's most promising child first), counted in
 * s->moves.reproved. MOVE_NONE when a limit stopped it, the position is
 * not Chaos's to move, or the disproof left no child's fact. */
Move dfpn_depth_disproof_move(DfpnDepth *s, Board b, int d);

#endif
