/* verify_centre_ext.c - see verify_centre_ext.h. A plain memoised minimax
 * over every move of either symbol on every empty cell of the extended
 * game, the v cells included (none: the restricted small game); its tables
 * kept under a bound in bytes, least recently used first out. The small
 * lines are computed here from their definition (rows, columns, diagonal,
 * anti-diagonal), nothing typed in. Invariant: a table's 2-bit entries are
 * EXT_UNKNOWN or a finished value of its configuration's game. */
#include "verify_centre_ext.h"

#include <stdlib.h>
#include <string.h>

enum { EXT_UNKNOWN = 0, EXT_ORDER = 1, EXT_CHAOS = 2 };

/* A kept table: the values of one configuration (key), 2 bits for each
 * position, indexed by its base-3 number over the extended cells. */
typedef struct {
    uint64_t key, used; /* used: tables_clock at its last use, for eviction */
    size_t bytes;
    uint8_t *memo; /* NULL: slot free */
} ExtTable;

static ExtTable tables[VR_EXT_CACHE];
static size_t tables_bytes; /* the sum of the kept tables' bytes, at most VR_EXT_CACHE_BYTES */
static uint64_t tables_clock;

/* The search under way. */
typedef struct {
    const VrExt *e;
    int cells, small;                /* m*m + nhalf; m*m (v_j is bit small + j) */
    int nlines;                      /* 2m+2 */
    uint32_t mask[VR_SMALL_LINES];   /* each line's small cells, bit i for cell i */
    int8_t half_of[VR_SMALL_LINES];  /* j when line l is HALF pair j's, else -1 */
    uint32_t pow3[VR_EXT_MAX_CELLS]; /* base-3 weights of the extended cells */
    uint8_t *memo;
    uint64_t nodes, allow; /* positions visited (memo misses), the most allowed */
    bool over;             /* allow passed: the search gave up, nothing more is kept */
} Search;

/* The m x m small game's lines as cell masks, in the order of the allowed
 * vectors: rows, columns, the diagonal, the anti-diagonal. Returns 2m+2. */
static int line_masks(int m, uint32_t *mask)
{
    int count = 2 * m + 2;
    memset(mask, 0, sizeof(uint32_t) * (size_t)count);
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++) {
            mask[a] |= 1u << (a * m + b);     /* row a */
            mask[m + a] |= 1u << (b * m + a); /* column a */
        }
    for (int i = 0; i < m; i++) {
        mask[2 * m] |= 1u << (i * m + i);
        mask[2 * m + 1] |= 1u << (i * m + m - 1 - i);
    }
    return count;
}

uint64_t vr_ext_key(const VrExt *e)
{
    /* exact matters only through the HALF pairs: one small game's table
     * serves both rule sets. */
    uint64_t key = (uint64_t)e->m | (uint64_t)e->nhalf << 3 | (uint64_t)(e->exact && e->nhalf) << 5;
    for (int j = 0; j < e->nhalf; j++) key |= ((uint64_t)e->line[j] | (uint64_t)e->s0[j] << 4) << (6 + 6 * j);
    for (int l = 0; l < 2 * e->m + 2; l++) {
        bool half = false;
        for (int j = 0; j < e->nhalf; j++) half |= e->line[j] == l;
        /* A HALF line's entry reads as both symbols (what it is at the big
         * board: a pair of one piece and an empty cell restricts nothing),
         * whatever the caller left there, so the least key among a
         * position's images prefers the same image as before the two-pair
         * form (the one-pair searches of exact X b1 and X c1 as measured). */
        uint8_t allowed = half ? VR_ALLOW_BOTH : e->allowed[l];
        key |= (uint64_t)(allowed >> 1) << (18 + 2 * l); /* VR_ALLOW_* >> 1: 0..3 */
    }
    return key; /* 18 + 2 * 10 = 38 bits at most */
}

/* The table for key, of `bytes`: kept, or a new one (zeroed: all unknown)
 * after evicting the least recently used tables until it fits in a free
 * slot within VR_EXT_CACHE_BYTES. NULL when out of memory. */
static uint8_t *table_take(uint64_t key, size_t bytes)
{
    for (int i = 0; i < VR_EXT_CACHE; i++)
        if (tables[i].memo && tables[i].key == key) {
            tables[i].used = ++tables_clock;
            return tables[i].memo;
        }
    if (bytes > VR_EXT_CACHE_BYTES) return NULL;
    for (;;) {
        ExtTable *lru = NULL, *slot = NULL;
        for (int i = 0; i < VR_EXT_CACHE; i++) {
            ExtTable *t = &tables[i];
            if (!t->memo) slot = slot ? slot : t;
            else if (!lru || t->used < lru->used) lru = t;
        }
        if (slot && tables_bytes + bytes <= VR_EXT_CACHE_BYTES) {
            uint8_t *memo = calloc(bytes, 1);
            if (!memo) return NULL;
            *slot = (ExtTable){.key = key, .used = ++tables_clock, .bytes = bytes, .memo = memo};
            tables_bytes += bytes;
            return slot->memo;
        }
        /* lru exists: no free slot means every slot is kept, and too many
         * bytes means some are (bytes alone fit). */
        tables_bytes -= lru->bytes;
        free(lru->memo);
        *lru = (ExtTable){0};
    }
}

static int ext_memo_get(const uint8_t *memo, uint32_t i) { return (memo[i / 4] >> (2 * (i % 4))) & 3; }
static void ext_memo_set(uint8_t *memo, uint32_t i, int v) { memo[i / 4] |= (uint8_t)(v << (2 * (i % 4))); }

