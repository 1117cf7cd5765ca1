/* test_cli.c - black-box tests of the ocsolve command (OCSOLVE_BIN): every
 * bad input is rejected with exit code 2 and exactly one line on stderr that
 * names the problem; good inputs exit 0 with the expected output.
 *
 * The binary runs as a child process (runbin.c: fork + execv, no shell).
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runbin.h"

TestSuite(cli, .timeout = 120);

Test(cli, reject_bad_position_character)
{
    char p[40];
    make_pos(p, 6);
    p[7] = 'x'; /* lowercase: not a symbol */
    expect_reject("'x'", "show", p);
    p[7] = 'Q';
    expect_reject("'Q'", "show", p);
    p[7] = '.';
    p[0] = '#';
    expect_reject("'#'", "perft", "1", p);
}

Test(cli, reject_wrong_position_length)
{
    char p[40];
    make_pos(p, 6);
    p[35] = '\0'; /* 35 cells */
    expect_reject("35", "show", p);
    expect_reject("35", "perft", "1", p);
    char q[20];
    make_pos(q, 4); /* 16 cells, but --board 6 */
    expect_reject("16", "show", "--board", "6", q);
    expect_reject("16", "perft", "--board", "6", "1", q);
    /* nothing at all, or only separators */
    expect_reject("0 cells", "show", "");
    expect_reject("0 cells", "show", "//");
    /* 37 cells */
    char r[40];
    make_pos(r, 6);
    strcat(r, "X");
    expect_reject("37", "show", r);
}

Test(cli, reject_bad_move_cell)
{
    expect_reject("'z9'", "show", "empty", "Xz9");
    expect_reject("'g1'", "show", "empty", "Xg1");      /* off a 6x6 board */
    expect_reject("'e1'", "show", "--board", "4", "--k", "4", "empty", "Xe1"); /* off a 4x4 board */
    expect_reject("'a0'", "show", "empty", "Xa0");
    expect_reject("a7", "show", "-", "Oa7");
    expect_reject("Xa", "show", "-", "Xa");
    expect_reject("Xc33", "show", "-", "Xc33");
    expect_reject("Xa0", "perft", "1", "-", "Xa0");
}

Test(cli, reject_bad_move_symbol)
{
    expect_reject("'Zc3'", "show", "empty", "Zc3");
    expect_reject("xc3", "show", "empty", "xc3");
    expect_reject("Zc3", "perft", "1", "empty", "Zc3");
}

Test(cli, reject_occupied_cell)
{
    char p[40];
    make_pos(p, 6);
    p[0] = 'X'; /* X at a1 */
    expect_reject("occupied", "show", p, "Oa1");
    expect_reject("occupied", "show", "-", "Xc3", "Oc3");
    expect_reject("occupied", "perft", "1", "-", "Xb2", "Ob2");
}

Test(cli, reject_move_after_game_over)
{
    char p[40];
    make_pos(p, 6);
    for (int c = 0; c < 5; c++) p[c] = 'X'; /* a1..e1: five X, Order has won */
    expect_reject("over", "show", p, "Of6");
    expect_reject("over", "perft", "1", p, "Of6");
    /* the win made by the moves themselves */
    expect_reject("over", "show", "-", "Xa1", "Xa2", "Xa3", "Xa4", "Xa5", "Ob6");
    /* a full 4x4 board with no line of 4: Chaos has won, and there is no cell */
    expect_reject("over", "show", "--k", "4", "XXOO/OOXX/XXO./OOXX", "Od3", "Xa1");
}

Test(cli, reject_unknown_rules)
{
    expect_reject("'foo'", "show", "--rules", "foo", "empty");
    expect_reject("foo", "perft", "--rules", "foo", "1");
    expect_reject("'foo'", "perft", "--rules=foo", "1");
    expect_reject("Exact", "show", "--rules", "Exact", "-");
}

Test(cli, reject_k_larger_than_board)
{
    expect_reject("k=5", "show", "--board", "4", "--k", "5", "empty");
    expect_reject("k=5", "show", "--board", "4", "empty"); /* default k = 5 */
    expect_reject("k=5", "perft", "--board", "4", "1");
    char q[20];
    make_pos(q, 4); /* size 4 from the position, default k */
    expect_reject("k=5", "show", q);
    expect_reject("k=6", "perft", "--board", "5", "--k", "6", "1");
}

