/* dfpn_depth.c - see dfpn_depth.h for the question, the table and why
 * each shortcut is sound. */
#include "dfpn_depth.h"

#include <math.h>
#include <string.h>

#include "../engine/moves.h"
#include "clock.h"
#include "dedupe.h"
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

/* The q = 3 leaves: Order to move at an open position asked "within 3
 * plies?". With the fours knowledge on and a four-based rule set (original,
 * exact), kn_node left it open, so no four stands (dtw >= 3), and the
 * search would answer yes iff some Order move leaves a Chaos position that
 * kn_node decides for Order (no safe Chaos move: zugzwang, dtw 1 or 2), since
 * any other child is asked 2 plies with a safe move and so is no (question).
 * Only two kinds of Order move can do that:
 *   - a four-maker (c in maker[S] for the move (c, S)): tried one by one;
 *   - any other move (c, S) leaves no four (knowledge.h: with no four on
 *     the board only a maker makes one) and then a safe Chaos reply exists
 *     whenever some empty cell c' != c is no maker for the other symbol T in
 *     b: an S on c only kills T's windows through c, so T's live windows
 *     (hence T's makers) after it are a subset of those in b, and T on c'
 *     then completes nothing (no four) and makes no four. So when each
 *     symbol has two non-maker empty cells, no such move wins in 3, and only
 *     the makers are tried; otherwise every move is (as the search would).
 * The answer is thus the search's, in one scan plus one kn_node per maker
 * instead of a node with a kn_node per move and its table entries. */
static bool leaf3_applies(const DfpnDepth *s) { return s->kn.threats && s->r->rules != RULES_EXACT_END; }

/* Under original, what kn_node would say of the Chaos position after the
 * four-maker (c, S) from an open b (no four, Order to move), without
 * playing it: does Chaos then have no safe move? The move's fours are the
 * windows through c live for S with two empty cells (c and one more); no
 * other four exists (b had none, and T = the other symbol gains nothing).
 *   - Two or more distinct four cells: a Chaos piece on one leaves another
 *     (S on it completes a line), so no move is safe.
 *   - One, f: Chaos's only candidate is T on f (kn_node's, and S there
 *     completes the line); it completes nothing (T had no four and gains
 *     nothing from S on c) and kills every four of S (all have f as their
 *     empty cell; under original a T in a window kills it), so it is unsafe
 *     exactly when it makes a four of T: when f lies in a window live for T
 *     with two empty cells, not through c (those hold S now).
 * (The board is not full after T on f: the question asked 3 plies of b, so
 * b has at least 3 empty cells.) Chaos with no safe move loses within 2
 * plies (kn_node's zugzwang), so Order wins within 3. */
static inline bool maker_wins(const Rules *r, uint64_t me, uint64_t other, uint64_t empty, int c)
{
    uint64_t cbit = 1ULL << c, four = 0;
    for (int i = 0; i < r->cell_nwin[c]; i++) {
        uint64_t w = r->cell_win[c][i];
        if ((w & other) == 0 && __builtin_popcountll(w & empty) == 2) four |= w & empty;
    }
    four &= ~cbit;
    if (four & (four - 1)) return true;
    if (four == 0) return false; /* not a maker: no four, a safe move exists (see wins_in_3) */
    int f = __builtin_ctzll(four);
    for (int i = 0; i < r->cell_nwin[f]; i++) {
        uint64_t w = r->cell_win[f][i];
        if ((w & (cbit | me)) == 0 && __builtin_popcountll(w & empty) == 2) return true;
    }
    return false;
}

/* Does Order (to move at the open b, kn its kn_node) win within 3 plies?
 * *depth gets the depth of the win found (parity makes it 3). */
