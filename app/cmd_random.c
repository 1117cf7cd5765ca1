/* cmd_random.c - `ocsolve random`: random positions for suites and
 * experiments, reproducible from a seed. Each is reached by random legal
 * moves from the empty board, none of which ended the game, so every
 * position printed is ongoing and could occur in play.
 *
 * Random play: random cells and symbols, a move that would end the game
 * taken back, started again when stuck. With a short line (k = 3) on a big
 * board random play nearly always gets stuck long before few cells are
 * left, so after RANDOM_PLAY_TRIES tries for one position a search
 * builds the positions instead (random_fill). Random play's output is the
 * one committed suites were made with: it must not change. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "../engine/notation.h"
#include "../engine/rng.h"
#include "cli.h"
#include "commands.h"

static const char random_help[] =
    "usage: ocsolve random [options] EMPTY [COUNT]\n"
    "Print COUNT (default 1) random ongoing positions with EMPTY empty cells,\n"
    "one per line, each reached by random moves that did not end the game\n"
    "(where random play rarely gets that far, as with --k 3 and few empty cells\n"
    "on a big board, a search finds them: positions with no run of K at all).\n" CLI_GAME_HELP
    "  --seed S    random seed (default 1); the same seed gives the same positions\n"
    "  --help      this text\n"
    "example: ocsolve random --seed 7 20 5\n";

enum {
    /* Tries of random play for one position before the search takes over
     * (for that position and all after it). Random play needs one with the
     * default k = 5, and rarely over a thousand for any board where it
     * finds positions within seconds; 5000 take 0.4 s on 8x8. */
    RANDOM_PLAY_TRIES = 5000,
    /* The search's bound: tries (each with new empty cells) of at most
     * RANDOM_FILL_NODES nodes. It needs about 10^4 nodes at most (8x8, k = 3,
     * one empty cell) and always succeeds (random_fill): a bound, not a limit. */
    RANDOM_FILL_TRIES = 100,
    RANDOM_FILL_NODES = 1000000,
};

/* Random play, as it has always been: a position with `empty` empty cells
 * reached by random moves none of which ended the game, in *b; false if
 * it got stuck (try again). */
static bool random_play(const Rules *r, int empty, uint64_t *rng, Board *b)
{
    int cells = r->n * r->n;
    *b = board_empty();
    int placed = 0;
    for (int tries = 0; placed < cells - empty && tries < 100 * cells; tries++) {
        int c = board_cell((int)(rng_next(rng) % (uint64_t)r->n), (int)(rng_next(rng) % (uint64_t)r->n));
        if (board_occupied(*b) & (1ULL << c)) continue;
        Move m = move_make((int)(rng_next(rng) & 1), c);
        board_place(b, m);
        if (rules_status_after(r, *b, m) != WINNER_NONE) {
            board_undo(b, m);
            continue;
        }
        placed++;
    }
    return placed == cells - empty;
}

typedef struct {
    const Rules *runs; /* the game's n and k under the original rules: a run of >= k is a line */
    uint64_t *rng;
    long nodes;
    int ncells;
    int cell[64]; /* the cells to fill, row by row */
} Fill;

/* Fills f->cell[i..] with a symbol each, in random order, so that no run
 * of k or more forms; depth first, backtracking; false if there is no
 * such filling or the node bound ran out. */
static bool fill_from(Fill *f, Board *b, int i)
{
    if (i == f->ncells) return true;
    if (++f->nodes > RANDOM_FILL_NODES) return false;
    int c = f->cell[i], first = (int)(rng_next(f->rng) & 1);
    for (int t = 0; t < 2; t++) {
        Move m = move_make(first ^ t, c);
        board_place(b, m);
        if (!rules_line_through(f->runs, b->s[first ^ t], c) && fill_from(f, b, i + 1)) return true;
        board_undo(b, m);
    }
    return false;
}

/* The search: `empty` cells drawn at random stay empty, and the others
 * are filled row by row with random symbols and no run of k or more of
 * either (fill_from). Such a position is ongoing under every rule set, and
 * so is every position on the way to it, whatever the order of its moves:
 * it is reached by moves none of which ended the game. There always is
 * one, whatever cells are left empty: the pattern XXOO/OOXX repeated
 * (rows shifted by two) has no run of 3 on any board up to 8x8. */
static bool random_fill(const Rules *r, const Rules *runs, int empty, uint64_t *rng, Board *b)
{
    int n = r->n, cells = n * n, order[64];
    for (int i = 0; i < cells; i++) order[i] = board_cell(i / n, i % n);
    uint64_t hole = 0;
    for (int i = 0; i < empty; i++) { /* a partial shuffle: order[0..empty-1] */
        int j = i + (int)(rng_next(rng) % (uint64_t)(cells - i)), t = order[i];
        order[i] = order[j];
        order[j] = t;
        hole |= 1ULL << order[i];
    }
    Fill f = {.runs = runs, .rng = rng, .nodes = 0, .ncells = 0};
    for (int i = 0; i < cells; i++) {
        int c = board_cell(i / n, i % n);
        if (!(hole & (1ULL << c))) f.cell[f.ncells++] = c;
    }
    *b = board_empty();
    return fill_from(&f, b, 0) && rules_status(r, *b) == WINNER_NONE;
}

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
    Rules runs;
    char err[128];
    if (rules_init(&runs, r.n, r.k, RULES_ORIGINAL, err, sizeof err) != 0) cli_fail("%s", err);
    uint64_t rng = seed;
    bool search = false; /* random play gave up once: the search from then on */
    for (long i = 0; i < count; i++) {
        for (int tries = 1; !search && !random_play(&r, empty, &rng, &b); tries++)
            search = tries == RANDOM_PLAY_TRIES;
        for (int tries = 1; search && !random_fill(&r, &runs, empty, &rng, &b); tries++)
            if (tries == RANDOM_FILL_TRIES)
                cli_fail("random: no ongoing %dx%d position (k=%d, %s rules) with %d empty cells found by %d "
                         "searches of %d nodes",
                         r.n, r.n, r.k, rules_name(r.rules), empty, RANDOM_FILL_TRIES, RANDOM_FILL_NODES);
        char pos[NOTATION_POS_LEN];
        notation_format_position(b, r.n, pos);
        printf("%s\n", pos);
    }
    return 0;
}
