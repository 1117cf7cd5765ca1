/* notation.c - see notation.h. */
#include "notation.h"

#include <stdio.h>
#include <string.h>

int notation_parse_position(const char *s, int n, Board *b, int *n_out, char *err, int errlen)
{
    *b = board_empty();
    if (strcmp(s, "-") == 0 || strcmp(s, "empty") == 0) {
        *n_out = n ? n : 6;
        return 0;
    }
    int len = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '/') continue;
        if (*p != 'X' && *p != 'O' && *p != '.') {
            snprintf(err, (size_t)errlen, "bad position: character '%c' at offset %d (only X, O, '.' and '/')",
                     *p, (int)(p - s));
            return -1;
        }
        len++;
    }
    if (n == 0) {
        for (int m = BOARD_MIN_N; m <= BOARD_MAX_N; m++)
            if (m * m == len) n = m;
        if (n == 0) {
            snprintf(err, (size_t)errlen,
                     "bad position: %d cells is not a board of 4x4 to 8x8 (16, 25, 36, 49 or 64 cells)", len);
            return -1;
        }
    } else if (len != n * n) {
        snprintf(err, (size_t)errlen, "bad position: %d cells, a %dx%d board needs %d", len, n, n, n * n);
        return -1;
    }
    int i = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '/') continue;
        int cell = board_cell(i / n, i % n);
        if (*p == 'X') b->s[PIECE_X] |= 1ULL << cell;
        if (*p == 'O') b->s[PIECE_O] |= 1ULL << cell;
        i++;
    }
    *n_out = n;
    return 0;
}

/* One row's 8 bits (bit c: column c) as 8 bytes of 0 or 1, byte c for
 * column c: the byte copied into every byte, each byte keeping its own
 * bit, then any set bit of a byte carried to its bit 7 (+0x7F, no carry
 * out of a byte) and brought down. */
static inline uint64_t row_spread(uint64_t bits)
{
    uint64_t t = (bits & 0xFF) * 0x0101010101010101ULL & 0x8040201008040201ULL;
    return (t + 0x7F7F7F7F7F7F7F7FULL) >> 7 & 0x0101010101010101ULL;
}

/* A certificate writer formats every line's position (about 6 % of its
 * time cell by cell): a row at a time here, 8 bytes per store. Each store
 * may run past the row into the next one's place, which the next row
 * overwrites; the last ends at (n-1) n + 8 <= 64 < NOTATION_POS_LEN. */
void notation_format_position(Board b, int n, char out[NOTATION_POS_LEN])
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (int r = 0; r < n; r++) {
        uint64_t x = row_spread(b.s[PIECE_X] >> board_cell(r, 0)), o = row_spread(b.s[PIECE_O] >> board_cell(r, 0));
        uint64_t chars = 0x0101010101010101ULL * '.' + x * ('X' - '.') + o * ('O' - '.');
        memcpy(out + r * n, &chars, 8);
    }
    out[n * n] = '\0';
#else
    int i = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) out[i++] = board_at(b, board_cell(r, c));
    out[i] = '\0';
#endif
}

int notation_parse_cell(const char *s, int n, int *cell, char *err, int errlen)
{
    if (strlen(s) != 2 || s[0] < 'a' || s[0] >= 'a' + n || s[1] < '1' || s[1] >= '1' + n) {
        snprintf(err, (size_t)errlen, "bad cell '%s': a %dx%d board has cells a1 to %c%d", s, n, n, 'a' + n - 1, n);
        return -1;
    }
    *cell = board_cell(s[1] - '1', s[0] - 'a');
    return 0;
}

void notation_format_cell(int cell, char out[3])
{
    out[0] = (char)('a' + cell_col(cell));
    out[1] = (char)('1' + cell_row(cell));
    out[2] = '\0';
}

int notation_parse_move(const char *s, int n, Move *m, char *err, int errlen)
{
    if (s[0] != 'X' && s[0] != 'O') {
        snprintf(err, (size_t)errlen, "bad move '%s': it must start with the symbol X or O, as in Xc3", s);
        return -1;
    }
    int cell;
    char cerr[NOTATION_ERR_LEN];
    if (notation_parse_cell(s + 1, n, &cell, cerr, sizeof cerr) != 0) {
        snprintf(err, (size_t)errlen, "bad move '%s': %s", s, cerr);
        return -1;
    }
    *m = move_make(s[0] == 'X' ? PIECE_X : PIECE_O, cell);
    return 0;
}

void notation_format_move(Move m, char out[4])
{
    out[0] = move_piece(m) == PIECE_X ? 'X' : 'O';
    notation_format_cell(move_cell(m), out + 1);
}
