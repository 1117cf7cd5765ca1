/* play_protocol.c - `ocsolve play --protocol`: ocsolve as an engine of the
 * Go Text Protocol, version 2 (GTP; README, The protocol), with the
 * game's own moves: `play X c3` or `play Xc3`, `genmove [X|O]`.
 *
 * Invariants:
 * - Input is preprocessed as GTP says (read_command): control characters
 *   other than HT and LF are removed (NUL, CR, DEL included), HT becomes a
 *   space, a '#' and the rest of its line are a comment, and a line left
 *   empty or white gets no response. At most GTP_LINE_MAX characters of a
 *   line are kept (runs of spaces count one): a longer line is read to its
 *   end, dropped and answered "? line too long", so memory stays bounded
 *   whatever comes in.
 * - Every other line gets exactly one response, written and flushed before
 *   the next line is read: "=[id] result" or "?[id] message", the id echoed
 *   when the command had one, a space after it, and the response ends with
 *   an empty line. respond() removes empty lines and control characters
 *   from the text, so the first empty line is always the end; an error
 *   response is one line.
 * - A command that fails changes nothing. The number of arguments is
 *   checked for every command before it runs: extra words are an error,
 *   never ignored.
 * - quit responds and ends the session; end of input ends it silently.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/notation.h"
#include "cli.h"
#include "play.h"

/* GTP_LINE_MAX: far more than any command needs (a position is at most
 * 71 characters), far less than would matter as memory. MAX_WORDS: more
 * than any command takes (id, name, three arguments), so that the word
 * after the last argument a command takes is always kept for the message. */
enum { GTP_LINE_MAX = 4096, MAX_WORDS = 8, MSG_LEN = 2048 };

/* What a command needs: the game, where responses go, the id of the
 * command being answered ("" none), whether quit was asked, and the line
 * length asked for (--k or newgame), which boardsize cuts to a smaller
 * board but does not forget: boardsize 4 then 6 is k = 5 again. */
typedef struct {
    PlayGame *g;
    FILE *out;
    const char *id;
    bool quit;
    int want_k;
} Gtp;

/* Writes the response: '=' or '?', the id, a space, the text, an empty
 * line. A success may span lines (text's '\n'), an error is made one line;
 * control characters become '?' and empty lines go, so that nothing the
 * text quotes can end the response early or break its framing. */
static void respond(Gtp *c, bool ok, const char *text)
{
    fprintf(c->out, "%c%s ", ok ? '=' : '?', c->id);
    size_t end = strlen(text);
    while (end > 0 && text[end - 1] == '\n') end--;
    char last = ' ';
    for (size_t i = 0; i < end; i++) {
        char ch = text[i];
        if (ch == '\n' && !ok) ch = ' ';
        else if (ch == '\n' && last == '\n') continue;
        else if (ch != '\n' && ((unsigned char)ch < 32 || ch == 127)) ch = '?';
        fputc(ch, c->out);
        last = ch;
    }
    fputs("\n\n", c->out);
    fflush(c->out);
}

static void reply(Gtp *c, bool ok, const char *fmt, va_list ap)
{
    char msg[MSG_LEN];
    vsnprintf(msg, sizeof msg, fmt, ap);
    respond(c, ok, msg);
}

