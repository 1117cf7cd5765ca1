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
 */
#ifndef OCS_RULES_H
#define OCS_RULES_H

#include "board.h"

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

/* n = 8, k = 3: 48 + 48 + 36 + 36 windows. */
enum { RULES_MAX_WINDOWS = 168, RULES_MAX_CELL_WINDOWS = 32 };

typedef struct {
    int n, k;
    RuleSet rules;
    uint64_t cells; /* the n x n board */
    int nwin;
    uint64_t win[RULES_MAX_WINDOWS];
    uint64_t ends[RULES_MAX_WINDOWS];
    /* Windows through each cell, as masks, so the hot-path check after a
     * move reads one contiguous row of this table. */
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

/* Does symbol bitboard s hold a winning run through cell? */
static inline bool rules_line_through(const Rules *r, uint64_t s, int cell)
{
    const uint64_t *w = r->cell_win[cell];
    int nw = r->cell_nwin[cell];
    if (r->rules == RULES_ORIGINAL) {
        for (int i = 0; i < nw; i++)
            if ((s & w[i]) == w[i]) return true;
    } else {
        const uint64_t *e = r->cell_ends[cell];
        for (int i = 0; i < nw; i++)
            if ((s & w[i]) == w[i] && (s & e[i]) == 0) return true;
    }
    return false;
}

/* Who has won a position given whole (a parsed string, say). */
static inline Winner rules_status(const Rules *r, Board b)
{
    bool full = board_occupied(b) == r->cells;
    if (r->rules == RULES_EXACT_END && !full) return WINNER_NONE;
    if (rules_has_line(r, b)) return WINNER_ORDER;
    return full ? WINNER_CHAOS : WINNER_NONE;
}

/* Who has won after move m was played (already placed in b) from an ongoing
 * position: only lines through the played cell need looking at. */
static inline Winner rules_status_after(const Rules *r, Board b, Move m)
{
    bool full = board_occupied(b) == r->cells;
    if (r->rules == RULES_EXACT_END) {
        if (!full) return WINNER_NONE;
        return rules_has_line(r, b) ? WINNER_ORDER : WINNER_CHAOS;
    }
    if (rules_line_through(r, b.s[move_piece(m)], move_cell(m))) return WINNER_ORDER;
    return full ? WINNER_CHAOS : WINNER_NONE;
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
                                                                       bool ends_matter)
{
    const uint64_t occ = x | o;
    const int nwin = r->nwin;
    uint64_t live = 0, wx = 0, wo = 0, mx = 0, mo = 0, nlive = 0;
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
    }
    return (RulesScan){{wx, wo}, {mx, mo}, live, (int)nlive};
}

/* The scan under r's rule set: the loop compiled twice, since the original
 * rule set has no ends to load. */
static inline __attribute__((always_inline)) RulesScan rules_scan(const Rules *r, uint64_t x, uint64_t o)
{
    return r->rules == RULES_ORIGINAL ? rules_scan_with(r, x, o, false) : rules_scan_with(r, x, o, true);
}

/* The four analysis: out[S] = the empty cells where placing S ends the
 * game at once in a win for Order, whoever moves. Under original and exact
 * these are the scan's win[S] (windows live for S holding k-1 of S and one
 * empty cell); under exact-end only the last empty cell can win. Call on
 * an ongoing position. */
void rules_winning_cells(const Rules *r, Board b, uint64_t out[2]);

#endif
