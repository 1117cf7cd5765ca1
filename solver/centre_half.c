/* centre_half.c - see centre_half.h: the extended game by a memoised
 * depth-first search, one table per configuration. */
#include "centre_half.h"
#include "clock.h"

#include <stdlib.h>
#include <string.h>
#include <threads.h>

enum { HALF_MAX = 2, HALF_CELLS_MAX = 16 + HALF_MAX };

typedef struct {
    uint64_t config;
    uint64_t used;
    uint64_t bytes; /* the memo's size (half_table_bytes) */
    uint8_t *memo;  /* 2 bits for each (index, side): 0 unknown, 1 Order wins, 2 not; NULL: free */
    bool complete;  /* every entry known (half_fill finished): read, never searched */
} HalfTable;

static HalfTable half_tables[CENTRE_HALF_TABLES_MAX];
static uint64_t half_clock;
static mtx_t half_lock;
static once_flag half_once = ONCE_FLAG_INIT;
static bool half_lock_ok; /* mtx_init succeeded; else the lemma claims nothing */
static void half_lock_init(void) { half_lock_ok = mtx_init(&half_lock, mtx_plain) == thrd_success; }

/* The extended game's cells: centre cell i*m + j is bit and base-3 digit
 * i*m + j, half pair j's empty end v_j is m*m + j (0 <= j < nhalf). x and
 * o hold the X and O cells over all of them. */
typedef struct {
    int m, cells, nhalf, npairs; /* cells = m*m + nhalf */
    int star[HALF_MAX];          /* the half pairs' lines, ascending once canonical */
    int s0[HALF_MAX];            /* digit (1 X, 2 O) on each half pair's full end u_j */
    uint32_t line[CENTRE_MAX_PAIRS]; /* each pair's small line, over centre cells i*m + j */
    uint32_t allowed;                /* bits 2p (X) and 2p+1 (O): who wins on pair p's line */
    bool exact;
    uint32_t pow3[HALF_CELLS_MAX + 1];
    uint8_t *memo;
    const atomic_bool *stop;
    double deadline; /* monotonic seconds (clock.h); 0: none */
    uint32_t ticks;
    bool stopped;
} HalfGame;

static int half_memo_at(const uint8_t *memo, uint64_t i) { return memo[i >> 2] >> (2 * (i & 3)) & 3; }

/* Which half pair line p is (its j), or -1. */
static inline int half_of(const HalfGame *g, int p)
{
    for (int j = 0; j < g->nhalf; j++)
        if (g->star[j] == p) return j;
    return -1;
}

/* Does a line count for Order at (x, o)? */
static bool half_counts(const HalfGame *g, uint32_t x, uint32_t o)
{
    for (int p = 0; p < g->npairs; p++) {
        uint32_t lm = g->line[p];
        int a = (x & lm) == lm ? 1 : (o & lm) == lm ? 2 : 0;
        if (!a) continue;
        int j = half_of(g, p);
        if (j < 0) {
            if (g->allowed >> (2 * p + a - 1) & 1) return true;
            continue;
        }
        int v = g->m * g->m + j, vd = x >> v & 1 ? 1 : o >> v & 1 ? 2 : 0;
        if (a == g->s0[j] ? !g->exact || vd != g->s0[j] : vd == a) return true;
    }
    return false;
}

/* Sets g->stopped once the flag is set or the deadline passed, read every
 * 65 536th call (the clock costs more than a node). */
static void half_check_stop(HalfGame *g)
{
    if ((++g->ticks & 0xFFFF) == 0 && ((g->stop && atomic_load_explicit(g->stop, memory_order_relaxed)) ||
                                        (g->deadline > 0 && clock_seconds() >= g->deadline)))
        g->stopped = true;
}

/* Order wins the extended game at (x, o; idx its base-3 number) with
 * order to move? False also once stopped (then nothing more is kept). */
static bool half_solve(HalfGame *g, uint32_t x, uint32_t o, uint32_t idx, bool order)
{
    uint64_t i = (uint64_t)idx * 2 + order;
    int known = half_memo_at(g->memo, i);
    if (known) return known == 1;
    half_check_stop(g);
    if (g->stopped) return false;
    uint32_t occ = x | o, full = (1u << g->cells) - 1;
    bool win = half_counts(g, x, o);
    if (!win && occ != full) {
        win = !order;
        for (int c = 0; c < g->cells && win != order; c++) {
            if (occ >> c & 1) continue;
            uint32_t bit = 1u << c;
            for (int d = 1; d <= 2 && win != order; d++) {
                bool w = half_solve(g, d == 1 ? x | bit : x, d == 2 ? o | bit : o, idx + (uint32_t)d * g->pow3[c], !order);
                if (g->stopped) return false;
                if (w == order) win = order;
            }
        }
    }
    g->memo[i >> 2] |= (uint8_t)((win ? 1 : 2) << (2 * (i & 3)));
    return win;
}

