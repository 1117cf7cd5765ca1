/* test_play_gtp.c - `ocsolve play --protocol`, suite play_gtp: GTP version
 * 2 as a GTP client sees it, through the strict client of play_session.h:
 * the framing of every response (ids echoed, one empty line after each,
 * nothing more), the preprocessing of input (control characters, tabs,
 * comments, empty lines, very long lines), the administrative commands,
 * boardsize and clear_board, the forms of play, showboard, extra and
 * missing words, think's limits and genmove with a symbol. The suite is
 * declared here once, and its options hold for its test in
 * test_play_claims.c too (genmove with a symbol against the brute force). */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play_session.h"
#include "ref.h"

TestSuite(play_gtp, .timeout = 300, .init = ps_no_sigpipe);

/* Sends line (len bytes, its newline included) as it is, and reads the
 * response with id ("" none). */
static bool raw(Session *s, const char *line, size_t len, const char *id, char *text, size_t size)
{
    ps_send(s, line, len);
    return ps_response(s, line, id, text, size);
}
#define RAW(s, lit, id, text) raw((s), (lit), sizeof(lit) - 1, (id), (text), sizeof(text))

/* Commands without ids: "= " or "? ", the text, and an empty line after
 * every one (ps_response() reads exactly one); quit answers "= " and the
 * empty line, and nothing follows. */
Test(play_gtp, every_response_ends_with_an_empty_line)
{
    Session s;
    PS_START(&s, "--protocol", "--think", "0.5");
    static const char *const cmds[] = {"showboard", "play Xc3", "frobnicate", "play Xc3", "list_commands",
                                       "genmove",   "undo",     "protocol_version", "name"};
    char text[4096], line[64];
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        snprintf(line, sizeof line, "%s\n", cmds[i]);
        raw(&s, line, strlen(line), "", text, sizeof text);
    }
    ps_send(&s, "quit\nshowboard\n", 15);
    char rest[256];
    cr_expect_eq(ps_finish(&s, rest, sizeof rest), 0, "exit code after quit");
    cr_expect_str_eq(rest, "= \n\n", "quit's response is '= ' and an empty line, then nothing");
}

/* quit with an id: "=ID " and the empty line; the session ends there. */
Test(play_gtp, quit_with_an_id)
{
    Session s;
    PS_START(&s, "--protocol");
    ps_send(&s, "8 quit\nshowboard\n", 17);
    char rest[256];
    cr_expect_eq(ps_finish(&s, rest, sizeof rest), 0, "exit code after quit");
    cr_expect_str_eq(rest, "=8 \n\n");
}

/* A numeric id before the command is echoed after '=' or '?', for every
 * kind of response, also ids of odd shape (0, leading zeros, large). */
Test(play_gtp, ids_are_echoed)
{
    Session s;
    PS_START(&s, "--protocol", "--think", "0.5");
    char text[2048];
    cr_expect(RAW(&s, "1 protocol_version\n", "1", text));
    cr_expect_str_eq(text, "2");
    cr_expect(RAW(&s, "0 name\n", "0", text));
    cr_expect(RAW(&s, "007 known_command play\n", "007", text));
    cr_expect_str_eq(text, "true");
    cr_expect(RAW(&s, "4294967295 showboard\n", "4294967295", text));
    cr_expect(!RAW(&s, "12 frobnicate\n", "12", text));
    cr_expect(strstr(text, "unknown command") != NULL, "[%s]", text);
    cr_expect(!RAW(&s, "13\n", "13", text), "an id alone is no command");
    cr_expect(!RAW(&s, "14 play Xz9\n", "14", text));
    cr_expect(RAW(&s, "15 play Xc3\n", "15", text));
    cr_expect_str_eq(text, "ongoing");
    cr_expect(!RAW(&s, "16 play Oc3\n", "16", text));
    cr_expect(RAW(&s, "17 genmove\n", "17", text));
    cr_expect(RAW(&s, "18 undo\n", "18", text));
    cr_expect(!RAW(&s, "19 showboard now\n", "19", text));
    cr_expect(RAW(&s, "20 quit\n", "20", text));
    cr_expect_eq(ps_finish(&s, NULL, 0), 0);
}

