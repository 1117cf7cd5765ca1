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
 *   BEAT    k+1 -> 0   empty: a heartbeat, every lease/10 seconds
 *   FIN     0 -> k+1   empty: every worker said BYE, none was lost:
 *                      finalize (the last message of a run)
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
 *     when the ranks call MPI_Finalize;
 *   - a worker calls MPI_Finalize only after FIN, and rank 0 sends FIN
 *     only when no worker was lost: after a loss no rank waits inside
 *     MPI_Finalize's fence when the job is ended, which Open MPI 4.1's
 *     mpirun could not always tear down (it hung or crashed after every
 *     rank was gone; mpi_transport.c, coord_close).
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
 * communication error, and mpirun ends the job when a rank or a host's
 * daemon dies with its connections closed (a crash, kill -9). A host that
 * vanishes without closing them (power, a cut link) is another matter:
 * Open MPI 4 (no fault-tolerant MPI) tells rank 0 nothing, and mpirun
 * sees it only by TCP keepalive (oob_tcp_keepalive_*, 8 minutes by
 * default), so rank 0 would wait for the lost jobs for that long, or for
 * ever. Hence the lease: every worker beats (BEAT) while it lives, and
 * rank 0's wait fails, naming the silent ranks and their hosts, once a
 * worker has been silent for longer than `lease` seconds (any message
 * counts; everything pending is received before silence is judged, so
 * the coordinator's own busy time is never blamed on a worker). After a
 * loss the ranks must not call MPI_Finalize, which waits for every rank:
 * mpi_transport_lost says so. Nor should rank 0 call MPI_Abort at once:
 * mpirun would then send the lost host's daemon its kill order, and with
 * data unacknowledged on that connection TCP keepalive is off and only
 * retransmission gives up (about 15 minutes on Linux); measured in the
 * namespace cluster, mpirun was still there 190 s later. Left alone, the
 * connection stays idle, and Open MPI's keepalive (oob_tcp_keepalive_*,
 * set short for a cluster: README) ends the job. So rank 0 waits a grace
 * of 3 leases, calling no MPI, and aborts only then: for a rank that is
 * silent while its daemon lives (stopped, hung), whose abort is quick.
 * Workers do not judge rank 0 (it may be busy for minutes writing
 * certificates and cannot beat meanwhile: MPI is called from one thread);
 * if its host dies, mpirun dies with it and each orted ends its ranks.
 * The functions below return -1 with a message for what they can see
 * themselves (a table that cannot be allocated, a protocol error, a lost
 * worker). Nothing here prints or exits.
 */
#ifndef OCS_MPI_TRANSPORT_H
#define OCS_MPI_TRANSPORT_H

#include <stddef.h>

#include "transport.h"

#include <stdbool.h>

/* Rank 0's transport, with one worker per other rank; a worker silent
 * for more than `lease` seconds is lost (0: never). MPI must be
 * initialised with at least MPI_THREAD_FUNNELED; every worker rank calls
 * mpi_serve (both take part in one gather of the host names). 0, or -1
 * with a message (not rank 0, fewer than 2 ranks, out of memory). */
int mpi_transport_open(JobsTransport *t, double lease, char *err, int errlen);

/* Whether rank 0 has declared a worker lost: then MPI_Finalize would wait
 * for it for ever; *grace (if not NULL) gets how long to leave the job to
 * mpirun before ending it by MPI_Abort (above). */
bool mpi_transport_lost(double *grace);

/* A worker rank's loop: one JobRunner of tt_bytes (its table kept from
 * job to job; each job a df-pn on `threads` threads), jobs run in a thread
 * while this thread watches for STOP and QUIT and beats every lease/10
 * seconds (0: no beats; rank 0 must be given the same lease). Returns 0
 * after QUIT (BYE sent) and then FIN, or -1 with a message: the table or
 * the job thread could not be had, or a protocol error. After a lost
 * worker rank 0 sends no FIN, and this polls until the job is ended. */
int mpi_serve(const Rules *r, const DfpnConfig *cfg, size_t tt_bytes, int threads, const char *cert_dir,
              double lease, char *err, int errlen);

#endif
