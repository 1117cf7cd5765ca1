/* cli.h - what every ocsolve subcommand shares: the game options
 * (--rules, --board, --k), numbers, positions with moves, and the one way
 * to reject input: a single line on stderr and exit code 2.
 */
#ifndef OCS_CLI_H
#define OCS_CLI_H

#include <stdbool.h>
#include <stdint.h>
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

/* Numbers. All three share one strict syntax check of the whole string:
 * no white space anywhere, no '+', no "inf", "nan", hex ("0x1p3") or
 * thousands separators, and a '-' only where the range is negative
 * (cli_real with min < 0; never "-0" for min >= 0).
 *   cli_number: digits only ("0", "42"), whole numbers of 0 or more.
 *   cli_real, cli_seconds: plain decimals - digits with at most one '.'
 *   and at least one digit ("1", "0.5", "2.", ".5"), then optionally an
 *   exponent ("1e3", "2.5E-1").
 * `what` names the option or argument in the message; any fault, of
 * spelling or range, prints one line and exits with code 2. */
/* A whole number in [min, max]. */
long cli_number(const char *s, const char *what, long min, long max);
/* The same syntax without failing, for input that is not an option (the
 * play protocol): a real number, a '-' only if minus; *v gets it (an
 * overflow reads as infinite, which no range holds). */
bool cli_plain_decimal(const char *s, bool minus, double *v);
/* A real number in [min, max] (inclusive), e.g. --epsilon 0..10. */
double cli_real(const char *s, const char *what, double min, double max);
/* A duration in seconds: > 0 and <= CLI_MAX_SECONDS (about 31 years). */
#define CLI_MAX_SECONDS 1e9
double cli_seconds(const char *s, const char *what);
/* --order's value: true for center (nearest the centre first), false for
 * cells (by cell index); anything else fails (exit 2). */
bool cli_center_first(const char *s);

/* Handles opt if it is one of the game options; false otherwise. */
bool cli_game_option(int opt, const char *arg, GameOpts *g);
/* After getopt_long returned '?' or ':' (optstring must start with ':'):
 * names the word at fault - an unknown option ("--bogus", "-x", also inside
 * a bundle such as "-xy"), a value given to an option that takes none
 * ("--quiet=3"), a missing value ("--tt-mb" at the end) - and exits 2.
 * Call it at once: it asks getopt where it stands (glibc). */
noreturn void cli_bad_option(char **argv, int opt);

/* Parses POSITION (NULL: the empty board), sets up r, then plays the moves
 * in order; fails on a bad position, size, k, move, occupied cell, or a
 * move after the game has ended. */
void cli_position(const GameOpts *g, const char *pos, char **moves, int nmoves, Rules *r, Board *b);
/* The same without failing: 0, or -1 with the one-line message in err
 * (k_option names the option that sets k, for the hint "give --k"). */
int cli_position_check(const GameOpts *g, const char *pos, const char *const *moves, int nmoves, const char *k_option,
                       Rules *r, Board *b, char *err, int errlen);
/* The same for the words after the options (getopt's optind on): the
 * first is POSITION, the rest are moves; none: the empty board. */
void cli_position_args(const GameOpts *g, int argc, char **argv, Rules *r, Board *b);

/* Replaces control characters in msg by '?': a message that quotes what a
 * user typed stays on one line whatever was typed. */
void cli_one_line(char *msg);

/* A proof or disproof number as people read it: "inf" for infinity
 * (DFPN_INF), else the number; buf holds CLI_PN_LEN chars. Returns buf. */
enum { CLI_PN_LEN = 12 };
const char *cli_pn(uint32_t v, char *buf);

#endif
