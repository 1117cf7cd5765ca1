/* cmd_random.c - `ocsolve random`: random positions for suites and
 * experiments, reproducible from a seed. Each is reached by random legal
 * moves from the empty board, none of which ended the game, so every
 * position printed is ongoing and could occur in play. */
#include <getopt.h>
#include <stdio.h>

#include "../engine/notation.h"
#include "../engine/rng.h"
#include "cli.h"
#include "commands.h"

static const char random_help[] =
    "usage: ocsolve random [options] EMPTY [COUNT]\n"
    "Print COUNT (default 1) random ongoing positions with EMPTY empty cells,\n"
    "one per line, each reached by random moves that did not end the game.\n" CLI_GAME_HELP
    "  --seed S    random seed (default 1); the same seed gives the same positions\n"
    "  --help      this text\n"
    "example: ocsolve random --seed 7 20 5\n";

int cmd_random(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_GAME_LONGOPTS, {"seed", required_argument, NULL, 's'}, {"help", no_argument, NULL, 'h'}, {0, 0, 0, 0}};
    GameOpts g = {0, 0, RULES_ORIGINAL};
    uint64_t seed = 1;
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (opt == 'h') {
            fputs(random_help, stdout);
            return 0;
        } else if (opt == 's') {
            seed = (uint64_t)cli_number(optarg, "--seed", 0, 0x7FFFFFFFFFFFFFFFL);
        } else if (!cli_game_option(opt, optarg, &g)) {
            cli_bad_option(argv, opt);
        }
    }
    if (optind >= argc) cli_fail("random needs EMPTY (try 'ocsolve random --help')");
    if (optind + 2 < argc) cli_fail("unexpected argument '%s'", argv[optind + 2]);
    Rules r;
    Board b;
    cli_position(&g, NULL, NULL, 0, &r, &b);
    int cells = r.n * r.n;
    int empty = (int)cli_number(argv[optind], "EMPTY", 1, cells);
    long count = optind + 1 < argc ? cli_number(argv[optind + 1], "COUNT", 1, 100000000L) : 1;
    uint64_t rng = seed;
    for (long i = 0; i < count;) {
        b = board_empty();
        int placed = 0;
        for (int tries = 0; placed < cells - empty && tries < 100 * cells; tries++) {
            int c = board_cell((int)(rng_next(&rng) % (uint64_t)r.n), (int)(rng_next(&rng) % (uint64_t)r.n));
            if (board_occupied(b) & (1ULL << c)) continue;
            Move m = move_make((int)(rng_next(&rng) & 1), c);
            board_place(&b, m);
            if (rules_status_after(&r, b, m) != WINNER_NONE) {
                board_undo(&b, m);
                continue;
            }
            placed++;
        }
        if (placed < cells - empty) continue; /* stuck: every move ended the game; start again */
        char pos[NOTATION_POS_LEN];
        notation_format_position(b, r.n, pos);
        printf("%s\n", pos);
        i++;
    }
    return 0;
}
