/* test_verify_longest.c - the longest game a valid Order certificate
 * allows (VerifyResult.longest): the most plies from the root when Order
 * plays the certificate's moves and Chaos plays anything.
 *
 * The certificates are written here from the tests' own rules (ref.h),
 * never by the engine, with a chosen strategy for Order: the fastest win
 * (least distance at every Order move) or the slowest (the winning move of
 * greatest distance). The expected longest game is counted by this file's
 * own recursion over the same strategy; for the fastest strategy it must
 * also be the brute force's distance to win (brute.h), a third count. The
 * distances that choose the moves are this file's own minimax on
 * canonical positions (its answer at the root is held against brute.h's). */
#include <criterion/criterion.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../verify/verify.h"
#include "brute.h"
#include "certgen.h"
#include "testlib.h"

TestSuite(verify_longest, .timeout = 240);

typedef struct {
    bool slow, omit;
    CgMap *dist;      /* canonical position -> distance + 2, shared by the strategies of one root */
    CgMap len, seen;  /* canonical position -> longest + 1, emitted */
    char *text;
    size_t tlen, tcap;
    uint64_t stop_x, stop_o; /* a position handed to another file (see line), or both ~0 */
    const char *stop_file;
} Gen;

static void gen_init(Gen *g, CgMap *dist, bool slow, bool omit)
{
    memset(g, 0, sizeof *g);
    g->dist = dist, g->slow = slow, g->omit = omit;
    g->stop_x = g->stop_o = ~0ULL;
}

static void gen_reset_text(Gen *g)
{
    free(g->seen.e);
    g->seen = (CgMap){0};
    g->tlen = 0;
    if (g->text) g->text[0] = '\0';
}

static void gen_free(Gen *g)
{
    free(g->len.e), free(g->seen.e), free(g->text);
}

static void append(Gen *g, const char *line)
{
    size_t l = strlen(line);
    if (g->tlen + l + 2 > g->tcap) {
        g->tcap = 2 * (g->tcap + l + 2);
        g->text = realloc(g->text, g->tcap);
        cr_assert(g->text);
    }
    memcpy(g->text + g->tlen, line, l);
    g->tlen += l;
    g->text[g->tlen++] = '\n';
    g->text[g->tlen] = '\0';
}

/* Plies until Order wins when Order hurries and Chaos delays; -1 if Chaos wins. */
static int dist(Gen *g, RefPos *p)
{
    int st = ref_status(p);
    if (st != REF_ONGOING) return st == REF_ORDER_WINS ? 0 : -1;
    RefPos c;
    uint64_t x, o;
    cg_canon(p, &c);
    cg_masks(&c, &x, &o);
    int m = cg_map_get(g->dist, x, o);
    if (m) return m - 2;
    bool order = cg_pieces(&c) % 2 == 0;
    int best = order ? -1 : 0;
    for (int i = 0; i < c.n * c.n && best != -2; i++) {
        if (c.cell[i] != '.') continue;
        for (int s = 0; s < 2 && best != -2; s++) {
            c.cell[i] = "XO"[s];
            int d = dist(g, &c);
            c.cell[i] = '.';
            if (order && d >= 0 && (best < 0 || d + 1 < best)) best = d + 1;
            if (!order && d < 0) best = -2; /* Chaos escapes */
            if (!order && d >= 0 && d + 1 > best) best = d + 1;
        }
    }
    if (best == -2) best = -1;
    cg_map_put(g->dist, x, o, best + 2);
    return best;
}

/* Order's move in canonical position c (Order to move, a win): the
 * winning move of least (slow: greatest) distance, the first in scan
 * order on ties. */
static void choose(Gen *g, RefPos *c, int *cell, int *sym)
{
    int best = -1;
    for (int i = 0; i < c->n * c->n; i++) {
        if (c->cell[i] != '.') continue;
        for (int s = 0; s < 2; s++) {
            c->cell[i] = "XO"[s];
            int d = dist(g, c);
            c->cell[i] = '.';
            if (d >= 0 && (best < 0 || (g->slow ? d > best : d < best))) best = d, *cell = i, *sym = s;
        }
    }
    cr_assert(best >= 0, "no winning move for Order");
}

