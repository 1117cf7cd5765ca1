/* test_store.c - the store of decided positions (tables/store.h): random
 * positions of every rule set and board size round-trip against the
 * test's own table, across a close and a read-only reopen; the 16 images
 * of a position share one record and get maps the best move into each
 * frame (checked with the reference's own images, tests/ref.h, not with
 * the engine's symmetry code); a conflicting put is refused; the smaller
 * distance to win is kept; one writer at a time (a second refused, also
 * through the command line, readers unhindered, a killed writer's lock
 * freed); a corrupt data.mdb, a meta record of another format, a foreign
 * database and another game's store or position refused; a full map
 * grows, and a map at its limit, a write error (a file size limit) and a
 * map that cannot grow (an address space limit) each fail with one line
 * and lose no earlier put; and the `ocsolve store` command line, exit
 * codes 0, 1 and 2. */
#include <criterion/criterion.h>

#include <lmdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/symmetry.h"
#include "../tables/journal.h"
#include "../tables/store.h"
#include "runbin.h"
#include "testlib.h"

TestSuite(store, .timeout = 60);

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static Store *open_ok(const char *path, bool readonly)
{
    char err[256] = "";
    Store *s = store_open(path, readonly, 1, err, sizeof err); /* 1 MiB: the tests also grow the map */
    cr_assert(s != NULL, "store_open %s: %s", path, err);
    return s;
}

static bool ref_equal(const RefPos *a, const RefPos *b)
{
    return a->n == b->n && memcmp(a->cell, b->cell, (size_t)(a->n * a->n)) == 0;
}

/* The test's own bridge: ref cell r*n+c is bit 8r+c (board.h). */
static Move ref_move(int n, int refcell, char sym) { return move_make(sym == 'O' ? PIECE_O : PIECE_X, 8 * (refcell / n) + refcell % n); }
static int move_refcell(int n, Move m) { return cell_row(move_cell(m)) * n + cell_col(move_cell(m)); }
static void ref_play(RefPos *p, Move m) { p->cell[move_refcell(p->n, m)] = move_piece(m) == PIECE_O ? 'O' : 'X'; }

static StoreKey key_of(const RefPos *p)
{
    return (StoreKey){tl_rules(p->rules), p->n, p->k, tl_board(p)};
}

/* Move got (in image's frame) is right for move want (in p's frame) when
 * some symmetry h that takes p to image takes p+want to image+got: with a
 * position that is its own image under some symmetry, any of them will do. */
static bool move_maps(const RefPos *p, Move want, const RefPos *image, Move got)
{
    if (want == MOVE_NONE || got == MOVE_NONE) return want == got;
    if (image->cell[move_refcell(image->n, got)] != '.') return false;
    RefPos pw = *p, ig = *image, t;
    ref_play(&pw, want);
    ref_play(&ig, got);
    for (int h = 0; h < 16; h++) {
        ref_image(p, h, &t);
        if (!ref_equal(&t, image)) continue;
        ref_image(&pw, h, &t);
        if (ref_equal(&t, &ig)) return true;
    }
    return false;
}

static bool symmetric(const RefPos *a, const RefPos *b)
{
    if (a->n != b->n || a->k != b->k || a->rules != b->rules) return false;
    RefPos t;
    for (int h = 0; h < 16; h++) {
        ref_image(a, h, &t);
        if (ref_equal(&t, b)) return true;
    }
    return false;
}

static StoreValue random_value(const RefPos *p, uint64_t *rng)
{
    StoreValue v = {tl_below(rng, 2) ? WINNER_ORDER : WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0,
                    (uint8_t)(1 + tl_below(rng, 2))};
    int empty[64], ne = 0;
    for (int i = 0; i < p->n * p->n; i++)
        if (p->cell[i] == '.') empty[ne++] = i;
    if (ne > 0 && tl_below(rng, 4) != 0) v.move = ref_move(p->n, empty[tl_below(rng, ne)], tl_below(rng, 2) ? 'O' : 'X');
    if (ne > 0 && v.winner == WINNER_ORDER && tl_below(rng, 3) != 0) v.dtw = 1 + tl_below(rng, ne);
    if (tl_below(rng, 5) == 0) v.flags = STORE_FLAG_VERIFIED;
    return v;
}

/* ------------------------------------------------------------------ */
/* The library                                                         */
/* ------------------------------------------------------------------ */

enum { PER_SIZE = 12, MAXE = 3 * 5 * PER_SIZE };
static RefPos tpos[MAXE];
static StoreValue tval[MAXE];

