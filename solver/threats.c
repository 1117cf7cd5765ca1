/* threats.c - see threats.h for the search and why its wins are wins. */
#include "threats.h"

#include "../engine/moves.h"

/* One search: the rules, the knowledge kn_node classifies with, and the
 * budget. Once the budget is spent every position fails (no claim), so a
 * search that wins never ran out (threats_move relies on it). */
typedef struct {
    const Rules *r;
    const Knowledge *kn;
    uint32_t left; /* positions the budget still allows */
    uint32_t used;
    uint32_t gen;  /* this search's tag in the failure memo */
    bool cut;      /* the plies bound cut a line off (a deeper bound may win) */
} Ts;

/* Order nodes a search has failed at, and with what bound (a failure at
 * bound L is a failure at every bound below it: a proof within L' <= L is
 * one within L, and the search at L tries every candidate). One table per
 * thread, its entries valid for the search whose tag they carry, so no
 * search clears it. Within one search, fours that do not depend on each
 * other can be made in any order: without it the search met every order. */
enum { TS_MEMO_BITS = 12, TS_EXHAUSTED = 1 << 30 /* failed whatever the bound */ };
typedef struct {
    uint64_t x, o;
    uint32_t gen;
    int32_t bound;
} TsMemo;
static _Thread_local TsMemo ts_memo[1 << TS_MEMO_BITS];
static _Thread_local uint32_t ts_gen;

static inline TsMemo *memo_at(Board b)
{
    uint64_t h = (b.s[0] * 0x9E3779B97F4A7C15ULL) ^ (b.s[1] * 0xD6E8FEB86659FD93ULL);
    return &ts_memo[h >> (64 - TS_MEMO_BITS)];
}

static inline bool ts_spend(Ts *t)
{
    if (t->left == 0) return false;
    t->left--;
    t->used++;
    return true;
}

/* An Order move that makes a four, with kn_node's view of the Chaos node
 * after it. */
typedef struct {
    Move move;
    KnNode kn;
} Cand;

static int order_node(Ts *t, Board b, int plies, Move *first, const uint64_t *maker);

/* The Chaos node after an Order four-maker, kn its kn_node: -1, or the
 * plies (<= plies) to Order's win over every move kn_node lists. */
static int chaos_node(Ts *t, Board b, const KnNode *kn, int plies)
{
    if (kn->value == WINNER_ORDER) {
        if (kn->dtw <= plies) return kn->dtw;
        t->cut = true;
        return -1;
    }
    if (kn->value != WINNER_NONE) return -1;
    /* A safe move leaves no four, so the Order node after it needs 3 plies. */
    if (plies < 4) {
        t->cut = true;
        return -1;
    }
    int worst = 0;
    for (int s = 0; s < 3; s++) {
        /* kn_node's list: X cells, O cells, then the tempo representative. */
        uint64_t cells = s < 2 ? kn->moves[s] : (kn->tempo ? kn->dead & -kn->dead : 0);
        int piece = s < 2 ? s : PIECE_X;
        while (cells) {
            Board cb = b;
            Move m = move_make(piece, bb_pop(&cells));
            board_place(&cb, m);
            Winner st = rules_status_after(t->r, cb, m);
            int p = st == WINNER_ORDER ? 0 : st == WINNER_CHAOS ? -1 : order_node(t, cb, plies - 1, NULL, NULL);
            if (p < 0) return -1;
            if (p + 1 > worst) worst = p + 1;
        }
    }
    return worst;
}

/* The candidates' order key: decided for Order first, then by how many
 * moves Chaos has; a Chaos win (not met with a four on the board) last. */
static inline int cand_key(const KnNode *kn)
{
    return kn->value == WINNER_ORDER ? 0 : kn->value == WINNER_CHAOS ? MOVES_MAX + 2 : kn->nmoves + 1;
}

/* Under original, kn_node's view of the Chaos node after the four-maker
 * m = (c, S) at b (Order to move, no four on b), from the windows through
 * two cells instead of a scan and two plays (threats.h argues it equal).
 * The fours S on c makes are the windows through c live for S (no T)
 * with one empty cell left; every one has its empty cell in four.
 *   - Two or more four cells: any Chaos move leaves one (a piece on one
 *     four cell is in no other four's window), or completes a line: no
 *     safe move, Order wins within 2 plies.
 *   - One, f: S on f completes the line, and a move elsewhere leaves it,
 *     so T on f is Chaos's only candidate. It completes no line (b had no
 *     four of T, and S on c gives T none) and kills every four of S (all
 *     have f as their empty cell, and under original a T kills a window),
 *     so it is safe unless it makes a four of T: f in a window live for T
 *     (no S, so not through c) with one more empty cell. */
