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

/* The maps of every size, built at once under pthread_once (36 KiB, a few
 * microseconds): after it returns they are complete and never written
 * again, so readers need no lock. (Not C11 call_once: glibc runs it
 * through an internal pthread_once that ThreadSanitizer does not see, and
 * it reported the readers as races.) */
static SymCellMap cell_maps[9];
static pthread_once_t cell_maps_once = PTHREAD_ONCE_INIT;

static void build_cell_maps(void)
{
    for (int n = 1; n <= 8; n++)
        for (int g = 0; g < SYM_GEOMETRIC; g++)
            for (int cell = 0; cell < 64; cell++)
                cell_maps[n][g][cell] = cell_row(cell) < n && cell_col(cell) < n ? 1ULL << sym_cell(cell, g, n) : 0;
}

const SymCellMap *sym_cell_map(int n)
{
    pthread_once(&cell_maps_once, build_cell_maps);
    return (const SymCellMap *)&cell_maps[n];
}
