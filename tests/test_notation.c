/* test_notation.c - unit tests of engine/notation.h: cells, positions and
 * moves as text, against expectations written out independently of the
 * parser (bit numbers from board.h's layout, strings built by hand). */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../engine/board.h"
#include "../engine/notation.h"

/* Small fixed-seed xorshift64 generator. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rng_next(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

static int rng_below(int n) { return (int)(rng_next() % (uint64_t)n); }

/* An error message: non-empty and a single line. */
static void expect_message(const char *err, const char *what)
{
    cr_expect(err[0] != '\0', "%s: empty error message", what);
    cr_expect(strchr(err, '\n') == NULL, "%s: error message has a newline: [%s]", what, err);
}

static void fill(char *s, int len, char ch)
{
    memset(s, ch, (size_t)len);
    s[len] = '\0';
}

TestSuite(notation);

/* ------------------------------------------------------------------ */
/* Cells                                                               */
/* ------------------------------------------------------------------ */

Test(notation, cell_numbering)
{
    char err[NOTATION_ERR_LEN] = "";
    int cell = -1;
    cr_assert_eq(board_cell(0, 0), 0);
    cr_assert_eq(board_cell(5, 5), 45);
    cr_assert_eq(board_cell(2, 2), 18);

    cr_assert_eq(notation_parse_cell("a1", 6, &cell, err, sizeof err), 0, "%s", err);
    cr_expect_eq(cell, 0, "a1 is bit 0");
    cr_assert_eq(notation_parse_cell("f6", 6, &cell, err, sizeof err), 0, "%s", err);
    cr_expect_eq(cell, 45, "f6 on 6x6 is row 5, column 5 = bit 45");
    cr_assert_eq(notation_parse_cell("b1", 6, &cell, err, sizeof err), 0, "%s", err);
    cr_expect_eq(cell, 1, "letters are columns: b1 is bit 1");
    cr_assert_eq(notation_parse_cell("a2", 6, &cell, err, sizeof err), 0, "%s", err);
    cr_expect_eq(cell, 8, "numbers are rows: a2 is bit 8");
    cr_assert_eq(notation_parse_cell("h8", 8, &cell, err, sizeof err), 0, "%s", err);
    cr_expect_eq(cell, 63);
    cr_assert_eq(notation_parse_cell("d4", 4, &cell, err, sizeof err), 0, "%s", err);
    cr_expect_eq(cell, 27);
    cr_assert_eq(notation_parse_cell("e3", 5, &cell, err, sizeof err), 0, "%s", err);
    cr_expect_eq(cell, 2 * 8 + 4);

    char out[3];
    notation_format_cell(0, out);
    cr_expect_str_eq(out, "a1");
    notation_format_cell(45, out);
    cr_expect_str_eq(out, "f6");
    notation_format_cell(1, out);
    cr_expect_str_eq(out, "b1");
    notation_format_cell(8, out);
    cr_expect_str_eq(out, "a2");
    notation_format_cell(63, out);
    cr_expect_str_eq(out, "h8");
}

Test(notation, every_cell_of_every_size_round_trips)
{
    for (int n = BOARD_MIN_N; n <= BOARD_MAX_N; n++)
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                char text[3] = {(char)('a' + c), (char)('1' + r), '\0'};
                char err[NOTATION_ERR_LEN] = "";
                int cell = -1;
                cr_assert_eq(notation_parse_cell(text, n, &cell, err, sizeof err), 0, "n=%d %s: %s", n, text, err);
                cr_expect_eq(cell, 8 * r + c, "n=%d %s", n, text);
                char out[3];
                notation_format_cell(cell, out);
                cr_expect_str_eq(out, text, "n=%d", n);
            }
}

Test(notation, bad_cells_rejected)
{
    static const struct {
        const char *s;
        int n;
    } bad[] = {{"", 6},   {"a", 6},   {"a0", 6},  {"g1", 6},  {"a7", 6}, {"e1", 4}, {"a5", 4},  {"i1", 8},
               {"a9", 8}, {"A1", 6},  {"1a", 6},  {"a10", 8}, {"a1 ", 6}, {" a1", 6}, {"`1", 6}, {"a/", 6},
               {"f6", 5}, {"h8", 7}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[NOTATION_ERR_LEN] = "";
        int cell = -1;
        cr_expect_eq(notation_parse_cell(bad[i].s, bad[i].n, &cell, err, sizeof err), -1, "'%s' on %dx%d accepted",
                     bad[i].s, bad[i].n, bad[i].n);
        expect_message(err, bad[i].s);
    }
}

/* ------------------------------------------------------------------ */
/* Positions                                                           */
/* ------------------------------------------------------------------ */

