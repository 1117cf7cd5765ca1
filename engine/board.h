/* board.h - the position: one uint64_t bitboard per symbol, and moves.
 *
 * Bit layout: cell (row r, column c) is bit 8*r + c, for every board size
 * n = 4..8. Rows are numbered from the top, columns from the left; the
 * first character of a position string is a1 = bit 0. For n < 8 the
 * columns c >= n and rows r >= n are guard bits that are always zero
 * (6x6 shown; '.' is a guard bit):
 *
 *         a  b  c  d  e  f  g  h
 *    1    0  1  2  3  4  5  .  .
 *    2    8  9 10 11 12 13  .  .
 *    3   16 17 18 19 20 21  .  .
 *    4   24 25 26 27 28 29  .  .
 *    5   32 33 34 35 36 37  .  .
 *    6   40 41 42 43 44 45  .  .
 *    7    .  .  .  .  .  .  .  .
 *    8    .  .  .  .  .  .  .  .
 *
 * Why a fixed stride of 8 rather than n+1: an 8x8 board still fits in one
 * word, and every symmetry of the square becomes a byte swap, a bit
 * reversal inside bytes or an 8x8 transpose (symmetry.h), whatever n is.
 * Line detection never shifts across the guard (rules.h works with
 * precomputed window masks), so n = 8, which has no guard, is just as exact.
 *
 * Invariants: s[PIECE_X] & s[PIECE_O] == 0; no bit outside the n x n board is
 * set. Order is to move exactly when the number of pieces is even.
 */
#ifndef OCS_BOARD_H
#define OCS_BOARD_H

#include <stdbool.h>
#include <stdint.h>

/* The two pieces (the game calls them symbols); PIECE_, not SYM_, which is
 * the symmetries' prefix (symmetry.h). */
enum { PIECE_X = 0, PIECE_O = 1 };
enum { BOARD_MIN_N = 4, BOARD_MAX_N = 8 };

typedef struct {
    uint64_t s[2]; /* s[PIECE_X], s[PIECE_O] */
} Board;

/* A move: bits 0-5 the cell (bit index above), bit 6 the piece. */
typedef uint8_t Move;
#define MOVE_NONE ((Move)0xFF)

static inline Move move_make(int piece, int cell) { return (Move)((piece << 6) | cell); }
static inline int move_cell(Move m) { return m & 63; }
static inline int move_piece(Move m) { return (m >> 6) & 1; }

static inline int board_cell(int row, int col) { return 8 * row + col; }
static inline int cell_row(int cell) { return cell >> 3; }
static inline int cell_col(int cell) { return cell & 7; }

/* Mask of the n x n cells. */
static inline uint64_t board_mask(int n)
{
    uint64_t row = (n == 8) ? 0xFFu : ((1u << n) - 1u);
    uint64_t m = 0;
    for (int r = 0; r < n; r++) m |= row << (8 * r);
    return m;
}

static inline Board board_empty(void) { return (Board){{0, 0}}; }
static inline uint64_t board_occupied(Board b) { return b.s[0] | b.s[1]; }
static inline int board_count(Board b) { return __builtin_popcountll(board_occupied(b)); }
static inline bool board_order_to_move(Board b) { return (board_count(b) & 1) == 0; }
static inline bool board_equal(Board a, Board b) { return a.s[0] == b.s[0] && a.s[1] == b.s[1]; }

/* 'X', 'O' or '.' at a cell. */
static inline char board_at(Board b, int cell)
{
    uint64_t bit = 1ULL << cell;
    return (b.s[PIECE_X] & bit) ? 'X' : (b.s[PIECE_O] & bit) ? 'O' : '.';
}

/* Place and undo are the same XOR; the caller guarantees the cell is empty
 * (place) or holds that symbol (undo). Both words through a mask, not
 * s[move_piece(m)]: an index into the pair makes gcc keep the board in
 * memory, and reading it back right after the store stalls (measured: the
 * hottest spot of dfpn.c's expand, 12 % of mid's time). */
static inline void board_place(Board *b, Move m)
{
    uint64_t bit = 1ULL << move_cell(m), o = -(uint64_t)move_piece(m);
    b->s[PIECE_X] ^= bit & ~o;
    b->s[PIECE_O] ^= bit & o;
}
static inline void board_undo(Board *b, Move m) { board_place(b, m); }

/* b itself, as two opaque register values. A Board arrives in two
 * registers; gcc tends to spill them and reload the pair as one 16-byte
 * vector, which cannot be forwarded from the two 8-byte stores and stalls
 * (measured: ~10% of kn_node's time). Hot functions that take a Board
 * rebuild it through this, which leaves gcc nothing to reload. */
static inline Board board_regs(Board b)
{
    uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O];
    __asm__("" : "+r"(x), "+r"(o));
    return (Board){{x, o}};
}

/* Lowest set bit as a cell index, and clear it: the move-generation loop. */
static inline int bb_pop(uint64_t *bb)
{
    int c = __builtin_ctzll(*bb);
    *bb &= *bb - 1;
    return c;
}

#endif
