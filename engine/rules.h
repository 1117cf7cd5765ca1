/* rules.h - board geometry, the three rule sets, win detection, the window
 * scan (fours).
 *
 * A "window" is k consecutive cells on a row, column or diagonal; its
 * "ends" are the on-board cells just before and just after it on the same
 * line (zero, one or two cells). Every line test is a mask test:
 *   a run of >= k of symbol S exists   <=>  some window w has (S & w) == w
 *   a run of exactly k exists           <=>  ... and (S & ends(w)) == 0
 * The tables are computed once by rules_init() from n and k and checked by
 * tests against a naive implementation; none is typed in by hand.
 *
 * Rule sets:
 *   original  - Order has won once a run of >= k like symbols stands.
 *   exact     - Order has won once a run of exactly k stands (after any move).
 *   exact-end - runs of exactly k count, judged only on the full board.
 * Chaos wins on a full board with no win. Under original and exact a newly
 * won line always contains the cell just played (adding a piece cannot
 * make a run elsewhere become exactly k), so the incremental check below is
 * exact for positions whose parent was not already won.
 *
 * The per-cell rows: cell_win[c][0..cell_nwin[c]) are the windows through
 * c (cell_ends their ends); the row is padded up to cell_pad (8 or 16, the
 * largest cell_nwin rounded up to a multiple of 8) with ~0 in both. A ~0
 * window is never a line of exactly k (its ends would have to be empty and
 * full at once) and is a run of >= k only for s == ~0, which has a line
 * through every cell anyway, so the padding changes no answer; it lets the
 * test after a move run over a fixed width with no exit branch.
 */
#ifndef OCS_RULES_H
#define OCS_RULES_H

#include "board.h"

#ifdef __AVX2__
#include <immintrin.h>
#endif

typedef enum { RULES_ORIGINAL = 0, RULES_EXACT = 1, RULES_EXACT_END = 2 } RuleSet;

/* Who wins: the one answer on every path. The rules say it of a position
 * (WINNER_NONE: the game goes on), a search of a decided position
 * (WINNER_NONE: a limit stopped it, unknown), static knowledge of a
 * position it looked at (WINNER_NONE: open, search it). */
typedef enum { WINNER_NONE = 0, WINNER_ORDER = 1, WINNER_CHAOS = 2 } Winner;

/* "order", "chaos", or "unknown" for WINNER_NONE: the names results are
 * printed with. */
static inline const char *winner_name(Winner w)
{
    return w == WINNER_ORDER ? "order" : w == WINNER_CHAOS ? "chaos" : "unknown";
}

/* The side to move in b, and the other side of a player (ORDER <-> CHAOS). */
static inline Winner winner_to_move(Board b) { return board_order_to_move(b) ? WINNER_ORDER : WINNER_CHAOS; }
static inline Winner winner_other(Winner w) { return w == WINNER_ORDER ? WINNER_CHAOS : WINNER_ORDER; }

/* n = 8, k = 3: 48 + 48 + 36 + 36 windows. A cell is in at most
 * min(k, n-k+1) windows of each direction: at most 16 (n = 8, k = 4 or 5). */
enum { RULES_MAX_WINDOWS = 168, RULES_MAX_CELL_WINDOWS = 32 };

typedef struct {
    int n, k;
    RuleSet rules;
    uint64_t cells; /* the n x n board */
    int nwin;
    uint64_t win[RULES_MAX_WINDOWS];
    uint64_t ends[RULES_MAX_WINDOWS];
    /* The line (a whole row, column or diagonal of at least k cells) each
     * window lies on, numbered 0..nlines-1: at most 8 + 8 + 2 x 11 = 38
     * (n = 8, k = 3), so a set of lines fits one word; line_bit[i] is
     * 1 << (window i's line), a mask so that a scan loads it like win[i]. */
    int nlines;
    uint64_t line_bit[RULES_MAX_WINDOWS];
    /* Windows through each cell, as masks, so the hot-path check after a
     * move reads one contiguous row of this table; padded to cell_pad. */
    int cell_pad;
    uint8_t cell_nwin[64];
    uint64_t cell_win[64][RULES_MAX_CELL_WINDOWS];
    uint64_t cell_ends[64][RULES_MAX_CELL_WINDOWS];
} Rules;

/* Returns 0, or -1 with a message in err when n or k is out of range. */
int rules_init(Rules *r, int n, int k, RuleSet rs, char *err, int errlen);

/* "original", "exact", "exact-end"; rules_parse returns -1 on an unknown name. */
const char *rules_name(RuleSet rs);
int rules_parse(const char *name, RuleSet *out);

/* Does symbol bitboard s hold a winning run under r's line definition
 * (>= k for original, exactly k otherwise), anywhere on the board? */
