/* test_verify_centre_cert.c - certificates with centre lemma lines
 * ('POSITION lemma centre', verify.c and verify/verify_centre.*): on the
 * empty board, valid or invalid by each condition on the game with its
 * reason; lemma lines in any of the 16 symmetric forms against brute force
 * (brute.h, over ref.h); deeper in a proof, after a move line and for both
 * sides to move below the root; unreached lines and ocproof 1 proofs; and
 * malformed lemma lines, in process and through the binary. The lemma on
 * whole boards is test_verify_centre.c's and
 * test_verify_centre_conditions.c's. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../verify/verify.h"
#include "../verify/verify_centre.h"
#include "../verify/verify_rules.h"
#include "brute.h"
#include "certgen.h"
#include "runbin.h"
#include "tcentre.h"
#include "testlib.h"

Test(verify_centre, lemma_on_the_empty_board)
{
    static const struct { int n, k; const char *rules, *winner, *why; } cases[] = {
        {6, 5, "original", "order", NULL},
        {6, 5, "exact", "order", NULL},
        {5, 4, "original", "order", NULL},
        {4, 3, "exact", "order", NULL},
        {6, 5, "exact-end", "order", "not under exact-end (lines judged on the full board)"},
        {6, 5, "original", "chaos", "the certificate claims chaos"},
        {6, 5, "exact", "chaos", "the certificate claims chaos"},
        {7, 6, "original", "order", "needs k = n-1 and n from 4 to 6"},
        {6, 4, "original", "order", "needs k = n-1 and n from 4 to 6"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *t = tc_cert(cases[i].n, cases[i].k, cases[i].rules, cases[i].winner, "-", "- lemma centre\n");
        VerifyResult r;
        int rc = cg_check(t, &r);
        cr_assert_eq(r.lines, 1);
        cr_assert_eq(r.lines_used, 1);
        cr_assert_eq(r.positions_checked, 1);
        if (!cases[i].why) {
            cr_assert_eq(rc, 0, "case %zu: %s", i, r.error);
        } else {
            char want[VERIFY_ERR_LEN], empty[65];
            memset(empty, '.', 64);
            empty[cases[i].n * cases[i].n] = '\0';
            snprintf(want, sizeof want, "lemma centre at %s: %s (line 6)", empty, cases[i].why);
            cr_assert_eq(rc, 1, "case %zu accepted", i);
            cr_assert_str_eq(r.error, want);
        }
        free(t);
    }
}

/* 'POS MOVE' with the position and the move (sym at cell) in symmetric form s. */
static void move_line(int n, const char *pos, int cell, char sym, int s, char *out)
{
    RefPos p, q;
    char a[65], b[65];
    ref_parse(&p, n, n - 1, REF_ORIGINAL, pos);
    ref_image(&p, s, &q);
    ref_format(&q, a);
    p.cell[cell] = sym;
    ref_image(&p, s, &q);
    ref_format(&q, b);
    int i = 0;
    while (a[i] == b[i]) i++;
    sprintf(out, "%s %c%c%d\n", a, b[i], 'a' + i % n, 1 + i / n);
}

/* Random 6x6 lemma-shaped roots, the lemma line in a random one of the 16
 * forms: valid exactly when brute force says Order wins the 4x4 small game
 * (the position taken with k = 4 on its own board), else the reason names
 * the root and the side to move. */
Test(verify_centre, lemma_lines_against_brute_force_in_any_form)
{
    uint64_t rng = 303;
    BruteMemo *memo = brute_new();
    int result[2] = {0, 0};
    for (int t = 0; t < 300; t++) {
        char s[37], line[64];
        tc_lemma_shaped(6, 50, 35 + tl_below(&rng, 20), &rng, s);
        RefPos big, small;
        int rules = tl_below(&rng, 2);
        ref_parse(&big, 6, 5, rules, s);
        if (ref_status(&big) != REF_ONGOING) continue;
        char centre[17];
        for (int i = 0; i < 16; i++) centre[i] = s[(i / 4 + 1) * 6 + i % 4 + 1];
        centre[16] = '\0';
        if (tc_count_empty(centre, 16) > 10) continue;
        ref_parse(&small, 4, 4, REF_ORIGINAL, centre);
        int want = brute_order_wins(memo, &small);
        tc_lemma_line(6, s, tl_below(&rng, 16), line);
        char *text = tc_cert(6, 5, CG_RULES[rules], "order", s, line);
        VerifyResult r;
        int rc = cg_check(text, &r);
        if (want) {
            cr_assert_eq(rc, 0, "%s", r.error);
        } else {
            char expect[VERIFY_ERR_LEN];
            snprintf(expect, sizeof expect, "lemma centre at %s: the centre small game is a Chaos win (%s to move) (line 6)",
                     s, (36 - tc_count_empty(s, 36)) % 2 == 0 ? "Order" : "Chaos");
            cr_assert_eq(rc, 1, "%s accepted", s);
            cr_assert_str_eq(r.error, expect);
        }
        result[want]++;
        free(text);
    }
    brute_free(memo);
    cr_assert(result[0] > 20 && result[1] > 20, "%d invalid, %d valid", result[0], result[1]);
}