static bool wins_in_3(const DfpnDepth *s, Board b, const KnNode *kn, int *depth)
{
    RulesScan sc = rules_scan(s->r, b.s[PIECE_X], b.s[PIECE_O]);
    uint64_t empty = s->r->cells & ~board_occupied(b);
    bool makers_only = __builtin_popcountll(empty & ~sc.maker[PIECE_X]) >= 2 &&
                       __builtin_popcountll(empty & ~sc.maker[PIECE_O]) >= 2;
    if (makers_only && s->r->rules == RULES_ORIGINAL) {
        /* Parity (header): Chaos's zugzwang after an Order move that
         * completes nothing lasts 2 plies, so the win is in 3. */
        *depth = 3;
        for (int p = 0; p < 2; p++)
            for (uint64_t cells = kn->moves[p] & sc.maker[p]; cells;)
                if (maker_wins(s->r, b.s[p], b.s[p ^ 1], empty, bb_pop(&cells))) return true;
        return false;
    }
    for (int p = 0; p < 3; p++) {
        uint64_t cells = p < 2 ? kn->moves[p] & (makers_only ? sc.maker[p] : ~0ULL)
                               : (kn->tempo && !makers_only ? kn->dead & -kn->dead : 0);
        while (cells) {
            Move m = move_make(p < 2 ? p : PIECE_X, bb_pop(&cells));
            Board cb = b;
            board_place(&cb, m);
            Winner st = rules_status_after(s->r, cb, m);
            if (st != WINNER_NONE) {
                if (st == WINNER_ORDER) return *depth = 1, true;
                continue;
            }
            KnNode ckn;
            kn_node(s->r, &s->kn, cb, &ckn);
            if (ckn.value == WINNER_ORDER && ckn.dtw <= 2) return *depth = ckn.dtw + 1, true;
        }
    }
    return false;
}

/* The q = 4 nodes: Chaos to move at an open position asked "within 4
 * plies?". Each child is asked 3 plies with Order to move, and every such
 * question is decided by evaluate_static (the rules, kn_node, question's
 * bounds, or wins_in_3 above), so one expansion decides the node (expand
 * stops at the first child that is no): its numbers are never stored, so
 * they are not looked for, and a pairing (which would only say no, a fact
 * the expansion finds too) is not worth its test there. Neither changes
 * an answer: numbers only steer, and a skipped pairing costs work only. */
static bool leaf4(const DfpnDepth *s, Board b, int q) { return q == 4 && !board_order_to_move(b) && leaf3_applies(s); }

static int evaluate_static(DfpnDepth *s, const KnKeyBase *base, Board cb, Move m, int d, DdChild *c, int *nlive);

/* A 4-ply question with Chaos to move (leaf4) is no as soon as one Chaos
 * move's child is no. Tried first, statically, on expand's first move (the
 * one the node's expansion would stop at if it is no): most such questions
 * end there, without a node or a table entry; otherwise the node is left
 * open and searched as before. */
static bool refuted_at_once(DfpnDepth *s, Board b, const KnNode *kn)
{
    int piece = kn->moves[PIECE_X] ? PIECE_X : PIECE_O;
    uint64_t cells = kn->moves[piece];
    if (!cells) {
        if (!kn->tempo) return false;
        cells = kn->dead;
        piece = PIECE_X;
    }
    Move m = move_make(piece, __builtin_ctzll(cells));
    Board cb = b;
    board_place(&cb, m);
    DdChild c;
    int nl;
    evaluate_static(s, NULL, cb, m, 3, &c, &nl);
    return c.exact && c.dn == 0;
}

/* What a child is without the table (evaluate's first half): decided by
 * the rules, kn_node or the parity bound, or open with its key and
 * question, its buckets prefetched so that the children's cache misses
 * overlap. Returns the open child's number of moves (for its initial
 * numbers), with its live windows in *nlive. */
static int evaluate_static(DfpnDepth *s, const KnKeyBase *base, Board cb, Move m, int d, DdChild *c, int *nlive)
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
    if (q == 3 && board_order_to_move(cb) && leaf3_applies(s)) {
        int depth = 0;
        bool yes = wins_in_3(s, cb, &kn, &depth);
        decided(c, yes, depth);
        return 0;
    }
    if (leaf4(s, cb, q) && refuted_at_once(s, cb, &kn)) {
        decided(c, false, 0);
        return 0;
    }
    c->exact = false;
    c->d = q;
    c->key = base ? kn_key_child(&s->kn, base, cb, kn.dead) : kn_key(s->r, &s->kn, cb, kn.dead);
    tt_prefetch(s->tt, c->key);
    if (!leaf4(s, cb, q)) tt_prefetch(s->tt, tagged(c->key, q));
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
    bool leaf = leaf4(s, cb, c->d);
    if (!leaf && tt_probe(s->tt, tagged(c->key, c->d), &e)) {
        c->pn = e.pn;
        c->dn = e.dn;
        c->work = e.work;
    } else if (!leaf && pairs(s, cb, c->key, nlive)) {
        decided(c, false, 0);
    } else if (board_order_to_move(cb)) {
        c->pn = 1;
        c->dn = (uint32_t)nmoves;
    } else {
        c->pn = (uint32_t)nmoves;
        c->dn = 1;
    }
}

