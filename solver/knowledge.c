/* knowledge.c - see knowledge.h for what is known and why it is sound. */
#include "knowledge.h"

#include <stddef.h>
#include <string.h>

#include "../engine/symmetry.h"

/* A KnScan is the engine's window scan (rules_scan: fours, four makers,
 * live cells) under the rule-set adjustment below, plus the list of live
 * windows, which only pairing and proofs read (kn_node reads the masks
 * only). */

/* The rule-set adjustment: under exact-end nothing is won before the
 * board is full, so only the last cell can complete a line, and no move
 * makes a four. */
static inline void scan_adjust(const Rules *r, Board b, RulesScan *m)
{
    if (r->rules == RULES_EXACT_END) {
        rules_winning_cells(r, b, m->win);
        m->maker[0] = m->maker[1] = 0;
    }
}

/* Completes a scan from its masks. */
static inline void scan_finish(const Rules *r, Board b, RulesScan m, KnScan *out)
{
    scan_adjust(r, b, &m);
    out->nlive = m.nlive;
    out->relevant = m.live_cells;
    out->win[0] = m.win[0];
    out->win[1] = m.win[1];
    out->maker[0] = m.maker[0];
    out->maker[1] = m.maker[1];
}

/* The empty cells of each live window, in window order; returns their
 * number. */
static inline int scan_live(const Rules *r, Board b, KnScan *out)
{
    const uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O], occ = x | o;
    const bool ends_matter = r->rules != RULES_ORIGINAL;
    int n = 0;
    for (int i = 0; i < r->nwin; i++) {
        uint64_t w = r->win[i], e = ends_matter ? r->ends[i] : 0;
        bool live = ((o & w) == 0 && (x & e) == 0) || ((x & w) == 0 && (o & e) == 0);
        out->live[n] = w & ~occ;
        n += live;
    }
    return n;
}

void kn_scan(const Rules *r, Board b, KnScan *out)
{
    scan_finish(r, b, rules_scan(r, b.s[PIECE_X], b.s[PIECE_O]), out);
    scan_live(r, b, out);
}

/* Does Chaos's move m leave Order without a win at once (and not end the
 * game in Order's favour itself)? Checked by playing it. */
static bool safe_by_play(const Rules *r, Board b, Move m)
{
    board_place(&b, m);
    Winner st = rules_status_after(r, b, m);
    if (st == WINNER_ORDER) return false;
    if (st == WINNER_CHAOS) return true;
    uint64_t w[2];
    rules_winning_cells(r, b, w);
    return (w[0] | w[1]) == 0;
}

/* Chaos's plies to defeat when no move is safe: one if every move
 * completes a line, else two. */
static int zugzwang_dtw(const Rules *r, Board b, uint64_t empty)
{
    for (uint64_t e = empty; e;) {
        int c = bb_pop(&e);
        for (int s = 0; s < 2; s++) {
            Board t = b;
            Move m = move_make(s, c);
            board_place(&t, m);
            if (rules_status_after(r, t, m) != WINNER_ORDER) return 2;
        }
    }
    return 1;
}

