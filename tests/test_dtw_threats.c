/* test_dtw_threats.c - the depth-bounded df-pn (solver/dfpn_depth.h) with
 * Order's forcing sequences (solver/threats.h) on, against the independent
 * brute force (brute.c over ref.c): a threat win of p plies may only ever
 * answer "yes" to questions of p plies or more, and a certificate of
 * "within d" built from its moves must verify.
 *
 *   - brute_force: dfpn_depth_dtw and dfpn_depth_within (d around the distance, and a
 *     spread for Chaos wins) on random positions of every rule set, n 4-6,
 *     under several threat settings (the default; short plies bounds, which
 *     cut the sequences off; tiny node budgets, which make the searches
 *     fail and their memo remember failures), and the proof depths;
 *   - proof_move_from_threats: where the threat search wins at the root,
 *     the bounded search's proof is that sequence (a fact with no move),
 *     and dfpn_depth_proof_move must find a move within the bound without a node
 *     of search; the certificate written from such moves must verify with
 *     a longest game within the bound;
 *   - cli_certificates: `ocsolve solve --within D --proof F` on positions
 *     the threat search decides, verified by `ocsolve verify --within D`.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../solver/dfpn.h"
#include "../solver/dfpn_depth.h"
#include "../solver/proof.h"
#include "../solver/threats.h"
#include "../verify/verify.h"
#include "runbin.h"
#include "testlib.h"

#ifdef OCS_SANITIZE
#define SCALE 4
#else
#define SCALE 1
#endif

TestSuite(dtw_threats, .timeout = 300);

/* The threat settings tried: the default, bounds that cut sequences off,
 * budgets that make searches fail. */
static const struct {
    int plies, nodes;
} SETTINGS[] = {{THREATS_DEFAULT_PLIES, THREATS_DEFAULT_NODES}, {5, THREATS_DEFAULT_NODES}, {7, 40}, {21, 8}};
enum { NSETTINGS = sizeof SETTINGS / sizeof SETTINGS[0] };

typedef struct {
    uint64_t threat_wins; /* over a test: the threat searches that won */
    int checked, order_wins;
} Tally;

/* One position checked every way against the brute force's distance. */
static void check(const Rules *r, const Knowledge *kn, TT *tt, BruteMemo *memo, RefPos *p, Tally *t)
{
    int want = brute_dtw(memo, p);
    Board b = tl_board(p);
    char s[65];
    ref_format(p, s);
    DfpnDepth dd;
    dfpn_depth_init(&dd, r, kn, tt, NULL);
    cr_assert_eq(dfpn_depth_dtw(&dd, b), want, "dtw %s n=%d k=%d rules=%d plies=%d nodes=%d", s, p->n, p->k, p->rules,
                 kn->threat_plies, kn->threat_nodes);
    int e = 0;
    for (int i = 0; i < p->n * p->n; i++) e += p->cell[i] == '.';
    int lo = want >= 0 ? want - 2 : 0, hi = want >= 0 ? want + 2 : e;
    for (int d = lo < 0 ? 0 : lo; d <= hi; d += want >= 0 ? 1 : (e > 3 ? e / 3 : 1)) {
        int depth = -1, got = dfpn_depth_within(&dd, b, d, &depth);
        bool yes = want >= 0 && want <= d;
        cr_assert_eq(got, yes, "within %d of %s (rules %d, dtw %d, plies %d, nodes %d): %d", d, s, p->rules, want,
                     kn->threat_plies, kn->threat_nodes, got);
        if (got == 1) cr_assert(depth >= want && depth <= d, "%s: proof depth %d, dtw %d, d %d", s, depth, want, d);
    }
    t->threat_wins += dd.threats.wins;
    t->checked++;
    t->order_wins += want >= 0;
}

/* Random positions with `pieces` pieces and a few random descendants. */
static void run(int n, int k, int rs, int pieces, int bases, int per_base, const Knowledge *kn, uint64_t seed,
                Tally *t)
{
    Rules r;
    char err[128];
    cr_assert_eq(rules_init(&r, n, k, tl_rules(rs), err, sizeof err), 0, "%s", err);
    TT tt;
    cr_assert_eq(tt_init(&tt, 8 << 20, false), 0);
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    uint64_t rng = seed;
    for (int i = 0, fails = 0; i < bases && fails < 1000; i++) {
        RefPos base;
        if (tl_random_ongoing(&base, n, k, rs, pieces, &rng) != 0) {
            i--;
            fails++;
            continue;
        }
        check(&r, kn, &tt, memo, &base, t);
        for (int j = 0; j < per_base; j++) {
            RefPos p = base;
            int extra = tl_below(&rng, 4), cells = n * n;
            for (int m = 0; m < extra; m++)
                for (int tries = 0; tries < 50; tries++) {
                    int c = tl_below(&rng, cells);
                    if (p.cell[c] != '.') continue;
                    p.cell[c] = tl_below(&rng, 2) ? 'X' : 'O';
                    if (ref_status(&p) == REF_ONGOING) break;
                    p.cell[c] = '.';
                }
            check(&r, kn, &tt, memo, &p, t);
        }
    }
    tt_free(&tt);
    brute_free(memo);
}