static void check_all(Store *s, int count, uint64_t *rng)
{
    for (int i = 0; i < count; i++) {
        int h = tl_below(rng, 16);
        RefPos image;
        ref_image(&tpos[i], h, &image);
        StoreKey k = key_of(&image);
        StoreValue got;
        cr_assert_eq(store_get(s, &k, &got), 1, "entry %d lost: %s", i, store_error(s));
        cr_assert_eq(got.winner, tval[i].winner, "entry %d: winner", i);
        cr_assert_eq(got.dtw, tval[i].dtw, "entry %d: dtw %d, want %d", i, got.dtw, tval[i].dtw);
        cr_assert_eq(got.flags, tval[i].flags, "entry %d: flags", i);
        cr_assert_eq(got.source, tval[i].source, "entry %d: source", i);
        cr_assert(move_maps(&tpos[i], tval[i].move, &image, got.move), "entry %d: move %02x in image %d wrong", i,
                  got.move, h);
    }
}

static RefPos ref_of(const StoreKey *k)
{
    RefPos p = {k->n, k->k, (int)k->rules, {0}};
    for (int i = 0; i < k->n * k->n; i++) {
        uint64_t bit = 1ULL << (8 * (i / k->n) + i % k->n);
        p.cell[i] = (k->pos.s[PIECE_X] & bit) ? 'X' : (k->pos.s[PIECE_O] & bit) ? 'O' : '.';
    }
    return p;
}

/* Records come in the canonical frame: no image is less in (X, O) order. */
static int count_visit(const StoreKey *k, const StoreValue *v, void *ctx)
{
    (void)v;
    int *c = ctx;
    RefPos p = ref_of(k), t;
    for (int h = 0; h < 16; h++) {
        ref_image(&p, h, &t);
        Board b = tl_board(&t);
        cr_expect(!(b.s[0] < k->pos.s[0] || (b.s[0] == k->pos.s[0] && b.s[1] < k->pos.s[1])),
                  "record %d is not canonical (image %d is less)", *c, h);
    }
    (*c)++;
    return 0;
}

/* One store per game (one game per store): PER_SIZE random positions of
 * the game round-trip, across a close and a read-only reopen. Returns how
 * many distinct positions went in. */
static int round_trip_game(int rules, int n, int k, uint64_t *rng)
{
    char dir[64];
    tl_tmp_dir(dir, sizeof dir, "store");
    Store *s = open_ok(dir, false);
    int count = 0, order = 0;
    for (int j = 0; j < PER_SIZE; j++) {
        RefPos p;
        int fill = tl_below(rng, 60);
        tl_random_any(&p, n, k, rules, fill / 2, fill - fill / 2, rng);
        bool dup = false;
        for (int i = 0; i < count && !dup; i++) dup = symmetric(&tpos[i], &p);
        if (dup) continue;
        tpos[count] = p;
        tval[count] = random_value(&p, rng);
        StoreKey key = key_of(&p);
        char err[256];
        cr_assert_eq(store_put(s, &key, &tval[count], err, sizeof err), 0, "put %d: %s", count, err);
        order += tval[count].winner == WINNER_ORDER;
        count++;
    }
    check_all(s, count, rng);
    if (rules == 0 && n == 4 && k == 4) {
        /* Not there: a position none of the table's is an image of. */
        RefPos q;
        ref_parse(&q, 4, 4, 0, "XXXXOOOOXXXXOOOO");
        StoreKey qk = key_of(&q);
        StoreValue qv;
        cr_expect_eq(store_get(s, &qk, &qv), 0);
    }
    StoreStats st;
    char err[256];
    cr_assert_eq(store_stats(s, &st, err, sizeof err), 0, "%s", err);
    cr_expect_eq(st.entries, (uint64_t)count);
    cr_expect_eq(st.order, (uint64_t)order);
    cr_expect_eq(st.chaos, (uint64_t)(count - order));
    cr_expect(st.file_bytes > 0 && st.map_bytes >= st.file_bytes);
    int visited = 0;
    cr_expect_eq(store_foreach(s, count_visit, &visited, err, sizeof err), 0, "%s", err);
    cr_expect_eq(visited, count);
    store_close(s);
    /* Reopen, read-only: everything is there, and a put is refused. */
    s = open_ok(dir, true);
    check_all(s, count, rng);
    StoreKey key = key_of(&tpos[0]);
    cr_expect_eq(store_put(s, &key, &tval[0], err, sizeof err), -1);
    cr_expect(strstr(err, "read-only") != NULL, "%s", err);
    store_close(s);
    tl_rm_dir(dir);
    return count;
}

