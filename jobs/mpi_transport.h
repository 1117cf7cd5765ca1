/* mpi_transport.h - the job-level search (jobs.h) across machines: a
 * JobsTransport (transport.h) over MPI for rank 0, the coordinator, and
 * the loop every other rank runs as a worker. Built only into
 * build/ocsolve-mpi (the Makefile keeps mpi_transport.c out of
 * libocsolve.a), so the one-machine build/ocsolve never needs MPI.
 *
 * Ranks. Rank 0 coordinates (jobs_solve through mpi_transport_open's
 * transport); rank k+1 is worker k, so there are size-1 workers. Only rank
 * 0 opens the store of decided positions (tables/store.h): LMDB is shared
 * by processes of one machine only, and one writer keeps it consistent.
 *
 * Protocol (MPI_COMM_WORLD; every message is small, so MPI sends it
 * eagerly and no send waits for its receive):
 *   ORDER   0 -> k+1   a JobOrder, as bytes: run this job
 *   OUTCOME k+1 -> 0   a JobOutcome, as bytes: the answer to that order
 *   STOP    0 -> k+1   a uint32_t serial: stop the job with this serial soon
 *   QUIT    0 -> k+1   empty: stop, whatever is running, and leave
 *   BYE     k+1 -> 0   empty: the last message a worker sends
 *
 * Invariants:
 *   - a worker runs at most one job; rank 0 sends ORDER only to a worker
 *     whose previous ORDER has been answered;
 *   - every ORDER is answered by exactly one OUTCOME, stopped or not,
 *     unless QUIT reaches the worker first (then its outcome is dropped);
 *   - STOP carries the serial of the job it means: a worker ignores a STOP
 *     whose serial is not its running job's, so a STOP that crossed the
 *     job's OUTCOME never stops a later job; rank 0 sends at most one STOP
 *     per job;
 *   - close sends QUIT to every worker and receives (and drops) outcomes
 *     until every worker has answered BYE, so no message is left unmatched
 *     when the ranks call MPI_Finalize.
 * Only the thread that called MPI_Init_thread calls MPI (a worker's job
 * runs in a second thread that never does): MPI_THREAD_FUNNELED suffices.
 *
 * Homogeneity: JobOrder and JobOutcome travel as raw bytes (job_run.h),
 * so every rank must run the same build on the same architecture (one
 * binary on a shared file system, the usual cluster set-up). A message of
 * the wrong size is refused as a protocol error.
 *
 * Certificates: each worker rank writes its jobs' certificates straight
 * into the --certs folder (job_run.h), and rank 0 writes the top tree's
 * there and reads theirs; across machines that folder must be on a file
 * system every node shares, at the same path.
 *
 * Failures: MPI's default error handler aborts the whole job on a
 * communication error (a lost rank), which is what an MPI run can do
 * anyway; the functions below return -1 with a message for what they can
 * see themselves (a table that cannot be allocated, a protocol error).
 * Nothing here prints or exits.
 */
#ifndef OCS_MPI_TRANSPORT_H
#define OCS_MPI_TRANSPORT_H

#include <stddef.h>

#include "transport.h"

/* Rank 0's transport, with one worker per other rank. MPI must be
 * initialised with at least MPI_THREAD_FUNNELED. 0, or -1 with a message
 * (not rank 0, fewer than 2 ranks, too many, out of memory). */
int mpi_transport_open(JobsTransport *t, char *err, int errlen);

/* A worker rank's loop: one JobRunner of tt_bytes (its table kept from
 * job to job; each job a df-pn on `threads` threads), jobs run in a thread while this thread watches for STOP and
 * QUIT. Returns 0 after QUIT (BYE sent), or -1 with a message: the table
 * or the job thread could not be had, or a protocol error. */
int mpi_serve(const Rules *r, const DfpnConfig *cfg, size_t tt_bytes, int threads, const char *cert_dir, char *err,
              int errlen);

#endif
