/* test_tt.c - the transposition table returns only exact matches, replaces
 * by work, and keeps its size; a tiny table forces every key into one
 * bucket, which is the worst case of hash collisions. Two-level tables
 * (tt.h) are forced small by tt_init_levels: a hot level of one or a few
 * buckets evicts all the time, so promotion, the big level's probes and
 * its copies back are exercised in every test. */
#include <criterion/criterion.h>
#include <pthread.h>

#include "../solver/alphabeta.h"
#include "../solver/dfpn.h"
#include "../tables/tt.h"
#include "testlib.h"

static Board random_board(uint64_t *rng)
{
    uint64_t cells = board_mask(6), x = tl_rand(rng) & cells, o = tl_rand(rng) & cells & ~x;
    return (Board){{x, o}};
}

/* Data that only this key with this work would carry: a read that mixed
 * two entries, or two stores of one key, shows as a mismatch. */
static TTData data_for(Board b, uint32_t work)
{
    uint64_t h = (b.s[0] * 0x9E3779B97F4A7C15ULL ^ b.s[1] * 0xC2B2AE3D27D4EB4FULL) + work * 0x165667B19E3779F9ULL;
    return (TTData){(uint32_t)h, (uint32_t)(h >> 32), work, (Move)(h & 63)};
}

static void expect_data(TTData got, TTData want)
{
    cr_assert_eq(got.pn, want.pn);
    cr_assert_eq(got.dn, want.dn);
    cr_assert_eq(got.work, want.work);
    cr_assert_eq(got.move, want.move);
}

Test(tt, one_bucket_never_returns_another_position)
{
    TT t;
    cr_assert_eq(tt_init(&t, 1, false), 0);
    cr_assert_eq(tt_capacity(&t), TT_BUCKET_ENTRIES);
    uint64_t rng = 3;
    enum { N = 400 };
    Board keys[N];
    for (int i = 0; i < N; i++) {
        keys[i] = random_board(&rng);
        TTData d = data_for(keys[i], (uint32_t)tl_below(&rng, 1000));
        tt_store(&t, keys[i], &d);
        int hits = 0;
        for (int j = 0; j <= i; j++) {
            TTData got;
            if (!tt_probe(&t, keys[j], &got)) continue;
            hits++;
            TTData want = data_for(keys[j], got.work);
            expect_data(got, want);
        }
        cr_assert_leq(hits, TT_BUCKET_ENTRIES);
        TTData got;
        cr_assert(tt_probe(&t, keys[i], &got), "the entry just stored is gone");
        cr_assert_eq(got.work, d.work);
    }
    /* Keys never stored never hit, empty board included (all-zero key). */
    for (int i = 0; i < 1000; i++) {
        Board b = i == 0 ? board_empty() : random_board(&rng);
        int stored = 0;
        for (int j = 0; j < N; j++) stored |= board_equal(b, keys[j]);
        TTData got;
        if (!stored) cr_assert(!tt_probe(&t, b, &got));
    }
    tt_free(&t);
}

Test(tt, colour_swapped_key_is_another_key)
{
    TT t;
    cr_assert_eq(tt_init(&t, 1, false), 0);
    Board a = {{0x5, 0x30}}, b = {{0x30, 0x5}};
    TTData d = data_for(a, 7);
    tt_store(&t, a, &d);
    TTData got;
    cr_expect(!tt_probe(&t, b, &got));
    cr_expect(tt_probe(&t, a, &got));
    tt_free(&t);
}

Test(tt, replacement_evicts_least_work_and_same_key_overwrites)
{
    TT t;
    cr_assert_eq(tt_init(&t, sizeof(TTBucket), false), 0);
    Board k[6];
    for (int i = 0; i < 6; i++) k[i] = (Board){{1ULL << i, 0}};
    uint32_t work[4] = {40, 10, 30, 20};
    for (int i = 0; i < 4; i++) {
        TTData d = data_for(k[i], work[i]);
        tt_store(&t, k[i], &d);
    }
    /* Same key again: overwritten in place, nobody evicted. */
    TTData d0 = data_for(k[0], 50);
    tt_store(&t, k[0], &d0);
    TTData got;
    for (int i = 0; i < 4; i++) cr_assert(tt_probe(&t, k[i], &got), "%d lost", i);
    cr_expect_eq((tt_probe(&t, k[0], &got), got.work), 50);
    /* A new key evicts the least work (k[1], 10). */
    TTData d4 = data_for(k[4], 25);
    tt_store(&t, k[4], &d4);
    cr_expect(!tt_probe(&t, k[1], &got));
    cr_expect(tt_probe(&t, k[0], &got) && tt_probe(&t, k[2], &got) && tt_probe(&t, k[3], &got));
    cr_expect(tt_probe(&t, k[4], &got));
    tt_free(&t);
}

