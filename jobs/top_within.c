/* top_within.c - the top tree's bounded mode (within.h): what decides a
 * node without a job, the store's bound records, and the depth of a
 * node's proof. Soundness is argued in within.h; here each rule stands
 * beside its code. */
#include <stdio.h>

#include "../engine/notation.h"
#include "../solver/knowledge.h"
#include "../solver/proof.h"
#include "within.h"

/* A new leaf's numbers: df-pn's initial ones (1, and the number of moves
 * where the configuration asks for it), as top_tree.c's static_value. */
static void leaf_numbers(const Ctx *c, Board b, const KnNode *kn, uint32_t *pn, uint32_t *dn)
{
    uint32_t moves = kn->nmoves > 0 ? (uint32_t)kn->nmoves : 1;
    if (board_order_to_move(b)) {
        if (c->cfg.order_dn_moves) *dn = moves;
    } else if (c->cfg.chaos_pn_moves) {
        *pn = moves;
    }
}

Winner within_static(Ctx *c, Board b, uint32_t *pn, uint32_t *dn, int *depth)
{
    *pn = *dn = 1;
    *depth = 0;
    int d = top_question(c, b);
    Winner st = rules_status(c->r, b);
    if (st != WINNER_NONE) return st; /* a line (dtw 0 <= d), or a full board without one */
    if (within_question(c->r, b, d) < 0) return WINNER_CHAOS;
    if (proof_fewest_to_line(c->r, b) > d) return WINNER_CHAOS; /* no line can stand in time */
    KnNode kn;
    kn_node(c->r, &c->cfg.kn, b, &kn);
    if (kn.value == WINNER_ORDER) { /* its exact distance to win (dfpn_depth.h, Knowledge) */
        *depth = kn.dtw;
        return kn.dtw <= d ? WINNER_ORDER : WINNER_CHAOS;
    }
    if (kn.value == WINNER_CHAOS || kn_chaos_pairs(c->r, &c->cfg.kn, b)) return WINNER_CHAOS;
    leaf_numbers(c, b, &kn, pn, dn);
    return WINNER_NONE;
}

/* With certificates on, does the claim (w, plies) on b have its
 * certificate in the folder, agreeing with it? 1 yes, 0 no (search
 * again), -1 a disagreement (the run ends: top_fail). */
static int certified(Ctx *c, Board b, Winner w, int plies)
{
    if (!c->certify) return 1;
    char name[JOBRUN_NAME_MAX], why[4600];
    if (plies < 0) jobrun_cert_name(c->r, b, name);
    else jobrun_within_name(c->r, b, w == WINNER_ORDER, plies, name);
    int agrees = within_agrees(&c->tc, b, w, plies, name, why, (int)sizeof why);
    if (agrees == 0) {
        top_fail(c, "store: %s", why);
        return -1;
    }
    return agrees == 1;
}

/* The records' answer for b asking d (normal form q): *w and *wdepth, or
 * WINNER_NONE; -1 when a certificate disagrees (top_fail). */
static int answer(Ctx *c, Board b, int d, int q, const StoreBound *bd, const StoreValue *v, Winner *w, int *wdepth)
{
    /* a no read through the normal form only without certificates (within.h) */
    int noq = c->certify ? d : q;
    int ok;
    if (bd && bd->yes != STORE_BOUND_NONE && bd->yes <= d && (ok = certified(c, b, WINNER_ORDER, bd->yes)) != 0)
        return ok < 0 ? -1 : (*w = WINNER_ORDER, *wdepth = bd->yes, 0);
    if (bd && bd->no != STORE_BOUND_NONE && bd->no >= noq && (ok = certified(c, b, WINNER_CHAOS, bd->no)) != 0)
        return ok < 0 ? -1 : (*w = WINNER_CHAOS, *wdepth = bd->no, 0);
    if (v && v->winner == WINNER_CHAOS && (ok = certified(c, b, WINNER_CHAOS, -1)) != 0)
        return ok < 0 ? -1 : (*w = WINNER_CHAOS, *wdepth = -1, 0);
    if (v && v->winner == WINNER_ORDER && !c->certify) { /* no certificate of its length: not with certificates */
        StoreKey k = {c->r->rules, c->r->n, c->r->k, b};
        StoreBound of;
        store_bound_of_value(&k, v, &of);
        if (of.yes != STORE_BOUND_NONE && of.yes <= d) *w = WINNER_ORDER, *wdepth = of.yes;
        else if (of.no != STORE_BOUND_NONE && of.no >= q) *w = WINNER_CHAOS, *wdepth = of.no;
    }
    return 0;
}

int within_lookup(Ctx *c, Board b, Winner *w, int *wdepth)
{
    *w = WINNER_NONE;
    *wdepth = -1;
    Store *st = c->spec->store;
    if (!st) return 0;
    StoreKey k = {c->r->rules, c->r->n, c->r->k, b};
    StoreBound bd;
    StoreValue v;
    int gb = store_get_bound(st, &k, &bd);
    int gv = gb < 0 ? -1 : store_get(st, &k, &v);
    if (gb < 0 || gv < 0) {
        top_fail(c, "store: %s", store_error(st));
        return -1;
    }
    int d = top_question(c, b), q = within_question(c->r, b, d);
    return answer(c, b, d, q, gb ? &bd : NULL, gv ? &v : NULL, w, wdepth);
}

int within_order_child(const Ctx *c, int i)
{
    const TNode *n = &c->t[i];
    int best = -1;
    for (int j = n->first; j < n->first + n->nchild; j++)
        if (top_value(&c->t[j]) == WINNER_ORDER && (best < 0 || c->t[j].wdepth < c->t[best].wdepth)) best = j;
    return best;
}

int within_tree_depth(const Ctx *c, int i)
{
    const TNode *n = &c->t[i];
    if (top_value(n) != WINNER_ORDER) return top_question(c, n->b);
    if (board_order_to_move(n->b)) return 1 + c->t[within_order_child(c, i)].wdepth;
    int deepest = 0;
    for (int j = n->first; j < n->first + n->nchild; j++)
        if (c->t[j].wdepth > deepest) deepest = c->t[j].wdepth;
    return 1 + deepest;
}

int within_put(Ctx *c, int i)
{
    if (!c->spec->store) return 0;
    const TNode *n = &c->t[i];
    bool yes = top_value(n) == WINNER_ORDER;
    StoreBound b = {.yes = STORE_BOUND_NONE, .no = STORE_BOUND_NONE, .move = MOVE_NONE, .source = STORE_SOURCE_DFPN};
    if (yes) b.yes = n->wdepth;
    else b.no = n->wdepth;
    if (yes && n->state == T_INNER && n->by == BY_TREE && board_order_to_move(n->b))
        b.move = c->t[within_order_child(c, i)].move;
    StoreKey k = {c->r->rules, c->r->n, c->r->k, n->b};
    char msg[300] = "";
    if (store_put_bound(c->spec->store, &k, &b, msg, sizeof msg) == 0) return 0;
    char pos[NOTATION_POS_LEN];
    notation_format_position(n->b, c->r->n, pos);
    top_fail(c, "store: %s: %s", pos, msg[0] ? msg : "put failed");
    return -1;
}
