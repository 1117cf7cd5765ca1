/* commands.h - the subcommands of ocsolve; each returns the exit code and
 * fails through cli_fail (exit 2) on bad input. */
#ifndef OCS_COMMANDS_H
#define OCS_COMMANDS_H

#include "../jobs/transport.h"

int cmd_show(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_random(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_store(int argc, char **argv);
int cmd_jobs(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_serve(int argc, char **argv);

/* How `jobs` runs as an MPI job (app/main_mpi.c, build/ocsolve-mpi): every
 * rank parses the same command line; rank 0 coordinates through the
 * transport `open` gives (size-1 workers), the other ranks `serve` jobs
 * until the coordinator closes the transport. NULL: worker threads. */
typedef struct {
    int rank, size;
    int (*open)(JobsTransport *t, double lease, char *err, int errlen);
    int (*serve)(const Rules *r, const DfpnConfig *cfg, size_t tt_bytes, int threads, const char *cert_dir,
                 double lease, char *err, int errlen);
} JobsHost;
int cmd_jobs_host(int argc, char **argv, const JobsHost *host);

#endif
