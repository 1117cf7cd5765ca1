/* test_store_bounds.c - the store's bound records (tables/store.h, Bound
 * records; format 3): what a put keeps and what a record answers (each
 * stated bound checked against the brute force's dtw of its position),
 * the conflicts between bounds and with the value record, the format's
 * version (2 until the first bound record, then 3), and hostile stores: a
 * damaged, lost or misplaced bound record refuses the store, and `store
 * check` lists it. */
#include <criterion/criterion.h>

#include <lmdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../engine/symmetry.h"
#include "../tables/store.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

TestSuite(store_bounds, .timeout = 60);

static StoreKey key_of(const char *cells)
{
    RefPos p;
    cr_assert_eq(ref_parse(&p, 6, 5, REF_ORIGINAL, cells), 0);
    return (StoreKey){RULES_ORIGINAL, 6, 5, tl_board(&p)};
}

static Store *open_rw(const char *dir)
{
    char err[512];
    Store *s = store_open(dir, false, 0, err, sizeof err);
    cr_assert(s, "%s", err);
    return s;
}

static StoreBound bound(int yes, int no, Move m)
{
    return (StoreBound){.yes = yes, .no = no, .move = m, .source = STORE_SOURCE_DFPN};
}

static int put_b(Store *s, const StoreKey *k, StoreBound b, char *err)
{
    return store_put_bound(s, k, &b, err, 300);
}

/* The meta record's format version, read without trusting the store. */
static unsigned version_of(const char *dir)
{
    StoreCheck c;
    char err[300];
    cr_assert_eq(store_check(dir, &c, NULL, NULL, err, sizeof err), 0, "%s", err);
    cr_assert(c.meta_ok && !c.problem[0], "%s", c.problem);
    return c.meta.version;
}

/* README's example position (Chaos to move, dtw 14), for bounds the
 * tests state by hand. */
#define P14 "XO...X..OO.O.....XOO...X.O.X.X....XX"

/* What a put keeps: the least yes with its move (mapped between frames),
 * the greatest no; what a record answers, against the brute force's dtw
 * of a random position (bounds around it put in a scrambled order). */
Test(store_bounds, merge_and_answer)
{
    char dir[64], err[300];
    tl_tmp_dir(dir, sizeof dir, "store-bounds");
    Store *s = open_rw(dir);
    BruteMemo *m = brute_new();
    uint64_t rng = 2026;
    RefPos p;
    int t;
    do
        cr_assert_eq(tl_random_ongoing(&p, 6, 5, REF_ORIGINAL, 36 - 12, &rng), 0);
    while ((t = brute_dtw(m, &p)) < 5);
    brute_free(m);
    StoreKey k = {RULES_ORIGINAL, 6, 5, tl_board(&p)};
    int cell = (int)(strchr(p.cell, '.') - p.cell);
    Move mv = move_make(PIECE_X, board_cell(cell / 6, cell % 6));
    cr_assert_eq(put_b(s, &k, bound(t + 2, STORE_BOUND_NONE, mv), err), 0, "%s", err);
    cr_assert_eq(put_b(s, &k, bound(t, STORE_BOUND_NONE, MOVE_NONE), err), 0, "%s", err);
    cr_assert_eq(put_b(s, &k, bound(t + 4, t - 3, mv), err), 0, "%s", err); /* a weaker yes, a new no */
    cr_assert_eq(put_b(s, &k, bound(STORE_BOUND_NONE, t - 1, MOVE_NONE), err), 0, "%s", err);
    cr_assert_eq(put_b(s, &k, bound(STORE_BOUND_NONE, t - 2, MOVE_NONE), err), 0, "%s", err);
    StoreBound b;
    cr_assert_eq(store_get_bound(s, &k, &b), 1);
    cr_assert_eq(b.yes, t);
    cr_assert_eq(b.no, t - 1);
    cr_assert_eq(b.move, MOVE_NONE, "the move of the yes at %d kept for the yes at %d", t + 2, t);
    cr_assert(b.yes >= t && b.no < t, "the stored bounds contradict the brute force's dtw %d", t);
    for (int d = 0; d <= 20; d++)
        cr_assert_eq(store_bound_answer(&b, d), d >= t ? 1 : 0, "within %d (dtw %d)", d, t);
    /* a move in another frame: stored in the canonical one, given back in the caller's */
    StoreKey k2 = key_of("OX...X..XX.X.....OXX...O.X.O.O....OO"); /* the X/O swap of another position */
    cr_assert_eq(put_b(s, &k2, bound(9, 2, move_make(PIECE_O, board_cell(0, 2))), err), 0, "%s", err);
    int sym;
    StoreKey k3 = k2;
    k3.pos = sym_canonical(k2.pos, 6, &sym);
    cr_assert_eq(store_get_bound(s, &k3, &b), 1);
    cr_assert_eq(b.move, sym_move(move_make(PIECE_O, board_cell(0, 2)), sym, 6));
    /* the value record and the bound record stand side by side */
    StoreValue v;
    cr_assert_eq(store_get(s, &k, &v), 0, "a bound put made a value record");
    StoreStats st;
    cr_assert_eq(store_stats(s, &st, err, sizeof err), 0, "%s", err);
    cr_assert_eq(st.entries, 0);
    cr_assert_eq(st.bounds, 2);
    store_close(s);
    tl_rm_dir(dir);
}

