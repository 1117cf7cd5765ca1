/* test_verify_short.c - the plies the verifier searches itself where a
 * certificate has no line (verify/verify_short.h): Order's wins within
 * three plies (the writer leaves those lines out, solver/proof.c
 * order_wins_in_three) and the last plies before a horizon (solver/proof.c
 * chaos_holds_short).
 *
 * Honest by the brute force (brute.h): certificates with no position line
 * at all, for random positions of every rule set on boards of 4x4 to 8x8, must
 * be valid exactly when the brute force says Order wins within three plies
 * (Order to move) or four (Chaos to move: every Chaos move then leaves
 * Order a win within three), under original and exact; under exact-end,
 * where a line stands only on the full board and secured runs close
 * branches too, valid ones must be Order wins. A valid one's longest game
 * lies between the brute force's distance and that bound. And the tests'
 * own reading of the rule (certgen.h cg_order_wins_in_three, on the
 * reference rules) agrees with the brute force. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../verify/verify.h"
#include "brute.h"
#include "certgen.h"
#include "testlib.h"

TestSuite(verify_short, .timeout = 240);

#ifdef OCS_SANITIZE
enum { SCALE = 3 };
#else
enum { SCALE = 1 };
#endif

/* The verifier on an Order certificate of p with no line. */
static int bare_order(const RefPos *p, VerifyResult *v)
{
    char root[65], text[256];
    ref_format(p, root);
    snprintf(text, sizeof text, "ocproof 1\nboard %d %d\nrules %s\nwinner order\nroot %s\n", p->n, p->k,
             CG_RULES[p->rules], root);
    VerifyExpect e = {p->n, p->k, p->rules, 0, root};
    return verify_text_ex(text, &e, v);
}

Test(verify_short, certificates_without_lines_against_brute_force)
{
    static const struct {
        int n, k, pieces;
    } GAMES[] = {{4, 3, 4}, {4, 4, 7}, {5, 4, 14}, {6, 5, 27}, {7, 5, 41}, {8, 6, 56}};
    uint64_t rng = 0x33;
    int valid = 0, refused = 0, three = 0, four = 0;
    for (int rules = 0; rules < 3; rules++)
        for (size_t g = 0; g < sizeof GAMES / sizeof GAMES[0]; g++) {
            BruteMemo *memo = brute_new();
            cr_assert(memo);
            for (int i = 0; i < 250 / SCALE; i++) {
                RefPos p;
                int pieces = GAMES[g].pieces + tl_below(&rng, 6);
                if (tl_random_ongoing(&p, GAMES[g].n, GAMES[g].k, rules, pieces, &rng) != 0) continue;
                bool chaos = cg_pieces(&p) % 2 == 1;
                int dtw = brute_dtw(memo, &p), bound = chaos ? 4 : 3;
                bool short_win = dtw >= 0 && dtw <= bound;
                VerifyResult v;
                int rc = bare_order(&p, &v);
                char s[65];
                ref_format(&p, s);
                if (rules != 2)
                    cr_assert_eq(rc == VERIFY_VALID, short_win, "%s (rules %d, %s to move), dtw %d: %s", s, rules,
                                 chaos ? "Chaos" : "Order", dtw, rc == VERIFY_VALID ? "valid" : v.error);
                if (rc == VERIFY_VALID) {
                    cr_assert_geq(dtw, 0, "%s (rules %d): valid, but Chaos wins", s, rules);
                    if (rules != 2)
                        cr_assert(v.longest >= dtw && v.longest <= bound, "%s (rules %d): longest game %d, dtw %d", s,
                                  rules, v.longest, dtw);
                    valid++;
                } else {
                    cr_assert(strstr(v.error, "no certificate line") || strstr(v.error, "win for Chaos"), "%s",
                              v.error);
                    refused++;
                }
                if (!chaos && rules != 2) /* the tests' own reading of the rule, on the reference rules */
                    cr_assert_eq(cg_order_wins_in_three(&p), short_win, "%s (rules %d): dtw %d", s, rules, dtw);
                three += !chaos && short_win && dtw == 3;
                four += chaos && short_win && dtw >= 3;
            }
            brute_free(memo);
        }
    cr_log_info("verify_short: %d valid, %d refused; %d wins in three (Order to move), %d in four (Chaos)", valid,
                refused, three, four);
    cr_assert_geq(three, 50 / SCALE, "only %d wins in three", three);
    cr_assert_geq(four, 60 / SCALE, "only %d wins in four", four);
    cr_assert_geq(refused, 200 / SCALE, "only %d refused", refused);
}

/* A line the certificate gives is followed even where the check could find
 * a win itself: Order's listed move that loses (by the brute force) at a
 * position Order wins within three plies is refused. */
