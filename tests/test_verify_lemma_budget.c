/* test_verify_lemma_budget.c - the verifier's bound on the centre lemma's
 * searches (the small game; the extended game of one or two half pairs;
 * verify/verify_centre.h, VrLemmaBudget; VerifyLimits.max_lemma_nodes;
 * `ocsolve verify --max-lemma-nodes`): a certificate whose lemma lines need more is refused as malformed, with
 * one line naming the option, and never called a Chaos win or accepted;
 * within the default it is judged as before, and its acceptances are
 * Order wins by the independent brute force (tests/brute.h). Each test
 * runs in a process of its own, so no lemma table is filled before it. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../verify/verify.h"
#include "brute.h"
#include "ref.h"
#include "runbin.h"
#include "tcentre.h"
#include "testlib.h"

static const char *const RULES_NAME[] = {"original", "exact"};

/* A 5x5 (k 4) position of the lemma's shape with exactly nhalf (0, 1 or
 * 2) half pairs, ongoing, at most 9 empty cells, into s. */
static void lemma_position(int rules, int nhalf, uint64_t *rng, char s[65])
{
    int np;
    tc_pairs_of(5, &np);
    for (;;) {
        tc_lemma_shaped(5, 10, 25, rng, s); /* every pair empty or mixed */
        int q0 = tl_below(rng, np), made = 0;
        for (int j = 0; j < nhalf; j++) { /* pairs q0, q0 + 1 made half full */
            int a, b, line[VR_SMALL_MAX];
            tc_pair_line(5, (q0 + j) % np, &a, &b, line);
            int cell = tl_below(rng, 2) ? a : b;
            if (s[a] == '.') s[cell] = tl_below(rng, 2) ? 'X' : 'O';
            else s[cell] = '.';
            made++;
        }
        RefPos p;
        ref_parse(&p, 5, 4, rules, s);
        if (made == nhalf && tc_count_empty(s, 25) <= 9 && ref_status(&p) == REF_ONGOING) return;
    }
}

/* The verification of the one-line certificate 'POS lemma centre' for
 * Order at s, from a file, within max_lemma_nodes (0: the default). */
static int check(const char *path, int rules, const char *s, uint64_t max_nodes, VerifyResult *r)
{
    char line[96];
    tc_lemma_line(5, s, 0, line);
    char *text = tc_cert(5, 4, RULES_NAME[rules], "order", s, line);
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    free(text);
    VerifyLimits lim = {.max_lemma_nodes = max_nodes};
    return verify_file_limits(path, NULL, 1 + (int)(max_nodes % 2), &lim, r);
}

/* Each position first with a bound of 1 node, then with the default: the
 * first refused as malformed (naming the option), or, when an earlier
 * position of the same configuration filled its table, judged as the
 * second; the second as without a bound, its acceptances Order wins.
 * With one or two half pairs (the extended game) and with none (the small
 * game). */
static void bound_sample(int nhalf)
{
    char dir[256], path[300];
    tl_tmp_dir(dir, sizeof dir, "lemma-budget");
    snprintf(path, sizeof path, "%s/c.ocproof", dir);
    BruteMemo *big = brute_new();
    cr_assert(big);
    uint64_t rng = 9090;
    for (int rules = REF_ORIGINAL; rules <= REF_EXACT; rules++) {
        int refused = 0, accepted_after = 0;
        for (int t = 0; t < 60; t++) {
            char s[65];
            lemma_position(rules, nhalf, &rng, s);
            VerifyResult r;
            int tight = check(path, rules, s, 1, &r);
            if (tight == VERIFY_MALFORMED) {
                cr_assert(strstr(r.error, "--max-lemma-nodes"), "%s: %s", s, r.error);
                refused++;
            }
            int full = check(path, rules, s, 0, &r);
            cr_assert_neq(full, VERIFY_MALFORMED, "%s: %s", s, r.error);
            RefPos p;
            ref_parse(&p, 5, 4, rules, s);
            if (full == VERIFY_VALID) {
                cr_assert(brute_order_wins(big, &p), "%s: accepted, Chaos wins by brute force", s);
                accepted_after += tight == VERIFY_MALFORMED;
            }
            cr_assert(tight == VERIFY_MALFORMED || tight == full, "%s: %d within the bound, %d without", s, tight, full);
        }
        cr_log_info("rules %d, %d half pairs: %d refused at 1 node, %d of those accepted by default", rules, nhalf,
                    refused, accepted_after);
        cr_expect(refused >= 5 && accepted_after >= 1, "rules %d: %d refused, %d then accepted", rules, refused,
                  accepted_after);
    }
    brute_free(big);
    unlink(path);
    tl_rm_dir(dir);
}

