/* verify_pairing.c - see verify_pairing.h. The pairs are read with the
 * notation's cell parser; the conditions are checked by plain loops over
 * every window, from the definitions in the header. */
#include "verify_pairing.h"

#include <stdio.h>
#include <string.h>

#include "../engine/notation.h"

void vr_pair_format(int n, VrPair p, char *out)
{
    vr_cell_name(n, p.a, out);
    out[2] = ':';
    vr_cell_name(n, p.b, out + 3);
    out[5] = p.same ? '=' : '~';
    out[6] = '\0';
}

/* One cell name (the text from s, len characters) as r * n + c: 0, or -1 with err. */
static int parse_cell(const char *word, const char *s, size_t len, int n, int *cell, char *err, size_t err_len)
{
    char name[8], cerr[NOTATION_ERR_LEN];
    int bc;
    if (len >= sizeof name) {
        snprintf(err, err_len, "bad pair '%.40s': bad cell '%.*s'", word, (int)(len > 20 ? 20 : len), s);
        return -1;
    }
    memcpy(name, s, len);
    name[len] = '\0';
    if (notation_parse_cell(name, n, &bc, cerr, sizeof cerr) != 0) {
        snprintf(err, err_len, "bad pair '%.40s': %s", word, cerr);
        return -1;
    }
    *cell = cell_row(bc) * n + cell_col(bc);
    return 0;
}

int vr_pairs_parse(char *const *words, int count, int n, VrPair *pairs, char *err, size_t err_len)
{
    int owner[VR_MAX_CELLS]; /* owner[cell]: the index of the pair holding it, -1 if none */
    for (int i = 0; i < VR_MAX_CELLS; i++) owner[i] = -1;
    if (count > VR_MAX_PAIRS) {
        snprintf(err, err_len, "%d pairs: a board has at most %d", count, VR_MAX_PAIRS);
        return -1;
    }
    for (int p = 0; p < count; p++) {
        const char *w = words[p], *colon = strchr(w, ':');
        size_t len = strlen(w);
        char kind = len ? w[len - 1] : '\0';
        if (!colon || (kind != '~' && kind != '=') || colon == w || colon + 1 >= w + len - 1) {
            snprintf(err, err_len,
                     "bad pair '%.40s': a pair is CELL:CELL and then ~ (opposite symbols) or = (the same symbol), "
                     "as in c1:c6~",
                     w);
            return -1;
        }
        int a, b;
        if (parse_cell(w, w, (size_t)(colon - w), n, &a, err, err_len) != 0) return -1;
        if (parse_cell(w, colon + 1, (size_t)(w + len - 1 - (colon + 1)), n, &b, err, err_len) != 0) return -1;
        if (a == b) {
            snprintf(err, err_len, "bad pair '%.40s': the same cell twice", w);
            return -1;
        }
        for (int i = 0; i < 2; i++) {
            int c = i ? b : a;
            if (owner[c] >= 0) {
                char name[3];
                vr_cell_name(n, c, name);
                snprintf(err, err_len, "cell %s is in two pairs (%.40s and %.40s)", name, words[owner[c]], w);
                return -1;
            }
            owner[c] = p;
        }
        pairs[p] = (VrPair){(uint8_t)a, (uint8_t)b, kind == '='};
    }
    return 0;
}

/* One window: its k cells and its ends (0, 1 or 2). */
typedef struct {
    int cell[8], ncells, end[2], nends;
} Window;

static void window_at(int n, int k, int r, int c, int d, Window *w)
{
    int dr = VR_DIRS[d][0], dc = VR_DIRS[d][1];
    w->ncells = k;
    for (int i = 0; i < k; i++) w->cell[i] = (r + i * dr) * n + (c + i * dc);
    w->nends = 0;
    if (vr_on_board(n, r - dr, c - dc)) w->end[w->nends++] = (r - dr) * n + (c - dc);
    if (vr_on_board(n, r + k * dr, c + k * dc)) w->end[w->nends++] = (r + k * dr) * n + (c + k * dc);
}

/* The windows of the n x n board with k cells, one at a time: *it starts
 * at 0; each call fills w with the next window and returns false when
 * none is left (direction, then row, then column). */
