/* solve.h - one whole solve of a position, as `ocsolve solve` runs it and
 * as a job coordinator would: the tables sized and allocated, df-pn (as a
 * checkpointed job) or alpha-beta, the distance to win, the best move, and
 * the certificate, with every figure returned in a SolveReport. It prints
 * nothing and never exits: failures come back as -1 and a message, progress
 * through the limits' reporter and the job's notes.
 *
 * Tables: spec->tt_bytes in all. With the distance to win (or alpha-beta as
 * the search) a quarter of it goes to alpha-beta's own table, the rest to
 * df-pn's: alpha-beta's entries (depth bounds) and df-pn's (proof numbers)
 * mean different things and never share a table.
 *
 * Invariants: a decided report.value is exact whatever the limits,
 * threads or tables were; report.best is a winning move when the winner is
 * to move (for a Chaos move in an Order win, the longest resistance, known
 * only with the distance to win); a certificate is written only for a
 * decided value, and a failure to complete it is reported in
 * report.proof_error (the caller removes the partial file).
 */
#ifndef OCS_SOLVE_H
#define OCS_SOLVE_H

#include <stdio.h>

#include "dfpn.h"
#include "job.h"
#include "proof.h"

typedef struct {
    bool alphabeta;    /* decide by alpha-beta (full depth) instead of df-pn */
    bool dtw;          /* also the distance to win (alpha-beta) */
    size_t tt_bytes;   /* all tables together */
    int threads;       /* df-pn's searching threads */
    DfpnConfig cfg;
    SearchLimits lim;  /* node limit for the whole solve, interrupt, progress */
    double time_limit; /* seconds from when the tables are ready (allocating a
                        * big one takes a while); 0: none. Sets lim.deadline */
    JobOpts job;       /* checkpoints and resume (df-pn only) */
    FILE *proof;       /* write the certificate here; NULL: none */
    uint64_t proof_max_lines; /* 0: no bound */
} SolveSpec;

typedef struct {
    Winner value;      /* WINNER_NONE: a limit stopped the search */
    Move best;         /* MOVE_NONE when none is known (or the game is over) */
    int dtw;           /* with spec.dtw: plies to Order's win, -1 none (Chaos
                        * wins, or not decided), -2 a limit stopped it */
    uint64_t nodes;    /* both searches' */
    double seconds;
    uint32_t pn, dn;   /* the root's numbers (DFPN_INF: infinite) */
    JobResult job;     /* earlier runs' totals, checkpoints, the stopping signal */
    ProofStats proof;
    char proof_error[200]; /* "" when the certificate (if asked for) was written */
} SolveReport;

/* The default spec: the measured-best search settings, a 256 MiB table, one
 * thread, no limits, no job, no proof. */
SolveSpec solve_default_spec(void);

/* Solves b under r. Returns 0 (whatever the result, see report->value), or
 * -1 with a message in err when the solve could not start: a checkpoint
 * file that would be lost or cannot be read or is refused, a table that
 * cannot be allocated, or checkpoints asked of alpha-beta. */
int solve_run(const Rules *r, Board b, const SolveSpec *spec, SolveReport *report, char *err, int errlen);

#endif
