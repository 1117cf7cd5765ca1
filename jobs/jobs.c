/* jobs.c - job-level proof-number search (jobs.h): the top tree, the
 * coordinator loop and the worker threads. */
#include "jobs.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/moves.h"
#include "../engine/symmetry.h"
#include "../solver/centre.h"
#include "../solver/clock.h"
#include "../solver/knowledge.h"

/* A top-tree node's state (a decided node is told by its numbers). */
enum { T_NEW, T_BUSY, T_RAN, T_INNER };

typedef struct {
    Board b;
    Move move;          /* from the parent (MOVE_NONE at the root) */
    uint8_t state;
    bool avail;         /* can be selected: a NEW or RAN undecided leaf, or an
                         * undecided inner node with an available child */
    int parent;         /* -1 at the root */
    int first, nchild;  /* children: first .. first+nchild-1 */
    uint32_t pn, dn;
} TNode;

enum { W_IDLE, W_ASSIGNED, W_DONE };

typedef struct Ctx Ctx;

typedef struct {
    Ctx *c;
    pthread_t th;
    bool started;
    TT tt;
    int state;          /* W_*, under c->mu */
    int node;           /* the leaf it works on */
    Board b;
    atomic_bool stop;   /* interrupt the running job */
    /* the result (W_DONE) */
    Winner value;
    uint32_t pn, dn;
    uint64_t nodes;
} Worker;

struct Ctx {
    const Rules *r;
    DfpnConfig cfg;
    const JobsSpec *spec;
    uint64_t job_nodes;
    Centre centre;
    double started, deadline;
    TNode *t;
    size_t nt, cap;
    Worker *w;
    int nw;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    bool quit;
    JobsResult *out;
    uint64_t proven, disproven, queued;
    char *err;
    int errlen;
    bool failed;
};

