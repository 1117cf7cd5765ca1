/* test_verify_pairing.c - the pairing lemma of ocproof 2 certificates
 * ('POSITION lemma pairing c1:c6~ a1:f6= ...', verify/verify_pairing.* and
 * verify_read.c):
 *   - hand-written certificates: the 18-pair pairing of the empty 6x6
 *     board under exact-end, and each condition broken in turn, with its
 *     reason; a two-ply proof that ends in pairing lines in random frames;
 *   - soundness against brute force (brute.h, over ref.h): random small
 *     positions, a pairing searched for here (the test's own reading of the
 *     lemma: windows built from the board's lines, a backtracking search),
 *     spoiled at random; the verifier must agree with this file's own
 *     check of the conditions, and wherever it accepts, Chaos must win;
 *   - malformed lines, in process and through the binary. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../verify/verify.h"
#include "../verify/verify_rules.h"
#include "brute.h"
#include "certgen.h"
#include "runbin.h"
#include "testlib.h"

/* --- the test's own reading of the lemma, on RefPos cells ('X', 'O', '.') --- */

typedef struct {
    int cell[8], ncells, end[2], nends;
} TWin;

typedef struct {
    int a, b, same; /* cells r*n+c; same: '=' */
} TPair;

/* Every window of k cells, built from the board's full lines (rows,
 * columns, both diagonal directions), each line a list of cells; a
 * window's ends are its neighbours on the line. Returns the count. */
static int all_windows(int n, int k, TWin *out)
{
    int count = 0, line[8], len;
    /* starts and steps of the lines: rows, columns, down-right from the top row and the left column,
     * down-left from the top row and the right column */
    for (int kind = 0; kind < 4; kind++)
        for (int s = 0; s < 2 * n; s++) {
            int r, c, dr, dc;
            if (kind == 0) {
                if (s >= n) continue;
                r = s, c = 0, dr = 0, dc = 1;
            } else if (kind == 1) {
                if (s >= n) continue;
                r = 0, c = s, dr = 1, dc = 0;
            } else if (kind == 2) {
                if (s == n) continue; /* (0, 0) once */
                r = s < n ? 0 : s - n, c = s < n ? s : 0, dr = 1, dc = 1;
            } else {
                if (s == n) continue; /* (0, n-1) once */
                r = s < n ? 0 : s - n, c = s < n ? s : n - 1, dr = 1, dc = -1;
            }
            len = 0;
            while (r >= 0 && r < n && c >= 0 && c < n) line[len++] = r * n + c, r += dr, c += dc;
            for (int off = 0; off + k <= len; off++) {
                TWin *w = &out[count++];
                w->ncells = k;
                for (int i = 0; i < k; i++) w->cell[i] = line[off + i];
                w->nends = 0;
                if (off > 0) w->end[w->nends++] = line[off - 1];
                if (off + k < len) w->end[w->nends++] = line[off + k];
            }
        }
    return count;
}

static int has(const int *set, int count, int x)
{
    for (int i = 0; i < count; i++)
        if (set[i] == x) return 1;
    return 0;
}

static int live(const RefPos *p, const TWin *w)
{
    for (int s = 0; s < 2; s++) {
        char me = "XO"[s], other = "OX"[s];
        int ok = 1;
        for (int i = 0; i < w->ncells; i++) ok &= p->cell[w->cell[i]] != other;
        if (p->rules != REF_ORIGINAL)
            for (int i = 0; i < w->nends; i++) ok &= p->cell[w->end[i]] != me;
        if (ok) return 1;
    }
    return 0;
}

static int covers(const TWin *w, TPair q)
{
    if (!q.same) return has(w->cell, w->ncells, q.a) && has(w->cell, w->ncells, q.b);
    return (has(w->cell, w->ncells, q.a) && has(w->end, w->nends, q.b)) ||
           (has(w->cell, w->ncells, q.b) && has(w->end, w->nends, q.a));
}

