/* advise.c - see advise.h. */
#include "advise.h"

#include <stdio.h>
#include <string.h>

#include "../engine/moves.h"
#include "clock.h"

/* pairing_find budgets: a pairing of the position itself (the empty 6x6
 * board under exact-end takes a few hundred steps, a failing search about
 * 5 ms), and one per candidate move when scanning every move. */
enum { ROOT_PAIRING = 20000, MOVE_PAIRING = 2000 };

/* The share of the think time df-pn gets; the rest is for the distance to
 * win and the move. */
#define DFPN_SHARE 0.7

int advisor_init(Advisor *a, const Rules *r, size_t tt_bytes, int threads, Store *store, char *err, int errlen)
{
    memset(a, 0, sizeof *a);
    a->r = *r;
    a->cfg = dfpn_default_config();
    centre_init(&a->centre, &a->r);
    /* Play follows the lemma as a strategy: a position it holds at must
     * still be one after more pieces, so same pairs count at every piece
     * count here (the search counts them only near the first move, for
     * speed: centre.h). */
    a->centre.same_max_pieces = a->r.n * a->r.n;
    a->threads = threads < 1 ? 1 : threads;
    a->claim_dtw = -1;
    size_t ab_bytes = tt_bytes / 4;
    if (tt_init(&a->tt, tt_bytes - ab_bytes, a->threads > 1) != 0) goto fail;
    if (tt_init(&a->abtt, ab_bytes, false) != 0) {
        tt_free(&a->tt);
        goto fail;
    }
    /* The small game's table now (0.5 s for a 4x4 centre), not inside the
     * first move's think time. */
    if (a->centre.on) centre_small_win(a->centre.m, 0);
    StoreGame g;
    if (store && store_game(store, &g) == 1 && g.rules == r->rules && g.n == r->n && g.k == r->k) a->store = store;
    return 0;
fail:
    snprintf(err, (size_t)errlen, "cannot allocate a %zu MiB table (use --tt-mb)", tt_bytes >> 20);
    return -1;
}

void advisor_free(Advisor *a)
{
    tt_free(&a->tt);
    tt_free(&a->abtt);
}

static void generate(const Advisor *a, Board b, MoveList *ml) { moves_generate(b, a->r.cells, ml); }

/* b with m played, and the rules' verdict on it. */
static Winner after(const Advisor *a, Board b, Move m, Board *cb)
{
    *cb = b;
    board_place(cb, m);
    return rules_status_after(&a->r, *cb, m);
}

static void proved(Advice *out, Winner w, ProvedBy by, int dtw)
{
    out->value.winner = w;
    out->value.by = by;
    out->value.dtw = dtw;
}

/* ADVICE_WIN_NOW: a move that ends the game in the mover's favour. */
static bool try_win_now(const Advisor *a, Board b, Advice *out)
{
    Winner me = winner_to_move(b);
    MoveList ml;
    generate(a, b, &ml);
    for (int i = 0; i < ml.count; i++) {
        Board cb;
        if (after(a, b, ml.m[i], &cb) != me) continue;
        out->move = ml.m[i];
        out->kind = ADVICE_WIN_NOW;
        proved(out, me, PROVED_RULES, me == WINNER_ORDER ? 1 : -1);
        return true;
    }
    return false;
}

/* How far a small-game move takes Order, to choose among moves the lemma
 * already proves winning (any of them would do): each centre line still
 * open to one symbol counts its pieces squared. */
static int centre_progress(const Advisor *a, Board b)
{
    const Centre *c = &a->centre;
    uint64_t lines[2 * BOARD_MAX_N + 2], d1 = 0, d2 = 0;
    int nl = 0;
    for (int i = 1; i <= c->m; i++) {
        uint64_t row = 0, col = 0;
        for (int j = 1; j <= c->m; j++) row |= 1ULL << board_cell(i, j), col |= 1ULL << board_cell(j, i);
        lines[nl++] = row;
        lines[nl++] = col;
        d1 |= 1ULL << board_cell(i, i);
        d2 |= 1ULL << board_cell(i, c->n - 1 - i);
    }
    lines[nl++] = d1;
    lines[nl++] = d2;
    int score = 0;
    for (int l = 0; l < nl; l++) {
        int x = __builtin_popcountll(b.s[PIECE_X] & lines[l]), o = __builtin_popcountll(b.s[PIECE_O] & lines[l]);
        if (x == 0 || o == 0) score += (x + o) * (x + o);
    }
    return score;
}

