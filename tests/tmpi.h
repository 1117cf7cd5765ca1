/* tmpi.h - what the tests of build/ocsolve-mpi share (test_mpi.c,
 * test_mpi_lost.c): mpirun on this one machine with the output captured,
 * the figures of a run's output, the program's own lines on stderr,
 * random positions that give the job-level search work, and bad input
 * refused.
 *
 * Environment: `mpirun` on PATH (Debian openmpi-bin). Every run passes
 * --allow-run-as-root (the tests may run as root) and --oversubscribe
 * (up to 4 ranks on a 2-core machine), and mpirun's --timeout so a hang
 * ends as a failure instead of blocking the suite. Under the sanitizer
 * build (OCS_SANITIZE) the ranks run with ASAN_OPTIONS=detect_leaks=0:
 * Open MPI itself leaves allocations behind at MPI_Finalize (in libmpi,
 * hwloc and plugins it unloads, so LeakSanitizer cannot name them for a
 * suppression), while ASan's and UBSan's other checks stay on. */
#ifndef OCS_TMPI_H
#define OCS_TMPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "brute.h"
#include "ref.h"
#include "runbin.h"

#ifndef OCSOLVE_MPI_BIN
#error "OCSOLVE_MPI_BIN must name the ocsolve-mpi binary under test"
#endif

/* mpirun's own limit on one run: far above what any run here needs. */
#define TMPI_RUN_TIMEOUT "60"

/* The jobs line of a run's output, for sscanf. */
#define TMPI_JOBS_LINE "%llu (%llu decided, %llu undecided, %llu stopped)"

typedef struct {
    Run r;
    double seconds; /* wall time of the whole mpirun */
} MpiRun;

/* CLOCK_MONOTONIC in seconds. */
double tmpi_now_seconds(void);
/* mpirun -np np prog args..., stdout and stderr captured. */
void tmpi_run_prog(MpiRun *m, int np, const char *prog, const char *const *args);
#define tmpi_run(m, np, ...) tmpi_run_prog((m), (np), OCSOLVE_MPI_BIN, ARGS(__VA_ARGS__))

/* A run that must have succeeded (exit 0, a result line). */
void tmpi_expect_ran(const MpiRun *m);

/* Frees m's output. */
void tmpi_free(MpiRun *m);

/* The lines of stderr the program wrote (they start with "ocsolve"; the
 * rest is mpirun's own report): how many, and whether all are the same
 * line (every rank parses the same command line and fails alike). The
 * first goes to first. */
int tmpi_program_lines(const char *err, bool *same, char *first, size_t size);

typedef struct {
    unsigned long long jobs, undecided, tree_nodes, expansions, from_store;
    char result[32];
} MpiFigures;

/* A run's figures: its result, jobs and top-tree lines (the test fails
 * without them). */
MpiFigures tmpi_figures(const MpiRun *m);

/* The brute force's winner of p, as the result line names it. */
const char *tmpi_brute_name(BruteMemo *bm, RefPos *p);

/* A random 6x6 k=5 position of `empties` empty cells (as text in s) that
 * gives the job-level search work: most random positions are decided at
 * the root by the static knowledge (fours, pairing), so candidates are
 * screened with the library's own jobs_solve in this process (threads,
 * the budget and no centre lemma as in the run that follows) for one that
 * runs several jobs and expands a leaf. The screen only picks inputs;
 * every value checked comes from the brute force. */
void tmpi_busy_position(RefPos *p, char s[65], int rules, int empties, uint64_t job_nodes, uint64_t *rng);

/* Bad input: exit 2, nothing on stdout, and the program's one message
 * (each rank parses the command line and prints the same line). */
void tmpi_expect_refused(int np, const char *needle, const char *const *args);

#endif
