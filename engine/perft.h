/* perft.h - exact move-tree counts, the guard of the move generator.
 *
 * perft(p, d) is the number of move sequences of length d from p, where a
 * finished game (a win, or a full board) has no moves: perft(p, 0) = 1.
 * Three ways to count, all giving the same number:
 *   PERFT_FULL  every sequence's last move is made and judged (the hot
 *               path in full: generation, place/undo, win detection);
 *   PERFT_BULK  at depth 1 the 2e moves of an ongoing position are counted
 *               without being made (each is a sequence whatever it does);
 *   PERFT_MEMO  bulk, plus a table of (canonical position, depth) -> count,
 *               sound because perft is the same for all 16 images.
 */
#ifndef OCS_PERFT_H
#define OCS_PERFT_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"

typedef enum { PERFT_FULL, PERFT_BULK, PERFT_MEMO } PerftMode;

typedef struct {
    uint64_t count;  /* the perft number */
    uint64_t nodes;  /* positions made: board_place calls */
    uint64_t memo_hits;
    uint64_t leaf_ends; /* PERFT_FULL: sequences whose last move ends the game */
} PerftResult;

/* memo_bytes sizes the PERFT_MEMO table (ignored otherwise). Returns 0, or
 * -1 when the table cannot be allocated. */
int perft_run(const Rules *r, Board b, int depth, PerftMode mode, size_t memo_bytes, PerftResult *out);

#endif
