/* dfpn.c - see dfpn.h. */
#include "dfpn.h"

#include <stdlib.h>

#include "../engine/moves.h"
#include "../engine/symmetry.h"
#include "clock.h"
#include "dfpn_internal.h"
#include "dfpn_kernel.h"
#include "pairing.h"

/* The root's pairing budget (steps of pairing_find): the empty 6x6 board
 * under exact-end takes a few hundred, a failing search on an opening
 * position about 5 ms. */
enum { DFPN_ROOT_PAIRING = 20000 };

DfpnConfig dfpn_default_config(void)
{
    return (DfpnConfig){.epsilon = 0.5, .chaos_pn_moves = true, .order_dn_moves = true, .center_first = true, .kn = {.threats = true, .dead_cells = true, .sym_pieces = 8, .pairing = 32, .centre = true, .pairing_live = 12, .threat_plies = THREATS_DEFAULT_PLIES, .threat_nodes = THREATS_DEFAULT_NODES, .pairing_lines = true, .pairing_witness = true, .pairing_witness_slack = KN_WITNESS_SLACK_BY_BOARD}};
}

void dfpn_init(Dfpn *d, const Rules *r, const DfpnConfig *cfg, TT *tt)
{
    *d = (Dfpn){.r = r, .cfg = *cfg, .tt = tt};
    if (cfg->center_first) dfpn_kernel_center_order(r->n, d->cells_first);
    centre_init(&d->centre, r);
    d->centre.half_max_pieces = d->cfg.kn.centre_half;
    d->centre.half_two_max_pieces = d->cfg.kn.centre_half_two;
    d->centre.half_bytes = centre_half_bytes_for(d->cfg.kn.centre_half_mb);
    d->centre.half_fill = d->cfg.kn.centre_half_fill;
    d->centre.on = d->centre.on && cfg->kn.centre;
    d->centre.ring = d->centre.ring && d->centre.on && !cfg->kn.no_ring;
    /* The small game's table is built on first use (centre_small_win,
     * thread-safe): most solves never meet a position whose pairs allow
     * the lemma, and building it costs 0.6 s. */
}

/* The lemma's settings for the root b of a solve: with whole tables
 * (Centre.half_fill), b's own configuration may be made whatever its
 * pieces, so that a search rooted deep (a job of the job-level search)
 * has the table its main lines read (centre_half.h, whole tables); one
 * table a solve at most, kept for the next ones. Otherwise c as it is. */
static Centre dfpn_root_centre(const Centre *c, Board b)
{
    Centre r = *c;
    int pieces = board_count(b);
    if (!r.half_fill) return r;
    if (r.half_max_pieces < pieces) r.half_max_pieces = pieces;
    if (r.half_two_max_pieces > 0 && r.half_two_max_pieces < pieces) r.half_two_max_pieces = pieces;
    return r;
}

Winner dfpn_solve(Dfpn *d, Board b, uint32_t *pn, uint32_t *dn)
{
    d->stopped = false; /* also when decided below without search: never a stale flag */
    Winner st = rules_status(d->r, b);
    if (st != WINNER_NONE) {
        dfpn_numbers(st, pn, dn);
        return st;
    }
    KnNode kn;
    kn_node(d->r, &d->cfg.kn, b, &kn);
    DfpnKernel k = dfpn_value_kernel(d); /* no memo yet: none at the root */
    int plies;
    Centre root_centre = dfpn_root_centre(&d->centre, b);
    if (kn.value == WINNER_NONE && centre_win_with_half(&root_centre, b, d->lim.interrupt, limits_lemma_deadline(&d->lim)))
        kn.value = WINNER_ORDER;
    if (kn.value == WINNER_NONE &&
        centre_ring_chaos(&root_centre, d->r, b, NULL, d->lim.interrupt, limits_lemma_deadline(&d->lim)))
        kn.value = WINNER_CHAOS;
    if (kn.value == WINNER_NONE && board_order_to_move(b) && dfpn_kernel_threat(&k, b, &kn, d->cfg.kn.threat_plies, false, &plies))
        kn.value = WINNER_ORDER;
    if (kn.value == WINNER_NONE && kn_chaos_pairs(d->r, &d->cfg.kn, b)) kn.value = WINNER_CHAOS;
    /* At the root, once per solve, a pairing may be looked for with no
     * bound on the live windows and a budget the nodes could not afford. */
    if (kn.value == WINNER_NONE && d->cfg.kn.pairing && pairing_find(d->r, b, DFPN_ROOT_PAIRING, NULL))
        kn.value = WINNER_CHAOS;
    if (kn.value != WINNER_NONE) {
        dfpn_numbers(kn.value, pn, dn);
        return kn.value;
    }
    if (d->started == 0) { /* a job's segments share one clock */
        d->started = clock_seconds();
        d->next_report = d->started + d->lim.report_every;
    }
    Board key = kn_key(d->r, &d->cfg.kn, b, kn.dead);
    if (d->team) {
        dfpn_solve_team(d, b, key, &kn, pn, dn);
    } else if (d->threads > 1) {
        dfpn_solve_parallel(d, b, key, &kn, pn, dn);
    } else {
        d->memo = dfpn_kernel_memo_new();
        dfpn_mid_root(d, b, key, &kn, true, pn, dn);
        free(d->memo);
        d->memo = NULL;
    }
    return dfpn_winner(*pn, *dn);
}