static void cell_name(int n, int cell, char *out)
{
    out[0] = (char)('a' + cell % n);
    out[1] = (char)('1' + cell / n);
    out[2] = '\0';
}

/* The live windows no pair covers, as "c1-c5" names ("first-last" and
 * "last-first" both listed) joined by spaces into out; returns their number. */
static int uncovered(const RefPos *p, const TPair *q, int nq, char *out)
{
    static TWin w[512];
    int nw = all_windows(p->n, p->k, w), count = 0;
    out[0] = '\0';
    for (int i = 0; i < nw; i++) {
        if (!live(p, &w[i])) continue;
        int cov = 0;
        for (int j = 0; j < nq; j++) cov |= covers(&w[i], q[j]);
        if (cov) continue;
        char a[4], b[4];
        cell_name(p->n, w[i].cell[0], a);
        cell_name(p->n, w[i].cell[w[i].ncells - 1], b);
        sprintf(out + strlen(out), " %s-%s %s-%s", a, b, b, a);
        count++;
    }
    if (count) strcat(out, " ");
    return count;
}

static int count_empty(const RefPos *p)
{
    int e = 0;
    for (int i = 0; i < p->n * p->n; i++) e += p->cell[i] == '.';
    return e;
}

/* Can window w still win for the symbol me (the README's reading)? */
static int can_win_for(const RefPos *p, const TWin *w, char me)
{
    char other = me == 'X' ? 'O' : 'X';
    for (int i = 0; i < w->ncells; i++)
        if (p->cell[w->cell[i]] == other) return 0;
    if (p->rules != REF_ORIGINAL)
        for (int i = 0; i < w->nends; i++)
            if (p->cell[w->end[i]] == me) return 0;
    return 1;
}

/* A witness of pair j (the README): an empty cell in no pair that every
 * live window holding both the pair's cells holds. */
static int has_witness(const RefPos *p, const TPair *q, int nq, int j, const TWin *w, int nw)
{
    for (int c = 0; c < p->n * p->n; c++) {
        int free = p->cell[c] == '.';
        for (int i = 0; i < nq && free; i++) free = q[i].a != c && q[i].b != c;
        for (int i = 0; i < nw && free; i++)
            if (has(w[i].cell, w[i].ncells, q[j].a) && has(w[i].cell, w[i].ncells, q[j].b) &&
                (can_win_for(p, &w[i], 'X') || can_win_for(p, &w[i], 'O')))
                free = has(w[i].cell, w[i].ncells, c);
        if (free) return 1;
    }
    return 0;
}

/* Does pair j lean (the README's first sense of breakable): every live
 * window holding both its cells can still win for one symbol only, the
 * same one? */
static int pair_leans(const RefPos *p, TPair q, const TWin *w, int nw)
{
    char lean = 0;
    for (int i = 0; i < nw; i++) {
        if (!has(w[i].cell, w[i].ncells, q.a) || !has(w[i].cell, w[i].ncells, q.b)) continue;
        int x = can_win_for(p, &w[i], 'X'), o = can_win_for(p, &w[i], 'O');
        if (!x && !o) continue;
        char s = x ? 'X' : 'O';
        if ((x && o) || (lean && lean != s)) return 0;
        lean = s;
    }
    return 1;
}

/* Every pair breakable (the README): '~', and it leans or has a witness. */
static int all_breakable(const RefPos *p, const TPair *q, int nq)
{
    static TWin w[512];
    int nw = all_windows(p->n, p->k, w);
    for (int j = 0; j < nq; j++)
        if (q[j].same || (!pair_leans(p, q[j], w, nw) && !has_witness(p, q, nq, j, w, nw))) return 0;
    return 1;
}

/* Does some pair need its witness (it does not lean)? */
static int needs_witness(const RefPos *p, const TPair *q, int nq)
{
    static TWin w[512];
    int nw = all_windows(p->n, p->k, w);
    for (int j = 0; j < nq; j++)
        if (!pair_leans(p, q[j], w, nw)) return 1;
    return 0;
}