/* The administrative commands every GTP engine has, and komi (GTP lists
 * it among them; Order and Chaos has none, so it is accepted only). */
Test(play_gtp, administrative_commands)
{
    Session s;
    PS_START(&s, "--protocol");
    char text[2048], list[2048], cmd[64];
    cr_expect_str_eq(ps_ask(&s, "protocol_version", text, sizeof text), "2");
    cr_expect_str_eq(ps_ask(&s, "name", text, sizeof text), "ocsolve");
    ps_ask(&s, "version", text, sizeof text);
    cr_expect(text[0] != '\0' && strchr(text, '\n') == NULL, "version: [%s]", text);
    ps_ask(&s, "list_commands", list, sizeof list);
    static const char *const need[] = {"protocol_version", "name", "version", "known_command", "list_commands",
                                       "quit", "boardsize", "clear_board", "komi", "play", "genmove",
                                       "showboard", "undo", "newgame", "solve", "think"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        cr_expect(ps_has_line(list, need[i]), "list_commands lacks %s (one command per line): [%s]", need[i], list);
    /* Every line one command, none twice, each known. */
    const char *names[64];
    int lines = 0;
    for (char *l = strtok(list, "\n"); l && lines < 64; l = strtok(NULL, "\n"), lines++) {
        cr_expect(strchr(l, ' ') == NULL, "list_commands line [%s] is not one command", l);
        for (int i = 0; i < lines; i++) cr_expect(strcmp(names[i], l) != 0, "list_commands lists %s twice", l);
        names[lines] = l;
        snprintf(cmd, sizeof cmd, "known_command %s", l);
        cr_expect_str_eq(ps_ask(&s, cmd, text, sizeof text), "true", "%s", cmd);
    }
    cr_expect_eq(lines, (int)(sizeof need / sizeof need[0]), "list_commands lists %d commands", lines);
    cr_expect_str_eq(ps_ask(&s, "known_command frobnicate", text, sizeof text), "false");
    cr_expect_str_eq(ps_ask(&s, "known_command PLAY", text, sizeof text), "false", "command names are case sensitive");
    ps_expect_error(&s, "known_command", "syntax error");
    cr_expect_str_eq(ps_ask(&s, "komi 6.5", text, sizeof text), "");
    cr_expect_str_eq(ps_ask(&s, "komi -2", text, sizeof text), "");
    ps_expect_error(&s, "komi lots", "syntax error");
    cr_expect_eq(ps_finish(&s, NULL, 0), 0);
}

/* boardsize N: the empty N x N board under the same rules, the k asked
 * for (--k, newgame) where it fits and else N; "unacceptable size" off
 * 4..8; clear_board: the empty board. The test's own board (RefPos)
 * checks the game's k by where a line first wins. */
Test(play_gtp, boardsize_and_clear_board)
{
    Session s;
    PS_START(&s, "--protocol", "--rules", "exact", "--think", "0.5");
    char text[2048];
    RefPos p;
    cr_expect_str_eq(ps_ask(&s, "boardsize 5", text, sizeof text), "");
    ps_ref_empty(&p, 5, 5, REF_EXACT);
    ps_expect_board(&s, &p, -1);
    cr_expect_str_eq(ps_ask(&s, "newgame", text, sizeof text), "exact 5 5", "the rules and k = 5 are kept");
    cr_expect_str_eq(ps_ask(&s, "boardsize 4", text, sizeof text), "");
    ps_ref_empty(&p, 4, 4, REF_EXACT);
    ps_expect_board(&s, &p, -1);
    /* k is now 4: Order's line a1-d1 wins on its fourth X, not its third. */
    ps_play_both(&s, &p, "Xa1");
    ps_play_both(&s, &p, "Oa4");
    ps_play_both(&s, &p, "Xb1");
    ps_play_both(&s, &p, "Ob4");
    ps_play_both(&s, &p, "Xc1");
    ps_play_both(&s, &p, "Oa3");
    ps_play_both(&s, &p, "Xd1");
    cr_expect_eq(ref_status(&p), REF_ORDER_WINS);
    static const char *const sizes[] = {"boardsize 3", "boardsize 9", "boardsize 0", "boardsize 100",
                                        "boardsize 99999999999"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) ps_expect_error(&s, sizes[i], "unacceptable size");
    ps_expect_error(&s, "boardsize six", "syntax error");
    ps_expect_error(&s, "boardsize -6", "syntax error");
    ps_expect_board(&s, &p, 3); /* the failures changed nothing */
    cr_expect_str_eq(ps_ask(&s, "clear_board", text, sizeof text), "");
    ps_ref_empty(&p, 4, 4, REF_EXACT);
    ps_expect_board(&s, &p, -1);
    ps_expect_error(&s, "undo", "cannot undo");
    /* boardsize 4 cut k to 4 but did not forget the 5 asked for. */
    cr_expect_str_eq(ps_ask(&s, "boardsize 8", text, sizeof text), "");
    ps_ref_empty(&p, 8, 5, REF_EXACT);
    ps_expect_board(&s, &p, -1);
    ps_play_both(&s, &p, "Xh8");
    ps_expect_board(&s, &p, 63);
    cr_expect_str_eq(ps_ask(&s, "newgame", text, sizeof text), "exact 8 5");
    /* newgame's k is the one asked for from then on. */
    cr_expect_str_eq(ps_ask(&s, "newgame original 7 3", text, sizeof text), "original 7 3");
    cr_expect_str_eq(ps_ask(&s, "boardsize 5", text, sizeof text), "");
    cr_expect_str_eq(ps_ask(&s, "newgame", text, sizeof text), "original 5 3");
    cr_expect_eq(ps_finish(&s, NULL, 0), 0);
}

/* GTP's play COLOR VERTEX as play SYMBOL CELL, the compact play MOVE, the
 * vertex in either case; a bad symbol or cell is a syntax error, an
 * occupied cell or a finished game an illegal move. */
Test(play_gtp, play_forms)
{
    Session s;
    PS_START(&s, "--protocol", "--board", "4", "--k", "3");
    RefPos p;
    ps_ref_empty(&p, 4, 3, REF_ORIGINAL);
    char text[2048];
    cr_expect_str_eq(ps_ask(&s, "play X c3", text, sizeof text), "ongoing");
    p.cell[2 * 4 + 2] = 'X';
    cr_expect_str_eq(ps_ask(&s, "play o D4", text, sizeof text), "ongoing");
    p.cell[3 * 4 + 3] = 'O';
    cr_expect_str_eq(ps_ask(&s, "play xA1", text, sizeof text), "ongoing");
    p.cell[0] = 'X';
    ps_expect_board(&s, &p, 0);
    ps_expect_error(&s, "play black c2", "syntax error");
    ps_expect_error(&s, "play b c2", "syntax error");
    ps_expect_error(&s, "play X z9", "syntax error");
    ps_expect_error(&s, "play X pass", "syntax error");
    ps_expect_error(&s, "play O c3", "illegal move");
    ps_expect_error(&s, "play Oc3", "illegal move");
    ps_play_both(&s, &p, "Ob1");
    ps_play_both(&s, &p, "Xb2");
    cr_assert_eq(ref_status(&p), REF_ORDER_WINS); /* a1 b2 c3 */
    ps_expect_error(&s, "play O d1", "illegal move");
    ps_expect_board(&s, &p, 5);
    cr_expect_eq(ps_finish(&s, NULL, 0), 0);
}

/* showboard: the position line, then the board drawn, the last move in
 * brackets, all within the one response. */
Test(play_gtp, showboard_draws_the_board)
{
    Session s;
    PS_START(&s, "--protocol", "--think", "0.5");
    RefPos p;
    ps_ref_empty(&p, 6, 5, REF_ORIGINAL);
    ps_expect_board(&s, &p, -1);
    ps_play_both(&s, &p, "Xf6");
    ps_expect_board(&s, &p, 35);
    ps_play_both(&s, &p, "Oa1");
    ps_expect_board(&s, &p, 0);
    PsGen g;
    char gb[1024];
    ps_genmove(&s, &p, &g, gb, sizeof gb, NULL);
    ps_expect_board(&s, &p, g.cell);
    cr_expect_eq(ps_finish(&s, NULL, 0), 0);
}

/* GTP's preprocessing: control characters other than HT and LF are
 * removed (NUL, CR, DEL and the rest), HT is a space, '#' starts a
 * comment, and lines left empty get no response (the next response's id
 * shows none came between). */
Test(play_gtp, control_characters_and_comments)
{
    Session s;
    PS_START(&s, "--protocol");
    RefPos p;
    ps_ref_empty(&p, 6, 5, REF_ORIGINAL);
    char text[2048];
    cr_expect(RAW(&s, "\0play Xc3\n", "", text), "a NUL before the command");
    cr_expect_str_eq(text, "ongoing");
    p.cell[14] = 'X';
    cr_expect(RAW(&s, "2 play O\0d4\r\n", "2", text), "a NUL inside a word, CR LF");
    p.cell[21] = 'O';
    cr_expect(RAW(&s, "3\tplay\tX\x01" "a1\x7f\t\n", "3", text), "tabs, SOH, DEL");
    p.cell[0] = 'X';
    static const char blank[] = "\0\n\r\n   \n\t\t\n# only a comment\n#\n \x02 # x\n";
    ps_send(&s, blank, sizeof blank - 1);
    cr_expect(RAW(&s, "4 showboard # what is there?\n", "4", text));
    cr_expect(RAW(&s, "5 protocol_version#no space before the comment\n", "5", text));
    cr_expect_str_eq(text, "2");
    ps_expect_board(&s, &p, 0);
    cr_expect_eq(ps_finish(&s, NULL, 0), 0);
}

/* The peak memory of the session's process in KiB (/proc: VmHWM). */
static long peak_kib(const Session *s)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)s->pid);
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot read %s", path);
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld", &kib) == 1) break;
    fclose(f);
    cr_assert(kib > 0, "no VmHWM in %s", path);
    return kib;
}

