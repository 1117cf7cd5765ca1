/* centre.c - see centre.h. The small-game table is the only state: one
 * bit per position (Order wins), computed once per centre size by a
 * backward pass over the base-3 indices. A child's index is its parent's
 * plus 3^cell or 2 * 3^cell, so it is always larger: walking the indices
 * from the last to the first, every child is known before its parent. */
#include "centre.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <threads.h>

enum { SMALL_MIN = 2, SMALL_MAX = 4, SMALL_CELLS_MAX = SMALL_MAX * SMALL_MAX };

/* NULL: not computed, or no memory. Written once (call_once) with release
 * order and read with acquire order: the table's contents are visible to
 * every thread that sees the pointer, ThreadSanitizer included (it does not
 * see glibc's call_once from the inside). */
static _Atomic(uint64_t *) small_table[SMALL_MAX + 1];
static once_flag small_once[SMALL_MAX + 1] = {ONCE_FLAG_INIT, ONCE_FLAG_INIT, ONCE_FLAG_INIT, ONCE_FLAG_INIT,
                                              ONCE_FLAG_INIT};

/* The small game's lines: its m rows, m columns and two diagonals, as
 * masks over cells i*m + j. */
static int small_lines(int m, uint32_t *lines)
{
    int nl = 0;
    uint32_t d1 = 0, d2 = 0;
    for (int i = 0; i < m; i++) {
        uint32_t row = 0, col = 0;
        for (int j = 0; j < m; j++) {
            row |= 1u << (i * m + j);
            col |= 1u << (j * m + i);
        }
        lines[nl++] = row;
        lines[nl++] = col;
        d1 |= 1u << (i * m + i);
        d2 |= 1u << (i * m + m - 1 - i);
    }
    lines[nl++] = d1;
    lines[nl++] = d2;
    return nl;
}

static inline bool bit(const uint64_t *t, uint32_t i) { return t[i >> 6] >> (i & 63) & 1; }

/* The value of one position from its children's (all known). */
static bool small_value(const uint64_t *t, uint32_t idx, uint32_t x, uint32_t o, uint32_t full, const uint32_t *lines,
                        int nl, const uint32_t *pow3)
{
    for (int l = 0; l < nl; l++)
        if ((x & lines[l]) == lines[l] || (o & lines[l]) == lines[l]) return true;
    uint32_t occ = x | o;
    if (occ == full) return false;
    bool order = (__builtin_popcount(occ) & 1) == 0;
    for (uint32_t e = full & ~occ; e; e &= e - 1) {
        int c = __builtin_ctz(e);
        bool w1 = bit(t, idx + pow3[c]), w2 = bit(t, idx + 2 * pow3[c]);
        if (order && (w1 || w2)) return true;   /* Order: one winning child */
        if (!order && !(w1 && w2)) return false; /* Chaos: one child that holds */
    }
    return !order;
}

/* The X and O masks of every base-3 number of `digits` digits, shifted. */
static void digit_masks(int digits, int shift, uint32_t *x, uint32_t *o)
{
    uint32_t count = 1;
    for (int i = 0; i < digits; i++) count *= 3;
    for (uint32_t v = 0; v < count; v++) {
        x[v] = o[v] = 0;
        uint32_t t = v;
        for (int i = 0; i < digits; i++, t /= 3) {
            if (t % 3 == 1) x[v] |= 1u << (i + shift);
            if (t % 3 == 2) o[v] |= 1u << (i + shift);
        }
    }
}

static uint64_t *small_compute(int m)
{
    int cells = m * m, lowd = cells / 2, highd = cells - lowd;
    uint32_t pow3[SMALL_CELLS_MAX + 1], lines[2 * SMALL_MAX + 2];
    pow3[0] = 1;
    for (int i = 1; i <= cells; i++) pow3[i] = 3 * pow3[i - 1];
    int nl = small_lines(m, lines);
    uint32_t nlo = pow3[lowd], nhi = pow3[highd], full = (1u << cells) - 1;
    uint64_t *t = calloc((pow3[cells] + 63) / 64, sizeof *t);
    uint32_t *xlo = malloc(4 * sizeof(uint32_t) * (nlo + nhi)), *olo = xlo + nlo, *xhi = olo + nlo, *ohi = xhi + nhi;
    if (!t || !xlo) {
        free(t);
        free(xlo);
        return NULL;
    }
    digit_masks(lowd, 0, xlo, olo);
    digit_masks(highd, lowd, xhi, ohi);
    for (uint32_t hi = nhi; hi-- > 0;)
        for (uint32_t lo = nlo; lo-- > 0;) {
            uint32_t idx = hi * nlo + lo;
            if (small_value(t, idx, xlo[lo] | xhi[hi], olo[lo] | ohi[hi], full, lines, nl, pow3))
                t[idx >> 6] |= 1ULL << (idx & 63);
        }
    free(xlo);
    return t;
}