void kn_node(const Rules *r, const Knowledge *kn, Board bin, KnNode *out)
{
    Board b = board_regs(bin); /* see board_regs: a stall otherwise */
    uint64_t empty = r->cells & ~board_occupied(b);
    out->value = WINNER_NONE;
    out->dtw = 0;
    out->tempo = 0;
    out->dead = 0;
    out->nlive = -1;
    out->moves[0] = out->moves[1] = empty;
    if (!kn->threats && !kn->dead_cells) {
        out->nmoves = 2 * __builtin_popcountll(empty);
        return;
    }
    /* The scan's masks only: kn_node never reads the live-window list. */
    RulesScan sc = rules_scan(r, b.s[PIECE_X], b.s[PIECE_O]);
    scan_adjust(r, b, &sc);
    out->nlive = sc.nlive;
    uint64_t cand = empty;
    if (kn->dead_cells) {
        cand = empty & sc.live_cells;
        if (cand == 0) {
            /* Nothing can change any more. Under original and exact a
             * standing line would already have ended the game. */
            bool line = rules_has_line(r, b);
            out->value = line ? WINNER_ORDER : WINNER_CHAOS;
            out->dtw = __builtin_popcountll(empty); /* exact-end: judged on the full board */
            out->nmoves = 0;
            return;
        }
        out->dead = empty & ~sc.live_cells;
        out->tempo = out->dead != 0;
    }
    out->moves[0] = out->moves[1] = cand;
    if (kn->threats) {
        uint64_t four = sc.win[0] | sc.win[1];
        if (board_order_to_move(b)) {
            if (four) {
                out->value = WINNER_ORDER;
                out->dtw = 1;
                out->nmoves = 0;
                return;
            }
        } else if (four || (r->rules == RULES_EXACT_END && __builtin_popcountll(empty) <= 2)) {
            /* Play each candidate: under original only the single four cell
             * can be safe, and two or more four cells leave nothing. */
            if (r->rules == RULES_ORIGINAL) cand &= __builtin_popcountll(four) == 1 ? four : 0;
            uint64_t safe[2] = {0, 0};
            for (uint64_t e = cand; e;) {
                int c = bb_pop(&e);
                for (int s = 0; s < 2; s++)
                    if (safe_by_play(r, b, move_make(s, c))) safe[s] |= 1ULL << c;
            }
            out->moves[0] = safe[0];
            out->moves[1] = safe[1];
            /* A dead cell neither is nor spoils a four (it lies in no live
             * window and on no live window's end). Under exact-end with two
             * empty cells, play it too. */
            if (out->tempo && four) out->tempo = 0;
            if (out->tempo && !four)
                out->tempo = safe_by_play(r, b, move_make(PIECE_X, __builtin_ctzll(out->dead)));
            if ((safe[0] | safe[1]) == 0 && !out->tempo) {
                out->value = WINNER_ORDER;
                out->dtw = zugzwang_dtw(r, b, empty);
                out->nmoves = 0;
                return;
            }
        } else {
            out->moves[0] = cand & ~sc.maker[0];
            out->moves[1] = cand & ~sc.maker[1];
            if ((out->moves[0] | out->moves[1]) == 0 && !out->tempo) {
                out->value = WINNER_ORDER;
                out->dtw = 2; /* no four on the board: no move completes a line */
                out->nmoves = 0;
                return;
            }
        }
    }
    out->nmoves = __builtin_popcountll(out->moves[0]) + __builtin_popcountll(out->moves[1]) + out->tempo;
}

typedef struct {
    const uint64_t *live;
    int nlive;
    uint64_t pair[32];
    int npairs;
    int budget;
} Pairing;

/* Cover windows from index i on, given the pairs chosen so far (their cells in used). */
static bool pair_from(Pairing *p, int i, uint64_t used)
{
    for (; i < p->nlive; i++) {
        uint64_t w = p->live[i];
        bool covered = false;
        for (int j = 0; j < p->npairs && !covered; j++) covered = (p->pair[j] & w) == p->pair[j];
        if (covered) continue;
        uint64_t free = w & ~used;
        if (__builtin_popcountll(free) < 2 || --p->budget < 0) return false;
        for (uint64_t a = free; a;) {
            uint64_t abit = a & -a;
            a ^= abit;
            for (uint64_t rest = a; rest;) {
                uint64_t bbit = rest & -rest;
                rest ^= bbit;
                p->pair[p->npairs++] = abit | bbit;
                if (pair_from(p, i + 1, used | abit | bbit)) return true;
                p->npairs--;
                if (p->budget < 0) return false;
            }
        }
        return false;
    }
    return true;
}

/* The same search as pair_from, for at most 64 windows, with the windows
 * already covered kept as a bit set: win_of[c] holds the windows that
 * contain cell c, so a new pair {a, b} covers win_of[a] & win_of[b], and
 * the next window to cover is one count-trailing-zeros away instead of a
 * loop over windows and pairs. It spends its budget exactly as pair_from
 * does (the same windows, pairs and order), so it gives the same answer
 * even when the budget runs out. */
typedef struct {
    const uint64_t *live;
    uint64_t all; /* the windows, as a bit set */
    uint64_t win_of[65]; /* [64]: a sink (fast_pairing) */
    int budget;
} FastPairing;