static bool wins_at_once(const RefPos *c)
{
    char syms[2];
    int cells[2];
    return ref_winning_moves(c, syms, cells, 2) > 0;
}

/* Writes the lines of Order's strategy from p0 (certgen.c's cg_emit with a chosen move). */
static void gen(Gen *g, const RefPos *p0)
{
    if (ref_status(p0) != REF_ONGOING) return;
    RefPos c;
    uint64_t x, o;
    char pos[65], line[160];
    cg_canon(p0, &c);
    cg_masks(&c, &x, &o);
    if (cg_map_get(&g->seen, x, o)) return;
    cg_map_put(&g->seen, x, o, 1);
    ref_format(&c, pos);
    if (x == g->stop_x && o == g->stop_o) {
        snprintf(line, sizeof line, "%s see %s", pos, g->stop_file);
        append(g, line);
        return;
    }
    if (cg_pieces(&c) % 2 == 0) {
        if (g->omit && wins_at_once(&c)) return;
        int cell, s;
        choose(g, &c, &cell, &s);
        snprintf(line, sizeof line, "%s %c%c%d", pos, "XO"[s], 'a' + cell % c.n, 1 + cell / c.n);
        append(g, line);
        c.cell[cell] = "XO"[s];
        gen(g, &c);
        return;
    }
    for (int i = 0; i < c.n * c.n; i++) {
        if (c.cell[i] != '.') continue;
        for (int s = 0; s < 2; s++) {
            c.cell[i] = "XO"[s];
            gen(g, &c);
            c.cell[i] = '.';
        }
    }
}

/* The longest game from p under the strategy gen writes: counted here, by
 * playing it out (memoised on canonical positions). */
static int longest(Gen *g, const RefPos *p)
{
    int st = ref_status(p);
    cr_assert_neq(st, REF_CHAOS_WINS, "the strategy lost");
    if (st == REF_ORDER_WINS) return 0;
    RefPos c;
    uint64_t x, o;
    cg_canon(p, &c);
    cg_masks(&c, &x, &o);
    int m = cg_map_get(&g->len, x, o);
    if (m) return m - 1;
    int best = 0;
    if (cg_pieces(&c) % 2 == 0) {
        if (g->omit && wins_at_once(&c)) {
            best = 1;
        } else {
            int cell, s;
            choose(g, &c, &cell, &s);
            c.cell[cell] = "XO"[s];
            best = 1 + longest(g, &c);
        }
    } else {
        for (int i = 0; i < c.n * c.n; i++) {
            if (c.cell[i] != '.') continue;
            for (int s = 0; s < 2; s++) {
                c.cell[i] = "XO"[s];
                int l = 1 + longest(g, &c);
                c.cell[i] = '.';
                if (l > best) best = l;
            }
        }
    }
    cg_map_put(&g->len, x, o, best + 1);
    return best;
}

static char *cert_text(int n, int k, int rules, const char *root, const char *lines)
{
    size_t len = strlen(lines) + 256;
    char *t = malloc(len);
    snprintf(t, len, "ocproof 2\nboard %d %d\nrules %s\nwinner order\nroot %s\n%s", n, k, CG_RULES[rules], root,
             lines);
    return t;
}

static int brute_distance(const RefPos *p)
{
    RefPos q = *p;
    BruteMemo *bm = brute_new();
    cr_assert(bm);
    int d = brute_dtw(bm, &q);
    brute_free(bm);
    return d;
}

/* Flat certificates, every rule set, both strategies, with and without
 * the lines left out where Order wins at once: the verifier's longest
 * game is the strategy's, and for the fastest strategy the distance to
 * win. The slow strategy must be slower somewhere (else the test could
 * not tell the two apart). */
