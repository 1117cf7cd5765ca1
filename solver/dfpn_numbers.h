/* dfpn_numbers.h - proof and disproof numbers, what every df-pn search
 * (dfpn.h, dfpn_depth.h) and its kernel (dfpn_kernel.h) compute with:
 * infinity, a decided position's numbers, their saturating sum, the
 * choice at an open node (DfpnPick) and the chosen child's thresholds
 * (the 1+eps trick, dfpn.h), and what a pair of numbers says.
 *
 * Invariants: pn = 0 is a proof (an Order win), dn = 0 a disproof (a
 * Chaos win), and the other number of a decided pair is DFPN_INF; every
 * other pair is a guess, and no sum of finite numbers reaches DFPN_INF
 * (it saturates one below), so only a proof or disproof is exact.
 */
#ifndef OCS_DFPN_NUMBERS_H
#define OCS_DFPN_NUMBERS_H

#include <math.h>
#include <stdint.h>

#include "../engine/rules.h"

#define DFPN_INF UINT32_MAX

/* The numbers of a decided position: a proof (pn 0) for an Order win, a
 * disproof (dn 0) for a Chaos win; WINNER_NONE gives the numbers of an
 * unexpanded leaf (1, 1). */
static inline void dfpn_numbers(Winner w, uint32_t *pn, uint32_t *dn)
{
    *pn = w == WINNER_ORDER ? 0 : w == WINNER_CHAOS ? DFPN_INF : 1;
    *dn = w == WINNER_CHAOS ? 0 : w == WINNER_ORDER ? DFPN_INF : 1;
}

/* a + b for proof numbers: infinity stays infinity, and a finite sum never
 * reaches it (it saturates one below: only a proof or disproof is exact). */
static inline uint32_t dfpn_sat_add(uint32_t a, uint32_t b)
{
    if (a == DFPN_INF || b == DFPN_INF) return DFPN_INF;
    uint64_t s = (uint64_t)a + b;
    return s >= DFPN_INF ? DFPN_INF - 1 : (uint32_t)s;
}

/* Choosing at an open node: the least "min" number (phi: pn at an Order
 * node, dn at a Chaos node) and the second least, and the sum of the other
 * numbers (delta). Children are added one by one (dfpn_pick_add); with no
 * child delta is infinite (dfpn_pick_end), which keeps the numbers exact. */
typedef struct {
    uint32_t phi1, phi2, delta;
    int bi; /* the child with phi1, -1 none */
} DfpnPick;

static inline DfpnPick dfpn_pick_start(void) { return (DfpnPick){DFPN_INF, DFPN_INF, 0, -1}; }

static inline void dfpn_pick_add(DfpnPick *p, int i, uint32_t phi, uint32_t delta)
{
    p->delta = dfpn_sat_add(p->delta, delta);
    if (phi < p->phi1) {
        p->phi2 = p->phi1;
        p->phi1 = phi;
        p->bi = i;
    } else if (phi < p->phi2) {
        p->phi2 = phi;
    }
}

static inline void dfpn_pick_end(DfpnPick *p, int n)
{
    if (n == 0) p->delta = DFPN_INF;
}

/* The thresholds of the child chosen at an open node, in phi/delta terms
 * (phi: the node's "min" number, delta its "sum"): the 1+eps trick gives it
 * a phi threshold of ceil(phi2 * (1+eps)) (at least phi2 + 1, at most the
 * node's phi_t; phi_t itself when it is the only live choice), and the
 * delta threshold is what the node's delta_t leaves once the other
 * children's deltas (delta - cdl) are counted. Shared by dfpn.c and
 * dfpn_depth.c, whose searches choose children the same way
 * (dfpn_kernel.h). */
static inline void dfpn_child_thresholds(uint32_t phi2, uint32_t delta, uint32_t cdl, uint32_t phi_t, uint32_t delta_t,
                                         double eps, uint32_t *cphi_t, uint32_t *cdelta_t)
{
    uint64_t grown = (uint64_t)ceil((double)phi2 * (1.0 + eps));
    if (grown <= phi2) grown = (uint64_t)phi2 + 1;
    *cphi_t = phi2 == DFPN_INF ? phi_t : (uint32_t)(grown < phi_t ? grown : phi_t);
    uint64_t cd = delta_t == DFPN_INF ? DFPN_INF : (uint64_t)delta_t - delta + cdl;
    *cdelta_t = cd > DFPN_INF ? DFPN_INF : (uint32_t)cd;
}

/* What numbers say: decided for Order, for Chaos, or not yet. */
static inline Winner dfpn_winner(uint32_t pn, uint32_t dn)
{
    return pn == 0 ? WINNER_ORDER : dn == 0 ? WINNER_CHAOS : WINNER_NONE;
}

#endif
