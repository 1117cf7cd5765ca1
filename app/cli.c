/* cli.c - see cli.h. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/notation.h"
#include "../solver/dfpn.h"

void cli_fail(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_one_line(msg); /* it quotes user input */
    fprintf(stderr, "ocsolve: %s\n", msg);
    exit(CLI_EXIT_USAGE);
}

/* The one syntax check of every number (cli.h): the whole of s is
 *   ['-'] digits ['.' digits] [('e' | 'E') ['+' | '-'] digits]
 * with at least one digit before the exponent; the '-' only if minus, the
 * '.' and the exponent only if real. Nothing else: no space, '+', "inf",
 * "nan", hex. */
static bool number_syntax(const char *s, bool real, bool minus)
{
    const char *p = s;
    if (minus && *p == '-') p++;
    int digits = 0;
    while (*p >= '0' && *p <= '9') p++, digits++;
    if (real && *p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') p++, digits++;
    }
    if (digits == 0) return false;
    if (real && (*p == 'e' || *p == 'E')) {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (*p < '0' || *p > '9') return false;
        while (*p >= '0' && *p <= '9') p++;
    }
    return *p == '\0';
}

long cli_number(const char *s, const char *what, long min, long max)
{
    bool ok = number_syntax(s, false, false);
    errno = 0;
    long v = ok ? strtol(s, NULL, 10) : 0;
    if (!ok || errno == ERANGE) cli_fail("bad %s '%s': not a whole number of 0 or more", what, s);
    if (v < min || v > max) cli_fail("bad %s %ld: must be from %ld to %ld", what, v, min, max);
    return v;
}

bool cli_plain_decimal(const char *s, bool minus, double *v)
{
    if (!number_syntax(s, true, minus)) return false;
    *v = strtod(s, NULL);
    return true;
}

double cli_real(const char *s, const char *what, double min, double max)
{
    double v;
    if (!cli_plain_decimal(s, true, &v)) cli_fail("bad %s '%s': not a plain decimal number (from %g to %g)", what, s, min, max);
    if (!(v >= min && v <= max) || (s[0] == '-' && min >= 0))
        cli_fail("bad %s '%s': must be from %g to %g", what, s, min, max);
    return v;
}

double cli_seconds(const char *s, const char *what)
{
    double v;
    if (!cli_plain_decimal(s, true, &v)) cli_fail("bad %s '%s': not a plain decimal number of seconds", what, s);
    if (!(v > 0 && v <= CLI_MAX_SECONDS)) cli_fail("bad %s '%s': seconds > 0 and at most 1e9", what, s);
    return v;
}

bool cli_center_first(const char *s)
{
    if (strcmp(s, "cells") != 0 && strcmp(s, "center") != 0) cli_fail("unknown --order '%s' (cells or center)", s);
    return strcmp(s, "center") == 0;
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

/* Is getopt inside a bundle of short options ("-xy", after 'x')? glibc
 * keeps its place in a bundle to itself and reports a fault there before
 * it moves optind past the word, so argv[optind - 1] is then the word
 * before. Called again with argc = optind, getopt goes on with the next
 * character of a bundle (not -1), and outside one finds no more words (-1).
 * This moves getopt's state (and may permute argv): only on the way out. */
static bool getopt_in_bundle(char **argv)
{
    static const struct option none[] = {{0, 0, 0, 0}};
    return getopt_long(optind, argv, ":", none, NULL) != -1;
}

void cli_bad_option(char **argv, int opt)
{
    /* What the messages need, taken before getopt_in_bundle moves it. */
    int c = optopt;
    const char *prev = argv[optind - 1], *cur = argv[optind];
    bool in_bundle = getopt_in_bundle(argv);
    /* A long option's fault: getopt has moved past the word, always. */
    if (!in_bundle && strncmp(prev, "--", 2) == 0) {
        int len = (int)strcspn(prev, "=");
        if (opt == ':') cli_fail("option '%.*s' needs a value", len, prev);
        /* glibc sets optopt to a known option's value when it is given a value it does not take. */
        if (c != 0 && prev[len] == '=') cli_fail("option '%.*s' takes no value", len, prev);
        cli_fail("unknown option '%.*s'", len, prev);
    }
    /* A short option's fault: optopt is the character; the word is the
     * bundle it is in (whole, if the character is not printable). */
    const char *word = in_bundle ? cur : prev;
    if (c <= ' ' || c >= 127) cli_fail("unknown option in '%s'", word);
    if (opt == ':') cli_fail("option '-%c' needs a value", c);
    cli_fail("unknown option '-%c'", c);
}

int cli_position_check(const GameOpts *g, const char *pos, const char *const *moves, int nmoves, const char *k_option,
                       Rules *r, Board *b, char *err, int errlen)
{
    int n;
    if (notation_parse_position(pos ? pos : "empty", g->n, b, &n, err, errlen) != 0) return -1;
    int k = g->k ? g->k : 5;
    if (k > n) {
        snprintf(err, (size_t)errlen, "k=%d%s is larger than the %dx%d board%s%s", k, g->k ? "" : " (the default)", n,
                 n, g->k ? "" : "; give ", g->k ? "" : k_option);
        return -1;
    }
    if (rules_init(r, n, k, g->rules, err, errlen) != 0) return -1;
    for (int i = 0; i < nmoves; i++) {
        Move m;
        if (notation_parse_move(moves[i], n, &m, err, errlen) != 0) return -1;
        Winner st = rules_status(r, *b);
        if (st != WINNER_NONE) {
            snprintf(err, (size_t)errlen, "move %s: the game is already over (%s has won)", moves[i],
                     st == WINNER_ORDER ? "Order" : "Chaos");
            return -1;
        }
        if (board_occupied(*b) & (1ULL << move_cell(m))) {
            snprintf(err, (size_t)errlen, "move %s: cell %s is occupied", moves[i], moves[i] + 1);
            return -1;
        }
        board_place(b, m);
    }
    return 0;
}

void cli_position(const GameOpts *g, const char *pos, char **moves, int nmoves, Rules *r, Board *b)
{
    char err[NOTATION_ERR_LEN];
    if (cli_position_check(g, pos, (const char *const *)moves, nmoves, "--k", r, b, err, sizeof err) != 0)
        cli_fail("%s", err);
}

void cli_one_line(char *msg)
{
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 32 || *p == 127) *p = '?';
}

void cli_position_args(const GameOpts *g, int argc, char **argv, Rules *r, Board *b)
{
    const char *pos = optind < argc ? argv[optind] : NULL;
    int nmoves = optind + 1 < argc ? argc - optind - 1 : 0;
    cli_position(g, pos, argv + optind + 1, nmoves, r, b);
}

const char *cli_pn(uint32_t v, char *buf)
{
    if (v == DFPN_INF) snprintf(buf, CLI_PN_LEN, "inf");
    else snprintf(buf, CLI_PN_LEN, "%u", v);
    return buf;
}
