/* symmetry.h - the 16 symmetries of the game and the canonical form.
 *
 * The rules of every rule set are invariant under the 8 symmetries of the
 * square and under swapping X and O, so a position and its 16 images have
 * the same value and perft counts. A symmetry index is 0..15:
 *   bit 0  mirror columns  (c -> n-1-c)    applied first
 *   bit 1  flip rows       (r -> n-1-r)    then
 *   bit 2  transpose       (r, c) -> (c, r) last
 *   bit 3  swap X and O
 * With the bit layout of board.h these are a per-byte bit reversal, a byte
 * swap and an 8x8 transpose, followed by a shift that brings an n < 8 board
 * back to the top-left corner (the guard bits are zero, so nothing wraps).
 *
 * The canonical form is the image with the smallest (s[X], s[O]) pair; it
 * is an exact representative, so equal canonical forms mean symmetric
 * positions and nothing else.
 */
#ifndef OCS_SYMMETRY_H
#define OCS_SYMMETRY_H

#include "board.h"

enum { SYM_COUNT = 16, SYM_GEOMETRIC = 8 };

/* Swap the bit pairs (p, p + d) for every p in mask m. */
static inline uint64_t sym_delta_swap(uint64_t x, uint64_t m, int d)
{
    uint64_t t = ((x >> d) ^ x) & m;
    return x ^ t ^ (t << d);
}

static inline uint64_t sym_mirror(uint64_t x, int n)
{
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return x >> (8 - n);
}

static inline uint64_t sym_flip(uint64_t x, int n) { return __builtin_bswap64(x) >> (8 * (8 - n)); }

/* (r, c) -> (c, r): swap 1x1 blocks inside 2x2 blocks, then 2x2 inside
 * 4x4, then 4x4 inside 8x8. The masks mark the upper-right member of each
 * pair; its partner sits d = 8*size - size bits higher. */
static inline uint64_t sym_transpose(uint64_t x)
{
    x = sym_delta_swap(x, 0x00AA00AA00AA00AAULL, 7);
    x = sym_delta_swap(x, 0x0000CCCC0000CCCCULL, 14);
    x = sym_delta_swap(x, 0x00000000F0F0F0F0ULL, 28);
    return x;
}

static inline uint64_t sym_apply_bb(uint64_t x, int g, int n)
{
    if (g & 1) x = sym_mirror(x, n);
    if (g & 2) x = sym_flip(x, n);
    if (g & 4) x = sym_transpose(x);
    return x;
}

static inline Board sym_apply(Board b, int sym, int n)
{
    int g = sym & 7, sw = (sym >> 3) & 1;
    Board t;
    t.s[sw] = sym_apply_bb(b.s[PIECE_X], g, n);
    t.s[sw ^ 1] = sym_apply_bb(b.s[PIECE_O], g, n);
    return t;
}

/* Lexicographic order on (s[X], s[O]). */
static inline bool sym_less(Board a, Board b)
{
    return a.s[0] < b.s[0] || (a.s[0] == b.s[0] && a.s[1] < b.s[1]);
}

/* The 8 geometric images of one word, out[g] = sym_apply_bb(x, g, n),
 * sharing the work: mirror, flip and their product once, then the four
 * transposes (7 maps instead of 12). */
static inline void sym_images(uint64_t x, int n, uint64_t out[SYM_GEOMETRIC])
{
    out[0] = x;
    out[1] = sym_mirror(x, n);
    out[2] = sym_flip(x, n);
    out[3] = sym_flip(out[1], n);
    for (int g = 0; g < 4; g++) out[g + 4] = sym_transpose(out[g]);
}

/* The least of the 16 images whose geometric images are ix[] (of the X
 * word) and io[] (of O): image s is (ix[g], io[g]) for s = g, (io[g],
 * ix[g]) for s = g + 8. The first s that gives the least image goes to
 * *sym_out (if not NULL), the identity on ties. */
static inline Board sym_least(const uint64_t ix[SYM_GEOMETRIC], const uint64_t io[SYM_GEOMETRIC], int *sym_out)
{
    Board best = {{ix[0], io[0]}};
    int bs = 0;
    for (int s = 1; s < SYM_COUNT; s++) {
        int g = s & 7;
        Board t = s < 8 ? (Board){{ix[g], io[g]}} : (Board){{io[g], ix[g]}};
        if (sym_less(t, best)) {
            best = t;
            bs = s;
        }
    }
    if (sym_out) *sym_out = bs;
    return best;
}

/* The value of sym_least without the symmetry, branch-free: the least X
 * word of the 16 images first, then the least O word among the images
 * with that X word. Lexicographic order on (s[X], s[O]) makes that pair
 * the least image; the branches of sym_less were as good as random. */
static inline Board sym_least_value(const uint64_t ix[SYM_GEOMETRIC], const uint64_t io[SYM_GEOMETRIC])
{
    uint64_t mx = UINT64_MAX, mo = UINT64_MAX;
    for (int g = 0; g < SYM_GEOMETRIC; g++) {
        mx = ix[g] < mx ? ix[g] : mx;
        mx = io[g] < mx ? io[g] : mx;
    }
    for (int g = 0; g < SYM_GEOMETRIC; g++) {
        uint64_t a = ix[g] == mx ? io[g] : UINT64_MAX; /* image g */
        uint64_t b = io[g] == mx ? ix[g] : UINT64_MAX; /* image g + 8 */
        mo = a < mo ? a : mo;
        mo = b < mo ? b : mo;
    }
    return (Board){{mx, mo}};
}

/* The canonical form; *sym_out (if not NULL) receives a symmetry that maps
 * b onto it. */
static inline Board sym_canonical(Board b, int n, int *sym_out)
{
    uint64_t ix[SYM_GEOMETRIC], io[SYM_GEOMETRIC];
    sym_images(b.s[PIECE_X], n, ix);
    sym_images(b.s[PIECE_O], n, io);
    return sym_out ? sym_least(ix, io, sym_out) : sym_least_value(ix, io);
}

/* Single-cell images for incremental keys: map[g][cell] = the bit of
 * cell's image under geometric symmetry g on an n x n board (0 for cells
 * off the board). Computed once for all n from sym_cell (coordinates, not the
 * bit tricks above), on first use, safely from any thread; n in 1..8. */
typedef uint64_t SymCellMap[SYM_GEOMETRIC][64];
const SymCellMap *sym_cell_map(int n);

/* The geometric images of x ^ d given x's images, through the bits of d:
 * a symmetry permutes bits, so it maps an exclusive or to the exclusive or
 * of the images. */
static inline void sym_images_xor(uint64_t img[SYM_GEOMETRIC], uint64_t d, const SymCellMap *map)
{
    while (d) {
        int c = __builtin_ctzll(d);
        d &= d - 1;
        for (int g = 0; g < SYM_GEOMETRIC; g++) img[g] ^= (*map)[g][c];
    }
}

/* Where a cell goes, and what a move becomes, under a symmetry. */
int sym_cell(int cell, int sym, int n);
Move sym_move(Move m, int sym, int n);
/* The symmetry that undoes sym. */
int sym_inverse(int sym);

#endif
