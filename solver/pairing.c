/* pairing.c - see pairing.h for the strategy and why it wins. */
#include "pairing.h"

#include <string.h>

/* ---- Opposite pairs only (original and exact; knowledge.c) ---- */

typedef struct {
    const uint64_t *live;
    int nlive;
    uint64_t pair[32];
    int npairs;
    int budget;
} Opposite;

/* Cover windows from index i on, given the pairs chosen so far (their cells in used). */
static bool pair_from(Opposite *p, int i, uint64_t used)
{
    for (; i < p->nlive; i++) {
        uint64_t w = p->live[i];
        bool covered = false;
        for (int j = 0; j < p->npairs && !covered; j++) covered = (p->pair[j] & w) == p->pair[j];
        if (covered) continue;
        uint64_t free = w & ~used;
        if (__builtin_popcountll(free) < 2 || --p->budget < 0) return false;
        for (uint64_t a = free; a;) {
            uint64_t abit = a & -a;
            a ^= abit;
            for (uint64_t rest = a; rest;) {
                uint64_t bbit = rest & -rest;
                rest ^= bbit;
                p->pair[p->npairs++] = abit | bbit;
                if (pair_from(p, i + 1, used | abit | bbit)) return true;
                p->npairs--;
                if (p->budget < 0) return false;
            }
        }
        return false;
    }
    return true;
}

/* The same search as pair_from, for at most 64 windows, with the windows
 * already covered kept as a bit set: win_of[c] holds the windows that
 * contain cell c, so a new pair {a, b} covers win_of[a] & win_of[b], and
 * the next window to cover is one count-trailing-zeros away instead of a
 * loop over windows and pairs. It spends its budget exactly as pair_from
 * does (the same windows, pairs and order), so it gives the same answer
 * even when the budget runs out. */
typedef struct {
    const uint64_t *live;
    uint64_t all; /* the windows, as a bit set */
    uint64_t win_of[65]; /* [64]: a sink (fast_pairing) */
    int budget;
} FastPairing;

/* Covers window i (open, with at least two free cells) and every open
 * window after it. Where pair_from would call itself only to find that
 * the next open window has fewer than two free cells (and return false at
 * no cost to the budget), this looks first and skips the call. */
static bool fast_pair_from(FastPairing *p, int i, uint64_t used, uint64_t covered)
{
    if (--p->budget < 0) return false;
    uint64_t free = p->live[i] & ~used;
    uint64_t later = i == 63 ? 0 : p->all & (~0ULL << (i + 1));
    for (uint64_t a = free; a;) {
        int ac = bb_pop(&a);
        for (uint64_t rest = a; rest;) {
            int bc = bb_pop(&rest);
            uint64_t u = used | (1ULL << ac) | (1ULL << bc), c = covered | (p->win_of[ac] & p->win_of[bc]);
            uint64_t open = later & ~c;
            if (open == 0) return true;
            int j = __builtin_ctzll(open);
            if (__builtin_popcountll(p->live[j] & ~u) >= 2 && fast_pair_from(p, j, u, c)) return true;
            if (p->budget < 0) return false;
        }
    }
    return false;
}

static bool fast_pairing(const uint64_t *live, int n, int budget)
{
    FastPairing p;
    p.live = live;
    p.all = n == 64 ? ~0ULL : (1ULL << n) - 1;
    p.budget = budget;
    memset(p.win_of, 0, sizeof p.win_of);
    /* Every window takes the same number of steps (the most empty cells
     * any has), the steps past its own cells landing in the sink
     * win_of[64]: a loop whose length varied with each window mispredicted
     * its exit once per window. */
    int most = 0;
    for (int i = 0; i < n; i++) {
        int c = __builtin_popcountll(live[i]);
        most = c > most ? c : most;
    }
    for (int i = 0; i < n; i++) {
        uint64_t m = live[i], bit = 1ULL << i;
        for (int j = 0; j < most; j++) {
            p.win_of[m ? __builtin_ctzll(m) : 64] |= bit;
            m &= m - 1;
        }
    }
    if (n == 0) return true;
    return __builtin_popcountll(live[0]) >= 2 && fast_pair_from(&p, 0, 0, 0);
}