/* All the lemma's conditions, read from the README: claim Chaos, not over,
 * '=' only under exact-end, pair cells empty and used once, parity or
 * every pair breakable, every live window covered. */
static int spec_holds(const RefPos *p, int claim_chaos, const TPair *q, int nq)
{
    int nn = p->n * p->n, seen[64] = {0};
    char unc[8192];
    if (!claim_chaos || ref_status(p) != REF_ONGOING) return 0;
    for (int i = 0; i < nq; i++) {
        if (q[i].same && p->rules != REF_EXACT_END) return 0;
        if (p->cell[q[i].a] != '.' || p->cell[q[i].b] != '.' || q[i].a == q[i].b) return 0;
        if (seen[q[i].a]++ || seen[q[i].b]++) return 0;
    }
    int e = count_empty(p), order_to_move = (nn - e) % 2 == 0;
    if (!((order_to_move && e % 2 == 0) || (!order_to_move && e % 2 == 1)) && !all_breakable(p, q, nq)) return 0;
    return uncovered(p, q, nq, unc) == 0;
}

/* --- writing certificates --- */

/* The cell that cell i goes to under symmetry s (its geometry), found with ref_image. */
static int image_cell(int n, int s, int i)
{
    RefPos p, q;
    char e[65];
    memset(e, '.', (size_t)(n * n));
    e[n * n] = '\0';
    ref_parse(&p, n, 3, REF_ORIGINAL, e);
    p.cell[i] = 'X';
    ref_image(&p, s & 7, &q);
    for (int j = 0; j < n * n; j++)
        if (q.cell[j] == 'X') return j;
    cr_assert_fail("image of cell %d lost", i);
    return -1;
}

static void pair_text(int n, TPair q, char *out)
{
    char a[4], b[4];
    cell_name(n, q.a, a);
    cell_name(n, q.b, b);
    sprintf(out, "%s:%s%c", a, b, q.same ? '=' : '~');
}

/* "POS lemma pairing PAIRS\n" for p and its pairs, in symmetric form s. */
static void lemma_line(const RefPos *p, const TPair *q, int nq, int s, char *out)
{
    RefPos img;
    ref_image(p, s, &img);
    ref_format(&img, out);
    strcat(out, " lemma pairing");
    for (int i = 0; i < nq; i++) {
        TPair m = {image_cell(p->n, s, q[i].a), image_cell(p->n, s, q[i].b), q[i].same};
        strcat(out, " ");
        pair_text(p->n, m, out + strlen(out));
    }
    strcat(out, "\n");
}

static const char *const RULES_NAME[3] = {"original", "exact", "exact-end"};

static char *cert(int n, int k, int rules, const char *winner, const char *root, const char *lines)
{
    size_t len = strlen(lines) + 256;
    char *t = malloc(len);
    snprintf(t, len, "ocproof 2\nboard %d %d\nrules %s\nwinner %s\nroot %s\n%s", n, k, RULES_NAME[rules], winner, root,
             lines);
    return t;
}

static int check(const char *text, VerifyResult *r)
{
    int rc = verify_text(text, r);
    cr_assert_eq(rc, r->status);
    return rc;
}

/* --- the hand-written 6x6 pairing --- */

/* rows 1 and 6 b:e opposite, rows 2-5 a:f same, columns a, c, d, f 1:6 same, columns b and e 2:5
 * opposite, long diagonals c3:d4 and d3:c4 opposite, short diagonals c2:e4, d2:b4, b3:d5, e3:c5
 * opposite */
static const char PAIRS18[] = "b1:e1~ b6:e6~ a2:f2= a3:f3= a4:f4= a5:f5= a1:a6= c1:c6= d1:d6= f1:f6= b2:b5~ e2:e5~ "
                              "c3:d4~ d3:c4~ c2:e4~ d2:b4~ b3:d5~ e3:c5~";
static const char EMPTY36[] = "....................................";

static int parse_pairs(int n, const char *text, TPair *q)
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

