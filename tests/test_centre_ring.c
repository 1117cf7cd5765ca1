/* test_centre_ring.c - the ring lemma (solver/centre_ring.h), Chaos's
 * counterpart of the centre lemma, against the brute force (tests/brute.h,
 * which shares no code with the solver) and against the verifier's own
 * check of the lemma (verify/verify_pairing.h, vr_ring_lemma), which shares
 * none either; and the verifier against lying ring lines. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../solver/centre_ring.h"
#include "../verify/verify.h"
#include "../verify/verify_pairing.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

TestSuite(centre_ring, .timeout = 600);

static VrGame vr_game(const RefPos *p) { return (VrGame){p->n, p->k, p->rules}; }

static void vr_cells(const RefPos *p, uint8_t *cells)
{
    for (int i = 0; i < p->n * p->n; i++) cells[i] = p->cell[i] == 'X' ? VR_X : p->cell[i] == 'O' ? VR_O : VR_EMPTY;
}

/* The solver's pairs (cells 8 * row + col) as the verifier's (row * n + col). */
static int vr_pairs(const CentreRing *ring, int n, VrPair *out)
{
    for (int j = 0; j < ring->n; j++)
        out[j] = (VrPair){(uint8_t)(ring->a[j] / 8 * n + ring->a[j] % 8), (uint8_t)(ring->b[j] / 8 * n + ring->b[j] % 8),
                          false};
    return ring->n;
}

typedef struct {
    int n, rules, count, min_empty, max_empty, want_claims;
    uint64_t seed;
} Sample;

/* Random ongoing positions: whatever the lemma claims is a Chaos win for
 * the brute force, and the verifier's own check holds with the pairs the
 * solver gives. Some claims must be made, and some brute-force Chaos wins
 * must be left unclaimed by both (the lemma is not everything). */
static void sample(Sample s)
{
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    uint64_t rng = s.seed;
    int claims = 0, tried = 0, deep = 0;
    for (int t = 0; t < s.count; t++) {
        RefPos p;
        int empty = s.min_empty + tl_below(&rng, s.max_empty - s.min_empty + 1);
        if (tl_random_ongoing(&p, s.n, s.n - 1, s.rules, s.n * s.n - empty, &rng) != 0) continue;
        tried++;
        Rules r;
        tl_init_rules(&r, &p);
        Centre c;
        centre_init(&c, &r);
        CentreRing ring;
        if (!centre_ring_chaos(&c, &r, tl_board(&p), &ring, NULL, 0)) continue;
        claims++;
        deep += empty >= 10;
        char str[65];
        ref_format(&p, str);
        cr_expect(!brute_order_wins(memo, &p), "%dx%d rules %d %s: claimed by the ring lemma, but Order wins", s.n, s.n,
                  s.rules, str);
        VrGame g = vr_game(&p);
        uint8_t cells[VR_MAX_CELLS];
        vr_cells(&p, cells);
        VrPair pairs[VR_MAX_PAIRS];
        int np = vr_pairs(&ring, s.n, pairs);
        char why[256] = "";
        cr_expect_eq(vr_ring_lemma(&g, true, cells, pairs, np, NULL, why, sizeof why), 1,
                     "%s rules %d: the verifier refuses the solver's ring pairs: %s", str, s.rules, why);
    }
    cr_log_info("%dx%d rules %d: %d positions, %d ring lemma claims (%d with 10 or more empty cells)", s.n, s.n,
                s.rules, tried, claims, deep);
    cr_expect_geq(claims, s.want_claims, "too few claims to test");
    cr_expect_geq(deep, s.want_claims / 5, "too few claims with 10 or more empty cells");
    brute_free(memo);
}

/* (On 4x4, k = 3, the 2x2 small game is Order's but where dead lines
 * leave it almost nothing, and the lemma hardly ever holds: 0 claims in
 * 8 000 random positions. The 6x6 board is where it matters.) */
Test(centre_ring, brute_6x6_original) { sample((Sample){6, REF_ORIGINAL, 3000, 4, 13, 100, 503}); }
Test(centre_ring, brute_6x6_exact) { sample((Sample){6, REF_EXACT, 3000, 4, 13, 100, 504}); }

