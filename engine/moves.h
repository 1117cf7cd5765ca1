/* moves.h - legal move generation.
 *
 * Every empty cell takes either symbol, so a position with e empty cells
 * has 2e moves, whoever is to move. A finished game has no moves, but
 * whether the game is finished is the rules' question (rules.h), asked by
 * the caller: generation itself never looks at lines.
 * Order of the list: cells ascending, X before O at each cell.
 */
#ifndef OCS_MOVES_H
#define OCS_MOVES_H

#include "board.h"

enum { MOVES_MAX = 128 };

typedef struct {
    int count;
    Move m[MOVES_MAX];
} MoveList;

static inline uint64_t moves_empty_cells(Board b, uint64_t cells) { return cells & ~board_occupied(b); }

static inline void moves_generate(Board b, uint64_t cells, MoveList *ml)
{
    uint64_t e = moves_empty_cells(b, cells);
    int n = 0;
    while (e) {
        int c = bb_pop(&e);
        ml->m[n++] = move_make(PIECE_X, c);
        ml->m[n++] = move_make(PIECE_O, c);
    }
    ml->count = n;
}

#endif
