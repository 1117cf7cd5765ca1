/* serve_api.c - the JSON API of `ocsolve serve` (README, ocsolve serve):
 * request parameters into a query, checked as the command line checks
 * its own (cli_position_check, so the same input gets the same message),
 * and a job into its JSON through the one JSON writer (json.h).
 *
 * Invariants: every parameter is known, given once, at most
 * SERVE_VALUE_MAX bytes and free of control characters, or the request
 * is refused with one line naming it; a message quoting input is one
 * line (cli_one_line).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/notation.h"
#include "cli.h"
#include "json.h"
#include "play.h"
#include "serve.h"

void serve_param_add(ServeParams *p, const char *name, const char *value)
{
    if (p->err[0]) return;
    char shown[40];
    snprintf(shown, sizeof shown, "%s", name);
    cli_one_line(shown);
    if (p->n == SERVE_MAX_PARAMS) snprintf(p->err, sizeof p->err, "too many parameters (at most %d)", SERVE_MAX_PARAMS);
    else if (strlen(name) > SERVE_NAME_MAX) snprintf(p->err, sizeof p->err, "unknown parameter '%s'", shown);
    else if (strlen(value) > SERVE_VALUE_MAX)
        snprintf(p->err, sizeof p->err, "parameter '%s' is longer than %d bytes", shown, SERVE_VALUE_MAX);
    for (const char *c = value; *c && !p->err[0]; c++)
        if ((unsigned char)*c < 32 || *c == 127)
            snprintf(p->err, sizeof p->err, "parameter '%s' holds a control character", shown);
    for (const char *c = name; *c && !p->err[0]; c++)
        if ((unsigned char)*c < 32 || *c == 127) snprintf(p->err, sizeof p->err, "unknown parameter '%s'", shown);
    for (int i = 0; i < p->n && !p->err[0]; i++)
        if (strcmp(p->name[i], name) == 0) snprintf(p->err, sizeof p->err, "parameter '%s' is given twice", shown);
    if (p->err[0]) return;
    strcpy(p->name[p->n], name);
    strcpy(p->value[p->n], value);
    p->n++;
}

static int hex(int c) { return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1; }

/* Decodes src[0..len) ('+' a space, %XX a byte) into dst (size bytes);
 * false when it does not fit or an escape is malformed. */
static bool form_decode(const char *src, size_t len, char *dst, size_t size)
{
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        int c = (unsigned char)src[i];
        if (c == '+') c = ' ';
        else if (c == '%') {
            if (i + 2 >= len) return false;
            int hi = hex((unsigned char)src[i + 1]), lo = hex((unsigned char)src[i + 2]);
            if (hi < 0 || lo < 0) return false;
            c = hi * 16 + lo;
            i += 2;
        }
        if (c == 0 || o + 1 >= size) return false;
        dst[o++] = (char)c;
    }
    dst[o] = '\0';
    return true;
}

void serve_params_form(ServeParams *p, const char *body, size_t len)
{
    size_t i = 0;
    while (i < len && !p->err[0]) {
        size_t end = i;
        while (end < len && body[end] != '&') end++;
        size_t eq = i;
        while (eq < end && body[eq] != '=') eq++;
        char name[SERVE_NAME_MAX + 2], value[SERVE_VALUE_MAX + 2];
        if (end > i) {
            if (!form_decode(body + i, eq - i, name, sizeof name) ||
                !form_decode(body + eq + (eq < end), end - eq - (eq < end), value, sizeof value))
                snprintf(p->err, sizeof p->err, "malformed form body (a parameter too long or a bad %%-escape)");
            else serve_param_add(p, name, value);
        }
        i = end + 1;
    }
}

static const char *param(const ServeParams *p, const char *name)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->name[i], name) == 0) return p->value[i];
    return NULL;
}

/* Splits the moves (separated by spaces or commas) into words, in place. */
static int split_moves(char *s, char **words, int max)
{
    int n = 0;
    for (char *w = strtok(s, " ,"); w; w = strtok(NULL, " ,")) {
        if (n == max) return -1;
        words[n++] = w;
    }
    return n;
}

/* The game options among p (as --rules, --board, --k): 0 or -1. */
static int game_params(const ServeParams *p, GameOpts *go, char *err, int errlen)
{
    const char *rules = param(p, "rules"), *board = param(p, "board"), *k = param(p, "k");
    *go = (GameOpts){0, 0, RULES_ORIGINAL};
    if (rules && rules_parse(rules, &go->rules) != 0) {
        snprintf(err, (size_t)errlen, "unknown rules '%s' (original, exact or exact-end)", rules);
        return -1;
    }
    if (board && (strlen(board) != 1 || board[0] < '0' + BOARD_MIN_N || board[0] > '0' + BOARD_MAX_N)) {
        snprintf(err, (size_t)errlen, "bad board size '%s': a number from %d to %d", board, BOARD_MIN_N, BOARD_MAX_N);
        return -1;
    }
    if (k && (strlen(k) != 1 || k[0] < '3' || k[0] > '0' + BOARD_MAX_N)) {
        snprintf(err, (size_t)errlen, "bad k '%s': a number from 3 to %d", k, BOARD_MAX_N);
        return -1;
    }
    go->n = board ? board[0] - '0' : 0;
    go->k = k ? k[0] - '0' : 0;
    return 0;
}

int serve_query(ServeKind kind, const ServeParams *p, ServeQuery *q, char *err, int errlen)
{
    static const char *const known[] = {"position", "moves", "rules", "board", "k", "symbol"};
    int nknown = kind == SERVE_PLAY ? 6 : 5;
    for (int i = 0; i < p->n; i++) {
        int j = 0;
        while (j < nknown && strcmp(p->name[i], known[j]) != 0) j++;
        if (j == nknown) {
            snprintf(err, (size_t)errlen, "unknown parameter '%s' (position, moves, rules, board, k%s)", p->name[i],
                     kind == SERVE_PLAY ? ", symbol" : "");
            return -1;
        }
    }
    memset(q, 0, sizeof *q);
    q->kind = kind;
    q->last = MOVE_NONE;
    q->sym = -1;
    GameOpts go;
    if (game_params(p, &go, err, errlen) != 0) return -1;
    const char *pos = param(p, "position"), *moves = param(p, "moves"), *sym = param(p, "symbol");
    if (pos && !*pos) pos = NULL;
    char buf[SERVE_VALUE_MAX + 1] = "", *words[PLAY_MAX_MOVES];
    if (moves) snprintf(buf, sizeof buf, "%s", moves);
    int nmoves = split_moves(buf, words, PLAY_MAX_MOVES);
    if (nmoves < 0) {
        snprintf(err, (size_t)errlen, "more than %d moves", PLAY_MAX_MOVES);
        return -1;
    }
    if (cli_position_check(&go, pos, (const char *const *)words, nmoves, "k", &q->r, &q->b, err, errlen) != 0) return -1;
    if (nmoves > 0) notation_parse_move(words[nmoves - 1], q->r.n, &q->last, err, errlen);
    if (sym && strcmp(sym, "X") != 0 && strcmp(sym, "O") != 0 && strcmp(sym, "") != 0) {
        snprintf(err, (size_t)errlen, "bad symbol '%s': X, O or empty (either)", sym);
        return -1;
    }
    if (sym && *sym) q->sym = sym[0] == 'X' ? PIECE_X : PIECE_O;
    return 0;
}