/* Does the pair of ring cell `cell` hold one X and one O in b? */
static int mixes_pair(const Advisor *a, Board b, int cell)
{
    for (int p = 0; p < a->centre.npairs; p++) {
        uint64_t pm = a->centre.pair_mask[p];
        if (pm >> cell & 1) return (b.s[PIECE_X] & pm) && (b.s[PIECE_O] & pm);
    }
    return 0;
}

/* ADVICE_CENTRE_*: an Order move after which b is a centre-strategy win. */
static bool try_centre(const Advisor *a, Board b, Advice *out)
{
    if (!a->centre.on) return false;
    MoveList ml;
    generate(a, b, &ml);
    Move best = MOVE_NONE;
    int best_score = -1;
    for (int i = 0; i < ml.count; i++) {
        Board cb;
        if (after(a, b, ml.m[i], &cb) != WINNER_NONE || !centre_win_stoppable(&a->centre, cb, a->interrupt, a->lemma_deadline)) continue;
        bool ring = !(a->centre.centre >> move_cell(ml.m[i]) & 1);
        /* a ring answer that mixes its pair (the classic strategy) before
         * one that makes it two like symbols */
        int score = ring ? (1 << 30) + mixes_pair(a, cb, move_cell(ml.m[i])) : centre_progress(a, cb);
        if (score > best_score) best_score = score, best = ml.m[i];
    }
    if (best == MOVE_NONE) return false;
    out->move = best;
    bool ring = !(a->centre.centre >> move_cell(best) & 1);
    out->kind = ring ? ADVICE_CENTRE_PAIR : ADVICE_CENTRE_SMALL;
    /* The move answers its partner only when Chaos has played there: a ring
     * move may also go on a pair whose lines are all dead, both cells
     * empty (-1 then, so no answer is claimed). */
    int partner = ring ? centre_partner(&a->centre, move_cell(best)) : -1;
    out->cell = partner >= 0 && (board_occupied(b) >> partner & 1) ? partner : -1;
    proved(out, WINNER_ORDER, PROVED_CENTRE, -1);
    return true;
}

/* Does ps hold after m (b with m ongoing)? */
static bool pairs_after(const Advisor *a, Board b, Move m, const PairSet *ps)
{
    Board cb;
    return after(a, b, m, &cb) == WINNER_NONE && pairing_holds(&a->r, cb, ps);
}

/* A move on a free cell of ps (in no pair) after which ps still holds:
 * cells in no live window first (they change nothing). */
static bool free_answer(const Advisor *a, Board b, const PairSet *ps, Move *m)
{
    uint64_t used = 0;
    for (int j = 0; j < ps->n; j++) used |= (1ULL << ps->p[j].a) | (1ULL << ps->p[j].b);
    uint64_t free_cells = a->r.cells & ~board_occupied(b) & ~used;
    uint64_t live = rules_scan(&a->r, b.s[PIECE_X], b.s[PIECE_O]).live_cells;
    /* Cells off the live windows first (not moves_generate's order). */
    uint64_t order[2] = {free_cells & ~live, free_cells & live};
    for (int k = 0; k < 2; k++)
        for (uint64_t c = order[k]; c;) {
            int cell = bb_pop(&c);
            for (int s = 0; s < 2; s++)
                if (pairs_after(a, b, *m = move_make(s, cell), ps)) return true;
        }
    return false;
}

/* The pairing strategy's answer to Order's last move, when b is the
 * remembered pairing's position plus one move: the partner (pairs) or a
 * free cell. *answered: the cell of Order's move when it was in a pair.
 * (When the breakable form leaves no free cell, try_pairing finds a new
 * pairing after one of Chaos's moves instead.) */
static bool remembered_answer(Advisor *a, Board b, Move *m, PairSet *ps, int *answered)
{
    Board p = a->pair_board;
    if (!a->have_pairs || (p.s[0] & ~b.s[0]) || (p.s[1] & ~b.s[1]) || board_count(b) != board_count(p) + 1)
        return false;
    uint64_t nx = b.s[PIECE_X] & ~p.s[PIECE_X], no = b.s[PIECE_O] & ~p.s[PIECE_O];
    int piece = nx ? PIECE_X : PIECE_O, u = __builtin_ctzll(nx | no);
    *ps = a->pairs;
    for (int j = 0; j < ps->n; j++) {
        if (ps->p[j].a != u && ps->p[j].b != u) continue;
        int v = ps->p[j].a == u ? ps->p[j].b : ps->p[j].a;
        *m = move_make(ps->p[j].same ? piece : 1 - piece, v);
        ps->p[j] = ps->p[--ps->n];
        *answered = u;
        return pairs_after(a, b, *m, ps);
    }
    return free_answer(a, b, ps, m);
}

