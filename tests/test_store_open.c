/* test_store_open.c - who may open the store of decided positions
 * (tables/store.h): one writer at a time (a second refused, also through
 * the command line, readers unhindered, a killed writer's lock freed); a
 * corrupt data.mdb, a meta record of another format, a foreign database
 * and another game's store or position refused; and in a process that has
 * called store_forbid no store and no journal opens. Suite store, declared
 * in test_store.c. */
#include <criterion/criterion.h>

#include <lmdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/symmetry.h"
#include "../tables/journal.h"
#include "../tables/store.h"
#include "runbin.h"
#include "testlib.h"
#include "tstore.h"

/* One writer: a second write-open is refused (also in the same process,
 * and through the command line) while readers still work; after the
 * writer closes, or is killed with SIGKILL, the next one gets in and
 * finds every put. */
Test(store, one_writer_many_readers)
{
    char dir[64], err[256];
    tl_tmp_dir(dir, sizeof dir, "store");
    const char *P = "XX.OO./....../....../....../....../......";
    const char *Q = "X...../....../....../....../....../.....O";
    Store *w = tstore_open_ok(dir, false);
    RefPos p;
    ref_parse(&p, 6, 5, 0, "XX.OO...............................");
    StoreKey k = tstore_key_of(&p);
    StoreValue v = {WINNER_ORDER, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN};
    cr_assert_eq(store_put(w, &k, &v, err, sizeof err), 0, "%s", err);
    char want[160];
    snprintf(want, sizeof want, "store %s is in use by another writer (pid %ld)", dir, (long)getpid());
    err[0] = '\0';
    cr_expect(store_open(dir, false, 1, err, sizeof err) == NULL, "a second writer in the same process got in");
    cr_expect(strstr(err, want), "message: %s", err);
    Run r;
    run_argv(&r, ARGS("store", "put", dir, Q, "chaos"));
    cr_expect(r.exited && r.code == 2, "%s: exit %d", r.desc, r.code);
    cr_expect(strstr(r.err, want) && count_char(r.err, r.errlen, '\n') == 1, "%s", r.err);
    run_free(&r);
    expect_ok(&r, "store", "get", dir, P); /* a reader, while the writer writes */
    cr_expect(strstr(r.out, "winner: order\n"), "%s", r.out);
    run_free(&r);
    expect_ok(&r, "store", "stats", dir);
    cr_expect(strstr(r.out, "entries: 1 "), "%s", r.out);
    run_free(&r);
    store_close(w);
    expect_ok(&r, "store", "put", dir, Q, "chaos"); /* the writer is gone: the next gets in */
    run_free(&r);

    /* A writer killed with SIGKILL while it holds the store. */
    int ready[2];
    cr_assert_eq(pipe(ready), 0);
    pid_t kid = fork();
    cr_assert(kid >= 0);
    if (kid == 0) {
        Store *s = store_open(dir, false, 1, NULL, 0);
        if (!s || store_put(s, &k, &v, NULL, 0) != 0 || write(ready[1], "r", 1) != 1) _exit(1);
        for (;;) pause();
    }
    char c;
    cr_assert_eq(read(ready[0], &c, 1), 1, "the child could not open the store for writing");
    snprintf(want, sizeof want, "store %s is in use by another writer (pid %ld)", dir, (long)kid);
    run_argv(&r, ARGS("store", "put", dir, P, "order"));
    cr_expect(r.exited && r.code == 2 && strstr(r.err, want), "%s: exit %d: %s", r.desc, r.code, r.err);
    run_free(&r);
    cr_assert_eq(kill(kid, SIGKILL), 0);
    int status;
    cr_assert_eq(waitpid(kid, &status, 0), kid);
    cr_assert(WIFSIGNALED(status), "the child ended before it was killed: status %d", status);
    w = tstore_open_ok(dir, false);
    StoreStats st;
    cr_assert_eq(store_stats(w, &st, err, sizeof err), 0, "%s", err);
    cr_expect_eq(st.entries, 2);
    store_close(w);
    close(ready[0]);
    close(ready[1]);
    tl_rm_dir(dir);
}

