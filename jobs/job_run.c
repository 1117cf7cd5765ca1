/* job_run.c - one job on a worker's table (job_run.h). */
#include "job_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/symmetry.h"
#include "../solver/clock.h"
#include "../solver/proof.h"

void jobrun_init_shared(JobRunner *jr, const Rules *r, const DfpnConfig *cfg, TT *shared, int threads,
                        const char *cert_dir)
{
    memset(jr, 0, sizeof *jr);
    jr->r = r;
    jr->cfg = *cfg;
    jr->cert_dir = cert_dir;
    jr->threads = threads < 1 ? 1 : threads;
    jr->tt = shared;
}

int jobrun_init(JobRunner *jr, const Rules *r, const DfpnConfig *cfg, size_t tt_bytes, int threads,
                const char *cert_dir)
{
    jobrun_init_shared(jr, r, cfg, &jr->own, threads, cert_dir);
    if (tt_init(&jr->own, tt_bytes, jr->threads > 1) != 0) return -1;
    if (!cert_dir) return 0;
    if (wintab_init(&jr->own_wins, tt_bytes / JOBRUN_WINS_SHARE, jr->threads > 1) != 0) {
        tt_free(&jr->own);
        return -1;
    }
    jr->wins = &jr->own_wins;
    return 0;
}

void jobrun_free(JobRunner *jr)
{
    if (jr->tt == &jr->own) tt_free(&jr->own);
    wintab_free(&jr->own_wins);
    if (jr->scratch_ready) tt_free(&jr->scratch);
    jr->scratch_ready = false;
    jr->tt = NULL;
    jr->wins = NULL;
}

void jobrun_cert_name(const Rules *r, Board b, char name[JOBRUN_NAME_MAX])
{
    Board c = sym_canonical(b, r->n, NULL);
    const char *rs = r->rules == RULES_ORIGINAL ? "o" : r->rules == RULES_EXACT ? "e" : "x";
    snprintf(name, JOBRUN_NAME_MAX, "%s-%d-%d-%016llx-%016llx.ocproof", rs, r->n, r->k,
             (unsigned long long)c.s[PIECE_X], (unsigned long long)c.s[PIECE_O]);
}

FILE *jobrun_open_tmp(const char *path, char *tmp, size_t len)
{
    if (snprintf(tmp, len, "%s.tmp.XXXXXX", path) >= (int)len) return NULL;
    int fd = mkstemp(tmp);
    if (fd < 0) return NULL;
    FILE *f = fchmod(fd, 0644) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        close(fd);
        remove(tmp);
    }
    return f;
}

static void share_name(const Rules *r, Board b, char *name, size_t len)
{
    char nm[JOBRUN_NAME_MAX];
    jobrun_cert_name(r, b, nm);
    snprintf(name, len, "%s", nm);
}

/* Writes the certificate of the decided root through a temporary file,
 * with shared subtrees' files beside it when o asks (share: what it wrote
 * there); the lines written, or -1 (and no file left behind) with *why set. */
static int64_t write_cert(JobRunner *jr, Dfpn *d, const JobOrder *o, Winner v, ProofShare *share, uint8_t *why)
{
    Board b = o->b;
    char name[JOBRUN_NAME_MAX], path[4096], tmp[4200];
    jobrun_cert_name(jr->r, b, name);
    snprintf(path, sizeof path, "%s/%s", jr->cert_dir, name);
    *why = JOBRUN_WHY_WRITE;
    FILE *f = jobrun_open_tmp(path, tmp, sizeof tmp);
    if (!f) return -1;
    ProofStats st;
    char err[200];
    d->lim.node_limit = 0; /* the budget was for deciding; the writer may re-search */
    /* on a table of its own: the job's table stays as the search left it,
     * so the next job's search is the same with or without certificates */
    if (!jr->scratch_ready) jr->scratch_ready = tt_init(&jr->scratch, JOBRUN_SCRATCH_BYTES, false) == 0;
    d->scratch = jr->scratch_ready ? &jr->scratch : NULL;
    int hi = o->share > JOBRUN_SHARE_MAX ? JOBRUN_SHARE_MAX : o->share;
    int lg = o->share_min > 30 ? 30 : o->share_min;
    proof_share_init(share, jr->cert_dir, JOBRUN_SHARE_LO, hi, share_name, (uint64_t)1 << lg);
    int rc = proof_write_shared(f, d, b, v, jr->cert_max_lines, hi >= JOBRUN_SHARE_LO ? share : NULL, &st, err,
                                (int)sizeof err);
    return jobrun_close_cert(f, tmp, path, rc, err, d->stopped, st.lines, why);
}

