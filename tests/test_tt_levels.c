/* test_tt_levels.c - the transposition table's two levels (tt.h), forced
 * small by tt_init_levels: a hot level of one or a few buckets evicts all
 * the time, so promotion, the big level's probes and its copies back are
 * exercised in every test; the sizes that pick one or two levels, the
 * sampled probes of a big level, two threads, and solves on two-level
 * tables against the brute force and a one-level table. One level:
 * test_tt.c; what both share: ttab.h. */
#include <criterion/criterion.h>

#include "../solver/alphabeta.h"
#include "../solver/dfpn.h"
#include "../tables/tt.h"
#include "testlib.h"
#include "ttab.h"

/* A one-bucket hot level over a big level of `big` buckets. */
static void two_levels(TT *t, size_t big, bool shared)
{
    cr_assert_eq(tt_init_levels(t, (1 + big) * sizeof(TTBucket), shared, sizeof(TTBucket)), 0);
    cr_assert_eq(t->nbuckets, 1);
    cr_assert_eq(t->nbig, big);
    cr_assert_eq(tt_capacity(t), (1 + big) * TT_BUCKET_ENTRIES);
}

Test(tt_levels, sizes_pick_one_or_two_levels)
{
    TT t;
    cr_assert_eq(tt_init(&t, TT_ONE_LEVEL_MAX, false), 0);
    cr_expect(t.big == NULL && t.nbig == 0 && t.nbuckets == TT_ONE_LEVEL_MAX / sizeof(TTBucket));
    tt_free(&t);
    cr_assert_eq(tt_init_levels(&t, 1 << 20, false, 0), 0);
    cr_expect(t.big == NULL && t.nbuckets == (1 << 20) / sizeof(TTBucket));
    tt_free(&t);
    cr_assert_eq(tt_init_levels(&t, 1 << 20, false, 1 << 20), 0);
    cr_expect(t.big == NULL);
    tt_free(&t);
    cr_assert_eq(tt_init_levels(&t, (1 << 20) + 100, false, 64 << 10), 0);
    cr_expect_eq(t.nbuckets, (64 << 10) / sizeof(TTBucket));
    cr_expect_eq((t.nbuckets + t.nbig) * sizeof(TTBucket), 1 << 20, "both levels are the requested size");
    cr_expect_eq(tt_permille(&t), 0);
    tt_free(&t);
}

/* Many keys through a one-bucket hot level: every hit is its own key's
 * data, keys never stored never hit, and far more keys are found than the
 * hot level holds. */
Test(tt_levels, two_levels_return_only_exact_keys)
{
    TT t;
    two_levels(&t, 64, false);
    uint64_t rng = 5;
    enum { N = 3000 };
    static Board keys[N];
    for (int i = 0; i < N; i++) {
        keys[i] = ttab_random_board(&rng);
        TTData d = ttab_data_for(keys[i], TT_BIG_WORK + (uint32_t)tl_below(&rng, 1000));
        tt_store(&t, keys[i], &d);
    }
    int hits = 0;
    for (int i = 0; i < N; i++) {
        TTData got;
        if (!tt_probe(&t, keys[i], &got)) continue;
        hits++;
        ttab_expect_data(got, ttab_data_for(keys[i], got.work));
    }
    cr_expect_gt(hits, 4 * TT_BUCKET_ENTRIES, "the big level answered few probes: %d", hits);
    cr_expect_leq((size_t)hits, tt_capacity(&t));
    for (int i = 0; i < 3000; i++) {
        Board b = i == 0 ? board_empty() : ttab_random_board(&rng);
        int stored = 0;
        for (int j = 0; j < N; j++) stored |= board_equal(b, keys[j]);
        TTData got;
        if (!stored) cr_assert(!tt_probe(&t, b, &got));
    }
    cr_expect_gt(tt_permille(&t), 900);
    tt_clear(&t);
    cr_expect_eq(tt_permille(&t), 0);
    for (int i = 0; i < N; i++) {
        TTData got;
        cr_assert(!tt_probe(&t, keys[i], &got), "cleared, yet found");
    }
    tt_free(&t);
}

/* Fills the one hot bucket with four keys of more work than any test key,
 * so that whatever the hot level held is evicted. */
static void flush_hot(TT *t, uint32_t salt)
{
    for (uint32_t i = 0; i < TT_BUCKET_ENTRIES; i++) {
        Board f = {{(uint64_t)(i + 1) << 20, (uint64_t)(salt + 1) << 30}};
        TTData d = ttab_data_for(f, 1000000 + salt);
        tt_store(t, f, &d);
    }
}

/* The big level holds an entry only where the hot level put it. */
static bool in_big(const TT *t, Board k, TTData *out)
{
    for (size_t i = t->nbuckets * TT_BUCKET_ENTRIES; i < tt_capacity(t); i++) {
        Board key;
        if (tt_entry(t, i, &key, out) && board_equal(key, k)) return true;
    }
    return false;
}

