/* solverbench.c - df-pn over the workload's fixed suite. The table is
 * cleared before every position, so each position's node count is the
 * same whatever ran before it, and the quick workload's counts are a subset
 * of the full one's. Every value must equal the recorded one: a mismatch
 * is a wrong answer, not a slow one. */
#include "../solver/clock.h"
#include "../solver/dfpn.h"
#include "../tables/errmsg.h"
#include "bench.h"

/* Solves suite position i on a cleared table; checks its value. */
static int solve_one(const Rules *r, TT *tt, const DfpnConfig *cfg, int i, BenchSolver *out, char *err, int errlen)
{
    const BenchSolvePos *p = &bench_solve_pos[i];
    Board b;
    if (bench_parse(p->pos, r, &b, err, errlen) != 0) return -1;
    tt_clear(tt);
    Dfpn d;
    dfpn_init(&d, r, cfg, tt);
    d.threads = out->threads;
    uint32_t pn, dn;
    double t0 = clock_seconds();
    Winner v = dfpn_solve(&d, b, &pn, &dn);
    double dt = clock_seconds() - t0;
    if (v != p->value)
        return errmsg_set(err, errlen, "solver (%d thread%s): %s is a %s win, df-pn says %s", out->threads,
                           out->threads == 1 ? "" : "s", p->pos, winner_name(p->value), winner_name(v));
    int k = out->npos++;
    out->index[k] = i;
    out->pos[k] = (BenchSolveFig){d.nodes, dt, v, __builtin_popcountll(r->cells & ~board_occupied(b))};
    out->nodes += d.nodes;
    out->seconds += dt;
    return 0;
}

int bench_solver(bool quick, int threads, BenchSolver *out, BenchSolveEach each, void *arg, char *err, int errlen)
{
    *out = (BenchSolver){.threads = threads > 0 ? threads : 1};
    Rules r;
    if (rules_init(&r, BENCH_N, BENCH_K, RULES_ORIGINAL, err, errlen) != 0) return -1;
    /* threads == 0: the reference run, one thread on an unshared table (no
     * locks); otherwise the parallel run, on a shared table. */
    TT tt;
    if (tt_init(&tt, BENCH_SOLVER_TT_BYTES, threads > 0) != 0)
        return errmsg_set(err, errlen, "cannot allocate the %zu MiB table", BENCH_SOLVER_TT_BYTES >> 20);
    DfpnConfig cfg = dfpn_default_config();
    int rc = 0;
    for (int i = 0; i < bench_solve_count && rc == 0; i++) {
        if (quick && !bench_solve_pos[i].quick) continue;
        rc = solve_one(&r, &tt, &cfg, i, out, err, errlen);
        if (rc == 0 && each) each(arg, out->npos - 1, out);
    }
    tt_free(&tt);
    return rc;
}
