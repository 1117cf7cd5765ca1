/* baseline.c - the straightforward perft the engine's hot path is measured
 * against. After every placement it tests every k-window of the board for
 * both symbols, as a first implementation would: no per-cell window lists,
 * no test restricted to the cell just played. Its window list is built
 * here, sharing nothing with engine/rules.c but the bit layout (board.h),
 * so that equal counts are also a cross-check of the engine.
 * Original rules only: a run of k or more like symbols ends the game.
 */
#include "bench.h"

enum { BASE_MAX_WINDOWS = 4 * 64 };

typedef struct {
    int n;
    uint64_t cells;
    int nwin;
    uint64_t win[BASE_MAX_WINDOWS];
    uint64_t nodes;
} Base;

static void base_windows(Base *bs, int n, int k)
{
    static const int dir[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}}; /* row, column steps */
    bs->nwin = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            for (int d = 0; d < 4; d++) {
                int er = r + (k - 1) * dir[d][0], ec = c + (k - 1) * dir[d][1];
                if (er < 0 || er >= n || ec < 0 || ec >= n) continue;
                uint64_t w = 0;
                for (int i = 0; i < k; i++) w |= 1ULL << (8 * (r + i * dir[d][0]) + c + i * dir[d][1]);
                bs->win[bs->nwin++] = w;
            }
}

static bool base_over(const Base *bs, uint64_t x, uint64_t o)
{
    for (int i = 0; i < bs->nwin; i++) {
        uint64_t w = bs->win[i];
        if ((x & w) == w || (o & w) == w) return true;
    }
    return (x | o) == bs->cells;
}

static uint64_t base_rec(Base *bs, uint64_t x, uint64_t o, int depth)
{
    uint64_t total = 0;
    for (int r = 0; r < bs->n; r++)
        for (int c = 0; c < bs->n; c++) {
            uint64_t bit = 1ULL << (8 * r + c);
            if ((x | o) & bit) continue;
            for (int s = 0; s < 2; s++) {
                uint64_t nx = s == PIECE_X ? x | bit : x, no = s == PIECE_O ? o | bit : o;
                bs->nodes++;
                bool over = base_over(bs, nx, no);
                if (depth == 1)
                    total++;
                else if (!over)
                    total += base_rec(bs, nx, no, depth - 1);
            }
        }
    return total;
}

uint64_t bench_baseline_perft(int n, int k, Board b, int depth, uint64_t *nodes, int *windows)
{
    Base bs = {.n = n, .cells = board_mask(n)};
    base_windows(&bs, n, k);
    *windows = bs.nwin;
    uint64_t count;
    if (depth == 0)
        count = 1;
    else if (base_over(&bs, b.s[PIECE_X], b.s[PIECE_O]))
        count = 0;
    else
        count = base_rec(&bs, b.s[PIECE_X], b.s[PIECE_O], depth);
    *nodes = bs.nodes;
    return count;
}