/* Covers window i (open, with at least two free cells) and every open
 * window after it. Where pair_from would call itself only to find that
 * the next open window has fewer than two free cells (and return false at
 * no cost to the budget), this looks first and skips the call. */
static bool fast_pair_from(FastPairing *p, int i, uint64_t used, uint64_t covered)
{
    if (--p->budget < 0) return false;
    uint64_t free = p->live[i] & ~used;
    uint64_t later = i == 63 ? 0 : p->all & (~0ULL << (i + 1));
    for (uint64_t a = free; a;) {
        int ac = bb_pop(&a);
        for (uint64_t rest = a; rest;) {
            int bc = bb_pop(&rest);
            uint64_t u = used | (1ULL << ac) | (1ULL << bc), c = covered | (p->win_of[ac] & p->win_of[bc]);
            uint64_t open = later & ~c;
            if (open == 0) return true;
            int j = __builtin_ctzll(open);
            if (__builtin_popcountll(p->live[j] & ~u) >= 2 && fast_pair_from(p, j, u, c)) return true;
            if (p->budget < 0) return false;
        }
    }
    return false;
}

static bool fast_pairing(const uint64_t *live, int n, int budget)
{
    FastPairing p;
    p.live = live;
    p.all = n == 64 ? ~0ULL : (1ULL << n) - 1;
    p.budget = budget;
    memset(p.win_of, 0, sizeof p.win_of);
    /* Every window takes the same number of steps (the most empty cells
     * any has), the steps past its own cells landing in the sink
     * win_of[64]: a loop whose length varied with each window mispredicted
     * its exit once per window. */
    int most = 0;
    for (int i = 0; i < n; i++) {
        int c = __builtin_popcountll(live[i]);
        most = c > most ? c : most;
    }
    for (int i = 0; i < n; i++) {
        uint64_t m = live[i], bit = 1ULL << i;
        for (int j = 0; j < most; j++) {
            p.win_of[m ? __builtin_ctzll(m) : 64] |= bit;
            m &= m - 1;
        }
    }
    if (n == 0) return true;
    return __builtin_popcountll(live[0]) >= 2 && fast_pair_from(&p, 0, 0, 0);
}

bool kn_pairing(const KnScan *sc, int budget)
{
    /* Most constrained windows first: a window with fewer empty cells has
     * fewer pairs to choose from and fails soonest. A stable counting sort
     * on the empty count (2..7, and 8 for all larger), so windows of equal
     * count keep their scan order. */
    uint64_t live[RULES_MAX_WINDOWS];
    uint8_t key[RULES_MAX_WINDOWS];
    int start[10] = {0};
    for (int i = 0; i < sc->nlive; i++) {
        int c = __builtin_popcountll(sc->live[i]);
        if (c < 2) return false;
        key[i] = (uint8_t)(c > 8 ? 8 : c);
        start[key[i] + 1]++;
    }
    for (int c = 3; c <= 9; c++) start[c] += start[c - 1];
    for (int i = 0; i < sc->nlive; i++) live[start[key[i]]++] = sc->live[i];
    if (sc->nlive <= 64) return fast_pairing(live, sc->nlive, budget);
    Pairing p = {live, sc->nlive, {0}, 0, budget};
    return pair_from(&p, 0, 0);
}

bool kn_chaos_pairs(const Rules *r, const Knowledge *kn, Board b)
{
    /* Pairing needs Order to move on an even number of empty cells or Chaos
     * on an odd one: on an even board that is every position. */
    if (!kn->pairing || (r->n & 1)) return false;
    KnScan sc; /* only the live list: pairing reads nothing else */
    sc.nlive = scan_live(r, b, &sc);
    return sc.nlive <= kn->pairing_live && kn_pairing(&sc, kn->pairing);
}

Board kn_key(const Rules *r, const Knowledge *kn, Board b, uint64_t dead)
{
    bool fill = kn->dead_cells && r->n <= 7;
    Board k = b;
    if (fill) k.s[PIECE_X] |= dead;
    if (board_count(b) <= kn->sym_pieces) k = sym_canonical(k, r->n, NULL);
    if (fill) k.s[PIECE_X] |= (uint64_t)__builtin_popcountll(dead) << 56;
    return k;
}
