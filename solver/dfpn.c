/* dfpn.c - see dfpn.h. */
#include "dfpn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/moves.h"
#include "clock.h"
#include "dedupe.h"
#include "dfpn_internal.h"
#include "pairing.h"
#include "threats.h"

enum { NODE_BATCH = LIMITS_CLOCK_EVERY };

/* The root's pairing budget (steps of pairing_find): the empty 6x6 board
 * under exact-end takes a few hundred, a failing search on an opening
 * position about 5 ms. */
enum { DFPN_ROOT_PAIRING = 20000 };

/* Boards on which the pairing test failed, direct-mapped by a hash of the
 * board. A child that misses the table is tested for pairing, and fails
 * are not stored in the table, so the same child was tested again each
 * time its parent was expanded (a third of all tests, measured on the
 * bench with these 16 K slots). The test is a pure function of the board,
 * so remembering it changes no number. One memo per thread, for the
 * duration of a dfpn_solve; a child never has an empty board, so the zero
 * slot means "free". */
enum { MEMO_BITS = 14, THREAT_MEMO_BITS = 16 };

typedef struct {
    Board key;
    uint64_t h; /* tt_hash(key), for the prefetches and the probe */
    Move move;
    bool exact; /* pn/dn decided without the table: never re-probed */
    uint32_t pn, dn;
    uint32_t work; /* table's effort for it; 0 when decided without search */
} Child;

/* The phi number another thread's presence makes a child look like: one
 * more per thread inside it (Kaneko's virtual numbers). Measured on 8
 * positions of bench/speedup-positions.txt, 2 threads: +1 per thread took
 * 1.06x one thread's nodes, doubling per thread 1.12x. Decided numbers
 * stay as they are. */
static inline uint32_t virtual_phi(uint32_t phi, unsigned busy)
{
    if (phi == 0 || phi == DFPN_INF || busy == 0) return phi;
    uint64_t v = (uint64_t)phi + busy;
    return v >= DFPN_INF ? DFPN_INF - 1 : (uint32_t)v;
}

DfpnConfig dfpn_default_config(void)
{
    return (DfpnConfig){.epsilon = 0.5, .chaos_pn_moves = true, .order_dn_moves = true, .kn = {.threats = true, .dead_cells = true, .sym_pieces = 8, .pairing = 32, .centre = true, .pairing_live = 12, .threat_plies = THREATS_DEFAULT_PLIES, .threat_nodes = THREATS_DEFAULT_NODES}};
}

void dfpn_init(Dfpn *d, const Rules *r, const DfpnConfig *cfg, TT *tt)
{
    *d = (Dfpn){.r = r, .cfg = *cfg, .tt = tt};
    centre_init(&d->centre, r);
    d->centre.on = d->centre.on && cfg->kn.centre;
    /* The small game's table is built on first use (centre_small_win,
     * thread-safe): most solves never meet a position whose pairs allow
     * the lemma, and building it costs 0.6 s. */
}

static inline Board *memo_slot(Dfpn *d, Board b)
{
    uint64_t h = b.s[0] * 0x9E3779B97F4A7C15ULL ^ b.s[1] * 0xC2B2AE3D27D4EB4FULL;
    return &d->memo[h >> (64 - MEMO_BITS)];
}

/* The threat searches' results at expanded Order nodes (threats.h),
 * direct-mapped by a hash of the board, after the pairing memo in the same
 * block: the search is a function of the board alone, and df-pn enters a
 * node again each time it comes back to it. A won board carries
 * THREAT_MEMO_WON in its O word's row 7 (off the board for n <= 7; no memo
 * on 8x8). Like the pairing memo it changes no number, only the work. */
#define THREAT_MEMO_WON (1ULL << 63)

static inline Board *threat_slot(Dfpn *d, Board b)
{
    uint64_t h = b.s[0] * 0xC2B2AE3D27D4EB4FULL ^ b.s[1] * 0x9E3779B97F4A7C15ULL;
    return &d->memo[((size_t)1 << MEMO_BITS) + (h >> (64 - THREAT_MEMO_BITS))];
}

