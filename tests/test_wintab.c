/* test_wintab.c - the side table of proven Order moves (tables/wintab.h):
 * it returns a move only for the exact position stored, keeps the latest
 * stores of a full bucket, and holds together under threads; and the
 * certificates written with it (solver/dfpn.c reads it, dfpn_search.c
 * fills it) verify by the independent verifier and carry the brute
 * force's value, with a table big enough to spare the writer its searches
 * and with one forced to overflow (the writer then searches again, as
 * without it). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../solver/dfpn.h"
#include "../solver/proof.h"
#include "../tables/wintab.h"
#include "../verify/verify.h"
#include "brute.h"
#include "testlib.h"

static Board random_board(uint64_t *rng)
{
    uint64_t cells = board_mask(6), x = tl_rand(rng) & cells, o = tl_rand(rng) & cells & ~x;
    return (Board){{x, o}};
}

/* The move only this key would carry (never MOVE_NONE). */
static Move move_for(Board b)
{
    uint64_t h = b.s[0] * 0x9E3779B97F4A7C15ULL ^ b.s[1] * 0xC2B2AE3D27D4EB4FULL;
    return (Move)(h >> 58 | (h & 1) << 6);
}

Test(wintab, one_bucket_keeps_the_latest_exact_keys)
{
    WinTab t;
    cr_assert_eq(wintab_init(&t, 1, false), 0);
    cr_assert_eq(wintab_capacity(&t), WINTAB_WAYS);
    uint64_t rng = 7;
    enum { N = 300 };
    Board keys[N];
    for (int i = 0; i < N; i++) {
        keys[i] = random_board(&rng);
        wintab_put(&t, keys[i], move_for(keys[i]));
        int hits = 0;
        for (int j = 0; j <= i; j++) {
            Move m = wintab_get(&t, keys[j]);
            if (m == MOVE_NONE) continue;
            hits++;
            cr_assert_eq(m, move_for(keys[j]), "another position's move returned");
            cr_assert_geq(j, i - (WINTAB_WAYS - 1), "key %d of %d kept over a later one", j, i);
        }
        cr_assert_eq(hits, i < WINTAB_WAYS ? i + 1 : WINTAB_WAYS);
        /* One cell more, or the symbols swapped: another position, no hit. */
        Board near = keys[i];
        near.s[1] ^= 1ULL << 45 & ~near.s[0];
        if (!board_equal(near, keys[i])) cr_assert_eq(wintab_get(&t, near), MOVE_NONE);
        Board swapped = {{keys[i].s[1], keys[i].s[0]}};
        if (!board_equal(swapped, keys[i]) && wintab_get(&t, swapped) != MOVE_NONE)
            cr_assert(board_equal(swapped, keys[i - 1]) || board_equal(swapped, keys[i - 2]));
    }
    /* A second store of a key replaces its move, in place. */
    wintab_put(&t, keys[N - 1], 5);
    cr_assert_eq(wintab_get(&t, keys[N - 1]), 5);
    cr_assert_eq(wintab_get(&t, keys[N - 2]), move_for(keys[N - 2]));
    cr_assert_eq(wintab_get(&t, keys[N - 3]), move_for(keys[N - 3]));
    wintab_free(&t);
}

typedef struct {
    WinTab *t;
    uint64_t seed;
    int bad, hits;
} Worker;

/* Stores keys of its own and reads back every key any worker stores:
 * a hit must carry that key's move, never a mix of two stores. */
static void *hammer(void *arg)
{
    Worker *w = arg;
    uint64_t rng = w->seed;
    for (int i = 0; i < 200000; i++) {
        Board b = random_board(&rng);
        wintab_put(w->t, b, move_for(b));
        uint64_t r2 = (uint64_t)i % 64 + 1; /* a small common set, so the workers meet */
        Board c = random_board(&r2);
        wintab_put(w->t, c, move_for(c));
        Move m = wintab_get(w->t, c);
        if (m != MOVE_NONE) w->hits++;
        if (m != MOVE_NONE && m != move_for(c)) w->bad++;
    }
    return NULL;
}

Test(wintab, threads_never_read_half_a_store)
{
    WinTab t;
    cr_assert_eq(wintab_init(&t, 4 * sizeof(WinBucket), true), 0);
    Worker w[3] = {{&t, 1, 0, 0}, {&t, 2, 0, 0}, {&t, 3, 0, 0}};
    pthread_t th[3];
    for (int i = 0; i < 3; i++) cr_assert_eq(pthread_create(&th[i], NULL, hammer, &w[i]), 0);
    for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(w[i].bad, 0, "worker %d read a move that is not its key's", i);
        cr_expect_gt(w[i].hits, 0);
    }
    wintab_free(&t);
}

