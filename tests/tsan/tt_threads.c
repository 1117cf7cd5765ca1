/* tt_threads.c - a standalone threaded program for ThreadSanitizer
 * (Criterion does not run under TSan): two threads store and probe keys in
 * one shared table whose buckets they contend for (64 buckets and random
 * keys, then one bucket whose six keys both rewrite), then the same on
 * two-level tables (tt.h) whose hot level is a few buckets, so that
 * promotions, big-level probes and their copies back race too. Exit 0 when
 * every hit carried its own key's data; TSan itself reports any data race. */
#include <pthread.h>
#include <stdio.h>

#include "../../tables/tt.h"

typedef struct {
    TT *t;
    uint64_t rng;
    int few; /* 0: random keys; else keys 1..few */
    long bad, hits;
} Worker;

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void *run(void *arg)
{
    Worker *w = arg;
    uint64_t cells = board_mask(6);
    for (int i = 0; i < 100000; i++) {
        uint64_t x = next(&w->rng) & cells, o = next(&w->rng) & cells & ~x;
        if (w->few) { /* a few keys, rewritten by both threads */
            x = (uint64_t)(i % w->few) + 1;
            o = x << 40;
        }
        Board b = {{x, o}};
        /* Data of this key and this store: a torn read shows. */
        uint32_t v = (uint32_t)i * 2654435761u;
        TTData d = {(uint32_t)x ^ v, (uint32_t)o + v, (uint32_t)i, (Move)((x + (uint64_t)i) & 63)}, got;
        tt_store(w->t, b, &d);
        if (tt_probe(w->t, b, &got)) {
            w->hits++;
            v = got.work * 2654435761u;
            w->bad += got.pn != ((uint32_t)x ^ v) || got.dn != (uint32_t)o + v || got.move != (Move)((x + got.work) & 63);
        }
    }
    return NULL;
}

/* Two threads on one table (a hot level of hot bytes; 0: one level);
 * returns the wrong hits. */
static long race(size_t bytes, size_t hot, int few, long *hits)
{
    TT t;
    if (tt_init_levels(&t, bytes, true, hot) != 0) return 1;
    Worker w[2] = {{&t, 0x1234567ULL, few, 0, 0}, {&t, 0x89ABCDEFULL, few, 0, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, run, &w[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    tt_free(&t);
    *hits = w[0].hits + w[1].hits;
    return w[0].bad + w[1].bad;
}

int main(void)
{
    long hits1, hits2, hits3, hits4;
    long bad = race(8 << 10, 0, 0, &hits1);                     /* 64 buckets, random keys */
    bad += race(1, 0, 6, &hits2);                               /* one bucket, six keys rewritten */
    bad += race(8 << 10, 4 * sizeof(TTBucket), 0, &hits3);     /* 4 hot buckets, 60 big */
    bad += race(2 * sizeof(TTBucket), sizeof(TTBucket), 6, &hits4); /* 1 + 1 buckets, six keys */
    printf("tt_threads: %ld + %ld hits one level, %ld + %ld two levels, %ld wrong\n", hits1, hits2, hits3, hits4, bad);
    return bad || hits2 == 0 || hits4 == 0 ? 1 : 0;
}
