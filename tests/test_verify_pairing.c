/* test_verify_pairing.c - the pairing lemma of ocproof 2 certificates
 * ('POSITION lemma pairing c1:c6~ a1:f6= ...', verify/verify_pairing.* and
 * verify_read.c), soundness against brute force (brute.h, over ref.h):
 * random small positions, a pairing searched for here (with the test's own
 * reading of the lemma, vpair.h: windows built from the board's lines; a
 * backtracking search), spoiled at random; the verifier must agree with
 * the test's own check of the conditions, and wherever it accepts, Chaos
 * must win; the same for positions on odd boards whose pairing needs a
 * witness. Hand-written certificates and malformed lines are
 * test_verify_pairing_lines.c's. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../verify/verify.h"
#include "brute.h"
#include "testlib.h"
#include "vpair.h"

/* --- soundness against brute force --- */

typedef struct {
    const RefPos *p;
    VpWin win[512];
    int nwin;
    int used[64];
    VpPair pair[32];
    int npairs, allow_same, sloppy;
    long nodes, limit;
} Search;

static int search_covers(const Search *s, const VpWin *w, VpPair q)
{
    if (!s->sloppy) return vp_covers(w, q);
    /* a wrong reading: any pair with a cell in w covers it */
    return vp_has(w->cell, w->ncells, q.a) || vp_has(w->cell, w->ncells, q.b);
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
    const VpWin *w = NULL;
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
                s->pair[s->npairs++] = (VpPair){a, b, kind};
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
    static VpWin all[512];
    int n = vp_all_windows(p->n, p->k, all);
    s->p = p;
    s->nwin = 0;
    for (int i = 0; i < n; i++)
        if (vp_live(p, &all[i])) s->win[s->nwin++] = all[i];
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
static int only_same_fails(const RefPos *p, const VpPair *q, int nq)
{
    RefPos end = *p;
    end.rules = REF_EXACT_END; /* the same windows live under exact; '=' pairs allowed */
    int same = 0;
    for (int i = 0; i < nq; i++) same |= q[i].same;
    return p->rules == REF_EXACT && same && ref_status(p) == REF_ONGOING && vp_spec_holds(&end, 1, q, nq);
}

/* q as a lemma line at p (in the frame of symmetry sym) in a certificate:
 * the verifier must agree with the test's own reading (vpair.h), and
 * whatever it accepts must be a Chaos win for the brute force. The
 * verifier's code (0: accepted, 1: refused). */
static int judged(const RefPos *p, const VpPair *q, int nq, int sym, BruteMemo *memo)
{
    char root[65], line[512];
    ref_format(p, root);
    vp_lemma_line(p, q, nq, sym, line);
    char *text = vp_cert(p->n, p->k, p->rules, "chaos", root, line);
    VerifyResult r;
    int rc = vp_check(text, &r), want = vp_spec_holds(p, 1, q, nq);
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
            VpPair q[32];
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
                if (n % 2 && vp_uncovered(&p, q, nq, unc) == 0 && odd_refused_covering < 150) {
                    /* an odd board, every live window covered: refused for want of breakability */
                    odd_refused_covering++;
                    odd_refused_order_wins += brute_order_wins(memo, &p);
                } else if (only_same_fails(&p, q, nq) && same_searched < 60) {
                    same_searched++;
                    same_order_wins += brute_order_wins(memo, &p);
                } else if (refused_searched < 150 && vp_count_empty(&p) <= 10) {
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

/* Witnesses against the brute force: random positions on odd boards whose
 * covering pairing needs a witness for some pair (no parity there, and a
 * pair that does not lean); the verifier must agree with the test's own
 * reading (vpair.h), and every one it accepts must be a Chaos win. */
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
            if (find_pairing(&s, &p, 0, 0) != 1 || !vp_needs_witness(&p, s.pair, s.npairs)) continue;
            if (judged(&p, s.pair, s.npairs, tl_below(&rng, 16), memo) == 0) accepted++;
            else refused++;
        }
    brute_free(memo);
    cr_log_info("witnesses vs brute force: %d accepted, %d refused", accepted, refused);
    cr_assert(accepted >= 30, "only %d accepted with a witness", accepted);
}
