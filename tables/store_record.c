/* store_record.c - the store's records as its LMDB database holds them
 * (store.h: Key, Value, Bound records, Meta record): a key, value or
 * bound a caller hands in checked against its position, one game per
 * store, the meta record read and written, a raw record decoded and
 * checked, and every position record of a transaction so checked
 * (store_walk_records: the open's check in store.c and store_check's in
 * store_walk.c, which both call down to it here). The byte strings and
 * their checksums are store_format.c's; this adds what needs LMDB or the
 * Store, and calls no other tables/store*.c but store_format.c.
 *
 * Invariants: store_decode_record accepts a record only when its key and value
 * have their sizes, its check holds, its version and kind are known, and
 * a bound record is in a store of format 3; store_read_meta hands out a meta
 * record only of format 2 or 3, its check holding, naming a valid game.
 * Nothing else of the file is trusted: the store is input from outside.
 */
#include "store_internal.h"

#include <stdio.h>
#include <string.h>

#include "errmsg.h"
#include "le.h"

bool store_game_valid(const StoreGame *g)
{
    return (int)g->rules >= RULES_ORIGINAL && (int)g->rules <= RULES_EXACT_END && g->n >= BOARD_MIN_N &&
           g->n <= BOARD_MAX_N && g->k >= 3 && g->k <= g->n;
}

bool store_game_equal(const StoreGame *a, const StoreGame *b)
{
    return a->rules == b->rules && a->n == b->n && a->k == b->k;
}

/* -1 with "store DIR holds G positions, not H" when key is of another game
 * than the store's (a store without a game yet takes any). */
int store_check_game(const Store *s, const StoreKey *key, char *err, int errlen)
{
    StoreGame g = {key->rules, key->n, key->k};
    if (!s->has_game || store_game_equal(&g, &s->game)) return 0;
    char have[64], want[64];
    store_game_name(&s->game, have, sizeof have);
    store_game_name(&g, want, sizeof want);
    errmsg_set(err, errlen, "store %s holds %s positions, not %s (one game per store)", s->path, have, want);
    return -1;
}

int store_check_key(const StoreKey *k, char *err, int errlen)
{
    if ((int)k->rules < RULES_ORIGINAL || (int)k->rules > RULES_EXACT_END) {
        errmsg_set(err, errlen, "bad key: rules %d (0..2)", (int)k->rules);
        return -1;
    }
    if (k->n < BOARD_MIN_N || k->n > BOARD_MAX_N || k->k < 3 || k->k > k->n) {
        errmsg_set(err, errlen, "bad key: n=%d k=%d (n 4..8, k 3..n)", k->n, k->k);
        return -1;
    }
    uint64_t mask = board_mask(k->n);
    if ((k->pos.s[PIECE_X] & k->pos.s[PIECE_O]) || (board_occupied(k->pos) & ~mask)) {
        errmsg_set(err, errlen, "bad key: not a %dx%d position (a cell with two symbols, or one off the board)",
                k->n, k->n);
        return -1;
    }
    return 0;
}

/* The value as the caller gives it, against its position (caller's frame). */
int store_check_value(const StoreKey *k, const StoreValue *v, char *err, int errlen)
{
    if (v->winner != WINNER_ORDER && v->winner != WINNER_CHAOS) {
        errmsg_set(err, errlen, "bad value: winner %d (order or chaos)", (int)v->winner);
        return -1;
    }
    if (v->move != MOVE_NONE) {
        if (v->move & 0x80) {
            errmsg_set(err, errlen, "bad value: move byte 0x%02x", v->move);
            return -1;
        }
        uint64_t bit = 1ULL << move_cell(v->move);
        if (!(bit & board_mask(k->n)) || (board_occupied(k->pos) & bit)) {
            errmsg_set(err, errlen, "bad value: the move's cell is %s", (bit & board_mask(k->n)) ? "occupied" : "off the board");
            return -1;
        }
    }
    if (v->dtw != STORE_DTW_UNKNOWN) {
        int empty = k->n * k->n - board_count(k->pos);
        if (v->winner != WINNER_ORDER) {
            errmsg_set(err, errlen, "bad value: a distance to win is Order's (Chaos wins here)");
            return -1;
        }
        if (v->dtw < 1 || v->dtw > empty) {
            errmsg_set(err, errlen, "bad value: distance to win %d (1..%d, the empty cells)", v->dtw, empty);
            return -1;
        }
    }
    return 0;
}

/* A bound as the caller gives it, against its position (caller's frame). */
int store_check_bound(const StoreKey *k, const StoreBound *b, char *err, int errlen)
{
    bool yes = b->yes != STORE_BOUND_NONE, no = b->no != STORE_BOUND_NONE;
    if ((yes && (b->yes < 0 || b->yes > STORE_BOUND_MAX)) || (no && (b->no < 0 || b->no > STORE_BOUND_MAX)) ||
        (!yes && !no)) {
        errmsg_set(err, errlen, "bad bound: yes %d, no %d (0..%d, at least one known)", b->yes, b->no, STORE_BOUND_MAX);
        return -1;
    }
    if (yes && no && b->yes <= b->no) {
        errmsg_set(err, errlen, "bad bound: Order wins within %d plies and cannot within %d", b->yes, b->no);
        return -1;
    }
    if (b->move == MOVE_NONE) return 0;
    uint64_t bit = 1ULL << move_cell(b->move);
    if (!yes || (b->move & 0x80) || !(bit & board_mask(k->n)) || (board_occupied(k->pos) & bit)) {
        errmsg_set(err, errlen, "bad bound: a move %s", !yes ? "without a yes" : "off the board or on a taken cell");
        return -1;
    }
    return 0;
}