static const struct {
    int n, k, pieces, bases, per_base;
} CASES[] = {{4, 3, 5, 2, 8}, {4, 4, 5, 2, 8}, {5, 4, 12, 2, 10}, {5, 5, 12, 1, 10}, {6, 5, 24, 3, 12}};

static void brute_force(int rs)
{
    Tally t = {0};
    for (int v = 0; v < NSETTINGS; v++) {
        Knowledge kn = dfpn_default_config().kn;
        kn.threat_plies = SETTINGS[v].plies;
        kn.threat_nodes = SETTINGS[v].nodes;
        for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++)
            run(CASES[c].n, CASES[c].k, rs, CASES[c].pieces, CASES[c].bases, CASES[c].per_base / SCALE + 1, &kn,
                1000 * (uint64_t)rs + 100 * (uint64_t)v + c, &t);
    }
    cr_expect_gt(t.order_wins, t.checked / 4, "rules %d: only %d Order wins of %d", rs, t.order_wins, t.checked);
    /* Under exact-end nothing is won before the board is full: the threat
     * search claims nothing there (threats.h). Elsewhere it must have
     * decided questions, or the test tests nothing new. */
    if (rs == REF_EXACT_END) cr_expect_eq(t.threat_wins, 0);
    else cr_expect_gt(t.threat_wins, 50 / SCALE, "rules %d: only %llu threat wins", rs, (unsigned long long)t.threat_wins);
}

Test(dtw_threats, brute_force_original) { brute_force(REF_ORIGINAL); }
Test(dtw_threats, brute_force_exact) { brute_force(REF_EXACT); }
Test(dtw_threats, brute_force_exact_end) { brute_force(REF_EXACT_END); }

/* Where the threat search wins at an Order-to-move root (an even number
 * of pieces) within p plies,
 * dfpn_depth_within(b, p) answers yes at depth p from that sequence alone (mid
 * stores the fact with no move and no child); dfpn_depth_proof_move must then give
 * a move whose child the brute force puts within p - 1, with no search (the
 * node count stays), and the certificate of "within p" must verify with a
 * longest game of at most p (and at least the distance). */
