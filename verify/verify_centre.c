/* verify_centre.c - see verify_centre.h. A plain memoised minimax for the
 * restricted small game and a direct check of the lemma's conditions; the
 * small game's lines and their ring pairs are computed from their
 * definition, not typed in. */
#include "verify_centre.h"

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

/* Memo values, 2 bits each, four to a byte. */
enum { SMALL_UNKNOWN = 0, SMALL_ORDER = 1, SMALL_CHAOS = 2 };

/* One memo table: the values of every position under one allowed vector. */
typedef struct {
    uint64_t key;  /* what it holds: the allowed vector packed, 2 bits a line (mask >> 1); ext_memo's configuration */
    uint64_t used; /* small_clock at its last use, for eviction */
    uint8_t *memo; /* 2 bits for each position (and side); NULL: slot free */
} Memo;

typedef struct {
    int m, cells, nlines;           /* set once, on first use */
    uint32_t mask[VR_SMALL_LINES];  /* each line's cells, bit i for cell i, in small_game_lines' order */
    uint32_t pow3[VR_SMALL_MAX * VR_SMALL_MAX];
    Memo cache[VR_SMALL_CACHE];
    /* The search under way (the mutex held): its allowed sets and memo. */
    uint8_t allowed[VR_SMALL_LINES];
    uint8_t *memo;
    uint64_t nodes, allow; /* positions searched (memo misses), the most allowed (VrLemmaBudget) */
    bool over;             /* allow passed: the search gave up, nothing more is kept */
} Small;

static Small small_game[VR_SMALL_MAX + 1]; /* small_game[m] */
static uint64_t small_clock;
static pthread_mutex_t small_game_lock = PTHREAD_MUTEX_INITIALIZER;

/* The game on m x m cells, its lines and base-3 weights set up on first use. */
static Small *small_setup(int m)
{
    Small *s = &small_game[m];
    if (s->m == m) return s;
    int line[VR_CENTRE_LINES][VR_CENTRE_MAX_M];
    s->cells = m * m;
    s->nlines = small_game_lines(m, line);
    for (int l = 0; l < s->nlines; l++) {
        s->mask[l] = 0;
        for (int i = 0; i < m; i++) s->mask[l] |= 1u << line[l][i];
    }
    uint32_t p = 1;
    for (int i = 0; i < s->cells; i++, p *= 3) s->pow3[i] = p;
    s->m = m;
    return s;
}

/* The table of cache[0..count-1] holding key: the cached one, or a new one
 * of `bytes` in a free slot or in place of the least recently used (its
 * values are simply forgotten). NULL when out of memory. */
static uint8_t *memo_take(Memo *cache, int count, uint64_t key, size_t bytes)
{
    Memo *slot = &cache[0];
    for (int i = 0; i < count; i++) {
        Memo *e = &cache[i];
        if (e->memo && e->key == key) {
            e->used = ++small_clock;
            return e->memo;
        }
        if (slot->memo && (!e->memo || e->used < slot->used)) slot = e;
    }
    free(slot->memo);
    slot->memo = calloc(bytes, 1);
    slot->key = key;
    slot->used = ++small_clock;
    return slot->memo;
}

/* Points s->memo at the table for s->allowed (memo_take). false when out
 * of memory. */
static bool small_memo(Small *s)
{
    uint64_t key = 0;
    for (int l = 0; l < s->nlines; l++) key |= (uint64_t)(s->allowed[l] >> 1) << (2 * l);
    s->memo = memo_take(s->cache, VR_SMALL_CACHE, key, s->pow3[s->cells - 1] * 3 / 4 + 1); /* 3^cells, four a byte */
    return s->memo != NULL;
}

/* 1: a line holds m like symbols allowed on it (Order has won). 0: none
 * does, but one still can: for some line and some S allowed on it, the
 * line holds no other symbol (and is not full, else it would have won).
 * -1: no line can any more, whatever is played (pieces are never
 * removed), so Chaos wins: the search stops there. x, o: the cells
 * holding X, O, bit i for cell i. */
