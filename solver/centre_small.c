/* centre_small.c - see centre_small.h. The small-game table is the only
 * state: one bit per position (Order wins), computed once per centre size
 * by a backward pass over the base-3 indices. A child's index is its
 * parent's plus 3^cell or 2 * 3^cell, so it is always larger: walking the
 * indices from the last to the first, every child is known before its
 * parent. Restricted games get tables of their own the same way, or a
 * depth-first search for centres with many pieces. */
#include "centre_small.h"
#include "clock.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <pthread.h>
#include <threads.h>

enum { SMALL_MIN = CENTRE_SMALL_MIN, SMALL_MAX = CENTRE_SMALL_MAX, SMALL_CELLS_MAX = SMALL_MAX * SMALL_MAX };

/* NULL: not computed (yet, or for want of memory). Written once, under
 * small_lock, with release order and read with acquire order: the
 * table's contents are visible to every thread that sees the pointer.
 * A build may be given up when a search is asked to stop or passes its
 * deadline (the 4 x 4 table takes 0.5 s, over 5 s under
 * AddressSanitizer); then the next question goes on with it where it
 * stopped (SmallPartial). Out of memory, small_failed keeps later
 * questions from trying again: the lemma then claims nothing, which is
 * sound. */
static _Atomic(uint64_t *) small_table[SMALL_MAX + 1];
static atomic_bool small_failed[SMALL_MAX + 1];
static mtx_t small_lock;
static once_flag small_lock_once = ONCE_FLAG_INIT;
static void small_lock_init(void) { mtx_init(&small_lock, mtx_plain); }

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

/* The value of one position from its children's (all known). allowed:
 * the symbols whose m in a line win it (centre.h, settled pairs), two
 * bits per line (bit 2l: X, bit 2l+1: O). */