Test(tt, size_is_bounded_by_the_request)
{
    size_t sizes[] = {1, 127, 128, 1000, (size_t)1 << 20, ((size_t)3 << 20) + 5};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        TT t;
        cr_assert_eq(tt_init(&t, sizes[i], false), 0);
        size_t bytes = t.nbuckets * sizeof(TTBucket);
        if (sizes[i] >= sizeof(TTBucket)) {
            cr_expect_leq(bytes, sizes[i]);
            cr_expect_gt(bytes + sizeof(TTBucket), sizes[i]);
        } else {
            cr_expect_eq(t.nbuckets, 1);
        }
        cr_expect_eq(tt_permille(&t), 0);
        tt_free(&t);
    }
    cr_expect_eq(sizeof(TTBucket), 128);
}

Test(tt, many_keys_in_a_small_table)
{
    TT t;
    cr_assert_eq(tt_init(&t, 64 << 10, false), 0);
    uint64_t rng = 4;
    enum { N = 20000 };
    static Board keys[N];
    for (int i = 0; i < N; i++) {
        keys[i] = random_board(&rng);
        TTData d = data_for(keys[i], (uint32_t)i);
        tt_store(&t, keys[i], &d);
    }
    int hits = 0;
    for (int i = 0; i < N; i++) {
        TTData got;
        if (!tt_probe(&t, keys[i], &got)) continue;
        hits++;
        expect_data(got, data_for(keys[i], got.work));
    }
    cr_expect_leq((size_t)hits, tt_capacity(&t));
    cr_expect_gt(hits, (int)tt_capacity(&t) / 2);
    cr_expect_gt(tt_permille(&t), 900);
    tt_clear(&t);
    cr_expect_eq(tt_permille(&t), 0);
    tt_free(&t);
}

/* Two threads store and probe their own keys in a shared table whose
 * buckets they share; every hit must be that key's data. The TSan build of
 * later issues runs a program like this outside Criterion. */
typedef struct {
    TT *t;
    uint64_t seed;
    int nkeys; /* 0: random keys; else keys drawn from the first nkeys */
    int bad, hits;
} Worker;

static void *worker(void *arg)
{
    Worker *w = arg;
    uint64_t rng = w->seed;
    for (int i = 0; i < 200000; i++) {
        uint64_t few = (uint64_t)(i % (w->nkeys ? w->nkeys : 1)) + 1;
        Board b = w->nkeys ? (Board){{few, few << 40}} : random_board(&rng);
        TTData d = data_for(b, (uint32_t)i), got;
        tt_store(w->t, b, &d);
        if (tt_probe(w->t, b, &got)) {
            w->hits++;
            TTData want = data_for(b, got.work);
            w->bad += got.pn != want.pn || got.dn != want.dn || got.move != want.move;
        }
    }
    return NULL;
}

/* Two workers on t (nkeys as in Worker); returns their hits, and checks
 * that none was wrong. */