/* h: the hash of b's table key, whose bucket a win is stored into. */
static bool chaos_pairs(Dfpn *d, Board b, uint64_t h)
{
    Board *m = d->memo ? memo_slot(d, b) : NULL;
    if (m && board_equal(*m, b)) return false;
    /* The bucket a win goes into (the probe that led here read only the
     * fingerprints) loads while the test runs. */
    tt_prefetch_hashed(d->tt, h);
    bool win = kn_chaos_pairs(d->r, &d->cfg.kn, b);
    if (!win && m) *m = b;
    return win;
}

/* Order's forcing sequences (threats.h) as a static Order win, at an
 * ongoing position with Order to move that kn_node (kn) left open, within
 * plies: the full bound where df-pn expands a node (with the memo), the
 * short one (THREATS_CHILD_PLIES) at every child it generates (cheap: one
 * scan and the four-makers' windows; no memo, which would cost a cache miss
 * as dear as the search). Measured: threats.h. */
static bool threat_win(Dfpn *d, Board b, const KnNode *kn, int plies)
{
    if (!threats_may(d->r, &d->cfg.kn, kn->maker)) return false;
    bool full = plies == d->cfg.kn.threat_plies;
    Board *m = full && d->memo && d->r->n < 8 ? threat_slot(d, b) : NULL;
    if (m && m->s[PIECE_X] == b.s[PIECE_X] && (m->s[PIECE_O] & ~THREAT_MEMO_WON) == b.s[PIECE_O])
        return m->s[PIECE_O] & THREAT_MEMO_WON;
    ThreatWin w;
    bool won = threats_win(d->r, &d->cfg.kn, b, kn->maker, plies, (uint32_t)d->cfg.kn.threat_nodes, &w);
    d->threat_calls++;
    d->threat_wins += won;
    d->threat_spent += w.nodes;
    if (m) *m = (Board){{b.s[PIECE_X], b.s[PIECE_O] | (won ? THREAT_MEMO_WON : 0)}};
    return won;
}

/* The short bound at generated children (above). */
static inline int child_plies(const Dfpn *d)
{
    return d->cfg.kn.threat_plies < THREATS_CHILD_PLIES ? d->cfg.kn.threat_plies : THREATS_CHILD_PLIES;
}

Board *dfpn_memo_new(void) { return calloc(((size_t)1 << MEMO_BITS) + ((size_t)1 << THREAT_MEMO_BITS), sizeof(Board)); }

/* What a child is known to be without the table (evaluate's first half).
 * A decided child gets its numbers here (exact); an open one its key, and
 * its fingerprints (and its pairing memo slot) are prefetched: the probe
 * of a fresh child, most of them, reads no more (tt.h). Returns the
 * child's number of moves (open). */
static int evaluate_static(Dfpn *d, const KnKeyBase *base, Board b, Move m, Child *c, int *nlive)
{
    c->move = m;
    c->exact = true;
    c->work = 0;
    Winner st = rules_status_after(d->r, b, m);
    if (st != WINNER_NONE) {
        dfpn_numbers(st, &c->pn, &c->dn);
        return 0;
    }
    KnNode kn;
    kn_node(d->r, &d->cfg.kn, b, &kn);
    if (kn.value == WINNER_NONE && centre_win_stoppable(&d->centre, b, d->lim.interrupt)) kn.value = WINNER_ORDER;
    if (kn.value == WINNER_NONE && board_order_to_move(b) && threat_win(d, b, &kn, child_plies(d)))
        kn.value = WINNER_ORDER;
    if (kn.value != WINNER_NONE) {
        dfpn_numbers(kn.value, &c->pn, &c->dn);
        return 0;
    }
    c->exact = false;
    c->key = base ? kn_key_child(&d->cfg.kn, base, b, kn.dead) : kn_key(d->r, &d->cfg.kn, b, kn.dead);
    c->h = tt_hash(c->key);
    tt_prefetch_fp(d->tt, c->h);
    if (d->memo && kn_pairs_may(d->r, &d->cfg.kn, kn.nlive)) __builtin_prefetch(memo_slot(d, b));
    *nlive = kn.nlive;
    return kn.nmoves;
}

/* An nlive for evaluate_table meaning "no pairing test": for a caller
 * that wants Order's wins only, which pairing (a Chaos win) never gives. */
enum { NLIVE_SKIP_PAIRING = -2 };

