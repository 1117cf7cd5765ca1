/* dfpn_team.h - several threads in one df-pn value search (dfpn.h,
 * Parallel search): the team a job's solve runs as, which helpers join
 * (dfpn_team.c also holds the threaded solve dfpn_solve starts:
 * dfpn_internal.h). Threads run dfpn_search.h's searcher; nothing here
 * calls dfpn.c.
 *
 * Invariants: a team's node count only grows between resets; once
 * stopped it stays stopped until dfpn_team_reset, which is called only
 * while no helper is attached.
 */
#ifndef OCS_DFPN_TEAM_H
#define OCS_DFPN_TEAM_H

#include "dfpn_search.h"

#define DFPN_MAX_THREADS 256

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
 * decide when a leaf is expanded; measured, results/jobs/jobs-efficiency.md).
 * d's nodes: its own. */
void dfpn_assist(Dfpn *d, Board b, DfpnShared *team, int tid);

#endif
