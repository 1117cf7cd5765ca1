/* verify_centre.c - see verify_centre.h. A plain memoised minimax for the
 * restricted small game and a direct check of the lemma's conditions; the
 * small game's lines and their ring pairs are computed from their
 * definition, not typed in. */
#include "verify_centre.h"
#include "verify_centre_ext.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- geometry --- */

/* The m x m small game's lines, in the order of the allowed vectors (rows,
 * columns, diagonal, anti-diagonal), each from one end to the other.
 * Returns their number, 2m+2. */
static int small_game_lines(int m, int line[][VR_CENTRE_MAX_M])
{
    int count = 0;
    for (int r = 0; r < m; r++, count++)
        for (int c = 0; c < m; c++) line[count][c] = r * m + c;
    for (int c = 0; c < m; c++, count++)
        for (int r = 0; r < m; r++) line[count][r] = r * m + c;
    for (int i = 0; i < m; i++) line[count][i] = i * m + i;
    count++;
    for (int i = 0; i < m; i++) line[count][i] = i * m + (m - 1 - i);
    count++;
    return count;
}

/* The big board's cell (n = m+2) of small cell s: one row and one column in. */
static int big_cell(int n, int m, int s) { return (s / m + 1) * n + (s % m + 1); }

/* The ring pair of a small line: the full line of the big board through it
 * is the line plus one cell beyond each end, found by stepping once more in
 * the line's own direction (from its first two cells, m >= 2). */
static void line_pair(int n, int m, const int *line, int pair[2])
{
    int r0 = line[0] / m, c0 = line[0] % m, dr = line[1] / m - r0, dc = line[1] % m - c0;
    int rl = line[m - 1] / m, cl = line[m - 1] % m;
    pair[0] = (r0 + 1 - dr) * n + (c0 + 1 - dc);
    pair[1] = (rl + 1 + dr) * n + (cl + 1 + dc);
}

/* --- the restricted small game --- */

/* The one lock of the lemma's searches (verify_centre_ext.h: its tables
 * are shared, unguarded state; the budget is read and charged under it). */
static pthread_mutex_t lemma_search_lock = PTHREAD_MUTEX_INITIALIZER;

/* The budget's positions left (UINT64_MAX: none); the lock held. */
static uint64_t budget_left(const VrLemmaBudget *b)
{
    if (!b || !b->max) return UINT64_MAX;
    uint64_t spent = atomic_load(b->spent);
    return spent < b->max ? b->max - spent : 0;
}


int vr_small_order_wins_allowed(int m, const uint8_t *small_cells, const uint8_t *allowed)
{
    return vr_small_order_wins_budget(m, small_cells, allowed, NULL);
}

int vr_small_order_wins_budget(int m, const uint8_t *small_cells, const uint8_t *allowed, const VrLemmaBudget *b)
{
    /* The small game is the extended game with no HALF pair
     * (verify_centre_ext.h), which checks m and the allowed sets. */
    if (m < VR_SMALL_MIN || m > VR_SMALL_MAX) return -1;
    VrExt e = {.m = m, .nhalf = 0, .exact = false};
    memcpy(e.allowed, allowed, (size_t)(2 * m + 2));
    uint32_t x = 0, o = 0;
    int pieces = 0;
    for (int i = 0; i < m * m; i++) {
        if (small_cells[i] > VR_O) return -1;
        pieces += small_cells[i] != VR_EMPTY;
        x |= (uint32_t)(small_cells[i] == VR_X) << i;
        o |= (uint32_t)(small_cells[i] == VR_O) << i;
    }
    uint64_t nodes;
    pthread_mutex_lock(&lemma_search_lock);
    int result = vr_ext_order_wins(&e, x, o, pieces % 2 == 0, budget_left(b), &nodes);
    if (b) atomic_fetch_add(b->spent, nodes);
    pthread_mutex_unlock(&lemma_search_lock);
    return result;
}

