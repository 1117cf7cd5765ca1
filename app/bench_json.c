/* bench_json.c - every figure of `ocsolve bench --json` as one object
 * (bench_report.h), through the command layer's JSON writer (json.h).
 * Rates are derived here from the raw counts and seconds, which are
 * printed too, so a reader can recompute them: seconds with 6 decimals,
 * rates with none, ratios with 3 (solver/bound with 6). */
#include "bench_report.h"
#include "json.h"

static void perft_fig(Json *j, const char *name, const BenchPerftFig *p, bool leaves)
{
    json_object(j, name);
    json_uint(j, "count", p->count);
    json_uint(j, "positions", p->nodes);
    json_real(j, "seconds", p->seconds, 6);
    json_real(j, "positions_per_second", bench_rate((double)p->nodes, p->seconds), 0);
    if (leaves) json_real(j, "leaves_per_second", bench_rate((double)p->count, p->seconds), 0);
    json_close(j);
}

/* The engine both ways and the baseline: of one position, or the totals. */
static void perft_figs(Json *j, const BenchPerftFig *full, const BenchPerftFig *bulk, const BenchPerftFig *base)
{
    perft_fig(j, "full_visit", full, false);
    perft_fig(j, "bulk_counted", bulk, true);
    perft_fig(j, "baseline", base, false);
}

static void json_hot(Json *j, const BenchHot *h)
{
    json_object(j, "hot_path");
    json_array(j, "positions");
    for (int i = 0; i < h->npos; i++) {
        json_object(j, NULL);
        json_str(j, "position", bench_perft_pos[i].pos);
        json_int(j, "depth", h->depth[i]);
        json_int(j, "bulk_depth", h->depth[i] + 1);
        perft_figs(j, &h->full[i], &h->bulk[i], &h->base[i]);
        json_close(j);
    }
    json_close(j);
    perft_figs(j, &h->full_total, &h->bulk_total, &h->base_total);
    double full = bench_rate((double)h->full_total.nodes, h->full_total.seconds);
    double base = bench_rate((double)h->base_total.nodes, h->base_total.seconds);
    json_int(j, "baseline_windows", h->base_windows);
    json_real(j, "engine_over_baseline", bench_rate(full, base), 3);
    json_close(j);
}

static void tt_fig(Json *j, const char *name, const BenchTTFig *t, bool hits)
{
    json_object(j, name);
    json_uint(j, "operations", t->ops);
    json_real(j, "seconds", t->seconds, 6);
    json_real(j, "per_second", bench_rate((double)t->ops, t->seconds), 0);
    if (hits) json_uint(j, "hits", t->hits);
    json_close(j);
}

static void json_tt(Json *j, const BenchTT *t)
{
    json_object(j, "table");
    json_uint(j, "bytes", t->bytes);
    json_object(j, "random");
    tt_fig(j, "store", &t->rnd_store, false);
    tt_fig(j, "probe", &t->rnd_probe, true);
    json_close(j);
    json_object(j, "search_like");
    json_int(j, "children_probed", t->walk_children);
    json_uint(j, "probes", t->walk_probe.ops);
    json_uint(j, "hits", t->walk_probe.hits);
    json_uint(j, "stores", t->walk_store.ops);
    json_real(j, "seconds", t->walk_probe.seconds, 6);
    json_real(j, "operations_per_second", bench_probe_bound(t), 0);
    json_close(j);
    json_close(j);
}

static void solver_positions(Json *j, const BenchSolver *s)
{
    json_array(j, "positions");
    for (int i = 0; i < s->npos; i++) {
        const BenchSolvePos *p = &bench_solve_pos[s->index[i]];
        json_object(j, NULL);
        json_str(j, "position", p->pos);
        json_str(j, "value", winner_name(s->pos[i].value));
        json_str(j, "value_from", p->source);
        json_uint(j, "nodes", s->pos[i].nodes);
        json_real(j, "seconds", s->pos[i].seconds, 6);
        json_close(j);
    }
    json_close(j);
}

/* per_position: "positions" lists them; otherwise it is their number. */
static void json_solver(Json *j, const char *name, const BenchSolver *s, bool per_position)
{
    json_object(j, name);
    json_int(j, "threads", s->threads);
    json_uint(j, "table_bytes", BENCH_SOLVER_TT_BYTES);
    if (per_position) solver_positions(j, s);
    else json_int(j, "positions", s->npos);
    json_uint(j, "nodes", s->nodes);
    json_real(j, "seconds", s->seconds, 6);
    json_real(j, "nodes_per_second", bench_rate((double)s->nodes, s->seconds), 0);
    json_close(j);
}

void bench_json_print(FILE *f, bool quick, const BenchHot *hot, const BenchTT *tt, const BenchSolver *s1,
                      const BenchSolver *sp)
{
    Json j;
    json_begin(&j, f);
    json_object(&j, NULL);
    json_str(&j, "workload", quick ? "quick" : "full");
    json_str(&j, "rules", "original");
    json_int(&j, "board", BENCH_N);
    json_int(&j, "k", BENCH_K);
    if (hot) json_hot(&j, hot);
    if (tt) json_tt(&j, tt);
    json_solver(&j, "solver", s1, true);
    if (tt) {
        double nps = bench_rate((double)s1->nodes, s1->seconds), bound = bench_probe_bound(tt);
        json_real(&j, "probe_bound", bound, 0);
        json_real(&j, "solver_over_probe_bound", bench_rate(nps, bound), 6);
    }
    if (sp) {
        json_solver(&j, "parallel", sp, false);
        json_real(&j, "speedup", bench_rate(s1->seconds, sp->seconds), 3);
    }
    json_uint(&j, "signature", s1->nodes);
    json_close(&j);
    json_end(&j);
}

void bench_json_opening(FILE *f, const BenchOpening *o)
{
    Json j;
    json_begin(&j, f);
    json_object(&j, NULL);
    json_str(&j, "workload", "opening");
    json_str(&j, "rules", "original");
    json_int(&j, "board", BENCH_N);
    json_int(&j, "k", BENCH_K);
    json_uint(&j, "table_bytes", BENCH_OPENING_TT_BYTES);
    json_array(&j, "positions");
    for (int i = 0; i < o->npos; i++) {
        json_object(&j, NULL);
        json_str(&j, "moves", bench_opening_pos[i].moves);
        json_int(&j, "pieces", o->pieces[i]);
        json_str(&j, "value", winner_name(o->pos[i].value));
        json_str(&j, "value_from", bench_opening_pos[i].source);
        json_uint(&j, "nodes", o->pos[i].nodes);
        json_real(&j, "seconds", o->pos[i].seconds, 6);
        json_real(&j, "nodes_per_second", bench_rate((double)o->pos[i].nodes, o->pos[i].seconds), 0);
        json_close(&j);
    }
    json_close(&j);
    json_uint(&j, "nodes", o->nodes);
    json_real(&j, "seconds", o->seconds, 6);
    json_real(&j, "nodes_per_second", bench_rate((double)o->nodes, o->seconds), 0);
    json_uint(&j, "signature", o->nodes);
    json_close(&j);
    json_end(&j);
}