/* The 4 bits of position idx, (x, o), in a full table (half_fill): bits
 * 0-1 its entry with Chaos to move, bits 2-3 with Order to move (entry
 * idx*2 + order, 2 bits each, so one index's pair is one half byte), each
 * 1 Order wins or 2 not. Reads its children's entries, which must be
 * final: the minimax of half_solve, over the same moves. */
static unsigned half_fill_value(const HalfGame *g, uint32_t x, uint32_t o, uint32_t idx)
{
    if (half_counts(g, x, o)) return 1u | 1u << 2;
    uint32_t empty = ((1u << g->cells) - 1) & ~(x | o);
    if (!empty) return 2u | 2u << 2;
    bool order_moves = false, chaos_moves = true; /* Order wins with Order, with Chaos to move */
    for (; empty && (!order_moves || chaos_moves); empty &= empty - 1) {
        uint32_t step = g->pow3[__builtin_ctz(empty)];
        for (uint32_t d = 1; d <= 2; d++) {
            uint32_t child = idx + d * step;
            unsigned pair = g->memo[child >> 1] >> (4 * (child & 1)) & 0xF;
            order_moves |= (pair & 3) == 1;  /* a move to a Chaos-to-move win */
            chaos_moves &= (pair >> 2) == 1; /* every move to an Order-to-move win */
        }
    }
    return (chaos_moves ? 1u : 2u) | (order_moves ? 1u : 2u) << 2;
}

/* Fills every entry of g->memo (both sides of all 3^cells positions) by a
 * backward pass, the positions by descending base-3 number. Why it is
 * exact without recursion: a move turns one digit 0 into 1 or 2, so every
 * child's number is larger than its parent's and its entries are final
 * when the parent is computed. Why: a depth-first search from each asked
 * position explores the part its cut-offs need, 1.6 M positions a call
 * on average at 4 pieces of exact X a1 X f1, again and again; the whole
 * table costs about 8 s for two half pairs on 6x6 (3^18 positions) and
 * then every call is one read, at any number of pieces (measured in
 * results/openings/exact-Xa1/centre-half-fill.md). The digits and the
 * cells (x, o) are counted down with idx, as an odometer. False when
 * stopped (g->stopped): the entries written are final, the rest are as
 * they were (unknown or final), so the table stays sound but incomplete. */
static bool half_fill(HalfGame *g)
{
    uint32_t full = (1u << g->cells) - 1, x = 0, o = full;
    uint8_t digit[HALF_CELLS_MAX];
    for (int c = 0; c < g->cells; c++) digit[c] = 2;
    for (uint32_t idx = g->pow3[g->cells]; idx-- > 0;) {
        if ((idx & 0xFFF) == 0) {
            g->ticks |= 0xFFFF; /* the next check reads the flag and the clock */
            half_check_stop(g);
            if (g->stopped) return false;
        }
        unsigned shift = 4 * (idx & 1);
        g->memo[idx >> 1] = (uint8_t)((g->memo[idx >> 1] & ~(0xFu << shift)) | half_fill_value(g, x, o, idx) << shift);
        for (int c = 0; c < g->cells; c++) { /* idx - 1: the lowest nonzero digit down by one, those below to 2 */
            uint32_t bit = 1u << c;
            if (digit[c] == 2) {
                digit[c] = 1, o &= ~bit, x |= bit;
                break;
            }
            if (digit[c] == 1) {
                digit[c] = 0, x &= ~bit;
                break;
            }
            digit[c] = 2, o |= bit;
        }
    }
    return true;
}

/* The image of (x, o)'s cells under square symmetry s (centre cells by
 * Centre.sym_cell) with the half pairs' v cells put in the order `to`
 * (v_j goes to slot to[j]; to is a permutation of 0 .. HALF_MAX-1), X
 * and O swapped when swap. */
static void half_map_cells(const Centre *c, const HalfGame *g, int s, bool swap, const int *to, uint32_t *x, uint32_t *o)
{
    int mm = g->m * g->m;
    uint32_t in[2] = {*x, *o}, out[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        for (uint32_t bits = in[k] & ((1u << mm) - 1); bits; bits &= bits - 1)
            out[k] |= 1u << c->sym_cell[s][__builtin_ctz(bits)];
        for (int j = 0; j < HALF_MAX; j++) out[k] |= (in[k] >> (mm + j) & 1) << (mm + to[j]); /* past nhalf: 0 */
    }
    *x = out[swap], *o = out[!swap];
}