bool pairing_opposite(const uint64_t *in, int nin, int budget)
{
    /* Most constrained windows first: a window with fewer empty cells has
     * fewer pairs to choose from and fails soonest. A stable counting sort
     * on the empty count (2..7, and 8 for all larger), so windows of equal
     * count keep their scan order. */
    uint64_t live[RULES_MAX_WINDOWS];
    uint8_t key[RULES_MAX_WINDOWS];
    int start[10] = {0};
    for (int i = 0; i < nin; i++) {
        int c = __builtin_popcountll(in[i]);
        if (c < 2) return false;
        key[i] = (uint8_t)(c > 8 ? 8 : c);
        start[key[i] + 1]++;
    }
    for (int c = 3; c <= 9; c++) start[c] += start[c - 1];
    for (int i = 0; i < nin; i++) live[start[key[i]]++] = in[i];
    if (nin <= 64) return fast_pairing(live, nin, budget);
    Opposite p = {live, nin, {0}, 0, budget};
    return pair_from(&p, 0, 0);
}

/* ---- Both kinds, with the pairs (pairing_find) ---- */

/* The live windows of a position as bit sets: in[c] holds the windows
 * with c among their empty cells, at_end[c] those with c as an empty end
 * (exact-end only, where same pairs are allowed). In the breakable form
 * (brk) lean[S] holds the windows live for S alone, two those live for
 * both, and only breakable opposite pairs are options; with witnesses
 * (wit) also an opposite pair whose live windows share an empty cell that
 * no chosen pair takes. Such a pair's witnesses (need) must keep one cell
 * outside every pair chosen after it: each choice is checked against all
 * the earlier ones (lazily, no branching over which cell is the witness),
 * so every pairing the search returns has a witness for each such pair. */
typedef struct {
    int nw, budget;
    bool brk, wit;
    bool any_ends; /* some window has empty ends (same pairs allowed) */
    uint64_t free[64], ends[64]; /* each live window's empty cells and empty ends */
    uint64_t in[64], at_end[64];
    uint64_t lean[2], two; /* windows live for X only, O only, both */
    uint64_t need[PAIRING_MAX]; /* wit: each chosen pair's witnesses, 0 for a breakable pair */
    PairSet *out;
} Finder;

/* Per-symbol liveness of window i (knowledge.h): bit S set when it is live
 * for S (PIECE_X = 0, PIECE_O = 1). */
static inline int live_for(const Rules *r, int i, uint64_t x, uint64_t o)
{
    uint64_t w = r->win[i], e = r->rules != RULES_ORIGINAL ? r->ends[i] : 0;
    return (int)((o & w) == 0 && (x & e) == 0) | (int)((x & w) == 0 && (o & e) == 0) << 1;
}

/* Is the opposite pair {a, b} an option (pairing.h)? Outside the
 * breakable form, always. In it, when every live window holding both
 * leans one way, the same for all (*need = 0); else, with witnesses, when
 * those windows share an empty cell outside a, b and the used cells
 * (*need = those cells). */
static inline bool pair_ok(const Finder *f, int a, int b, uint64_t used, uint64_t *need)
{
    *need = 0;
    if (!f->brk) return true;
    uint64_t both = f->in[a] & f->in[b];
    if ((both & f->two) == 0 && ((both & f->lean[PIECE_X]) == 0 || (both & f->lean[PIECE_O]) == 0)) return true;
    if (!f->wit) return false;
    uint64_t w = ~(used | 1ULL << a | 1ULL << b);
    for (uint64_t i = both; i && w;) w &= f->free[bb_pop(&i)];
    *need = w;
    return w != 0;
}

/* The opposite pairs of the cells in fr that are options, counted up to
 * limit (tightest needs no more). */
static int breakable_ways(const Finder *f, uint64_t fr, uint64_t used, int limit)
{
    int ways = 0;
    uint64_t need;
    for (uint64_t x = fr; x && ways < limit;) {
        int a = bb_pop(&x);
        for (uint64_t y = x; y && ways < limit;) ways += pair_ok(f, a, bb_pop(&y), used, &need);
    }
    return ways;
}

