/* test_verify_centre_two.c - the centre lemma's two-HALF-pair form
 * (verify/verify_centre.h, "Two HALF pairs"; verify_centre_ext.*) on
 * whole boards: random positions with exactly two half-full ring pairs
 * (every other pair empty, mixed or of like symbols) and few empty cells,
 * on 4x4, 5x5 and 6x6 under original and exact, given to the verifier as
 * certificates 'root POS' + 'POS lemma centre' (in a random one of the 16
 * symmetric forms). Checked against brute force over the reference rules
 * (brute.h, over ref.h): every acceptance is an Order win; and against
 * this file's own reading of the extended game (ext_ref, typed in from the
 * definition on the big board's cells, with the test's own geometry from
 * tcentre.h): the verifier accepts exactly where it is an Order win. Lying
 * certificates (Chaos wins by brute force whose centre game, the half
 * pairs taken as empty, is Order's) are refused. Invariant: nothing here
 * is taken from the verifier but its cell values and bounds. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../verify/verify.h"
#include "../verify/verify_centre.h"
#include "brute.h"
#include "certgen.h"
#include "tcentre.h"
#include "testlib.h"

/* A random position with exactly two half-full pairs: lemma-shaped (pairs
 * empty or mixed), some full pairs turned into like symbols, then two
 * distinct pairs made half full (a piece put on an empty pair, or one
 * taken off a full one). half[] gets those pairs' indexes. */
static void two_half_shaped(int n, uint64_t *rng, char *s, int half[2])
{
    int np, a, b, line[VR_SMALL_MAX];
    tc_pairs_of(n, &np);
    tc_lemma_shaped(n, n == 4 ? 20 : 10, n == 4 ? 40 : 25, rng, s);
    for (int p = 0; p < np; p++) {
        tc_pair_line(n, p, &a, &b, line);
        if (s[a] != '.' && tl_below(rng, 100) < 20) s[a] = s[b] = "XO"[tl_below(rng, 2)];
    }
    half[0] = tl_below(rng, np);
    half[1] = (half[0] + 1 + tl_below(rng, np - 1)) % np;
    for (int j = 0; j < 2; j++) {
        tc_pair_line(n, half[j], &a, &b, line);
        int cell = tl_below(rng, 2) ? a : b;
        if (s[a] == '.')
            s[cell] = "XO"[tl_below(rng, 2)];
        else
            s[cell] = '.';
    }
}

/* The extended game, decided here on the big board's cells (s changed in
 * place and restored): the centre and the two half pairs' empty ends; a
 * move is X or O on any of them; side by the board's piece count. Order
 * wins as soon as, for some pair p whose centre line holds n-2 like S:
 * p is one of the half pairs, u its filled end (as at the start), v the
 * other, and S = s[u] with v not S (exact) or any v (original), or S != s[u]
 * with v = S; or p is another pair, empty or mixed, or S S under original.
 * With naive, the half pairs count as empty pairs and their empty ends are
 * no cells of the game (the centre game alone: what a verifier ignoring
 * them would search). */
typedef struct {
    int n, rules, np, ncells, cell[18], u[12];
    bool half[12], naive;
    uint32_t pow3[18];
    int8_t *val; /* 0 unknown, else value + 1, by the empty game cells' base-3 digits */
} ExtRef;

static int ext_ref_counts(const ExtRef *r, const char *s)
{
    for (int p = 0; p < r->np; p++) {
        int a, b, line[VR_SMALL_MAX];
        tc_pair_line(r->n, p, &a, &b, line);
        char S = s[line[0]];
        bool same = S != '.';
        for (int i = 1; i < r->n - 2; i++) same &= s[line[i]] == S;
        if (!same) continue;
        if (r->half[p] && !r->naive) {
            int u = r->u[p], v = u == a ? b : a;
            if (S == s[u] ? r->rules == REF_ORIGINAL || s[v] != S : s[v] == S) return 1;
        } else if (r->half[p] || s[a] != s[b] || s[a] == '.' || (r->rules == REF_ORIGINAL && s[a] == S)) {
            return 1;
        }
    }
    return 0;
}

