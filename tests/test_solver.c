/* test_solver.c - df-pn and alpha-beta against the independent brute-force
 * minimax (brute.c over ref.c), for every rule set and several board sizes,
 * with each piece of knowledge switched off in turn; and certificates from
 * proof.c checked by the independent verifier, intact and spoiled. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/notation.h"
#include "../engine/symmetry.h"
#include "../solver/alphabeta.h"
#include "../solver/dfpn.h"
#include "../solver/pairing.h"
#include "../solver/proof.h"
#include "../verify/verify.h"
#include "brute.h"
#include "testlib.h"

/* The sanitizer build runs fewer positions. */
#ifdef OCS_SANITIZE
#define SCALE 5
#else
#define SCALE 1
#endif

typedef struct {
    Rules r;
    TT tt, abtt;
    DfpnConfig cfg;
    BruteMemo *memo;
} Bench;

static void bench_open(Bench *b, int n, int k, int rs, const DfpnConfig *cfg)
{
    char err[128];
    cr_assert_eq(rules_init(&b->r, n, k, tl_rules(rs), err, sizeof err), 0, "%s", err);
    cr_assert_eq(tt_init(&b->tt, 8 << 20, false), 0);
    cr_assert_eq(tt_init(&b->abtt, 8 << 20, false), 0);
    b->cfg = cfg ? *cfg : dfpn_default_config();
    b->memo = brute_new();
    cr_assert(b->memo);
}

static void bench_close(Bench *b)
{
    tt_free(&b->tt);
    tt_free(&b->abtt);
    brute_free(b->memo);
}

/* Value by df-pn and by alpha-beta, and dtw, against the brute force. */
static void check_position(Bench *b, RefPos *p, bool with_ab)
{
    int want = with_ab ? brute_dtw(b->memo, p) : brute_value(b->memo, p) - 1; /* -1 or 0: the sign suffices */
    Board board = tl_board(p);
    char s[65];
    ref_format(p, s);
    Dfpn d;
    dfpn_init(&d, &b->r, &b->cfg, &b->tt);
    uint32_t pn, dn;
    Winner v = dfpn_solve(&d, board, &pn, &dn);
    Winner expect = want >= 0 ? WINNER_ORDER : WINNER_CHAOS;
    cr_assert_eq(v, expect, "df-pn %s n=%d k=%d rules=%d: got %d, brute force dtw %d", s, p->n, p->k, p->rules, v,
                 want);
    if (!with_ab) return;
    AlphaBeta a;
    ab_init(&a, &b->r, &b->cfg.kn, &b->abtt);
    cr_assert_eq(ab_solve(&a, board), expect, "alpha-beta value %s rules=%d", s, p->rules);
    cr_assert_eq(ab_dtw(&a, board), want, "dtw %s n=%d k=%d rules=%d", s, p->n, p->k, p->rules);
}

static void cross_check(int rs)
{
    Bench b;
    bench_open(&b, 6, 5, rs, NULL);
    uint64_t rng = 1000 + (uint64_t)rs;
    int order = 0, done = 0;
    /* 360 positions: mostly 4 to 11 empty cells, one in twenty 12 to 14. */
    for (int t = 0; t < 360 / SCALE; t++) {
        int empties = t % 20 == 19 ? 12 + (t / 20) % 3 : 4 + t % 8;
        RefPos p;
        if (tl_random_ongoing(&p, 6, 5, rs, 36 - empties, &rng) != 0) {
            t--;
            continue;
        }
        check_position(&b, &p, true);
        order += brute_order_wins(b.memo, &p);
        done++;
    }
    cr_expect_gt(order, done / 10, "too few Order wins to mean much");
    cr_expect_lt(order, done - done / 10, "too few Chaos wins to mean much");
    bench_close(&b);
}