/* A line longer than the limit gets "? line too long" (with its id), the
 * session goes on, and a very long line costs no memory to speak of;
 * long comments and long runs of spaces are no commands at all. */
Test(play_gtp, long_lines)
{
    Session s;
    PS_START(&s, "--protocol", "--tt-mb", "1");
    char text[2048];
    static char line[10002];
    memset(line, 'z', 10000);
    line[10000] = '\n';
    raw(&s, line, 10001, "", text, sizeof text);
    cr_expect(strstr(text, "line too long") != NULL, "[%s]", text);
    memcpy(line, "31 ", 3);
    cr_expect(!raw(&s, line, 10001, "31", text, sizeof text));
    cr_expect(strstr(text, "line too long") != NULL, "[%s]", text);
    memset(line, ' ', 10000);
    line[0] = '#';
    ps_send(&s, line, 10001); /* a long comment */
    line[0] = ' ';
    memcpy(line + 5000, "\t\t", 2);
    ps_send(&s, line, 10001); /* a long white line */
    memcpy(line + 9980, "protocol_version", 16); /* spaces, then a command */
    cr_expect(raw(&s, line, 10001, "", text, sizeof text));
    cr_expect_str_eq(text, "2");
    /* 32 MiB in one line, sent in pieces while the engine reads. */
    long before = peak_kib(&s);
    static char chunk[1 << 16];
    memset(chunk, 'y', sizeof chunk);
    for (int i = 0; i < 512; i++) ps_send(&s, chunk, sizeof chunk);
    raw(&s, "\n", 1, "", text, sizeof text);
    cr_expect(strstr(text, "line too long") != NULL, "[%.80s]", text);
    long after = peak_kib(&s);
    cr_expect(after - before < 4096, "a 32 MiB line raised the peak memory from %ld to %ld KiB", before, after);
    cr_expect_str_eq(ps_ask(&s, "protocol_version", text, sizeof text), "2");
    cr_expect_eq(ps_finish(&s, NULL, 0), 0);
}

