/* test_subboard_solve.c - the sub-board route of ocsolve solve
 * (solver/subboard_solve.h):
 *   - which windows it tries, against the definition written here: rules
 *     original, the position ongoing, k <= m < n and m >= 4, an even
 *     number of empty cells outside the window, the window's piece count
 *     of the board's parity, the window's game ongoing; largest first,
 *     then nearest the centre, at most SUBBOARD_MAX_TRIES;
 *   - soundness against the brute force (tests/brute.h): random 6x6, 7x7
 *     and 8x8 positions with few empty cells; wherever the route says
 *     Order, Order wins the whole game; the window's value is the brute
 *     force's;
 *   - through the binary: the empty 8x8 board with k=5 by its 6x6 window,
 *     both certificates written and the big one verified; a position
 *     whose windows are Chaos wins leaves no window certificate behind;
 *     --no-subboard. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../solver/subboard_solve.h"
#include "../verify/verify.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

typedef struct {
    int r0, c0, m;
} Win;

static bool in_win(Win w, int r, int c) { return r >= w.r0 && r < w.r0 + w.m && c >= w.c0 && c < w.c0 + w.m; }

/* Does the route's definition take window w of s (n x n, k)? */
static bool window_by_definition(int n, int k, const char *s, Win w)
{
    int all = 0, inside = 0, empty_out = 0;
    char c[65];
    for (int i = 0; i < n * n; i++) {
        bool in = in_win(w, i / n, i % n);
        all += s[i] != '.';
        inside += in && s[i] != '.';
        empty_out += !in && s[i] == '.';
    }
    for (int i = 0; i < w.m; i++)
        for (int j = 0; j < w.m; j++) c[i * w.m + j] = s[(w.r0 + i) * n + w.c0 + j];
    c[w.m * w.m] = '\0';
    RefPos q;
    ref_parse(&q, w.m, k, REF_ORIGINAL, c);
    return empty_out % 2 == 0 && all % 2 == inside % 2 && ref_status(&q) == REF_ONGOING;
}

/* The windows by definition, in the route's order: m from n-1 down to
 * max(k, 4); of one m, by the squared distance of the window's centre from
 * the board's (in half cells), then row, then column. Their number. */
static int windows_by_definition(int n, int k, int rules, const char *s, Win *out, int max)
{
    RefPos p;
    ref_parse(&p, n, k, rules, s);
    if (rules != REF_ORIGINAL || ref_status(&p) != REF_ONGOING) return 0;
    int count = 0;
    for (int m = n - 1; m >= k && m >= 4; m--)
        for (int d = 0; d <= 2 * n * n; d++) /* every squared distance, in order */
            for (int r0 = 0; r0 + m <= n; r0++)
                for (int c0 = 0; c0 + m <= n; c0++) {
                    int dr = 2 * r0 + m - n, dc = 2 * c0 + m - n;
                    Win w = {r0, c0, m};
                    if (dr * dr + dc * dc == d && window_by_definition(n, k, s, w) && count < max) out[count++] = w;
                }
    return count;
}

Test(subboard_solve, which_windows_the_route_tries)
{
    uint64_t rng = 4201;
    int some = 0, none = 0;
    for (int t = 0; t < 3000; t++) {
        int n = 4 + tl_below(&rng, 5), k = 3 + tl_below(&rng, n - 2), rules = tl_below(&rng, 4) ? REF_ORIGINAL : 1 + tl_below(&rng, 2);
        RefPos p;
        if (tl_random_ongoing(&p, n, k, rules, tl_below(&rng, n * n - 1), &rng) != 0) continue;
        char s[65];
        ref_format(&p, s);
        Win want[SUBBOARD_MAX_TRIES];
        SubboardWindow got[SUBBOARD_MAX_TRIES];
        int nw = windows_by_definition(n, k, rules, s, want, SUBBOARD_MAX_TRIES);
        Rules r;
        tl_init_rules(&r, &p);
        int ng = subboard_windows(&r, tl_board(&p), got, SUBBOARD_MAX_TRIES);
        cr_assert_eq(ng, nw, "%dx%d k=%d rules %d %s: %d windows, the definition %d", n, n, k, rules, s, ng, nw);
        for (int i = 0; i < ng; i++)
            cr_assert(got[i].r0 == want[i].r0 && got[i].c0 == want[i].c0 && got[i].m == want[i].m,
                      "%s window %d: (%d,%d,%d), the definition (%d,%d,%d)", s, i, got[i].r0, got[i].c0, got[i].m,
                      want[i].r0, want[i].c0, want[i].m);
        some += ng > 0, none += ng == 0;
    }
    cr_assert(some > 300 && none > 300, "windows for %d positions, none for %d", some, none);
}