static int two_workers(TT *t, int nkeys)
{
    Worker w[2] = {{t, 1, nkeys, 0, 0}, {t, 2, nkeys, 0, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, worker, &w[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    cr_expect_eq(w[0].bad + w[1].bad, 0);
    return w[0].hits + w[1].hits;
}

Test(tt, shared_table_under_two_threads)
{
    TT t;
    cr_assert_eq(tt_init(&t, 16 << 10, true), 0);
    two_workers(&t, 0);
    tt_free(&t);
}

/* The hardest case for the bucket's sequence lock: one bucket, six keys
 * for four entries, both threads rewriting the same keys with new data
 * while probing them. */
Test(tt, one_bucket_rewritten_by_two_threads)
{
    TT t;
    cr_assert_eq(tt_init(&t, 1, true), 0);
    cr_assert_eq(t.nbuckets, 1);
    cr_expect_gt(two_workers(&t, 6), 1000);
    tt_free(&t);
}

/* --- depth-bound entries (alpha-beta) --- */

static TTBounds bounds_of(TT *t, Board k)
{
    TTBounds got = {0, 0, 0, 0};
    cr_assert(tt_probe_bounds(t, k, &got), "the depth-bound entry is gone");
    return got;
}

/* A win bound first, then a not-win bound for the same key: both kept.
 * (Under df-pn's rule {win 5, nowin 0} looks like a proof, dn = 0, and the
 * second store, with neither field zero, was dropped.) */
Test(tt, depth_entry_keeps_its_second_bound)
{
    TT t;
    cr_assert_eq(tt_init(&t, sizeof(TTBucket), false), 0);
    Board k = {{0x5, 0x30}};
    tt_store_bounds(&t, k, &(TTBounds){.win = 5, .nowin = 0, .work = 10, .move = MOVE_NONE});
    tt_store_bounds(&t, k, &(TTBounds){.win = TT_NO_WIN, .nowin = 3, .work = 4, .move = MOVE_NONE});
    TTBounds got = bounds_of(&t, k);
    cr_expect_eq(got.win, 5);
    cr_expect_eq(got.nowin, 3);
    /* And the other way round, on another key. */
    Board k2 = {{0x6, 0x30}};
    tt_store_bounds(&t, k2, &(TTBounds){.win = TT_NO_WIN, .nowin = 4, .work = 1, .move = MOVE_NONE});
    tt_store_bounds(&t, k2, &(TTBounds){.win = 9, .nowin = 0, .work = 1, .move = MOVE_NONE});
    got = bounds_of(&t, k2);
    cr_expect_eq(got.win, 9);
    cr_expect_eq(got.nowin, 4);
    tt_free(&t);
}

/* Stores merge: the least win, the greatest nowin, the greatest work, the
 * last move given; a weaker store weakens nothing. */
Test(tt, depth_entries_merge)
{
    TT t;
    cr_assert_eq(tt_init(&t, sizeof(TTBucket), false), 0);
    Board k = {{0x5, 0x30}};
    tt_store_bounds(&t, k, &(TTBounds){.win = 9, .nowin = 2, .work = 50, .move = 7});
    tt_store_bounds(&t, k, &(TTBounds){.win = 12, .nowin = 1, .work = 20, .move = MOVE_NONE});
    TTBounds got = bounds_of(&t, k);
    cr_expect(got.win == 9 && got.nowin == 2 && got.work == 50 && got.move == 7, "weakened: %u %u %u %u", got.win,
              got.nowin, got.work, got.move);
    tt_store_bounds(&t, k, &(TTBounds){.win = 7, .nowin = 4, .work = 60, .move = 3});
    got = bounds_of(&t, k);
    cr_expect(got.win == 7 && got.nowin == 4 && got.work == 60 && got.move == 3, "not merged: %u %u %u %u", got.win,
              got.nowin, got.work, got.move);
    tt_free(&t);
}

/* df-pn's rule is as it was: a proof or disproof is not replaced by
 * undecided numbers, but by another proof, and undecided numbers replace
 * undecided ones. */
Test(tt, proof_entry_keeps_a_proof)
{
    TT t;
    cr_assert_eq(tt_init(&t, sizeof(TTBucket), false), 0);
    Board k = {{0x5, 0x30}};
    TTData got;
    tt_store(&t, k, &(TTData){3, 4, 10, MOVE_NONE});
    tt_store(&t, k, &(TTData){5, 6, 11, MOVE_NONE});
    cr_expect(tt_probe(&t, k, &got) && got.pn == 5 && got.dn == 6);
    tt_store(&t, k, &(TTData){0, UINT32_MAX, 12, 9});
    tt_store(&t, k, &(TTData){7, 8, 13, MOVE_NONE});
    cr_expect(tt_probe(&t, k, &got) && got.pn == 0 && got.move == 9, "a proof was replaced by a guess");
    tt_store(&t, k, &(TTData){UINT32_MAX, 0, 14, MOVE_NONE});
    cr_expect(tt_probe(&t, k, &got) && got.dn == 0 && got.work == 14);
    tt_free(&t);
}

/* The two kinds never see each other, even for one key in one bucket; the
 * table's listing (checkpoints) holds the proof-number entries only. */
Test(tt, kinds_are_apart)
{
    TT t;
    cr_assert_eq(tt_init(&t, sizeof(TTBucket), false), 0);
    Board k = {{0x5, 0x30}}, k2 = {{0x6, 0x30}};
    tt_store(&t, k, &(TTData){0, 5, 10, 1});
    TTBounds gb;
    TTData gd;
    cr_expect(!tt_probe_bounds(&t, k, &gb));
    tt_store_bounds(&t, k, &(TTBounds){.win = 4, .nowin = 0, .work = 1, .move = MOVE_NONE});
    tt_store_bounds(&t, k2, &(TTBounds){.win = 4, .nowin = 2, .work = 1, .move = MOVE_NONE});
    cr_expect(!tt_probe(&t, k2, &gd));
    cr_expect(tt_probe(&t, k, &gd) && gd.pn == 0 && gd.dn == 5 && gd.move == 1);
    gb = bounds_of(&t, k);
    cr_expect(gb.win == 4 && gb.nowin == 0);
    int listed = 0;
    for (size_t i = 0; i < tt_capacity(&t); i++) {
        Board key;
        if (!tt_entry(&t, i, &key, &gd)) continue;
        listed++;
        cr_expect(board_equal(key, k) && gd.pn == 0);
    }
    cr_expect_eq(listed, 1);
    cr_expect_eq(tt_permille(&t), 750);
    tt_free(&t);
}

/* Two threads merge facts about one key in a shared one-bucket table: one
 * lowers the win bound, the other raises the not-win bound, while a
 * churn of other keys competes for the other entries. Nothing is lost: the
 * key has the most work, so it is never evicted. */
typedef struct {
    TT *t;
    int side;
} BoundsWorker;

static void *bounds_worker(void *arg)
{
    BoundsWorker *w = arg;
    Board k = {{0x5, 0x30}};
    for (uint32_t i = 0; i < 100000; i++) {
        TTBounds d = w->side ? (TTBounds){TT_NO_WIN, i / 2, 1000000, MOVE_NONE}
                             : (TTBounds){200000 - i, 0, 1000000, MOVE_NONE};
        tt_store_bounds(w->t, k, &d);
        Board other = {{(uint64_t)(i % 3 + 1) << (8 * w->side + 16), 0}};
        tt_store_bounds(w->t, other, &(TTBounds){TT_NO_WIN, i, 1, MOVE_NONE});
        TTBounds got;
        if (!tt_probe_bounds(w->t, k, &got) || got.nowin >= got.win) return (void *)1;
    }
    return NULL;
}

Test(tt, depth_bounds_merge_under_two_threads)
{
    TT t;
    cr_assert_eq(tt_init(&t, 1, true), 0);
    BoundsWorker w[2] = {{&t, 0}, {&t, 1}};
    pthread_t th[2];
    void *bad[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, bounds_worker, &w[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], &bad[i]);
    cr_expect(bad[0] == NULL && bad[1] == NULL, "a probe lost the key or saw crossed bounds");
    TTBounds got = bounds_of(&t, (Board){{0x5, 0x30}});
    cr_expect_eq(got.win, 100001);
    cr_expect_eq(got.nowin, 49999);
    tt_free(&t);
}

/* --- two levels --- */

/* A one-bucket hot level over a big level of `big` buckets. */
static void two_levels(TT *t, size_t big, bool shared)
{
    cr_assert_eq(tt_init_levels(t, (1 + big) * sizeof(TTBucket), shared, sizeof(TTBucket)), 0);
    cr_assert_eq(t->nbuckets, 1);
    cr_assert_eq(t->nbig, big);
    cr_assert_eq(tt_capacity(t), (1 + big) * TT_BUCKET_ENTRIES);
}

Test(tt, sizes_pick_one_or_two_levels)
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
Test(tt, two_levels_return_only_exact_keys)
{
    TT t;
    two_levels(&t, 64, false);
    uint64_t rng = 5;
    enum { N = 3000 };
    static Board keys[N];
    for (int i = 0; i < N; i++) {
        keys[i] = random_board(&rng);
        TTData d = data_for(keys[i], TT_BIG_WORK + (uint32_t)tl_below(&rng, 1000));
        tt_store(&t, keys[i], &d);
    }
    int hits = 0;
    for (int i = 0; i < N; i++) {
        TTData got;
        if (!tt_probe(&t, keys[i], &got)) continue;
        hits++;
        expect_data(got, data_for(keys[i], got.work));
    }
    cr_expect_gt(hits, 4 * TT_BUCKET_ENTRIES, "the big level answered few probes: %d", hits);
    cr_expect_leq((size_t)hits, tt_capacity(&t));
    for (int i = 0; i < 3000; i++) {
        Board b = i == 0 ? board_empty() : random_board(&rng);
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
        TTData d = data_for(f, 1000000 + salt);
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

Test(tt, evicted_entries_with_work_are_found_in_the_big_level)
{
    TT t;
    two_levels(&t, 8, false);
    Board k = {{0x5, 0x30}}, cheap = {{0x6, 0x30}};
    TTData d = data_for(k, TT_BIG_WORK), c = data_for(cheap, TT_BIG_WORK - 1), got;
    tt_store(&t, k, &d);
    tt_store(&t, cheap, &c);
    flush_hot(&t, 1);
    cr_assert(in_big(&t, k, &got), "not promoted");
    cr_assert(!in_big(&t, cheap, &got), "work below TT_BIG_WORK was promoted");
    cr_assert(tt_probe(&t, k, &got), "an entry the hot level evicted is lost");
    expect_data(got, d);
    cr_expect(!tt_probe(&t, cheap, &got));
    /* Copied back into the hot level: found there after the big level
     * lost it. */
    memset(t.big, 0, t.nbig * sizeof(TTBucket));
    cr_assert(tt_probe(&t, k, &got), "the big level's hit was not copied into the hot level");
    expect_data(got, d);
    tt_free(&t);
}

/* A guess never replaces a proof, whichever level either is in: a proof
 * evicted into the big level survives a guess promoted after it, and a
 * proof promoted over a guess replaces it. */
Test(tt, guess_never_overwrites_a_proof_across_levels)
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
Test(tt, depth_bounds_merge_across_levels)
{
    TT t;
    two_levels(&t, 8, false);
    Board k = {{0x5, 0x30}};
    tt_store_bounds(&t, k, &(TTBounds){.win = 9, .nowin = 0, .work = 100, .move = 3});
    flush_hot(&t, 1);
    tt_store_bounds(&t, k, &(TTBounds){.win = TT_NO_WIN, .nowin = 4, .work = 50, .move = MOVE_NONE});
    flush_hot(&t, 2);
    TTBounds got = bounds_of(&t, k);
    cr_expect(got.win == 9 && got.nowin == 4 && got.work == 100 && got.move == 3, "not merged: %u %u %u %u", got.win,
              got.nowin, got.work, got.move);
    tt_free(&t);
}

Test(tt, two_levels_under_two_threads)
{
    TT t;
    cr_assert_eq(tt_init_levels(&t, 64 << 10, true, 4 * sizeof(TTBucket)), 0);
    cr_expect_gt(two_workers(&t, 0), 1000);
    tt_free(&t);
    cr_assert_eq(tt_init_levels(&t, 2 * sizeof(TTBucket), true, sizeof(TTBucket)), 0);
    cr_expect_gt(two_workers(&t, 6), 1000);
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
Test(tt, big_level_probed_where_it_pays)
{
    TT t;
    cr_assert_eq(tt_init_levels(&t, 2 * TT_HOT_BYTES + sizeof(TTBucket), false, sizeof(TTBucket)), 0);
    cr_assert_gt(t.nbig * sizeof(TTBucket), TT_HOT_BYTES);
    uint64_t rng = 9;
    enum { N = 40000 };
    static Board keys[N];
    for (int i = 0; i < N; i++) {
        keys[i] = board_of(&rng, 10);
        TTData d = data_for(keys[i], TT_BIG_WORK + (uint32_t)i);
        tt_store(&t, keys[i], &d);
    }
    int found[2] = {0, 0};
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < N; i++) {
            TTData got;
            if (!tt_probe(&t, keys[i], &got)) continue;
            found[pass]++;
            expect_data(got, data_for(keys[i], got.work));
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

Test(tt, solves_with_two_levels_agree, .timeout = 600)
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
