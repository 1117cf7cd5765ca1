/* cmd_show.c - `ocsolve show`: a position as a grid, who moves, its status,
 * the moves that win at once, and its canonical form. */
#include <getopt.h>
#include <stdio.h>

#include "../engine/notation.h"
#include "../engine/symmetry.h"
#include "cli.h"
#include "commands.h"

static const char show_help[] =
    "usage: ocsolve show [options] POSITION [MOVE ...]\n"
    "Print POSITION (after playing the MOVEs, if any) as a grid, with the side to\n"
    "move, the status, the moves that complete a line at once, and the canonical\n"
    "form (the least of its 16 symmetric images).\n"
    "  POSITION    n*n of X O . row by row from a1 (top-left), '/' ignored; - or empty\n"
    "  MOVE        symbol and cell, e.g. Xc3 (column letter, row number from the top)\n" CLI_GAME_HELP
    "  --help      this text\n"
    "example: ocsolve show XX.OO./....../....../....../....../...... Xc1\n";

static void print_moves(const char *label, const uint64_t win[2])
{
    printf("%s", label);
    int any = 0;
    for (int s = 0; s < 2; s++) {
        uint64_t w = win[s];
        while (w) {
            char mv[4];
            notation_format_move(move_make(s, bb_pop(&w)), mv);
            printf(" %s", mv);
            any = 1;
        }
    }
    printf("%s\n", any ? "" : " none");
}

int cmd_show(int argc, char **argv)
{
    static const struct option longopts[] = {CLI_GAME_LONGOPTS, {"help", no_argument, NULL, 'h'}, {0, 0, 0, 0}};
    GameOpts g = {0, 0, RULES_ORIGINAL};
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (opt == 'h') {
            fputs(show_help, stdout);
            return 0;
        }
        if (!cli_game_option(opt, optarg, &g)) cli_bad_option(argv, opt);
    }
    if (optind >= argc) cli_fail("show needs a POSITION (try 'ocsolve show --help')");
    Rules r;
    Board b;
    cli_position(&g, argv[optind], argv + optind + 1, argc - optind - 1, &r, &b);

    int n = r.n;
    printf("   ");
    for (int c = 0; c < n; c++) printf(" %c", 'a' + c);
    printf("\n");
    for (int row = 0; row < n; row++) {
        printf("%2d ", row + 1);
        for (int c = 0; c < n; c++) printf(" %c", board_at(b, board_cell(row, c)));
        printf("\n");
    }
    printf("rules: %s, %dx%d, k=%d\n", rules_name(r.rules), n, n, r.k);
    printf("pieces: %d (X %d, O %d), empty: %d\n", board_count(b), __builtin_popcountll(b.s[PIECE_X]),
           __builtin_popcountll(b.s[PIECE_O]), n * n - board_count(b));
    Winner st = rules_status(&r, b);
    const char *mover = board_order_to_move(b) ? "Order" : "Chaos";
    if (st == WINNER_NONE) {
        printf("status: ongoing, %s to move\n", mover);
        uint64_t win[2];
        rules_winning_cells(&r, b, win);
        print_moves("winning moves:", win);
    } else {
        printf("status: %s has won\n", st == WINNER_ORDER ? "Order" : "Chaos");
    }
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, n, pos);
    printf("position: %s\n", pos);
    notation_format_position(sym_canonical(b, n, NULL), n, pos);
    printf("canonical: %s\n", pos);
    return 0;
}