/* A value record answers bounded questions too: a Chaos win no at every
 * d, an Order win with a known dtw yes at it and no below it. */
Test(store_bounds, value_records_answer)
{
    StoreKey k = key_of(P14);
    StoreBound b;
    StoreValue chaos = {WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0, 0};
    store_bound_of_value(&k, &chaos, &b);
    for (int d = 0; d <= 64; d++) cr_assert_eq(store_bound_answer(&b, d), 0);
    StoreValue order = {WINNER_ORDER, MOVE_NONE, 14, 0, 0};
    store_bound_of_value(&k, &order, &b);
    for (int d = 0; d <= 64; d++) cr_assert_eq(store_bound_answer(&b, d), d >= 14, "d %d", d);
    order.dtw = STORE_DTW_UNKNOWN; /* an Order win lasts at most the empty cells (21) */
    store_bound_of_value(&k, &order, &b);
    cr_assert_eq(store_bound_answer(&b, 21), 1);
    cr_assert_eq(store_bound_answer(&b, 20), -1);
}

/* Two facts that cannot both hold are refused (the old record kept):
 * bounds that cross, a yes beside a Chaos win, a no beside an Order win
 * of that distance or beyond the empty cells; bad bounds are refused. */
Test(store_bounds, conflicts_and_bad_bounds)
{
    char dir[64], err[300];
    tl_tmp_dir(dir, sizeof dir, "store-bounds");
    Store *s = open_rw(dir);
    StoreKey k = key_of(P14), kc = key_of("XX.OO...............................");
    cr_assert_eq(put_b(s, &k, bound(14, 11, MOVE_NONE), err), 0, "%s", err);
    cr_assert_eq(put_b(s, &k, bound(STORE_BOUND_NONE, 14, MOVE_NONE), err), STORE_CONFLICT);
    cr_assert(strstr(err, "conflict") && strstr(err, "within 14 plies and cannot within 14"), "%s", err);
    cr_assert_eq(put_b(s, &k, bound(11, STORE_BOUND_NONE, MOVE_NONE), err), STORE_CONFLICT, "%s", err);
    StoreValue chaos = {WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_HAND};
    cr_assert_eq(store_put(s, &k, &chaos, err, sizeof err), STORE_CONFLICT, "a Chaos win beside a yes at 14");
    cr_assert(strstr(err, "value record (chaos wins) and bound record"), "%s", err);
    StoreValue order = {WINNER_ORDER, MOVE_NONE, 11, 0, STORE_SOURCE_HAND}; /* dtw 11 beside "not within 11" */
    cr_assert_eq(store_put(s, &k, &order, err, sizeof err), STORE_CONFLICT);
    order.dtw = 15; /* dtw 15 beside "within 14" */
    cr_assert_eq(store_put(s, &k, &order, err, sizeof err), STORE_CONFLICT);
    StoreBound b;
    cr_assert_eq(store_get_bound(s, &k, &b), 1);
    cr_assert(b.yes == 14 && b.no == 11, "the record changed: yes %d no %d", b.yes, b.no);
    StoreValue v;
    cr_assert_eq(store_get(s, &k, &v), 0, "a conflicting value record was stored");
    /* the other way round: a value record first */
    cr_assert_eq(store_put(s, &kc, &chaos, err, sizeof err), 0, "%s", err);
    cr_assert_eq(put_b(s, &kc, bound(30, STORE_BOUND_NONE, MOVE_NONE), err), STORE_CONFLICT);
    cr_assert_eq(put_b(s, &kc, bound(STORE_BOUND_NONE, 64, MOVE_NONE), err), 0, "%s", err);
    /* bad bounds: none known, out of range, crossing in one put, a move without a yes or on a piece */
    cr_assert_eq(put_b(s, &k, bound(STORE_BOUND_NONE, STORE_BOUND_NONE, MOVE_NONE), err), -1);
    cr_assert_eq(put_b(s, &k, bound(65, STORE_BOUND_NONE, MOVE_NONE), err), -1);
    cr_assert_eq(put_b(s, &k, bound(STORE_BOUND_NONE, -3, MOVE_NONE), err), -1);
    cr_assert_eq(put_b(s, &k, bound(5, 5, MOVE_NONE), err), -1);
    cr_assert_eq(put_b(s, &k, bound(STORE_BOUND_NONE, 3, move_make(PIECE_X, board_cell(2, 2))), err), -1);
    cr_assert_eq(put_b(s, &k, bound(14, STORE_BOUND_NONE, move_make(PIECE_X, board_cell(0, 0))), err), -1);
    store_close(s);
    tl_rm_dir(dir);
}

