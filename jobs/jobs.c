/* jobs.c - job-level proof-number search (jobs.h): the coordinator loop,
 * which hands the top tree's (top_tree.h) most-proving leaves to the
 * workers behind a transport (transport.h) and applies what they find,
 * and the root's certificate. */
#include "jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../solver/centre_half.h"
#include "../solver/clock.h"
#include "../solver/dfpn_depth.h"
#include "job_log.h"
#include "top_tree.h"
#include "within.h"

static void fill_progress(Coordinator *c, bool final, JobsProgress *out)
{
    JobsProgress p = {0};
    p.seconds = clock_seconds() - c->started;
    p.root_pn = c->t[0].pn;
    p.root_dn = c->t[0].dn;
    p.jobs_done = c->out->jobs_run;
    for (int k = 0; c->ws && k < c->tr->workers; k++) p.jobs_running += c->ws[k].node >= 0;
    p.jobs_queued = c->queued;
    p.proven = c->proven;
    p.disproven = c->disproven;
    p.nodes = c->out->nodes;
    p.nodes_per_second = p.seconds > 0 ? (double)p.nodes / p.seconds : 0;
    p.tree_nodes = c->nt;
    if (c->spec->store) {
        StoreStats ss;
        char e[128];
        if (store_stats(c->spec->store, &ss, e, (int)sizeof e) == 0) p.store_positions = ss.entries;
    }
    p.final = final;
    *out = p;
}

static void report(Coordinator *c, bool final)
{
    if (!c->spec->report) return;
    JobsProgress p;
    fill_progress(c, final, &p);
    c->spec->report(&p, c->spec->report_arg);
}

/* TopCert.progress while the root's certificate is made: the search's last
 * figures (c->certs_figures, read only) with the files made so far. */
static void certs_progress(uint64_t made, uint64_t listed, void *arg)
{
    const Coordinator *c = arg;
    JobsProgress p = c->certs_figures;
    p.seconds = clock_seconds() - c->started;
    p.certs = true;
    p.certs_made = made;
    p.certs_listed = listed;
    c->spec->report(&p, c->spec->report_arg);
}

/* Progress reports from the certificate's writing, as often as the
 * search's. */
static void report_certs(Coordinator *c)
{
    if (!c->spec->report || c->spec->report_every <= 0) return;
    fill_progress(c, false, &c->certs_figures);
    c->tc.progress = certs_progress;
    c->tc.progress_arg = c;
    c->tc.progress_every = c->spec->report_every;
    c->tc.progress_next = clock_seconds() + c->spec->report_every;
}

/* The next leaf to run (expanding or re-budgeting the way there), -1 if
 * none is available now. */
static int next_leaf(Coordinator *c)
{
    int leaf;
    while (c->t[0].avail && (leaf = top_select_leaf(c)) >= 0) {
        TNode *n = &c->t[leaf];
        if (n->state == T_NEW && n->depth < c->spec->expand_depth) { /* the top: split at once */
            c->queued--;
            if (top_expand(c, leaf) != 0) return -1;
            continue;
        }
        if (n->state != T_RAN) return leaf;
        if (n->budget < c->job_nodes_max) { /* run it again, with more */
            n->budget = top_next_budget(c, n->budget);
            n->state = T_NEW;
            c->queued++;
            return leaf;
        }
        if (top_expand(c, leaf) != 0) return -1;
    }
    return -1;
}

/* The worker whose running job an idle worker should help, -1 for none:
 * when the transport can, and every open path is busy or (with expected
 * outcomes) only speculative, the running job with the fewest helpers.
 * Helping adds a thread to a job whose work is needed; a speculative leaf
 * counts only if a running job ends against its numbers (measured,
 * results/jobs/jobs-efficiency.md). A job whose search has ended (it writes its
 * certificate) takes no helper: a helper sent there came back with no
 * nodes, which marks the worker unhelpable until its next job (top_apply). */