static int small_state(const Small *s, uint32_t x, uint32_t o)
{
    bool live = false;
    for (int l = 0; l < s->nlines; l++) {
        uint32_t mask = s->mask[l];
        bool x_ok = s->allowed[l] & VR_ALLOW_X, o_ok = s->allowed[l] & VR_ALLOW_O;
        if ((x_ok && (x & mask) == mask) || (o_ok && (o & mask) == mask)) return 1;
        live |= (x_ok && !(o & mask)) || (o_ok && !(x & mask));
    }
    return live ? 0 : -1;
}

static int memo_get(const uint8_t *memo, uint32_t key) { return (memo[key / 4] >> (2 * (key % 4))) & 3; }
static void memo_set(uint8_t *memo, uint32_t key, int v) { memo[key / 4] |= (uint8_t)(v << (2 * (key % 4))); }

/* Does Order win the small position (x, o: the cells holding X, O; key:
 * its base-3 number; pieces: its piece count) under s->allowed? Every
 * position met is memoised, ended ones too, so its lines are looked at
 * once. */
static bool small_solve(Small *s, uint32_t x, uint32_t o, uint32_t key, int pieces)
{
    int known = memo_get(s->memo, key);
    if (known != SMALL_UNKNOWN) return known == SMALL_ORDER;
    if (++s->nodes > s->allow) s->over = true;
    if (s->over) return false;
    int state = small_state(s, x, o);
    bool order_to_move = pieces % 2 == 0, order_wins;
    if (state != 0 || pieces == s->cells) {
        order_wins = state > 0;
    } else {
        /* The mover wins if one of its moves wins for it (the first such
         * move decides); otherwise the other side wins. */
        order_wins = !order_to_move;
        for (int i = 0; i < s->cells && order_wins != order_to_move; i++) {
            uint32_t bit = 1u << i;
            if ((x | o) & bit) continue;
            if (small_solve(s, x | bit, o, key + VR_X * s->pow3[i], pieces + 1) == order_to_move ||
                small_solve(s, x, o | bit, key + VR_O * s->pow3[i], pieces + 1) == order_to_move)
                order_wins = order_to_move;
            if (s->over) return false; /* an unfinished value is never kept */
        }
    }
    memo_set(s->memo, key, order_wins ? SMALL_ORDER : SMALL_CHAOS);
    return order_wins;
}

/* The budget's positions left (UINT64_MAX: none); the lock held. */
static uint64_t budget_left(const VrLemmaBudget *b)
{
    if (!b || !b->max) return UINT64_MAX;
    uint64_t spent = atomic_load(b->spent);
    return spent < b->max ? b->max - spent : 0;
}

/* vr_small_order_wins_allowed within budget b (NULL: none): also -2 past it. */
static int small_wins_budget(int m, const uint8_t *small_cells, const uint8_t *allowed, const VrLemmaBudget *b);

int vr_small_order_wins_allowed(int m, const uint8_t *small_cells, const uint8_t *allowed)
{
    return small_wins_budget(m, small_cells, allowed, NULL);
}

