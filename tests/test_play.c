/* test_play.c - `ocsolve play`, suite play: sessions with the GTP version 2
 * engine (--protocol) and bad input that must not end one, games against a
 * seeded random opponent judged by the reference rules (ref.h), the
 * terminal mode through a pipe, and the command's options.
 *
 * The strict GTP client and the test's own board (a RefPos, so nothing the
 * engine says about the position is taken on trust) are play_session.h's.
 * GTP's framing, preprocessing and commands (suite play_gtp) are
 * test_play_gtp.c's; the engine's claims checked against the brute force
 * test_play_claims.c's. TestSuite(play) is declared here once, and its
 * options (the timeout, SIGPIPE ignored) hold for the suite's tests in
 * those files too: Criterion joins a suite's tests to its TestSuite by
 * name, whichever file holds them. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../solver/pairing.h"
#include "brute.h"
#include "play_session.h"
#include "ref.h"
#include "runbin.h"
#include "testlib.h"

TestSuite(play, .timeout = 300, .init = ps_no_sigpipe);

/* ------------------------------------------------------------------ */
/* The protocol                                                         */
/* ------------------------------------------------------------------ */

Test(play, protocol_session)
{
    Session s;
    PS_START(&s, "--protocol", "--think", "1");
    char buf[2048];
    ps_ask(&s, "list_commands", buf, sizeof buf);
    for (const char *c = "newgame play genmove showboard solve undo think quit"; *c;) {
        char word[32];
        int len = (int)strcspn(c, " ");
        snprintf(word, sizeof word, "%.*s", len, c);
        cr_expect(ps_has_line(buf, word), "list_commands lacks %s: [%s]", word, buf);
        c += len + (c[len] == ' ');
    }
    RefPos p, empty6;
    ps_ref_empty(&p, 6, 5, REF_ORIGINAL);
    empty6 = p;
    ps_expect_board(&s, &p, -1);
    ps_play_both(&s, &p, "Xc3");
    ps_expect_board(&s, &p, 14);
    PsGen g;
    char gb[1024];
    ps_genmove(&s, &p, &g, gb, sizeof gb, NULL); /* Chaos's move */
    ps_expect_board(&s, &p, g.cell);
    /* undo takes back one ply each */
    cr_expect_str_eq(ps_ask(&s, "undo", buf, sizeof buf), "ongoing");
    cr_expect_str_eq(ps_ask(&s, "undo", buf, sizeof buf), "ongoing");
    ps_expect_error(&s, "undo", "nothing to undo");
    ps_expect_board(&s, &empty6, -1);
    cr_expect_str_eq(ps_ask(&s, "newgame exact 5 4", buf, sizeof buf), "exact 5 4");
    ps_ref_empty(&p, 5, 4, REF_EXACT);
    ps_expect_board(&s, &p, -1);
    cr_expect_str_eq(ps_ask(&s, "newgame", buf, sizeof buf), "exact 5 4"); /* the same game again */
    ps_ask(&s, "solve", buf, sizeof buf);
    char w[16], d[16], by[16];
    cr_expect(sscanf(buf, "%15s %15s %15s", w, d, by) == 3, "solve: [%s]", buf);
    cr_expect_str_eq(ps_ask(&s, "quit", buf, sizeof buf), "");
    char rest[256];
    cr_expect(ps_finish(&s, rest, sizeof rest) == 0, "exit code after quit");
    cr_expect_str_eq(rest, "", "output after quit: [%s]", rest);
}

