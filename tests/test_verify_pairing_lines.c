/* test_verify_pairing_lines.c - pairing lemma lines of ocproof 2
 * certificates written by hand ('POSITION lemma pairing c1:c6~ a1:f6= ...',
 * verify/verify_pairing.* and verify_read.c): the 18-pair pairing of the
 * empty 6x6 board under exact-end, and each condition broken in turn, with
 * its reason; breakable pairs and witnesses on odd boards; a two-ply proof
 * that ends in pairing lines in random frames; malformed lines, in process
 * and through the binary. Where it applies, the test's own reading of the
 * lemma (vpair.h) is asked too; soundness against brute force on random
 * positions is test_verify_pairing.c's. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../verify/verify.h"
#include "../verify/verify_rules.h"
#include "brute.h"
#include "certgen.h"
#include "runbin.h"
#include "testlib.h"
#include "vpair.h"

/* --- the hand-written 6x6 pairing --- */

/* rows 1 and 6 b:e opposite, rows 2-5 a:f same, columns a, c, d, f 1:6 same, columns b and e 2:5
 * opposite, long diagonals c3:d4 and d3:c4 opposite, short diagonals c2:e4, d2:b4, b3:d5, e3:c5
 * opposite */
static const char PAIRS18[] = "b1:e1~ b6:e6~ a2:f2= a3:f3= a4:f4= a5:f5= a1:a6= c1:c6= d1:d6= f1:f6= b2:b5~ e2:e5~ "
                              "c3:d4~ d3:c4~ c2:e4~ d2:b4~ b3:d5~ e3:c5~";
static const char EMPTY36[] = "....................................";

static int parse_pairs(int n, const char *text, VpPair *q)
{
    int count = 0;
    for (const char *s = text; *s;) {
        while (*s == ' ') s++;
        if (!*s) break;
        q[count].a = (s[1] - '1') * n + (s[0] - 'a');
        q[count].b = (s[4] - '1') * n + (s[3] - 'a');
        q[count].same = s[5] == '=';
        count++;
        s += 6;
    }
    return count;
}

static void pairs_string(int n, const VpPair *q, int nq, int skip, char *out)
{
    out[0] = '\0';
    for (int i = 0; i < nq; i++) {
        if (i == skip) continue;
        strcat(out, " ");
        vp_pair_text(n, q[i], out + strlen(out));
    }
}

Test(verify_pairing, the_18_pairs_cover_the_empty_6x6_board_under_exact_end_only)
{
    VpPair q[32];
    int nq = parse_pairs(6, PAIRS18, q), seen[36] = {0};
    cr_assert_eq(nq, 18);
    for (int i = 0; i < nq; i++) seen[q[i].a]++, seen[q[i].b]++;
    for (int i = 0; i < 36; i++) cr_assert_eq(seen[i], 1, "cell %d", i);
    RefPos p;
    for (int rules = 0; rules < 3; rules++) {
        ref_parse(&p, 6, 5, rules, EMPTY36);
        cr_assert_eq(vp_spec_holds(&p, 1, q, nq), rules == REF_EXACT_END, "rules %d", rules);
        char lines[512], want[VERIFY_ERR_LEN];
        snprintf(lines, sizeof lines, "- lemma pairing %s\n", PAIRS18);
        char *t = vp_cert(6, 5, rules, "chaos", "-", lines);
        VerifyResult r;
        int rc = vp_check(t, &r);
        if (rules == REF_EXACT_END) {
            cr_assert_eq(rc, 0, "%s", r.error);
            cr_assert(r.winner == VERIFY_WINNER_CHAOS && r.rules == VR_EXACT_END && r.n == 6 && r.k == 5);
            cr_assert(r.lines == 1 && r.lines_used == 1, "lines %llu used %llu", (unsigned long long)r.lines,
                      (unsigned long long)r.lines_used);
        } else {
            /* the first '=' pair of the line is a2:f2= */
            snprintf(want, sizeof want, "lemma pairing at %s: a same-symbol pair a2:f2= needs rules exact-end (line 6)",
                     EMPTY36);
            cr_assert_eq(rc, 1, "rules %d accepted", rules);
            cr_assert_str_eq(r.error, want);
        }
        free(t);
    }
}