static void fail(Ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(Ctx *c, const char *fmt, ...)
{
    if (c->failed) return;
    c->failed = true;
    va_list ap;
    va_start(ap, fmt);
    if (c->err && c->errlen > 0) vsnprintf(c->err, (size_t)c->errlen, fmt, ap);
    va_end(ap);
}

static uint32_t sat_add(uint32_t a, uint32_t b)
{
    if (a == DFPN_INF || b == DFPN_INF) return DFPN_INF;
    uint64_t s = (uint64_t)a + b;
    return s >= DFPN_INF ? DFPN_INF - 1 : (uint32_t)s;
}

static bool decided(const TNode *n) { return n->pn == 0 || n->dn == 0; }

/* ---------------- the store ---------------- */

static StoreKey key_of(const Ctx *c, Board b) { return (StoreKey){c->r->rules, c->r->n, c->r->k, b}; }

static int put(Ctx *c, Board b, Winner w, Move m, int source)
{
    if (!c->spec->store) return 0;
    StoreKey k = key_of(c, b);
    StoreValue v = {.winner = w, .move = m, .dtw = STORE_DTW_UNKNOWN, .source = (uint8_t)source};
    char msg[256] = "";
    int rc = store_put(c->spec->store, &k, &v, msg, sizeof msg);
    if (rc == 0) return 0;
    fail(c, "store: %s", msg[0] ? msg : "put failed");
    return -1;
}

/* Winner from the store, WINNER_NONE if absent; -1 on a store error. */
static int lookup(Ctx *c, Board b, Winner *w)
{
    *w = WINNER_NONE;
    if (!c->spec->store) return 0;
    StoreKey k = key_of(c, b);
    StoreValue v;
    int rc = store_get(c->spec->store, &k, &v);
    if (rc < 0) {
        fail(c, "store: %s", store_error(c->spec->store));
        return -1;
    }
    if (rc == 1) *w = v.winner;
    return 0;
}

/* ---------------- the top tree ---------------- */

/* Decided without search? *over: the game has ended. Also the leaf's
 * initial numbers (df-pn's: 1 and the number of moves). */
static Winner static_value(Ctx *c, Board b, bool *over, uint32_t *pn, uint32_t *dn)
{
    *over = false;
    *pn = *dn = 1;
    Winner st = rules_status(c->r, b);
    if (st != WINNER_NONE) {
        *over = true;
        return st;
    }
    KnNode kn;
    kn_node(c->r, &c->cfg.kn, b, &kn);
    if (kn.value != WINNER_NONE) return kn.value;
    if (centre_win(&c->centre, b)) return WINNER_ORDER;
    if (kn_chaos_pairs(c->r, &c->cfg.kn, b)) return WINNER_CHAOS;
    uint32_t moves = kn.nmoves > 0 ? (uint32_t)kn.nmoves : 1;
    if (board_order_to_move(b)) {
        if (c->cfg.order_dn_moves) *dn = moves;
    } else if (c->cfg.chaos_pn_moves) {
        *pn = moves;
    }
    return WINNER_NONE;
}

static int new_node(Ctx *c)
{
    if (c->nt == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 1024;
        TNode *t = realloc(c->t, cap * sizeof *t);
        if (!t) {
            fail(c, "out of memory for the top tree (%zu nodes)", c->nt);
            return -1;
        }
        c->t = t;
        c->cap = cap;
    }
    c->t[c->nt] = (TNode){.move = MOVE_NONE, .parent = -1, .first = -1};
    return (int)c->nt++;
}

static void set_value(Ctx *c, TNode *n, Winner w)
{
    dfpn_numbers(w, &n->pn, &n->dn);
    n->avail = false;
    if (w == WINNER_ORDER) c->proven++;
    else c->disproven++;
}

/* Numbers and availability of an inner node from its children. */
static void recompute(Ctx *c, int i)
{
    TNode *n = &c->t[i];
    bool isor = board_order_to_move(n->b);
    uint32_t mn = DFPN_INF, sum = 0;
    bool avail = false;
    for (int j = n->first; j < n->first + n->nchild; j++) {
        const TNode *ch = &c->t[j];
        uint32_t a = isor ? ch->pn : ch->dn, s = isor ? ch->dn : ch->pn;
        if (a < mn) mn = a;
        sum = sat_add(sum, s);
        avail |= ch->avail;
    }
    n->pn = isor ? mn : sum;
    n->dn = isor ? sum : mn;
    n->avail = avail && !decided(n);
}

/* For a decided inner node with the winner to move: a move to a child
 * decided that way. */
static Move winning_child(const Ctx *c, const TNode *n, Winner w)
{
    bool mover = board_order_to_move(n->b) == (w == WINNER_ORDER);
    if (!mover) return MOVE_NONE;
    for (int j = n->first; j < n->first + n->nchild; j++)
        if (dfpn_winner(c->t[j].pn, c->t[j].dn) == w) return c->t[j].move;
    return MOVE_NONE;
}

/* Backs up from node i's parent to the root, stopping at a decided node
 * (which never changes). Stores every node that becomes decided. */
static int backup(Ctx *c, int i)
{
    for (int p = c->t[i].parent; p >= 0; p = c->t[p].parent) {
        if (decided(&c->t[p])) break;
        recompute(c, p);
        if (decided(&c->t[p])) {
            Winner w = dfpn_winner(c->t[p].pn, c->t[p].dn);
            if (w == WINNER_ORDER) c->proven++;
            else c->disproven++;
            if (put(c, c->t[p].b, w, winning_child(c, &c->t[p], w), STORE_SOURCE_DFPN) != 0) return -1;
        }
    }
    return 0;
}

/* Gives node i (a new leaf, the root or a child) its first value: static,
 * stored, or a leaf to run. */
static int init_leaf(Ctx *c, int i)
{
    TNode *n = &c->t[i];
    bool over;
    uint32_t pn, dn;
    Winner w = static_value(c, n->b, &over, &pn, &dn);
    if (w != WINNER_NONE) {
        set_value(c, n, w);
        c->out->static_decided++;
        if (!over) return put(c, n->b, w, MOVE_NONE, STORE_SOURCE_LEMMA);
        return 0;
    }
    if (lookup(c, n->b, &w) != 0) return -1;
    n = &c->t[i];
    if (w != WINNER_NONE) {
        set_value(c, n, w);
        c->out->store_hits++;
        return 0;
    }
    n->state = T_NEW;
    n->pn = pn;
    n->dn = dn;
    n->avail = true;
    c->queued++;
    return 0;
}

/* Expands leaf i one ply: every legal move, symmetric siblings merged. */
static int expand(Ctx *c, int i)
{
    Board b = c->t[i].b;
    MoveList ml;
    moves_generate(b, c->r->cells, &ml);
    Board canon[MOVES_MAX];
    int first = -1, count = 0;
    for (int m = 0; m < ml.count; m++) {
        Board cb = b;
        board_place(&cb, ml.m[m]);
        Board cf = sym_canonical(cb, c->r->n, NULL);
        bool dup = false;
        for (int j = 0; j < count && !dup; j++) dup = board_equal(canon[j], cf);
        if (dup) continue;
        canon[count] = cf;
        int id = new_node(c);
        if (id < 0) return -1;
        if (first < 0) first = id;
        c->t[id].b = cb;
        c->t[id].move = ml.m[m];
        c->t[id].parent = i;
        count++;
    }
    TNode *n = &c->t[i];
    n->state = T_INNER;
    n->first = first;
    n->nchild = count;
    c->out->expansions++;
    for (int j = first; j < first + count; j++)
        if (init_leaf(c, j) != 0) return -1;
    recompute(c, i);
    if (decided(&c->t[i])) {
        Winner w = dfpn_winner(c->t[i].pn, c->t[i].dn);
        if (w == WINNER_ORDER) c->proven++;
        else c->disproven++;
        if (put(c, c->t[i].b, w, winning_child(c, &c->t[i], w), STORE_SOURCE_DFPN) != 0) return -1;
    }
    return backup(c, i);
}

/* The most-proving available leaf (the root must be available). */
static int select_leaf(const Ctx *c)
{
    int i = 0;
    while (c->t[i].state == T_INNER) {
        const TNode *n = &c->t[i];
        bool isor = board_order_to_move(n->b);
        int best = -1;
        uint32_t bv = 0;
        for (int j = n->first; j < n->first + n->nchild; j++) {
            if (!c->t[j].avail) continue;
            uint32_t v = isor ? c->t[j].pn : c->t[j].dn;
            if (best < 0 || v < bv) {
                best = j;
                bv = v;
            }
        }
        if (best < 0) return -1; /* cannot happen: avail says some child is */
        i = best;
    }
    return i;
}

static bool under_decided(const Ctx *c, int i)
{
    for (; i >= 0; i = c->t[i].parent)
        if (decided(&c->t[i])) return true;
    return false;
}

/* Applies worker w's finished job. */
static int apply(Ctx *c, Worker *w)
{
    JobsResult *o = c->out;
    o->jobs_run++;
    o->nodes += w->nodes;
    int i = w->node;
    TNode *n = &c->t[i];
    w->state = W_IDLE;
    if (w->value != WINNER_NONE) {
        o->jobs_decided++;
        if (put(c, n->b, w->value, MOVE_NONE, STORE_SOURCE_DFPN) != 0) return -1;
        n = &c->t[i];
        if (!decided(n)) set_value(c, n, w->value);
        n->state = T_RAN;
        return backup(c, i);
    }
    if (w->nodes >= c->job_nodes) { /* the budget ran out: expand next time */
        o->jobs_undecided++;
        n->state = T_RAN;
        n->pn = w->pn ? w->pn : 1;
        n->dn = w->dn ? w->dn : 1;
    } else { /* interrupted or out of time: it may run again */
        o->jobs_stopped++;
        n->state = T_NEW;
        c->queued++;
    }
    n->avail = !under_decided(c, i);
    return backup(c, i);
}

/* ---------------- the workers ---------------- */

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Ctx *c = w->c;
    pthread_mutex_lock(&c->mu);
    for (;;) {
        while (w->state != W_ASSIGNED && !c->quit) pthread_cond_wait(&c->work, &c->mu);
        if (c->quit) break;
        Board b = w->b;
        pthread_mutex_unlock(&c->mu);
        tt_clear(&w->tt);
        Dfpn d;
        dfpn_init(&d, c->r, &c->cfg, &w->tt);
        d.lim = (SearchLimits){.node_limit = c->job_nodes, .deadline = c->deadline, .interrupt = &w->stop};
        uint32_t pn = 1, dn = 1;
        Winner v = dfpn_solve(&d, b, &pn, &dn);
        pthread_mutex_lock(&c->mu);
        w->value = v;
        w->pn = pn;
        w->dn = dn;
        w->nodes = d.nodes;
        w->state = W_DONE;
        pthread_cond_signal(&c->done);
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

/* ---------------- the coordinator ---------------- */

static void report(Ctx *c, bool final)
{
    if (!c->spec->report) return;
    JobsProgress p = {0};
    p.seconds = clock_seconds() - c->started;
    p.root_pn = c->t[0].pn;
    p.root_dn = c->t[0].dn;
    p.jobs_done = c->out->jobs_run;
    for (int k = 0; c->w && k < c->nw; k++) p.jobs_running += c->w[k].state == W_ASSIGNED;
    p.jobs_queued = c->queued;
    p.proven = c->proven;
    p.disproven = c->disproven;
    p.nodes = c->out->nodes;
    p.nodes_per_second = p.seconds > 0 ? (double)p.nodes / p.seconds : 0;
    p.tree_nodes = c->nt;
    p.final = final;
    c->spec->report(&p, c->spec->report_arg);
}

static void timed_wait(Ctx *c, double until)
{
    double now = clock_seconds();
    double dt = until - now;
    if (dt <= 0) return;
    if (dt > 0.25) dt = 0.25;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    long ns = ts.tv_nsec + (long)(dt * 1e9);
    ts.tv_sec += ns / 1000000000L;
    ts.tv_nsec = ns % 1000000000L;
    pthread_cond_timedwait(&c->done, &c->mu, &ts);
}

static void coordinate(Ctx *c)
{
    double next_report = c->spec->report_every > 0 ? c->started + c->spec->report_every : 0;
    pthread_mutex_lock(&c->mu);
    while (!c->failed) {
        for (int k = 0; k < c->nw && !c->failed; k++)
            if (c->w[k].state == W_DONE) apply(c, &c->w[k]);
        if (c->failed || decided(&c->t[0])) break;
        double now = clock_seconds();
        if (c->deadline > 0 && now >= c->deadline) break;
        if (next_report > 0 && now >= next_report) {
            report(c, false);
            next_report = now + c->spec->report_every;
        }
        /* Give every idle worker the most-proving available leaf. */
        for (int k = 0; k < c->nw && !c->failed && c->t[0].avail; k++) {
            Worker *w = &c->w[k];
            if (w->state != W_IDLE) continue;
            int leaf;
            while ((leaf = select_leaf(c)) >= 0 && c->t[leaf].state == T_RAN) {
                if (expand(c, leaf) != 0 || !c->t[0].avail) {
                    leaf = -1;
                    break;
                }
            }
            if (leaf < 0) break;
            TNode *n = &c->t[leaf];
            n->state = T_BUSY;
            n->avail = false;
            c->queued--;
            if (backup(c, leaf) != 0) break;
            w->node = leaf;
            w->b = n->b;
            atomic_store(&w->stop, false);
            w->state = W_ASSIGNED;
            pthread_cond_broadcast(&c->work);
        }
        if (c->failed || decided(&c->t[0])) break;
        /* Interrupt jobs whose subtree has become decided. */
        int running = 0;
        for (int k = 0; k < c->nw; k++) {
            if (c->w[k].state == W_IDLE) continue;
            running++;
            if (c->w[k].state == W_ASSIGNED && under_decided(c, c->w[k].node)) atomic_store(&c->w[k].stop, true);
        }
        if (running == 0 && !c->t[0].avail) {
            fail(c, "internal error: nothing to run and the root undecided");
            break;
        }
        bool pending = false;
        for (int k = 0; k < c->nw; k++) pending |= c->w[k].state == W_DONE;
        if (pending) continue;
        double until = now + 0.25;
        if (next_report > 0 && next_report < until) until = next_report;
        if (c->deadline > 0 && c->deadline < until) until = c->deadline;
        timed_wait(c, until);
    }
    /* Stop the running jobs, and take what the finished ones found. */
    for (int k = 0; k < c->nw; k++) atomic_store(&c->w[k].stop, true);
    c->quit = true;
    pthread_cond_broadcast(&c->work);
    pthread_mutex_unlock(&c->mu);
    for (int k = 0; k < c->nw; k++)
        if (c->w[k].started) pthread_join(c->w[k].th, NULL);
    for (int k = 0; k < c->nw && !c->failed; k++)
        if (c->w[k].state == W_DONE) apply(c, &c->w[k]);
}

int jobs_solve(const Rules *r, Board root, const DfpnConfig *cfg, const JobsSpec *spec, JobsResult *out, char *err,
               int errlen)
{
    *out = (JobsResult){0};
    if (err && errlen > 0) err[0] = '\0';
    Ctx c = {.r = r, .cfg = *cfg, .spec = spec, .out = out, .err = err, .errlen = errlen};
    c.job_nodes = spec->job_nodes ? spec->job_nodes : JOBS_DEFAULT_NODES;
    c.nw = spec->workers < 1 ? 1 : spec->workers > JOBS_MAX_WORKERS ? JOBS_MAX_WORKERS : spec->workers;
    centre_init(&c.centre, r);
    c.centre.on = c.centre.on && cfg->kn.centre;
    c.started = clock_seconds();
    c.deadline = spec->time_limit > 0 ? c.started + spec->time_limit : 0;
    int rc = 0;
    if (new_node(&c) != 0 || (c.t[0].b = root, init_leaf(&c, 0)) != 0) {
        rc = -1;
        goto done;
    }
    if (!decided(&c.t[0])) {
        size_t tt_bytes = spec->job_tt_bytes ? spec->job_tt_bytes : (size_t)64 << 20;
        c.w = calloc((size_t)c.nw, sizeof *c.w);
        if (!c.w) {
            fail(&c, "out of memory for %d workers", c.nw);
            rc = -1;
            goto done;
        }
        pthread_mutex_init(&c.mu, NULL);
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&c.done, &ca);
        pthread_condattr_destroy(&ca);
        pthread_cond_init(&c.work, NULL);
        for (int k = 0; k < c.nw; k++) {
            Worker *w = &c.w[k];
            w->c = &c;
            atomic_init(&w->stop, false);
            if (tt_init(&w->tt, tt_bytes, false) != 0) {
                fail(&c, "cannot allocate a %zu MiB table for worker %d", tt_bytes >> 20, k);
                break;
            }
            w->started = true; /* the table; the thread below */
            if (pthread_create(&w->th, NULL, worker_main, w) != 0) {
                w->started = false;
                tt_free(&w->tt);
                fail(&c, "cannot start worker thread %d", k);
                break;
            }
        }
        if (c.failed) { /* let the started threads go */
            pthread_mutex_lock(&c.mu);
            c.quit = true;
            pthread_cond_broadcast(&c.work);
            pthread_mutex_unlock(&c.mu);
            for (int k = 0; k < c.nw; k++)
                if (c.w[k].started) pthread_join(c.w[k].th, NULL);
        } else {
            coordinate(&c);
        }
        for (int k = 0; k < c.nw; k++)
            if (c.w[k].started) tt_free(&c.w[k].tt);
        pthread_cond_destroy(&c.done);
        pthread_cond_destroy(&c.work);
        pthread_mutex_destroy(&c.mu);
        free(c.w);
        c.w = NULL;
        if (c.failed) rc = -1;
    }
done:
    if (c.nt > 0) {
        out->winner = dfpn_winner(c.t[0].pn, c.t[0].dn);
        out->root_pn = c.t[0].pn;
        out->root_dn = c.t[0].dn;
        report(&c, true);
    }
    out->tree_nodes = c.nt;
    out->seconds = clock_seconds() - c.started;
    free(c.t);
    return rc;
}