Test(solver, brute_force_original, .timeout = 600) { cross_check(REF_ORIGINAL); }
Test(solver, brute_force_exact, .timeout = 600) { cross_check(REF_EXACT); }
Test(solver, brute_force_exact_end, .timeout = 600) { cross_check(REF_EXACT_END); }

/* Small boards from the empty board or near it. */
Test(solver, small_boards, .timeout = 600)
{
    static const struct { int n, k, pieces, count; } cases[] = {
        {4, 3, 3, 3}, {4, 3, 4, 10}, {4, 4, 3, 2}, {4, 4, 4, 10}, {5, 4, 12, 10}, {5, 5, 13, 10}, {5, 3, 14, 10}};
    uint64_t rng = 44;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int rs = 0; rs < 3; rs++) {
            Bench b;
            bench_open(&b, cases[i].n, cases[i].k, rs, NULL);
            for (int t = 0; t < cases[i].count / SCALE + 1; t++) {
                RefPos p;
                if (tl_random_ongoing(&p, cases[i].n, cases[i].k, rs, cases[i].pieces, &rng) != 0) continue;
                check_position(&b, &p, true);
            }
            bench_close(&b);
        }
}

/* Every reduction off in turn: each must be sound on its own. */
Test(solver, each_reduction_alone, .timeout = 600)
{
    for (int variant = 0; variant < 7; variant++) {
        DfpnConfig cfg = dfpn_default_config();
        if (variant == 0) cfg.kn.threats = false;
        if (variant == 1) cfg.kn.dead_cells = false;
        if (variant == 2) cfg.kn.pairing = 0;
        if (variant == 3) cfg.kn.sym_pieces = 64;
        if (variant == 4) cfg.epsilon = 0, cfg.chaos_pn_moves = false, cfg.order_dn_moves = false;
        if (variant == 5) cfg.kn.threats = false, cfg.kn.dead_cells = false, cfg.kn.pairing = 0;
        if (variant == 6) cfg.center_first = false; /* cells by index, not the default centre first */
        for (int rs = 0; rs < 3; rs++) {
            Bench b;
            bench_open(&b, 6, 5, rs, &cfg);
            uint64_t rng = 77 + (uint64_t)(variant * 3 + rs);
            for (int t = 0; t < 40 / SCALE; t++) {
                RefPos p;
                if (tl_random_ongoing(&p, 6, 5, rs, 36 - (5 + t % 5), &rng) != 0) continue;
                check_position(&b, &p, true);
            }
            bench_close(&b);
        }
    }
}

/* Random positions of an n x n board with k, min_empty..max_empty empty
 * cells, count of them a rule set. */
typedef struct {
    int n, k, min_empty, max_empty, count;
} RandomCase;

/* One such position under rule set rs into p: 0, or -1 (none drawn). */
static int random_case_position(const RandomCase *c, int rs, uint64_t *rng, RefPos *p)
{
    int empty = c->min_empty + tl_below(rng, c->max_empty - c->min_empty + 1);
    return tl_random_ongoing(p, c->n, c->k, rs, c->n * c->n - empty, rng);
}

/* Two benches for case c under rule set rs: the default configuration in
 * on, off_cfg in off (a with/without comparison). */
static void bench_open_pair(Bench *on, Bench *off, const RandomCase *c, int rs, const DfpnConfig *off_cfg)
{
    bench_open(on, c->n, c->k, rs, NULL);
    bench_open(off, c->n, c->k, rs, off_cfg);
}

/* df-pn from an empty table of b: the nodes, and the value in *v. */
static uint64_t nodes_from_empty(Bench *b, const RefPos *p, Winner *v)
{
    tt_clear(&b->tt);
    Dfpn d;
    dfpn_init(&d, &b->r, &b->cfg, &b->tt);
    uint32_t pn, dn;
    *v = dfpn_solve(&d, tl_board(p), &pn, &dn);
    return d.nodes;
}

