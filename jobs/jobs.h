/* jobs.h - job-level proof-number search: the scheme used to solve
 * Connect6 and Hex openings, with df-pn solves as the jobs, on worker
 * threads (one machine) or MPI ranks (build/ocsolve-mpi), transport.h.
 *
 * Design. One coordinator (the calling thread) keeps a small proof-number
 * tree in memory, the "top tree". Its leaves are jobs: a df-pn solve of
 * one frontier position (job_run.h) with a node budget, on a table kept
 * from job to job: worker threads share one table (the default; or one
 * each, spec->separate_tables), an MPI rank has its own; a job may itself
 * run a parallel df-pn on spec->job_threads threads. A finished job
 * reports a winner, or, when its budget ran out, its root pn/dn, which
 * become the leaf's numbers.
 *
 *   - Numbers: Order to move = OR node (pn = min child pn, dn = sum child
 *     dn), Chaos to move = AND node (pn = sum, dn = min); sums saturate
 *     below DFPN_INF. A leaf not yet run starts at df-pn's own initial
 *     numbers (1 and its number of moves, solver/knowledge.h).
 *   - Selection: from the root, the child with the least pn at OR nodes,
 *     the least dn at AND nodes, among the children that are "available"
 *     (not decided, and not wholly busy). A leaf whose job is running is
 *     busy: it keeps its numbers but cannot be selected. A second worker
 *     first looks where the running jobs, if they end the way their
 *     numbers lean, still leave work that will be needed ("virtual win",
 *     expect_of in top_tree.c). When there is none (or every path is
 *     busy), a worker on a shared table helps a running job as a second
 *     df-pn thread in it (pool.c; dfpn.h's teams); otherwise (an MPI rank,
 *     a table each, threaded jobs) it takes the next best path
 *     (speculative work), or, with every path busy, waits. The child
 *     chosen last is kept while its number is within a factor
 *     1 + spec->focus of the least (df-pn's 1+epsilon, for the top tree);
 *     children are ordered centre first, which breaks ties.
 *   - Budgets: a leaf's first job has spec->job_nodes nodes. Selected again
 *     after an undecided job, it runs again with 4 times the budget (its
 *     worker's table, when the same worker gets it, still holds the work
 *     done) until the budget would pass spec->job_nodes_max; then it is
 *     expanded one ply instead (every legal move, X and O on every empty
 *     cell; children that are the same position up to the 16 symmetries,
 *     sym_canonical, become one child). Cheap leaves are so decided by
 *     cheap jobs, and only stubborn ones split. Leaves above
 *     spec->expand_depth are expanded without a job: near the empty board
 *     one df-pn is the monolithic search the jobs are there to avoid.
 *   - Transpositions: top-tree nodes of the same position (up to symmetry)
 *     are chained; when one is decided, all are, at once. A node decided
 *     with its winner to move also decides the siblings that reach the
 *     position after its winning move in one move (top_sibling.c; the
 *     job reports that move, JobOutcome.move).
 *   - A child decided statically (rules_status, kn_node, the centre lemma
 *     and pairing when the DfpnConfig switches them on), by a decided
 *     top-tree node of the same position, or found in the store gets
 *     pn/dn 0/INF or INF/0 at once; the others become new leaves.
 *   - Store (optional, tables/store.h): the root and every new child are
 *     looked up before any job; every position a job decides (its root,
 *     source df-pn), every top-tree node that becomes decided, and every
 *     child decided by knowledge (source lemma, unless the game is already
 *     over) is put. Only the coordinator calls the store. A STORE_CONFLICT
 *     (or any other store error) ends the run with -1.
 *   - Certificates (spec->cert_dir; top_cert.h): every decided job writes
 *     its own, and every top-tree node decided by its children gets one of
 *     "see" lines; the root's is the run's. With certificates on, a store
 *     hit counts only when its certificate is in the folder (otherwise the
 *     position is searched again), so a run's certificate is complete.
 *
 * Invariants: a decided top-tree node (pn = 0 or dn = 0) never changes:
 * backup stops at the first decided ancestor, and a job finishing inside
 * a decided subtree changes only its own leaf. Every decided value comes
 * from a job's df-pn, from the static knowledge, or from the store; the
 * top tree adds nothing but the backup rules and the sibling
 * transposition (argued in top_sibling.c). Jobs inside a subtree that
 * has become decided are interrupted (their work is no longer needed).
 *
 * Why it is sound: pn = 0 at an OR node means a child is a proven Order
 * win, so Order wins by moving there; at an AND node it means every child
 * (every legal move, symmetric duplicates having equal values) is an Order
 * win. Dually for dn = 0. Undecided numbers steer only which leaf is
 * worked on next, never a value, so the result does not depend on the
 * number of workers, the budgets or the timing (node counts do).
 *
 *   - Journal (optional, tables/journal.h): every job that ends undecided
 *     (its budget spent) is appended, with its budget and root numbers; a
 *     new leaf found there (and not decided) starts as if that job had
 *     just run (state RAN, its numbers, its budget), so a restarted run
 *     redoes only the jobs in flight, and a leaf the old run had expanded
 *     is expanded again without a job. Within one run, a new node of a
 *     position another node has already run undecided starts from that
 *     outcome too. The journal's numbers steer the
 *     selection only, like any job's undecided numbers: no value comes
 *     from it.
 *
 * Bounded mode (spec->bounded; within.h argues it): the same machinery
 * asks the bounded question of solver/dfpn_depth.h, W(b, d) "does Order
 * force a line within d plies?", with d = spec->within at the root and one
 * ply less at each level (a position's plies left are fixed by its piece
 * count, so transpositions ask the same question). Yes plays Order's win
 * and no Chaos's in every rule above: an Order node is yes when a child
 * is yes at d - 1, no when every child is no; a Chaos node yes when every
 * child is, no when one is. Jobs answer their leaf by dfpn_depth_within under the
 * node budget (re-run with 4 times the budget, then expanded, as above),
 * the store keeps bound records (tables/store.h) and the certificates are
 * Order's within the proof's depth or Chaos's to a horizon.
 *
 * Not done: merging transpositions of undecided top-tree nodes (only decided ones
 * are shared, through the chain of nodes of one position).
 *
 * Nothing here prints or exits: results through JobsResult, progress
 * through spec->report, errors as -1 and a one-line message.
 */
