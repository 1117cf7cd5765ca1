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
 *   pn, dn proof and disproof numbers (df-pn), or depth bounds (alpha-beta,
 *          below); work: search effort (replacement);
 *   move   best move found (MOVE_NONE if none);
 *   flags  bit 0: slot in use (the empty board is a real key, so a zero key
 *          cannot mean "free"); bit 1: a depth-bound entry.
 *   seq    the bucket's sequence number (shared tables only), below.
 *   busy   the bucket's busy mark, below.
 *
 * Two kinds of entry, told apart by flags bit 1; a probe or store of one
 * kind never sees the other (a key may have one entry of each):
 *   proof numbers (TTData, tt_probe/tt_store: df-pn): pn and dn as df-pn
 *          keeps them; pn = 0 is a proof, dn = 0 a disproof.
 *   depth bounds (TTBounds, tt_probe_bounds/tt_store_bounds: alpha-beta's
 *          distance to win): win = a depth at which Order is known to force
 *          a line (TT_NO_WIN: none known), nowin = a depth at which Order is
 *          known not to (0: none known, which holds of every ongoing
 *          position).
 *
 * Replacement: a store goes to the entry of the same kind with the same
 * key; otherwise a free slot; otherwise the entry with the least work in
 * the bucket. Losing an entry loses work, never correctness. For the same
 * key:
 *   proof numbers: the store overwrites, except that an undecided store
 *          (pn and dn non-zero) never replaces a proof or disproof: with
 *          threads, one that was searching the position when another
 *          decided it stores its (stale) numbers afterwards.
 *   depth bounds: the store merges, win = the lesser, nowin = the greater,
 *          work = the greater, move = the new one unless MOVE_NONE. Sound
 *          because both bounds are facts, not estimates: "Order forces a
 *          line within d plies" is true or false of the key (the caller's
 *          keys must give all their positions one distance to win:
 *          alpha-beta's do, alphabeta.h), true for every
 *          depth from the distance to win on and false below it (a win
 *          within d is a win within any d' > d). A "win" fact at depth d
 *          thus says dtw <= d, a "not win" fact at depth d says dtw > d;
 *          every fact ever stored holds at once, so the least win depth and
 *          the greatest not-win depth sum them all up, nowin < dtw <= win
 *          always, and no store can contradict another. (df-pn's keep rule
 *          would be wrong here: an entry {win d, nowin 0} looks "decided"
 *          in proof-number terms and would drop a later not-win bound.)
 *          min and max commute, so concurrent stores lose nothing either.
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
 * Fingerprints: one byte per hot entry (0: free, else 8 bits of the key's
 * hash, never 0), four per bucket in one 32-bit word, in an array of their
 * own (1/32 of the hot level: 4 MiB for a 128 MiB one). A probe reads the
 * word first and reads the bucket only when a slot's fingerprint is the
 * key's, so a miss, nearly every probe of a solve (96 % of the probes of
 * a two-piece opening's whole solve, 1 GiB table: mostly fresh leaves),
 * costs one cache line of a small, cache- and TLB-friendly array instead
 * of two lines of a table far bigger than the cache. It changes no
 * number: the word holds the fingerprint of every key in the bucket (each
 * write of a slot's key writes its byte, under the bucket's lock), so "no
 * match" means "no entry of that key", and a match still compares the
 * whole key. With threads a probe may read the word just before a store
 * writes it: a miss, as if the probe had come first.
 *
 * Memory: the table is exactly the requested size rounded down to whole
 * buckets (at least one), plus the fingerprints (3 % of a one-level table,
 * 4 MiB with two levels), advised to use huge pages, and touched in full at
 * tt_init, so the resident size is the table's size from the start.
 *
 * Two levels (tables over TT_ONE_LEVEL_MAX): every probe of a big table
 * missed the TLB and the cache (one thread searched 37 K nodes/s with a
 * 12 GiB table against 480 K with 16 MiB: results/tables/table-size-rate.csv; on
 * this VM a page walk goes through the host's page tables too, and for a
 * big table those miss the cache as well). So such a table is split:
 *
 *   memory  | hot: TT_HOT_BYTES of buckets | big: the rest | TTPays[65] | fingerprints |
 *
 *   hot  every probe, store, prefetch and busy mark goes here, exactly as
 *        in a one-level table (the same buckets, index, rules and
 *        fingerprints; the big level has none).
 *   big  the same buckets, indexed by the hash rotated by 32 bits. A store
 *        with work >= TT_BIG_WORK goes here as well (write-through; a
 *        record with less work below it is cheaper to search again than
 *        to fetch from far away, and stores with that much are a few per
 *        cent of all). It is probed only after a hot miss, and only where
 *        that pays (below). A record found there is copied into the hot
 *        level (unless the hot level meanwhile has one of that key and
 *        kind), so that the parent's next expansion finds it near.
 *
 *   When the big level pays: the table keeps, per piece count p of the
 *   key (popcount of both words, 0..64), how often a hot miss at p finds
 *   the key in the big level (TTPays), measured on a fixed 1/TT_SAMPLE
 *   of keys (chosen by hash bits, so always the same keys) that look on
 *   every hot miss; other keys look once 16 samples show a rate of at
 *   least 1/TT_PAYS_RATIO. The counts halve every 1024 samples, so the
 *   choice follows the search. Deep positions, most of the probes and
 *   mostly fresh leaves that no level holds, stop looking; positions near
 *   the search's root, whose records carry the work, keep looking.
 *   (Sampling 1/64 cost a fifth of the rate with 12 GiB: about one far
 *   probe per node.) A big level of at most TT_HOT_BYTES (tests force
 *   such tables) costs no more to probe than a hot level of that size
 *   and is probed on every hot miss. Why not a filter of the big level's
 *   keys: one good to a few per cent needs ~8 bits per big entry, over
 *   100 MiB for a 12 GiB table, and a probe of that costs the TLB miss
 *   again; the counts are 520 bytes. Why not "positions with many empty
 *   cells": the table knows no root, and a fixed depth suits one root
 *   only.
 *
 *   Soundness: each level is a table as above, so each returns a record
 *   only for an exactly equal key and kind, and each applies the store
 *   rule under its own sequence locks: a guess, stored or written
 *   through, never replaces a proof or disproof in either level, and
 *   depth bounds merge in either level (facts, so any merge is sound).
 *   No operation holds two buckets' locks at once (the big store follows
 *   the hot one's release), so there is no lock order to keep. A key may
 *   have a record in each level; a probe takes the hot one. They can
 *   differ: the big one may be older (the hot one was later stored with
 *   less work), or a hot guess may hide a big proof (a thread stored its
 *   stale numbers after the proof left the hot level) until the guess is
 *   evicted. Either costs work, never a value: the search treats every
 *   undecided number as a guess, and a proof or disproof is only ever a
 *   stored fact. A record lost (evicted from the hot level with little
 *   work, or displaced in the big one) costs work only. A probe writes
 *   nothing to a bucket it reads; a big hit's copy into the hot level is
 *   a store like any other (the hot bucket's lock), and a sampled probe
 *   adds to the counts (relaxed atomics: advisory, a lost update only
 *   shifts a choice).
 *
 *   Tables up to TT_ONE_LEVEL_MAX are one level, exactly as before (the
 *   bench's 64 MiB, solve's default 256 MiB: same nodes, same
 *   signature). tt_capacity and tt_entry list the hot level's entries,
 *   then the big level's (a key may be listed twice; a checkpoint reloads
 *   both, by the store rule); busy marks live in hot buckets only.
 */
#ifndef OCS_TT_H
#define OCS_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/board.h"
#include "hugemap.h"

enum { TT_BUCKET_ENTRIES = 4 };

typedef struct {
    _Alignas(128) uint64_t key[TT_BUCKET_ENTRIES][2];
    uint32_t pn[TT_BUCKET_ENTRIES], dn[TT_BUCKET_ENTRIES], work[TT_BUCKET_ENTRIES];
    uint8_t move[TT_BUCKET_ENTRIES], flags[TT_BUCKET_ENTRIES];
    uint32_t seq;
    uint16_t busy;
    uint16_t spare;
} TTBucket;

/* A proof-number entry (df-pn). */
typedef struct {
    uint32_t pn, dn, work;
    Move move;
} TTData;

/* A depth-bound entry (alpha-beta; see above). */
typedef struct {
    uint32_t win;   /* Order forces a line within this many plies; TT_NO_WIN: unknown */
    uint32_t nowin; /* Order cannot force a line within this many plies; 0: unknown */
    uint32_t work;
    Move move;
} TTBounds;
#define TT_NO_WIN UINT32_MAX

/* Two levels (above): the sizes, and which records the big level takes
 * and when it is probed. Measured: results/tables/table-two-level.md. */
#define TT_ONE_LEVEL_MAX ((size_t)256 << 20)
#define TT_HOT_BYTES ((size_t)128 << 20)
enum { TT_BIG_WORK = 16, TT_PAYS_RATIO = 16, TT_SAMPLE = 1024, TT_PIECES = 65 };

/* Per piece count: sampled hot misses, and how many of them the big
 * level held. */
typedef struct {
    uint32_t probes, hits;
} TTPays;

typedef struct {
    TTBucket *buckets; /* the hot level (the whole table if one level) */
    size_t nbuckets;
    TTBucket *big;     /* the big level; NULL: one level */
    size_t nbig;
    TTPays *pays;      /* [TT_PIECES], with the big level */
    uint32_t *fp;      /* [nbuckets]: the hot buckets' fingerprints (above) */
    HugeMap mem;       /* the mapping the buckets live in */
    bool shared;
} TT;

/* bytes: the table's size (rounded down to whole buckets, at least one).
 * Two levels when it is over TT_ONE_LEVEL_MAX (a hot one of TT_HOT_BYTES).
 * Returns 0, or -1 when the memory cannot be had. */
int tt_init(TT *t, size_t bytes, bool shared);
/* The same with the hot level's size given: hot_bytes = 0, or not less
 * than bytes, makes one level (tests force small two-level tables). */
int tt_init_levels(TT *t, size_t bytes, bool shared, size_t hot_bytes);
void tt_free(TT *t);
void tt_clear(TT *t);

uint64_t tt_hash(Board key);
/* Copies the proof-number entry for exactly this key into *out; false when
 * absent. */
bool tt_probe(TT *t, Board key, TTData *out);
void tt_store(TT *t, Board key, const TTData *d);
/* The same for depth-bound entries; a store merges with the key's entry. */
bool tt_probe_bounds(TT *t, Board key, TTBounds *out);
void tt_store_bounds(TT *t, Board key, const TTBounds *d);
/* Starts loading key's bucket (and fingerprints) into the cache and
 * returns at once: a hint that changes nothing but the time of a later
 * probe or store. The solver issues one per child before probing them in
 * turn, so the children's cache misses overlap instead of queueing one
 * after another. */
void tt_prefetch(const TT *t, Board key);
/* The hot path's variants take the key's hash (tt_hash), which the caller
 * computes once for a prefetch, a later prefetch and a probe. */
void tt_prefetch_hashed(const TT *t, uint64_t h);
bool tt_probe_hashed(TT *t, Board key, uint64_t h, TTData *out);
/* A prefetch in two steps, for a probe that will most likely miss:
 * tt_prefetch_fp loads only the key's fingerprints (all a miss reads);
 * tt_prefetch_held, once they are in, loads the bucket if they say the key
 * may be there, else the big level's bucket if a hot miss of the key
 * surely looks there (a sampled key, or a small big level). Between them
 * a solver's children's misses cost one small line each, not two lines of
 * the table. */
void tt_prefetch_fp(const TT *t, uint64_t h);
void tt_prefetch_held(const TT *t, uint64_t h);

/* Busy marks: a thread entering a position adds 1 (delta = +1), leaving
 * it takes 1 away (delta = -1). */
void tt_busy_add(TT *t, Board key, int delta);
unsigned tt_busy(const TT *t, Board key);

size_t tt_capacity(const TT *t); /* entries, both levels */
/* Entry i (0 <= i < tt_capacity) when in use by a proof-number entry, for
 * saving the table: only while no thread searches it. (Depth-bound entries
 * are not listed: alpha-beta's table is never saved.) */
bool tt_entry(const TT *t, size_t i, Board *key, TTData *out);
/* Used entries per thousand, sampled over the first buckets (of each
 * level, weighted by its size). */
int tt_permille(TT *t);

#endif
