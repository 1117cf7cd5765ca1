/* cmd_play.c - `ocsolve play`: a game against the solved strategy in a
 * terminal (or, with --protocol, a GTP version 2 engine: play_protocol.c).
 * The person takes one side (--as), ocsolve the other; every ocsolve move
 * comes with the reason the advisor (solver/advise.h) can justify. Bad
 * input in a game gets one line and the game goes on; end of input ends
 * it (exit 0). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/notation.h"
#include "commands.h"
#include "play.h"

static const char play_help[] =
    "usage: ocsolve play [options] [POSITION [MOVE ...]]\n"
    "Play against the solved strategy: ocsolve takes the side you do not, and says\n"
    "why it plays each move (a proved win, the centre strategy, a Chaos pairing,\n"
    "or: no proof yet, best guess).\n" CLI_GAME_HELP
    "  --as SIDE     your side: chaos (default; ocsolve plays Order) or order\n"
    "  --think S     seconds of search per ocsolve move (default 5)\n"
    "  --store DIR   also look positions up in a store of decided positions\n"
    "                (ocsolve store; read only)\n"
    "  --tt-mb M     search tables in MiB (default 64)\n"
    "  --threads T   df-pn threads (default 1)\n"
    "  --protocol    be a GTP version 2 engine on stdin/stdout, for programs\n"
    "                (play X c3, genmove [X|O], showboard ...; see README)\n"
    "  --help        this text\n"
    "In a game: a move such as Xc3 (symbol and cell), undo, hint, show, help, quit.\n"
    "example: ocsolve play --as chaos --think 2\n";

static const char game_help[] =
    "  Xc3, Oa1 ...  play a move: symbol and cell (column letter, row number from the top)\n"
    "  undo          take back your last move (and ocsolve's answer)\n"
    "  hint          what ocsolve would play for you, and why\n"
    "  show          draw the board again\n"
    "  quit          end the game (so does end of input)\n";


/* ocsolve's move, explained, and the board; false if none was found. */
static bool engine_turn(PlayGame *g, FILE *out)
{
    Advice a;
    advise(&g->adv, g->b, g->think, &a);
    if (a.move == MOVE_NONE) return false;
    Winner me = winner_to_move(g->b);
    play_move(g, a.move);
    char mv[4], why[512];
    notation_format_move(a.move, mv);
    play_reason(g, &a, why, sizeof why);
    fprintf(out, "ocsolve (%s) plays %s: %s\n", play_side_name(me), mv, why);
    play_draw(g, out);
    return true;
}

/* Takes back moves up to and including the person's last one. */
static void undo(PlayGame *g, Winner human, FILE *out)
{
    int last = g->nhist - 1;
    while (last >= 0 && play_mover_of(g, last) != human) last--;
    if (last < 0) {
        fprintf(out, "error: nothing to undo\n");
        return;
    }
    int taken = g->nhist - last;
    while (g->nhist > last) play_undo(g);
    fprintf(out, "took back %d move%s\n", taken, taken == 1 ? "" : "s");
    play_draw(g, out);
}

static void hint(PlayGame *g, FILE *out)
{
    if (rules_status(&g->r, g->b) != WINNER_NONE) {
        fprintf(out, "error: the game is over\n");
        return;
    }
    Advice a;
    advise(&g->adv, g->b, g->think, &a);
    char mv[4] = "-", why[512];
    if (a.move != MOVE_NONE) notation_format_move(a.move, mv);
    play_reason(g, &a, why, sizeof why);
    fprintf(out, "hint: %s: %s\n", mv, why);
}

/* One line of the person's; false on quit. */
static bool person_line(PlayGame *g, Winner human, char *line, FILE *out)
{
    char *w = line + strspn(line, " \t");
    w[strcspn(w, " \t\r\n")] = '\0';
    if (!*w) return true;
    if (!strcmp(w, "quit") || !strcmp(w, "exit")) return false;
    if (!strcmp(w, "help")) fputs(game_help, out);
    else if (!strcmp(w, "show")) play_draw(g, out);
    else if (!strcmp(w, "undo")) undo(g, human, out);
    else if (!strcmp(w, "hint")) hint(g, out);
    else {
        Move m;
        char err[256];
        if (play_text_move(g, w, &m, err, sizeof err) != 0) {
            for (char *p = err; *p; p++)
                if ((unsigned char)*p < 32) *p = '?';
            fprintf(out, "error: %s (try 'help')\n", err);
        } else {
            play_draw(g, out);
        }
    }
    return true;
}