/* A certificate whose root (Order to move) has a half-full pair: one move
 * line completes it, mixed, and the lemma holds after; the same with a
 * move elsewhere on the ring, which leaves the pair half full, is invalid
 * and says which pair. */
Test(verify_centre, a_move_line_leading_to_a_lemma_position)
{
    uint64_t rng = 304;
    BruteMemo *memo = brute_new();
    for (int round = 0; round < 6; round++) {
        RefPos small, big;
        char s[37], centre[17], root[37], child[37];
        /* A centre with 7 pieces (Chaos to move in the small game) that Order wins. */
        do {
            while (tl_random_ongoing(&small, 4, 4, REF_ORIGINAL, 7, &rng) != 0) {}
        } while (!brute_order_wins(memo, &small));
        ref_format(&small, centre);
        memset(s, '.', 36);
        s[36] = '\0';
        for (int i = 0; i < 16; i++) s[(i / 4 + 1) * 6 + i % 4 + 1] = centre[i];
        s[tc_cell_at(6, "a2")] = 'X'; /* the half-full pair: 8 pieces, Order to move */
        s[tc_cell_at(6, "c1")] = 'O', s[tc_cell_at(6, "c6")] = 'X';
        ref_parse(&big, 6, 5, round % 2, s);
        cr_assert_eq(ref_status(&big), REF_ONGOING);
        strcpy(root, s);
        strcpy(child, s);
        child[tc_cell_at(6, "f2")] = 'O';
        char lines[256];
        move_line(6, root, tc_cell_at(6, "f2"), 'O', tl_below(&rng, 16), lines);
        tc_lemma_line(6, child, tl_below(&rng, 16), lines + strlen(lines));
        char *text = tc_cert(6, 5, CG_RULES[round % 2], "order", root, lines);
        VerifyResult r;
        cr_assert_eq(cg_check(text, &r), 0, "%s\n%s", r.error, text);
        cr_assert(r.lines == 2 && r.lines_used == 2 && r.positions_checked == 2, "lines %llu used %llu checked %llu",
                  (unsigned long long)r.lines, (unsigned long long)r.lines_used,
                  (unsigned long long)r.positions_checked);
        free(text);

        /* Xb1 instead: a2/f2 stays half full (and b1/b6 is, after it). Two
         * half pairs: the lemma holds if both lines are dead (both symbols
         * on b2-e2 and on b2-b5: verify_centre.h) or the centre game with
         * both empty cells is an Order win; else that game is named. */
        strcpy(child, root);
        child[tc_cell_at(6, "b1")] = 'X';
        move_line(6, root, tc_cell_at(6, "b1"), 'X', 0, lines);
        tc_lemma_line(6, child, tl_below(&rng, 16), lines + strlen(lines));
        text = tc_cert(6, 5, CG_RULES[round % 2], "order", root, lines);
        char expect[VERIFY_ERR_LEN];
        bool row_dead = tc_line_dead(6, 0, child), col_dead = tc_line_dead(6, 4, child);
        if (row_dead && col_dead) {
            cr_assert_eq(cg_check(text, &r), 0, "%s\n%s", r.error, text);
        } else if (cg_check(text, &r) != 0) {
            snprintf(expect, sizeof expect,
                     "lemma centre at %s: the centre game with f2's half pair (X on a2) and b6's half pair (X on b1) is "
                     "a Chaos win (Chaos to move) (line 7)",
                     child);
            cr_assert_str_eq(r.error, expect);
        }
        free(text);
        /* No lemma line for the child: Chaos to move there, and no line is needed, so the
         * verifier follows every Chaos move and finds no line for the replies. */
        move_line(6, root, tc_cell_at(6, "f2"), 'O', 0, lines);
        text = tc_cert(6, 5, CG_RULES[round % 2], "order", root, lines);
        cr_assert_eq(cg_check(text, &r), 1, "%s", text);
        cr_assert(strstr(r.error, "no certificate line for position"), "%s", r.error);
        free(text);
    }
    brute_free(memo);
}