static void pairs_string(int n, const TPair *q, int nq, int skip, char *out)
{
    out[0] = '\0';
    for (int i = 0; i < nq; i++) {
        if (i == skip) continue;
        strcat(out, " ");
        pair_text(n, q[i], out + strlen(out));
    }
}

Test(verify_pairing, the_18_pairs_cover_the_empty_6x6_board_under_exact_end_only)
{
    TPair q[32];
    int nq = parse_pairs(6, PAIRS18, q), seen[36] = {0};
    cr_assert_eq(nq, 18);
    for (int i = 0; i < nq; i++) seen[q[i].a]++, seen[q[i].b]++;
    for (int i = 0; i < 36; i++) cr_assert_eq(seen[i], 1, "cell %d", i);
    RefPos p;
    for (int rules = 0; rules < 3; rules++) {
        ref_parse(&p, 6, 5, rules, EMPTY36);
        cr_assert_eq(spec_holds(&p, 1, q, nq), rules == REF_EXACT_END, "rules %d", rules);
        char lines[512], want[VERIFY_ERR_LEN];
        snprintf(lines, sizeof lines, "- lemma pairing %s\n", PAIRS18);
        char *t = cert(6, 5, rules, "chaos", "-", lines);
        VerifyResult r;
        int rc = check(t, &r);
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

/* Each pair left out in turn: the window the verifier names is one this
 * file finds uncovered, and there is one. */
Test(verify_pairing, a_pair_left_out_leaves_a_window_uncovered)
{
    TPair q[32];
    int nq = parse_pairs(6, PAIRS18, q);
    RefPos p;
    ref_parse(&p, 6, 5, REF_EXACT_END, EMPTY36);
    for (int skip = 0; skip < nq; skip++) {
        TPair rest[32];
        int nr = 0;
        for (int i = 0; i < nq; i++)
            if (i != skip) rest[nr++] = q[i];
        char unc[8192], lines[512], prefix[128];
        cr_assert(uncovered(&p, rest, nr, unc) > 0, "pair %d is needed", skip);
        strcpy(lines, "- lemma pairing");
        pairs_string(6, q, nq, skip, lines + strlen(lines));
        strcat(lines, "\n");
        char *t = cert(6, 5, REF_EXACT_END, "chaos", "-", lines);
        VerifyResult r;
        cr_assert_eq(check(t, &r), 1, "without pair %d accepted", skip);
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
    char *t = cert(n, k, rules, winner, root, lines);
    VerifyResult r;
    cr_assert_eq(check(t, &r), 1, "accepted:\n%s", t);
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
    TPair q[32];
    int nq = parse_pairs(5, p5, q);
    static const struct { const char *pos, *why; } par[] = {
        {".........................", "Order to move with 25 empty cells"},
        {"............X............", "Chaos to move with 24 empty cells"},
    };
    for (int i = 0; i < 2; i++) {
        RefPos p;
        char unc[8192];
        ref_parse(&p, 5, 5, REF_EXACT_END, par[i].pos);
        cr_assert_eq(uncovered(&p, q, nq, unc), 0, "%s", unc);
        cr_assert_eq(spec_holds(&p, 1, q, nq), 0);
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
        TPair q[3];
        int nq = parse_pairs(5, "c3:d4~ e1:b4~ d1:d3~", q);
        cr_assert(spec_holds(&p, 1, q, nq) && all_breakable(&p, q, nq));
        char lines[256];
        snprintf(lines, sizeof lines, "%s lemma pairing c3:d4~ e1:b4~ d1:d3~\n", ODD5);
        char *t = cert(5, 5, rules, "chaos", ODD5, lines);
        VerifyResult r;
        cr_assert_eq(check(t, &r), 0, "rules %d: %s", rules, r.error);
        cr_assert(r.lines_used == 1);
        free(t);
        /* in another frame: the line is checked as written, the proof reaches it up to symmetry */
        char rotated[512];
        lemma_line(&p, q, nq, 5 | 8, rotated);
        t = cert(5, 5, rules, "chaos", ODD5, rotated);
        cr_assert_eq(check(t, &r), 0, "rules %d, rotated: %s", rules, r.error);
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
        char *text = cert(7, 7, rules, "chaos", "-", lines);
        VerifyResult r;
        cr_expect_eq(check(text, &r), 0, "%s: %s", RULES_NAME[rules], r.error);
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
        cr_assert(spec_holds(&p, 1, NULL, 0));
        char lines[64];
        snprintf(lines, sizeof lines, "%s lemma pairing\n", dead);
        char *t = cert(4, 4, rules, "chaos", dead, lines);
        VerifyResult r;
        cr_assert_eq(check(t, &r), 0, "rules %d: %s", rules, r.error);
        free(t);
        /* And a pair on two of its empty cells changes nothing. */
        snprintf(lines, sizeof lines, "%s lemma pairing a1:c1~\n", dead);
        t = cert(4, 4, rules, "chaos", dead, lines);
        cr_assert_eq(check(t, &r), 0, "rules %d: %s", rules, r.error);
        free(t);
    }
}

/* The partner of a cell in the 18 pairs. */
static TPair partner_of(const TPair *q, int nq, int cell, int *index)
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
    TPair q[32];
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
            TPair pq = partner_of(q, nq, cell, &idx);
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
            cell_name(6, image_cell(6, t, other), mv);
            char sym = (t & 8) ? (answer == 'X' ? 'O' : 'X') : answer;
            sprintf(end + strlen(end), " %c%s\n", sym, mv);
            TPair rest[32];
            int nr = 0;
            for (int i = 0; i < nq; i++)
                if (i != idx) rest[nr++] = q[i];
            lemma_line(&grand, rest, nr, tl_below(rng, 16), lines + strlen(lines));
        }
    *classes = nseen;
    char *t = cert(6, 5, REF_EXACT_END, "chaos", "-", lines);
    free(lines);
    return t;
}

Test(verify_pairing, a_two_ply_proof_ending_in_pairing_lines)
{
    uint64_t rng = 401;
    int classes;
    char *t = two_ply_proof(&rng, -1, &classes);
    VerifyResult r;
    cr_assert_eq(check(t, &r), 0, "%s", r.error);
    /* 72 first moves, 6 classes up to the 16 symmetries (a1, b1, c1, b2, c2, c3); each class a move
     * line and a lemma line, all reached */
    cr_assert_eq(classes, 6);
    cr_assert_eq(r.lines, 12);
    cr_assert_eq(r.lines_used, 12, "used %llu", (unsigned long long)r.lines_used);
    free(t);
    /* A wrong answer in each class in turn: '~' answered with the same symbol, '=' with the other one. */
    for (int wrong = 0; wrong < classes; wrong++) {
        t = two_ply_proof(&rng, wrong, &classes);
        cr_assert_eq(check(t, &r), 1, "wrong answer in class %d accepted", wrong);
        cr_assert(strstr(r.error, "lemma pairing at ") && strstr(r.error, " is not covered (line "), "%s", r.error);
        free(t);
    }
}

/* --- soundness against brute force --- */

typedef struct {
    const RefPos *p;
    TWin win[512];
    int nwin;
    int used[64];
    TPair pair[32];
    int npairs, allow_same, sloppy;
    long nodes, limit;
} Search;

static int search_covers(const Search *s, const TWin *w, TPair q)
{
    if (!s->sloppy) return covers(w, q);
    /* a wrong reading: any pair with a cell in w covers it */
    return has(w->cell, w->ncells, q.a) || has(w->cell, w->ncells, q.b);
}

static const int ALL_CELLS[64] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                   16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
                                   32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
                                   48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};

