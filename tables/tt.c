/* tt.c - see tt.h. */
#include "tt.h"
#include "seqlock.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

/* flags: in use; a depth-bound entry. A slot's kind is its flags' value
 * under TT_KIND_MASK: TT_PROOF, TT_BOUNDS, or free (0). */
enum { TT_FLAG_USED = 1, TT_FLAG_BOUNDS = 2 };
enum { TT_KIND_MASK = TT_FLAG_USED | TT_FLAG_BOUNDS, TT_PROOF = TT_FLAG_USED, TT_BOUNDS = TT_FLAG_USED | TT_FLAG_BOUNDS };

static size_t tt_buckets_in(size_t bytes) { return bytes / sizeof(TTBucket) ? bytes / sizeof(TTBucket) : 1; }

/* What the mapping holds from its 2 MiB boundary on: the buckets, the
 * counts (two levels), the fingerprints (one word per hot bucket), in
 * that order. */
static size_t tt_len(const TT *t)
{
    return (t->nbuckets + t->nbig) * sizeof(TTBucket) + (t->nbig ? TT_PIECES * sizeof(TTPays) : 0) +
           t->nbuckets * sizeof(uint32_t);
}

int tt_init_levels(TT *t, size_t bytes, bool shared, size_t hot_bytes)
{
    memset(t, 0, sizeof *t);
    bool two = hot_bytes && bytes / sizeof(TTBucket) > tt_buckets_in(hot_bytes);
    t->nbuckets = tt_buckets_in(two ? hot_bytes : bytes);
    t->nbig = two ? bytes / sizeof(TTBucket) - t->nbuckets : 0;
    size_t len = tt_len(t);
    t->buckets = hugemap_alloc(&t->mem, len);
    if (!t->buckets) return -1;
    /* The big level right after the hot one, the counts after both, the
     * fingerprints last. */
    if (two) t->big = t->buckets + t->nbuckets;
    if (two) t->pays = (TTPays *)(t->big + t->nbig);
    t->fp = (uint32_t *)((char *)t->buckets + len) - t->nbuckets;
    t->shared = shared;
    return 0;
}

int tt_init(TT *t, size_t bytes, bool shared)
{
    return tt_init_levels(t, bytes, shared, bytes > TT_ONE_LEVEL_MAX ? TT_HOT_BYTES : 0);
}

void tt_free(TT *t)
{
    hugemap_free(&t->mem);
    memset(t, 0, sizeof *t);
}

void tt_clear(TT *t) { memset(t->buckets, 0, tt_len(t)); }

uint64_t tt_hash(Board key) { return XXH3_64bits(key.s, sizeof key.s); }

/* Multiply-shift maps a hash onto any bucket count, not only powers of
 * two. The hot level takes the hash's high bits; the big level the hash
 * rotated by 32, so that its index does not repeat the hot one's. */
static inline size_t tt_scale(uint64_t h, size_t n) { return (size_t)(((unsigned __int128)h * n) >> 64); }
static inline uint64_t tt_big_hash(uint64_t h) { return h << 32 | h >> 32; }

_Static_assert(sizeof(TTBucket) == 128, "a bucket is two cache lines");
_Static_assert(sizeof(TTPays) == 8 && TT_PIECES == 65, "a piece count's counts; 0..64 pieces");
_Static_assert((TT_SAMPLE & (TT_SAMPLE - 1)) == 0, "the sampled keys are picked by hash bits");
_Static_assert(TT_HOT_BYTES % HUGEMAP_PAGE == 0 && TT_HOT_BYTES < TT_ONE_LEVEL_MAX,
               "the big level starts on a huge page; a table over TT_ONE_LEVEL_MAX has a big level");


static inline TTBucket *tt_hot(const TT *t, uint64_t h) { return &t->buckets[tt_scale(h, t->nbuckets)]; }
static inline TTBucket *tt_bucket(const TT *t, Board key) { return tt_hot(t, tt_hash(key)); }
static inline uint32_t *tt_fp_word(const TT *t, uint64_t h) { return &t->fp[tt_scale(h, t->nbuckets)]; }

/* A key's fingerprint: hash bits the hot index hardly depends on (it takes
 * the high ones); never 0, which marks a free slot. */
static inline uint32_t tt_fp_of(uint64_t h) { return (uint32_t)(h & 0xff) + ((h & 0xff) == 0); }

/* Whether a slot's fingerprint in word w is key's (f = tt_fp_of): some
 * byte of w ^ f*0x01010101 is zero (the classic exact zero-byte test). */
