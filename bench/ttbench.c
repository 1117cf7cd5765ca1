/* ttbench.c - transposition table throughput (tables/tt.h), one thread,
 * unshared (no locks), a fixed 64 MiB table.
 *
 * Random keys: every access is to an unrelated bucket, so this is close to
 * one cache miss per operation: the table's worst case.
 * Search-like: what df-pn does at a node - probe each child, then store the
 * node - on real positions, with repeated descents from one root along
 * paths chosen among a node's first three moves, so upper nodes and their
 * children are met again and again (hits, warm cache lines) and deep ones
 * rarely. Its operation rate is the table-probe bound that the solver's
 * node rate is compared with.
 */
#include "../engine/moves.h"
#include "../engine/rng.h"
#include "../solver/clock.h"
#include "../tables/tt.h"
#include "../tables/errmsg.h"
#include "bench.h"

enum { WALK_CHILDREN = 16, WALK_BRANCH = 3, WALK_DEPTH = 14 };

/* A fixed stream (engine/rng.h), so every run touches the same keys. */
static uint64_t tb_next(uint64_t *s) { return rng_next(s); }

static Board tb_random_key(uint64_t *s, uint64_t cells)
{
    uint64_t x = tb_next(s) & cells;
    uint64_t o = tb_next(s) & cells & ~x;
    return (Board){{x, o}};
}

static void tb_random(TT *t, uint64_t n, BenchTT *out)
{
    uint64_t cells = board_mask(BENCH_N), s = 1;
    double t0 = clock_seconds();
    for (uint64_t i = 0; i < n; i++) {
        Board k = tb_random_key(&s, cells);
        TTData d = {(uint32_t)i, 1, (uint32_t)(i & 1023), MOVE_NONE};
        tt_store(t, k, &d);
    }
    double t1 = clock_seconds();
    /* The same keys again: the ones not yet replaced are hits. */
    s = 1;
    uint64_t hits = 0;
    for (uint64_t i = 0; i < n; i++) {
        TTData d;
        hits += tt_probe(t, tb_random_key(&s, cells), &d);
    }
    double t2 = clock_seconds();
    out->rnd_store = (BenchTTFig){n, 0, t1 - t0};
    out->rnd_probe = (BenchTTFig){n, hits, t2 - t1};
}

static void tb_walk(TT *t, Board root, uint64_t descents, BenchTT *out)
{
    uint64_t cells = board_mask(BENCH_N), s = 2, probes = 0, hits = 0, stores = 0;
    double t0 = clock_seconds();
    for (uint64_t it = 0; it < descents; it++) {
        Board b = root;
        for (int ply = 0; ply < WALK_DEPTH; ply++) {
            MoveList ml;
            moves_generate(b, cells, &ml);
            int nc = ml.count < WALK_CHILDREN ? ml.count : WALK_CHILDREN;
            if (nc == 0) break;
            for (int i = 0; i < nc; i++) {
                Board c = b;
                board_place(&c, ml.m[i]);
                TTData d;
                hits += tt_probe(t, c, &d);
            }
            probes += (uint64_t)nc;
            TTData d = {1, 1, (uint32_t)(WALK_DEPTH - ply), ml.m[0]};
            tt_store(t, b, &d);
            stores++;
            board_place(&b, ml.m[tb_next(&s) % (uint64_t)(nc < WALK_BRANCH ? nc : WALK_BRANCH)]);
        }
    }
    double dt = clock_seconds() - t0;
    out->walk_probe = (BenchTTFig){probes, hits, dt};
    out->walk_store = (BenchTTFig){stores, 0, dt};
    out->walk_children = WALK_CHILDREN;
}

double bench_probe_bound(const BenchTT *tt)
{
    return bench_rate((double)(tt->walk_probe.ops + tt->walk_store.ops), tt->walk_probe.seconds);
}

int bench_tt(bool quick, BenchTT *out, char *err, int errlen)
{
    *out = (BenchTT){.bytes = BENCH_TT_BYTES};
    Rules r;
    Board root;
    if (rules_init(&r, BENCH_N, BENCH_K, RULES_ORIGINAL, err, errlen) != 0 ||
        bench_parse(bench_tt_root, &r, &root, err, errlen) != 0)
        return -1;
    TT t;
    if (tt_init(&t, BENCH_TT_BYTES, false) != 0)
        return errmsg_set(err, errlen, "cannot allocate the %zu MiB table", BENCH_TT_BYTES >> 20);
    /* Twice the table's entries: the random stores also exercise replacement. */
    uint64_t n = quick ? 200000 : 2 * (uint64_t)tt_capacity(&t);
    tb_random(&t, n, out);
    tt_clear(&t);
    tb_walk(&t, root, quick ? 5000 : 400000, out);
    tt_free(&t);
    return 0;
}
