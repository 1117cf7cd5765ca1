/* verify_centre.c - see verify_centre.h. A plain memoised minimax for the
 * small game and a direct check of the lemma's conditions; the ring pairs
 * are computed from their definition, not typed in. */
#include "verify_centre.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* --- the small game --- */

/* Memo values, 2 bits each, four to a byte. */
enum { SMALL_UNKNOWN = 0, SMALL_ORDER = 1, SMALL_CHAOS = 2 };

typedef struct {
    int m, cells;                           /* m x m, cells = m * m */
    int nlines, line[2 * VR_SMALL_MAX + 2][VR_SMALL_MAX]; /* each line's cells */
    uint32_t pow3[VR_SMALL_MAX * VR_SMALL_MAX];
    uint8_t *memo;                          /* 2 bits for each of the 3^cells positions */
} Small;

static Small small_game[VR_SMALL_MAX + 1]; /* small_game[m], set up on first use */
static pthread_mutex_t small_lock = PTHREAD_MUTEX_INITIALIZER;

/* The game on m x m cells: its lines and the base-3 weights; NULL when out of memory. */
static Small *small_setup(int m)
{
    Small *s = &small_game[m];
    if (s->memo) return s;
    s->m = m;
    s->cells = m * m;
    s->nlines = 0;
    for (int r = 0; r < m; r++, s->nlines++) /* the rows */
        for (int c = 0; c < m; c++) s->line[s->nlines][c] = r * m + c;
    for (int c = 0; c < m; c++, s->nlines++) /* the columns */
        for (int r = 0; r < m; r++) s->line[s->nlines][r] = r * m + c;
    for (int i = 0; i < m; i++) s->line[s->nlines][i] = i * m + i; /* the diagonal */
    s->nlines++;
    for (int i = 0; i < m; i++) s->line[s->nlines][i] = i * m + (m - 1 - i); /* the anti-diagonal */
    s->nlines++;
    uint32_t p = 1;
    for (int i = 0; i < s->cells; i++, p *= 3) s->pow3[i] = p;
    /* p is now 3^cells, the number of positions */
    s->memo = calloc(p / 4 + 1, 1);
    return s->memo ? s : NULL;
}

/* Does one of the small game's lines hold m like symbols? */
static bool small_has_line(const Small *s, const uint8_t *cells)
{
    for (int l = 0; l < s->nlines; l++) {
        uint8_t first = cells[s->line[l][0]];
        bool same = first != VR_EMPTY;
        for (int i = 1; i < s->m && same; i++) same = cells[s->line[l][i]] == first;
        if (same) return true;
    }
    return false;
}

static int memo_get(const Small *s, uint32_t key) { return (s->memo[key / 4] >> (2 * (key % 4))) & 3; }
static void memo_set(Small *s, uint32_t key, int v) { s->memo[key / 4] |= (uint8_t)(v << (2 * (key % 4))); }

/* Does Order win the small position cells (key: its base-3 number, pieces:
 * its piece count)? cells is restored on return. */
static bool small_solve(Small *s, uint8_t *cells, uint32_t key, int pieces)
{
    if (small_has_line(s, cells)) return true;
    if (pieces == s->cells) return false;
    int known = memo_get(s, key);
    if (known != SMALL_UNKNOWN) return known == SMALL_ORDER;
    bool order_to_move = pieces % 2 == 0;
    /* The mover wins if one of its moves wins for it (the first such move
     * decides); otherwise the other side wins. */
    bool order_wins = !order_to_move;
    for (int i = 0; i < s->cells && order_wins != order_to_move; i++) {
        if (cells[i] != VR_EMPTY) continue;
        for (uint8_t sym = VR_X; sym <= VR_O && order_wins != order_to_move; sym++) {
            cells[i] = sym;
            if (small_solve(s, cells, key + sym * s->pow3[i], pieces + 1) == order_to_move) order_wins = order_to_move;
            cells[i] = VR_EMPTY;
        }
    }
    memo_set(s, key, order_wins ? SMALL_ORDER : SMALL_CHAOS);
    return order_wins;
}

