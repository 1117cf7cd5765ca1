/* top_leaf.c - the top tree's leaves (top_tree.h): a leaf's expansion
 * (top_expand: every move, symmetric siblings merged, the centre's first,
 * the parent's numbers shared out), and a node's first value (top_init_leaf):
 * decided without a job by the rules and the static knowledge
 * (static_value), by a decided node of the same position (the position
 * map), by the store, or by the centre lemma one ply down when the node
 * resumes a journal's job (resumed_by_lemma); otherwise a leaf to run,
 * with df-pn's first numbers or a past run's. Soundness: each way is a
 * decision of the rules, of a lemma argued in solver/, of a stored record
 * (exact keys, and backed by its certificate when certificates are on)
 * or of a node already decided; the numbers only choose work. In bounded
 * mode (within.h) within_static and within_lookup stand for static_value
 * and the store's lookup, and a resumed node is not probed by the lemma
 * (which says nothing of distance). */
#include "top_tree.h"

#include <stdlib.h>

#include "../engine/moves.h"
#include "../engine/symmetry.h"
#include "../solver/centre_half.h"
#include "../solver/centre_ring.h"
#include "../solver/knowledge.h"
#include "within.h"

/* Winner from the store, WINNER_NONE if absent (or, with certificates on,
 * stored without its certificate); -1 on a store error. */
static int lookup(Coordinator *c, Board b, Winner *w)
{
    *w = WINNER_NONE;
    if (!c->spec->store) return 0;
    StoreKey k = {c->r->rules, c->r->n, c->r->k, b};
    StoreValue v;
    int rc = store_get(c->spec->store, &k, &v);
    if (rc < 0) {
        top_fail(c, "store: %s", store_error(c->spec->store));
        return -1;
    }
    if (rc != 1) return 0;
    if (c->certify && !topcert_have(&c->tc, b)) {
        /* certs_later: the record counts; its certificate is made at the
         * end if the proof needs it (top_regen.c) */
        if (c->spec->certs_later) *w = v.winner;
        return 0;
    }
    char why[4600];
    int agrees = c->certify ? topcert_agrees(&c->tc, b, v.winner, why, (int)sizeof why) : 1;
    if (agrees == 0) {
        top_fail(c, "store: %s", why);
        return -1;
    }
    if (agrees == 1) *w = v.winner;
    return 0;
}

/* Decided without search? *over: the game has ended. Also the leaf's
 * initial numbers (df-pn's: 1 and the number of moves). */
static Winner static_value(Coordinator *c, Board b, uint32_t *pn, uint32_t *dn)
{
    *pn = *dn = 1;
    Winner st = rules_status(c->r, b);
    if (st != WINNER_NONE) return st;
    KnNode kn;
    kn_node(c->r, &c->cfg.kn, b, &kn);
    if (kn.value != WINNER_NONE) return kn.value;
    if (centre_win_with_half(&c->centre, b, c->spec->interrupt, c->deadline)) return WINNER_ORDER;
    if (centre_ring_chaos(&c->centre, c->r, b, NULL, c->spec->interrupt, c->deadline)) return WINNER_CHAOS;
    if (kn_chaos_pairs(c->r, &c->cfg.kn, b)) return WINNER_CHAOS;
    uint32_t moves = kn.nmoves > 0 ? (uint32_t)kn.nmoves : 1;
    if (board_order_to_move(b)) {
        if (c->cfg.order_dn_moves) *dn = moves;
    } else if (c->cfg.chaos_pn_moves) {
        *pn = moves;
    }
    return WINNER_NONE;
}

/* Bounded: b's answer from the store (within_lookup), the records backed
 * by their certificates when certificates are on, but for certs_at_end
 * (the certificates the proof needs are made at the end); -1 (top_fail). */