/* Each pair left out in turn: the window the verifier names is one the
 * test's own reading (vp_uncovered) finds uncovered, and there is one. */
Test(verify_pairing, a_pair_left_out_leaves_a_window_uncovered)
{
    VpPair q[32];
    int nq = parse_pairs(6, PAIRS18, q);
    RefPos p;
    ref_parse(&p, 6, 5, REF_EXACT_END, EMPTY36);
    for (int skip = 0; skip < nq; skip++) {
        VpPair rest[32];
        int nr = 0;
        for (int i = 0; i < nq; i++)
            if (i != skip) rest[nr++] = q[i];
        char unc[8192], lines[512], prefix[128];
        cr_assert(vp_uncovered(&p, rest, nr, unc) > 0, "pair %d is needed", skip);
        strcpy(lines, "- lemma pairing");
        pairs_string(6, q, nq, skip, lines + strlen(lines));
        strcat(lines, "\n");
        char *t = vp_cert(6, 5, REF_EXACT_END, "chaos", "-", lines);
        VerifyResult r;
        cr_assert_eq(vp_check(t, &r), 1, "without pair %d accepted", skip);
        snprintf(prefix, sizeof prefix, "lemma pairing at %s: window ", EMPTY36);
        cr_assert(strncmp(r.error, prefix, strlen(prefix)) == 0, "%s", r.error);
        char name[16];
        cr_assert_eq(sscanf(r.error + strlen(prefix), "%15s", name), 1);
        char key[20];
        snprintf(key, sizeof key, " %s ", name);
        cr_assert(strstr(unc, key), "without pair %d: the verifier names %s, uncovered here:%s", skip, name, unc);
        cr_assert(strstr(r.error, " is not covered (line 6)"), "%s", r.error);
        free(t);
    }
}

/* The line is checked as written, whether or not the proof reaches it. */
static void expect_invalid(int n, int k, int rules, const char *winner, const char *root, const char *lines,
                           const char *want)
{
    char *t = vp_cert(n, k, rules, winner, root, lines);
    VerifyResult r;
    cr_assert_eq(vp_check(t, &r), 1, "accepted:\n%s", t);
    cr_assert(strstr(r.error, want), "%s\nwant: %s", r.error, want);
    free(t);
}