/* The lines gate before the pairing search (pairing.h) changes no answer
 * of any pairing search, so the search with it and without it is the same
 * search: the same value (the brute force's) and the same node count, on
 * random positions of 4x4 and 5x5 boards (and 6x6 k=4, where it was made
 * for), every rule set, each k with lines the gate can count short of
 * empty cells. It must also have fired, or nothing was tested. */
Test(solver, pairing_lines_gate_with_without, .timeout = 600)
{
    static const RandomCase cases[] = {
        {4, 3, 4, 12, 60}, {4, 4, 4, 13, 60}, {5, 3, 5, 12, 40}, {5, 4, 5, 14, 40}, {5, 5, 5, 14, 30}, {6, 4, 6, 12, 30}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int rs = 0; rs < 3; rs++) {
            DfpnConfig off = dfpn_default_config();
            off.kn.pairing_lines = false;
            Bench on, b;
            bench_open_pair(&on, &b, &cases[i], rs, &off);
            uint64_t rng = 300 + 7 * i + (uint64_t)rs;
            int fired = 0;
            for (int t = 0; t < cases[i].count / SCALE + 1; t++) {
                RefPos p;
                if (random_case_position(&cases[i], rs, &rng, &p) != 0) continue;
                check_position(&on, &p, false);
                check_position(&b, &p, false);
                Winner v; /* the node counts, from empty tables */
                uint64_t nodes[2] = {nodes_from_empty(&on, &p, &v), nodes_from_empty(&b, &p, &v)};
                char s[65];
                ref_format(&p, s);
                cr_expect_eq(nodes[0], nodes[1], "%s n=%d k=%d rules=%d: %llu nodes with the gate, %llu without", s,
                             cases[i].n, cases[i].k, rs, (unsigned long long)nodes[0], (unsigned long long)nodes[1]);
                fired += !pairing_lines_may(&on.r, tl_board(&p));
            }
            cr_expect_gt(fired, 0, "n=%d k=%d rules=%d: the gate never fired at a root", cases[i].n, cases[i].k, rs);
            bench_close(&on);
            bench_close(&b);
        }
}

/* Also 7x7 and 8x8 (no dead-cell keys there, odd board: no pairing). */
Test(solver, larger_boards, .timeout = 600)
{
    static const struct { int n, k; } cases[] = {{7, 5}, {7, 4}, {8, 5}, {8, 4}};
    uint64_t rng = 9;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int rs = 0; rs < 3; rs++) {
            Bench b;
            bench_open(&b, cases[i].n, cases[i].k, rs, NULL);
            for (int t = 0; t < 10 / SCALE + 1; t++) {
                RefPos p;
                int n2 = cases[i].n * cases[i].n;
                if (tl_random_ongoing(&p, cases[i].n, cases[i].k, rs, n2 - (5 + t % 5), &rng) != 0) continue;
                check_position(&b, &p, true);
            }
            bench_close(&b);
        }
}

/* Alpha-beta on a tiny table (32 buckets: entries are replaced and their
 * bounds merged all the time), its distance to win on every position and
 * on every child, and its best move (Order to move: a fastest win; Chaos
 * to move and losing: a longest resistance) against the brute force: the
 * tests above use large tables and never ask for a move. */