/* 1 found (in s->pair), 0 none exists, -1 gave up (node limit). The
 * wrong reading (sloppy) also pairs a cell of the window with any cell. */
static int search(Search *s)
{
    if (++s->nodes > s->limit) return -1;
    const TWin *w = NULL;
    for (int i = 0; i < s->nwin && !w; i++) {
        int cov = 0;
        for (int j = 0; j < s->npairs && !cov; j++) cov = search_covers(s, &s->win[i], s->pair[j]);
        if (!cov) w = &s->win[i];
    }
    if (!w) return 1;
    int gave_up = 0;
    for (int kind = 0; kind < 1 + s->allow_same; kind++)
        for (int i = 0; i < w->ncells; i++) {
            int a = w->cell[i];
            if (s->p->cell[a] != '.' || s->used[a]) continue;
            const int *others = kind ? w->end : w->cell;
            int nothers = kind ? w->nends : w->ncells;
            if (s->sloppy && kind) others = ALL_CELLS, nothers = s->p->n * s->p->n; /* any partner at all */
            for (int j = kind ? 0 : i + 1; j < nothers; j++) {
                int b = others[j];
                if (b == a || s->p->cell[b] != '.' || s->used[b]) continue;
                s->used[a] = s->used[b] = 1;
                s->pair[s->npairs++] = (TPair){a, b, kind};
                int rc = search(s);
                if (rc == 1) return 1;
                s->npairs--;
                s->used[a] = s->used[b] = 0;
                if (rc < 0) gave_up = 1;
            }
        }
    return gave_up ? -1 : 0;
}

