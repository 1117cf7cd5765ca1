/* solve.c - see solve.h. */
#include "solve.h"

#include <stdio.h>
#include <string.h>

#include "alphabeta.h"
#include "dfpn_depth.h"
#include "parallel.h"
#include "stop.h"

SolveSpec solve_default_spec(void)
{
    return (SolveSpec){.tt_bytes = (size_t)256 << 20, .threads = 1, .cfg = dfpn_default_config(), .resumable = {.every = 300}};
}

/* Both tables, or -1 and why. */
static int alloc_tables(const SolveSpec *s, TT *tt, TT *abtt, size_t ab_bytes, char *err, int errlen)
{
    if (tt_init(tt, s->tt_bytes - ab_bytes, s->threads > 1) != 0) goto fail;
    if (ab_bytes && tt_init(abtt, ab_bytes, false) != 0) {
        tt_free(tt);
        goto fail;
    }
    return 0;
fail:
    snprintf(err, (size_t)errlen, "cannot allocate a %zu MiB table (use --tt-mb)", s->tt_bytes >> 20);
    return -1;
}

/* The distance searches: alpha-beta (the value search under --search ab,
 * and the distance by it) and the bounded df-pn, on the one distance table. */
typedef struct {
    AlphaBeta ab;
    DfpnDepth dd;
    bool on;     /* the distance table exists */
    bool use_dd; /* the distance by the bounded df-pn */
} Distance;

/* The best move of a decided, ongoing position (solve.h). */
static Move best_move(Dfpn *d, Distance *x, Board b, Winner v, int dtw)
{
    if (v == WINNER_NONE || rules_status(d->r, b) != WINNER_NONE) return MOVE_NONE;
    if ((v == WINNER_ORDER) == board_order_to_move(b)) return dfpn_winning_move(d, b, v);
    if (v != WINNER_ORDER || dtw < 0) return MOVE_NONE;
    /* Chaos loses: the longest resistance, the same move by either search. */
    return x->use_dd ? dfpn_depth_best_move(&x->dd, b, dtw) : ab_best_move(&x->ab, b);
}

/* The distance to win of an Order win, and with it a lost Chaos's best
 * move (which reads the distance table the distance search left). */
static void distance(Dfpn *d, Distance *x, Board b, SolveReport *rep)
{
    double t0 = clock_seconds();
    uint64_t n0 = x->ab.nodes + x->dd.nodes;
    rep->dtw_by_ab = !x->use_dd;
    rep->dtw = x->use_dd ? dfpn_depth_dtw(&x->dd, b) : ab_dtw(&x->ab, b);
    if (rep->dtw < -1) rep->dtw = -1; /* stopped: unknown */
    if (!stop_signal() && !board_order_to_move(b)) rep->best = best_move(d, x, b, rep->value, rep->dtw);
    rep->dtw_nodes = x->ab.nodes + x->dd.nodes - n0;
    rep->dtw_seconds = clock_seconds() - t0;
}

static void write_solve_proof(const SolveSpec *s, Dfpn *d, Board b, SolveReport *rep)
{
    if (rep->value == WINNER_NONE)
        snprintf(rep->proof_error, sizeof rep->proof_error, "no certificate: the result is unknown");
    else
        proof_write(s->proof, d, b, rep->value, s->proof_max_lines, &rep->proof, rep->proof_error,
                    (int)sizeof rep->proof_error);
}

/* The limits every phase shares: the deadline from t0, and SIGINT/SIGTERM
 * (every phase stops on them, and the later ones are skipped). */
static SearchLimits phase_limits(const SolveSpec *s, double t0)
{
    SearchLimits lim = s->lim;
    if (s->time_limit > 0) lim.deadline = t0 + s->time_limit;
    if (!lim.interrupt) lim.interrupt = stop_flag();
    return lim;
}

