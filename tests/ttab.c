/* ttab.c - see ttab.h. */
#include "ttab.h"

#include <criterion/criterion.h>
#include <pthread.h>

#include "testlib.h"

Board ttab_random_board(uint64_t *rng)
{
    uint64_t cells = board_mask(6), x = tl_rand(rng) & cells, o = tl_rand(rng) & cells & ~x;
    return (Board){{x, o}};
}

TTData ttab_data_for(Board b, uint32_t work)
{
    uint64_t h = (b.s[0] * 0x9E3779B97F4A7C15ULL ^ b.s[1] * 0xC2B2AE3D27D4EB4FULL) + work * 0x165667B19E3779F9ULL;
    return (TTData){(uint32_t)h, (uint32_t)(h >> 32), work, (Move)(h & 63)};
}

void ttab_expect_data(TTData got, TTData want)
{
    cr_assert_eq(got.pn, want.pn);
    cr_assert_eq(got.dn, want.dn);
    cr_assert_eq(got.work, want.work);
    cr_assert_eq(got.move, want.move);
}

/* One of ttab_two_workers' threads. */
typedef struct {
    TT *t;
    uint64_t seed;
    int nkeys; /* 0: random keys; else keys drawn from the first nkeys */
    int bad, hits;
} Worker;

static void *worker(void *arg)
{
    Worker *w = arg;
    uint64_t rng = w->seed;
    for (int i = 0; i < 200000; i++) {
        uint64_t few = (uint64_t)(i % (w->nkeys ? w->nkeys : 1)) + 1;
        Board b = w->nkeys ? (Board){{few, few << 40}} : ttab_random_board(&rng);
        TTData d = ttab_data_for(b, (uint32_t)i), got;
        tt_store(w->t, b, &d);
        if (tt_probe(w->t, b, &got)) {
            w->hits++;
            TTData want = ttab_data_for(b, got.work);
            w->bad += got.pn != want.pn || got.dn != want.dn || got.move != want.move;
        }
    }
    return NULL;
}

int ttab_two_workers(TT *t, int nkeys)
{
    Worker w[2] = {{t, 1, nkeys, 0, 0}, {t, 2, nkeys, 0, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, worker, &w[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    cr_expect_eq(w[0].bad + w[1].bad, 0);
    return w[0].hits + w[1].hits;
}

TTBounds ttab_bounds_of(TT *t, Board k)
{
    TTBounds got = {0, 0, 0, 0};
    cr_assert(tt_probe_bounds(t, k, &got), "the depth-bound entry is gone");
    return got;
}