Test(cli, reject_board_size_out_of_range)
{
    expect_reject("board size 3", "show", "--board", "3", "empty");
    expect_reject("board size 9", "show", "--board", "9", "empty");
    expect_reject("board", "perft", "--board", "0", "1");
    expect_reject("9", "perft", "--board=9", "1");
}

Test(cli, reject_bad_numbers)
{
    expect_reject("'abc'", "perft", "abc");
    expect_reject("1x", "perft", "1x");
    expect_reject("-1", "perft", "-1");
    expect_reject("-1", "perft", "--", "-1");
    expect_reject("'six'", "show", "--board", "six", "empty");
    expect_reject("k", "show", "--k", "", "empty");
    expect_reject("''", "show", "--k", "", "empty");
    expect_reject("+3", "perft", "+3");
    expect_reject("3.0", "perft", "3.0");
    expect_reject("99999999999999999999999", "perft", "99999999999999999999999");
    expect_reject("65", "perft", "65"); /* depth out of range */
    expect_reject("2", "show", "--k", "2", "empty");
}

Test(cli, reject_unknown_option)
{
    expect_reject("'--frobnicate'", "show", "--frobnicate", "empty");
    expect_reject("frobnicate", "perft", "--frobnicate", "1");
    expect_reject("frobnicate", "perft", "1", "--frobnicate"); /* after the operands */
    expect_reject("'-z'", "show", "-z", "empty");
    expect_reject("-z", "perft", "-z", "1");
}

Test(cli, reject_option_missing_value)
{
    expect_reject("'--rules'", "show", "empty", "--rules");
    expect_reject("rules", "perft", "1", "--rules");
    expect_reject("board", "show", "empty", "--board");
    expect_reject("k", "perft", "1", "--k");
}

Test(cli, reject_missing_arguments)
{
    expect_reject("POSITION", "show");
    expect_reject("DEPTH", "perft");
    expect_reject("POSITION", "show", "--board", "6");
    expect_reject("DEPTH", "perft", "--rules", "exact");
}

Test(cli, reject_unknown_command)
{
    expect_reject("'frob'", "frob");
    expect_reject("solve-everything", "solve-everything", "1");
    expect_reject("SHOW", "SHOW", "empty");
}

/* No command is an error like any other: one line on stderr (not the
 * usage, which 'ocsolve help' prints on stdout), exit code 2. */
Test(cli, no_command_is_one_line)
{
    expect_reject_v("no command given", (const char *const[]){NULL});
    expect_reject_v("ocsolve help", (const char *const[]){NULL});
}

/* ------------------------------------------------------------------ */
/* Good inputs                                                         */
/* ------------------------------------------------------------------ */

static const char EMPTY36[] = "....................................";

Test(cli, show_empty_board)
{
    cr_assert_eq(strlen(EMPTY36), 36);
    const char *forms[] = {"empty", "-"};
    for (int i = 0; i < 2; i++) {
        Run r;
        char buf[128];
        expect_ok(&r, "show", forms[i]);
        cr_expect_str_eq(line_value(r.out, "position: ", buf, sizeof buf), EMPTY36, "show %s", forms[i]);
        cr_expect_str_eq(line_value(r.out, "canonical: ", buf, sizeof buf), EMPTY36, "show %s", forms[i]);
        cr_expect_str_eq(line_value(r.out, "status: ", buf, sizeof buf), "ongoing, Order to move", "show %s",
                         forms[i]);
        cr_expect(strstr(r.out, "6x6, k=5") != NULL, "show %s: %s", forms[i], r.out);
        run_free(&r);
    }
}

Test(cli, show_position_with_separators)
{
    Run r;
    char buf[128];
    expect_ok(&r, "show", "XX.OO./....../....../....../....../.....O");
    char want[40];
    make_pos(want, 6);
    want[0] = want[1] = 'X';
    want[3] = want[4] = 'O';
    want[35] = 'O';
    cr_expect_str_eq(line_value(r.out, "position: ", buf, sizeof buf), want);
    cr_expect_str_eq(line_value(r.out, "status: ", buf, sizeof buf), "ongoing, Chaos to move");
    cr_expect(strstr(r.out, "pieces: 5 (X 2, O 3)") != NULL, "%s", r.out);
    run_free(&r);
}

