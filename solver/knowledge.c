/* knowledge.c - see knowledge.h for what is known and why it is sound. */
#include "knowledge.h"

#include <stddef.h>
#include <string.h>

#include "../engine/symmetry.h"
#include "pairing.h"

/* Under exact-end pairing_find runs at every node (knowledge.h), with this
 * many times the budget: positions there have far more live windows. */
enum { KN_PAIRING_EXACT_END = 8 };

/* On odd boards (the breakable form, at every node as under exact-end),
 * this many times the budget: a pairing there needs about one step per
 * line (20 on 7x7 k = 6), and most that were found took 16 or more of 32.
 * 7x7 k = 6 `original`, one thread, slack 7 (below), machine busy with two
 * other runs at nice 19; budget 32 / 64 / 96:
 *   X b2: 113 923 / 66 076 / 48 840 nodes, 13.8 / 12.8 / 10.5 s
 *   X c3: 213 808 / 84 947 / 59 641 nodes, 24.7 / 12.7 / 14.0 s
 *   X d4:  84 063 / 47 758 / 35 015 nodes, 11.9 / 11.2 / 10.8 s
 *   X d3: (428 074 nodes, 95 s at nice 19) / 142 958 / 121 261 nodes,
 *         33.8 / 39.2 s
 * and with 64, slack 5 or 9 instead of 7 took 1.5 to 4 times as long. */
enum { KN_PAIRING_ODD = 2 };

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

void kn_scan_masks(const Rules *r, Board b, KnScan *out)
{
    scan_finish(r, b, rules_scan(r, b.s[PIECE_X], b.s[PIECE_O]), out);
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
 * completes a line, else two. The moves by hand, not moves_generate:
 * kn_node runs at every node of every search, and this loop stops at the
 * first move that does not complete a line instead of listing all first. */
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

bool kn_secured(const Rules *r, Board b)
{
    if (r->rules != RULES_EXACT_END) return false;
    /* Branch-free, both symbols in one pass with no early exit: kn_node asks
     * at every node, nearly always in vain, and a loop that stopped at the
     * first hit ran scalar (about 15 % of the 6x6 k=4 exact-end search's
     * time once the pairing search was gated; results/solve/exact-end-k4.md). */
    const uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O];
    uint64_t hit = 0;
    for (int i = 0; i < r->nwin; i++) {
        uint64_t w = r->win[i], e = r->ends[i];
        hit |= ((x & w) == w && (o & e) == e) | ((o & w) == w && (x & e) == e);
    }
    return hit != 0;
}

/* A node its knowledge decides: w wins in dtw plies, nothing to search. */
static inline void decided(KnNode *out, Winner w, int dtw)
{
    out->value = w;
    out->dtw = dtw;
    out->nmoves = 0;
}

/* The moves that spoil every four on b (original, exact; Chaos to move):
 * out[S] &= the cells where S spoils them all. A four of S is a window
 * live for S (no T in it and, under exact, no S on its ends) holding one
 * empty cell f (rules_scan). After T on f it holds a T; after S on one of
 * its ends (exact only) a run of S through it would be longer than k: it
 * is no longer live for S either way. Any other move leaves it a four: S
 * on f completes it, and every other cell is off the window (its only
 * empty cell is f), so the move adds no T to it and no S to its ends (a T
 * on an end changes nothing for S). Hence every safe move spoils every
 * four, and safe_by_play need try only these, which are few (under
 * original only T on f, so two fours with different cells leave none).
 * Why: kn_node tried every live cell with both symbols by play, and under
 * exact that was 40 % of a search's time (perf, X a1 X c1 exact, 15 s:
 * 26 K nodes/s against 133 K under original, which had the original-only
 * shortcut this replaces). The same safe moves, so the same search:
 * knowledge::chaos_moves_at_a_four_are_the_safe_ones checks kn_node's list
 * against the tests' own rules by play. */
