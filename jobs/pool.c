/* pool.c - the one-machine transport (transport.h): worker threads, each
 * with its own JobRunner, on one table shared by all (the default), on a
 * table each, or on a table per group (reply tables, below); tables are
 * kept between jobs (job_run.h).
 *
 * Reply tables (reply_tables N > 0): N tables made at the start; a job
 * runs on the table of its order's group (the reply it is under, jobs.c
 * group_of), so one reply's jobs see only that reply's history, with one
 * worker or many. A group without a table takes the least recently
 * used idle one, cleared first (N >= workers, so one is always idle).
 * Sound like any kept table (job_run.h): a table only ever holds entries
 * its own searches wrote.
 *
 * Helping (shared table, one-thread jobs): an order with `help` set makes
 * a worker join another worker's running job as a second df-pn thread
 * (dfpn.h, dfpn_team_new): the coordinator sends it when every open leaf
 * is busy or only speculative (jobs.c). It joins only if that worker still
 * runs the job named (RUNNING, same serial), so a late help order finds
 * nothing to do; a job's runner waits until its helpers have left before
 * it reports done, so a team is never reset under a helper.
 *
 * Invariants: a worker's fields other than `stop` are read and written
 * under the pool's mutex; a worker is IDLE, RUNNING (its order set) or
 * DONE (its outcome set, not yet taken by wait). The coordinator's wait
 * sleeps on a condition signalled by every finished job. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "transport.h"

enum { P_IDLE, P_RUNNING, P_DONE };

typedef struct Pool Pool;

typedef struct {
    Pool *p;
    pthread_t th;
    bool started;
    JobRunner jr;
    int state;
    JobOrder order;
    JobOutcome out;
    atomic_bool stop;
    DfpnShared *team; /* its jobs' team (NULL: no helping) */
    int helpers;      /* workers inside its running job */
} PWorker;

typedef struct {
    TT tt;
    uint32_t group; /* 0: none yet */
    int users;      /* workers running a job on it */
    uint64_t used;  /* the pool's job count when it last got a job (LRU) */
    bool clearing;  /* a worker clears it for a new group */
} GroupTable;

struct Pool {
    PWorker *w;
    int nw;
    TT shared;        /* the workers' common table, when shared */
    bool has_shared;
    WinTab wins;      /* the workers' common side table (job_run.h), with
                       * certificates on a shared table or reply tables */
    GroupTable *gt;   /* reply tables, ngt of them (0: none) */
    int ngt;
    uint64_t jobs;
    pthread_mutex_t mu;
    pthread_cond_t work, done, left; /* left: a helper has left a team */
    pthread_cond_t ready;            /* a group table has been cleared */
    bool quit;
};

/* Worker w helps the job named by o, if it still runs. Called and returns
 * under the mutex. */
static void help(PWorker *w, const JobOrder *o, JobOutcome *out)
{
    Pool *p = w->p;
    PWorker *t = o->help_worker < p->nw ? &p->w[o->help_worker] : NULL;
    bool go = t && t != w && t->team && t->state == P_RUNNING && t->order.serial == o->help_serial;
    JobOrder job = go ? t->order : *o;
    if (go) t->helpers++;
    pthread_mutex_unlock(&p->mu);
    if (go) {
        jobrun_assist(&w->jr, &job, t->team, (int)(w - p->w) + 1, &w->stop, out);
    } else {
        memset(out, 0, sizeof *out);
        out->move = MOVE_NONE;
        out->stopped = 1;
    }
    out->tag = o->tag;
    out->serial = o->serial;
    pthread_mutex_lock(&p->mu);
    if (go && --t->helpers == 0) pthread_cond_broadcast(&p->left);
}

/* The reply table for group g, taken (users + 1): g's own, else the
 * least recently used idle one, which the caller clears for g with the
 * mutex released. Called and returns under the mutex. */
