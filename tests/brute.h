/* brute.h - independent brute-force minimax over the reference rules (ref.h),
 * for tests only.  Gives the exact game value and the exact distance to win
 * (dtw) of a position, to cross-check the real solver.  It shares no code
 * with engine/, tables/ or solver/: plain recursion over every empty cell and
 * both symbols, judged by ref_status(), memoised on the exact position.
 *
 * Definitions (Order is to move when the number of pieces is even):
 *   dtw(p) = 0                         if ref_status(p) == REF_ORDER_WINS
 *          = INF                       if ref_status(p) == REF_CHAOS_WINS
 *          = min over moves 1+dtw(c)   if Order is to move
 *          = max over moves 1+dtw(c)   if Chaos is to move (INF dominates)
 *   i.e. the number of plies until Order wins when Order hurries and Chaos
 *   delays.  Order wins the game iff dtw is finite.
 *
 * Memo: a BruteMemo remembers the results for every position that keeps all
 * the pieces of a "base" position (the position of an earlier call), under
 * that base's (n, k, rules).  A call whose position has the same n, k, rules
 * and still holds every piece of the base (e.g. a child or any descendant of
 * an earlier query) reuses the memo; any other call (different n, k or rules,
 * or a position not reachable from the base) silently empties the memo and
 * makes that position the new base.  So one memo may be shared by any calls
 * and is always correct; it only saves time when queries descend from the
 * first one.  Keys are exact (a bijective base-3 numbering, see brute.c).
 * Memory: 3^E bytes, E = number of empty cells of the base: 4.8 MB for 14,
 * 43 MB for 16 (the largest buffer is kept until brute_free).  The base may
 * have at most BRUTE_MAX_EMPTY empty cells (brute_dtw aborts otherwise; such
 * searches would be far too slow anyway).
 * Not thread safe: use one memo per thread.
 */
#ifndef BRUTE_H
#define BRUTE_H

#include "ref.h"

#define BRUTE_MAX_EMPTY 16

typedef struct BruteMemo BruteMemo;   /* opaque memo of exact positions */

BruteMemo *brute_new(void);           /* NULL on allocation failure */
void brute_free(BruteMemo *m);        /* NULL is fine */

/* -1 if Chaos wins, else dtw >= 0 (plies).  p is restored on return.
 * Aborts (tests only) on a bad position, more than BRUTE_MAX_EMPTY empty
 * cells, or allocation failure. */
int brute_dtw(BruteMemo *m, RefPos *p);

/* 1 if Order wins p, else 0: the value alone, by a minimax that stops at
 * a node's first deciding child (much faster than brute_dtw where only the
 * value is wanted). Shares the memo with brute_dtw.  p is restored. */
int brute_value(BruteMemo *m, RefPos *p);

static inline int brute_order_wins(BruteMemo *m, RefPos *p)
{
    return brute_value(m, p);
}

#endif
