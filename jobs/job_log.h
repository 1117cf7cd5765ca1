/* job_log.h - the job log of a job-level search (internal to jobs/): one
 * record per finished job, kept in memory during the run and written as
 * CSV at its end (spec->job_log), with each job's place in the top tree
 * and whether that place is in the final proof.
 *
 * What it is for: telling where a run's nodes went. A job on a node
 * outside the proof tree (a move of the winner that the proof does not
 * use, or anything below it) was speculative work that did not count;
 * comparing runs (1 worker against 2, one selection against another)
 * by the nodes in and out of the proof shows whether a second worker's
 * extra nodes are speculative or the same work done twice
 * (results/jobs/jobs-efficiency.md).
 *
 * The proof tree (job_log_write): the root; below a decided inner node in
 * it, the winner's first child decided its way when the winner is to move
 * (the child its certificate names, top_certify_inner), else every child.
 * A run that ends undecided has no proof: every record says "-".
 *
 * Columns: serial, worker, start, end (seconds since the run began),
 * node, depth, path (moves from the root), budget, nodes, result
 * (order, chaos, undecided, stopped), pn, dn (the job's root numbers when
 * undecided), cert_seconds, expanded (the node was expanded later), and
 * in_proof (1, 0, or - without a proof).
 */
#ifndef OCS_JOB_LOG_H
#define OCS_JOB_LOG_H

#include <stdio.h>

#include "top_tree.h"

/* Records worker k's finished job o on node i (before top_apply clears
 * the worker's state). */
void job_log_add(Coordinator *c, int k, int i, const JobOutcome *o);
/* Writes every record to f as CSV with its header; -1 on a write error
 * or out of memory (then the run's error says so). */
int job_log_write(Coordinator *c, FILE *f);
void job_log_free(Coordinator *c);

#endif