Test(store, round_trip_and_reopen)
{
    uint64_t rng = 20261201;
    int total = 0;
    for (int rules = 0; rules < 3; rules++)
        for (int n = 4; n <= 8; n++) {
            int k = rules == 0 && n == 4 ? 4 : 3 + tl_below(&rng, n - 2);
            total += round_trip_game(rules, n, k, &rng);
        }
    cr_expect(total > MAXE - 20, "only %d distinct positions", total);
}

Test(store, images_share_one_record)
{
    char dir[64], err[256];
    /* An asymmetric position, one that is its own mirror image, and the
     * empty board (every geometric symmetry fixes it); three games, so
     * three stores. */
    RefPos ps[3];
    ref_parse(&ps[0], 6, 5, 0, "XX.OO.......O.....X.........O.......");
    ref_parse(&ps[1], 6, 5, 1, "X....X..O..O........................");
    ref_parse(&ps[2], 5, 4, 2, ".........................");
    Move mv[3] = {ref_move(6, 2, 'X'), ref_move(6, 14, 'O'), ref_move(5, 7, 'X')};
    for (int t = 0; t < 3; t++) {
        tl_tmp_dir(dir, sizeof dir, "store");
        Store *s = open_ok(dir, false);
        StoreKey k = key_of(&ps[t]);
        StoreValue v = {WINNER_ORDER, mv[t], STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN};
        cr_assert_eq(store_put(s, &k, &v, err, sizeof err), 0, "%s", err);
        for (int h = 0; h < 16; h++) {
            RefPos image;
            ref_image(&ps[t], h, &image);
            StoreKey ik = key_of(&image);
            StoreValue got;
            cr_assert_eq(store_get(s, &ik, &got), 1, "position %d image %d not found", t, h);
            cr_expect(move_maps(&ps[t], mv[t], &image, got.move), "position %d image %d: move %02x", t, h, got.move);
            if (t == 0) {
                /* No symmetry fixes it: the image of the move is exactly one move. */
                RefPos a = image, b = ps[t];
                ref_play(&a, got.move);
                ref_play(&b, mv[t]);
                ref_image(&b, h, &b);
                cr_expect(ref_equal(&a, &b), "image %d: move %02x", h, got.move);
            }
            /* A put from an image lands on the same record. */
            StoreValue again = {WINNER_ORDER, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN};
            cr_assert_eq(store_put(s, &ik, &again, err, sizeof err), 0, "%s", err);
        }
        StoreStats st;
        cr_assert_eq(store_stats(s, &st, err, sizeof err), 0, "%s", err);
        cr_expect_eq(st.entries, 1);
        cr_expect_eq(st.with_move, 1, "a put without a move dropped the stored one");
        store_close(s);
        tl_rm_dir(dir);
    }
}

Test(store, conflict_refused_old_kept)
{
    char dir[64], err[256];
    tl_tmp_dir(dir, sizeof dir, "store");
    Store *s = open_ok(dir, false);
    RefPos p, image;
    ref_parse(&p, 6, 5, 0, "XX.OO.......O.....X.........O.......");
    StoreKey k = key_of(&p);
    StoreValue v = {WINNER_ORDER, ref_move(6, 2, 'X'), 3, 0, STORE_SOURCE_DFPN};
    cr_assert_eq(store_put(s, &k, &v, err, sizeof err), 0, "%s", err);
    ref_image(&p, 13, &image);
    StoreKey ik = key_of(&image);
    StoreValue bad = {WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_LEMMA};
    err[0] = '\0';
    cr_expect_eq(store_put(s, &ik, &bad, err, sizeof err), STORE_CONFLICT);
    cr_expect(strstr(err, "conflict") && strstr(err, "stored order, new chaos"), "%s", err);
    StoreValue got;
    cr_assert_eq(store_get(s, &k, &got), 1);
    cr_expect(got.winner == WINNER_ORDER && got.move == v.move && got.dtw == 3 && got.source == STORE_SOURCE_DFPN);
    store_close(s);
    tl_rm_dir(dir);
}

