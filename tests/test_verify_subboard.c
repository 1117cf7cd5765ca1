/* test_verify_subboard.c - the sub-board lemma (verify/verify_subboard.h):
 * under original, Order wins an n x n position when an m x m window of it,
 * as a game of its own with the same k, is an Order win with the same
 * side to move and the cells outside the window hold an even number of
 * empty cells; 'POSITION lemma subboard CELL M see FILE' names the
 * window's certificate.
 *   - the lemma itself against the brute force (tests/brute.h over ref.h,
 *     no verifier or solver code): random positions of seven games (6x6
 *     k=4 and k=3 with a 4x4 window, 7x7 k=5 and k=4 with 5x5, 8x8 k=5
 *     and k=4 with 6x6, 8x8 k=4 with 4x4) with few empty cells and the
 *     lemma's conditions written here from its statement: wherever the
 *     window is an Order win (brute force on the small board), the whole
 *     position is (brute force on the big one). The same positions through
 *     the verifier: the window's certificate written by the tests' own
 *     solver (certgen.h) in a random symmetric form, the lemma line with
 *     the position in another (the window carried along): accepted exactly
 *     where the window is an Order win, one and two threads alike;
 *   - the test can fail: kept counterexamples, checked by brute force,
 *     where the window is an Order win and the whole position a Chaos win:
 *     under exact (a run of four in the window lengthened from outside),
 *     and with the sides to move disagreeing; the verifier refuses both;
 *   - lying certificates refused, each with its one-line reason;
 *   - malformed lines, in process and through the binary. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../verify/verify.h"
#include "brute.h"
#include "certgen.h"
#include "runbin.h"
#include "testlib.h"

static char dir[256];

static void setup(void) { tl_tmp_dir(dir, sizeof dir, "subboard"); }
static void teardown(void) { tl_rm_dir(dir); }
TestSuite(verify_subboard, .init = setup, .fini = teardown);

typedef struct {
    int r0, c0, m;
} Win;

static bool in_win(Win w, int r, int c) { return r >= w.r0 && r < w.r0 + w.m && c >= w.c0 && c < w.c0 + w.m; }

/* The window's content, an m x m position. */
static void window_of(int n, const char *s, Win w, char *out)
{
    for (int i = 0; i < w.m; i++)
        for (int j = 0; j < w.m; j++) out[i * w.m + j] = s[(w.r0 + i) * n + w.c0 + j];
    out[w.m * w.m] = '\0';
}

/* The lemma's conditions (a) and (b), from its statement: the empty cells
 * outside the window even; the board's and the window's piece counts of
 * one parity (the same side to move). */
static bool outside_even(int n, const char *s, Win w)
{
    int e = 0;
    for (int i = 0; i < n * n; i++) e += s[i] == '.' && !in_win(w, i / n, i % n);
    return e % 2 == 0;
}
static bool sides_agree(int n, const char *s, Win w)
{
    int all = 0, inside = 0;
    for (int i = 0; i < n * n; i++) {
        all += s[i] != '.';
        inside += s[i] != '.' && in_win(w, i / n, i % n);
    }
    return all % 2 == inside % 2;
}

static int count_empty(const char *s)
{
    int e = 0;
    for (; *s; s++) e += *s == '.';
    return e;
}

/* A random ongoing n x n position (rules rules, k) with `in` empty cells in
 * the window and `out` outside it, every other cell X or O, placed in a
 * random order, each a random symbol or, where that makes a line, the
 * other one. false when both would. */
