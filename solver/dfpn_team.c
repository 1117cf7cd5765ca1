/* dfpn_team.c - several threads in one df-pn search (dfpn_team.h, and
 * dfpn_internal.h for the threaded solve).
 *
 * The threaded solve: every thread runs mid from the root over the shared
 * table (Kaneko's parallel df-pn, virtual numbers in dfpn.c) until one of
 * them decides it or a limit stops them all. A team: thread 0 is the
 * solve's own thread, and helpers join it with dfpn_assist while it runs;
 * whoever decides the root hands the numbers to thread 0.
 */
#include "dfpn_team.h"

#include <stdlib.h>

#include "dfpn_internal.h"
#include "dfpn_kernel.h"
#include "parallel.h"

typedef struct {
    Dfpn *w; /* one searcher per thread */
    Board b, key;
    const KnNode *kn;
    uint32_t pn[DFPN_MAX_THREADS], dn[DFPN_MAX_THREADS];
    bool ran[DFPN_MAX_THREADS]; /* OpenMP may start fewer threads than asked */
} ParSolve;

static void solve_thread(void *arg, int tid)
{
    ParSolve *ps = arg;
    Dfpn *w = &ps->w[tid];
    w->memo = dfpn_kernel_memo_new(); /* each thread its own (NULL: none) */
    dfpn_mid_root(w, ps->b, ps->key, ps->kn, tid == 0, &ps->pn[tid], &ps->dn[tid]);
    ps->ran[tid] = true;
    free(w->memo);
    w->memo = NULL;
    /* Decided here: the others stop (their unwinding only stores numbers). */
    if (ps->pn[tid] == 0 || ps->dn[tid] == 0) atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
}

/* Every thread searches from the root over the shared table until one of
 * them decides it or a limit stops them all. */
void dfpn_solve_parallel(Dfpn *d, Board b, Board key, const KnNode *kn, uint32_t *pn, uint32_t *dn)
{
    int t = d->threads < DFPN_MAX_THREADS ? d->threads : DFPN_MAX_THREADS;
    DfpnShared *sh = calloc(1, sizeof *sh);
    Dfpn *w = calloc((size_t)t, sizeof *w);
    if (!sh || !w) { /* too little memory for threads: search alone */
        free(sh);
        free(w);
        dfpn_mid_root(d, b, key, kn, true, pn, dn);
        return;
    }
    atomic_init(&sh->nodes, d->nodes); /* limits count the nodes of earlier calls too */
    ParSolve ps = {.w = w, .b = b, .key = key, .kn = kn};
    for (int i = 0; i < t; i++) {
        w[i] = *d;
        w[i].sh = sh;
        w[i].tid = i;
        w[i].nodes = w[i].flushed = 0;
    }
    parallel_run(t, solve_thread, &ps);
    int decider = 0;
    bool stopped = false;
    for (int i = 0; i < t; i++) {
        d->nodes += w[i].nodes;
        d->threats.calls += w[i].threats.calls;
        d->threats.wins += w[i].threats.wins;
        d->threats.spent += w[i].threats.spent;
        stopped |= w[i].stopped;
        if (ps.ran[i] && (ps.pn[i] == 0 || ps.dn[i] == 0)) decider = i;
    }
    *pn = ps.pn[decider];
    *dn = ps.dn[decider];
    d->stopped = stopped && *pn != 0 && *dn != 0;
    d->root = w[0].root;
    d->next_report = w[0].next_report;
    free(w);
    free(sh);
}

DfpnShared *dfpn_team_new(void)
{
    DfpnShared *t = calloc(1, sizeof *t);
    if (t) dfpn_team_reset(t);
    return t;
}

void dfpn_team_free(DfpnShared *t) { free(t); }

void dfpn_team_stop(DfpnShared *t) { atomic_store(&t->stop, true); }

uint64_t dfpn_team_nodes(DfpnShared *t) { return atomic_load(&t->nodes); }

void dfpn_team_reset(DfpnShared *t)
{
    atomic_store(&t->stop, false);
    atomic_store(&t->nodes, 0);
    atomic_store(&t->decided, 0);
}

/* A team thread's end: a decision is handed to the others (a decided
 * pair is never 0: one number of it is DFPN_INF), and the team stops. */
static void team_end(Dfpn *d, uint32_t pn, uint32_t dn)
{
    atomic_fetch_add_explicit(&d->sh->nodes, d->nodes - d->flushed, memory_order_relaxed);
    d->flushed = d->nodes;
    if (pn == 0 || dn == 0) {
        uint64_t none = 0;
        atomic_compare_exchange_strong(&d->sh->decided, &none, (uint64_t)pn << 32 | dn);
        atomic_store(&d->sh->stop, true);
    }
}

/* The team's first thread (see dfpn_team_new): its own search, or the
 * decision a helper reached first. */
void dfpn_solve_team(Dfpn *d, Board b, Board key, const KnNode *kn, uint32_t *pn, uint32_t *dn)
{
    d->sh = d->team;
    d->tid = 0;
    d->flushed = d->nodes; /* limits count the nodes of earlier calls too */
    atomic_fetch_add_explicit(&d->sh->nodes, d->nodes, memory_order_relaxed);
    d->memo = dfpn_kernel_memo_new();
    dfpn_mid_root(d, b, key, kn, true, pn, dn);
    free(d->memo);
    d->memo = NULL;
    team_end(d, *pn, *dn);
    atomic_store(&d->sh->stop, true); /* the helpers leave */
    uint64_t got = atomic_load(&d->sh->decided);
    if (*pn != 0 && *dn != 0 && got != 0) {
        *pn = (uint32_t)(got >> 32);
        *dn = (uint32_t)got;
    }
    d->stopped = d->stopped && *pn != 0 && *dn != 0;
    d->sh = NULL;
}

void dfpn_assist(Dfpn *d, Board b, DfpnShared *team, int tid)
{
    if (atomic_load(&team->stop) || rules_status(d->r, b) != WINNER_NONE) return;
    KnNode kn;
    kn_node(d->r, &d->cfg.kn, b, &kn);
    if (kn.value != WINNER_NONE) return; /* the solve decides it at once itself */
    Board key = kn_key(d->r, &d->cfg.kn, b, kn.dead);
    d->sh = team;
    d->tid = tid < 1 ? 1 : tid; /* never 0: thread 0 reports */
    d->flushed = d->nodes;
    d->memo = dfpn_kernel_memo_new();
    uint32_t pn, dn;
    dfpn_mid_root(d, b, key, &kn, false, &pn, &dn);
    free(d->memo);
    d->memo = NULL;
    team_end(d, pn, dn);
    d->sh = NULL;
}
