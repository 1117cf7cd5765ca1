/* test_verify_cert.c - certificates for the independent verifier
 * (verify/verify.*), written by a small exhaustive solver (certgen.c, on
 * ref.c, canonical frames by ref_image), then spoiled one way at a time: a
 * losing or illegal move, a missing line, another root, rules or winner;
 * lines in any symmetric frame; both winners under all rules; comments,
 * duplicates, malformed certificates, expectations and the command line.
 * The verifier's rules and symmetries are test_verify.c's. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../verify/verify.h"
#include "../verify/verify_rules.h"
#include "certgen.h"
#include "testlib.h"

Test(verify_cert, order_win_certificates_verify)
{
    for (int omit = 0; omit < 2; omit++) {
        CgCert c;
        cr_assert_eq(cg_make_cert(&c, 4, 3, VR_ORIGINAL, CG_EMPTY44, omit), REF_ORDER_WINS);
        char *t = cg_plain(&c);
        VerifyResult r;
        cr_assert_eq(cg_check(t, &r), 0, "%s", r.error);
        cr_assert(r.positions_checked > 0 && r.lines == (uint64_t)c.nlines && r.lines_used == r.lines);
        cr_assert(r.n == 4 && r.k == 3 && r.rules == VR_ORIGINAL && r.winner == VERIFY_WINNER_ORDER);
        cr_assert_str_eq(r.root, CG_EMPTY44);
        cr_assert_str_empty(r.error);
        free(t);
        cg_free_cert(&c);
    }
}

/* exact-end: a run of exactly k whose ends hold the other symbol or lie off
 * the board stands for ever (verify_rules.h, vr_secured): the verifier
 * closes such a branch without reading its line. The test's own check. */
