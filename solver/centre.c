/* centre.c - see centre.h: the lemma's geometry and its conditions; the
 * small game's values are centre_small.c's. */
#include "centre.h"

#include <stdlib.h>

/* small_line, sym_cell and sym_pair (Centre): the square's 8 symmetries
 * acting on the centre's cells and on its small lines. Every symmetry maps
 * the rows, columns and both diagonals of the centre onto themselves, so
 * each sym_pair entry is found (a -1 would make centre_half.c skip that
 * symmetry; tests/test_centre_half.c checks the map against its own).
 * Only where the lemma applies (c->on: m <= 4, so 16 centre bits). */
static void centre_symmetries(Centre *c)
{
    int m = c->m;
    if (!c->on) return; /* no lemma: nothing reads them (and m*m may pass 32 bits) */
    for (int p = 0; p < c->npairs; p++)
        for (uint64_t e = c->line_mask[p]; e; e &= e - 1) {
            int cell = __builtin_ctzll(e);
            c->small_line[p] |= 1u << ((cell_row(cell) - 1) * m + cell_col(cell) - 1);
        }
    for (int s = 0; s < 8; s++) {
        for (int cell = 0; cell < m * m; cell++) {
            int i = cell / m, j = cell % m;
            if (s & 1) i = m - 1 - i;
            if (s & 2) j = m - 1 - j;
            c->sym_cell[s][cell] = (uint8_t)(s & 4 ? j * m + i : i * m + j);
        }
        for (int p = 0; p < c->npairs; p++) {
            uint32_t img = 0;
            for (uint32_t bits = c->small_line[p]; bits; bits &= bits - 1)
                img |= 1u << c->sym_cell[s][__builtin_ctz(bits)];
            c->sym_pair[s][p] = -1;
            for (int q = 0; q < c->npairs; q++)
                if (c->small_line[q] == img) c->sym_pair[s][p] = (int8_t)q;
        }
    }
}

void centre_init(Centre *c, const Rules *r)
{
    int n = r->n, m = n - 2;
    *c = (Centre){.n = n, .m = m};
    c->on = r->rules != RULES_EXACT_END && r->k == n - 1 && m >= CENTRE_SMALL_MIN && m <= CENTRE_SMALL_MAX;
    c->exact = r->rules == RULES_EXACT;
    c->ring = c->on && n % 2 == 0; /* the Chaos lemma's parity (centre_ring.h) */
    c->same_max_pieces = CENTRE_SAME_MAX_PIECES;
    c->half_max_pieces = 0; /* off unless asked (Knowledge.centre_half; centre_half.h) */
    c->half_two_max_pieces = 0; /* the same (Knowledge.centre_half_two) */
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
    for (int p = 0; p < c->npairs; p++) {
        c->pair_mask[p] = 1ULL << c->pair[p][0] | 1ULL << c->pair[p][1];
        /* the cells strictly between the pair's two ends: its small line */
        int r0 = cell_row(c->pair[p][0]), c0 = cell_col(c->pair[p][0]);
        int dr = (cell_row(c->pair[p][1]) - r0) / (n - 1), dc = (cell_col(c->pair[p][1]) - c0) / (n - 1);
        for (int i = 1; i < n - 1; i++) c->line_mask[p] |= 1ULL << board_cell(r0 + i * dr, c0 + i * dc);
    }
    for (int i = 0; i < r->nwin; i++) { /* at most one: two small lines share at most one cell */
        c->win_line[i] = -1;
        for (int p = 0; p < c->npairs; p++)
            if (c->on && (c->line_mask[p] & ~r->win[i]) == 0) c->win_line[i] = (int8_t)p;
    }
    centre_symmetries(c);
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

bool centre_allowed(const Centre *c, Board b, uint32_t *allowed)
{
    uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O];
    uint32_t a = 0;
    int half = 0;
    for (int p = 0; p < c->npairs; p++) {
        uint64_t pm = c->pair_mask[p], px = x & pm, po = o & pm;
        int nx = __builtin_popcountll(px), no = __builtin_popcountll(po);
        uint32_t s;
        bool dead = (x & c->line_mask[p]) && (o & c->line_mask[p]);
        if (nx + no == 1) {                  /* half full: free when its line is dead (centre.h) */
            if (!dead) return false;
            s = 3, half++;
        } else if (dead) s = 3;              /* dead: no restriction can matter, no table needed */
        else if (nx == 2) s = c->exact ? 0 : 1; /* X X: only an X line counts (original) */
        else if (no == 2) s = c->exact ? 0 : 2; /* O O: only an O line */
        else s = 3;                          /* empty, or mixed */
        a |= s << 2 * p;                     /* pair p is small line p's (centre.h) */
    }
    if (half % 2) return false; /* free cells odd: the small game's side to move is not the board's */
    *allowed = a;
    return true;
}

bool centre_win(const Centre *c, Board b) { return centre_win_stoppable(c, b, NULL, 0); }

bool centre_win_stoppable(const Centre *c, Board b, const atomic_bool *stop, double deadline)
{
    uint32_t allowed, all = (1u << 2 * c->npairs) - 1;
    if (!c->on || !centre_allowed(c, b, &allowed)) return false;
    /* same pairs only near the opening (centre.h, where it pays): deeper,
     * restrictions are many and each costs a table or a search, while
     * fours and pairings decide there */
    if (allowed != all && board_count(b) > c->same_max_pieces) return false;
    return centre_small_win_stoppable(c->m, allowed, centre_index(c, b), stop, deadline);
}

bool centre_small_game(const Rules *r, Board b, Rules *sr, Board *sb)
{
    int n = r->n, m = n - 2;
    char err[64];
    if (r->rules == RULES_EXACT_END || r->k != n - 1 || n < 7 || rules_status(r, b) != WINNER_NONE) return false;
    Centre c;
    centre_init(&c, r);
    if (!centre_pairs_ok(&c, b) || rules_init(sr, m, m, r->rules, err, (int)sizeof err) != 0) return false;
    *sb = board_empty();
    for (int p = PIECE_X; p <= PIECE_O; p++)
        for (int i = 0; i < m; i++) /* centre row i is board row i+1 from column 1: row i, column 0 there */
            sb->s[p] |= (b.s[p] >> (8 * (i + 1) + 1) & ((1ULL << m) - 1)) << (8 * i);
    return rules_status(sr, *sb) == WINNER_NONE;
}
