/* test_verify_centre_see.c - the centre lemma's see form, 'POSITION lemma
 * centre see FILE' (verify_centre.h): the small game at the centre decided
 * by a certificate of the m x m board with k = m, for n = 6..8:
 *   - soundness against the brute force (tests/brute.h, over ref.h):
 *     random 6x6, 7x7 and 8x8 positions with few empty cells, every pair
 *     empty or mixed, the small certificate written by the tests' own
 *     solver (certgen.h) from the centre in a random symmetric form, the
 *     lemma line in another: wherever the verifier accepts, Order wins the
 *     whole game per brute force; where the centre is a Chaos win, the
 *     certificate for it claims chaos and is refused. One and two threads
 *     give the same answer;
 *   - lying certificates refused, each with its reason: a wrong root, the
 *     wrong side to move, a small certificate that is itself false, another
 *     game (board, k, rules), a horizon, a missing file, a see loop, a
 *     pair of like symbols or a half-full pair, exact-end, k != n-1;
 *   - malformed lines and conflicts, in process and through the binary. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../verify/verify.h"
#include "../verify/verify_rules.h"
#include "brute.h"
#include "certgen.h"
#include "runbin.h"
#include "testlib.h"

static char dir[256];

static void setup(void) { tl_tmp_dir(dir, sizeof dir, "centre-see"); }
static void teardown(void) { tl_rm_dir(dir); }
TestSuite(verify_centre_see, .init = setup, .fini = teardown);

/* The centre of the n x n position s: its (n-2) x (n-2) inner square. */
static void centre_of(int n, const char *s, char *out)
{
    int m = n - 2;
    for (int r = 0; r < m; r++)
        for (int c = 0; c < m; c++) out[r * m + c] = s[(r + 1) * n + c + 1];
    out[m * m] = '\0';
}

static int count_empty(const char *s)
{
    int e = 0;
    for (; *s; s++) e += *s == '.';
    return e;
}

/* A random position for the see form on n x n: every ring pair (the ends of
 * a full line through the centre, stepped to from the centre line's ends,
 * written here from the definition) empty with probability pct_empty_pair
 * %, else mixed; `holes` centre cells empty, the rest random. */
static void see_shaped(int n, int pct_empty_pair, int holes, uint64_t *rng, char *out)
{
    int m = n - 2, pair[2 * 6 + 2][2], np = 0;
    for (int i = 1; i <= m; i++) {
        pair[np][0] = i * n, pair[np++][1] = i * n + n - 1; /* row i */
        pair[np][0] = i, pair[np++][1] = (n - 1) * n + i;   /* column i */
    }
    pair[np][0] = 0, pair[np++][1] = n * n - 1;             /* the diagonal */
    pair[np][0] = n - 1, pair[np++][1] = (n - 1) * n;       /* the anti-diagonal */
    memset(out, '.', (size_t)(n * n));
    out[n * n] = '\0';
    for (int p = 0; p < np; p++) {
        if (tl_below(rng, 100) < pct_empty_pair) continue;
        int x = tl_below(rng, 2);
        out[pair[p][0]] = "XO"[x];
        out[pair[p][1]] = "OX"[x];
    }
    for (int r = 1; r < n - 1; r++)
        for (int c = 1; c < n - 1; c++) out[r * n + c] = "XO"[tl_below(rng, 2)];
    for (int h = 0; h < holes; h++) out[(1 + tl_below(rng, m)) * n + 1 + tl_below(rng, m)] = '.';
}

/* s in symmetric form sym (ref_image) on an n x n board with k. */
static void image(int n, int k, int rules, const char *s, int sym, char *out)
{
    RefPos p, q;
    cr_assert_eq(ref_parse(&p, n, k, rules, s), 0);
    ref_image(&p, sym, &q);
    ref_format(&q, out);
}

/* The small game's certificate for the centre c (m x m, k = m) written to
 * dir/name, its root in symmetric form sym: the winner (REF_*). */
static int write_small(int m, int rules, const char *c, int sym, const char *name)
{
    char root[65];
    image(m, m, rules, c, sym, root);
    CgCert cert;
    int w = cg_make_cert(&cert, m, m, rules, root, sym & 1);
    char *text = cg_plain(&cert);
    tl_write_text(dir, name, text);
    free(text);
    cg_free_cert(&cert);
    return w;
}

/* Writes the big certificate (root s, the line 'IMAGE lemma centre see
 * FILE', IMAGE s in form sym) to dir/big.ocproof and verifies it on
 * `threads` threads: the status. */