static bool small_value(const uint64_t *t, uint32_t idx, uint32_t x, uint32_t o, uint32_t full, const uint32_t *lines,
                        int nl, const uint32_t *pow3, uint32_t allowed)
{
    for (int l = 0; l < nl; l++)
        if (((x & lines[l]) == lines[l] && (allowed >> 2 * l & 1)) ||
            ((o & lines[l]) == lines[l] && (allowed >> (2 * l + 1) & 1)))
            return true;
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

/* A build given up part way (small_compute): its table so far and the
 * rows still to do, next_hi - 1 down to 0; t NULL: none. Why keep it: a
 * search whose think or time limit is shorter than a build would start it
 * again at every question and never finish it (play --think 0.2 would
 * never use a settled-pair table). Sound to go on with: the backward pass
 * fills the rows from the last index down, each row in full before the
 * next stop test, and a row reads only larger indices, so the rows done
 * hold their final values and going on computes exactly what one pass
 * would. Never read as a table: only small_compute takes it, under the
 * lock of the slot (full_partial: small_lock; restricted_partial:
 * restricted_lock), and publishes the table only when every row is done.
 * One slot for each lock: a build of another restriction drops the one
 * kept (5.4 MiB for m = 4). */
typedef struct {
    int m;
    uint32_t allowed;
    uint64_t *t;
    uint32_t next_hi;
} SmallPartial;
static SmallPartial full_partial, restricted_partial;

/* Must a table's build give up: *stop set, or the clock past deadline
 * (clock.h; 0: none)? */
static bool give_up(const atomic_bool *stop, double deadline)
{
    return (stop && atomic_load_explicit(stop, memory_order_relaxed)) || (deadline > 0 && clock_seconds() > deadline);
}

/* The table of the small game with restriction allowed; NULL when out of
 * memory, or when *stop was set or the deadline passed meanwhile (a
 * restricted table is built inside a search, which must stay quick to
 * stop and keep its time limit: both are read once per 3^(m*m/2)
 * positions, 6 561 times in a 0.6 s build for m = 4). A build given up
 * is kept in *part and gone on with by the next call for the same table
 * (SmallPartial); the caller holds part's lock. */
static uint64_t *small_compute(int m, uint32_t allowed, const atomic_bool *stop, double deadline, SmallPartial *part)
{
    /* Stopped already: not even the memory (a search that is stopping
     * still asks, at every child, until it has unwound; measured under
     * AddressSanitizer, allocating the 5 MB each time took 10 s). */
    if (give_up(stop, deadline)) return NULL;
    int cells = m * m, lowd = cells / 2, highd = cells - lowd;
    uint32_t pow3[SMALL_CELLS_MAX + 1], lines[2 * SMALL_MAX + 2];
    pow3[0] = 1;
    for (int i = 1; i <= cells; i++) pow3[i] = 3 * pow3[i - 1];
    int nl = small_lines(m, lines);
    uint32_t nlo = pow3[lowd], nhi = pow3[highd], full = (1u << cells) - 1, start = nhi;
    uint64_t *t;
    if (part->t && part->m == m && part->allowed == allowed) {
        t = part->t, start = part->next_hi; /* go on where the last build stopped */
    } else {
        free(part->t); /* another table's: dropped */
        t = calloc((pow3[cells] + 63) / 64, sizeof *t);
    }
    part->t = NULL;
    uint32_t *xlo = malloc(4 * sizeof(uint32_t) * (nlo + nhi)), *olo = xlo + nlo, *xhi = olo + nlo, *ohi = xhi + nhi;
    if (!t || !xlo) {
        free(t);
        free(xlo);
        return NULL;
    }
    digit_masks(lowd, 0, xlo, olo);
    digit_masks(highd, lowd, xhi, ohi);
    for (uint32_t hi = start; hi-- > 0;) {
        if (give_up(stop, deadline)) { /* row hi not begun: kept to go on with */
            *part = (SmallPartial){.m = m, .allowed = allowed, .t = t, .next_hi = hi + 1};
            free(xlo);
            return NULL;
        }
        for (uint32_t lo = nlo; lo-- > 0;) {
            uint32_t idx = hi * nlo + lo;
            if (small_value(t, idx, xlo[lo] | xhi[hi], olo[lo] | ohi[hi], full, lines, nl, pow3, allowed))
                t[idx >> 6] |= 1ULL << (idx & 63);
        }
    }
    free(xlo);
    return t;
}

/* The unrestricted table of size m, built on first use unless *stop is
 * set or the deadline passes meanwhile; NULL then (the next call goes on
 * with the build), or for want of memory (for good). */
static const uint64_t *small_full(int m, const atomic_bool *stop, double deadline)
{
    const uint64_t *t = atomic_load_explicit(&small_table[m], memory_order_acquire);
    if (t || atomic_load_explicit(&small_failed[m], memory_order_relaxed)) return t;
    call_once(&small_lock_once, small_lock_init);
    mtx_lock(&small_lock);
    t = atomic_load_explicit(&small_table[m], memory_order_acquire);
    if (!t && !atomic_load_explicit(&small_failed[m], memory_order_relaxed)) {
        uint64_t *nt = small_compute(m, CENTRE_ALL_ALLOWED, stop, deadline, &full_partial);
        if (nt) atomic_store_explicit(&small_table[m], nt, memory_order_release);
        else if (!give_up(stop, deadline)) /* out of memory: for good */
            atomic_store_explicit(&small_failed[m], true, memory_order_relaxed);
        t = nt;
    }
    mtx_unlock(&small_lock);
    return t;
}

static bool small_win(int m, uint32_t idx, const atomic_bool *stop, double deadline)
{
    if (m < SMALL_MIN || m > SMALL_MAX) return false;
    const uint64_t *t = small_full(m, stop, deadline);
    return t && bit(t, idx);
}

bool centre_small_win(int m, uint32_t idx) { return small_win(m, idx, NULL, 0); }

/* Restricted small games (settled pairs, centre.h): a table per
 * restriction, made by the same backward pass as the unrestricted one
 * (0.6 s for m = 4) on first use. Restrictions that are images of each
 * other under the square's 8 symmetries and the X/O swap are one game up
 * to that image (the lines permute with the cells; swapping the symbols
 * swaps each line's allowed bits), so a question is first mapped to the
 * least image of its restriction, and only those get tables: a single
 * same pair gives 3 restrictions up to symmetry, not 20. At most
 * RESTRICTED_MAX tables are kept (5.4 MiB each for m = 4); past that the
 * lemma claims nothing for a new restriction (sound: it only ever adds
 * Order wins). Tables are published by the count's release and read
 * without the lock. */
enum { RESTRICTED_MAX = 48, NSYM = 8 };
static struct {
    int m;
    uint32_t allowed;
    uint64_t *table;
} restricted[RESTRICTED_MAX];
static atomic_int nrestricted;
static mtx_t restricted_lock;
static once_flag restricted_once = ONCE_FLAG_INIT;
static void restricted_init(void) { mtx_init(&restricted_lock, mtx_plain); }

/* The 8 symmetries of the m x m square as cell maps (cell i*m+j to its
 * image), and the line each line goes to. Computed, never typed in. */
typedef struct {
    int m, nl;
    uint32_t lines[2 * SMALL_MAX + 2];
    uint8_t cell[NSYM][SMALL_CELLS_MAX];
    uint8_t line[NSYM][2 * SMALL_MAX + 2];
} SmallSym;

static uint32_t map_mask(const uint8_t *cell, int cells, uint32_t mask)
{
    uint32_t out = 0;
    for (int c = 0; c < cells; c++)
        if (mask >> c & 1) out |= 1u << cell[c];
    return out;
}

static void small_sym_init(SmallSym *y, int m)
{
    y->m = m;
    y->nl = small_lines(m, y->lines);
    for (int g = 0; g < NSYM; g++) {
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) {
                int a = i, b = j; /* g: bit 0 mirror columns, bit 1 mirror rows, bit 2 transpose */
                if (g & 1) b = m - 1 - b;
                if (g & 2) a = m - 1 - a;
                if (g & 4) {
                    int t = a;
                    a = b;
                    b = t;
                }
                y->cell[g][i * m + j] = (uint8_t)(a * m + b);
            }
        for (int l = 0; l < y->nl; l++) {
            uint32_t img = map_mask(y->cell[g], m * m, y->lines[l]);
            for (int l2 = 0; l2 < y->nl; l2++)
                if (y->lines[l2] == img) y->line[g][l] = (uint8_t)l2;
        }
    }
}