Test(dtw_threats, proof_move_from_threats)
{
    static const struct {
        int n, k, rs, pieces;
    } P[] = {{6, 5, REF_ORIGINAL, 24}, {6, 5, REF_ORIGINAL, 26}, {6, 5, REF_EXACT, 24}, {6, 5, REF_EXACT, 26},
             {5, 4, REF_ORIGINAL, 14}, {5, 4, REF_EXACT, 14},    {4, 3, REF_ORIGINAL, 4},  {4, 3, REF_EXACT, 6}};
    int found = 0, long_ones = 0;
    for (size_t c = 0; c < sizeof P / sizeof P[0]; c++) {
        Rules r;
        char err[128];
        cr_assert_eq(rules_init(&r, P[c].n, P[c].k, tl_rules(P[c].rs), err, sizeof err), 0, "%s", err);
        Knowledge kn = dfpn_default_config().kn;
        BruteMemo *memo = brute_new();
        cr_assert(memo);
        uint64_t rng = 0x7ea7 + c;
        for (int tries = 0, got = 0, short_ones = 0; tries < 3000 && got < 6 / SCALE + 1; tries++) {
            RefPos p;
            if (tl_random_ongoing(&p, P[c].n, P[c].k, P[c].rs, P[c].pieces, &rng) != 0) continue;
            Board b = tl_board(&p);
            if (!board_order_to_move(b)) continue;
            KnNode node;
            kn_node(&r, &kn, b, &node);
            ThreatWin w;
            if (node.value != WINNER_NONE ||
                !threats_win(&r, &kn, b, node.maker, kn.threat_plies, (uint32_t)kn.threat_nodes, &w))
                continue;
            /* Mostly sequences of 5 plies or more, which the bounded search
             * meets inside its nodes; a few of 3 (none in the sanitizer's
             * smaller sample, which they would crowd out). */
            if (w.plies < 5 && short_ones++ >= (SCALE > 1 ? 0 : 2)) continue;
            int t = brute_dtw(memo, &p), plies = w.plies;
            char s[65];
            ref_format(&p, s);
            cr_assert(t >= 1 && t <= plies, "%s: the threat search wins in %d, the distance is %d", s, plies, t);
            TT tt;
            cr_assert_eq(tt_init(&tt, 4 << 20, false), 0);
            DfpnDepth dd;
            dfpn_depth_init(&dd, &r, &kn, &tt, NULL);
            int depth = -1;
            cr_assert_eq(dfpn_depth_within(&dd, b, plies, &depth), 1, "%s: not within %d", s, plies);
            cr_assert(depth >= t && depth <= plies, "%s: proof depth %d, dtw %d, bound %d", s, depth, t, plies);
            uint64_t nodes = dd.nodes;
            Move m = dfpn_depth_proof_move(&dd, b, plies);
            cr_assert_neq(m, MOVE_NONE, "%s: no proof move within %d", s, plies);
            cr_assert_eq(dd.nodes, nodes, "%s: the proof move took a search (%llu nodes)", s,
                         (unsigned long long)(dd.nodes - nodes));
            int cell = move_cell(m), idx = (cell >> 3) * p.n + (cell & 7);
            cr_assert_eq(p.cell[idx], '.');
            p.cell[idx] = move_piece(m) == PIECE_X ? 'X' : 'O';
            int child = brute_dtw(memo, &p);
            p.cell[idx] = '.';
            cr_assert(child >= 0 && child <= plies - 1, "%s: proof move %d leads to dtw %d, bound %d", s, cell, child,
                      plies - 1);
            /* The certificate of "within plies", from these moves. */
            char *text = NULL, cerr[200] = "";
            size_t len = 0;
            FILE *f = open_memstream(&text, &len);
            cr_assert(f);
            ProofStats st;
            int rc = proof_write_within(f, &dd, b, plies, 0, &st, cerr, sizeof cerr);
            fclose(f);
            cr_assert_eq(rc, 0, "%s: %s", s, cerr);
            VerifyResult v;
            cr_assert_eq(verify_text(text, &v), VERIFY_VALID, "%s: %s\n%s", s, v.error, text);
            cr_assert(v.longest >= t && v.longest <= plies, "%s: longest game %d, dtw %d, bound %d", s, v.longest, t,
                      plies);
            free(text);
            tt_free(&tt);
            got++;
            found++;
            long_ones += plies >= 5;
        }
        brute_free(memo);
    }
    cr_assert_geq(found, 20 / SCALE, "only %d positions won by the threat search", found);
    cr_assert_geq(long_ones, 10 / SCALE, "only %d of them in 5 plies or more", long_ones);
}

/* From the outside: positions whose distance the threat search decides
 * (the distance search's nodes drop from 172 to 15 on the first with it),
 * certified at their distance, with the threats on and off alike. */
Test(dtw_threats, cli_certificates)
{
    static const struct {
        const char *rules, *pos, *within;
    } C[] = {{"original", "....X...OXO....OO..O...........X..XO", "7"},
             {"original", ".X.X.O..........XX..O.O.OO...O..OX..", "9"},
             {"exact", "O..O...X...O...O.........OO..XX.OO.X", "11"}};
    char dir[64], path[96];
    tl_tmp_dir(dir, sizeof dir, "dtwthreats");
    snprintf(path, sizeof path, "%s/w.ocproof", dir);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++)
        for (int off = 0; off < 2; off++) {
            Run r;
            if (off)
                expect_ok(&r, "solve", "--quiet", "--rules", C[i].rules, "--tt-mb", "16", "--threats-depth", "0",
                          "--within", C[i].within, "--proof", path, C[i].pos);
            else
                expect_ok(&r, "solve", "--quiet", "--rules", C[i].rules, "--tt-mb", "16", "--within", C[i].within,
                          "--proof", path, C[i].pos);
            char want[64];
            snprintf(want, sizeof want, "within %s: yes", C[i].within);
            cr_expect(strstr(r.out, want) && strstr(r.out, "proof: "), "%s", r.out);
            run_free(&r);
            expect_ok(&r, "verify", "--within", C[i].within, path);
            char longest[64];
            snprintf(longest, sizeof longest, "longest game: %s plies", C[i].within);
            cr_expect(strstr(r.out, longest) && strstr(r.out, "\nvalid\n"), "%s %s: %s", C[i].pos,
                      off ? "(threats off)" : "", r.out);
            run_free(&r);
            unlink(path);
        }
    tl_rm_dir(dir);
}