typedef struct {
    Rules r;
    DfpnConfig cfg;
    TT tt;
    BruteMemo *memo;
} Setup;

static void setup_open(Setup *s, int rs)
{
    char err[128];
    cr_assert_eq(rules_init(&s->r, 6, 5, tl_rules(rs), err, sizeof err), 0, "%s", err);
    cr_assert_eq(tt_init(&s->tt, 1 << 20, false), 0);
    s->cfg = dfpn_default_config();
    s->memo = brute_new();
    cr_assert(s->memo);
}

static void setup_close(Setup *s)
{
    tt_free(&s->tt);
    brute_free(s->memo);
}

/* Solves p from an empty table with side table wins (NULL: none), empties
 * the table (as if the search had lost every entry: the writer finds
 * moves only by the threat search, the side table, or a search again),
 * writes p's certificate and checks it: valid by the verifier, the brute
 * force's value. Adds the writer's move sources to *st. */
static void certify(Setup *s, RefPos *p, WinTab *wins, DfpnMoveStats *st)
{
    tt_clear(&s->tt);
    Dfpn d;
    dfpn_init(&d, &s->r, &s->cfg, &s->tt);
    d.wins = wins;
    Board root = tl_board(p);
    uint32_t pn, dn;
    Winner v = dfpn_solve(&d, root, &pn, &dn);
    cr_assert_neq(v, WINNER_NONE);
    tt_clear(&s->tt);
    char *text = NULL, err[200], pos[65];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ProofStats ps;
    cr_assert_eq(proof_write(f, &d, root, v, 0, &ps, err, sizeof err), 0, "%s", err);
    fclose(f);
    ref_format(p, pos);
    VerifyExpect e = {p->n, p->k, p->rules, 0, pos};
    VerifyResult res;
    cr_expect_eq(verify_text_ex(text, &e, &res), VERIFY_VALID, "%s: %s", pos, res.error);
    cr_expect_eq(v == WINNER_ORDER, brute_order_wins(s->memo, p), "%s: df-pn %d, brute force", pos, v);
    free(text);
    st->threat += d.moves.threat;
    st->side += d.moves.side;
    st->stored += d.moves.stored;
    st->known += d.moves.known;
    st->searched += d.moves.searched;
}

/* Order-win positions with 11-13 empty cells, under each rule set,
 * certified three ways: with no side table, with one big enough for the
 * whole search, and with one bucket (three entries, overflowing at
 * once). Every certificate verifies and carries the brute force's value;
 * the big side table gives moves and spares the writer its other sources
 * (the table its searches refill, and the searches themselves); the one
 * bucket spares less. */
Test(wintab, certificates_with_the_side_table, .timeout = 600)
{
    DfpnMoveStats none = {0}, big = {0}, tiny = {0};
    WinTab wt, one;
    cr_assert_eq(wintab_init(&wt, 1 << 20, false), 0);
    cr_assert_eq(wintab_init(&one, 1, false), 0);
    int written = 0;
    for (int rs = 0; rs < 3; rs++) {
        Setup s;
        setup_open(&s, rs);
        uint64_t rng = 4100 + (uint64_t)rs;
        /* Not scaled down under the sanitizers: 3 positions a rule set left
         * the emptied table needing no search, so nothing was tested. */
        for (int t = 0; t < 12; t++) {
            RefPos p;
            if (tl_random_ongoing(&p, 6, 5, rs, 36 - (11 + t % 3), &rng) != 0) continue;
            if (!brute_order_wins(s.memo, &p)) continue;
            certify(&s, &p, NULL, &none);
            certify(&s, &p, &wt, &big);
            certify(&s, &p, &one, &tiny);
            written++;
        }
        setup_close(&s);
    }
    cr_assert_geq(written, 8, "too few Order wins certified");
    /* The moves the writer had to find in the table it refilled by its
     * searches, or by a search: what the side table is there to spare. */
    uint64_t rest_none = none.stored + none.known + none.searched, rest_big = big.stored + big.known + big.searched,
             rest_tiny = tiny.stored + tiny.known + tiny.searched;
    cr_expect_eq(none.side, 0);
    cr_expect_gt(none.searched, 0, "the emptied table needed no search: no test of the side table");
    cr_expect_gt(big.side, 0, "the side table gave no move");
    cr_expect_lt(rest_big, rest_none, "the side table spared nothing (%llu, without %llu)",
                 (unsigned long long)rest_big, (unsigned long long)rest_none);
    cr_expect_gt(rest_tiny, rest_big, "one bucket spared as much as a big table");
    wintab_free(&wt);
    wintab_free(&one);
}
