/* centre_ring.c - see centre_ring.h: the conditions as mask scans, then the
 * small game's value, then a bounded search for the ring's pairs. */
#include "centre_ring.h"

/* The search for pairs: every window in need[0..nneed) (its empty ring
 * cells) must come to hold both cells of a chosen pair; the pairs are made
 * of the cells in free. The uncovered window with the fewest free cells is
 * taken first, and each pair of its free cells is tried. */
typedef struct {
    const uint64_t *need;
    int nneed;
    int steps;
    CentreRing *out;
} Match;

static bool pair_covered(const Match *s, uint64_t w)
{
    for (int p = 0; p < s->out->n; p++)
        if ((w >> s->out->a[p] & 1) && (w >> s->out->b[p] & 1)) return true;
    return false;
}

static bool match(Match *s, uint64_t free)
{
    int best = -1, fewest = 65;
    for (int j = 0; j < s->nneed; j++) {
        if (pair_covered(s, s->need[j])) continue;
        int f = __builtin_popcountll(s->need[j] & free);
        if (f < fewest) fewest = f, best = j;
    }
    if (best < 0) return true;
    if (fewest < 2) return false;
    uint64_t cand = s->need[best] & free;
    for (uint64_t x = cand; x; x &= x - 1) {
        int a = __builtin_ctzll(x);
        for (uint64_t y = x & (x - 1); y; y &= y - 1) {
            if (--s->steps < 0) return false;
            int b = __builtin_ctzll(y), n = s->out->n;
            s->out->a[n] = a;
            s->out->b[n] = b;
            s->out->n = n + 1;
            if (match(s, free & ~(1ULL << a | 1ULL << b))) return true;
            s->out->n = n;
        }
    }
    return false;
}

bool centre_ring_chaos(const Centre *c, const Rules *r, Board b, CentreRing *out, const atomic_bool *stop,
                       double deadline)
{
    if (!c->ring) return false;
    uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O], empty = r->cells & ~(x | o);
    uint64_t rempty = empty & ~c->centre;
    int nempty = __builtin_popcountll(empty);
    if (__builtin_popcountll(rempty) & 1) return false;               /* (1) */
    if (board_order_to_move(b) != (nempty % 2 == 0)) return false;   /* (2) */
    bool ends = r->rules != RULES_ORIGINAL;
    uint32_t allowed = 0;
    uint64_t need[RULES_MAX_WINDOWS];
    int nneed = 0;
    for (int i = 0; i < r->nwin; i++) {                               /* (3) */
        uint64_t w = r->win[i], e = r->ends[i];
        bool lx = !(w & o) && !(ends && (e & x)), lo = !(w & x) && !(ends && (e & o));
        if (!lx && !lo) continue;
        int p = c->win_line[i]; /* centre_init's, from the same windows */
        if (p >= 0) {
            allowed |= (uint32_t)lx << 2 * p | (uint32_t)lo << (2 * p + 1);
            continue;
        }
        if (__builtin_popcountll(w & rempty) < 2) return false;
        need[nneed++] = w & rempty;
    }
    /* the pairs before the small game: most positions fail here, for less
     * than the small game's depth-first search costs (measured on the
     * bench: that search was half the time when it came first) */
    CentreRing local;
    Match s = {need, nneed, CENTRE_RING_STEPS, out ? out : &local};
    s.out->n = 0;
    if (!match(&s, rempty)) return false;
    uint64_t left = rempty;                                            /* (1): the rest, in any pairs */
    for (int p = 0; p < s.out->n; p++) left &= ~(1ULL << s.out->a[p] | 1ULL << s.out->b[p]);
    while (left) {
        int a = __builtin_ctzll(left);
        left &= left - 1;
        int bb = __builtin_ctzll(left);
        left &= left - 1;
        s.out->a[s.out->n] = a;
        s.out->b[s.out->n++] = bb;
    }
    /* (4) at once when no small line can still be made in an allowed
     * symbol: then Chaos has won the small game already */
    bool open_line = false;
    for (int p = 0; p < c->npairs && !open_line; p++) {
        uint64_t l = c->line_mask[p];
        open_line = ((allowed >> 2 * p & 1) && !(l & o)) || ((allowed >> (2 * p + 1) & 1) && !(l & x));
    }
    if (!open_line) return true;
    /* (4): new restriction tables only near the opening (centre_ring.h) */
    bool build = board_count(b) <= c->same_max_pieces;
    if (!centre_small_chaos_stoppable(c->m, allowed, centre_index(c, b), stop, deadline, build)) return false;
    return true;
}