static bool window_next(int n, int k, int *it, Window *w)
{
    for (; *it < 4 * n * n; ++*it) {
        int d = *it / (n * n), r = *it / n % n, c = *it % n;
        if (!vr_on_board(n, r + (k - 1) * VR_DIRS[d][0], c + (k - 1) * VR_DIRS[d][1])) continue;
        window_at(n, k, r, c, d, w);
        ++*it;
        return true;
    }
    return false;
}

static bool in_cells(const int *set, int count, int cell)
{
    for (int i = 0; i < count; i++)
        if (set[i] == cell) return true;
    return false;
}

/* Can window w still become a winning line of symbol s? */
static bool can_win(const VrGame *g, const uint8_t *cells, const Window *w, uint8_t s)
{
    for (int i = 0; i < w->ncells; i++)
        if (cells[w->cell[i]] == vr_swap(s)) return false;
    if (g->rules != VR_ORIGINAL)
        for (int i = 0; i < w->nends; i++)
            if (cells[w->end[i]] == s) return false;
    return true;
}

static bool covers(const Window *w, VrPair p)
{
    if (!p.same) return in_cells(w->cell, w->ncells, p.a) && in_cells(w->cell, w->ncells, p.b);
    return (in_cells(w->cell, w->ncells, p.a) && in_cells(w->end, w->nends, p.b)) ||
           (in_cells(w->cell, w->ncells, p.b) && in_cells(w->end, w->nends, p.a));
}

/* "a1-e1", a window's first and last cells. */
static void window_name(int n, const Window *w, char *out)
{
    vr_cell_name(n, w->cell[0], out);
    out[2] = '-';
    vr_cell_name(n, w->cell[w->ncells - 1], out + 3);
}

/* The second way a '~' pair is breakable: a witness, an empty cell
 * outside every pair (used: the pairs' cells) in every live window holding
 * both its cells (the header says why that suffices). */
static bool has_witness(const VrGame *g, const uint8_t *cells, const bool *used, VrPair p)
{
    int n = g->n, k = g->k;
    for (int c = 0; c < n * n; c++) {
        if (cells[c] != VR_EMPTY || used[c]) continue;
        bool in_all = true;
        Window w;
        for (int it = 0; in_all && window_next(n, k, &it, &w);) {
            if (!in_cells(w.cell, w.ncells, p.a) || !in_cells(w.cell, w.ncells, p.b)) continue;
            if (!can_win(g, cells, &w, VR_X) && !can_win(g, cells, &w, VR_O)) continue;
            in_all = in_cells(w.cell, w.ncells, c);
        }
        if (in_all) return true;
    }
    return false;
}

/* Condition 5's other branch: is every pair '~' and breakable (every live
 * window holding both its cells can win for one symbol only, the same one
 * for all of them; or a witness, has_witness)? If not, why names the first
 * pair that is not. */
static bool all_breakable(const VrGame *g, const uint8_t *cells, const bool *used, const VrPair *pairs, int npairs,
                          char *why, size_t why_len)
{
    int n = g->n, k = g->k;
    char pn[8], wn[8], first[8];
    static const char no_witness[] = ", no witness"; /* has_witness */
    for (int p = 0; p < npairs; p++) {
        vr_pair_format(n, pairs[p], pn);
        if (pairs[p].same) {
            snprintf(why, why_len, "%s is a same-symbol pair", pn);
            return false;
        }
        uint8_t lean = VR_EMPTY; /* VR_X or VR_O once a live window holding the pair is seen */
        Window w;
        for (int it = 0; window_next(n, k, &it, &w);) {
            if (!in_cells(w.cell, w.ncells, pairs[p].a) || !in_cells(w.cell, w.ncells, pairs[p].b)) continue;
            bool x = can_win(g, cells, &w, VR_X), o = can_win(g, cells, &w, VR_O);
            if (!x && !o) continue;
            window_name(n, &w, wn);
            uint8_t s = x ? VR_X : VR_O;
            if ((x && o) || (lean != VR_EMPTY && lean != s)) {
                if (has_witness(g, cells, used, pairs[p])) break;
                if (x && o) snprintf(why, why_len, "%s is not: %s can win for X and O%s", pn, wn, no_witness);
                else
                    snprintf(why, why_len, "%s is not: %s can win for %s only, %s for %s%s", pn, first,
                             vr_content(lean), wn, vr_content(s), no_witness);
                return false;
            }
            if (lean == VR_EMPTY) memcpy(first, wn, sizeof first);
            lean = s;
        }
    }
    return true;
}