/* ADVICE_PAIRING: a Chaos move after which a pairing holds (on odd
 * boards the breakable form, pairing.h; every move is kept only when
 * pairing_holds says so of the position after it). */
static bool try_pairing(Advisor *a, Board b, Advice *out)
{
    if (!a->cfg.kn.pairing) return false;
    Move m = MOVE_NONE;
    PairSet ps;
    int answered = -1;
    bool found = remembered_answer(a, b, &m, &ps, &answered);
    if (!found) answered = -1;
    if (!found && pairing_find(&a->r, b, ROOT_PAIRING, &ps))
        found = free_answer(a, b, &ps, &m);
    MoveList ml;
    generate(a, b, &ml);
    for (int i = 0; i < ml.count && !found; i++) {
        Board cb;
        m = ml.m[i];
        found = after(a, b, m, &cb) == WINNER_NONE && pairing_find(&a->r, cb, MOVE_PAIRING, &ps) &&
                pairing_holds(&a->r, cb, &ps);
    }
    if (!found) return false;
    a->have_pairs = true;
    a->pair_board = b;
    board_place(&a->pair_board, m);
    a->pairs = ps;
    out->move = m;
    out->kind = ADVICE_PAIRING;
    out->cell = answered;
    out->pairs = ps.n;
    proved(out, WINNER_CHAOS, PROVED_PAIRING, -1);
    return true;
}

/* Is the mover lost by a lemma (the centre lemma with Chaos to move, a
 * pairing with Order to move)? */
static ProvedBy static_loss(const Advisor *a, Board b)
{
    if (!board_order_to_move(b)) return centre_win_stoppable(&a->centre, b, a->interrupt, a->lemma_deadline) ? PROVED_CENTRE : PROVED_NONE;
    if (a->cfg.kn.pairing && pairing_find(&a->r, b, ROOT_PAIRING, NULL)) return PROVED_PAIRING;
    return PROVED_NONE;
}

static bool store_lookup(const Advisor *a, Board b, StoreValue *v)
{
    StoreKey k = {a->r.rules, a->r.n, a->r.k, b};
    return a->store && store_get(a->store, &k, v) == 1;
}

/* ADVICE_STORE: the store's winning move for b, or a child the store says
 * the mover wins. *lost: the store says the mover has lost. */
static bool try_store(const Advisor *a, Board b, Advice *out, bool *lost)
{
    if (!a->store) return false;
    Winner me = winner_to_move(b);
    StoreValue v;
    Board cb;
    if (store_lookup(a, b, &v)) {
        *lost = v.winner != me;
        if (*lost) return false;
        if (v.move != MOVE_NONE && !(board_occupied(b) >> move_cell(v.move) & 1) &&
            (a->r.cells >> move_cell(v.move) & 1) && after(a, b, v.move, &cb) != winner_other(me)) {
            out->move = v.move;
            out->kind = ADVICE_STORE;
            proved(out, me, PROVED_STORE, -1);
            return true;
        }
    }
    MoveList ml;
    generate(a, b, &ml);
    for (int i = 0; i < ml.count; i++) {
        if (after(a, b, ml.m[i], &cb) != WINNER_NONE || !store_lookup(a, cb, &v) || v.winner != me) continue;
        out->move = ml.m[i];
        out->kind = ADVICE_STORE;
        proved(out, me, PROVED_STORE, -1);
        return true;
    }
    return false;
}

/* What is known of child cb (ongoing) without searching it: its winner
 * from the knowledge, the lemma or the table (WINNER_NONE: open), and the
 * table's entry when there is one (else *e is zero). */
static Winner child_known(Advisor *a, Board cb, TTData *e, int *static_dtw)
{
    memset(e, 0, sizeof *e);
    *static_dtw = -1;
    KnNode kn;
    kn_node(&a->r, &a->cfg.kn, cb, &kn);
    if (kn.value != WINNER_NONE) {
        *static_dtw = kn.value == WINNER_ORDER ? kn.dtw : -1;
        return kn.value;
    }
    if (centre_win_stoppable(&a->centre, cb, a->interrupt, a->lemma_deadline)) return WINNER_ORDER;
    if (!tt_probe(&a->tt, kn_key(&a->r, &a->cfg.kn, cb, kn.dead), e)) return WINNER_NONE;
    return dfpn_winner(e->pn, e->dn);
}

