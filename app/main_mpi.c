/* main_mpi.c - build/ocsolve-mpi: `ocsolve jobs` as an MPI job
 * (jobs/mpi_transport.h). Every rank parses the same command line; rank 0
 * coordinates (and alone opens the store), every other rank serves jobs.
 *
 * Ending. On a good run rank 0 closes the transport (QUIT, BYE), then all
 * ranks call MPI_Finalize. Bad input found by the parsing every rank does
 * (an option, a position) makes every rank print the one line and exit 2
 * through cli_fail. A failure only rank 0 sees after the workers entered
 * their loop (the --log file, the store, the transport) also exits 2, with
 * no QUIT sent: Open MPI's mpirun then ends the whole job, since a rank
 * exited non-zero without MPI_Finalize, and the workers do not wait
 * forever (tests/test_mpi.c checks that such a run ends). A worker that
 * cannot serve (its table) aborts the job at once, as rank 0 would
 * otherwise wait for it forever.
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../jobs/mpi_transport.h"
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
    int rc = check_command(argc, argv, rank);
    if (rc < 0) {
        JobsHost host = {.rank = rank, .size = size, .open = mpi_transport_open, .serve = mpi_serve};
        rc = cmd_jobs_host(argc - 1, argv + 1, &host);
        if (rc != 0 && rank > 0) MPI_Abort(MPI_COMM_WORLD, rc);
    }
    MPI_Finalize();
    return rc;
}