/* Extra words, and missing ones, are errors for every command: '?' and one
 * line, nothing changed (quit with extra words does not quit). */
Test(play_gtp, extra_words_are_errors)
{
    Session s;
    PS_START(&s, "--protocol", "--think", "0.5");
    RefPos p;
    ps_ref_empty(&p, 6, 5, REF_ORIGINAL);
    ps_play_both(&s, &p, "Xc3");
    static const char *const bad[] = {
        "solve 1e99 1e99", "showboard extra",   "undo now",        "list_commands all", "protocol_version 2",
        "name x",          "version x",         "known_command play genmove",           "clear_board now",
        "genmove X O",     "genmove O now",     "play O d4 now",   "play Od4 Oe5",      "think 1 2",
        "newgame original 6 5 9",               "boardsize 6 6",   "komi 0 0",          "quit now",
        "play",            "known_command",     "boardsize",       "think",             "komi"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) ps_expect_error(&s, bad[i], "syntax error");
    ps_expect_board(&s, &p, 14);
    char text[256];
    cr_expect_str_eq(ps_ask(&s, "undo", text, sizeof text), "ongoing", "the move is still there to take back");
    ps_expect_error(&s, "undo", "cannot undo");
    cr_expect_eq(ps_finish(&s, NULL, 0), 0);
}