/* What a next pair may not take, so that the witnesses of the pairs chosen
 * so far (depth of them) keep a cell outside the used cells: a pair {a, b}
 * leaves pair d none exactly when d's witnesses outside `used` lie in
 * {a, b}, so one such cell (one1) or two (two[], exactly {a, b}) bars it.
 * Read once a step instead of a walk over the chosen pairs for each of its
 * options. Returns false when some pair has no witness left at all (not
 * after a step that kept them: find_from's invariant). */
typedef struct {
    uint64_t one1;
    int ntwo;
    uint64_t two[PAIRING_MAX];
} Barred;

static bool witnesses_barred(const Finder *f, int depth, uint64_t used, Barred *bar)
{
    bar->one1 = 0;
    bar->ntwo = 0;
    for (int d = 0; d < depth; d++) {
        if (!f->need[d]) continue;
        uint64_t rem = f->need[d] & ~used;
        int c = __builtin_popcountll(rem);
        if (c == 0) return false;
        if (c == 1) bar->one1 |= rem;
        if (c == 2) bar->two[bar->ntwo++] = rem;
    }
    return true;
}

/* Do the witnesses of the pairs chosen so far keep a cell outside the
 * pair ab (two cells) too? */
static inline bool witnesses_left(const Barred *bar, uint64_t ab)
{
    if (ab & bar->one1) return false;
    for (int t = 0; t < bar->ntwo; t++)
        if (bar->two[t] == ab) return false;
    return true;
}

/* The windows the pair {a, b} of the given kind covers. */
static inline uint64_t pair_covers(const Finder *f, int a, int b, bool same)
{
    return same ? (f->in[a] & f->at_end[b]) | (f->in[b] & f->at_end[a]) : f->in[a] & f->in[b];
}

typedef struct {
    uint8_t a, b;
    bool same;
    int gain;
    uint64_t cov, need;
} Option;

/* The open window with the fewest ways to be covered by unused cells, and
 * that number (0: the pairing cannot be completed). With witnesses the
 * ways are counted as if every pair of the window's unused cells were one
 * (an upper bound; options then finds the real ones): the real count,
 * a witness set per pair of every open window at every step, made the
 * search's nodes on 7x7 k = 6 fifty times slower, and the search at
 * those nodes, failing at its budget nearly always, found less within it
 * (results/claims/odd-pairing.md). The count changes only which window
 * is covered first, never what is accepted. */
static int tightest(const Finder *f, uint64_t open, uint64_t used, int *ways)
{
    if (!f->any_ends && !(f->brk && !f->wit)) {
        /* The count is nf (nf - 1) / 2, 0 for nf < 2 and rising after: the
         * least nf picks the same window (the first of the least), without
         * the multiplications' chain. With witnesses_barred: X c1 on 7x7
         * k = 6, 400 K nodes, the same search in 8.93 s against 9.35 s
         * (idle, medians of 3). */
        int best = -1, fewest = 64;
        for (uint64_t o = open; o;) {
            int i = bb_pop(&o), nf = __builtin_popcountll(f->free[i] & ~used);
            if (nf < fewest) {
                fewest = nf;
                best = i;
                if (nf < 2) break;
            }
        }
        *ways = fewest * (fewest - 1) / 2;
        return best;
    }
    int best = -1, fewest = 1 << 30;
    for (uint64_t o = open; o;) {
        int i = bb_pop(&o);
        int nf = __builtin_popcountll(f->free[i] & ~used), ne = __builtin_popcountll(f->ends[i] & ~used);
        int w = f->brk && !f->wit ? breakable_ways(f, f->free[i] & ~used, used, fewest) : nf * (nf - 1) / 2 + nf * ne;
        if (w < fewest) {
            fewest = w;
            best = i;
            if (w == 0) break;
        }
    }
    *ways = fewest;
    return best;
}

/* The ways to cover window i with unused cells, most open windows covered
 * first (ties in cell order: the search is deterministic). */
