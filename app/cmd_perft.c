/* cmd_perft.c - `ocsolve perft`: exact move-tree counts. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../engine/perft.h"
#include "cli.h"
#include "../solver/clock.h"
#include "commands.h"

static const char perft_help[] =
    "usage: ocsolve perft [options] DEPTH [POSITION [MOVE ...]]\n"
    "Count the move sequences of length DEPTH from POSITION (default: the empty\n"
    "board); a finished game (a win or a full board) has no moves.\n" CLI_GAME_HELP
    "  --method M  memo (default): bulk counting plus a table of symmetric positions;\n"
    "              bulk: the last ply is counted, not made; full: every leaf is made\n"
    "              and judged (the hot path's full cost)\n"
    "  --hash-mb M size of the memo table in MiB (default 64)\n"
    "  --help      this text\n"
    "The last line is 'perft DEPTH = COUNT'.\n"
    "example: ocsolve perft 5\n"
    "example: ocsolve perft --rules exact --board 4 --k 4 6\n";

int cmd_perft(int argc, char **argv)
{
    static const struct option longopts[] = {CLI_GAME_LONGOPTS,
                                             {"method", required_argument, NULL, 'm'},
                                             {"hash-mb", required_argument, NULL, 'H'},
                                             {"help", no_argument, NULL, 'h'},
                                             {0, 0, 0, 0}};
    GameOpts g = {0, 0, RULES_ORIGINAL};
    PerftMode mode = PERFT_MEMO;
    long hash_mb = 64;
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (opt == 'h') {
            fputs(perft_help, stdout);
            return 0;
        } else if (opt == 'm') {
            if (strcmp(optarg, "full") == 0) mode = PERFT_FULL;
            else if (strcmp(optarg, "bulk") == 0) mode = PERFT_BULK;
            else if (strcmp(optarg, "memo") == 0) mode = PERFT_MEMO;
            else cli_fail("unknown perft method '%s' (full, bulk or memo)", optarg);
        } else if (opt == 'H') {
            hash_mb = cli_number(optarg, "--hash-mb", 1, 1L << 20);
        } else if (!cli_game_option(opt, optarg, &g)) {
            cli_bad_option(argv, opt);
        }
    }
    if (optind >= argc) cli_fail("perft needs a DEPTH (try 'ocsolve perft --help')");
    int depth = (int)cli_number(argv[optind], "depth", 0, 64);
    const char *pos = optind + 1 < argc ? argv[optind + 1] : NULL;
    int nmoves = optind + 2 < argc ? argc - optind - 2 : 0;
    Rules r;
    Board b;
    cli_position(&g, pos, argv + optind + 2, nmoves, &r, &b);

    static const char *const names[] = {"full", "bulk", "memo"};
    printf("perft %d: %s rules, %dx%d, k=%d, method %s\n", depth, rules_name(r.rules), r.n, r.n, r.k, names[mode]);
    fflush(stdout);
    PerftResult res;
    double t0 = clock_seconds();
    if (perft_run(&r, b, depth, mode, (size_t)hash_mb << 20, &res) != 0)
        cli_fail("cannot allocate a %ld MiB memo table (use --hash-mb)", hash_mb);
    double dt = clock_seconds() - t0;
    double sec = dt > 1e-9 ? dt : 1e-9;
    printf("time %.3f s, positions made %llu (%.0f/s), sequences %.0f/s\n", dt, (unsigned long long)res.nodes,
           (double)res.nodes / sec, (double)res.count / sec);
    if (mode == PERFT_MEMO) printf("memo hits %llu\n", (unsigned long long)res.memo_hits);
    if (mode == PERFT_FULL) printf("sequences ending the game on the last move %llu\n", (unsigned long long)res.leaf_ends);
    printf("perft %d = %llu\n", depth, (unsigned long long)res.count);
    return 0;
}