/* think: a plain number of seconds, more than 0 and at most 1e9 (as
 * --think); the error names the limits. */
Test(play_gtp, think_limits)
{
    Session s;
    PS_START(&s, "--protocol");
    static const char *const bad[] = {"1e99", "1e10", "1000000001", "0", "-1", "nan", "inf", "0x10", "1e", "1,5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "think %s", bad[i]);
        ps_expect_error(&s, cmd, bad[i]);
        ps_expect_error(&s, cmd, "at most 1e9");
    }
    char text[256];
    cr_expect(strtod(ps_ask(&s, "think 1e9", text, sizeof text), NULL) == 1e9, "[%s]", text);
    cr_expect(strtod(ps_ask(&s, "think 0.25", text, sizeof text), NULL) == 0.25, "[%s]", text);
    cr_expect_eq(ps_finish(&s, NULL, 0), 0);
}

/* genmove X / genmove O: the side to move places that symbol, legally,
 * from the empty 6x6 board on, whatever the advisor would rather play;
 * a word that is no symbol is a syntax error. */
Test(play_gtp, genmove_with_a_symbol)
{
    Session s;
    PS_START(&s, "--protocol", "--think", "0.5");
    RefPos p;
    ps_ref_empty(&p, 6, 5, REF_ORIGINAL);
    ps_expect_error(&s, "genmove black", "syntax error");
    ps_expect_error(&s, "genmove w", "syntax error");
    static const char *const syms[] = {"X", "O", "o", "x", "O", "O", "X", "X"};
    PsGen g;
    char gb[1024];
    for (size_t i = 0; i < sizeof syms / sizeof syms[0] && ref_status(&p) == REF_ONGOING; i++) {
        ps_genmove(&s, &p, &g, gb, sizeof gb, syms[i]);
        ps_expect_board(&s, &p, g.cell);
    }
    cr_expect_eq(ps_finish(&s, NULL, 0), 0);
}
