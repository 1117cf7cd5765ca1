/* jobs.h - job-level proof-number search on one machine: the scheme used
 * to solve Connect6 and Hex openings, with df-pn solves as the jobs.
 *
 * Design. One coordinator (the calling thread) keeps a small proof-number
 * tree in memory, the "top tree". Its leaves are jobs: a df-pn solve
 * (dfpn_init/dfpn_solve, solver/dfpn.h) of one frontier position with a
 * node budget (spec->job_nodes, SearchLimits.node_limit) and its own
 * table of spec->job_tt_bytes. W worker threads (pthreads) each own one
 * table, cleared before every job, and run one job at a time. A finished
 * job reports a winner, or, when its budget ran out, its root pn/dn, which
 * become the leaf's numbers.
 *
 *   - Numbers: Order to move = OR node (pn = min child pn, dn = sum child
 *     dn), Chaos to move = AND node (pn = sum, dn = min); sums saturate
 *     below DFPN_INF. A leaf not yet run starts at df-pn's own initial
 *     numbers (1 and its number of moves, solver/knowledge.h).
 *   - Selection: from the root, the child with the least pn at OR nodes,
 *     the least dn at AND nodes, among the children that are "available"
 *     (not decided, and not wholly busy). A leaf whose job is running is
 *     busy: it keeps its numbers but cannot be selected, so the next best
 *     path is taken (a virtual infinity for selection only). With every
 *     path busy the coordinator waits for a job to finish.
 *   - Expansion: a selected leaf whose job came back undecided is not run
 *     again with the same budget: it is expanded one ply (every legal
 *     move, X and O on every empty cell; children that are the same
 *     position up to the 16 symmetries, sym_canonical, become one child).
 *     A child decided statically (rules_status, kn_node, the centre lemma
 *     and pairing when the DfpnConfig switches them on) or found in the
 *     store gets pn/dn 0/INF or INF/0 at once; the others become new leaves.
 *   - Store (optional, tables/store.h): the root and every new child are
 *     looked up before any job; every position a job decides (its root,
 *     source df-pn), every top-tree node that becomes decided by backup,
 *     and every child decided by knowledge (source lemma, unless the game
 *     is already over) is put. Only the coordinator calls the store. A
 *     STORE_CONFLICT (or any other store error) ends the run with -1.
 *
 * Invariants: a decided top-tree node (pn = 0 or dn = 0) never changes:
 * backup stops at the first decided ancestor, and a job finishing inside
 * a decided subtree changes only its own leaf. Every decided value comes
 * from a job's df-pn, from the static knowledge, or from the store; the
 * top tree adds nothing but the backup rules. Jobs inside a subtree that
 * has become decided are interrupted (their work is no longer needed).
 *
 * Why it is sound: pn = 0 at an OR node means a child is a proven Order
 * win, so Order wins by moving there; at an AND node it means every child
 * (every legal move, symmetric duplicates having equal values) is an Order
 * win. Dually for dn = 0. Undecided numbers steer only which leaf is
 * worked on next, never a value, so the result does not depend on the
 * number of workers, the budgets or the timing (node counts do).
 *
 * Not done yet: MPI (or any transport) across machines; certificates for
 * job results (a decided job's proof is not kept, so `ocsolve verify`
 * cannot check a jobs run); transpositions across the top tree (only
 * siblings are merged; the store catches decided transpositions); keeping
 * a worker's table between jobs; resuming the top tree itself (a restart
 * keeps only what the store holds).
 *
 * Nothing here prints or exits: results through JobsResult, progress
 * through spec->report, errors as -1 and a one-line message.
 */
#ifndef OCS_JOBS_H
#define OCS_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/rules.h"
#include "../solver/dfpn.h"
#include "../tables/store.h"

enum { JOBS_MAX_WORKERS = 256 };

typedef struct {
    double seconds;
    uint32_t root_pn, root_dn;
    uint64_t jobs_done, jobs_running, jobs_queued; /* queued: new leaves not yet run */
    uint64_t proven, disproven;                    /* decided top-tree nodes, each way */
    uint64_t nodes;
    double nodes_per_second;
    uint64_t tree_nodes;
    bool final; /* the run has ended: its last figures */
} JobsProgress;

typedef struct {
    int workers;           /* worker threads (at least 1) */
    uint64_t job_nodes;    /* a job's node budget (0: JOBS_DEFAULT_NODES) */
    size_t job_tt_bytes;   /* each worker's table (0: 64 MiB) */
    double time_limit;     /* seconds; 0: none */
    Store *store;          /* NULL: none */
    void (*report)(const JobsProgress *, void *);
    void *report_arg;
    double report_every;   /* seconds between reports; 0: only the final one */
} JobsSpec;

#define JOBS_DEFAULT_NODES 200000

typedef struct {
    Winner winner;         /* WINNER_NONE: the time limit ran out */
    uint64_t jobs_run, jobs_decided, jobs_undecided, jobs_stopped; /* stopped: interrupted */
    uint64_t nodes;        /* all jobs' df-pn nodes */
    uint64_t tree_nodes;   /* top-tree nodes */
    uint64_t expansions;   /* top-tree leaves expanded */
    uint64_t static_decided, store_hits; /* children (and root) decided without a job */
    uint32_t root_pn, root_dn;
    double seconds;
} JobsResult;

/* Decides root under r with df-pn jobs configured by cfg (its knowledge
 * switches, e.g. the centre lemma, apply to the jobs and to the static
 * checks of the top tree). Returns 0 (out->winner WINNER_NONE when the
 * time limit ran out), or -1 with a message: a table that cannot be
 * allocated, a store error or conflict. */
int jobs_solve(const Rules *r, Board root, const DfpnConfig *cfg, const JobsSpec *spec, JobsResult *out, char *err,
               int errlen);

#endif