/* The lemma is off where its parity fails (odd boards) and under
 * exact-end (no line counts before the full board, and then a pairing
 * with same pairs is the tool: pairing.h). */
Test(centre_ring, off_on_odd_boards_and_exact_end)
{
    uint64_t rng = 505;
    for (int t = 0; t < 300; t++) {
        RefPos p;
        int n = t % 2 ? 5 : 6, rules = t % 2 ? REF_EXACT : REF_EXACT_END;
        if (tl_random_ongoing(&p, n, n - 1, rules, 2 + tl_below(&rng, 12), &rng) != 0) continue;
        Rules r;
        tl_init_rules(&r, &p);
        Centre c;
        centre_init(&c, &r);
        cr_expect(!centre_ring_chaos(&c, &r, tl_board(&p), NULL, NULL, 0), "claimed on %dx%d rules %d", n, n, rules);
    }
}

/* ---- Exact X a1 X f6: the refutation of X a1 (results/openings/exact-Xa1/ring.md) ---- */

static const char XA1_XF6[] = "X..................................X";

static int verify_ring_text(const char *rules, const char *root, const char *lemma_line, VerifyResult *res)
{
    size_t size = strlen(lemma_line) + 256;
    char *text = malloc(size);
    cr_assert(text);
    snprintf(text, size, "ocproof 2\nboard 6 5\nrules %s\nwinner chaos\nroot %s\n%s\n", rules, root, lemma_line);
    int rc = verify_text(text, res);
    free(text);
    return rc;
}

/* The lemma line the solver gives for s under rules, in s's own frame. */
static void ring_line(const char *s, int rules, char *out, size_t size)
{
    RefPos p;
    cr_assert_eq(ref_parse(&p, 6, 5, rules, s), 0);
    Rules r;
    tl_init_rules(&r, &p);
    Centre c;
    centre_init(&c, &r);
    CentreRing ring;
    cr_assert(centre_ring_chaos(&c, &r, tl_board(&p), &ring, NULL, 0), "%s: no ring lemma", s);
    int len = snprintf(out, size, "%s lemma ring", s);
    for (int j = 0; j < ring.n; j++)
        len += snprintf(out + len, size - (size_t)len, " %c%d:%c%d~", 'a' + ring.a[j] % 8, ring.a[j] / 8 + 1,
                        'a' + ring.b[j] % 8, ring.b[j] / 8 + 1);
}

Test(centre_ring, exact_xa1_xf6_verified)
{
    char line[512];
    ring_line(XA1_XF6, REF_EXACT, line, sizeof line);
    cr_assert(strstr(line, "~") != NULL);
    VerifyResult res;
    cr_expect_eq(verify_ring_text("exact", XA1_XF6, line, &res), VERIFY_VALID, "%s: %s", line, res.error);
    /* Under original the same pairs fail: X X on the diagonal lets X's six
     * count, and the small game with all ten lines is Order's. */
    cr_expect_eq(verify_ring_text("original", XA1_XF6, line, &res), VERIFY_INVALID, "original accepted");
    cr_expect(strstr(res.error, "is an Order win"), "%s", res.error);
    RefPos p;
    ref_parse(&p, 6, 5, REF_ORIGINAL, XA1_XF6);
    Rules r;
    tl_init_rules(&r, &p);
    Centre c;
    centre_init(&c, &r);
    cr_expect(!centre_ring_chaos(&c, &r, tl_board(&p), NULL, NULL, 0), "original X a1 X f6 claimed");
}