/* The table's key: the rules, m, the half pairs (line and S0 each, in
 * their order) and the other lines' allowed sets. */
static uint64_t half_config(const HalfGame *g)
{
    uint64_t k = (uint64_t)g->m | (uint64_t)g->nhalf << 4 | (uint64_t)g->exact << 6;
    for (int j = 0; j < g->nhalf; j++) k |= ((uint64_t)g->star[j] | (uint64_t)g->s0[j] << 5) << (8 + 7 * j);
    return k | (uint64_t)g->allowed << 24;
}

/* g's configuration under symmetry s (0-7 the square's, 8-15 the same
 * with X and O swapped) into h, the half pairs sorted by line; to[j]: the
 * slot half pair j lands in. False when s does not map g's lines onto
 * lines (never for a full centre). */
static bool half_image(const Centre *c, const HalfGame *g, int s, HalfGame *h, int *to)
{
    const int8_t *perm = c->sym_pair[s & 7];
    bool swap = s >= 8;
    for (int p = 0; p < g->npairs; p++)
        if (perm[p] < 0) return false;
    h->m = g->m, h->exact = g->exact, h->nhalf = g->nhalf, h->allowed = 0;
    for (int j = 0; j < g->nhalf; j++) to[j] = j;
    if (g->nhalf == 2 && perm[g->star[1]] < perm[g->star[0]]) to[0] = 1, to[1] = 0;
    for (int j = 0; j < g->nhalf; j++) {
        h->star[to[j]] = perm[g->star[j]];
        h->s0[to[j]] = swap ? 3 - g->s0[j] : g->s0[j];
    }
    for (int p = 0; p < g->npairs; p++) {
        uint32_t a = g->allowed >> 2 * p & 3;
        if (swap) a = (a & 1) << 1 | a >> 1;
        h->allowed |= a << 2 * perm[p];
    }
    return true;
}

/* The canonical form of a configuration (half_canonical): which of the
 * 16 symmetries gives the least image, where the half pairs land, and the
 * image's configuration. It depends on the configuration alone (half_config
 * holds m, the rules, the half pairs and the allowed sets, and Centre's
 * symmetry maps depend on m only), so it is found once and kept, per
 * thread (no lock), in a direct-mapped cache keyed by the whole
 * configuration (raw + 1; 0: an empty slot). Why: the search with whole
 * tables asks the lemma at every node with a half pair, and the 15 images
 * were most of the cost of an ask that is otherwise one read. */
enum { HALF_CANON_BITS = 9 };
typedef struct {
    uint64_t raw;
    int8_t s, to[HALF_MAX];
    int star[HALF_MAX], s0[HALF_MAX];
    uint32_t allowed;
} HalfCanon;
static _Thread_local HalfCanon half_canon_cache[1 << HALF_CANON_BITS];

/* Puts g and its cells (x, o) in the canonical form of their class under
 * the 16 symmetries of the extended game: the 8 of the square, each with
 * or without the swap of X and O; the least config (half_config) wins.
 * Why: a table costs seconds to fill and tens of MB, and positions of one
 * class (a reflected ring opening, the other symbol) would fill one each.
 * Sound: a symmetry s of the square maps the small lines onto the small
 * lines (rows, columns and diagonals of the m x m centre), line p onto
 * line q = sym_pair[s][p] (Centre), and half pair j's ends onto the ends
 * of pair sym_pair[s][star_j], its full end onto the full one. The
 * extended game with the half pairs on lines p_j, S0_j, the lines'
 * allowed sets and cells P is the one with the half pairs on q_j, the
 * sets carried over and cells s(P), v_j's digit on the image pair's v,
 * move for move (half_counts reads only which line is full of which
 * symbol, the sets, each half pair's S0 and v digit). Which half pair is
 * numbered first is a name only: sorting them by line, with their S0 and
 * v cells, renames cells and nothing else. Swapping X and O everywhere
 * (the cells, each S0 and each line's pair of allowed bits) maps a line's
 * count to the other symbol's, exact's "v not S0" included. The side to
 * move is unchanged. So the two positions have one value, and the table
 * of the canonical one answers both. tests/test_centre_half.c checks it
 * against the search without it, with one and two half pairs. */
