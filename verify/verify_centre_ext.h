/* verify_centre_ext.h - the EXTENDED GAME of the centre lemma's HALF pair
 * forms (verify_centre.h, "One HALF pair" and "Two HALF pairs"), and with
 * no HALF pair the restricted small game of the plain form, decided by a
 * plain memoised minimax. Used by verify_centre.c only, which maps a big
 * position onto it (which lines, which symbols, which cells); this file
 * knows nothing of the big board. Shares no code with the solver.
 *
 * The game: the m x m centre (m = 2..4) and, for each of the nhalf = 0, 1
 * or 2 HALF pairs j, its empty end v_j as one more cell. Cells are bits of
 * two sets x (holding X) and o (holding O): small cell i (r * m + c) is
 * bit i, v_j is bit m*m + j. Either side puts X or O on any empty cell.
 * Order wins as soon as a line counts: a small line l that is no HALF
 * pair's holding m like S with S in allowed[l]; HALF pair j's line
 * holding m like s0[j] with v_j not s0[j] (exact) or any v_j (original),
 * or m like T (the other symbol) with v_j = T. Chaos wins when every cell
 * is full without that.
 *
 * Invariants: the side to move is a function of the position: Order moves
 * iff (pieces + nhalf) is even, pieces counted over the extended cells
 * (the big board's ring holds two pieces in each full pair and one in each
 * HALF pair, and every empty ring cell but the v_j is in an EMPTY pair;
 * verify_centre.h), so one value per position is memoised and a call
 * whose side disagrees is refused as a bad argument. A table holds the
 * values of one configuration (vr_ext_key) only; values are exact, never
 * partial (a search that passes its allowance keeps nothing it did not
 * finish). The caller serialises calls (verify_centre.c's lock): the
 * tables are shared, unguarded state. */
#ifndef OCS_VERIFY_CENTRE_EXT_H
#define OCS_VERIFY_CENTRE_EXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verify_centre.h"

enum {
    VR_EXT_MAX_HALF = 2,
    VR_EXT_MAX_CELLS = VR_SMALL_MAX * VR_SMALL_MAX + VR_EXT_MAX_HALF,
    /* Tables kept at most (the byte bound below usually binds first). */
    VR_EXT_CACHE = 32,
};

/* The bytes of tables kept at once, all configurations together: a table
 * is 3^(m*m + nhalf) positions at 2 bits, 10.8 MB with no HALF pair, 32 MB
 * with one and 97 MB with two for m = 4, so 1 GiB keeps 32 (the count
 * binds), 32 and 11 of them. A new table
 * evicts the least recently used ones until it fits; their values are
 * recomputed if needed again. Why a bound in bytes: a hostile certificate
 * of lemma lines in ever other configurations must not grow the memory
 * past a fixed total (the node budget, VrLemmaBudget, bounds its time).
 * Pages are touched only as searched, so the resident size is less. */
#define VR_EXT_CACHE_BYTES ((size_t)1 << 30)

/* One configuration of the extended game. */
typedef struct {
    int m;                           /* 2..4 */
    int nhalf;                       /* 0 (the restricted small game), 1 or 2 */
    int line[VR_EXT_MAX_HALF];       /* the HALF pairs' small lines, increasing (v_j follows line[j]) */
    uint8_t s0[VR_EXT_MAX_HALF];     /* the symbol (VR_X, VR_O) on each HALF pair's filled end u_j */
    bool exact;                      /* rules exact; else original (no HALF pair: no effect) */
    uint8_t allowed[VR_SMALL_LINES]; /* every other line's VR_ALLOW_* set; the HALF lines' entries ignored */
} VrExt;

/* What a table holds: every field of e that the game depends on, packed
 * (the HALF lines' allowed entries read as VR_ALLOW_BOTH). Equal keys,
 * equal games. */
uint64_t vr_ext_key(const VrExt *e);

/* Does Order win e's game at (x, o), with order_to_move (it must be the
 * side the position's parity gives, above)? allow: the most positions the
 * search may newly visit (memo misses); *nodes gets the number visited.
 * 1 Order wins, 0 Chaos wins, -1 out of memory or a bad argument, -2 the
 * allowance was passed (nothing decided). Lines are the small game's in
 * the order of the allowed vectors (verify_centre.h): rows, columns,
 * diagonal, anti-diagonal. */
int vr_ext_order_wins(const VrExt *e, uint32_t x, uint32_t o, bool order_to_move, uint64_t allow, uint64_t *nodes);

#endif
