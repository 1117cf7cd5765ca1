/* test_within_cert.c - certificates of a "no" to the bounded question:
 * Chaos's certificate that Order cannot win within d plies (the header's
 * 'horizon d'; proof.h proof_write_not_within, `ocsolve solve --within D
 * --proof F` for a no, `ocsolve verify --within D --winner chaos F`).
 *
 * Honest by the brute force (brute.h): a certificate is written only for
 * positions whose brute dtw is over d (or which Chaos wins), and must
 * verify; its mutants are built so that the brute force, or the rules of
 * the tests' own reference (ref.h), say they claim something false or
 * leave out what the check must see, and must be refused: the horizon
 * made the true distance (the writer cannot be asked for that, so a true
 * certificate's header is edited), a Chaos move that lets Order complete
 * a line inside the horizon, a Chaos line or an Order reply left out, an
 * illegal move, a wrong or malformed header. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../solver/dfpn.h"
#include "../solver/dfpn_depth.h"
#include "../solver/proof.h"
#include "../verify/verify.h"
#include "../verify/verify_rules.h"
#include "brute.h"
#include "certgen.h"
#include "runbin.h"
#include "testlib.h"

TestSuite(within_cert, .timeout = 240);

#ifdef OCS_SANITIZE
enum { SCALE = 3 }; /* fewer positions under the sanitizers */
#else
enum { SCALE = 1 };
#endif

/* --- a certificate's lines, for the mutants --- */

typedef struct {
    char **s;
    int n;
} Lines;

static Lines split(const char *text)
{
    Lines l = {NULL, 0};
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        l.s = realloc(l.s, (size_t)(l.n + 1) * sizeof *l.s);
        l.s[l.n++] = strndup(p, len);
        p += len + (p[len] == '\n');
    }
    return l;
}

/* The lines joined again, line `skip` left out (-1: none). */
static char *join(const Lines *l, int skip)
{
    size_t len = 1;
    for (int i = 0; i < l->n; i++) len += strlen(l->s[i]) + 1;
    char *t = malloc(len), *e = t;
    *t = '\0';
    for (int i = 0; i < l->n; i++)
        if (i != skip) e += sprintf(e, "%s\n", l->s[i]);
    return t;
}

static void lines_free(Lines *l)
{
    for (int i = 0; i < l->n; i++) free(l->s[i]);
    free(l->s);
}

/* A 'POSITION MOVE' line (no lemma, no see): the position into q and the
 * move's symbol and cell; false for any other line. */
static bool move_line(const char *line, const RefPos *like, RefPos *q, char *sym, int *cell)
{
    char pos[80], mv[8];
    if (sscanf(line, "%79s %7s", pos, mv) != 2 || strchr("XO.", pos[0]) == NULL || strlen(mv) != 3) return false;
    if (ref_parse(q, like->n, like->k, like->rules, pos) != 0) return false;
    *sym = mv[0];
    *cell = (mv[2] - '1') * like->n + (mv[1] - 'a');
    return true;
}

static void format_move(char *out, char sym, int cell, int n)
{
    sprintf(out, "%c%c%d", sym, 'a' + cell % n, 1 + cell / n);
}

/* The index of the move line whose position is p up to symmetry, -1 if none. */
static int line_of(const Lines *l, const RefPos *p)
{
    RefPos want, q, c;
    cg_canon(p, &want);
    char sym;
    int cell;
    for (int i = 0; i < l->n; i++) {
        if (!move_line(l->s[i], p, &q, &sym, &cell)) continue;
        cg_canon(&q, &c);
        if (memcmp(c.cell, want.cell, (size_t)(p->n * p->n)) == 0) return i;
    }
    return -1;
}

/* --- writing and checking --- */

/* The writer's certificate that Order cannot win p within d plies, after
 * the bounded search has said no (asserted). */
static uint64_t disproved; /* Chaos's moves from a new disproof of their position, in all */

