/* test_threats.c - Order's forcing sequences (solver/threats.h) against
 * the brute force (tests/brute.h, which shares no code with the solver):
 * every win the threat search claims is an Order win within the plies it
 * says, its first move wins, the certificate writer's move source
 * (threats_move) finds a move at every Order node of such a proof, the
 * original-rules shortcut equals kn_node, and df-pn with the threat search
 * on gives the brute force's values and certificates that verify. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>

#include "../jobs/jobs.h"
#include "../solver/dfpn.h"
#include "../solver/proof.h"
#include "../solver/threats.h"
#include "../verify/verify.h"
#include "brute.h"
#include "testlib.h"

TestSuite(threats, .timeout = 600);

#ifdef OCS_SANITIZE
#define SCALE 4
#else
#define SCALE 1
#endif

/* Plies and budget for the searches of the soundness tests: far more than
 * df-pn gives them, so that long sequences are met too. */
enum { DEEP_PLIES = 31, DEEP_NODES = 200000 };

static Knowledge knowledge(void) { return dfpn_default_config().kn; }

/* The reference position after move m (an engine move: bit 8r + c). */
static void ref_play(RefPos *p, Move m)
{
    p->cell[cell_row(move_cell(m)) * p->n + cell_col(move_cell(m))] = move_piece(m) == PIECE_X ? 'X' : 'O';
}

typedef struct {
    int n, k, rules, count, min_empty, max_empty;
    uint64_t seed;
    int want_claims, want_deep; /* least claims, and of them with 5 plies or more */
} Sample;

/* A random ongoing position with Order to move, at most max_empty empty
 * cells and no line Order can complete at once (those the search wins in
 * one ply: most random positions, and no test of it); false if none was
 * made. */
static bool order_position(const Sample *s, uint64_t *rng, RefPos *p)
{
    for (int tries = 0; tries < 20; tries++) {
        int empty = s->min_empty + tl_below(rng, s->max_empty - s->min_empty + 1);
        int pieces = s->n * s->n - empty;
        pieces -= pieces & 1;
        char syms[128];
        int cells[128];
        if (tl_random_ongoing(p, s->n, s->k, s->rules, pieces, rng) == 0 && ref_winning_moves(p, syms, cells, 128) == 0)
            return true;
    }
    return false;
}

/* One claim checked: the brute force's dtw within the plies, and the
 * first move leading to an Order win within one ply fewer. */
static void check_claim(BruteMemo *memo, RefPos *p, const ThreatWin *w, const char *what)
{
    char str[65];
    ref_format(p, str);
    if (w->plies == 1) { /* a four completed: the reference rules say so at once */
        RefPos child = *p;
        ref_play(&child, w->move);
        cr_expect_eq(ref_status(&child), REF_ORDER_WINS, "%s %s: a win in 1 ply that is none", what, str);
        return;
    }
    int dtw = brute_dtw(memo, p);
    cr_expect(dtw >= 0 && dtw <= w->plies, "%s %dx%d k=%d rules %d %s: threat win in %d plies, brute force dtw %d",
              what, p->n, p->n, p->k, p->rules, str, w->plies, dtw);
    int c = cell_row(move_cell(w->move)) * p->n + cell_col(move_cell(w->move));
    cr_assert(c < p->n * p->n && p->cell[c] == '.', "%s %s: first move on a taken cell", what, str);
    RefPos child = *p;
    ref_play(&child, w->move);
    int cd = brute_dtw(memo, &child);
    cr_expect(cd >= 0 && cd <= w->plies - 1, "%s %s: first move %c%d leaves dtw %d (claimed %d plies)", what, str,
              "XO"[move_piece(w->move)], c, cd, w->plies);
}

/* Random positions: whatever threats_win claims (at the default bounds
 * and at deep ones) is an Order win per the brute force. */