Test(verify_short, a_listed_move_is_followed)
{
    uint64_t rng = 0x34;
    int tried = 0;
    for (int rules = 0; rules < 2; rules++) {
        BruteMemo *memo = brute_new();
        cr_assert(memo);
        for (int t = 0; t < 3000 && tried < 10 * (rules + 1); t++) {
            RefPos p;
            if (tl_random_ongoing(&p, 5, 4, rules, 14 + 2 * tl_below(&rng, 3), &rng) != 0) continue; /* Order to move */
            int dtw = brute_dtw(memo, &p);
            if (dtw != 3) continue;
            int lose = -1;
            for (int c = 0; c < 25 && lose < 0; c++)
                for (int s = 0; s < 2 && lose < 0 && p.cell[c] == '.'; s++) {
                    p.cell[c] = "XO"[s];
                    if (ref_status(&p) == REF_ONGOING && brute_dtw(memo, &p) < 0) lose = 2 * c + s;
                    p.cell[c] = '.';
                }
            if (lose < 0) continue;
            char root[65], text[256];
            ref_format(&p, root);
            snprintf(text, sizeof text, "ocproof 1\nboard 5 4\nrules %s\nwinner order\nroot %s\n%s %c%c%d\n",
                     CG_RULES[rules], root, root, "XO"[lose % 2], 'a' + lose / 2 % 5, 1 + lose / 2 / 5);
            VerifyResult v;
            cr_assert_eq(bare_order(&p, &v), VERIFY_VALID, "%s: %s", root, v.error); /* without the line: found */
            VerifyExpect e = {5, 4, rules, 0, root};
            cr_assert_neq(verify_text_ex(text, &e, &v), VERIFY_VALID, "%s: the losing line accepted:\n%s", root, text);
            tried++;
        }
        brute_free(memo);
    }
    cr_assert_geq(tried, 20, "only %d positions", tried);
}

/* The verifier on a certificate of p to the horizon h with no line at
 * all (version 1). */
static int bare_chaos(const RefPos *p, int h, VerifyResult *v)
{
    char root[65], text[256];
    ref_format(p, root);
    snprintf(text, sizeof text, "ocproof 1\nboard %d %d\nrules %s\nwinner chaos\nroot %s\nhorizon %d\n", p->n,
             p->k, CG_RULES[p->rules], root, h);
    VerifyExpect e = {p->n, p->k, p->rules, 0, root};
    return verify_text_ex(text, &e, v);
}

/* Chaos's moves in the last four plies before the horizon, which the
 * check finds itself (verify.h): a certificate with no line is valid
 * exactly when the brute force's dtw is over its horizon h, for Chaos to
 * move with h <= 4 and Order to move with h <= 5 (every Order move leads
 * to Chaos with h - 1); and for any other h and side, valid only when dtw
 * > h. Positions of every rule set on 4x4 (k 3, 4), 5x5 (k 4), 6x6 (k 5),
 * 7x7 (k 5) and 8x8 (k 6), near the end of the game and earlier, with
 * both answers met often. */
Test(verify_short, horizons_without_lines_against_brute_force)
{
    static const struct {
        int n, k, pieces;
    } GAMES[] = {{4, 3, 5}, {4, 4, 8}, {5, 4, 14}, {6, 5, 26}, {7, 5, 40}, {8, 6, 55}};
    uint64_t rng = 0x52;
    int complete = 0, yes = 0, no = 0, sound = 0;
    for (int rules = 0; rules < 3; rules++)
        for (size_t g = 0; g < sizeof GAMES / sizeof GAMES[0]; g++) {
            BruteMemo *memo = brute_new();
            cr_assert(memo);
            for (int i = 0; i < 60 / SCALE; i++) {
                RefPos p;
                int pieces = GAMES[g].pieces + tl_below(&rng, 5);
                if (tl_random_ongoing(&p, GAMES[g].n, GAMES[g].k, rules, pieces, &rng) != 0) continue;
                int dtw = brute_dtw(memo, &p);
                bool chaos = cg_pieces(&p) % 2 == 1;
                for (int h = 0; h <= 6; h++) {
                    char s[65];
                    ref_format(&p, s);
                    VerifyResult v;
                    int rc = bare_chaos(&p, h, &v);
                    bool beyond = dtw < 0 || dtw > h;
                    if (rc == VERIFY_VALID) cr_assert(beyond, "%s (rules %d): no lines valid at %d, dtw %d", s, rules, h, dtw);
                    if (h <= (chaos ? 4 : 5)) {
                        cr_assert_eq(rc == VERIFY_VALID, beyond, "%s (rules %d), %s to move, horizon %d, dtw %d: %s", s,
                                     rules, chaos ? "Chaos" : "Order", h, dtw, rc == VERIFY_VALID ? "valid" : v.error);
                        if (!beyond)
                            cr_assert(strstr(v.error, "no certificate line") || strstr(v.error, "within the horizon"),
                                      "%s", v.error);
                        complete++;
                        yes += beyond;
                        no += !beyond;
                    } else {
                        sound++;
                    }
                }
            }
            brute_free(memo);
        }
    cr_log_info("short horizons: %d complete cases (%d valid, %d refused), %d others", complete, yes, no, sound);
    cr_assert_geq(yes, 150 / SCALE, "only %d short horizons held", yes);
    cr_assert_geq(no, 60 / SCALE, "only %d short horizons refused", no);
}