static int check_big(int n, int k, const char *rules, const char *s, int sym, const char *file, int threads,
                     VerifyResult *r)
{
    char img[65], text[512], path[300];
    image(n, k, 0, s, sym, img);
    snprintf(text, sizeof text, "ocproof 2\nboard %d %d\nrules %s\nwinner order\nroot %s\n%s lemma centre see %s\n", n,
             k, rules, s, img, file);
    tl_write_text(dir, "big.ocproof", text);
    snprintf(path, sizeof path, "%s/big.ocproof", dir);
    return verify_file_threads(path, NULL, threads, r);
}

/* Soundness: on 6x6, 7x7 and 8x8 under original and exact, where the see
 * form is accepted Order wins by brute force; where the centre is a Chaos
 * win its certificate claims chaos and the see line is refused. */
Test(verify_centre_see, where_the_see_form_holds_order_wins_by_brute_force)
{
    uint64_t rng = 3701;
    BruteMemo *memo = brute_new();
    for (int n = 6; n <= 8; n++)
        for (int rules = REF_ORIGINAL; rules <= REF_EXACT; rules++) {
            int m = n - 2, held = 0, refused = 0, want_held = n == 8 ? 6 : 10;
            for (int t = 0; t < 400 && (held < want_held || refused < 2); t++) {
                char s[65], c[65];
                see_shaped(n, n == 6 ? 15 : 8, 4 + tl_below(&rng, 4), &rng, s);
                centre_of(n, s, c);
                RefPos p, q;
                ref_parse(&p, n, n - 1, rules, s);
                ref_parse(&q, m, m, rules, c);
                if (count_empty(s) > 13 || ref_status(&p) != REF_ONGOING || ref_status(&q) != REF_ONGOING) continue;
                int w = write_small(m, rules, c, tl_below(&rng, 16), "small.ocproof");
                VerifyResult r1, r2;
                int sym = tl_below(&rng, 16);
                int rc = check_big(n, n - 1, CG_RULES[rules], s, sym, "small.ocproof", 1, &r1);
                cr_assert_eq(check_big(n, n - 1, CG_RULES[rules], s, sym, "small.ocproof", 2, &r2), rc,
                             "%s: one thread %d (%s), two %s", s, rc, r1.error, r2.error);
                cr_assert_str_eq(r1.error, r2.error);
                if (w == REF_CHAOS_WINS) {
                    cr_assert_eq(rc, VERIFY_INVALID, "%s: a Chaos-win centre accepted", s);
                    cr_assert(strstr(r1.error, "lemma centre see ") && strstr(r1.error, "claims chaos wins, not order"),
                              "%s", r1.error);
                    refused++;
                    continue;
                }
                cr_assert_eq(rc, VERIFY_VALID, "n=%d %s: %s", n, s, r1.error);
                cr_assert(brute_order_wins(memo, &p), "n=%d rules %d: the see form holds at %s, Chaos wins", n, rules,
                          s);
                cr_assert_eq(r1.longest, count_empty(s), "a lemma's game lasts until the board is full");
                held++;
            }
            cr_assert(held >= want_held && refused >= 2, "n=%d rules %d: held %d, refused %d", n, rules, held, refused);
        }
    brute_free(memo);
}

static void expect_invalid(const char *file, const char *needle, const char *s, const char *rules, int n)
{
    VerifyResult r;
    int rc = check_big(n, n - 1, rules, s, 0, file, 1, &r);
    cr_assert_eq(rc, VERIFY_INVALID, "%s: %d %s", needle, rc, r.error);
    cr_assert(strstr(r.error, needle), "want '%s' in: %s", needle, r.error);
    VerifyResult r2;
    cr_assert_eq(check_big(n, n - 1, rules, s, 0, file, 2, &r2), VERIFY_INVALID);
    cr_assert_str_eq(r.error, r2.error, "two threads");
}

/* The position used by the lying certificates: an ongoing 7x7 position of
 * the see form whose centre is an Order win (found, not typed). */
static void order_win_position(char *s, char *c, uint64_t *rng)
{
    for (int t = 0; t < 1000; t++) {
        see_shaped(7, 10, 6, rng, s);
        centre_of(7, s, c);
        RefPos p, q;
        ref_parse(&p, 7, 6, REF_ORIGINAL, s);
        ref_parse(&q, 5, 5, REF_ORIGINAL, c);
        if (ref_status(&p) != REF_ONGOING || ref_status(&q) != REF_ONGOING) continue;
        cg_solved = (CgMap){0};
        if (cg_solve(&q) == REF_ORDER_WINS) return;
    }
    cr_assert_fail("no position found");
}