static int find_pairing(Search *s, const RefPos *p, int allow_same, int sloppy)
{
    static TWin all[512];
    int n = all_windows(p->n, p->k, all);
    s->p = p;
    s->nwin = 0;
    for (int i = 0; i < n; i++)
        if (live(p, &all[i])) s->win[s->nwin++] = all[i];
    memset(s->used, 0, sizeof s->used);
    s->npairs = 0;
    s->allow_same = allow_same;
    s->sloppy = sloppy;
    s->nodes = 0;
    s->limit = 20000;
    return search(s);
}

typedef struct {
    int n, k, min_empty, max_empty, trials, rules; /* rules -1: the three in turn */
} Config;

/* Only condition 3 fails: '=' pairs under original or exact, every other
 * condition met when '=' pairs count as covering. */
static int only_same_fails(const RefPos *p, const TPair *q, int nq)
{
    RefPos end = *p;
    end.rules = REF_EXACT_END; /* the same windows live under exact; '=' pairs allowed */
    int same = 0;
    for (int i = 0; i < nq; i++) same |= q[i].same;
    return p->rules == REF_EXACT && same && ref_status(p) == REF_ONGOING && spec_holds(&end, 1, q, nq);
}

/* q as a lemma line at p (in the frame of symmetry sym) in a certificate:
 * the verifier must agree with this file's reading, and whatever it
 * accepts must be a Chaos win for the brute force. The verifier's code
 * (0: accepted, 1: refused). */
static int judged(const RefPos *p, const TPair *q, int nq, int sym, BruteMemo *memo)
{
    char root[65], line[512];
    ref_format(p, root);
    lemma_line(p, q, nq, sym, line);
    char *text = cert(p->n, p->k, p->rules, "chaos", root, line);
    VerifyResult r;
    int rc = check(text, &r), want = spec_holds(p, 1, q, nq);
    cr_assert(rc == 0 || rc == 1, "%s\n%s", r.error, text);
    cr_assert_eq(rc == 0, want, "the verifier %s, this file's check %s:\n%s%s", rc ? "refuses" : "accepts",
                 want ? "holds" : "fails", text, r.error);
    RefPos copy = *p; /* the brute force plays on its position */
    if (rc == 0) cr_assert(!brute_order_wins(memo, &copy), "accepted, but Order wins:\n%s", text);
    free(text);
    return rc;
}