/* The kernel's view of d's table for finding a move: read only, so that
 * the certificate writer leaves the table as the search left it (with a
 * one-level table a probe writes nothing either: tt.h). */
static DfpnKernel reader_kernel(Dfpn *d)
{
    DfpnKernel k = dfpn_value_kernel(d);
    k.read_only = true;
    return k;
}

/* How much of the game a winning move leaves to prove: for Chaos the live
 * windows first (killing them ends a certificate early), then the table's
 * effort; a win decided without search costs nothing. */
static uint64_t remaining(Dfpn *d, Board cb, Winner winner, const DfpnChild *c)
{
    uint64_t live = 0;
    if (winner == WINNER_CHAOS) {
        KnScan sc;
        kn_scan_masks(d->r, cb, &sc);
        live = (uint64_t)sc.nlive;
    }
    return (live << 32) | c->work;
}

/* Of the moves the table already knows to win, the one leaving least to
 * prove (the first such in move order); MOVE_NONE if the table knows none.
 * The certificate writer asks this at every one of the winner's positions,
 * so it is done as expand does: every child's static half first (which
 * prefetches its fingerprints), then the buckets, then the probes in move
 * order, the same sequence of table operations as one child at a time.
 * Two shortcuts change no choice: a winning child with nothing left to
 * prove (rest 0) cannot be beaten by a later one (a later one wins only
 * with a smaller rest), so the probes stop there; and for Order no
 * pairing test is made on a child the table misses, since a pairing only
 * ever shows a Chaos win, never the Order win looked for. */
static Move known_winning_move(Dfpn *d, Board b, Winner winner, const MoveList *ml)
{
    DfpnChild ch[MOVES_MAX];
    DfpnKernel k = reader_kernel(d);
    int16_t nmoves[MOVES_MAX], nlive[MOVES_MAX];
    KnNode kn;
    kn_node(d->r, &d->cfg.kn, b, &kn); /* the dead cells, for cheap child keys */
    KnKeyBase base;
    kn_key_base(d->r, &d->cfg.kn, b, kn.dead, &base);
    for (int i = 0; i < ml->count; i++) {
        Board cb = b;
        board_place(&cb, ml->m[i]);
        int nl = -1;
        nmoves[i] = (int16_t)dfpn_kernel_static(&k, &base, cb, ml->m[i], 0, &ch[i], &nl, false);
        nlive[i] = (int16_t)(winner == WINNER_ORDER ? KERNEL_NLIVE_SKIP_PAIRING : nl);
    }
    for (int i = 0; i < ml->count; i++)
        if (!ch[i].exact) tt_prefetch_held(d->tt, ch[i].h);
    Move best = MOVE_NONE;
    uint64_t best_rest = UINT64_MAX;
    for (int i = 0; i < ml->count && best_rest != 0; i++) {
        DfpnChild *c = &ch[i];
        Board cb = b;
        board_place(&cb, c->move);
        if (!c->exact) dfpn_kernel_table(&k, cb, nmoves[i], nlive[i], c, false);
        if ((winner == WINNER_ORDER ? c->pn : c->dn) != 0) continue;
        uint64_t rest = remaining(d, cb, winner, c);
        if (rest < best_rest) {
            best_rest = rest;
            best = c->move;
        }
    }
    return best;
}

/* The move the table stored with b's own entry, when b's entry says the
 * winner wins and that move's child is known to win too (decided by the
 * rules or knowledge, or by its own entry); else MOVE_NONE. One node's
 * worth of work instead of known_winning_move's ~70 children: measured,
 * the certificate writer's main cost. Sound whatever the entry holds: the
 * move is checked to be legal on b and its child's win is read from the
 * child's own entry (exact keys), exactly as known_winning_move reads it.
 * The stored move is the one df-pn chose at a position with b's key, which
 * may be another position of the same key (a symmetric image, or dead
 * cells elsewhere); then it usually fails the checks and the caller falls
 * back. The chosen child is the one whose proof df-pn made, so its proof is
 * usually the one the table still holds. */