static int options(const Finder *f, int i, uint64_t open, uint64_t used, Option *opt)
{
    int n = 0;
    uint64_t fr = f->free[i] & ~used, en = f->ends[i] & ~used;
    for (uint64_t x = fr; x;) {
        int a = bb_pop(&x);
        for (uint64_t y = x; y;) {
            int b = bb_pop(&y);
            uint64_t need;
            if (pair_ok(f, a, b, used, &need))
                opt[n++] = (Option){(uint8_t)a, (uint8_t)b, false, 0, pair_covers(f, a, b, false), need};
        }
        for (uint64_t y = en; y;) {
            int b = bb_pop(&y);
            opt[n++] = (Option){(uint8_t)a, (uint8_t)b, true, 0, pair_covers(f, a, b, true), 0};
        }
    }
    for (int j = 0; j < n; j++) opt[j].gain = __builtin_popcountll(opt[j].cov & open);
    for (int j = 1; j < n; j++) { /* insertion sort, stable, gain descending */
        Option t = opt[j];
        int m = j;
        for (; m > 0 && opt[m - 1].gain < t.gain; m--) opt[m] = opt[m - 1];
        opt[m] = t;
    }
    return n;
}

/* Covers the open windows with pairs of unused cells; depth pairs chosen. */
static bool find_from(Finder *f, uint64_t open, uint64_t used, int depth)
{
    if (open == 0) {
        if (f->out) f->out->n = depth;
        return true;
    }
    if (--f->budget < 0 || depth == PAIRING_MAX) return false;
    int ways, i = tightest(f, open, used, &ways);
    if (ways == 0) return false;
    /* A window has at most 8 cells and 2 ends: 28 + 16 ways. */
    Option opt[28 + 16];
    int n = options(f, i, open, used, opt);
    Barred bar;
    bar.one1 = 0;
    bar.ntwo = 0;
    if (f->wit && !witnesses_barred(f, depth, used, &bar)) return false;
    for (int j = 0; j < n; j++) {
        uint64_t ab = (1ULL << opt[j].a) | (1ULL << opt[j].b), u = used | ab;
        if (f->wit && !witnesses_left(&bar, ab)) continue; /* (opt[j].need avoids u already) */
        if (f->out) f->out->p[depth] = (PairingPair){opt[j].a, opt[j].b, opt[j].same};
        f->need[depth] = opt[j].need;
        if (find_from(f, open & ~opt[j].cov, u, depth + 1)) return true;
        if (f->budget < 0) return false;
    }
    return false;
}

bool pairing_breakable_may(const Rules *r, Board b)
{
    /* live for X and for O: no O inside and no X on an end, no X inside and
     * no O on an end; that is no piece inside nor on an end */
    const uint64_t occ = board_occupied(b);
    const bool ends_matter = r->rules != RULES_ORIGINAL;
    for (int i = 0; i < r->nwin; i++)
        if (((r->win[i] | (ends_matter ? r->ends[i] : 0)) & occ) == 0) return false;
    return true;
}

int pairing_witness_slack(const Rules *r, Board b)
{
    const uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O];
    uint64_t lines = 0, both = 0;
    for (int i = 0; i < r->nwin; i++) {
        int live = live_for(r, i, x, o);
        lines |= live ? r->line_bit[i] : 0;
        both |= live == 3 ? r->line_bit[i] : 0;
    }
    return pairing_witness_margin(lines, both, __builtin_popcountll(r->cells & ~(x | o)));
}

bool pairing_lines_may(const Rules *r, Board b)
{
    int empty = __builtin_popcountll(r->cells & ~board_occupied(b));
    if (2 * r->nlines <= empty) return true; /* the count cannot fail */
    return pairing_lines_enough(rules_scan_lines(r, b.s[PIECE_X], b.s[PIECE_O]).live_lines, empty);
}

bool pairing_find(const Rules *r, Board b, int budget, PairSet *out)
{
    return pairing_lines_may(r, b) && pairing_search_with(r, b, budget, true, out);
}

bool pairing_search(const Rules *r, Board b, int budget, PairSet *out)
{
    /* without parity only the breakable form can hold: the usual failure,
     * found before the finder is set up */
    if (!pairing_parity(r, b) && !pairing_breakable_may(r, b)) return false;
    return pairing_search_with(r, b, budget, false, out);
}