Test(solver, alphabeta_small_table_and_best_move, .timeout = 600)
{
    int moves = 0;
    for (int rs = 0; rs < 3; rs++) {
        Bench b;
        bench_open(&b, 6, 5, rs, NULL);
        TT tiny;
        cr_assert_eq(tt_init(&tiny, 32 * sizeof(TTBucket), false), 0);
        uint64_t rng = 4100 + (uint64_t)rs;
        for (int t = 0; t < 60 / SCALE; t++) {
            RefPos p;
            if (tl_random_ongoing(&p, 6, 5, rs, 36 - (6 + t % 6), &rng) != 0) continue;
            int want = brute_dtw(b.memo, &p);
            Board board = tl_board(&p);
            char s[65];
            ref_format(&p, s);
            AlphaBeta a;
            ab_init(&a, &b.r, &b.cfg.kn, &tiny);
            cr_assert_eq(ab_dtw(&a, board), want, "dtw %s rules=%d", s, rs);
            for (int c = 0; c < 36; c++)
                for (int sym = 0; sym < 2 && p.cell[c] == '.'; sym++) {
                    p.cell[c] = sym ? 'O' : 'X';
                    int cw = brute_dtw(b.memo, &p);
                    p.cell[c] = '.';
                    Board cb = board;
                    board_place(&cb, move_make(sym, board_cell(c / 6, c % 6)));
                    cr_assert_eq(ab_dtw(&a, cb), cw, "dtw of %s after %c on cell %d, rules=%d", s, sym ? 'O' : 'X', c, rs);
                }
            if (want < 0) continue;
            Move m = ab_best_move(&a, board);
            cr_assert_neq(m, MOVE_NONE, "no move %s rules=%d", s, rs);
            int cell = move_cell(m), rc = (cell / 8) * 6 + cell % 8;
            cr_assert(cell % 8 < 6 && cell / 8 < 6 && p.cell[rc] == '.', "illegal move %d in %s", cell, s);
            p.cell[rc] = move_piece(m) == PIECE_X ? 'X' : 'O';
            int got = brute_dtw(b.memo, &p);
            p.cell[rc] = '.';
            /* Either side's best child is exactly one ply nearer the win. */
            cr_assert_eq(got, want - 1, "%s rules=%d: move %d leads to dtw %d, want %d", s, rs, cell, got, want - 1);
            moves++;
        }
        tt_free(&tiny);
        bench_close(&b);
    }
    cr_expect_gt(moves, 30 / SCALE);
}

/* --- certificates --- */

static char *certificate(Bench *b, Board root, Winner *value)
{
    Dfpn d;
    dfpn_init(&d, &b->r, &b->cfg, &b->tt);
    uint32_t pn, dn;
    *value = dfpn_solve(&d, root, &pn, &dn);
    cr_assert_neq(*value, WINNER_NONE);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ProofStats st;
    char err[200];
    cr_assert_eq(proof_write(f, &d, root, *value, 0, &st, err, sizeof err), 0, "%s", err);
    fclose(f);
    return text;
}

static int verify_expect(const char *text, const RefPos *p, VerifyResult *res)
{
    char root[65];
    ref_format(p, root);
    VerifyExpect e = {p->n, p->k, p->rules, 0, root};
    return verify_text_ex(text, &e, res);
}

/* Replace the first line starting with prefix by repl (NULL: delete it). */
static char *edit_line(const char *text, const char *prefix, const char *repl)
{
    size_t n = strlen(text), pl = strlen(prefix);
    char *out = malloc(n + (repl ? strlen(repl) : 0) + 2);
    const char *line = text;
    size_t o = 0;
    bool done = false;
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t ll = end ? (size_t)(end - line + 1) : strlen(line);
        if (!done && ll >= pl && strncmp(line, prefix, pl) == 0) {
            done = true;
            if (repl) {
                strcpy(out + o, repl);
                o += strlen(repl);
                out[o++] = '\n';
            }
        } else {
            memcpy(out + o, line, ll);
            o += ll;
        }
        line += ll;
    }
    out[o] = '\0';
    cr_assert(done, "no line starts with %s", prefix);
    return out;
}

/* The first position line (a line that is not a header or comment) that
 * the check cannot do without: for an Order certificate (memo given), one
 * whose position Order does not win within three plies by the brute force
 * (rules rs), since the verifier finds such a win itself (verify.h). */
static bool first_position_line(const char *text, int rs, BruteMemo *memo, char *pos, char *move)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char a[80], m[8];
        RefPos q;
        if (sscanf(line, "%79s %7s", a, m) == 2 && strlen(a) > 12 && (m[0] == 'X' || m[0] == 'O') &&
            (!memo || (ref_parse(&q, 6, 5, rs, a) == 0 && brute_dtw(memo, &q) > 3))) {
            strcpy(pos, a);
            strcpy(move, m);
            return true;
        }
    }
    return false;
}

