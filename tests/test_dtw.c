/* test_dtw.c - the depth-bounded df-pn (solver/dfpn_depth.h) against the
 * independent brute force (brute.c over ref.c): the distance to win, the
 * bounded question around it (d - 2 .. d + 1), the depth of the proofs it
 * finds, and the best move, on random 4x4, 5x5 and 6x6 positions under all
 * three rule sets, with each piece of knowledge off in turn, a tiny table,
 * and the value search's table; then against alpha-beta on 6x6 positions
 * too big for the brute force; then `ocsolve solve --within` and
 * `--dtw-method` from the outside, signals included. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../solver/alphabeta.h"
#include "../solver/dfpn.h"
#include "../solver/dfpn_depth.h"
#include "runbin.h"
#include "testlib.h"

#ifdef OCS_SANITIZE
#define SCALE 4
#else
#define SCALE 1
#endif

typedef struct {
    Rules r;
    TT tt, value;
    Knowledge kn;
    BruteMemo *memo;
    bool with_value; /* solve the value by df-pn first and hand dd its table */
} Fixture;

/* The bounded search's nodes over a test: the cases must make it search,
 * not only its knowledge decide. */
static uint64_t searched;

/* The bounded search's tunings check() runs with (dfpn_depth.h: epsilon,
 * center_first); the defaults unless a test sets them. */
static double tune_epsilon = 0.5;
static bool tune_center;
/* dfpn_depth_within_switch's `after` for the W(b, d) questions (0: plain
 * dfpn_depth_within), and how many of them went on in the other order. */
static uint64_t tune_switch, switched;

static void fx_open(Fixture *f, int n, int k, int rs, const Knowledge *kn, size_t tt_bytes)
{
    char err[128];
    cr_assert_eq(rules_init(&f->r, n, k, tl_rules(rs), err, sizeof err), 0, "%s", err);
    cr_assert_eq(tt_init(&f->tt, tt_bytes, false), 0);
    cr_assert_eq(tt_init(&f->value, 4 << 20, false), 0);
    f->kn = kn ? *kn : dfpn_default_config().kn;
    f->memo = brute_new();
    cr_assert(f->memo);
    f->with_value = false;
}

static void fx_close(Fixture *f)
{
    tt_free(&f->tt);
    tt_free(&f->value);
    brute_free(f->memo);
}

/* W(b, d) for d around the distance want (a spread of d for a Chaos win),
 * and the proof depths. */
static void check_within(DfpnDepth *dd, const RefPos *p, int want, const char *s)
{
    Board b = tl_board(p);
    int e = 0;
    for (int i = 0; i < p->n * p->n; i++) e += p->cell[i] == '.';
    int lo = want >= 0 ? want - 2 : 0, hi = want >= 0 ? want + 1 : e;
    for (int d = lo; d <= hi; d += want >= 0 ? 1 : (e > 3 ? e / 3 : 1)) {
        bool before = dd->center_first;
        int depth = -1, got = dfpn_depth_within_switch(dd, b, d, &depth, tune_switch);
        switched += dd->center_first != before;
        bool yes = want >= 0 && want <= d;
        cr_assert_eq(got, yes, "within %d of %s (rules %d, dtw %d): %d", d, s, p->rules, want, got);
        if (got == 1) cr_assert(depth >= want && depth <= d, "%s: proof depth %d, dtw %d, d %d", s, depth, want, d);
    }
}

/* The position checked every way: dtw, W(b, d) for d around it (and a
 * spread of d for a Chaos win), the proof depth, the best move. */