static void chaos_after_maker(const Rules *r, Board b, Move m, KnNode *out)
{
    int c = move_cell(m), s = move_piece(m);
    uint64_t occ = board_occupied(b) | 1ULL << c, me = b.s[s] | 1ULL << c, other = b.s[s ^ 1], four = 0;
    for (int i = 0; i < r->cell_nwin[c]; i++) {
        uint64_t w = r->cell_win[c][i], hole = w & ~occ;
        if ((w & other) == 0 && __builtin_popcountll(hole) == 1) four |= hole;
    }
    *out = (KnNode){.value = WINNER_ORDER, .dtw = 2, .nlive = -1};
    if (four & (four - 1)) return;
    int f = __builtin_ctzll(four);
    for (int i = 0; i < r->cell_nwin[f]; i++) {
        uint64_t w = r->cell_win[f][i];
        if ((w & me) == 0 && __builtin_popcountll(w & ~occ) == 2) return;
    }
    out->value = WINNER_NONE;
    out->dtw = 0;
    out->moves[s ^ 1] = four;
    out->nmoves = 1;
}

/* Under exact, whether Chaos's move m (cell c, symbol P) at a (ongoing,
 * a is b after Order's four-maker) is safe, given that it spoils every four
 * of a (exact_chaos_after_maker picks only such moves): it completes no
 * line, and the board after it holds no four. A four after it is a window
 * live for some symbol with one empty cell: the fours of a are spoiled, a
 * placement of P gives the other symbol nothing, and it adds a P only to
 * the windows through c, so only such a window live for P (no other
 * symbol in it, no P on its ends) can be one. A full board after it is a Chaos win: safe. kn_node's safe_by_play
 * decides the same by a full scan. */
static bool exact_spoiler_safe(const Rules *r, Board a, Move m)
{
    board_place(&a, m);
    Winner st = rules_status_after(r, a, m);
    if (st != WINNER_NONE) return st == WINNER_CHAOS;
    int c = move_cell(m), p = move_piece(m);
    uint64_t occ = board_occupied(a);
    for (int i = 0; i < r->cell_nwin[c]; i++) {
        uint64_t w = r->cell_win[c][i], e = r->cell_ends[c][i];
        if ((w & a.s[p ^ 1]) == 0 && (e & a.s[p]) == 0 && __builtin_popcountll(w & ~occ) == 1) return false;
    }
    return true;
}

/* Under exact, kn_node's view of the Chaos node after the four-maker
 * m = (c, S) at b (Order to move, no four on b), from the windows through
 * c and through each of Chaos's few candidates instead of a scan and a
 * play of every spoiler (threats.h argues it equal).
 *   - The fours after S on c are the windows through c live for S (no T
 *     in them, no S on their ends) with one empty cell: b had none, S on c
 *     adds a piece only to windows through c, and gives T nothing.
 *   - Chaos's safe moves spoil every one of them (knowledge.c
 *     four_spoilers: T on its empty cell, or S on one of its empty ends),
 *     so those are the candidates, and exact_spoiler_safe decides each.
 *   - None safe: Order wins within 2 plies (a move that is not safe
 *     completes a line or leaves a four); kn_node's zugzwang_dtw says the
 *     same 2, since T on a four's empty cell completes no line (b had no
 *     four of T and S on c gives T none). */
static void exact_chaos_after_maker(const Rules *r, Board b, Move m, KnNode *out)
{
    int c = move_cell(m), s = move_piece(m);
    board_place(&b, m);
    uint64_t occ = board_occupied(b), spoil[2] = {~0ULL, ~0ULL};
    for (int i = 0; i < r->cell_nwin[c]; i++) {
        uint64_t w = r->cell_win[c][i], e = r->cell_ends[c][i], hole = w & ~occ;
        if ((w & b.s[s ^ 1]) != 0 || (e & b.s[s]) != 0 || __builtin_popcountll(hole) != 1) continue;
        spoil[s ^ 1] &= hole;
        spoil[s] &= e & ~occ;
    }
    *out = (KnNode){.value = WINNER_ORDER, .dtw = 2, .nlive = -1};
    for (int p = 0; p < 2; p++)
        for (uint64_t e = spoil[p] & ~occ & r->cells; e;) {
            Move cm = move_make(p, bb_pop(&e));
            if (exact_spoiler_safe(r, b, cm)) out->moves[p] |= 1ULL << move_cell(cm);
        }
    out->nmoves = __builtin_popcountll(out->moves[0]) + __builtin_popcountll(out->moves[1]);
    if (out->nmoves) out->value = WINNER_NONE, out->dtw = 0;
}

void threats_chaos_node(const Rules *r, const Knowledge *kn, Board b, Move m, KnNode *out)
{
    if (r->rules == RULES_ORIGINAL) {
        chaos_after_maker(r, b, m, out);
        return;
    }
    if (r->rules == RULES_EXACT) {
        exact_chaos_after_maker(r, b, m, out);
        return;
    }
    board_place(&b, m);
    kn_node(r, kn, b, out);
}

/* Order's four-makers at b (no four on it), each with its Chaos node
 * classified; the ones kn_node decides for Order first, then by fewest
 * Chaos moves (the cheapest to refute or prove), ties by cell and X
 * before O (a fixed order: the search is a function of the position). A
 * four-maker decided for Order within plies - 1 is returned alone: the
 * sorted list would try it first. Returns how many; -1 when the budget ran
 * out. */