static char *no_cert(const Rules *r, const Knowledge *kn, TT *tt, const RefPos *p, int d)
{
    char s[65];
    ref_format(p, s);
    Board b = tl_board(p);
    DfpnDepth dd;
    dfpn_depth_init(&dd, r, kn, tt, NULL);
    cr_assert_eq(dfpn_depth_within(&dd, b, d, NULL), 0, "%s (rules %d): the search says Order wins within %d", s, p->rules, d);
    char *text = NULL, err[200] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert(f);
    ProofStats st;
    int rc = proof_write_not_within(f, &dd, b, d, 0, &st, err, sizeof err);
    fclose(f);
    disproved += dd.moves.reproved;
    cr_assert_eq(rc, 0, "%s (rules %d), within %d: %s", s, p->rules, d, err);
    return text;
}

/* The verifier on text, asked for p's game and root and any claim. */
static int check(const char *text, const RefPos *p, VerifyResult *v)
{
    char root[65];
    ref_format(p, root);
    VerifyExpect e = {p->n, p->k, p->rules, 0, root};
    return verify_text_ex(text, &e, v);
}

typedef struct {
    int certs, lines, longest, too_long, no_horizon, missing, inside, illegal;
} Tally;

/* Mutants of a valid certificate `text` of p to the horizon d whose move
 * lines the check all used: a Chaos line left out, a Chaos move that lets
 * Order complete a line inside the horizon, a move onto an occupied cell.
 * Each must be refused. */
static void mutants(const char *text, const RefPos *p, int d, Tally *t)
{
    Lines l = split(text);
    int root_pieces = cg_pieces(p);
    bool missing = false, inside = false, illegal = false;
    VerifyResult v;
    for (int i = 0; i < l.n && !(missing && inside && illegal); i++) {
        RefPos q;
        char sym, mv[8];
        int cell;
        if (!move_line(l.s[i], p, &q, &sym, &cell)) continue;
        int h = d - (cg_pieces(&q) - root_pieces), nn = p->n * p->n;
        if (!missing) { /* every line is used, and this position is not closed: its line is needed */
            char *m = join(&l, i);
            cr_assert_eq(check(m, p, &v), VERIFY_INVALID, "line %d left out:\n%s", i, m);
            cr_assert(strstr(v.error, "no certificate line for position"), "%s", v.error);
            free(m);
            missing = true;
            t->missing++;
        }
        for (int c = 0; c < nn && !illegal; c++) /* onto an occupied cell */
            if (q.cell[c] != '.') {
                char *keep = l.s[i], pos[65];
                ref_format(&q, pos);
                format_move(mv, 'X', c, p->n);
                l.s[i] = malloc(80);
                snprintf(l.s[i], 80, "%s %s", pos, mv);
                char *m = join(&l, -1);
                cr_assert_eq(check(m, p, &v), VERIFY_INVALID, "%s", m);
                cr_assert(strstr(v.error, "is illegal (cell occupied)"), "%s", v.error);
                free(m), free(l.s[i]);
                l.s[i] = keep;
                illegal = true;
                t->illegal++;
            }
        /* a Chaos move after which Order completes a line at once, 2 plies on, inside the horizon */
        for (int c = 0; c < nn && !inside && h >= 2; c++)
            for (int s = 0; s < 2 && !inside && q.cell[c] == '.'; s++) {
                RefPos a = q;
                a.cell[c] = "XO"[s];
                char syms[1];
                int cells[1];
                if (ref_status(&a) != REF_ONGOING || ref_winning_moves(&a, syms, cells, 1) == 0) continue;
                char *keep = l.s[i], pos[65];
                ref_format(&q, pos);
                format_move(mv, "XO"[s], c, p->n);
                l.s[i] = malloc(80);
                snprintf(l.s[i], 80, "%s %s", pos, mv);
                char *m = join(&l, -1);
                cr_assert_eq(check(m, p, &v), VERIFY_INVALID, "Chaos's %s at %s lets Order win:\n%s", mv, pos, m);
                free(m), free(l.s[i]);
                l.s[i] = keep;
                inside = true;
                t->inside++;
            }
    }
    lines_free(&l);
}

/* Checks p at horizon d: the certificate verifies, claims exactly that, and
 * uses every line it has; then its mutants. dtw is the brute force's. */