Test(cli, show_applies_moves)
{
    Run r;
    char buf[128];
    /* c3 = row 3, column c; b1 = row 1, column b; f6 = the bottom-right corner */
    expect_ok(&r, "show", "-", "Xc3", "Ob1", "Xf6");
    char want[40];
    make_pos(want, 6);
    want[2 * 6 + 2] = 'X';
    want[0 * 6 + 1] = 'O';
    want[5 * 6 + 5] = 'X';
    cr_expect_str_eq(line_value(r.out, "position: ", buf, sizeof buf), want);
    static const char typed[] = ".O" "............" "X" "...................." "X"; /* the same, typed out */
    cr_expect_eq(strlen(typed), 36);
    cr_expect_str_eq(want, typed);
    cr_expect_str_eq(line_value(r.out, "status: ", buf, sizeof buf), "ongoing, Chaos to move");
    run_free(&r);

    /* moves on top of a given position, on a 5x5 board */
    expect_ok(&r, "show", "--board", "5", "O......................../", "Xe5", "Oa5");
    char want5[30];
    make_pos(want5, 5);
    want5[0] = 'O';
    want5[24] = 'X';
    want5[20] = 'O';
    cr_expect_str_eq(line_value(r.out, "position: ", buf, sizeof buf), want5);
    cr_expect_str_eq(line_value(r.out, "status: ", buf, sizeof buf), "ongoing, Chaos to move");
    run_free(&r);
}

Test(cli, perft_empty_6x6)
{
    Run r;
    char buf[128];
    /* 36 cells x 2 symbols: 72 * 70 * 68 (no line of five within 3 moves) */
    expect_ok(&r, "perft", "3");
    cr_expect_str_eq(last_line(r.out, buf, sizeof buf), "perft 3 = 342720");
    cr_expect_eq(72L * 70 * 68, 342720L);
    run_free(&r);

    expect_ok(&r, "perft", "0");
    cr_expect_str_eq(last_line(r.out, buf, sizeof buf), "perft 0 = 1");
    run_free(&r);

    expect_ok(&r, "perft", "1", "-", "Xa1");
    cr_expect_str_eq(last_line(r.out, buf, sizeof buf), "perft 1 = 70");
    run_free(&r);

    const char *methods[] = {"full", "bulk", "memo"};
    for (int i = 0; i < 3; i++) {
        expect_ok(&r, "perft", "--method", methods[i], "2");
        cr_expect_str_eq(last_line(r.out, buf, sizeof buf), "perft 2 = 5040", "method %s", methods[i]);
        run_free(&r);
    }
}

Test(cli, perft_exact_4x4)
{
    Run r;
    char buf[128];
    /* 16 cells x 2 symbols, then 15 x 2: no line of 4 in 2 moves */
    expect_ok(&r, "perft", "--rules", "exact", "--board", "4", "--k", "4", "2");
    cr_expect_str_eq(last_line(r.out, buf, sizeof buf), "perft 2 = 960");
    run_free(&r);
}

Test(cli, help_texts)
{
    const char *const *cases[] = {ARGS("show", "--help"), ARGS("perft", "--help"), ARGS("random", "--help"),
                                  ARGS("help"),           ARGS("--help"),          ARGS("-h")};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run r;
        expect_ok_v(&r, cases[i]);
        cr_expect(strstr(r.out, "usage") != NULL, "%s: %s", r.desc, r.out);
        if (i >= 3) cr_expect(strstr(r.out, "commands:") != NULL, "%s: the whole usage: %s", r.desc, r.out);
        cr_expect(r.errlen == 0, "%s: stderr: %s", r.desc, r.err);
        run_free(&r);
    }
}

