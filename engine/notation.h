/* notation.h - position strings, cells and moves as text.
 *
 * Position: n*n characters 'X', 'O', '.' in row-major order from the
 * top-left cell; '/' anywhere is ignored (row separators); "-" or "empty"
 * is the empty board. Cell: column letter + row number, a1 = top-left,
 * letters left to right, numbers top to bottom. Move: symbol + cell, "Xc3".
 * Every parser returns 0, or -1 with a one-line message in err that names
 * the problem; nothing is guessed.
 */
#ifndef OCS_NOTATION_H
#define OCS_NOTATION_H

#include "board.h"

enum { NOTATION_ERR_LEN = 160, NOTATION_POS_LEN = 65 };

/* n: the board size if known, 0 to infer it from the length (a square of 4..8;
 * the empty board then defaults to 6x6). *n_out receives the size. */
int notation_parse_position(const char *s, int n, Board *b, int *n_out, char *err, int errlen);
/* out must hold NOTATION_POS_LEN bytes whatever n: the rows are stored 8
 * bytes at a time, past the n x n cells and their NUL. */
void notation_format_position(Board b, int n, char out[NOTATION_POS_LEN]);

int notation_parse_cell(const char *s, int n, int *cell, char *err, int errlen);
void notation_format_cell(int cell, char out[3]);

int notation_parse_move(const char *s, int n, Move *m, char *err, int errlen);
void notation_format_move(Move m, char out[4]);

#endif
