/* top_node.h - the job-level search's top tree, its data (internal to
 * jobs/): the nodes, the coordinator that holds them, and the small
 * questions asked of them everywhere. The functions that change the tree
 * are in top_tree.h; this header has none, so the files that only read
 * the tree or write beside it (top_sibling.c) need nothing of top_tree.c.
 * The invariants are top_tree.h's.
 */
#ifndef OCS_TOP_NODE_H
#define OCS_TOP_NODE_H

#include "../solver/centre.h"
#include "jobs.h"
#include "top_cert.h"

/* A top-tree node's state (a decided node is told by its numbers). */
enum { T_NEW, T_BUSY, T_RAN, T_INNER };
/* How a node was decided (for its certificate). */
enum { BY_NONE, BY_STATIC, BY_STORE, BY_JOB, BY_TREE, BY_TWIN, BY_SIBLING };

typedef struct {
    Board b;
    Move move;          /* from the parent (MOVE_NONE at the root) */
    Move win;           /* decided with the winner to move: a winning move
                         * when known (a job's, the tree's, a sibling's:
                         * top_sibling.c; a resumed node's into a lemma
                         * position: top_leaf.c resumed_by_lemma), else
                         * MOVE_NONE */
    uint8_t state, by;
    uint8_t depth;      /* plies below the root */
    bool avail;         /* can be selected: a NEW or RAN undecided leaf, or an
                         * undecided inner node with an available child */
    bool vavail;        /* inner nodes: available, and not settled by the
                         * expected outcomes of running jobs (expect_of) */
    uint8_t expect;     /* inner nodes: the Winner if every running job below
                         * ends as expected, WINNER_NONE if still open */
    bool announced;     /* its decision has been stored, certified, told to twins */
    int parent;         /* -1 at the root */
    int first, nchild;  /* children: first .. first+nchild-1 */
    int twin;           /* the next node of the same canonical position, -1 */
    int focus;          /* the child selected last (select_child), -1 */
    uint32_t pn, dn;
    uint64_t budget;    /* its next job's budget */
    uint64_t spent;     /* nodes its jobs and those below it have searched
                         * (helpers' not counted): selection only
                         * (top_select.c most_worked) */
    int8_t wdepth;      /* bounded, decided (within.h): yes, the depth of its
                         * proof (<= its question); no, the horizon of its
                         * certificate (>= its question), -1 for a Chaos win's */
} TNode;

typedef struct {
    Board key; /* canonical */
    int node;  /* the first node of the chain */
} Slot;

typedef struct {
    int node;        /* the leaf it works on, -1: idle */
    uint32_t serial;
    int helping;     /* the worker whose job it helps, -1: its own job */
    uint32_t helped_serial; /* when helping: that job's serial */
    double start;    /* when its order was sent (seconds since the run began) */
    bool unhelpable; /* a helper found its job's search over (it writes its
                      * certificate): send no more until its next job */
} WorkerState;

/* A finished job, for the job log (job_log.h). */
typedef struct {
    uint32_t serial;
    int16_t worker;
    uint8_t value, stopped;
    int node;
    uint32_t pn, dn;
    uint64_t budget, nodes;
    double start, end, cert_seconds;
} JobRec;

/* The coordinator of a job-level run (jobs_solve, jobs.c): its settings,
 * the top tree and its index, the propagation queue, the workers' states,
 * the run's certificates and log, and the first failure. One per run, and
 * only the coordinator's thread touches it. */
typedef struct {
    const Rules *r;
    DfpnConfig cfg;
    const JobsSpec *spec;
    uint64_t job_nodes, job_nodes_max;
    Centre centre;
    double started, deadline;
    TNode *t;
    size_t nt, cap;
    Slot *map; /* canonical position -> chain of nodes; open addressing */
    size_t map_cap;
    int *queue; /* nodes whose decision or numbers must be propagated */
    size_t nq, qcap;
    JobsTransport *tr;
    WorkerState *ws;
    uint32_t serial;
    JobsResult *out;
    uint64_t proven, disproven, queued;
    uint64_t job_wins[3]; /* jobs decided, by Winner (expect_majority) */
    uint64_t select_steps, backup_steps; /* the coordinator's load (JobsResult) */
    double waited, cpu_waited; /* seconds (wall, CPU) in the transport's wait */
    double cpu_started, cpu_first; /* the coordinator's CPU clock at the start, at the first order */
    TopCert tc;
    JobsProgress certs_figures; /* the search's last figures, for the
                                 * certificate's progress reports (jobs.c) */
    bool certify;
    bool certs_at_end; /* spec->certs_later: nothing is written during the run;
                        * the root's proof is made at the end (jobs.c) */
    bool bounded;    /* spec->bounded: the question W(b, top_question) (within.h) */
    int horizon;     /* bounded: the pieces on the board at the horizon (the
                      * root's + spec->within) */
    JobRec *log; /* the job log's records (spec->job_log) */
    size_t nlog, logcap;
    char *err;
    int errlen;
    bool failed;
} Coordinator;

static inline bool top_decided(const TNode *n) { return n->pn == 0 || n->dn == 0; }
static inline Winner top_value(const TNode *n) { return dfpn_winner(n->pn, n->dn); }
/* Selectable, counting running jobs' expected outcomes (inner nodes' vavail). */
static inline bool top_vavail(const TNode *n) { return n->state == T_INNER ? n->vavail : n->avail; }
/* A re-run leaf's next budget: 4 times its last, at most job_nodes_max. */
static inline uint64_t top_next_budget(const Coordinator *c, uint64_t b)
{
    return b > c->job_nodes_max / 4 ? c->job_nodes_max : 4 * b;
}

/* Whether certificates are written as decisions happen (each decided job's,
 * each decided top-tree node's and sibling's): certificates on, and not
 * certs_at_end (then the root's proof is made at the end, jobs.c). */
static inline bool top_certify_now(const Coordinator *c) { return c->certify && !c->certs_at_end; }

/* Whether reply tables are on: asked for, and the workers are this
 * process's threads (an MPI rank has one table of its own). */
static inline bool top_reply_tables(const Coordinator *c) { return c->spec->reply_tables > 0 && !c->spec->transport; }
/* With reply tables: how many plies below the root a reply is
 * (spec->reply_depth, or by default Chaos's moves: 1 when Chaos is to move
 * at the root, else 2); its ancestor at that depth is the table a job
 * runs on (jobs.c group_of) and the unit of one job at a time
 * (top_select.c). */
static inline int top_reply_depth(const Coordinator *c)
{
    if (c->spec->reply_depth > 0) return c->spec->reply_depth;
    return board_order_to_move(c->t[0].b) ? 2 : 1;
}
/* The ancestor of node i at depth d (i itself when not deeper). */
static inline int top_ancestor(const Coordinator *c, int i, int d)
{
    while (c->t[i].depth > d) i = c->t[i].parent;
    return i;
}

/* Bounded mode: the plies left at b, the question its nodes ask: the same
 * for every node of one position (a ply adds a piece). */
static inline int top_question(const Coordinator *c, Board b) { return c->horizon - board_count(b); }

#endif