/* The pairs themselves: on the n x n board (nn cells) and disjoint (the
 * parser says so too); used[] gets their cells. 1, or 0 with why. */
static int pairs_disjoint(int nn, const VrPair *pairs, int npairs, bool *used, char *why, size_t why_len)
{
    if (npairs < 0 || npairs > VR_MAX_PAIRS) return vr_why(why, why_len, "%d pairs", npairs);
    for (int p = 0; p < npairs; p++) {
        int a = pairs[p].a, b = pairs[p].b;
        if (a >= nn || b >= nn || a == b || used[a] || used[b])
            return vr_why(why, why_len, "pair %d is off the board, has one cell twice or shares a cell", p + 1);
        used[a] = used[b] = true;
    }
    return 1;
}

int vr_pairing_lemma(const VrGame *g, bool claim_chaos, const uint8_t *cells, const VrPair *pairs, int npairs,
                     char *why, size_t why_len)
{
    int n = g->n, nn = n * n, k = g->k;
    char pn[8];
    if (!claim_chaos) return vr_why(why, why_len, "the certificate claims order");
    int st = vr_status(g, cells);
    if (st != VR_ONGOING)
        return vr_why(why, why_len, "the position has already ended (%s has won)",
                    st == VR_ORDER_WINS ? "Order" : "Chaos");

    bool used[VR_MAX_CELLS] = {false};
    if (!pairs_disjoint(nn, pairs, npairs, used, why, why_len)) return 0;
    for (int p = 0; p < npairs; p++) {
        vr_pair_format(n, pairs[p], pn);
        if (pairs[p].same && g->rules != VR_EXACT_END)
            return vr_why(why, why_len, "a same-symbol pair %s needs rules exact-end", pn);
    }
    for (int p = 0; p < npairs; p++) {
        vr_pair_format(n, pairs[p], pn);
        uint8_t a = cells[pairs[p].a], b = cells[pairs[p].b];
        if (a != VR_EMPTY || b != VR_EMPTY)
            return vr_why(why, why_len, "pair %s holds %s and %s (both cells must be empty)", pn, vr_content(a), vr_content(b));
    }

    int empty = 0;
    for (int i = 0; i < nn; i++) empty += cells[i] == VR_EMPTY;
    bool order_to_move = (nn - empty) % 2 == 0;
    char unbroken[112];
    if (order_to_move != (empty % 2 == 0) && !all_breakable(g, cells, used, pairs, npairs, unbroken, sizeof unbroken))
        return vr_why(why, why_len,
                    "%s to move with %d empty cells (needs an even number at Order's turn, or every pair "
                    "breakable: %s)",
                    order_to_move ? "Order" : "Chaos", empty, unbroken);

    Window w;
    for (int it = 0; window_next(n, k, &it, &w);) {
        if (!can_win(g, cells, &w, VR_X) && !can_win(g, cells, &w, VR_O)) continue;
        bool covered = false;
        for (int p = 0; p < npairs && !covered; p++) covered = covers(&w, pairs[p]);
        if (covered) continue;
        char wn[8];
        window_name(n, &w, wn);
        return vr_why(why, why_len, "window %s is not covered", wn);
    }
    return 1;
}

/* ---- The ring lemma (verify_pairing.h: vr_ring_lemma) ---- */

/* The big-board cells of small line l of the m x m centre (rows, columns,
 * the diagonal, the anti-diagonal; centre cell (i, j) is board cell
 * (i+1, j+1)): m of them into cell. */
static void ring_small_line(int n, int m, int l, int *cell)
{
    for (int i = 0; i < m; i++) {
        int r = l < m ? l : i, c = l < m ? i : l < 2 * m ? l - m : l == 2 * m ? i : m - 1 - i;
        cell[i] = (r + 1) * n + (c + 1);
    }
}

static bool ring_cell(int n, int cell) { return cell / n == 0 || cell / n == n - 1 || cell % n == 0 || cell % n == n - 1; }

/* The pairs: '~', disjoint, on empty ring cells, and every empty ring cell
 * in one. 1, or 0 with why. */