static bool random_position(int n, int k, int rules, Win w, int in, int out, uint64_t *rng, char *s)
{
    cr_assert(n >= 4 && n <= 8);
    char hole[64] = {0};
    for (int placed = 0; placed < in + out;) {
        int i = tl_below(rng, n * n);
        if (hole[i] || in_win(w, i / n, i % n) != (placed < in)) continue;
        hole[i] = 1, placed++;
    }
    int order[64];
    for (int i = 0; i < n * n; i++) order[i] = i;
    for (int i = n * n - 1; i > 0; i--) {
        int j = tl_below(rng, i + 1), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    memset(s, '.', (size_t)(n * n));
    s[n * n] = '\0';
    for (int t = 0; t < n * n; t++) {
        int i = order[t];
        if (hole[i]) continue;
        RefPos p;
        s[i] = "XO"[tl_below(rng, 2)];
        ref_parse(&p, n, k, rules, s);
        if (ref_status(&p) == REF_ONGOING) continue;
        s[i] = s[i] == 'X' ? 'O' : 'X';
        ref_parse(&p, n, k, rules, s);
        if (ref_status(&p) != REF_ONGOING) return false;
    }
    return true;
}

/* s in symmetric form sym (ref_image) on an n x n board with k. */
static void image(int n, int k, const char *s, int sym, char *out)
{
    RefPos p, q;
    cr_assert_eq(ref_parse(&p, n, k, REF_ORIGINAL, s), 0);
    ref_image(&p, sym, &q);
    ref_format(&q, out);
}

/* The window w carried by symmetry sym of the n x n board: the image of
 * its cells (marked X on an empty board) is a square; its top-left cell. */
static Win window_image(int n, int sym, Win w)
{
    char s[65], t[65];
    for (int i = 0; i < n * n; i++) s[i] = in_win(w, i / n, i % n) ? 'X' : '.';
    s[n * n] = '\0';
    image(n, 3, s, sym & 7, t);
    Win out = {n, n, w.m};
    for (int i = 0; i < n * n; i++)
        if (t[i] == 'X') {
            if (i / n < out.r0) out.r0 = i / n;
            if (i % n < out.c0) out.c0 = i % n;
        }
    return out;
}

/* The window's game (m x m, k, rules) certificate written to dir/name by
 * the tests' solver, its root the window content c in form sym: the winner. */
static int write_small(int m, int k, int rules, const char *c, int sym, const char *name)
{
    char root[65];
    image(m, k, c, sym, root);
    CgCert cert;
    int w = cg_make_cert(&cert, m, k, rules, root, sym & 1);
    char *text = cg_plain(&cert);
    tl_write_text(dir, name, text);
    free(text);
    cg_free_cert(&cert);
    return w;
}

/* Writes dir/big.ocproof (n x n, k, rules; root s; the one line 'IMAGE
 * lemma subboard CELL M see FILE', IMAGE s in form sym with the window
 * carried along) and verifies it on `threads` threads: the status. */
static int check_big(int n, int k, const char *rules, const char *s, Win w, int sym, const char *file, int threads,
                     VerifyResult *r)
{
    char img[65], text[600], path[300];
    image(n, k, s, sym, img);
    Win v = window_image(n, sym, w);
    snprintf(text, sizeof text,
             "ocproof 2\nboard %d %d\nrules %s\nwinner order\nroot %s\n%s lemma subboard %c%d %d see %s\n", n, k, rules,
             s, img, 'a' + v.c0, 1 + v.r0, v.m, file);
    tl_write_text(dir, "big.ocproof", text);
    snprintf(path, sizeof path, "%s/big.ocproof", dir);
    return verify_file_threads(path, NULL, threads, r);
}

static const struct {
    int n, k, m;
} GAMES[] = {{6, 4, 4}, {6, 3, 4}, {7, 5, 5}, {7, 4, 5}, {8, 5, 6}, {8, 4, 6}, {8, 4, 4}};

/* One game's share of the soundness test: 50 positions with the
 * conditions held whose window is an Order win, checked by brute force and
 * through the verifier, and up to 3 whose window is a Chaos win (refused;
 * the window of 6x6 k=3 is all but always an Order win): their number. */
static int soundness_of(int n, int k, int m, uint64_t *rng, BruteMemo *big, BruteMemo *small)
{
    int held = 0, refused = 0, tries = 0;
    for (; tries < 20000 && (held < 50 || (refused < 3 && tries < 4000)); tries++) {
        Win w = {tl_below(rng, n - m + 1), tl_below(rng, n - m + 1), m};
        char s[65], c[65];
        if (!random_position(n, k, REF_ORIGINAL, w, 2 + tl_below(rng, 6), 2 * tl_below(rng, 3), rng, s)) continue;
        window_of(n, s, w, c);
        RefPos p, q;
        ref_parse(&p, n, k, REF_ORIGINAL, s);
        ref_parse(&q, m, k, REF_ORIGINAL, c);
        if (!outside_even(n, s, w) || !sides_agree(n, s, w) || ref_status(&q) != REF_ONGOING) continue;
        bool small_order = brute_order_wins(small, &q);
        if (small_order ? held >= 50 : refused >= 3) continue;
        if (small_order)
            cr_assert(brute_order_wins(big, &p), "%dx%d k=%d: the %dx%d window at row %d column %d of %s is an Order win, "
                      "the position a Chaos win", n, n, k, m, m, w.r0, w.c0, s);
        int w_cert = write_small(m, k, REF_ORIGINAL, c, tl_below(rng, 16), "small.ocproof");
        cr_assert_eq(w_cert == REF_ORDER_WINS, small_order, "the test solver and the brute force disagree on %s", c);
        VerifyResult r1, r2;
        int sym = tl_below(rng, 16), rc = check_big(n, k, "original", s, w, sym, "small.ocproof", 1, &r1);
        if (held % 10 == 0 || !small_order) {
            cr_assert_eq(check_big(n, k, "original", s, w, sym, "small.ocproof", 2, &r2), rc, "%s: two threads: %s", s,
                         r2.error);
            cr_assert_str_eq(r1.error, r2.error);
        }
        if (small_order) {
            cr_assert_eq(rc, VERIFY_VALID, "%dx%d k=%d %s: %s", n, n, k, s, r1.error);
            cr_assert_eq(r1.longest, count_empty(s), "a lemma's game lasts until the board is full");
            held++;
        } else {
            cr_assert_eq(rc, VERIFY_INVALID, "%s: a Chaos-win window accepted", s);
            cr_assert(strstr(r1.error, "lemma subboard see ") && strstr(r1.error, "claims chaos wins, not order"), "%s",
                      r1.error);
            refused++;
        }
    }
    cr_assert(held >= 50, "%dx%d k=%d window %d: held %d, refused %d in %d tries", n, n, k, m, held, refused, tries);
    return refused;
}

/* Soundness: 7 games x 50 positions where the lemma holds, each an Order
 * win by brute force and accepted by the verifier. */
Test(verify_subboard, where_the_window_wins_order_wins_by_brute_force, .timeout = 300)
{
    uint64_t rng = 4101;
    BruteMemo *big = brute_new(), *small = brute_new();
    int refused = 0;
    for (size_t g = 0; g < sizeof GAMES / sizeof GAMES[0]; g++)
        refused += soundness_of(GAMES[g].n, GAMES[g].k, GAMES[g].m, &rng, big, small);
    cr_assert_geq(refused, 12, "only %d Chaos-win windows met", refused);
    brute_free(big);
    brute_free(small);
}

/* The test can fail: positions where the window is an Order win and the
 * whole position is not, found by random search (brute force) and kept.
 *   - Under exact, 6x6 k=4, no empty cell outside the window b3-e6 (so
 *     the outside cells' parity holds): the 4x4 window is an Order win
 *     (4x4 k=4 is the same game under original and exact), but the X and
 *     O beyond its edges lengthen its runs of four to five or more, which
 *     do not count: Chaos wins.
 *   - Under original, 5x5 k=4, no empty cell outside the window b2-e5:
 *     the window (10 pieces) has Order to move, the board (19) Chaos: the
 *     window's Order win says nothing of Chaos's move first.
 * The verifier refuses both lines with the reason. */
Test(verify_subboard, counterexamples_where_a_condition_fails)
{
    static const struct {
        int n, k, rules;
        const char *s;
        Win w;
        const char *rules_name, *reason;
    } cases[] = {
        {6, 4, REF_EXACT, "XOXOXXXOXXXOOO.XOXX.OXOXXO.O.XXOO.XO", {2, 1, 4}, "exact",
         "not under exact (a run of k in the window can be lengthened from outside it)"},
        {5, 4, REF_ORIGINAL, "XXOXXO.XXOX.OOOO.X..XO.OX", {1, 1, 4}, "original",
         "the window b2-e5 holds 10 pieces, the board 19: not the same side to move"},
    };
    BruteMemo *memo = brute_new();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n = cases[i].n, k = cases[i].k, m = cases[i].w.m;
        char c[65];
        window_of(n, cases[i].s, cases[i].w, c);
        RefPos p, q;
        cr_assert_eq(ref_parse(&p, n, k, cases[i].rules, cases[i].s), 0);
        cr_assert_eq(ref_parse(&q, m, k, cases[i].rules, c), 0);
        cr_assert_eq(ref_status(&p), REF_ONGOING);
        cr_assert(outside_even(n, cases[i].s, cases[i].w));
        cr_assert(brute_order_wins(memo, &q), "case %zu: the window %s is not an Order win", i, c);
        cr_assert(!brute_order_wins(memo, &p), "case %zu: %s is an Order win after all", i, cases[i].s);
        write_small(m, k, REF_ORIGINAL, c, 0, "small.ocproof");
        VerifyResult r;
        cr_assert_eq(check_big(n, k, cases[i].rules_name, cases[i].s, cases[i].w, 0, "small.ocproof", 1, &r),
                     VERIFY_INVALID, "case %zu accepted", i);
        cr_assert(strstr(r.error, cases[i].reason), "case %zu: %s", i, r.error);
    }
    cr_assert(!sides_agree(5, cases[1].s, cases[1].w));
    brute_free(memo);
}