/* Does some line count for Order at (x, o) (verify_centre_ext.h)? */
static bool ext_counts(const Search *s, uint32_t x, uint32_t o)
{
    const VrExt *e = s->e;
    for (int l = 0; l < s->nlines; l++) {
        uint32_t mask = s->mask[l];
        uint8_t a = (x & mask) == mask ? VR_X : (o & mask) == mask ? VR_O : VR_EMPTY;
        if (a == VR_EMPTY) continue;
        int j = s->half_of[l];
        if (j < 0) {
            if (e->allowed[l] & (1 << a)) return true;
            continue;
        }
        uint32_t vb = 1u << (s->small + j);
        uint8_t v = (x & vb) ? VR_X : (o & vb) ? VR_O : VR_EMPTY;
        if (a == e->s0[j] ? !e->exact || v != e->s0[j] : v == a) return true;
    }
    return false;
}

/* Can some line still count, whatever is played next? A line can for a
 * symbol A if its small cells hold no other symbol and A may count on it:
 * A in allowed[l] for a line of no HALF pair; for HALF pair j's line, v_j
 * empty (it may still be given what A needs: T for A = T, the other symbol
 * or, under original, anything for A = s0) or v_j already what A needs
 * (ext_counts). Pieces are never removed, so a position where no line can
 * is a Chaos win: every ending of it is full with no line counting. */
static bool ext_live(const Search *s, uint32_t x, uint32_t o)
{
    const VrExt *e = s->e;
    for (int l = 0; l < s->nlines; l++) {
        uint32_t mask = s->mask[l];
        int j = s->half_of[l];
        for (uint8_t a = VR_X; a <= VR_O; a++) {
            if ((a == VR_X ? o : x) & mask) continue;
            if (j < 0) {
                if (e->allowed[l] & (1 << a)) return true;
                continue;
            }
            uint32_t vb = 1u << (s->small + j);
            uint8_t v = (x & vb) ? VR_X : (o & vb) ? VR_O : VR_EMPTY;
            if (v == VR_EMPTY || (a == e->s0[j] ? !e->exact || v != e->s0[j] : v == a)) return true;
        }
    }
    return false;
}

/* Does Order win at (x, o; key its base-3 number) with order_to_move? The
 * mover wins if one of its moves does (the first such move decides), else
 * the other side wins; Chaos wins where no line can count any more
 * (ext_live). Every position met is memoised, ended ones too. */
static bool ext_solve(Search *s, uint32_t x, uint32_t o, uint32_t key, bool order_to_move)
{
    int known = ext_memo_get(s->memo, key);
    if (known != EXT_UNKNOWN) return known == EXT_ORDER;
    if (++s->nodes > s->allow) s->over = true;
    if (s->over) return false;
    bool order_wins = ext_counts(s, x, o);
    if (!order_wins && __builtin_popcount(x | o) < s->cells && ext_live(s, x, o)) {
        order_wins = !order_to_move;
        for (int c = 0; c < s->cells && order_wins != order_to_move; c++) {
            uint32_t bit = 1u << c;
            if ((x | o) & bit) continue;
            if (ext_solve(s, x | bit, o, key + VR_X * s->pow3[c], !order_to_move) == order_to_move ||
                (!s->over && ext_solve(s, x, o | bit, key + VR_O * s->pow3[c], !order_to_move) == order_to_move))
                order_wins = order_to_move;
            if (s->over) return false; /* an unfinished value is never kept */
        }
    }
    ext_memo_set(s->memo, key, order_wins ? EXT_ORDER : EXT_CHAOS);
    return order_wins;
}

/* Is e a configuration this file can search? */
static bool ext_valid(const VrExt *e)
{
    if (e->m < VR_SMALL_MIN || e->m > VR_SMALL_MAX || e->nhalf < 0 || e->nhalf > VR_EXT_MAX_HALF) return false;
    for (int j = 0; j < e->nhalf; j++)
        if (e->line[j] < (j ? e->line[j - 1] + 1 : 0) || e->line[j] >= 2 * e->m + 2 ||
            (e->s0[j] != VR_X && e->s0[j] != VR_O))
            return false;
    for (int l = 0; l < 2 * e->m + 2; l++)
        if (e->allowed[l] & ~VR_ALLOW_BOTH) return false;
    return true;
}

int vr_ext_order_wins(const VrExt *e, uint32_t x, uint32_t o, bool order_to_move, uint64_t allow, uint64_t *nodes)
{
    *nodes = 0;
    if (!ext_valid(e)) return -1;
    Search s = {.e = e, .small = e->m * e->m, .allow = allow};
    s.cells = s.small + e->nhalf;
    uint32_t all = (1u << s.cells) - 1, key = 0;
    int pieces = __builtin_popcount(x | o);
    if ((x & o) || ((x | o) & ~all) || order_to_move != ((pieces + e->nhalf) % 2 == 0)) return -1;
    s.nlines = line_masks(e->m, s.mask);
    memset(s.half_of, -1, sizeof s.half_of);
    for (int j = 0; j < e->nhalf; j++) s.half_of[e->line[j]] = (int8_t)j;
    for (int c = 0, p = 1; c < s.cells; c++, p *= 3) {
        s.pow3[c] = (uint32_t)p;
        key += (x >> c & 1 ? VR_X : o >> c & 1 ? VR_O : 0) * (uint32_t)p;
    }
    s.memo = table_take(vr_ext_key(e), (size_t)s.pow3[s.cells - 1] * 3 / 4 + 1); /* 3^cells, four a byte */
    if (!s.memo) return -1;
    bool w = ext_solve(&s, x, o, key, order_to_move);
    *nodes = s.nodes;
    return s.over ? -2 : w;
}