/* Built under pthread_once, not C11 call_once: glibc runs call_once
 * through an internal pthread_once that ThreadSanitizer does not see, so
 * threads reading a map another thread built were reported as a race
 * (engine/symmetry.c says the same); the ring lemma (centre_ring.h) asks
 * these maps from every search thread. */
static SmallSym small_syms[SMALL_MAX + 1];
static pthread_once_t small_sym_once[SMALL_MAX + 1] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                                       PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
static void sym_init2(void) { small_sym_init(&small_syms[2], 2); }
static void sym_init3(void) { small_sym_init(&small_syms[3], 3); }
static void sym_init4(void) { small_sym_init(&small_syms[4], 4); }

static const SmallSym *small_sym(int m)
{
    static void (*const init[SMALL_MAX + 1])(void) = {NULL, NULL, sym_init2, sym_init3, sym_init4};
    pthread_once(&small_sym_once[m], init[m]); /* no argument: one function per size */
    return &small_syms[m];
}

/* allowed's image under symmetry g, with the symbols swapped when swap. */
static uint32_t map_allowed(const SmallSym *y, int g, bool swap, uint32_t allowed)
{
    uint32_t out = 0;
    for (int l = 0; l < y->nl; l++) {
        uint32_t a = allowed >> 2 * l & 3;
        if (swap) a = (a >> 1) | (a & 1) << 1;
        out |= a << 2 * y->line[g][l];
    }
    return out;
}