/* ------------------------------------------------------------------ */
/* Foreign, corrupt and other-game stores                              */
/* ------------------------------------------------------------------ */

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f, "cannot write %s", path);
    cr_assert_eq(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void expect_open_refused(const char *dir, bool readonly, const StoreGame *g, const char *needle)
{
    char err[512] = "";
    Store *s = store_open_game(dir, readonly, 1, g, err, sizeof err);
    cr_expect(s == NULL, "%s (%s) was opened", dir, readonly ? "read-only" : "write");
    if (s) store_close(s);
    cr_expect(strstr(err, needle) && strstr(err, dir) && !strchr(err, '\n'), "%s: message [%s], want [%s]", dir, err,
              needle);
}

Test(store, corrupt_data_refused)
{
    char dir[64], data[128];
    tl_tmp_dir(dir, sizeof dir, "store");
    snprintf(data, sizeof data, "%s/data.mdb", dir);
    static uint8_t junk[20000];
    uint64_t rng = 5;
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = (uint8_t)tl_rand(&rng);
    size_t sizes[] = {sizeof junk, 4096, 10};
    for (int t = 0; t < 3; t++) {
        write_file(data, junk, sizes[t]);
        expect_open_refused(dir, false, NULL, "not an LMDB file");
        expect_open_refused(dir, true, NULL, "not an LMDB file");
        struct stat st;
        cr_assert_eq(stat(data, &st), 0);
        cr_expect_eq((size_t)st.st_size, sizes[t], "the refused open changed data.mdb");
        expect_reject("not an LMDB file", "store", "stats", dir);
        expect_reject("not an LMDB file", "store", "put", dir, "-", "order");
    }
    write_file(data, junk, 0);
    expect_open_refused(dir, true, NULL, "data.mdb is empty");
    tl_rm_dir(dir);
}

/* Raw LMDB on a store's directory: the meta record replaced (value of
 * len bytes) or, with len 0, deleted; and a foreign record added. */
static void poke(const char *dir, const void *meta, size_t len, bool foreign)
{
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    cr_assert_eq(mdb_env_create(&env), 0);
    cr_assert_eq(mdb_env_open(env, dir, 0, 0666), 0);
    cr_assert_eq(mdb_txn_begin(env, NULL, 0, &txn), 0);
    cr_assert_eq(mdb_dbi_open(txn, NULL, 0, &dbi), 0);
    MDB_val k = {STORE_META_KEY_BYTES, (void *)STORE_META_KEY}, v = {len, (void *)meta};
    if (len) cr_assert_eq(mdb_put(txn, dbi, &k, &v, 0), 0);
    else cr_assert_eq(mdb_del(txn, dbi, &k, NULL), 0);
    if (foreign) {
        MDB_val fk = {3, "abc"}, fv = {5, "hello"};
        cr_assert_eq(mdb_put(txn, dbi, &fk, &fv, 0), 0);
    }
    cr_assert_eq(mdb_txn_commit(txn), 0);
    mdb_env_close(env);
}

static StoreKey key6(const char *cells)
{
    RefPos p;
    ref_parse(&p, 6, 5, 0, cells);
    return tstore_key_of(&p);
}

/* The check bytes (8..15, little-endian) of the record at canonical key
 * k, read by raw LMDB. */
static uint64_t raw_check(const char *dir, const StoreKey *k)
{
    StoreKey ck = *k;
    ck.pos = sym_canonical(k->pos, k->n, NULL);
    StoreKeyBytes kb;
    store_key_encode(&ck, &kb);
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    cr_assert_eq(mdb_env_create(&env), 0);
    cr_assert_eq(mdb_env_open(env, dir, MDB_RDONLY, 0666), 0);
    cr_assert_eq(mdb_txn_begin(env, NULL, MDB_RDONLY, &txn), 0);
    cr_assert_eq(mdb_dbi_open(txn, NULL, 0, &dbi), 0);
    MDB_val key = {sizeof kb.b, kb.b}, v;
    cr_assert_eq(mdb_get(txn, dbi, &key, &v), 0);
    cr_assert_eq(v.mv_size, STORE_VALUE_BYTES);
    uint64_t c = 0;
    for (int i = 0; i < 8; i++) c |= (uint64_t)((const uint8_t *)v.mv_data)[8 + i] << (8 * i);
    mdb_txn_abort(txn);
    mdb_env_close(env);
    return c;
}

Test(store, foreign_meta_refused)
{
    char dir[64], err[256];
    tl_tmp_dir(dir, sizeof dir, "store");
    Store *s = tstore_open_ok(dir, false);
    StoreKey k = key6("XX.OO...............................");
    StoreValue v = {WINNER_ORDER, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN};
    cr_assert_eq(store_put(s, &k, &v, err, sizeof err), 0, "%s", err);
    store_close(s);
    StoreGame g = {RULES_ORIGINAL, 6, 5};
    StoreMeta good = {g, STORE_FORMAT, 1, raw_check(dir, &k)};
    StoreMeta m = good;
    StoreMetaBytes mb;
    m.version = STORE_FORMAT_BOUNDS + 1; /* a format after this one's newest */
    store_meta_encode(&m, &mb);
    poke(dir, mb.b, sizeof mb.b, false);
    expect_open_refused(dir, false, NULL, "has store format version 4 (this ocsolve reads 2 and 3)");
    expect_open_refused(dir, true, NULL, "format version 4");
    expect_reject("format version 4", "store", "stats", dir);
    /* a store of format 1 (a 16-byte meta record, no checks) */
    uint8_t v1[16] = "OCSSTORE\x01\x00\x00\x06\x05";
    poke(dir, v1, sizeof v1, false);
    expect_open_refused(dir, true, NULL, "has store format version 1 (this ocsolve reads 2 and 3)");
    store_meta_encode(&good, &mb);
    mb.b[0] = 'X'; /* no magic */
    poke(dir, mb.b, sizeof mb.b, false);
    expect_open_refused(dir, true, NULL, "not an ocsolve store");
    store_meta_encode(&good, &mb);
    mb.b[20] ^= 1; /* the count changed, the check not: fails its check */
    poke(dir, mb.b, sizeof mb.b, false);
    expect_open_refused(dir, true, NULL, "corrupt meta record (it fails its check)");
    m = good;
    m.game.k = 7; /* k > n */
    store_meta_encode(&m, &mb);
    poke(dir, mb.b, sizeof mb.b, false);
    expect_open_refused(dir, true, NULL, "corrupt meta record");
    poke(dir, mb.b, 4, false); /* too short */
    expect_open_refused(dir, true, NULL, "not an ocsolve store");
    m = good;
    m.records = 2; /* a good check over a wrong count */
    store_meta_encode(&m, &mb);
    poke(dir, mb.b, sizeof mb.b, false);
    expect_open_refused(dir, true, NULL, "1 records where its meta record counts 2");
    m = good;
    m.digest ^= 1; /* the right count, another digest */
    store_meta_encode(&m, &mb);
    poke(dir, mb.b, sizeof mb.b, false);
    expect_open_refused(dir, true, NULL, "they are not the ones it sums");
    poke(dir, NULL, 0, false); /* records without a meta record */
    expect_open_refused(dir, false, NULL, "no ocsolve meta record, yet 1 record");
    /* Back to a good meta record: it opens, records and all. */
    store_meta_encode(&good, &mb);
    poke(dir, mb.b, sizeof mb.b, false);
    s = tstore_open_ok(dir, true);
    StoreValue got;
    cr_expect_eq(store_get(s, &k, &got), 1, "%s", store_error(s));
    store_close(s);
    /* Another program's database: foreign records, no meta record. */
    tl_rm_dir(dir);
    tl_tmp_dir(dir, sizeof dir, "store");
    store_close(tstore_open_ok(dir, false)); /* an empty LMDB environment */
    poke(dir, mb.b, sizeof mb.b, true);
    poke(dir, NULL, 0, false);
    expect_open_refused(dir, true, NULL, "no ocsolve meta record");
    tl_rm_dir(dir);
}

Test(store, one_game_per_store)
{
    char dir[64], err[256];
    tl_tmp_dir(dir, sizeof dir, "store");
    StoreGame orig = {RULES_ORIGINAL, 6, 5}, exact = {RULES_EXACT, 6, 5}, small = {RULES_ORIGINAL, 4, 4};
    /* Naming the game at the first write-open of an empty store records it. */
    Store *s = store_open_game(dir, false, 1, &orig, err, sizeof err);
    cr_assert(s, "%s", err);
    store_close(s);
    s = tstore_open_ok(dir, true);
    StoreGame got;
    cr_assert_eq(store_game(s, &got), 1, "the write-open wrote no meta record");
    cr_expect(got.rules == RULES_ORIGINAL && got.n == 6 && got.k == 5);
    store_close(s);
    expect_open_refused(dir, false, &exact, "holds original 6x6 k=5 positions, not exact 6x6 k=5");
    expect_open_refused(dir, true, &small, "holds original 6x6 k=5 positions, not original 4x4 k=4");
    /* With any game accepted, a put or get of another game is refused. */
    s = tstore_open_ok(dir, false);
    RefPos p;
    ref_parse(&p, 4, 4, 0, "X..............O");
    StoreKey k4 = tstore_key_of(&p);
    StoreValue v = {WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN};
    err[0] = '\0';
    cr_expect_eq(store_put(s, &k4, &v, err, sizeof err), -1);
    cr_expect(strstr(err, "holds original 6x6 k=5 positions, not original 4x4 k=4"), "%s", err);
    StoreValue out;
    cr_expect_eq(store_get(s, &k4, &out), -1);
    cr_expect(strstr(store_error(s), "not original 4x4 k=4"), "%s", store_error(s));
    StoreKey k6 = key6("XX.OO...............................");
    k6.rules = RULES_EXACT;
    cr_expect_eq(store_put(s, &k6, &v, err, sizeof err), -1, "a put of another rule set got in");
    store_close(s);
    tl_rm_dir(dir);

    /* Opened without a game, an empty store takes its first put's. */
    tl_tmp_dir(dir, sizeof dir, "store");
    s = tstore_open_ok(dir, false);
    cr_expect_eq(store_game(s, &got), 0);
    cr_assert_eq(store_put(s, &k4, &v, err, sizeof err), 0, "%s", err);
    cr_expect_eq(store_game(s, &got), 1);
    cr_expect_eq(store_put(s, &k6, &v, err, sizeof err), -1);
    store_close(s);
    s = store_open_game(dir, true, 1, &small, err, sizeof err);
    cr_assert(s, "%s", err);
    cr_expect_eq(store_get(s, &k4, &out), 1);
    StoreStats st;
    cr_assert_eq(store_stats(s, &st, err, sizeof err), 0, "%s", err);
    cr_expect_eq(st.entries, 1, "the meta record was counted");
    store_close(s);
    /* An empty store, read-only, with a game named: nothing to disagree. */
    tl_rm_dir(dir);
    tl_tmp_dir(dir, sizeof dir, "store");
    store_close(tstore_open_ok(dir, false));
    s = store_open_game(dir, true, 1, &exact, err, sizeof err);
    cr_expect(s != NULL, "%s", err);
    store_close(s);
    tl_rm_dir(dir);
}

/* store_forbid (what an MPI worker rank calls first, app/main_mpi.c): from
 * then on no store and no journal opens in the process, each refusal one
 * line naming the reason. In a child process, since it is not undone. */
Test(store, forbidden_process_opens_nothing)
{
    char dir[256];
    tl_tmp_dir(dir, sizeof dir, "store-forbid");
    Store *st = tstore_open_ok(dir, false); /* a store that opens, before */
    store_close(st);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        store_forbid("a test of store_forbid");
        char err[256] = "", jpath[300];
        Store *s = store_open(dir, true, 0, err, sizeof err);
        bool refused = !s && strstr(err, "not opened: this process is a test of store_forbid") && !strchr(err, '\n');
        snprintf(jpath, sizeof jpath, "%s/journal", dir);
        err[0] = '\0';
        StoreGame g = {RULES_ORIGINAL, 6, 5};
        Journal *j = journal_open(jpath, &g, err, sizeof err);
        refused = refused && !j && strstr(err, "not opened");
        _exit(refused ? 0 : 1);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a forbidden process opened the store or its journal");
    st = tstore_open_ok(dir, true); /* this process was not forbidden */
    store_close(st);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect(system(cmd) == 0);
}
