/* centre_half.c - see centre_half.h: the extended game by a memoised
 * depth-first search, one table per configuration. */
#include "centre_half.h"
#include "clock.h"

#include <stdlib.h>
#include <threads.h>

enum { HALF_CELLS_MAX = 17 };

typedef struct {
    uint64_t config;
    uint64_t used;
    uint8_t *memo; /* 2 bits for each (index, side): 0 unknown, 1 Order wins, 2 not; NULL: free */
} HalfTable;

static HalfTable half_tables[CENTRE_HALF_TABLES_MAX];
static uint64_t half_clock;
static mtx_t half_lock;
static once_flag half_once = ONCE_FLAG_INIT;
static bool half_lock_ok; /* mtx_init succeeded; else the lemma claims nothing */
static void half_lock_init(void) { half_lock_ok = mtx_init(&half_lock, mtx_plain) == thrd_success; }

typedef struct {
    int m, cells, star, npairs; /* centre cells m*m, v is cell m*m; star: the half pair */
    uint32_t line[CENTRE_MAX_PAIRS]; /* each pair's small line, over centre cells i*m + j */
    uint32_t allowed;                /* bits 2p (X) and 2p+1 (O): who wins on pair p's line */
    int s0;                          /* digit (1 X, 2 O) on the half pair's full cell */
    bool exact;
    uint32_t pow3[HALF_CELLS_MAX + 1];
    uint8_t *memo;
    const atomic_bool *stop;
    double deadline; /* monotonic seconds (clock.h); 0: none */
    uint32_t ticks;
    bool stopped;
} HalfGame;

static int half_memo_at(const uint8_t *memo, uint64_t i) { return memo[i >> 2] >> (2 * (i & 3)) & 3; }

/* Does a line count for Order at (x, o, vd: v's digit)? */
static bool half_counts(const HalfGame *g, uint32_t x, uint32_t o, int vd)
{
    for (int p = 0; p < g->npairs; p++) {
        uint32_t lm = g->line[p];
        int a = (x & lm) == lm ? 1 : (o & lm) == lm ? 2 : 0;
        if (!a) continue;
        if (p != g->star) {
            if (g->allowed >> (2 * p + a - 1) & 1) return true;
        } else if (a == g->s0 ? !g->exact || vd != g->s0 : vd == a) {
            return true;
        }
    }
    return false;
}

/* Order wins the extended game at (x, o, vd; idx its base-3 number) with
 * order to move? False also once stopped (then nothing more is kept). */
static bool half_solve(HalfGame *g, uint32_t x, uint32_t o, int vd, uint32_t idx, bool order)
{
    uint64_t i = (uint64_t)idx * 2 + order;
    int known = half_memo_at(g->memo, i);
    if (known) return known == 1;
    if ((++g->ticks & 0xFFFF) == 0 && ((g->stop && atomic_load_explicit(g->stop, memory_order_relaxed)) ||
                                        (g->deadline > 0 && clock_seconds() >= g->deadline)))
        g->stopped = true;
    if (g->stopped) return false;
    uint32_t occ = x | o, full = (1u << (g->m * g->m)) - 1;
    bool win = half_counts(g, x, o, vd);
    if (!win && !(occ == full && vd)) {
        win = !order;
        for (int c = 0; c < g->cells && win != order; c++) {
            bool on_v = c == g->cells - 1;
            if (on_v ? vd != 0 : (occ >> c & 1)) continue;
            for (int d = 1; d <= 2 && win != order; d++) {
                uint32_t bit = on_v ? 0 : 1u << c;
                bool w = half_solve(g, d == 1 ? x | bit : x, d == 2 ? o | bit : o, on_v ? d : vd, idx + (uint32_t)d * g->pow3[c],
                                    !order);
                if (g->stopped) return false;
                if (w == order) win = order;
            }
        }
    }
    g->memo[i >> 2] |= (uint8_t)((win ? 1 : 2) << (2 * (i & 3)));
    return win;
}

static uint32_t half_sym_bits(const Centre *c, int s, uint32_t bits)
{
    uint32_t out = 0;
    for (; bits; bits &= bits - 1) out |= 1u << c->sym_cell[s][__builtin_ctz(bits)];
    return out;
}

static uint64_t half_config(const HalfGame *g)
{
    return (uint64_t)g->m | (uint64_t)g->star << 4 | (uint64_t)g->s0 << 9 | (uint64_t)g->exact << 11 |
           (uint64_t)g->allowed << 16;
}

/* Puts g and its centre (x, o) in the canonical form of their class under
 * the 16 symmetries of the extended game: the 8 of the square, each with
 * or without the swap of X and O; the least config (half_config) wins.
 * Why: a table costs seconds to fill and tens of MB, and positions of one
 * class (a reflected ring opening, the other symbol) would fill one each.
 * Sound: a symmetry s of the square maps the small lines onto the small
 * lines (rows, columns and diagonals of the m x m centre), line p onto
 * line q = sym_pair[s][p] (Centre); the extended game with the half pair on line p, its
 * lines' allowed sets and centre P is the one with the half pair on q,
 * the sets carried over and centre s(P), move for move (half_counts reads
 * only which line is full of which symbol, the sets, S0 and v's digit).
 * Swapping X and O everywhere (the centre, v, S0 and each line's pair of
 * allowed bits) maps a line's count to the other symbol's, exact's "v not
 * S0" included. The side to move is unchanged. So the two positions have
 * one value, and the table of the canonical one answers both.
 * tests/test_centre_half.c checks it against the search without it. */