/* Format 2 until the first bound record, then 3 (store.h, Versions); a
 * format-2 store of an earlier ocsolve stays readable and takes bounds. */
Test(store_bounds, format_versions)
{
    char dir[64], err[300];
    tl_tmp_dir(dir, sizeof dir, "store-bounds");
    Store *s = open_rw(dir);
    StoreKey k = key_of(P14);
    StoreValue order = {WINNER_ORDER, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_HAND};
    cr_assert_eq(store_put(s, &k, &order, err, sizeof err), 0, "%s", err);
    store_close(s);
    cr_assert_eq(version_of(dir), STORE_FORMAT, "value records alone: format 2");
    s = open_rw(dir);
    cr_assert_eq(put_b(s, &k, bound(14, 13, MOVE_NONE), err), 0, "%s", err);
    store_close(s);
    cr_assert_eq(version_of(dir), STORE_FORMAT_BOUNDS, "a bound record: format 3");
    s = open_rw(dir);
    StoreValue v;
    StoreBound b;
    cr_assert_eq(store_get(s, &k, &v), 1);
    cr_assert_eq(v.winner, WINNER_ORDER);
    cr_assert_eq(store_get_bound(s, &k, &b), 1);
    cr_assert(b.yes == 14 && b.no == 13);
    store_close(s);
    tl_rm_dir(dir);
}

/* Raw LMDB: fn on the environment's one database in a write transaction. */
static void raw(const char *dir, void (*fn)(MDB_txn *, MDB_dbi, void *), void *arg)
{
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    cr_assert_eq(mdb_env_create(&env), 0);
    cr_assert_eq(mdb_env_open(env, dir, 0, 0666), 0);
    cr_assert_eq(mdb_txn_begin(env, NULL, 0, &txn), 0);
    cr_assert_eq(mdb_dbi_open(txn, NULL, 0, &dbi), 0);
    fn(txn, dbi, arg);
    cr_assert_eq(mdb_txn_commit(txn), 0);
    mdb_env_close(env);
}

typedef struct {
    StoreKeyBytes kb;
    int byte; /* the value byte flipped; -1: the record deleted */
} Damage;

static void damage(MDB_txn *txn, MDB_dbi dbi, void *arg)
{
    Damage *d = arg;
    MDB_val k = {sizeof d->kb.b, d->kb.b}, v;
    cr_assert_eq(mdb_get(txn, dbi, &k, &v), 0, "no bound record at that key");
    if (d->byte < 0) {
        cr_assert_eq(mdb_del(txn, dbi, &k, NULL), 0);
        return;
    }
    uint8_t buf[STORE_VALUE_BYTES];
    memcpy(buf, v.mv_data, sizeof buf);
    buf[d->byte] ^= 1;
    MDB_val nv = {sizeof buf, buf};
    cr_assert_eq(mdb_put(txn, dbi, &k, &nv, 0), 0);
}

typedef struct {
    int bad, bound_keys;
} Listed;

static void listed(const uint8_t *key, size_t klen, const char *why, void *ctx)
{
    (void)why;
    Listed *l = ctx;
    l->bad++;
    l->bound_keys += klen == STORE_KEY_BYTES && key[3] == STORE_KIND_BOUND;
}

/* A store with bound records beside value records, at dir; the bound
 * record of P14's key bytes into kb. */