#ifndef OCS_JOBS_H
#define OCS_JOBS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "../engine/moves.h"
#include "../engine/rules.h"
#include "../solver/dfpn.h"
#include "../tables/journal.h"
#include "../tables/store.h"
#include "transport.h"

enum { JOBS_MAX_WORKERS = 256 };

typedef struct {
    double seconds;
    uint32_t root_pn, root_dn;
    uint64_t jobs_done, jobs_running, jobs_queued; /* queued: new leaves not yet run */
    uint64_t proven, disproven;                    /* decided top-tree nodes, each way */
    uint64_t nodes;
    double nodes_per_second;
    uint64_t tree_nodes;
    uint64_t store_positions; /* in the store; 0 without one */
    bool final; /* the run has ended: its last figures */
    /* Set while the root's certificate is made after the search (the
     * search's figures above are then its last): the files written so far
     * and the re-proofs listed for them (0: not known). */
    bool certs;
    uint64_t certs_made, certs_listed;
} JobsProgress;

typedef struct {
    int workers;           /* worker threads (at least 1); ignored with a transport */
    uint64_t job_nodes;    /* a leaf's first budget (0: JOBS_DEFAULT_NODES) */
    uint64_t job_nodes_max;/* re-run (budget x4) up to this, then expand; 0: job_nodes */
    size_t job_tt_bytes;   /* each worker's table (0: 64 MiB); ignored with a transport */
    bool separate_tables;  /* threads: a table each instead of one shared table
                            * of workers * job_tt_bytes (pool.c) */
    int reply_tables;      /* threads: N tables of job_tt_bytes, one per reply
                            * (top-tree node reply_depth plies below the root),
                            * at most one job per reply while another is open
                            * (jobs.c group_of, top_select.c); 0: off. At least
                            * `workers` */
    int reply_depth;       /* 0: 1 when Chaos is to move at the root, else 2
                            * (top_reply_depth): Chaos's replies either way */
    bool reply_by_work;    /* with reply_tables: a worker takes the free reply
                            * most nodes were spent under (top_select.c
                            * most_worked); false: the most-proving one */
    bool no_expect;        /* plain selection: no expected outcomes (top_tree.c expect_of) */
    bool expect_majority;  /* a running job is expected to end as most decided
                            * jobs have (top_tree.c expect_of); false: as its
                            * numbers lean */
    double cost_weight;    /* top-tree selection weighs a leaf's number by its
                            * next budget to this power (top_select.c
                            * choice_number); 0: the numbers alone */
    bool no_help;          /* idle workers never join a running job (jobs.c help_target) */
    bool no_siblings;      /* a decided node never decides its siblings
                            * (top_sibling.c); for measuring the rule */
    int job_threads;       /* df-pn threads per job (0: 1); also used by MPI ranks.
                            * Threads count nodes in batches of
                            * LIMITS_CLOCK_EVERY, so a budget below a few
                            * thousand nodes is overshot */
    int expand_depth;      /* leaves fewer plies than this below the root are
                            * expanded without a job (the top is split at once) */
    double focus;          /* top-tree stickiness (top_select.c select_child): keep
                            * the last child while its number is at most
                            * (1 + focus) times the least; 0: plain selection */
    double focus_release;  /* the focus lets go of a leaf whose next budget is
                            * over this many times the least-numbered
                            * sibling's (top_select.c focus_released); 0: never */
    JobsTransport *transport; /* NULL: `workers` threads in this process */
    const char *cert_dir;  /* certificates here (top_cert.h); NULL: none */
    const char *proof;     /* also the root's certificate at this path; NULL: none */
    int cert_share;        /* value jobs' certificates share subtrees: the
                            * loser's positions 2..cert_share plies below a
                            * job's root get files of their own in cert_dir
                            * (solver/proof.h ProofShare; job_run.h); 0: none */
    int cert_share_min;    /* ... a file only for a proof of at least
                            * 2^cert_share_min lines, smaller ones written in
                            * place (0..30; 0: every one) */
    double time_limit;     /* seconds; 0: none */
    atomic_bool *interrupt; /* when set (a signal handler), stop as at the time
                            * limit: running jobs are interrupted and taken,
                            * the job log written; the certificates' re-proofs
                            * stop too (jobs_solve -1, out->interrupted);
                            * NULL: none */
    Store *store;          /* NULL: none */
    bool certs_later;      /* with certificates and a store: a stored position
                            * counts even without its certificate (a store
                            * resumed from a snapshot, whose certificates
                            * were not kept), and the certificates the
                            * run's proof needs are made at the end:
                            * composed from the store's records, else
                            * re-proved (top_cert.h); bounded: the jobs
                            * write nothing, every file is made at the end
                            * (within.h) */
    int regen_split;       /* certs_later, value: a position re-proved at the
                            * end is split into its children's certificates
                            * down to this many plies (top_regen.c split):
                            * the loser to move, every distinct child; the
                            * winner, the store's move; each child re-proved
                            * into a file of its own, so a stopped end phase
                            * keeps every child it finished; 0: whole */
    uint64_t regen_probe;  /* ... a position to split is first re-proved whole
                            * within this many nodes (top_regen.c; 0: the
                            * default, TOPCERT_SPLIT_PROBE); tests make it 1 */
    Journal *journal;      /* undecided jobs' outcomes (tables/journal.h), kept
                            * beside the store; NULL: none (bounded: a journal
                            * of bounded jobs of this horizon only, within.h) */
    bool bounded;          /* ask W(root, within) instead of the value (above,
                            * Bounded mode); n <= 7 (dfpn_depth_supported); one-thread
                            * jobs, no helping, no certs_later */
    int within;            /* bounded: the plies, 0..64 */
    FILE *job_log;         /* one CSV line per job, written at the end of the run
                            * (job_log.h); NULL: none */
    void (*report)(const JobsProgress *, void *);
    void *report_arg;
    double report_every;   /* seconds between reports; 0: only the final one */
} JobsSpec;