int vr_small_order_wins(int m, const uint8_t *small_cells)
{
    uint8_t allowed[VR_SMALL_LINES];
    memset(allowed, VR_ALLOW_BOTH, sizeof allowed);
    return vr_small_order_wins_allowed(m, small_cells, allowed);
}

/* --- the lemma on a big position --- */

/* The symbols allowed to win on a centre line whose pair holds a and b
 * (not HALF): both if the pair is empty or mixed; if it holds S twice, S
 * under original (with both ends a run of n >= k) and none under exact
 * (n like S is an overline; the other symbol's run is k-1). */
static uint8_t pair_allows(int rules, uint8_t a, uint8_t b)
{
    if (a != b || a == VR_EMPTY) return VR_ALLOW_BOTH;
    return rules == VR_ORIGINAL ? (uint8_t)(1 << a) : VR_ALLOW_NONE;
}

/* Writes to out (size len) the lines not allowed both symbols,
 * grouped: "with b2-e2, b2-b5 for X only; c2-c5 for neither". Nothing when
 * every line allows both. */
static void describe_allowed(int n, int m, int nlines, int line[][VR_CENTRE_MAX_M], const uint8_t *allowed, char *out,
                             size_t len)
{
    static const struct { uint8_t set; const char *what; } group[] = {
        {VR_ALLOW_X, "for X only"}, {VR_ALLOW_O, "for O only"}, {VR_ALLOW_NONE, "for neither"}};
    size_t at = 0;
    out[0] = '\0';
    for (size_t g = 0; g < sizeof group / sizeof group[0]; g++) {
        int listed = 0;
        for (int l = 0; l < nlines; l++) {
            if (allowed[l] != group[g].set || at >= len) continue;
            char a[3], b[3];
            vr_cell_name(n, big_cell(n, m, line[l][0]), a);
            vr_cell_name(n, big_cell(n, m, line[l][m - 1]), b);
            const char *lead = listed ? ", " : at ? "; " : "with ";
            at += (size_t)snprintf(out + at, len - at, "%s%s-%s", lead, a, b);
            listed++;
        }
        if (listed && at < len) at += (size_t)snprintf(out + at, len - at, " %s", group[g].what);
    }
}

/* The conditions both forms share: the claim, the rules, k = n-1 and n
 * from lo to hi. 1 they hold; else 0 and why. */
static int game_ok(const VrGame *g, bool claim_order, int lo, int hi, char *why, size_t why_len)
{
    int n = g->n;
    if (!claim_order) return vr_why(why, why_len, "the certificate claims chaos");
    if (g->rules == VR_EXACT_END) return vr_why(why, why_len, "not under exact-end (lines judged on the full board)");
    if (g->rules != VR_ORIGINAL && g->rules != VR_EXACT) return vr_why(why, why_len, "only under original or exact rules");
    if (g->k != n - 1 || n < lo || n > hi) return vr_why(why, why_len, "needs k = n-1 and n from %d to %d", lo, hi);
    return 1;
}

/* Does centre line l (small cells line[]) hold both symbols (DEAD,
 * verify_centre.h)? */
static bool line_dead(int n, int m, const int *line, const uint8_t *cells)
{
    bool x = false, o = false;
    for (int i = 0; i < m; i++) {
        uint8_t v = cells[big_cell(n, m, line[i])];
        x |= v == VR_X;
        o |= v == VR_O;
    }
    return x && o;
}

/* Each small line's allowed symbols from its ring pair (allowed[l]), and
 * whether some line is restricted (*restricted). 1, or 0 and why: a pair
 * is HALF (unless, in the table form, its line is DEAD: verify_centre.h;
 * the evenness of such pairs is the parity check of centre_of), or
 * (same_ok false: the see form) holds two like symbols. */
