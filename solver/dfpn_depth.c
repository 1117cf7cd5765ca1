/* dfpn_depth.c - see dfpn_depth.h for the question, the table and why
 * each shortcut is sound. */
#include "dfpn_depth.h"

#include <math.h>

#include "../engine/moves.h"
#include "clock.h"
#include "dfpn.h"

/* A child as its parent sees it. Decided children (exact) need no key;
 * a decided yes carries the depth its proof reaches. */
typedef struct {
    Board key;    /* kn_key: the facts' key (open children) */
    Move move;
    int d;        /* the child's question, normalized (open children) */
    bool exact;   /* decided without the table's numbers */
    int depth;    /* a yes: Order wins within this many plies */
    uint32_t pn, dn, work;
} DdChild;

bool dd_supported(const Rules *r) { return r->n <= 7; }

void dd_init(DfpnDepth *s, const Rules *r, const Knowledge *kn, TT *tt, const TT *value)
{
    *s = (DfpnDepth){.r = r, .kn = *kn, .tt = tt, .value = value, .epsilon = 0.5};
}

static int empties(const Rules *r, Board b) { return __builtin_popcountll(r->cells & ~board_occupied(b)); }

static void check_limits(DfpnDepth *s)
{
    double now = limits_clock_due(&s->lim, s->nodes) ? clock_seconds() : 0;
    if (limits_hit(&s->lim, s->nodes, now)) s->stopped = true;
    if (now > 0 && s->lim.report && s->lim.report_every > 0 && now >= s->next_report) {
        s->next_report = now + s->lim.report_every;
        SearchProgress p = {.seconds = now - s->started, .nodes = s->nodes, .pn = (uint32_t)s->depth,
                            .dn = (uint32_t)s->depth, .tt_permille = tt_permille(s->tt)};
        s->lim.report(&p, s->lim.report_arg);
    }
}

/* The question W(b, d) at an open position (kn_node left it undecided),
 * replaced by the equivalent one of the header's parity argument; -1 when
 * the answer is no without search. Idempotent, and non-decreasing in d. */
static int question(const DfpnDepth *s, Board b, int d)
{
    int e = empties(s->r, b);
    if (d > e) d = e; /* the game lasts at most e more plies */
    if (s->r->rules == RULES_EXACT_END) return d < e ? -1 : d;
    bool order = board_order_to_move(b);
    if (order) d -= !(d & 1);      /* odd dtw only */
    else if (d >= 2) d -= d & 1;   /* 1 or even */
    int least = !s->kn.threats ? 1 : order ? 3 : 4;
    return d < least ? -1 : d;
}

/* The key of an open question's numbers: d + 1 in the O word's row 7. */
static Board tagged(Board key, int d)
{
    key.s[PIECE_O] |= (uint64_t)(d + 1) << 56;
    return key;
}

static void decided(DdChild *c, bool yes, int depth)
{
    c->d = 0;
    c->exact = true;
    c->depth = depth;
    dfpn_numbers(yes ? WINNER_ORDER : WINNER_CHAOS, &c->pn, &c->dn);
}

/* What the facts or the value table say of an open position with key
 * `key` and question q: 1 yes (*depth set), 0 no, -1 nothing. */
static int known(DfpnDepth *s, Board key, int q, int *depth)
{
    TTBounds f;
    if (tt_probe_bounds(s->tt, key, &f)) {
        if (f.win <= (uint32_t)q) {
            *depth = (int)f.win;
            return 1;
        }
        if (f.nowin >= (uint32_t)q) return 0;
    }
    TTData v;
    if (s->value && tt_probe((TT *)s->value, key, &v) && v.dn == 0) return 0; /* Chaos wins */
    return -1;
}

/* Pairing: a Chaos win, stored as a fact for every depth (as alpha-beta
 * does). Asked only where the numbers are unknown: it is the dearest test. */
static bool pairs(DfpnDepth *s, Board b, Board key, int nlive)
{
    if (!kn_pairs_may(s->r, &s->kn, nlive) || !kn_chaos_pairs(s->r, &s->kn, b)) return false;
    TTBounds f = {TT_NO_WIN, TT_NO_WIN - 1, 0, MOVE_NONE};
    tt_store_bounds(s->tt, key, &f);
    return true;
}

/* What a child is without the table (evaluate's first half): decided by
 * the rules, kn_node or the parity bound, or open with its key and
 * question, its buckets prefetched so that the children's cache misses
 * overlap. Returns the open child's number of moves (for its initial
 * numbers), with its live windows in *nlive. */