static void prompt(const PlayGame *g, Winner human, FILE *out)
{
    if (rules_status(&g->r, g->b) != WINNER_NONE) fprintf(out, "game over (undo or quit)> ");
    else fprintf(out, "you (%s) to move> ", play_side_name(human));
    fflush(out);
}

static int play_terminal(PlayGame *g, Winner human, FILE *in, FILE *out)
{
    fprintf(out, "ocsolve play: you are %s, ocsolve plays %s (%s, %dx%d, k=%d; up to %g s a move)\n",
            play_side_name(human), play_side_name(human == WINNER_ORDER ? WINNER_CHAOS : WINNER_ORDER), rules_name(g->r.rules),
            g->r.n, g->r.n, g->r.k, g->think);
    fprintf(out, "Moves are a symbol and a cell, e.g. Xc3; also undo, hint, show, help, quit.\n");
    play_draw(g, out);
    bool announced = false;
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    for (;;) {
        Winner st = rules_status(&g->r, g->b);
        if (st == WINNER_NONE && winner_to_move(g->b) != human) {
            fflush(out);
            if (!engine_turn(g, out)) {
                fprintf(stderr, "ocsolve: no move found\n");
                rc = 1;
                break;
            }
            announced = false;
            continue;
        }
        if (st != WINNER_NONE && !announced) {
            char res[160];
            play_result(g, res, sizeof res);
            fprintf(out, "%s. %s\n", res, st == human ? "You win." : "ocsolve wins.");
            announced = true;
        }
        prompt(g, human, out);
        if (getline(&line, &cap, in) < 0) {
            fputc('\n', out);
            break;
        }
        if (!person_line(g, human, line, out)) break;
        if (rules_status(&g->r, g->b) == WINNER_NONE) announced = false;
    }
    fflush(out);
    free(line);
    return rc;
}

enum { O_AS = 1000, O_THINK, O_STORE, O_TT, O_THREADS, O_PROTOCOL };

int cmd_play(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_GAME_LONGOPTS,
        {"as", required_argument, NULL, O_AS},         {"think", required_argument, NULL, O_THINK},
        {"store", required_argument, NULL, O_STORE},   {"tt-mb", required_argument, NULL, O_TT},
        {"threads", required_argument, NULL, O_THREADS}, {"protocol", no_argument, NULL, O_PROTOCOL},
        {"help", no_argument, NULL, 'h'},              {0, 0, 0, 0}};
    GameOpts go = {0, 0, RULES_ORIGINAL};
    PlayGame g = {.think = 5, .tt_bytes = (size_t)64 << 20, .threads = 1};
    Winner human = WINNER_CHAOS;
    const char *store_dir = NULL;
    bool protocol = false;
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(play_help, stdout); return 0;
        case O_AS:
            if (strcmp(optarg, "order") != 0 && strcmp(optarg, "chaos") != 0)
                cli_fail("unknown side '%s' for --as (order or chaos)", optarg);
            human = strcmp(optarg, "order") == 0 ? WINNER_ORDER : WINNER_CHAOS;
            break;
        case O_THINK: g.think = cli_seconds(optarg, "--think"); break;
        case O_STORE: store_dir = optarg; break;
        case O_TT: g.tt_bytes = (size_t)cli_number(optarg, "--tt-mb", 1, 1L << 22) << 20; break;
        case O_THREADS: g.threads = (int)cli_number(optarg, "--threads", 1, DFPN_MAX_THREADS); break;
        case O_PROTOCOL: protocol = true; break;
        default:
            if (!cli_game_option(opt, optarg, &go)) cli_bad_option(argv, opt);
        }
    }
    Rules r;
    Board b;
    cli_position_args(&go, argc, argv, &r, &b);
    char err[512];
    if (store_dir) {
        StoreGame sg = {r.rules, r.n, r.k};
        if (!(g.store = store_open_game(store_dir, true, 0, &sg, err, sizeof err))) cli_fail("%s", err);
    }
    if (play_new(&g, &r, b, err, sizeof err) != 0) cli_fail("%s", err);
    int rc = protocol ? play_protocol(&g, stdin, stdout) : play_terminal(&g, human, stdin, stdout);
    play_free(&g);
    if (g.store) store_close(g.store);
    return rc;
}