Test(verify_centre_see, lying_certificates_are_refused)
{
    uint64_t rng = 3702;
    char s[65], c[65], other[65];
    order_win_position(s, c, &rng);
    cr_assert_eq(write_small(5, REF_ORIGINAL, c, 0, "small.ocproof"), REF_ORDER_WINS);
    VerifyResult r;
    cr_assert_eq(check_big(7, 6, "original", s, 5, "small.ocproof", 1, &r), VERIFY_VALID, "%s", r.error);

    /* A wrong root: another centre that is an Order win too. */
    for (int i = 0;; i++) {
        cr_assert(i < 25);
        if (c[i] == '.') continue;
        strcpy(other, c);
        other[i] = c[i] == 'X' ? 'O' : 'X';
        RefPos q;
        ref_parse(&q, 5, 5, REF_ORIGINAL, other);
        cg_solved = (CgMap){0};
        if (ref_status(&q) == REF_ONGOING && cg_solve(&q) == REF_ORDER_WINS) break;
    }
    write_small(5, REF_ORIGINAL, other, 0, "other.ocproof");
    expect_invalid("other.ocproof", "is not the expected", s, "original", 7);

    /* The wrong side to move: the centre with one more piece (an Order win
     * with Chaos to move), or one fewer. */
    for (int d = 0; d < 2; d++) {
        strcpy(other, c);
        for (int i = 0; i < 25; i++)
            if (d == 0 ? other[i] == '.' : other[i] != '.') {
                other[i] = d == 0 ? 'X' : '.';
                RefPos q;
                ref_parse(&q, 5, 5, REF_ORIGINAL, other);
                cg_solved = (CgMap){0};
                if (ref_status(&q) == REF_ONGOING && cg_solve(&q) == REF_ORDER_WINS) break;
                other[i] = c[i];
            }
        cr_assert_str_neq(other, c, "no centre with another side to move");
        write_small(5, REF_ORIGINAL, other, 0, "tomove.ocproof");
        expect_invalid("tomove.ocproof", "is not the expected", s, "original", 7);
    }

    /* A small certificate that is itself false: a Chaos-win centre's
     * certificate relabelled "winner order" with a move line made up. */
    char bad[65], chaos[65];
    for (int t = 0;; t++) {
        cr_assert(t < 1000);
        see_shaped(7, 10, 5, &rng, bad);
        centre_of(7, bad, chaos);
        RefPos p, q;
        ref_parse(&p, 7, 6, REF_ORIGINAL, bad);
        ref_parse(&q, 5, 5, REF_ORIGINAL, chaos);
        cg_solved = (CgMap){0};
        if (ref_status(&p) == REF_ONGOING && ref_status(&q) == REF_ONGOING && cg_solve(&q) == REF_CHAOS_WINS &&
            cg_pieces(&q) % 2 == 0)
            break;
    }
    int cell = (int)strcspn(chaos, ".");
    char text[512];
    snprintf(text, sizeof text, "ocproof 1\nboard 5 5\nrules original\nwinner order\nroot %s\n%s X%c%d\n", chaos, chaos,
             'a' + cell % 5, 1 + cell / 5);
    tl_write_text(dir, "false.ocproof", text);
    expect_invalid("false.ocproof", "lemma centre see ", bad, "original", 7);

    /* Another game: the rules, the board, k; a horizon; a missing file. */
    write_small(5, REF_EXACT, c, 0, "exact.ocproof");
    expect_invalid("exact.ocproof", "the certificate is for rules exact, not original", s, "original", 7);
    expect_invalid("small.ocproof", "the certificate is for rules original, not exact", s, "exact", 7);
    CgCert cert;
    char root5[32];
    cg_find_root(5, 4, REF_ORIGINAL, 8, REF_ORDER_WINS, &rng, root5);
    cg_make_cert(&cert, 5, 4, REF_ORIGINAL, root5, 0);
    char *t4 = cg_plain(&cert);
    tl_write_text(dir, "k4.ocproof", t4);
    free(t4);
    cg_free_cert(&cert);
    expect_invalid("k4.ocproof", "the certificate is for 5x5 k=4, not 5x5 k=5", s, "original", 7);
    char s6[65], c6[65];
    for (int t6 = 0;; t6++) { /* a 6x6 position of the see form, for a 5x5 certificate */
        cr_assert(t6 < 1000);
        see_shaped(6, 10, 4, &rng, s6);
        centre_of(6, s6, c6);
        RefPos p6;
        ref_parse(&p6, 6, 5, REF_ORIGINAL, s6);
        if (ref_status(&p6) == REF_ONGOING) break;
    }
    expect_invalid("small.ocproof", "the certificate is for 5x5 k=5, not 4x4 k=4", s6, "original", 6);
    snprintf(text, sizeof text, "ocproof 2\nboard 5 5\nrules original\nwinner chaos\nhorizon 1\nroot %s\n", c);
    tl_write_text(dir, "horizon.ocproof", text);
    expect_invalid("horizon.ocproof", "lemma centre see ", s, "original", 7);
    expect_invalid("missing.ocproof", "cannot open", s, "original", 7);

    /* A see loop: the small certificate hands its root to itself. */
    snprintf(text, sizeof text, "ocproof 2\nboard 5 5\nrules original\nwinner order\nroot %s\n%s see loop.ocproof\n", c,
             c);
    tl_write_text(dir, "loop.ocproof", text);
    expect_invalid("loop.ocproof", "nested deeper than", s, "original", 7);
}

