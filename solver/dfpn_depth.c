/* dfpn_depth.c - see dfpn_depth.h for the question, the table and why
 * each piece of knowledge is sound. The expansion, the children's
 * evaluation and the choice are the shared df-pn kernel's
 * (dfpn_kernel.h), the answers near the leaves bounded.h's; this file is
 * the search itself (mid and what it stores) and the questions' drivers
 * (dfpn_depth_within, dfpn_depth_dtw, the moves). */
#include "dfpn_depth.h"

#include <stdlib.h>

#include "../engine/moves.h"
#include "clock.h"
#include "dfpn_kernel.h"

bool dfpn_depth_supported(const Rules *r) { return r->n <= 7; }

void dfpn_depth_init(DfpnDepth *s, const Rules *r, const Knowledge *kn, TT *tt, const TT *value)
{
    *s = (DfpnDepth){.r = r, .kn = *kn, .tt = tt, .value = value, .epsilon = 0.5, .memo_due = UINT64_MAX};
    dfpn_kernel_center_order(r->n, s->cells_first);
}

/* The kernel's view of this search: the bounded question, facts and
 * tagged numbers, the value table's disproofs, no centre lemma, initial
 * numbers from the number of moves, the children in cell order unless
 * center_first (an order changes work only, never an answer). */
static inline DfpnKernel bounded_kernel(DfpnDepth *s)
{
    return (DfpnKernel){.r = s->r, .kn = &s->kn, .tt = s->tt, .value = s->value, .memo = s->memo,
                        .threats = &s->threats, .chaos_pn_moves = true, .order_dn_moves = true,
                        .cells_first = s->center_first ? s->cells_first : NULL};
}

/* The memos (dfpn_kernel.c) are taken once a call on s has searched
 * DD_MEMO_NODES nodes, and dropped when the outermost public call
 * returns; nested calls (dfpn_depth_dtw's questions, dfpn_depth_best_move's children)
 * share them, since what they remember does not depend on the question.
 * A search that ends sooner goes without: the memos spare repeated tests
 * at the nodes df-pn enters again and again, and taking them (1.3 MB,
 * ~25 us measured) costs as much as a few nodes, which a caller asking
 * many tiny questions (a certificate writer) would pay at each. */
enum { DD_MEMO_NODES = 256 };

static bool call_begin(DfpnDepth *s)
{
    if (s->in_call) return false;
    s->in_call = true;
    s->memo_due = s->nodes + DD_MEMO_NODES;
    return true;
}

static void call_end(DfpnDepth *s, bool outer)
{
    if (!outer) return;
    s->in_call = false;
    s->memo_due = UINT64_MAX;
    free(s->memo);
    s->memo = NULL;
}

static void check_depth_limits(DfpnDepth *s)
{
    double at;
    if (limits_check(&s->lim, s->nodes, &s->next_report, &at)) s->stopped = true;
    if (at > 0 && s->lim.report) limits_report_depth(&s->lim, at - s->started, s->nodes, s->depth, tt_permille(s->tt));
}

/* The depth a proven node's proof reaches: Order's fastest proven child,
 * or Chaos's slowest child (all proven), plus one. */
static int proof_depth(const DfpnChild *ch, int n, bool order)
{
    int best = order ? 1 << 20 : 0;
    for (int i = 0; i < n; i++) {
        if (ch[i].pn != 0) continue;
        if (order ? ch[i].depth < best : ch[i].depth > best) best = ch[i].depth;
    }
    return best + 1;
}

/* Stores what the search of an open node ended with: a fact when decided,
 * else its numbers under the question's tagged key. */
static void store(DfpnDepth *s, Board key, int d, const DfpnChild *self, Move best)
{
    if (self->pn == 0 || self->dn == 0) {
        TTBounds f = {TT_NO_WIN, 0, self->work, self->pn == 0 ? best : MOVE_NONE};
        if (self->pn == 0) f.win = (uint32_t)self->depth;
        else f.nowin = (uint32_t)d;
        tt_store_bounds(s->tt, key, &f);
    } else {
        TTData e = {self->pn, self->dn, self->work, best};
        tt_store(s->tt, dfpn_kernel_tagged(key, d), &e);
    }
}