static void sample(Sample s)
{
    Rules r;
    Knowledge kn = knowledge();
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    uint64_t rng = s.seed;
    int tried = 0, claims = 0, deep = 0, dflt = 0, longest = 0;
    /* The sanitizers' build samples fewer positions, but never fewer than
     * 300 (or all of a smaller sample, like the deep ones of 80): a smaller
     * one may hold only a few long sequences, and the thresholds below
     * would fail by chance or test nothing (6x6 original at 200: 4 of 5+
     * plies against 6 wanted). */
    int count = s.count / SCALE < 300 ? (s.count < 300 ? s.count : 300) : s.count / SCALE;
    for (int t = 0; t < count; t++) {
        RefPos p;
        if (!order_position(&s, &rng, &p)) continue;
        tried++;
        tl_init_rules(&r, &p);
        Board b = tl_board(&p);
        ThreatWin w;
        bool got = threats_win(&r, &kn, b, NULL, DEEP_PLIES, DEEP_NODES, &w);
        if (s.rules == REF_EXACT_END) {
            cr_expect(!got, "a threat win claimed under exact-end");
            continue;
        }
        if (!got) continue;
        claims++;
        deep += w.plies >= 5;
        if (w.plies > longest) longest = w.plies;
        check_claim(memo, &p, &w, "deep");
        if (threats_win(&r, &kn, b, NULL, kn.threat_plies, (uint32_t)kn.threat_nodes, &w)) {
            dflt++;
            check_claim(memo, &p, &w, "default");
        }
    }
    cr_log_info("%dx%d k=%d rules %d: %d positions, %d threat wins (%d of 5+ plies, the longest %d; %d at the "
                "default bounds)",
                s.n, s.n, s.k, s.rules, tried, claims, deep, longest, dflt);
    cr_expect_geq(claims, s.want_claims * count / s.count, "too few threat wins to test");
    cr_expect_geq(deep, s.want_deep * count / s.count, "too few threat wins of 5 plies or more to test");
    brute_free(memo);
}

/* 6x6 k=5: up to 10 empty cells (the brute force's cost grows as 3^e),
 * and a smaller sample of 11 and 12 where the longer sequences are. */
Test(threats, brute_6x6_original)
{
    sample((Sample){6, 5, REF_ORIGINAL, 800, 2, 10, 601, 165, 26});
    sample((Sample){6, 5, REF_ORIGINAL, 80, 11, 12, 602, 33, 6});
}
Test(threats, brute_6x6_exact)
{
    sample((Sample){6, 5, REF_EXACT, 800, 2, 10, 603, 130, 13});
    sample((Sample){6, 5, REF_EXACT, 80, 11, 12, 604, 26, 5});
}
Test(threats, brute_6x6_exact_end_claims_nothing) { sample((Sample){6, 5, REF_EXACT_END, 500, 2, 12, 605, 0, 0}); }
/* k = 6 on 6x6 (k = 4 makes random ongoing positions with few empty
 * cells rare: lines come early). */
Test(threats, brute_6x6_k6)
{
    sample((Sample){6, 6, REF_ORIGINAL, 4000, 2, 10, 606, 80, 10});
    sample((Sample){6, 6, REF_EXACT, 4000, 2, 10, 607, 80, 8});
}
Test(threats, brute_5x5)
{
    sample((Sample){5, 4, REF_ORIGINAL, 550, 2, 10, 608, 200, 8});
    sample((Sample){5, 4, REF_EXACT, 550, 2, 10, 609, 200, 13});
    sample((Sample){5, 5, REF_ORIGINAL, 400, 2, 10, 610, 40, 13});
    sample((Sample){5, 5, REF_EXACT, 400, 2, 10, 611, 40, 13});
}
Test(threats, brute_4x4)
{
    sample((Sample){4, 3, REF_ORIGINAL, 200, 2, 11, 612, 40, 0});
    sample((Sample){4, 3, REF_EXACT, 200, 2, 11, 613, 40, 0});
    sample((Sample){4, 4, REF_ORIGINAL, 100, 2, 9, 614, 33, 13});
    sample((Sample){4, 4, REF_EXACT, 100, 2, 9, 615, 33, 13});
}

/* ---- The original and exact shortcuts equal kn_node ---- */

/* Random positions (Order to move, no four): after every four-maker,
 * threats_chaos_node lists exactly kn_node's moves and decides exactly
 * where it does (its zugzwang distance an upper bound of kn_node's).
 * kn_node's own list is held against the tests' rules by
 * knowledge::chaos_moves_at_a_four_are_the_safe_ones. */