/* The conditions on the big position: a pair of like symbols (a restricted
 * line: not for a plain certificate), a half-full pair, exact-end, k, n. */
Test(verify_centre_see, conditions_on_the_position_and_the_game)
{
    uint64_t rng = 3703;
    char s[65], c[65], t[65];
    order_win_position(s, c, &rng);
    write_small(5, REF_ORIGINAL, c, 0, "small.ocproof");
    int a = -1; /* a mixed pair's first cell (row pairs: column a and g) */
    for (int r = 1; r < 6 && a < 0; r++)
        if (s[r * 7] != '.') a = r * 7;
    cr_assert(a >= 0, "%s has no mixed row pair", s);
    strcpy(t, s);
    t[a + 6] = t[a];
    expect_invalid("small.ocproof", "(the see form needs every pair empty or mixed)", t, "original", 7);
    t[a + 6] = '.';
    expect_invalid("small.ocproof", "and an empty cell", t, "original", 7);
    expect_invalid("small.ocproof", "not under exact-end", s, "exact-end", 7);
    char text[512], path[300];
    snprintf(text, sizeof text, "ocproof 2\nboard 7 5\nrules original\nwinner order\nroot %s\n%s lemma centre see small.ocproof\n", s, s);
    tl_write_text(dir, "k5.ocproof", text);
    snprintf(path, sizeof path, "%s/k5.ocproof", dir);
    VerifyResult r;
    int rc = verify_file(path, &r);
    cr_assert(rc == VERIFY_INVALID && strstr(r.error, "needs k = n-1 and n from 6 to 8"), "%d %s", rc, r.error);
    snprintf(text, sizeof text, "ocproof 2\nboard 7 6\nrules original\nwinner chaos\nroot %s\n%s lemma centre see small.ocproof\n", s, s);
    tl_write_text(dir, "chaos.ocproof", text);
    snprintf(path, sizeof path, "%s/chaos.ocproof", dir);
    rc = verify_file(path, &r);
    cr_assert(rc == VERIFY_INVALID && strstr(r.error, "the certificate claims chaos"), "%d %s", rc, r.error);
}

/* Deeper in a proof: Order's move mends a half-full pair, and the position
 * after it (Chaos to move) is closed by the see form. */