static void expect_invalid(int n, int k, const char *rules, const char *s, Win w, const char *file, const char *needle)
{
    VerifyResult r, r2;
    int rc = check_big(n, k, rules, s, w, 0, file, 1, &r);
    cr_assert_eq(rc, VERIFY_INVALID, "%s: %d %s", needle, rc, r.error);
    cr_assert(strstr(r.error, needle), "want '%s' in: %s", needle, r.error);
    /* the line says it, unless a see line nested in the file said it better */
    cr_assert(strncmp(r.error, "lemma subboard see ", 19) == 0 || strncmp(r.error, "see ", 4) == 0, "%s", r.error);
    cr_assert_eq(check_big(n, k, rules, s, w, 0, file, 2, &r2), VERIFY_INVALID);
    cr_assert_str_eq(r.error, r2.error, "two threads");
}

/* An ongoing 6x6 k=4 position whose 4x4 window at b2 is an Order win (with
 * `want_order` its side to move) and whose outside has an even number of
 * empty cells; found, not typed. */
static void order_win_position(uint64_t *rng, bool want_order, bool want_small_order, char *s, char *c)
{
    BruteMemo *memo = brute_new();
    Win w = {1, 1, 4};
    for (int t = 0; t < 5000; t++) {
        if (!random_position(6, 4, REF_ORIGINAL, w, 3 + tl_below(rng, 5), 2 * tl_below(rng, 3), rng, s)) continue;
        window_of(6, s, w, c);
        RefPos q;
        ref_parse(&q, 4, 4, REF_ORIGINAL, c);
        bool order_to_move = (36 - count_empty(s)) % 2 == 0;
        if (order_to_move != want_order || !sides_agree(6, s, w) || ref_status(&q) != REF_ONGOING) continue;
        if (brute_order_wins(memo, &q) == want_small_order) {
            brute_free(memo);
            return;
        }
    }
    cr_assert_fail("no position found");
}

