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

Test(cli, no_command_prints_usage_and_exits_2)
{
    Run r;
    run_argv(&r, (const char *const[]){NULL});
    cr_expect(r.signo == 0, "killed by signal %d", r.signo);
    cr_expect(r.exited && r.code == 2, "exit code %d, expected 2", r.code);
    cr_expect(r.errlen > 0, "expected usage on stderr");
    run_free(&r);
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
    const char *const *cases[] = {ARGS("show", "--help"), ARGS("perft", "--help"), ARGS("help"), ARGS("--help")};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run r;
        expect_ok_v(&r, cases[i]);
        cr_expect(strstr(r.out, "usage") != NULL, "%s: %s", r.desc, r.out);
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

static void canonical_of(const char *pos, char *buf, size_t size)
{
    Run r;
    expect_ok(&r, "show", pos);
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
