/* rules.c - builds the window tables of rules.h from n and k. */
#include "rules.h"

#include <stdio.h>
#include <string.h>

static const char *const rule_names[] = {"original", "exact", "exact-end"};

const char *rules_name(RuleSet rs) { return rule_names[rs]; }

int rules_parse(const char *name, RuleSet *out)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, rule_names[i]) == 0) {
            *out = (RuleSet)i;
            return 0;
        }
    return -1;
}

static bool on_board(int n, int r, int c) { return r >= 0 && r < n && c >= 0 && c < n; }

/* The line of direction d through (r0, c0): its direction and its first
 * on-board cell (found by stepping back), numbered in the order lines are
 * first met; first[d][cell] holds id + 1 (0: not met yet). */
static int line_id(Rules *r, int (*first)[64], int d, int r0, int c0, int dr, int dc)
{
    while (on_board(r->n, r0 - dr, c0 - dc)) r0 -= dr, c0 -= dc;
    int *slot = &first[d][board_cell(r0, c0)];
    if (*slot == 0) *slot = ++r->nlines;
    return *slot - 1;
}

int rules_init(Rules *r, int n, int k, RuleSet rs, char *err, int errlen)
{
    if (n < BOARD_MIN_N || n > BOARD_MAX_N) {
        snprintf(err, (size_t)errlen, "board size %d out of range (%d to %d)", n, BOARD_MIN_N, BOARD_MAX_N);
        return -1;
    }
    if (k < 3 || k > n) {
        snprintf(err, (size_t)errlen, "k=%d out of range for a %dx%d board (3 to %d)", k, n, n, n);
        return -1;
    }
    memset(r, 0, sizeof *r);
    r->n = n;
    r->k = k;
    r->rules = rs;
    r->cells = board_mask(n);

    /* The four line directions, each window counted once by its first cell. */
    static const int dir[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int first[4][64] = {{0}};
    for (int d = 0; d < 4; d++) {
        int dr = dir[d][0], dc = dir[d][1];
        for (int r0 = 0; r0 < n; r0++)
            for (int c0 = 0; c0 < n; c0++) {
                int rl = r0 + (k - 1) * dr, cl = c0 + (k - 1) * dc;
                if (!on_board(n, rl, cl)) continue;
                uint64_t w = 0, e = 0;
                for (int i = 0; i < k; i++) w |= 1ULL << board_cell(r0 + i * dr, c0 + i * dc);
                if (on_board(n, r0 - dr, c0 - dc)) e |= 1ULL << board_cell(r0 - dr, c0 - dc);
                if (on_board(n, rl + dr, cl + dc)) e |= 1ULL << board_cell(rl + dr, cl + dc);
                r->win[r->nwin] = w;
                r->ends[r->nwin] = e;
                r->line_bit[r->nwin] = 1ULL << line_id(r, first, d, r0, c0, dr, dc);
                r->nwin++;
            }
    }
    for (int i = 0; i < r->nwin; i++) {
        uint64_t w = r->win[i];
        while (w) {
            int c = bb_pop(&w);
            int j = r->cell_nwin[c]++;
            r->cell_win[c][j] = r->win[i];
            r->cell_ends[c][j] = r->ends[i];
        }
    }
    /* The rows' padding (rules.h): the widest row, rounded up to 8. */
    int widest = 0;
    for (int c = 0; c < 64; c++) widest = r->cell_nwin[c] > widest ? r->cell_nwin[c] : widest;
    r->cell_pad = (widest + 7) / 8 * 8;
    for (int c = 0; c < 64; c++)
        for (int j = r->cell_nwin[c]; j < r->cell_pad; j++) r->cell_win[c][j] = r->cell_ends[c][j] = ~0ULL;
    return 0;
}

void rules_winning_cells(const Rules *r, Board b, uint64_t out[2])
{
    out[0] = out[1] = 0;
    uint64_t empty = r->cells & ~board_occupied(b);
    if (r->rules == RULES_EXACT_END) {
        if (__builtin_popcountll(empty) != 1) return;
        for (int s = 0; s < 2; s++) {
            Board t = b;
            t.s[s] |= empty;
            if (rules_has_line(r, t)) out[s] = empty;
        }
        return;
    }
    RulesScan sc = rules_scan(r, b.s[PIECE_X], b.s[PIECE_O]);
    out[PIECE_X] = sc.win[PIECE_X];
    out[PIECE_O] = sc.win[PIECE_O];
}