static void once2(void) { atomic_store_explicit(&small_table[2], small_compute(2), memory_order_release); }
static void once3(void) { atomic_store_explicit(&small_table[3], small_compute(3), memory_order_release); }
static void once4(void) { atomic_store_explicit(&small_table[4], small_compute(4), memory_order_release); }

bool centre_small_win(int m, uint32_t idx)
{
    static void (*const init[SMALL_MAX + 1])(void) = {NULL, NULL, once2, once3, once4};
    if (m < SMALL_MIN || m > SMALL_MAX) return false;
    call_once(&small_once[m], init[m]);
    /* No memory for the table: the lemma claims nothing (sound: it only
     * ever adds Order wins). */
    const uint64_t *t = atomic_load_explicit(&small_table[m], memory_order_acquire);
    return t && bit(t, idx);
}

void centre_init(Centre *c, const Rules *r)
{
    int n = r->n, m = n - 2;
    *c = (Centre){.n = n, .m = m};
    c->on = r->rules != RULES_EXACT_END && r->k == n - 1 && m >= SMALL_MIN && m <= SMALL_MAX;
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++) c->centre |= 1ULL << board_cell(i, j);
    for (int i = 1; i < n - 1; i++) { /* each centre row's ends, then each centre column's */
        c->pair[c->npairs][0] = board_cell(i, 0);
        c->pair[c->npairs++][1] = board_cell(i, n - 1);
        c->pair[c->npairs][0] = board_cell(0, i);
        c->pair[c->npairs++][1] = board_cell(n - 1, i);
    }
    c->pair[c->npairs][0] = board_cell(0, 0); /* the diagonals' corners */
    c->pair[c->npairs++][1] = board_cell(n - 1, n - 1);
    c->pair[c->npairs][0] = board_cell(0, n - 1);
    c->pair[c->npairs++][1] = board_cell(n - 1, 0);
    for (int p = 0; p < c->npairs; p++) c->pair_mask[p] = 1ULL << c->pair[p][0] | 1ULL << c->pair[p][1];
    for (int i = 0; i < m; i++) { /* 3^(m*i): where centre row i's digits start */
        c->pow3_row[i] = 1;
        for (int j = 0; j < i * m; j++) c->pow3_row[i] *= 3;
    }
    for (uint32_t bits = 0; m > 0 && bits < (1u << m); bits++) {
        uint32_t v = 0, d = 1;
        for (int j = 0; j < m; j++, d *= 3)
            if (bits >> j & 1) v += d;
        c->row_index[0][bits] = v;     /* X: digit 1 */
        c->row_index[1][bits] = 2 * v; /* O: digit 2 */
    }
}

uint32_t centre_index(const Centre *c, Board b)
{
    uint32_t idx = 0, mask = (1u << c->m) - 1;
    for (int i = 0; i < c->m; i++) {
        int shift = 8 * (i + 1) + 1; /* centre row i is board row i+1, from column 1 */
        idx += c->pow3_row[i] * (c->row_index[0][b.s[PIECE_X] >> shift & mask] +
                                 c->row_index[1][b.s[PIECE_O] >> shift & mask]);
    }
    return idx;
}

bool centre_pairs_ok(const Centre *c, Board b)
{
    uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O];
    for (int p = 0; p < c->npairs; p++) {
        uint64_t pm = c->pair_mask[p], px = x & pm, po = o & pm;
        /* empty, or one X and one O */
        if ((px | po) != 0 && !(px && po)) return false;
    }
    return true;
}

bool centre_win(const Centre *c, Board b)
{
    return c->on && centre_pairs_ok(c, b) && centre_small_win(c->m, centre_index(c, b));
}