static int ext_ref_solve(ExtRef *r, char *s, uint32_t idx, int pieces)
{
    if (r->val[idx]) return r->val[idx] - 1;
    int v = ext_ref_counts(r, s), order = pieces % 2 == 0, full = 1;
    for (int j = 0; j < r->ncells; j++) full &= s[r->cell[j]] != '.';
    if (!v && !full) {
        v = !order;
        for (int j = 0; j < r->ncells && v != order; j++) {
            if (s[r->cell[j]] != '.') continue;
            for (int sym = 1; sym <= 2 && v != order; sym++) {
                s[r->cell[j]] = " XO"[sym];
                if (ext_ref_solve(r, s, idx + (uint32_t)sym * r->pow3[j], pieces + 1) == order) v = order;
                s[r->cell[j]] = '.';
            }
        }
    }
    r->val[idx] = (int8_t)(v + 1);
    return v;
}

static int ext_ref(int n, int rules, char *s, bool naive)
{
    ExtRef r = {.n = n, .rules = rules, .naive = naive};
    int pieces = 0, a, b, line[VR_SMALL_MAX];
    uint32_t size = 1;
    tc_pairs_of(n, &r.np);
    for (int i = 0; i < n * n; i++) pieces += s[i] != '.';
    for (int p = 0; p < r.np; p++) {
        tc_pair_line(n, p, &a, &b, line);
        r.half[p] = (s[a] == '.') != (s[b] == '.');
        r.u[p] = s[a] != '.' ? a : b;
        if (r.half[p] && !naive) r.cell[r.ncells++] = s[a] == '.' ? a : b;
    }
    for (int r0 = 1; r0 < n - 1; r0++)
        for (int c = 1; c < n - 1; c++) r.cell[r.ncells++] = r0 * n + c;
    for (int j = 0; j < r.ncells; j++) r.pow3[j] = size, size *= s[r.cell[j]] == '.' ? 3 : 1;
    r.val = calloc(size, 1);
    cr_assert(r.val);
    int v = ext_ref_solve(&r, s, 0, pieces);
    free(r.val);
    return v;
}

/* The verifier on 'root s' + 's lemma centre' in a random symmetric form:
 * 0 valid, 1 invalid (r->error says why). */
static int lemma_cert(int n, int rules, const char *s, uint64_t *rng, VerifyResult *r)
{
    char line[96];
    tc_lemma_line(n, s, tl_below(rng, 16), line);
    char *text = tc_cert(n, n - 1, CG_RULES[rules], "order", s, line);
    int rc = cg_check(text, r);
    free(text);
    return rc;
}

/* Soundness and exactness of the two-half-pair form (see the top). */
Test(verify_centre_two, two_half_pairs_against_brute_force)
{
    uint64_t rng = 714;
    BruteMemo *big = brute_new();
    for (int n = 4; n <= 6; n++)
        for (int rules = REF_ORIGINAL; rules <= REF_EXACT; rules++) {
            int tried = 0, held = 0, refused = 0, chaos = 0, max_empty = n == 4 ? 10 : 9;
            for (int t = 0; t < 200000 && tried < 300; t++) {
                char s[65];
                int half[2];
                two_half_shaped(n, &rng, s, half);
                RefPos p;
                ref_parse(&p, n, n - 1, rules, s);
                if (tc_count_empty(s, n * n) > max_empty || ref_status(&p) != REF_ONGOING) continue;
                tried++;
                VerifyResult r;
                int rc = lemma_cert(n, rules, s, &rng, &r), want = ext_ref(n, rules, s, false);
                cr_assert_eq(rc == 0, want, "n=%d rules %d %s: the extended game is a%s win here; %s", n, rules, s,
                             want ? "n Order" : " Chaos", rc ? r.error : "valid");
                if (rc == 0) {
                    cr_assert(brute_order_wins(big, &p), "n=%d rules %d: the lemma holds at %s, Chaos wins", n, rules, s);
                    held++;
                } else {
                    cr_assert(strstr(r.error, ": the centre game with ") && strstr(r.error, ") and ") &&
                                  strstr(r.error, ") is a Chaos win ("),
                              "%s: %s", s, r.error);
                    refused++;
                    chaos += !brute_order_wins(big, &p);
                }
            }
            cr_log_info("two half pairs, n=%d rules %d: %d positions, %d accepted (Order wins by brute force), %d "
                        "refused (%d of them Chaos wins)",
                        n, rules, tried, held, refused, chaos);
            cr_assert(tried == 300 && held >= 50, "n=%d rules %d: tried %d, held %d", n, rules, tried, held);
            cr_assert(n == 4 || (refused > 0 && chaos > 0), "n=%d rules %d: refused %d, chaos %d", n, rules, refused,
                      chaos);
        }
    brute_free(big);
}

