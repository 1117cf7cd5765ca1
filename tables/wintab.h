/* wintab.h - the side table of proven Order moves: whole position -> a
 * move that wins it for Order, filled by the df-pn value search where it
 * proves an Order-to-move node it expanded (solver/dfpn_search.c) and read
 * only by the certificate writer (solver/dfpn.c, dfpn_winning_move).
 *
 * Why: the writer needs Order's winning move at every Order position of
 * the proof. The transposition table (tt.h) keeps the move with each
 * entry, but replaces the entry with the least work first, which is what
 * a proof near the leaves has; the writer then searched those positions
 * again (results/jobs/cert-cost.md: half the writer's time, 0.25 % of Order's
 * positions). This table keeps only the move, 16 bytes of key and one of
 * move, so it holds many more proven positions per byte, and it never
 * steers the search: the search writes it and never reads it, so every
 * node count and the bench signature are what they were without it.
 *
 * Why it cannot make a certificate wrong:
 *   - a hit needs both words of the key equal to the position asked
 *     about: the whole position, not its table key (no dead cells filled,
 *     no symmetry) and never a hash alone; the hash only picks the bucket;
 *   - a shared table's reads and writes go through the bucket's sequence
 *     lock (as tt.h's), so a read never returns half of one store and half
 *     of another;
 *   - the writer only proposes the move: it writes the line and walks on
 *     to the child, and every line it writes is checked by the independent
 *     verifier (verify/), which knows nothing of this table. A wrong move
 *     (a bug) would show as a certificate the writer cannot finish or the
 *     verifier rejects, never as one it accepts wrongly;
 *   - a lost entry (replaced, or never stored) only sends the writer to
 *     its other sources, down to today's re-search.
 *
 * Layout: one bucket per cache line, three entries:
 *
 *   byte 0      16      32      48      51     52     53      56    60     64
 *        | key 0 | key 1 | key 2 | move[3] | used | next | spare | seq | spare |
 *
 *   key   the position's X word, then its O word;
 *   move  the winning move (board.h), in the position's own frame;
 *   used  bit j: slot j holds an entry;
 *   next  the slot a new key replaces when all three are used (round
 *         robin: the oldest store of the bucket goes first, so the table
 *         keeps the latest proofs, those of the job being certified);
 *   seq   the sequence lock (shared tables only): a store makes it odd by
 *         compare-and-swap from even, writes and makes it even again; a
 *         read retries unless it saw the same even number before and
 *         after (tt.h argues the protocol).
 *
 * Invariants: a used slot's move was given by a store of exactly that key;
 * a store of a key already present overwrites its move in place.
 */
#ifndef OCS_WINTAB_H
#define OCS_WINTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/board.h"
#include "hugemap.h"

enum { WINTAB_WAYS = 3 };

typedef struct {
    _Alignas(64) uint64_t key[WINTAB_WAYS][2];
    uint8_t move[WINTAB_WAYS];
    uint8_t used, next;
    uint8_t spare[3];
    uint32_t seq, spare2;
} WinBucket;

_Static_assert(sizeof(WinBucket) == 64, "a bucket is one cache line");
_Static_assert(WINTAB_WAYS * 16 + WINTAB_WAYS + 5 + 8 == 64, "the layout drawn above");

typedef struct {
    WinBucket *buckets;
    size_t nbuckets;
    HugeMap mem; /* the mapping the buckets live in */
    bool shared;
} WinTab;

/* The table of bytes (rounded down to whole buckets, at least one),
 * touched in full now; shared: used by several threads at once. Returns
 * 0, or -1 when the memory cannot be had. */
int wintab_init(WinTab *t, size_t bytes, bool shared);
void wintab_free(WinTab *t);

/* Records that m wins position b for the side to move (the caller's proof). */
void wintab_put(WinTab *t, Board b, Move m);
/* The move recorded for exactly b, or MOVE_NONE. */
Move wintab_get(WinTab *t, Board b);

size_t wintab_capacity(const WinTab *t); /* entries */

#endif