/* A certificate text of the 4x4 board (k, rules, winner) whose root is
 * root, with one extra line; to dir/name. */
static void write_text4(const char *name, int k, const char *rules, const char *winner, const char *extra_head,
                        const char *root, const char *lines)
{
    char text[1200];
    snprintf(text, sizeof text, "ocproof 2\nboard 4 %d\nrules %s\nwinner %s\n%sroot %s\n%s", k, rules, winner,
             extra_head, root, lines);
    tl_write_text(dir, name, text);
}

Test(verify_subboard, lying_certificates_are_refused)
{
    uint64_t rng = 4102;
    char s[65], c[65], other[65], text[600];
    Win w = {1, 1, 4};
    order_win_position(&rng, true, true, s, c);
    cr_assert_eq(write_small(4, 4, REF_ORIGINAL, c, 0, "small.ocproof"), REF_ORDER_WINS);
    VerifyResult r;
    cr_assert_eq(check_big(6, 4, "original", s, w, 5, "small.ocproof", 1, &r), VERIFY_VALID, "%s", r.error);

    /* A certificate for another position: another window that is an Order
     * win too; the same window with one piece more (Chaos to move) or one
     * fewer. */
    BruteMemo *memo = brute_new();
    for (int d = 0; d < 3; d++) {
        bool found = false;
        for (int i = 0; i < 16 && !found; i++) {
            strcpy(other, c);
            if (d == 0 && c[i] != '.') other[i] = c[i] == 'X' ? 'O' : 'X';
            else if (d == 1 && c[i] == '.') other[i] = 'X';
            else if (d == 2 && c[i] != '.') other[i] = '.';
            else continue;
            RefPos q, qc, pc, p0;
            ref_parse(&q, 4, 4, REF_ORIGINAL, other);
            ref_parse(&p0, 4, 4, REF_ORIGINAL, c);
            cg_canon(&q, &qc);
            cg_canon(&p0, &pc);
            if (memcmp(qc.cell, pc.cell, 16) == 0) continue; /* an image of the window itself */
            found = ref_status(&q) == REF_ONGOING && brute_order_wins(memo, &q);
        }
        cr_assert(found, "no other window of kind %d", d);
        write_small(4, 4, REF_ORIGINAL, other, 0, "other.ocproof");
        expect_invalid(6, 4, "original", s, w, "other.ocproof", "is not the expected");
    }
    brute_free(memo);

    /* A false certificate: a Chaos-win window's, relabelled "winner order"
     * with a move made up. */
    char bad[65], chaos[65];
    order_win_position(&rng, true, false, bad, chaos);
    int cell = (int)strcspn(chaos, ".");
    snprintf(text, sizeof text, "%s X%c%d\n", chaos, 'a' + cell % 4, 1 + cell / 4);
    write_text4("false.ocproof", 4, "original", "order", "", chaos, text);
    expect_invalid(6, 4, "original", bad, w, "false.ocproof", "/false.ocproof at ");

    /* Another game: k, the board, the rules; a Chaos claim; a horizon. */
    char root3[32], root5[32];
    cg_find_root(4, 3, REF_ORIGINAL, 6, REF_ORDER_WINS, &rng, root3);
    CgCert cert;
    cg_make_cert(&cert, 4, 3, REF_ORIGINAL, root3, 0);
    char *t = cg_plain(&cert);
    tl_write_text(dir, "k3.ocproof", t);
    free(t);
    cg_free_cert(&cert);
    expect_invalid(6, 4, "original", s, w, "k3.ocproof", "the certificate is for 4x4 k=3, not 4x4 k=4");
    cg_find_root(5, 4, REF_ORIGINAL, 6, REF_ORDER_WINS, &rng, root5);
    cg_make_cert(&cert, 5, 4, REF_ORIGINAL, root5, 0);
    t = cg_plain(&cert);
    tl_write_text(dir, "five.ocproof", t);
    free(t);
    cg_free_cert(&cert);
    expect_invalid(6, 4, "original", s, w, "five.ocproof", "the certificate is for 5x5 k=4, not 4x4 k=4");
    write_small(4, 4, REF_EXACT, c, 0, "exact.ocproof");
    expect_invalid(6, 4, "original", s, w, "exact.ocproof", "the certificate is for rules exact, not original");
    write_text4("chaos.ocproof", 4, "original", "chaos", "", c, "");
    expect_invalid(6, 4, "original", s, w, "chaos.ocproof", "claims chaos wins, not order");
    write_text4("horizon.ocproof", 4, "original", "chaos", "horizon 1\n", c, "");
    expect_invalid(6, 4, "original", s, w, "horizon.ocproof", "/horizon.ocproof at ");

    /* No file, not a certificate, a see loop. */
    expect_invalid(6, 4, "original", s, w, "missing.ocproof", "cannot open");
    tl_write_text(dir, "junk.ocproof", "this is not a certificate\n");
    expect_invalid(6, 4, "original", s, w, "junk.ocproof", "not an ocproof certificate");
    snprintf(text, sizeof text, "%s see loop.ocproof\n", c);
    write_text4("loop.ocproof", 4, "original", "order", "", c, text);
    expect_invalid(6, 4, "original", s, w, "loop.ocproof", "nested deeper than");
}

