/* verify_par.c - the threaded pre-pass of verify_file_threads (verify.h)
 * over the sub-certificate set (verify_subs.h; this calls verify.c's
 * check through verify_nest.h, never the reverse): each file a see line names
 * is first checked on its own by one of T threads, its see lines queued,
 * not followed; a file is then proved once all it rests on are (settle), and
 * the answer is the one the sequential check gives, which runs again
 * whenever the pre-pass cannot decide alone (a failure after a see line:
 * it says where). Verdicts (valid, invalid) do not depend on T; a refusal
 * for the lemma's budget (VerifyResult.refused) may, if the pre-pass
 * refuses a file and the sequential check then passes the budget too,
 * having started with warmer tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verify_nest.h"
#include "verify_subs.h"

static double mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* lim->progress when it is due; with pp->mu held. */
static void progress_due(Prepass *pp, const VerifyResult *r)
{
    pp->checked++;
    pp->positions += r->positions_checked;
    if (!pp->lim->progress) return;
    double now = mono_seconds();
    if (now < pp->next_report) return;
    pp->next_report = now + pp->lim->progress_every;
    pp->lim->progress(pp->checked, pp->subs->n, pp->positions, pp->lim->progress_arg);
}

/* Checks entry i's file on its own (see lines queued, not followed): the
 * top file against the caller's expectation, another against its see
 * line's. Called and returns with pp->mu held; unlocked while checking. */
static void check_task(Prepass *pp, size_t i)
{
    Sub *t = &pp->subs->s[i];
    t->state = S_RUNNING;
    pp->running++;
    const char *path = t->path; /* the strings stay where they are when subs grows */
    char root[sizeof t->root_text];
    memcpy(root, t->root_text, sizeof root);
    VerifyExpect x = {t->n, t->k, t->rules, t->winner, root};
    bool horizon_ok = t->horizon_ok;
    /* From here to the lock, t is not read: another thread's see line may
     * grow subs (vsub_add's realloc) and move the entries. */
    pthread_mutex_unlock(&pp->mu);
    VerifyResult r;
    Nest nest = vnest(i == 0 ? 0 : 1, pp->subs, pp, i, pp->lim);
    nest.horizon_ok = horizon_ok;
    int rc = vr_verify_nested(path, i == 0 ? pp->exp : &x, &r, &nest);
    pthread_mutex_lock(&pp->mu);
    t = &pp->subs->s[i];
    t->state = rc == VERIFY_VALID ? S_CHECKED : S_FAILED;
    t->own = r.positions_checked;
    t->horizon = r.horizon;
    t->saw_see = nest.saw_see;
    t->rest = nest.rest; /* its own games only: settle adds the files it reached */
    if (i == 0) pp->top = r, pp->top_root_empty = nest.root_empty;
    if (rc != VERIFY_VALID) atomic_store(&pp->stop, true);
    progress_due(pp, &r);
    pp->running--;
    pthread_cond_broadcast(&pp->cv);
}

/* A pre-pass thread: checks queued entries until none is queued or
 * running (a running check may queue more), or a check has failed. */
static void *prepass_thread(void *arg)
{
    Prepass *pp = arg;
    pthread_mutex_lock(&pp->mu);
    for (;;) {
        size_t i = atomic_load(&pp->stop) ? SIZE_MAX : vsub_take(pp->subs);
        if (i != SIZE_MAX) {
            check_task(pp, i);
            continue;
        }
        if (pp->running == 0 || atomic_load(&pp->stop)) break;
        pthread_cond_wait(&pp->cv, &pp->mu);
    }
    pthread_cond_broadcast(&pp->cv); /* the others may be waiting for this end */
    pthread_mutex_unlock(&pp->mu);
    return NULL;
}

/* Runs the pre-pass on `threads` threads, this one among them (so it runs
 * when no thread can be started). */
