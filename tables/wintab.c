/* wintab.c - see wintab.h. */
#include "wintab.h"
#include "seqlock.h"

#include <sched.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

int wintab_init(WinTab *t, size_t bytes, bool shared)
{
    memset(t, 0, sizeof *t);
    t->nbuckets = bytes / sizeof(WinBucket) ? bytes / sizeof(WinBucket) : 1;
    size_t len = t->nbuckets * sizeof(WinBucket);
    t->buckets = hugemap_alloc(&t->mem, len);
    if (!t->buckets) return -1;
    t->shared = shared;
    return 0;
}

void wintab_free(WinTab *t)
{
    hugemap_free(&t->mem);
    memset(t, 0, sizeof *t);
}

size_t wintab_capacity(const WinTab *t) { return t->nbuckets * WINTAB_WAYS; }

static inline WinBucket *wintab_bucket(const WinTab *t, Board b)
{
    uint64_t h = XXH3_64bits(b.s, sizeof b.s);
    return &t->buckets[(size_t)(((unsigned __int128)h * t->nbuckets) >> 64)];
}

static inline void wintab_wait(unsigned *spins)
{
    if (++*spins % 64 == 0) sched_yield(); /* more threads than free cores */
}

static inline int wintab_find(const WinBucket *k, Board b)
{
    uint8_t used = SEQLOCK_LOAD(&k->used);
    for (int j = 0; j < WINTAB_WAYS; j++)
        if ((used >> j & 1) && SEQLOCK_LOAD(&k->key[j][0]) == b.s[0] && SEQLOCK_LOAD(&k->key[j][1]) == b.s[1]) return j;
    return -1;
}

void wintab_put(WinTab *t, Board b, Move m)
{
    WinBucket *k = wintab_bucket(t, b);
    uint32_t seq = 0;
    for (unsigned spins = 0; t->shared; wintab_wait(&spins)) {
        seq = __atomic_load_n(&k->seq, __ATOMIC_RELAXED);
        if (!(seq & 1) && __atomic_compare_exchange_n(&k->seq, &seq, seq + 1, false, __ATOMIC_ACQUIRE,
                                                      __ATOMIC_RELAXED))
            break;
    }
    int v = wintab_find(k, b);
    uint8_t used = SEQLOCK_LOAD(&k->used);
    for (int j = 0; j < WINTAB_WAYS && v < 0; j++)
        if (!(used >> j & 1)) v = j;
    if (v < 0) {
        v = SEQLOCK_LOAD(&k->next);
        SEQLOCK_STORE(&k->next, (uint8_t)((v + 1) % WINTAB_WAYS));
    }
    SEQLOCK_STORE(&k->key[v][0], b.s[0]);
    SEQLOCK_STORE(&k->key[v][1], b.s[1]);
    SEQLOCK_STORE(&k->move[v], m);
    SEQLOCK_STORE(&k->used, (uint8_t)(used | 1u << v));
    if (t->shared) SEQLOCK_STORE(&k->seq, seq + 2);
}

Move wintab_get(WinTab *t, Board b)
{
    const WinBucket *k = wintab_bucket(t, b);
    if (!t->shared) {
        int j = wintab_find(k, b);
        return j >= 0 ? SEQLOCK_LOAD(&k->move[j]) : MOVE_NONE;
    }
    for (unsigned spins = 0;; wintab_wait(&spins)) {
        uint32_t s = SEQLOCK_LOAD(&k->seq);
        if (s & 1) continue;
        int j = wintab_find(k, b);
        Move m = j >= 0 ? SEQLOCK_LOAD(&k->move[j]) : MOVE_NONE;
        /* Ordered after the loads above by their acquire. */
        if (__atomic_load_n(&k->seq, __ATOMIC_RELAXED) == s) return m;
    }
}