/* The other cell of a 6x6 ring pair, -1 for a centre cell. */
static int partner(int cell)
{
    int np;
    const char *const *pairs = tc_pairs_of(6, &np);
    for (int p = 0; p < np; p++) {
        int a = tc_cell_at(6, pairs[p]), b = tc_cell_at(6, pairs[p] + 3);
        if (cell == a) return b;
        if (cell == b) return a;
    }
    return -1;
}

/* A root with Chaos to move and no line of its own: the certificate answers
 * each Chaos move on the ring by mixing the pair (a move line, then a lemma
 * line), and each Chaos move in the centre with a lemma line (Order to
 * move), every line in a random form. Valid when Order wins the small game,
 * invalid when Chaos does. */
static char *chaos_to_move_cert(const char *centre, int rules, uint64_t *rng, char *root)
{
    memset(root, '.', 36);
    root[36] = '\0';
    for (int i = 0; i < 16; i++) root[(i / 4 + 1) * 6 + i % 4 + 1] = centre[i];
    root[tc_cell_at(6, "b1")] = 'X', root[tc_cell_at(6, "b6")] = 'O';
    root[tc_cell_at(6, "a3")] = 'O', root[tc_cell_at(6, "f3")] = 'X';
    size_t cap = 8192, len = 0;
    char *lines = malloc(cap);
    lines[0] = '\0';
    for (int i = 0; i < 36; i++) {
        if (root[i] != '.') continue;
        for (int s = 0; s < 2; s++) {
            char child[37], grand[37], sym = "XO"[s];
            strcpy(child, root);
            child[i] = sym;
            if (len + 200 > cap) lines = realloc(lines, cap *= 2);
            int j = partner(i);
            if (j < 0) {
                tc_lemma_line(6, child, tl_below(rng, 16), lines + len);
            } else {
                move_line(6, child, j, "OX"[s], tl_below(rng, 16), lines + len);
                len += strlen(lines + len);
                strcpy(grand, child);
                grand[j] = "OX"[s];
                tc_lemma_line(6, grand, tl_below(rng, 16), lines + len);
            }
            len += strlen(lines + len);
        }
    }
    char *text = tc_cert(6, 5, CG_RULES[rules], "order", root, lines);
    free(lines);
    return text;
}

Test(verify_centre, lemma_lines_for_both_sides_to_move_below_the_root)
{
    uint64_t rng = 305;
    BruteMemo *memo = brute_new();
    int seen[2] = {0, 0};
    for (int round = 0; round < 8; round++) {
        RefPos small, big;
        char centre[17], root[37];
        while (tl_random_ongoing(&small, 4, 4, REF_ORIGINAL, 7, &rng) != 0) {}
        int order = brute_order_wins(memo, &small);
        ref_format(&small, centre);
        char *text = chaos_to_move_cert(centre, round % 2, &rng, root);
        ref_parse(&big, 6, 5, round % 2, root);
        cr_assert_eq(ref_status(&big), REF_ONGOING);
        VerifyResult r;
        int rc = cg_check(text, &r);
        if (order) {
            cr_assert_eq(rc, 0, "%s", r.error);
            cr_assert(r.lines_used > 30 && r.lines_used <= r.lines, "used %llu of %llu",
                      (unsigned long long)r.lines_used, (unsigned long long)r.lines);
        } else {
            cr_assert_eq(rc, 1, "centre %s accepted", centre);
            cr_assert(strstr(r.error, "lemma centre at ") && strstr(r.error, ": the centre small game is a Chaos win ("),
                      "%s", r.error);
        }
        seen[order]++;
        free(text);
    }
    brute_free(memo);
    cr_assert(seen[0] > 0 && seen[1] > 0, "%d Chaos, %d Order centres", seen[0], seen[1]);
}

