/* dfpn.h - depth-first proof-number search (Nagai), Order the OR player.
 *
 * Proof number pn: how many leaves must still be proven for an Order win;
 * disproof number dn: likewise for a Chaos win. pn = 0 is a proof,
 * dn = 0 a disproof; both are exact facts, everything else is a guess.
 * Thresholds follow the 1+epsilon trick (Pawlewicz & Lew): the best child
 * is searched until it is worse than (1+eps) times the second best, which
 * stops the search from thrashing between two siblings.
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
#include "knowledge.h"

#define DFPN_INF UINT32_MAX
#define DFPN_MAX_THREADS 256

typedef enum { SOLVE_UNKNOWN = 0, SOLVE_ORDER, SOLVE_CHAOS } SolveValue;

typedef struct {
    double epsilon;      /* 1+eps trick; 0 gives plain df-pn (second best + 1) */
    bool chaos_pn_moves; /* initial pn of a Chaos node = its number of safe moves */
    bool order_dn_moves; /* initial dn of an Order node = its number of moves */
    bool center_first;   /* move ordering: children in order of closeness to the
                          * centre rather than by cell index (it decides ties) */
    Knowledge kn;
} DfpnConfig;

DfpnConfig dfpn_default_config(void);

/* What a progress report sees: the root as the search last left it. */
typedef struct {
    double seconds;
    uint64_t nodes;
    int tt_permille;
    uint32_t pn, dn;
    int moves, proven, disproven; /* root moves, and how many are decided each way */
} DfpnProgress;

typedef struct Dfpn Dfpn;
typedef struct DfpnShared DfpnShared;
typedef void (*DfpnReport)(const DfpnProgress *p, void *arg);

struct Dfpn {
    const Rules *r;
    DfpnConfig cfg;
    TT *tt;
    uint64_t node_limit; /* 0: none */
    double deadline;     /* monotonic seconds; 0: none */
    int threads;         /* searching threads (0 or 1: one); more need a shared table */
    atomic_bool *interrupt; /* when set (e.g. by a signal handler), the search stops */
    double report_every; /* seconds between calls of report; 0: none */
    DfpnReport report;
    void *report_arg;
    /* state */
    uint64_t nodes;      /* expanded nodes (all threads' after dfpn_solve) */
    DfpnShared *sh;      /* the threads' common state; NULL for one thread */
    int tid;
    uint64_t flushed;    /* nodes already added to sh's total */
    bool stopped;        /* a limit was hit */
    double started, next_report;
    DfpnProgress root;   /* kept up to date by the root's own iterations */
    Board *memo;         /* boards kn_chaos_pairs failed on (dfpn.c); NULL: none */
};

/* Reports the current state through d->report (if set). */
void dfpn_report(Dfpn *d);

void dfpn_init(Dfpn *d, const Rules *r, const DfpnConfig *cfg, TT *tt);

/* Decides b (any status). Returns SOLVE_UNKNOWN when a limit stopped it;
 * *pn and *dn get the root's numbers. */
SolveValue dfpn_solve(Dfpn *d, Board b, uint32_t *pn, uint32_t *dn);

/* For a decided, ongoing position with the winner to move: a winning move
 * (searching again where the table has lost it). MOVE_NONE if the search
 * was stopped by a limit. */
Move dfpn_winning_move(Dfpn *d, Board b, SolveValue winner);

#endif