Test(cli, finished_position_order_wins)
{
    char p[40];
    make_pos(p, 6);
    for (int c = 1; c < 6; c++) p[2 * 6 + c] = 'X'; /* b3..f3 */
    Run r;
    char buf[128];
    expect_ok(&r, "perft", "1", p);
    cr_expect_str_eq(last_line(r.out, buf, sizeof buf), "perft 1 = 0");
    run_free(&r);
    expect_ok(&r, "perft", "3", p);
    cr_expect_str_eq(last_line(r.out, buf, sizeof buf), "perft 3 = 0");
    run_free(&r);
    expect_ok(&r, "show", p);
    cr_expect(strstr(r.out, "Order has won") != NULL, "%s", r.out);
    run_free(&r);
    /* a column of five O made by moves */
    expect_ok(&r, "show", "-", "Od2", "Od3", "Od4", "Od5", "Od6");
    cr_expect(strstr(r.out, "Order has won") != NULL, "%s", r.out);
    run_free(&r);
    /* four X do not win with k = 5 */
    expect_ok(&r, "show", "-", "Xa1", "Xb1", "Xc1", "Xd1");
    cr_expect(strstr(r.out, "Order has won") == NULL, "%s", r.out);
    cr_expect_str_eq(line_value(r.out, "status: ", buf, sizeof buf), "ongoing, Order to move");
    run_free(&r);
}

Test(cli, finished_position_chaos_wins)
{
    Run r;
    char buf[128];
    /* full 4x4 board, no four in a row, column or diagonal */
    expect_ok(&r, "show", "--k", "4", "XXOO/OOXX/XXOO/OOXX");
    cr_expect(strstr(r.out, "Chaos has won") != NULL, "%s", r.out);
    run_free(&r);
    expect_ok(&r, "perft", "--k", "4", "1", "XXOO/OOXX/XXOO/OOXX");
    cr_expect_str_eq(last_line(r.out, buf, sizeof buf), "perft 1 = 0");
    run_free(&r);
}

/* Under exact-end: the canonical form does not depend on the rules
 * (cmd_show.c: sym_canonical of the board alone), and there show skips the
 * centre lemma, whose half-full pair on a lone corner piece costs 3 s a
 * call under original. */
static void canonical_of(const char *pos, char *buf, size_t size)
{
    Run r;
    expect_ok(&r, "show", "--rules", "exact-end", pos);
    line_value(r.out, "canonical: ", buf, size);
    cr_assert(buf[0] != '\0', "show %s printed no canonical line: %s", pos, r.out);
    run_free(&r);
}

Test(cli, canonical_of_symmetric_positions)
{
    char a1x[40], f6x[40], a1o[40], f1x[40], b1x[40];
    make_pos(a1x, 6);
    make_pos(f6x, 6);
    make_pos(a1o, 6);
    make_pos(f1x, 6);
    make_pos(b1x, 6);
    a1x[0] = 'X';
    f6x[35] = 'X';
    a1o[0] = 'O';
    f1x[5] = 'X';
    b1x[1] = 'X';
    char c1[64], c2[64], c3[64], c4[64], c5[64];
    canonical_of(a1x, c1, sizeof c1);
    canonical_of(f6x, c2, sizeof c2);
    canonical_of(a1o, c3, sizeof c3);
    canonical_of(f1x, c4, sizeof c4);
    canonical_of(b1x, c5, sizeof c5);
    cr_expect_str_eq(c1, c2, "X at a1 and X at f6 are symmetric");
    cr_expect_str_eq(c1, c3, "X at a1 and O at a1 are symmetric");
    cr_expect_str_eq(c1, c4, "X at a1 and X at f1 are symmetric");
    cr_expect_str_neq(c1, c5, "X at a1 and X at b1 are not symmetric");
    /* the canonical form is itself one of the images: one piece on a corner */
    cr_expect_eq(strlen(c1), 36);
    int pieces = 0, where = -1;
    for (int i = 0; c1[i]; i++)
        if (c1[i] != '.') pieces++, where = i;
    cr_expect_eq(pieces, 1, "canonical %s", c1);
    cr_expect(where == 0 || where == 5 || where == 30 || where == 35, "canonical %s: piece not on a corner", c1);
}

/* ------------------------------------------------------------------ */
/* Once bugs: user input in a message, and a value given to a flag      */
/* ------------------------------------------------------------------ */

/* The error line quotes user input, which may hold a newline: it must
 * still be one line. */
Test(cli, reject_input_with_newline_is_one_line)
{
    expect_reject("position", "show", "XX\nX");
    expect_reject("rules", "show", "--rules", "fo\no", "empty");
    expect_reject("command", "fr\nob");
    expect_reject("move", "show", "empty", "X\n1");
}

/* `--help=x` must name --help (glibc's getopt_long reports it through
 * optopt, which once made it read as the short option '-h'). */
