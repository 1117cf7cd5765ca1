/* hostile_rank0.c - a rank 0 that breaks the protocol, for the worker loop
 * of build/ocsolve-mpi (jobs/mpi_transport.h, mpi_serve), which trusts
 * nothing rank 0 sends: test_mpi.c runs it under mpirun with 2 ranks.
 *
 * Rank 1 runs the real worker loop (mpi_serve) and prints one line,
 * "worker rc RC: MESSAGE". Rank 0 is this file's own: it takes part in
 * the gather of host names that ends the transport's opening, then sends
 * what the case named by argv[1] says:
 *   ok              QUIT, waits for BYE, FIN: the loop must end with 0;
 *   after-quit      QUIT, BYE, then a STOP where only FIN may come;
 *   fin-with-bytes  QUIT, BYE, then a FIN of 1 byte;
 *   short-order     an ORDER of 5 bytes (a JobOrder is far bigger);
 *   unknown-tag     a message with tag 99;
 *   quit-with-bytes a QUIT of 2 bytes.
 * The tag numbers are the protocol's (mpi_transport.h lists the messages
 * in this order), written out here as the wire sees them. After the
 * loop, the worker receives whatever rank 0 sent that it refused, so
 * that both ranks can call MPI_Finalize with no message unmatched.
 * Exit 0 when the program itself ran (the verdict is the printed line),
 * 2 on a bad case name. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/rules.h"
#include "../../jobs/mpi_transport.h"
#include "../../solver/dfpn.h"

enum { ORDER = 1, OUTCOME, STOP, QUIT, BYE, BEAT, FIN };

static void send_bytes(int tag, int n)
{
    char buf[8] = {0};
    MPI_Send(buf, n, MPI_BYTE, 1, tag, MPI_COMM_WORLD);
}

/* QUIT, then BYE from the worker (beats before it are read and dropped). */
static void quit_and_bye(void)
{
    send_bytes(QUIT, 0);
    for (;;) {
        MPI_Status st;
        char buf[4096];
        MPI_Recv(buf, (int)sizeof buf, MPI_BYTE, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == BYE) return;
    }
}

static int rank0(const char *what)
{
    char names[2][MPI_MAX_PROCESSOR_NAME], mine[MPI_MAX_PROCESSOR_NAME] = "";
    MPI_Gather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (strcmp(what, "ok") == 0) quit_and_bye(), send_bytes(FIN, 0);
    else if (strcmp(what, "after-quit") == 0) quit_and_bye(), send_bytes(STOP, 4);
    else if (strcmp(what, "fin-with-bytes") == 0) quit_and_bye(), send_bytes(FIN, 1);
    else if (strcmp(what, "short-order") == 0) send_bytes(ORDER, 5);
    else if (strcmp(what, "unknown-tag") == 0) send_bytes(99, 0);
    else if (strcmp(what, "quit-with-bytes") == 0) send_bytes(QUIT, 2);
    return 0;
}

/* Receives every message rank 0 sent that the loop left (it refuses a
 * message by probing it, not by receiving it). */
static void drain(void)
{
    for (int quiet = 0; quiet < 200; quiet++) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            char buf[4096];
            MPI_Recv(buf, (int)sizeof buf, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            quiet = 0;
        }
    }
}

static int worker(void)
{
    Rules r;
    char err[256] = "";
    if (rules_init(&r, 4, 4, RULES_ORIGINAL, err, (int)sizeof err) != 0) return 1;
    DfpnConfig cfg = dfpn_default_config();
    int rc = mpi_serve(&r, &cfg, (size_t)1 << 20, 1, NULL, 0, err, (int)sizeof err);
    printf("worker rc %d: %s\n", rc, err);
    fflush(stdout);
    drain();
    return 0;
}

int main(int argc, char **argv)
{
    const char *cases[] = {"ok", "after-quit", "fin-with-bytes", "short-order", "unknown-tag", "quit-with-bytes"};
    int known = 0;
    for (size_t i = 0; argc == 2 && i < sizeof cases / sizeof cases[0]; i++) known |= strcmp(argv[1], cases[i]) == 0;
    if (!known) {
        fprintf(stderr, "hostile_rank0: the case is one of ok, after-quit, fin-with-bytes, short-order, unknown-tag, "
                        "quit-with-bytes\n");
        return 2;
    }
    int provided = 0, rank = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int rc = rank == 0 ? rank0(argv[1]) : worker();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