Test(notation, first_and_last_characters)
{
    char s[40], err[NOTATION_ERR_LEN] = "";
    Board b;
    int n = 0;
    fill(s, 36, '.');
    s[0] = 'X';
    cr_assert_eq(notation_parse_position(s, 0, &b, &n, err, sizeof err), 0, "%s", err);
    cr_expect_eq(n, 6);
    cr_expect_eq(b.s[PIECE_X], 1ULL, "the first character is a1 = bit 0");
    cr_expect_eq(b.s[PIECE_O], 0ULL);

    fill(s, 36, '.');
    s[35] = 'O';
    s[6] = 'X'; /* a2 */
    cr_assert_eq(notation_parse_position(s, 0, &b, &n, err, sizeof err), 0, "%s", err);
    cr_expect_eq(b.s[PIECE_O], 1ULL << 45, "the last character of a 6x6 is f6 = bit 45");
    cr_expect_eq(b.s[PIECE_X], 1ULL << 8, "the seventh character of a 6x6 is a2 = bit 8");

    fill(s, 16, '.');
    s[15] = 'X';
    s[4] = 'O';
    cr_assert_eq(notation_parse_position(s, 0, &b, &n, err, sizeof err), 0, "%s", err);
    cr_expect_eq(n, 4);
    cr_expect_eq(b.s[PIECE_X], 1ULL << 27, "d4 on 4x4 is bit 27");
    cr_expect_eq(b.s[PIECE_O], 1ULL << 8, "a2 on 4x4 is bit 8");

    char out[NOTATION_POS_LEN];
    Board f = {{(1ULL << 0) | (1ULL << 45), 1ULL << 9}};
    notation_format_position(f, 6, out);
    char want[40];
    fill(want, 36, '.');
    want[0] = 'X';
    want[35] = 'X';
    want[7] = 'O'; /* b2 */
    cr_expect_str_eq(out, want);
}

/* A random position of size n as text, with its bitboards worked out
 * independently of the parser. */
static void random_position(int n, char *s, Board *want)
{
    *want = board_empty();
    int density = rng_below(4); /* some sparse, some full */
    for (int i = 0; i < n * n; i++) {
        int r = rng_below(4);
        char ch = r > density ? '.' : (rng_next() & 1) ? 'X' : 'O';
        s[i] = ch;
        int bit = 8 * (i / n) + (i % n);
        if (ch == 'X') want->s[PIECE_X] |= 1ULL << bit;
        if (ch == 'O') want->s[PIECE_O] |= 1ULL << bit;
    }
    s[n * n] = '\0';
}

Test(notation, random_positions_round_trip)
{
    rng_state = 0x2545F4914F6CDD1DULL;
    for (int iter = 0; iter < 2000; iter++) {
        int n = BOARD_MIN_N + rng_below(BOARD_MAX_N - BOARD_MIN_N + 1);
        char s[NOTATION_POS_LEN];
        Board want;
        random_position(n, s, &want);

        for (int given = 0; given <= 1; given++) {
            char err[NOTATION_ERR_LEN] = "";
            Board b;
            int got_n = -1;
            cr_assert_eq(notation_parse_position(s, given ? n : 0, &b, &got_n, err, sizeof err), 0, "%s: %s", s,
                         err);
            cr_assert_eq(got_n, n, "%s", s);
            cr_assert_eq(b.s[PIECE_X], want.s[PIECE_X], "%s: X bits", s);
            cr_assert_eq(b.s[PIECE_O], want.s[PIECE_O], "%s: O bits", s);
            cr_assert_eq(b.s[PIECE_X] & b.s[PIECE_O], 0ULL);
            cr_assert_eq((b.s[PIECE_X] | b.s[PIECE_O]) & ~board_mask(n), 0ULL, "%s: bit outside the board", s);
            char out[NOTATION_POS_LEN];
            notation_format_position(b, n, out);
            cr_assert_str_eq(out, s);
        }
    }
}