static int pairs_allow(const VrGame *g, const uint8_t *cells, bool same_ok, uint8_t *allowed, bool *restricted,
                       char *why, size_t why_len)
{
    int n = g->n, m = n - 2, line[VR_CENTRE_LINES][VR_CENTRE_MAX_M], nlines = small_game_lines(m, line);
    *restricted = false;
    for (int l = 0; l < nlines; l++) {
        int pair[2];
        line_pair(n, m, line[l], pair);
        uint8_t a = cells[pair[0]], b = cells[pair[1]];
        bool half = (a == VR_EMPTY) != (b == VR_EMPTY); /* Chaos could play the partner, unanswered */
        if (half && same_ok && line_dead(n, m, line[l], cells)) { /* its empty cell is free: Order answers in kind */
            allowed[l] = VR_ALLOW_BOTH;
            continue;
        }
        bool same = a == b && a != VR_EMPTY;            /* restricts its line: not for a plain certificate */
        if (half || (same && !same_ok)) {
            char na[3], nb[3];
            vr_cell_name(n, pair[0], na);
            vr_cell_name(n, pair[1], nb);
            return vr_why(why, why_len, "pair %s/%s holds %s and %s%s", na, nb, vr_content(a), vr_content(b),
                          half ? "" : " (the see form needs every pair empty or mixed)");
        }
        allowed[l] = pair_allows(g->rules, a, b);
        *restricted |= allowed[l] != VR_ALLOW_BOTH;
    }
    return 1;
}

/* The centre into small (m x m) and the parity check: the small game's
 * side to move follows its own piece count; the ring's count must be even
 * so that it is the big position's (with no pair HALF it is; with DEAD
 * HALF pairs this is the check that their number is even). 1, or 0 and
 * why. *order_to_move: the big game's. */
static int centre_of(int n, const uint8_t *cells, uint8_t *small, bool *order_to_move, char *why, size_t why_len)
{
    int m = n - 2, big_pieces = 0, small_pieces = 0;
    for (int i = 0; i < n * n; i++) big_pieces += cells[i] != VR_EMPTY;
    for (int i = 0; i < m * m; i++) {
        small[i] = cells[big_cell(n, m, i)];
        small_pieces += small[i] != VR_EMPTY;
    }
    *order_to_move = big_pieces % 2 == 0;
    if ((small_pieces % 2 == 0) != *order_to_move) return vr_why(why, why_len, "the ring holds an odd number of pieces");
    return 1;
}

int vr_centre_see_conditions(const VrGame *g, bool claim_order, const uint8_t *cells, uint8_t *small, char *why,
                             size_t why_len)
{
    uint8_t allowed[VR_CENTRE_LINES];
    bool restricted, order_to_move;
    if (!game_ok(g, claim_order, VR_CENTRE_SEE_MIN + 2, VR_CENTRE_MAX_M + 2, why, why_len)) return 0;
    if (!pairs_allow(g, cells, false, allowed, &restricted, why, why_len)) return 0;
    return centre_of(g->n, cells, small, &order_to_move, why, why_len);
}

/* --- the HALF pair forms (verify_centre.h: one or two HALF pairs) --- */

/* -2, with why: the lemma's searches would pass the budget b. */
static int over_budget(const VrLemmaBudget *b, char *why, size_t why_len)
{
    vr_why(why, why_len,
           "checking it would search more than the %llu positions of the centre games this verification allows "
           "(--max-lemma-nodes)",
           (unsigned long long)b->max);
    return -2;
}

/* The HALF pairs at cells: their small lines, increasing, into hl (the
 * first VR_EXT_MAX_HALF of them); returns how many there are, counting
 * no further than VR_EXT_MAX_HALF + 1 (more than the forms take). */
static int half_pairs(const VrGame *g, const uint8_t *cells, int hl[VR_EXT_MAX_HALF])
{
    int n = g->n, m = n - 2, line[VR_CENTRE_LINES][VR_CENTRE_MAX_M], nlines = small_game_lines(m, line), count = 0;
    for (int l = 0; l < nlines && count <= VR_EXT_MAX_HALF; l++) {
        int pair[2];
        line_pair(n, m, line[l], pair);
        if ((cells[pair[0]] == VR_EMPTY) == (cells[pair[1]] == VR_EMPTY)) continue;
        if (count < VR_EXT_MAX_HALF) hl[count] = l;
        count++;
    }
    return count;
}