Test(store, merge_keeps_smaller_dtw)
{
    char dir[64], err[256];
    tl_tmp_dir(dir, sizeof dir, "store");
    Store *s = open_ok(dir, false);
    RefPos p;
    ref_parse(&p, 6, 5, 0, "XX.OO.......O.....X.........O.......");
    StoreKey k = key_of(&p);
    Move a = ref_move(6, 2, 'X'), b = ref_move(6, 5, 'O'), c = ref_move(6, 20, 'X');
    StoreValue got;
    struct {
        Move move;
        int dtw;
        uint8_t flags;
        Move want_move;
        int want_dtw;
    } steps[] = {
        {MOVE_NONE, STORE_DTW_UNKNOWN, 0, MOVE_NONE, STORE_DTW_UNKNOWN}, /* new */
        {a, STORE_DTW_UNKNOWN, 0, a, STORE_DTW_UNKNOWN},                 /* a move where none was */
        {b, 7, 0, b, 7},                                                 /* a known dtw beats unknown */
        {c, 9, STORE_FLAG_VERIFIED, b, 7},                               /* a larger dtw loses */
        {a, STORE_DTW_UNKNOWN, 0, b, 7},                                 /* unknown never replaces known */
        {MOVE_NONE, 5, 0, b, 5},                                         /* smaller dtw, no move: keeps b */
        {c, 5, 0, b, 5},                                                 /* a tie keeps the old */
        {c, 4, 0, c, 4},
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        StoreValue v = {WINNER_ORDER, steps[i].move, steps[i].dtw, steps[i].flags, STORE_SOURCE_DFPN};
        cr_assert_eq(store_put(s, &k, &v, err, sizeof err), 0, "step %zu: %s", i, err);
        cr_assert_eq(store_get(s, &k, &got), 1);
        cr_expect_eq(got.move, steps[i].want_move, "step %zu: move %02x", i, got.move);
        cr_expect_eq(got.dtw, steps[i].want_dtw, "step %zu: dtw %d", i, got.dtw);
        cr_expect_eq(got.flags, i >= 3 ? STORE_FLAG_VERIFIED : 0, "step %zu: flags", i);
    }
    store_close(s);
    tl_rm_dir(dir);
}

Test(store, bad_input_refused)
{
    char dir[64], err[256];
    tl_tmp_dir(dir, sizeof dir, "store");
    Store *s = open_ok(dir, false);
    RefPos p;
    ref_parse(&p, 6, 5, 0, "XX.OO.......O.....X.........O.......");
    StoreKey k = key_of(&p);
    StoreValue ok = {WINNER_ORDER, MOVE_NONE, STORE_DTW_UNKNOWN, 0, 0};
    StoreValue v = ok;
    v.winner = WINNER_NONE;
    cr_expect_eq(store_put(s, &k, &v, err, sizeof err), -1);
    v = ok;
    v.move = ref_move(6, 0, 'O'); /* occupied */
    cr_expect_eq(store_put(s, &k, &v, err, sizeof err), -1);
    cr_expect(strstr(err, "occupied"), "%s", err);
    v = ok;
    v.dtw = 40; /* more than the empty cells */
    cr_expect_eq(store_put(s, &k, &v, err, sizeof err), -1);
    v = ok;
    v.winner = WINNER_CHAOS;
    v.dtw = 3;
    cr_expect_eq(store_put(s, &k, &v, err, sizeof err), -1);
    StoreKey bk = k;
    bk.k = 7;
    cr_expect_eq(store_put(s, &bk, &ok, err, sizeof err), -1);
    bk = k;
    bk.pos.s[0] |= 1ULL << 7; /* off a 6x6 board */
    cr_expect_eq(store_put(s, &bk, &ok, err, sizeof err), -1);
    StoreValue got;
    cr_expect_eq(store_get(s, &bk, &got), -1);
    cr_expect(store_error(s)[0] != '\0');
    StoreStats st;
    cr_assert_eq(store_stats(s, &st, err, sizeof err), 0, "%s", err);
    cr_expect_eq(st.entries, 0);
    store_close(s);
    tl_rm_dir(dir);
}