static int ring_pairs_ok(const VrGame *g, const uint8_t *cells, const VrPair *pairs, int npairs, char *why,
                         size_t why_len)
{
    int n = g->n, nn = n * n;
    char pn[8];
    bool used[VR_MAX_CELLS] = {false};
    if (!pairs_disjoint(nn, pairs, npairs, used, why, why_len)) return 0;
    for (int p = 0; p < npairs; p++) {
        int a = pairs[p].a, b = pairs[p].b;
        vr_pair_format(n, pairs[p], pn);
        if (pairs[p].same) return vr_why(why, why_len, "pair %s is a same-symbol pair (the ring lemma has '~' only)", pn);
        if (!ring_cell(n, a) || !ring_cell(n, b)) return vr_why(why, why_len, "pair %s has a cell off the ring", pn);
        if (cells[a] != VR_EMPTY || cells[b] != VR_EMPTY)
            return vr_why(why, why_len, "pair %s holds %s and %s (both cells must be empty)", pn, vr_content(cells[a]),
                          vr_content(cells[b]));
    }
    for (int i = 0; i < nn; i++)
        if (ring_cell(n, i) && cells[i] == VR_EMPTY && !used[i]) {
            char cn[4];
            vr_cell_name(n, i, cn);
            return vr_why(why, why_len, "the empty ring cell %s is in no pair", cn);
        }
    return 1;
}

int vr_ring_lemma(const VrGame *g, bool claim_chaos, const uint8_t *cells, const VrPair *pairs, int npairs,
                  const VrLemmaBudget *budget, char *why, size_t why_len)
{
    int n = g->n, nn = n * n, k = g->k, m = n - 2;
    if (!claim_chaos) return vr_why(why, why_len, "the certificate claims order");
    if (g->rules == VR_EXACT_END) return vr_why(why, why_len, "the ring lemma needs rules original or exact");
    if (k != n - 1 || m < VR_SMALL_MIN || m > VR_SMALL_MAX)
        return vr_why(why, why_len, "the ring lemma needs k = n-1 and n from %d to %d", VR_SMALL_MIN + 2, VR_SMALL_MAX + 2);
    int st = vr_status(g, cells);
    if (st != VR_ONGOING)
        return vr_why(why, why_len, "the position has already ended (%s has won)", st == VR_ORDER_WINS ? "Order" : "Chaos");
    if (!ring_pairs_ok(g, cells, pairs, npairs, why, why_len)) return 0;
    int empty = 0;
    for (int i = 0; i < nn; i++) empty += cells[i] == VR_EMPTY;
    bool order_to_move = (nn - empty) % 2 == 0;
    if (order_to_move != (empty % 2 == 0))
        return vr_why(why, why_len, "%s to move with %d empty cells (the ring lemma needs an even number at Order's turn)",
                      order_to_move ? "Order" : "Chaos", empty);

    /* Every live window: covered by a pair, or holding a whole small line,
     * whose allowed symbols then take the window's live ones. */
    int nl = 2 * m + 2, line[VR_SMALL_LINES][VR_SMALL_MAX];
    uint8_t allowed[VR_SMALL_LINES] = {0};
    for (int l = 0; l < nl; l++) ring_small_line(n, m, l, line[l]);
    Window w;
    for (int it = 0; window_next(n, k, &it, &w);) {
        bool lx = can_win(g, cells, &w, VR_X), lo = can_win(g, cells, &w, VR_O);
        if (!lx && !lo) continue;
        bool covered = false;
        for (int p = 0; p < npairs && !covered; p++) covered = covers(&w, pairs[p]);
        if (covered) continue;
        bool guards = false;
        for (int l = 0; l < nl; l++) {
            bool all = true;
            for (int i = 0; i < m && all; i++) all = in_cells(w.cell, w.ncells, line[l][i]);
            if (!all) continue;
            guards = true;
            allowed[l] |= (uint8_t)((lx ? VR_ALLOW_X : 0) | (lo ? VR_ALLOW_O : 0));
        }
        if (guards) continue;
        char wn[8];
        window_name(n, &w, wn);
        return vr_why(why, why_len, "window %s is not covered and holds no whole centre line", wn);
    }
    uint8_t small[VR_SMALL_MAX * VR_SMALL_MAX];
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) small[i * m + j] = cells[(i + 1) * n + (j + 1)];
    int won = vr_small_order_wins_budget(m, small, allowed, budget);
    if (won == -2) return vr_why(why, why_len, "the centre small game's search would pass the lemma budget"), -2;
    if (won < 0) return -1;
    if (won == 1) return vr_why(why, why_len, "the centre small game (the lines' allowed symbols from their live windows) is an Order win");
    return 1;
}
