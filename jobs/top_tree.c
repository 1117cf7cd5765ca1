/* top_tree.c - the top tree of the job-level search (top_tree.h): the
 * store's records, nodes and their position map, and propagation (a
 * leaf's first value and its expansion: top_leaf.c; choosing the next leaf: top_select.c;
 * a job's outcome: top_apply.c). Soundness: values enter the tree only as
 * decisions of the rules and the lemmas (top_leaf.c), the store (exact
 * keys), a job (its own df-pn, certified when certificates are on) or the
 * children; the expected outcomes (expect_of) and the numbers only choose
 * work. In bounded mode (within.h) the same holds of the bounded
 * question: a job is a bounded one, and every decided node carries the
 * depth of its proof (or its certificate's horizon). */
#include "top_tree.h"
#include "top_sibling.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/moves.h"
#include "../engine/symmetry.h"
#include "../solver/centre_half.h"
#include "../solver/knowledge.h"
#include "job_log.h"
#include "within.h"

void top_fail(Coordinator *c, const char *fmt, ...)
{
    if (c->failed) return;
    c->failed = true;
    va_list ap;
    va_start(ap, fmt);
    if (c->err && c->errlen > 0) vsnprintf(c->err, (size_t)c->errlen, fmt, ap);
    va_end(ap);
}


/* ---------------- the store ---------------- */

int top_put(Coordinator *c, Board b, Winner w, Move m, int source)
{
    if (!c->spec->store) return 0;
    StoreKey k = {c->r->rules, c->r->n, c->r->k, b};
    StoreValue v = {.winner = w, .move = m, .dtw = STORE_DTW_UNKNOWN, .source = (uint8_t)source};
    char msg[256] = "";
    int rc = store_put(c->spec->store, &k, &v, msg, sizeof msg);
    if (rc == 0) return 0;
    top_fail(c, "store: %s", msg[0] ? msg : "put failed");
    return -1;
}

/* ---------------- the top tree ---------------- */

int top_new_node(Coordinator *c)
{
    if (c->nt == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 1024;
        TNode *t = realloc(c->t, cap * sizeof *t);
        if (!t) {
            top_fail(c, "out of memory for the top tree (%zu nodes)", c->nt);
            return -1;
        }
        c->t = t;
        c->cap = cap;
    }
    c->t[c->nt] = (TNode){.move = MOVE_NONE, .win = MOVE_NONE, .parent = -1, .first = -1, .twin = -1, .focus = -1, .budget = c->job_nodes};
    return (int)c->nt++;
}

static size_t tree_slot(const Coordinator *c, Board key)
{
    uint64_t h = (key.s[0] * 0x9E3779B97F4A7C15ULL) ^ (key.s[1] * 0xC2B2AE3D27D4EB4FULL);
    size_t i = (size_t)(h >> 17) & (c->map_cap - 1);
    while (c->map[i].node >= 0 && !board_equal(c->map[i].key, key)) i = (i + 1) & (c->map_cap - 1);
    return i;
}

static int map_grow(Coordinator *c)
{
    size_t old = c->map_cap;
    Slot *om = c->map;
    c->map_cap = old ? 2 * old : 4096;
    c->map = malloc(c->map_cap * sizeof *c->map);
    if (!c->map) {
        c->map = om;
        c->map_cap = old;
        top_fail(c, "out of memory for the top tree's position map");
        return -1;
    }
    for (size_t i = 0; i < c->map_cap; i++) c->map[i].node = -1;
    for (size_t i = 0; i < old; i++)
        if (om[i].node >= 0) c->map[tree_slot(c, om[i].key)] = om[i];
    free(om);
    return 0;
}

/* Chains node i to the other nodes of its position; returns the chain's
 * first other node, -1 if i is the first (or on failure). */
int top_map_add(Coordinator *c, int i)
{
    if (2 * (c->nt + 1) > c->map_cap && map_grow(c) != 0) return -1;
    Board key = sym_canonical(c->t[i].b, c->r->n, NULL);
    size_t s = tree_slot(c, key);
    if (c->map[s].node < 0) {
        c->map[s] = (Slot){key, i};
        return -1;
    }
    int head = c->map[s].node;
    c->t[i].twin = c->t[head].twin;
    c->t[head].twin = i;
    return head;
}

