/* main_mpi.c - build/ocsolve-mpi: `ocsolve jobs` as an MPI job
 * (jobs/mpi_transport.h). Every rank parses the same command line; rank 0
 * coordinates (and alone opens the store), every other rank serves jobs.
 *
 * Ending. On a good run rank 0 closes the transport (QUIT, BYE, FIN), then
 * all ranks call MPI_Finalize. Bad input found by the parsing every rank does
 * (an option, a position) makes every rank print the one line and exit 2
 * through cli_fail. A failure only rank 0 sees after the workers entered
 * their loop (the --log file, the store, the transport) also exits 2, with
 * no QUIT sent: Open MPI's mpirun then ends the whole job, since a rank
 * exited non-zero without MPI_Finalize, and the workers do not wait
 * forever (tests/test_mpi.c checks that such a run ends). A worker that
 * cannot serve (its table) aborts the job at once, as rank 0 would
 * otherwise wait for it forever. A worker rank 0 gave up as lost
 * (--mpi-lease, mpi_transport.h): rank 0 prints its one line, leaves
 * mpirun a grace to end the job, and then aborts it, since MPI_Finalize
 * waits for every rank, the lost one too; the other workers, sent no FIN,
 * poll outside MPI_Finalize until then (mpi_transport.h).
 *
 * The store: only rank 0 opens it (cmd_jobs_host returns on the worker
 * ranks before anything looks at --store). LMDB maps its file and locks
 * it with a lock file that processes of one machine share; a rank on
 * another machine opening the same folder on a shared file system would
 * write past those locks and could corrupt it. Worker ranks therefore
 * forbid it in this process (store_forbid, tables/store.h), so a future
 * change that let a worker reach store_open fails loudly instead.
 */
#include <errno.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../jobs/mpi_transport.h"
#include "../tables/store.h"
#include "commands.h"

static const char mpi_usage[] = "usage: mpirun -np N ocsolve-mpi jobs [options] [POSITION [MOVE ...]]";

/* The command word: -1 to run `jobs`, else the exit code of `help` (0)
 * or of anything else (2), which rank 0 has answered. */
static int check_command(int argc, char **argv, int rank)
{
    if (argc >= 2 && strcmp(argv[1], "jobs") == 0) return -1;
    bool help = argc >= 2 && (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0);
    if (rank == 0) {
        if (help) printf("%s\n'ocsolve-mpi jobs --help' lists the options (those of 'ocsolve jobs').\n", mpi_usage);
        else fprintf(stderr, "ocsolve-mpi: %s (the only command is jobs)\n", mpi_usage);
    }
    return help ? 0 : 2;
}

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "ocsolve-mpi: MPI_Init_thread failed\n");
        return 1;
    }
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Only rank 0 reports to stdout; the workers' copy of --help is noise. */
    if (rank > 0 && !freopen("/dev/null", "w", stdout)) fprintf(stderr, "ocsolve-mpi: rank %d: no /dev/null\n", rank);
    /* A worker runs its job in a second thread while the first talks MPI. */
    if (provided < MPI_THREAD_FUNNELED) {
        if (rank == 0)
            fprintf(stderr, "ocsolve-mpi: this MPI gives thread level %d, the workers need FUNNELED\n", provided);
        MPI_Finalize();
        return 1;
    }
    if (rank > 0) store_forbid("an MPI worker rank (only rank 0 opens the store: README, Running on a cluster)");
    int rc = check_command(argc, argv, rank);
    if (rc < 0) {
        JobsHost host = {.rank = rank, .size = size, .open = mpi_transport_open, .serve = mpi_serve};
        rc = cmd_jobs_host(argc - 1, argv + 1, &host);
        if (rc != 0 && rank > 0) MPI_Abort(MPI_COMM_WORLD, rc);
        /* Rank 0 gave a worker up as lost (its line is printed):
         * MPI_Finalize would wait for that rank for ever. mpirun ends the
         * job when its keepalive finds the host gone, provided nothing is
         * sent to that host meanwhile (mpi_transport.h), so wait first,
         * calling no MPI, and abort only if the job is still there. */
        double grace = 0;
        if (rank == 0 && mpi_transport_lost(&grace)) {
            fflush(NULL);
            struct timespec ts = {(time_t)grace, (long)((grace - (double)(time_t)grace) * 1e9)};
            while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
            MPI_Abort(MPI_COMM_WORLD, rc ? rc : 1);
        }
    }
    MPI_Finalize();
    return rc;
}