static inline void four_spoilers(const Rules *r, Board b, uint64_t out[2])
{
    const uint64_t occ = board_occupied(b);
    const bool ends_matter = r->rules != RULES_ORIGINAL;
    for (int i = 0; i < r->nwin; i++) {
        uint64_t w = r->win[i], e = ends_matter ? r->ends[i] : 0, hole = w & ~occ;
        if (__builtin_popcountll(hole) != 1) continue;
        for (int s = 0; s < 2; s++) {
            if ((b.s[s ^ 1] & w) != 0 || (b.s[s] & e) != 0) continue; /* not live for s */
            out[s ^ 1] &= hole;
            out[s] &= e & ~occ;
        }
    }
}

/* Chaos to move with a four on the board (or, under exact-end, two empty
 * cells): Chaos's moves are the candidates that do not let Order complete
 * a line at once (played out), and a dead cell's tempo move only where no
 * four stands. Decides the node (an Order win) when no move is left. */
static inline void chaos_safe_moves(const Rules *r, Board b, uint64_t cand, uint64_t empty, uint64_t four, KnNode *out)
{
    uint64_t try[2] = {cand, cand};
    if (four && r->rules != RULES_EXACT_END) four_spoilers(r, b, try);
    uint64_t safe[2] = {0, 0}; /* masks per symbol, not a move list: by hand */
    for (int s = 0; s < 2; s++)
        for (uint64_t e = try[s] & cand; e;) {
            int c = bb_pop(&e);
            if (safe_by_play(r, b, move_make(s, c))) safe[s] |= 1ULL << c;
        }
    out->moves[0] = safe[0];
    out->moves[1] = safe[1];
    /* A dead cell neither is nor spoils a four (it lies in no live window
     * and on no live window's end). Under exact-end with two empty cells,
     * play it too. */
    if (out->tempo && four) out->tempo = 0;
    if (out->tempo && !four) out->tempo = safe_by_play(r, b, move_make(PIECE_X, __builtin_ctzll(out->dead)));
    if ((safe[0] | safe[1]) == 0 && !out->tempo) decided(out, WINNER_ORDER, zugzwang_dtw(r, b, empty));
}

/* Does the lines gate (pairing.h) come before the pairing test here? Where
 * pairing_find's search runs at every node (exact-end, odd boards). Under
 * original and exact on even boards the test is asked only with at most
 * pairing_live live windows, where pairing_opposite is about as cheap as
 * the gate's scan; with the gate there too (lines counted in every
 * kn_node scan) 6x6 k=5 original solves took 3-5 % longer, without it
 * they take what they took before (results/solve/exact-end-k4.md). */
static inline bool lines_gated(const Rules *r, const Knowledge *kn)
{
    return kn->pairing && kn->pairing_lines && (r->rules == RULES_EXACT_END || (r->n & 1));
}

/* Why the search with witnesses waits for slack on 7x7: on 7x7 k = 6
 * after X d4 the nodes tried it 5.37 M times for 83 844 nodes (every
 * child of every expanded node), and 95 % of the tries spent the whole
 * 32-step budget. By the slack of pairing_witness_slack the tries that
 * found a pairing were 3.1 K of 3.4 M at slack 0..6, and 257 K of 2.0 M at
 * 7 and more. Nodes and seconds (one thread, 256 MiB, budget 32, the
 * machine busy with other runs, so the seconds are rough), slack 0 / 7 / 9:
 *   X d4:  83 844 / 84 063 / 412 545 nodes
 *   X b2:  81 270 / 113 923 / 918 396 nodes, 25.8 / 8.0 / 51.4 s
 *   X c3: 209 192 / 213 808 / 734 977 nodes, 66.4 / 20.9 / 24.8 s
 * On 5x5 (12 lines, 25 cells) slack that large almost never comes, and
 * the tries are cheap: the empty 5x5 board with k = 5 (`original`, budget
 * 64) took 1 735 nodes with slack 0, 5 652 with 2, 307 273 with 4 and
 * 1 872 798 with 7. Hence a slack per board: 0 up to 5x5, 7 from 7x7 on.
 * Which tries run changes only the nodes, never a value: a pairing found
 * is checked as ever, and one not looked for proves nothing either way. */