Test(store, readonly_missing_fails)
{
    char dir[64], path[128], err[256] = "";
    tl_tmp_dir(dir, sizeof dir, "store");
    snprintf(path, sizeof path, "%s/none", dir);
    cr_expect(store_open(path, true, 0, err, sizeof err) == NULL);
    cr_expect(err[0] != '\0' && strstr(err, path), "message: [%s]", err);
    struct stat st;
    cr_expect(stat(path, &st) != 0, "a read-only open created the directory");
    /* An existing directory that is not a store. */
    err[0] = '\0';
    cr_expect(store_open(dir, true, 0, err, sizeof err) == NULL);
    cr_expect(strstr(err, "not a store"), "message: [%s]", err);
    tl_rm_dir(dir);
}

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
    Store *w = open_ok(dir, false);
    RefPos p;
    ref_parse(&p, 6, 5, 0, "XX.OO...............................");
    StoreKey k = key_of(&p);
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
    w = open_ok(dir, false);
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
    return key_of(&p);
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
    Store *s = open_ok(dir, false);
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
    s = open_ok(dir, true);
    StoreValue got;
    cr_expect_eq(store_get(s, &k, &got), 1, "%s", store_error(s));
    store_close(s);
    /* Another program's database: foreign records, no meta record. */
    tl_rm_dir(dir);
    tl_tmp_dir(dir, sizeof dir, "store");
    store_close(open_ok(dir, false)); /* an empty LMDB environment */
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
    s = open_ok(dir, true);
    StoreGame got;
    cr_assert_eq(store_game(s, &got), 1, "the write-open wrote no meta record");
    cr_expect(got.rules == RULES_ORIGINAL && got.n == 6 && got.k == 5);
    store_close(s);
    expect_open_refused(dir, false, &exact, "holds original 6x6 k=5 positions, not exact 6x6 k=5");
    expect_open_refused(dir, true, &small, "holds original 6x6 k=5 positions, not original 4x4 k=4");
    /* With any game accepted, a put or get of another game is refused. */
    s = open_ok(dir, false);
    RefPos p;
    ref_parse(&p, 4, 4, 0, "X..............O");
    StoreKey k4 = key_of(&p);
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
    s = open_ok(dir, false);
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
    store_close(open_ok(dir, false));
    s = store_open_game(dir, true, 1, &exact, err, sizeof err);
    cr_expect(s != NULL, "%s", err);
    store_close(s);
    tl_rm_dir(dir);
}

/* ------------------------------------------------------------------ */
/* The command line                                                    */
/* ------------------------------------------------------------------ */

static void expect_code(Run *r, int code)
{
    cr_expect(r->exited && r->code == code, "%s: exit %d, expected %d; stderr: %s", r->desc, r->code, code, r->err);
}

Test(store, command_line)
{
    char dir[64];
    tl_tmp_dir(dir, sizeof dir, "store");
    const char *P = "XX.OO./....../....../....../....../......";
    const char *MIRROR = ".OO.XX/....../....../....../....../......";
    Run r;
    expect_ok(&r, "store", "put", dir, P, "order", "Xc1", "3");
    run_free(&r);
    expect_ok(&r, "store", "get", dir, MIRROR);
    cr_expect(strstr(r.out, "winner: order\n") && strstr(r.out, "best move: Xd1\n") && strstr(r.out, "dtw: 3\n"),
              "%s", r.out);
    run_free(&r);
    /* A smaller dtw is taken, a conflict refused (exit 1, one line). */
    expect_ok(&r, "store", "put", dir, P, "order", "-", "2");
    run_free(&r);
    run_argv(&r, ARGS("store", "put", dir, MIRROR, "chaos"));
    expect_code(&r, 1);
    cr_expect(strstr(r.err, "conflict") && count_char(r.err, r.errlen, '\n') == 1, "%s", r.err);
    run_free(&r);
    expect_ok(&r, "store", "put", dir, "X...../....../....../....../....../.....O", "chaos");
    run_free(&r);
    /* Not there: exit 1. */
    run_argv(&r, ARGS("store", "get", dir, "X.X.../....../....../....../....../......"));
    expect_code(&r, 1);
    cr_expect(strstr(r.out, "not in the store"), "%s", r.out);
    run_free(&r);
    expect_ok(&r, "store", "stats", dir);
    cr_expect(strstr(r.out, "game: original 6x6 k=5\n"), "%s", r.out);
    cr_expect(strstr(r.out, "entries: 2 (order 1, chaos 1)"), "%s", r.out);
    run_free(&r);
    expect_ok(&r, "store", "export", dir);
    cr_expect_eq(count_char(r.out, r.outlen, '\n'), 2, "%s", r.out);
    cr_expect(strstr(r.out, "original 6 5 XX.OO............................... order Xc1 2\n"), "%s", r.out);
    cr_expect(strstr(r.out, " chaos - -\n"), "%s", r.out);
    run_free(&r);
    expect_ok(&r, "store", "export", "--json", dir);
    cr_expect_eq(count_char(r.out, r.outlen, '\n'), 2, "%s", r.out);
    cr_expect(strstr(r.out, "\"winner\":\"order\",\"move\":\"Xc1\",\"dtw\":2"), "%s", r.out);
    cr_expect(strstr(r.out, "\"move\":null,\"dtw\":null"), "%s", r.out);
    run_free(&r);
    /* User errors: one line, exit 2. */
    char missing[128], file[128];
    snprintf(missing, sizeof missing, "%s/missing", dir);
    snprintf(file, sizeof file, "%s/data.mdb", dir);
    expect_reject("missing", "store", "stats", missing);
    expect_reject("missing", "store", "get", missing, P);
    expect_reject("not a directory", "store", "export", file);
    expect_reject("not a store", "store", "stats", "/tmp");
    expect_reject("unknown store command", "store", "bogus", dir);
    expect_reject("COMMAND", "store");
    expect_reject("POSITION", "store", "get", dir);
    expect_reject("'Q'", "store", "get", dir, "XXQOO./....../....../....../....../......");
    expect_reject("winner", "store", "put", dir, P, "draw");
    expect_reject("occupied", "store", "put", dir, P, "order", "Xa1");
    expect_reject("distance to win", "store", "put", dir, P, "order", "Xc1", "99");
    expect_reject("--bogus", "store", "stats", "--bogus", dir);
    expect_reject("too many", "store", "stats", dir, dir);
    run_argv(&r, ARGS("store", "--help"));
    expect_code(&r, 0);
    cr_expect(strstr(r.out, "usage: ocsolve store"), "%s", r.out);
    run_free(&r);
    tl_rm_dir(dir);
}