static int help_target(Coordinator *c)
{
    const TNode *root = &c->t[0];
    /* bounded jobs have no df-pn team to join (dfpn_depth.h is one thread) */
    if (!c->tr->can_help || c->spec->no_help || c->bounded || top_decided(root)) return -1;
    bool open = root->avail && (c->spec->no_expect || root->state != T_INNER || root->vavail);
    if (open) return -1;
    int best = -1, fewest = 0;
    for (int j = 0; j < c->tr->workers; j++) {
        if (c->ws[j].node < 0 || c->ws[j].helping >= 0 || c->ws[j].unhelpable || top_under_decided(c, c->ws[j].node))
            continue;
        int h = 0;
        for (int k = 0; k < c->tr->workers; k++) h += c->ws[k].node >= 0 && c->ws[k].helping == j;
        if (best < 0 || h < fewest) best = j, fewest = h;
    }
    return best;
}

/* Sends idle worker k to help worker j's job. */
static int send_help(Coordinator *c, int k, int j)
{
    JobOrder o = {.b = c->t[c->ws[j].node].b, .tag = (uint32_t)c->ws[j].node, .serial = ++c->serial, .help = 1,
                  .help_worker = (uint16_t)j, .help_serial = c->ws[j].serial};
    c->ws[k] = (WorkerState){.node = c->ws[j].node, .serial = o.serial, .helping = j, .helped_serial = c->ws[j].serial,
                             .start = clock_seconds() - c->started};
    if (c->tr->start(c->tr, k, &o, c->err, c->errlen) != 0) return c->failed = true, -1;
    return 0;
}

/* The table group of leaf i's job with reply tables (spec->reply_tables):
 * 1 + the index of the reply it is under (top_reply_depth), or of the leaf
 * itself when it is not that deep; 0 without reply tables. */
static uint32_t group_of(const Coordinator *c, int i)
{
    if (!top_reply_tables(c)) return 0;
    return (uint32_t)top_ancestor(c, i, top_reply_depth(c)) + 1;
}

/* Gives every idle worker the most-proving available leaf, or a running
 * job to help (help_target). */
static int assign(Coordinator *c)
{
    for (int k = 0; k < c->tr->workers && !c->failed; k++) {
        if (c->ws[k].node >= 0) continue;
        int j = help_target(c);
        if (j >= 0) {
            if (send_help(c, k, j) != 0) return -1;
            continue;
        }
        int leaf = next_leaf(c);
        if (leaf < 0) break;
        TNode *n = &c->t[leaf];
        n->state = T_BUSY;
        n->avail = false;
        c->queued--;
        top_push(c, leaf);
        if (top_settle(c) != 0) return -1;
        if (c->serial == 0) c->cpu_first = clock_thread_cpu();
        JobOrder o = {.b = n->b, .node_limit = n->budget, .tag = (uint32_t)leaf, .serial = ++c->serial,
                      .certify = top_certify_now(c), .group = group_of(c, leaf), .bounded = c->bounded,
                      .within = (uint8_t)(c->bounded ? top_question(c, n->b) : 0),
                      .share = (uint8_t)(c->certify && !c->bounded ? c->spec->cert_share : 0),
                      .share_min = (uint8_t)c->spec->cert_share_min};
        c->ws[k] = (WorkerState){.node = leaf, .serial = o.serial, .helping = -1, .start = clock_seconds() - c->started};
        if (c->tr->start(c->tr, k, &o, c->err, c->errlen) != 0) return c->failed = true, -1;
    }
    return c->failed ? -1 : 0;
}

static int running(const Coordinator *c)
{
    int n = 0;
    for (int k = 0; k < c->tr->workers; k++) n += c->ws[k].node >= 0;
    return n;
}