Test(play, bad_input_keeps_the_session)
{
    Session s;
    PS_START(&s, "--protocol", "--think", "0.5");
    char buf[1024];
    ps_expect_error(&s, "frobnicate", "unknown command");
    ps_expect_error(&s, "play", "syntax error");
    ps_expect_error(&s, "play Zc3", "Zc3");
    ps_expect_error(&s, "play Xg1", "g1"); /* off a 6x6 board */
    ps_expect_error(&s, "play Xa0", "a0");
    ps_expect_error(&s, "play Xc3 Od4", "Xc3");
    ps_expect_error(&s, "newgame bogus", "bogus");
    ps_expect_error(&s, "newgame original 9 5", "9");
    ps_expect_error(&s, "newgame original 6", "syntax error");
    ps_expect_error(&s, "think -1", "think");
    ps_expect_error(&s, "genmove now", "now");
    /* Empty lines and comments get no response: the next is showboard's,
     * with its id. */
    ps_send(&s, "\n   \n# a comment\n", 17);
    RefPos p;
    ps_ref_empty(&p, 6, 5, REF_ORIGINAL);
    ps_expect_board(&s, &p, -1);
    ps_play_both(&s, &p, "Xc3");
    ps_expect_error(&s, "play Oc3", "occupied");
    /* A game that ends: 4x4, k = 3, Order's line a1-c1. */
    cr_expect_str_eq(ps_ask(&s, "newgame original 4 3", buf, sizeof buf), "original 4 3");
    ps_ref_empty(&p, 4, 3, REF_ORIGINAL);
    ps_play_both(&s, &p, "Xa1");
    ps_play_both(&s, &p, "Od4");
    ps_play_both(&s, &p, "Xb1");
    ps_play_both(&s, &p, "Od3");
    ps_play_both(&s, &p, "Xc1");
    cr_assert_eq(ref_status(&p), REF_ORDER_WINS);
    ps_expect_error(&s, "play Oa4", "over");
    ps_expect_error(&s, "genmove", "over");
    ps_expect_board(&s, &p, 2);
    cr_expect_str_eq(ps_ask(&s, "undo", buf, sizeof buf), "ongoing"); /* the game goes on after an undo */
    p.cell[2] = '.';
    PsGen g;
    char gb[1024];
    ps_genmove(&s, &p, &g, gb, sizeof gb, NULL);
    cr_expect(ref_status(&p) == REF_ORDER_WINS, "Order had a line to complete; genmove played %s: [%s]", g.move, gb);
    cr_expect_str_eq(g.kind, "win-now", "[%s]", gb);
    /* End of input ends the session cleanly, with nothing more said. */
    char rest[256];
    cr_expect(ps_finish(&s, rest, sizeof rest) == 0, "exit code at end of input");
    cr_expect_str_eq(rest, "", "output at end of input: [%s]", rest);
}

/* ------------------------------------------------------------------ */
/* Games                                                                */
/* ------------------------------------------------------------------ */

/* A "pairing answer on A to B" must answer a piece: B is occupied (the
 * move on A is already on p) and is not A. */
static void expect_answered_cell(const RefPos *p, const PsGen *g, const char *gb)
{
    const char *to = strstr(g->reason, "pairing answer on ");
    if (!to || !(to = strstr(to, " to "))) return;
    int col = to[4] - 'a', row = to[5] - '1';
    cr_assert(col >= 0 && col < p->n && row >= 0 && row < p->n, "no cell after ' to ': [%s]", gb);
    int cell = row * p->n + col;
    cr_expect(cell != g->cell && p->cell[cell] != '.', "answers the empty cell %.2s: [%s]", to + 4, gb);
}

/* The engine as Order from the empty 6x6 board (original) against a
 * random Chaos: the reference rules must find Order's line at the end,
 * and every engine move must be explained by the proved strategy. */
Test(play, order_beats_random_chaos_6x6)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        Session s;
        PS_START(&s, "--protocol", "--think", "2");
        RefPos p;
        ps_ref_empty(&p, 6, 5, REF_ORIGINAL);
        uint64_t rng = seed * 7919;
        int engine_moves = 0;
        while (ref_status(&p) == REF_ONGOING) {
            if (ps_order_to_move(&p)) {
                PsGen g;
                char gb[1024];
                ps_genmove(&s, &p, &g, gb, sizeof gb, NULL);
                engine_moves++;
                cr_expect(!strcmp(g.kind, "centre-small") || !strcmp(g.kind, "centre-pair") ||
                              !strcmp(g.kind, "win-now"),
                          "seed %llu: not the proved strategy: [%s]", (unsigned long long)seed, gb);
                cr_expect_str_eq(g.winner, "order", "seed %llu: [%s]", (unsigned long long)seed, gb);
                expect_answered_cell(&p, &g, gb);
            } else {
                char mv[8];
                ps_random_safe_move(&p, &rng, mv);
                ps_play_both(&s, &p, mv);
            }
        }
        char pos[70];
        ref_format(&p, pos);
        cr_expect_eq(ref_status(&p), REF_ORDER_WINS, "seed %llu: the game ended %s: %s", (unsigned long long)seed,
                     ps_status_word(&p), pos);
        cr_expect(engine_moves >= 5, "seed %llu", (unsigned long long)seed);
        cr_expect(ps_finish(&s, NULL, 0) == 0);
    }
}

/* The engine as Chaos under exact-end (a pairing wins from the empty
 * board) against a random Order: the full board must hold no line of
 * exactly five. */