/* Lies the verifier must refuse, each with its reason. */
Test(centre_ring, lying_ring_lines_are_refused)
{
    static const struct {
        const char *rules, *root, *line, *why;
    } lies[] = {
        /* rows 1 and 6 crossed: c1:c6 covers no window of row 1 */
        {"exact", XA1_XF6,
         "X..................................X lemma ring b1:f5~ a2:e6~ e1:a5~ c1:c6~ a3:a4~ f2:b6~ d1:d6~ f3:f4~ f1:a6~",
         "is not covered"},
        /* a ring cell left out */
        {"exact", XA1_XF6, "X..................................X lemma ring b1:f5~ a2:e6~ e1:a5~ c1:d1~ a3:a4~ f2:b6~ c6:d6~ f3:f4~",
         "is in no pair"},
        /* a same pair */
        {"exact", XA1_XF6,
         "X..................................X lemma ring b1:f5~ a2:e6~ e1:a5~ c1:d1~ a3:a4~ f2:b6~ c6:d6~ f3:f4~ f1:a6=",
         "same-symbol"},
        /* a centre cell in a pair */
        {"exact", XA1_XF6,
         "X..................................X lemma ring b1:f5~ a2:e6~ e1:a5~ c1:d1~ a3:a4~ f2:b6~ c6:d6~ f3:f4~ f1:c3~",
         "off the ring"},
        /* X a1 X f1: the small game is Order's (row 1 dead, both diagonals live) */
        {"exact", "X....X..............................",
         "X....X.............................. lemma ring b1:c1~ d1:e1~ a2:a3~ a4:a5~ a6:b6~ c6:d6~ e6:f6~ f2:f3~ f4:f5~",
         "not covered"},
        /* exact-end */
        {"exact-end", XA1_XF6,
         "X..................................X lemma ring b1:f5~ a2:e6~ e1:a5~ c1:d1~ a3:a4~ f2:b6~ c6:d6~ f3:f4~ f1:a6~",
         "original or exact"},
    };
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        VerifyResult res;
        int rc = verify_ring_text(lies[i].rules, lies[i].root, lies[i].line, &res);
        cr_expect_neq(rc, VERIFY_VALID, "lie %zu accepted", i);
        cr_expect(strstr(res.error, lies[i].why), "lie %zu: %s", i, res.error);
    }
}

/* Every pairing of the cells ring[0..nr) (nr even): calls try on each
 * until it returns true. */
typedef bool (*PairingFn)(const VrPair *pairs, int np, void *arg);
static bool each_pairing(int *ring, int nr, VrPair *pairs, int np, PairingFn try, void *arg)
{
    if (nr == 0) return try(pairs, np, arg);
    for (int j = 1; j < nr; j++) {
        pairs[np] = (VrPair){(uint8_t)ring[0], (uint8_t)ring[j], false};
        int rest[VR_MAX_CELLS], nrest = 0;
        for (int i = 1; i < nr; i++)
            if (i != j) rest[nrest++] = ring[i];
        if (each_pairing(rest, nrest, pairs, np + 1, try, arg)) return true;
    }
    return false;
}

typedef struct {
    VrGame g;
    uint8_t cells[VR_MAX_CELLS];
} SmallOnly;

/* Do (1)-(3) hold with these pairs and (4) fail? (The verifier checks
 * (1)-(3) before the small game.) */
static bool refused_by_small_game(const VrPair *pairs, int np, void *arg)
{
    SmallOnly *a = arg;
    char why[256] = "";
    return vr_ring_lemma(&a->g, true, a->cells, pairs, np, NULL, why, sizeof why) == 0 && strstr(why, "is an Order win");
}

/* Condition (4) is needed: positions with a pairing of their empty ring
 * cells that meets (1)-(3) but whose small game is an Order win, and Order
 * wins some of them (brute force). 6x6, at most 8 empty ring cells (105
 * pairings each, all tried). */
Test(centre_ring, the_small_game_condition_is_needed)
{
    BruteMemo *memo = brute_new();
    uint64_t rng = 506;
    int refused = 0, order_wins = 0;
    for (int t = 0; t < 20000 && order_wins < 5; t++) {
        RefPos p;
        int rules = t % 2 ? REF_EXACT : REF_ORIGINAL;
        if (tl_random_ongoing(&p, 6, 5, rules, 36 - 4 - tl_below(&rng, 9), &rng) != 0) continue;
        int ring[VR_MAX_CELLS], nr = 0;
        for (int i = 0; i < 36; i++)
            if ((i / 6 == 0 || i / 6 == 5 || i % 6 == 0 || i % 6 == 5) && p.cell[i] == '.') ring[nr++] = i;
        if (nr % 2 || nr > 8) continue;
        SmallOnly a = {vr_game(&p), {0}};
        vr_cells(&p, a.cells);
        VrPair pairs[VR_MAX_PAIRS];
        if (!each_pairing(ring, nr, pairs, 0, refused_by_small_game, &a)) continue;
        refused++;
        order_wins += brute_order_wins(memo, &p);
    }
    cr_log_info("refused for the small game alone: %d, Order wins among them: %d", refused, order_wins);
    cr_expect_geq(order_wins, 5, "condition (4) never needed: untested");
    brute_free(memo);
}

