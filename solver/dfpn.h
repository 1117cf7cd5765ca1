/* dfpn.h - depth-first proof-number search (Nagai), Order the OR player.
 *
 * Proof number pn: how many leaves must still be proven for an Order win;
 * disproof number dn: likewise for a Chaos win. pn = 0 is a proof,
 * dn = 0 a disproof; both are exact facts, everything else is a guess.
 * Thresholds follow the 1+epsilon trick (Pawlewicz & Lew): the best child
 * is searched until it is worse than (1+eps) times the second best, which
 * stops the search from thrashing between two siblings. The expansion,
 * the children's evaluation and the choice are the df-pn kernel's
 * (dfpn_kernel.h), which the bounded search (dfpn_depth.h) shares; this
 * search owns its loop (mid), its threads and its certificate moves.
 *
 * Measured (results/heuristics.md): the 1+eps trick saves 1.4x nodes, the
 * mobility-based initial numbers 3.7x, on the solve suite. eps = 0.5 (the
 * default) takes 15% fewer nodes than 0.25 on positions of 0.1-8 M nodes,
 * on the set it was chosen on and on a held-out one alike
 * (results/epsilon.md); eps = 1 takes about twice the nodes of 0.5.
 *
 * Parallel search (threads > 1), after Kaneko's parallel df-pn: every
 * thread runs the same search from the root over one shared table, so a
 * number one thread stores steers the others when they reach that position,
 * and a proof found by one is used by all. To make threads spread out, a
 * thread entering a position marks it busy (a count in its table bucket,
 * tt_busy_add), and a thread whose best child is busy chooses as if that child's
 * phi number were one higher per thread inside it (a "virtual" number, used
 * only to choose, never stored or returned). Before descending, a frame
 * re-reads the chosen child's entry and takes a proof or disproof another
 * thread has found there. Only proofs and disproofs are facts, they come from the
 * same exact rules in every thread, and the table never lets a guess
 * overwrite one; so the value found cannot depend on the thread count, only
 * node counts and timing can. Measured speedups: results/speedup.csv.
 *
 * Soundness: the table returns a record only for an exactly equal key, and
 * keys are equal only for positions of equal value (knowledge.h); a lost
 * record costs work only. Proofs are never inferred from a hash alone.
 */
#ifndef OCS_DFPN_H
#define OCS_DFPN_H

#include <stdatomic.h>

#include "../tables/tt.h"
#include "centre.h"
#include "dfpn_numbers.h"
#include "knowledge.h"
#include "limits.h"
#include "threats.h"

#define DFPN_MAX_THREADS 256

typedef struct {
    double epsilon;      /* 1+eps trick; 0 gives plain df-pn (second best + 1) */
    bool chaos_pn_moves; /* initial pn of a Chaos node = its number of safe moves */
    bool order_dn_moves; /* initial dn of an Order node = its number of moves */
    bool center_first;   /* move ordering: children in order of closeness to the
                          * centre rather than by cell index (it decides ties) */
    Knowledge kn;
} DfpnConfig;

DfpnConfig dfpn_default_config(void);

typedef struct Dfpn Dfpn;
typedef struct DfpnShared DfpnShared;

struct Dfpn {
    /* settings */
    const Rules *r;
    DfpnConfig cfg;
    Centre centre;       /* the centre lemma's geometry; centre.on: in use */
    TT *tt;
    int threads;         /* searching threads (0 or 1: one); more need a shared table */
    SearchLimits lim;    /* limits on the whole (a job's every segment), and progress */
    /* state */
    uint64_t nodes;      /* expanded nodes (all threads' after dfpn_solve) */
    DfpnShared *sh;      /* the threads' common state; NULL for one thread */
    int tid;
    uint64_t flushed;    /* nodes already added to sh's total */
    bool stopped;        /* a limit was hit */
    double started, next_report;
    SearchProgress root;   /* kept up to date by the root's own iterations */
    Board *memo;         /* the kernel's memos (dfpn_kernel.h), during a solve; NULL: none */
    ThreatStats threats; /* the threat searches it asked (threats.h) */
    DfpnShared *team;    /* set by the caller: dfpn_solve runs as the team's first
                          * thread, which helpers may join (dfpn_assist); NULL: none */
};

/* Reports the current state through d->lim.report (if set). */
void dfpn_report(Dfpn *d);

void dfpn_init(Dfpn *d, const Rules *r, const DfpnConfig *cfg, TT *tt);

/* Decides b (any status). Returns WINNER_NONE when a limit stopped it;
 * *pn and *dn get the root's numbers. */
Winner dfpn_solve(Dfpn *d, Board b, uint32_t *pn, uint32_t *dn);

/* A team: a one-thread solve that other threads may join while it runs
 * (a job-level search's idle worker helping a running job, jobs/pool.c).
 * Set d->team and call dfpn_solve: it searches as thread 0 of a parallel
 * df-pn (busy marks, re-reads, limits on the team's total nodes) whose
 * other threads come and go; when it returns, the team is stopped and
 * helpers leave. The value is the same as any df-pn's (see "Parallel
 * search" above: only proofs and disproofs are facts, whoever finds them);
 * a helper that decides the root hands its numbers to the solve.
 * dfpn_team_reset before each solve, while no helper is attached. */
DfpnShared *dfpn_team_new(void); /* NULL: out of memory */
void dfpn_team_free(DfpnShared *t);
void dfpn_team_reset(DfpnShared *t);
/* Sends the helpers away (also when the solve decided b without search). */
void dfpn_team_stop(DfpnShared *t);
/* The team's nodes so far (its threads add theirs in batches). */
uint64_t dfpn_team_nodes(DfpnShared *t);
/* Joins the team's solve of b (the same root, table and rules as the
 * solve's) as thread tid >= 1, until the team stops or d's limits are hit.
 * The solve's node limit counts the solve's own nodes only: a helper adds
 * work to it and never uses up its budget (a job-level search's budgets
 * decide when a leaf is expanded; measured, results/jobs-efficiency.md).
 * d's nodes: its own. */
void dfpn_assist(Dfpn *d, Board b, DfpnShared *team, int tid);

/* For a decided, ongoing position with the winner to move: a winning move
 * (searching again where the table has lost it). MOVE_NONE if the search
 * was stopped by a limit. */
Move dfpn_winning_move(Dfpn *d, Board b, Winner winner);

#endif