/* A rating of a move for the mover: higher is better. Tiers: 3 proved
 * winning, 2 open, 1 proved lost (rated by how much the opponent's proof
 * needed), 0 lost at once. Open moves by df-pn's numbers: for Order a
 * small pn against dn, for Chaos a small dn against pn. */
static double rate_move(Advisor *a, Board b, Move m, int *tier)
{
    Winner me = winner_to_move(b);
    Board cb;
    Winner st = after(a, b, m, &cb);
    TTData e = {0};
    int sd = -1;
    Winner v = st != WINNER_NONE ? st : child_known(a, cb, &e, &sd);
    if (v == me) {
        *tier = 3;
        return 0;
    }
    if (v == winner_other(me)) {
        *tier = st != WINNER_NONE ? 0 : 1;
        return st != WINNER_NONE ? 0 : sd >= 0 ? sd : 1000.0 + e.work;
    }
    *tier = 2;
    if (e.pn == 0 && e.dn == 0) return -1.0; /* not in the table */
    double pn = e.pn, dn = e.dn;
    return me == WINNER_ORDER ? -pn / dn : -dn / pn;
}

/* The best-rated move; *tier gets its tier. */
static Move rated_best(Advisor *a, Board b, int *tier)
{
    MoveList ml;
    generate(a, b, &ml);
    Move best = MOVE_NONE;
    int best_tier = -1;
    double best_score = 0;
    for (int i = 0; i < ml.count; i++) {
        int t;
        double s = rate_move(a, b, ml.m[i], &t);
        if (t > best_tier || (t == best_tier && s > best_score)) best = ml.m[i], best_tier = t, best_score = s;
    }
    *tier = best_tier;
    return best;
}

/* Order's distance to win from b by alpha-beta before the deadline (-2:
 * stopped), with ab left set up on the advisor's table. */
static int order_distance(Advisor *a, Board b, double deadline, AlphaBeta *ab, uint64_t *nodes)
{
    ab_init(ab, &a->r, &a->cfg.kn, &a->abtt);
    ab->lim.deadline = deadline;
    ab->lim.interrupt = a->interrupt;
    int d = ab_dtw(ab, b);
    *nodes += ab->nodes;
    return d;
}

/* ADVICE_LOST: the mover cannot win (out->value says why); a move that
 * resists. */
static void resist(Advisor *a, Board b, double t0, double think, Advice *out)
{
    out->kind = ADVICE_LOST;
    if (!board_order_to_move(b)) {
        AlphaBeta ab;
        int d = order_distance(a, b, t0 + think / 2, &ab, &out->value.nodes);
        if (d > 0) {
            ab.lim.deadline = t0 + think;
            out->move = ab_best_move(&ab, b);
            out->value.nodes += ab.nodes;
            if (out->move != MOVE_NONE) {
                out->value.dtw = d;
                return;
            }
        }
    }
    int tier;
    out->move = rated_best(a, b, &tier);
}

/* df-pn on b before the deadline, on the advisor's table. */
static Winner search_value(Advisor *a, Board b, double deadline, Dfpn *d, uint64_t *nodes)
{
    dfpn_init(d, &a->r, &a->cfg, &a->tt);
    d->threads = a->threads;
    d->lim.deadline = deadline;
    d->lim.interrupt = a->interrupt;
    uint32_t pn, dn;
    Winner v = dfpn_solve(d, b, &pn, &dn);
    *nodes += d->nodes;
    return v;
}

/* Order, proved winning: the distance and a move that keeps it, if
 * alpha-beta finds them before the deadline; the claim is remembered. */
static bool fastest_win(Advisor *a, Board b, double deadline, Advice *out)
{
    AlphaBeta ab;
    int d = order_distance(a, b, deadline, &ab, &out->value.nodes);
    if (d < 1) return false;
    uint64_t before = ab.nodes;
    Move m = ab_winning_move(&ab, b, d);
    out->value.nodes += ab.nodes - before;
    if (m == MOVE_NONE) return false;
    out->move = m;
    out->value.dtw = d;
    a->claim_dtw = d;
    a->claim_board = b;
    return true;
}