Test(verify_longest, strategies_on_flat_certificates)
{
    static const int NK[][3] = {{4, 3, 12}, {4, 3, 11}, {5, 4, 10}, {5, 4, 9}};
    uint64_t rng = 0x10E6;
    int cases = 0, slower = 0;
    for (int rules = 0; rules < 3; rules++)
        for (size_t b = 0; b < sizeof NK / sizeof NK[0]; b++)
            for (int t = 0; t < 3; t++) {
                int n = NK[b][0], k = NK[b][1];
                char root[65];
                cg_find_root(n, k, rules, NK[b][2], REF_ORDER_WINS, &rng, root);
                RefPos p;
                cr_assert_eq(ref_parse(&p, n, k, rules, root), 0);
                int want_fast = brute_distance(&p), got[2];
                cr_assert_geq(want_fast, 1);
                CgMap dist = {0};
                for (int slow = 0; slow < 2; slow++)
                    for (int omit = 0; omit < 2; omit++) {
                        Gen g;
                        gen_init(&g, &dist, slow, omit);
                        gen(&g, &p);
                        int want = longest(&g, &p);
                        if (!slow) cr_assert_eq(want, want_fast, "%s: the test's strategy is not the fastest", root);
                        char *text = cert_text(n, k, rules, root, g.text ? g.text : "");
                        VerifyResult r;
                        cr_assert_eq(verify_text(text, &r), VERIFY_VALID, "%s: %s", root, r.error);
                        cr_assert_eq(r.longest, want, "%s rules %s slow %d omit %d: longest %d, want %d", root,
                                     CG_RULES[rules], slow, omit, r.longest, want);
                        got[slow] = want;
                        free(text);
                        gen_free(&g);
                        cases++;
                    }
                slower += got[1] > got[0];
                free(dist.e);
            }
    cr_assert_geq(slower, 5, "the slow strategy was slower in only %d cases", slower);
    cr_log_info("%d certificates, the slow strategy slower on %d roots", cases, slower);
}

/* A Chaos certificate, and an Order certificate that does not verify,
 * have no longest game (-1). */
Test(verify_longest, none_unless_a_valid_order_certificate)
{
    uint64_t rng = 0xC4A0;
    char root[65];
    cg_find_root(5, 4, 0, 10, REF_CHAOS_WINS, &rng, root);
    CgCert c;
    cg_make_cert(&c, 5, 4, 0, root, 0);
    char *text = cg_plain(&c);
    VerifyResult r;
    cr_assert_eq(cg_check(text, &r), VERIFY_VALID, "%s", r.error);
    cr_assert_eq(r.longest, -1);
    free(text);
    cg_free_cert(&c);

    cg_find_root(4, 3, 0, 10, REF_ORDER_WINS, &rng, root);
    cg_make_cert(&c, 4, 3, 0, root, 0);
    cr_assert_gt(c.nlines, 0);
    int taken = (int)strcspn(c.line[0], "XO"); /* the first line's first piece: its move there is illegal */
    char move[16];
    snprintf(move, sizeof move, "X%c%d", 'a' + taken % 4, 1 + taken / 4);
    text = cg_cert_text(&c, -1, 0, move);
    cr_assert_eq(cg_check(text, &r), VERIFY_INVALID, "%s", r.error);
    cr_assert_eq(r.longest, -1);
    free(text);
    cg_free_cert(&c);
}

/* Writes file NAME in dir: Order's strategy from position p (its root), gen's lines. */
static void write_strategy(Gen *g, const char *dir, const char *name, const RefPos *p, int rules)
{
    char root[65];
    ref_format(p, root);
    gen_reset_text(g);
    gen(g, p);
    char *t = cert_text(p->n, p->k, rules, root, g->text ? g->text : "");
    tl_write_text(dir, name, t);
    free(t);
}

/* A tree of files by see lines: top plays Order's move at the root and
 * hands the position to a.ocproof, which only hands each of Chaos's
 * replies to a file of its own (b-N.ocproof). So every game the proof
 * follows is played out in a b file, two see levels down: the longest
 * game must come through both levels, with one thread (each file checked
 * where it is reached) and with two (the pre-pass, then settle). */
