/* alphabeta.c - see alphabeta.h. */
#include "alphabeta.h"

#include "../engine/moves.h"
#include "clock.h"

void ab_init(AlphaBeta *a, const Rules *r, const Knowledge *kn, TT *tt)
{
    *a = (AlphaBeta){.r = r, .kn = *kn, .tt = tt};
}

static void check_ab_limits(AlphaBeta *a)
{
    double at;
    if (limits_check(&a->lim, a->nodes, &a->next_report, &at)) a->stopped = true;
    if (at > 0) limits_report_depth(&a->lim, at - a->started, a->nodes, a->depth, 0);
}

/* Can Order force a win within depth plies from the ongoing position b?
 * When stopped, the answer is meaningless and nothing is stored. */
static bool within(AlphaBeta *a, Board b, int depth)
{
    if (depth <= 0 || a->stopped) return false;
    a->nodes++;
    check_ab_limits(a);
    KnNode kn;
    kn_node(a->r, &a->kn, b, &kn);
    if (kn.value == WINNER_ORDER) return kn.dtw <= depth;
    if (kn.value == WINNER_CHAOS) return false;
    Board key = kn_key(a->r, &a->kn, b, kn.dead);
    TTBounds e = {TT_NO_WIN, 0, 0, MOVE_NONE};
    bool hit = tt_probe_bounds(a->tt, key, &e);
    if (hit && e.win <= (uint32_t)depth) return true;
    if (hit && e.nowin >= (uint32_t)depth) return false;
    if (!hit && kn_chaos_pairs(a->r, &a->kn, b)) {
        e.nowin = TT_NO_WIN - 1; /* never won, at any depth */
        tt_store_bounds(a->tt, key, &e);
        return false;
    }

    bool order = board_order_to_move(b);
    bool result = !order; /* Order: some move must win; Chaos: every move must lose */
    uint64_t start = a->nodes;
    for (int s = 0; s < 3 && result != order; s++) {
        uint64_t cells = s < 2 ? kn.moves[s] : (kn.tempo ? kn.dead & -kn.dead : 0);
        int piece = s < 2 ? s : PIECE_X;
        for (uint64_t c = cells; c && result != order;) {
            Move m = move_make(piece, bb_pop(&c));
            Board cb = b;
            board_place(&cb, m);
            Winner st = rules_status_after(a->r, cb, m);
            bool wins = st == WINNER_ORDER || (st == WINNER_NONE && within(a, cb, depth - 1));
            if (order ? wins : !wins) result = order;
        }
    }
    if (a->stopped) return false;
    /* The new fact, with those the probe found (in case the entry was
     * replaced meanwhile); the table merges them with any it holds. */
    if (result) e.win = (uint32_t)depth; /* below e.win, or the probe would have answered */
    else e.nowin = (uint32_t)depth;      /* above e.nowin, likewise */
    uint64_t work = a->nodes - start;
    e.work = work > UINT32_MAX ? UINT32_MAX : (uint32_t)work;
    tt_store_bounds(a->tt, key, &e);
    return result;
}

static int empties(const AlphaBeta *a, Board b) { return __builtin_popcountll(a->r->cells & ~board_occupied(b)); }

int ab_dtw(AlphaBeta *a, Board b)
{
    Winner st = rules_status(a->r, b);
    if (st != WINNER_NONE) return st == WINNER_ORDER ? 0 : -1;
    a->stopped = false;
    if (a->started == 0) {
        a->started = clock_seconds();
        a->next_report = a->started + a->lim.report_every;
    }
    int e = empties(a, b);
    for (int d = 1; d <= e; d++) {
        a->depth = d;
        if (within(a, b, d)) return d;
        if (a->stopped) return -2;
    }
    return -1;
}

Winner ab_solve(AlphaBeta *a, Board b)
{
    /* Deepening finds quick Order wins early; the last depth is the full one. */
    int d = ab_dtw(a, b);
    return d == -2 ? WINNER_NONE : d >= 0 ? WINNER_ORDER : WINNER_CHAOS;
}

Move ab_best_move(AlphaBeta *a, Board b)
{
    int e = empties(a, b);
    bool order = board_order_to_move(b);
    Move best = MOVE_NONE;
    int best_d = order ? e + 1 : -1;
    MoveList ml;
    moves_generate(b, a->r->cells, &ml);
    for (int i = 0; i < ml.count; i++) {
        Board cb = b;
        board_place(&cb, ml.m[i]);
        int d = ab_dtw(a, cb);
        if (d == -2) return MOVE_NONE;
        if (d == -1) d = e + 1; /* a Chaos win lasts longest */
        if (order ? d < best_d : d > best_d) {
            best_d = d;
            best = ml.m[i];
        }
    }
    return best;
}

Move ab_winning_move(AlphaBeta *a, Board b, int depth)
{
    if (!board_order_to_move(b) || rules_status(a->r, b) != WINNER_NONE) return MOVE_NONE;
    a->stopped = false;
    if (a->started == 0) {
        a->started = clock_seconds();
        a->next_report = a->started + a->lim.report_every;
    }
    MoveList ml;
    moves_generate(b, a->r->cells, &ml);
    for (int i = 0; i < ml.count; i++) {
        Move m = ml.m[i];
        Board cb = b;
        board_place(&cb, m);
        Winner st = rules_status_after(a->r, cb, m);
        if (st == WINNER_ORDER) return m;
        if (st == WINNER_NONE && within(a, cb, depth - 1)) return m;
        if (a->stopped) return MOVE_NONE;
    }
    return MOVE_NONE;
}
