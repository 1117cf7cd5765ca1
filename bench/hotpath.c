/* hotpath.c - the hot path measured by perft: the engine's full-visit and
 * bulk-counted perft (engine/perft.h) and the fair baseline (baseline.c:
 * the shift-based detector on the whole board, both symbols, every node),
 * over the workload's fixed positions. The baseline must give the engine's
 * numbers exactly (sequences, positions made, sequences ending on their
 * last move): a mismatch is a bug in one of them.
 * Each run is timed twice and the faster time kept: on a shared machine the
 * faster run is the less disturbed one, and the engine/baseline ratio
 * compares two runs made at different moments. */
#include "../engine/perft.h"
#include "../solver/clock.h"
#include "../tables/errmsg.h"
#include "bench.h"

static int run_engine(const Rules *r, Board b, int depth, PerftMode mode, BenchPerftFig *f, char *err, int errlen)
{
    for (int run = 0; run < BENCH_HOT_RUNS; run++) {
        PerftResult res;
        double t0 = clock_seconds();
        if (perft_run(r, b, depth, mode, 0, &res) != 0) return errmsg_set(err, errlen, "perft could not run");
        double dt = clock_seconds() - t0;
        if (run == 0 || dt < f->seconds) f->seconds = dt;
        f->count = res.count;
        f->nodes = res.nodes;
        f->ends = res.leaf_ends;
    }
    return 0;
}

static void run_baseline(Board b, int depth, BenchPerftFig *f, int *windows)
{
    for (int run = 0; run < BENCH_HOT_RUNS; run++) {
        double t0 = clock_seconds();
        f->count = bench_baseline_perft(BENCH_N, BENCH_K, b, depth, &f->nodes, &f->ends, windows);
        double dt = clock_seconds() - t0;
        if (run == 0 || dt < f->seconds) f->seconds = dt;
    }
}

static void add_figures(BenchPerftFig *total, const BenchPerftFig *f)
{
    total->count += f->count;
    total->nodes += f->nodes;
    total->ends += f->ends;
    total->seconds += f->seconds;
}

/* Position i: the engine both ways, then the baseline, which must agree. */
static int hot_position(const Rules *r, bool quick, int i, BenchHot *h, char *err, int errlen)
{
    const BenchPerftPos *p = &bench_perft_pos[i];
    Board b;
    if (bench_parse(p->pos, r, &b, err, errlen) != 0) return -1;
    int depth = h->depth[i] = quick ? p->quick_depth : p->depth;
    if (run_engine(r, b, depth, PERFT_FULL, &h->full[i], err, errlen) != 0 ||
        run_engine(r, b, depth + 1, PERFT_BULK, &h->bulk[i], err, errlen) != 0)
        return -1;
    const BenchPerftFig *base = &h->base[i], *full = &h->full[i];
    run_baseline(b, depth, &h->base[i], &h->base_windows);
    if (base->count != full->count || base->nodes != full->nodes || base->ends != full->ends)
        return errmsg_set(err, errlen,
                           "hot path: the baseline counts %llu sequences (%llu positions, %llu ending the game) at "
                           "depth %d from %s, the engine %llu (%llu, %llu)",
                           (unsigned long long)base->count, (unsigned long long)base->nodes,
                           (unsigned long long)base->ends, depth, p->pos, (unsigned long long)full->count,
                           (unsigned long long)full->nodes, (unsigned long long)full->ends);
    add_figures(&h->full_total, full);
    add_figures(&h->bulk_total, &h->bulk[i]);
    add_figures(&h->base_total, base);
    return 0;
}

int bench_hotpath(bool quick, BenchHot *h, BenchHotEach each, void *arg, char *err, int errlen)
{
    Rules r;
    if (rules_init(&r, BENCH_N, BENCH_K, RULES_ORIGINAL, err, errlen) != 0) return -1;
    *h = (BenchHot){.npos = bench_perft_count};
    for (int i = 0; i < h->npos; i++) {
        if (hot_position(&r, quick, i, h, err, errlen) != 0) return -1;
        if (each) each(arg, i, h);
    }
    return 0;
}