static int lookup_bound(Coordinator *c, Board b, Winner *w, int *wdepth)
{
    char msg[4700];
    const TopCert *tc = top_certify_now(c) ? &c->tc : NULL;
    if (within_lookup(c->spec->store, tc, c->r, b, top_question(c, b), w, wdepth, msg,
                      (int)sizeof msg) == 0)
        return 0;
    top_fail(c, "%s", msg);
    return -1;
}

/* A node resumed from the journal with Order to move, probed one ply deep
 * by the centre lemma in every form (centre_half.h): 1 when a child is an
 * Order win by it (node i is then decided for Order, its move kept as
 * TNode.win, and the child stored as the lemma's), 0 when none is (or the
 * half-pair form is off), -1 on a store error (top_fail). Why: a
 * journal's numbers come from jobs that ran before the knowledge that now
 * decides the node one ply down; resumed, such a node keeps its big
 * budget and numbers, and with spec->reply_by_work the workers stay on the
 * costliest replies, so it may wait for hours for the job that would take
 * it in seconds (exact X a1: 8 of its 11 open replies were lemma wins one
 * ply down, results/openings/exact-Xa1/). Only resumed nodes are probed:
 * a new leaf's first job, with the same knowledge, finds the lemma at
 * once. Sound as the lemma is: the child is the lemma's win, so Order
 * wins by moving there; the certificate re-proves the node at the end
 * (top_regen.c) and the verifier checks the lemma line itself. */
static int resumed_by_lemma(Coordinator *c, int i)
{
    Board b = c->t[i].b;
    if (!board_order_to_move(b) || c->centre.half_max_pieces <= 0) return 0;
    MoveList ml;
    moves_generate(b, c->r->cells, &ml);
    for (int m = 0; m < ml.count; m++) {
        Board cb = b;
        board_place(&cb, ml.m[m]);
        if (rules_status(c->r, cb) != WINNER_NONE ||
            !centre_win_with_half(&c->centre, cb, c->spec->interrupt, c->deadline))
            continue;
        if (top_put(c, cb, WINNER_ORDER, MOVE_NONE, STORE_SOURCE_LEMMA) != 0) return -1;
        c->t[i].win = ml.m[m];
        top_set_value(c, i, WINNER_ORDER, BY_STATIC, 0);
        c->out->static_decided++;
        return 1;
    }
    return 0;
}

/* Gives node i (a new leaf, the root or a child) its first value: static,
 * a decided node of the same position, stored, or a leaf to run. */
int top_init_leaf(Coordinator *c, int i)
{
    uint32_t pn, dn;
    int wdepth = 0;
    Board b = c->t[i].b;
    Winner w = c->bounded ? within_static(c->r, &c->cfg, b, top_question(c, b), &pn, &dn, &wdepth)
                          : static_value(c, b, &pn, &dn);
    if (w != WINNER_NONE) {
        if (c->bounded && w == WINNER_CHAOS) wdepth = top_question(c, c->t[i].b);
        top_set_value(c, i, w, BY_STATIC, wdepth);
        c->out->static_decided++;
        return 0;
    }
    int twin = top_map_add(c, i);
    if (c->failed) return -1;
    if (twin >= 0 && top_decided(&c->t[twin])) {
        top_set_value(c, i, top_value(&c->t[twin]), BY_TWIN, c->t[twin].wdepth);
        c->out->twin_hits++;
        return 0;
    }
    if ((c->bounded ? lookup_bound(c, b, &w, &wdepth) : lookup(c, b, &w)) != 0) return -1;
    if (w != WINNER_NONE) {
        top_set_value(c, i, w, BY_STORE, wdepth);
        c->out->store_hits++;
        return 0;
    }
    TNode *n = &c->t[i];
    JournalEntry e;
    if (c->spec->journal && journal_get(c->spec->journal, n->b, &e)) {
        int by_lemma = c->bounded ? 0 : resumed_by_lemma(c, i);
        if (by_lemma != 0) return by_lemma < 0 ? -1 : 0;
        /* A past run's job ended undecided here: as if it had just run
         * (top_apply), so next_leaf gives it a bigger budget or expands it. */
        n->state = T_RAN;
        n->pn = e.pn;
        n->dn = e.dn;
        n->budget = e.budget;
        n->avail = true;
        c->out->journal_hits++;
        return 0;
    }
    n->state = T_NEW;
    n->pn = pn;
    n->dn = dn;
    n->avail = true;
    c->queued++;
    return 0;
}