static GroupTable *group_take(Pool *p, uint32_t g)
{
    for (;;) {
        GroupTable *own = NULL, *lru = NULL;
        for (int i = 0; i < p->ngt; i++) {
            GroupTable *t = &p->gt[i];
            if (t->group == g) own = t;
            else if (t->users == 0 && (!lru || t->used < lru->used)) lru = t;
        }
        if (own && own->clearing) {
            pthread_cond_wait(&p->ready, &p->mu);
            continue;
        }
        GroupTable *t = own ? own : lru; /* lru: there are more tables than workers */
        t->users++;
        t->used = ++p->jobs;
        if (!own) {
            bool dirty = t->group != 0;
            t->group = g;
            if (dirty) {
                t->clearing = true;
                pthread_mutex_unlock(&p->mu);
                tt_clear(&t->tt);
                pthread_mutex_lock(&p->mu);
                t->clearing = false;
                pthread_cond_broadcast(&p->ready);
            }
        }
        return t;
    }
}

static void *pool_main(void *arg)
{
    PWorker *w = arg;
    Pool *p = w->p;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (w->state != P_RUNNING && !p->quit) pthread_cond_wait(&p->work, &p->mu);
        if (p->quit) break;
        JobOrder o = w->order;
        JobOutcome out;
        if (o.help) {
            help(w, &o, &out);
        } else {
            GroupTable *gt = p->ngt > 0 ? group_take(p, o.group) : NULL;
            if (gt) w->jr.tt = &gt->tt;
            pthread_mutex_unlock(&p->mu);
            (o.bounded ? jobrun_within : jobrun_run)(&w->jr, &o, 0, &w->stop, &out);
            pthread_mutex_lock(&p->mu);
            if (gt) gt->users--;
            while (w->helpers > 0) pthread_cond_wait(&p->left, &p->mu);
        }
        w->out = out;
        w->state = P_DONE;
        pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static int pool_start(JobsTransport *t, int wi, const JobOrder *o, char *err, int errlen)
{
    Pool *p = t->ctx;
    PWorker *w = &p->w[wi];
    pthread_mutex_lock(&p->mu);
    int rc = 0;
    if (w->state != P_IDLE) {
        snprintf(err, (size_t)errlen, "internal error: worker %d is not idle", wi);
        rc = -1;
    } else {
        w->order = *o;
        atomic_store(&w->stop, false);
        if (w->team && !o->help) dfpn_team_reset(w->team); /* no helper is in it (pool_main) */
        w->state = P_RUNNING;
        pthread_cond_broadcast(&p->work);
    }
    pthread_mutex_unlock(&p->mu);
    return rc;
}

/* A worker with an outcome to take, or -1. Under the mutex. */
static int pool_done(const Pool *p)
{
    for (int k = 0; k < p->nw; k++)
        if (p->w[k].state == P_DONE) return k;
    return -1;
}

static int pool_wait(JobsTransport *t, double wait, int *wi, JobOutcome *out, char *err, int errlen)
{
    (void)err, (void)errlen;
    Pool *p = t->ctx;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    long ns = ts.tv_nsec + (long)(wait > 0 ? wait * 1e9 : 0);
    ts.tv_sec += ns / 1000000000L;
    ts.tv_nsec = ns % 1000000000L;
    pthread_mutex_lock(&p->mu);
    int k;
    while ((k = pool_done(p)) < 0 && wait > 0)
        if (pthread_cond_timedwait(&p->done, &p->mu, &ts) != 0) break;
    if (k < 0) k = pool_done(p);
    if (k >= 0) {
        *wi = k;
        *out = p->w[k].out;
        p->w[k].state = P_IDLE;
    }
    pthread_mutex_unlock(&p->mu);
    return k >= 0;
}

static void pool_interrupt(JobsTransport *t, int wi)
{
    Pool *p = t->ctx;
    atomic_store(&p->w[wi].stop, true);
}

static void pool_close(JobsTransport *t)
{
    Pool *p = t->ctx;
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    for (int k = 0; k < p->nw; k++) atomic_store(&p->w[k].stop, true);
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int k = 0; k < p->nw; k++)
        if (p->w[k].started) pthread_join(p->w[k].th, NULL);
    for (int k = 0; k < p->nw; k++) {
        jobrun_free(&p->w[k].jr);
        dfpn_team_free(p->w[k].team);
    }
    if (p->has_shared) tt_free(&p->shared);
    wintab_free(&p->wins);
    for (int i = 0; i < p->ngt; i++) tt_free(&p->gt[i].tt);
    free(p->gt);
    pthread_cond_destroy(&p->ready);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->left);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->mu);
    free(p->w);
    free(p);
    t->ctx = NULL;
}

