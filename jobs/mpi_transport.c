/* mpi_transport.c - the MPI transport and worker loop (mpi_transport.h).
 *
 * Invariants: rank 0's Coord mirrors what each worker is doing: busy[k]
 * from the ORDER it sent k until k's OUTCOME is received, serial[k] that
 * order's serial, stopped[k] once a STOP for it has gone out. A worker's
 * Server has at most one job thread; `done` (under mu) says the thread has
 * finished and its outcome may be sent, and only the main thread touches
 * MPI. Waits poll with MPI_Iprobe and sleep briefly in between rather than
 * block in MPI_Recv: Open MPI's blocking calls spin, which on a shared
 * machine would take a core from the df-pn jobs. */
#include "mpi_transport.h"

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../solver/clock.h"

enum { TAG_ORDER = 1, TAG_OUTCOME, TAG_STOP, TAG_QUIT, TAG_BYE, TAG_BEAT, TAG_FIN };

/* A worker sends a heartbeat every lease / BEATS_PER_LEASE seconds: ten
 * beats must go missing in a row before rank 0 gives up on it, so a
 * delayed beat (TCP retransmissions on a lossy link, a busy host) is
 * never taken for a dead host. */
#define BEATS_PER_LEASE 10.0

/* Set when rank 0 declared a worker lost, with that run's lease
 * (mpi_transport_lost). */
static bool lost_workers;
static double lost_lease;

/* Between two polls: short next to a job (a tenth of a second and more),
 * long enough that an idle poller costs nothing worth measuring. */
#define POLL_NS 1000000L

static void poll_sleep(void)
{
    struct timespec ts = {0, POLL_NS};
    nanosleep(&ts, NULL);
}

static int mpi_failed(int rc, const char *what, char *err, int errlen)
{
    if (rc == MPI_SUCCESS) return 0;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    snprintf(err, (size_t)errlen, "MPI %s failed: %s", what, msg);
    return -1;
}

/* ---------------- rank 0: the transport ---------------- */

typedef struct {
    int nw;
    bool *busy, *stopped;
    uint32_t *serial;
    double *heard;  /* when a message from the worker was last received */
    bool *lost;     /* declared lost: silent for longer than the lease */
    char (*host)[MPI_MAX_PROCESSOR_NAME]; /* each worker's processor name */
    double lease;   /* 0: never declare a worker lost */
    double listening_since; /* rank 0 has polled without a break since */
    double last_poll;       /* when rank 0 last polled */
} Coord;

static int coord_start(JobsTransport *t, int w, const JobOrder *o, char *err, int errlen)
{
    Coord *c = t->ctx;
    if (w < 0 || w >= c->nw || c->busy[w]) {
        snprintf(err, (size_t)errlen, "internal error: worker %d is not idle", w);
        return -1;
    }
    int rc = MPI_Send(o, (int)sizeof *o, MPI_BYTE, w + 1, TAG_ORDER, MPI_COMM_WORLD);
    if (mpi_failed(rc, "send of a job", err, errlen)) return -1;
    t->msgs_sent++;
    c->busy[w] = true;
    c->stopped[w] = false;
    c->serial[w] = o->serial;
    return 0;
}

/* Receives the OUTCOME that st announced into *out; -1 with a message if
 * it is not one rank 0 is waiting for. */
