/* within_static.c - within_static (within.h): what decides a bounded
 * question at a position without a job, each a fact of the game argued in
 * within.h beside the list it follows. A function of the rules, the
 * knowledge and the position alone (no store, no table, no certificate),
 * so the top tree (top_tree.c) and the certificates' composition
 * (within_cert.c) ask it alike. */
#include "../solver/knowledge.h"
#include "../solver/proof.h"
#include "within.h"

/* A new leaf's numbers: df-pn's initial ones (1, and the number of moves
 * where the configuration asks for it), as top_leaf.c's static_value. */
static void leaf_numbers(const DfpnConfig *cfg, Board b, const KnNode *kn, uint32_t *pn, uint32_t *dn)
{
    uint32_t moves = kn->nmoves > 0 ? (uint32_t)kn->nmoves : 1;
    if (board_order_to_move(b)) {
        if (cfg->order_dn_moves) *dn = moves;
    } else if (cfg->chaos_pn_moves) {
        *pn = moves;
    }
}

Winner within_static(const Rules *r, const DfpnConfig *cfg, Board b, int d, uint32_t *pn, uint32_t *dn, int *depth)
{
    *pn = *dn = 1;
    *depth = 0;
    Winner st = rules_status(r, b);
    if (st != WINNER_NONE) return st; /* a line (dtw 0 <= d), or a full board without one */
    if (within_question(r, b, d) < 0) return WINNER_CHAOS;
    if (proof_fewest_to_line(r, b) > d) return WINNER_CHAOS; /* no line can stand in time */
    KnNode kn;
    kn_node(r, &cfg->kn, b, &kn);
    if (kn.value == WINNER_ORDER) { /* its exact distance to win (dfpn_depth.h, Knowledge) */
        *depth = kn.dtw;
        return kn.dtw <= d ? WINNER_ORDER : WINNER_CHAOS;
    }
    if (kn.value == WINNER_CHAOS || kn_chaos_pairs(r, &cfg->kn, b)) return WINNER_CHAOS;
    leaf_numbers(cfg, b, &kn, pn, dn);
    return WINNER_NONE;
}