/* The second half, for an open child: the table's numbers, else pairing,
 * else the initial numbers. Table operations happen here only, so running
 * every child's first half before any second half keeps the sequence of
 * probes and stores, and with it every number, as it was. */
static void evaluate_table(Dfpn *d, Board bin, int nmoves, int nlive, Child *c)
{
    Board b = board_regs(bin); /* see board_regs: a stall otherwise */
    TTData e;
    if (tt_probe_hashed(d->tt, c->key, c->h, &e)) {
        c->pn = e.pn;
        c->dn = e.dn;
        c->work = e.work;
    } else if (nlive != NLIVE_SKIP_PAIRING && kn_pairs_may(d->r, &d->cfg.kn, nlive) && chaos_pairs(d, b, c->h)) {
        /* Remembered, so that the pairing search is not run again here. */
        dfpn_numbers(WINNER_CHAOS, &c->pn, &c->dn);
        e = (TTData){c->pn, c->dn, 0, MOVE_NONE};
        tt_store(d->tt, c->key, &e);
    } else if (board_order_to_move(b)) {
        c->pn = 1;
        c->dn = d->cfg.order_dn_moves ? (uint32_t)nmoves : 1;
    } else {
        c->pn = d->cfg.chaos_pn_moves ? (uint32_t)nmoves : 1;
        c->dn = 1;
    }
}

/* The board's cells, nearest the centre first (ties by cell index): the
 * --order center move ordering. */
static int center_order(int n, int *cells)
{
    int k = 0;
    for (int dist = 0; dist <= 2 * (n - 1); dist++)
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                if (abs(2 * r - (n - 1)) + abs(2 * c - (n - 1)) == dist) cells[k++] = r * 8 + c;
    return k;
}

/* The moves the search tries at b (kn_node already said: open), in the
 * order cells ascending (or centre first, --order center), X then O, then
 * the dead-cell move. A child symmetric to one already there is left out:
 * where keys are canonical, equal keys are equal values, and counting one
 * twice would only inflate an AND node's proof number (or an OR node's
 * disproof number). */
static int expand(Dfpn *d, Board b, const KnNode *kn, Child *ch)
{
    bool dedupe = board_count(b) + 1 <= d->cfg.kn.sym_pieces;
    KnKeyBase base; /* the children's keys, incrementally (knowledge.h) */
    kn_key_base(d->r, &d->cfg.kn, b, kn->dead, &base);
    int16_t nmoves[MOVES_MAX + 1], nlive[MOVES_MAX + 1];
    int all = 0;
    int order[64], k = d->cfg.center_first ? center_order(d->r->n, order) : 0;
    for (int s = 0; s < 3; s++) {
        uint64_t cells = s < 2 ? kn->moves[s] : (kn->tempo ? kn->dead & -kn->dead : 0);
        int piece = s < 2 ? s : PIECE_X;
        for (int i = 0; cells; all++) {
            int cell;
            if (k && s < 2) {
                while (!(cells >> order[i] & 1)) i++;
                cell = order[i++];
                cells &= ~(1ULL << cell);
            } else {
                cell = bb_pop(&cells);
            }
            Board cb = b;
            Move m = move_make(piece, cell);
            board_place(&cb, m);
            int nl = -1;
            nmoves[all] = (int16_t)evaluate_static(d, &base, cb, m, &ch[all], &nl);
            nlive[all] = (int16_t)nl;
        }
    }
    /* The buckets of the children the table may hold, now that their
     * fingerprints are in (evaluate_static asked for them). Measured: the
     * same speed as asking a few children later inside the loop above. */
    for (int i = 0; i < all; i++)
        if (!ch[i].exact) tt_prefetch_held(d->tt, ch[i].h);
    int n = 0;
    uint8_t seen[DEDUPE_SLOTS];
    if (dedupe) memset(seen, 0, sizeof seen);
    for (int i = 0; i < all; i++) {
        Child *c = &ch[i];
        if (dedupe && !c->exact && dedupe_listed(seen, ch, sizeof *ch, offsetof(Child, key), n, c->key)) continue;
        if (!c->exact) {
            Board cb = b;
            board_place(&cb, c->move);
            evaluate_table(d, cb, nmoves[i], nlive[i], c);
        }
        /* n <= i: compacts in place. Copying only when a duplicate has left
         * a gap matters: the child was just written field by field, and
         * reading it back whole at once stalls on store forwarding. */
        if (n != i) ch[n] = *c;
        n++;
    }
    return n;
}