Test(notation, slashes_are_ignored)
{
    rng_state = 0xD1B54A32D192ED03ULL;
    for (int iter = 0; iter < 500; iter++) {
        int n = BOARD_MIN_N + rng_below(BOARD_MAX_N - BOARD_MIN_N + 1);
        char s[NOTATION_POS_LEN];
        Board want;
        random_position(n, s, &want);
        /* the same characters with '/' inserted at random places (also first,
         * last, doubled) */
        char t[4 * NOTATION_POS_LEN];
        int j = 0;
        for (int i = 0; i <= n * n; i++) {
            while (rng_below(3) == 0) t[j++] = '/';
            if (i < n * n) t[j++] = s[i];
        }
        t[j] = '\0';
        char err[NOTATION_ERR_LEN] = "";
        Board b;
        int got_n = -1;
        cr_assert_eq(notation_parse_position(t, 0, &b, &got_n, err, sizeof err), 0, "%s: %s", t, err);
        cr_assert_eq(got_n, n, "%s", t);
        cr_assert(board_equal(b, want), "%s", t);
        cr_assert_eq(notation_parse_position(t, n, &b, &got_n, err, sizeof err), 0, "%s: %s", t, err);
        cr_assert(board_equal(b, want), "%s", t);
    }

    /* the row-separated form from the help text */
    char err[NOTATION_ERR_LEN] = "";
    Board b;
    int n = 0;
    cr_assert_eq(notation_parse_position("XX.OO./....../....../....../....../......", 0, &b, &n, err, sizeof err), 0,
                 "%s", err);
    cr_expect_eq(n, 6);
    cr_expect_eq(b.s[PIECE_X], 0x3ULL);
    cr_expect_eq(b.s[PIECE_O], 0x18ULL);
}

Test(notation, empty_board_forms)
{
    const char *forms[] = {"-", "empty"};
    for (int i = 0; i < 2; i++) {
        char err[NOTATION_ERR_LEN] = "";
        Board b = {{~0ULL, ~0ULL}};
        int n = -1;
        cr_assert_eq(notation_parse_position(forms[i], 0, &b, &n, err, sizeof err), 0, "%s: %s", forms[i], err);
        cr_expect_eq(b.s[PIECE_X], 0ULL, "%s", forms[i]);
        cr_expect_eq(b.s[PIECE_O], 0ULL, "%s", forms[i]);
        cr_expect_eq(n, 6, "%s: the default size is 6", forms[i]);
        for (int m = BOARD_MIN_N; m <= BOARD_MAX_N; m++) {
            b = (Board){{~0ULL, ~0ULL}};
            cr_assert_eq(notation_parse_position(forms[i], m, &b, &n, err, sizeof err), 0, "%s: %s", forms[i], err);
            cr_expect_eq(n, m, "%s with n=%d", forms[i], m);
            cr_expect(board_equal(b, board_empty()), "%s with n=%d", forms[i], m);
        }
    }
    /* not the empty board: look-alikes */
    const char *bad[] = {"--", "Empty", "EMPTY", "empty/", " -", "emptyy"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[NOTATION_ERR_LEN] = "";
        Board b;
        int n;
        cr_expect_eq(notation_parse_position(bad[i], 0, &b, &n, err, sizeof err), -1, "'%s' accepted", bad[i]);
        expect_message(err, bad[i]);
    }
}

Test(notation, size_inferred_from_length)
{
    for (int len = 0; len <= 70; len++) {
        char s[80], err[NOTATION_ERR_LEN] = "";
        fill(s, len, '.');
        Board b;
        int n = -1;
        int want = len == 16 ? 4 : len == 25 ? 5 : len == 36 ? 6 : len == 49 ? 7 : len == 64 ? 8 : 0;
        int rc = notation_parse_position(s, 0, &b, &n, err, sizeof err);
        if (want) {
            cr_expect_eq(rc, 0, "%d cells: %s", len, err);
            cr_expect_eq(n, want, "%d cells", len);
            cr_expect(board_equal(b, board_empty()), "%d cells", len);
        } else {
            cr_expect_eq(rc, -1, "%d cells accepted", len);
            expect_message(err, "bad length");
        }
    }
    /* 30 cells named explicitly, and a 9x9 */
    char s[90], err[NOTATION_ERR_LEN] = "";
    Board b;
    int n;
    fill(s, 30, 'X');
    cr_expect_eq(notation_parse_position(s, 0, &b, &n, err, sizeof err), -1);
    expect_message(err, "30 cells");
    cr_expect(strstr(err, "30") != NULL, "the message names the length: %s", err);
    err[0] = '\0';
    fill(s, 81, '.');
    cr_expect_eq(notation_parse_position(s, 0, &b, &n, err, sizeof err), -1);
    expect_message(err, "81 cells");
}

Test(notation, explicit_size_needs_matching_length)
{
    static const int lens[] = {16, 25, 36, 49, 64, 30, 0, 1};
    for (int n = BOARD_MIN_N; n <= BOARD_MAX_N; n++)
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            char s[80], err[NOTATION_ERR_LEN] = "";
            fill(s, lens[i], '.');
            Board b;
            int got = -1;
            int rc = notation_parse_position(s, n, &b, &got, err, sizeof err);
            if (lens[i] == n * n) {
                cr_expect_eq(rc, 0, "n=%d, %d cells: %s", n, lens[i], err);
                cr_expect_eq(got, n);
            } else {
                cr_expect_eq(rc, -1, "n=%d, %d cells accepted", n, lens[i]);
                expect_message(err, "wrong length");
            }
        }
}