static void half_canonical(const Centre *c, HalfGame *g, uint32_t *x, uint32_t *o)
{ /* g's half pairs come in line order (half_conditions): the identity's image is g */
    uint64_t raw = half_config(g);
    HalfCanon *k = &half_canon_cache[(raw * 0x9E3779B97F4A7C15ull) >> (64 - HALF_CANON_BITS)];
    if (k->raw != raw + 1) { /* the least image, found once per configuration and thread */
        HalfGame best = *g;
        int best_s = 0, best_to[HALF_MAX] = {0, 1};
        uint64_t best_config = raw;
        for (int s = 1; s < 8 * 2; s++) {
            HalfGame h = {0}; /* half_image sets every field half_config reads */
            int to[HALF_MAX] = {0, 1};
            if (!half_image(c, g, s, &h, to)) continue;
            uint64_t config = half_config(&h);
            if (config >= best_config) continue;
            best = h, best_s = s, best_config = config;
            best_to[0] = to[0], best_to[1] = to[1];
        }
        *k = (HalfCanon){.raw = raw + 1, .s = (int8_t)best_s, .to = {(int8_t)best_to[0], (int8_t)best_to[1]},
                         .star = {best.star[0], best.star[1]}, .s0 = {best.s0[0], best.s0[1]}, .allowed = best.allowed};
    }
    if (k->s == 0) return;
    int to[HALF_MAX] = {k->to[0], k->to[1]};
    half_map_cells(c, g, k->s & 7, k->s >= 8, to, x, o);
    g->allowed = k->allowed; /* the configuration only: g's lines, memo and limits stay */
    for (int j = 0; j < g->nhalf; j++) g->star[j] = k->star[j], g->s0[j] = k->s0[j];
}

static uint64_t half_table_bytes(int cells) /* cells: the extended game's, m*m + nhalf */
{
    uint64_t p = 1;
    for (int i = 0; i < cells; i++) p *= 3;
    return p * 2 / 4 + 1;
}

uint64_t centre_half_bytes_for(int mb)
{
    return (uint64_t)(mb > 0 ? mb : CENTRE_HALF_MB) * 1024 * 1024;
}

/* Where each kept table is, by its configuration: open addressing over
 * half_tables' slots (slot + 1; 0: empty), rebuilt whenever a table is
 * made or freed (seconds apart at the least: each is a fill or a search).
 * Why: half_kept runs at every ask, and a scan of every slot was a sixth
 * of the search's time with whole tables. At most half full: HALF_INDEX
 * is twice the slots. */
enum { HALF_INDEX = 2 * CENTRE_HALF_TABLES_MAX };
static uint16_t half_index[HALF_INDEX];

static uint32_t half_slot_hash(uint64_t config)
{
    return (uint32_t)((config * 0x9E3779B97F4A7C15ull) >> 40) & (HALF_INDEX - 1);
}

static void half_index_rebuild(void)
{
    memset(half_index, 0, sizeof half_index);
    for (int t = 0; t < CENTRE_HALF_TABLES_MAX; t++) {
        if (!half_tables[t].memo) continue;
        uint32_t h = half_slot_hash(half_tables[t].config);
        while (half_index[h]) h = (h + 1) & (HALF_INDEX - 1);
        half_index[h] = (uint16_t)(t + 1);
    }
}

/* The kept table of g's configuration, its memo into g->memo and its use
 * noted (the lock held); NULL when none is kept. */
static HalfTable *half_kept(HalfGame *g)
{
    uint64_t config = half_config(g);
    for (uint32_t h = half_slot_hash(config);; h = (h + 1) & (HALF_INDEX - 1)) {
        int t = half_index[h] - 1;
        if (t < 0) return NULL;
        HalfTable *e = &half_tables[t];
        if (e->config == config) {
            e->used = ++half_clock;
            g->memo = e->memo;
            return e;
        }
    }
}

/* The table of g's configuration, its memo into g->memo (the lock held):
 * kept, or new (all unknown) after the least recently used tables are
 * freed until it fits in `budget` bytes (a table larger than the budget
 * alone: then it is the only one) and a slot is free. NULL when out of
 * memory. */
static HalfTable *half_table(HalfGame *g, uint64_t budget)
{
    uint64_t config = half_config(g), need = half_table_bytes(g->cells);
    HalfTable *kept = half_kept(g);
    if (kept) return kept;
    for (;;) {
        uint64_t held = 0;
        HalfTable *lru = NULL, *free_slot = NULL;
        for (int t = 0; t < CENTRE_HALF_TABLES_MAX; t++) {
            HalfTable *e = &half_tables[t];
            if (!e->memo) {
                if (!free_slot) free_slot = e;
                continue;
            }
            held += e->bytes;
            if (!lru || e->used < lru->used) lru = e;
        }
        if (free_slot && (held + need <= budget || !lru)) {
            free_slot->memo = calloc(need, 1);
            free_slot->bytes = need;
            free_slot->config = config;
            free_slot->used = ++half_clock;
            free_slot->complete = false;
            half_index_rebuild();
            g->memo = free_slot->memo;
            return g->memo ? free_slot : NULL;
        }
        free(lru->memo);
        lru->memo = NULL;
        half_index_rebuild();
    }
}