Test(tt_levels, evicted_entries_with_work_are_found_in_the_big_level)
{
    TT t;
    two_levels(&t, 8, false);
    Board k = {{0x5, 0x30}}, cheap = {{0x6, 0x30}};
    TTData d = ttab_data_for(k, TT_BIG_WORK), c = ttab_data_for(cheap, TT_BIG_WORK - 1), got;
    tt_store(&t, k, &d);
    tt_store(&t, cheap, &c);
    flush_hot(&t, 1);
    cr_assert(in_big(&t, k, &got), "not promoted");
    cr_assert(!in_big(&t, cheap, &got), "work below TT_BIG_WORK was promoted");
    cr_assert(tt_probe(&t, k, &got), "an entry the hot level evicted is lost");
    ttab_expect_data(got, d);
    cr_expect(!tt_probe(&t, cheap, &got));
    /* Copied back into the hot level: found there after the big level
     * lost it. */
    memset(t.big, 0, t.nbig * sizeof(TTBucket));
    cr_assert(tt_probe(&t, k, &got), "the big level's hit was not copied into the hot level");
    ttab_expect_data(got, d);
    tt_free(&t);
}

/* A guess never replaces a proof, whichever level either is in: a proof
 * evicted into the big level survives a guess promoted after it, and a
 * proof promoted over a guess replaces it. */
Test(tt_levels, guess_never_overwrites_a_proof_across_levels)
{
    TT t;
    two_levels(&t, 8, false);
    Board k = {{0x5, 0x30}};
    TTData proof = {0, UINT32_MAX, 500, 7}, guess = {3, 4, 900, MOVE_NONE}, got;
    tt_store(&t, k, &proof);
    flush_hot(&t, 1);
    cr_assert(in_big(&t, k, &got) && got.pn == 0);
    /* The hot level no longer has k: a guess lands there, then goes to the
     * big level too. */
    tt_store(&t, k, &guess);
    flush_hot(&t, 2);
    cr_assert(in_big(&t, k, &got));
    cr_expect(got.pn == 0 && got.move == 7, "a promoted guess replaced the big level's proof");
    cr_assert(tt_probe(&t, k, &got));
    cr_expect(got.pn == 0 && got.dn == UINT32_MAX && got.move == 7, "the probe lost the proof");
    /* The other way round: a guess in the big level, a disproof promoted
     * over it. */
    Board k2 = {{0x6, 0x30}};
    TTData disproof = {UINT32_MAX, 0, 600, 9};
    tt_store(&t, k2, &guess);
    flush_hot(&t, 3);
    cr_assert(in_big(&t, k2, &got) && got.pn == 3);
    tt_store(&t, k2, &disproof);
    flush_hot(&t, 4);
    cr_assert(in_big(&t, k2, &got));
    cr_expect(got.dn == 0 && got.move == 9, "the disproof did not replace the guess");
    tt_free(&t);
}

/* Depth bounds merge in the big level too. */
Test(tt_levels, depth_bounds_merge_across_levels)
{
    TT t;
    two_levels(&t, 8, false);
    Board k = {{0x5, 0x30}};
    tt_store_bounds(&t, k, &(TTBounds){.win = 9, .nowin = 0, .work = 100, .move = 3});
    flush_hot(&t, 1);
    tt_store_bounds(&t, k, &(TTBounds){.win = TT_NO_WIN, .nowin = 4, .work = 50, .move = MOVE_NONE});
    flush_hot(&t, 2);
    TTBounds got = ttab_bounds_of(&t, k);
    cr_expect(got.win == 9 && got.nowin == 4 && got.work == 100 && got.move == 3, "not merged: %u %u %u %u", got.win,
              got.nowin, got.work, got.move);
    tt_free(&t);
}

Test(tt_levels, two_levels_under_two_threads)
{
    TT t;
    cr_assert_eq(tt_init_levels(&t, 64 << 10, true, 4 * sizeof(TTBucket)), 0);
    cr_expect_gt(ttab_two_workers(&t, 0), 1000);
    tt_free(&t);
    cr_assert_eq(tt_init_levels(&t, 2 * sizeof(TTBucket), true, sizeof(TTBucket)), 0);
    cr_expect_gt(ttab_two_workers(&t, 6), 1000);
    tt_free(&t);
}

/* A random board of exactly `pieces` pieces. */
static Board board_of(uint64_t *rng, int pieces)
{
    Board b = {{0, 0}};
    for (int placed = 0; placed < pieces;) {
        int cell = tl_below(rng, 36), side = tl_below(rng, 2);
        uint64_t bit = 1ULL << (cell / 6 * 8 + cell % 6);
        if ((b.s[0] | b.s[1]) & bit) continue;
        b.s[side] |= bit;
        placed++;
    }
    return b;
}

/* A big level over TT_HOT_BYTES is probed by the sampled rule (tt.h):
 * where it holds the keys (10 pieces), the samples soon make every key
 * look, and all are found; where it holds none (12 pieces), only the
 * sampled keys look, and nothing wrong is ever found. */