Test(solver, certificates_round_trip_and_spoiled, .timeout = 600)
{
    int counts[3][2] = {{0}}, spoiled = 0;
    for (int rs = 0; rs < 3; rs++) {
        Bench b;
        bench_open(&b, 6, 5, rs, NULL);
        uint64_t rng = 500 + (uint64_t)rs;
        for (int t = 0; t < 100 / SCALE; t++) {
            RefPos p;
            if (tl_random_ongoing(&p, 6, 5, rs, 36 - (4 + t % 8), &rng) != 0) continue;
            Winner v;
            char *text = certificate(&b, tl_board(&p), &v);
            VerifyResult res;
            cr_assert_eq(verify_expect(text, &p, &res), VERIFY_VALID, "%s\n%s", res.error, text);
            cr_assert_eq(res.winner, v == WINNER_ORDER ? VERIFY_WINNER_ORDER : VERIFY_WINNER_CHAOS);
            counts[rs][v == WINNER_ORDER]++;

            /* A wrong rule set (against what the reader expects). */
            char rule_line[40];
            snprintf(rule_line, sizeof rule_line, "rules %s", rs == 0 ? "exact" : "original");
            char *bad = edit_line(text, "rules ", rule_line);
            cr_expect_neq(verify_expect(bad, &p, &res), VERIFY_VALID, "wrong rule accepted");
            free(bad);

            /* A wrong root: the root with one more (loser's or winner's) piece. */
            RefPos q = p;
            for (int c = 0; c < 36; c++)
                if (q.cell[c] == '.') {
                    q.cell[c] = 'X';
                    break;
                }
            char qs[65], root_line[80];
            ref_format(&q, qs);
            snprintf(root_line, sizeof root_line, "root %s", qs);
            bad = edit_line(text, "root ", root_line);
            cr_expect_neq(verify_expect(bad, &p, &res), VERIFY_VALID, "wrong root accepted");
            free(bad);

            char pos[80], move[8];
            if (first_position_line(text, rs, v == WINNER_ORDER ? b.memo : NULL, pos, move)) {
                /* One missing line. */
                char prefix[90];
                snprintf(prefix, sizeof prefix, "%s ", pos);
                bad = edit_line(text, prefix, NULL);
                cr_expect_neq(verify_expect(bad, &p, &res), VERIFY_VALID, "missing line accepted:\n%s", bad);
                free(bad);
                /* One wrong move: onto an occupied cell of that position. */
                int n = 6, occ = -1;
                for (int c = 0; c < 36 && occ < 0; c++)
                    if (pos[c] != '.') occ = c;
                char wrong[120];
                snprintf(wrong, sizeof wrong, "%s %c%c%d", pos, move[0], 'a' + occ % n, occ / n + 1);
                bad = edit_line(text, prefix, wrong);
                cr_expect_neq(verify_expect(bad, &p, &res), VERIFY_VALID, "illegal move accepted");
                free(bad);
                spoiled++;
            }
            free(text);
        }
        bench_close(&b);
    }
    for (int rs = 0; rs < 3; rs++) {
        cr_expect_gt(counts[rs][0], 0, "no Chaos win certified under rules %d", rs);
        cr_expect_gt(counts[rs][1], 0, "no Order win certified under rules %d", rs);
    }
    cr_expect_gt(spoiled, 30 / SCALE);
}

/* Order to move wins only by the six on row 1 (original): a certificate of
 * it must not pass as one under exact. */