void dfpn_report(Dfpn *d)
{
    if (!d->lim.report) return;
    d->root.seconds = clock_seconds() - d->started;
    d->root.nodes = d->sh ? atomic_load_explicit(&d->sh->nodes, memory_order_relaxed) : d->nodes;
    d->root.tt_permille = tt_permille(d->tt);
    d->lim.report(&d->root, d->lim.report_arg);
}

static void maybe_report(Dfpn *d, double now)
{
    if (d->lim.report_every > 0 && now >= d->next_report) {
        d->next_report = now + d->lim.report_every;
        dfpn_report(d);
    }
}

/* With threads, limits apply to the total: each thread adds its nodes in
 * batches and raises the common stop flag; only thread 0 reports. */
static void check_shared_limits(Dfpn *d)
{
    DfpnShared *sh = d->sh;
    if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) d->stopped = true;
    /* A team's first thread (d->team set) spends its own budget: helpers
     * add work to a job, they never use up its budget (dfpn.h). */
    if (d->nodes % NODE_BATCH != 0) {
        /* A node budget is checked at every node on what is known of the
         * total (the others' flushed batches and this thread's own), so a
         * small budget (a job's) is not overshot by a whole batch. */
        uint64_t known = d->team ? d->nodes : atomic_load_explicit(&sh->nodes, memory_order_relaxed) + (d->nodes - d->flushed);
        if (d->lim.node_limit && known >= d->lim.node_limit) {
            atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
            d->stopped = true;
        }
        return;
    }
    uint64_t add = d->nodes - d->flushed;
    uint64_t total = atomic_fetch_add_explicit(&sh->nodes, add, memory_order_relaxed) + add;
    d->flushed = d->nodes;
    double now = clock_seconds();
    if (limits_hit(&d->lim, d->team ? d->nodes : total, now)) {
        atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
        d->stopped = true;
    }
    if (d->tid == 0) maybe_report(d, now);
}

static void check_limits(Dfpn *d)
{
    if (d->sh) {
        check_shared_limits(d);
        return;
    }
    double now = limits_clock_due(&d->lim, d->nodes) ? clock_seconds() : 0;
    if (limits_hit(&d->lim, d->nodes, now)) d->stopped = true;
    if (now > 0) maybe_report(d, now);
}

/* The root's figures for progress reports. */
static void note_root(Dfpn *d, const Child *ch, int n, uint32_t pn, uint32_t dn)
{
    d->root.pn = pn;
    d->root.dn = dn;
    d->root.moves = n;
    d->root.proven = d->root.disproven = 0;
    for (int i = 0; i < n; i++) {
        d->root.proven += ch[i].pn == 0;
        d->root.disproven += ch[i].dn == 0;
    }
}

/* A child another thread has decided meanwhile. Undecided numbers are not
 * re-read: a frame's own numbers for its children guide it better than the
 * table's, which other paths through the same position keep rewriting
 * (measured: re-reading them all costs 1.8x nodes on one thread). Called
 * for the chosen child only (see mid). */
static bool reprobe(Dfpn *d, Child *c)
{
    TTData e;
    if (c->pn == 0 || c->dn == 0 || !tt_probe(d->tt, c->key, &e)) return false;
    if (e.pn != 0 && e.dn != 0) return false;
    c->pn = e.pn;
    c->dn = e.dn;
    return true;
}

/* OR node: pn = min, dn = sum; AND node the other way round. Call the
 * "min" number phi and the "sum" number delta. With virtual, a child other
 * threads are in looks harder (virtual_phi); delta is always the real sum. */
static DfpnPick pick(Dfpn *d, const Child *ch, int n, bool order, bool virtual)
{
    DfpnPick p = dfpn_pick_start();
    for (int i = 0; i < n; i++) {
        const Child *c = &ch[i];
        uint32_t phi = order ? c->pn : c->dn;
        if (virtual && !c->exact) phi = virtual_phi(phi, tt_busy(d->tt, c->key));
        dfpn_pick_add(&p, i, phi, order ? c->dn : c->pn);
    }
    dfpn_pick_end(&p, n); /* unreachable for open nodes */
    return p;
}