#define JOBS_DEFAULT_NODES 200000
#define JOBS_DEFAULT_CERT_SHARE 3 /* ocsolve jobs' default (--cert-share; results/jobs/cert-share.md) */
#define JOBS_DEFAULT_CERT_SHARE_MIN 7 /* ... files of 128 lines or more */

typedef struct {
    Winner winner;         /* WINNER_NONE: the time limit ran out, or interrupted;
                            * bounded: WINNER_ORDER yes, WINNER_CHAOS no */
    int within_depth;      /* bounded, yes: the depth of the proof (Order wins
                            * within it, <= spec->within; the certificate's
                            * longest game is at most it); no: spec->within */
    bool root_from_store;  /* the root itself was decided by a record of the store
                            * (an earlier run's; its checksum, and with
                            * certificates its certificate's header, agree) */
    bool interrupted;      /* stopped by spec->interrupt: undecided, or (jobs_solve
                            * -1) decided with its certificates unfinished */
    uint64_t jobs_run, jobs_decided, jobs_undecided, jobs_stopped; /* stopped: interrupted */
    uint64_t helps;        /* times a worker was sent to help a running job (pool.c) */
    uint64_t nodes;        /* all jobs' df-pn nodes, the helpers' included */
    uint64_t help_nodes;   /* of which the helpers' */
    uint64_t tree_nodes;   /* top-tree nodes */
    uint64_t expansions;   /* top-tree leaves expanded */
    uint64_t static_decided, store_hits; /* children (and root) decided without a job */
    uint64_t twin_hits;    /* decided as another top-tree node of the same position */
    uint64_t sibling_hits; /* decided by a sibling's winning move (top_sibling.c) */
    uint64_t journal_hits; /* leaves given a past run's undecided job outcome, not run again */
    uint64_t cert_files, cert_lines; /* certificate files written; the jobs' lines */
    uint64_t cert_composed, cert_resolved, cert_split; /* of the files, composed from the store's
                                            * records, and re-proved, at the end */
    double cert_seconds;   /* the workers' time writing certificates */
    /* The coordinator's load (results/jobs/mpi-cluster.md): its time not spent
     * waiting for outcomes (selection, expansion, backup, the store,
     * certificates of top-tree nodes), the top tree's work in steps (a
     * selection's steps from the root to its leaf; an ancestor's numbers
     * recomputed in backup), and the transport's messages. */
    double coord_busy_seconds;
    double coord_cpu_seconds, coord_cpu_setup; /* its CPU time outside waits (not inflated by
                            * other processes' load), and of that, before the first job */
    uint64_t select_steps, backup_steps;
    uint64_t msgs_sent, msgs_received, beats_received;
    uint32_t root_pn, root_dn;
    double seconds;
    /* The root's children in the top tree (distinct up to symmetry; none
     * if the root was never expanded), in the order they were made. */
    int nchildren;
    struct {
        Move move;
        uint32_t pn, dn;
    } children[MOVES_MAX];
} JobsResult;

/* Decides root under r with df-pn jobs configured by cfg (its knowledge
 * switches, e.g. the centre lemma, apply to the jobs and to the static
 * checks of the top tree), or with spec->bounded answers W(root,
 * spec->within) by depth-bounded df-pn jobs. Returns 0 (out->winner
 * WINNER_NONE when the time limit ran out), or -1 with a message: a table
 * that cannot be allocated, a store error or conflict, a bounded search
 * on a board over 7x7. */
int jobs_solve(const Rules *r, Board root, const DfpnConfig *cfg, const JobsSpec *spec, JobsResult *out, char *err,
               int errlen);

#endif
