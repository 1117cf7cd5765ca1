/* top_regen_par.c - topcert_reprove_many and topcert_reprove_within
 * (top_cert.h): several positions re-proved for their certificates at
 * once, each by a df-pn (bounded: the depth-bounded df-pn of a bounded
 * job) of its own on a table of its own, tc->threads at a time.
 *
 * Where it is used: topcert_prepare (top_regen.c) hands over the
 * positions a dry run of the composition would re-prove (with a split,
 * first as probes within a node limit: topcert_probe_many, those that do
 * not finish are split afterwards), and a split re-proof (top_regen.c
 * split_node) the children that need a whole re-proof of their own. A job-level run's
 * workers sit idle at the end, where the re-proofs ran one after another
 * on the coordinator: on 7x7 with k = 6 one job root's proof took 92
 * minutes on one core of two.
 *
 * Why it is sound: each position's re-proof is the one topcert_ensure
 * makes (the same order, the same checks of its value and file) on a
 * runner no other thread touches; the files go to unique temporary names
 * and are renamed into place (job_run.h), so two threads that reach the
 * same shared subtree write the same position's whole file twice, and a
 * reader sees one whole file or the other. The positions are distinct up
 * to symmetry (the caller's), so no two threads write the same root file.
 * Nothing here is trusted: the verifier checks every file.
 *
 * Invariants: a thread takes the next position only while no re-proof
 * has failed and no stop was asked; on a stop, the files finished so far
 * stay whole, and the caller's message names a position not finished. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "top_cert.h"

typedef struct {
    TopCert *tc;
    const Board *todo;
    int count;
    Winner w;
    const int *within;  /* bounded: todo[i]'s question (jobrun_within), else NULL */
    uint64_t limit;     /* nodes per re-proof (0: none) */
    bool *undecided;    /* with a limit: [i] set when todo[i] did not finish */
    atomic_int next;    /* the next position to take */
    atomic_bool failed; /* a re-proof failed or was stopped: take no more */
    int fail_at;        /* the position that failed (set once, under lock) */
    bool fail_stop;     /* ... because of a stop */
    JobOutcome fail_out; /* ... or its re-proof's outcome */
    uint64_t written;
    pthread_mutex_t lock;
} ReproveBatch;

typedef struct {
    ReproveBatch *m;
    JobRunner *jr;
} ReproveSlot;

static void note_failure(ReproveBatch *m, int i, bool stop, const JobOutcome *out)
{
    pthread_mutex_lock(&m->lock);
    if (!atomic_load(&m->failed)) {
        m->fail_at = i;
        m->fail_stop = stop;
        if (out) m->fail_out = *out;
        atomic_store(&m->failed, true);
    }
    pthread_mutex_unlock(&m->lock);
}

static bool stop_asked(const TopCert *tc) { return tc->interrupt && atomic_load(tc->interrupt); }

static void *slot_main(void *arg)
{
    ReproveSlot *s = arg;
    ReproveBatch *m = s->m;
    for (;;) {
        if (atomic_load(&m->failed)) break;
        int i = atomic_fetch_add(&m->next, 1);
        if (i >= m->count) break;
        if (stop_asked(m->tc)) {
            note_failure(m, i, true, NULL);
            break;
        }
        JobOrder o = {.b = m->todo[i], .node_limit = m->limit, .certify = 1, .share = m->tc->share,
                      .share_min = m->tc->share_min};
        JobOutcome out;
        if (m->within) {
            o = (JobOrder){.b = m->todo[i], .certify = 1, .bounded = 1, .within = (uint8_t)m->within[i]};
            jobrun_within(s->jr, &o, 0, m->tc->interrupt, &out);
        } else {
            jobrun_run(s->jr, &o, 0, m->tc->interrupt, &out);
        }
        bool whole = out.value != WINNER_NONE && out.cert == JOBRUN_CERT_WRITTEN;
        if (!whole && stop_asked(m->tc)) {
            note_failure(m, i, true, NULL);
            break;
        }
        if (m->limit && out.value == WINNER_NONE) { /* a probe that did not finish: no file */
            m->undecided[i] = true;
            continue;
        }
        if (out.value != (uint8_t)m->w || out.cert != JOBRUN_CERT_WRITTEN) {
            note_failure(m, i, false, &out);
            break;
        }
        pthread_mutex_lock(&m->lock);
        m->written++;
        topcert_tick(m->tc, m->written);
        pthread_mutex_unlock(&m->lock);
    }
    return NULL;
}

/* The batch of todo[0..count-1] (bounded when within is set), tc->threads
 * at a time. 0, or -1 with a message. */
static int run_batch(TopCert *tc, const Board *todo, const int *within, int count, Winner w, uint64_t limit,
                     bool *undecided, char *err, int errlen)
{
    int threads = tc->threads < 1 ? 1 : tc->threads > TOPCERT_THREADS_MAX ? TOPCERT_THREADS_MAX : tc->threads;
    if (threads > count) threads = count;
    if (count <= 0) return 0;
    if (topcert_runners(tc, threads, err, errlen) != 0) return -1;
    ReproveBatch m = {.tc = tc, .todo = todo, .count = count, .w = w, .within = within, .limit = limit,
                      .undecided = undecided, .fail_at = -1};
    for (int i = 0; limit && i < count; i++) undecided[i] = false;
    atomic_init(&m.next, 0);
    atomic_init(&m.failed, false);
    pthread_mutex_init(&m.lock, NULL);
    ReproveSlot slots[TOPCERT_THREADS_MAX];
    pthread_t th[TOPCERT_THREADS_MAX];
    int started = 0;
    for (int t = 0; t < threads; t++) {
        slots[t] = (ReproveSlot){&m, t == 0 ? &tc->mini : &tc->more[t - 1]};
        if (t > 0 && pthread_create(&th[t], NULL, slot_main, &slots[t]) != 0) break;
        started = t + 1;
    }
    slot_main(&slots[0]);
    for (int t = 1; t < started; t++) pthread_join(th[t], NULL);
    pthread_mutex_destroy(&m.lock);
    tc->written += m.written;
    tc->solved += m.written;
    if (!atomic_load(&m.failed)) return 0;
    Board b = todo[m.fail_at];
    if (m.fail_stop && topcert_stopped(tc, b, NULL, err, errlen)) return -1;
    topcert_outcome(tc, b, w, &m.fail_out, err, errlen);
    return -1;
}

int topcert_probe_many(TopCert *tc, const Board *todo, int count, Winner w, uint64_t limit, bool *undecided,
                       char *err, int errlen)
{
    return run_batch(tc, todo, NULL, count, w, limit, undecided, err, errlen);
}

int topcert_reprove_many(TopCert *tc, const Board *todo, int count, Winner w, char *err, int errlen)
{
    return run_batch(tc, todo, NULL, count, w, 0, NULL, err, errlen);
}

int topcert_reprove_within(TopCert *tc, const Board *todo, const int *plies, int count, Winner w, char *err,
                           int errlen)
{
    return run_batch(tc, todo, plies, count, w, 0, NULL, err, errlen);
}