/* Multiple-iterative deepening at the open position b (question d): search
 * until its numbers reach the thresholds; the result goes to *self (pn, dn,
 * depth of a proof, work). */
static void mid_within(DfpnDepth *s, Board b, Board key, const KnNode *kn, int d, uint32_t pt, uint32_t dt, DfpnChild *self)
{
    DfpnChild ch[MOVES_MAX + 1];
    if (s->nodes >= s->memo_due) { /* once (NULL: none, which costs work only) */
        s->memo_due = UINT64_MAX;
        s->memo = dfpn_kernel_memo_new();
    }
    DfpnKernel k = bounded_kernel(s);
    uint64_t start = s->nodes++;
    check_depth_limits(s);
    bool order = board_order_to_move(b);
    int plies;
    if (order && dfpn_kernel_threat(&k, b, kn, d < s->kn.threat_plies ? d : s->kn.threat_plies, true, &plies)) {
        /* Order's forcing sequence within the question: yes, with the
         * sequence's plies as the proof's depth (dfpn_depth.h); no move is
         * stored (dfpn_depth_proof_move asks the threat search for one). */
        self->pn = 0;
        self->dn = DFPN_INF;
        self->depth = (int8_t)plies;
        self->work = 1;
        store(s, key, d, self, MOVE_NONE);
        return;
    }
    int n = dfpn_kernel_expand(&k, b, kn, d, ch, true);
    DfpnPick p;
    for (;;) {
        p = dfpn_kernel_pick(s->tt, ch, n, order, false);
        self->pn = order ? p.phi1 : p.delta;
        self->dn = order ? p.delta : p.phi1;
        if (self->pn >= pt || self->dn >= dt || self->pn == 0 || self->dn == 0 || s->stopped) break;
        uint32_t phi_t = order ? pt : dt, delta_t = order ? dt : pt;
        DfpnChild *c = &ch[p.bi];
        uint32_t cphi_t, cdelta_t;
        dfpn_child_thresholds(p.phi2, p.delta, order ? c->dn : c->pn, phi_t, delta_t, s->epsilon, &cphi_t,
                              &cdelta_t);
        Board cb = b;
        board_place(&cb, c->move);
        KnNode ckn;
        kn_node(s->r, &s->kn, cb, &ckn);
        if (order) mid_within(s, cb, c->key, &ckn, c->d, cphi_t, (uint32_t)cdelta_t, c);
        else mid_within(s, cb, c->key, &ckn, c->d, (uint32_t)cdelta_t, cphi_t, c);
    }
    self->depth = (int8_t)(self->pn == 0 ? proof_depth(ch, n, order) : 0);
    uint64_t work = s->nodes - start;
    self->work = work > UINT32_MAX ? UINT32_MAX : (uint32_t)work;
    Move best = p.bi >= 0 ? ch[p.bi].move : MOVE_NONE;
    if (self->pn == 0 && order)
        for (int i = 0; i < n; i++)
            if (ch[i].pn == 0 && ch[i].depth + 1 == self->depth) best = ch[i].move;
    store(s, key, d, self, best);
}

static void start_clock(DfpnDepth *s)
{
    if (s->started == 0) {
        s->started = clock_seconds();
        s->next_report = s->started + s->lim.report_every;
    }
}

/* W(b, d) where it needs no search: 1 yes (*proof_depth set), 0 no, -1
 * open; then *kn, *key and *q are the node's, for the search. */
static int answer_known(DfpnDepth *s, Board b, int d, int *proof_depth, KnNode *kn, Board *key, int *q)
{
    Winner st = rules_status(s->r, b);
    if (st != WINNER_NONE) {
        *proof_depth = 0;
        return st == WINNER_ORDER && d >= 0;
    }
    kn_node(s->r, &s->kn, b, kn);
    if (kn->value != WINNER_NONE) {
        *proof_depth = kn->dtw;
        return kn->value == WINNER_ORDER && kn->dtw <= d;
    }
    *q = bounded_question(s->r, &s->kn, b, d);
    if (*q < 0) return 0;
    *key = kn_key(s->r, &s->kn, b, kn->dead);
    DfpnKernel k = bounded_kernel(s);
    return dfpn_kernel_facts(&k, *key, *q, proof_depth);
}