static inline bool rules_line_in(const Rules *r, uint64_t s)
{
    if (r->rules == RULES_ORIGINAL) {
        for (int i = 0; i < r->nwin; i++)
            if ((s & r->win[i]) == r->win[i]) return true;
    } else {
        for (int i = 0; i < r->nwin; i++)
            if ((s & r->win[i]) == r->win[i] && (s & r->ends[i]) == 0) return true;
    }
    return false;
}

static inline bool rules_has_line(const Rules *r, Board b)
{
    return rules_line_in(r, b.s[PIECE_X]) || rules_line_in(r, b.s[PIECE_O]);
}

/* Is one of the first `width` windows of a padded cell row a winning run
 * of s (with ends_matter: exactly k)? A fixed width and no early exit: the
 * number of windows through a cell varies from cell to cell, and a loop
 * that stops at it mispredicted its exit at almost every call. With AVX2
 * the windows are tested four to a register and the answer is one vptest;
 * without it, the same branch-free test a window at a time. */
static inline __attribute__((always_inline)) bool rules_row_line(const uint64_t *w, const uint64_t *e, uint64_t s,
                                                                  int width, bool ends_matter)
{
#ifdef __AVX2__
    const __m256i ns = _mm256_set1_epi64x((long long)~s), zero = _mm256_setzero_si256();
    __m256i hit = zero;
    for (int i = 0; i < width; i += 4) {
        /* the cells of the window not holding s, and with ends_matter its ends holding s */
        __m256i miss = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(w + i)), ns);
        if (ends_matter)
            miss = _mm256_or_si256(miss, _mm256_andnot_si256(ns, _mm256_loadu_si256((const __m256i *)(e + i))));
        hit = _mm256_or_si256(hit, _mm256_cmpeq_epi64(miss, zero));
    }
    return !_mm256_testz_si256(hit, hit);
#else
    uint64_t hit = 0;
    for (int i = 0; i < width; i++) {
        uint64_t miss = w[i] & ~s;
        if (ends_matter) miss |= e[i] & s;
        hit |= miss == 0;
    }
    return hit != 0;
#endif
}

/* Does symbol bitboard s hold a winning run through cell? */
static inline bool rules_line_through(const Rules *r, uint64_t s, int cell)
{
    const uint64_t *w = r->cell_win[cell], *e = r->cell_ends[cell];
    if (r->rules == RULES_ORIGINAL)
        return r->cell_pad == 8 ? rules_row_line(w, e, s, 8, false) : rules_row_line(w, e, s, 16, false);
    return r->cell_pad == 8 ? rules_row_line(w, e, s, 8, true) : rules_row_line(w, e, s, 16, true);
}

/* Who has won a position given whole (a parsed string, say). */
static inline Winner rules_status(const Rules *r, Board b)
{
    bool full = board_occupied(b) == r->cells;
    if (r->rules == RULES_EXACT_END && !full) return WINNER_NONE;
    if (rules_has_line(r, b)) return WINNER_ORDER;
    return full ? WINNER_CHAOS : WINNER_NONE;
}

/* rules_status_after below with r's rule set and row width (cell_pad)
 * given as constants: for a loop that judges many moves under one Rules,
 * which tests them once outside the loop (perft_leaves). rs and width must
 * be r->rules and r->cell_pad. */
static inline __attribute__((always_inline)) Winner rules_status_after_as(const Rules *r, Board b, Move m, RuleSet rs,
                                                                          int width)
{
    bool full = board_occupied(b) == r->cells;
    if (rs == RULES_EXACT_END) {
        if (!full) return WINNER_NONE;
        return rules_has_line(r, b) ? WINNER_ORDER : WINNER_CHAOS;
    }
    /* The piece's bitboard by a select, not b.s[piece]: with a variable
     * index the caller's board is spilled, and reloaded here as one vector,
     * which cannot be forwarded from its two 8-byte stores (board_regs). */
    b = board_regs(b);
    int c = move_cell(m);
    uint64_t s = move_piece(m) == PIECE_X ? b.s[PIECE_X] : b.s[PIECE_O];
    if (rules_row_line(r->cell_win[c], r->cell_ends[c], s, width, rs != RULES_ORIGINAL)) return WINNER_ORDER;
    return full ? WINNER_CHAOS : WINNER_NONE;
}

/* Who has won after move m was played (already placed in b) from an ongoing
 * position: only lines through the played cell need looking at, and only
 * for the symbol played (a placement makes no line of the other). */
static inline Winner rules_status_after(const Rules *r, Board b, Move m)
{
    if (r->rules == RULES_EXACT_END) return rules_status_after_as(r, b, m, RULES_EXACT_END, 0);
    if (r->rules == RULES_ORIGINAL)
        return r->cell_pad == 8 ? rules_status_after_as(r, b, m, RULES_ORIGINAL, 8)
                                : rules_status_after_as(r, b, m, RULES_ORIGINAL, 16);
    return r->cell_pad == 8 ? rules_status_after_as(r, b, m, RULES_EXACT, 8)
                            : rules_status_after_as(r, b, m, RULES_EXACT, 16);
}

