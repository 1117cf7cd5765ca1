/* baseline.c - the fair baseline the engine's hot path is measured
 * against: the perft anyone would write first on this bit layout, and no
 * weaker. After every placement, leaves included, it judges the whole
 * board for both symbols with the shift-based run detector: for each of the
 * four directions, step d in {1, 8, 9, 7} (row, column, diagonal,
 * anti-diagonal),
 *     s & s>>d & s>>2d & ... & s>>(k-1)d
 * has a bit at every cell that starts a run of k of s, so one expression
 * tests every window of that direction at once.
 *
 * Why it is exact on board.h's layout: for n < 8 the guard column stops a
 * run from wrapping from the end of a row to the start of the next (a step
 * off the board's right edge lands on a guard, off its left edge on the
 * guard column 7 of the row above) and bits shifted below bit 0 are lost.
 * For n = 8 there is no guard, so each direction is ANDed with the cells a
 * window of that direction can start from; the mask costs one AND
 * whatever n is, so it is applied for every n rather than only for 8.
 *
 * Original rules only: a run of k or more like symbols ends the game, and so
 * does a full board. Only the bit layout (board.h) is shared with
 * engine/rules.c, so equal counts (sequences, positions made, sequences
 * ending on their last move) are also a cross-check of the engine.
 *
 * The step list and k are fixed for a whole run; the compiler keeps the
 * inner shifts in registers. The baseline is specialised for the bench's
 * k = 5 (the same code with k a constant, so fully unrolled), as the
 * hand-written five detector would be; other k take the general loop.
 */
#include "bench.h"

typedef struct {
    int k;
    uint64_t cells;
    uint64_t start[4]; /* cells a window of direction d starts from */
    uint64_t nodes, ends;
} Base;

static const int base_step[4] = {1, 8, 9, 7};
static const int base_dir[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}}; /* row, column steps of base_step */

/* start[d]: cells (r, c) with (r + (k-1) dr, c + (k-1) dc) on the board. */
static void base_init(Base *bs, int n, int k)
{
    *bs = (Base){.k = k, .cells = board_mask(n)};
    for (int d = 0; d < 4; d++)
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int er = r + (k - 1) * base_dir[d][0], ec = c + (k - 1) * base_dir[d][1];
                if (er >= 0 && er < n && ec >= 0 && ec < n) bs->start[d] |= 1ULL << (8 * r + c);
            }
}

/* A run of k or more of s anywhere on the board. */
static inline __attribute__((always_inline)) bool base_line(const Base *bs, uint64_t s, int k)
{
    uint64_t any = 0;
    for (int d = 0; d < 4; d++) {
        uint64_t t = s & bs->start[d];
        for (int i = 1; i < k; i++) t &= s >> (i * base_step[d]);
        any |= t;
    }
    return any != 0;
}

/* The perft, k passed through so that base_rec5 below is compiled with
 * k = 5 folded in. Every placement is judged: at depth 1 the verdict goes
 * into bs->ends, so it cannot be left out. */
static inline __attribute__((always_inline)) uint64_t base_body(Base *bs, uint64_t x, uint64_t o, int depth, int k,
                                                               uint64_t (*rec)(Base *, uint64_t, uint64_t, int))
{
    uint64_t total = 0, empty = bs->cells & ~(x | o);
    /* Its own move loop, like the rest of the baseline: nothing of the
     * engine's (moves.h included) is the program one would write first. */
    while (empty) {
        uint64_t bit = empty & -empty;
        empty ^= bit;
        for (int s = 0; s < 2; s++) {
            uint64_t nx = s == PIECE_X ? x | bit : x, no = s == PIECE_O ? o | bit : o;
            bs->nodes++;
            bool over = base_line(bs, nx, k) || base_line(bs, no, k) || (nx | no) == bs->cells;
            if (depth == 1) {
                total++;
                bs->ends += over;
            } else if (!over) {
                total += rec(bs, nx, no, depth - 1);
            }
        }
    }
    return total;
}

static uint64_t base_rec5(Base *bs, uint64_t x, uint64_t o, int depth)
{
    return base_body(bs, x, o, depth, 5, base_rec5);
}

static uint64_t base_rec(Base *bs, uint64_t x, uint64_t o, int depth)
{
    return base_body(bs, x, o, depth, bs->k, base_rec);
}

uint64_t bench_baseline_perft(int n, int k, Board b, int depth, uint64_t *nodes, uint64_t *ends, int *windows)
{
    Base bs;
    base_init(&bs, n, k);
    *windows = 0;
    for (int d = 0; d < 4; d++) *windows += __builtin_popcountll(bs.start[d]);
    uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O], count;
    if (depth == 0)
        count = 1;
    else if (base_line(&bs, x, k) || base_line(&bs, o, k) || (x | o) == bs.cells)
        count = 0;
    else
        count = k == 5 ? base_rec5(&bs, x, o, depth) : base_rec(&bs, x, o, depth);
    *nodes = bs.nodes;
    *ends = bs.ends;
    return count;
}