static int shortcut_cases(int n, int k, int rules, int count, uint64_t seed)
{
    Knowledge kn = knowledge();
    uint64_t rng = seed;
    int makers = 0;
    for (int t = 0; t < count; t++) {
        RefPos p;
        tl_random_any(&p, n, k, rules, 20 + tl_below(&rng, 25), 20 + tl_below(&rng, 25), &rng);
        Rules r;
        tl_init_rules(&r, &p);
        Board b = tl_board(&p);
        KnScan sc;
        if (!board_order_to_move(b) || rules_status(&r, b) != WINNER_NONE) continue;
        kn_scan_masks(&r, b, &sc);
        if (sc.win[0] | sc.win[1]) continue;
        char str[65];
        ref_format(&p, str);
        for (int s = 0; s < 2; s++)
            for (uint64_t e = sc.maker[s]; e;) {
                Move m = move_make(s, bb_pop(&e));
                Board cb = b;
                board_place(&cb, m);
                KnNode want, got;
                kn_node(&r, &kn, cb, &want);
                threats_chaos_node(&r, &kn, b, m, &got);
                makers++;
                cr_assert_eq(got.value, want.value, "%dx%d %s, %c on %d: value %d, kn_node %d", n, n, str, "XO"[s],
                             move_cell(m), got.value, want.value);
                if (want.value == WINNER_ORDER) {
                    cr_assert(got.dtw >= want.dtw, "%s: zugzwang dtw %d below kn_node's %d", str, got.dtw, want.dtw);
                    continue;
                }
                cr_assert(got.moves[0] == want.moves[0] && got.moves[1] == want.moves[1] && got.tempo == want.tempo &&
                              got.nmoves == want.nmoves,
                          "%dx%d %s, %c on %d: moves %llx/%llx, kn_node %llx/%llx", n, n, str, "XO"[s], move_cell(m),
                          (unsigned long long)got.moves[0], (unsigned long long)got.moves[1],
                          (unsigned long long)want.moves[0], (unsigned long long)want.moves[1]);
            }
    }
    return makers;
}

static int shortcut_games(int rules, uint64_t seed)
{
    return shortcut_cases(6, 5, rules, 80000, seed) + shortcut_cases(5, 4, rules, 40000, seed + 1) +
           shortcut_cases(4, 3, rules, 20000, seed + 2) + shortcut_cases(7, 5, rules, 40000, seed + 3) +
           shortcut_cases(8, 5, rules, 40000, seed + 4) + shortcut_cases(6, 4, rules, 40000, seed + 5);
}

Test(threats, shortcuts_are_kn_node)
{
    int original = shortcut_games(REF_ORIGINAL, 701), exact = shortcut_games(REF_EXACT, 801);
    cr_log_info("%d four-makers compared under original, %d under exact", original, exact);
    cr_expect_geq(original, 80000, "too few four-makers compared under original");
    cr_expect_geq(exact, 80000, "too few four-makers compared under exact");
}

/* ---- The certificate writer's moves ---- */

/* From an Order node of a threat proof within `plies`: threats_move finds
 * a move within that bound, and after it every move kn_node lists for
 * Chaos leads to an Order node where the same holds within 2 fewer
 * (threats.h: the search without a budget is complete). Returns the Order
 * nodes visited. */