/* Multiple-iterative deepening at an open position: search until its
 * numbers reach a threshold; returns them through *pn, *dn. */
static void mid(Dfpn *d, Board b, Board key, const KnNode *kn, uint32_t pt, uint32_t dt, uint32_t *pn, uint32_t *dn,
                bool root)
{
    Child ch[MOVES_MAX + 1];
    uint64_t start = d->nodes++;
    /* The node's own bucket, for its store at the end: its parent's probe
     * read only the fingerprints when the node was new. */
    tt_prefetch(d->tt, key);
    check_limits(d);
    bool order = board_order_to_move(b);
    if (order && threat_win(d, b, kn, d->cfg.kn.threat_plies)) {
        /* Proven without expanding it; stored as a proof with no move
         * (dfpn_winning_move asks the threat search for one). */
        dfpn_numbers(WINNER_ORDER, pn, dn);
        TTData e = {*pn, *dn, 1, MOVE_NONE};
        tt_store(d->tt, key, &e);
        return;
    }
    if (d->sh) tt_busy_add(d->tt, key, 1);
    int n = expand(d, b, kn, ch);
    Move best = MOVE_NONE;
    for (;;) {
        DfpnPick p = pick(d, ch, n, order, false);
        *pn = order ? p.phi1 : p.delta;
        *dn = order ? p.delta : p.phi1;
        best = p.bi >= 0 ? ch[p.bi].move : MOVE_NONE;
        if (root) note_root(d, ch, n, *pn, *dn);
        if (*pn >= pt || *dn >= dt || *pn == 0 || *dn == 0 || d->stopped) break;

        /* Another thread may have decided the chosen child meanwhile: then
         * choose again. Only the chosen one is re-read; re-reading every
         * child every iteration cost 10% of a node's time for little. */
        if (d->sh && !ch[p.bi].exact && reprobe(d, &ch[p.bi])) continue;
        uint32_t phi_t = order ? pt : dt, delta_t = order ? dt : pt;
        if (d->sh && tt_busy(d->tt, ch[p.bi].key)) {
            /* Steer clear of children other threads are in, unless the one
             * chosen instead is already past this node's threshold (it would
             * return at once, and this thread would spin). A best child no
             * thread is in stays the choice: virtual numbers only grow. */
            DfpnPick v = pick(d, ch, n, order, true);
            if (v.bi != p.bi && (order ? ch[v.bi].pn : ch[v.bi].dn) < phi_t) {
                p.bi = v.bi;
                p.phi2 = v.phi2;
            }
        }
        Child *c = &ch[p.bi];
        uint32_t cphi_t, cdelta_t;
        dfpn_child_thresholds(p.phi2, p.delta, order ? c->dn : c->pn, phi_t, delta_t, d->cfg.epsilon, &cphi_t,
                              &cdelta_t);

        Board cb = b;
        board_place(&cb, c->move);
        KnNode ckn;
        kn_node(d->r, &d->cfg.kn, cb, &ckn);
        uint32_t cpn, cdn;
        if (order)
            mid(d, cb, c->key, &ckn, cphi_t, (uint32_t)cdelta_t, &cpn, &cdn, false);
        else
            mid(d, cb, c->key, &ckn, (uint32_t)cdelta_t, cphi_t, &cpn, &cdn, false);
        c->pn = cpn;
        c->dn = cdn;
    }
    uint64_t work = d->nodes - start;
    TTData e = {*pn, *dn, work > UINT32_MAX ? UINT32_MAX : (uint32_t)work, best};
    tt_store(d->tt, key, &e);
    if (d->sh) tt_busy_add(d->tt, key, -1);
}

/* The whole search from a position under dfpn_solve's three modes; the
 * threaded and team modes are in dfpn_team.c. */
void dfpn_mid_root(Dfpn *d, Board b, Board key, const KnNode *kn, bool root, uint32_t *pn, uint32_t *dn)
{
    mid(d, b, key, kn, DFPN_INF, DFPN_INF, pn, dn, root);
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
    if (kn.value == WINNER_NONE && centre_win_stoppable(&d->centre, b, d->lim.interrupt)) kn.value = WINNER_ORDER;
    if (kn.value == WINNER_NONE && board_order_to_move(b) && threat_win(d, b, &kn, d->cfg.kn.threat_plies))
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
        d->memo = dfpn_memo_new();
        dfpn_mid_root(d, b, key, &kn, true, pn, dn);
        free(d->memo);
        d->memo = NULL;
    }
    return dfpn_winner(*pn, *dn);
}

