/* play_protocol.c - `ocsolve play --protocol`: a plain line protocol for
 * programs, in the style of GTP (README, Play). One command a line, one
 * answer a line: "= ..." on success, "? message" on an error; no prompts;
 * the output is flushed after every answer. Empty lines and lines starting
 * with '#' get no answer. End of input ends the session (exit 0) like quit.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/notation.h"
#include "cli.h"
#include "play.h"

enum { MAX_ARGS = 8, MSG_LEN = 512 };

/* One answer line: '=' or '?', a space, the text (kept on one line). */
static void answer(FILE *out, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void answer(FILE *out, bool ok, const char *fmt, ...)
{
    char msg[MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_one_line(msg);
    fprintf(out, "%c%s%s\n", ok ? '=' : '?', msg[0] ? " " : "", msg);
    fflush(out);
}

/* "ongoing", "order-won" or "chaos-won". */
static const char *status_token(const PlayGame *g)
{
    Winner st = rules_status(&g->r, g->b);
    return st == WINNER_ORDER ? "order-won" : st == WINNER_CHAOS ? "chaos-won" : "ongoing";
}

/* newgame [RULES] [N K]: omitted parts keep the current game's. */
static void cmd_newgame(PlayGame *g, int argc, char **argv, FILE *out)
{
    RuleSet rs = g->r.rules;
    int n = g->r.n, k = g->r.k, i = 1;
    if (i < argc && rules_parse(argv[i], &rs) == 0) i++;
    else if (i < argc && !(argv[i][0] >= '0' && argv[i][0] <= '9')) {
        answer(out, false, "unknown rules '%s' (original, exact or exact-end)", argv[i]);
        return;
    }
    if (argc - i == 2) {
        char *e1, *e2;
        long ln = strtol(argv[i], &e1, 10), lk = strtol(argv[i + 1], &e2, 10);
        if (*e1 || *e2 || e1 == argv[i] || e2 == argv[i + 1] || ln < 0 || ln > 99 || lk < 0 || lk > 99) {
            answer(out, false, "newgame: board and k must be numbers, e.g. 'newgame original 6 5'");
            return;
        }
        n = (int)ln, k = (int)lk;
    } else if (argc - i != 0) {
        answer(out, false, "usage: newgame [original|exact|exact-end] [BOARD K]");
        return;
    }
    Rules r;
    char err[MSG_LEN];
    if (rules_init(&r, n, k, rs, err, sizeof err) != 0) {
        answer(out, false, "%s", err);
        return;
    }
    if (play_new(g, &r, board_empty(), err, sizeof err) != 0) {
        answer(out, false, "%s", err);
        return;
    }
    answer(out, true, "%s %d %d", rules_name(rs), n, k);
}

static void cmd_play(PlayGame *g, int argc, char **argv, FILE *out)
{
    if (argc != 2) {
        answer(out, false, "usage: play MOVE (e.g. play Xc3)");
        return;
    }
    Move m;
    char err[MSG_LEN];
    if (play_text_move(g, argv[1], &m, err, sizeof err) != 0) {
        answer(out, false, "%s", err);
        return;
    }
    answer(out, true, "%s", status_token(g));
}

/* genmove: = MOVE KIND WINNER DTW REASON... (README, Play). */
static void cmd_genmove(PlayGame *g, int argc, char **argv, FILE *out)
{
    (void)argv;
    if (argc != 1) {
        answer(out, false, "usage: genmove");
        return;
    }
    Winner st = rules_status(&g->r, g->b);
    if (st != WINNER_NONE) {
        answer(out, false, "the game is over (%s has won)", st == WINNER_ORDER ? "Order" : "Chaos");
        return;
    }
    Advice a;
    advise(&g->adv, g->b, g->think, &a);
    if (a.move == MOVE_NONE) {
        answer(out, false, "no move found");
        return;
    }
    play_move(g, a.move);
    char mv[4], why[MSG_LEN], dtw[16] = "-";
    notation_format_move(a.move, mv);
    play_reason(g, &a, why, sizeof why);
    if (a.value.dtw > 0) snprintf(dtw, sizeof dtw, "%d", a.value.dtw);
    answer(out, true, "%s %s %s %s %s", mv, play_kind_token(a.kind), winner_name(a.value.winner), dtw, why);
}

/* showboard: = POSITION TO-MOVE STATUS. */
static void cmd_showboard(PlayGame *g, int argc, char **argv, FILE *out)
{
    (void)argc, (void)argv;
    char pos[NOTATION_POS_LEN];
    notation_format_position(g->b, g->r.n, pos);
    bool over = rules_status(&g->r, g->b) != WINNER_NONE;
    answer(out, true, "%s %s %s", pos, over ? "-" : board_order_to_move(g->b) ? "order" : "chaos", status_token(g));
}

/* solve: = WINNER DTW BY. */
static void cmd_solve(PlayGame *g, int argc, char **argv, FILE *out)
{
    (void)argc, (void)argv;
    AdviceValue v;
    advise_value(&g->adv, g->b, g->think, &v);
    char dtw[16] = "-";
    if (v.dtw > 0) snprintf(dtw, sizeof dtw, "%d", v.dtw);
    answer(out, true, "%s %s %s", winner_name(v.winner), dtw, play_by_token(v.by));
}

static void cmd_undo(PlayGame *g, int argc, char **argv, FILE *out)
{
    (void)argc, (void)argv;
    if (!play_undo(g)) {
        answer(out, false, "nothing to undo");
        return;
    }
    answer(out, true, "%s", status_token(g));
}

static void cmd_think(PlayGame *g, int argc, char **argv, FILE *out)
{
    char *end = NULL;
    double s = argc == 2 ? strtod(argv[1], &end) : 0;
    if (argc != 2 || *end || end == argv[1] || !(s > 0 && s <= 1e6)) {
        answer(out, false, "usage: think SECONDS (more than 0)");
        return;
    }
    g->think = s;
    answer(out, true, "%g", s);
}

static void cmd_list(PlayGame *g, int argc, char **argv, FILE *out);

static const struct {
    const char *name;
    void (*run)(PlayGame *, int, char **, FILE *);
} commands[] = {{"newgame", cmd_newgame}, {"play", cmd_play},   {"genmove", cmd_genmove},
                {"showboard", cmd_showboard}, {"solve", cmd_solve}, {"undo", cmd_undo},
                {"think", cmd_think},     {"list_commands", cmd_list}};

static void cmd_list(PlayGame *g, int argc, char **argv, FILE *out)
{
    (void)g, (void)argc, (void)argv;
    char list[MSG_LEN] = "";
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        strcat(list, commands[i].name);
        strcat(list, " ");
    }
    answer(out, true, "%squit", list);
}

/* Splits line into words (in place); the number of words. */
static int split(char *line, char **argv)
{
    int argc = 0;
    for (char *p = strtok(line, " \t\r\n"); p; p = strtok(NULL, " \t\r\n")) {
        if (argc == MAX_ARGS) return MAX_ARGS + 1;
        argv[argc++] = p;
    }
    return argc;
}

int play_protocol(PlayGame *g, FILE *in, FILE *out)
{
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, in) >= 0) {
        char *argv[MAX_ARGS];
        int argc = split(line, argv);
        if (argc == 0 || argv[0][0] == '#') continue;
        if (argc > MAX_ARGS) {
            answer(out, false, "too many words");
            continue;
        }
        if (strcmp(argv[0], "quit") == 0) {
            answer(out, true, "%s", "");
            break;
        }
        size_t i = 0, nc = sizeof commands / sizeof commands[0];
        while (i < nc && strcmp(argv[0], commands[i].name) != 0) i++;
        if (i < nc) commands[i].run(g, argc, argv, out);
        else answer(out, false, "unknown command '%s' (list_commands lists them)", argv[0]);
    }
    free(line);
    return 0;
}
