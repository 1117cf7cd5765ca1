/* symmetry.c - cell and move maps for the symmetries of symmetry.h. These
 * work on coordinates, not on bit tricks, so tests can hold the bitboard
 * versions against them. */
#include "symmetry.h"

#include <pthread.h>

int sym_cell(int cell, int sym, int n)
{
    int r = cell_row(cell), c = cell_col(cell);
    if (sym & 1) c = n - 1 - c;
    if (sym & 2) r = n - 1 - r;
    if (sym & 4) {
        int t = r;
        r = c;
        c = t;
    }
    return board_cell(r, c);
}

Move sym_move(Move m, int sym, int n)
{
    return move_make(move_piece(m) ^ ((sym >> 3) & 1), sym_cell(move_cell(m), sym, n));
}

int sym_inverse(int sym)
{
    /* Found by trying: the geometric part that sends every cell of an 8x8
     * board back where it started; X/O swap is its own inverse. */
    int g = sym & 7;
    for (int h = 0; h < SYM_GEOMETRIC; h++) {
        bool ok = true;
        for (int cell = 0; cell < 64 && ok; cell++) ok = sym_cell(sym_cell(cell, g, 8), h, 8) == cell;
        if (ok) return h | (sym & 8);
    }
    return -1; /* unreachable: the 8 maps form a group */
}

/* One map per board size, built under pthread_once: after it returns, the
 * map is complete and never written again, so readers need no lock.
 * (Not C11 call_once: glibc runs it through an internal pthread_once that
 * ThreadSanitizer does not see, and it reported the readers as races.) */
static SymCellMap cell_maps[9];
static pthread_once_t cell_map_once[9] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                          PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                          PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};

static void build_cell_map(int n)
{
    for (int g = 0; g < SYM_GEOMETRIC; g++)
        for (int cell = 0; cell < 64; cell++)
            cell_maps[n][g][cell] =
                cell_row(cell) < n && cell_col(cell) < n ? 1ULL << sym_cell(cell, g, n) : 0;
}

#define CELL_MAP_BUILDER(N) \
    static void build_cell_map_##N(void) { build_cell_map(N); }
CELL_MAP_BUILDER(1)
CELL_MAP_BUILDER(2)
CELL_MAP_BUILDER(3)
CELL_MAP_BUILDER(4)
CELL_MAP_BUILDER(5)
CELL_MAP_BUILDER(6)
CELL_MAP_BUILDER(7)
CELL_MAP_BUILDER(8)

const SymCellMap *sym_cell_map(int n)
{
    /* pthread_once takes a function without arguments: one per size. */
    static void (*const build[9])(void) = {NULL,              build_cell_map_1, build_cell_map_2,
                                           build_cell_map_3,  build_cell_map_4, build_cell_map_5,
                                           build_cell_map_6,  build_cell_map_7, build_cell_map_8};
    pthread_once(&cell_map_once[n], build[n]);
    return (const SymCellMap *)&cell_maps[n];
}