/* build false: only a table already made (NULL if none). */
static uint64_t *restricted_table(int m, uint32_t allowed, const atomic_bool *stop, double deadline, bool build)
{
    int n = atomic_load_explicit(&nrestricted, memory_order_acquire);
    for (int i = 0; i < n; i++)
        if (restricted[i].m == m && restricted[i].allowed == allowed) return restricted[i].table;
    if (!build) return NULL;
    call_once(&restricted_once, restricted_init);
    mtx_lock(&restricted_lock);
    uint64_t *t = NULL;
    n = atomic_load_explicit(&nrestricted, memory_order_relaxed);
    for (int i = 0; i < n && !t; i++) /* made meanwhile by another thread */
        if (restricted[i].m == m && restricted[i].allowed == allowed) t = restricted[i].table;
    if (!t && n < RESTRICTED_MAX && (t = small_compute(m, allowed, stop, deadline, &restricted_partial)) != NULL) {
        restricted[n].m = m;
        restricted[n].allowed = allowed;
        restricted[n].table = t;
        atomic_store_explicit(&nrestricted, n + 1, memory_order_release);
    }
    mtx_unlock(&restricted_lock);
    return t;
}

/* Positions with at least DFS_PIECES pieces in the centre (at most 12
 * empty cells for m = 4: at most 3^12 positions below one) are solved by
 * a depth-first search instead of a table: deep in a search most
 * positions are such, and they meet many restrictions (the quick bench
 * met over 48 in 72 K nodes, at 0.6 s a table). The search cuts where
 * the unrestricted table says Chaos (a restriction only takes wins from
 * Order), and keeps its values in one hash table for all restrictions,
 * keyed by (restriction, position), of at most DFS_MEMO entries (past
 * that it searches without keeping: still right, only slower). One lock
 * for all, as with the tables. */
enum { DFS_PIECES = 8, DFS_MEMO = 1 << 22 };
static struct {
    uint64_t *key; /* (allowed << 32 | idx) + 1, 0 empty */
    uint8_t *win;
    uint32_t cap, used;
} dfs_memo;

static uint64_t dfs_hash(uint64_t k) { return (k * 0x9E3779B97F4A7C15ULL) >> 20; }

static int dfs_get(uint64_t k)
{
    if (!dfs_memo.cap) return 0;
    for (uint64_t h = dfs_hash(k) & (dfs_memo.cap - 1);; h = (h + 1) & (dfs_memo.cap - 1)) {
        if (dfs_memo.key[h] == k + 1) return dfs_memo.win[h] ? 1 : 2;
        if (!dfs_memo.key[h]) return 0;
    }
}

static void dfs_put(uint64_t k, bool win)
{
    if (2 * (dfs_memo.used + 1) > dfs_memo.cap) {
        uint32_t cap = dfs_memo.cap ? 2 * dfs_memo.cap : 1 << 12;
        if (cap > 2 * DFS_MEMO) return;
        uint64_t *key = calloc(cap, sizeof *key);
        uint8_t *val = malloc(cap);
        if (!key || !val) {
            free(key);
            free(val);
            return;
        }
        for (uint32_t i = 0; i < dfs_memo.cap; i++) {
            if (!dfs_memo.key[i]) continue;
            uint64_t h = dfs_hash(dfs_memo.key[i] - 1) & (cap - 1);
            while (key[h]) h = (h + 1) & (cap - 1);
            key[h] = dfs_memo.key[i];
            val[h] = dfs_memo.win[i];
        }
        free(dfs_memo.key);
        free(dfs_memo.win);
        dfs_memo.key = key;
        dfs_memo.win = val;
        dfs_memo.cap = cap;
    }
    uint64_t h = dfs_hash(k) & (dfs_memo.cap - 1);
    while (dfs_memo.key[h]) h = (h + 1) & (dfs_memo.cap - 1);
    dfs_memo.key[h] = k + 1;
    dfs_memo.win[h] = win;
    dfs_memo.used++;
}

typedef struct {
    const uint64_t *full_table; /* the unrestricted game's */
    uint32_t lines[2 * SMALL_MAX + 2], pow3[SMALL_CELLS_MAX + 1], full, allowed;
    int nl;
} Dfs;

