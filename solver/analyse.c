/* analyse.c - see analyse.h. */
#include "analyse.h"

#include <string.h>

#include "../engine/moves.h"
#include "clock.h"

/* pairing_find budgets: the position itself (the empty 6x6 board under
 * exact-end takes a few hundred steps) and each child in the static pass
 * (the search pass tries again with the larger one, in advise_value). */
enum { ROOT_PAIRING = 20000, CHILD_PAIRING = 2000 };

static void set_advice_value(AdviceValue *v, Winner w, ProvedBy by, int dtw)
{
    v->winner = w;
    v->by = by;
    v->dtw = dtw;
}

/* The store's value of b, if it has one. */
static bool from_store(const Advisor *adv, Board b, AdviceValue *v)
{
    StoreValue sv;
    StoreKey key = {adv->r.rules, adv->r.n, adv->r.k, b};
    if (!adv->store || store_get(adv->store, &key, &sv) != 1) return false;
    set_advice_value(v, sv.winner, PROVED_STORE, sv.winner == WINNER_ORDER && sv.dtw > 0 ? sv.dtw : -1);
    return true;
}

/* Pass 1 for one child cb (after m): the rules, the lemmas, the store. */
static void judge_static(const Advisor *adv, Board cb, Move m, MoveValue *mv)
{
    *mv = (MoveValue){.move = m, .v = {.dtw = -1}, .answers = -1};
    Winner st = rules_status_after(&adv->r, cb, m);
    if (st != WINNER_NONE) {
        set_advice_value(&mv->v, st, PROVED_RULES, st == WINNER_ORDER ? 0 : -1);
        mv->final = true;
    } else if (centre_win_stoppable(&adv->centre, cb, adv->interrupt, adv->lemma_deadline)) {
        set_advice_value(&mv->v, WINNER_ORDER, PROVED_CENTRE, -1);
    } else if (adv->cfg.kn.pairing && pairing_find(&adv->r, cb, CHILD_PAIRING, NULL)) {
        set_advice_value(&mv->v, WINNER_CHAOS, PROVED_PAIRING, -1);
        mv->final = true; /* Chaos wins: no distance to look for */
    } else if (from_store(adv, cb, &mv->v)) {
        mv->final = mv->v.winner == WINNER_CHAOS || mv->v.dtw > 0;
    }
}

/* Order to move: the centre strategy's steps among the moves. */
static void centre_steps(const Advisor *adv, Board b, Analysis *an)
{
    for (int i = 0; i < an->nmoves; i++) {
        MoveValue *mv = &an->mv[i];
        if (mv->v.by != PROVED_CENTRE) continue;
        int cell = move_cell(mv->move);
        if (adv->centre.centre >> cell & 1) {
            mv->step = STEP_CENTRE_SMALL;
            continue;
        }
        int u = centre_partner(&adv->centre, cell);
        if (u >= 0 && (board_occupied(b) >> u & 1)) mv->step = STEP_CENTRE_PAIR, mv->answers = u;
    }
}

/* Chaos to move after Order's `last`: the pairing's steps (analyse.h). */
static void pairing_steps(const Advisor *adv, Board b, Move last, Analysis *an)
{
    int u = move_cell(last), piece = move_piece(last);
    Board before = b;
    board_undo(&before, last);
    PairSet ps;
    if (!board_order_to_move(before) || !pairing_find(&adv->r, before, ROOT_PAIRING, &ps)) return;
    int partner = -1;
    bool same = false;
    for (int j = 0; j < ps.n && partner < 0; j++) {
        if (ps.p[j].a != u && ps.p[j].b != u) continue;
        partner = ps.p[j].a == u ? ps.p[j].b : ps.p[j].a;
        same = ps.p[j].same;
        ps.p[j] = ps.p[--ps.n];
    }
    uint64_t used = 0;
    for (int j = 0; j < ps.n; j++) used |= (1ULL << ps.p[j].a) | (1ULL << ps.p[j].b);
    for (int i = 0; i < an->nmoves; i++) {
        MoveValue *mv = &an->mv[i];
        int cell = move_cell(mv->move);
        Board cb = b;
        board_place(&cb, mv->move);
        if (rules_status(&adv->r, cb) != WINNER_NONE) continue;
        bool answer = partner >= 0 ? cell == partner && move_piece(mv->move) == (same ? piece : 1 - piece)
                                   : !(used >> cell & 1);
        if (!answer || !pairing_holds(&adv->r, cb, &ps)) continue;
        /* pairing_holds is the lemma's whole check: the child is a Chaos
         * win even where the static pass's pairing search gave up */
        if (mv->v.winner == WINNER_NONE) set_advice_value(&mv->v, WINNER_CHAOS, PROVED_PAIRING, -1), mv->final = true;
        mv->step = partner >= 0 ? STEP_PAIRING_PAIR : STEP_PAIRING_FREE;
        mv->answers = partner >= 0 ? u : -1;
        mv->same_pair = same;
    }
}

