/* dfpn_internal.h - what dfpn.c, dfpn_search.c and dfpn_team.c share,
 * and no one else.
 *
 * dfpn_search.c holds the search itself (mid, over the kernel's expansion
 * and choice: dfpn_kernel.h); dfpn_team.c the two ways several threads
 * share one search: the threaded solve (every thread from the root until
 * one decides it) and the team (a job's thread that helpers may join
 * while it runs); dfpn.c the solve, which picks one thread or these.
 * All run the same mid over a shared table; DfpnShared is the threads'
 * common state. Layers: dfpn.c -> dfpn_team.c -> dfpn_search.c, never
 * back.
 *
 * Invariants: a DfpnShared's counters only grow between resets; "decided"
 * is written once (compare-and-swap from 0) and a decided pair is never 0,
 * since one of its numbers is DFPN_INF.
 */
#ifndef OCS_DFPN_INTERNAL_H
#define OCS_DFPN_INTERNAL_H

#include "dfpn_kernel.h"
#include "dfpn_search.h"

struct DfpnShared {
    atomic_bool stop;           /* decided, a limit, or an interrupt */
    _Atomic uint64_t nodes;     /* all threads' nodes, added in batches */
    _Atomic uint64_t decided;   /* a team's root numbers once a thread decided
                                 * it (pn << 32 | dn), 0 before */
};

/* The kernel's view of this search (dfpn_kernel.h): the value question,
 * proof numbers under the plain key, the centre lemma, the memos of the
 * thread (d->memo, set for the length of a solve). dfpn_search.c's. */
DfpnKernel dfpn_value_kernel(Dfpn *d);

/* A search from position b (key its table key, kn its knowledge) with
 * unbounded thresholds; root: thread 0 of its solve, which notes the root's
 * numbers and reports progress. */
void dfpn_mid_root(Dfpn *d, Board b, Board key, const KnNode *kn, bool root, uint32_t *pn, uint32_t *dn);

/* dfpn_solve's threaded and team modes (dfpn_team.c). */
void dfpn_solve_parallel(Dfpn *d, Board b, Board key, const KnNode *kn, uint32_t *pn, uint32_t *dn);
void dfpn_solve_team(Dfpn *d, Board b, Board key, const KnNode *kn, uint32_t *pn, uint32_t *dn);

#endif