/* Order wins the restricted game at idx (masks x, o)? */
static bool dfs_solve(const Dfs *s, uint32_t idx, uint32_t x, uint32_t o)
{
    for (int l = 0; l < s->nl; l++)
        if (((x & s->lines[l]) == s->lines[l] && (s->allowed >> 2 * l & 1)) ||
            ((o & s->lines[l]) == s->lines[l] && (s->allowed >> (2 * l + 1) & 1)))
            return true;
    uint32_t occ = x | o;
    if (occ == s->full || !bit(s->full_table, idx)) return false; /* full, or lost even unrestricted */
    uint64_t key = (uint64_t)s->allowed << 32 | idx;
    int known = dfs_get(key);
    if (known) return known == 1;
    bool order = (__builtin_popcount(occ) & 1) == 0, win = !order;
    for (uint32_t e = s->full & ~occ; e && win != order; e &= e - 1) {
        int c = __builtin_ctz(e);
        if (dfs_solve(s, idx + s->pow3[c], x | 1u << c, o) == order ||
            dfs_solve(s, idx + 2 * s->pow3[c], x, o | 1u << c) == order)
            win = order;
    }
    dfs_put(key, win);
    return win;
}

static bool dfs_win(int m, uint32_t allowed, uint32_t idx, uint32_t x, uint32_t o)
{
    Dfs s = {.full_table = atomic_load_explicit(&small_table[m], memory_order_acquire), .allowed = allowed};
    int cells = m * m;
    s.nl = small_lines(m, s.lines);
    s.full = (1u << cells) - 1;
    s.pow3[0] = 1;
    for (int i = 1; i <= cells; i++) s.pow3[i] = 3 * s.pow3[i - 1];
    call_once(&restricted_once, restricted_init);
    mtx_lock(&restricted_lock);
    bool win = dfs_solve(&s, idx, x, o);
    mtx_unlock(&restricted_lock);
    return win;
}

bool centre_small_win_allowed(int m, uint32_t allowed, uint32_t idx)
{
    return centre_small_win_stoppable(m, allowed, idx, NULL, 0);
}

/* The restricted small game's value: 1 Order wins, 0 Chaos wins, -1 not
 * known (a table given up by stop or deadline, or past RESTRICTED_MAX). */
static int small_value_allowed(int m, uint32_t allowed, uint32_t idx, const atomic_bool *stop, double deadline,
                               bool build)
{
    if (m < SMALL_MIN || m > SMALL_MAX) return -1;
    uint32_t all = (1u << (2 * (2 * m + 2))) - 1;
    allowed &= all;
    const uint64_t *full = small_full(m, stop, deadline);
    if (!full) return -1;
    /* a restriction only takes wins from Order (the same strategy of
     * Chaos's avoids every monochrome line): a Chaos win stays one */
    if (!bit(full, idx)) return 0;
    if (allowed == all) return 1;
    const SmallSym *y = small_sym(m);
    int bg = 0;
    bool bswap = false;
    uint32_t best = allowed;
    for (int g = 0; g < NSYM; g++)
        for (int sw = 0; sw < 2; sw++) {
            uint32_t a = map_allowed(y, g, sw, allowed);
            if (a < best) best = a, bg = g, bswap = sw;
        }
    uint32_t x = 0, o = 0, t = idx, cells = (uint32_t)(m * m);
    for (uint32_t c = 0; c < cells; c++, t /= 3) {
        if (t % 3 == 1) x |= 1u << c;
        if (t % 3 == 2) o |= 1u << c;
    }
    uint32_t gx = map_mask(y->cell[bg], (int)cells, bswap ? o : x), go = map_mask(y->cell[bg], (int)cells, bswap ? x : o);
    uint32_t gidx = 0, p = 1;
    for (uint32_t c = 0; c < cells; c++, p *= 3) gidx += p * ((gx >> c & 1) + 2 * (go >> c & 1));
    if (__builtin_popcount(x | o) >= DFS_PIECES) return build ? dfs_win(m, best, gidx, gx, go) : -1;
    const uint64_t *tab = restricted_table(m, best, stop, deadline, build);
    return tab ? (int)bit(tab, gidx) : -1;
}

bool centre_small_win_stoppable(int m, uint32_t allowed, uint32_t idx, const atomic_bool *stop, double deadline)
{
    return small_value_allowed(m, allowed, idx, stop, deadline, true) == 1;
}

bool centre_small_chaos_stoppable(int m, uint32_t allowed, uint32_t idx, const atomic_bool *stop, double deadline,
                                  bool build)
{
    return small_value_allowed(m, allowed, idx, stop, deadline, build) == 0;
}