static int evaluate_static(DfpnDepth *s, Board cb, Move m, int d, DdChild *c, int *nlive)
{
    c->move = m;
    c->work = 0;
    Winner st = rules_status_after(s->r, cb, m);
    if (st != WINNER_NONE) {
        decided(c, st == WINNER_ORDER && d >= 0, 0);
        return 0;
    }
    KnNode kn;
    kn_node(s->r, &s->kn, cb, &kn);
    if (kn.value != WINNER_NONE) {
        decided(c, kn.value == WINNER_ORDER && kn.dtw <= d, kn.dtw);
        return 0;
    }
    int q = question(s, cb, d);
    if (q < 0) {
        decided(c, false, 0);
        return 0;
    }
    c->exact = false;
    c->d = q;
    c->key = kn_key(s->r, &s->kn, cb, kn.dead);
    tt_prefetch(s->tt, c->key);
    tt_prefetch(s->tt, tagged(c->key, q));
    if (s->value) tt_prefetch(s->value, c->key);
    *nlive = kn.nlive;
    return kn.nmoves;
}

/* The second half, for an open child: the facts, the value table, the
 * numbers, a pairing, else initial numbers from its number of moves. */
static void evaluate_table(DfpnDepth *s, Board cb, int nmoves, int nlive, DdChild *c)
{
    int depth = 0, k = known(s, c->key, c->d, &depth);
    if (k >= 0) {
        decided(c, k == 1, depth);
        return;
    }
    TTData e;
    if (tt_probe(s->tt, tagged(c->key, c->d), &e)) {
        c->pn = e.pn;
        c->dn = e.dn;
        c->work = e.work;
    } else if (pairs(s, cb, c->key, nlive)) {
        decided(c, false, 0);
    } else if (board_order_to_move(cb)) {
        c->pn = 1;
        c->dn = (uint32_t)nmoves;
    } else {
        c->pn = (uint32_t)nmoves;
        c->dn = 1;
    }
}

/* The children of b (open, question d): kn_node's moves in ab's order
 * (cells ascending, X, O, then the dead-cell move), each asked d - 1.
 * Children of equal key (symmetric, where keys are canonical) have equal
 * distances and questions: one stands for them. */
static int expand(DfpnDepth *s, Board b, const KnNode *kn, int d, DdChild *ch)
{
    int16_t nmoves[MOVES_MAX + 1], nlive[MOVES_MAX + 1];
    int all = 0;
    for (int p = 0; p < 3; p++) {
        uint64_t cells = p < 2 ? kn->moves[p] : (kn->tempo ? kn->dead & -kn->dead : 0);
        int piece = p < 2 ? p : PIECE_X;
        for (; cells; all++) {
            Move m = move_make(piece, bb_pop(&cells));
            Board cb = b;
            board_place(&cb, m);
            int nl = -1;
            nmoves[all] = (int16_t)evaluate_static(s, cb, m, d - 1, &ch[all], &nl);
            nlive[all] = (int16_t)nl;
        }
    }
    bool dedupe = board_count(b) + 1 <= s->kn.sym_pieces;
    int n = 0;
    for (int i = 0; i < all; i++) {
        DdChild *c = &ch[i];
        bool dup = false;
        for (int j = 0; dedupe && !c->exact && j < n && !dup; j++)
            dup = !ch[j].exact && board_equal(ch[j].key, c->key);
        if (dup) continue;
        if (!c->exact) {
            Board cb = b;
            board_place(&cb, c->move);
            evaluate_table(s, cb, nmoves[i], nlive[i], c);
        }
        if (n != i) ch[n] = *c;
        n++;
    }
    return n;
}

/* phi: the child's number the mover minimises (Order: pn, Chaos: dn);
 * delta: the other, summed (dfpn.h). */
static DfpnPick pick(const DdChild *ch, int n, bool order)
{
    DfpnPick p = dfpn_pick_start();
    for (int i = 0; i < n; i++) dfpn_pick_add(&p, i, order ? ch[i].pn : ch[i].dn, order ? ch[i].dn : ch[i].pn);
    dfpn_pick_end(&p, n);
    return p;
}

/* The depth a proven node's proof reaches: Order's fastest proven child,
 * or Chaos's slowest child (all proven), plus one. */
static int proof_depth(const DdChild *ch, int n, bool order)
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
static void store(DfpnDepth *s, Board key, int d, const DdChild *self, Move best)
{
    if (self->pn == 0 || self->dn == 0) {
        TTBounds f = {TT_NO_WIN, 0, self->work, self->pn == 0 ? best : MOVE_NONE};
        if (self->pn == 0) f.win = (uint32_t)self->depth;
        else f.nowin = (uint32_t)d;
        tt_store_bounds(s->tt, key, &f);
    } else {
        TTData e = {self->pn, self->dn, self->work, best};
        tt_store(s->tt, tagged(key, d), &e);
    }
}