static void make_store(const char *dir, StoreKeyBytes *kb)
{
    char err[300];
    Store *s = open_rw(dir);
    StoreKey k = key_of(P14), k2 = key_of("XX.OO...............................");
    StoreValue order = {WINNER_ORDER, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_HAND};
    cr_assert_eq(store_put(s, &k2, &order, err, sizeof err), 0, "%s", err);
    cr_assert_eq(put_b(s, &k, bound(14, 13, MOVE_NONE), err), 0, "%s", err);
    cr_assert_eq(put_b(s, &k2, bound(STORE_BOUND_NONE, 2, MOVE_NONE), err), 0, "%s", err);
    store_close(s);
    StoreKey c = k;
    c.pos = sym_canonical(k.pos, 6, NULL);
    store_key_encode(&c, kb);
    kb->b[3] = STORE_KIND_BOUND;
}

/* A bound record damaged (each byte of its value flipped in turn) or lost:
 * opening refuses the store with one line, `store check` lists exactly
 * that record (its key a bound record's), and the command line refuses
 * the store, exit 2 (check: 1). */
Test(store_bounds, damaged_bound_record_refused)
{
    char dir[64], err[512];
    tl_tmp_dir(dir, sizeof dir, "store-bounds");
    for (int byte = -1; byte < STORE_VALUE_BYTES; byte++) {
        Damage d = {.byte = byte};
        make_store(dir, &d.kb);
        raw(dir, damage, &d);
        Store *s = store_open(dir, true, 0, err, sizeof err);
        cr_assert_null(s, "byte %d: the damaged store was opened", byte);
        cr_assert(strstr(err, "corrupt") && strstr(err, dir) && !strchr(err, '\n'), "byte %d: %s", byte, err);
        StoreCheck c;
        Listed l = {0};
        cr_assert_eq(store_check(dir, &c, listed, &l, err, sizeof err), 0, "%s", err);
        cr_assert(c.problem[0], "byte %d: store check found it sound", byte);
        if (byte >= 0) {
            cr_assert_eq(l.bad, 1, "byte %d: %d bad records listed", byte, l.bad);
            cr_assert_eq(l.bound_keys, 1);
        } else {
            cr_assert(strstr(c.problem, "records lost or added"), "%s", c.problem);
        }
        tl_rm_dir(dir);
        mkdir(dir, 0700);
    }
    Damage d = {.byte = 0};
    make_store(dir, &d.kb);
    raw(dir, damage, &d);
    Run r;
    run_argv(&r, ARGS("store", "check", dir));
    cr_assert_eq(r.code, 1, "store check: exit %d", r.code);
    cr_assert(strstr(r.out, "bad record: key ") != NULL, "%s", r.out);
    run_free(&r);
    expect_reject("corrupt", "jobs", "--within", "9", "--store", dir, "--quiet", P14);
    expect_reject("corrupt", "store", "get", dir, P14);
    char certs[128];
    snprintf(certs, sizeof certs, "%s/certs", dir); /* made by jobs before it opened the store */
    tl_rm_dir(certs);
    tl_rm_dir(dir);
}

typedef struct {
    unsigned version;
} Meta;

static void set_version(MDB_txn *txn, MDB_dbi dbi, void *arg)
{
    MDB_val k = {STORE_META_KEY_BYTES, (void *)STORE_META_KEY}, v;
    cr_assert_eq(mdb_get(txn, dbi, &k, &v), 0);
    StoreMetaBytes mb;
    memcpy(mb.b, v.mv_data, sizeof mb.b);
    StoreMeta m;
    cr_assert_eq(store_meta_decode(&mb, &m), 0);
    m.version = ((Meta *)arg)->version;
    store_meta_encode(&m, &mb); /* a good check over the version changed */
    MDB_val nv = {sizeof mb.b, mb.b};
    cr_assert_eq(mdb_put(txn, dbi, &k, &nv, 0), 0);
}

/* A bound record in a store whose meta record says format 2 (a reader of
 * format 2 would not know it) is a bad record: the store is refused. */
Test(store_bounds, bound_record_in_format_2_refused)
{
    char dir[64], err[512];
    tl_tmp_dir(dir, sizeof dir, "store-bounds");
    StoreKeyBytes kb;
    make_store(dir, &kb);
    Meta m = {STORE_FORMAT};
    raw(dir, set_version, &m);
    Store *s = store_open(dir, true, 0, err, sizeof err);
    cr_assert_null(s);
    cr_assert(strstr(err, "a bound record in a store of format 2"), "%s", err);
    tl_rm_dir(dir);
}