/* The window scan: one pass over the windows, the one implementation of
 * the four analysis (rules_winning_cells below; the searches' knowledge
 * builds its own on it). A window is live for S when it holds no opposite
 * symbol and, under exact and exact-end, no S on its ends: a winning run of
 * S can still be made in it. Every piece in a window live for S is an S, so
 * S holds k-1 (k-2) of it exactly when one (two) of its cells are empty.
 * Geometry only: under exact-end nothing is won before the board is full,
 * which rules_winning_cells applies and win[] here does not. */
typedef struct {
    uint64_t win[2];    /* the empty cell of each live-for-S window with one:
                         * where S completes a line now (original, exact) */
    uint64_t maker[2];  /* the empty cells of live-for-S windows with two:
                         * where S makes a new four */
    uint64_t live_cells; /* cells of live windows, and their ends when ends
                          * matter: no move elsewhere changes any line */
    int nlive;          /* windows live for X or for O */
    uint64_t live_lines; /* rules_scan_lines only (else 0): the lines (as
                          * line_bit) holding a window live for X or O */
    uint64_t both_lines; /* rules_scan_lines only (else 0): the lines holding
                          * a window live for X and for O */
    bool clear;          /* rules_scan_lines only (else false): some window
                          * has no piece in it (nor on its ends when ends
                          * matter) */
} RulesScan;

/* The scan for pieces x and o, with or without the ends (exact rule sets
 * or original). Inline, for callers that use only part of it (the compiler
 * drops the rest) and for the searches' hot path. Branch-free over the
 * windows: whether a window is live is as good as random, so branches on
 * it mispredicted often, while the masked form lets the compiler run
 * several windows per vector. 64-bit counts and flags throughout: every
 * lane of the vector loop stays a uint64_t, with no conversions between
 * widths. */
static inline __attribute__((always_inline)) RulesScan rules_scan_with(const Rules *r, uint64_t x, uint64_t o,
                                                                       bool ends_matter, bool want_lines)
{
    const uint64_t occ = x | o;
    const int nwin = r->nwin;
    uint64_t live = 0, wx = 0, wo = 0, mx = 0, mo = 0, nlive = 0, lines = 0, both = 0, clear = 0;
    for (int i = 0; i < nwin; i++) {
        uint64_t w = r->win[i], e = ends_matter ? r->ends[i] : 0;
        uint64_t lx = -(uint64_t)((o & w) == 0 && (x & e) == 0); /* live for X: all ones */
        uint64_t lo = -(uint64_t)((x & w) == 0 && (o & e) == 0);
        /* One count of the empty cells serves both symbols. */
        uint64_t hole = w & ~occ, nh = (uint64_t)__builtin_popcountll(hole);
        uint64_t one = -(uint64_t)(nh == 1) & hole, two = -(uint64_t)(nh == 2) & hole;
        live |= (lx | lo) & (w | e);
        wx |= lx & one;
        wo |= lo & one;
        mx |= lx & two;
        mo |= lo & two;
        nlive += (lx | lo) & 1;
        if (want_lines) {
            lines |= (lx | lo) & r->line_bit[i];
            both |= lx & lo & r->line_bit[i];
            clear |= ((w | e) & occ) == 0;
        }
    }
    return (RulesScan){{wx, wo}, {mx, mo}, live, (int)nlive, lines, both, clear != 0};
}

/* The scan under r's rule set: the loop compiled twice, since the original
 * rule set has no ends to load. */
static inline __attribute__((always_inline)) RulesScan rules_scan(const Rules *r, uint64_t x, uint64_t o)
{
    return r->rules == RULES_ORIGINAL ? rules_scan_with(r, x, o, false, false) : rules_scan_with(r, x, o, true, false);
}

/* rules_scan with live_lines too (a separate loop, so that rules_scan's
 * callers pay nothing for it). */
static inline __attribute__((always_inline)) RulesScan rules_scan_lines(const Rules *r, uint64_t x, uint64_t o)
{
    return r->rules == RULES_ORIGINAL ? rules_scan_with(r, x, o, false, true) : rules_scan_with(r, x, o, true, true);
}

/* The four analysis: out[S] = the empty cells where placing S ends the
 * game at once in a win for Order, whoever moves. Under original and exact
 * these are the scan's win[S] (windows live for S holding k-1 of S and one
 * empty cell); under exact-end only the last empty cell can win. Call on
 * an ongoing position. */
void rules_winning_cells(const Rules *r, Board b, uint64_t out[2]);

#endif
