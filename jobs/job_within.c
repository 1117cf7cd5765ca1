/* job_within.c - a bounded job of the job-level search (job_run.h,
 * jobrun_within; jobs.h, Bounded mode): W(b, d), "does Order force a line
 * within d plies?", by the depth-bounded df-pn of solver/dfpn_depth.h on
 * the worker's table, through its public interface only (dfpn_depth_init,
 * dfpn_depth_within) and the certificate writers of solver/proof.h.
 *
 * Kept table: as with value jobs (job_run.h), a table kept from job to job
 * and shared by the workers holds only what dfpn_depth.h says it holds:
 * facts (depth bounds) from decided subtrees, true whichever root they
 * were found under, and open questions' numbers, which only steer. So a
 * bounded job run again goes on where it stopped. A table is never used by
 * value jobs and bounded jobs of one run alike (a run is one or the
 * other), since their entries under one key mean different things.
 *
 * The root's numbers of an undecided job, for the top tree's selection:
 * dfpn_depth.h documents where the search keeps an open question's proof
 * and disproof numbers, under the plain key (kn_key) with q + 1 in row 7
 * of the O word, q the question in its normal form; the search stores the
 * root's there when it returns. They are read back from the table with
 * that key (within_question gives q: the same parity normal form; where
 * the search's form says no without search, no job ends undecided). If
 * the table lost the entry, or dfpn_depth.h's keying ever changes, the
 * probe finds nothing and the outcome says so (0 0): the top tree then
 * keeps the leaf's numbers doubled. The numbers choose work only, never a
 * value (jobs.h), so a wrong or missing probe costs time, not soundness.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../engine/symmetry.h"
#include "../solver/clock.h"
#include "../solver/proof.h"
#include "job_run.h"
#include "within.h"

void jobrun_within_name(const Rules *r, Board b, bool yes, int plies, char name[JOBRUN_NAME_MAX])
{
    char plain[JOBRUN_NAME_MAX];
    jobrun_cert_name(r, b, plain);
    size_t stem = strlen(plain) - strlen(".ocproof");
    snprintf(name, JOBRUN_NAME_MAX, "%.*s-%c%d.ocproof", (int)stem, plain, yes ? 'w' : 'h', plies);
}

/* The root's numbers as the search left them in the table (above), or
 * 0 0 when they are not there. */
static void root_numbers(const JobRunner *jr, Board b, int d, uint32_t *pn, uint32_t *dn)
{
    *pn = *dn = 0;
    int q = within_question(jr->r, b, d);
    if (q < 0 || rules_status(jr->r, b) != WINNER_NONE) return;
    KnNode kn;
    kn_node(jr->r, &jr->cfg.kn, b, &kn);
    if (kn.value != WINNER_NONE) return;
    Board key = kn_key(jr->r, &jr->cfg.kn, b, kn.dead);
    key.s[PIECE_O] |= (uint64_t)(q + 1) << 56; /* row 7 of the O word (dfpn_depth.h) */
    TTData e;
    if (tt_probe(jr->tt, key, &e) && e.pn > 0 && e.dn > 0 && e.pn < DFPN_INF && e.dn < DFPN_INF) {
        *pn = e.pn;
        *dn = e.dn;
    }
}

/* Writes the certificate of the decided W(b, d) (yes at proof depth p, or
 * no) through a temporary file; the lines written, or -1 (no file left
 * behind) with *why set. */
static int64_t write_within_cert(JobRunner *jr, DfpnDepth *dd, Board b, bool yes, int d, int p, uint8_t *why)
{
    char name[JOBRUN_NAME_MAX], path[4096], tmp[4200];
    jobrun_within_name(jr->r, b, yes, yes ? p : d, name);
    snprintf(path, sizeof path, "%s/%s", jr->cert_dir, name);
    *why = JOBRUN_WHY_WRITE;
    FILE *f = jobrun_open_tmp(path, tmp, sizeof tmp);
    if (!f) return -1;
    ProofStats st;
    char err[200];
    dd->lim.node_limit = 0; /* the budget was for deciding; the writer may search again */
    int rc = yes ? proof_write_within(f, dd, b, p, jr->cert_max_lines, &st, err, (int)sizeof err)
                 : proof_write_not_within(f, dd, b, d, jr->cert_max_lines, &st, err, (int)sizeof err);
    return jobrun_close_cert(f, tmp, path, rc, err, dd->stopped, st.lines, why);
}

void jobrun_within(JobRunner *jr, const JobOrder *o, double deadline, atomic_bool *interrupt, JobOutcome *out)
{
    double t0 = clock_seconds();
    memset(out, 0, sizeof *out);
    out->move = MOVE_NONE;
    out->tag = o->tag;
    out->serial = o->serial;
    DfpnDepth dd;
    dfpn_depth_init(&dd, jr->r, &jr->cfg.kn, jr->tt, NULL);
    dd.epsilon = jr->cfg.epsilon; /* jobs --epsilon, --order: work only, never an answer */
    dd.center_first = jr->cfg.bounded_center_first;
    dd.lim = (SearchLimits){.node_limit = o->node_limit, .deadline = deadline, .interrupt = interrupt};
    dd.depth = o->within;
    int p = 0, a = dfpn_depth_within_switch(&dd, o->b, o->within, &p, jr->cfg.bounded_switch);
    out->nodes = dd.nodes;
    if (a < 0) {
        out->stopped = dd.stopped && (o->node_limit == 0 || dd.nodes < o->node_limit);
        root_numbers(jr, o->b, o->within, &out->pn, &out->dn);
    } else {
        out->value = (uint8_t)(a ? WINNER_ORDER : WINNER_CHAOS);
        out->depth = (int16_t)(a ? p : o->within);
    }
    if (a >= 0 && o->certify && jr->cert_dir) {
        double c0 = clock_seconds();
        int64_t lines = write_within_cert(jr, &dd, o->b, a == 1, o->within, p, &out->cert_why);
        out->cert = lines >= 0 ? JOBRUN_CERT_WRITTEN : JOBRUN_CERT_FAILED;
        out->cert_lines = lines >= 0 ? (uint64_t)lines : 0;
        out->cert_seconds = clock_seconds() - c0;
    }
    out->seconds = clock_seconds() - t0;
}