Test(verify_pairing, where_the_verifier_accepts_chaos_wins_by_brute_force, .timeout = 300)
{
    static const Config cfg[] = {
        {4, 3, 2, 10, 300, -1},           {4, 4, 2, 12, 600, -1},  {5, 4, 4, 10, 900, -1},
        {6, 5, 4, 10, 1200, -1},          {6, 5, 4, 10, 600, REF_EXACT_END},
        {6, 5, 4, 10, 300, REF_EXACT},    {6, 5, 11, 12, 30, -1},  {5, 5, 4, 12, 600, -1},
        {7, 6, 4, 10, 300, -1},           {7, 7, 4, 10, 200, -1},
    };
    uint64_t rng = 402;
    BruteMemo *memo = brute_new();
    static Search s;
    int accepted = 0, needs_same = 0, refused = 0, by_rules[3] = {0, 0, 0};
    int refused_searched = 0, refused_order_wins = 0, same_searched = 0, same_order_wins = 0;
    int odd_accepted = 0, odd_refused_covering = 0, odd_refused_order_wins = 0;
    clock_t t0 = clock();
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++)
        for (int t = 0; t < cfg[c].trials; t++) {
            int n = cfg[c].n, k = cfg[c].k, nn = n * n, rules = cfg[c].rules < 0 ? t % 3 : cfg[c].rules;
            int empty = cfg[c].min_empty + tl_below(&rng, cfg[c].max_empty - cfg[c].min_empty + 1);
            RefPos p;
            if (tl_random_ongoing(&p, n, k, rules, nn - empty, &rng) != 0) continue;
            /* The pairing: '~' pairs only; under exact-end '=' pairs too if need be (then the
             * certificate needs one); else '=' pairs under any rules, or a wrong reading of
             * coverage, or no pairs at all. */
            int found = find_pairing(&s, &p, 0, 0), same_needed = 0;
            if (found == 0 && rules == REF_EXACT_END) same_needed = (found = find_pairing(&s, &p, 1, 0)) == 1;
            if (found != 1 && tl_below(&rng, 2)) found = find_pairing(&s, &p, 1, 0);
            if (found != 1) found = find_pairing(&s, &p, 1, 1);
            TPair q[32];
            int nq = found == 1 ? s.npairs : 0;
            memcpy(q, s.pair, sizeof q);
            /* then, half the time, spoiled one way */
            int spoil = tl_below(&rng, 6);
            if (spoil == 1 && nq > 0) { /* a pair left out */
                q[tl_below(&rng, nq)] = q[nq - 1];
                nq--;
            } else if (spoil == 2 && nq > 0) { /* a pair of the other kind */
                q[tl_below(&rng, nq)].same ^= 1;
            } else if (spoil == 3 && nq > 0) { /* a cell moved to another cell, maybe occupied */
                int i = tl_below(&rng, nq), cell = tl_below(&rng, nn), clash = cell == q[i].a || cell == q[i].b;
                for (int j = 0; j < nq; j++) clash |= j != i && (q[j].a == cell || q[j].b == cell);
                if (!clash) q[i].b = cell;
            }
            if (judged(&p, q, nq, tl_below(&rng, 16), memo) == 0) {
                accepted++;
                odd_accepted += n % 2;
                by_rules[rules]++;
                int has_same = 0;
                for (int i = 0; i < nq; i++) has_same |= q[i].same;
                needs_same += has_same && same_needed;
            } else {
                refused++;
                char unc[8192];
                if (n % 2 && uncovered(&p, q, nq, unc) == 0 && odd_refused_covering < 150) {
                    /* an odd board, every live window covered: refused for want of breakability */
                    odd_refused_covering++;
                    odd_refused_order_wins += brute_order_wins(memo, &p);
                } else if (only_same_fails(&p, q, nq) && same_searched < 60) {
                    same_searched++;
                    same_order_wins += brute_order_wins(memo, &p);
                } else if (refused_searched < 150 && count_empty(&p) <= 10) {
                    refused_searched++;
                    refused_order_wins += brute_order_wins(memo, &p);
                }
            }
        }
    brute_free(memo);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    cr_log_info("pairing vs brute force: %d accepted (%d/%d/%d by rules; %d needing a '=' pair; %d on odd boards), "
                "%d refused; Order wins %d of %d refusals searched, %d of %d with '=' pairs under exact, %d of %d "
                "covering ones on odd boards; %.1f s",
                accepted, by_rules[0], by_rules[1], by_rules[2], needs_same, odd_accepted, refused,
                refused_order_wins, refused_searched, same_order_wins, same_searched, odd_refused_order_wins,
                odd_refused_covering, secs);
    /* The breakable form: accepted on odd boards, and refused covering pairings there where Order wins. */
    cr_assert(odd_accepted >= 50, "only %d accepted on odd boards", odd_accepted);
    cr_assert(odd_refused_order_wins >= 3, "only %d of %d", odd_refused_order_wins, odd_refused_covering);
    cr_assert(accepted >= 50 && by_rules[0] >= 5 && by_rules[1] >= 5 && by_rules[2] >= 5,
              "accepted %d (%d/%d/%d)", accepted, by_rules[0], by_rules[1], by_rules[2]);
    cr_assert(needs_same >= 5, "only %d accepted certificates need a '=' pair", needs_same);
    /* The checks have teeth: refused claims where Order does win. */
    cr_assert(refused_order_wins >= 10, "only %d refusals where Order wins", refused_order_wins);
    /* and condition 3 is needed: '=' pairs under exact, all else met, and Order wins */
    cr_assert(same_order_wins >= 3, "only %d of %d", same_order_wins, same_searched);
}

