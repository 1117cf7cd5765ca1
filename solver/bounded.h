/* bounded.h - the bounded question W(b, d), "does Order force a line
 * within d plies from b?" (dfpn_depth.h): its normal form, and the answers
 * near the leaves that need no node of their own. The depth-bounded df-pn
 * asks these through the shared kernel (dfpn_kernel.h); the parity facts
 * they rest on are argued in dfpn_depth.h, each shortcut beside its code
 * (here and in bounded.c).
 *
 * Invariants: every function here is a function of the rules, the
 * knowledge and the position alone (no table, no search state); an answer
 * it gives is the one a full search of the question would give, with the
 * same proof depth for a yes.
 */
#ifndef OCS_BOUNDED_H
#define OCS_BOUNDED_H

#include "knowledge.h"

static inline int bounded_empties(const Rules *r, Board b) { return __builtin_popcountll(r->cells & ~board_occupied(b)); }

/* The question W(b, d) at an open position (kn_node left it undecided),
 * replaced by the equivalent one of dfpn_depth.h's parity argument; -1
 * when the answer is no without search. Idempotent, and non-decreasing in
 * d. */
static inline int bounded_question(const Rules *r, const Knowledge *kn, Board b, int d)
{
    int e = bounded_empties(r, b);
    if (d > e) d = e; /* the game lasts at most e more plies */
    if (r->rules == RULES_EXACT_END) return d < e ? -1 : d;
    bool order = board_order_to_move(b);
    if (order) d -= !(d & 1);      /* odd dtw only */
    else if (d >= 2) d -= d & 1;   /* 1 or even */
    int least = !kn->threats ? 1 : order ? 3 : 4;
    return d < least ? -1 : d;
}

/* The least distance to win an open node can have (bounded_question's parity
 * and fours bounds; under exact-end, the empty cells). */
static inline int bounded_least_dtw(const Rules *r, const Knowledge *kn, Board b)
{
    if (r->rules == RULES_EXACT_END) return bounded_empties(r, b);
    return !kn->threats ? 1 : board_order_to_move(b) ? 3 : 4;
}

/* Are Order's 3-ply questions decided statically (bounded_wins_in_3)? With the
 * fours knowledge on, under a four-based rule set (original, exact). */
static inline bool bounded_leaf3(const Rules *r, const Knowledge *kn) { return kn->threats && r->rules != RULES_EXACT_END; }

/* The q = 4 nodes: Chaos to move at an open position asked "within 4
 * plies?". Each child is asked 3 plies with Order to move, and every such
 * question is decided without a node (the rules, kn_node, bounded_question's
 * bounds, or bounded_wins_in_3), so one expansion decides the node (it stops at
 * the first child that is no): its numbers are never stored, so they are
 * not looked for, and a pairing (which would only say no, a fact the
 * expansion finds too) is not worth its test there. Neither changes an
 * answer: numbers only steer, and a skipped pairing costs work only. */
static inline bool bounded_leaf4(const Rules *r, const Knowledge *kn, Board b, int q)
{
    return q == 4 && !board_order_to_move(b) && bounded_leaf3(r, kn);
}

/* Does Order (to move at the open b, kn its kn_node; bounded_leaf3) win within
 * 3 plies? *depth gets the depth of the win found. */
bool bounded_wins_in_3(const Rules *r, const Knowledge *kn, Board b, const KnNode *node, int *depth);

/* Order's moves at a 5-ply question (Order to move at the open b, kn its
 * kn_node) that are no at 4 plies without a look: skip[S] gets the cells c
 * where (c, S) is such a move (bounded.c argues it; original only, else
 * none). */
void bounded_quiet_moves(const Rules *r, const Knowledge *kn, Board b, const KnNode *node, uint64_t skip[2]);

#endif
