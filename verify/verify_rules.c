/* verify_rules.c - see verify_rules.h. Plain loops over a cell array; no
 * code shared with the engine. */
#include "verify_rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int vr_rules_parse(const char *s)
{
    if (strcmp(s, "original") == 0) return VR_ORIGINAL;
    if (strcmp(s, "exact") == 0) return VR_EXACT;
    if (strcmp(s, "exact-end") == 0) return VR_EXACT_END;
    return -1;
}

const char *vr_rules_name(int rules)
{
    return rules == VR_ORIGINAL ? "original" : rules == VR_EXACT ? "exact" : rules == VR_EXACT_END ? "exact-end" : "?";
}

const int VR_DIRS[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};

/* The length of the maximal run of like symbols that starts at (r, c) in
 * direction d, or 0 when (r, c) is empty or not the run's first cell (so
 * that each run is counted once). */
static int run_from(int n, const uint8_t *cells, int r, int c, int d)
{
    int dr = VR_DIRS[d][0], dc = VR_DIRS[d][1];
    uint8_t s = cells[r * n + c];
    if (s == VR_EMPTY || (vr_on_board(n, r - dr, c - dc) && cells[(r - dr) * n + (c - dc)] == s)) return 0;
    int len = 0;
    for (int rr = r, cc = c; vr_on_board(n, rr, cc) && cells[rr * n + cc] == s; rr += dr, cc += dc) len++;
    return len;
}

bool vr_has_line(const VrGame *g, const uint8_t *cells)
{
    int n = g->n;
    for (int d = 0; d < 4; d++)
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int len = run_from(n, cells, r, c, d);
                if (g->rules == VR_ORIGINAL ? len >= g->k : len == g->k) return true;
            }
    return false;
}

bool vr_secured(const VrGame *g, const uint8_t *cells)
{
    if (g->rules != VR_EXACT_END) return false;
    int n = g->n;
    for (int d = 0; d < 4; d++)
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int len = run_from(n, cells, r, c, d);
                if (len != g->k) continue;
                /* the cells just before and just after the run: each off the
                 * board or the other symbol, never empty */
                int dr = VR_DIRS[d][0], dc = VR_DIRS[d][1], br = r - dr, bc = c - dc, ar = r + len * dr, ac = c + len * dc;
                uint8_t other = vr_swap(cells[r * n + c]);
                bool before = !vr_on_board(n, br, bc) || cells[br * n + bc] == other;
                bool after = !vr_on_board(n, ar, ac) || cells[ar * n + ac] == other;
                if (before && after) return true;
            }
    return false;
}

bool vr_full(const VrGame *g, const uint8_t *cells)
{
    for (int i = 0; i < g->n * g->n; i++)
        if (cells[i] == VR_EMPTY) return false;
    return true;
}

int vr_status(const VrGame *g, const uint8_t *cells)
{
    bool full = vr_full(g, cells);
    if (g->rules == VR_EXACT_END) {
        if (!full) return VR_ONGOING;
        return vr_has_line(g, cells) ? VR_ORDER_WINS : VR_CHAOS_WINS;
    }
    if (vr_has_line(g, cells)) return VR_ORDER_WINS;
    return full ? VR_CHAOS_WINS : VR_ONGOING;
}

int vr_status_after(const VrGame *g, const VrLines *w, const uint8_t *cells, uint64_t x, uint64_t o, int cell,
                    bool full)
{
    if (g->rules == VR_EXACT_END) return !full ? VR_ONGOING : vr_has_line(g, cells) ? VR_ORDER_WINS : VR_CHAOS_WINS;
    uint64_t same = (x >> cell) & 1 ? x : o;
    for (int j = 0; j < w->nthrough[cell]; j++) {
        int i = w->through[cell][j];
        if ((same & w->mask[i]) == w->mask[i] && (g->rules == VR_ORIGINAL || !(same & w->ends[i])))
            return VR_ORDER_WINS;
    }
    return full ? VR_CHAOS_WINS : VR_ONGOING;
}