static void check(Fixture *f, RefPos *p)
{
    int want = brute_dtw(f->memo, p);
    Board b = tl_board(p);
    char s[65];
    ref_format(p, s);
    DfpnDepth dd;
    dfpn_depth_init(&dd, &f->r, &f->kn, &f->tt, f->with_value ? &f->value : NULL);
    dd.epsilon = tune_epsilon;
    dd.center_first = tune_center;
    if (f->with_value) {
        DfpnConfig cfg = dfpn_default_config();
        cfg.kn = f->kn;
        Dfpn d;
        dfpn_init(&d, &f->r, &cfg, &f->value);
        uint32_t pn, dn;
        dfpn_solve(&d, b, &pn, &dn);
    }
    /* With a switch the questions come first, so that they search (after
     * the distance, the table answers them). */
    if (tune_switch) check_within(&dd, p, want, s);
    cr_assert_eq(dfpn_depth_dtw(&dd, b), want, "dtw %s n=%d k=%d rules=%d", s, p->n, p->k, p->rules);
    searched += dd.nodes;
    if (!tune_switch) check_within(&dd, p, want, s);
    if (want < 1) return;
    /* The best move: Order's wins fastest, a lost Chaos's resists longest. */
    Move m = dfpn_depth_best_move(&dd, b, want);
    cr_assert_neq(m, MOVE_NONE, "%s: no best move", s);
    int cell = move_cell(m), idx = (cell >> 3) * p->n + (cell & 7);
    cr_assert_eq(p->cell[idx], '.');
    p->cell[idx] = move_piece(m) == PIECE_X ? 'X' : 'O';
    int child = brute_dtw(f->memo, p);
    p->cell[idx] = '.';
    cr_assert_eq(child, want - 1, "%s: best move %d leads to dtw %d, want %d", s, cell, child, want - 1);
}

/* A random ongoing descendant of base: up to `plies` random moves that do
 * not end the game. */
static void descendant(const RefPos *base, RefPos *p, int plies, uint64_t *rng)
{
    *p = *base;
    int cells = p->n * p->n;
    for (int m = 0; m < plies; m++)
        for (int tries = 0; tries < 50; tries++) {
            int c = tl_below(rng, cells);
            if (p->cell[c] != '.') continue;
            p->cell[c] = tl_below(rng, 2) ? 'X' : 'O';
            if (ref_status(p) == REF_ONGOING) break;
            p->cell[c] = '.';
        }
}

/* `bases` random ongoing positions with `pieces` pieces, each checked with
 * `per_base` random descendants. The brute force solves a base's whole
 * game tree once (brute.h's memo), so its descendants cost it nothing. */
static void run(int n, int k, int rs, int pieces, int bases, int per_base, const Knowledge *kn, size_t tt_bytes,
                bool with_value, uint64_t seed)
{
    Fixture f;
    fx_open(&f, n, k, rs, kn, tt_bytes);
    f.with_value = with_value;
    uint64_t rng = seed;
    for (int t = 0, fails = 0; t < bases && fails < 1000; t++) {
        RefPos base, p;
        if (tl_random_ongoing(&base, n, k, rs, pieces, &rng) != 0) {
            t--;
            fails++;
            continue;
        }
        check(&f, &base);
        for (int i = 0; i < per_base; i++) {
            descendant(&base, &p, 1 + tl_below(&rng, n * n - pieces - 2), &rng);
            check(&f, &p);
        }
    }
    fx_close(&f);
}

/* Bases of 12 or 13 empty cells: 4x4 k=4 has distances 5-9 (and 12 under
 * exact-end) with real search below them; 5x5 and 6x6 positions nearer
 * the end. */
static const struct {
    int n, k, pieces, bases, per_base;
} CASES[] = {{4, 4, 4, 3, 40}, {4, 3, 4, 2, 20}, {5, 4, 13, 2, 40}, {5, 5, 12, 1, 40}, {6, 5, 24, 2, 40}};

static void all_cases(int rs)
{
    searched = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        run(CASES[i].n, CASES[i].k, rs, CASES[i].pieces, CASES[i].bases, CASES[i].per_base / SCALE + 1, NULL, 8 << 20,
            i % 2 == 1, 100 * (uint64_t)rs + i);
    cr_expect_gt(searched, 200 / SCALE, "rules %d: the distances took only %llu nodes", rs,
                 (unsigned long long)searched);
}

Test(dtw, brute_force_original, .timeout = 300) { all_cases(REF_ORIGINAL); }

/* The cases of the tunings' tests: a base of 4x4 (k 4), 5x5 (k 4: with_5x5)
 * and 6x6 (k 5) under every rule set, with the tunings set above. */
static void tuning_cases(uint64_t seed, bool with_5x5)
{
    static const int RS[] = {REF_ORIGINAL, REF_EXACT, REF_EXACT_END};
    for (int rs = 0; rs < 3; rs++) {
        run(4, 4, RS[rs], 4, 1, 20 / SCALE + 1, NULL, 8 << 20, false, seed + (uint64_t)rs);
        if (with_5x5) run(5, 4, RS[rs], 13, 1, 20 / SCALE + 1, NULL, 8 << 20, false, seed + 10 + (uint64_t)rs);
        run(6, 5, RS[rs], 24, 1, 20 / SCALE + 1, NULL, 8 << 20, false, seed + 20 + (uint64_t)rs);
    }
}