/* The position's own value from the rules, the lemmas or the store. */
static void judge_root(const Advisor *adv, Board b, Analysis *an)
{
    an->status = rules_status(&adv->r, b);
    an->centre_on = adv->centre.on;
    if (an->status != WINNER_NONE) {
        set_advice_value(&an->value, an->status, PROVED_RULES, an->status == WINNER_ORDER ? 0 : -1);
        return;
    }
    an->centre_holds = centre_win_stoppable(&adv->centre, b, adv->interrupt, adv->lemma_deadline);
    an->pairing = adv->cfg.kn.pairing && pairing_find(&adv->r, b, ROOT_PAIRING, &an->pairs);
    if (an->centre_holds) set_advice_value(&an->value, WINNER_ORDER, PROVED_CENTRE, -1);
    else if (an->pairing) set_advice_value(&an->value, WINNER_CHAOS, PROVED_PAIRING, -1);
    else from_store(adv, b, &an->value);
}

/* The position's value from its moves, where the root's own sources left
 * it open, and its distance where the moves give it exactly (analyse.h). */
static void from_moves(Board b, Analysis *an)
{
    if (an->status != WINNER_NONE || an->nmoves == 0) return;
    Winner me = winner_to_move(b);
    int open = 0, lost = 0, best = -1, worst = -1, wins = 0, wins_dtw = 0;
    ProvedBy by = PROVED_NONE;
    for (int i = 0; i < an->nmoves; i++) {
        const AdviceValue *v = &an->mv[i].v;
        if (v->winner == WINNER_NONE) open++;
        else if (v->winner != me) lost++;
        else if (by == PROVED_NONE) by = v->by;
        if (v->winner == WINNER_ORDER) {
            wins++;
            wins_dtw += v->dtw >= 0;
            if (v->dtw >= 0 && (best < 0 || v->dtw < best)) best = v->dtw;
            if (v->dtw > worst) worst = v->dtw;
        }
    }
    if (an->value.winner == WINNER_NONE) {
        Winner w = by != PROVED_NONE ? me : lost == an->nmoves ? winner_other(me) : WINNER_NONE;
        if (w != WINNER_NONE) {
            set_advice_value(&an->value, w, by != PROVED_NONE ? by : an->mv[0].v.by, -1);
            an->from_moves = true;
        }
    }
    if (an->value.winner != WINNER_ORDER || an->value.dtw >= 0) return;
    if (me == WINNER_ORDER && open == 0 && wins > 0 && wins_dtw == wins) an->value.dtw = 1 + best;
    if (me == WINNER_CHAOS && wins == an->nmoves && wins_dtw == wins) an->value.dtw = 1 + worst;
}

/* Does move i still need the search pass: undecided (round 0), or an
 * Order win without its distance (round 1)? */
static bool wanted(const MoveValue *mv, int round)
{
    if (mv->final) return false;
    return round == 0 ? mv->v.winner == WINNER_NONE : mv->v.winner == WINNER_ORDER && mv->v.dtw < 0;
}

/* Pass 2 (analyse.h): undecided moves first, then the distances. */
static void search_pass(Advisor *adv, Board b, double t0, double think, Analysis *an, AnalyseNote note,
                        void *arg)
{
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < an->nmoves; i++) {
            MoveValue *mv = &an->mv[i];
            if (!wanted(mv, round)) continue;
            double left = t0 + think - clock_seconds();
            if (left <= 0 || (adv->interrupt && atomic_load(adv->interrupt))) return;
            Board cb = b;
            board_place(&cb, mv->move);
            AdviceValue v;
            advise_value(adv, cb, left / an->pending, &v);
            if (v.winner != WINNER_NONE) {
                set_advice_value(&mv->v, v.winner, mv->v.winner == v.winner ? mv->v.by : v.by, v.dtw);
                mv->v.nodes += v.nodes;
                mv->v.seconds += v.seconds;
            }
            mv->final = true;
            an->pending--;
            from_moves(b, an);
            an->seconds = clock_seconds() - t0;
            if (note) note(an, i, arg);
        }
}

void analyse(Advisor *adv, Board b, Move last, double think, Analysis *out, AnalyseNote note, void *arg)
{
    double t0 = clock_seconds();
    adv->lemma_deadline = t0 + think;
    memset(out, 0, sizeof *out);
    out->value.dtw = -1;
    judge_root(adv, b, out);
    if (out->status == WINNER_NONE) {
        MoveList ml;
        moves_generate(b, adv->r.cells, &ml);
        for (int i = 0; i < ml.count; i++) {
            Board cb = b;
            board_place(&cb, ml.m[i]);
            judge_static(adv, cb, ml.m[i], &out->mv[out->nmoves++]);
        }
        if (board_order_to_move(b)) centre_steps(adv, b, out);
        else if (last != MOVE_NONE && (b.s[move_piece(last)] >> move_cell(last) & 1)) pairing_steps(adv, b, last, out);
    }
    for (int i = 0; i < out->nmoves; i++) out->pending += wanted(&out->mv[i], 0) || wanted(&out->mv[i], 1);
    from_moves(b, out);
    out->seconds = clock_seconds() - t0;
    if (note) note(out, -1, arg);
    search_pass(adv, b, t0, think, out, note, arg);
    out->seconds = clock_seconds() - t0;
}