int64_t jobrun_close_cert(FILE *f, const char *tmp, const char *path, int rc, const char *err, bool stopped,
                          uint64_t lines, uint8_t *why)
{
    if (rc != 0) *why = stopped ? JOBRUN_WHY_STOPPED : strncmp(err, "write", 5) == 0 ? JOBRUN_WHY_WRITE : JOBRUN_WHY_PROOF;
    if (fclose(f) != 0) rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    if (rc != 0) {
        remove(tmp);
        return -1;
    }
    return (int64_t)lines;
}

/* An outcome answering o (nothing found yet), and a searcher on the
 * runner's table. */
static void begin(JobRunner *jr, const JobOrder *o, JobOutcome *out, Dfpn *d)
{
    memset(out, 0, sizeof *out);
    out->move = MOVE_NONE;
    out->tag = o->tag;
    out->serial = o->serial;
    dfpn_init(d, jr->r, &jr->cfg, jr->tt);
    d->wins = jr->wins;
}

/* A winning move at the decided root b when the winner v is to move there
 * (else MOVE_NONE): what the certificate writer would take (the table's
 * proof, the side table, a threat search), any search again on the scratch
 * table, so the job's table stays as the search left it. */
static Move root_move(JobRunner *jr, Dfpn *d, Board b, Winner v)
{
    if (v == WINNER_NONE || board_order_to_move(b) != (v == WINNER_ORDER)) return MOVE_NONE;
    if (!jr->scratch_ready) jr->scratch_ready = tt_init(&jr->scratch, JOBRUN_SCRATCH_BYTES, false) == 0;
    if (!jr->scratch_ready) return MOVE_NONE;
    d->scratch = &jr->scratch;
    d->lim.node_limit = 0;
    return dfpn_winning_move(d, b, v);
}

void jobrun_run(JobRunner *jr, const JobOrder *o, double deadline, atomic_bool *interrupt, JobOutcome *out)
{
    double t0 = clock_seconds();
    Dfpn d;
    begin(jr, o, out, &d);
    d.threads = jr->threads;
    d.lim = (SearchLimits){.node_limit = o->node_limit, .deadline = deadline, .interrupt = interrupt};
    DfpnShared *team = jr->threads <= 1 ? jr->team : NULL;
    d.team = team;
    uint32_t pn = 1, dn = 1;
    Winner v = dfpn_solve(&d, o->b, &pn, &dn);
    if (d.team) dfpn_team_stop(d.team); /* also when decided without search */
    d.team = NULL;                      /* the certificate writer searches alone */
    out->value = (uint8_t)v;
    out->pn = pn;
    out->dn = dn;
    out->nodes = d.nodes;
    out->stopped = v == WINNER_NONE && d.stopped && d.nodes < o->node_limit; /* helpers take no budget */
    /* before the certificate, so that the move is the same with
     * certificates as without (the search's nodes are: jobs_cert tests) */
    if (v != WINNER_NONE && !d.stopped) out->move = root_move(jr, &d, o->b, v);
    if (v != WINNER_NONE && o->certify && jr->cert_dir) {
        double c0 = clock_seconds();
        ProofShare share;
        int64_t lines = write_cert(jr, &d, o, v, &share, &out->cert_why);
        out->cert = lines >= 0 ? JOBRUN_CERT_WRITTEN : JOBRUN_CERT_FAILED;
        out->cert_lines = lines >= 0 ? (uint64_t)lines + share.lines : 0;
        out->cert_seconds = clock_seconds() - c0;
    }
    out->seconds = clock_seconds() - t0;
}

void jobrun_assist(JobRunner *jr, const JobOrder *o, DfpnShared *team, int tid, atomic_bool *interrupt,
                   JobOutcome *out)
{
    double t0 = clock_seconds();
    Dfpn d;
    begin(jr, o, out, &d);
    d.lim = (SearchLimits){.interrupt = interrupt}; /* the job's budget is its own thread's */
    dfpn_assist(&d, o->b, team, tid);
    out->nodes = d.nodes;
    out->stopped = 1;
    out->seconds = clock_seconds() - t0;
}