/* ADVICE_SEARCH, _LOST or _GUESS by df-pn (and alpha-beta) in the time. */
static void search_move(Advisor *a, Board b, double t0, double think, Advice *out)
{
    Winner me = winner_to_move(b);
    Dfpn d;
    Winner v = search_value(a, b, t0 + DFPN_SHARE * think, &d, &out->value.nodes);
    if (v == winner_other(me)) {
        proved(out, v, PROVED_SEARCH, -1);
        resist(a, b, t0, think, out);
        return;
    }
    if (v == me) {
        proved(out, v, PROVED_SEARCH, -1);
        out->kind = ADVICE_SEARCH;
        if (me == WINNER_ORDER && fastest_win(a, b, t0 + think, out)) return;
        /* The table holds the proof, so this is quick; the bound only
         * guards against a table too small to keep it. */
        d.lim.deadline = t0 + 3 * think;
        uint64_t searched = d.nodes;
        out->move = dfpn_winning_move(&d, b, me);
        out->value.nodes += d.nodes - searched;
        if (out->move != MOVE_NONE) return;
    }
    int tier;
    out->move = rated_best(a, b, &tier);
    out->kind = tier == 3 ? ADVICE_SEARCH : ADVICE_GUESS;
    if (tier == 3) proved(out, me, PROVED_SEARCH, -1);
}

/* Has an earlier advice claimed a distance to win that b is still within? */
static bool hurrying(const Advisor *a, Board b)
{
    Board p = a->claim_board;
    return a->claim_dtw > 0 && !(p.s[0] & ~b.s[0]) && !(p.s[1] & ~b.s[1]) &&
           board_count(b) - board_count(p) < a->claim_dtw;
}

void advise(Advisor *a, Board b, double think, Advice *out)
{
    double t0 = clock_seconds();
    a->lemma_deadline = t0 + think;
    *out = (Advice){.move = MOVE_NONE, .cell = -1, .value = {.dtw = -1}};
    Winner st = rules_status(&a->r, b);
    if (st != WINNER_NONE) {
        proved(out, st, PROVED_RULES, st == WINNER_ORDER ? 0 : -1);
        return;
    }
    Winner me = winner_to_move(b);
    bool lost = false;
    if (try_win_now(a, b, out)) goto done;
    if (me == WINNER_ORDER && !hurrying(a, b) && try_centre(a, b, out)) goto done;
    if (me == WINNER_CHAOS && try_pairing(a, b, out)) goto done;
    ProvedBy by = static_loss(a, b);
    if (by == PROVED_NONE && try_store(a, b, out, &lost)) goto done;
    if (lost) by = PROVED_STORE;
    if (by != PROVED_NONE) {
        proved(out, winner_other(me), by, -1);
        resist(a, b, t0, think, out);
    } else {
        search_move(a, b, t0, think, out);
    }
done:
    out->value.seconds = clock_seconds() - t0;
}

void advise_value(Advisor *a, Board b, double think, AdviceValue *out)
{
    double t0 = clock_seconds();
    a->lemma_deadline = t0 + think;
    *out = (AdviceValue){.dtw = -1};
    Winner st = rules_status(&a->r, b);
    StoreValue v;
    Dfpn d;
    if (st != WINNER_NONE) {
        *out = (AdviceValue){st, PROVED_RULES, st == WINNER_ORDER ? 0 : -1, 0, 0};
        return;
    } else if (centre_win_stoppable(&a->centre, b, a->interrupt, a->lemma_deadline)) {
        out->winner = WINNER_ORDER, out->by = PROVED_CENTRE;
    } else if (a->cfg.kn.pairing && pairing_find(&a->r, b, ROOT_PAIRING, NULL)) {
        out->winner = WINNER_CHAOS, out->by = PROVED_PAIRING;
    } else if (store_lookup(a, b, &v)) {
        out->winner = v.winner, out->by = PROVED_STORE;
        out->dtw = v.winner == WINNER_ORDER && v.dtw > 0 ? v.dtw : -1;
    } else if ((out->winner = search_value(a, b, t0 + DFPN_SHARE * think, &d, &out->nodes)) != WINNER_NONE) {
        out->by = PROVED_SEARCH;
    }
    if (out->winner == WINNER_ORDER && out->dtw < 0) {
        AlphaBeta ab;
        int dd = order_distance(a, b, t0 + think, &ab, &out->nodes);
        if (dd > 0) out->dtw = dd;
    }
    out->seconds = clock_seconds() - t0;
}