static int pool_fail(JobsTransport *t, char *err, int errlen, const char *what, int k, size_t tt_bytes)
{
    snprintf(err, (size_t)errlen, what, tt_bytes >> 20, k);
    pool_close(t);
    return -1;
}

int pool_open(JobsTransport *t, int workers, const Rules *r, const DfpnConfig *cfg, size_t tt_bytes,
              bool share_table, int reply_tables, int threads, const char *cert_dir, char *err, int errlen)
{
    if (reply_tables > 0 && reply_tables < workers) {
        snprintf(err, (size_t)errlen, "%d reply tables for %d workers: give at least one per worker", reply_tables,
                 workers);
        return -1;
    }
    if (reply_tables > 0) share_table = false;
    *t = (JobsTransport){.workers = workers, .start = pool_start, .wait = pool_wait, .interrupt = pool_interrupt,
                         .close = pool_close, .can_help = share_table && threads <= 1 && workers > 1};
    Pool *p = calloc(1, sizeof *p);
    PWorker *w = calloc((size_t)workers, sizeof *w);
    GroupTable *gt = reply_tables > 0 ? calloc((size_t)reply_tables, sizeof *gt) : NULL;
    if (!p || !w || (reply_tables > 0 && !gt)) {
        free(p);
        free(w);
        free(gt);
        snprintf(err, (size_t)errlen, "out of memory for %d workers", workers);
        return -1;
    }
    p->w = w;
    p->nw = workers;
    p->gt = gt;
    t->ctx = p;
    pthread_mutex_init(&p->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&p->done, &ca);
    pthread_condattr_destroy(&ca);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->left, NULL);
    pthread_cond_init(&p->ready, NULL);
    /* Every table first (a failure then leaves no thread to stop), then
     * the threads. A shared table has the memory of all the workers'. */
    if (share_table) {
        if (tt_init(&p->shared, tt_bytes * (size_t)workers, true) != 0)
            return pool_fail(t, err, errlen, "cannot allocate a %zu MiB table for %d workers", workers,
                             tt_bytes * (size_t)workers);
        p->has_shared = true;
    }
    for (; p->ngt < reply_tables; p->ngt++)
        if (tt_init(&gt[p->ngt].tt, tt_bytes, true) != 0)
            return pool_fail(t, err, errlen, "cannot allocate a %zu MiB table for reply table %d", p->ngt, tt_bytes);
    /* The side table never steers a search, so one serves every table's
     * jobs (reply tables too: it adds no history to a group's search). */
    bool common_wins = cert_dir && (share_table || reply_tables > 0);
    if (common_wins && wintab_init(&p->wins, tt_bytes / JOBRUN_WINS_SHARE * (size_t)workers, true) != 0)
        return pool_fail(t, err, errlen, "cannot allocate the side table of %zu MiB tables for %d workers", workers,
                         tt_bytes);
    for (int k = 0; k < workers; k++) {
        w[k].p = p;
        atomic_init(&w[k].stop, false);
        if (share_table) {
            jobrun_init_shared(&w[k].jr, r, cfg, &p->shared, threads, cert_dir);
            /* Helping needs the shared table, and jobs of one thread (a
             * threaded job has its own threads). */
            if (threads <= 1 && workers > 1 && !(w[k].team = w[k].jr.team = dfpn_team_new()))
                return pool_fail(t, err, errlen, "out of memory for a df-pn team (table %zu MiB, worker %d)", k, tt_bytes);
        }
        else if (reply_tables > 0)
            jobrun_init_shared(&w[k].jr, r, cfg, NULL, threads, cert_dir); /* its table: the job's group's */
        else if (jobrun_init(&w[k].jr, r, cfg, tt_bytes, threads, cert_dir) != 0)
            return pool_fail(t, err, errlen, "cannot allocate a %zu MiB table for worker %d", k, tt_bytes);
        if (common_wins) w[k].jr.wins = &p->wins;
    }
    for (int k = 0; k < workers; k++) {
        if (pthread_create(&w[k].th, NULL, pool_main, &w[k]) != 0)
            return pool_fail(t, err, errlen, "cannot start worker thread %d (table %zu MiB)", k, tt_bytes);
        w[k].started = true;
    }
    return 0;
}