/* Waits for outcomes (at most `wait` seconds for the first) and applies them. */
static void collect(Coordinator *c, double wait)
{
    int k;
    JobOutcome o;
    int rc;
    for (;;) {
        if (c->failed) return;
        double t0 = clock_seconds(), cpu0 = clock_thread_cpu();
        rc = c->tr->wait(c->tr, wait, &k, &o, c->err, c->errlen);
        c->waited += clock_seconds() - t0;
        c->cpu_waited += clock_thread_cpu() - cpu0;
        if (rc == 0) return;
        if (rc < 0) {
            c->failed = true;
            return;
        }
        /* The job log records a worker's own job (not a helper's nodes)
         * before top_apply clears the worker's state. */
        const WorkerState *w = &c->ws[k];
        if (w->helping < 0 && w->node >= 0 && o.serial == w->serial) job_log_add(c, k, w->node, &o);
        top_apply(c, k, &o);
        wait = 0;
    }
}

static void coordinate(Coordinator *c)
{
    double next_report = c->spec->report_every > 0 ? c->started + c->spec->report_every : 0;
    while (!c->failed && !top_decided(&c->t[0])) {
        double now = clock_seconds();
        if (c->deadline > 0 && now >= c->deadline) break;
        if (c->spec->interrupt && atomic_load(c->spec->interrupt)) {
            c->out->interrupted = true;
            break;
        }
        if (next_report > 0 && now >= next_report) {
            report(c, false);
            next_report = now + c->spec->report_every;
        }
        if (assign(c) != 0 || top_decided(&c->t[0])) break;
        /* Interrupt jobs whose subtree has become decided. */
        for (int k = 0; k < c->tr->workers; k++)
            if (c->ws[k].node >= 0 && top_under_decided(c, c->ws[k].node)) c->tr->interrupt(c->tr, k);
        if (running(c) == 0 && !c->t[0].avail) {
            top_fail(c, "internal error: nothing to run and the root undecided");
            break;
        }
        double until = now + 0.25;
        if (next_report > 0 && next_report < until) until = next_report;
        if (c->deadline > 0 && c->deadline < until) until = c->deadline;
        collect(c, until - now);
    }
    /* Stop the running jobs, and take what they found. */
    for (int k = 0; k < c->tr->workers; k++)
        if (c->ws[k].node >= 0) c->tr->interrupt(c->tr, k);
    while (!c->failed && running(c) > 0) collect(c, 0.25);
}

/* How the proof file names the certificate folder: relative to the proof's
 * own folder when the certificates are in it or below (the pair can then
 * be moved together), else the absolute path. */
static int see_prefix(Coordinator *c, char *prefix, size_t len)
{
    char *dir = realpath(c->spec->cert_dir, NULL);
    char *pcopy = strdup(c->spec->proof);
    char *slash = pcopy ? strrchr(pcopy, '/') : NULL;
    if (slash) *slash = '\0';
    char *pdir = pcopy ? realpath(slash ? (pcopy[0] ? pcopy : "/") : ".", NULL) : NULL;
    int rc = 0;
    if (!dir || !pdir) {
        top_fail(c, "certificate folder %s: cannot resolve its path", c->spec->cert_dir);
        rc = -1;
    } else {
        size_t pl = strlen(pdir);
        if (strcmp(dir, pdir) == 0) snprintf(prefix, len, "%s", "");
        else if (strncmp(dir, pdir, pl) == 0 && dir[pl] == '/') snprintf(prefix, len, "%s/", dir + pl + 1);
        else snprintf(prefix, len, "%s/", dir);
    }
    free(dir);
    free(pdir);
    free(pcopy);
    return rc;
}

/* certs_at_end: the files of the inner nodes under node i that i's proof
 * names (top_proof_children), deepest first, each composed from its own
 * children's (top_certify_inner; a child decided otherwise, a job's root
 * or a stored position, gets its file from a bounded job of its own when
 * the file is missing: within_cert.c within_ensure). Not i's own. */
static int certify_below(Coordinator *c, int i)
{
    int idx[MOVES_MAX], nk = top_proof_children(c, i, idx);
    for (int k = 0; k < nk; k++) {
        const TNode *n = &c->t[idx[k]]; /* a child has a piece more: the recursion ends */
        if (n->state != T_INNER || n->by != BY_TREE) continue;
        if (certify_below(c, idx[k]) != 0 || top_certify_inner(c, idx[k], NULL, NULL) != 0) return -1;
    }
    return 0;
}