/* --- malformed --- */

static const char HEAD2[] = "ocproof 2\nboard 6 5\nrules exact-end\nwinner chaos\nroot -\n";
static const char HEAD1[] = "ocproof 1\nboard 6 5\nrules exact-end\nwinner chaos\nroot -\n";

static const struct {
    const char *head, *body, *error; /* error after "FILE:" */
} MALFORMED[] = {
    {HEAD1, "- lemma pairing c1:c6~\n", "6: a lemma line needs 'ocproof 2' (this certificate is 'ocproof 1')"},
    {HEAD1, "- lemma pairing\n", "6: a lemma line needs 'ocproof 2'"},
    {HEAD2, "- lemma pairs c1:c6~\n", "6: unknown lemma 'pairs' (centre, pairing)"},
    {HEAD2, "- lemma Pairing\n", "6: unknown lemma 'Pairing' (centre, pairing)"},
    {HEAD2, "- lemma x\n", "6: unknown lemma 'x' (centre, pairing)"},
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
                                                  "centre and a pairing lemma line"},
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
    cr_assert_eq(check(t, &r), 2, "%s", r.error);
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

/* Witnesses against the brute force: random positions on odd boards whose
 * covering pairing needs a witness for some pair (no parity there, and a
 * pair that does not lean); the verifier must agree with this file's
 * reading, and every one it accepts must be a Chaos win. */
Test(verify_pairing, witnesses_against_the_brute_force, .timeout = 300)
{
    static const struct {
        int n, k, min_empty, max_empty, trials;
    } cfg[] = {{5, 5, 9, 13, 900}, {5, 4, 9, 12, 900}, {7, 7, 9, 12, 500}, {7, 6, 9, 12, 500}};
    uint64_t rng = 51226;
    BruteMemo *memo = brute_new();
    static Search s;
    int accepted = 0, refused = 0;
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++)
        for (int t = 0; t < cfg[c].trials; t++) {
            int n = cfg[c].n, nn = n * n, rules = t % 3;
            int empty = cfg[c].min_empty + tl_below(&rng, cfg[c].max_empty - cfg[c].min_empty + 1);
            RefPos p;
            if (tl_random_ongoing(&p, n, cfg[c].k, rules, nn - empty, &rng) != 0) continue;
            if (find_pairing(&s, &p, 0, 0) != 1 || !needs_witness(&p, s.pair, s.npairs)) continue;
            if (judged(&p, s.pair, s.npairs, tl_below(&rng, 16), memo) == 0) accepted++;
            else refused++;
        }
    brute_free(memo);
    cr_log_info("witnesses vs brute force: %d accepted, %d refused", accepted, refused);
    cr_assert(accepted >= 30, "only %d accepted with a witness", accepted);
}