static void check_position(const Rules *r, const Knowledge *kn, TT *tt, const RefPos *p, int dtw, int d, Tally *t)
{
    char s[65];
    ref_format(p, s);
    char *text = no_cert(r, kn, tt, p, d);
    VerifyResult v;
    cr_assert_eq(check(text, p, &v), VERIFY_VALID, "%s (rules %d), within %d: %s\n%s", s, p->rules, d, v.error, text);
    cr_assert_eq(v.winner, VERIFY_WINNER_CHAOS);
    cr_assert_eq(v.horizon, d, "%s: horizon %d, asked %d", s, v.horizon, d);
    cr_assert_eq(v.lines_used, v.lines, "%s: %llu of %llu lines used", s, (unsigned long long)v.lines_used,
                 (unsigned long long)v.lines);
    t->certs++;
    t->lines += (int)v.lines;
    mutants(text, p, d, t);
    if (dtw >= 0 && d == dtw - 1) { /* Order wins in dtw: a horizon of dtw, or none, is a lie */
        char from[32], to[32];
        snprintf(from, sizeof from, "\nhorizon %d\n", d);
        snprintf(to, sizeof to, "\nhorizon %d\n", dtw);
        char *m = cg_replace(text, from, to);
        cr_assert_eq(check(m, p, &v), VERIFY_INVALID, "%s: accepted with the horizon %d, its dtw", s, dtw);
        free(m);
        m = cg_replace(text, from, "\n");
        cr_assert_eq(check(m, p, &v), VERIFY_INVALID, "%s: accepted as a Chaos win (dtw %d)", s, dtw);
        free(m);
        t->too_long++;
        t->no_horizon++;
    }
    free(text);
}

/* Random positions of every rule set on 4x4 (k 3 and 4), 5x5 and 6x6 (k
 * 5 and 6): for an Order win of distance t, the largest no (t - 1) and a
 * smaller one; for a Chaos win, a horizon inside the game and the whole
 * game. Small tables, so that the writer must search again. */
Test(within_cert, certificates_and_mutants_against_brute_force)
{
    static const struct {
        int n, k, pieces, count;
    } CASES[] = {{4, 3, 5, 12}, {4, 4, 4, 12}, {5, 4, 13, 12}, {6, 5, 24, 10}, {6, 6, 24, 6}};
    uint64_t rng = 0x36;
    Tally t = {0};
    int order_wins = 0, chaos_wins = 0, deep = 0;
    for (int rs = 0; rs < 3; rs++)
        for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
            Rules r;
            char err[128];
            cr_assert_eq(rules_init(&r, CASES[c].n, CASES[c].k, tl_rules(rs), err, sizeof err), 0, "%s", err);
            TT tt;
            cr_assert_eq(tt_init(&tt, (size_t)1 << 16, false), 0);
            Knowledge kn = dfpn_default_config().kn;
            if (c % 2) kn.pairing = 0; /* no pairing lines: ocproof 1 */
            BruteMemo *memo = brute_new();
            cr_assert(memo);
            for (int i = 0, tries = 0; i < (CASES[c].count + SCALE - 1) / SCALE && tries < 2000; tries++) {
                RefPos p;
                if (tl_random_ongoing(&p, CASES[c].n, CASES[c].k, rs, CASES[c].pieces, &rng) != 0) continue;
                int dtw = brute_dtw(memo, &p), e = CASES[c].n * CASES[c].n - CASES[c].pieces;
                int top = dtw >= 0 ? dtw - 1 : e; /* the largest no */
                check_position(&r, &kn, &tt, &p, dtw, top, &t);
                if (top >= 2) check_position(&r, &kn, &tt, &p, dtw, 1 + tl_below(&rng, top - 1), &t);
                order_wins += dtw >= 0;
                chaos_wins += dtw < 0;
                deep += top >= 4;
                i++;
            }
            brute_free(memo);
            tt_free(&tt);
        }
    cr_log_info("within_cert: %d certificates (%d lines), %d Order wins and %d Chaos wins; mutants: %d missing, "
                "%d inside, %d illegal, %d horizon too long, %d no horizon",
                t.certs, t.lines, order_wins, chaos_wins, t.missing, t.inside, t.illegal, t.too_long, t.no_horizon);
    cr_assert_geq(order_wins, 20 / SCALE, "only %d Order wins", order_wins);
    cr_assert_geq(chaos_wins, 5 / SCALE, "only %d Chaos wins", chaos_wins);
    cr_assert_geq(deep, 10 / SCALE, "only %d horizons of 4 or more", deep);
    cr_assert_geq(t.inside, 15 / SCALE, "only %d inside mutants", t.inside);
    cr_assert_geq(t.missing, 20 / SCALE, "only %d missing-line mutants", t.missing);
    /* the small table made the writer disprove positions again
     * (dfpn_depth_disproof_move), so those moves are among the checked */
    cr_assert_gt(disproved, 0, "no Chaos move came from a new disproof of its position");
}