static int coord_take(Coord *c, const MPI_Status *st, int *w, JobOutcome *out, char *err, int errlen)
{
    int count = 0, src = st->MPI_SOURCE;
    MPI_Get_count(st, MPI_BYTE, &count);
    if (count != (int)sizeof *out) {
        snprintf(err, (size_t)errlen, "rank %d sent a %d-byte outcome, not %zu: not the same build on every rank?",
                 src, count, sizeof *out);
        return -1;
    }
    int rc = MPI_Recv(out, count, MPI_BYTE, src, TAG_OUTCOME, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (mpi_failed(rc, "receive of an outcome", err, errlen)) return -1;
    int k = src - 1;
    if (k < 0 || k >= c->nw || !c->busy[k] || out->serial != c->serial[k]) {
        snprintf(err, (size_t)errlen, "internal error: rank %d answered job %u, which it was not running", src,
                 out->serial);
        return -1;
    }
    c->busy[k] = false;
    *w = k;
    return 1;
}

/* When a worker has been silent for longer than the lease: -1 with a
 * message naming it and every other worker silent for most of the lease
 * (the ranks of one dead host stop within a beat of each other), with
 * their hosts: "lost worker rank 3 (host h2, silent 4.1 s), rank 4 (host
 * h2, silent 3.9 s): ...". Those are marked lost. */
static int coord_silent(Coord *c, double now, char *err, int errlen)
{
    if (c->lease <= 0) return 0;
    /* Judge only after listening, without a break, for two beats: after
     * the coordinator was busy elsewhere, beats may still sit in the
     * sockets, which one probe need not read all of. */
    if (now - c->listening_since < 2 * c->lease / BEATS_PER_LEASE) return 0;
    bool over = false;
    for (int k = 0; k < c->nw; k++) over = over || (!c->lost[k] && now - c->heard[k] > c->lease);
    if (!over) return 0;
    int n = 0;
    size_t used = 0;
    for (int k = 0; k < c->nw; k++) {
        double quiet = now - c->heard[k];
        if (c->lost[k] || quiet <= c->lease * (1 - 2 / BEATS_PER_LEASE)) continue;
        c->lost[k] = true;
        if (used < (size_t)errlen)
            used += (size_t)snprintf(err + used, (size_t)errlen - used, "%s rank %d (host %s, silent %.1f s)",
                                     n ? "," : "lost worker", k + 1, c->host[k], quiet);
        n++;
    }
    lost_workers = true;
    lost_lease = c->lease;
    if (used < (size_t)errlen)
        snprintf(err + used, (size_t)errlen - used,
                 ": nothing heard for over the --mpi-lease of %.0f s (a dead host or a cut link); the run ends, and "
                 "a rerun on the same --store resumes from what was decided",
                 c->lease);
    return -1;
}

/* Notes a poll at time now: a gap of more than half a second since the
 * last one (far more than a poll's sleep, even on a loaded machine) means
 * rank 0 was away, working, and listening starts again. */
static void coord_polled(Coord *c, double now)
{
    if (now - c->last_poll > 0.5) c->listening_since = now;
    c->last_poll = now;
}

/* Waiting, rank 0 first receives everything the workers have sent
 * (heartbeats are taken and dropped; the first outcome is returned), and
 * only then, with nothing left to receive, judges silence. The order
 * matters: the coordinator does not call wait while it works (expanding,
 * writing certificates), so beats pile up meanwhile, and judging before
 * taking them would count its own busy time as the workers' silence.
 * A worker's beats come from its main thread, which only polls, so
 * they keep coming while its jobs run; silence for a whole lease means its
 * process or its host is gone or cut off. Open MPI 4 cannot tell rank 0
 * (no fault-tolerant MPI), and when a host vanishes without closing its
 * connections (power, a cut cable) mpirun itself notices only through
 * TCP keepalive, 8 minutes by default: without the lease, rank 0 waits for
 * the lost jobs' outcomes, and then for their BYE, for ever. */
static int coord_wait(JobsTransport *t, double wait, int *w, JobOutcome *out, char *err, int errlen)
{
    Coord *c = t->ctx;
    double until = clock_seconds() + (wait > 0 ? wait : 0);
    for (;;) {
        int flag = 0;
        MPI_Status st;
        int rc = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (mpi_failed(rc, "probe", err, errlen)) return -1;
        double now = clock_seconds();
        coord_polled(c, now);
        if (flag) {
            int k = st.MPI_SOURCE - 1, count = -1;
            MPI_Get_count(&st, MPI_BYTE, &count);
            if (k < 0 || k >= c->nw || (st.MPI_TAG != TAG_OUTCOME && !(st.MPI_TAG == TAG_BEAT && count == 0))) {
                snprintf(err, (size_t)errlen, "protocol error: a message with tag %d and %d bytes from rank %d",
                         st.MPI_TAG, count, st.MPI_SOURCE);
                return -1;
            }
            c->heard[k] = now;
            t->msgs_received++;
            if (st.MPI_TAG == TAG_OUTCOME) return coord_take(c, &st, w, out, err, errlen);
            rc = MPI_Recv(NULL, 0, MPI_BYTE, st.MPI_SOURCE, TAG_BEAT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (mpi_failed(rc, "receive of a heartbeat", err, errlen)) return -1;
            t->beats_received++;
            continue;
        }
        if (coord_silent(c, now, err, errlen) != 0) return -1;
        if (now >= until) return 0;
        poll_sleep();
    }
}

static void coord_interrupt(JobsTransport *t, int w)
{
    Coord *c = t->ctx;
    /* Once per job: the coordinator asks again on every pass while the
     * job winds down, and one STOP is enough. */
    if (w < 0 || w >= c->nw || !c->busy[w] || c->stopped[w]) return;
    uint32_t s = c->serial[w];
    MPI_Send(&s, 1, MPI_UINT32_T, w + 1, TAG_STOP, MPI_COMM_WORLD);
    t->msgs_sent++;
    c->stopped[w] = true;
}

static void coord_free(Coord *c)
{
    if (!c) return;
    free(c->busy);
    free(c->stopped);
    free(c->serial);
    free(c->heard);
    free(c->lost);
    free(c->host);
    free(c);
}

/* QUIT to every worker not lost, then every message until each has said
 * BYE: outcomes of jobs that were still running, and heartbeats, are
 * dropped. busy[] now marks the workers yet to say BYE. A worker that
 * falls silent now (for the lease) is given up as lost too, so close
 * ends; with a worker lost, the ranks must not call MPI_Finalize, which
 * waits for every rank (mpi_transport_lost). FIN, the go-ahead to
 * finalize, goes out only when no worker was lost: a worker inside
 * MPI_Finalize waits in a PMIx fence that a lost rank never joins, and
 * when the job is then ended (our MPI_Abort after the grace, or mpirun
 * finding the host gone) Open MPI 4.1's mpirun, with a fence pending,
 * deadlocked or crashed in its own PMIx_server_finalize after every
 * rank was gone (the lease test hung at its end; a 15-line program of
 * MPI_Abort beside a rank in MPI_Finalize did so in 8 of 15 runs under
 * load, never with that rank polling instead). So without FIN the
 * workers keep polling, outside any fence, until the job is ended. */
static void coord_close(JobsTransport *t)
{
    Coord *c = t->ctx;
    if (!c) return;
    int left = 0;
    for (int k = 0; k < c->nw; k++) {
        c->busy[k] = !c->lost[k];
        if (c->lost[k]) continue;
        MPI_Send(NULL, 0, MPI_BYTE, k + 1, TAG_QUIT, MPI_COMM_WORLD);
        t->msgs_sent++;
        left++;
    }
    while (left > 0) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        double now = clock_seconds();
        coord_polled(c, now);
        if (!flag) {
            char err[16];
            if (coord_silent(c, now, err, sizeof err) != 0)
                for (int k = 0; k < c->nw; k++)
                    if (c->lost[k] && c->busy[k]) c->busy[k] = false, left--;
            if (left > 0) poll_sleep();
            continue;
        }
        /* Whatever it is, receive it: nothing may stay unmatched. Workers
         * send nothing longer than an outcome (a longer message, from
         * another build, is a truncation error, which aborts the run). */
        JobOutcome drop;
        MPI_Recv(&drop, (int)sizeof drop, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        t->msgs_received++;
        int k = st.MPI_SOURCE - 1;
        if (k >= 0 && k < c->nw) c->heard[k] = now;
        if (st.MPI_TAG == TAG_BYE && k >= 0 && k < c->nw && c->busy[k]) {
            c->busy[k] = false;
            left--;
        }
    }
    bool lost = false;
    for (int k = 0; k < c->nw; k++) lost = lost || c->lost[k];
    for (int k = 0; k < c->nw && !lost; k++) {
        MPI_Send(NULL, 0, MPI_BYTE, k + 1, TAG_FIN, MPI_COMM_WORLD);
        t->msgs_sent++;
    }
    coord_free(c);
    t->ctx = NULL;
}

bool mpi_transport_lost(double *grace)
{
    if (grace) *grace = 3 * lost_lease;
    return lost_workers;
}

/* Every rank's processor name, at rank 0 (a collective: each rank calls
 * it once, rank 0 in mpi_transport_open, the workers in mpi_serve). */
static int gather_names(char (*all)[MPI_MAX_PROCESSOR_NAME], char *err, int errlen)
{
    char mine[MPI_MAX_PROCESSOR_NAME] = "";
    int len = 0;
    MPI_Get_processor_name(mine, &len);
    int rc = MPI_Gather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
                        MPI_COMM_WORLD);
    return mpi_failed(rc, "gather of the host names", err, errlen);
}

int mpi_transport_open(JobsTransport *t, double lease, char *err, int errlen)
{
    *t = (JobsTransport){0};
    int rank = -1, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != 0 || size < 2) {
        snprintf(err, (size_t)errlen, "the MPI transport needs rank 0 of at least 2 ranks (rank %d of %d)", rank,
                 size);
        return -1;
    }
    int nw = size - 1;
    Coord *c = calloc(1, sizeof *c);
    if (c) {
        c->nw = nw;
        c->busy = calloc((size_t)nw, sizeof *c->busy);
        c->stopped = calloc((size_t)nw, sizeof *c->stopped);
        c->serial = calloc((size_t)nw, sizeof *c->serial);
        c->heard = calloc((size_t)nw, sizeof *c->heard);
        c->lost = calloc((size_t)nw, sizeof *c->lost);
        c->host = calloc((size_t)size, sizeof *c->host); /* rank 0's too, for the gather */
    }
    if (!c || !c->busy || !c->stopped || !c->serial || !c->heard || !c->lost || !c->host) {
        coord_free(c);
        snprintf(err, (size_t)errlen, "out of memory for %d MPI workers", nw);
        return -1;
    }
    if (gather_names(c->host, err, errlen) != 0) {
        coord_free(c);
        return -1;
    }
    /* host[k] is worker k's: rank k+1 */
    memmove(c->host, c->host + 1, (size_t)nw * sizeof *c->host);
    c->lease = lease;
    double now = clock_seconds();
    for (int k = 0; k < nw; k++) c->heard[k] = now;
    *t = (JobsTransport){.workers = nw, .ctx = c, .start = coord_start, .wait = coord_wait,
                         .interrupt = coord_interrupt, .close = coord_close};
    return 0;
}

