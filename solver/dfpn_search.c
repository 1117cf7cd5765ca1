/* dfpn_search.c - see dfpn_search.h: the value search's loop (mid) with
 * its limits, progress and the root's numbers, for one thread or one of
 * many (dfpn_team.c); the solve around it is dfpn.c's. */
#include "dfpn_search.h"

#include "clock.h"
#include "dfpn_internal.h"
#include "dfpn_kernel.h"

enum { NODE_BATCH = LIMITS_CLOCK_EVERY };

/* The kernel's view of this search (dfpn_kernel.h): the value question,
 * proof numbers under the plain key, the centre lemma, the memos of the
 * thread (d->memo, set for the length of a solve). */
DfpnKernel dfpn_value_kernel(Dfpn *d)
{
    return (DfpnKernel){.r = d->r, .kn = &d->cfg.kn, .tt = d->tt, .centre = &d->centre, .interrupt = d->lim.interrupt,
                        .deadline = limits_lemma_deadline(&d->lim), .memo = d->memo, .threats = &d->threats, .chaos_pn_moves = d->cfg.chaos_pn_moves,
                        .order_dn_moves = d->cfg.order_dn_moves, .cells_first = d->cfg.center_first ? d->cells_first : NULL};
}

void dfpn_report(Dfpn *d)
{
    if (!d->lim.report) return;
    d->root.seconds = clock_seconds() - d->started;
    d->root.nodes = d->sh ? atomic_load_explicit(&d->sh->nodes, memory_order_relaxed) : d->nodes;
    d->root.tt_permille = tt_permille(d->tt);
    d->lim.report(&d->root, d->lim.report_arg);
}

/* With threads, limits apply to the total: each thread adds its nodes in
 * batches and raises the common stop flag; only thread 0 reports. */
static void check_shared_limits(Dfpn *d)
{
    DfpnShared *sh = d->sh;
    if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) d->stopped = true;
    /* A team's first thread (d->team set) spends its own budget: helpers
     * add work to a job, they never use up its budget (dfpn.h). */
    if (d->nodes % NODE_BATCH != 0) {
        /* A node budget is checked at every node on what is known of the
         * total (the others' flushed batches and this thread's own), so a
         * small budget (a job's) is not overshot by a whole batch. */
        uint64_t known = d->team ? d->nodes : atomic_load_explicit(&sh->nodes, memory_order_relaxed) + (d->nodes - d->flushed);
        if (d->lim.node_limit && known >= d->lim.node_limit) {
            atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
            d->stopped = true;
        }
        return;
    }
    uint64_t add = d->nodes - d->flushed;
    uint64_t total = atomic_fetch_add_explicit(&sh->nodes, add, memory_order_relaxed) + add;
    d->flushed = d->nodes;
    double now = clock_seconds();
    if (limits_hit(&d->lim, d->team ? d->nodes : total, now)) {
        atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
        d->stopped = true;
    }
    if (d->tid == 0 && d->lim.report_every > 0 && now >= d->next_report) {
        d->next_report = now + d->lim.report_every;
        dfpn_report(d);
    }
}

static void check_limits(Dfpn *d)
{
    if (d->sh) {
        check_shared_limits(d);
        return;
    }
    double at;
    if (limits_check(&d->lim, d->nodes, &d->next_report, &at)) d->stopped = true;
    if (at > 0) dfpn_report(d);
}

/* The root's figures for progress reports. */
static void note_root(Dfpn *d, const DfpnChild *ch, int n, uint32_t pn, uint32_t dn)
{
    d->root.pn = pn;
    d->root.dn = dn;
    d->root.moves = n;
    d->root.proven = d->root.disproven = 0;
    for (int i = 0; i < n; i++) {
        d->root.proven += ch[i].pn == 0;
        d->root.disproven += ch[i].dn == 0;
    }
}

/* A child another thread has decided meanwhile. Undecided numbers are not
 * re-read: a frame's own numbers for its children guide it better than the
 * table's, which other paths through the same position keep rewriting
 * (measured: re-reading them all costs 1.8x nodes on one thread). Called
 * for the chosen child only (see mid). */
static bool reprobe(Dfpn *d, DfpnChild *c)
{
    TTData e;
    if (c->pn == 0 || c->dn == 0 || !tt_probe(d->tt, c->key, &e)) return false;
    if (e.pn != 0 && e.dn != 0) return false;
    c->pn = e.pn;
    c->dn = e.dn;
    return true;
}

/* Multiple-iterative deepening at an open position: search until its
 * numbers reach a threshold; returns them through *pn, *dn. */