/* The conditions on the big position and game: the outside's parity, the
 * claim, the rules, the window's place and size. */
Test(verify_subboard, conditions_on_the_position_and_the_game)
{
    uint64_t rng = 4103;
    char s[65], c[65], t[65], text[600], path[300];
    Win w = {1, 1, 4};
    order_win_position(&rng, true, true, s, c);
    write_small(4, 4, REF_ORIGINAL, c, 0, "small.ocproof");
    /* an odd number of empty cells outside: one outside cell emptied */
    strcpy(t, s);
    int out = -1;
    for (int i = 0; i < 36 && out < 0; i++)
        if (t[i] != '.' && !in_win(w, i / 6, i % 6)) out = i;
    cr_assert(out >= 0);
    t[out] = '.';
    expect_invalid(6, 4, "original", t, w, "small.ocproof", "empty cells outside the window b2-e5 (the lemma needs an even number)");
    expect_invalid(6, 4, "exact", s, w, "small.ocproof", "not under exact (");
    expect_invalid(6, 4, "exact-end", s, w, "small.ocproof", "not under exact-end (");
    expect_invalid(6, 4, "original", s, (Win){3, 3, 4}, "small.ocproof", "the 4x4 window at d4 leaves the 6x6 board");
    expect_invalid(6, 4, "original", s, (Win){0, 3, 4}, "small.ocproof", "the 4x4 window at d1 leaves the 6x6 board");
    expect_invalid(6, 4, "original", s, (Win){0, 0, 6}, "small.ocproof", "a window of 6 on the 6x6 board (it must be 4 to 5 wide)");
    expect_invalid(6, 5, "original", s, w, "small.ocproof", "a window of 4 is narrower than k=5");
    snprintf(text, sizeof text, "ocproof 2\nboard 6 4\nrules original\nwinner chaos\nroot %s\n%s lemma subboard b2 4 see small.ocproof\n", s, s);
    tl_write_text(dir, "chaos.ocproof", text);
    snprintf(path, sizeof path, "%s/chaos.ocproof", dir);
    VerifyResult r;
    int rc = verify_file(path, &r);
    cr_assert(rc == VERIFY_INVALID && strstr(r.error, "the certificate claims chaos"), "%d %s", rc, r.error);
}