Test(verify_pairing, each_condition_broken)
{
    char lines[1024], want[VERIFY_ERR_LEN];
    /* Winner order. */
    snprintf(lines, sizeof lines, "- lemma pairing %s\n", PAIRS18);
    snprintf(want, sizeof want, "lemma pairing at %s: the certificate claims order (line 6)", EMPTY36);
    expect_invalid(6, 5, REF_EXACT_END, "order", "-", lines, want);

    /* A piece on a pair cell: X on c3 (pair c3:d4~), O on a1 (pair a1:a6=). */
    const char *x_c3 = "..............X.....................";
    snprintf(lines, sizeof lines, "%s lemma pairing %s\n", x_c3, PAIRS18);
    expect_invalid(6, 5, REF_EXACT_END, "chaos", x_c3, lines, "pair c3:d4~ holds X and an empty cell");
    const char *o_a1 = "O...................................";
    snprintf(lines, sizeof lines, "%s lemma pairing %s\n", o_a1, PAIRS18);
    expect_invalid(6, 5, REF_EXACT_END, "chaos", o_a1, lines, "pair a1:a6= holds O and an empty cell");

    /* Parity on the 5x5 board (k = 5): a pairing that covers every row, column and diagonal,
     * checked here, but Order to move with 25 empty cells, or Chaos with 24. */
    const char *p5 = "a1:b1~ a2:b2~ a3:b3~ c4:e4~ c5:d5~ a4:a5~ b4:b5~ c1:c2~ d1:d3~ e2:e3~ d4:e5~ e1:d2~";
    VpPair q[32];
    int nq = parse_pairs(5, p5, q);
    static const struct { const char *pos, *why; } par[] = {
        {".........................", "Order to move with 25 empty cells"},
        {"............X............", "Chaos to move with 24 empty cells"},
    };
    for (int i = 0; i < 2; i++) {
        RefPos p;
        char unc[8192];
        ref_parse(&p, 5, 5, REF_EXACT_END, par[i].pos);
        cr_assert_eq(vp_uncovered(&p, q, nq, unc), 0, "%s", unc);
        cr_assert_eq(vp_spec_holds(&p, 1, q, nq), 0);
        snprintf(lines, sizeof lines, "%s lemma pairing %s\n", par[i].pos, p5);
        for (int rules = 0; rules < 3; rules++) expect_invalid(5, 5, rules, "chaos", par[i].pos, lines, par[i].why);
    }

    /* An ended position, on a line the proof never reaches (the root is the empty 4x4 board). */
    expect_invalid(4, 3, REF_ORIGINAL, "chaos", "-", "XXX............. lemma pairing\n",
                   "lemma pairing at XXX.............: the position has already ended (Order has won) (line 6)");
    expect_invalid(4, 4, REF_EXACT_END, "chaos", "-", "XXOOOOXXXXOOOOXX lemma pairing\n",
                   "the position has already ended (Chaos has won)");

    /* No pairs: a window left live. */
    expect_invalid(4, 4, REF_ORIGINAL, "chaos", "-", "- lemma pairing\n", "window a1-d1 is not covered (line 6)");
}

/* The breakable form on a 5x5 board (k = 5, no window has ends, so the
 * three rule sets agree): column d can still win for X only, the diagonal
 * a1-e5 for O only, the diagonal e1-a5 for X only; every other line holds
 * X and O. Chaos to move (15 pieces), so the parity fails, and the three
 * pairs are breakable. The brute force agrees; every spoiled line is
 * refused with its reason. */
static const char ODD5[] = "OX...OO.XOXO..OO.O.XX.X.O";