/* ---------------- ranks 1..: the worker ---------------- */

typedef struct {
    JobRunner jr;
    double beat;      /* seconds between heartbeats; 0: none */
    double last_sent; /* when this worker last sent rank 0 anything */
    pthread_t th;
    bool running; /* a job thread exists, not yet joined */
    JobOrder order;
    JobOutcome out;
    atomic_bool stop;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done; /* under mu: the job thread has set out */
} Server;

static void *server_job(void *arg)
{
    Server *s = arg;
    (s->order.bounded ? jobrun_within : jobrun_run)(&s->jr, &s->order, 0, &s->stop, &s->out);
    pthread_mutex_lock(&s->mu);
    s->done = true;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static bool server_done(Server *s)
{
    pthread_mutex_lock(&s->mu);
    bool d = s->done;
    pthread_mutex_unlock(&s->mu);
    return d;
}

/* Joins the job thread (after it finished or was told to stop). */
static void server_join(Server *s)
{
    pthread_join(s->th, NULL);
    s->running = false;
}

/* Sleeps until the job finishes or the poll interval passes, so a
 * finished job is answered at once. */
static void server_idle(Server *s)
{
    if (!s->running) {
        poll_sleep();
        return;
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += POLL_NS;
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&s->mu);
    if (!s->done) pthread_cond_timedwait(&s->cv, &s->mu, &ts);
    pthread_mutex_unlock(&s->mu);
}

static int server_order(Server *s, int count, char *err, int errlen)
{
    if (count != (int)sizeof s->order) {
        snprintf(err, (size_t)errlen, "rank 0 sent a %d-byte job, not %zu: not the same build on every rank?", count,
                 sizeof s->order);
        return -1;
    }
    /* Into a copy first: a running job thread still reads s->order. */
    JobOrder o;
    int rc = MPI_Recv(&o, count, MPI_BYTE, 0, TAG_ORDER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (mpi_failed(rc, "receive of a job", err, errlen)) return -1;
    if (s->running) {
        snprintf(err, (size_t)errlen, "protocol error: job %u ordered while job %u runs", o.serial, s->order.serial);
        return -1;
    }
    s->order = o;
    atomic_store(&s->stop, false);
    s->done = false; /* no job thread runs now: no lock needed */
    if (pthread_create(&s->th, NULL, server_job, s) != 0) {
        snprintf(err, (size_t)errlen, "cannot start the job thread");
        return -1;
    }
    s->running = true;
    return 0;
}

/* Receives the message st announced and acts on it: 0 to go on, 1 on
 * QUIT (BYE sent), -1 with a message. */
static int server_message(Server *s, const MPI_Status *st, char *err, int errlen)
{
    int count = 0;
    MPI_Get_count(st, MPI_BYTE, &count);
    if (st->MPI_TAG == TAG_ORDER) return server_order(s, count, err, errlen);
    if (st->MPI_TAG == TAG_STOP && count == (int)sizeof(uint32_t)) {
        uint32_t serial = 0;
        MPI_Recv(&serial, 1, MPI_UINT32_T, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        /* A STOP for a job already answered (it crossed the OUTCOME) is stale. */
        if (s->running && serial == s->order.serial) atomic_store(&s->stop, true);
        return 0;
    }
    if (st->MPI_TAG == TAG_QUIT && count == 0) {
        MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_QUIT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (s->running) { /* its outcome is dropped: the coordinator has finished */
            atomic_store(&s->stop, true);
            server_join(s);
        }
        int rc = MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_BYE, MPI_COMM_WORLD);
        return mpi_failed(rc, "send of BYE", err, errlen) ? -1 : 1;
    }
    snprintf(err, (size_t)errlen, "protocol error: a message with tag %d and %d bytes from rank 0", st->MPI_TAG, count);
    return -1;
}

/* After BYE: waits, polling, for rank 0's FIN, the last message of the
 * run, and only then may the rank call MPI_Finalize. Without FIN (rank 0
 * gave a worker up) it polls until the job is ended: inside MPI_Finalize
 * it would wait in a fence that mpirun cannot tear down (coord_close).
 * No beats: rank 0 judges only workers yet to say BYE. 0, or -1 with a
 * message. */
static int server_await_fin(char *err, int errlen)
{
    for (;;) {
        int flag = 0, count = -1;
        MPI_Status st;
        int rc = MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (mpi_failed(rc, "probe", err, errlen)) return -1;
        if (!flag) {
            poll_sleep();
            continue;
        }
        MPI_Get_count(&st, MPI_BYTE, &count);
        if (st.MPI_TAG != TAG_FIN || count != 0) {
            snprintf(err, (size_t)errlen, "protocol error: a message with tag %d and %d bytes from rank 0 after QUIT",
                     st.MPI_TAG, count);
            return -1;
        }
        rc = MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_FIN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return mpi_failed(rc, "receive of FIN", err, errlen);
    }
}

/* The loop: answer a finished job, beat when due, then act on rank 0's
 * next message. */
static int server_loop(Server *s, char *err, int errlen)
{
    for (;;) {
        if (s->running && server_done(s)) {
            server_join(s);
            int rc = MPI_Send(&s->out, (int)sizeof s->out, MPI_BYTE, 0, TAG_OUTCOME, MPI_COMM_WORLD);
            if (mpi_failed(rc, "send of an outcome", err, errlen)) return -1;
            s->last_sent = clock_seconds();
        }
        if (s->beat > 0 && clock_seconds() - s->last_sent >= s->beat) {
            int rc = MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_BEAT, MPI_COMM_WORLD);
            if (mpi_failed(rc, "send of a heartbeat", err, errlen)) return -1;
            s->last_sent = clock_seconds();
        }
        int flag = 0;
        MPI_Status st;
        int rc = MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (mpi_failed(rc, "probe", err, errlen)) return -1;
        if (!flag) {
            server_idle(s);
            continue;
        }
        rc = server_message(s, &st, err, errlen);
        if (rc != 0) return rc > 0 ? server_await_fin(err, errlen) : -1;
    }
}

int mpi_serve(const Rules *r, const DfpnConfig *cfg, size_t tt_bytes, int threads, const char *cert_dir,
              double lease, char *err, int errlen)
{
    Server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    s->beat = lease / BEATS_PER_LEASE;
    s->last_sent = clock_seconds();
    if (jobrun_init(&s->jr, r, cfg, tt_bytes, threads, cert_dir) != 0) {
        snprintf(err, (size_t)errlen, "cannot allocate a %zu MiB table", tt_bytes >> 20);
        free(s);
        return -1;
    }
    /* Only now, with the table made (clearing a big one takes a while),
     * join the gather that ends rank 0's open: its lease counts from
     * there, and this worker beats from here on. */
    if (gather_names(NULL, err, errlen) != 0) {
        jobrun_free(&s->jr);
        free(s);
        return -1;
    }
    atomic_init(&s->stop, false);
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);
    int rc = server_loop(s, err, errlen);
    if (s->running) { /* a protocol error with a job running: stop it before freeing its table */
        atomic_store(&s->stop, true);
        server_join(s);
    }
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    jobrun_free(&s->jr);
    free(s);
    return rc;
}