Test(play, chaos_pairs_against_random_order_exact_end)
{
    for (uint64_t seed = 1; seed <= 2; seed++) {
        Session s;
        PS_START(&s, "--protocol", "--think", "2", "--rules", "exact-end");
        RefPos p;
        ps_ref_empty(&p, 6, 5, REF_EXACT_END);
        uint64_t rng = seed * 104729;
        while (ref_status(&p) == REF_ONGOING) {
            if (!ps_order_to_move(&p)) {
                PsGen g;
                char gb[1024];
                ps_genmove(&s, &p, &g, gb, sizeof gb, NULL);
                cr_expect(!strcmp(g.kind, "pairing") || !strcmp(g.kind, "win-now"),
                          "seed %llu: not the pairing strategy: [%s]", (unsigned long long)seed, gb);
            } else {
                char mv[8];
                ps_random_move(&p, &rng, mv);
                ps_play_both(&s, &p, mv);
            }
        }
        char pos[70];
        ref_format(&p, pos);
        cr_expect_eq(ref_status(&p), REF_CHAOS_WINS, "seed %llu: %s", (unsigned long long)seed, pos);
        cr_expect(ps_finish(&s, NULL, 0) == 0);
    }
}

/* The breakable form on an odd board (pairing.h): random games of 5x5
 * with k = 5, both sides random, until Chaos is to move at a position
 * where pairing_find finds a breakable pairing (5x5 has no classic one:
 * the parity fails); from there Chaos plays the advice and Order stays
 * random. Chaos's advice must be the pairing strategy at every turn
 * (partner, free cell or a broken pair, never a search), and Chaos must
 * win; the brute force confirms the position was a Chaos win. */
Test(play, chaos_breakable_pairs_5x5)
{
    static const char *names[] = {"original", "exact", "exact-end"};
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    for (int rs = 0; rs < 3; rs++) {
        int games = 0;
        for (uint64_t seed = 1; seed <= 200 && games < 3; seed++) {
            Session s;
            PS_START(&s, "--protocol", "--think", "2", "--rules", names[rs], "--board", "5", "--k", "5");
            RefPos p;
            ps_ref_empty(&p, 5, 5, rs);
            uint64_t rng = seed * 7919 + (uint64_t)rs;
            bool pairs = false;
            while (ref_status(&p) == REF_ONGOING) {
                if (!pairs && !ps_order_to_move(&p) && ps_empties(&p) <= 12) {
                    Rules r;
                    tl_init_rules(&r, &p);
                    if ((pairs = pairing_find(&r, tl_board(&p), 100000, NULL))) {
                        char pos[70];
                        ref_format(&p, pos);
                        cr_expect(brute_dtw(memo, &p) < 0, "%s: a pairing, but Order wins: %s", names[rs], pos);
                        games++;
                    }
                }
                if (pairs && !ps_order_to_move(&p)) {
                    PsGen g;
                    char gb[1024];
                    ps_genmove(&s, &p, &g, gb, sizeof gb, NULL);
                    cr_expect(!strcmp(g.kind, "pairing"), "%s seed %llu: not the pairing strategy: [%s]", names[rs],
                              (unsigned long long)seed, gb);
                } else {
                    char mv[8];
                    ps_random_move(&p, &rng, mv);
                    ps_play_both(&s, &p, mv);
                }
            }
            if (pairs) {
                char pos[70];
                ref_format(&p, pos);
                cr_expect_eq(ref_status(&p), REF_CHAOS_WINS, "%s seed %llu: %s", names[rs], (unsigned long long)seed,
                             pos);
            }
            cr_expect(ps_finish(&s, NULL, 0) == 0);
        }
        cr_expect_eq(games, 3, "%s: only %d games reached a breakable pairing", names[rs], games);
    }
    brute_free(memo);
}

/* ------------------------------------------------------------------ */
/* The terminal mode                                                    */
/* ------------------------------------------------------------------ */

/* Writes all of input, then reads all of the output into out; the exit code. */
static int converse(const char *const *args, const char *input, char *out, size_t size)
{
    Session s;
    ps_start(&s, args);
    ps_send(&s, input, strlen(input));
    return ps_finish(&s, out, size);
}

/* The last board drawn in out (n rows after the last column header),
 * into p; false if there is none. */
