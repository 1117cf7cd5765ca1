/* bench_text.c - the text lines of `ocsolve bench` (bench_report.h): per
 * part a heading, a line per position as it is measured (flushed, so a
 * long run shows its progress), then the part's totals. */
#include "bench_report.h"

void bench_text_start(FILE *f, bool quick)
{
    fprintf(f, "ocsolve bench: %s workload, 6x6, k=5, original rules, one thread\n", quick ? "quick" : "full");
    fflush(f);
}

void bench_text_hot_head(FILE *f)
{
    fprintf(f,
            "hot path: perft over %d fixed positions (move generation, place/undo, win detection;\n"
            "  each the best of %d runs)\n"
            "  %-38s %5s %14s %12s %12s %12s\n",
            bench_perft_count, BENCH_HOT_RUNS, "position", "depth", "count", "full M/s", "bulk M/s", "base M/s");
}

void bench_text_hot_each(void *arg, int i, const BenchHot *h)
{
    FILE *f = arg;
    const BenchPerftFig *full = &h->full[i], *bulk = &h->bulk[i], *base = &h->base[i];
    fprintf(f, "  %-38s %5d %14llu %12.1f %12.1f %12.1f\n", bench_perft_pos[i].pos, h->depth[i],
            (unsigned long long)full->count, bench_rate((double)full->nodes, full->seconds) / 1e6,
            bench_rate((double)bulk->count, bulk->seconds) / 1e6, bench_rate((double)base->nodes, base->seconds) / 1e6);
    fflush(f);
}

void bench_text_hot_total(FILE *f, const BenchHot *h)
{
    const BenchPerftFig *fv = &h->full_total, *bk = &h->bulk_total, *bs = &h->base_total;
    double full_rate = bench_rate((double)fv->nodes, fv->seconds), base_rate = bench_rate((double)bs->nodes, bs->seconds);
    fprintf(f, "  full-visit (every leaf made and judged): %llu positions in %.3f s = %.1f M positions/s\n",
            (unsigned long long)fv->nodes, fv->seconds, full_rate / 1e6);
    fprintf(f,
            "  bulk-counted (one ply deeper; the last ply counted, not made): %llu leaves in %.3f s = %.1f M leaves/s"
            " (%.1f M positions made/s)\n",
            (unsigned long long)bk->count, bk->seconds, bench_rate((double)bk->count, bk->seconds) / 1e6,
            bench_rate((double)bk->nodes, bk->seconds) / 1e6);
    fprintf(f,
            "  fair baseline full-visit (shift detector, all %d windows for both symbols at every node): %llu positions in %.3f s"
            " = %.1f M positions/s; same counts as the engine\n",
            h->base_windows, (unsigned long long)bs->nodes, bs->seconds, base_rate / 1e6);
    fprintf(f, "  engine/baseline (full-visit): %.2fx (target >= 2x against this fair baseline)\n", bench_rate(full_rate, base_rate));
}

void bench_text_tt(FILE *f, const BenchTT *tt)
{
    const BenchTTFig *st = &tt->rnd_store, *pr = &tt->rnd_probe, *wp = &tt->walk_probe;
    fprintf(f, "table (tables/tt.h, %zu MiB, one thread, unshared):\n", tt->bytes >> 20);
    fprintf(f, "  random keys: %.2f M stores/s, %.2f M probes/s (%llu each; probe hits %.1f%%)\n",
            bench_rate((double)st->ops, st->seconds) / 1e6, bench_rate((double)pr->ops, pr->seconds) / 1e6,
            (unsigned long long)pr->ops, 100.0 * (double)pr->hits / (double)pr->ops);
    fprintf(f,
            "  search-like (probe %d children, then store the node; repeated descents): %.2f M operations/s "
            "(%llu probes, %.1f%% hits, %llu stores in %.3f s)\n",
            tt->walk_children, bench_probe_bound(tt) / 1e6, (unsigned long long)wp->ops,
            100.0 * (double)wp->hits / (double)(wp->ops ? wp->ops : 1), (unsigned long long)tt->walk_store.ops,
            wp->seconds);
    fflush(f);
}