static int small_wins_budget(int m, const uint8_t *small_cells, const uint8_t *allowed, const VrLemmaBudget *b)
{
    if (m < VR_SMALL_MIN || m > VR_SMALL_MAX) return -1;
    for (int l = 0; l < 2 * m + 2; l++)
        if (allowed[l] & ~VR_ALLOW_BOTH) return -1;
    uint32_t key = 0, p = 1, x = 0, o = 0;
    int pieces = 0;
    for (int i = 0; i < m * m; i++, p *= 3) {
        if (small_cells[i] > VR_O) return -1;
        key += small_cells[i] * p;
        pieces += small_cells[i] != VR_EMPTY;
        x |= (uint32_t)(small_cells[i] == VR_X) << i;
        o |= (uint32_t)(small_cells[i] == VR_O) << i;
    }
    pthread_mutex_lock(&small_game_lock);
    Small *s = small_setup(m);
    memcpy(s->allowed, allowed, (size_t)s->nlines);
    s->nodes = 0;
    s->allow = budget_left(b);
    s->over = false;
    int result = small_memo(s) ? small_solve(s, x, o, key, pieces) : -1;
    if (b) atomic_fetch_add(b->spent, s->nodes);
    if (s->over) result = -2;
    pthread_mutex_unlock(&small_game_lock);
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

/* --- the one-HALF-pair form (verify_centre.h) --- */

/* The extended game: the m x m centre plus the HALF pair's empty cell as
 * cell m*m, the side to move explicit. One memo per configuration (the
 * other lines' allowed sets, the HALF pair's line and u's symbol, the
 * rules), 2 bits for each (position, side): 65 MB for m = 4, its pages
 * touched as the search goes (so at most as many as the budget's
 * positions); EXT_CACHE of them kept, for a certificate whose lemma lines
 * come in a few dozen configurations (exact X a1 with the lemma asked at
 * 5 pieces: about 22 for one reply, with the images of a position
 * sharing one, ext_form). */
enum { EXT_CACHE = 32, EXT_MAX_CELLS = VR_SMALL_MAX * VR_SMALL_MAX + 1 };

typedef struct {
    const Small *s;           /* the centre's lines and weights */
    int cells;                /* m*m + 1; the extra cell is cell m*m */
    uint32_t pow3[EXT_MAX_CELLS];
    int line;                 /* the HALF pair's small line */
    uint8_t s0;               /* the symbol on its filled end u */
    bool exact;
    uint8_t allowed[VR_SMALL_LINES]; /* the other lines' (the HALF line's entry unused) */
    uint8_t *memo;
    uint64_t nodes, allow; /* positions searched (memo misses), the most allowed */
    bool over;             /* allow passed: the search gave up, nothing more is kept */
} Ext;

static Memo ext_cache[EXT_CACHE];

/* Does some line count for Order at (x, o) with v (the extra cell's
 * content)? The HALF line by its full line u, L, v (verify_centre.h): L
 * all s0 with v not s0 (exact) or anything (original), or L all the other
 * symbol T with v = T; every other line by its allowed set. */
static bool ext_counts(const Ext *h, uint32_t x, uint32_t o, uint8_t v)
{
    for (int l = 0; l < h->s->nlines; l++) {
        uint32_t mask = h->s->mask[l];
        uint8_t a = (x & mask) == mask ? VR_X : (o & mask) == mask ? VR_O : VR_EMPTY;
        if (a == VR_EMPTY) continue;
        if (l != h->line) {
            if (h->allowed[l] & (1 << a)) return true;
        } else if (a == h->s0 ? !h->exact || v != h->s0 : v == a) {
            return true;
        }
    }
    return false;
}

static int ext_get(const uint8_t *memo, uint64_t i) { return (memo[i / 4] >> (2 * (i % 4))) & 3; }
static void ext_set(uint8_t *memo, uint64_t i, int v) { memo[i / 4] |= (uint8_t)(v << (2 * (i % 4))); }

/* Does Order win the extended game at (x, o, v; key its base-3 number over
 * the m*m + 1 cells) with order_to_move? Plain minimax over every move of
 * either symbol on every empty cell, the extra cell included; Chaos wins
 * when all the cells are full without a line that counts. */
static bool ext_solve(Ext *h, uint32_t x, uint32_t o, uint8_t v, uint32_t key, bool order_to_move)
{
    uint64_t i = (uint64_t)key * 2 + order_to_move;
    int known = ext_get(h->memo, i);
    if (known != SMALL_UNKNOWN) return known == SMALL_ORDER;
    if (++h->nodes > h->allow) h->over = true;
    if (h->over) return false;
    int m2 = h->cells - 1;
    bool full = __builtin_popcount(x | o) == m2 && v != VR_EMPTY;
    bool order_wins = ext_counts(h, x, o, v);
    if (!order_wins && !full) {
        order_wins = !order_to_move;
        for (int c = 0; c < h->cells && order_wins != order_to_move; c++) {
            if (c < m2 ? ((x | o) >> c & 1) : v != VR_EMPTY) continue;
            for (uint8_t p = VR_X; p <= VR_O && order_wins != order_to_move; p++) {
                uint32_t bit = c < m2 ? 1u << c : 0, k2 = key + p * h->pow3[c];
                uint32_t x2 = p == VR_X ? x | bit : x, o2 = p == VR_O ? o | bit : o;
                bool w = ext_solve(h, x2, o2, c < m2 ? v : p, k2, !order_to_move);
                if (h->over) return false; /* an unfinished value is never kept */
                if (w == order_to_move) order_wins = order_to_move;
            }
        }
    }
    ext_set(h->memo, i, order_wins ? SMALL_ORDER : SMALL_CHAOS);
    return order_wins;
}

/* h's configuration: what its table holds (the HALF line, s0, the rules,
 * m and the other lines' allowed sets). */
static uint64_t ext_key(const Ext *h, int m, int nlines)
{
    uint64_t config = (uint64_t)h->line | (uint64_t)h->s0 << 4 | (uint64_t)h->exact << 6 | (uint64_t)m << 8;
    for (int l = 0; l < nlines; l++) config |= (uint64_t)(h->allowed[l] >> 1) << (16 + 2 * l);
    return config;
}

/* h->memo for h's configuration: cached, or a new one in place of the
 * least recently used. false when out of memory. */
static bool ext_memo(Ext *h)
{
    uint64_t config = ext_key(h, h->s->m, h->s->nlines);
    h->memo = memo_take(ext_cache, EXT_CACHE, config, (size_t)h->pow3[h->cells - 1] * 3 * 2 / 4 + 1); /* 2 sides */
    return h->memo != NULL;
}

/* -2, with why: the lemma's searches would pass the budget b. */
static int over_budget(const VrLemmaBudget *b, char *why, size_t why_len)
{
    vr_why(why, why_len,
           "checking it would search more than the %llu positions of the centre games this verification allows "
           "(--max-lemma-nodes)",
           (unsigned long long)b->max);
    return -2;
}

/* The small line of the only HALF pair, or -1 when no pair or more than
 * one is HALF. */
static int only_half_pair(const VrGame *g, const uint8_t *cells)
{
    int n = g->n, m = n - 2, line[VR_CENTRE_LINES][VR_CENTRE_MAX_M], nlines = small_game_lines(m, line), found = -1;
    for (int l = 0; l < nlines; l++) {
        int pair[2];
        line_pair(n, m, line[l], pair);
        if ((cells[pair[0]] == VR_EMPTY) == (cells[pair[1]] == VR_EMPTY)) continue;
        if (found >= 0) return -1;
        found = l;
    }
    return found;
}

/* The extended game's configuration at cells (h: the HALF line hl, s0,
 * the rules, the other lines' allowed sets), its centre (x, o; key its
 * base-3 number) and the side to move; u and v the HALF pair's full and
 * empty ends. */
typedef struct {
    Ext h;
    uint32_t x, o, key;
    bool order_to_move;
    int u, v;
} ExtAt;

static void ext_at(const VrGame *g, const uint8_t *cells, int hl, ExtAt *a)
{
    int n = g->n, m = n - 2, line[VR_CENTRE_LINES][VR_CENTRE_MAX_M], nlines = small_game_lines(m, line);
    *a = (ExtAt){.h = {.line = hl, .exact = g->rules == VR_EXACT, .allow = UINT64_MAX}};
    int pair[2], pieces = 0;
    for (int l = 0; l < nlines; l++) {
        line_pair(n, m, line[l], pair);
        a->h.allowed[l] = pair_allows(g->rules, cells[pair[0]], cells[pair[1]]);
    }
    line_pair(n, m, line[hl], pair);
    a->u = cells[pair[0]] != VR_EMPTY ? pair[0] : pair[1];
    a->v = a->u == pair[0] ? pair[1] : pair[0];
    a->h.s0 = cells[a->u];
    for (int i = 0; i < n * n; i++) pieces += cells[i] != VR_EMPTY;
    a->order_to_move = pieces % 2 == 0;
    for (int i = 0, p = 1; i < m * m; i++, p *= 3) {
        uint8_t c = cells[big_cell(n, m, i)];
        a->key += c * (uint32_t)p;
        a->x |= (uint32_t)(c == VR_X) << i;
        a->o |= (uint32_t)(c == VR_O) << i;
    }
}

/* The one-HALF-pair form at cells, whose only HALF pair is that of small
 * line hl (verify_centre.h). 1 it holds, 0 not (why), -1 out of memory,
 * -2 past the budget (b, NULL: none). It is decided at the image of cells,
 * among their 16 (the board's 8 symmetries, with X and O swapped or not),
 * whose configuration is least. Why: each configuration costs a table of
 * its own, up to 2 x 3^17 positions searched, and a certificate's lemma
 * lines come in reflected and colour-swapped forms of a few. Sound without
 * any argument about the extended game: every symmetry of the board maps
 * lines onto lines and swapping the symbols maps a line of one onto a line
 * of the other, so each image of a position has the position's value under
 * every rule set (a Order win on the image is a Order win here); an image
 * of a lemma position is itself checked against every condition. */
static int ext_form(const VrGame *g, const uint8_t *cells, int hl, const VrLemmaBudget *b, char *why, size_t why_len)
{
    int n = g->n, m = n - 2, line[VR_CENTRE_LINES][VR_CENTRE_MAX_M], nlines = small_game_lines(m, line);
    ExtAt here, a;
    ext_at(g, cells, hl, &here);
    a = here;
    for (int s = 1; s < VR_SYMMETRIES; s++) {
        uint8_t img[VR_MAX_CELLS];
        vr_image(n, s, cells, img); /* the rules' own map: geometry s & 7, X/O swapped when s & 8 */
        int il = only_half_pair(g, img);
        if (il < 0) continue; /* never: an image has one HALF pair as cells have */
        ExtAt ia;
        ext_at(g, img, il, &ia);
        if (ext_key(&ia.h, m, nlines) < ext_key(&a.h, m, nlines)) a = ia;
    }
    Ext h = a.h;
    pthread_mutex_lock(&small_game_lock); /* calls in turn: the budget is read and charged under it */
    h.allow = budget_left(b);
    h.s = small_setup(m);
    h.cells = m * m + 1;
    for (int i = 0, q = 1; i < h.cells; i++, q *= 3) h.pow3[i] = (uint32_t)q;
    int w = ext_memo(&h) ? ext_solve(&h, a.x, a.o, VR_EMPTY, a.key, a.order_to_move) : -1;
    if (b) atomic_fetch_add(b->spent, h.nodes);
    pthread_mutex_unlock(&small_game_lock);
    if (h.over) return over_budget(b, why, why_len);
    if (w <= 0) {
        char nu[3], nv[3];
        vr_cell_name(n, here.u, nu);
        vr_cell_name(n, here.v, nv);
        return w < 0 ? -1
                     : vr_why(why, why_len, "the centre game with %s's half pair (%s on %s) is a Chaos win (%s to move)",
                              nv, vr_content(here.h.s0), nu, here.order_to_move ? "Order" : "Chaos");
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
    int n = g->n, m = n - 2;
    uint8_t allowed[VR_CENTRE_LINES], small[VR_SMALL_MAX * VR_SMALL_MAX];
    bool restricted, order_to_move;
    if (!game_ok(g, claim_order, VR_SMALL_MIN + 2, VR_SMALL_MAX + 2, why, why_len)) return 0;
    int hl = only_half_pair(g, cells);
    if (hl >= 0) return ext_form(g, cells, hl, budget, why, why_len);
    if (!pairs_allow(g, cells, true, allowed, &restricted, why, why_len)) return 0;
    if (!centre_of(n, cells, small, &order_to_move, why, why_len)) return 0;
    int line[VR_CENTRE_LINES][VR_CENTRE_MAX_M], nlines = small_game_lines(m, line);
    int w = small_wins_budget(m, small, allowed, budget);
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