/* Deeper in a proof, and with Chaos to move: Order's move outside the
 * window (the root has an odd number of empty cells outside it) reaches a
 * Chaos-to-move position the lemma closes. */
Test(verify_subboard, a_move_line_leading_to_the_lemma_with_chaos_to_move)
{
    uint64_t rng = 4104;
    char s[65], c[65], root[65], text[600], path[300];
    Win w = {1, 1, 4};
    BruteMemo *memo = brute_new();
    for (int found = 0, tries = 0; found < 4; tries++) {
        cr_assert(tries < 200);
        order_win_position(&rng, false, true, s, c); /* Chaos to move in both */
        int out = -1;
        for (int i = 0; i < 36 && out < 0; i++)
            if (s[i] != '.' && !in_win(w, i / 6, i % 6)) out = i;
        strcpy(root, s);
        root[out] = '.';
        RefPos p;
        ref_parse(&p, 6, 4, REF_ORIGINAL, root);
        if (ref_status(&p) != REF_ONGOING) continue;
        write_small(4, 4, REF_ORIGINAL, c, tl_below(&rng, 16), "small.ocproof");
        snprintf(text, sizeof text,
                 "ocproof 2\nboard 6 4\nrules original\nwinner order\nroot %s\n%s %c%c%d\n%s lemma subboard b2 4 see "
                 "small.ocproof\n",
                 root, root, s[out], 'a' + out % 6, 1 + out / 6, s);
        tl_write_text(dir, "deep.ocproof", text);
        snprintf(path, sizeof path, "%s/deep.ocproof", dir);
        VerifyResult r;
        cr_assert_eq(verify_file(path, &r), VERIFY_VALID, "%s: %s", root, r.error);
        cr_assert_eq(r.lines_used, 2);
        cr_assert(brute_order_wins(memo, &p), "%s", root);
        found++;
    }
    brute_free(memo);
}