void bench_text_solver_head(FILE *f)
{
    fprintf(f,
            "solver: df-pn, one thread, %zu MiB table cleared before each position\n"
            "  %-36s %5s %-5s %10s %8s %10s\n",
            BENCH_SOLVER_TT_BYTES >> 20, "position", "empty", "value", "nodes", "seconds", "nodes/s");
    fflush(f);
}

void bench_text_solver_each(void *arg, int i, const BenchSolver *s)
{
    FILE *f = arg;
    const BenchSolveFig *p = &s->pos[i];
    fprintf(f, "  %-36s %5d %-5s %10llu %8.3f %10.0f\n", bench_solve_pos[s->index[i]].pos, p->empty,
            winner_name(p->value), (unsigned long long)p->nodes, p->seconds, bench_rate((double)p->nodes, p->seconds));
    fflush(f);
}

void bench_text_solver_total(FILE *f, const BenchSolver *s, bool parallel)
{
    fprintf(f, "  %s: %d positions, %llu nodes in %.3f s = %.0f nodes/s\n", parallel ? "parallel" : "total", s->npos,
            (unsigned long long)s->nodes, s->seconds, bench_rate((double)s->nodes, s->seconds));
    fflush(f);
}

void bench_text_bound(FILE *f, const BenchTT *tt, const BenchSolver *s1)
{
    double nps = bench_rate((double)s1->nodes, s1->seconds), bound = bench_probe_bound(tt);
    fprintf(f,
            "table-probe bound: %.2f M table operations/s (the search-like pattern above)\n"
            "  solver nodes/s / bound = %.4f (target >= 0.33, within 3x). A solver node is an expansion, which\n"
            "  probes the table once per open child and stores at least once: several operations per node;\n"
            "  at the bound a node could afford %.0f table operations\n",
            bound / 1e6, bench_rate(nps, bound), bench_rate(bound, nps));
}

void bench_text_parallel_head(FILE *f, int threads)
{
    fprintf(f, "solver, %d thread%s, shared table:\n", threads, threads == 1 ? "" : "s");
    fflush(f);
}

void bench_text_speedup(FILE *f, int threads, const BenchSolver *s1, const BenchSolver *sp)
{
    fprintf(f, "  speedup (wall time, one thread / %d): %.2fx\n", threads, bench_rate(s1->seconds, sp->seconds));
}

void bench_text_signature(FILE *f, const BenchSolver *s1)
{
    fprintf(f, "bench signature: %llu\n", (unsigned long long)s1->nodes);
}

void bench_text_opening_head(FILE *f)
{
    fprintf(f,
            "ocsolve bench --opening: %d positions 2-6 plies from the empty board, 6x6, k=5, original rules,\n"
            "  one df-pn thread, no centre lemma (pure search), %zu MiB table cleared before each\n"
            "  %-28s %6s %5s %-5s %11s %9s %9s\n",
            bench_opening_count, BENCH_OPENING_TT_BYTES >> 20, "moves", "pieces", "empty", "value", "nodes", "seconds",
            "nodes/s");
    fflush(f);
}

void bench_text_opening_each(void *arg, int i, const BenchOpening *o)
{
    FILE *f = arg;
    const BenchSolveFig *p = &o->pos[i];
    fprintf(f, "  %-28s %6d %5d %-5s %11llu %9.2f %9.0f\n", bench_opening_pos[i].moves, o->pieces[i], p->empty,
            winner_name(p->value), (unsigned long long)p->nodes, p->seconds, bench_rate((double)p->nodes, p->seconds));
    fflush(f);
}

void bench_text_opening_total(FILE *f, const BenchOpening *o)
{
    fprintf(f, "  total: %d positions, %llu nodes in %.2f s = %.0f nodes/s\n", o->npos, (unsigned long long)o->nodes,
            o->seconds, bench_rate((double)o->nodes, o->seconds));
    fprintf(f, "opening signature: %llu\n", (unsigned long long)o->nodes);
}