/* One game per store, on the command line: the first put names it, stats
 * prints it, another game's put or get is refused (exit 2, one line), and
 * the other game goes in a store of its own. */
Test(store, command_line_games)
{
    char dir[64], dir4[64];
    tl_tmp_dir(dir, sizeof dir, "store");
    tl_tmp_dir(dir4, sizeof dir4, "store");
    Run r;
    expect_ok(&r, "store", "put", dir, "XX.OO./....../....../....../....../......", "order");
    run_free(&r);
    expect_reject("holds original 6x6 k=5 positions, not exact 4x4 k=4", "store", "put", "--rules", "exact", "--board",
                  "4", "--k", "4", dir, "-", "chaos");
    expect_reject("not original 4x4 k=4", "store", "get", "--board", "4", "--k", "4", dir, "empty");
    expect_reject("not exact 6x6 k=5", "store", "get", "--rules", "exact", dir, "empty");
    expect_ok(&r, "store", "stats", dir);
    cr_expect(strstr(r.out, "game: original 6x6 k=5\n") && strstr(r.out, "entries: 1 "), "%s", r.out);
    run_free(&r);
    expect_ok(&r, "store", "put", "--rules", "exact", "--board", "4", "--k", "4", dir4, "-", "chaos");
    run_free(&r);
    expect_ok(&r, "store", "get", "--rules", "exact", "--board", "4", "--k", "4", dir4, "empty");
    cr_expect(strstr(r.out, "winner: chaos\n") && strstr(r.out, "best move: none\n") && strstr(r.out, "dtw: unknown\n"),
              "%s", r.out);
    run_free(&r);
    expect_ok(&r, "store", "export", dir4);
    cr_expect(strstr(r.out, "exact 4 4 ................ chaos - -\n"), "%s", r.out);
    run_free(&r);
    expect_ok(&r, "store", "stats", dir4);
    cr_expect(strstr(r.out, "game: exact 4x4 k=4\n"), "%s", r.out);
    run_free(&r);
    tl_rm_dir(dir);
    tl_rm_dir(dir4);
}

/* A store opened with a 1 MiB map takes more than 1 MiB: a full map is
 * doubled and the put retried. */
