/* cli.h - what every ocsolve subcommand shares: the game options
 * (--rules, --board, --k), numbers, positions with moves, and the one way
 * to reject input: a single line on stderr and exit code 2.
 */
#ifndef OCS_CLI_H
#define OCS_CLI_H

#include <stdbool.h>
#include <stdnoreturn.h>

#include "../engine/rules.h"

enum { CLI_EXIT_USAGE = 2 };

typedef struct {
    int n, k; /* 0 = not given */
    RuleSet rules;
} GameOpts;

/* getopt_long entries for the game options; handled by cli_game_option. */
#define CLI_GAME_LONGOPTS                                                                                    \
    {"rules", required_argument, NULL, 'r'}, {"board", required_argument, NULL, 'b'},                         \
        {"k", required_argument, NULL, 'k'}
#define CLI_GAME_HELP                                                                                        \
    "  --rules R   original (default), exact or exact-end\n"                                                  \
    "  --board N   board size, 4 to 8 (default: from the position, else 6)\n"                                 \
    "  --k K       line length, 3 to N (default 5)\n"

noreturn void cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Fails on anything but a whole decimal number in [min, max]. */
long cli_number(const char *s, const char *what, long min, long max);
/* Handles opt if it is one of the game options; false otherwise. */
bool cli_game_option(int opt, const char *arg, GameOpts *g);
/* After getopt_long returned '?' or ':' (optstring must start with ':'). */
noreturn void cli_bad_option(char **argv, int opt);

/* Parses POSITION (NULL: the empty board), sets up r, then plays the moves
 * in order; fails on a bad position, size, k, move, occupied cell, or a
 * move after the game has ended. */
void cli_position(const GameOpts *g, const char *pos, char **moves, int nmoves, Rules *r, Board *b);

#endif