/* The tunings (`--epsilon`, `--order`) change the work only: plain df-pn,
 * a large threshold factor and the centre-first order must each give the
 * brute force's distances, answers, proof depths and best moves, under
 * every rule set, and must search (the nodes differ from the default's). */
Test(dtw, tunings_against_brute, .timeout = 300)
{
    static const struct {
        double eps;
        bool center;
    } T[] = {{0.5, false}, {0, false}, {1, true}, {3, true}};
    uint64_t nodes[4] = {0, 0, 0, 0};
    for (size_t t = 0; t < 4; t++) {
        tune_epsilon = T[t].eps;
        tune_center = T[t].center;
        searched = 0;
        tuning_cases(900, true);
        nodes[t] = searched;
    }
    for (size_t t = 1; t < 4; t++)
        cr_expect_neq(nodes[t], nodes[0], "tuning %zu searched exactly as the default (%llu nodes)", t,
                      (unsigned long long)nodes[t]);
}

/* A change of order midway (dfpn_depth_within_switch, `jobs --order-switch`)
 * changes the work only: after 1, 5 or 40 nodes, from either order, the
 * answers and proof depths must be the brute force's under every rule set,
 * and the questions must really have gone on in the other order. */
Test(dtw, order_switch_against_brute, .timeout = 300)
{
    static const struct {
        uint64_t after;
        bool center;
    } T[] = {{1, false}, {5, true}, {40, false}};
    for (size_t t = 0; t < 3; t++) {
        tune_switch = T[t].after;
        tune_center = T[t].center;
        switched = 0;
        tuning_cases(930, false);
        cr_expect_gt(switched, 0, "after %llu nodes: no question went on in the other order",
                     (unsigned long long)T[t].after);
    }
    tune_switch = 0;
    tune_center = false;
}
Test(dtw, brute_force_exact, .timeout = 300) { all_cases(REF_EXACT); }
Test(dtw, brute_force_exact_end, .timeout = 300) { all_cases(REF_EXACT_END); }

/* The shallow questions, where the search decides Order's 3-ply questions
 * without nodes (only four-making moves, unless a zugzwang is possible)
 * and a Chaos node's 4-ply question in one pass that stops at its first
 * refuted move: W(b, d) for d = 2..6 against the brute force's distance,
 * on positions with many fours-to-be (4x4 k=3, and 5x5 and 6x6 nearly
 * full, where the non-maker cells run out and zugzwangs occur), under
 * original and exact (overshoots), with and without the fours knowledge
 * (without it the shortcuts are off and the plain search must agree). */
Test(dtw, shallow_questions, .timeout = 300)
{
    static const struct {
        int n, k, pieces;
    } S[] = {{4, 3, 6},   {4, 3, 9},   {4, 3, 11},  {4, 4, 9},  {4, 4, 11},
             {5, 4, 16},  {5, 4, 19},  {5, 5, 17},  {6, 5, 26}, {6, 5, 29}};
    int yes = 0, no = 0;
    for (int rs = 0; rs < 2; rs++)
        for (int v = 0; v < 2; v++)
            for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
                Knowledge kn = dfpn_default_config().kn;
                kn.threats = v == 0;
                Fixture f;
                fx_open(&f, S[i].n, S[i].k, rs == 0 ? REF_ORIGINAL : REF_EXACT, &kn, 8 << 20);
                uint64_t rng = 4200 + 100 * (uint64_t)rs + 10 * (uint64_t)v + i;
                for (int t = 0; t < 60 / SCALE; t++) {
                    RefPos p;
                    if (tl_random_ongoing(&p, S[i].n, S[i].k, rs == 0 ? REF_ORIGINAL : REF_EXACT,
                                          S[i].pieces + t % 3, &rng) != 0)
                        continue;
                    int want = brute_dtw(f.memo, &p);
                    Board b = tl_board(&p);
                    char s[65];
                    ref_format(&p, s);
                    for (int d = 2; d <= 6; d++) {
                        DfpnDepth dd;
                        dfpn_depth_init(&dd, &f.r, &f.kn, &f.tt, NULL);
                        bool before = dd.center_first;
        int depth = -1, got = dfpn_depth_within_switch(&dd, b, d, &depth, tune_switch);
        switched += dd.center_first != before;
                        bool w = want >= 0 && want <= d;
                        cr_assert_eq(got, w, "within %d of %s (n=%d k=%d rules %d threats %d, dtw %d): %d", d, s,
                                     S[i].n, S[i].k, rs, kn.threats, want, got);
                        if (got == 1)
                            cr_assert(depth >= want && depth <= d, "%s: proof depth %d, dtw %d", s, depth, want);
                        yes += w;
                        no += !w;
                    }
                }
                fx_close(&f);
            }
    cr_expect(yes > 100 && no > 100, "only %d yes and %d no answers", yes, no);
}