static int walk(const Rules *r, const Knowledge *kn, Board b, int plies, const char *root)
{
    ThreatWin w, wm;
    cr_assert(threats_move(r, kn, b, NULL, plies, &w), "%s: threats_move finds no move within %d plies", root, plies);
    cr_assert(w.plies <= plies, "%s: threats_move's %d plies past %d", root, w.plies, plies);
    /* Given kn_node's four-makers (no four stands), the same move and plies. */
    KnNode bkn;
    kn_node(r, kn, b, &bkn);
    if (bkn.value == WINNER_NONE) {
        cr_assert(threats_move(r, kn, b, bkn.maker, plies, &wm), "%s: with the makers, no move", root);
        cr_assert(wm.move == w.move && wm.plies == w.plies, "%s: with the makers, another move or length", root);
    }
    Board cb = b;
    board_place(&cb, w.move);
    if (rules_status_after(r, cb, w.move) == WINNER_ORDER) return 1;
    cr_assert_eq(rules_status_after(r, cb, w.move), WINNER_NONE, "%s: the move ends the game for Chaos", root);
    KnNode ckn;
    kn_node(r, kn, cb, &ckn);
    if (ckn.value == WINNER_ORDER) return 1;
    cr_assert_eq(ckn.value, WINNER_NONE, "%s: the move leaves a Chaos win", root);
    int nodes = 1;
    for (int s = 0; s < 3; s++) {
        uint64_t cells = s < 2 ? ckn.moves[s] : (ckn.tempo ? ckn.dead & -ckn.dead : 0);
        while (cells) {
            Move m = move_make(s < 2 ? s : PIECE_X, bb_pop(&cells));
            Board gb = cb;
            board_place(&gb, m);
            Winner st = rules_status_after(r, gb, m);
            cr_assert_neq(st, WINNER_CHAOS, "%s: a Chaos reply wins", root);
            if (st == WINNER_NONE) nodes += walk(r, kn, gb, w.plies - 2, root);
        }
    }
    return nodes;
}

static int walk_sample(int n, int k, int rules, int count, uint64_t seed)
{
    Knowledge kn = knowledge();
    uint64_t rng = seed;
    Sample s = {n, k, rules, count, 8, n * n - 6, seed, 0, 0};
    int nodes = 0;
    for (int t = 0; t < count; t++) {
        RefPos p;
        if (!order_position(&s, &rng, &p)) continue;
        Rules r;
        tl_init_rules(&r, &p);
        Board b = tl_board(&p);
        ThreatWin w;
        if (!threats_win(&r, &kn, b, NULL, kn.threat_plies, (uint32_t)kn.threat_nodes, &w)) continue;
        char str[65];
        ref_format(&p, str);
        nodes += walk(&r, &kn, b, w.plies, str);
    }
    return nodes;
}

Test(threats, writer_finds_a_move_at_every_order_node)
{
    int nodes = walk_sample(6, 5, REF_ORIGINAL, 10000, 801) + walk_sample(6, 5, REF_EXACT, 10000, 802) +
                walk_sample(5, 4, REF_ORIGINAL, 4000, 803) + walk_sample(7, 5, REF_ORIGINAL, 4000, 804) +
                walk_sample(8, 5, REF_EXACT, 2000, 805);
    cr_log_info("%d Order nodes of threat proofs walked", nodes);
    cr_expect_geq(nodes, 8000, "too few Order nodes walked");
}

/* ---- df-pn with the threat search ---- */

static char *certificate(Dfpn *d, Board root, Winner value)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ProofStats st;
    char err[200];
    cr_assert_eq(proof_write(f, d, root, value, 0, &st, err, sizeof err), 0, "%s", err);
    fclose(f);
    return text;
}

/* Random positions (either side to move) solved by df-pn with the threat
 * search as configured: the brute force's value, and a certificate the
 * verifier accepts. Returns how many roots the threat search decided
 * (df-pn then searched no node, and the certificate's moves came from
 * threats_move). */