static bool secured(const RefPos *p)
{
    if (p->rules != REF_EXACT_END) return false;
    static const int dir[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int n = p->n;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            for (int d = 0; d < 4; d++) {
                int dr = dir[d][0], dc = dir[d][1], er = r + (p->k - 1) * dr, ec = c + (p->k - 1) * dc;
                if (er < 0 || er >= n || ec < 0 || ec >= n) continue;
                char s = p->cell[r * n + c];
                bool run = s != '.';
                for (int i = 1; i < p->k && run; i++) run = p->cell[(r + i * dr) * n + c + i * dc] == s;
                int br = r - dr, bc = c - dc, ar = er + dr, ac = ec + dc;
                bool b_ok = br < 0 || br >= n || bc < 0 || bc >= n || (p->cell[br * n + bc] != '.' && p->cell[br * n + bc] != s);
                bool a_ok = ar < 0 || ar >= n || ac < 0 || ac >= n || (p->cell[ar * n + ac] != '.' && p->cell[ar * n + ac] != s);
                if (run && b_ok && a_ok) return true;
            }
    return false;
}

Test(verify_cert, a_losing_or_illegal_move_is_rejected)
{
    uint64_t rng = 105;
    int losing = 0, illegal = 0;
    for (int round = 0; round < 6; round++) {
        char root[65];
        cg_find_root(5, 4, round % 3, 10, REF_ORDER_WINS, &rng, root);
        CgCert c;
        cg_make_cert(&c, 5, 4, round % 3, root, 1);
        for (int i = 0; i < c.nlines; i += 1 + c.nlines / 4) {
            RefPos p;
            char pos[65] = {0}, move[16];
            memcpy(pos, c.line[i], 25);
            ref_parse(&p, 5, 4, round % 3, pos);
            if (secured(&p)) continue; /* exact-end: won already, the move is never read */
            for (int j = 0; j < 50; j++) { /* the first legal move that loses, per the test solver */
                if (p.cell[j / 2] != '.') continue;
                p.cell[j / 2] = "XO"[j % 2];
                int w = cg_solve(&p);
                p.cell[j / 2] = '.';
                if (w == REF_ORDER_WINS) continue;
                snprintf(move, sizeof move, "%c%c%d", "XO"[j % 2], 'a' + j / 2 % 5, 1 + j / 10);
                char *t = cg_cert_text(&c, -1, i, move);
                VerifyResult r;
                cr_assert_eq(cg_check(t, &r), 1, "line %d move %s accepted", i, move);
                free(t);
                losing++;
                break;
            }
            int occ = (int)strcspn(pos, "XO"); /* an occupied cell */
            snprintf(move, sizeof move, "O%c%d", 'a' + occ % 5, 1 + occ / 5);
            char *t = cg_cert_text(&c, -1, i, move);
            VerifyResult r;
            cr_assert_eq(cg_check(t, &r), 1);
            cr_assert(strstr(r.error, "is illegal (cell occupied)"), "%s", r.error);
            free(t);
            illegal++;
        }
        cg_free_cert(&c);
    }
    cr_assert(losing >= 5 && illegal >= 5, "losing %d illegal %d", losing, illegal);
}

/* An Order certificate without one of its lines: refused, unless Order,
 * to move there, wins within three plies (by the tests' own reading,
 * certgen.h), which the check finds itself (verify.h). */
Test(verify_cert, a_missing_line_is_rejected)
{
    CgCert c;
    cg_make_cert(&c, 4, 3, VR_ORIGINAL, CG_EMPTY44, 1);
    int refused = 0, found = 0;
    for (int i = 0; i < c.nlines; i++) {
        char *t = cg_cert_text(&c, i, -1, NULL);
        VerifyResult r;
        bool needed = cg_line_needed(c.line[i], 4, 3, VR_ORIGINAL);
        cr_assert_eq(cg_check(t, &r), needed ? 1 : 0, "without line %d (%s): %s", i, c.line[i], r.error);
        if (needed) cr_assert(strstr(r.error, "no certificate line for position"), "%s", r.error);
        refused += needed;
        found += !needed;
        free(t);
    }
    cr_assert_geq(refused, 3, "only %d lines needed", refused);
    cr_assert_geq(found, 3, "only %d lines the check finds itself", found);
    cg_free_cert(&c);
}

Test(verify_cert, wrong_root_rules_or_winner_is_rejected)
{
    CgCert c;
    cg_make_cert(&c, 4, 3, VR_ORIGINAL, CG_EMPTY44, 1);
    char *t = cg_plain(&c);
    static const char *const spoil[][2] = {
        {"root ................", "root .................."}, /* 18 cells */
        {"winner order", "winner chaos"},
    };
    for (int i = 0; i < 2; i++) {
        char *s = cg_replace(t, spoil[i][0], spoil[i][1]);
        VerifyResult r;
        cr_assert_eq(cg_check(s, &r), i == 0 ? 2 : 1, "spoil %d: %s", i, r.error);
        free(s);
    }
    free(t);
    cg_free_cert(&c);
    /* Other rules: an original certificate relabelled exact or exact-end
     * where Chaos wins the root under them (the test solver says so).
     * (Where Order wins under both, the relabelled certificate may well
     * prove it: the check finds Order's wins within three plies itself.) */
    uint64_t rng0 = 105;
    int relabelled = 0;
    for (int tries = 0; tries < 2000 && relabelled < 4; tries++) {
        char root[65], from[80], to[80];
        cg_find_root(5, 4, VR_ORIGINAL, 6 + tries % 3, REF_ORDER_WINS, &rng0, root);
        int other = 1 + relabelled % 2;
        RefPos q;
        cr_assert_eq(ref_parse(&q, 5, 4, other, root), 0);
        free(cg_solved.e);
        cg_solved = (CgMap){0};
        if (cg_solve(&q) != REF_CHAOS_WINS) continue;
        cg_make_cert(&c, 5, 4, VR_ORIGINAL, root, 1);
        t = cg_plain(&c);
        snprintf(from, sizeof from, "rules %s", CG_RULES[0]);
        snprintf(to, sizeof to, "rules %s", CG_RULES[other]);
        char *s = cg_replace(t, from, to);
        VerifyResult r;
        cr_assert_eq(cg_check(t, &r), 0, "%s", r.error);
        cr_assert_eq(cg_check(s, &r), 1, "%s: an Order certificate accepted under %s, which Chaos wins", root,
                     CG_RULES[other]);
        free(s);
        free(t);
        cg_free_cert(&c);
        relabelled++;
    }
    cr_assert_eq(relabelled, 4, "only %d roots that Chaos wins under the other rules", relabelled);
    /* Another root, which Chaos wins, under an Order certificate. */
    uint64_t rng = 106;
    for (int rules = 0; rules < 3; rules++) {
        char root[65], other[65], from[80], to[80];
        cg_find_root(5, 4, rules, 9, REF_CHAOS_WINS, &rng, other);
        cg_find_root(5, 4, rules, 9, REF_ORDER_WINS, &rng, root);
        cg_make_cert(&c, 5, 4, rules, root, 1);
        t = cg_plain(&c);
        snprintf(from, sizeof from, "root %s", root);
        snprintf(to, sizeof to, "root %s", other);
        char *s = cg_replace(t, from, to);
        VerifyResult r;
        cr_assert_eq(cg_check(t, &r), 0, "%s", r.error);
        cr_assert_eq(cg_check(s, &r), 1, "root %s accepted", other);
        free(s);
        free(t);
        cg_free_cert(&c);
    }
}

/* Every line (and the root) in a random one of its 16 frames; the move is
 * found as the one cell where the images of the position and of the
 * position after the move differ. */
static void reframe(CgCert *c, int n, int k, uint64_t *rng)
{
    for (int i = -1; i < c->nlines; i++) {
        RefPos p, q, p2, q2;
        char pos[65], *l = i < 0 ? strstr(c->header, "root ") + 5 : c->line[i];
        int s = tl_below(rng, 16);
        memcpy(pos, l, (size_t)(n * n));
        pos[n * n] = '\0';
        ref_parse(&p, n, k, REF_ORIGINAL, pos);
        ref_image(&p, s, &q);
        ref_format(&q, pos);
        memcpy(l, pos, (size_t)(n * n));
        if (i < 0) continue;
        p2 = p;
        p2.cell[(l[n * n + 3] - '1') * n + (l[n * n + 2] - 'a')] = l[n * n + 1];
        ref_image(&p2, s, &q2);
        int cell = 0;
        while (q.cell[cell] == q2.cell[cell]) cell++;
        sprintf(l + n * n, " %c%c%d", q2.cell[cell], 'a' + cell % n, 1 + cell / n);
    }
}

Test(verify_cert, lines_in_any_symmetric_frame_are_accepted)
{
    uint64_t rng = 103;
    for (int round = 0; round < 7; round++) {
        int n = round == 0 ? 4 : 5, k = n - 1, rules = round % 3;
        char root[65] = "X.....O.........";
        if (round > 0) cg_find_root(5, 4, rules, 9, round < 4 ? REF_ORDER_WINS : REF_CHAOS_WINS, &rng, root);
        CgCert c;
        cg_make_cert(&c, n, k, rules, root, 1);
        for (int again = 0; again < 3; again++) {
            reframe(&c, n, k, &rng);
            char *t = cg_plain(&c);
            VerifyResult r;
            cr_assert_eq(cg_check(t, &r), 0, "%s\n%s", r.error, t);
            free(t);
        }
        cg_free_cert(&c);
    }
}

/* Random small positions under every rule set, Order and Chaos wins: the
 * true winner's certificate verifies, the claim for the other side fails. */
Test(verify_cert, certificates_for_both_winners_and_all_rules)
{
    uint64_t rng = 104;
    int wins[3][3] = {{0}};
    for (int t = 0; t < 120; t++) {
        int n = 4 + t % 2, k = n == 4 ? 3 + tl_below(&rng, 2) : 4, rules = t / 2 % 3;
        RefPos p;
        if (tl_random_ongoing(&p, n, k, rules, n * n - 7 - tl_below(&rng, 3), &rng) != 0) continue;
        if (ref_status(&p) != REF_ONGOING) continue;
        char root[65];
        ref_format(&p, root);
        CgCert c;
        int w = cg_make_cert(&c, n, k, rules, root, t % 3 != 0);
        wins[rules][w]++;
        char *text = cg_plain(&c);
        VerifyResult r;
        cr_assert_eq(cg_check(text, &r), 0, "%s\n%s", r.error, text);
        char *bad = w == REF_ORDER_WINS ? cg_replace(text, "winner order", "winner chaos")
                                        : cg_replace(text, "winner chaos", "winner order");
        cr_assert_eq(cg_check(bad, &r), 1, "both sides win: %s", root);
        free(text);
        free(bad);
        cg_free_cert(&c);
    }
    for (int rules = 0; rules < 3; rules++)
        cr_assert(wins[rules][1] > 0 && wins[rules][2] > 0, "rules %d: %d order, %d chaos", rules, wins[rules][1],
                  wins[rules][2]);
}

/* 6x6, k=5, three empty cells: only row 1 can still hold a five (original),
 * and Chaos to move kills it with O on c1; the position after is dead. */
Test(verify_cert, handmade_chaos_certificate)
{
    const char *pos = "XX...XOOXXOOXXOOXXOOXXOOXXOOXXOOXXOO";
    char text[512];
    for (int rules = 0; rules < 2; rules++) {
        snprintf(text, sizeof text, "ocproof 1\nboard 6 5\nrules %s\nwinner chaos\nroot %s\n%s Oc1\n", CG_RULES[rules], pos,
                 pos);
        VerifyResult r;
        cr_assert_eq(cg_check(text, &r), 0, "%s", r.error);
        /* Under exact the root is dead already: row 1 can only make a six. */
        cr_assert_eq(r.positions_checked, rules == VR_EXACT ? 1 : 2);
        cr_assert_eq(r.lines_used, rules == VR_EXACT ? 0 : 1);
    }
    snprintf(text, sizeof text, "ocproof 1\nboard 6 5\nrules original\nwinner chaos\nroot %s\n", pos);
    VerifyResult r;
    cr_assert_eq(cg_check(text, &r), 1);
    cr_assert_str_eq(r.error, "no certificate line for position XX...XOOXXOOXXOOXXOOXXOOXXOOXXOOXXOO (Chaos to move)");
    snprintf(text, sizeof text, "ocproof 1\nboard 6 5\nrules original\nwinner chaos\nroot %s\n%s Xc1\n", pos, pos);
    cr_assert_eq(cg_check(text, &r), 1); /* X on c1 helps Order; the proof has no answer to Xd1 */
    cr_assert_str_eq(r.error, "no certificate line for position XXXX.XOOXXOOXXOOXXOOXXOOXXOOXXOOXXOO (Chaos to move)");
}

Test(verify_cert, comments_blank_lines_and_duplicates)
{
    const char *ok = "# a proof\n  ocproof 1   # version\n\nboard 4 3\n\trules original\nwinner order\n"
                     "root X..............O\nX..............O Xb1  # twice, and its mirror image\n"
                     "X..............O Xb1\nX..............O Xa2\n";
    VerifyResult r;
    cr_assert_neq(cg_check(ok, &r), 2, "%s", r.error);
    cr_assert_eq(r.lines, 3);
    char *conflict = cg_replace(ok, "Xa2", "Xc1");
    cr_assert_eq(cg_check(conflict, &r), 2);
    cr_assert(strstr(r.error, "<text>:10: conflicts with line 8"), "%s", r.error);
    free(conflict);
}

Test(verify_cert, malformed_certificates)
{
    static const char *const cases[][2] = {
        {"", "empty"},
        {"ocproof 3\n", ":1: unsupported"},
        {"proof 1\n", ":1: not an ocproof"},
        {"ocproof 1\nboard 4 3\nrules original\nwinner order\nroot ....\n", ":5: bad root"},
        {"ocproof 1\nboard 4 5\n", ":2: k=5 is larger"},
        {"ocproof 1\nboard 9 5\n", ":2: bad board size"},
        {"ocproof 1\nboard 4 3\nrules silly\n", ":3: unknown rules"},
        {"ocproof 1\nboard 4 3\nwinner nobody\n", ":3: bad winner"},
        {"ocproof 1\nboard 4 3\nboard 4 3\n", ":3: duplicate header"},
        {"ocproof 1\nboard 4 3\nrules exact\nwinner order\n", "missing header field(s): root"},
        {"ocproof 1\nboard 4 3\nrules exact\nroot -\n.......X........ Xa1\n", ":5: missing header field(s): winner"},
        {"ocproof 1\nsize 4 3\n", ":2: unknown keyword 'size'"},
        {"ocproof 1\nboard 4 3\nrules exact\nwinner order\nroot -\nhello world\n", ":6: unknown keyword"},
        {"ocproof 1\nboard 4 3\nrules exact\nwinner order\nroot -\n........ Xa1\n", ":6: bad position"},
        {"ocproof 1\nboard 4 3\nrules exact\nwinner order\nroot -\n................ Xe1\n", ":6: bad move"},
        {"ocproof 1\nboard 4 3\nrules exact\nwinner order\nroot -\n................ Xa1 Xb1\n", ":6: a position line"},
        {"ocproof 1\nboard 4 3\nrules exact\nwinner order\nroot XXX.............\n", ":5: the root position has already ended"},
        {"ocproof 1\nboard 4 3\nrules exact\nwinner order\nroot -\n................ Xa1\nrules exact\n", ":7: header field 'rules' after"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        VerifyResult r;
        cr_assert_eq(cg_check(cases[i][0], &r), 2, "case %zu", i);
        cr_assert(strstr(r.error, cases[i][1]), "case %zu: %s", i, r.error);
        cr_assert(!strchr(r.error, '\n'));
    }
    VerifyResult r;
    cr_assert_eq(verify_file("/nonexistent/proof.txt", &r), 2);
    cr_assert(strstr(r.error, "/nonexistent/proof.txt: cannot open"), "%s", r.error);
}

Test(verify_cert, expectations)
{
    const char *text = "ocproof 1\nboard 4 3\nrules original\nwinner order\nroot XX..............\n";
    VerifyResult r;
    VerifyExpect same = {4, 3, VR_ORIGINAL, VERIFY_WINNER_ORDER, "..............XX"}; /* a rotation */
    cr_assert_eq(verify_text_ex(text, &same, &r), 0, "%s", r.error);
    VerifyExpect other[] = {{5, 0, -1, 0, NULL}, {0, 4, -1, 0, NULL}, {0, 0, VR_EXACT, 0, NULL},
                            {0, 0, -1, VERIFY_WINNER_CHAOS, NULL}, {0, 0, -1, 0, "X..............."}};
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(verify_text_ex(text, &other[i], &r), 1, "expectation %d", i);
        cr_assert(strstr(r.error, "not"), "%s", r.error);
    }
}

static int run(const char *args, char *out, size_t outlen)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s verify %s 2>&1", OCSOLVE_BIN, args);
    FILE *p = popen(cmd, "r");
    size_t got = fread(out, 1, outlen - 1, p);
    out[got] = '\0';
    char rest[1024]; /* the rest read too (the help is longer than out): a closed pipe would fail the writer */
    while (fread(rest, 1, sizeof rest, p) > 0) continue;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(verify_cert, command_line)
{
    CgCert c;
    cg_make_cert(&c, 4, 3, VR_ORIGINAL, CG_EMPTY44, 1);
    char path[] = "/tmp/ocsolve-verify-XXXXXX", args[128], out[4096];
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    char *t = cg_plain(&c), *bad = cg_replace(t, "winner order", "winner chaos");
    fputs(t, f);
    fclose(f);
    snprintf(args, sizeof args, "%s", path);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    cr_assert(strstr(out, "\nvalid\n") && strstr(out, "positions checked: "), "%s", out);
    snprintf(args, sizeof args, "--json --root - --board 4 --k 3 --rules original --winner order %s", path);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    cr_assert(strstr(out, "\"valid\":true") && strstr(out, "\"error\":null") && strstr(out, "\"board\":4"), "%s", out);
    snprintf(args, sizeof args, "--rules exact %s", path);
    cr_assert_eq(run(args, out, sizeof out), 1, "%s", out);
    f = fopen(path, "w");
    fputs(bad, f);
    fclose(f);
    snprintf(args, sizeof args, "--json %s", path);
    cr_assert_eq(run(args, out, sizeof out), 1, "%s", out);
    cr_assert(strstr(out, "\"valid\":false") && strstr(out, "\"error\":\"no certificate line"), "%s", out);
    f = fopen(path, "w");
    fputs("ocproof 1\nboard 4 3\nbogus\n", f);
    fclose(f);
    snprintf(args, sizeof args, "%s", path);
    cr_assert_eq(run(args, out, sizeof out), 2, "%s", out);
    cr_assert(strstr(out, ":3: unknown keyword") && strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
    cr_assert_eq(run("/nonexistent/proof.txt", out, sizeof out), 2, "%s", out);
    cr_assert_eq(run("--bogus x", out, sizeof out), 2, "%s", out);
    cr_assert_eq(run("--help", out, sizeof out), 0, "%s", out);
    unlink(path);
    free(t);
    free(bad);
    cg_free_cert(&c);
}
