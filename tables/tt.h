/* tt.h - the transposition table: fixed size, exact keys, thread-safe.
 *
 * Entry, 32 bytes, four to a 128-byte bucket (two cache lines):
 *
 *   byte 0          8          16   20   24     28     29      30    31     32
 *       | key X bits | key O bits | pn | dn | work | move | flags | aux | sync |
 *
 *   key    the whole position (the caller passes its canonical form when it
 *          reduces by symmetry): a hit needs both words equal, so a hash
 *          collision can never return another position's data. The hash
 *          (XXH3 of the key) only picks the bucket.
 *   pn, dn proof and disproof numbers; work: search effort (replacement);
 *   move   best move found (MOVE_NONE if none); aux: free for the solver;
 *   flags  bit 0: slot in use (the empty board is a real key, so a zero key
 *          cannot mean "free").
 *   sync   the bucket's, not the entry's: entry 0's is the bucket's spinlock
 *          (shared tables only), entry 1's its busy count (below), the
 *          others' are unused. A store writes the fields one by one and
 *          never these bytes.
 *
 * Replacement: a store overwrites the entry with the same key (except that
 * an undecided store never replaces a decided entry); otherwise a
 * free slot; otherwise the entry with the least work in the bucket. Losing
 * an entry loses work, never correctness.
 *
 * Concurrency: a spinlock per bucket, in the bucket's own first cache line;
 * probe and store copy a whole entry under it, so a reader never sees a
 * half-written entry and ThreadSanitizer sees ordinary locked access. The
 * lock lives with the data so that a probe touches no other cache line (a
 * separate array of striped locks, written by every thread, costs a line
 * that travels between cores; measured on 8 hard positions with 2 threads:
 * 192 K nodes/s with 1024 striped locks, 195 K with bucket locks, one
 * thread 108 K). A waiter yields its core after a while, for runs with more
 * threads than free cores. A lockless XOR-checked scheme was rejected: a
 * torn read could pass its check with tiny but non-zero probability, and
 * an exact answer is the point. With shared = false (one thread) the locks
 * are skipped.
 *
 * Busy marks (parallel search): how many threads are inside positions that
 * hash to a bucket, for Kaneko's virtual proof numbers. They live in the
 * bucket because the search reads a child's mark right after probing the
 * child, when the bucket is already in the cache (a separate 2 MiB array
 * of counters missed the cache on every read: 4% of a node's time with 2
 * threads). Positions sharing a bucket share a mark; that only misleads
 * the choice of a child, never a value. Zero whenever no search runs.
 *
 * Memory: the table is exactly the requested size rounded down to whole
 * buckets (at least one), advised to use huge pages, and touched in full at
 * tt_init, so the resident size is the table's size from the start.
 */
#ifndef OCS_TT_H
#define OCS_TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/board.h"

enum { TT_BUCKET_ENTRIES = 4 };

typedef struct {
    uint64_t key[2];
    uint32_t pn, dn;
    uint32_t work;
    uint8_t move;
    uint8_t flags;
    uint8_t aux;
    uint8_t sync;
} TTEntry;

typedef struct {
    _Alignas(128) TTEntry e[TT_BUCKET_ENTRIES];
} TTBucket;

typedef struct {
    uint32_t pn, dn, work;
    Move move;
    uint8_t aux;
} TTData;

typedef struct {
    TTBucket *buckets;
    size_t nbuckets;
    void *map;       /* what was mapped, for munmap */
    size_t map_len;
    bool shared;
} TT;

/* bytes: the table's size (rounded down to whole buckets, at least one).
 * Returns 0, or -1 when the memory cannot be had. */
int tt_init(TT *t, size_t bytes, bool shared);
void tt_free(TT *t);
void tt_clear(TT *t);

uint64_t tt_hash(Board key);
/* Copies the entry for exactly this key into *out; false when absent. */
bool tt_probe(TT *t, Board key, TTData *out);
void tt_store(TT *t, Board key, const TTData *d);
/* Starts loading key's bucket into the cache and returns at once: a hint
 * that changes nothing but the time of a later probe or store. The solver
 * issues one per child before probing them in turn, so the children's cache
 * misses overlap instead of queueing one after another. */
void tt_prefetch(const TT *t, Board key);

/* Busy marks: a thread entering a position adds 1 (delta = +1), leaving
 * it takes 1 away (delta = -1). */
void tt_busy_add(TT *t, Board key, int delta);
unsigned tt_busy(const TT *t, Board key);

size_t tt_capacity(const TT *t); /* entries */
/* Used entries per thousand, sampled over the first buckets. */
int tt_permille(TT *t);

#endif
