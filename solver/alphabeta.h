/* alphabeta.h - iterative-deepening alpha-beta for the distance to win,
 * and a second, independent way to decide small positions.
 *
 * The value is binary, so the search asks a yes/no question: can Order
 * force a win within d plies? (Order needs one child that can, Chaos needs
 * one that cannot: that is alpha-beta with a null window.) The distance to
 * win is the least d with a yes, found by deepening d = 1, 2, ...; a
 * full-depth question (d = empty cells) decides the value.
 *
 * Table records (own table, not df-pn's): depth-bound entries (TTBounds,
 * tt.h), win = least depth known to win, nowin = greatest depth known not
 * to win. Both bounds are exact facts about the key: a question is answered
 * exactly or, when a limit stops the search, not stored at all; the key is
 * the df-pn key (knowledge.h), and positions with the same key have the
 * same distance to win (dead cells are pure tempo, symmetry keeps every
 * line), so a fact learnt at one holds at every other. Facts about one key
 * never contradict each other and only add up, which is why the table
 * merges a store with the entry already there (the lesser win, the greater
 * nowin; the argument is in tt.h) instead of df-pn's rule, which would take
 * {win d, nowin 0} for a proof and drop a later nowin (it dropped 0.3% to
 * 1.7% of the stores on hard suite positions; keeping them saves up to 1%
 * of the nodes, values and distances unchanged).
 *
 * Distance to win: plies until a winning line appears, Order shortening,
 * Chaos lengthening; a Chaos move that completes a line ends the game at
 * that ply. A safe Chaos move (knowledge.h) always lasts longer than an
 * unsafe one (at least 3 plies against at most 2), so Chaos's unsafe moves
 * are never searched when a safe one exists.
 */
#ifndef OCS_ALPHABETA_H
#define OCS_ALPHABETA_H

#include "../tables/tt.h"
#include "dfpn.h"
#include "knowledge.h"
#include "limits.h"

typedef struct {
    /* settings */
    const Rules *r;
    Knowledge kn;
    TT *tt;
    SearchLimits lim; /* progress reports give nodes and seconds; pn/dn are
                       * the depth being searched (both) */
    /* state */
    uint64_t nodes;
    bool stopped;
    double started, next_report;
    int depth;        /* the deepening's current depth */
} AlphaBeta;

void ab_init(AlphaBeta *a, const Rules *r, const Knowledge *kn, TT *tt);

/* Distance to win of b: >= 0 for an Order win (0: already won), -1 for a
 * Chaos win, -2 when a limit stopped the search. */
int ab_dtw(AlphaBeta *a, Board b);

/* The value of b: deepening to the full depth (the distance to win is its
 * by-product). */
Winner ab_solve(AlphaBeta *a, Board b);

/* With the loser to move: a move that resists longest (greatest distance
 * to win); with Order to move and winning: a move that wins fastest.
 * Needs a decided Order win. */
Move ab_best_move(AlphaBeta *a, Board b);

/* With Order to move: a move after which Order forces a line within
 * depth-1 more plies (one exists when the distance to win is at most
 * depth), found by the same yes/no question as the distance; MOVE_NONE
 * when none does or a limit stopped it. Cheap right after ab_dtw found
 * depth: the table holds the answers. */
Move ab_winning_move(AlphaBeta *a, Board b, int depth);

#endif
