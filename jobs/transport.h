/* transport.h - how the coordinator of a job-level search (jobs.h) reaches
 * its workers: worker threads in this process (jobs/pool.c) or worker
 * ranks of an MPI job (jobs/mpi_transport.c, only in build/ocsolve-mpi, so that the
 * one-machine mode never needs MPI at run time).
 *
 * Protocol. Workers are numbered 0..workers-1. The coordinator (one
 * thread, the only caller) starts a JobOrder on an idle worker, and later
 * takes its JobOutcome from wait; a worker runs one job at a time, and
 * every started job gives exactly one outcome, also when interrupted
 * (interrupt only asks it to stop soon). close stops every worker; the
 * outcomes of jobs still running are dropped then.
 *
 * Invariant the coordinator relies on: an outcome is the work of the
 * order it answers (tag and serial echoed), whatever the timing.
 */
#ifndef OCS_TRANSPORT_H
#define OCS_TRANSPORT_H

#include "job_run.h"

typedef struct JobsTransport JobsTransport;

struct JobsTransport {
    int workers;
    bool can_help; /* orders with `help` set are understood (job_run.h) */
    /* Messages the coordinator sent and received (the MPI transport; the
     * threads' transport sends none): its load (results/jobs/mpi-cluster.md). */
    uint64_t msgs_sent, msgs_received, beats_received;
    void *ctx;
    /* Starts o on idle worker w: 0, or -1 with a message. */
    int (*start)(JobsTransport *t, int w, const JobOrder *o, char *err, int errlen);
    /* Waits at most `wait` seconds for an outcome: 1 (and *w, *out), 0 when
     * none came, -1 with a message (a worker was lost). */
    int (*wait)(JobsTransport *t, double wait, int *w, JobOutcome *out, char *err, int errlen);
    /* Asks worker w to stop its job soon. */
    void (*interrupt)(JobsTransport *t, int w);
    /* Stops every worker and frees the transport. */
    void (*close)(JobsTransport *t);
};

/* The one-machine transport: `workers` threads, each with a JobRunner on
 * one shared table of workers * tt_bytes (share_table), on a table of
 * tt_bytes each, or (reply_tables N > 0, at least `workers`) on N tables
 * of tt_bytes, one per order group (JobOrder.group); each job a df-pn on
 * `threads` threads (jobs/pool.c). 0, or -1 with a message (a table that
 * cannot be allocated, a thread that cannot start; nothing is left
 * running). */
int pool_open(JobsTransport *t, int workers, const Rules *r, const DfpnConfig *cfg, size_t tt_bytes,
              bool share_table, int reply_tables, int threads, const char *cert_dir, char *err, int errlen);

#endif