static void mid(Dfpn *d, Board b, Board key, const KnNode *kn, uint32_t pt, uint32_t dt, uint32_t *pn, uint32_t *dn,
                bool root)
{
    DfpnChild ch[MOVES_MAX + 1];
    DfpnKernel k = dfpn_value_kernel(d);
    /* Odd boards only, and never at the root, whose every move is counted
     * (note_root): dfpn_kernel_expand says why. */
    k.settle_early = !root && (d->r->n & 1);
    uint64_t start = d->nodes++;
    /* The node's own bucket, for its store at the end: its parent's probe
     * read only the fingerprints when the node was new. */
    tt_prefetch(d->tt, key);
    check_limits(d);
    bool order = board_order_to_move(b);
    int plies;
    if (order && dfpn_kernel_threat(&k, b, kn, d->cfg.kn.threat_plies, true, &plies)) {
        /* Proven without expanding it; stored as a proof with no move
         * (dfpn_winning_move asks the threat search for one). */
        dfpn_numbers(WINNER_ORDER, pn, dn);
        TTData e = {*pn, *dn, 1, MOVE_NONE};
        tt_store(d->tt, key, &e);
        return;
    }
    if (d->sh) tt_busy_add(d->tt, key, 1);
    int n = dfpn_kernel_expand(&k, b, kn, 0, ch, false);
    Move best = MOVE_NONE;
    for (;;) {
        DfpnPick p = dfpn_kernel_pick(d->tt, ch, n, order, false);
        *pn = order ? p.phi1 : p.delta;
        *dn = order ? p.delta : p.phi1;
        best = p.bi >= 0 ? ch[p.bi].move : MOVE_NONE;
        if (root) note_root(d, ch, n, *pn, *dn);
        if (*pn >= pt || *dn >= dt || *pn == 0 || *dn == 0 || d->stopped) break;

        /* Another thread may have decided the chosen child meanwhile: then
         * choose again. Only the chosen one is re-read; re-reading every
         * child every iteration cost 10% of a node's time for little. */
        if (d->sh && !ch[p.bi].exact && reprobe(d, &ch[p.bi])) continue;
        uint32_t phi_t = order ? pt : dt, delta_t = order ? dt : pt;
        if (d->sh && tt_busy(d->tt, ch[p.bi].key)) {
            /* Steer clear of children other threads are in, unless the one
             * chosen instead is already past this node's threshold (it would
             * return at once, and this thread would spin). A best child no
             * thread is in stays the choice: virtual numbers only grow. */
            DfpnPick v = dfpn_kernel_pick(d->tt, ch, n, order, true);
            if (v.bi != p.bi && (order ? ch[v.bi].pn : ch[v.bi].dn) < phi_t) {
                p.bi = v.bi;
                p.phi2 = v.phi2;
            }
        }
        DfpnChild *c = &ch[p.bi];
        uint32_t cphi_t, cdelta_t;
        dfpn_child_thresholds(p.phi2, p.delta, order ? c->dn : c->pn, phi_t, delta_t, d->cfg.epsilon, &cphi_t,
                              &cdelta_t);

        Board cb = b;
        board_place(&cb, c->move);
        KnNode ckn;
        kn_node(d->r, &d->cfg.kn, cb, &ckn);
        uint32_t cpn, cdn;
        if (order)
            mid(d, cb, c->key, &ckn, cphi_t, (uint32_t)cdelta_t, &cpn, &cdn, false);
        else
            mid(d, cb, c->key, &ckn, (uint32_t)cdelta_t, cphi_t, &cpn, &cdn, false);
        c->pn = cpn;
        c->dn = cdn;
    }
    uint64_t work = d->nodes - start;
    TTData e = {*pn, *dn, work > UINT32_MAX ? UINT32_MAX : (uint32_t)work, best};
    tt_store(d->tt, key, &e);
    /* For the certificate writer only (wintab.h): b itself, not its key,
     * with the proven child's move; never read by the search. */
    if (order && *pn == 0 && d->wins && best != MOVE_NONE) wintab_put(d->wins, b, best);
    if (d->sh) tt_busy_add(d->tt, key, -1);
}

/* The whole search from a position under dfpn_solve's three modes; the
 * threaded and team modes are in dfpn_team.c. */
void dfpn_mid_root(Dfpn *d, Board b, Board key, const KnNode *kn, bool root, uint32_t *pn, uint32_t *dn)
{
    mid(d, b, key, kn, DFPN_INF, DFPN_INF, pn, dn, root);
}