static MDB_val meta_key(void) { return (MDB_val){STORE_META_KEY_BYTES, (void *)STORE_META_KEY}; }

bool store_is_meta_key(const MDB_val *k)
{
    return k->mv_size == STORE_META_KEY_BYTES && memcmp(k->mv_data, STORE_META_KEY, STORE_META_KEY_BYTES) == 0;
}

/* Puts meta record m inside txn. */
int store_put_meta(Store *s, MDB_txn *txn, const StoreMeta *m)
{
    StoreMetaBytes mb;
    store_meta_encode(m, &mb);
    MDB_val k = meta_key(), v = {sizeof mb.b, mb.b};
    return mdb_put(txn, s->dbi, &k, &v, 0);
}

/* The meta record in txn: 1 found (*m, of this format, its game valid),
 * 0 none, -1 with a message naming path. */
int store_read_meta(const char *path, MDB_txn *txn, MDB_dbi dbi, StoreMeta *m, char *err, int errlen)
{
    MDB_val k = meta_key(), v;
    int rc = mdb_get(txn, dbi, &k, &v);
    if (rc == MDB_NOTFOUND) return 0;
    if (rc != 0) {
        errmsg_set(err, errlen, "store %s: cannot read its meta record: %s", path, mdb_strerror(rc));
        return -1;
    }
    const uint8_t *b = v.mv_data;
    /* A store of another format says so even when its meta record has
     * another size (format 1's was 16 bytes). */
    unsigned version = v.mv_size >= 10 && memcmp(b, STORE_MAGIC, 8) == 0 ? (unsigned)le_get(b + 8, 2) : STORE_FORMAT;
    if (version != STORE_FORMAT && version != STORE_FORMAT_BOUNDS) {
        errmsg_set(err, errlen, "store %s has store format version %u (this ocsolve reads %d and %d)", path, version,
                   STORE_FORMAT, STORE_FORMAT_BOUNDS);
        return -1;
    }
    StoreMetaBytes mb;
    if (v.mv_size != sizeof mb.b) {
        errmsg_set(err, errlen, "store %s: not an ocsolve store (its meta record is not one)", path);
        return -1;
    }
    memcpy(mb.b, b, sizeof mb.b);
    if (store_meta_decode(&mb, m) != 0) {
        errmsg_set(err, errlen, "store %s: %s", path,
                   memcmp(b, STORE_MAGIC, 8) == 0 ? "corrupt meta record (it fails its check)"
                                                  : "not an ocsolve store (its meta record is not one)");
        return -1;
    }
    if (!store_game_valid(&m->game)) {
        errmsg_set(err, errlen, "store %s: corrupt meta record (rules %d, n %d, k %d)", path, (int)m->game.rules,
                   m->game.n, m->game.k);
        return -1;
    }
    return 1;
}

/* One raw position record, checked, in a store of format `version`: 0
 * (key and record filled), -1 malformed (why says how), STORE_BAD_CHECK.
 * A bound record in a format-2 store is malformed (store.h, Versions). */
int store_decode_record(const MDB_val *k, const MDB_val *v, unsigned version, StoreKey *key, Rec *rec,
                  uint64_t *check, const char **why)
{
    StoreKeyBytes kb;
    StoreValueBytes vb;
    *why = "a key or value of the wrong size";
    if (k->mv_size != sizeof kb.b || v->mv_size != sizeof vb.b) return -1;
    memcpy(kb.b, k->mv_data, sizeof kb.b);
    memcpy(vb.b, v->mv_data, sizeof vb.b);
    rec->kind = store_key_kind(&kb);
    int rc = rec->kind == STORE_KIND_BOUND ? store_bound_decode(&kb, &vb, &rec->bound)
                                           : store_value_decode(&kb, &vb, &rec->val);
    *why = rc == STORE_BAD_CHECK ? "fails its check" : "a malformed value";
    if (rc != 0) return rc;
    store_key_decode(&kb, key);
    *why = "a malformed key";
    if (rec->kind != STORE_KIND_VALUE && rec->kind != STORE_KIND_BOUND) return -1;
    *why = "a bound record in a store of format 2";
    if (rec->kind == STORE_KIND_BOUND && version < STORE_FORMAT_BOUNDS) return -1;
    *check = store_value_check(&vb);
    return 0;
}

/* Reads every position record of txn, in key order, checking each
 * (store_check_key too); bad ones are counted and told to bad (NULL: not
 * told). 0, or LMDB's error. */
int store_walk_records(MDB_txn *txn, MDB_dbi dbi, unsigned version, Walked *w, StoreBadRecord bad, void *ctx)
{
    MDB_cursor *cur;
    *w = (Walked){0};
    int rc = mdb_cursor_open(txn, dbi, &cur);
    if (rc != 0) return rc;
    MDB_val k, v;
    for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        if (store_is_meta_key(&k)) continue;
        StoreKey key;
        Rec rec;
        uint64_t check = 0;
        const char *why;
        w->records++;
        int r = store_decode_record(&k, &v, version, &key, &rec, &check, &why);
        if (r == 0 && store_check_key(&key, NULL, 0) != 0) r = -1, why = "a key that is no position";
        if (r == 0) {
            w->digest ^= check;
            continue;
        }
        if (!w->bad++) snprintf(w->first, sizeof w->first, "record %llu: %s", (unsigned long long)w->records, why);
        if (bad) bad(k.mv_data, k.mv_size, why, ctx);
    }
    mdb_cursor_close(cur);
    return rc == MDB_NOTFOUND ? 0 : rc;
}