/* The bounded question alone (solve.h): one table, the bounded df-pn. */
static int solve_within(const Rules *r, Board b, const SolveSpec *s, SolveReport *rep, char *err, int errlen)
{
    if (!dfpn_depth_supported(r)) {
        snprintf(err, (size_t)errlen, "--within needs a board of at most 7x7");
        return -1;
    }
    TT tt;
    if (tt_init(&tt, s->tt_bytes, false) != 0) {
        snprintf(err, (size_t)errlen, "cannot allocate a %zu MiB table (use --tt-mb)", s->tt_bytes >> 20);
        return -1;
    }
    double t0 = clock_seconds();
    DfpnDepth dd;
    dfpn_depth_init(&dd, r, &s->cfg.kn, &tt, NULL);
    dd.epsilon = s->cfg.epsilon; /* tunings: they change work only, never an answer */
    dd.center_first = s->cfg.bounded_center_first;
    dd.lim = phase_limits(s, t0);
    dd.depth = s->within;
    rep->within = dfpn_depth_within(&dd, b, s->within, &rep->within_depth);
    if (rep->within == 1) rep->value = WINNER_ORDER;
    /* Order to move: a move that keeps the proof's depth (the table holds it). */
    if (rep->within == 1 && board_order_to_move(b) && rules_status(r, b) == WINNER_NONE && !stop_signal())
        rep->best = dfpn_depth_best_move(&dd, b, rep->within_depth);
    /* The certificate: Order wins within the proof's depth (<= the bound
     * asked), or Chaos keeps every line off the board for the bound asked. */
    if (s->proof && rep->within == 1 && !stop_signal())
        proof_write_within(s->proof, &dd, b, rep->within_depth, s->proof_max_lines, &rep->proof, rep->proof_error,
                           (int)sizeof rep->proof_error);
    else if (s->proof && rep->within == 0 && !stop_signal())
        proof_write_not_within(s->proof, &dd, b, s->within, s->proof_max_lines, &rep->proof, rep->proof_error,
                               (int)sizeof rep->proof_error);
    else if (s->proof)
        snprintf(rep->proof_error, sizeof rep->proof_error, "%s",
                 stop_signal() ? "stopped by a signal" : "no certificate: the answer is unknown");
    rep->nodes = dd.nodes;
    rep->seconds = clock_seconds() - t0;
    rep->resumable.signo = stop_signal();
    tt_free(&tt);
    return 0;
}

/* The value: df-pn as a job (checkpoints, resume), or alpha-beta. */
static int value_search(const SolveSpec *s, Dfpn *d, Distance *x, Board b, SolveReport *rep, char *err, int errlen)
{
    if (s->alphabeta) {
        rep->value = ab_solve(&x->ab, b);
        rep->ab_depth = x->ab.depth;
        dfpn_numbers(rep->value, &rep->pn, &rep->dn);
        return 0;
    }
    if (resumable_prepare(d, b, &s->resumable, &rep->resumable, err, errlen) != 0) return -1;
    rep->value = resumable_run(d, b, &s->resumable, &rep->pn, &rep->dn, &rep->resumable);
    /* The final figures, flagged as such for the reporter. */
    if (d->lim.report && d->nodes > 0) {
        d->root.final = true;
        dfpn_report(d);
    }
    d->lim.report = NULL; /* later searches (moves, certificates) report nothing */
    return 0;
}

int solve_run(const Rules *r, Board b, const SolveSpec *s, SolveReport *rep, char *err, int errlen)
{
    memset(rep, 0, sizeof *rep);
    rep->best = MOVE_NONE;
    rep->dtw = -1;
    rep->within = -1;
    if (s->within_asked) return solve_within(r, b, s, rep, err, errlen);
    if (s->alphabeta && (s->resumable.checkpoint || s->resumable.resume)) {
        snprintf(err, (size_t)errlen, "--checkpoint and --resume need --search dfpn");
        return -1;
    }
    if (resumable_check(&s->resumable, err, errlen) != 0) return -1; /* before minutes of table allocation, not after */
    size_t ab_bytes = s->dtw || s->alphabeta ? s->tt_bytes / 4 : 0;
    TT tt, abtt;
    if (alloc_tables(s, &tt, &abtt, ab_bytes, err, errlen) != 0) return -1;

    double t0 = clock_seconds();
    SearchLimits lim = phase_limits(s, t0);
    Dfpn d;
    dfpn_init(&d, r, &s->cfg, &tt);
    d.lim = lim;
    d.threads = s->threads;
    Distance x = {.on = ab_bytes != 0, .use_dd = s->dtw && !s->dtw_ab && dfpn_depth_supported(r)};
    if (x.on) {
        SearchLimits dl = {.node_limit = lim.node_limit, .deadline = lim.deadline, .interrupt = lim.interrupt};
        ab_init(&x.ab, r, &s->cfg.kn, &abtt);
        x.ab.lim = dl;
        dfpn_depth_init(&x.dd, r, &s->cfg.kn, &abtt, &tt);
        x.dd.epsilon = s->cfg.epsilon; /* as solve_within's */
        x.dd.center_first = s->cfg.bounded_center_first;
        x.dd.lim = dl;
    }
    int rc = value_search(s, &d, &x, b, rep, err, errlen);
    if (rc != 0) goto out;
    if (s->dtw && rep->value == WINNER_ORDER && !stop_signal()) distance(&d, &x, b, rep);
    if (!stop_signal() && rep->best == MOVE_NONE) rep->best = best_move(&d, &x, b, rep->value, rep->dtw);
    rep->seconds = clock_seconds() - t0;
    rep->nodes = d.nodes + x.ab.nodes + x.dd.nodes;
    rep->threat_searches = d.threats.calls;
    rep->threat_wins = d.threats.wins;
    if (s->proof && !stop_signal()) write_solve_proof(s, &d, b, rep);
    if (stop_signal()) {
        rep->resumable.signo = stop_signal();
        if (s->proof)
            snprintf(rep->proof_error, sizeof rep->proof_error, "stopped by signal %d", rep->resumable.signo);
    }
out:
    tt_free(&tt);
    if (ab_bytes) tt_free(&abtt);
    return rc;
}