static Move stored_winning_move(Dfpn *d, Board b, Winner winner)
{
    KnNode kn;
    kn_node(d->r, &d->cfg.kn, b, &kn);
    if (kn.value != WINNER_NONE) return MOVE_NONE; /* decided without a move: not asked here */
    TTData e;
    if (!tt_probe(d->tt, kn_key(d->r, &d->cfg.kn, b, kn.dead), &e) || e.move == MOVE_NONE) return MOVE_NONE;
    if ((winner == WINNER_ORDER ? e.pn : e.dn) != 0) return MOVE_NONE;
    int cell = move_cell(e.move);
    if (!(d->r->cells >> cell & 1) || (board_occupied(b) >> cell & 1)) return MOVE_NONE;
    Board cb = b;
    board_place(&cb, e.move);
    DfpnChild c;
    DfpnKernel k = reader_kernel(d);
    int nl = -1;
    int nmoves = dfpn_kernel_static(&k, NULL, cb, e.move, 0, &c, &nl, false);
    if (!c.exact) dfpn_kernel_table(&k, cb, nmoves, winner == WINNER_ORDER ? KERNEL_NLIVE_SKIP_PAIRING : nl, &c, false);
    return (winner == WINNER_ORDER ? c.pn : c.dn) == 0 ? e.move : MOVE_NONE;
}

/* The move the side table (wintab.h) holds for b or, failing that, for
 * one of b's geometric images (the search may have proven the image the
 * writer's walk meets first in another frame), mapped back into b's
 * frame; MOVE_NONE if none, or if it is not a move on an empty cell of b
 * (only a bug could store one; the writer then looks further). */
static Move side_winning_move(Dfpn *d, Board b)
{
    if (!d->wins) return MOVE_NONE;
    const int n = d->r->n;
    Move m = wintab_get(d->wins, b);
    for (int g = 1; g < SYM_GEOMETRIC && m == MOVE_NONE; g++) {
        Move mi = wintab_get(d->wins, sym_apply(b, g, n));
        if (mi != MOVE_NONE) m = sym_move(mi, sym_inverse(g), n);
    }
    if (m == MOVE_NONE || (m & ~(Move)127)) return MOVE_NONE;
    int cell = move_cell(m);
    if (!(d->r->cells >> cell & 1) || (board_occupied(b) >> cell & 1)) return MOVE_NONE;
    return m;
}

/* The table has lost b's winning moves: search b itself, which leaves
 * its children's numbers in the table, the winning ones among them (one
 * search, not one per move: a losing move's search is a whole disproof,
 * and the first move found winning is seldom the one with the smallest
 * proof below it); if they are lost again at once (a tiny table), search
 * each move in turn. */
static Move search_for_move(Dfpn *d, Board b, Winner winner, const MoveList *ml)
{
    uint32_t pn, dn;
    Move best;
    if (dfpn_solve(d, b, &pn, &dn) == winner && (best = known_winning_move(d, b, winner, ml)) != MOVE_NONE)
        return best;
    if (d->stopped) return MOVE_NONE;
    for (int i = 0; i < ml->count; i++) {
        Board cb = b;
        board_place(&cb, ml->m[i]);
        if (dfpn_solve(d, cb, &pn, &dn) == winner) return ml->m[i];
        if (d->stopped) return MOVE_NONE;
    }
    return MOVE_NONE;
}

/* search_for_move on d's table or, with d->scratch, by a searcher of one
 * thread on the scratch table with d's settings, limits and side table:
 * its nodes count as d's, a limit that stops it stops d. */
static Move searched_winning_move(Dfpn *d, Board b, Winner winner, const MoveList *ml)
{
    if (!d->scratch) return search_for_move(d, b, winner, ml);
    Dfpn s;
    dfpn_init(&s, d->r, &d->cfg, d->scratch);
    s.lim = d->lim;
    s.wins = d->wins;
    s.started = d->started;
    s.next_report = d->next_report;
    Move m = search_for_move(&s, b, winner, ml);
    d->nodes += s.nodes;
    d->stopped = s.stopped;
    return m;
}

Move dfpn_winning_move(Dfpn *d, Board b, Winner winner)
{
    /* Order's move at a position the threat search wins (statically, or
     * as a node of such a proof): the certificate writer meets these where
     * df-pn stored a proof without a move, or none at all. */
    DfpnKernel k = dfpn_value_kernel(d);
    DfpnMoveStats *st = &d->moves;
    bool order = winner == WINNER_ORDER && board_order_to_move(b);
    Move best = order ? dfpn_kernel_threat_move(&k, b, d->cfg.kn.threat_plies) : MOVE_NONE;
    if (best != MOVE_NONE) return st->threat++, best;
    /* Where df-pn expanded and proved b, the side table has its move. */
    best = order ? side_winning_move(d, b) : MOVE_NONE;
    if (best != MOVE_NONE) return st->side++, best;
    best = stored_winning_move(d, b, winner);
    if (best != MOVE_NONE) return st->stored++, best;
    MoveList ml;
    moves_generate(b, d->r->cells, &ml);
    best = known_winning_move(d, b, winner, &ml);
    if (best != MOVE_NONE) return st->known++, best;
    uint64_t nodes = d->nodes;
    best = searched_winning_move(d, b, winner, &ml);
    st->searched++;
    st->search_nodes += d->nodes - nodes;
    return best;
}
