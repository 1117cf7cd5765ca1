/* hotpath.c - the hot path measured by perft: the engine's full-visit and
 * bulk-counted perft (engine/perft.h) and the naive baseline
 * (baseline.c), over the workload's fixed positions. The baseline must give
 * the engine's numbers exactly: a mismatch is a bug in one of them.
 * Each run is timed twice and the faster time kept: on a shared machine the
 * faster run is the less disturbed one, and the engine/baseline ratio
 * compares two runs made at different moments. */
#include "../engine/perft.h"
#include "../solver/clock.h"
#include "bench.h"

enum { HOT_RUNS = 2 };

static void run_engine(const Rules *r, Board b, int depth, PerftMode mode, BenchPerftFig *f)
{
    for (int run = 0; run < HOT_RUNS; run++) {
        PerftResult res;
        double t0 = clock_seconds();
        if (perft_run(r, b, depth, mode, 0, &res) != 0) bench_fail("perft could not run");
        double dt = clock_seconds() - t0;
        if (run == 0 || dt < f->seconds) f->seconds = dt;
        f->count = res.count;
        f->nodes = res.nodes;
    }
}

static void run_baseline(Board b, int depth, BenchPerftFig *f, int *windows)
{
    for (int run = 0; run < HOT_RUNS; run++) {
        double t0 = clock_seconds();
        f->count = bench_baseline_perft(BENCH_N, BENCH_K, b, depth, &f->nodes, windows);
        double dt = clock_seconds() - t0;
        if (run == 0 || dt < f->seconds) f->seconds = dt;
    }
}

static void add(BenchPerftFig *total, const BenchPerftFig *f)
{
    total->count += f->count;
    total->nodes += f->nodes;
    total->seconds += f->seconds;
}

void bench_hotpath(const BenchOpts *o, BenchHot *h)
{
    Rules r;
    char err[128];
    if (rules_init(&r, BENCH_N, BENCH_K, RULES_ORIGINAL, err, sizeof err) != 0) bench_fail("%s", err);
    *h = (BenchHot){.npos = bench_perft_count};
    if (o->txt)
        fprintf(o->txt,
                "hot path: perft over %d fixed positions (move generation, place/undo, win detection;\n"
                "  each the best of %d runs)\n"
                "  %-38s %5s %14s %12s %12s %12s\n",
                h->npos, HOT_RUNS, "position", "depth", "count", "full M/s", "bulk M/s", "base M/s");
    for (int i = 0; i < h->npos; i++) {
        const BenchPerftPos *p = &bench_perft_pos[i];
        Board b;
        bench_parse(p->pos, &r, &b);
        int depth = h->depth[i] = o->quick ? p->quick_depth : p->depth;
        run_engine(&r, b, depth, PERFT_FULL, &h->full[i]);
        run_engine(&r, b, depth + 1, PERFT_BULK, &h->bulk[i]);
        BenchPerftFig *base = &h->base[i];
        run_baseline(b, depth, base, &h->base_windows);
        if (base->count != h->full[i].count || base->nodes != h->full[i].nodes)
            bench_fail("hot path: the baseline counts %llu sequences (%llu positions) at depth %d from %s, the "
                           "engine %llu (%llu)",
                           (unsigned long long)base->count, (unsigned long long)base->nodes, depth, p->pos,
                           (unsigned long long)h->full[i].count, (unsigned long long)h->full[i].nodes);
        add(&h->full_total, &h->full[i]);
        add(&h->bulk_total, &h->bulk[i]);
        add(&h->base_total, base);
        if (o->txt)
            fprintf(o->txt, "  %-38s %5d %14llu %12.1f %12.1f %12.1f\n", p->pos, depth,
                    (unsigned long long)h->full[i].count, bench_rate((double)h->full[i].nodes, h->full[i].seconds) / 1e6,
                    bench_rate((double)h->bulk[i].count, h->bulk[i].seconds) / 1e6,
                    bench_rate((double)base->nodes, base->seconds) / 1e6);
    }
    if (!o->txt) return;
    const BenchPerftFig *f = &h->full_total, *bk = &h->bulk_total, *bs = &h->base_total;
    double full_rate = bench_rate((double)f->nodes, f->seconds), base_rate = bench_rate((double)bs->nodes, bs->seconds);
    fprintf(o->txt, "  full-visit (every leaf made and judged): %llu positions in %.3f s = %.1f M positions/s\n",
            (unsigned long long)f->nodes, f->seconds, full_rate / 1e6);
    fprintf(o->txt,
            "  bulk-counted (one ply deeper; the last ply counted, not made): %llu leaves in %.3f s = %.1f M leaves/s"
            " (%.1f M positions made/s)\n",
            (unsigned long long)bk->count, bk->seconds, bench_rate((double)bk->count, bk->seconds) / 1e6,
            bench_rate((double)bk->nodes, bk->seconds) / 1e6);
    fprintf(o->txt,
            "  baseline full-visit (all %d windows tested for both symbols at every node): %llu positions in %.3f s"
            " = %.1f M positions/s; same counts as the engine\n",
            h->base_windows, (unsigned long long)bs->nodes, bs->seconds, base_rate / 1e6);
    fprintf(o->txt, "  engine/baseline (full-visit): %.2fx (target >= 3x)\n", bench_rate(full_rate, base_rate));
}
