/* tt.c - see tt.h. */
#include "tt.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

enum { TT_FLAG_USED = 1 };
#define TT_HUGE_PAGE ((size_t)2 << 20)

int tt_init(TT *t, size_t bytes, bool shared)
{
    memset(t, 0, sizeof *t);
    t->nbuckets = bytes / sizeof(TTBucket);
    if (t->nbuckets == 0) t->nbuckets = 1;
    size_t len = t->nbuckets * sizeof(TTBucket);
    /* Over-map by one huge page so the table can start on a 2 MiB boundary. */
    t->map_len = len + TT_HUGE_PAGE;
    t->map = mmap(NULL, t->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t->map == MAP_FAILED) {
        t->map = NULL;
        return -1;
    }
    uintptr_t start = ((uintptr_t)t->map + TT_HUGE_PAGE - 1) & ~(uintptr_t)(TT_HUGE_PAGE - 1);
    t->buckets = (TTBucket *)start;
#ifdef MADV_HUGEPAGE
    madvise(t->buckets, len, MADV_HUGEPAGE); /* a hint: failure only costs speed */
#endif
    /* Touch every page now: the memory is really had (or the process fails
     * here, not mid-search), and page faults are not charged to the search. */
    memset(t->buckets, 0, len);
    t->shared = shared;
    return 0;
}

void tt_free(TT *t)
{
    if (t->map) munmap(t->map, t->map_len);
    memset(t, 0, sizeof *t);
}

void tt_clear(TT *t) { memset(t->buckets, 0, t->nbuckets * sizeof(TTBucket)); }

uint64_t tt_hash(Board key) { return XXH3_64bits(key.s, sizeof key.s); }

static inline size_t tt_index(const TT *t, Board key)
{
    /* Multiply-shift maps the hash onto any bucket count, not only powers of two. */
    return (size_t)(((unsigned __int128)tt_hash(key) * t->nbuckets) >> 64);
}

static inline void tt_lock(TT *t, size_t i)
{
    if (!t->shared) return;
    uint8_t *l = &t->buckets[i].e[0].sync;
    /* Held for a few dozen instructions; but when there are more threads
     * than free cores the holder may be descheduled, so a waiter that has
     * spun a while gives its core away rather than burn its time slice. */
    for (int spins = 0; __atomic_test_and_set(l, __ATOMIC_ACQUIRE);)
        if (++spins % 64 == 0) sched_yield();
}

static inline void tt_unlock(TT *t, size_t i)
{
    if (t->shared) __atomic_clear(&t->buckets[i].e[0].sync, __ATOMIC_RELEASE);
}

static inline bool tt_match(const TTEntry *e, Board key)
{
    return (e->flags & TT_FLAG_USED) && e->key[0] == key.s[0] && e->key[1] == key.s[1];
}

bool tt_probe(TT *t, Board key, TTData *out)
{
    size_t i = tt_index(t, key);
    TTBucket *b = &t->buckets[i];
    bool hit = false;
    tt_lock(t, i);
    for (int j = 0; j < TT_BUCKET_ENTRIES; j++) {
        const TTEntry *e = &b->e[j];
        if (tt_match(e, key)) {
            *out = (TTData){e->pn, e->dn, e->work, e->move, e->aux};
            hit = true;
            break;
        }
    }
    tt_unlock(t, i);
    return hit;
}

void tt_store(TT *t, Board key, const TTData *d)
{
    size_t i = tt_index(t, key);
    TTBucket *b = &t->buckets[i];
    tt_lock(t, i);
    TTEntry *victim = NULL;
    for (int j = 0; j < TT_BUCKET_ENTRIES && !victim; j++)
        if (tt_match(&b->e[j], key)) victim = &b->e[j];
    for (int j = 0; j < TT_BUCKET_ENTRIES && !victim; j++)
        if (!(b->e[j].flags & TT_FLAG_USED)) victim = &b->e[j];
    /* A proof or disproof is never overwritten by a guess for the same
     * position: with threads, one that was searching it when another
     * decided it stores its (stale) numbers afterwards. */
    if (victim && victim->flags & TT_FLAG_USED && (victim->pn == 0 || victim->dn == 0) && d->pn != 0 && d->dn != 0) {
        tt_unlock(t, i);
        return;
    }
    if (!victim) {
        victim = &b->e[0];
        for (int j = 1; j < TT_BUCKET_ENTRIES; j++)
            if (b->e[j].work < victim->work) victim = &b->e[j];
    }
    victim->key[0] = key.s[0];
    victim->key[1] = key.s[1];
    victim->pn = d->pn;
    victim->dn = d->dn;
    victim->work = d->work;
    victim->move = d->move;
    victim->flags = TT_FLAG_USED;
    victim->aux = d->aux;
    tt_unlock(t, i);
}

void tt_prefetch(const TT *t, Board key)
{
    const TTBucket *b = &t->buckets[tt_index(t, key)];
    if (t->shared) { /* the probe will take the bucket's lock: fetch for writing */
        __builtin_prefetch(&b->e[0], 1, 3);
        __builtin_prefetch(&b->e[2], 1, 3);
    } else {
        __builtin_prefetch(&b->e[0], 0, 3);
        __builtin_prefetch(&b->e[2], 0, 3); /* the bucket's second cache line */
    }
}

void tt_busy_add(TT *t, Board key, int delta)
{
    uint8_t *m = &t->buckets[tt_index(t, key)].e[1].sync;
    if (delta > 0)
        __atomic_fetch_add(m, 1, __ATOMIC_RELAXED);
    else
        __atomic_fetch_sub(m, 1, __ATOMIC_RELAXED);
}

unsigned tt_busy(const TT *t, Board key)
{
    return __atomic_load_n(&t->buckets[tt_index(t, key)].e[1].sync, __ATOMIC_RELAXED);
}

size_t tt_capacity(const TT *t) { return t->nbuckets * TT_BUCKET_ENTRIES; }

int tt_permille(TT *t)
{
    size_t n = t->nbuckets < 250 ? t->nbuckets : 250, used = 0;
    for (size_t i = 0; i < n; i++) {
        tt_lock(t, i);
        for (int j = 0; j < TT_BUCKET_ENTRIES; j++) used += t->buckets[i].e[j].flags & TT_FLAG_USED;
        tt_unlock(t, i);
    }
    return (int)(used * 1000 / (n * TT_BUCKET_ENTRIES));
}