/* The extended game at cells whose HALF pairs are those of small lines
 * hl[0..nh-1], increasing: its configuration (the HALF lines, each u's
 * symbol, the rules, the other lines' allowed sets), its centre (x, o;
 * v_j, the extended cell m*m + j, follows hl[j] and is empty) and the big
 * game's side to move; u[j], v[j] HALF pair j's filled and empty ends. */
typedef struct {
    VrExt e;
    uint32_t x, o;
    bool order_to_move;
    int u[VR_EXT_MAX_HALF], v[VR_EXT_MAX_HALF];
} ExtAt;

static void ext_at(const VrGame *g, const uint8_t *cells, int nh, const int *hl, ExtAt *a)
{
    int n = g->n, m = n - 2, line[VR_CENTRE_LINES][VR_CENTRE_MAX_M], nlines = small_game_lines(m, line);
    int pair[2], pieces = 0;
    *a = (ExtAt){.e = {.m = m, .nhalf = nh, .exact = g->rules == VR_EXACT}};
    for (int l = 0; l < nlines; l++) {
        line_pair(n, m, line[l], pair);
        a->e.allowed[l] = pair_allows(g->rules, cells[pair[0]], cells[pair[1]]);
    }
    for (int j = 0; j < nh; j++) {
        line_pair(n, m, line[hl[j]], pair);
        a->e.line[j] = hl[j];
        a->u[j] = cells[pair[0]] != VR_EMPTY ? pair[0] : pair[1];
        a->v[j] = a->u[j] == pair[0] ? pair[1] : pair[0];
        a->e.s0[j] = cells[a->u[j]];
    }
    for (int i = 0; i < n * n; i++) pieces += cells[i] != VR_EMPTY;
    a->order_to_move = pieces % 2 == 0;
    for (int i = 0; i < m * m; i++) {
        uint8_t c = cells[big_cell(n, m, i)];
        a->x |= (uint32_t)(c == VR_X) << i;
        a->o |= (uint32_t)(c == VR_O) << i;
    }
}

/* why for a Chaos win of the extended game at here. */
static int ext_refused(int n, const ExtAt *here, char *why, size_t why_len)
{
    char pairs[80] = "";
    size_t at = 0;
    for (int j = 0; j < here->e.nhalf && at < sizeof pairs; j++) {
        char nu[3], nv[3];
        vr_cell_name(n, here->u[j], nu);
        vr_cell_name(n, here->v[j], nv);
        at += (size_t)snprintf(pairs + at, sizeof pairs - at, "%s%s's half pair (%s on %s)", j ? " and " : "", nv,
                               vr_content(here->e.s0[j]), nu);
    }
    return vr_why(why, why_len, "the centre game with %s is a Chaos win (%s to move)", pairs,
                  here->order_to_move ? "Order" : "Chaos");
}

/* The HALF pair form at cells, whose HALF pairs are those of small lines
 * hl[0..nh-1], increasing, nh = 1 or 2 (verify_centre.h). 1 it holds, 0
 * not (why), -1 out of memory, -2 past the budget (b, NULL: none). It is
 * decided at the image of cells, among their 16 (the board's 8
 * symmetries, with X and O swapped or not), whose configuration
 * (vr_ext_key) is least, its HALF pairs in the order of their lines and
 * its v cells in the same order. Why: each configuration costs a table of
 * its own, up to 3^18 positions searched, and a certificate's lemma lines
 * come in reflected and colour-swapped forms of a few. Sound without any
 * argument about the extended game: every symmetry of the board maps
 * lines onto lines and swapping the symbols maps a line of one onto a line
 * of the other, so each image of a position has the position's value under
 * every rule set (an Order win on the image is an Order win here); an
 * image of a lemma position is itself checked against every condition. */