static int candidates(Ts *t, Board b, const uint64_t maker[2], int plies, Cand *c)
{
    int n = 0;
    /* Only the four makers, each with its own symbols (maker[s]): not
     * moves_generate's every move. */
    for (uint64_t e = maker[0] | maker[1]; e;) {
        int cell = bb_pop(&e);
        for (int s = 0; s < 2; s++) {
            if (!(maker[s] >> cell & 1)) continue;
            if (!ts_spend(t)) return -1;
            Cand x; /* every field set below (kn_node sets all of a KnNode) */
            x.move = move_make(s, cell);
            threats_chaos_node(t->r, t->kn, b, x.move, &x.kn);
            if (x.kn.value == WINNER_ORDER && x.kn.dtw <= plies - 1) {
                c[0] = x;
                return 1;
            }
            int key = cand_key(&x.kn), i = n++; /* insertion, stable */
            for (; i > 0 && cand_key(&c[i - 1].kn) > key; i--) c[i] = c[i - 1];
            c[i] = x;
        }
    }
    return n;
}

/* An Order node's moves, given its four-makers (no four on b). */
static int order_moves(Ts *t, Board b, const uint64_t maker[2], int plies, Move *first, TsMemo *m)
{
    if ((maker[0] | maker[1]) == 0) return -1;
    if (plies < 3) {
        t->cut = true;
        return -1;
    }
    Cand c[MOVES_MAX];
    bool cut = t->cut; /* whether this node's own search is cut, apart */
    t->cut = false;
    int n = candidates(t, b, maker, plies, c);
    for (int i = 0; i < n; i++) {
        Board cb = b;
        board_place(&cb, c[i].move);
        int p = chaos_node(t, cb, &c[i].kn, plies - 1);
        if (p >= 0) {
            t->cut |= cut;
            if (first) *first = c[i].move;
            return p + 1;
        }
    }
    if (m && t->left > 0) *m = (TsMemo){b.s[0], b.s[1], t->gen, t->cut ? plies : TS_EXHAUSTED};
    t->cut |= cut;
    return -1;
}

/* An Order node (ongoing, Order to move): -1, or the plies (<= plies) to
 * Order's win; *first (when not NULL) gets the move. maker: b's
 * four-makers when the caller knows b has no four (kn_node left it open),
 * else NULL (a scan finds them, and any four). */
static int order_node(Ts *t, Board b, int plies, Move *first, const uint64_t *maker)
{
    TsMemo *m = memo_at(b);
    if (m->gen == t->gen && m->x == b.s[0] && m->o == b.s[1] && m->bound >= plies) {
        t->cut |= m->bound != TS_EXHAUSTED; /* as the search it stands for */
        return -1;
    }
    if (plies < 1) {
        t->cut = true;
        return -1;
    }
    if (!ts_spend(t)) return -1;
    if (maker) return order_moves(t, b, maker, plies, first, m);
    KnScan sc;
    kn_scan_masks(t->r, b, &sc);
    if (sc.win[0] | sc.win[1]) {
        int s = sc.win[0] ? PIECE_X : PIECE_O;
        if (first) *first = move_make(s, __builtin_ctzll(sc.win[s]));
        return 1;
    }
    return order_moves(t, b, sc.maker, plies, first, m);
}

/* The searches' common start: false when nothing can be found (threats.h). */
static bool ts_start(Ts *t, const Rules *r, const Knowledge *kn, uint32_t nodes, ThreatWin *out)
{
    if (++ts_gen == 0) ts_gen = 1; /* (a wrap: a stale entry is one more search back) */
    *t = (Ts){r, kn, nodes, 0, ts_gen, false};
    out->move = MOVE_NONE;
    out->plies = -1;
    out->nodes = 0;
    return kn->threats && r->rules != RULES_EXACT_END;
}

bool threats_win(const Rules *r, const Knowledge *kn, Board b, const uint64_t *maker, int plies, uint32_t nodes,
                 ThreatWin *out)
{
    Ts t;
    if (!ts_start(&t, r, kn, nodes, out)) return false;
    t.cut = true;
    for (int bound = plies >= 3 ? 3 : 1; bound <= plies && t.left > 0 && t.cut; bound += 2) {
        t.cut = false;
        int p = order_node(&t, b, bound, &out->move, maker);
        if (p >= 0) {
            out->plies = p;
            out->nodes = t.used;
            return true;
        }
    }
    out->nodes = t.used;
    return false;
}

bool threats_move(const Rules *r, const Knowledge *kn, Board b, const uint64_t *maker, int plies, ThreatWin *out)
{
    const uint32_t nodes = THREATS_MOVE_NODES;
    Ts t;
    if (!ts_start(&t, r, kn, nodes, out)) return false;
    uint32_t used = 0;
    t.cut = true;
    /* With maker known no four stands, so bound 1 can only fail (and cut):
     * start at 3, and spare order_node's scan at every bound. */
    for (int bound = maker ? 3 : 1; bound <= plies && t.cut; bound += 2) {
        t.left = nodes;
        t.used = 0;
        t.cut = false;
        int p = order_node(&t, b, bound, &out->move, maker);
        used += t.used;
        if (p >= 0) {
            out->plies = p;
            out->nodes = used;
            return true;
        }
    }
    out->nodes = used;
    return false;
}