Test(notation, bad_characters_rejected)
{
    static const char bad[] = {'x', 'o', '0', ' ', '#', 'Z', '-', '_', '\t', ',', 'A', '1', '\\', '*'};
    rng_state = 0xBF58476D1CE4E5B9ULL;
    for (size_t i = 0; i < sizeof bad; i++)
        for (int n = BOARD_MIN_N; n <= BOARD_MAX_N; n++) {
            char s[NOTATION_POS_LEN], err[NOTATION_ERR_LEN] = "";
            Board want, b;
            random_position(n, s, &want);
            s[rng_below(n * n)] = bad[i];
            int got;
            cr_expect_eq(notation_parse_position(s, 0, &b, &got, err, sizeof err), -1, "'%c' accepted in %s", bad[i],
                         s);
            expect_message(err, "bad character");
            err[0] = '\0';
            cr_expect_eq(notation_parse_position(s, n, &b, &got, err, sizeof err), -1, "'%c' accepted in %s (n=%d)",
                         bad[i], s, n);
            expect_message(err, "bad character");
        }
    /* lowercase x in an otherwise good 6x6 */
    char s[40], err[NOTATION_ERR_LEN] = "";
    fill(s, 36, '.');
    s[10] = 'x';
    Board b;
    int n;
    cr_expect_eq(notation_parse_position(s, 0, &b, &n, err, sizeof err), -1);
    cr_expect(strchr(err, 'x') != NULL, "the message names the character: %s", err);
}

/* ------------------------------------------------------------------ */
/* Moves                                                               */
/* ------------------------------------------------------------------ */

Test(notation, move_xc3)
{
    char err[NOTATION_ERR_LEN] = "";
    Move m = MOVE_NONE;
    cr_assert_eq(notation_parse_move("Xc3", 6, &m, err, sizeof err), 0, "%s", err);
    cr_expect_eq(move_piece(m), PIECE_X);
    cr_expect_eq(move_cell(m), board_cell(2, 2));
    cr_expect_eq(move_cell(m), 18);
    char out[4];
    notation_format_move(m, out);
    cr_expect_str_eq(out, "Xc3");

    cr_assert_eq(notation_parse_move("Of6", 6, &m, err, sizeof err), 0, "%s", err);
    cr_expect_eq(move_piece(m), PIECE_O);
    cr_expect_eq(move_cell(m), 45);
    notation_format_move(m, out);
    cr_expect_str_eq(out, "Of6");

    notation_format_move(move_make(PIECE_O, 1), out);
    cr_expect_str_eq(out, "Ob1");
    notation_format_move(move_make(PIECE_X, 8), out);
    cr_expect_str_eq(out, "Xa2");
}

Test(notation, every_move_of_every_size_round_trips)
{
    for (int n = BOARD_MIN_N; n <= BOARD_MAX_N; n++)
        for (int sym = 0; sym < 2; sym++)
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) {
                    char text[4] = {sym == PIECE_X ? 'X' : 'O', (char)('a' + c), (char)('1' + r), '\0'};
                    char err[NOTATION_ERR_LEN] = "";
                    Move m = MOVE_NONE;
                    cr_assert_eq(notation_parse_move(text, n, &m, err, sizeof err), 0, "n=%d %s: %s", n, text, err);
                    cr_expect_eq(move_piece(m), sym, "n=%d %s", n, text);
                    cr_expect_eq(move_cell(m), 8 * r + c, "n=%d %s", n, text);
                    char out[4];
                    notation_format_move(m, out);
                    cr_expect_str_eq(out, text, "n=%d", n);
                }
}

Test(notation, bad_moves_rejected)
{
    static const struct {
        const char *s;
        int n;
    } bad[] = {{"", 6},     {"X", 6},    {"O", 6},    {"Xc", 6},   {"Zc3", 6},  {"xc3", 6},  {"oc3", 6},
               {".c3", 6},  {"Xc0", 6},  {"Xg1", 6},  {"Xa7", 6},  {"Xz9", 6},  {"Xc33", 6}, {"XC3", 6},
               {"X3c", 6},  {" Xc3", 6}, {"Xc3 ", 6}, {"XXc3", 6}, {"Xe1", 4},  {"Oa5", 4},  {"Xi1", 8},
               {"Xa9", 8},  {"3", 6},    {"c3", 6},   {"X-c3", 6}, {"Xh8", 7},  {"Of6", 5}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[NOTATION_ERR_LEN] = "";
        Move m = MOVE_NONE;
        cr_expect_eq(notation_parse_move(bad[i].s, bad[i].n, &m, err, sizeof err), -1, "'%s' on %dx%d accepted",
                     bad[i].s, bad[i].n, bad[i].n);
        expect_message(err, bad[i].s);
    }
}