/* Each piece of knowledge off in turn, and a table of a few buckets (most
 * facts and numbers lost at once): the answers must not change. */
Test(dtw, reductions_and_tiny_table, .timeout = 300)
{
    for (int v = 0; v < 6; v++) {
        Knowledge kn = dfpn_default_config().kn;
        size_t bytes = 4 << 20;
        switch (v) {
        case 0: kn.threats = false; break;
        case 1: kn.dead_cells = false; break;
        case 2: kn.pairing = 0; break;
        case 3: kn.sym_pieces = 36; break;
        case 4: kn.threats = kn.dead_cells = false, kn.pairing = 0; break;
        default: bytes = 1024; break;
        }
        for (int rs = 0; rs < 3; rs++) {
            run(4, 4, rs, 4, 1, 12 / SCALE + 1, &kn, bytes, v == 5, 7000 + 10 * (uint64_t)v + (uint64_t)rs);
            run(6, 5, rs, 26, 1, 12 / SCALE + 1, &kn, bytes, false, 7500 + 10 * (uint64_t)v + (uint64_t)rs);
        }
    }
}

/* Against alpha-beta (its own table) on 6x6 positions with 14-19 empty
 * cells, beyond the brute force; ab is given a node budget and the
 * positions it cannot finish in it are skipped (the count is checked). */
Test(dtw, same_as_alphabeta, .timeout = 300)
{
    int orders = 0; /* Order wins, over the rule sets (exact-end has few) */
    for (int rs = 0; rs < 3; rs++) {
        Rules r;
        char err[128];
        cr_assert_eq(rules_init(&r, 6, 5, tl_rules(rs), err, sizeof err), 0, "%s", err);
        TT tt, abtt;
        cr_assert_eq(tt_init(&tt, 16 << 20, false), 0);
        cr_assert_eq(tt_init(&abtt, 16 << 20, false), 0);
        Knowledge kn = dfpn_default_config().kn;
        uint64_t rng = 900 + (uint64_t)rs;
        int compared = 0;
        for (int t = 0; t < 24 / SCALE; t++) {
            RefPos p;
            if (tl_random_ongoing(&p, 6, 5, rs, 36 - 14 - t % 6, &rng) != 0) continue;
            Board b = tl_board(&p);
            AlphaBeta ab;
            ab_init(&ab, &r, &kn, &abtt);
            ab.lim.node_limit = 300000;
            int want = ab_dtw(&ab, b);
            if (want == -2) continue;
            DfpnDepth dd;
            dfpn_depth_init(&dd, &r, &kn, &tt, NULL);
            char s[65];
            ref_format(&p, s);
            cr_assert_eq(dfpn_depth_dtw(&dd, b), want, "%s rules %d", s, rs);
            compared++;
            orders += want >= 0;
        }
        cr_expect_geq(compared, 12 / SCALE, "rules %d: only %d positions compared", rs, compared);
        tt_free(&tt);
        tt_free(&abtt);
    }
    cr_expect_gt(orders, 2, "only %d Order wins among the positions", orders);
}

/* ------------------------------------------------------------------ */
/* the command                                                          */
/* ------------------------------------------------------------------ */

/* df-pn decides this in a few hundred nodes; its distance to win is 14
 * plies (alpha-beta: 29 M nodes, 12 s). */
#define SLOW_DTW "XO...X..OO.O.....XOO...X.O.X.X....XX"