Test(solver, certificate_relies_on_the_six)
{
    const char *pos = "XX.XXX" "O.O.O." "...X.." "O....." "..O..." "X....O";
    RefPos p;
    cr_assert_eq(ref_parse(&p, 6, 5, REF_ORIGINAL, pos), 0);
    Bench b;
    bench_open(&b, 6, 5, REF_ORIGINAL, NULL);
    char syms[8];
    int cells[8];
    cr_assert_eq(ref_winning_moves(&p, syms, cells, 8), 1);
    cr_assert_eq(cells[0], 2);
    Winner v;
    char *text = certificate(&b, tl_board(&p), &v);
    cr_assert_eq(v, WINNER_ORDER);
    VerifyResult res;
    cr_assert_eq(verify_expect(text, &p, &res), VERIFY_VALID, "%s", res.error);
    /* Under exact the six does not count: a certificate claiming the same
     * for exact must fail (the reader expects exact here). */
    char *bad = edit_line(text, "rules ", "rules exact");
    p.rules = REF_EXACT;
    cr_expect_eq(verify_expect(bad, &p, &res), VERIFY_INVALID, "six accepted under exact");
    free(bad);
    free(text);
    bench_close(&b);
}

/* The root's line given a move that loses (by the brute force): the
 * verifier must refuse it, whatever else the certificate holds. */
Test(solver, certificate_with_a_losing_move, .timeout = 300)
{
    int tried = 0;
    for (int rs = 0; rs < 3; rs++) {
        Bench b;
        bench_open(&b, 6, 5, rs, NULL);
        uint64_t rng = 900 + (uint64_t)rs;
        for (int t = 0; t < 200 && tried < 10 * (rs + 1); t++) {
            RefPos p;
            if (tl_random_ongoing(&p, 6, 5, rs, 36 - 8, &rng) != 0) continue; /* Order to move */
            if (brute_dtw(b.memo, &p) < 2) continue; /* an Order win, not at once (within three plies
                                                        * the root has no line: the losing one is added) */
            int lose = -1;
            for (int c = 0; c < 36 && lose < 0; c++) {
                if (p.cell[c] != '.') continue;
                p.cell[c] = 'X';
                if (brute_dtw(b.memo, &p) < 0) lose = c;
                p.cell[c] = '.';
            }
            if (lose < 0) continue;
            Winner v;
            Board root = tl_board(&p);
            char *text = certificate(&b, root, &v);
            cr_assert_eq(v, WINNER_ORDER);
            int sym;
            Board canon = sym_canonical(root, 6, &sym);
            char cpos[65], mv[4], line[80];
            notation_format_position(canon, 6, cpos);
            notation_format_move(sym_move(move_make(PIECE_X, board_cell(lose / 6, lose % 6)), sym, 6), mv);
            snprintf(line, sizeof line, "%s %s", cpos, mv);
            char prefix[70];
            snprintf(prefix, sizeof prefix, "%s ", cpos);
            char *bad;
            if (strstr(text, prefix)) {
                bad = edit_line(text, prefix, line);
            } else { /* a listed move is followed even where the check would find a win itself */
                bad = malloc(strlen(text) + strlen(line) + 2);
                sprintf(bad, "%s%s\n", text, line);
            }
            VerifyResult res;
            cr_expect_eq(verify_expect(bad, &p, &res), VERIFY_INVALID, "losing move accepted:\n%s", bad);
            free(bad);
            free(text);
            tried++;
        }
        bench_close(&b);
    }
    cr_expect_geq(tried, 20);
}

/* Certificates from a table far too small to keep the proof (64 buckets):
 * the writer finds most winning moves lost and searches again (dfpn.c,
 * dfpn_winning_move); every certificate must still verify, and carry the
 * value the brute force gives. Positions with 9-12 empty cells, all three
 * rule sets. */