Test(store, map_grows)
{
    char dir[64], err[256];
    tl_tmp_dir(dir, sizeof dir, "store");
    Store *s = open_ok(dir, false);
    /* Tens of thousands of puts: without a flush each (on a busy machine
     * the flushes alone took over a minute). */
    cr_assert_eq(store_set_durable(s, false), 0);
    StoreStats st;
    bool grew = false;
    for (int i = 0; i < 60000 && !grew; i++) {
        /* 8x8 keys: X on the first 16 cells as i's bits, one O on cell 63
         * (a few are images of one another; the map fills all the same). */
        StoreKey k = {RULES_ORIGINAL, 8, 5, {{(uint64_t)i, 1ULL << 63}}};
        StoreValue v = {WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN};
        cr_assert_eq(store_put(s, &k, &v, err, sizeof err), 0, "put %d: %s", i, err);
        if (i % 2000 == 1999) {
            cr_assert_eq(store_stats(s, &st, err, sizeof err), 0, "%s", err);
            grew = st.map_bytes > (1u << 20);
        }
    }
    cr_expect(grew, "the map never grew");
    cr_assert_eq(store_stats(s, &st, err, sizeof err), 0, "%s", err);
    cr_expect(st.file_bytes > (1u << 20), "file %llu bytes", (unsigned long long)st.file_bytes);
    store_close(s);
    tl_rm_dir(dir);
}

/* ------------------------------------------------------------------ */
/* A store that fills up                                               */
/* ------------------------------------------------------------------ */

/* 8x8 keys as in map_grows: X on the first 16 cells as i's bits. */
static StoreKey fill_key(int i) { return (StoreKey){RULES_ORIGINAL, 8, 5, {{(uint64_t)i, 1ULL << 63}}}; }

/* Puts fill keys until a put fails (at most max); the count that went in,
 * the failure's message in err (empty if none failed). */
static int fill(Store *s, int max, char *err, int errlen)
{
    err[0] = '\0';
    StoreValue v = {WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN};
    for (int i = 0; i < max; i++) {
        StoreKey k = fill_key(i);
        if (store_put(s, &k, &v, err, errlen) != 0) return i;
    }
    return max;
}

/* Every put that returned 0 is there, read by a fresh read-only open. */
static void expect_entries(const char *dir, int count)
{
    Store *s = open_ok(dir, true);
    StoreStats st;
    char err[256];
    cr_assert_eq(store_stats(s, &st, err, sizeof err), 0, "%s", err);
    /* A few fill keys are images of others (one record): at most count. */
    cr_expect(st.entries > 0 && st.entries <= (uint64_t)count, "%llu entries for %d puts",
              (unsigned long long)st.entries, count);
    for (int i = 0; i < count; i++) {
        StoreKey k = fill_key(i);
        StoreValue got;
        cr_assert_eq(store_get(s, &k, &got), 1, "put %d of %d lost", i, count);
    }
    store_close(s);
}

Test(store, map_limit_reached)
{
    char dir[64], err[512];
    tl_tmp_dir(dir, sizeof dir, "store");
    Store *s = open_ok(dir, false);
    cr_assert_eq(store_set_durable(s, false), 0);
    store_set_map_limit(s, 2u << 20);
    int in = fill(s, 200000, err, sizeof err);
    cr_assert(in > 1000 && in < 200000, "%d puts before the map filled: %s", in, err);
    char want[128];
    snprintf(want, sizeof want, "store %s is full: its map is at its limit of 2.0 MiB", dir);
    cr_expect(strstr(err, want) != NULL, "message: %s", err);
    /* Still usable: a put of a stored key (nothing new) and reads work. */
    StoreKey k = fill_key(0);
    StoreValue v = {WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN}, got;
    cr_expect_eq(store_put(s, &k, &v, err, sizeof err), 0, "%s", err);
    cr_expect_eq(store_get(s, &k, &got), 1, "%s", store_error(s));
    store_close(s);
    expect_entries(dir, in);
    tl_rm_dir(dir);
}

/* The disk full, simulated by a file size limit (RLIMIT_FSIZE: LMDB's
 * writes fail with EFBIG) in a child: the put fails with the store's name
 * and the cause, and every earlier put stays. */
/* Runs body(s, out) in a child on a fresh store in dir (1 MiB map, not
 * durable), where it may limit the child's resources; the parent gets the
 * child's report "PUTS RC\nFIRST-ERROR\nLATER-ERROR\n" in out and the
 * numbers in *in and *rc. */