/* Sub-boards nest: an 8x8 k=4 position by its 6x6 window, whose own
 * certificate closes it by its 4x4 window (c3-f6 of the big board). */
Test(verify_subboard, nested_windows)
{
    uint64_t rng = 4105;
    BruteMemo *memo = brute_new(), *small = brute_new();
    Win w6 = {1, 1, 6}, w4 = {2, 2, 4};
    for (int found = 0, tries = 0; found < 2; tries++) {
        cr_assert(tries < 5000);
        char s[65], c6[65], c4[65], text[600], path[300];
        /* empty cells: 3-6 in the 4x4 window, 2 in the 6x6 ring, 2 in the 8x8 ring */
        if (!random_position(8, 4, REF_ORIGINAL, w4, 3 + tl_below(&rng, 4), 0, &rng, s)) continue;
        for (int e = 0; e < 2;) {
            int i = tl_below(&rng, 64);
            if (s[i] != '.' && in_win(w6, i / 8, i % 8) && !in_win(w4, i / 8, i % 8)) s[i] = '.', e++;
        }
        for (int e = 0; e < 2;) {
            int i = tl_below(&rng, 64);
            if (s[i] != '.' && !in_win(w6, i / 8, i % 8)) s[i] = '.', e++;
        }
        window_of(8, s, w6, c6);
        window_of(8, s, w4, c4);
        RefPos q;
        ref_parse(&q, 4, 4, REF_ORIGINAL, c4);
        if (!sides_agree(8, s, w4) || ref_status(&q) != REF_ONGOING || !brute_order_wins(small, &q)) continue;
        write_small(4, 4, REF_ORIGINAL, c4, tl_below(&rng, 16), "four.ocproof");
        snprintf(text, sizeof text, "ocproof 2\nboard 6 4\nrules original\nwinner order\nroot %s\n%s lemma subboard b2 4 see four.ocproof\n",
                 c6, c6);
        tl_write_text(dir, "six.ocproof", text);
        VerifyResult r;
        cr_assert_eq(check_big(8, 4, "original", s, w6, tl_below(&rng, 16), "six.ocproof", 1, &r), VERIFY_VALID,
                     "%s: %s", s, r.error);
        RefPos p;
        ref_parse(&p, 8, 4, REF_ORIGINAL, s);
        cr_assert(brute_order_wins(memo, &p), "%s", s);
        snprintf(path, sizeof path, "%s/six.ocproof", dir);
        cr_assert_eq(verify_file(path, &r), VERIFY_VALID, "%s", r.error);
        found++;
    }
    brute_free(memo);
    brute_free(small);
}

static const char HEAD[] = "ocproof 2\nboard 8 5\nrules original\nwinner order\nroot -\n";