Test(solver, certificates_from_a_tiny_table, .timeout = 600)
{
    int written = 0;
    for (int rs = 0; rs < 3; rs++) {
        Bench b;
        bench_open(&b, 6, 5, rs, NULL);
        tt_free(&b.tt);
        cr_assert_eq(tt_init(&b.tt, 64 * sizeof(TTBucket), false), 0);
        uint64_t rng = 900 + (uint64_t)rs;
        for (int t = 0; t < 20 / SCALE; t++) {
            RefPos p;
            if (tl_random_ongoing(&p, 6, 5, rs, 36 - (9 + t % 4), &rng) != 0) continue;
            Winner v;
            char *text = certificate(&b, tl_board(&p), &v);
            VerifyResult res;
            cr_expect_eq(verify_expect(text, &p, &res), VERIFY_VALID, "%s", res.error);
            bool order = brute_order_wins(b.memo, &p);
            char s[65];
            ref_format(&p, s);
            cr_expect_eq(v == WINNER_ORDER, order, "%s (rules %d): df-pn %d, brute force %d", s, rs, v, order);
            free(text);
            written++;
        }
        bench_close(&b);
    }
    cr_expect_geq(written, 45 / SCALE, "too few certificates written");
}

/* Pairs with witnesses in the search's nodes (knowledge.c, pairing.h) on
 * odd boards: with them and without (kn.pairing_witness), df-pn gives the
 * brute force's value on random 5x5 k = 5 and 7x7 k = 7 positions, and
 * the certificates written with them verify. With them wherever their
 * lines gate passes (slack 0: the default's slack of 7 on 7x7 leaves few
 * such nodes on positions this small), and they must have decided
 * something, or nothing was tested: fewer nodes on some positions. */
Test(solver, witness_pairs_mid_search, .timeout = 600)
{
    static const RandomCase cases[] = {{5, 5, 13, 14, 8}, {7, 7, 8, 10, 6}};
    DfpnConfig off = dfpn_default_config(), all = dfpn_default_config();
    off.kn.pairing_witness = false;
    all.kn.pairing_witness_slack = 0;
    int fewer = 0, lines = 0;
    for (int run = 0; run < 6; run++) { /* each case under each rule set */
        size_t i = (size_t)run / 3;
        int rs = run % 3;
        Bench on, b;
        bench_open(&on, cases[i].n, cases[i].k, rs, &all);
        bench_open(&b, cases[i].n, cases[i].k, rs, &off);
        uint64_t rng = 900 + 7 * i + (uint64_t)rs;
        /* 5x5 unscaled under the sanitizers: its few savings need every position */
        for (int t = 0; t < cases[i].count / (cases[i].n == 5 ? 1 : SCALE) + 1; t++) {
            RefPos p;
            if (random_case_position(&cases[i], rs, &rng, &p) != 0) continue;
            /* the brute force once (one memo), both searches from empty tables */
            Winner want = brute_order_wins(on.memo, &p) ? WINNER_ORDER : WINNER_CHAOS;
            uint64_t nodes[2];
            Bench *both[2] = {&on, &b};
            for (int j = 0; j < 2; j++) {
                Winner v;
                nodes[j] = nodes_from_empty(both[j], &p, &v);
                char str[65];
                ref_format(&p, str);
                cr_assert_eq(v, want, "%s n=%d rules=%d, witnesses %s: df-pn %d, the brute force %d", str,
                             cases[i].n, rs, j ? "off" : "on", v, want);
            }
            fewer += nodes[0] < nodes[1];
            tt_clear(&on.tt);
            Winner v;
            char *text = certificate(&on, tl_board(&p), &v);
            VerifyResult res;
            cr_assert_eq(verify_expect(text, &p, &res), VERIFY_VALID, "%s\n%s", res.error, text);
            cr_assert_eq(res.winner, v == WINNER_ORDER ? VERIFY_WINNER_ORDER : VERIFY_WINNER_CHAOS);
            lines += strstr(text, " lemma pairing ") != NULL;
            free(text);
        }
        bench_close(&on);
        bench_close(&b);
    }
    cr_log_info("witness pairs in the search: fewer nodes on %d positions; %d certificates with pairing lines",
                fewer, lines);
    cr_expect_gt(fewer, 0, "the witness pairs never saved a node");
}
