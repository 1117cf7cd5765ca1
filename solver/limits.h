/* limits.h - when a search must stop, and how it tells its progress: the
 * settings df-pn and alpha-beta share.
 *
 * SearchLimits is a search's settings only (what the caller asks for); the
 * state that checking them needs (nodes so far, when the next report is
 * due, whether a limit was hit) stays in the search (Dfpn, AlphaBeta).
 *
 * Invariants: a limit stops a search, never changes a value it returns as
 * decided; the node limit is checked at every node, so a search stops at
 * exactly node_limit nodes (one thread); the clock and the interrupt flag
 * are read once per LIMITS_CLOCK_EVERY nodes, since reading the clock costs
 * about as much as a cheap node; a progress report is due at most once
 * per report_every seconds, at a clock reading.
 */
#ifndef OCS_LIMITS_H
#define OCS_LIMITS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "clock.h"

enum { LIMITS_CLOCK_EVERY = 1024 };

/* What a progress report sees: the root as the search last left it. A
 * proof-number search (df-pn) reports its root's numbers and moves, with
 * depth 0; a deepening search (alpha-beta, the bounded df-pn) reports the
 * depth it is searching, and has no root numbers or moves: pn, dn and the
 * move counts are 0 then and mean nothing. */
typedef struct {
    double seconds;
    uint64_t nodes;
    int tt_permille;
    int depth;                    /* > 0: a deepening search's current depth */
    uint32_t pn, dn;              /* depth 0: the root's proof and disproof numbers */
    int moves, proven, disproven; /* root moves, and how many are decided each way */
    bool final;                   /* the search has ended: its last figures */
    uint64_t prev_nodes;          /* a resumed job's earlier runs (not in nodes, seconds) */
    double prev_seconds;
} SearchProgress;

typedef void (*SearchReport)(const SearchProgress *p, void *arg);

typedef struct {
    uint64_t node_limit;    /* 0: none */
    double deadline;        /* monotonic seconds (clock.h); 0: none */
    /* segment: deadline is only the end of one segment of a longer run
     * (resumable.c: a checkpoint is written at each end), whose own
     * deadline is run_deadline (0: none). What must not be cut at a
     * segment's end reads limits_lemma_deadline. */
    bool segment;
    double run_deadline;
    atomic_bool *interrupt; /* when set (e.g. by a signal handler), stop; NULL: none */
    double report_every;    /* seconds between calls of report; 0: none */
    SearchReport report;
    void *report_arg;
} SearchLimits;

/* When the centre lemma's table builds give up (centre.h; 0: never): the
 * run's deadline, not a segment's. Why: a build given up at a checkpoint
 * is gone on with later (centre_small.c), but the positions asked meanwhile get
 * no claim, so a checkpointed search would take other paths than the same
 * search without checkpoints. */
static inline double limits_lemma_deadline(const SearchLimits *l) { return l->segment ? l->run_deadline : l->deadline; }

/* Is the clock (and the interrupt flag) due to be read after this many nodes? */
static inline bool limits_clock_due(const SearchLimits *l, uint64_t nodes)
{
    return nodes % LIMITS_CLOCK_EVERY == 0 && (l->deadline > 0 || l->report_every > 0 || l->interrupt);
}

/* Must a search stop after `nodes` nodes, at time now (monotonic seconds;
 * pass 0 between clock reads, which skips the deadline and the interrupt
 * flag)? */
static inline bool limits_hit(const SearchLimits *l, uint64_t nodes, double now)
{
    if (l->node_limit && nodes >= l->node_limit) return true;
    if (now <= 0) return false;
    if (l->interrupt && atomic_load_explicit(l->interrupt, memory_order_relaxed)) return true;
    return l->deadline > 0 && now >= l->deadline;
}

/* The limit check every search makes at each node (df-pn, the bounded
 * df-pn, alpha-beta; df-pn's threads add a shared count of their own):
 * must the search stop after `nodes` nodes? The clock is read only when
 * due (limits_clock_due). *report_at gets that reading when a progress
 * report is due (*next_report passed; it moves on by report_every), else
 * 0; the caller reports, with what its reports show. */
static inline bool limits_check(const SearchLimits *l, uint64_t nodes, double *next_report, double *report_at)
{
    double now = limits_clock_due(l, nodes) ? clock_seconds() : 0;
    *report_at = 0;
    if (now > 0 && l->report_every > 0 && now >= *next_report) {
        *next_report = now + l->report_every;
        *report_at = now;
    }
    return limits_hit(l, nodes, now);
}

/* The progress report of a search that deepens a question (the bounded
 * df-pn, alpha-beta): its depth, no proof numbers. */
static inline void limits_report_depth(const SearchLimits *l, double seconds, uint64_t nodes, int depth,
                                       int tt_permille)
{
    if (!l->report) return;
    SearchProgress p = {.seconds = seconds, .nodes = nodes, .depth = depth, .tt_permille = tt_permille};
    l->report(&p, l->report_arg);
}

#endif
