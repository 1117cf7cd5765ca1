/* dfpn_search.h - one searcher of the df-pn value search (dfpn.h): its
 * settings (DfpnConfig) and state (Dfpn), and its progress reports. The
 * search's loop over them (mid, in dfpn_search.c) runs for one thread or
 * for each of many (dfpn_team.h); dfpn.h's dfpn_solve chooses which.
 *
 * Invariants: a Dfpn's nodes only grow during a solve; stopped is set
 * only by a limit (or its threads' common stop); sh is set only while the
 * searcher is one of several threads (dfpn_internal.h), and memo only
 * for the length of a solve.
 */
#ifndef OCS_DFPN_SEARCH_H
#define OCS_DFPN_SEARCH_H

#include <stdatomic.h>

#include "../tables/tt.h"
#include "../tables/wintab.h"
#include "centre.h"
#include "dfpn_numbers.h"
#include "knowledge.h"
#include "limits.h"
#include "threats.h"

typedef struct {
    double epsilon;      /* 1+eps trick; 0 gives plain df-pn (second best + 1) */
    bool chaos_pn_moves; /* initial pn of a Chaos node = its number of safe moves */
    bool order_dn_moves; /* initial dn of an Order node = its number of moves */
    bool center_first;   /* move ordering: children in order of closeness to the
                          * centre rather than by cell index (it decides ties) */
    bool bounded_center_first; /* the same for the bounded search (dfpn_depth.h), which
                                * uses epsilon too; off by default (cell order, which its
                                * figures so far were measured with) */
    uint64_t bounded_switch; /* a bounded search still open after this many nodes goes on in
                              * the other order (dfpn_depth_within_switch); 0: never */
    Knowledge kn;
} DfpnConfig;

/* The winning moves dfpn_winning_move gave (dfpn.h), by the source that
 * gave each, in the order it asks them; `searched` counts the positions
 * it had to search again, `search_nodes` those searches' nodes. */
typedef struct {
    uint64_t threat, side, stored, known, searched, search_nodes;
} DfpnMoveStats;

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
    WinTab *wins;        /* set by the caller: the side table of proven Order moves
                          * (wintab.h) that mid fills and dfpn_winning_move reads,
                          * never steering the search; NULL: none */
    TT *scratch;         /* set by the caller: the table dfpn_winning_move searches
                          * on where d's table has lost a position's moves, so
                          * that certifying leaves tt as the search left it (the
                          * next search is the same with or without certificates);
                          * NULL: tt itself */
    DfpnMoveStats moves; /* where dfpn_winning_move found its moves */
    int cells_first[64]; /* cfg.center_first: the board's cells, nearest the centre
                          * first (dfpn_kernel_center_order), computed once here
                          * rather than at every expansion */
};

/* Reports the current state through d->lim.report (if set). */
void dfpn_report(Dfpn *d);

#endif
