/* tt.h - the transposition table: fixed size, exact keys, thread-safe.
 *
 * A bucket holds four entries, stored field by field in two cache lines:
 *
 *   line 0  byte 0        16        32        48        64
 *           | key 0     | key 1   | key 2   | key 3   |     (X bits, O bits)
 *   line 1  byte 64    80     96      112      116       120   124    126     128
 *           | pn[4]   | dn[4] | work[4] | move[4] | flags[4] | seq | busy | spare |
 *
 *   key    the whole position (the caller passes its canonical form when it
 *          reduces by symmetry): a hit needs both words equal, so a hash
 *          collision can never return another position's data. The hash
 *          (XXH3 of the key) only picks the bucket.
 *   pn, dn proof and disproof numbers; work: search effort (replacement);
 *   move   best move found (MOVE_NONE if none);
 *   flags  bit 0: slot in use (the empty board is a real key, so a zero key
 *          cannot mean "free").
 *   seq    the bucket's sequence number (shared tables only), below.
 *   busy   the bucket's busy mark, below.
 *
 * Replacement: a store overwrites the entry with the same key (except that
 * an undecided store never replaces a decided entry); otherwise a
 * free slot; otherwise the entry with the least work in the bucket. Losing
 * an entry loses work, never correctness.
 *
 * Concurrency (shared tables): a sequence lock per bucket. A store makes
 * seq odd (compare-and-swap from even: this also excludes other stores),
 * writes, and makes it even again. A probe reads seq, then the entries,
 * then seq again, and retries unless both reads gave the same even number,
 * so a probe never takes another position's data or half of a store. It
 * writes nothing: probes, a node's most frequent operation, no longer pay
 * an atomic exchange each or pull the bucket's line away from the other
 * core (measured, 2 threads on 3 hard positions: 3.5% more nodes/s than a
 * per-bucket spinlock held by probes too). seq is 32 bits: a probe could
 * only be fooled by exactly 2^31 stores to its bucket between its two
 * reads. Every access to a shared bucket is a C11 atomic one (acquire and
 * release, plain moves on x86), so ThreadSanitizer checks the protocol
 * itself. A probe or store that finds a store in progress yields its core
 * after a while, for runs with more threads than free cores. A lockless
 * XOR-checked scheme was rejected: a torn read could pass its check with
 * tiny but non-zero probability, and an exact answer is the point. With
 * shared = false (one thread) seq is not used.
 *
 * Busy marks (parallel search): how many threads are inside positions that
 * hash to a bucket, for Kaneko's virtual proof numbers. They live in the
 * bucket because the search reads a child's mark right after probing the
 * child, when the bucket is already in the cache (a separate 2 MiB array
 * of counters missed the cache on every read: 7% fewer nodes/s with 2
 * threads). Positions sharing a bucket share a mark; that only misleads
 * the choice of a child, never a value. Zero whenever no search runs.
 *
 * Memory: the table is exactly the requested size rounded down to whole
 * buckets (at least one), advised to use huge pages, and touched in full at
 * tt_init, so the resident size is the table's size from the start.
 */
#ifndef OCS_TT_H
#define OCS_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/board.h"

enum { TT_BUCKET_ENTRIES = 4 };

typedef struct {
    _Alignas(128) uint64_t key[TT_BUCKET_ENTRIES][2];
    uint32_t pn[TT_BUCKET_ENTRIES], dn[TT_BUCKET_ENTRIES], work[TT_BUCKET_ENTRIES];
    uint8_t move[TT_BUCKET_ENTRIES], flags[TT_BUCKET_ENTRIES];
    uint32_t seq;
    uint16_t busy;
    uint16_t spare;
} TTBucket;

typedef struct {
    uint32_t pn, dn, work;
    Move move;
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
/* Entry i (0 <= i < tt_capacity) when in use, for saving the table: only
 * while no thread searches it. */
bool tt_entry(const TT *t, size_t i, Board *key, TTData *out);
/* Used entries per thousand, sampled over the first buckets. */
int tt_permille(TT *t);

#endif
