/* workload.c - the bench's fixed positions. Changing anything here changes
 * the bench signature (bench/signature.txt says how to record a new one).
 *
 * Solver suite, 6x6 original rules, chosen so that one thread at -O3 takes
 * about half a minute; the recorded values come from three places:
 *   ab    bench/suite-original.txt, whose values are alpha-beta's (checked
 *         there against df-pn): its hardest positions;
 *   cert  an Order win from results/solve/solve-timings-deep.csv or -hard.csv
 *         (df-pn) whose proof certificate (ocsolve solve --proof) was
 *         accepted by the independent verifier (ocsolve verify);
 *   dfpn  a Chaos win from results/solve/solve-timings-deep.csv, df-pn's value
 *         only: alpha-beta does not finish on these in minutes and their
 *         certificates pass 100 million lines. Kept because disproofs search
 *         differently from proofs; a mismatch here means the solver's
 *         answer changed and is just as much an error.
 * The quick workload (--quick, for tests) is the entries marked quick.
 */
#include "../engine/notation.h"
#include "../tables/errmsg.h"
#include "bench.h"

/* Perft: an empty, an opening, a middle-game and a late position (the last
 * two with many near-lines, so the win test fires often). */
const BenchPerftPos bench_perft_pos[] = {
    {"empty board", "-", 4, 2},
    {"opening, 6 pieces", "OO.O........O...OX..................", 5, 3},
    {"middle game, 16 pieces", ".X.....O.OX...XOOXO..X.X.O.O....XX.O", 5, 3},
    {"late, 22 pieces", "XOX.X.O.XO..OXO.XX.X..XOX.O.OOX...XO", 6, 4},
};
const int bench_perft_count = (int)(sizeof bench_perft_pos / sizeof bench_perft_pos[0]);

const char bench_tt_root[] = "OO.O........O...OX..................";

#define ORDER WINNER_ORDER
#define CHAOS WINNER_CHAOS
const BenchSolvePos bench_solve_pos[] = {
    {"O.XXXOO.OO.X.O...XOX........X..X.X.X", ORDER, "ab", true},
    {"X.....O..XX..XOXOXX...X.O.O.XO..X.X.", ORDER, "ab", true},
    {".X.....O.OX...XOOXO..X.X.O.O....XX.O", ORDER, "ab", true},
    {"..XO.X..O....X..X.X..O...X.X..OXO.OX", ORDER, "ab", true},
    {"X.OXO....O..XO..XX..OO...O..X.XX....", CHAOS, "ab", true},
    {"O.OOX...X....X..X..O....O.OX.X.OO..O", ORDER, "ab", true},
    {"...X.XXO.O.....X..OX....X...XO.OXO..", ORDER, "ab", true},
    {".O.X.X.........OO.XX.OXX.O...OO.....", ORDER, "cert", true},
    {".OOOX......XX.X.....X.....O.X.X..X.O", ORDER, "cert", false},
    {".X....O...OXXX.OO...X..OX....X.....X", ORDER, "cert", false},
    {"XO...X...XXO..O......O.X.O....O..X..", ORDER, "ab", true},
    {".....O..XX.......X........XO...XOOOX", ORDER, "cert", false},
    {"..X..OXX.....OO..O......X......X.XO.", CHAOS, "dfpn", false},
    {"..O..XO..O..........X.OX......OOX..X", ORDER, "cert", false},
    {"..X.OO.......O.X......OX.....O....OX", ORDER, "cert", false},
    {"...OXOO.XO.............X.........OXX", ORDER, "cert", false},
    {"O.X......X..X..X.X.O........O....O..", ORDER, "cert", false},
    {".....O......O.X....O..X.XX..X....O..", ORDER, "cert", false},
    {"..O.......O.........O....X.OX..O.OX.", CHAOS, "dfpn", false},
    {"O.......O........OXO.X....O.....O...", ORDER, "cert", true},
    {"O.......X.......X......XX....OO..X..", ORDER, "cert", false},
    {"X.........X..........X....XO...O.O..", CHAOS, "dfpn", false},
    {".O........O.O......X........O.O.X...", ORDER, "cert", false},
    {".OX....XOX....................X.....", ORDER, "cert", false},
    {"OO.O........O...OX..................", ORDER, "cert", false},
    {".X...XO..X..........X...........X...", ORDER, "cert", false},
    {"..XX...X...................O.X....X.", ORDER, "cert", false},
};
const int bench_solve_count = (int)(sizeof bench_solve_pos / sizeof bench_solve_pos[0]);

int bench_parse(const char *pos, const Rules *r, Board *b, char *err, int errlen)
{
    char msg[NOTATION_ERR_LEN];
    int n;
    if (notation_parse_position(pos, r->n, b, &n, msg, sizeof msg) != 0)
        return errmsg_set(err, errlen, "workload: %s", msg);
    if (rules_status(r, *b) != WINNER_NONE)
        return errmsg_set(err, errlen, "workload: %s is not an ongoing position", pos);
    return 0;
}

_Static_assert(sizeof bench_perft_pos / sizeof bench_perft_pos[0] <= BENCH_MAX_PERFT, "raise BENCH_MAX_PERFT");
_Static_assert(sizeof bench_solve_pos / sizeof bench_solve_pos[0] <= BENCH_MAX_SOLVE, "raise BENCH_MAX_SOLVE");
