/* test_store.c - the store of decided positions (tables/store.h) and its
 * records: random positions of every rule set and board size round-trip
 * against the test's own table, across a close and a read-only reopen; the
 * 16 images of a position share one record and get maps the best move into
 * each frame (checked with the reference's own images, tests/ref.h, not
 * with the engine's symmetry code); a conflicting put is refused; the
 * smaller distance to win is kept; bad input is refused; and the `ocsolve
 * store` command line, exit codes 0, 1 and 2. Who may open a store is
 * test_store_open.c's, a store that fills up test_store_full.c's; the
 * suite's options (TestSuite below, declared once) hold for their tests
 * too. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../tables/store.h"
#include "runbin.h"
#include "testlib.h"
#include "tstore.h"

TestSuite(store, .timeout = 60);

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static bool ref_equal(const RefPos *a, const RefPos *b)
{
    return a->n == b->n && memcmp(a->cell, b->cell, (size_t)(a->n * a->n)) == 0;
}

/* The test's own bridge: ref cell r*n+c is bit 8r+c (board.h). */
static Move ref_move(int n, int refcell, char sym) { return move_make(sym == 'O' ? PIECE_O : PIECE_X, 8 * (refcell / n) + refcell % n); }
static int move_refcell(int n, Move m) { return cell_row(move_cell(m)) * n + cell_col(move_cell(m)); }
static void ref_play(RefPos *p, Move m) { p->cell[move_refcell(p->n, m)] = move_piece(m) == PIECE_O ? 'O' : 'X'; }

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
        StoreKey k = tstore_key_of(&image);
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
    Store *s = tstore_open_ok(dir, false);
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
        StoreKey key = tstore_key_of(&p);
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
        StoreKey qk = tstore_key_of(&q);
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
    s = tstore_open_ok(dir, true);
    check_all(s, count, rng);
    StoreKey key = tstore_key_of(&tpos[0]);
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
        Store *s = tstore_open_ok(dir, false);
        StoreKey k = tstore_key_of(&ps[t]);
        StoreValue v = {WINNER_ORDER, mv[t], STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN};
        cr_assert_eq(store_put(s, &k, &v, err, sizeof err), 0, "%s", err);
        for (int h = 0; h < 16; h++) {
            RefPos image;
            ref_image(&ps[t], h, &image);
            StoreKey ik = tstore_key_of(&image);
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
    Store *s = tstore_open_ok(dir, false);
    RefPos p, image;
    ref_parse(&p, 6, 5, 0, "XX.OO.......O.....X.........O.......");
    StoreKey k = tstore_key_of(&p);
    StoreValue v = {WINNER_ORDER, ref_move(6, 2, 'X'), 3, 0, STORE_SOURCE_DFPN};
    cr_assert_eq(store_put(s, &k, &v, err, sizeof err), 0, "%s", err);
    ref_image(&p, 13, &image);
    StoreKey ik = tstore_key_of(&image);
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
    Store *s = tstore_open_ok(dir, false);
    RefPos p;
    ref_parse(&p, 6, 5, 0, "XX.OO.......O.....X.........O.......");
    StoreKey k = tstore_key_of(&p);
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
    Store *s = tstore_open_ok(dir, false);
    RefPos p;
    ref_parse(&p, 6, 5, 0, "XX.OO.......O.....X.........O.......");
    StoreKey k = tstore_key_of(&p);
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