/* The verifier's closing rule (vr_fewest_to_line): no line within fewer
 * plies than it says, and none at all where it says never, by the brute
 * force's distance to win; and it is reached, so it is no empty bound:
 * somewhere the distance equals it. Random positions of any shape (lines
 * standing under exact-end included) on 4x4 and 5x5. */
Test(within_cert, fewest_plies_to_a_line_against_brute_force)
{
    static const struct {
        int n, k;
    } GAMES[] = {{4, 3}, {4, 4}, {5, 4}};
    uint64_t rng = 0xfe;
    int checked = 0, never = 0, equal = 0;
    for (int rules = 0; rules < 3; rules++)
        for (size_t g = 0; g < sizeof GAMES / sizeof GAMES[0]; g++) {
            BruteMemo *memo = brute_new();
            cr_assert(memo);
            VrGame game = {GAMES[g].n, GAMES[g].k, rules};
            for (int i = 0; i < 300 / SCALE; i++) {
                RefPos p;
                int nn = GAMES[g].n * GAMES[g].n, pct = 20 + tl_below(&rng, 20);
                tl_random_any(&p, GAMES[g].n, GAMES[g].k, rules, pct, pct, &rng);
                int empty = 0;
                for (int c = 0; c < nn; c++) empty += p.cell[c] == '.';
                if (ref_status(&p) != REF_ONGOING || empty > 10) continue;
                uint8_t cells[VR_MAX_CELLS] = {0};
                for (int c = 0; c < nn; c++) cells[c] = p.cell[c] == 'X' ? VR_X : p.cell[c] == 'O' ? VR_O : VR_EMPTY;
                int fewest = vr_fewest_to_line(&game, cells), dtw = brute_dtw(memo, &p);
                char s[65];
                ref_format(&p, s);
                if (fewest == VR_NEVER) cr_assert_lt(dtw, 0, "%s (rules %d): no window left, dtw %d", s, rules, dtw);
                else cr_assert(dtw < 0 || dtw >= fewest, "%s (rules %d): dtw %d < %d", s, rules, dtw, fewest);
                checked++;
                never += fewest == VR_NEVER;
                equal += dtw == fewest;
            }
            brute_free(memo);
        }
    cr_log_info("fewest: %d positions, %d never, %d equal", checked, never, equal);
    cr_assert_geq(checked, 600 / SCALE, "only %d positions", checked);
    cr_assert_geq(never, 6 / SCALE, "only %d with no window left", never);
    cr_assert_geq(equal, 50 / SCALE, "only %d whose distance is the bound", equal);
}

/* The search on a fresh table, for the tests below: p's no certificate at d. */
static char *fresh_no_cert(const RefPos *p, int d)
{
    Rules r;
    char err[128];
    cr_assert_eq(rules_init(&r, p->n, p->k, tl_rules(p->rules), err, sizeof err), 0, "%s", err);
    TT tt;
    cr_assert_eq(tt_init(&tt, (size_t)1 << 20, false), 0);
    Knowledge kn = dfpn_default_config().kn;
    char *text = no_cert(&r, &kn, &tt, p, d);
    tt_free(&tt);
    return text;
}

/* The writer leaves Chaos's lines out where four plies or fewer are left:
 * every move line of a no certificate is Chaos's (a no certificate names
 * no Order move) with at least five plies left, and the certificate is
 * valid. 5x5, k 4, original and exact, horizons of 6 or more. */