/* Lying certificates, found by search: two-half-pair positions that Chaos
 * wins by brute force although the centre game with the half pairs taken
 * as empty (and their empty cells left out) is an Order win, so a verifier
 * that ignored the half pairs would pass them. Each is refused, by the
 * extended game. */
Test(verify_centre_two, lying_two_half_certificates_are_rejected)
{
    uint64_t rng = 715;
    BruteMemo *big = brute_new();
    for (int n = 5; n <= 6; n++)
        for (int rules = REF_ORIGINAL; rules <= REF_EXACT; rules++) {
            int found = 0, tried = 0;
            while (found < 5 && tried < 100000) {
                char s[65];
                int half[2];
                two_half_shaped(n, &rng, s, half);
                RefPos p;
                ref_parse(&p, n, n - 1, rules, s);
                if (tc_count_empty(s, n * n) > 9 || ref_status(&p) != REF_ONGOING) continue;
                tried++;
                if (!ext_ref(n, rules, s, true) || brute_order_wins(big, &p)) continue;
                VerifyResult r;
                cr_assert_eq(lemma_cert(n, rules, s, &rng, &r), 1, "n=%d rules %d: %s accepted, Chaos wins", n, rules, s);
                cr_assert(strstr(r.error, ": the centre game with ") && strstr(r.error, ") is a Chaos win ("), "%s: %s",
                          s, r.error);
                found++;
            }
            cr_log_info("two-half lies, n=%d rules %d: %d refused (%d positions tried)", n, rules, found, tried);
            cr_assert_eq(found, 5, "n=%d rules %d: %d lies found in %d positions", n, rules, found, tried);
        }
    brute_free(big);
}

/* Exactness where brute force cannot follow: positions with more empty
 * centre cells (the ring's other empty cells are no part of the extended
 * game), up to 12 empty cells in that game, on 5x5 and 6x6 under original
 * and exact: the verifier accepts exactly where this file's extended game
 * is an Order win. Here the half pairs' lines often fill during the play,
 * so which v cell ends which line decides more often. */
Test(verify_centre_two, two_half_pairs_exactly_where_the_extended_game_is_orders)
{
    uint64_t rng = 716;
    for (int n = 5; n <= 6; n++)
        for (int rules = REF_ORIGINAL; rules <= REF_EXACT; rules++) {
            int tried = 0, held = 0;
            for (int t = 0; t < 100000 && tried < 100; t++) {
                char s[65];
                int half[2], centre_empty = 0;
                two_half_shaped(n, &rng, s, half);
                for (int i = 0; i < n * n; i++) /* clear some more centre cells */
                    if (i / n % (n - 1) && i % n % (n - 1) && tl_below(&rng, 100) < 40) s[i] = '.';
                for (int i = 0; i < n * n; i++) centre_empty += i / n % (n - 1) && i % n % (n - 1) && s[i] == '.';
                RefPos p;
                ref_parse(&p, n, n - 1, rules, s);
                if (centre_empty + 2 > 12 || centre_empty < 5 || ref_status(&p) != REF_ONGOING) continue;
                tried++;
                /* And the same centre with the filled ends' symbols changed (the three other
                 * configurations of u1, u2), one after the other: each its own game, never
                 * another's table. */
                int u[2], a, b, line[VR_SMALL_MAX];
                for (int j = 0; j < 2; j++) tc_pair_line(n, half[j], &a, &b, line), u[j] = s[a] != '.' ? a : b;
                for (int flip = 0; flip < 4; flip++) {
                    char f[65];
                    strcpy(f, s);
                    for (int j = 0; j < 2; j++)
                        if (flip >> j & 1) f[u[j]] = f[u[j]] == 'X' ? 'O' : 'X';
                    ref_parse(&p, n, n - 1, rules, f);
                    if (ref_status(&p) != REF_ONGOING) continue;
                    VerifyResult r;
                    int rc = lemma_cert(n, rules, f, &rng, &r), want = ext_ref(n, rules, f, false);
                    cr_assert_eq(rc == 0, want, "n=%d rules %d %s: the extended game is a%s win here; %s", n, rules, f,
                                 want ? "n Order" : " Chaos", rc ? r.error : "valid");
                    held += rc == 0 && !flip;
                }
            }
            cr_log_info("two half pairs, more empty cells, n=%d rules %d: %d positions, %d accepted", n, rules, tried,
                        held);
            cr_assert(tried == 100 && held > 0 && (n == 5 || held < tried), "n=%d rules %d: tried %d, held %d", n,
                      rules, tried, held);
        }
}
