/* top_sibling.h - sibling transpositions in the job-level search's top
 * tree (internal to jobs/; the rule and why it is sound: top_sibling.c). */
#ifndef OCS_TOP_SIBLING_H
#define OCS_TOP_SIBLING_H

#include "top_node.h"

/* Node i, just decided with its winner to move: the undecided siblings
 * that reach the position after its winning move in one move, and those
 * moves, into js and rs, each certified when the run writes certificates
 * (top_sibling.c); how many, or -1 with the run's error set. */
int top_siblings(Coordinator *c, int i, int js[MOVES_MAX], Move rs[MOVES_MAX]);

#endif
