/* cmd_show.c - `ocsolve show`: a position as a grid, who moves, its status,
 * the moves that win at once, and its canonical form. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../engine/notation.h"
#include "../engine/symmetry.h"
#include "cli.h"
#include "commands.h"
#include "../solver/centre.h"
#include "../solver/centre_half.h"
#include "../solver/centre_ring.h"
#include "../solver/pairing.h"

static const char show_help[] =
    "usage: ocsolve show [options] POSITION [MOVE ...]\n"
    "Print POSITION (after playing the MOVEs, if any) as a grid, with the side to\n"
    "move, the status, the moves that complete a line at once, the centre lemma's\n"
    "state, a Chaos pairing if one is found, and the canonical form (the least of\n"
    "its 16 symmetric images).\n"
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

static void cell_name(int cell, char out[4]) { notation_format_move(move_make(PIECE_X, cell), out), memmove(out, out + 1, 3); }

/* The centre lemma (solver/centre.h) at b: its pairs, whether they are
 * empty or mixed, the small game's value, and the verdict. */
static void print_centre(const Rules *r, Board b)
{
    Centre c;
    centre_init(&c, r);
    c.half_max_pieces = CENTRE_HALF_MAX_PIECES; /* one position: its seconds are worth it */
    c.half_two_max_pieces = CENTRE_HALF_MAX_PIECES;
    if (!c.on) {
        printf("centre lemma: does not apply (needs original or exact rules, k = n-1, n from 4 to 6)\n");
        return;
    }
    printf("centre pairs:");
    for (int p = 0; p < c.npairs; p++) {
        char u[4], v[4];
        cell_name(c.pair[p][0], u);
        cell_name(c.pair[p][1], v);
        uint64_t x = b.s[PIECE_X] & c.pair_mask[p], o = b.s[PIECE_O] & c.pair_mask[p];
        int nx = __builtin_popcountll(x), no = __builtin_popcountll(o);
        printf(" %s-%s%s", u, v,
               nx + no == 0 ? "" : nx == 1 && no == 1 ? "(mixed)" : nx + no == 1 ? "(half)" : nx == 2 ? "(X X)" : "(O O)");
    }
    uint32_t allowed;
    bool settled = centre_allowed(&c, b, &allowed), small = centre_small_win(c.m, centre_index(&c, b));
    printf("\ncentre small game (%dx%d, k=%d): %s wins", c.m, c.m, c.m, small ? "Order" : "Chaos");
    if (settled && allowed != ((1u << 2 * c.npairs) - 1))
        printf("; with the same pairs' lines restricted: %s wins",
               centre_small_win_allowed(c.m, allowed, centre_index(&c, b)) ? "Order" : "Chaos");
    printf("\ncentre lemma: %s\n", centre_win_with_half(&c, b, NULL, 0) ? "Order wins by the centre strategy"
                                  : settled ? "no (the small game is a Chaos win)"
                                            : "no (a pair is half full: more than two, more pieces than the "
                                              "half-pair form looks at, or its extended game is a Chaos win)");
    CentreRing ring;
    if (!c.ring) {
        printf("ring lemma: does not apply (odd board)\n");
    } else if (centre_ring_chaos(&c, r, b, &ring, NULL, 0)) {
        printf("ring lemma: Chaos wins (the centre's small game and %d ring pairs):", ring.n);
        for (int j = 0; j < ring.n; j++) {
            char u[4], v[4];
            cell_name(ring.a[j], u);
            cell_name(ring.b[j], v);
            printf(" %s:%s~", u, v);
        }
        printf("\n");
    } else {
        printf("ring lemma: no\n");
    }
}

/* A pairing (solver/pairing.h) for b, if one is found within a large
 * budget: its pairs, as a certificate's lemma line writes them. */
static void print_pairing(const Rules *r, Board b)
{
    PairSet ps;
    bool parity = pairing_parity(r, b); /* else only the breakable form (pairing.h) */
    if (!pairing_find(r, b, 100000, &ps)) {
        printf("pairing: none found%s\n", parity ? "" : " (no parity here: breakable pairs only)");
        return;
    }
    printf("pairing: Chaos wins with %d %spairs:", ps.n, parity ? "" : "breakable ");
    for (int j = 0; j < ps.n; j++) {
        char u[4], v[4];
        cell_name(ps.p[j].a, u);
        cell_name(ps.p[j].b, v);
        printf(" %s:%s%c", u, v, ps.p[j].same ? '=' : '~');
    }
    printf("\n");
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
        print_centre(&r, b);
        print_pairing(&r, b);
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