Test(verify_centre, unreached_lemma_lines_are_ignored_and_v1_proofs_verify_as_v2)
{
    /* The lemma fails for the second position (pair a2/f2 holds X and an empty cell), but the proof never gets there. */
    const char *lines = "- lemma centre\n......X............................. lemma centre\n";
    char *t = tc_cert(6, 5, "original", "order", "-", lines);
    VerifyResult r;
    cr_assert_eq(cg_check(t, &r), 0, "%s", r.error);
    cr_assert(r.lines == 2 && r.lines_used == 1);
    free(t);
    CgCert c;
    cg_make_cert(&c, 4, 3, VR_ORIGINAL, CG_EMPTY44, 1);
    char *v1 = cg_plain(&c), *v2 = cg_replace(v1, "ocproof 1", "ocproof 2");
    VerifyResult r1, r2;
    cr_assert_eq(cg_check(v1, &r1), 0, "%s", r1.error);
    cr_assert_eq(cg_check(v2, &r2), 0, "%s", r2.error);
    cr_assert(r1.lines == r2.lines && r1.lines_used == r2.lines_used && r1.positions_checked == r2.positions_checked);
    free(v1);
    free(v2);
    cg_free_cert(&c);
}

/* --- malformed, in process and through the binary --- */

static const char HEAD2[] = "ocproof 2\nboard 6 5\nrules original\nwinner order\nroot -\n";
static const char HEAD1[] = "ocproof 1\nboard 6 5\nrules original\nwinner order\nroot -\n";

static const struct {
    const char *head, *body, *error; /* error after "FILE:" */
} MALFORMED[] = {
    {HEAD1, "- lemma centre\n", "6: a lemma line needs 'ocproof 2' (this certificate is 'ocproof 1')"},
    {HEAD2, "- lemma\n", "6: 'lemma' needs a name, as in 'POSITION lemma centre'"},
    {HEAD2, "- lemma centre now\n", "6: a lemma line is 'POSITION lemma centre' or 'POSITION lemma centre see FILE', not 4 words"},
    {HEAD2, "- lemma pairing a1 b1\n", "6: bad pair 'a1'"},
    {HEAD2, "- lemma Centre\n", "6: unknown lemma 'Centre' (centre, pairing, ring)"},
    {HEAD2, "...... lemma centre\n", "6: bad position"},
    {HEAD2, "- Xc3\n- lemma centre\n",
     "7: conflicts with line 6: the same position (up to symmetry) with a move line and a lemma line"},
    {HEAD2, "- lemma centre\n# twice is fine\n- lemma centre\n- Xc3\n",
     "9: conflicts with line 6: the same position (up to symmetry) with a move line and a lemma line"},
    /* X on a1 and, rotated half a turn with X and O swapped, O on f6 */
    {HEAD2, "X................................... Oc3\n...................................O lemma centre\n",
     "7: conflicts with line 6"},
    {"ocproof 3\n", "", "1: unsupported certificate version (only 'ocproof 1' or 'ocproof 2')"},
    {"ocproof 2 1\n", "", "1: unsupported certificate version"},
};

Test(verify_centre, malformed_lemma_lines)
{
    for (size_t i = 0; i < sizeof MALFORMED / sizeof MALFORMED[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", MALFORMED[i].head, MALFORMED[i].body);
        char tag[32];
        snprintf(tag, sizeof tag, "case %zu", i);
        cg_expect_malformed(text, MALFORMED[i].error, tag);
    }
}

Test(verify_centre, command_line)
{
    char path[] = "/tmp/ocsolve-verify-centre-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    const char *text = "ocproof 2\nboard 6 5\nrules exact\nwinner order\nroot -\n- lemma centre\n";
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    Run r;
    expect_ok(&r, "verify", "--rules", "exact", "--root", "empty", path);
    cr_assert(strstr(r.out, "lines: 1 (used 1)\n") && strstr(r.out, "\nvalid\n"), "%s", r.out);
    run_free(&r);

    FILE *f = fopen(path, "w");
    fputs("ocproof 2\nboard 6 5\nrules exact-end\nwinner order\nroot -\n- lemma centre\n", f);
    fclose(f);
    run_argv(&r, ARGS("verify", "--json", path));
    cr_assert(r.exited && r.code == 1, "%s: %d %s", r.desc, r.code, r.err);
    cr_assert(strstr(r.out, "\"valid\":false") &&
                  strstr(r.out, "\"error\":\"lemma centre at ....................................: not under exact-end"),
              "%s", r.out);
    run_free(&r);
    unlink(path);
}