Test(dtw, cli_within_and_methods, .timeout = 120)
{
    Run r;
    expect_ok(&r, "solve", "--quiet", "--tt-mb", "16", "--within", "13", SLOW_DTW);
    cr_expect(strstr(r.out, "within 13: no") != NULL, "%s", r.out);
    run_free(&r);
    expect_ok(&r, "solve", "--quiet", "--tt-mb", "16", "--json", "--within", "14", SLOW_DTW);
    cr_expect(strstr(r.out, "\"answer\":\"yes\"") && strstr(r.out, "\"proof_depth\":14"), "%s", r.out);
    run_free(&r);
    /* Order to move, a win in one: the move that keeps it. */
    expect_ok(&r, "solve", "--quiet", "--tt-mb", "16", "--within", "1", "XXXX..OO.O...X......................");
    cr_expect(strstr(r.out, "within 1: yes") && strstr(r.out, "move: Xe1"), "%s", r.out);
    run_free(&r);
    /* Both methods: the same distance and the same longest resistance
     * (Chaos to move, dtw 12; alpha-beta takes 0.3 s). */
    char best[2][16] = {"", ""};
    for (int m = 0; m < 2; m++) {
        expect_ok(&r, "solve", "--quiet", "--tt-mb", "16", "--threads", "1", "--dtw", "--dtw-method", m ? "ab" : "dfpn",
                  "OO....OXX.O.X...OOX..OOXX.O..O..OXO.");
        cr_expect(strstr(r.out, "dtw: 12\n") != NULL, "%s", r.out);
        cr_expect(strstr(r.out, m ? "dtw search: ab," : "dtw search: dfpn,") != NULL, "%s", r.out);
        line_value(r.out, "best move: ", best[m], sizeof best[m]);
        run_free(&r);
    }
    cr_expect(strcmp(best[0], best[1]) == 0 && best[0][0], "best moves %s (dfpn) and %s (ab)", best[0], best[1]);
    expect_ok(&r, "solve", "--quiet", "--tt-mb", "16", "--threads", "1", "--dtw", SLOW_DTW);
    cr_expect(strstr(r.out, "dtw: 14\n") && strstr(r.out, "best move: Xb2\n"), "%s", r.out);
    run_free(&r);
    expect_reject("--within", "solve", "--within", "x", "-");
    expect_reject("--within", "solve", "--within", "5", "--dtw", "-");
    expect_reject("--dtw-method", "solve", "--dtw-method", "magic", "-");
    /* --epsilon and --order reach the bounded search: the same answer, other work. */
    static const char *tune[3][2] = {{"--epsilon", "0.5"}, {"--epsilon", "0"}, {"--order", "center"}};
    char nd[3][32];
    for (int i = 0; i < 3; i++) {
        expect_ok(&r, "solve", "--quiet", "--tt-mb", "16", "--within", "14", tune[i][0], tune[i][1], SLOW_DTW);
        cr_expect(strstr(r.out, "within 14: yes") != NULL, "%s %s: %s", tune[i][0], tune[i][1], r.out);
        cr_expect(line_value(r.out, "nodes: ", nd[i], sizeof nd[i]) != NULL, "%s", r.out);
        run_free(&r);
    }
    cr_expect(strcmp(nd[1], nd[0]) != 0 && strcmp(nd[2], nd[0]) != 0, "nodes %s, %s, %s: a tuning did not reach it",
              nd[0], nd[1], nd[2]);
    for (int i = 1; i < 3; i++) { /* --dtw's bounded search takes them too: the same distance */
        expect_ok(&r, "solve", "--quiet", "--tt-mb", "16", "--threads", "1", "--dtw", tune[i][0], tune[i][1],
                  "OO....OXX.O.X...OOX..OOXX.O..O..OXO.");
        cr_expect(strstr(r.out, "dtw: 12\n") != NULL, "%s %s: %s", tune[i][0], tune[i][1], r.out);
        run_free(&r);
    }
    expect_reject("--pn-init", "solve", "--within", "5", "--pn-init", "one", "-");
    expect_reject("7x7", "solve", "--board", "8", "--within", "5", "-");
}


Test(dtw, cli_signals, .timeout = 120)
{
    /* A bounded question far from the leaves: within 13 plies of the empty
     * board takes most of a minute (within 11 now takes under a second). */
    expect_sigint_exit(1.0, ARGS("solve", "--quiet", "--tt-mb", "16", "--within", "13", "-"));
    expect_sigint_exit(1.5, ARGS("solve", "--threads", "1", "--quiet", "--tt-mb", "16", "--dtw", "--dtw-method", "ab",
                              SLOW_DTW));
}