/* Twice a cell's distance from the board's centre (rows plus columns). */
static int centre_distance(int n, Move m)
{
    int cell = move_cell(m), r = cell / 8, col = cell % 8;
    return abs(2 * r - (n - 1)) + abs(2 * col - (n - 1));
}

/* Orders moves centre first (a stable insertion sort: X before O, then by
 * cell). Only the order of the top tree's children changes, which breaks
 * ties in selection: never a value. */
static void centre_first(int n, MoveList *ml)
{
    for (int i = 1; i < ml->count; i++) {
        Move m = ml->m[i];
        int d = centre_distance(n, m), j = i;
        for (; j > 0 && centre_distance(n, ml->m[j - 1]) > d; j--) ml->m[j] = ml->m[j - 1];
        ml->m[j] = m;
    }
}

/* New leaves under node i, which had run a job that left it at ppn/pdn,
 * start from numbers that give i the same numbers again: at an OR node
 * each gets pn = ppn and an equal share of pdn, at an AND node an equal
 * share of ppn and dn = pdn. Without this, fresh leaves (pn 1) look far
 * cheaper than any leaf whose job has run, and the selection would run
 * every new leaf in the tree before going deeper anywhere (breadth first
 * over hundreds of opening positions). Selection only: never a value. */
static void inherit(Coordinator *c, int i, uint32_t ppn, uint32_t pdn)
{
    const TNode *n = &c->t[i];
    uint32_t fresh = 0;
    for (int j = n->first; j < n->first + n->nchild; j++) fresh += c->t[j].state == T_NEW && !top_decided(&c->t[j]);
    if (fresh == 0 || ppn == 0 || pdn == 0 || ppn >= DFPN_INF || pdn >= DFPN_INF) return;
    bool isor = board_order_to_move(n->b);
    for (int j = n->first; j < n->first + n->nchild; j++) {
        TNode *ch = &c->t[j];
        if (ch->state != T_NEW || top_decided(ch)) continue;
        uint32_t share = (isor ? pdn : ppn) / fresh;
        ch->pn = isor ? ppn : (share ? share : 1);
        ch->dn = isor ? (share ? share : 1) : pdn;
    }
}

/* Expands leaf i one ply: every legal move, symmetric siblings merged. */
int top_expand(Coordinator *c, int i)
{
    Board b = c->t[i].b;
    MoveList ml;
    moves_generate(b, c->r->cells, &ml);
    centre_first(c->r->n, &ml);
    Board canon[MOVES_MAX];
    int first = -1, count = 0;
    for (int m = 0; m < ml.count; m++) {
        Board cb = b;
        board_place(&cb, ml.m[m]);
        Board cf = sym_canonical(cb, c->r->n, NULL);
        bool dup = false;
        for (int j = 0; j < count && !dup; j++) dup = board_equal(canon[j], cf);
        if (dup) continue;
        canon[count] = cf;
        int id = top_new_node(c);
        if (id < 0) return -1;
        if (first < 0) first = id;
        c->t[id].b = cb;
        c->t[id].move = ml.m[m];
        c->t[id].parent = i;
        c->t[id].depth = (uint8_t)(c->t[i].depth + 1);
        count++;
    }
    TNode *n = &c->t[i];
    bool ran = n->state == T_RAN;
    uint32_t ppn = n->pn, pdn = n->dn;
    n->state = T_INNER;
    n->first = first;
    n->nchild = count;
    c->out->expansions++;
    for (int j = first; j < first + count; j++)
        if (top_init_leaf(c, j) != 0) return -1;
    if (ran) inherit(c, i, ppn, pdn);
    return top_expanded(c, i);
}
