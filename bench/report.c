/* report.c - every bench figure as one JSON object (--json), and the small
 * helpers the parts share. Rates are derived here from the raw counts and
 * seconds, which are printed too, so a reader can recompute them. */
#include <stdarg.h>
#include <stdlib.h>

#include "bench.h"

double bench_rate(double amount, double seconds) { return amount / (seconds > 1e-9 ? seconds : 1e-9); }

void bench_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ocsolve bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}


static void perft_fig(FILE *f, const char *name, const BenchPerftFig *p, bool leaves)
{
    fprintf(f, "\"%s\":{\"count\":%llu,\"positions\":%llu,\"seconds\":%.6f,\"positions_per_second\":%.0f", name,
            (unsigned long long)p->count, (unsigned long long)p->nodes, p->seconds,
            bench_rate((double)p->nodes, p->seconds));
    if (leaves) fprintf(f, ",\"leaves_per_second\":%.0f", bench_rate((double)p->count, p->seconds));
    fputc('}', f);
}

static void json_hot(FILE *f, const BenchHot *h)
{
    fprintf(f, "\"hot_path\":{\"positions\":[");
    for (int i = 0; i < h->npos; i++) {
        fprintf(f, "%s{\"position\":\"%s\",\"depth\":%d,\"bulk_depth\":%d,", i ? "," : "", bench_perft_pos[i].pos,
                h->depth[i], h->depth[i] + 1);
        perft_fig(f, "full_visit", &h->full[i], false);
        fputc(',', f);
        perft_fig(f, "bulk_counted", &h->bulk[i], true);
        fputc(',', f);
        perft_fig(f, "baseline", &h->base[i], false);
        fputc('}', f);
    }
    fputs("],", f);
    perft_fig(f, "full_visit", &h->full_total, false);
    fputc(',', f);
    perft_fig(f, "bulk_counted", &h->bulk_total, true);
    fputc(',', f);
    perft_fig(f, "baseline", &h->base_total, false);
    double full = bench_rate((double)h->full_total.nodes, h->full_total.seconds);
    double base = bench_rate((double)h->base_total.nodes, h->base_total.seconds);
    fprintf(f, ",\"baseline_windows\":%d,\"engine_over_baseline\":%.3f},", h->base_windows, bench_rate(full, base));
}

static void tt_fig(FILE *f, const char *name, const BenchTTFig *t, bool hits)
{
    fprintf(f, "\"%s\":{\"operations\":%llu,\"seconds\":%.6f,\"per_second\":%.0f", name, (unsigned long long)t->ops,
            t->seconds, bench_rate((double)t->ops, t->seconds));
    if (hits) fprintf(f, ",\"hits\":%llu", (unsigned long long)t->hits);
    fputc('}', f);
}

static void json_tt(FILE *f, const BenchTT *t)
{
    fprintf(f, "\"table\":{\"bytes\":%zu,\"random\":{", t->bytes);
    tt_fig(f, "store", &t->rnd_store, false);
    fputc(',', f);
    tt_fig(f, "probe", &t->rnd_probe, true);
    fprintf(f, "},\"search_like\":{\"children_probed\":%d,\"probes\":%llu,\"hits\":%llu,\"stores\":%llu,"
               "\"seconds\":%.6f,\"operations_per_second\":%.0f}},",
            t->walk_children, (unsigned long long)t->walk_probe.ops, (unsigned long long)t->walk_probe.hits,
            (unsigned long long)t->walk_store.ops, t->walk_probe.seconds, bench_probe_bound(t));
}

static void json_solver(FILE *f, const char *name, const BenchSolver *s, bool per_position)
{
    fprintf(f, "\"%s\":{\"threads\":%d,\"table_bytes\":%zu,\"positions\":", name, s->threads, BENCH_SOLVER_TT_BYTES);
    if (per_position) {
        fputc('[', f);
        for (int i = 0; i < s->npos; i++) {
            const BenchSolvePos *p = &bench_solve_pos[s->index[i]];
            fprintf(f, "%s{\"position\":\"%s\",\"value\":\"%s\",\"value_from\":\"%s\",\"nodes\":%llu,\"seconds\":%.6f}",
                    i ? "," : "", p->pos, winner_name(s->pos[i].value), p->source,
                    (unsigned long long)s->pos[i].nodes, s->pos[i].seconds);
        }
        fputc(']', f);
    } else {
        fprintf(f, "%d", s->npos);
    }
    fprintf(f, ",\"nodes\":%llu,\"seconds\":%.6f,\"nodes_per_second\":%.0f}", (unsigned long long)s->nodes, s->seconds,
            bench_rate((double)s->nodes, s->seconds));
}

void bench_json(FILE *f, const BenchOpts *o, const BenchHot *hot, const BenchTT *tt, const BenchSolver *s1,
                const BenchSolver *sp)
{
    fprintf(f, "{\"workload\":\"%s\",\"rules\":\"original\",\"board\":%d,\"k\":%d,", o->quick ? "quick" : "full", BENCH_N,
            BENCH_K);
    if (hot) json_hot(f, hot);
    if (tt) json_tt(f, tt);
    json_solver(f, "solver", s1, true);
    double nps = bench_rate((double)s1->nodes, s1->seconds);
    if (tt)
        fprintf(f, ",\"probe_bound\":%.0f,\"solver_over_probe_bound\":%.6f", bench_probe_bound(tt),
                bench_rate(nps, bench_probe_bound(tt)));
    if (sp) {
        fputc(',', f);
        json_solver(f, "parallel", sp, false);
        fprintf(f, ",\"speedup\":%.3f", bench_rate(s1->seconds, sp->seconds));
    }
    fprintf(f, ",\"signature\":%llu}\n", (unsigned long long)s1->nodes);
}