/* The 5-ply questions with Order to move (original, fours knowledge on):
 * Order moves that are no without a look. Let b be such an open node
 * (no four) that does not win in 3 (wins_in_3), where each symbol has at
 * least four empty cells that are no four-makers. Call the cells of
 * windows live for T with exactly three empty cells three[T], and
 * quiet[T] = the empty cells in neither maker[T] nor three[T]. Then an
 * Order move (c, S) with c in quiet[S] is no at 4 plies whenever quiet[T]
 * (T the other symbol) has a cell t != c:
 *   - S on c makes no four, and the windows live for either symbol with
 *     two empty cells after it are among b's, with the same empty cells:
 *     T's windows through c die; S's through c had four or more empty
 *     cells (c is in no S window with one, two or three), so keep three;
 *   - Chaos's T on t is then the same: it completes nothing and makes no
 *     four (T's windows through t had four or more empty cells; S's die),
 *     so it is a legal reply, and Order, to move, asked 3 plies, has the
 *     same or fewer two-empty windows, all as in b;
 *   - each symbol keeps two non-maker empty cells (makers only shrink;
 *     c and t are two cells), so wins_in_3 there tries the four-makers
 *     only, and maker_wins reads only two-empty windows: a win there
 *     (two four cells, or one whose block makes a four of T) would be one
 *     in b too, and b has none. So Order does not win within 3 after T on
 *     t, and the move (c, S) is no at 4.
 * Such children are entered as decided no, as the search would find them. */
static void windows_of_three(const Rules *r, Board b, uint64_t three[2])
{
    uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O], empty = r->cells & ~(x | o);
    three[0] = three[1] = 0;
    for (int i = 0; i < r->nwin; i++) {
        uint64_t w = r->win[i], hole = w & empty;
        if (__builtin_popcountll(hole) != 3) continue;
        if ((w & o) == 0) three[PIECE_X] |= hole;
        if ((w & x) == 0) three[PIECE_O] |= hole;
    }
}

/* skip[S]: the cells c where Order's (c, S) is no at 4 plies (above). */
static void quiet_moves(const DfpnDepth *s, Board b, const KnNode *kn, uint64_t skip[2])
{
    skip[0] = skip[1] = 0;
    if (s->r->rules != RULES_ORIGINAL || !s->kn.threats) return;
    RulesScan sc = rules_scan(s->r, b.s[PIECE_X], b.s[PIECE_O]);
    uint64_t empty = s->r->cells & ~board_occupied(b);
    if (__builtin_popcountll(empty & ~sc.maker[PIECE_X]) < 4 || __builtin_popcountll(empty & ~sc.maker[PIECE_O]) < 4)
        return;
    int depth;
    if (wins_in_3(s, b, kn, &depth)) return;
    uint64_t three[2], quiet[2];
    windows_of_three(s->r, b, three);
    for (int p = 0; p < 2; p++) quiet[p] = empty & ~sc.maker[p] & ~three[p];
    for (int p = 0; p < 2; p++)
        if (__builtin_popcountll(quiet[p ^ 1]) >= 2) skip[p] = quiet[p];
}

/* Does the decided child c settle its parent (Order to move: order) with
 * nothing left to learn from the other children? A Chaos node with a
 * disproved child is disproved whatever the others are; an Order node with
 * a child proven at the least depth any proof of the node can have
 * (`least`) is proven, at the depth the full expansion would find. */
static bool settles(const DdChild *c, bool order, int least)
{
    return c->exact && (order ? c->pn == 0 && c->depth + 1 <= least : c->dn == 0);
}

/* The least distance to win an open node can have (question's parity and
 * fours bounds; under exact-end, the empty cells). */
static int least_dtw(const DfpnDepth *s, Board b)
{
    if (s->r->rules == RULES_EXACT_END) return empties(s->r, b);
    return !s->kn.threats ? 1 : board_order_to_move(b) ? 3 : 4;
}

