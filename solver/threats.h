/* threats.h - Order's forcing sequences (VCF, threat-space search): a
 * static Order win found by a small AND/OR search in which Order only
 * makes fours and Chaos only answers them.
 *
 * The search, from a position with Order to move (rules original or
 * exact; under exact-end it claims nothing, below):
 *   - Order node: if Order can complete a line (a four stands), Order wins
 *     in 1 ply. Otherwise Order's moves are restricted to the moves that
 *     make a four: (c, S) with c in maker[S] of the window scan (knowledge.h:
 *     with no four on the board, exactly the moves that leave one).
 *   - Chaos node (after such a move): kn_node classifies it (under original
 *     and exact an equal computation from the windows through the
 *     four-maker's cell and Chaos's few candidates stands in for it:
 *     threats_chaos_node, below). Decided for
 *     Order (no safe move: zugzwang) in kn_node's dtw plies; else Chaos's
 *     moves are ALL the moves kn_node lists: the safe moves of both symbols
 *     and the tempo representative when it is listed. Every one must lead to
 *     an Order node the search wins.
 *   - Bounds: plies (the distance claimed never passes it) and a node
 *     budget (positions looked at); a bound reached is "no claim".
 * The plies returned are the proof tree's depth: p(Order node) = 1 + p of
 * the chosen Chaos node, p(Chaos node) = kn_node's dtw when it decides,
 * else 1 + the greatest p of its listed moves' children.
 *
 * Claim: when the search says "Order wins in p plies" the position is an
 * Order win with distance to win (Order hurrying, Chaos delaying, as
 * tests/brute.h defines it) at most p.
 * Proof, by induction on the proof tree. Order node: a four completed is a
 * line at once (p = 1); otherwise Order plays the chosen move, and the game
 * is decided by the Chaos node after it. Restricting Order's moves only
 * removes Order's options, so a win found over the restricted set is a win.
 * Chaos node: decided by kn_node, it is a win within dtw plies (knowledge.h's
 * argument: no safe move, Chaos loses in 1 or 2 plies). Open: Chaos's moves
 * fall into three kinds. (a) A move kn_node does not list and that is not on
 * a dead cell is unsafe (knowledge.h: the safe moves are computed exactly:
 * with a four on the board by playing each candidate, so under exact the
 * defences that overshoot a four are among them): it completes a line
 * (dtw 1) or leaves Order a four (dtw 2). (b) A listed move leads to an
 * Order node won within p_child plies (induction): dtw <= 1 + p_child.
 * (c) A move on a dead cell: a dead cell lies in no live window and on no
 * live window's end, so a piece there changes no line that can still be won;
 * every dead-cell move (either symbol, any dead cell) leads to a position
 * of the same table key (knowledge.h) and so of the same value and distance;
 * kn_node lists the representative (X on the lowest dead cell) exactly
 * when that move is safe, and then the search has searched it, so (b)
 * covers all of them; when it is not listed it is unsafe and (a) covers
 * all of them. (In this search a Chaos node always has a four on the board,
 * which no dead-cell move spoils, so the representative is never listed;
 * the argument does not need that.) Every listed move's child has p_child
 * >= 1, so 1 + max p_child >= 2 covers the unsafe moves too. Hence the
 * Chaos node's dtw <= p, and the Order node's <= 1 + p(Chaos node). QED.
 * Under original and exact lines are judged after every move, which the
 * fours and kn_node's safe moves assume. Under exact-end nothing is won
 * before the board is full: no four is ever "completed", kn_node has no
 * safe-move logic but for the last two cells and kn_secured, and the
 * search would be a full search of the end of the game. So under exact-end
 * threats_win always answers no (which claims nothing, and is sound).
 *
 * The search is a function of the position and its arguments alone (its
 * failure memo lives for one search; cells in ascending order, a fixed
 * tie-break). The memo records an Order node that failed at bound L, which
 * is a failure at every bound up to L (a proof within L' <= L is one within
 * L, and the search at L tries every candidate); one whose search met no
 * bound at all (nothing cut off) fails at every bound, and when the root's
 * search cut nothing off the deepening stops: a larger bound would search
 * the same tree. Failures caused by the budget are never recorded.
 *
 * Where df-pn uses it: the df-pn kernel (dfpn_kernel.h): the full bound
 * where a search expands an Order node (the bounded search: no more than
 * the node's question, so that the plies returned answer it:
 * dfpn_depth.h), and in the value search a 3-ply bound at every
 * Order-to-move child it generates and the full bound at its root.
 * Certificates, the value's and the bounded's, take its moves
 * (threats_move), so the verifier needs nothing new.
 *
 * Measured worth (results/solve/threats.md; one thread, original rules; the
 * node counts are exact, the seconds from a machine loaded by a 2-worker
 * job): the 13 hard positions of bench/speedup-positions.txt, 38.6 M nodes
 * and 184.5 s with --threats-depth 0, 15.2 M nodes and 71.2 s with it (2.6x
 * faster); the bench signatures (node totals) full 2.82 M -> 1.24 M, quick
 * 72.7 K -> 20.3 K, opening tier 52.8 M -> 27.3 M.
 */
