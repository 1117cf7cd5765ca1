/* top_tree.h - the job-level search's top tree (internal to jobs/): the
 * nodes (top_node.h), the position map that ties transpositions together, and what the
 * coordinator (jobs.c) does to the tree: create the root, expand a leaf,
 * select the most-proving leaf, apply a job's outcome and propagate.
 *
 * Invariants (argued in top_tree.c and top_sibling.c): a node is decided
 * exactly when pn or dn is 0, and a decision comes only from the rules,
 * the store, a job, its children or a sibling's winning move (never from
 * a guess); an inner node's numbers are those of its children
 * (recompute); every node of one canonical position is on one
 * twin chain, so a decision reaches all of them; `avail` marks exactly the
 * leaves a worker may take (and the inner nodes above one).
 */
#ifndef OCS_TOP_TREE_H
#define OCS_TOP_TREE_H

#include "top_node.h"

/* Records the run's first error (later ones are consequences). */
void top_fail(Coordinator *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A new node (zeroed, no parent), its index; -1 out of memory. */
int top_new_node(Coordinator *c);
/* Stores b's value (its move m or MOVE_NONE; source: STORE_SOURCE_*); 0
 * also without a store, -1 on a store error (top_fail). */
int top_put(Coordinator *c, Board b, Winner w, Move m, int source);
/* Chains node i to the other nodes of its canonical position (the
 * position map): the chain's first other node, -1 if i is the first (or
 * on failure, top_fail). */
int top_map_add(Coordinator *c, int i);
/* Queues node i for propagation by top_settle. */
void top_push(Coordinator *c, int i);
/* Node i is decided for w (how: BY_*; bounded: wdepth, TNode's); its
 * consequences follow in top_settle. */
void top_set_value(Coordinator *c, int i, Winner w, int by, int wdepth);
/* The side most decided jobs of the run have won, WINNER_NONE on a tie. */
Winner top_majority(const Coordinator *c);
/* Propagates every queued node: decisions announced (store, certificate,
 * twins), inner numbers recomputed up to the root. */
int top_settle(Coordinator *c);
/* Gives node i its first value: static, from the store, or a leaf's
 * (top_leaf.c). */
int top_init_leaf(Coordinator *c, int i);
/* Expands leaf i one ply (symmetric siblings merged; top_leaf.c). */
int top_expand(Coordinator *c, int i);
/* Node i has new children, each given its first value: its numbers from
 * theirs, a decision's consequences, and everything queued settled. */
int top_expanded(Coordinator *c, int i);
/* The most-proving available leaf, -1 if none. */
int top_select_leaf(Coordinator *c);
/* Node i or an ancestor is decided (its job is no longer needed). */
bool top_under_decided(const Coordinator *c, int i);
/* Applies worker k's finished job. */
int top_apply(Coordinator *c, int k, const JobOutcome *got);
/* The children of decided inner node i that its proof follows (its
 * certificate's see lines, the job log's proof tree): the winner's first
 * child decided its way when the winner is to move, else every child;
 * their indices into kids, their count. */
int top_proof_children(const Coordinator *c, int i, int kids[MOVES_MAX]);
/* The certificate of decided inner node i at path, see lines prefixed. */
int top_certify_inner(Coordinator *c, int i, const char *path, const char *prefix);

#endif