static void half_canonical(const Centre *c, HalfGame *g, uint32_t *x, uint32_t *o)
{
    int best = 0, best_star = g->star, best_s0 = g->s0;
    uint32_t best_allowed = g->allowed;
    uint64_t best_config = half_config(g);
    for (int s = 1; s < 8 * 2; s++) {
        const int8_t *perm = c->sym_pair[s & 7];
        bool swap = s >= 8, ok = true;
        for (int p = 0; p < g->npairs && ok; p++) ok = perm[p] >= 0;
        if (!ok) continue; /* not a symmetry of these lines: never for a full centre */
        HalfGame h = {.m = g->m, .exact = g->exact, .star = perm[g->star], .s0 = swap ? 3 - g->s0 : g->s0};
        for (int p = 0; p < g->npairs; p++) {
            uint32_t a = g->allowed >> 2 * p & 3;
            if (swap) a = (a & 1) << 1 | a >> 1;
            h.allowed |= a << 2 * perm[p];
        }
        uint64_t config = half_config(&h);
        if (config >= best_config) continue;
        best = s, best_config = config, best_star = h.star, best_s0 = h.s0, best_allowed = h.allowed;
    }
    if (best == 0) return;
    uint32_t bx = half_sym_bits(c, best & 7, best >= 8 ? *o : *x), bo = half_sym_bits(c, best & 7, best >= 8 ? *x : *o);
    g->star = best_star, g->s0 = best_s0, g->allowed = best_allowed;
    *x = bx;
    *o = bo;
}

static uint64_t half_table_bytes(int cells) /* cells: the extended game's, m*m + 1 */
{
    uint64_t p = 1;
    for (int i = 0; i < cells; i++) p *= 3;
    return p * 2 / 4 + 1;
}

int centre_half_tables_for(int n, int mb)
{
    if (mb <= 0) return CENTRE_HALF_TABLES;
    uint64_t t = (uint64_t)mb * 1024 * 1024 / half_table_bytes((n - 2) * (n - 2) + 1);
    return t < 1 ? 1 : t > CENTRE_HALF_TABLES_MAX ? CENTRE_HALF_TABLES_MAX : (int)t;
}

/* g->memo for g's configuration (the lock held): kept among the first
 * `count` slots, or new in place of the least recently used of them.
 * False when out of memory. */
static bool half_table(HalfGame *g, int count)
{
    uint64_t config = half_config(g);
    HalfTable *slot = &half_tables[0];
    for (int t = 0; t < count; t++) {
        HalfTable *e = &half_tables[t];
        if (e->memo && e->config == config) {
            e->used = ++half_clock;
            g->memo = e->memo;
            return true;
        }
        if (slot->memo && (!e->memo || e->used < slot->used)) slot = e;
    }
    free(slot->memo);
    slot->memo = calloc(half_table_bytes(g->cells), 1);
    slot->config = config;
    slot->used = ++half_clock;
    g->memo = slot->memo;
    return slot->memo != NULL;
}

/* The lemma's conditions at b (centre_half.h): the half pair and the
 * other lines' allowed sets into g. */
static bool half_conditions(const Centre *c, Board b, HalfGame *g)
{
    uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O];
    g->star = -1;
    g->allowed = 0;
    for (int p = 0; p < c->npairs; p++) {
        uint64_t pm = c->pair_mask[p];
        int nx = __builtin_popcountll(x & pm), no = __builtin_popcountll(o & pm);
        bool dead = (x & c->line_mask[p]) && (o & c->line_mask[p]);
        uint32_t s = 3;
        if (nx + no == 1) {
            if (g->star >= 0) return false;
            g->star = p;
            g->s0 = nx ? 1 : 2;
        } else if (!dead && nx == 2) {
            s = c->exact ? 0 : 1;
        } else if (!dead && no == 2) {
            s = c->exact ? 0 : 2;
        }
        g->allowed |= s << 2 * p;
    }
    return g->star >= 0;
}

bool centre_half_win(const Centre *c, Board b, const atomic_bool *stop, double deadline)
{
    HalfGame g = {
        .m = c->m, .cells = c->m * c->m + 1, .npairs = c->npairs, .exact = c->exact, .stop = stop, .deadline = deadline};
    if (!c->on || board_count(b) > c->half_max_pieces || !half_conditions(c, b, &g)) return false;
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
    uint32_t x = 0, o = 0, idx = 0;
    for (uint64_t e = c->centre & (b.s[PIECE_X] | b.s[PIECE_O]); e; e &= e - 1) {
        int cell = __builtin_ctzll(e), i = (cell_row(cell) - 1) * c->m + cell_col(cell) - 1;
        *(b.s[PIECE_X] >> cell & 1 ? &x : &o) |= 1u << i;
    }
    if (!c->half_plain) half_canonical(c, &g, &x, &o);
    for (int i = 0; i < g.cells - 1; i++) idx += (x >> i & 1 ? 1 : o >> i & 1 ? 2 : 0) * g.pow3[i];
    call_once(&half_once, half_lock_init);
    if (!half_lock_ok) return false;
    mtx_lock(&half_lock);
    /* The first node reads the stop and the clock (ticks wrap to 0 there):
     * the flag may have been set, or the deadline passed, while this call
     * waited for another's fill. */
    g.ticks = 0xFFFF;
    int count = c->half_tables <= 0 ? CENTRE_HALF_TABLES : c->half_tables;
    if (count > CENTRE_HALF_TABLES_MAX) count = CENTRE_HALF_TABLES_MAX;
    bool win = half_table(&g, count) && half_solve(&g, x, o, 0, idx, board_order_to_move(b));
    mtx_unlock(&half_lock);
    return win && !g.stopped;
}
