/* verify_centre.h - the centre strategy lemma, checked by the verifier on
 * its own (no code shared with the solver; same plain style as
 * verify_rules.h: cell arrays cells[r * n + c] of VR_EMPTY, VR_X, VR_O).
 *
 * The lemma: under rules original or exact (not exact-end) with k = n-1 and
 * n = 4, 5 or 6, Order wins a position in which
 *   1. every ring pair is empty or mixed (one X and one O), and
 *   2. the small game at the centre is an Order win, with the big
 *      position's side to move (Order iff the piece count is even).
 * The centre is the inner m x m square, m = n-2; the ring is every other
 * cell. The 2(n-1) ring pairs are the two ends of the full lines of n cells
 * through the centre: (r,0)-(r,n-1) for each centre row r, (0,c)-(n-1,c)
 * for each centre column c, and the corners (0,0)-(n-1,n-1) and
 * (0,n-1)-(n-1,0). They split the ring into pairs.
 * The small game: the m x m centre as a game of its own; either side puts X
 * or O on an empty centre cell; Order wins as soon as one of its 2m+2 lines
 * (m rows, m columns, two diagonals, m cells each) holds m like symbols,
 * Chaos when the centre is full without one.
 *
 * Why it holds: Order answers a Chaos move on a ring cell with the other
 * symbol on the other cell of its pair, so every pair stays empty or mixed
 * and the centre keeps its side to move; in the centre Order follows the
 * small game's winning strategy. Once a centre line holds m like symbols S,
 * its full line holds S on m+1 = k cells between two ends that are empty or
 * mixed: if mixed, a run of exactly k stands; if empty, Order puts S on an
 * end (the other end, if Chaos took one first) on the next move. The full
 * line has n cells, so the run is never longer than k. Chaos cannot win
 * before: the board is not full while a pair is empty.
 */
#ifndef OCS_VERIFY_CENTRE_H
#define OCS_VERIFY_CENTRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verify_rules.h"

enum { VR_SMALL_MIN = 2, VR_SMALL_MAX = 4 };

/* The small game on m x m cells (m = 2..4; small_cells[r * m + c]), with
 * Order to move iff the number of pieces is even: 1 Order wins (also when a
 * line already holds m like symbols), 0 Chaos wins, -1 out of memory or a
 * bad m. A plain memoised minimax; the memo (2 bits for each of the 3^(m*m)
 * positions, 10.8 MB for m = 4) is allocated on first use for each m and
 * kept, reachable, until the process ends: results never change. Calls are
 * serialised by a mutex. */
int vr_small_order_wins(int m, const uint8_t *small_cells);

/* The whole lemma for the big position cells of game g, the certificate
 * claiming that Order wins (claim_order) or Chaos. 1: it holds. 0: it does
 * not; why gets one line (no position, no newline), e.g.
 * "pair a2/f2 holds X and X". -1: out of memory. */
int vr_centre_lemma(const VrGame *g, bool claim_order, const uint8_t *cells, char *why, size_t why_len);

#endif