int dfpn_depth_within(DfpnDepth *s, Board b, int d, int *proof_depth_out)
{
    int depth = 0, q;
    if (!proof_depth_out) proof_depth_out = &depth;
    KnNode kn;
    Board key;
    int a = answer_known(s, b, d, proof_depth_out, &kn, &key, &q);
    if (a >= 0) return a;
    DfpnKernel k = bounded_kernel(s);
    if (kn_pairs_may(s->r, &s->kn, kn.nlive) && dfpn_kernel_chaos_pairs(&k, b, key, tt_hash(key), true)) return 0;
    s->stopped = false;
    start_clock(s);
    DfpnChild root = {.key = key, .d = (int8_t)q};
    bool outer = call_begin(s);
    mid_within(s, b, key, &kn, q, DFPN_INF, DFPN_INF, &root);
    call_end(s, outer);
    if (root.pn == 0) {
        *proof_depth_out = root.depth;
        return 1;
    }
    return root.dn == 0 ? 0 : -1;
}

int dfpn_depth_within_switch(DfpnDepth *s, Board b, int d, int *proof_depth, uint64_t after)
{
    if (!after) return dfpn_depth_within(s, b, d, proof_depth);
    SearchLimits keep = s->lim;
    uint64_t at = s->nodes + after;
    bool ours = !keep.node_limit || keep.node_limit > at; /* the switch comes before the caller's limit */
    if (ours) s->lim.node_limit = at;
    int a = dfpn_depth_within(s, b, d, proof_depth);
    s->lim = keep;
    /* Open below `at`: the caller's deadline or interrupt stopped it. */
    if (a >= 0 || !ours || s->nodes < at) return a;
    s->center_first = !s->center_first;
    return dfpn_depth_within(s, b, d, proof_depth);
}

int dfpn_depth_dtw(DfpnDepth *s, Board b)
{
    Winner st = rules_status(s->r, b);
    if (st != WINNER_NONE) return st == WINNER_ORDER ? 0 : -1;
    KnNode kn;
    kn_node(s->r, &s->kn, b, &kn);
    if (kn.value != WINNER_NONE) return kn.value == WINNER_ORDER ? kn.dtw : -1;
    /* W(b, d) = W(b, question(d)), and the first d of each class is its
     * question: so the first yes met is at the least d, the dtw. */
    int e = bounded_empties(s->r, b), last = -1, dtw = -1;
    bool outer = call_begin(s);
    for (int d = 1; d <= e; d++) {
        int q = bounded_question(s->r, &s->kn, b, d);
        if (q < 0 || q == last) continue;
        last = q;
        s->depth = q;
        int a = dfpn_depth_within(s, b, q, NULL);
        if (a != 0) {
            dtw = a < 0 ? -2 : q;
            break;
        }
    }
    call_end(s, outer);
    return dtw;
}

/* The first move of b (cells ascending, X before O) whose child answers
 * W(child, q) with `want`. With search, each child is asked (dfpn_depth_within;
 * MOVE_NONE at once if a limit stops one); without, only what the table
 * and the knowledge answer with no search counts, and an unknown child is
 * passed over. MOVE_NONE when no move qualifies. */
static Move first_move(DfpnDepth *s, Board b, int q, int want, bool search)
{
    for (uint64_t cells = s->r->cells & ~board_occupied(b); cells;) {
        int c = bb_pop(&cells);
        for (int p = 0; p < 2; p++) {
            Move m = move_make(p, c);
            Board cb = b, key;
            board_place(&cb, m);
            KnNode kn;
            int depth, cq;
            int a = search ? dfpn_depth_within(s, cb, q, NULL) : answer_known(s, cb, q, &depth, &kn, &key, &cq);
            if (a < 0 && search) return MOVE_NONE;
            if (a == want) return m;
        }
    }
    return MOVE_NONE;
}