Test(verify_subboard, malformed_lines)
{
    static const struct {
        const char *lines, *error;
    } cases[] = {
        {"- lemma subboard b2 6 see\n", "6: a sub-board line is 'POSITION lemma subboard CELL M see FILE', not 6 words"},
        {"- lemma subboard b2 see f\n", "6: a sub-board line is 'POSITION lemma subboard CELL M see FILE', not 6 words"},
        {"- lemma subboard b2 6 see f g\n", "6: a sub-board line is 'POSITION lemma subboard CELL M see FILE', not 8 words"},
        {"- lemma subboard b2 6 sea f\n", "6: a sub-board line is 'POSITION lemma subboard CELL M see FILE', not 'sea' before"},
        {"- lemma subboard i1 6 see f\n", "6: the window's corner: bad cell 'i1'"},
        {"- lemma subboard b0 6 see f\n", "6: the window's corner: bad cell 'b0'"},
        {"- lemma subboard 6 b2 see f\n", "6: the window's corner: bad cell '6'"},
        {"- lemma subboard b2 x see f\n", "6: bad window size 'x' (4 to 8)"},
        {"- lemma subboard b2 -6 see f\n", "6: bad window size '-6' (4 to 8)"},
        {"- lemma subboard b2 3 see f\n", "6: bad window size '3' (4 to 8)"},
        {"- lemma subboard b2 9 see f\n", "6: bad window size '9' (4 to 8)"},
        {"- lemma subboard b2 99999999999 see f\n", "6: bad window size '99999999999' (4 to 8)"},
        {"- lemma subboard b2 6 see f\n- Xd4\n", "7: conflicts with line 6: the same position (up to symmetry) with a see line"},
        {"- Xd4\n- lemma subboard b2 6 see f\n", "7: conflicts with line 6: the same position (up to symmetry) with a see line"},
        {"- see f\n- lemma subboard b2 6 see f\n", "7: conflicts with line 6: the same position (up to symmetry) with a see"},
        {"- lemma subboard b2 6 see f\n- lemma subboard a1 6 see f\n", "7: conflicts with line 6: the same position"},
        {"- lemma subboard b2 6 see f\n- lemma centre\n", "7: conflicts with line 6: the same position (up to symmetry) with a see"},
        {"- lemma subbored b2 6 see f\n", "6: unknown lemma 'subbored' (centre, pairing, ring) or subboard"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512], tag[16];
        snprintf(text, sizeof text, "%s%s", HEAD, cases[i].lines);
        snprintf(tag, sizeof tag, "case %zu", i);
        cg_expect_malformed(text, cases[i].error, tag);
    }
    cg_expect_malformed("ocproof 1\nboard 8 5\nrules original\nwinner order\nroot -\n- lemma subboard b2 6 see f\n",
                        "6: a lemma line needs 'ocproof 2'", "version 1");
}

/* Through the binary: valid (exit 0) and a lie (exit 1, one line). */
Test(verify_subboard, command_line)
{
    uint64_t rng = 4106;
    char s[65], c[65], path[300];
    Win w = {1, 1, 4};
    order_win_position(&rng, true, true, s, c);
    write_small(4, 4, REF_ORIGINAL, c, 3, "small.ocproof");
    VerifyResult r;
    cr_assert_eq(check_big(6, 4, "original", s, w, 2, "small.ocproof", 1, &r), VERIFY_VALID, "%s", r.error);
    snprintf(path, sizeof path, "%s/big.ocproof", dir);
    Run run;
    run_argv(&run, ARGS("verify", "--threads", "2", path));
    cr_assert(run.exited && run.code == 0 && strstr(run.out, "\nvalid\n"), "%s\n%s%s", run.desc, run.out, run.err);
    run_free(&run);
    check_big(6, 4, "exact", s, w, 2, "small.ocproof", 1, &r);
    run_argv(&run, ARGS("verify", path));
    cr_assert(run.exited && run.code == 1, "%s: %d", run.desc, run.code);
    cr_assert_eq(count_char(run.err, run.errlen, '\n'), 1, "%s", run.err);
    cr_assert(strstr(run.err, "ocsolve: invalid: lemma subboard see at ") && strstr(run.err, "not under exact"), "%s",
              run.err);
    run_free(&run);
}