/* The lemma's conditions at b (centre_half.h): the one or two half pairs
 * (in line order) and the other lines' allowed sets into g. */
static bool half_conditions(const Centre *c, Board b, HalfGame *g)
{
    uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O];
    g->nhalf = 0;
    g->allowed = 0;
    for (int p = 0; p < c->npairs; p++) {
        uint64_t pm = c->pair_mask[p];
        int nx = __builtin_popcountll(x & pm), no = __builtin_popcountll(o & pm);
        bool dead = (x & c->line_mask[p]) && (o & c->line_mask[p]);
        uint32_t s = 3;
        if (nx + no == 1) {
            if (g->nhalf == HALF_MAX) return false;
            g->star[g->nhalf] = p;
            g->s0[g->nhalf++] = nx ? 1 : 2;
        } else if (!dead && nx == 2) {
            s = c->exact ? 0 : 1;
        } else if (!dead && no == 2) {
            s = c->exact ? 0 : 2;
        }
        g->allowed |= s << 2 * p;
    }
    g->cells = c->m * c->m + g->nhalf;
    return g->nhalf > 0;
}

bool centre_half_win(const Centre *c, Board b, const atomic_bool *stop, double deadline)
{
    HalfGame g = {.m = c->m, .npairs = c->npairs, .exact = c->exact, .stop = stop, .deadline = deadline};
    int pieces = board_count(b);
    /* In reach: a table may be made for b (centre_half.h, Cost). Beyond
     * it, only a full table already kept answers (half_fill). */
    bool reach = pieces <= c->half_max_pieces;
    if (!c->on || (!reach && !c->half_fill) || !half_conditions(c, b, &g)) return false;
    if (g.nhalf == 2 && pieces > c->half_two_max_pieces) {
        if (!c->half_fill || c->half_two_max_pieces == 0) return false;
        reach = false;
    }
    /* Stopped already: no work at all (and the first node reads them again
     * after the lock, below). Each call counts its own ticks, so without
     * this a search past its deadline paid 65 536 table nodes
     * (about 0.2 s) at every node until its next clock read, 1 024 nodes
     * later (limits.h): minutes. */
    if ((stop && atomic_load_explicit(stop, memory_order_relaxed)) || (deadline > 0 && clock_seconds() >= deadline))
        return false;
    for (int p = 0; p < c->npairs; p++) g.line[p] = c->small_line[p];
    g.pow3[0] = 1;
    for (int i = 1; i <= g.cells; i++) g.pow3[i] = 3 * g.pow3[i - 1];
    uint32_t x = 0, o = 0, idx = 0; /* the v cells are empty */
    for (uint64_t e = c->centre & (b.s[PIECE_X] | b.s[PIECE_O]); e; e &= e - 1) {
        int cell = __builtin_ctzll(e), i = (cell_row(cell) - 1) * c->m + cell_col(cell) - 1;
        *(b.s[PIECE_X] >> cell & 1 ? &x : &o) |= 1u << i;
    }
    if (!c->half_plain) half_canonical(c, &g, &x, &o);
    for (int i = 0; i < g.cells; i++) idx += (x >> i & 1 ? 1 : o >> i & 1 ? 2 : 0) * g.pow3[i];
    call_once(&half_once, half_lock_init);
    if (!half_lock_ok) return false;
    mtx_lock(&half_lock);
    /* The first node reads the stop and the clock (ticks wrap to 0 there):
     * the flag may have been set, or the deadline passed, while this call
     * waited for another's fill. */
    g.ticks = 0xFFFF;
    uint64_t budget = c->half_bytes ? c->half_bytes : centre_half_bytes_for(0);
    HalfTable *t = c->half_fill ? half_kept(&g) : NULL;
    if (t && !t->complete && !reach) t = NULL; /* beyond reach: whole tables only */
    if (!t && reach) t = half_table(&g, budget);
    if (t && c->half_fill && !t->complete) t->complete = half_fill(&g);
    bool order = board_order_to_move(b), win = false;
    if (t && t->complete) win = half_memo_at(g.memo, (uint64_t)idx * 2 + order) == 1;
    else if (t && !g.stopped && !c->half_fill) win = half_solve(&g, x, o, idx, order);
    mtx_unlock(&half_lock);
    return win && !g.stopped;
}