Test(within_cert, no_chaos_line_short_of_the_horizon)
{
    uint64_t rng = 0x57;
    int checked = 0, lines = 0;
    for (int rules = 0; rules < 2; rules++) {
        BruteMemo *memo = brute_new();
        cr_assert(memo);
        for (int tries = 0; tries < 400 && checked < 4 * (rules + 1); tries++) {
            RefPos p;
            if (tl_random_ongoing(&p, 5, 4, rules, 13 + tl_below(&rng, 3), &rng) != 0) continue;
            int dtw = brute_dtw(memo, &p);
            if (dtw >= 0 && dtw < 8) continue;
            int d = dtw >= 0 ? dtw - 1 : 8;
            char *text = fresh_no_cert(&p, d);
            VerifyResult v;
            cr_assert_eq(check(text, &p, &v), VERIFY_VALID, "%s", v.error);
            Lines l = split(text);
            for (int i = 0; i < l.n; i++) {
                RefPos q;
                char sym;
                int cell;
                if (!move_line(l.s[i], &p, &q, &sym, &cell)) continue;
                int h = d - (cg_pieces(&q) - cg_pieces(&p));
                cr_assert(cg_pieces(&q) % 2 == 1, "an Order line in a no certificate: %s", l.s[i]);
                cr_assert_geq(h, 5, "a Chaos line %d plies short of the horizon: %s", h, l.s[i]);
                lines++;
            }
            lines_free(&l);
            free(text);
            checked++;
        }
        brute_free(memo);
    }
    cr_log_info("no Chaos line short of the horizon: %d certificates, %d lines", checked, lines);
    cr_assert_geq(checked, 8, "only %d certificates", checked);
    cr_assert_geq(lines, 10, "only %d lines", lines);
}

/* An Order win of distance at least `least` (brute force) with `pieces` pieces. */
static void order_win_root(int n, int k, int rules, int pieces, int least, uint64_t *rng, RefPos *p, int *dtw)
{
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    for (int tries = 0; tries < 5000; tries++) {
        if (tl_random_ongoing(p, n, k, rules, pieces, rng) != 0) continue;
        *dtw = brute_dtw(memo, p);
        if (*dtw >= least) {
            brute_free(memo);
            return;
        }
    }
    cr_assert_fail("no Order win of distance %d or more found", least);
}

/* An Order reply left unanswered: at the first Order-to-move position of
 * the proof (the root, or after Chaos's first move), the Chaos position
 * after Order's last move that has a line loses it; the check, which
 * follows every Order move, must miss it. 4x4, k 4, under original and
 * exact (exact-end's horizons inside the game close at once), Chaos or
 * Order to move at the root. */
Test(within_cert, order_reply_left_out)
{
    uint64_t rng = 0x4f;
    for (int rules = 0; rules < 2; rules++)
        for (int round = 0; round < 4; round++) {
            RefPos p;
            int dtw, n = 4;
            order_win_root(n, 4, rules, 2 + round, 8, &rng, &p, &dtw); /* deep: no lines within 4 plies of the horizon */
            char *text = fresh_no_cert(&p, dtw - 1);
            Lines l = split(text);
            RefPos q = p;
            if (cg_pieces(&p) % 2) { /* Chaos to move: its move, in the frame its line is written in */
                char sym;
                int cell, i = line_of(&l, &p);
                cr_assert(i >= 0 && move_line(l.s[i], &p, &q, &sym, &cell));
                q.cell[cell] = sym;
            }
            int drop = -1;
            char after[8] = "";
            for (int c = 0; c < n * n; c++)
                for (int s = 0; s < 2 && q.cell[c] == '.'; s++) {
                    RefPos a = q;
                    a.cell[c] = "XO"[s];
                    int i = ref_status(&a) == REF_ONGOING ? line_of(&l, &a) : -1;
                    if (i >= 0) drop = i, format_move(after, "XO"[s], c, n);
                }
            cr_assert_geq(drop, 0, "no Order move answered by a line");
            char *m = join(&l, drop);
            VerifyResult v;
            cr_assert_eq(check(m, &p, &v), VERIFY_INVALID, "the answer to %s left out:\n%s", after, m);
            cr_assert(strstr(v.error, "no certificate line for position") && strstr(v.error, "(Chaos to move)"), "%s",
                      v.error);
            free(m);
            lines_free(&l);
            free(text);
        }
}

