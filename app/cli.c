/* cli.c - see cli.h. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/notation.h"

void cli_fail(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* The message quotes user input: keep it on one line whatever was typed. */
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 32 || *p == 127) *p = '?';
    fprintf(stderr, "ocsolve: %s\n", msg);
    exit(CLI_EXIT_USAGE);
}

long cli_number(const char *s, const char *what, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno == ERANGE || (*s < '0' || *s > '9'))
        cli_fail("bad %s '%s': not a whole number of 0 or more", what, s);
    if (v < min || v > max) cli_fail("bad %s %ld: must be from %ld to %ld", what, v, min, max);
    return v;
}

bool cli_game_option(int opt, const char *arg, GameOpts *g)
{
    switch (opt) {
    case 'r':
        if (rules_parse(arg, &g->rules) != 0)
            cli_fail("unknown rules '%s' (original, exact or exact-end)", arg);
        return true;
    case 'b': g->n = (int)cli_number(arg, "board size", BOARD_MIN_N, BOARD_MAX_N); return true;
    case 'k': g->k = (int)cli_number(arg, "k", 3, BOARD_MAX_N); return true;
    default: return false;
    }
}

void cli_bad_option(char **argv, int opt)
{
    const char *word = argv[optind - 1];
    if (opt == ':') cli_fail("option '%s' needs a value", word);
    if (strncmp(word, "--", 2) == 0) {
        /* getopt_long sets optopt for a known long option given a value it does not take. */
        int len = (int)strcspn(word, "=");
        if (optopt) cli_fail("option '%.*s' takes no value", len, word);
        cli_fail("unknown option '%.*s'", len, word);
    }
    if (optopt) cli_fail("unknown option '-%c'", optopt);
    cli_fail("unknown option '%s'", word);
}

void cli_position(const GameOpts *g, const char *pos, char **moves, int nmoves, Rules *r, Board *b)
{
    char err[NOTATION_ERR_LEN];
    int n;
    if (notation_parse_position(pos ? pos : "empty", g->n, b, &n, err, sizeof err) != 0) cli_fail("%s", err);
    int k = g->k ? g->k : 5;
    if (k > n)
        cli_fail("k=%d%s is larger than the %dx%d board%s", k, g->k ? "" : " (the default)", n, n,
                 g->k ? "" : "; give --k");
    if (rules_init(r, n, k, g->rules, err, sizeof err) != 0) cli_fail("%s", err);
    for (int i = 0; i < nmoves; i++) {
        Move m;
        if (notation_parse_move(moves[i], n, &m, err, sizeof err) != 0) cli_fail("%s", err);
        Winner st = rules_status(r, *b);
        if (st != WINNER_NONE)
            cli_fail("move %s: the game is already over (%s has won)", moves[i],
                     st == WINNER_ORDER ? "Order" : "Chaos");
        if (board_occupied(*b) & (1ULL << move_cell(m))) cli_fail("move %s: cell %s is occupied", moves[i], moves[i] + 1);
        board_place(b, m);
    }
}