/* A list of positions, grown as needed. */
typedef struct {
    Board *b;
    int count, cap;
    bool oom;
} BoardList;

/* The positions under node i that i's proof names and that the tree did
 * not decide from children (job roots, stored and static ones), appended
 * to *l. */
static void proof_leaves(Coordinator *c, int i, BoardList *l)
{
    int idx[MOVES_MAX], nk = top_proof_children(c, i, idx);
    for (int k = 0; k < nk && !l->oom; k++) {
        const TNode *n = &c->t[idx[k]];
        if (n->state == T_INNER && n->by == BY_TREE) {
            proof_leaves(c, idx[k], l);
            continue;
        }
        if (l->count == l->cap) {
            int ncap = l->cap ? 2 * l->cap : 64;
            Board *nb = realloc(l->b, (size_t)ncap * sizeof *nb);
            if (!nb) {
                l->oom = true;
                return;
            }
            l->b = nb;
            l->cap = ncap;
        }
        l->b[l->count++] = n->b;
    }
}

/* certs_at_end, bounded: write_proof's certificates made dry (within.h
 * within_prepare): the tree's inner nodes as certify_below and
 * top_certify_inner make them, a root decided as a whole as
 * within_see_root does (composed from its record where the store has
 * it). 0, or -1. */
static int dry_within(void *arg)
{
    Coordinator *c = arg;
    const TNode *root = &c->t[0];
    if (root->state == T_INNER && root->by == BY_TREE)
        return certify_below(c, 0) != 0 || top_certify_inner(c, 0, NULL, NULL) != 0 ? -1 : 0;
    char name[JOBRUN_NAME_MAX];
    return within_ensure(&c->tc, root->b, top_value(root), root->wdepth, c->spec->within, name, c->err, c->errlen);
}

/* certs_at_end, value, with several workers: the positions the proof's
 * files will be re-proved for (topcert_prepare's dry run finds them) are
 * re-proved tc.threads at a time before the tree's files are composed
 * over them (with a split, tried whole within its probe; the rest are
 * split as the tree is composed). Every one is the root's winner's: a proof of a
 * win names only positions won by the same side. */
static int prepare_certs(Coordinator *c)
{
    const TNode *root = &c->t[0];
    if (c->tc.threads < 2) return 0;
    if (c->bounded) {
        if (within_prepare(&c->tc, dry_within, c, top_value(root), c->err, c->errlen) != 0)
            return c->failed = true, -1;
        return 0;
    }
    BoardList l = {NULL, 0, 0, false};
    if (root->state == T_INNER && root->by == BY_TREE) proof_leaves(c, 0, &l);
    else {
        l.b = malloc(sizeof *l.b);
        if (l.b) l.b[l.count++] = root->b;
        else l.oom = true;
    }
    int rc = 0;
    if (l.oom) top_fail(c, "out of memory listing the positions to re-prove"), rc = -1;
    else if (topcert_prepare(&c->tc, l.b, l.count, top_value(root), c->err, c->errlen) != 0)
        rc = -1, c->failed = true;
    free(l.b);
    return rc;
}

/* With --proof: the root's certificate at that path, its see lines naming
 * the certificate folder. */