typedef void (*ChildBody)(Store *s, char out[1200]);
static void in_child(const char *dir, ChildBody body, char out[1200], int *in, int *rc)
{
    int msg[2];
    cr_assert_eq(pipe(msg), 0);
    pid_t kid = fork();
    cr_assert(kid >= 0);
    if (kid == 0) {
        char err[512];
        Store *s = store_open(dir, false, 1, err, sizeof err);
        if (!s || store_set_durable(s, false) != 0) _exit(1);
        char rep[1200];
        body(s, rep);
        size_t len = strlen(rep);
        _exit(write(msg[1], rep, len) == (ssize_t)len ? 0 : 3);
    }
    int status;
    cr_assert_eq(waitpid(kid, &status, 0), kid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    memset(out, 0, 1200);
    cr_assert(read(msg[0], out, 1199) > 0);
    close(msg[0]);
    close(msg[1]);
    cr_assert_eq(sscanf(out, "%d %d", in, rc), 2, "%s", out);
}

static void fill_past_file_limit(Store *s, char out[1200])
{
    char err[512] = "";
    signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails instead of killing */
    struct rlimit rl = {256 << 10, 256 << 10};
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(2);
    int in = fill(s, 200000, err, sizeof err);
    char again[512] = "";
    StoreKey k = fill_key(in);
    StoreValue v = {WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN};
    int rc = store_put(s, &k, &v, again, sizeof again);
    store_close(s);
    snprintf(out, 1200, "%d %d\n%s\n%s\n", in, rc, err, again);
}

Test(store, write_error_reported)
{
    char dir[64];
    tl_tmp_dir(dir, sizeof dir, "store");
    char out[1200];
    int in = 0, rc = 0;
    in_child(dir, fill_past_file_limit, out, &in, &rc);
    cr_expect(in > 100 && in < 200000, "%d puts: %s", in, out);
    /* LMDB names a write refused at the limit EFBIG, and one cut short
     * there (part of it written) EIO: which one depends on where the
     * limit falls in the write (a put writes its record and the meta
     * record) */
    char want[128], want2[128];
    snprintf(want, sizeof want, "store %s: cannot write: File too large\n", dir);
    snprintf(want2, sizeof want2, "store %s: cannot write: Input/output error\n", dir);
    cr_expect(strstr(out, want) || strstr(out, want2), "first failure: %s", out);
    cr_expect_eq(rc, -1, "a put after the failure: %s", out);
    expect_entries(dir, in);
    tl_rm_dir(dir);
}

#ifndef OCS_SANITIZE
/* A map that cannot grow: the address space limited (RLIMIT_AS) in a
 * child, so that LMDB's mmap of the doubled map fails. The Store is then
 * unusable, and says so, rather than touching a missing map. (Not under
 * ASan, which reserves terabytes of address space.) */
static long vm_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0;
    if (!f) return -1;
    if (fscanf(f, "%ld", &pages) != 1) pages = -1;
    fclose(f);
    return pages < 0 ? -1 : pages * sysconf(_SC_PAGESIZE);
}

static void fill_past_address_space(Store *s, char out[1200])
{
    char err[512] = "";
    long vm = vm_bytes();
    /* Room for growing the map to 2 and 4 MiB (the old one is unmapped
     * first), not to 8. */
    struct rlimit rl = {(rlim_t)vm + (5 << 20), (rlim_t)vm + (5 << 20)};
    if (vm < 0 || setrlimit(RLIMIT_AS, &rl) != 0) _exit(2);
    int in = fill(s, 400000, err, sizeof err);
    StoreKey k = fill_key(0);
    StoreValue v;
    int rc = store_get(s, &k, &v);
    char again[512];
    snprintf(again, sizeof again, "%s", store_error(s));
    store_close(s);
    snprintf(out, 1200, "%d %d\n%s\n%s\n", in, rc, err, again);
}

Test(store, map_cannot_grow)
{
    char dir[64];
    tl_tmp_dir(dir, sizeof dir, "store");
    char out[1200];
    int in = 0, rc = 0;
    in_child(dir, fill_past_address_space, out, &in, &rc);
    char want[256];
    snprintf(want, sizeof want, "store %s is full and its map cannot grow from ", dir);
    cr_expect(strstr(out, want) && strstr(out, " MiB: Cannot allocate memory\n"), "failure: %s", out);
    cr_expect_eq(rc, -1, "a get after the failure: %s", out);
    expect_entries(dir, in);
    tl_rm_dir(dir);
}
#endif

/* store_forbid (what an MPI worker rank calls first, app/main_mpi.c): from
 * then on no store and no journal opens in the process, each refusal one
 * line naming the reason. In a child process, since it is not undone. */
Test(store, forbidden_process_opens_nothing)
{
    char dir[256];
    tl_tmp_dir(dir, sizeof dir, "store-forbid");
    Store *st = open_ok(dir, false); /* a store that opens, before */
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
    st = open_ok(dir, true); /* this process was not forbidden */
    store_close(st);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect(system(cmd) == 0);
}