/* A random ongoing n x n position with `holes` empty cells (an even number
 * of them outside window w, the rest in it), placed so that no line
 * stands: each cell a random symbol or, where that makes a line, the
 * other. false when both would. */
static bool random_position(int n, int k, Win w, int in, int out, uint64_t *rng, char *s)
{
    cr_assert(n >= 4 && n <= 8);
    char hole[64] = {0};
    for (int placed = 0; placed < in + out;) {
        int i = tl_below(rng, n * n);
        if (hole[i] || in_win(w, i / n, i % n) != (placed < in)) continue;
        hole[i] = 1, placed++;
    }
    memset(s, '.', (size_t)(n * n));
    s[n * n] = '\0';
    for (int i = 0; i < n * n; i++) {
        if (hole[i]) continue;
        RefPos p;
        s[i] = "XO"[tl_below(rng, 2)];
        ref_parse(&p, n, k, REF_ORIGINAL, s);
        if (ref_status(&p) == REF_ONGOING) continue;
        s[i] = s[i] == 'X' ? 'O' : 'X';
        ref_parse(&p, n, k, REF_ORIGINAL, s);
        if (ref_status(&p) != REF_ONGOING) return false;
    }
    return true;
}

/* Wherever the route says Order, brute force agrees; the window's value
 * is the brute force's. */
Test(subboard_solve, where_the_route_says_order_order_wins_by_brute_force, .timeout = 300)
{
    static const struct {
        int n, k, m;
    } games[] = {{6, 4, 4}, {7, 5, 5}, {7, 4, 5}, {8, 5, 6}, {8, 4, 6}};
    uint64_t rng = 4202;
    BruteMemo *big = brute_new(), *small = brute_new();
    SolveSpec spec = solve_default_spec();
    spec.tt_bytes = (size_t)16 << 20;
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        int n = games[g].n, k = games[g].k, m = games[g].m, order = 0, none = 0;
        for (int t = 0; t < 5000 && (order < 15 || none < 2); t++) {
            Win w = {tl_below(&rng, n - m + 1), tl_below(&rng, n - m + 1), m};
            char s[65];
            if (!random_position(n, k, w, 2 + tl_below(&rng, 6), 2 * tl_below(&rng, 3), &rng, s)) continue;
            RefPos p;
            ref_parse(&p, n, k, REF_ORIGINAL, s);
            Rules r;
            tl_init_rules(&r, &p);
            SubboardWindow win[SUBBOARD_MAX_TRIES];
            if (subboard_windows(&r, tl_board(&p), win, 1) == 0) continue;
            SolveReport bigrep, smallrep;
            char err[200];
            cr_assert_eq(subboard_solve_run(&r, tl_board(&p), win[0], &spec, &bigrep, &smallrep, err, sizeof err), 0,
                         "%s", err);
            char c[65];
            Win v = {win[0].r0, win[0].c0, win[0].m};
            for (int i = 0; i < v.m; i++)
                for (int j = 0; j < v.m; j++) c[i * v.m + j] = s[(v.r0 + i) * n + v.c0 + j];
            c[v.m * v.m] = '\0';
            RefPos q;
            ref_parse(&q, v.m, k, REF_ORIGINAL, c);
            bool small_order = brute_order_wins(small, &q);
            cr_assert_eq(smallrep.value, small_order ? WINNER_ORDER : WINNER_CHAOS, "%s: the window %s", s, c);
            if (bigrep.value == WINNER_ORDER) {
                cr_assert(brute_order_wins(big, &p), "%dx%d k=%d: the route says Order at %s, Chaos wins", n, n, k, s);
                order++;
            } else {
                cr_assert_eq(bigrep.value, WINNER_NONE);
                none++;
            }
        }
        cr_assert(order >= 15 && none >= 2, "%dx%d k=%d: order %d, none %d", n, n, k, order, none);
    }
    brute_free(big);
    brute_free(small);
}

/* Through the binary: the empty 8x8 board, k=5, by its 6x6 window (the
 * centre lemma decides that), both certificates written, the big one
 * verified by the independent verifier; JSON says the same. */