void top_push(Coordinator *c, int i)
{
    if (c->nq == c->qcap) {
        size_t cap = c->qcap ? 2 * c->qcap : 256;
        int *q = realloc(c->queue, cap * sizeof *q);
        if (!q) {
            top_fail(c, "out of memory");
            return;
        }
        c->queue = q;
        c->qcap = cap;
    }
    c->queue[c->nq++] = i;
}

void top_set_value(Coordinator *c, int i, Winner w, int by, int wdepth)
{
    TNode *n = &c->t[i];
    dfpn_numbers(w, &n->pn, &n->dn);
    n->wdepth = (int8_t)wdepth;
    n->avail = n->vavail = false;
    n->by = (uint8_t)by;
    if (w == WINNER_ORDER) c->proven++;
    else c->disproven++;
    top_push(c, i);
}

Winner top_majority(const Coordinator *c)
{
    uint64_t o = c->job_wins[WINNER_ORDER], x = c->job_wins[WINNER_CHAOS];
    return o > x ? WINNER_ORDER : x > o ? WINNER_CHAOS : WINNER_NONE;
}

/* Expected outcomes, for choosing work for a second worker while one is
 * busy (selection only, never a value). A running job's leaf is expected
 * to end the way its numbers lean (pn <= dn: Order); an inner node is
 * expected won by the side to move when one child is, by the other side
 * when every child is. A node so expected is not worth a second worker
 * now: if the job ends as expected, the node needs nothing more; without
 * this, the second worker took the next-best sibling of the busy leaf at
 * an OR node, work that only counts if the first job fails (the
 * "virtual win" policy of job-level proof-number search, Wu et al.).
 *
 * spec->expect_majority: every running job is expected to end as most
 * decided jobs of the run have (the lean until the first decision). A
 * job's numbers lean the wrong way in this game (107 of 2 206 undecided
 * jobs on X c3's replies had pn <= dn, though Order wins them all), so by
 * the lean a running job seldom settles its reply, and the second worker
 * searches the same reply's other Order moves; the majority rule stops
 * that (2-11 M nodes against 182-198 M after the first pass) but three
 * runs took 690.6, 836.9 and 959.4 s against the lean's 720.0, 693.5 and
 * 756.3 s (results/jobs/jobs-efficiency.md): an option, not the default. */
static Winner expect_of(const Coordinator *c, const TNode *n)
{
    if (top_decided(n)) return top_value(n);
    if (n->state == T_INNER) return (Winner)n->expect;
    if (n->state != T_BUSY) return WINNER_NONE;
    Winner m = c->spec->expect_majority ? top_majority(c) : WINNER_NONE;
    if (m != WINNER_NONE) return m;
    return n->pn <= n->dn ? WINNER_ORDER : WINNER_CHAOS;
}

/* Numbers, availability and expectation of an inner node from its children. */
static void recompute(Coordinator *c, int i)
{
    TNode *n = &c->t[i];
    bool isor = board_order_to_move(n->b);
    Winner mover = isor ? WINNER_ORDER : WINNER_CHAOS, other = isor ? WINNER_CHAOS : WINNER_ORDER;
    uint32_t mn = DFPN_INF, sum = 0;
    bool avail = false, vavail = false, some = false, all = true;
    for (int j = n->first; j < n->first + n->nchild; j++) {
        const TNode *ch = &c->t[j];
        uint32_t a = isor ? ch->pn : ch->dn, s = isor ? ch->dn : ch->pn;
        if (a < mn) mn = a;
        sum = dfpn_sat_add(sum, s);
        avail |= ch->avail;
        vavail |= top_vavail(ch);
        Winner e = expect_of(c, ch);
        some |= e == mover;
        all &= e == other;
    }
    n->pn = isor ? mn : sum;
    n->dn = isor ? sum : mn;
    n->avail = avail && !top_decided(n);
    n->expect = (uint8_t)(some ? mover : all ? other : WINNER_NONE);
    n->vavail = n->avail && vavail && n->expect == WINNER_NONE;
}

/* For a decided inner node: a child decided its way, the winning move's
 * child when the winner is to move (else the first). */