/* Does s at the empty cell win at once (cells restored)? */
static bool wins_with(const VrGame *g, const VrLines *w, uint8_t *cells, uint64_t x, uint64_t o, int cell, uint8_t s,
                      int empty)
{
    uint64_t bit = 1ULL << cell;
    cells[cell] = s;
    bool won = vr_status_after(g, w, cells, s == VR_X ? x | bit : x, s == VR_O ? o | bit : o, cell, empty == 1) ==
               VR_ORDER_WINS;
    cells[cell] = VR_EMPTY;
    return won;
}

bool vr_wins_at_once(const VrGame *g, const VrLines *w, uint8_t *cells, uint64_t x, uint64_t o, int empty)
{
    int n = g->n, k = g->k;
    if (g->rules == VR_EXACT_END) {
        for (int i = 0; i < n * n; i++)
            if (cells[i] == VR_EMPTY && (wins_with(g, w, cells, x, o, i, VR_X, empty) || wins_with(g, w, cells, x, o, i, VR_O, empty)))
                return true;
        return false;
    }
    for (int i = 0; i < w->count; i++) {
        uint64_t m = w->mask[i];
        int nx = __builtin_popcountll(x & m), no = __builtin_popcountll(o & m);
        if (nx + no != k - 1 || (nx && no)) continue;
        int gap = __builtin_ctzll(m & ~(x | o));
        if (wins_with(g, w, cells, x, o, gap, nx ? VR_X : VR_O, empty)) return true;
    }
    return false;
}

void vr_lines_init(const VrGame *g, VrLines *w)
{
    int n = g->n, k = g->k;
    memset(w, 0, sizeof *w);
    for (int d = 0; d < 4; d++) {
        int dr = VR_DIRS[d][0], dc = VR_DIRS[d][1];
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                if (!vr_on_board(n, r + (k - 1) * dr, c + (k - 1) * dc)) continue;
                uint64_t m = 0, ends = 0;
                for (int i = 0; i < k; i++) m |= 1ULL << ((r + i * dr) * n + (c + i * dc));
                if (vr_on_board(n, r - dr, c - dc)) ends |= 1ULL << ((r - dr) * n + (c - dc));
                if (vr_on_board(n, r + k * dr, c + k * dc)) ends |= 1ULL << ((r + k * dr) * n + (c + k * dc));
                for (int i = 0; i < k; i++) {
                    int cell = (r + i * dr) * n + (c + i * dc);
                    w->through[cell][w->nthrough[cell]++] = (uint16_t)w->count;
                }
                w->mask[w->count] = m;
                w->ends[w->count++] = ends;
            }
    }
}

/* Can the window of k cells from (r, c) in direction d still become a
 * winning run of symbol s? (The window lies on the board.) */
static bool window_open(const VrGame *g, const uint8_t *cells, int r, int c, int d, uint8_t s)
{
    int n = g->n, k = g->k, dr = VR_DIRS[d][0], dc = VR_DIRS[d][1];
    for (int i = 0; i < k; i++)
        if (cells[(r + i * dr) * n + (c + i * dc)] == vr_swap(s)) return false;
    if (g->rules == VR_ORIGINAL) return true;
    /* Exact runs: an S just beyond either end would make any run here longer than k. */
    int br = r - dr, bc = c - dc, ar = r + k * dr, ac = c + k * dc;
    if (vr_on_board(n, br, bc) && cells[br * n + bc] == s) return false;
    if (vr_on_board(n, ar, ac) && cells[ar * n + ac] == s) return false;
    return true;
}

bool vr_dead(const VrGame *g, const uint8_t *cells)
{
    int n = g->n, k = g->k;
    for (int d = 0; d < 4; d++) {
        int dr = VR_DIRS[d][0], dc = VR_DIRS[d][1];
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                if (!vr_on_board(n, r + (k - 1) * dr, c + (k - 1) * dc)) continue;
                if (window_open(g, cells, r, c, d, VR_X) || window_open(g, cells, r, c, d, VR_O)) return false;
            }
    }
    return true;
}