static void success(Gtp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void success(Gtp *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    reply(c, true, fmt, ap);
    va_end(ap);
}

static void failure(Gtp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failure(Gtp *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    reply(c, false, fmt, ap);
    va_end(ap);
}

/* "ongoing", "order-won" or "chaos-won". */
static const char *status_token(const PlayGame *g)
{
    Winner st = rules_status(&g->r, g->b);
    return st == WINNER_ORDER ? "order-won" : st == WINNER_CHAOS ? "chaos-won" : "ongoing";
}

/* s is digits only: its value, saturating at a billion (more than any
 * size, so "boardsize 99999999999" is an unacceptable size, not a syntax
 * error); else -1. */
static long digits(const char *s)
{
    if (*s == '\0' || s[strspn(s, "0123456789")] != '\0') return -1;
    long v = 0;
    for (; *s; s++) v = v < 100000000 ? 10 * v + (*s - '0') : 1000000000;
    return v;
}

/* "X"/"x" or "O"/"o": the symbol in *sym; false otherwise. */
static bool symbol_of(const char *s, int *sym)
{
    if (s[0] == '\0' || s[1] != '\0') return false;
    if (s[0] == 'X' || s[0] == 'x') *sym = PIECE_X;
    else if (s[0] == 'O' || s[0] == 'o') *sym = PIECE_O;
    else return false;
    return true;
}

/* Starts the empty board of (rs, n, k); responds on failure. */
static bool start_game(Gtp *c, RuleSet rs, int n, int k)
{
    Rules r;
    char err[MSG_LEN];
    if (rules_init(&r, n, k, rs, err, sizeof err) != 0 || play_new(c->g, &r, board_empty(), err, sizeof err) != 0) {
        failure(c, "%s", err);
        return false;
    }
    return true;
}

/* --- GTP's administrative commands --- */

static void gtp_protocol_version(Gtp *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    success(c, "2");
}

static void gtp_name(Gtp *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    success(c, "ocsolve");
}

/* The dialect's version (README): ocsolve has no release numbers. */
static void gtp_version(Gtp *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    success(c, "1");
}

static void gtp_quit(Gtp *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    success(c, "%s", "");
    c->quit = true;
}

static void gtp_known_command(Gtp *c, int argc, char **argv);
static void gtp_list_commands(Gtp *c, int argc, char **argv);

/* --- GTP's game commands --- */

/* boardsize N: the empty N x N board, same rules, the k asked for where
 * it fits (k <= N), else k = N; GTP's own message for a size out of range. */
static void gtp_boardsize(Gtp *c, int argc, char **argv)
{
    (void)argc;
    long n = digits(argv[1]);
    if (n < 0) {
        failure(c, "syntax error: boardsize takes a number, e.g. boardsize 6 (not '%s')", argv[1]);
        return;
    }
    if (n < BOARD_MIN_N || n > BOARD_MAX_N) {
        failure(c, "unacceptable size");
        return;
    }
    if (start_game(c, c->g->r.rules, (int)n, c->want_k <= n ? c->want_k : (int)n)) success(c, "%s", "");
}

static void gtp_clear_board(Gtp *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    if (start_game(c, c->g->r.rules, c->g->r.n, c->g->r.k)) success(c, "%s", "");
}

/* komi: Order and Chaos has none; a number is accepted (GTP counts komi
 * among the commands every engine has, and controllers send it). */
static void gtp_komi(Gtp *c, int argc, char **argv)
{
    (void)argc;
    double v;
    if (!cli_plain_decimal(argv[1], true, &v)) failure(c, "syntax error: komi takes a number (not '%s')", argv[1]);
    else success(c, "%s", "");
}

/* play SYMBOL CELL (GTP's play COLOR VERTEX) or play MOVE: = STATUS. */
static void gtp_play(Gtp *c, int argc, char **argv)
{
    char text[GTP_LINE_MAX + 2], err[MSG_LEN];
    int sym;
    if (argc == 3 && !symbol_of(argv[1], &sym)) {
        failure(c, "syntax error: '%s' is not a symbol, X or O (play X c3 or play Xc3)", argv[1]);
        return;
    }
    if (argc == 3) snprintf(text, sizeof text, "%c%s", sym == PIECE_X ? 'X' : 'O', argv[2]);
    else snprintf(text, sizeof text, "%s", argv[1]);
    /* GTP's vertices are not case sensitive: C3 is c3. */
    if (text[0] && text[1]) text[1] = (char)tolower((unsigned char)text[1]);
    Move m;
    int rc = play_text_move(c->g, text, &m, err, sizeof err);
    if (rc == PLAY_SYNTAX) failure(c, "syntax error: %s", err);
    else if (rc == PLAY_ILLEGAL) failure(c, "illegal move: %s", err);
    else success(c, "%s", status_token(c->g));
}

/* genmove [SYMBOL]: = MOVE KIND WINNER DTW REASON... (README). */
static void gtp_genmove(Gtp *c, int argc, char **argv)
{
    PlayGame *g = c->g;
    int sym = -1;
    if (argc == 2 && !symbol_of(argv[1], &sym)) {
        failure(c, "syntax error: '%s' is not a symbol, X or O (genmove, genmove X or genmove O)", argv[1]);
        return;
    }
    Winner st = rules_status(&g->r, g->b);
    if (st != WINNER_NONE) {
        failure(c, "the game is over (%s has won)", st == WINNER_ORDER ? "Order" : "Chaos");
        return;
    }
    PlayChoice ch;
    play_choose(g, sym, &ch);
    if (ch.a.move == MOVE_NONE) {
        failure(c, "no move found");
        return;
    }
    play_move(g, ch.a.move);
    char mv[4], why[MSG_LEN / 2], dtw[16] = "-";
    notation_format_move(ch.a.move, mv);
    play_choice_reason(g, &ch, why, sizeof why);
    if (ch.a.value.dtw > 0) snprintf(dtw, sizeof dtw, "%d", ch.a.value.dtw);
    success(c, "%s %s %s %s %s", mv, play_choice_kind(&ch), winner_name(ch.a.value.winner), dtw, why);
}

/* showboard: = POSITION TO-MOVE STATUS, then the board drawn. */
static void gtp_showboard(Gtp *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    const PlayGame *g = c->g;
    char pos[NOTATION_POS_LEN], board[PLAY_BOARD_TEXT];
    notation_format_position(g->b, g->r.n, pos);
    play_board_text(g, board, sizeof board);
    bool over = rules_status(&g->r, g->b) != WINNER_NONE;
    success(c, "%s %s %s\n%s", pos, over ? "-" : board_order_to_move(g->b) ? "order" : "chaos", status_token(g),
            board);
}

static void gtp_undo(Gtp *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    if (!play_undo(c->g)) failure(c, "cannot undo: nothing to undo");
    else success(c, "%s", status_token(c->g));
}

/* --- ocsolve's own commands --- */

/* newgame [RULES] [N K]: omitted parts keep the current game's. */
static void gtp_newgame(Gtp *c, int argc, char **argv)
{
    RuleSet rs = c->g->r.rules;
    int n = c->g->r.n, k = c->g->r.k, i = 1;
    if (i < argc && rules_parse(argv[i], &rs) == 0) i++;
    else if (i < argc && digits(argv[i]) < 0) {
        failure(c, "unknown rules '%s' (original, exact or exact-end)", argv[i]);
        return;
    }
    if (argc - i == 2) {
        long ln = digits(argv[i]), lk = digits(argv[i + 1]);
        if (ln < 0 || lk < 0 || ln > 99 || lk > 99) {
            failure(c, "syntax error: board and k must be numbers, e.g. 'newgame original 6 5'");
            return;
        }
        n = (int)ln, k = (int)lk;
    } else if (argc - i != 0) {
        failure(c, "syntax error (usage: newgame [original|exact|exact-end] [BOARD K])");
        return;
    }
    if (!start_game(c, rs, n, k)) return;
    c->want_k = k;
    success(c, "%s %d %d", rules_name(rs), n, k);
}

/* solve: = WINNER DTW BY. */
static void gtp_solve(Gtp *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    AdviceValue v;
    advise_value(&c->g->adv, c->g->b, c->g->think, &v);
    char dtw[16] = "-";
    if (v.dtw > 0) snprintf(dtw, sizeof dtw, "%d", v.dtw);
    success(c, "%s %s %s", winner_name(v.winner), dtw, play_by_token(v.by));
}

/* think S: the limit is --think's (CLI_MAX_SECONDS). */
static void gtp_think(Gtp *c, int argc, char **argv)
{
    (void)argc;
    double s;
    if (!cli_plain_decimal(argv[1], false, &s) || !(s > 0 && s <= CLI_MAX_SECONDS)) {
        failure(c, "bad think time '%s': seconds more than 0 and at most 1e9", argv[1]);
        return;
    }
    c->g->think = s;
    success(c, "%g", s);
}

/* The commands: the name, how many arguments (min to max), the usage for
 * the syntax error. list_commands lists them in this order. */
static const struct {
    const char *name;
    int min, max;
    const char *usage;
    void (*run)(Gtp *, int, char **);
} commands[] = {
    {"protocol_version", 0, 0, "protocol_version", gtp_protocol_version},
    {"name", 0, 0, "name", gtp_name},
    {"version", 0, 0, "version", gtp_version},
    {"known_command", 1, 1, "known_command COMMAND", gtp_known_command},
    {"list_commands", 0, 0, "list_commands", gtp_list_commands},
    {"quit", 0, 0, "quit", gtp_quit},
    {"boardsize", 1, 1, "boardsize N", gtp_boardsize},
    {"clear_board", 0, 0, "clear_board", gtp_clear_board},
    {"komi", 1, 1, "komi NUMBER", gtp_komi},
    {"play", 1, 2, "play SYMBOL CELL or play MOVE, e.g. play X c3 or play Xc3", gtp_play},
    {"genmove", 0, 1, "genmove [X|O]", gtp_genmove},
    {"showboard", 0, 0, "showboard", gtp_showboard},
    {"undo", 0, 0, "undo", gtp_undo},
    {"newgame", 0, 3, "newgame [original|exact|exact-end] [BOARD K]", gtp_newgame},
    {"solve", 0, 0, "solve", gtp_solve},
    {"think", 1, 1, "think SECONDS", gtp_think},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static int find_command(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return i;
    return -1;
}

static void gtp_known_command(Gtp *c, int argc, char **argv)
{
    (void)argc;
    success(c, "%s", find_command(argv[1]) >= 0 ? "true" : "false");
}

static void gtp_list_commands(Gtp *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    char list[MSG_LEN] = "";
    for (int i = 0; i < NCOMMANDS; i++) {
        strcat(list, commands[i].name);
        strcat(list, "\n");
    }
    success(c, "%s", list);
}

/* Reads one line of in, preprocessed (see the header), into line (at
 * least GTP_LINE_MAX + 1 bytes): no leading space, runs of spaces as one.
 * *too_long: more was kept than fits (the rest of the line was read and
 * dropped). false at end of input with nothing read. */
static bool read_command(FILE *in, char *line, bool *too_long)
{
    size_t len = 0;
    bool comment = false, any = false;
    int ch;
    *too_long = false;
    while ((ch = getc(in)) != EOF) {
        any = true;
        if (ch == '\n') break;
        if (comment || (ch < 32 && ch != '\t') || ch == 127) continue;
        if (ch == '#') {
            comment = true;
            continue;
        }
        if (ch == '\t') ch = ' ';
        if (ch == ' ' && (len == 0 || line[len - 1] == ' ')) continue;
        if (len < GTP_LINE_MAX) line[len++] = (char)ch;
        else if (ch != ' ') *too_long = true;
    }
    line[len] = '\0';
    return any;
}

/* Splits line at its spaces (in place): the number of words; argv keeps
 * the first MAX_WORDS. */
static int split(char *line, char **argv)
{
    int argc = 0;
    for (char *p = strtok(line, " "); p; p = strtok(NULL, " ")) {
        if (argc < MAX_WORDS) argv[argc] = p;
        argc++;
    }
    return argc;
}

/* One command line (not blank): [id] name [arguments]. */
static void run_line(Gtp *c, char *line, bool too_long)
{
    char *w[MAX_WORDS];
    int nw = split(line, w), first = 0;
    c->id = "";
    /* An id is the digits of the first word. One the limit may have cut
     * short would be echoed wrong: none then. */
    if (w[0][strspn(w[0], "0123456789")] == '\0' && !(too_long && nw == 1)) {
        c->id = w[0];
        first = 1;
    }
    if (too_long) {
        failure(c, "line too long (more than %d characters)", GTP_LINE_MAX);
        return;
    }
    if (nw == first) {
        failure(c, "syntax error: no command after the id");
        return;
    }
    int i = find_command(w[first]), args = nw - first - 1;
    if (i < 0) {
        failure(c, "unknown command '%s' (list_commands lists them)", w[first]);
        return;
    }
    if (args < commands[i].min) failure(c, "syntax error: missing arguments (usage: %s)", commands[i].usage);
    else if (args > commands[i].max)
        failure(c, "syntax error: extra words from '%s' (usage: %s)", w[first + 1 + commands[i].max],
                commands[i].usage);
    else commands[i].run(c, args + 1, w + first);
}

int play_protocol(PlayGame *g, FILE *in, FILE *out)
{
    char line[GTP_LINE_MAX + 1];
    bool too_long;
    Gtp c = {g, out, "", false, g->r.k};
    while (!c.quit && read_command(in, line, &too_long))
        if (line[0] != '\0') run_line(&c, line, too_long);
    return 0;
}