bool pairing_search_with(const Rules *r, Board b, int budget, bool witnesses, PairSet *out)
{
    const uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O], occ = x | o;
    Finder f;
    f.brk = !pairing_parity(r, b); /* no parity: the breakable form */
    f.wit = f.brk && witnesses;
    const bool same = r->rules == RULES_EXACT_END && !f.brk;
    memset(f.in, 0, sizeof f.in);
    memset(f.at_end, 0, sizeof f.at_end);
    f.lean[0] = f.lean[1] = f.two = 0;
    f.nw = 0;
    f.any_ends = false;
    f.budget = budget;
    f.out = out;
    for (int i = 0; i < r->nwin; i++) {
        uint64_t w = r->win[i], e = r->ends[i];
        int live = live_for(r, i, x, o);
        if (!live) continue;
        if (f.nw == 64) return false;
        if (f.brk && live == 3) f.two |= 1ULL << f.nw;
        else if (f.brk) f.lean[live - 1] |= 1ULL << f.nw;
        f.free[f.nw] = w & ~occ;
        f.ends[f.nw] = same ? e & ~occ : 0;
        f.any_ends |= f.ends[f.nw] != 0;
        for (uint64_t c = f.free[f.nw]; c;) f.in[bb_pop(&c)] |= 1ULL << f.nw;
        for (uint64_t c = f.ends[f.nw]; c;) f.at_end[bb_pop(&c)] |= 1ULL << f.nw;
        f.nw++;
    }
    uint64_t all = f.nw == 64 ? ~0ULL : (1ULL << f.nw) - 1;
    return find_from(&f, all, 0, 0);
}

/* Is each opposite pair of ps breakable in b (pairing.h), read plainly:
 * every live window holding both its cells live for one symbol only, the
 * same one for the pair; or an empty cell in no pair of ps lying in every
 * such window (a witness)? */
static bool each_pair_breakable(const Rules *r, Board b, const PairSet *ps)
{
    const uint64_t occ = board_occupied(b);
    uint64_t paired = 0;
    for (int j = 0; j < ps->n; j++) paired |= (1ULL << ps->p[j].a) | (1ULL << ps->p[j].b);
    for (int j = 0; j < ps->n; j++) {
        if (ps->p[j].same) return false;
        uint64_t cells = (1ULL << ps->p[j].a) | (1ULL << ps->p[j].b);
        uint64_t witness = r->cells & ~occ & ~paired;
        int lean = 0; /* 1: X, 2: O (live_for's bits); 3: both ways */
        for (int i = 0; i < r->nwin; i++) {
            int live = live_for(r, i, b.s[PIECE_X], b.s[PIECE_O]);
            if (!live || (r->win[i] & cells) != cells) continue;
            witness &= r->win[i];
            lean = lean && lean != live ? 3 : lean | live;
        }
        if (lean == 3 && witness == 0) return false;
    }
    return true;
}

bool pairing_holds(const Rules *r, Board b, const PairSet *ps)
{
    if (ps->n < 0 || ps->n > PAIRING_MAX) return false;
    const uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O], occ = x | o;
    uint64_t used = 0;
    for (int j = 0; j < ps->n; j++) {
        PairingPair p = ps->p[j];
        if (p.a >= 64 || p.b >= 64 || p.a == p.b) return false;
        uint64_t cells = (1ULL << p.a) | (1ULL << p.b);
        if ((cells & ~r->cells) || (cells & (occ | used))) return false;
        if (p.same && r->rules != RULES_EXACT_END) return false;
        used |= cells;
    }
    if (!pairing_parity(r, b) && !each_pair_breakable(r, b, ps)) return false;
    const bool ends_matter = r->rules != RULES_ORIGINAL;
    for (int i = 0; i < r->nwin; i++) {
        uint64_t w = r->win[i], e = ends_matter ? r->ends[i] : 0;
        bool covered = !live_for(r, i, x, o);
        for (int j = 0; j < ps->n && !covered; j++) {
            uint64_t a = 1ULL << ps->p[j].a, c = 1ULL << ps->p[j].b;
            covered = ps->p[j].same ? ((a & w) && (c & e)) || ((c & w) && (a & e)) : (a & w) && (c & w);
        }
        if (!covered) return false;
    }
    return true;
}