static inline int witness_slack(const Rules *r, const Knowledge *kn)
{
    if (kn->pairing_witness_slack != KN_WITNESS_SLACK_BY_BOARD) return kn->pairing_witness_slack;
    return r->n >= 7 ? 7 : 0;
}

/* kn_pairs_quick's KN_PAIRS_NONE, read from kn_node's scan with its lines
 * (sc: rules_scan_lines, nempty empty cells) instead of two scans of its
 * own: on an odd board, a window clear of pieces (pairing_breakable_may
 * fails) leaves only the form with witnesses, behind its slack; else the
 * lines gate where it is on. Why: on 7x7 k = 6 pairing_witness_slack's own
 * scan, run for every new child, took 19 % of the search's time (perf,
 * X c1, 60 s). The same definitions as pairing.c's (a window live for S,
 * its line_bit, its ends when ends matter), so the same answer; the test
 * solver::kn_node_pairs_gate_is_kn_pairs_quick checks it on random
 * positions of every odd and even board and rule set. */
static bool pairs_none(const Rules *r, const Knowledge *kn, const RulesScan *sc, int nempty)
{
    if ((r->n & 1) && sc->clear)
        return !kn->pairing_witness ||
               pairing_witness_margin(sc->live_lines, sc->both_lines, nempty) < witness_slack(r, kn);
    return lines_gated(r, kn) && !pairing_lines_enough(sc->live_lines, nempty);
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
    out->no_pairing = false;
    out->maker[0] = out->maker[1] = 0;
    out->moves[0] = out->moves[1] = empty;
    if (!kn->threats && !kn->dead_cells) {
        out->nmoves = 2 * __builtin_popcountll(empty);
        return;
    }
    if (kn->threats && kn_secured(r, b)) {
        decided(out, WINNER_ORDER, __builtin_popcountll(empty)); /* judged on the full board */
        return;
    }
    /* The scan's masks only: kn_node never reads the live-window list. With
     * the lines gate (pairing.h) it can fail, the scan counts the lines
     * too, sparing the pairing test a scan of its own. */
    int nempty = __builtin_popcountll(empty);
    bool odd = kn->pairing && (r->n & 1);
    bool lines = odd || (lines_gated(r, kn) && 2 * r->nlines > nempty);
    RulesScan sc = lines ? rules_scan_lines(r, b.s[PIECE_X], b.s[PIECE_O]) : rules_scan(r, b.s[PIECE_X], b.s[PIECE_O]);
    scan_adjust(r, b, &sc);
    out->nlive = sc.nlive;
    out->no_pairing = lines && pairs_none(r, kn, &sc, nempty);
    uint64_t cand = empty;
    if (kn->dead_cells) {
        cand = empty & sc.live_cells;
        if (cand == 0) {
            /* Nothing can change any more. Under original and exact a
             * standing line would already have ended the game. */
            bool line = rules_has_line(r, b);
            decided(out, line ? WINNER_ORDER : WINNER_CHAOS, __builtin_popcountll(empty)); /* exact-end: the full board */
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
                decided(out, WINNER_ORDER, 1);
                return;
            }
            out->maker[0] = sc.maker[0];
            out->maker[1] = sc.maker[1];
        } else if (four || (r->rules == RULES_EXACT_END && __builtin_popcountll(empty) <= 2)) {
            chaos_safe_moves(r, b, cand, empty, four, out);
            if (out->value != WINNER_NONE) return;
        } else {
            out->moves[0] = cand & ~sc.maker[0];
            out->moves[1] = cand & ~sc.maker[1];
            if ((out->moves[0] | out->moves[1]) == 0 && !out->tempo) {
                decided(out, WINNER_ORDER, 2); /* no four on the board: no move completes a line */
                return;
            }
        }
    }
    out->nmoves = __builtin_popcountll(out->moves[0]) + __builtin_popcountll(out->moves[1]) + out->tempo;
}