static int write_proof(Coordinator *c)
{
    const TNode *root = &c->t[0];
    Winner w = top_value(root);
    char prefix[4200];
    if (see_prefix(c, prefix, sizeof prefix) != 0) return -1;
    report_certs(c);
    if (c->certs_at_end && prepare_certs(c) != 0) return -1;
    if (c->certs_at_end && root->state == T_INNER && root->by == BY_TREE && certify_below(c, 0) != 0) return -1;
    if (root->state == T_INNER && root->by == BY_TREE) return top_certify_inner(c, 0, c->spec->proof, prefix);
    if (c->bounded) {
        if (within_see_root(&c->tc, root->b, w, root->wdepth, c->spec->within, c->spec->proof, prefix, c->err,
                            c->errlen) != 0)
            return c->failed = true, -1;
        return 0;
    }
    /* decided as a whole (a job, the store, knowledge): the root itself
     * handed to its certificate by one see line */
    if (topcert_ensure(&c->tc, root->b, w, c->err, c->errlen) != 0) return c->failed = true, -1;
    if (topcert_see_root(&c->tc, root->b, w, c->spec->proof, prefix, c->err, c->errlen) != 0)
        return c->failed = true, -1;
    return 0;
}

static int run_workers(Coordinator *c)
{
    JobsTransport own;
    c->tr = c->spec->transport;
    if (!c->tr) {
        size_t tt_bytes = c->spec->job_tt_bytes ? c->spec->job_tt_bytes : (size_t)64 << 20;
        int nw = c->spec->workers < 1 ? 1 : c->spec->workers > JOBS_MAX_WORKERS ? JOBS_MAX_WORKERS : c->spec->workers;
        if (pool_open(&own, nw, c->r, &c->cfg, tt_bytes, !c->spec->separate_tables, c->spec->reply_tables,
                      c->spec->job_threads, c->spec->cert_dir, c->err, c->errlen) != 0)
            return c->failed = true, -1;
        c->tr = &own;
    }
    c->ws = malloc((size_t)c->tr->workers * sizeof *c->ws);
    if (!c->ws) top_fail(c, "out of memory for %d workers", c->tr->workers);
    else {
        for (int k = 0; k < c->tr->workers; k++) c->ws[k] = (WorkerState){.node = -1, .helping = -1};
        coordinate(c);
        c->out->msgs_sent = c->tr->msgs_sent;
        c->out->msgs_received = c->tr->msgs_received;
        c->out->beats_received = c->tr->beats_received;
    }
    if (c->tr == &own) own.close(&own);
    c->tr = NULL;
    free(c->ws);
    c->ws = NULL;
    return c->failed ? -1 : 0;
}

/* The certificates' settings (TopCert), from the spec. */
static void certs_setup(Coordinator *c, const JobsSpec *spec)
{
    /* With certs_later: the jobs write nothing, and the certificates the
     * root's proof needs are made at the end, composed from the store's
     * records or re-proved (bounded: each by a bounded job of its own,
     * within_cert.c within_ensure; value: top_regen.c topcert_ensure).
     * Why: bounded, a writer searches again for its moves (about 11 K lines
     * a second, a hundredth of the value writer's rate), so writing every
     * decided job's file as it decides took 73 % of a run (X c3 O c4
     * within 25, 146.5 of 200 s), for jobs most of which the root's proof
     * never names. Value, since 2026-12-05: on odd boards every Chaos win
     * the writer lists ends in pairing lines found by a search with
     * witnesses, and 7x7 k = 6 `original` spent 411.6 of 783.9 s writing
     * 11 files (3.3 M lines) for positions a long run may never need. */
    c->certs_at_end = c->certify && spec->certs_later;
    topcert_init(&c->tc, c->r, &c->cfg, spec->cert_dir);
    c->tc.interrupt = spec->interrupt; /* a signal stops the re-proofs too, at the end as during the run */
    if (spec->certs_later && spec->store) {
        c->tc.store = spec->store;
        c->tc.mini_bytes = spec->job_tt_bytes;
        c->tc.split_plies = spec->bounded ? 0 : spec->regen_split;
        c->tc.split_probe = spec->regen_probe;
        c->tc.threads = spec->transport ? 1 : spec->workers; /* MPI: the ranks are elsewhere */
    }
    c->tc.share = (uint8_t)(spec->cert_share < 0 ? 0 : spec->cert_share);
    c->tc.share_min = (uint8_t)(spec->cert_share_min < 0 ? 0 : spec->cert_share_min);
}