int vr_fewest_to_line(const VrGame *g, const uint8_t *cells)
{
    int n = g->n, k = g->k, fewest = VR_NEVER, empty = 0;
    for (int i = 0; i < n * n; i++) empty += cells[i] == VR_EMPTY;
    for (int d = 0; d < 4; d++) {
        int dr = VR_DIRS[d][0], dc = VR_DIRS[d][1];
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                if (!vr_on_board(n, r + (k - 1) * dr, c + (k - 1) * dc)) continue;
                if (!window_open(g, cells, r, c, d, VR_X) && !window_open(g, cells, r, c, d, VR_O)) continue;
                int holes = 0;
                for (int i = 0; i < k; i++) holes += cells[(r + i * dr) * n + (c + i * dc)] == VR_EMPTY;
                if (holes < fewest) fewest = holes;
            }
    }
    return g->rules == VR_EXACT_END && fewest != VR_NEVER ? empty : fewest;
}

void vr_cell_name(int n, int cell, char out[3])
{
    out[0] = (char)('a' + cell % n);
    out[1] = (char)('1' + cell / n);
    out[2] = '\0';
}

int vr_why(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return 0;
}

int vr_geom_cell(int n, int g, int cell)
{
    int r = cell / n, c = cell % n, m = n - 1, nr, nc;
    switch (g) {
    case 0: nr = r; nc = c; break;          /* identity */
    case 1: nr = c; nc = m - r; break;      /* rotate 90 degrees clockwise */
    case 2: nr = m - r; nc = m - c; break;  /* rotate 180 */
    case 3: nr = m - c; nc = r; break;      /* rotate 270 */
    case 4: nr = r; nc = m - c; break;      /* mirror left-right */
    case 5: nr = m - r; nc = c; break;      /* mirror top-bottom */
    case 6: nr = c; nc = r; break;          /* reflect in the main diagonal */
    default: nr = m - c; nc = m - r; break; /* reflect in the anti-diagonal */
    }
    return nr * n + nc;
}

void vr_image(int n, int s, const uint8_t *in, uint8_t *out)
{
    for (int i = 0; i < n * n; i++) {
        uint8_t v = in[i];
        out[vr_geom_cell(n, s & 7, i)] = (s & 8) ? vr_swap(v) : v;
    }
}

VrKey vr_key(int n, const uint8_t *cells)
{
    VrKey key = {0, 0};
    for (int i = 0; i < n * n; i++) {
        if (cells[i] == VR_X) key.x |= 1ULL << i;
        if (cells[i] == VR_O) key.o |= 1ULL << i;
    }
    return key;
}

void vr_sym_init(VrSym *t, int n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    for (int g = 0; g < VR_GEOMETRIES; g++)
        for (int i = 0; i < n * n; i++) t->perm[g][i] = (uint8_t)vr_geom_cell(n, g, i);
    for (int g = 0; g < VR_GEOMETRIES; g++)
        for (int r = 0; r < n; r++)
            for (int p = 0; p < (1 << n); p++)
                for (int c = 0; c < n; c++)
                    if (p & (1 << c)) t->row[g][r][p] |= 1ULL << t->perm[g][r * n + c];
}

/* The image under geometry g of a set of cells given as a key mask. */
static uint64_t image_mask(const VrSym *t, int g, uint64_t m)
{
    int n = t->n;
    uint64_t out = 0, low = (1ULL << n) - 1;
    for (int r = 0; r < n; r++) out |= t->row[g][r][(m >> (r * n)) & low];
    return out;
}

VrKey vr_canonical(const VrSym *t, const uint8_t *cells, int *sym_out)
{
    VrKey key = vr_key(t->n, cells), best = key;
    int best_sym = 0;
    for (int g = 0; g < VR_GEOMETRIES; g++) {
        VrKey img = {image_mask(t, g, key.x), image_mask(t, g, key.o)};
        VrKey swapped = {img.o, img.x};
        if (vr_key_less(img, best)) best = img, best_sym = g;
        if (vr_key_less(swapped, best)) best = swapped, best_sym = g + 8;
    }
    if (sym_out) *sym_out = best_sym;
    return best;
}