static int winning_child(const Coordinator *c, const TNode *n, Winner w)
{
    for (int j = n->first; j < n->first + n->nchild; j++)
        if (top_value(&c->t[j]) == w) return j;
    return -1;
}

/* Bounded (within.h): the child of decided inner node i that a yes at an
 * Order node follows: the yes child of least depth; -1 otherwise. */
static int order_child(const Coordinator *c, int i)
{
    const TNode *n = &c->t[i];
    int best = -1;
    for (int j = n->first; j < n->first + n->nchild; j++)
        if (top_value(&c->t[j]) == WINNER_ORDER && (best < 0 || c->t[j].wdepth < c->t[best].wdepth)) best = j;
    return best;
}

/* Bounded: the depth of decided inner node i's proof when yes (1 + its
 * chosen child's, Order to move, or 1 + its deepest child's), else its
 * question: its TNode.wdepth. */
static int tree_depth(const Coordinator *c, int i)
{
    const TNode *n = &c->t[i];
    if (top_value(n) != WINNER_ORDER) return top_question(c, n->b);
    if (board_order_to_move(n->b)) return 1 + c->t[order_child(c, i)].wdepth;
    int deepest = 0;
    for (int j = n->first; j < n->first + n->nchild; j++)
        if (c->t[j].wdepth > deepest) deepest = c->t[j].wdepth;
    return 1 + deepest;
}

int top_proof_children(const Coordinator *c, int i, int kids[MOVES_MAX])
{
    const TNode *n = &c->t[i];
    Winner w = top_value(n);
    bool mover = board_order_to_move(n->b) == (w == WINNER_ORDER);
    if (mover && c->bounded && w == WINNER_ORDER) { /* the proof of least depth (within.h) */
        kids[0] = order_child(c, i);
        return 1;
    }
    int nk = 0;
    for (int j = n->first; j < n->first + n->nchild; j++) {
        if (mover && top_value(&c->t[j]) != w) continue;
        kids[nk++] = j;
        if (mover) break;
    }
    return nk;
}

/* The certificate of decided inner node i, from its children's. */
int top_certify_inner(Coordinator *c, int i, const char *path, const char *prefix)
{
    const TNode *n = &c->t[i];
    Winner w = top_value(n);
    Board kids[MOVES_MAX];
    Move moves[MOVES_MAX];
    int idx[MOVES_MAX], depths[MOVES_MAX], nk = top_proof_children(c, i, idx);
    for (int k = 0; k < nk; k++) {
        kids[k] = c->t[idx[k]].b;
        moves[k] = c->t[idx[k]].move;
        depths[k] = c->t[idx[k]].wdepth;
    }
    if (c->bounded) { /* within.h, Certificates */
        if (within_node(&c->tc, n->b, w, n->wdepth, top_question(c, n->b), kids, moves, depths, nk, path, prefix,
                        c->err, c->errlen) != 0)
            return c->failed = true, -1;
        if (!c->tc.plan) c->out->cert_files++; /* a dry run (within_prepare) writes none */
        return 0;
    }
    for (int k = 0; k < nk; k++)
        if (topcert_ensure(&c->tc, kids[k], w, c->err, c->errlen) != 0) return c->failed = true, -1;
    if (topcert_node(&c->tc, n->b, w, kids, moves, nk, path, prefix, c->err, c->errlen) != 0)
        return c->failed = true, -1;
    c->out->cert_files++;
    return 0;
}

/* Bounded: decided node i as a bound record (within_put), with the move of
 * an Order node's proof when the tree decided it. */
static int put_bound(Coordinator *c, int i)
{
    const TNode *n = &c->t[i];
    Winner w = top_value(n);
    Move m = w == WINNER_ORDER && n->state == T_INNER && n->by == BY_TREE && board_order_to_move(n->b)
                 ? c->t[order_child(c, i)].move
                 : MOVE_NONE;
    char msg[512];
    if (within_put(c->spec->store, c->r, n->b, w, n->wdepth, m, msg, (int)sizeof msg) == 0) return 0;
    top_fail(c, "%s", msg);
    return -1;
}