Test(cli, reject_value_for_flag_names_the_option)
{
    expect_reject("--help", "show", "--help=x", "empty");
    expect_reject("--help", "perft", "--help=1", "1");
}

/* An unknown short option in a bundle ("-xy") once was reported against
 * the word before it: getopt has not moved optind past a bundle it is
 * still reading, so argv[optind - 1] was "--quiet" and the message said
 * "option '--quiet' takes no value". */
Test(cli, reject_unknown_short_option_in_bundle)
{
    expect_reject("unknown option '-x'", "solve", "--quiet", "-xy");
    expect_reject("unknown option '-x'", "solve", "--json", "-xyz", "empty");
    expect_reject("unknown option '-x'", "show", "--rules=exact", "-xy", "empty"); /* the word before has a '=' */
    expect_reject("unknown option '-z'", "perft", "--method=full", "-zq", "1");
    expect_reject("unknown option '-x'", "perft", "1", "-xy");
    expect_reject("unknown option '-x'", "show", "-xh", "empty"); /* -h after the fault: not help */
    expect_reject("unknown option '-q'", "random", "--seed", "3", "-qq", "5");
    expect_reject("unknown option '-x'", "show", "empty", "-x"); /* alone, last */
    expect_reject("unknown option '-x'", "show", "-", "-x");
    expect_reject("unknown option in '-\xc3\xa9'", "show", "-\xc3\xa9", "empty"); /* not a character to quote alone */
}

/* Each kind of option fault names the option as typed. */
Test(cli, reject_option_faults_name_the_option)
{
    expect_reject("unknown option '--bogus'", "solve", "--bogus");
    expect_reject("unknown option '--bogus'", "solve", "--bogus=3");
    expect_reject("unknown option '--bogus'", "random", "--seed", "3", "--bogus", "-xy", "5");
    expect_reject("option '--quiet' takes no value", "solve", "--quiet=3");
    expect_reject("option '--help' takes no value", "random", "--help=x", "-hx", "5");
    expect_reject("option '--tt-mb' needs a value", "solve", "--tt-mb");
    expect_reject("option '--seed' needs a value", "random", "5", "--seed");
    expect_reject("option '--method' needs a value", "perft", "1", "--method");
    expect_reject("--centre-half-mb", "solve", "--centre-half-mb", "0", "-");
    expect_reject("--centre-half-mb", "jobs", "--centre-half-mb", "x", "-");
}

/* With k = 3 on a 7x7 or 8x8 board, random play nearly always makes a
 * line long before one empty cell is left, and `random` once restarted it
 * for ever. Now a search finds such positions: they must be ongoing and
 * have the empty cells asked for. (A hang is caught by runbin's alarm.) */
static void expect_random_positions(int n, const char *rules, int empty, const char *const *args, int count)
{
    Run r;
    expect_ok_v(&r, args);
    int lines = 0;
    for (char *line = r.out; *line; lines++) {
        char *nl = strchr(line, '\n');
        cr_assert(nl != NULL, "%s: unterminated line: %s", r.desc, line);
        *nl = '\0';
        cr_expect_eq((int)strlen(line), n * n, "%s: %s", r.desc, line);
        int dots = 0;
        for (char *c = line; *c; c++) dots += *c == '.';
        cr_expect_eq(dots, empty, "%s: %s", r.desc, line);
        char nb[4];
        snprintf(nb, sizeof nb, "%d", n);
        Run s;
        char buf[128];
        expect_ok(&s, "show", "--board", nb, "--k", "3", "--rules", rules, line);
        cr_expect(strncmp(line_value(s.out, "status: ", buf, sizeof buf), "ongoing", 7) == 0, "%s: %s: %s", r.desc,
                  line, s.out);
        run_free(&s);
        line = nl + 1;
    }
    cr_expect_eq(lines, count, "%s: %s", r.desc, r.out);
    run_free(&r);
}

Test(cli, random_few_empty_cells_with_k3_ends)
{
    expect_random_positions(8, "original", 1, ARGS("random", "--board", "8", "--k", "3", "1"), 1);
    expect_random_positions(7, "original", 1, ARGS("random", "--board", "7", "--k", "3", "1", "2"), 2);
    expect_random_positions(7, "exact", 2,
                            ARGS("random", "--board", "7", "--k", "3", "--rules", "exact", "--seed", "9", "2"), 1);
}

