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

void bench_tt(const BenchOpts *o, BenchTT *out)
{
    TT t;
    *out = (BenchTT){.bytes = BENCH_TT_BYTES};
    if (tt_init(&t, BENCH_TT_BYTES, false) != 0) bench_fail("cannot allocate the %zu MiB table", BENCH_TT_BYTES >> 20);
    /* Twice the table's entries: the random stores also exercise replacement. */
    uint64_t n = o->quick ? 200000 : 2 * (uint64_t)tt_capacity(&t);
    tb_random(&t, n, out);
    tt_clear(&t);
    Rules r;
    char err[128];
    if (rules_init(&r, BENCH_N, BENCH_K, RULES_ORIGINAL, err, sizeof err) != 0) bench_fail("%s", err);
    Board root;
    bench_parse(bench_tt_root, &r, &root);
    tb_walk(&t, root, o->quick ? 5000 : 400000, out);
    tt_free(&t);
    if (!o->txt) return;
    fprintf(o->txt, "table (tables/tt.h, %zu MiB, one thread, unshared):\n", out->bytes >> 20);
    fprintf(o->txt, "  random keys: %.2f M stores/s, %.2f M probes/s (%llu each; probe hits %.1f%%)\n",
            bench_rate((double)out->rnd_store.ops, out->rnd_store.seconds) / 1e6,
            bench_rate((double)out->rnd_probe.ops, out->rnd_probe.seconds) / 1e6, (unsigned long long)n,
            100.0 * (double)out->rnd_probe.hits / (double)n);
    fprintf(o->txt,
            "  search-like (probe %d children, then store the node; repeated descents): %.2f M operations/s "
            "(%llu probes, %.1f%% hits, %llu stores in %.3f s)\n",
            out->walk_children, bench_probe_bound(out) / 1e6, (unsigned long long)out->walk_probe.ops,
            100.0 * (double)out->walk_probe.hits / (double)(out->walk_probe.ops ? out->walk_probe.ops : 1),
            (unsigned long long)out->walk_store.ops, out->walk_probe.seconds);
}
