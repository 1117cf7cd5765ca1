/* solverbench.c - df-pn over the workload's fixed suite. The table is
 * cleared before every position, so each position's node count is the
 * same whatever ran before it, and the quick workload's counts are a subset
 * of the full one's. Every value must equal the recorded one: a mismatch
 * is a wrong answer, not a slow one. */
#include "../solver/clock.h"
#include "bench.h"


void bench_solver(const BenchOpts *o, int threads, BenchSolver *out)
{
    Rules r;
    char err[128];
    if (rules_init(&r, BENCH_N, BENCH_K, RULES_ORIGINAL, err, sizeof err) != 0) bench_fail("%s", err);
    /* threads == 0: the reference run, one thread on an unshared table (no
     * locks); otherwise the parallel run, on a shared table. */
    TT tt;
    if (tt_init(&tt, BENCH_SOLVER_TT_BYTES, threads > 0) != 0)
        bench_fail("cannot allocate the %zu MiB table", BENCH_SOLVER_TT_BYTES >> 20);
    DfpnConfig cfg = dfpn_default_config();
    *out = (BenchSolver){.threads = threads > 0 ? threads : 1};
    if (o->txt && threads == 0)
        fprintf(o->txt,
                "solver: df-pn, one thread, %zu MiB table cleared before each position\n"
                "  %-36s %5s %-5s %10s %8s %10s\n",
                BENCH_SOLVER_TT_BYTES >> 20, "position", "empty", "value", "nodes", "seconds", "nodes/s");
    for (int i = 0; i < bench_solve_count; i++) {
        const BenchSolvePos *p = &bench_solve_pos[i];
        if (o->quick && !p->quick) continue;
        Board b;
        bench_parse(p->pos, &r, &b);
        tt_clear(&tt);
        Dfpn d;
        dfpn_init(&d, &r, &cfg, &tt);
        d.threads = out->threads;
        uint32_t pn, dn;
        double t0 = clock_seconds();
        Winner v = dfpn_solve(&d, b, &pn, &dn);
        double dt = clock_seconds() - t0;
        if (v != p->value)
            bench_fail("solver (%d thread%s): %s is a %s win, df-pn says %s", out->threads,
                           out->threads == 1 ? "" : "s", p->pos, winner_name(p->value), winner_name(v));
        int k = out->npos++;
        out->index[k] = i;
        out->pos[k] = (BenchSolveFig){d.nodes, dt, v};
        out->nodes += d.nodes;
        out->seconds += dt;
        if (o->txt && threads == 0)
            fprintf(o->txt, "  %-36s %5d %-5s %10llu %8.3f %10.0f\n", p->pos,
                    __builtin_popcountll(r.cells & ~board_occupied(b)), winner_name(v), (unsigned long long)d.nodes, dt,
                    bench_rate((double)d.nodes, dt));
        if (o->txt) fflush(o->txt);
    }
    tt_free(&tt);
    if (o->txt)
        fprintf(o->txt, "  %s: %d positions, %llu nodes in %.3f s = %.0f nodes/s\n",
                threads == 0 ? "total" : "parallel", out->npos, (unsigned long long)out->nodes, out->seconds,
                bench_rate((double)out->nodes, out->seconds));
}
