/* solve.c - see solve.h. */
#include "solve.h"

#include <stdio.h>
#include <string.h>

#include "alphabeta.h"
#include "parallel.h"

SolveSpec solve_default_spec(void)
{
    return (SolveSpec){.tt_bytes = (size_t)256 << 20, .threads = 1, .cfg = dfpn_default_config(), .job = {.every = 300}};
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

/* The best move of a decided, ongoing position (solve.h). */
static Move best_move(Dfpn *d, AlphaBeta *ab, Board b, Winner v, int dtw)
{
    if (v == WINNER_NONE || rules_status(d->r, b) != WINNER_NONE) return MOVE_NONE;
    if ((v == WINNER_ORDER) == board_order_to_move(b)) return dfpn_winning_move(d, b, v);
    if (v == WINNER_ORDER && dtw >= 0) return ab_best_move(ab, b); /* Chaos loses: the longest resistance */
    return MOVE_NONE;
}

static void write_proof(const SolveSpec *s, Dfpn *d, Board b, SolveReport *rep)
{
    if (rep->value == WINNER_NONE)
        snprintf(rep->proof_error, sizeof rep->proof_error, "no certificate: the result is unknown");
    else
        proof_write(s->proof, d, b, rep->value, s->proof_max_lines, &rep->proof, rep->proof_error,
                    (int)sizeof rep->proof_error);
}

int solve_run(const Rules *r, Board b, const SolveSpec *s, SolveReport *rep, char *err, int errlen)
{
    memset(rep, 0, sizeof *rep);
    rep->best = MOVE_NONE;
    rep->dtw = -1;
    if (s->alphabeta && (s->job.checkpoint || s->job.resume)) {
        snprintf(err, (size_t)errlen, "--checkpoint and --resume need --search dfpn");
        return -1;
    }
    if (job_check(&s->job, err, errlen) != 0) return -1; /* before minutes of table allocation, not after */
    size_t ab_bytes = s->dtw || s->alphabeta ? s->tt_bytes / 4 : 0;
    TT tt, abtt;
    if (alloc_tables(s, &tt, &abtt, ab_bytes, err, errlen) != 0) return -1;

    double t0 = clock_seconds();
    SearchLimits lim = s->lim;
    if (s->time_limit > 0) lim.deadline = t0 + s->time_limit;
    /* Every phase (the search, the distance to win, the best move, the
     * certificate) stops on SIGINT or SIGTERM, and the later ones are
     * skipped. */
    if (!lim.interrupt) lim.interrupt = job_signals();
    Dfpn d;
    dfpn_init(&d, r, &s->cfg, &tt);
    d.lim = lim;
    d.threads = s->threads;
    AlphaBeta ab;
    if (ab_bytes) {
        ab_init(&ab, r, &s->cfg.kn, &abtt);
        ab.lim = (SearchLimits){.node_limit = lim.node_limit, .deadline = lim.deadline, .interrupt = lim.interrupt};
    }
    int rc = 0;
    if (s->alphabeta) {
        rep->value = ab_solve(&ab, b);
    } else if (job_prepare(&d, b, &s->job, &rep->job, err, errlen) != 0) {
        rc = -1;
        goto out;
    } else {
        rep->value = job_run(&d, b, &s->job, &rep->pn, &rep->dn, &rep->job);
        /* The final figures, flagged as such for the reporter. */
        if (d.lim.report && d.nodes > 0) {
            d.root.final = true;
            dfpn_report(&d);
        }
        d.lim.report = NULL; /* later searches (moves, certificates) report nothing */
    }
    if (s->alphabeta) dfpn_numbers(rep->value, &rep->pn, &rep->dn);
    if (s->dtw && rep->value == WINNER_ORDER && !job_signal()) {
        rep->dtw = ab_dtw(&ab, b);
        if (rep->dtw < -1) rep->dtw = -1; /* stopped: unknown */
    }
    if (!job_signal()) rep->best = best_move(&d, &ab, b, rep->value, rep->dtw);
    rep->seconds = clock_seconds() - t0;
    rep->nodes = d.nodes + (ab_bytes ? ab.nodes : 0);
    if (s->proof && !job_signal()) write_proof(s, &d, b, rep);
    if (job_signal()) {
        rep->job.signo = job_signal();
        if (s->proof)
            snprintf(rep->proof_error, sizeof rep->proof_error, "stopped by signal %d", rep->job.signo);
    }
out:
    tt_free(&tt);
    if (ab_bytes) tt_free(&abtt);
    return rc;
}