/* The children of b (open, question d): kn_node's moves in ab's order
 * (cells ascending, X, O, then the dead-cell move), each asked d - 1.
 * Children of equal key (symmetric, where keys are canonical) have equal
 * distances and questions: one stands for them (dedupe.h). A twin of a
 * child the table then decided is dropped too (the comparison by all
 * pairs kept it): a decided child adds nothing to its parent's sum, is
 * never the least unless the parent is decided, and its twin would be
 * decided the same way. */
static int expand(DfpnDepth *s, Board b, const KnNode *kn, int d, DdChild *ch)
{
    int16_t nmoves[MOVES_MAX + 1], nlive[MOVES_MAX + 1];
    int all = 0, least = least_dtw(s, b);
    bool order = board_order_to_move(b);
    uint64_t skip[2] = {0, 0};
    if (order && d == 5) quiet_moves(s, b, kn, skip);
    KnKeyBase base; /* the children's keys, incrementally (knowledge.h) */
    kn_key_base(s->r, &s->kn, b, kn->dead, &base);
    for (int p = 0; p < 3; p++) {
        uint64_t cells = p < 2 ? kn->moves[p] : (kn->tempo ? kn->dead & -kn->dead : 0);
        int piece = p < 2 ? p : PIECE_X;
        for (; cells; all++) {
            Move m = move_make(piece, bb_pop(&cells));
            if (skip[piece] >> move_cell(m) & 1) {
                ch[all].move = m;
                ch[all].work = 0;
                decided(&ch[all], false, 0);
                continue;
            }
            Board cb = b;
            board_place(&cb, m);
            int nl = -1;
            nmoves[all] = (int16_t)evaluate_static(s, &base, cb, m, d - 1, &ch[all], &nl);
            nlive[all] = (int16_t)nl;
            if (settles(&ch[all], order, least)) {
                ch[0] = ch[all];
                return 1;
            }
        }
    }
    bool dedupe = board_count(b) + 1 <= s->kn.sym_pieces;
    uint8_t seen[DEDUPE_SLOTS];
    if (dedupe) memset(seen, 0, sizeof seen);
    int n = 0;
    for (int i = 0; i < all; i++) {
        DdChild *c = &ch[i];
        if (dedupe && !c->exact && dedupe_listed(seen, ch, sizeof *ch, offsetof(DdChild, key), n, c->key)) continue;
        if (!c->exact) {
            Board cb = b;
            board_place(&cb, c->move);
            evaluate_table(s, cb, nmoves[i], nlive[i], c);
        }
        if (settles(c, order, least)) {
            ch[0] = *c;
            return 1;
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
    *q = question(s, b, d);
    if (*q < 0) return 0;
    *key = kn_key(s->r, &s->kn, b, kn->dead);
    return known(s, *key, *q, proof_depth);
}

int dd_within(DfpnDepth *s, Board b, int d, int *proof_depth_out)
{
    int depth = 0, q;
    if (!proof_depth_out) proof_depth_out = &depth;
    KnNode kn;
    Board key;
    int k = answer_known(s, b, d, proof_depth_out, &kn, &key, &q);
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

/* The first move of b (cells ascending, X before O) whose child answers
 * W(child, q) with `want`. With search, each child is asked (dd_within;
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
            int a = search ? dd_within(s, cb, q, NULL) : answer_known(s, cb, q, &depth, &kn, &key, &cq);
            if (a < 0 && search) return MOVE_NONE;
            if (a == want) return m;
        }
    }
    return MOVE_NONE;
}

Move dd_best_move(DfpnDepth *s, Board b, int dtw)
{
    bool order = board_order_to_move(b);
    return first_move(s, b, order ? dtw - 1 : dtw - 2, order ? 1 : 0, true);
}

/* First a child the table (or the knowledge) already answers yes: the
 * search that answered b left facts for the children its proof used, and
 * taking one costs no search. Only if none is left, dd_best_move's,
 * searching. */
Move dd_proof_move(DfpnDepth *s, Board b, int d)
{
    Move m = first_move(s, b, d - 1, 1, false);
    return m != MOVE_NONE ? m : dd_best_move(s, b, d);
}