Test(verify_lemma_budget, a_bound_refuses_never_misjudges) { bound_sample(1); }
Test(verify_lemma_budget, the_small_game_too) { bound_sample(0); }
Test(verify_lemma_budget, the_two_half_pair_form_too) { bound_sample(2); }

/* text into path. */
static void put_file(const char *path, char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    free(text);
}

/* The bound reached inside a file a see line names: the top file (only
 * 'root see sub') is refused as malformed too, on one thread and on two,
 * never judged invalid; within the default it is judged as the sub-file
 * alone. */
Test(verify_lemma_budget, through_a_see_line)
{
    char dir[256], sub[300], top[300], s[65];
    tl_tmp_dir(dir, sizeof dir, "lemma-budget-see");
    snprintf(sub, sizeof sub, "%s/sub.ocproof", dir);
    snprintf(top, sizeof top, "%s/top.ocproof", dir);
    uint64_t rng = 4242;
    VerifyResult r;
    int found = 0;
    for (int t = 0; t < 200 && found < 3; t++) {
        lemma_position(REF_EXACT, 1, &rng, s);
        char line[400];
        tc_lemma_line(5, s, 0, line);
        put_file(sub, tc_cert(5, 4, "exact", "order", s, line));
        snprintf(line, sizeof line, "%s see sub.ocproof", s);
        put_file(top, tc_cert(5, 4, "exact", "order", s, line));
        VerifyLimits tight = {.max_lemma_nodes = 1};
        int rc = verify_file_limits(top, NULL, 1, &tight, &r);
        if (rc == VERIFY_VALID) continue; /* its table is filled already: no work to refuse */
        found++;
        for (int threads = 1; threads <= 2; threads++) {
            rc = verify_file_limits(top, NULL, threads, &tight, &r);
            cr_expect_eq(rc, VERIFY_MALFORMED, "%s, %d threads: %d within 1 node (%s)", s, threads, rc, r.error);
            cr_expect(r.refused && strstr(r.error, "--max-lemma-nodes"), "%s, %d threads: %s", s, threads, r.error);
        }
        int alone = verify_file_limits(sub, NULL, 1, NULL, &r);
        cr_expect_neq(alone, VERIFY_MALFORMED, "%s: %s", s, r.error);
        for (int threads = 1; threads <= 2; threads++) {
            rc = verify_file_limits(top, NULL, threads, NULL, &r);
            cr_expect_eq(rc, alone, "%s, %d threads: %d by default, %d the sub-file alone (%s)", s, threads, rc, alone,
                         r.error);
            cr_expect_not(r.refused, "%s: refused by default", s);
        }
    }
    cr_assert_eq(found, 3, "no position needs more than one node");
    unlink(sub);
    unlink(top);
    tl_rm_dir(dir);
}

/* The option: a bound of 0 or junk is a usage error, and a certificate
 * past the bound is refused; each exit 2 with one line naming it. */
Test(verify_lemma_budget, command_line)
{
    expect_reject("--max-lemma-nodes", "verify", "--max-lemma-nodes", "0", "results/claims/exact-Xc3.ocproof.gz");
    expect_reject("--max-lemma-nodes", "verify", "--max-lemma-nodes", "x", "results/claims/exact-Xc3.ocproof.gz");
    char dir[256], path[300], s[65];
    tl_tmp_dir(dir, sizeof dir, "lemma-budget-cli");
    snprintf(path, sizeof path, "%s/c.ocproof", dir);
    uint64_t rng = 77;
    VerifyResult r;
    for (int t = 0; t < 100; t++) { /* a position the library refuses at 1 node: a fresh process does too */
        lemma_position(REF_EXACT, 1, &rng, s);
        if (check(path, REF_EXACT, s, 1, &r) == VERIFY_MALFORMED) break;
    }
    cr_assert(strstr(r.error, "--max-lemma-nodes"), "no position needs more than one node: %s", r.error);
    expect_reject("--max-lemma-nodes", "verify", "--max-lemma-nodes", "1", path);
    unlink(path);
    tl_rm_dir(dir);
}