/* `random` with a seed prints what it always printed (committed suites
 * were made with it): the first two positions of bench/suite-original.txt
 * (scripts/make-suite original 10 2026), and other boards and rules. */
Test(cli, random_output_unchanged)
{
    const struct {
        const char *const *args;
        const char *out;
    } cases[] = {
        {ARGS("random", "--seed", "202614", "14", "2"),
         ".OO.XO.OOO...OX.OOXX.XO.X.X.XOO.O..X\nXO...X.XXXOXXOOOX..X.XX..X..X..X.OOO\n"},
        {ARGS("random", "--seed", "7", "20", "3"),
         "...XO.OO...XX.X.X.O.XO..XX.O.O.....O\nXX...XXX....OX.O.OOX..O...O...X..OX.\n"
         ".OOOO.OXO..X.OO......XX.O.X......XX.\n"},
        {ARGS("random", "30", "3"), "...........X.....X...XXX..X.........\n....O........O......O.....X....OO...\n"
                                    ".........X.........X.....XX...X.X...\n"},
        {ARGS("random", "--board", "7", "--k", "4", "--rules", "exact-end", "--seed", "99", "10", "2"),
         "XXXXOOX.XXXXOO..XOX.XOXOXXOXXX..XXOX.OO.XOXO.XOX.\nXXXOOO.XOO.OXO.OXXX.XO.OXOOOXXOOXXOOXXO..O.XOX..O\n"},
        {ARGS("random", "--board", "5", "--k", "3", "--seed", "3", "4", "2"),
         "OXOXOX.OOXXX.OX.OOX.OXOXX\nOOXX.XXOOXO.OXO.X.XXOXXOX\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run r;
        expect_ok_v(&r, cases[i].args);
        cr_expect_str_eq(r.out, cases[i].out, "%s", r.desc);
        run_free(&r);
    }
}

/* Seconds and real numbers go through one strict check (cli_seconds,
 * cli_real): --time-limit " 1" was accepted (strtod skips spaces) where
 * --tt-mb " 1" was refused. */
Test(cli, reject_bad_seconds_and_reals)
{
    /* the empty 4x4 board, k = 4: solved at once, should a bad value get through */
    static const char *const bad_seconds[] = {" 1", "1 ", "", "inf", "nan", "0x1p3", "+1", "-1", "-0",
                                              "0",  "1e10", "1,5", "1e", ".", "1e+", "1e3x", "1000000001"};
    for (size_t i = 0; i < sizeof bad_seconds / sizeof bad_seconds[0]; i++) {
        expect_reject("--time-limit", "solve", "--tt-mb", "1", "--time-limit", bad_seconds[i], "--board", "4", "--k",
                      "4");
        expect_reject("--progress-every", "solve", "--tt-mb", "1", "--progress-every", bad_seconds[i], "--board", "4",
                      "--k", "4");
    }
    static const char *const bad_eps[] = {" 1", "1 ", "",   "inf",     "nan",   "0x1p3",
                                          "+1", "-1", "-0", "10.0001", "1e999", "11"};
    for (size_t i = 0; i < sizeof bad_eps / sizeof bad_eps[0]; i++)
        expect_reject("--epsilon", "solve", "--tt-mb", "1", "--epsilon", bad_eps[i], "--board", "4", "--k", "4");
    /* the message says what is wrong */
    expect_reject("plain decimal", "solve", "--time-limit", " 1");
    expect_reject("> 0", "solve", "--time-limit", "0");
    expect_reject("from 0 to 10", "solve", "--epsilon", "11");
    /* plain decimals are taken */
    static const char *const good_seconds[] = {"1", "0.5", "2.", ".5", "1e3", "2.5E-1", "1e9"};
    static const char *const good_eps[] = {"0", "0.5", "10", "10.", ".5", "1e1", "0e5"};
    for (size_t i = 0; i < sizeof good_seconds / sizeof good_seconds[0]; i++) {
        Run r;
        expect_ok(&r, "solve", "--quiet", "--tt-mb", "1", "--time-limit", good_seconds[i], "--epsilon", good_eps[i],
                  "--board", "4", "--k", "4");
        run_free(&r);
    }
}