static int ext_form(const VrGame *g, const uint8_t *cells, int nh, const int *hl, const VrLemmaBudget *b, char *why,
                    size_t why_len)
{
    ExtAt here, a;
    ext_at(g, cells, nh, hl, &here);
    a = here;
    uint64_t best = vr_ext_key(&a.e), nodes;
    for (int s = 1; s < VR_SYMMETRIES; s++) {
        uint8_t img[VR_MAX_CELLS];
        int il[VR_EXT_MAX_HALF];
        vr_image(g->n, s, cells, img); /* the rules' own map: geometry s & 7, X/O swapped when s & 8 */
        if (half_pairs(g, img, il) != nh) continue; /* never: an image has as many HALF pairs as cells have */
        ExtAt ia;
        ext_at(g, img, nh, il, &ia);
        uint64_t key = vr_ext_key(&ia.e);
        if (key < best) a = ia, best = key;
    }
    pthread_mutex_lock(&lemma_search_lock); /* calls in turn: the budget is read and charged under it */
    int w = vr_ext_order_wins(&a.e, a.x, a.o, a.order_to_move, budget_left(b), &nodes);
    if (b) atomic_fetch_add(b->spent, nodes);
    pthread_mutex_unlock(&lemma_search_lock);
    if (w == -2) return over_budget(b, why, why_len);
    if (w < 0) return -1;
    return w ? 1 : ext_refused(g->n, &here, why, why_len);
}

/* The table form (verify_centre.h: no HALF pair, or dead ones in even
 * numbers) at cells: 1 it holds, 0 not (why), -1 out of memory, -2 past
 * the budget. */
static int table_form(const VrGame *g, const uint8_t *cells, const VrLemmaBudget *budget, char *why, size_t why_len)
{
    int n = g->n, m = n - 2;
    uint8_t allowed[VR_CENTRE_LINES], small[VR_SMALL_MAX * VR_SMALL_MAX];
    bool restricted, order_to_move;
    if (!pairs_allow(g, cells, true, allowed, &restricted, why, why_len)) return 0;
    if (!centre_of(n, cells, small, &order_to_move, why, why_len)) return 0;
    int line[VR_CENTRE_LINES][VR_CENTRE_MAX_M], nlines = small_game_lines(m, line);
    int w = vr_small_order_wins_budget(m, small, allowed, budget);
    if (w == -2) return over_budget(budget, why, why_len);
    if (w < 0) return -1;
    if (w == 0) {
        char with[160] = "";
        if (restricted) describe_allowed(n, m, nlines, line, allowed, with, sizeof with);
        return vr_why(why, why_len, "the centre small game %s%s%sis a Chaos win (%s to move)", restricted ? "(" : "",
                      with, restricted ? ") " : "", order_to_move ? "Order" : "Chaos");
    }
    return 1;
}

int vr_centre_lemma(const VrGame *g, bool claim_order, const uint8_t *cells, char *why, size_t why_len)
{
    return vr_centre_lemma_budget(g, claim_order, cells, NULL, why, why_len);
}

int vr_centre_lemma_budget(const VrGame *g, bool claim_order, const uint8_t *cells, const VrLemmaBudget *budget,
                           char *why, size_t why_len)
{
    if (!game_ok(g, claim_order, VR_SMALL_MIN + 2, VR_SMALL_MAX + 2, why, why_len)) return 0;
    int hl[VR_EXT_MAX_HALF], nh = half_pairs(g, cells, hl);
    if (nh == 2) { /* both lines DEAD: the table form may hold (as before this form); else, or if not, this one */
        int t = table_form(g, cells, budget, why, why_len);
        if (t != 0) return t;
    }
    if (nh == 1 || nh == 2) return ext_form(g, cells, nh, hl, budget, why, why_len);
    return table_form(g, cells, budget, why, why_len);
}