Test(verify_pairing, breakable_pairs_on_an_odd_board)
{
    BruteMemo *memo = brute_new();
    for (int rules = 0; rules < 3; rules++) {
        RefPos p;
        ref_parse(&p, 5, 5, rules, ODD5);
        cr_assert(!brute_order_wins(memo, &p), "rules %d: the example is no Chaos win", rules);
        VpPair q[3];
        int nq = parse_pairs(5, "c3:d4~ e1:b4~ d1:d3~", q);
        cr_assert(vp_spec_holds(&p, 1, q, nq) && vp_all_breakable(&p, q, nq));
        char lines[256];
        snprintf(lines, sizeof lines, "%s lemma pairing c3:d4~ e1:b4~ d1:d3~\n", ODD5);
        char *t = vp_cert(5, 5, rules, "chaos", ODD5, lines);
        VerifyResult r;
        cr_assert_eq(vp_check(t, &r), 0, "rules %d: %s", rules, r.error);
        cr_assert(r.lines_used == 1);
        free(t);
        /* in another frame: the line is checked as written, the proof reaches it up to symmetry */
        char rotated[512];
        vp_lemma_line(&p, q, nq, 5 | 8, rotated);
        t = vp_cert(5, 5, rules, "chaos", ODD5, rotated);
        cr_assert_eq(vp_check(t, &r), 0, "rules %d, rotated: %s", rules, r.error);
        free(t);
    }
    brute_free(memo);
    static const struct {
        const char *pairs, *why;
    } bad[] = {
        /* a window left uncovered */
        {"c3:d4~ e1:b4~", "window d1-d5 is not covered"},
        /* a pair on an occupied cell (d2 holds X) */
        {"c3:d4~ e1:b4~ d1:d2~", "pair d1:d2~ holds an empty cell and X"},
        /* a same pair is never breakable (and needs exact-end anyway) */
        {"c3:d4~ e1:b4~ d1:d3=", "a same-symbol pair d1:d3= needs rules exact-end"},
        /* a pair with a cell that holds O */
        {"c3:d4~ e1:b4~ d1:e5~", "pair d1:e5~ holds an empty cell and O"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char lines[256];
        snprintf(lines, sizeof lines, "%s lemma pairing %s\n", ODD5, bad[i].pairs);
        expect_invalid(5, 5, REF_ORIGINAL, "chaos", ODD5, lines, bad[i].why);
    }
    /* exact-end, where '=' pairs are allowed: still refused, a same pair is not breakable */
    char lines[256];
    snprintf(lines, sizeof lines, "%s lemma pairing c3:d4~ e1:b4~ d1:d3=\n", ODD5);
    expect_invalid(5, 5, REF_EXACT_END, "chaos", ODD5, lines,
                   "Chaos to move with 10 empty cells (needs an even number at Order's turn, or every pair "
                   "breakable: d1:d3= is a same-symbol pair)");
}

/* Pairs that are not breakable, on 5x5 k=4 (windows overlap on a line):
 * with X on a1 and O on e1, window a1-d1 can win for X only and b1-e1 for
 * O only, so b1:c1 (in both) is not breakable; an empty line can win for
 * both. Order to move with 23 empty cells: the parity fails too. */
Test(verify_pairing, pairs_that_are_not_breakable)
{
    const char *pos = "X...O....................";
    char lines[128];
    /* b1:c1 leans both ways (a1-d1 holds X, b1-e1 holds O), and d1, the one
     * empty cell both hold, is in a pair: no witness */
    snprintf(lines, sizeof lines, "%s lemma pairing b1:c1~ d1:d2~\n", pos);
    expect_invalid(5, 4, REF_ORIGINAL, "chaos", pos, lines,
                   "Order to move with 23 empty cells (needs an even number at Order's turn, or every pair "
                   "breakable: b1:c1~ is not: a1-d1 can win for X only, b1-e1 for O, no witness) (line 6)");
    /* row 2 is empty: a2-d2 can win for both, and its other cells are paired */
    snprintf(lines, sizeof lines, "%s lemma pairing a2:b2~ c2:d2~\n", pos);
    expect_invalid(5, 4, REF_ORIGINAL, "chaos", pos, lines,
                   "breakable: a2:b2~ is not: a2-d2 can win for X and O, no witness)");
    /* the same under exact, where ends count (row 2 and its ends are empty) */
    expect_invalid(5, 4, REF_EXACT, "chaos", pos, lines, "a2:b2~ is not: a2-d2 can win for X and O, no witness");
    /* with d1 free it is the witness of b1:c1, and the line fails later, at a window */
    snprintf(lines, sizeof lines, "%s lemma pairing b1:c1~\n", pos);
    expect_invalid(5, 4, REF_ORIGINAL, "chaos", pos, lines, "window a2-d2 is not covered (line 6)");
}

/* 16 pairs for the empty 7x7 board with k = 7, one in each line, every
 * line keeping a cell outside the pairs (its pair's witness); found by a
 * search over pairings (results/claims/odd-pairing.md), checked here. */
static const char PAIRS7[] = "a1:b1~ a2:a3~ b2:c3~ b3:b4~ d3:e3~ c2:d2~ c1:c4~ d1:d4~ a4:e4~ e1:e2~ g1:f2~ f3:f4~ "
                             "g5:g6~ a5:b5~ a6:b6~ c7:d7~";
static const char EMPTY49[] = ".................................................";

/* The witness form decides the empty 7x7 board with k = 7 under every rule
 * set (for k = n a window has no ends): no parity (49 cells), no pair
 * leans (nothing is on the board), every pair has a witness. Spoiled: a
 * pair that takes a1:b1's only witness (f1), a pair left out. */
Test(verify_pairing, witnesses_decide_the_empty_7x7_board_with_k_7)
{
    char lines[512];
    for (int rules = 0; rules < 3; rules++) {
        snprintf(lines, sizeof lines, "%s lemma pairing %s\n", EMPTY49, PAIRS7);
        char *text = vp_cert(7, 7, rules, "chaos", "-", lines);
        VerifyResult r;
        cr_expect_eq(vp_check(text, &r), 0, "%s: %s", VP_RULES_NAME[rules], r.error);
        free(text);
        snprintf(lines, sizeof lines, "%s lemma pairing %s f1:g7~\n", EMPTY49, PAIRS7);
        expect_invalid(7, 7, rules, "chaos", "-", lines, "a1:b1~ is not: a1-g1 can win for X and O, no witness");
        snprintf(lines, sizeof lines, "%s lemma pairing %s\n", EMPTY49, PAIRS7 + 7); /* a1:b1 left out */
        expect_invalid(7, 7, rules, "chaos", "-", lines, "window a1-g1 is not covered");
    }
}

/* Hostile pairing lines on odd boards: off the board, overlapping, the
 * same cell twice: the file is malformed (exit 2), named by its line. */
Test(verify_pairing, hostile_lines_on_odd_boards)
{
    static const struct {
        int n;
        const char *pairs, *error;
    } cases[] = {
        {5, "c3:d4~ e1:b4~ d1:f3~", "6: bad pair 'd1:f3~': bad cell 'f3'"},
        {5, "c3:d4~ e1:b4~ d1:d6~", "6: bad pair 'd1:d6~': bad cell 'd6'"},
        {5, "c3:d4~ e1:b4~ d1:d0~", "6: bad pair 'd1:d0~': bad cell 'd0'"},
        {5, "c3:d4~ e1:b4~ d1:c3~", "6: cell c3 is in two pairs (c3:d4~ and d1:c3~)"},
        {5, "c3:d4~ e1:b4~ d4:d4~", "6: bad pair 'd4:d4~': the same cell twice"},
        {5, "c3:d4~ e1:b4~ d1:d3~ d1:d3~", "6: cell d1 is in two pairs"},
        {7, "a1:h1~", "6: bad pair 'a1:h1~': bad cell 'h1'"},
        {7, "a1:a8~", "6: bad pair 'a1:a8~': bad cell 'a8'"},
        {7, "a1:b1~ b1:c1~", "6: cell b1 is in two pairs"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n = cases[i].n;
        char text[512], root[64];
        if (n == 5) {
            strcpy(root, ODD5);
        } else {
            memset(root, '.', 49);
            root[49] = '\0';
        }
        snprintf(text, sizeof text,
                 "ocproof 2\nboard %d %d\nrules original\nwinner chaos\nroot %s\n%s lemma pairing %s\n", n, n, root,
                 root, cases[i].pairs);
        char tag[32];
        snprintf(tag, sizeof tag, "odd case %zu", i);
        cg_expect_malformed(text, cases[i].error, tag);
    }
}

Test(verify_pairing, no_pairs_where_no_window_is_live)
{
    /* Every line of four holds X and O; Order to move, 6 empty cells. */
    const char *dead = ".X.OOO.XXOX.X.O.";
    for (int rules = 0; rules < 3; rules++) {
        RefPos p;
        ref_parse(&p, 4, 4, rules, dead);
        cr_assert(vp_spec_holds(&p, 1, NULL, 0));
        char lines[64];
        snprintf(lines, sizeof lines, "%s lemma pairing\n", dead);
        char *t = vp_cert(4, 4, rules, "chaos", dead, lines);
        VerifyResult r;
        cr_assert_eq(vp_check(t, &r), 0, "rules %d: %s", rules, r.error);
        free(t);
        /* And a pair on two of its empty cells changes nothing. */
        snprintf(lines, sizeof lines, "%s lemma pairing a1:c1~\n", dead);
        t = vp_cert(4, 4, rules, "chaos", dead, lines);
        cr_assert_eq(vp_check(t, &r), 0, "rules %d: %s", rules, r.error);
        free(t);
    }
}

/* The partner of a cell in the 18 pairs. */
static VpPair partner_of(const VpPair *q, int nq, int cell, int *index)
{
    for (int i = 0; i < nq; i++)
        if (q[i].a == cell || q[i].b == cell) {
            *index = i;
            return q[i];
        }
    cr_assert_fail("cell %d in no pair", cell);
    return q[0];
}

static void canon(const RefPos *p, char *out)
{
    char best[65], img[65];
    ref_format(p, best);
    for (int s = 1; s < 16; s++) {
        RefPos q;
        ref_image(p, s, &q);
        ref_format(&q, img);
        if (strcmp(img, best) < 0) strcpy(best, img);
    }
    strcpy(out, best);
}

/* A proof two plies deep from the empty 6x6 board (exact-end): for each
 * first move of Order (one per class up to symmetry), Chaos's answer in
 * the pair as a move line, then a pairing line with the other 17 pairs;
 * every line in a random symmetric form. With one answer of the wrong
 * symbol, the next pairing line names the window it leaves open. */
static char *two_ply_proof(uint64_t *rng, int wrong_class, int *classes)
{
    VpPair q[32];
    int nq = parse_pairs(6, PAIRS18, q);
    char seen[72][37], *lines = calloc(1, 1 << 16);
    int nseen = 0;
    for (int cell = 0; cell < 36; cell++)
        for (int s = 0; s < 2; s++) {
            RefPos child, grand, img;
            ref_parse(&child, 6, 5, REF_EXACT_END, EMPTY36);
            child.cell[cell] = "XO"[s];
            char key[65];
            canon(&child, key);
            int dup = 0;
            for (int i = 0; i < nseen; i++) dup |= strcmp(seen[i], key) == 0;
            if (dup) continue;
            strcpy(seen[nseen++], key);
            int idx;
            VpPair pq = partner_of(q, nq, cell, &idx);
            int other = pq.a == cell ? pq.b : pq.a;
            char answer = pq.same ? "XO"[s] : "OX"[s];
            if (nseen - 1 == wrong_class) answer = answer == 'X' ? 'O' : 'X';
            grand = child;
            grand.cell[other] = answer;
            /* the move line in form t: the child's image and the answer's image */
            int t = tl_below(rng, 16);
            ref_image(&child, t, &img);
            char *end = lines + strlen(lines);
            ref_format(&img, end);
            char mv[4];
            vp_cell_name(6, vp_image_cell(6, t, other), mv);
            char sym = (t & 8) ? (answer == 'X' ? 'O' : 'X') : answer;
            sprintf(end + strlen(end), " %c%s\n", sym, mv);
            VpPair rest[32];
            int nr = 0;
            for (int i = 0; i < nq; i++)
                if (i != idx) rest[nr++] = q[i];
            vp_lemma_line(&grand, rest, nr, tl_below(rng, 16), lines + strlen(lines));
        }
    *classes = nseen;
    char *t = vp_cert(6, 5, REF_EXACT_END, "chaos", "-", lines);
    free(lines);
    return t;
}

Test(verify_pairing, a_two_ply_proof_ending_in_pairing_lines)
{
    uint64_t rng = 401;
    int classes;
    char *t = two_ply_proof(&rng, -1, &classes);
    VerifyResult r;
    cr_assert_eq(vp_check(t, &r), 0, "%s", r.error);
    /* 72 first moves, 6 classes up to the 16 symmetries (a1, b1, c1, b2, c2, c3); each class a move
     * line and a lemma line, all reached */
    cr_assert_eq(classes, 6);
    cr_assert_eq(r.lines, 12);
    cr_assert_eq(r.lines_used, 12, "used %llu", (unsigned long long)r.lines_used);
    free(t);
    /* A wrong answer in each class in turn: '~' answered with the same symbol, '=' with the other one. */
    for (int wrong = 0; wrong < classes; wrong++) {
        t = two_ply_proof(&rng, wrong, &classes);
        cr_assert_eq(vp_check(t, &r), 1, "wrong answer in class %d accepted", wrong);
        cr_assert(strstr(r.error, "lemma pairing at ") && strstr(r.error, " is not covered (line "), "%s", r.error);
        free(t);
    }
}

/* --- malformed --- */

static const char HEAD2[] = "ocproof 2\nboard 6 5\nrules exact-end\nwinner chaos\nroot -\n";
static const char HEAD1[] = "ocproof 1\nboard 6 5\nrules exact-end\nwinner chaos\nroot -\n";

static const struct {
    const char *head, *body, *error; /* error after "FILE:" */
} MALFORMED[] = {
    {HEAD1, "- lemma pairing c1:c6~\n", "6: a lemma line needs 'ocproof 2' (this certificate is 'ocproof 1')"},
    {HEAD1, "- lemma pairing\n", "6: a lemma line needs 'ocproof 2'"},
    {HEAD2, "- lemma pairs c1:c6~\n", "6: unknown lemma 'pairs' (centre, pairing, ring)"},
    {HEAD2, "- lemma Pairing\n", "6: unknown lemma 'Pairing' (centre, pairing, ring)"},
    {HEAD2, "- lemma x\n", "6: unknown lemma 'x' (centre, pairing, ring)"},
    {HEAD2, "- lemma pairing c1c6~\n", "6: bad pair 'c1c6~'"},
    {HEAD2, "- lemma pairing c1:c6\n", "6: bad pair 'c1:c6'"},
    {HEAD2, "- lemma pairing c1:c6x\n", "6: bad pair 'c1:c6x'"},
    {HEAD2, "- lemma pairing :c6~\n", "6: bad pair ':c6~'"},
    {HEAD2, "- lemma pairing c1:~\n", "6: bad pair 'c1:~'"},
    {HEAD2, "- lemma pairing ~\n", "6: bad pair '~'"},
    {HEAD2, "- lemma pairing a1 b1\n", "6: bad pair 'a1'"},
    {HEAD2, "- lemma pairing Xc1:c6~\n", "6: bad pair 'Xc1:c6~': bad cell 'Xc1'"},
    {HEAD2, "- lemma pairing g1:c6~\n", "6: bad pair 'g1:c6~': bad cell 'g1'"},
    {HEAD2, "- lemma pairing c1:c7=\n", "6: bad pair 'c1:c7=': bad cell 'c7'"},
    {HEAD2, "- lemma pairing c1:c0~\n", "6: bad pair 'c1:c0~': bad cell 'c0'"},
    {HEAD2, "- lemma pairing a1:b1:c1~\n", "6: bad pair 'a1:b1:c1~'"},
    {HEAD2, "- lemma pairing c1:c1~\n", "6: bad pair 'c1:c1~': the same cell twice"},
    {HEAD2, "- lemma pairing c1:c6~ d4:c6=\n", "6: cell c6 is in two pairs (c1:c6~ and d4:c6=)"},
    {HEAD2, "- lemma pairing c1:c6~ c1:c6~\n", "6: cell c1 is in two pairs"},
    {HEAD2, "...... lemma pairing\n", "6: bad position"},
    {HEAD2, "- Xc3\n- lemma pairing c1:c6~\n",
     "7: conflicts with line 6: the same position (up to symmetry) with a move line and a lemma line"},
    {HEAD2, "- lemma pairing c1:c6~\n- Xc3\n",
     "7: conflicts with line 6: the same position (up to symmetry) with a move line and a lemma line"},
    /* X on a1 and, rotated half a turn with X and O swapped, O on f6 */
    {HEAD2, "X................................... Oc3\n...................................O lemma pairing\n",
     "7: conflicts with line 6"},
    {HEAD2, "- lemma centre\n- lemma pairing\n", "7: conflicts with line 6: the same position (up to symmetry) with a "
                                                  "centre and a pairing or ring lemma line"},
    {HEAD2,
     "- lemma pairing a1:a2~ a3:a4~ a5:a6~ b1:b2~ b3:b4~ b5:b6~ c1:c2~ c3:c4~ c5:c6~ d1:d2~ d3:d4~ d5:d6~ e1:e2~ "
     "e3:e4~ e5:e6~ f1:f2~ f3:f4~ f5:f6~ a1:b1~\n",
     "6: cell a1 is in two pairs"},
};

Test(verify_pairing, malformed_lines)
{
    for (size_t i = 0; i < sizeof MALFORMED / sizeof MALFORMED[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", MALFORMED[i].head, MALFORMED[i].body);
        char tag[32];
        snprintf(tag, sizeof tag, "case %zu", i);
        cg_expect_malformed(text, MALFORMED[i].error, tag);
    }
}

/* A line of more words than any board has pairs for. */
Test(verify_pairing, too_many_pairs)
{
    char body[2048] = "- lemma pairing";
    for (int i = 0; i < 40; i++) sprintf(body + strlen(body), " %c%d:%c%d~", 'a' + i % 6, 1 + i / 6 % 6, 'a', 1);
    strcat(body, "\n");
    char *t = malloc(4096);
    snprintf(t, 4096, "%s%s", HEAD2, body);
    VerifyResult r;
    cr_assert_eq(vp_check(t, &r), 2, "%s", r.error);
    cr_assert(strstr(r.error, "<text>:6: "), "%s", r.error);
    free(t);
}

Test(verify_pairing, command_line)
{
    char path[] = "/tmp/ocsolve-verify-pairing-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    char text[1024];
    snprintf(text, sizeof text, "%s- lemma pairing %s\n", HEAD2, PAIRS18);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    Run r;
    expect_ok(&r, "verify", "--rules", "exact-end", "--winner", "chaos", "--root", "empty", path);
    cr_assert(strstr(r.out, "claim: chaos wins, 6x6 k=5, rules exact-end") && strstr(r.out, "lines: 1 (used 1)\n") &&
                  strstr(r.out, "\nvalid\n"),
              "%s", r.out);
    run_free(&r);
    run_argv(&r, ARGS("verify", "--json", path));
    cr_assert(r.exited && r.code == 0, "%s: %d %s", r.desc, r.code, r.err);
    cr_assert(strstr(r.out, "\"valid\":true") && strstr(r.out, "\"winner\":\"chaos\"") &&
                  strstr(r.out, "\"rules\":\"exact-end\"") && strstr(r.out, "\"error\":null"),
              "%s", r.out);
    run_free(&r);

    FILE *f = fopen(path, "w");
    fprintf(f, "ocproof 2\nboard 6 5\nrules exact\nwinner chaos\nroot -\n- lemma pairing %s\n", PAIRS18);
    fclose(f);
    run_argv(&r, ARGS("verify", "--json", path));
    cr_assert(r.exited && r.code == 1, "%s: %d %s", r.desc, r.code, r.err);
    cr_assert(strstr(r.out, "\"valid\":false") && strstr(r.out, "\"result\":\"invalid\"") &&
                  strstr(r.out, "\"error\":\"lemma pairing at ....................................: a same-symbol "
                                "pair a2:f2= needs rules exact-end (line 6)\""),
              "%s", r.out);
    run_free(&r);
    run_argv(&r, ARGS("verify", path));
    cr_assert(r.exited && r.code == 1, "%s: %d %s", r.desc, r.code, r.err);
    cr_assert(strstr(r.out, "invalid: lemma pairing at "), "%s", r.out);
    run_free(&r);
    unlink(path);
}