/* Multiple-iterative deepening at the open position b (question d): search
 * until its numbers reach the thresholds; the result goes to *self (pn, dn,
 * depth of a proof, work). */
static void mid(DfpnDepth *s, Board b, Board key, const KnNode *kn, int d, uint32_t pt, uint32_t dt, DdChild *self)
{
    DdChild ch[MOVES_MAX + 1];
    uint64_t start = s->nodes++;
    check_limits(s);
    int n = expand(s, b, kn, d, ch);
    bool order = board_order_to_move(b);
    DfpnPick p;
    for (;;) {
        p = pick(ch, n, order);
        self->pn = order ? p.phi1 : p.delta;
        self->dn = order ? p.delta : p.phi1;
        if (self->pn >= pt || self->dn >= dt || self->pn == 0 || self->dn == 0 || s->stopped) break;
        uint32_t phi_t = order ? pt : dt, delta_t = order ? dt : pt;
        DdChild *c = &ch[p.bi];
        uint32_t cphi_t, cdelta_t;
        dfpn_child_thresholds(p.phi2, p.delta, order ? c->dn : c->pn, phi_t, delta_t, s->epsilon, &cphi_t,
                              &cdelta_t);
        Board cb = b;
        board_place(&cb, c->move);
        KnNode ckn;
        kn_node(s->r, &s->kn, cb, &ckn);
        if (order) mid(s, cb, c->key, &ckn, c->d, cphi_t, (uint32_t)cdelta_t, c);
        else mid(s, cb, c->key, &ckn, c->d, (uint32_t)cdelta_t, cphi_t, c);
    }
    self->depth = self->pn == 0 ? proof_depth(ch, n, order) : 0;
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

int dd_within(DfpnDepth *s, Board b, int d, int *proof_depth_out)
{
    int depth = 0;
    if (!proof_depth_out) proof_depth_out = &depth;
    Winner st = rules_status(s->r, b);
    if (st != WINNER_NONE) {
        *proof_depth_out = 0;
        return st == WINNER_ORDER && d >= 0;
    }
    KnNode kn;
    kn_node(s->r, &s->kn, b, &kn);
    if (kn.value != WINNER_NONE) {
        *proof_depth_out = kn.dtw;
        return kn.value == WINNER_ORDER && kn.dtw <= d;
    }
    int q = question(s, b, d);
    if (q < 0) return 0;
    Board key = kn_key(s->r, &s->kn, b, kn.dead);
    int k = known(s, key, q, proof_depth_out);
    if (k >= 0) return k;
    if (pairs(s, b, key, kn.nlive)) return 0;
    s->stopped = false;
    start_clock(s);
    DdChild root = {.key = key, .d = q};
    mid(s, b, key, &kn, q, DFPN_INF, DFPN_INF, &root);
    if (root.pn == 0) {
        *proof_depth_out = root.depth;
        return 1;
    }
    return root.dn == 0 ? 0 : -1;
}

int dd_dtw(DfpnDepth *s, Board b)
{
    Winner st = rules_status(s->r, b);
    if (st != WINNER_NONE) return st == WINNER_ORDER ? 0 : -1;
    KnNode kn;
    kn_node(s->r, &s->kn, b, &kn);
    if (kn.value != WINNER_NONE) return kn.value == WINNER_ORDER ? kn.dtw : -1;
    /* W(b, d) = W(b, question(d)), and the first d of each class is its
     * question: so the first yes met is at the least d, the dtw. */
    int e = empties(s->r, b), last = -1;
    for (int d = 1; d <= e; d++) {
        int q = question(s, b, d);
        if (q < 0 || q == last) continue;
        last = q;
        s->depth = q;
        int a = dd_within(s, b, q, NULL);
        if (a < 0) return -2;
        if (a == 1) return q;
    }
    return -1;
}

Move dd_best_move(DfpnDepth *s, Board b, int dtw)
{
    bool order = board_order_to_move(b);
    for (uint64_t cells = s->r->cells & ~board_occupied(b); cells;) {
        int c = bb_pop(&cells);
        for (int p = 0; p < 2; p++) {
            Move m = move_make(p, c);
            Board cb = b;
            board_place(&cb, m);
            int a = dd_within(s, cb, order ? dtw - 1 : dtw - 2, NULL);
            if (a < 0) return MOVE_NONE;
            if (a == (order ? 1 : 0)) return m;
        }
    }
    return MOVE_NONE;
}
