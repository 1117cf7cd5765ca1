/* solve.h - one whole solve of a position, as `ocsolve solve` runs it and
 * as a job coordinator would: the tables sized and allocated, df-pn (as a
 * resumable, checkpointed solve: resumable.h) or alpha-beta, the distance to win, the best move, and
 * the certificate, with every figure returned in a SolveReport. It prints
 * nothing and never exits: failures come back as -1 and a message, progress
 * through the limits' reporter and the resumable solve's notes.
 *
 * Tables: spec->tt_bytes in all. With the distance to win (or alpha-beta as
 * the search) a quarter of it goes to the distance table, the rest to
 * df-pn's: the distance table holds depth-bound facts, which alpha-beta and
 * the depth-bounded df-pn (dfpn_depth.h) both read and write (same keys,
 * same meaning), and the bounded df-pn's numbers under depth-tagged keys;
 * df-pn's value entries (proof numbers) mean something else and stay
 * apart. The bounded df-pn reads the value table's disproofs (Chaos wins:
 * no at any depth).
 *
 * Distance to win: by the depth-bounded df-pn (the default; alpha-beta on
 * 8x8, where its tagged keys do not fit) or by alpha-beta (dtw_ab). Both
 * return the same number (tests/test_dtw.c); the best move of a lost Chaos
 * position is then the same move too (dfpn_depth_best_move picks as ab_best_move).
 *
 * The bounded question alone (within_asked): "does Order force a line
 * within `within` plies?", answered by the bounded df-pn with the whole
 * table (no value search, no checkpoint): report.within. With a yes, the
 * certificate (if asked for) is Order's proof of the answer, with moves
 * that win within report.within_depth plies (proof.h, proof_write_within);
 * with a no, Chaos's certificate to the horizon `within` (Order cannot win
 * within it: proof_write_not_within); an unknown has none (proof_error
 * says so).
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
#include "resumable.h"
#include "proof.h"

typedef struct {
    bool alphabeta;    /* decide by alpha-beta (full depth) instead of df-pn */
    bool dtw;          /* also the distance to win */
    bool dtw_ab;       /* ... by alpha-beta rather than the bounded df-pn */
    bool within_asked; /* only the bounded question, within `within` plies */
    int within;
    size_t tt_bytes;   /* all tables together */
    int threads;       /* df-pn's searching threads */
    DfpnConfig cfg;
    SearchLimits lim;  /* node limit for the whole solve, interrupt, progress */
    double time_limit; /* seconds from when the tables are ready (allocating a
                        * big one takes a while); 0: none. Sets lim.deadline */
    ResumableOpts resumable; /* checkpoints and resume (df-pn only) */
    FILE *proof;       /* write the certificate here; NULL: none */
    uint64_t proof_max_lines; /* 0: no bound */
} SolveSpec;

typedef struct {
    Winner value;      /* WINNER_NONE: a limit stopped the search */
    Move best;         /* MOVE_NONE when none is known (or the game is over) */
    int dtw;           /* with spec.dtw: plies to Order's win, -1 none (Chaos
                        * wins, or not decided), -2 a limit stopped it */
    bool dtw_by_ab;    /* the distance to win came from alpha-beta */
    uint64_t dtw_nodes; /* the distance search's nodes and seconds (with the best */
    double dtw_seconds; /* move of a lost Chaos position, which it also finds) */
    int within;        /* within_asked: 1 yes, 0 no, -1 a limit stopped it */
    int within_depth;  /* with yes: the proof found wins within this many plies */
    uint64_t nodes;    /* both searches' */
    uint64_t threat_searches, threat_wins; /* the value search's threat searches
                                            * (threats.h), and how many won */
    double seconds;
    uint32_t pn, dn;   /* the root's numbers (DFPN_INF: infinite); alpha-beta
                        * has none: a decided value's (0 and DFPN_INF), else 1 */
    int ab_depth;      /* alpha-beta: the depth of its last deepening step (the
                        * value is known within it); 0 with df-pn */
    ResumableResult resumable; /* earlier runs' totals, checkpoints, the stopping signal */
    ProofStats proof;
    char proof_error[200]; /* "" when the certificate (if asked for) was written */
} SolveReport;

/* The default spec: the measured-best search settings, a 256 MiB table, one
 * thread, no limits, no checkpoint, no proof. */
SolveSpec solve_default_spec(void);

/* Solves b under r. Returns 0 (whatever the result, see report->value), or
 * -1 with a message in err when the solve could not start: a checkpoint
 * file that would be lost or cannot be read or is refused, a table that
 * cannot be allocated, checkpoints asked of alpha-beta, or the bounded
 * question on an 8x8 board. */
int solve_run(const Rules *r, Board b, const SolveSpec *spec, SolveReport *report, char *err, int errlen);

#endif
