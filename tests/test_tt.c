/* test_tt.c - the transposition table's entries on one level: it returns
 * only exact matches, replaces by work, and keeps its size; a tiny table
 * forces every key into one bucket, which is the worst case of hash
 * collisions; the depth-bound entries (alpha-beta) merge, keep apart from
 * the proof-number entries, and survive two threads. Two-level tables:
 * test_tt_levels.c; what both share: ttab.h. */
#include <criterion/criterion.h>
#include <pthread.h>

#include "../tables/tt.h"
#include "testlib.h"
#include "ttab.h"

Test(tt, one_bucket_never_returns_another_position)
{
    TT t;
    cr_assert_eq(tt_init(&t, 1, false), 0);
    cr_assert_eq(tt_capacity(&t), TT_BUCKET_ENTRIES);
    uint64_t rng = 3;
    enum { N = 400 };
    Board keys[N];
    for (int i = 0; i < N; i++) {
        keys[i] = ttab_random_board(&rng);
        TTData d = ttab_data_for(keys[i], (uint32_t)tl_below(&rng, 1000));
        tt_store(&t, keys[i], &d);
        int hits = 0;
        for (int j = 0; j <= i; j++) {
            TTData got;
            if (!tt_probe(&t, keys[j], &got)) continue;
            hits++;
            TTData want = ttab_data_for(keys[j], got.work);
            ttab_expect_data(got, want);
        }
        cr_assert_leq(hits, TT_BUCKET_ENTRIES);
        TTData got;
        cr_assert(tt_probe(&t, keys[i], &got), "the entry just stored is gone");
        cr_assert_eq(got.work, d.work);
    }
    /* Keys never stored never hit, empty board included (all-zero key). */
    for (int i = 0; i < 1000; i++) {
        Board b = i == 0 ? board_empty() : ttab_random_board(&rng);
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
    TTData d = ttab_data_for(a, 7);
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
        TTData d = ttab_data_for(k[i], work[i]);
        tt_store(&t, k[i], &d);
    }
    /* Same key again: overwritten in place, nobody evicted. */
    TTData d0 = ttab_data_for(k[0], 50);
    tt_store(&t, k[0], &d0);
    TTData got;
    for (int i = 0; i < 4; i++) cr_assert(tt_probe(&t, k[i], &got), "%d lost", i);
    cr_expect_eq((tt_probe(&t, k[0], &got), got.work), 50);
    /* A new key evicts the least work (k[1], 10). */
    TTData d4 = ttab_data_for(k[4], 25);
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
        keys[i] = ttab_random_board(&rng);
        TTData d = ttab_data_for(keys[i], (uint32_t)i);
        tt_store(&t, keys[i], &d);
    }
    int hits = 0;
    for (int i = 0; i < N; i++) {
        TTData got;
        if (!tt_probe(&t, keys[i], &got)) continue;
        hits++;
        ttab_expect_data(got, ttab_data_for(keys[i], got.work));
    }
    cr_expect_leq((size_t)hits, tt_capacity(&t));
    cr_expect_gt(hits, (int)tt_capacity(&t) / 2);
    cr_expect_gt(tt_permille(&t), 900);
    tt_clear(&t);
    cr_expect_eq(tt_permille(&t), 0);
    tt_free(&t);
}

/* Two threads on a shared table whose buckets they share (ttab.h). */
Test(tt, shared_table_under_two_threads)
{
    TT t;
    cr_assert_eq(tt_init(&t, 16 << 10, true), 0);
    ttab_two_workers(&t, 0);
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
    cr_expect_gt(ttab_two_workers(&t, 6), 1000);
    tt_free(&t);
}

/* --- depth-bound entries (alpha-beta) --- */

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
    TTBounds got = ttab_bounds_of(&t, k);
    cr_expect_eq(got.win, 5);
    cr_expect_eq(got.nowin, 3);
    /* And the other way round, on another key. */
    Board k2 = {{0x6, 0x30}};
    tt_store_bounds(&t, k2, &(TTBounds){.win = TT_NO_WIN, .nowin = 4, .work = 1, .move = MOVE_NONE});
    tt_store_bounds(&t, k2, &(TTBounds){.win = 9, .nowin = 0, .work = 1, .move = MOVE_NONE});
    got = ttab_bounds_of(&t, k2);
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
    TTBounds got = ttab_bounds_of(&t, k);
    cr_expect(got.win == 9 && got.nowin == 2 && got.work == 50 && got.move == 7, "weakened: %u %u %u %u", got.win,
              got.nowin, got.work, got.move);
    tt_store_bounds(&t, k, &(TTBounds){.win = 7, .nowin = 4, .work = 60, .move = 3});
    got = ttab_bounds_of(&t, k);
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
    gb = ttab_bounds_of(&t, k);
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
    TTBounds got = ttab_bounds_of(&t, (Board){{0x5, 0x30}});
    cr_expect_eq(got.win, 100001);
    cr_expect_eq(got.nowin, 49999);
    tt_free(&t);
}