static int solver_sample(const Knowledge *kn, int n, int k, int rules, int count, int max_empty, uint64_t seed)
{
    DfpnConfig cfg = dfpn_default_config();
    cfg.kn = *kn;
    char err[128];
    Rules r;
    TT tt;
    cr_assert_eq(rules_init(&r, n, k, tl_rules(rules), err, sizeof err), 0, "%s", err);
    cr_assert_eq(tt_init(&tt, 8 << 20, false), 0);
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    uint64_t rng = seed;
    int by_threats = 0;
    for (int t = 0; t < count / SCALE; t++) {
        RefPos p;
        if (tl_random_ongoing(&p, n, k, rules, n * n - 3 - tl_below(&rng, max_empty - 2), &rng) != 0) continue;
        Board b = tl_board(&p);
        char str[65];
        ref_format(&p, str);
        Dfpn d;
        tt_clear(&tt);
        dfpn_init(&d, &r, &cfg, &tt);
        uint32_t pn, dn;
        Winner v = dfpn_solve(&d, b, &pn, &dn);
        cr_assert_eq(v, tl_brute_winner(memo, &p), "%dx%d k=%d rules %d %s: df-pn %d, brute force %d", n, n, k, rules,
                     str, v, tl_brute_winner(memo, &p));
        ThreatWin w;
        by_threats += d.nodes == 0 && board_order_to_move(b) &&
                      threats_win(&r, kn, b, NULL, kn->threat_plies, (uint32_t)kn->threat_nodes, &w) && w.plies > 1;
        char *text = certificate(&d, b, v);
        VerifyExpect e = {n, k, rules, 0, str};
        VerifyResult res;
        cr_assert_eq(verify_text_ex(text, &e, &res), VERIFY_VALID, "%s: %s\n%s", str, res.error, text);
        free(text);
    }
    brute_free(memo);
    tt_free(&tt);
    return by_threats;
}

/* At the default bounds, and with a budget so small that most searches
 * run out inside df-pn (a search that runs out claims nothing). */
Test(threats, solver_values_and_certificates)
{
    Knowledge dflt = knowledge(), tight = knowledge();
    tight.threat_nodes = 6;
    int roots = 0;
    for (int rs = 0; rs < 3; rs++) {
        roots += solver_sample(&dflt, 6, 5, rs, 150, 12, 901 + (uint64_t)rs);
        roots += solver_sample(&tight, 6, 5, rs, 60, 12, 911 + (uint64_t)rs);
        roots += solver_sample(&dflt, 5, 4, rs, 60, 12, 921 + (uint64_t)rs);
    }
    cr_log_info("%d roots decided by the threat search, certificates verified", roots);
    cr_expect_geq(roots, 12 / SCALE, "too few roots decided by the threat search");
}

/* The job-level search with the threat search on (the job tests switch it
 * off, to leave work for their jobs): small budgets, so that the top tree
 * is expanded and the leaves are jobs; the run's certificate (the top one
 * naming the jobs' own) verifies. Positions with 10 pieces, far too many
 * empty cells for the brute force: the verifier, which shares no code with
 * the solver, is the check of the value here. */
Test(threats, jobs_certificates_verify)
{
    uint64_t rng = 1001;
    int checked = 0, expanded = 0;
    for (int t = 0; t < 8 / SCALE + 1; t++) {
        RefPos p;
        if (tl_random_ongoing(&p, 6, 5, t % 2, 10, &rng) != 0) continue;
        Rules r;
        tl_init_rules(&r, &p);
        char dir[256], proof[300];
        tl_tmp_dir(dir, sizeof dir, "threats-jobs");
        snprintf(proof, sizeof proof, "%s/top.ocproof", dir);
        DfpnConfig cfg = dfpn_default_config();
        cfg.kn.centre = false;
        JobsSpec s = {.workers = 2, .job_nodes = 200, .job_tt_bytes = (size_t)4 << 20, .cert_dir = dir, .proof = proof};
        JobsResult res;
        char err[256] = "";
        cr_assert_eq(jobs_solve(&r, tl_board(&p), &cfg, &s, &res, err, sizeof err), 0, "jobs_solve: %s", err);
        char pos[65];
        ref_format(&p, pos);
        cr_assert_neq(res.winner, WINNER_NONE, "%s: undecided", pos);
        VerifyExpect x = {6, 5, p.rules, res.winner == WINNER_ORDER ? VERIFY_WINNER_ORDER : VERIFY_WINNER_CHAOS, pos};
        VerifyResult vr;
        cr_assert_eq(verify_file_ex(proof, &x, &vr), VERIFY_VALID, "%s (rules %d): %s", pos, p.rules, vr.error);
        checked++;
        expanded += res.expansions > 0;
        tl_rm_dir(dir);
    }
    cr_log_info("%d job-level certificates verified (%d with the top tree expanded)", checked, expanded);
    cr_expect_geq(checked, 4 / SCALE + 1, "too few positions");
    cr_expect_geq(expanded, 2 / SCALE + 1, "too few runs expanded the top tree");
}