/* The header field: optional, with 'winner chaos' only, once, 0 to 64. A
 * horizon of 0 claims nothing but an ongoing root (no lines needed). */
Test(within_cert, header_field)
{
    const char *root = "X....O.........."; /* 4x4, k 3 */
    char text[512];
    static const struct {
        const char *field, *error;
    } BAD[] = {
        {"horizon 3\nhorizon 3\n", "7: duplicate header field 'horizon'"},
        {"horizon 65\n", "6: bad horizon '65' (0 to 64 plies)"},
        {"horizon -1\n", "6: bad horizon '-1' (0 to 64 plies)"},
        {"horizon x\n", "6: bad horizon 'x' (0 to 64 plies)"},
        {"horizon\n", "6: 'horizon' needs a number of plies, as in 'horizon 12'"},
        {"horizon 3 4\n", "6: 'horizon' needs a number of plies"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        snprintf(text, sizeof text, "ocproof 1\nboard 4 3\nrules original\nwinner chaos\nroot %s\n%s", root,
                 BAD[i].field);
        cg_expect_malformed(text, BAD[i].error, BAD[i].field);
    }
    snprintf(text, sizeof text, "ocproof 1\nboard 4 3\nrules original\nwinner order\nroot %s\nhorizon 3\n", root);
    cg_expect_malformed(text, " 'horizon' needs 'winner chaos'", "winner order");
    /* horizon 0: the root is ongoing, so no line stands within 0 plies */
    snprintf(text, sizeof text, "ocproof 1\nboard 4 3\nrules original\nwinner chaos\nroot %s\nhorizon 0\n", root);
    VerifyResult v;
    cr_assert_eq(verify_text(text, &v), VERIFY_VALID, "%s", v.error);
    cr_assert_eq(v.horizon, 0);
    /* without the field nothing changes: the same lines claim a Chaos win, and fail as one */
    snprintf(text, sizeof text, "ocproof 1\nboard 4 3\nrules original\nwinner chaos\nroot %s\n", root);
    cr_assert_eq(verify_text(text, &v), VERIFY_INVALID, "%s", v.error);
    cr_assert_eq(v.horizon, -1);
}

/* A horizon shows no win: a caller asking for a winner, or a see line of a
 * Chaos certificate, refuses it; a horizon certificate may hand a
 * position to a full Chaos certificate. Full certificates from the tests'
 * own solver (certgen.h). */
Test(within_cert, expectations_and_see_lines)
{
    char dir[64], root[26], path[128];
    uint64_t rng = 77;
    tl_tmp_dir(dir, sizeof dir, "horizon");
    cg_find_root(5, 4, REF_ORIGINAL, 9, REF_CHAOS_WINS, &rng, root);
    CgCert c;
    cg_make_cert(&c, 5, 4, REF_ORIGINAL, root, 1);
    char *full = cg_plain(&c);
    tl_write_text(dir, "full.txt", full);
    char text[512];
    /* the horizon certificate of this Chaos win: the root handed to the full one */
    snprintf(text, sizeof text, "ocproof 2\nboard 5 4\nrules original\nwinner chaos\nroot %s\nhorizon 9\n%s see full.txt\n",
             root, root);
    tl_write_text(dir, "hz.txt", text);
    snprintf(path, sizeof path, "%s/hz.txt", dir);
    VerifyResult v;
    cr_assert_eq(verify_file(path, &v), VERIFY_VALID, "%s", v.error);
    cr_assert_eq(v.horizon, 9);
    VerifyExpect any = {5, 4, REF_ORIGINAL, 0, root}, chaos = {5, 4, REF_ORIGINAL, VERIFY_WINNER_CHAOS, root};
    cr_assert_eq(verify_file_ex(path, &any, &v), VERIFY_VALID, "%s", v.error);
    cr_assert_eq(verify_file_ex(path, &chaos, &v), VERIFY_INVALID);
    cr_assert(strstr(v.error, "shows only that Order cannot win within 9 plies"), "%s", v.error);
    /* a Chaos certificate whose root is handed to the horizon certificate */
    snprintf(text, sizeof text, "ocproof 2\nboard 5 4\nrules original\nwinner chaos\nroot %s\n%s see hz.txt\n", root, root);
    tl_write_text(dir, "top.txt", text);
    snprintf(path, sizeof path, "%s/top.txt", dir);
    for (int threads = 1; threads <= 2; threads++) {
        cr_assert_eq(verify_file_threads(path, NULL, threads, &v), VERIFY_INVALID, "%s", v.error);
        cr_assert(strstr(v.error, "see ") && strstr(v.error, "not that chaos wins"), "%s", v.error);
    }
    free(full);
    cg_free_cert(&c);
    tl_rm_dir(dir);
}

#define SLOW_DTW "XO...X..OO.O.....XOO...X.O.X.X....XX" /* Chaos to move, distance 14 */

/* From the outside: a no writes Chaos's certificate, which `verify --within
 * D --winner chaos` accepts at D and below, and which nothing asking for
 * more (a larger D, a Chaos win, an Order win) accepts; a full Chaos
 * certificate answers every --within D --winner chaos. */
Test(within_cert, cli)
{
    char dir[64], no[96], full[96];
    tl_tmp_dir(dir, sizeof dir, "within-no");
    snprintf(no, sizeof no, "%s/no12.ocproof", dir);
    snprintf(full, sizeof full, "%s/full.ocproof", dir);
    Run r;
    expect_ok(&r, "solve", "--quiet", "--tt-mb", "16", "--within", "12", "--proof", no, SLOW_DTW);
    cr_expect(strstr(r.out, "within 12: no") && strstr(r.out, "proof: "), "%s", r.out);
    run_free(&r);
    expect_ok(&r, "verify", "--within", "12", "--winner", "chaos", no);
    cr_expect(strstr(r.out, "claim: Order cannot win within 12 plies") && strstr(r.out, "within 12: no (Order cannot "
                                                                                          "win within 12 plies)\nvalid\n"),
              "%s", r.out);
    run_free(&r);
    expect_ok(&r, "verify", "--within", "10", "--winner", "chaos", no);
    run_free(&r);
    expect_ok(&r, "verify", no); /* any claim: it says which */
    cr_expect(strstr(r.out, "claim: Order cannot win within 12 plies") != NULL, "%s", r.out);
    run_free(&r);
    expect_ok(&r, "verify", "--json", no);
    cr_expect(strstr(r.out, "\"horizon\":12") != NULL, "%s", r.out);
    run_free(&r);
    static const struct {
        const char *a, *b, *c, *d, *error;
    } BAD[] = {
        {"--within", "14", "--winner", "chaos", "its horizon is 12 plies, so it shows only that Order cannot win within 12"},
        {"--winner", "chaos", "--root", SLOW_DTW, "shows only that Order cannot win within 12 plies"},
        {"--within", "12", "--root", SLOW_DTW, "--within 12: the certificate claims chaos wins"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        run_argv(&r, ARGS("verify", BAD[i].a, BAD[i].b, BAD[i].c, BAD[i].d, no));
        cr_expect(r.exited && r.code == 1 && strstr(r.err, BAD[i].error), "%s: %d\n%s%s", r.desc, r.code, r.out,
                  r.err);
        run_free(&r);
    }
    /* A Chaos win (5x5 k 4, the tests' own solver's certificate): no at every D */
    char root[26];
    uint64_t rng = 5;
    cg_find_root(5, 4, REF_EXACT, 9, REF_CHAOS_WINS, &rng, root);
    CgCert c;
    cg_make_cert(&c, 5, 4, REF_EXACT, root, 1);
    char *text = cg_plain(&c);
    tl_write_text(dir, "full.ocproof", text);
    expect_ok(&r, "verify", "--within", "7", "--winner", "chaos", full);
    cr_expect(strstr(r.out, "within 7: no (Order cannot win within 7 plies: Chaos wins)") != NULL, "%s", r.out);
    run_free(&r);
    free(text);
    cg_free_cert(&c);
    tl_rm_dir(dir);
}