/* Decided node i decides its siblings by transposition (top_sibling.c). */
static int siblings(Coordinator *c, int i)
{
    int js[MOVES_MAX];
    Move rs[MOVES_MAX];
    int k = top_siblings(c, i, js, rs);
    for (int t = 0; t < k; t++) {
        c->t[js[t]].win = rs[t];
        top_set_value(c, js[t], top_value(&c->t[i]), BY_SIBLING, 0);
        c->out->sibling_hits++;
    }
    return k < 0 ? -1 : 0;
}

/* What a decision of node i entails once: the store, the certificate, and
 * the other nodes of the same position. */
static int announce(Coordinator *c, int i)
{
    TNode *n = &c->t[i];
    n->announced = true;
    Winner w = top_value(n);
    int by = n->by;
    if (c->bounded) {
        /* the certificate first, as below; jobs' and tree nodes' decisions stored (within.h) */
        if (by == BY_TREE && top_certify_now(c) && top_certify_inner(c, i, NULL, NULL) != 0) return -1;
        if ((by == BY_TREE || by == BY_JOB) && put_bound(c, i) != 0) return -1;
    } else if (by == BY_TREE) {
        int j = winning_child(c, n, w);
        Move m = j >= 0 && board_order_to_move(n->b) == (w == WINNER_ORDER) ? c->t[j].move : MOVE_NONE;
        /* the certificate first: a run killed between the two then finds
         * a certificate without a record (harmless), never the reverse */
        if (top_certify_now(c) && top_certify_inner(c, i, NULL, NULL) != 0) return -1;
        if (top_put(c, c->t[i].b, w, m, STORE_SOURCE_DFPN) != 0) return -1;
        c->t[i].win = m;
        if (siblings(c, i) != 0) return -1;
    } else if (by == BY_JOB) {
        if (top_put(c, n->b, w, MOVE_NONE, STORE_SOURCE_DFPN) != 0) return -1;
        if (siblings(c, i) != 0) return -1;
    } else if (by == BY_SIBLING) { /* its certificate is written (top_sibling.c) */
        if (top_put(c, n->b, w, n->win, STORE_SOURCE_DFPN) != 0) return -1;
    } else if (by == BY_STATIC && rules_status(c->r, n->b) == WINNER_NONE) {
        /* a lemma here, or one ply down by n->win (resumed_by_lemma): the
         * source is a label for people; the certificate re-proves it */
        if (top_put(c, n->b, w, n->win, STORE_SOURCE_LEMMA) != 0) return -1;
    }
    for (int j = c->t[i].twin; j >= 0 && j != i; j = c->t[j].twin) {
        if (top_decided(&c->t[j])) continue;
        top_set_value(c, j, w, BY_TWIN, c->t[i].wdepth);
        c->out->twin_hits++;
    }
    return 0;
}

/* Inner node i has just become decided by its children: counted, and
 * (bounded) given its proof's depth, while its children are as they
 * decided it. */
static void tree_decided(Coordinator *c, int i)
{
    c->t[i].by = BY_TREE;
    if (top_value(&c->t[i]) == WINNER_ORDER) c->proven++;
    else c->disproven++;
    if (c->bounded) c->t[i].wdepth = (int8_t)tree_depth(c, i);
}

/* Propagates every queued node: announces decisions, and recomputes the
 * ancestors up to the first decided one (a decided node never changes). */
int top_settle(Coordinator *c)
{
    while (c->nq > 0 && !c->failed) {
        int i = c->queue[--c->nq];
        if (top_decided(&c->t[i]) && !c->t[i].announced && announce(c, i) != 0) return -1;
        for (int p = c->t[i].parent; p >= 0; p = c->t[p].parent) {
            if (top_decided(&c->t[p])) break;
            recompute(c, p);
            c->backup_steps++;
            if (top_decided(&c->t[p])) {
                tree_decided(c, p);
                top_push(c, p);
                break;
            }
        }
    }
    return c->failed ? -1 : 0;
}

int top_expanded(Coordinator *c, int i)
{
    recompute(c, i);
    if (top_decided(&c->t[i])) tree_decided(c, i);
    top_push(c, i);
    return top_settle(c);
}

bool top_under_decided(const Coordinator *c, int i)
{
    for (; i >= 0; i = c->t[i].parent)
        if (top_decided(&c->t[i])) return true;
    return false;
}