Test(tt_levels, big_level_probed_where_it_pays)
{
    TT t;
    cr_assert_eq(tt_init_levels(&t, 2 * TT_HOT_BYTES + sizeof(TTBucket), false, sizeof(TTBucket)), 0);
    cr_assert_gt(t.nbig * sizeof(TTBucket), TT_HOT_BYTES);
    uint64_t rng = 9;
    enum { N = 40000 };
    static Board keys[N];
    for (int i = 0; i < N; i++) {
        keys[i] = board_of(&rng, 10);
        TTData d = ttab_data_for(keys[i], TT_BIG_WORK + (uint32_t)i);
        tt_store(&t, keys[i], &d);
    }
    int found[2] = {0, 0};
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < N; i++) {
            TTData got;
            if (!tt_probe(&t, keys[i], &got)) continue;
            found[pass]++;
            ttab_expect_data(got, ttab_data_for(keys[i], got.work));
        }
    cr_expect_gt(t.pays[10].probes, 16);
    cr_expect_eq(t.pays[10].hits, t.pays[10].probes, "a stored key was not found");
    cr_expect_gt(found[1], N - N / 100, "the big level was not probed where it pays: %d of %d", found[1], N);
    for (int i = 0; i < N; i++) {
        TTData got;
        cr_assert(!tt_probe(&t, board_of(&rng, 12), &got));
    }
    cr_expect_gt(t.pays[12].probes, 0);
    cr_expect_eq(t.pays[12].hits, 0);
    tt_free(&t);
}

/* Solves with two-level tables whose hot level is one bucket (so that
 * most records live in the big level) agree on values (node counts need
 * not): with the brute force on positions of 9-12 empty cells (df-pn on
 * one and two threads, alpha-beta's distance to win), with a one-level
 * table on harder ones of 18-23 (the brute force would take too long). */
static Winner dfpn_value(const Rules *r, TT *tt, Board b, int threads)
{
    DfpnConfig cfg = dfpn_default_config();
    Dfpn d;
    dfpn_init(&d, r, &cfg, tt);
    d.threads = threads;
    uint32_t pn, dn;
    return dfpn_solve(&d, b, &pn, &dn);
}

Test(tt_levels, solves_with_two_levels_agree, .timeout = 600)
{
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    int checked = 0;
    size_t in_two = 0;
    for (int rs = 0; rs < 3; rs++) {
        Rules r;
        char err[128];
        cr_assert_eq(rules_init(&r, 6, 5, tl_rules(rs), err, sizeof err), 0, "%s", err);
        TT one, two, shared, ab;
        cr_assert_eq(tt_init(&one, 8 << 20, false), 0);
        cr_assert_eq(tt_init_levels(&two, 4 << 20, false, sizeof(TTBucket)), 0);
        cr_assert_eq(tt_init_levels(&shared, 4 << 20, true, sizeof(TTBucket)), 0);
        cr_assert_eq(tt_init_levels(&ab, 4 << 20, false, sizeof(TTBucket)), 0);
        uint64_t rng = 77 + (uint64_t)rs;
        for (int i = 0; i < 24; i++) {
            int empties = i < 8 ? 9 + i % 4 : 18 + i % 6;
            RefPos p;
            if (tl_random_ongoing(&p, 6, 5, rs, 36 - empties, &rng) != 0) continue;
            Board b = tl_board(&p);
            char s[65];
            ref_format(&p, s);
            bool brute = empties <= 12; /* more would take the brute force minutes */
            Winner want = dfpn_value(&r, &one, b, 1);
            int dtw = brute ? brute_dtw(memo, &p) : 0;
            if (brute) cr_expect_eq(want, dtw >= 0 ? WINNER_ORDER : WINNER_CHAOS, "one level %s", s);
            cr_expect_eq(dfpn_value(&r, &two, b, 1), want, "two levels %s rules %d", s, rs);
            cr_expect_eq(dfpn_value(&r, &shared, b, 2), want, "two levels, two threads %s rules %d", s, rs);
            if (brute) {
                DfpnConfig cfg = dfpn_default_config();
                AlphaBeta a;
                ab_init(&a, &r, &cfg.kn, &ab);
                cr_expect_eq(ab_dtw(&a, b), dtw, "alpha-beta dtw, two levels, %s rules %d", s, rs);
            }
            checked++;
        }
        /* The big levels were used. */
        TTData got;
        Board key;
        for (size_t i = two.nbuckets * TT_BUCKET_ENTRIES; i < tt_capacity(&two); i++)
            in_two += tt_entry(&two, i, &key, &got);
        tt_free(&one);
        tt_free(&two);
        tt_free(&shared);
        tt_free(&ab);
    }
    cr_expect_geq(checked, 60);
    cr_expect_gt(in_two, 200, "the big levels hold only %zu entries", in_two);
    brute_free(memo);
}