/* ---- End to end: the solver's certificate writer and the verifier ---- */

/* `ocsolve solve --proof` on X a1 under exact writes Chaos's X f6 and a
 * ring line (proof.c ring_line), and `ocsolve verify` accepts the file
 * from the position after X a1; with --no-ring the same solve is not
 * decided within a small node budget (the lemma is what decides it). */
Test(centre_ring, solve_writes_a_ring_line_the_verifier_accepts)
{
    char dir[256], cert[300];
    tl_tmp_dir(dir, sizeof dir, "ring");
    snprintf(cert, sizeof cert, "%s/xa1.ocproof", dir);
    Run r;
    expect_ok(&r, "solve", "--rules", "exact", "--threads", "1", "--tt-mb", "64", "--proof", cert, "-", "Xa1");
    cr_expect(strstr(r.out, "result: chaos wins") && strstr(r.out, "best move: Xf6"), "%s", r.out);
    run_free(&r);
    FILE *f = fopen(cert, "r");
    cr_assert(f, "no certificate written");
    char text[4096];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    cr_expect(strstr(text, " lemma ring ") != NULL, "no ring line:\n%s", text);
    expect_ok(&r, "verify", "--rules", "exact", "--root", "X...................................", "--winner", "chaos",
              cert);
    cr_expect(strstr(r.out, "valid") != NULL, "%s", r.out);
    run_free(&r);
    expect_ok(&r, "solve", "--rules", "exact", "--threads", "1", "--tt-mb", "64", "--no-ring", "--node-limit", "20000",
              "-", "Xa1");
    cr_expect(strstr(r.out, "result: unknown") != NULL, "%s", r.out);
    run_free(&r);
    tl_rm_dir(dir);
}

/* ---- Hostile ring lines ---- */

/* A ring line is outside input: every truncation of the valid line and
 * every one-bit flip of each of its bytes is answered with a verdict and
 * one line of reason, never a crash, and never accepted (no flip of a
 * cell, a separator or the kind makes another pairing that holds); a line
 * with more pair words than the board has cells is refused as malformed.
 * (The file-level hostilities, FIFOs, /dev/zero, huge files: verify_hostile.) */
Test(centre_ring, hostile_ring_lines)
{
    char line[512];
    ring_line(XA1_XF6, REF_EXACT, line, sizeof line);
    size_t len = strlen(line);
    int refused = 0;
    VerifyResult res;
    for (size_t cut = 0; cut < len; cut++) {
        char t[512];
        memcpy(t, line, cut);
        t[cut] = '\0';
        int rc = verify_ring_text("exact", XA1_XF6, t, &res);
        cr_expect(rc == VERIFY_INVALID || rc == VERIFY_MALFORMED, "cut at %zu: %d (%s)", cut, rc, t);
        cr_expect(res.error[0] && !strchr(res.error, '\n'), "cut at %zu: reason '%s'", cut, res.error);
        refused++;
    }
    for (size_t i = 0; i < len; i++)
        for (int b = 0; b < 8; b++) {
            char t[512];
            memcpy(t, line, len + 1);
            t[i] = (char)(t[i] ^ (1 << b));
            if (t[i] == '\0' || t[i] == '\n' || t[i] == '#') continue; /* a shorter line: the cuts above */
            int rc = verify_ring_text("exact", XA1_XF6, t, &res);
            cr_expect(rc == VERIFY_INVALID || rc == VERIFY_MALFORMED, "byte %zu bit %d: %d (%s)", i, b, rc, t);
            cr_expect(res.error[0] && !strchr(res.error, '\n'), "byte %zu bit %d: reason '%s'", i, b, res.error);
            refused++;
        }
    static char big[200000];
    int n = snprintf(big, sizeof big, "%s lemma ring", XA1_XF6);
    while (n < (int)sizeof big - 8) n += snprintf(big + n, sizeof big - (size_t)n, " c1:d1~");
    cr_expect_eq(verify_ring_text("exact", XA1_XF6, big, &res), VERIFY_MALFORMED, "%s", res.error);
    cr_log_info("%d hostile ring lines refused", refused);
}