Test(verify_centre_see, a_move_line_leading_to_the_see_form)
{
    uint64_t rng = 3704;
    char s[65], c[65], t[65];
    BruteMemo *memo = brute_new();
    for (int found = 0, tries = 0; found < 3; tries++) {
        cr_assert(tries < 2000);
        see_shaped(7, 20, 4, &rng, s);
        centre_of(7, s, c);
        RefPos p, q;
        ref_parse(&p, 7, 6, REF_EXACT, s);
        ref_parse(&q, 5, 5, REF_EXACT, c);
        int pieces = cg_pieces(&p);
        /* s with Chaos to move; the root: s with one end of a mixed row pair emptied, Order to move */
        int a = -1;
        for (int r = 1; r < 6 && a < 0; r++)
            if (s[r * 7] != '.') a = r * 7;
        if (a < 0 || pieces % 2 == 0 || ref_status(&p) != REF_ONGOING || ref_status(&q) != REF_ONGOING) continue;
        cg_solved = (CgMap){0};
        if (cg_solve(&q) != REF_ORDER_WINS) continue;
        strcpy(t, s);
        t[a + 6] = '.'; /* the root: Order to move, the pair half full */
        RefPos root;
        ref_parse(&root, 7, 6, REF_EXACT, t);
        if (ref_status(&root) != REF_ONGOING || count_empty(t) > 13) continue;
        write_small(5, REF_EXACT, c, tl_below(&rng, 16), "small.ocproof");
        char text[512], path[300];
        snprintf(text, sizeof text,
                 "ocproof 2\nboard 7 6\nrules exact\nwinner order\nroot %s\n%s %c%c%d\n%s lemma centre see small.ocproof\n", t,
                 t, s[a + 6], 'g', 1 + a / 7, s);
        tl_write_text(dir, "deep.ocproof", text);
        snprintf(path, sizeof path, "%s/deep.ocproof", dir);
        VerifyResult r;
        cr_assert_eq(verify_file(path, &r), VERIFY_VALID, "%s: %s", t, r.error);
        cr_assert_eq(r.lines_used, 2);
        cr_assert(brute_order_wins(memo, &root), "%s", t);
        found++;
    }
    brute_free(memo);
}

static const char HEAD[] = "ocproof 2\nboard 7 6\nrules original\nwinner order\nroot -\n";

Test(verify_centre_see, malformed_lines)
{
    static const struct { const char *lines, *error; } cases[] = {
        {"- lemma centre see\n", "6: a centre see line is 'POSITION lemma centre see FILE', not 4 words"},
        {"- lemma centre see a b\n", "6: a centre see line is 'POSITION lemma centre see FILE', not 6 words"},
        {"- lemma centre sea a\n", "6: a lemma line is 'POSITION lemma centre' or 'POSITION lemma centre see FILE', not 5"},
        {"- lemma centre see a\n- Xd4\n", "7: conflicts with line 6: the same position (up to symmetry) with a see line"},
        {"- Xd4\n- lemma centre see a\n", "7: conflicts with line 6: the same position (up to symmetry) with a see line"},
        {"- lemma centre see a\n- lemma centre\n", "7: conflicts with line 6: the same position (up to symmetry) with a see"},
        {"- lemma centre\n- lemma centre see a\n", "7: conflicts with line 6: the same position (up to symmetry) with a see"},
        {"- see a\n- lemma centre see a\n", "7: conflicts with line 6: the same position (up to symmetry) with a see"},
        {"- lemma centre see a\n- see a\n", "7: conflicts with line 6: the same position (up to symmetry) with a see"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512], tag[16];
        snprintf(text, sizeof text, "%s%s", HEAD, cases[i].lines);
        snprintf(tag, sizeof tag, "case %zu", i);
        cg_expect_malformed(text, cases[i].error, tag);
    }
    cg_expect_malformed("ocproof 1\nboard 7 6\nrules original\nwinner order\nroot -\n- lemma centre see a\n",
                        "6: a lemma line needs 'ocproof 2'", "version 1");
}

/* Through the binary: valid (exit 0) and a lie (exit 1, one line). */
Test(verify_centre_see, command_line)
{
    uint64_t rng = 3705;
    char s[65], c[65], path[300];
    order_win_position(s, c, &rng);
    write_small(5, REF_ORIGINAL, c, 3, "small.ocproof");
    VerifyResult r;
    cr_assert_eq(check_big(7, 6, "original", s, 2, "small.ocproof", 1, &r), VERIFY_VALID, "%s", r.error);
    snprintf(path, sizeof path, "%s/big.ocproof", dir);
    Run run;
    run_argv(&run, ARGS("verify", "--threads", "2", path));
    cr_assert(run.exited && run.code == 0 && strstr(run.out, "\nvalid\n"), "%s\n%s%s", run.desc, run.out, run.err);
    run_free(&run);
    check_big(7, 6, "original", s, 2, "nothere.ocproof", 1, &r);
    run_argv(&run, ARGS("verify", path));
    cr_assert(run.exited && run.code == 1, "%s: %d", run.desc, run.code);
    cr_assert_eq(count_char(run.err, run.errlen, '\n'), 1, "%s", run.err);
    cr_assert(strstr(run.err, "ocsolve: invalid: lemma centre see ") && strstr(run.err, "nothere.ocproof"), "%s",
              run.err);
    run_free(&run);
}