/* How much of the game a winning move leaves to prove: for Chaos the live
 * windows first (killing them ends a certificate early), then the table's
 * effort; a win decided without search costs nothing. */
static uint64_t remaining(Dfpn *d, Board cb, Winner winner, const Child *c)
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
    Child ch[MOVES_MAX];
    int16_t nmoves[MOVES_MAX], nlive[MOVES_MAX];
    KnNode kn;
    kn_node(d->r, &d->cfg.kn, b, &kn); /* the dead cells, for cheap child keys */
    KnKeyBase base;
    kn_key_base(d->r, &d->cfg.kn, b, kn.dead, &base);
    for (int i = 0; i < ml->count; i++) {
        Board cb = b;
        board_place(&cb, ml->m[i]);
        int nl = -1;
        nmoves[i] = (int16_t)evaluate_static(d, &base, cb, ml->m[i], &ch[i], &nl);
        nlive[i] = (int16_t)(winner == WINNER_ORDER ? NLIVE_SKIP_PAIRING : nl);
    }
    for (int i = 0; i < ml->count; i++)
        if (!ch[i].exact) tt_prefetch_held(d->tt, ch[i].h);
    Move best = MOVE_NONE;
    uint64_t best_rest = UINT64_MAX;
    for (int i = 0; i < ml->count && best_rest != 0; i++) {
        Child *c = &ch[i];
        Board cb = b;
        board_place(&cb, c->move);
        if (!c->exact) evaluate_table(d, cb, nmoves[i], nlive[i], c);
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
    Child c;
    int nl = -1;
    int nmoves = evaluate_static(d, NULL, cb, e.move, &c, &nl);
    if (!c.exact) evaluate_table(d, cb, nmoves, winner == WINNER_ORDER ? NLIVE_SKIP_PAIRING : nl, &c);
    return (winner == WINNER_ORDER ? c.pn : c.dn) == 0 ? e.move : MOVE_NONE;
}

/* Order's move at a position the threat search wins (statically, or as a
 * node of such a proof): the certificate writer meets these where df-pn
 * stored a proof without a move, or none at all. MOVE_NONE when it does not
 * win (threats_move: complete within its budget). */
static Move threat_move(Dfpn *d, Board b)
{
    KnNode kn;
    ThreatWin w;
    kn_node(d->r, &d->cfg.kn, b, &kn);
    if (kn.value != WINNER_NONE || !threats_may(d->r, &d->cfg.kn, kn.maker)) return MOVE_NONE;
    return threats_move(d->r, &d->cfg.kn, b, d->cfg.kn.threat_plies, &w) ? w.move : MOVE_NONE;
}

Move dfpn_winning_move(Dfpn *d, Board b, Winner winner)
{
    Move best = winner == WINNER_ORDER && board_order_to_move(b) ? threat_move(d, b) : MOVE_NONE;
    if (best != MOVE_NONE) return best;
    best = stored_winning_move(d, b, winner);
    if (best != MOVE_NONE) return best;
    MoveList ml;
    moves_generate(b, d->r->cells, &ml);
    best = known_winning_move(d, b, winner, &ml);
    if (best != MOVE_NONE) return best;
    /* The table has lost them: search the position itself, which leaves
     * its children's numbers in the table, the winning ones among them
     * (one search, not one per move: a losing move's search is a whole
     * disproof, and the first move found winning is seldom the one with
     * the smallest proof below it). */
    uint32_t pn, dn;
    if (dfpn_solve(d, b, &pn, &dn) == winner && (best = known_winning_move(d, b, winner, &ml)) != MOVE_NONE)
        return best;
    if (d->stopped) return MOVE_NONE;
    /* Lost again at once (a tiny table): search each move in turn. */
    for (int i = 0; i < ml.count; i++) {
        Board cb = b;
        board_place(&cb, ml.m[i]);
        uint32_t pn, dn;
        if (dfpn_solve(d, cb, &pn, &dn) == winner) return ml.m[i];
        if (d->stopped) return MOVE_NONE;
    }
    return MOVE_NONE;
}