Move dfpn_depth_best_move(DfpnDepth *s, Board b, int dtw)
{
    bool order = board_order_to_move(b), outer = call_begin(s);
    Move m = first_move(s, b, order ? dtw - 1 : dtw - 2, order ? 1 : 0, true);
    call_end(s, outer);
    return m;
}

/* Order's move at a position the bounded search proved by a forcing
 * sequence (mid's threat search, or a node of such a proof): the search
 * stored the fact without a move, and no child's fact, so the threat
 * search is asked again, within the question's plies (and the search's
 * bound, which its proof kept to: a node 2j plies into a proof within L
 * holds one within L - 2j, threats.h). Its move's child is won within
 * d - 1 (threats.h: the proof's depth is at most the bound). MOVE_NONE
 * when it finds none. */
static Move threat_proof_move(DfpnDepth *s, Board b, int d)
{
    if (!board_order_to_move(b) || rules_status(s->r, b) != WINNER_NONE) return MOVE_NONE;
    DfpnKernel k = bounded_kernel(s);
    return dfpn_kernel_threat_move(&k, b, d < s->kn.threat_plies ? d : s->kn.threat_plies);
}

/* The winner's move at b (ongoing, the winner to move: Order with W(b, d)
 * yes, want 1; Chaos with it no, want 0) found by deciding b again from
 * its children: mid_within at b itself, past b's own fact (which
 * dfpn_depth_within would answer from without a search), so df-pn goes
 * to the most promising child first and stores a fact for the child its
 * proof (or disproof) ends on; then that child is taken from the table.
 * Deciding b is the cheaper question: asking the children in cell order
 * (dfpn_depth_best_move, or a Chaos writer's scan) must decide every
 * child of the other answer before the first of the right one, each a
 * full search. MOVE_NONE when the search stopped, ended in a forcing
 * sequence (no child's fact), or its child's fact is gone. */
static Move reprove_move(DfpnDepth *s, Board b, int d, int want)
{
    s->stopped = false; /* from here it tells of this search alone (the caller reads it) */
    KnNode kn;
    kn_node(s->r, &s->kn, b, &kn);
    int q = bounded_question(s->r, &s->kn, b, d);
    if (kn.value != WINNER_NONE || q < 0) return MOVE_NONE;
    Board key = kn_key(s->r, &s->kn, b, kn.dead);
    DfpnChild self = {.key = key, .d = (int8_t)q};
    start_clock(s);
    bool outer = call_begin(s);
    mid_within(s, b, key, &kn, q, DFPN_INF, DFPN_INF, &self);
    call_end(s, outer);
    return (want ? self.pn : self.dn) == 0 ? first_move(s, b, d - 1, want, false) : MOVE_NONE;
}

Move dfpn_depth_disproof_move(DfpnDepth *s, Board b, int d)
{
    if (board_order_to_move(b) || rules_status(s->r, b) != WINNER_NONE) return MOVE_NONE;
    Move m = reprove_move(s, b, d, 0);
    s->moves.reproved += m != MOVE_NONE;
    return m;
}

/* First a child the table (or the knowledge) already answers yes: the
 * search that answered b left facts for the children its proof used, and
 * taking one costs no search. Then Order's forcing sequence, where the
 * search proved b by one. Then b proved again (reprove_move), where the
 * children's facts were lost or b was never searched (a child of a Chaos
 * move the search merged or skipped). Only if none gives a move,
 * dfpn_depth_best_move's, searching child after child.
 *
 * Measured (solve --within 19 --proof, X c3 X d3, 1 GiB table, one
 * thread): dfpn_depth.h, and results/dtw/dtw.md, "The writer's cost, cut". */
Move dfpn_depth_proof_move(DfpnDepth *s, Board b, int d)
{
    Move m = first_move(s, b, d - 1, 1, false);
    if (m != MOVE_NONE) {
        s->moves.known++;
        return m;
    }
    if ((m = threat_proof_move(s, b, d)) != MOVE_NONE) {
        s->moves.threat++;
        return m;
    }
    if ((m = reprove_move(s, b, d, 1)) != MOVE_NONE) {
        s->moves.reproved++;
        return m;
    }
    if (s->stopped) return MOVE_NONE;
    s->moves.searched++;
    return dfpn_depth_best_move(s, b, d);
}
