/* tt_threads.c - a standalone threaded program for ThreadSanitizer
 * (Criterion does not run under TSan): two threads store and probe keys in
 * one shared table whose buckets they contend for. Exit 0 when every hit
 * carried its own key's data; TSan itself reports any data race. */
#include <pthread.h>
#include <stdio.h>

#include "../../tables/tt.h"

typedef struct {
    TT *t;
    uint64_t rng;
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
        Board b = {{x, o}};
        TTData d = {(uint32_t)x, (uint32_t)o, (uint32_t)i, (Move)(x & 63), (uint16_t)(o >> 3)}, got;
        tt_store(w->t, b, &d);
        if (tt_probe(w->t, b, &got)) {
            w->hits++;
            w->bad += got.pn != (uint32_t)x || got.dn != (uint32_t)o || got.move != (Move)(x & 63);
        }
    }
    return NULL;
}

int main(void)
{
    TT t;
    if (tt_init(&t, 8 << 10, true) != 0) return 1;
    Worker w[2] = {{&t, 0x1234567ULL, 0, 0}, {&t, 0x89ABCDEFULL, 0, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, run, &w[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    tt_free(&t);
    printf("tt_threads: %ld hits, %ld wrong\n", w[0].hits + w[1].hits, w[0].bad + w[1].bad);
    return w[0].bad + w[1].bad ? 1 : 0;
}