static inline bool tt_fp_may(uint32_t w, uint32_t f)
{
    uint32_t x = w ^ f * 0x01010101u;
    return ((x - 0x01010101u) & ~x & 0x80808080u) != 0;
}
static inline TTBucket *tt_big(const TT *t, uint64_t h) { return &t->big[tt_scale(tt_big_hash(h), t->nbig)]; }

/* A store in progress is held for a few dozen instructions; but when there
 * are more threads than free cores its thread may be descheduled, so a
 * waiter that has spun a while gives its core away rather than burn its
 * time slice. */
static inline void tt_wait(unsigned *spins)
{
    if (++*spins % 64 == 0) sched_yield();
}

/* Makes seq odd: excludes other stores and tells probes to retry. */
static inline uint32_t tt_lock(TTBucket *b)
{
    for (unsigned spins = 0;; tt_wait(&spins)) {
        uint32_t s = __atomic_load_n(&b->seq, __ATOMIC_RELAXED);
        if (!(s & 1) && __atomic_compare_exchange_n(&b->seq, &s, s + 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return s + 1;
    }
}

static inline int tt_find(const TTBucket *b, Board key, uint8_t kind)
{
    for (int j = 0; j < TT_BUCKET_ENTRIES; j++)
        if (SEQLOCK_LOAD(&b->key[j][0]) == key.s[0] && SEQLOCK_LOAD(&b->key[j][1]) == key.s[1] &&
            (SEQLOCK_LOAD(&b->flags[j]) & TT_KIND_MASK) == kind)
            return j;
    return -1;
}

/* An entry's fields in proof-number terms, whatever its kind. */
static inline TTData tt_read(const TTBucket *b, int j)
{
    return (TTData){SEQLOCK_LOAD(&b->pn[j]), SEQLOCK_LOAD(&b->dn[j]), SEQLOCK_LOAD(&b->work[j]), SEQLOCK_LOAD(&b->move[j])};
}

/* The entry of this kind for key in bucket b, copied into *out; false
 * when absent. */
static inline bool tt_get_in(const TTBucket *b, bool shared, Board key, uint8_t kind, TTData *out)
{
    if (!shared) {
        int j = tt_find(b, key, kind);
        if (j >= 0) *out = tt_read(b, j);
        return j >= 0;
    }
    for (unsigned spins = 0;; tt_wait(&spins)) {
        uint32_t s = SEQLOCK_LOAD(&b->seq);
        if (s & 1) continue;
        int j = tt_find(b, key, kind);
        TTData d = {0, 0, 0, 0};
        if (j >= 0) d = tt_read(b, j);
        /* Ordered after the loads above by their acquire. */
        if (__atomic_load_n(&b->seq, __ATOMIC_RELAXED) != s) continue;
        if (j >= 0) *out = d;
        return j >= 0;
    }
}

/* How a store treats an entry of the same key and kind already there:
 * by the kind's rule (tt.h), or (TT_FILL, a copy from the big level)
 * left as it is. */
enum { TT_STORE, TT_FILL };

/* Stores d (in proof-number terms) as an entry of this kind for key in
 * bucket b. */
static inline void tt_put_in(TTBucket *b, uint32_t *fp, uint32_t f, bool shared, Board key, TTData d, uint8_t kind,
                             int mode)
{
    uint32_t seq = shared ? tt_lock(b) : 0;
    int v = tt_find(b, key, kind);
    bool found = v >= 0, keep = found && mode == TT_FILL;
    if (found && kind == TT_PROOF) {
        /* A proof or disproof is never overwritten by a guess. */
        keep |= (SEQLOCK_LOAD(&b->pn[v]) == 0 || SEQLOCK_LOAD(&b->dn[v]) == 0) && d.pn != 0 && d.dn != 0;
    } else if (found) {
        /* Depth bounds: both facts hold, so keep the stronger of each. */
        uint32_t win = SEQLOCK_LOAD(&b->pn[v]), nowin = SEQLOCK_LOAD(&b->dn[v]), work = SEQLOCK_LOAD(&b->work[v]);
        d.pn = win < d.pn ? win : d.pn;
        d.dn = nowin > d.dn ? nowin : d.dn;
        d.work = work > d.work ? work : d.work;
        if (d.move == MOVE_NONE) d.move = SEQLOCK_LOAD(&b->move[v]);
    }
    for (int j = 0; j < TT_BUCKET_ENTRIES && v < 0; j++)
        if (!(SEQLOCK_LOAD(&b->flags[j]) & TT_FLAG_USED)) v = j;
    if (!keep) {
        if (v < 0) {
            v = 0;
            for (int j = 1; j < TT_BUCKET_ENTRIES; j++)
                if (SEQLOCK_LOAD(&b->work[j]) < SEQLOCK_LOAD(&b->work[v])) v = j;
        }
        SEQLOCK_STORE(&b->key[v][0], key.s[0]);
        SEQLOCK_STORE(&b->key[v][1], key.s[1]);
        SEQLOCK_STORE(&b->pn[v], d.pn);
        SEQLOCK_STORE(&b->dn[v], d.dn);
        SEQLOCK_STORE(&b->work[v], d.work);
        SEQLOCK_STORE(&b->move[v], d.move);
        SEQLOCK_STORE(&b->flags[v], kind);
        /* Under the bucket's lock: no other store writes this word. */
        if (fp) SEQLOCK_STORE(fp, (SEQLOCK_LOAD(fp) & ~(0xffu << 8 * v)) | f << 8 * v);
    }
    if (shared) SEQLOCK_STORE(&b->seq, seq + 1);
}

/* Stores into the hot level and, a record with enough work below it,
 * into the big level too (after the hot bucket's lock is released). */
static inline void tt_put(TT *t, Board key, TTData d, uint8_t kind)
{
    uint64_t h = tt_hash(key);
    tt_put_in(tt_hot(t, h), tt_fp_word(t, h), tt_fp_of(h), t->shared, key, d, kind, TT_STORE);
    if (t->big && d.work >= TT_BIG_WORK) tt_put_in(tt_big(t, h), NULL, 0, t->shared, key, d, kind, TT_STORE);
}

/* Whether hash h is one of the sampled keys, which look in the big level
 * on every hot miss (tt.h). */
static inline bool tt_sampled(uint64_t h) { return (h >> 32 & (TT_SAMPLE - 1)) == 0; }

/* A big level no bigger than TT_HOT_BYTES costs no more to probe than a
 * hot level of that size: every hot miss looks there. */
static inline bool tt_big_small(const TT *t) { return t->nbig <= TT_HOT_BYTES / sizeof(TTBucket); }

/* Whether a hot miss of key (hash h) should look in the big level, and
 * whether it is one of the sampled keys that always look (tt.h). */
static inline bool tt_pays(const TT *t, int pieces, uint64_t h, bool *sampled)
{
    *sampled = tt_sampled(h);
    const TTPays *c = &t->pays[pieces];
    uint32_t probes = __atomic_load_n(&c->probes, __ATOMIC_RELAXED), hits = __atomic_load_n(&c->hits, __ATOMIC_RELAXED);
    return *sampled || (probes >= 16 && (uint64_t)hits * TT_PAYS_RATIO >= probes);
}

/* A sampled probe's outcome, into its piece count's rate; halved every
 * 1024 samples so that the rate follows the search. */
static void tt_count(TT *t, int pieces, bool hit)
{
    TTPays *c = &t->pays[pieces];
    uint32_t probes = __atomic_add_fetch(&c->probes, 1, __ATOMIC_RELAXED);
    uint32_t hits = hit ? __atomic_add_fetch(&c->hits, 1, __ATOMIC_RELAXED) : __atomic_load_n(&c->hits, __ATOMIC_RELAXED);
    if (probes >= 1024) {
        __atomic_store_n(&c->probes, probes / 2, __ATOMIC_RELAXED);
        __atomic_store_n(&c->hits, hits / 2, __ATOMIC_RELAXED);
    }
}

/* After a hot miss: the big level, where it pays; a record found there
 * is copied into the hot level. */
static bool tt_get_big(TT *t, Board key, uint64_t h, uint8_t kind, TTData *out)
{
    int pieces = __builtin_popcountll(key.s[0] | key.s[1]);
    bool sampled = false;
    if (!tt_big_small(t) && !tt_pays(t, pieces, h, &sampled)) return false;
    bool hit = tt_get_in(tt_big(t, h), t->shared, key, kind, out);
    if (sampled) tt_count(t, pieces, hit);
    if (hit) tt_put_in(tt_hot(t, h), tt_fp_word(t, h), tt_fp_of(h), t->shared, key, *out, kind, TT_FILL);
    return hit;
}

/* The entry of this kind for key (hash h), copied into *out; false when
 * absent. */
static inline bool tt_get(TT *t, Board key, uint64_t h, uint8_t kind, TTData *out)
{
    /* No slot with the key's fingerprint: not in the hot level, known
     * without reading the bucket. */
    if (tt_fp_may(SEQLOCK_LOAD(tt_fp_word(t, h)), tt_fp_of(h)) && tt_get_in(tt_hot(t, h), t->shared, key, kind, out))
        return true;
    return t->big && tt_get_big(t, key, h, kind, out);
}

bool tt_probe(TT *t, Board key, TTData *out) { return tt_get(t, key, tt_hash(key), TT_PROOF, out); }

bool tt_probe_hashed(TT *t, Board key, uint64_t h, TTData *out) { return tt_get(t, key, h, TT_PROOF, out); }

void tt_store(TT *t, Board key, const TTData *d) { tt_put(t, key, *d, TT_PROOF); }

/* Depth bounds travel in the proof-number fields: win in pn, nowin in dn. */
bool tt_probe_bounds(TT *t, Board key, TTBounds *out)
{
    TTData d;
    if (!tt_get(t, key, tt_hash(key), TT_BOUNDS, &d)) return false;
    *out = (TTBounds){.win = d.pn, .nowin = d.dn, .work = d.work, .move = d.move};
    return true;
}

void tt_store_bounds(TT *t, Board key, const TTBounds *d)
{
    tt_put(t, key, (TTData){.pn = d->win, .dn = d->nowin, .work = d->work, .move = d->move}, TT_BOUNDS);
}

static inline void tt_prefetch_bucket(const TTBucket *b)
{
    __builtin_prefetch(&b->key[0], 0, 3);
    __builtin_prefetch(&b->pn[0], 0, 3); /* the bucket's second cache line */
}

void tt_prefetch_hashed(const TT *t, uint64_t h)
{
    __builtin_prefetch(tt_fp_word(t, h), 0, 3);
    tt_prefetch_bucket(tt_hot(t, h));
}

void tt_prefetch(const TT *t, Board key) { tt_prefetch_hashed(t, tt_hash(key)); }

void tt_prefetch_fp(const TT *t, uint64_t h) { __builtin_prefetch(tt_fp_word(t, h), 0, 3); }

void tt_prefetch_held(const TT *t, uint64_t h)
{
    if (tt_fp_may(SEQLOCK_LOAD(tt_fp_word(t, h)), tt_fp_of(h)))
        tt_prefetch_bucket(tt_hot(t, h));
    else if (t->big && (tt_big_small(t) || tt_sampled(h)))
        tt_prefetch_bucket(tt_big(t, h)); /* a hot miss that surely looks there */
}

void tt_busy_add(TT *t, Board key, int delta)
{
    uint16_t *m = &tt_bucket(t, key)->busy;
    if (delta > 0)
        __atomic_fetch_add(m, 1, __ATOMIC_RELAXED);
    else
        __atomic_fetch_sub(m, 1, __ATOMIC_RELAXED);
}

unsigned tt_busy(const TT *t, Board key) { return __atomic_load_n(&tt_bucket(t, key)->busy, __ATOMIC_RELAXED); }

size_t tt_capacity(const TT *t) { return (t->nbuckets + t->nbig) * TT_BUCKET_ENTRIES; }

bool tt_entry(const TT *t, size_t i, Board *key, TTData *out)
{
    /* The big level's buckets follow the hot level's in memory. */
    const TTBucket *b = &t->buckets[i / TT_BUCKET_ENTRIES];
    int j = (int)(i % TT_BUCKET_ENTRIES);
    if ((SEQLOCK_LOAD(&b->flags[j]) & TT_KIND_MASK) != TT_PROOF) return false;
    *key = (Board){{SEQLOCK_LOAD(&b->key[j][0]), SEQLOCK_LOAD(&b->key[j][1])}};
    *out = tt_read(b, j);
    return true;
}

/* Used entries per thousand in the first buckets of a level. */
static int tt_level_permille(const TTBucket *b, size_t nbuckets)
{
    size_t n = nbuckets < 250 ? nbuckets : 250, used = 0;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < TT_BUCKET_ENTRIES; j++) used += SEQLOCK_LOAD(&b[i].flags[j]) & TT_FLAG_USED;
    return (int)(used * 1000 / (n * TT_BUCKET_ENTRIES));
}

/* Unlocked reads: a sample for progress reports, exact only when still. */
int tt_permille(TT *t)
{
    int hot = tt_level_permille(t->buckets, t->nbuckets);
    if (!t->big) return hot;
    int big = tt_level_permille(t->big, t->nbig);
    return (int)(((double)hot * (double)t->nbuckets + (double)big * (double)t->nbig) / (double)(t->nbuckets + t->nbig));
}