int vr_small_order_wins(int m, const uint8_t *small_cells)
{
    if (m < VR_SMALL_MIN || m > VR_SMALL_MAX) return -1;
    uint8_t cells[VR_SMALL_MAX * VR_SMALL_MAX];
    uint32_t key = 0, p = 1;
    int pieces = 0;
    for (int i = 0; i < m * m; i++, p *= 3) {
        if (small_cells[i] > VR_O) return -1;
        cells[i] = small_cells[i];
        key += cells[i] * p;
        pieces += cells[i] != VR_EMPTY;
    }
    pthread_mutex_lock(&small_lock);
    Small *s = small_setup(m);
    int result = s ? small_solve(s, cells, key, pieces) : -1;
    pthread_mutex_unlock(&small_lock);
    return result;
}

/* --- the lemma on a big position --- */

static const char *content(uint8_t v) { return v == VR_X ? "X" : v == VR_O ? "O" : "an empty cell"; }

/* The ring pairs of the n x n board: the two ends of each full line of n
 * cells through the centre. Returns the number, 2(n-1). */
static int ring_pairs(int n, int pair[][2])
{
    int count = 0;
    for (int r = 1; r <= n - 2; r++, count++) pair[count][0] = r * n, pair[count][1] = r * n + (n - 1);
    for (int c = 1; c <= n - 2; c++, count++) pair[count][0] = c, pair[count][1] = (n - 1) * n + c;
    pair[count][0] = 0, pair[count][1] = (n - 1) * n + (n - 1), count++;
    pair[count][0] = n - 1, pair[count][1] = (n - 1) * n, count++;
    return count;
}

int vr_centre_lemma(const VrGame *g, bool claim_order, const uint8_t *cells, char *why, size_t why_len)
{
    int n = g->n, m = n - 2;
    if (!claim_order) return vr_why(why, why_len, "the certificate claims chaos");
    if (g->rules == VR_EXACT_END) return vr_why(why, why_len, "not under exact-end (lines judged on the full board)");
    if (g->rules != VR_ORIGINAL && g->rules != VR_EXACT) return vr_why(why, why_len, "only under original or exact rules");
    if (g->k != n - 1 || n < 4 || n > 6) return vr_why(why, why_len, "needs k = n-1 and n from 4 to 6");

    int pair[2 * 8][2], npairs = ring_pairs(n, pair);
    for (int p = 0; p < npairs; p++) {
        uint8_t a = cells[pair[p][0]], b = cells[pair[p][1]];
        bool empty = a == VR_EMPTY && b == VR_EMPTY, mixed = a != VR_EMPTY && b != VR_EMPTY && a != b;
        if (empty || mixed) continue;
        char na[3], nb[3];
        vr_cell_name(n, pair[p][0], na);
        vr_cell_name(n, pair[p][1], nb);
        return vr_why(why, why_len, "pair %s/%s holds %s and %s", na, nb, content(a), content(b));
    }

    uint8_t small[VR_SMALL_MAX * VR_SMALL_MAX];
    int big_pieces = 0, small_pieces = 0;
    for (int i = 0; i < n * n; i++) big_pieces += cells[i] != VR_EMPTY;
    for (int r = 0; r < m; r++)
        for (int c = 0; c < m; c++) {
            small[r * m + c] = cells[(r + 1) * n + (c + 1)];
            small_pieces += small[r * m + c] != VR_EMPTY;
        }
    /* The small game's side to move follows its own piece count; with every
     * pair empty or mixed the ring holds an even number, so it is the big
     * position's. Said again here rather than assumed. */
    bool order_to_move = big_pieces % 2 == 0;
    if ((small_pieces % 2 == 0) != order_to_move)
        return vr_why(why, why_len, "the ring holds an odd number of pieces");
    int w = vr_small_order_wins(m, small);
    if (w < 0) return -1;
    if (w == 0)
        return vr_why(why, why_len, "the centre small game is a Chaos win (%s to move)", order_to_move ? "Order" : "Chaos");
    return 1;
}