int jobs_solve(const Rules *r, Board root, const DfpnConfig *cfg, const JobsSpec *spec, JobsResult *out, char *err,
               int errlen)
{
    *out = (JobsResult){0};
    if (err && errlen > 0) err[0] = '\0';
    Coordinator c = {.r = r, .cfg = *cfg, .spec = spec, .out = out, .err = err, .errlen = errlen};
    c.job_nodes = spec->job_nodes ? spec->job_nodes : JOBS_DEFAULT_NODES;
    c.job_nodes_max = spec->job_nodes_max > c.job_nodes ? spec->job_nodes_max : c.job_nodes;
    c.certify = spec->cert_dir != NULL;
    c.bounded = spec->bounded;
    c.horizon = board_count(root) + spec->within;
    if (c.bounded && (!dfpn_depth_supported(r) || spec->within < 0 || spec->within > STORE_BOUND_MAX)) {
        snprintf(err, (size_t)errlen, "%s", !dfpn_depth_supported(r) ? "--within needs a board of at most 7x7"
                                                                      : "--within: plies 0 to 64");
        return -1;
    }
    certs_setup(&c, spec);
    centre_init(&c.centre, r);
    c.centre.on = c.centre.on && cfg->kn.centre;
    c.centre.ring = c.centre.ring && c.centre.on && !cfg->kn.no_ring;
    c.centre.half_max_pieces = cfg->kn.centre_half;
    c.centre.half_two_max_pieces = cfg->kn.centre_half_two;
    c.centre.half_bytes = centre_half_bytes_for(cfg->kn.centre_half_mb);
    c.centre.half_fill = cfg->kn.centre_half_fill;
    c.started = clock_seconds();
    c.cpu_started = c.cpu_first = clock_thread_cpu();
    c.deadline = spec->time_limit > 0 ? c.started + spec->time_limit : 0;
    int rc = 0;
    if (top_new_node(&c) != 0 || (c.t[0].b = root, top_init_leaf(&c, 0)) != 0 || top_settle(&c) != 0) rc = -1;
    if (rc == 0 && !top_decided(&c.t[0])) rc = run_workers(&c);
    if (rc == 0 && spec->proof && top_decided(&c.t[0]) && write_proof(&c) != 0) rc = -1;
    if (spec->job_log && job_log_write(&c, spec->job_log) != 0) rc = -1;
    if (c.nt > 0) {
        out->winner = top_value(&c.t[0]);
        out->within_depth = !c.bounded || out->winner == WINNER_NONE ? -1
                            : out->winner == WINNER_ORDER           ? c.t[0].wdepth
                                                                    : spec->within;
        out->root_from_store = c.t[0].by == BY_STORE;
        out->root_pn = c.t[0].pn;
        out->root_dn = c.t[0].dn;
        for (int j = c.t[0].first; c.t[0].state == T_INNER && j < c.t[0].first + c.t[0].nchild; j++) {
            int k = out->nchildren++;
            out->children[k].move = c.t[j].move;
            out->children[k].pn = c.t[j].pn;
            out->children[k].dn = c.t[j].dn;
        }
        report(&c, true);
    }
    if (c.tc.stopped) out->interrupted = true; /* rc is -1, err says where */
    out->tree_nodes = c.nt;
    out->cert_files += c.tc.written;
    out->cert_composed = c.tc.composed;
    out->cert_resolved = c.tc.solved;
    out->cert_split = c.tc.split;
    out->seconds = clock_seconds() - c.started;
    out->coord_busy_seconds = out->seconds - c.waited;
    out->coord_cpu_seconds = clock_thread_cpu() - c.cpu_started - c.cpu_waited;
    out->coord_cpu_setup = c.cpu_first - c.cpu_started;
    out->select_steps = c.select_steps;
    out->backup_steps = c.backup_steps;
    topcert_free(&c.tc);
    job_log_free(&c);
    free(c.t);
    free(c.map);
    free(c.queue);
    return rc;
}