#ifndef OCS_THREATS_H
#define OCS_THREATS_H

#include "knowledge.h"

/* Defaults: the plies bound (Knowledge.threat_plies) and the node budget
 * per search (Knowledge.threat_nodes); measured in results/solve/threats.md. */
enum { THREATS_DEFAULT_PLIES = 21, THREATS_DEFAULT_NODES = 5000 };

/* The short bound df-pn uses at every child it generates (dfpn_kernel.h): a four
 * after which Chaos has no safe move. */
enum { THREATS_CHILD_PLIES = 3 };

/* A search's count of the threat searches it asked: how many, how many
 * won, and the positions they looked at. */
typedef struct {
    uint64_t calls, wins, spent;
} ThreatStats;

typedef struct {
    Move move;      /* Order's first move (of the proof found) */
    int plies;      /* Order wins within this many plies (an upper bound on dtw) */
    uint32_t nodes; /* positions looked at (also when no win is found) */
} ThreatWin;

/* Can a threat search find anything at a position kn_node left open with
 * Order to move (switched on, rules original or exact, fours knowledge on,
 * and Order has a four-making move: maker, KnNode.maker)? The cheap gate
 * callers ask first. */
static inline bool threats_may(const Rules *r, const Knowledge *kn, const uint64_t maker[2])
{
    return kn->threat_plies > 0 && kn->threats && r->rules != RULES_EXACT_END && (maker[0] | maker[1]) != 0;
}

/* Does Order (to move at the ongoing position b) win by a forcing sequence
 * within plies plies, looking at no more than nodes positions? Iterative
 * deepening over the odd bounds 3, 5, ..., plies (an Order node's distance
 * to win is odd: dfpn_depth.h), with one budget for all, stopping early
 * when a bound cut nothing off. maker: b's four-makers when kn_node has
 * left b open (KnNode.maker: no four stands), which spares a scan; NULL:
 * any ongoing b. True: out gets the first move and the plies; out->nodes
 * is set either way. */
bool threats_win(const Rules *r, const Knowledge *kn, Board b, const uint64_t *maker, int plies, uint32_t nodes,
                 ThreatWin *out);

/* kn_node's view (the moves it lists, and whether it decides for Order)
 * of the Chaos node after Order's four-maker m at b (Order to move, no
 * four on b): under original computed from the windows through two cells,
 * under exact from the windows through the four-maker's cell and through
 * each move that spoils every four (threats.c argues both;
 * tests/test_threats.c holds them against kn_node), else kn_node itself. A
 * zugzwang's dtw may be given as 2 where kn_node says 1: an upper bound,
 * which is all the search claims.
 * Measured worth of the exact one (with knowledge.c four_spoilers, the
 * same nodes): X a1 X c1 under exact, 1.5 M nodes on one thread, idle,
 * 58.4 s -> 16.1 s, of which about 3.5 s is the centre table's build. */
void threats_chaos_node(const Rules *r, const Knowledge *kn, Board b, Move m, KnNode *out);

/* The positions threats_move may look at, at each bound: far past what a
 * search inside df-pn is given; only a pathological position reaches it. */
enum { THREATS_MOVE_NODES = 1 << 20 };

/* For a certificate writer at a position b that a threat search won, or
 * that lies in the proof of one (an Order node of it): Order's move there.
 * Each odd bound L = 1, 3, ..., plies is searched afresh with a budget of
 * THREATS_MOVE_NODES. Why that finds one: a proof found within bound L_A at
 * an ancestor A holds, at b (depth 2j in it), a proof of the same kind
 * within L_A - 2j; a search with no budget decides exactly whether such a
 * proof exists within its bound (it tries every four-maker at Order nodes
 * and every listed move at Chaos nodes, down to the bound, and its failure
 * memo only records failures: threats.c), so this one wins at that bound
 * at the latest, unless the budget stops it first (then false: the writer
 * asks df-pn instead, which costs time only). True: out as for
 * threats_win. maker: as for threats_win (kn_node left b open, so no four
 * stands and bound 1 is skipped: it can only fail), or NULL. Measured: the
 * two scans it spares were about a tenth of a job certificate's writing
 * (results/jobs/cert-share.md). */
bool threats_move(const Rules *r, const Knowledge *kn, Board b, const uint64_t *maker, int plies, ThreatWin *out);

#endif
