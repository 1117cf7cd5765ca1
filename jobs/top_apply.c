/* top_apply.c - a finished job's outcome applied to the top tree
 * (top_tree.h top_apply): its nodes counted, a decision set on its leaf
 * (BY_JOB) and propagated, an undecided job's numbers taken and put in
 * the journal, a stopped one queued again. A decided job whose
 * certificate could not be made (certificates on, and not certs_at_end)
 * is not taken: no value enters the tree without what backs it. */
#include "top_tree.h"

/* Appends leaf n's undecided outcome to the journal, if there is one. The
 * numbers are a job's, never decided ones (top_apply keeps them >= 1, and
 * an infinite one comes only with a 0 on the other side). */
static int journal_note(Coordinator *c, const TNode *n)
{
    if (!c->spec->journal) return 0;
    char msg[300];
    JournalEntry e = {.budget = n->budget, .pn = n->pn, .dn = n->dn};
    if (journal_put(c->spec->journal, n->b, &e, msg, sizeof msg) != 0) {
        top_fail(c, "%s", msg);
        return -1;
    }
    return 0;
}

/* Counts a job's decision. When that changes the side most decided jobs
 * have won, the running jobs' expectations (expect_majority) change: their
 * leaves are queued so that top_settle recomputes their ancestors. */
static void count_win(Coordinator *c, Winner w)
{
    Winner before = top_majority(c);
    c->job_wins[w]++;
    if (!c->spec->expect_majority || top_majority(c) == before) return;
    for (int k = 0; k < c->tr->workers; k++)
        if (c->ws[k].node >= 0 && c->ws[k].helping < 0) top_push(c, c->ws[k].node);
}

/* Applies a finished job's outcome of worker k. */
int top_apply(Coordinator *c, int k, const JobOutcome *got)
{
    JobsResult *r = c->out;
    JobOutcome o = *got;
    int i = c->ws[k].node;
    bool helped = c->ws[k].helping >= 0;
    int helping = c->ws[k].helping;
    uint32_t helped_serial = c->ws[k].helped_serial;
    c->ws[k].node = -1;
    c->ws[k].helping = -1;
    if (i < 0 || o.serial != c->ws[k].serial) {
        top_fail(c, "internal error: worker %d answered job %u, not %u", k, o.serial, c->ws[k].serial);
        return -1;
    }
    if (helped) { /* a helper's nodes; the job's outcome carries its value */
        /* Nothing searched: the job had ended its search (it is writing
         * its certificate, or about to report). Without this mark the
         * idle worker was sent there again at once, over a million times
         * in one run of X c3's replies. */
        if (o.nodes == 0 && c->ws[helping].serial == helped_serial) c->ws[helping].unhelpable = true;
        r->helps++;
        r->nodes += o.nodes;
        r->help_nodes += o.nodes;
        return 0;
    }
    if (o.value != WINNER_NONE && top_certify_now(c) && o.cert != JOBRUN_CERT_WRITTEN) {
        /* Decided, but without its certificate: a value the run could not
         * certify is not taken. Interrupted while writing (its subtree was
         * decided meanwhile, or the time ran out), the job counts as
         * stopped; any other failure ends the run. */
        if (o.cert_why != JOBRUN_WHY_STOPPED) {
            top_fail(c, "a job decided a position but its certificate could not be %s in %s",
                 o.cert_why == JOBRUN_WHY_WRITE ? "written" : "made (the proof writer failed)", c->spec->cert_dir);
            return -1;
        }
        o.value = WINNER_NONE;
        o.stopped = 1;
    }
    r->jobs_run++;
    r->nodes += o.nodes;
    for (int a = i; a >= 0; a = c->t[a].parent) c->t[a].spent += o.nodes;
    r->cert_lines += o.cert_lines;
    r->cert_seconds += o.cert_seconds;
    TNode *n = &c->t[i];
    if (o.value != WINNER_NONE) {
        r->jobs_decided++;
        count_win(c, (Winner)o.value);
        n->state = T_RAN;
        r->cert_files += o.cert == JOBRUN_CERT_WRITTEN;
        if (!top_decided(n)) {
            n->win = o.move; /* checked before use (top_sibling.c) */
            top_set_value(c, i, (Winner)o.value, BY_JOB, o.depth);
        }
        return top_settle(c);
    }
    if (top_decided(n)) { /* decided meanwhile (a node of the same position): nothing to change */
        n->state = T_RAN;
        if (o.stopped) r->jobs_stopped++;
        else r->jobs_undecided++;
        return 0;
    }
    if (!o.stopped) { /* the budget ran out: a bigger one, or expand, next time */
        r->jobs_undecided++;
        n->state = T_RAN;
        if (c->bounded && (o.pn == 0 || o.dn == 0)) { /* its numbers were not found (job_within.c): harder */
            o.pn = dfpn_sat_add(n->pn, n->pn);
            o.dn = dfpn_sat_add(n->dn, n->dn);
        }
        n->pn = o.pn ? o.pn : 1;
        n->dn = o.dn ? o.dn : 1;
        if (journal_note(c, n) != 0) return -1;
    } else { /* interrupted or out of time: it may run again */
        r->jobs_stopped++;
        n->state = T_NEW;
        c->queued++;
    }
    n->avail = !top_under_decided(c, i);
    top_push(c, i);
    return top_settle(c);
}