Test(verify_longest, through_see_lines)
{
    char dir[64];
    tl_tmp_dir(dir, sizeof dir, "longest");
    uint64_t rng = 0x5EE1;
    int t = 0;
    for (int attempt = 0; attempt < 40 && t < 4; attempt++) {
        int rules = t % 2, n = 5, k = 4; /* original and exact: under exact-end every game lasts to the full board */
        char root[65], line[200];
        cg_find_root(n, k, rules, 11, REF_ORDER_WINS, &rng, root); /* 14 pieces: Order to move */
        RefPos p, c;
        cr_assert_eq(ref_parse(&p, n, k, rules, root), 0);
        CgMap dist = {0};
        Gen g;
        gen_init(&g, &dist, t >= 2, false); /* the fastest strategy, then the slowest */
        int want = longest(&g, &p);
        if (t < 2) cr_assert_eq(want, brute_distance(&p), "%s: the test's strategy is not the fastest", root);
        int cell, s;
        cg_canon(&p, &c);
        choose(&g, &c, &cell, &s);
        ref_format(&c, line);
        size_t len = strlen(line);
        len += (size_t)snprintf(line + len, sizeof line - len, " %c%c%d\n", "XO"[s], 'a' + cell % n, 1 + cell / n);
        c.cell[cell] = "XO"[s];
        if (ref_status(&c) != REF_ONGOING) { /* Order wins at once: no game to hand on */
            gen_free(&g), free(dist.e);
            continue;
        }
        ref_format(&c, line + len);
        strcat(line, " see a.ocproof\n");
        char *text = cert_text(n, k, rules, root, line);
        tl_write_text(dir, "top.ocproof", text);
        free(text);

        char *a = calloc(1, 64 * 128), name[32], pos[65];
        cr_assert(a);
        int files = 0;
        CgMap named = {0};
        for (int i = 0; i < n * n; i++) {
            if (c.cell[i] != '.') continue;
            for (int sym = 0; sym < 2; sym++) {
                RefPos q = c, qc;
                q.cell[i] = "XO"[sym];
                uint64_t x, o;
                cg_canon(&q, &qc);
                cg_masks(&qc, &x, &o);
                if (ref_status(&q) != REF_ONGOING || cg_map_get(&named, x, o)) continue;
                cg_map_put(&named, x, o, 1);
                snprintf(name, sizeof name, "b-%d.ocproof", files++);
                write_strategy(&g, dir, name, &q, rules);
                ref_format(&q, pos);
                sprintf(a + strlen(a), "%s see %s\n", pos, name);
            }
        }
        ref_format(&c, pos);
        text = cert_text(n, k, rules, pos, a);
        tl_write_text(dir, "a.ocproof", text);
        free(text), free(a), free(named.e);
        cr_assert_geq(files, 2);

        char path[160];
        snprintf(path, sizeof path, "%s/top.ocproof", dir);
        for (int threads = 1; threads <= 2; threads++) {
            VerifyResult r;
            cr_assert_eq(verify_file_threads(path, NULL, threads, &r), VERIFY_VALID, "%s: %s", root, r.error);
            cr_assert_eq(r.longest, want, "%s, %d threads: longest %d, want %d", root, threads, r.longest, want);
        }
        gen_free(&g);
        free(dist.e);
        t++;
    }
    tl_rm_dir(dir);
    cr_assert_eq(t, 4, "only %d roots where Order does not win at once", t);
}

/* A position won by the centre lemma says nothing of how long the game
 * lasts: it counts as lasting until the board is full (the empty 6x6
 * board under original, Order to move: 36 plies; after Order's X on c3
 * and the lemma there: 1 + 35). */
Test(verify_longest, lemma_positions_last_to_the_full_board)
{
    static const char *const LINES[] = {"- lemma centre\n",
                                        "- Xc3\n..............X..................... lemma centre\n"};
    for (int i = 0; i < 2; i++) {
        char *t = cert_text(6, 5, 0, "-", LINES[i]);
        VerifyResult r;
        cr_assert_eq(verify_text(t, &r), VERIFY_VALID, "%s", r.error);
        cr_assert_eq(r.longest, 36, "case %d: longest %d", i, r.longest);
        free(t);
    }
}