Test(subboard_solve, the_empty_8x8_board_with_k5)
{
    char dir[256], big[300], small[300];
    tl_tmp_dir(dir, sizeof dir, "subboard-solve");
    snprintf(big, sizeof big, "%s/e8.ocproof", dir);
    snprintf(small, sizeof small, "%s/e8-subboard.ocproof", dir);
    Run run;
    run_argv(&run, ARGS("solve", "--threads", "1", "--tt-mb", "16", "--board", "8", "--k", "5", "--proof", big, "-"));
    cr_assert(run.exited && run.code == 0, "%s: %d %s", run.desc, run.code, run.err);
    cr_assert(strstr(run.out, "sub-board lemma: the 6x6 window b2-g7 as a game of its own (k=5): order wins, so Order "
                              "wins here"),
              "%s", run.out);
    cr_assert(strstr(run.out, "result: order wins"), "%s", run.out);
    run_free(&run);
    cr_assert_eq(access(small, R_OK), 0, "the window's certificate");
    VerifyResult r;
    VerifyExpect x = {8, 5, 0, VERIFY_WINNER_ORDER, "-"};
    cr_assert_eq(verify_file_ex(big, &x, &r), VERIFY_VALID, "%s", r.error);
    remove(big), remove(small);
    run_argv(&run, ARGS("solve", "--json", "--quiet", "--threads", "1", "--tt-mb", "16", "--board", "8", "--k", "5",
                        "--proof", big, "-"));
    cr_assert(run.exited && run.code == 0, "%s: %d %s", run.desc, run.code, run.err);
    cr_assert(strstr(run.out, "\"subboard\":{\"board\":6,\"k\":5,\"window\":\"b2-g7\",\"tries\":1,\"result\":\"order\""),
              "%s", run.out);
    cr_assert(strstr(run.out, "\"result\":\"order\",\"best_move\""), "%s", run.out);
    run_free(&run);
    cr_assert_eq(verify_file_ex(big, &x, &r), VERIFY_VALID, "%s", r.error);
    tl_rm_dir(dir);
}

/* Windows that are Chaos wins: tried, their certificates removed, the
 * position searched itself; with --no-subboard none is tried. */
Test(subboard_solve, chaos_windows_leave_no_certificate)
{
    uint64_t rng = 4203;
    BruteMemo *memo = brute_new();
    char s[65];
    Win w = {1, 1, 4};
    for (int t = 0;; t++) { /* 6x6 k=4: every window the route would try a Chaos win */
        cr_assert(t < 5000, "no position found");
        if (!random_position(6, 4, w, 4 + tl_below(&rng, 3), 2, &rng, s)) continue;
        Win want[SUBBOARD_MAX_TRIES];
        int nw = windows_by_definition(6, 4, REF_ORIGINAL, s, want, SUBBOARD_MAX_TRIES), order = 0;
        for (int i = 0; i < nw; i++) {
            char c[17];
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++) c[a * 4 + b] = s[(want[i].r0 + a) * 6 + want[i].c0 + b];
            c[16] = '\0';
            RefPos q;
            ref_parse(&q, 4, 4, REF_ORIGINAL, c);
            order += brute_order_wins(memo, &q);
        }
        if (nw >= 2 && order == 0) break;
    }
    brute_free(memo);
    char dir[256], big[300], small[300];
    tl_tmp_dir(dir, sizeof dir, "subboard-solve");
    snprintf(big, sizeof big, "%s/c6.ocproof", dir);
    snprintf(small, sizeof small, "%s/c6-subboard.ocproof", dir);
    Run run;
    run_argv(&run, ARGS("solve", "--threads", "1", "--tt-mb", "16", "--board", "6", "--k", "4", "--proof", big, s));
    cr_assert(run.exited && run.code == 0, "%s: %d %s", run.desc, run.code, run.err);
    cr_assert(strstr(run.out, "(k=4): chaos wins; the position is searched itself") && strstr(run.out, "windows tried"),
              "%s", run.out);
    run_free(&run);
    cr_assert_neq(access(small, F_OK), 0, "a Chaos-win window's certificate left behind");
    VerifyResult r;
    cr_assert_eq(verify_file(big, &r), VERIFY_VALID, "%s", r.error);
    run_argv(&run, ARGS("solve", "--threads", "1", "--tt-mb", "16", "--board", "6", "--k", "4", "--no-subboard", s));
    cr_assert(run.exited && run.code == 0 && !strstr(run.out, "sub-board"), "%s: %s", run.desc, run.out);
    run_free(&run);
    tl_rm_dir(dir);
}