static void prepass_run(Prepass *pp, int threads)
{
    pthread_t tid[VERIFY_MAX_THREADS];
    int started = 0;
    if (threads > VERIFY_MAX_THREADS) threads = VERIFY_MAX_THREADS;
    while (started < threads - 1 && pthread_create(&tid[started], NULL, prepass_thread, pp) == 0) started++;
    prepass_thread(pp);
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
}

/* Whether dep's entry is proved, with at least the horizon the see line
 * needs (a win, horizon -1, serves any; verify.h, Horizon certificates). */
static bool dep_proved(const SubSet *ss, const SubDep *dep)
{
    const Sub *q = &ss->s[dep->i];
    return q->state == S_PROVED && (q->horizon < 0 || q->horizon >= dep->need);
}

/* After the pre-pass: a checked entry is proved once every entry its
 * proof reached is (each with the horizon its see line needs), one level
 * above the highest of them. Entries are so proved in an order where
 * those they rest on come first, which makes the proofs well-founded:
 * files that name one another are never proved. */
static void settle(SubSet *ss)
{
    for (bool more = true; more;) {
        more = false;
        for (size_t i = 0; i < ss->n; i++) {
            Sub *p = &ss->s[i];
            if (p->state != S_CHECKED) continue;
            int height = 0, rest = p->rest;
            size_t d = 0;
            for (; d < p->ndep && dep_proved(ss, &p->dep[d]); d++) {
                const Sub *q = &ss->s[p->dep[d].i];
                if (q->height + 1 > height) height = q->height + 1;
                if (q->rest < rest) rest = q->rest;
            }
            if (d < p->ndep) continue;
            p->state = S_PROVED;
            p->height = height;
            p->rest = rest;
            more = true;
        }
    }
}

int verify_file_threads(const char *path, const VerifyExpect *exp, int threads, VerifyResult *out)
{
    return verify_file_limits(path, exp, threads, NULL, out);
}

int verify_file_limits(const char *path, const VerifyExpect *exp, int threads, const VerifyLimits *limits,
                       VerifyResult *out)
{
    const VerifyLimits lim = vr_limits(limits);
    if (threads <= 1) return vr_verify_one(path, exp, &lim, out);
    SubSet ss = {0};
    Prepass pp = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER, .subs = &ss, .exp = exp,
                  .lim = &lim};
    atomic_init(&pp.stop, false);
    pp.next_report = mono_seconds() + lim.progress_every;
    vr_result_init(&pp.top);
    Sub top = {.path = strdup(path), .state = S_QUEUED};
    if (!top.path || vsub_add(&ss, &top) == SIZE_MAX) { /* no memory for the pre-pass: one thread */
        free(top.path);
        return vr_verify_one(path, exp, &lim, out);
    }
    prepass_run(&pp, threads);
    settle(&ss);
    const Sub *t = &ss.s[0];
    int rc;
    if (t->state == S_PROVED && t->height <= SEE_MAX_DEPTH) { /* every file it reached is proved, and fits */
        *out = pp.top;
        out->positions_checked = vsub_count(&ss, 0);
        out->longest = out->winner == VERIFY_WINNER_ORDER && t->rest != VSUB_REST_NONE ? pp.top_root_empty - t->rest : -1;
        rc = VERIFY_VALID;
    } else if (t->state == S_FAILED && !t->saw_see) { /* failed before any see line, as the sequential pass would */
        *out = pp.top;
        rc = out->status;
    } else {
        /* The sequential check gets a budget of its own: the pre-pass's
         * threads interleave files of different configurations through the
         * lemma's few kept tables and pay refills, so what it spent says
         * little of what the sequential order costs, and a refusal would
         * hide where a certificate is invalid. The work stays bounded: at
         * most twice max_lemma_nodes. */
        atomic_store(&ss.lemma_nodes, 0);
        Nest nest = vnest(0, &ss, NULL, 0, &lim);
        rc = vr_verify_nested(path, exp, out, &nest);
    }
    vsubs_free(&ss);
    pthread_mutex_destroy(&pp.mu);
    pthread_cond_destroy(&pp.cv);
    return rc;
}