KnPairs kn_pairs_quick(const Rules *r, const Knowledge *kn, Board b)
{
    if (!kn->pairing) return KN_PAIRS_NONE;
    /* On an odd board the breakable form without witnesses, where no
     * window is live for both symbols; else with them, behind their own
     * lines gate, which implies the plain one (2 * lines <= empty). */
    if ((r->n & 1) && !pairing_breakable_may(r, b))
        return kn->pairing_witness && pairing_witness_slack(r, b) >= witness_slack(r, kn) ? KN_PAIRS_WITNESS
                                                                                          : KN_PAIRS_NONE;
    return !lines_gated(r, kn) || pairing_lines_may(r, b) ? KN_PAIRS_PLAIN : KN_PAIRS_NONE;
}

bool kn_chaos_pairs_quicked(const Rules *r, const Knowledge *kn, Board b, KnPairs form)
{
    /* Pairing needs Order to move on an even number of empty cells or Chaos
     * on an odd one: on an even board that is every position. On an odd
     * board, none: there the search looks for the breakable form, which
     * needs no parity (pairing.h), with witnesses where kn_pairs_quick
     * found a window live for both symbols. */
    if (form == KN_PAIRS_NONE) return false;
    if (r->n & 1) return pairing_search_with(r, b, KN_PAIRING_ODD * kn->pairing, form == KN_PAIRS_WITNESS, NULL);
    if (r->rules == RULES_EXACT_END) /* same pairs too (pairing.h) */
        return pairing_search(r, b, KN_PAIRING_EXACT_END * kn->pairing, NULL);
    KnScan sc; /* only the live list: pairing reads nothing else */
    sc.nlive = scan_live(r, b, &sc);
    return sc.nlive <= kn->pairing_live && pairing_opposite(sc.live, sc.nlive, kn->pairing);
}

bool kn_chaos_pairs(const Rules *r, const Knowledge *kn, Board b)
{
    /* The gates (pairing.h) change no answer: no pairing of the form they
     * rule out exists; kn->pairing_lines off is only for measuring the
     * lines gate and for the tests' with/without comparison. */
    return kn_chaos_pairs_quicked(r, kn, b, kn_pairs_quick(r, kn, b));
}

/* Whether keys fill dead cells (knowledge.h: row 7 of the X word holds
 * their count, so not on 8x8). */
static bool key_fills(const Rules *r, const Knowledge *kn) { return kn->dead_cells && r->n <= 7; }

void kn_key_base(const Rules *r, const Knowledge *kn, Board parent, uint64_t parent_dead, KnKeyBase *out)
{
    out->n = r->n;
    out->fill = key_fills(r, kn);
    out->filled = parent;
    if (out->fill) out->filled.s[PIECE_X] |= parent_dead;
    /* The images pay only if the children (one piece more) are canonical. */
    out->sym = board_count(parent) + 1 <= kn->sym_pieces;
    out->map = NULL;
    if (out->sym) {
        out->map = sym_cell_map(r->n);
        sym_images(out->filled.s[PIECE_X], r->n, out->ix);
        sym_images(out->filled.s[PIECE_O], r->n, out->io);
    }
}

Board kn_key(const Rules *r, const Knowledge *kn, Board b, uint64_t dead)
{
    bool fill = key_fills(r, kn);
    Board k = b;
    if (fill) k.s[PIECE_X] |= dead;
    if (board_count(b) <= kn->sym_pieces) k = sym_canonical(k, r->n, NULL);
    if (fill) k.s[PIECE_X] |= (uint64_t)__builtin_popcountll(dead) << 56;
    return k;
}