static bool last_board(const char *out, int n, int k, int rules, RefPos *p)
{
    char header[32] = "   ";
    for (int c = 0; c < n; c++) snprintf(header + strlen(header), sizeof header - strlen(header), " %c", 'a' + c);
    const char *at = NULL;
    for (const char *q = strstr(out, header); q; q = strstr(q + 1, header)) at = q;
    if (!at) return false;
    char cells[65];
    const char *line = strchr(at, '\n');
    for (int row = 0; row < n; row++) {
        if (!line) return false;
        line++;
        for (int c = 0; c < n; c++) cells[row * n + c] = line[4 + 2 * c];
        line = strchr(line, '\n');
    }
    cells[n * n] = '\0';
    return ref_parse(p, n, k, rules, cells) == 0;
}

/* A person playing Chaos through the terminal, typing every cell of the
 * board in a random order (the occupied ones are refused and the game goes
 * on, so no answer needs reading): ocsolve wins with Order's line on the
 * last board drawn, and every ocsolve move is explained. */
Test(play, terminal_full_game_as_chaos)
{
    uint64_t rng = 2718;
    int cells[36];
    for (int i = 0; i < 36; i++) cells[i] = i;
    for (int i = 35; i > 0; i--) {
        int j = tl_below(&rng, i + 1), t = cells[i];
        cells[i] = cells[j], cells[j] = t;
    }
    char input[1024] = "help\nshow\nhint\n";
    for (int i = 0; i < 36; i++)
        snprintf(input + strlen(input), sizeof input - strlen(input), "%c%c%d\n", tl_below(&rng, 2) ? 'X' : 'o',
                 'a' + cells[i] % 6, cells[i] / 6 + 1);
    strcat(input, "bogus\nquit\n");
    static char out[1 << 17];
    int rc = converse((const char *const[]){"--think", "2", NULL}, input, out, sizeof out);
    cr_expect_eq(rc, 0, "exit code");
    RefPos p;
    cr_assert(last_board(out, 6, 5, REF_ORIGINAL, &p), "no board in the output:\n%s", out);
    cr_expect_eq(ref_status(&p), REF_ORDER_WINS, "the last board has no line of Order's:\n%s", out);
    cr_expect(strstr(out, "Order wins: a line of 5") != NULL, "no result line:\n%s", out);
    cr_expect(strstr(out, "ocsolve wins.") != NULL);
    cr_expect(strstr(out, "hint: ") != NULL);
    cr_expect(strstr(out, "error: ") != NULL, "the occupied cells and 'bogus' should be refused");
    /* Every ocsolve move with its reason, and only the proved strategy. */
    int moves = 0;
    for (const char *q = strstr(out, "ocsolve (Order) plays "); q; q = strstr(q + 1, "ocsolve (Order) plays ")) {
        const char *why = q + strlen("ocsolve (Order) plays Xc3: ");
        cr_expect(!strncmp(why, "centre strategy: ", 17) || !strncmp(why, "completes a line", 16), "%.120s", q);
        moves++;
    }
    cr_expect(moves >= 5, "only %d ocsolve moves:\n%s", moves, out);
}

/* Undo, occupied cells and bad words in the terminal; end of input without
 * quit ends the game cleanly. */
Test(play, terminal_undo_and_errors)
{
    static char out[1 << 16];
    int rc = converse((const char *const[]){"--as", "order", "--board", "4", "--k", "3", "--think", "1", NULL},
                      "undo\nXa1\nXa1\nundo\nXz9\nfoo\nXb2\nshow\n", out, sizeof out);
    cr_expect_eq(rc, 0, "exit code at end of input");
    cr_expect(strstr(out, "error: nothing to undo") != NULL, "%s", out);
    cr_expect(strstr(out, "cell a1 is occupied") != NULL, "%s", out);
    cr_expect(strstr(out, "took back 2 moves") != NULL, "%s", out);
    cr_expect(strstr(out, "error: ") != NULL && strstr(out, "z9") != NULL, "%s", out);
    cr_expect(strstr(out, "ocsolve (Chaos) plays ") != NULL, "%s", out);
}

/* Bad options are refused like every command's (one line, exit 2). */
Test(play, options)
{
    expect_reject("--as", "play", "--as", "both");
    expect_reject("--think", "play", "--think", "0");
    expect_reject("--tt-mb", "play", "--tt-mb", "x");
    expect_reject("/nonexistent-dir/st", "play", "--store", "/nonexistent-dir/st");
    expect_reject("--bogus", "play", "--bogus");
    expect_reject("occupied", "play", "-", "Xa1", "Oa1");
    Run r;
    expect_ok(&r, "play", "--help");
    cr_expect(strstr(r.out, "--protocol") != NULL, "%s", r.out);
    run_free(&r);
}
