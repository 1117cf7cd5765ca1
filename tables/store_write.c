/* store_write.c - a put (store_put, store_put_bound; store.h, Merging and
 * Bound records): the caller's record canonicalised, merged with the
 * stored one of its position and written with the meta record in one
 * write transaction, the map grown when it is full; and what a value
 * record says of the bounds (store_bound_of_value), which a put holds the
 * bound record against.
 *
 * Invariants: a put never changes a stored winner, and never leaves a
 * position whose yes is at or below its no (its bound record and value
 * record read together): both are refused with STORE_CONFLICT, the
 * stored record kept. The meta record's count and digest change in the
 * transaction that writes the record, so they always describe the
 * committed records. A put that fails has written nothing (its
 * transaction is aborted, or its commit failed).
 */
#include "store_internal.h"

#include <stdint.h>

#include "../engine/symmetry.h"
#include "errmsg.h"

/* The record to keep of two with the same winner (store.h, Merging). */
static StoreValue merge(const StoreValue *old, const StoreValue *nw)
{
    bool better = nw->dtw != STORE_DTW_UNKNOWN && (old->dtw == STORE_DTW_UNKNOWN || nw->dtw < old->dtw);
    const StoreValue *a = better ? nw : old, *b = better ? old : nw;
    StoreValue m = *a;
    if (m.move == MOVE_NONE) m.move = b->move;
    m.flags = old->flags | nw->flags;
    m.source = old->source != STORE_SOURCE_UNKNOWN ? old->source : nw->source;
    return m;
}

/* The bound record to keep of two (store.h, Bound records): the least yes
 * with its move (a move is one within its own yes only), the greatest no. */
static StoreBound merge_bound(const StoreBound *old, const StoreBound *nw)
{
    StoreBound m = *old;
    if (nw->yes != STORE_BOUND_NONE && (old->yes == STORE_BOUND_NONE || nw->yes < old->yes)) {
        m.yes = nw->yes;
        m.move = nw->move;
    } else if (nw->yes == old->yes && m.move == MOVE_NONE) {
        m.move = nw->move;
    }
    if (nw->no > m.no) m.no = nw->no; /* STORE_BOUND_NONE is -1, below every bound */
    m.flags = old->flags | nw->flags;
    m.source = old->source != STORE_SOURCE_UNKNOWN ? old->source : nw->source;
    return m;
}

void store_bound_of_value(const StoreKey *key, const StoreValue *v, StoreBound *out)
{
    *out = (StoreBound){.yes = STORE_BOUND_NONE, .no = STORE_BOUND_NONE, .move = MOVE_NONE, .flags = v->flags,
                        .source = v->source};
    if (v->winner == WINNER_CHAOS) {
        out->no = STORE_BOUND_MAX;
        return;
    }
    int empty = key->n * key->n - board_count(key->pos);
    out->yes = v->dtw != STORE_DTW_UNKNOWN ? v->dtw : empty;
    if (v->dtw != STORE_DTW_UNKNOWN) out->no = v->dtw - 1;
}

static bool same_value(const StoreValue *a, const StoreValue *b)
{
    return a->winner == b->winner && a->move == b->move && a->dtw == b->dtw && a->flags == b->flags &&
           a->source == b->source;
}

static bool same_bound(const StoreBound *a, const StoreBound *b)
{
    return a->yes == b->yes && a->no == b->no && a->move == b->move && a->flags == b->flags && a->source == b->source;
}

/* The record of key bytes k (kind byte 3) read inside txn, in a store of
 * format version: 1 found (*rec, *check), 0 none, -3 corrupt (message),
 * -1 LMDB's error in *mdb_rc. */
static int read_rec(Store *s, MDB_txn *txn, const uint8_t *k, unsigned version, Rec *rec, uint64_t *check,
                    int *mdb_rc, char *err, int errlen)
{
    MDB_val key = {STORE_KEY_BYTES, (void *)k}, old;
    int rc = mdb_get(txn, s->dbi, &key, &old);
    if (rc == MDB_NOTFOUND) return 0;
    if (rc != 0) return *mdb_rc = rc, -1;
    StoreKey ok;
    const char *why;
    if (store_decode_record(&key, &old, version, &ok, rec, check, &why) != 0) {
        errmsg_set(err, errlen, "store %s is corrupt: the record of this position %s", s->path, why);
        return -3;
    }
    return 1;
}

/* Do the value record v and the bound record b of one position (key)
 * contradict each other (store.h: a yes at or below a no)? Then the
 * message. */
static bool contradicts(const StoreKey *key, const StoreValue *v, const StoreBound *b, char *err, int errlen)
{
    StoreBound of;
    store_bound_of_value(key, v, &of);
    StoreBound m = merge_bound(b, &of);
    if (m.yes == STORE_BOUND_NONE || m.no == STORE_BOUND_NONE || m.yes > m.no) return false;
    errmsg_set(err, errlen,
               "conflict: the position's value record (%s wins) and bound record say Order wins within %d plies "
               "and cannot within %d (the stored record is kept)",
               v->winner == WINNER_ORDER ? "order" : "chaos", m.yes, m.no);
    return true;
}

/* Inside a write transaction: the record to write for key bytes kb (the
 * stored record of its kind merged with in), checked against the record
 * of the other kind of the same position, and the meta record updated
 * for it (count, digest, and format 3 for a first bound record). 0 write
 * *keep, 1 nothing new, STORE_CONFLICT or -3 (a corrupt record or meta
 * record) with a message in err, -1 LMDB's error in *mdb_rc. */
static int merge_in_txn(Store *s, MDB_txn *txn, const StoreKeyBytes *kb, const Rec *in, const StoreGame *game,
                        Rec *keep, StoreMeta *meta, int *mdb_rc, char *err, int errlen)
{
    int found = store_read_meta(s->path, txn, s->dbi, meta, err, errlen);
    if (found < 0 || (!found && !game)) {
        if (!found) errmsg_set(err, errlen, "store %s is corrupt: its meta record is gone", s->path);
        return -3;
    }
    if (!found) *meta = (StoreMeta){*game, STORE_FORMAT, 0, 0};
    unsigned version = meta->version;
    if (in->kind == STORE_KIND_BOUND) meta->version = STORE_FORMAT_BOUNDS;
    *keep = *in;
    Rec old, other;
    uint64_t check = 0, ocheck;
    int got = read_rec(s, txn, kb->b, version, &old, &check, mdb_rc, err, errlen);
    if (got < 0) return got;
    StoreKeyBytes okb = *kb; /* the other kind's record of the position */
    okb.b[3] = in->kind == STORE_KIND_BOUND ? STORE_KIND_VALUE : STORE_KIND_BOUND;
    int ogot = version >= STORE_FORMAT_BOUNDS || in->kind == STORE_KIND_BOUND
                   ? read_rec(s, txn, okb.b, version, &other, &ocheck, mdb_rc, err, errlen)
                   : 0;
    if (ogot < 0) return ogot;
    if (got && in->kind == STORE_KIND_VALUE && old.val.winner != in->val.winner) {
        errmsg_set(err, errlen, "conflict: the position is decided twice, stored %s, new %s (the stored record is kept)",
                   old.val.winner == WINNER_ORDER ? "order" : "chaos", in->val.winner == WINNER_ORDER ? "order" : "chaos");
        return STORE_CONFLICT;
    }
    if (got && in->kind == STORE_KIND_VALUE) keep->val = merge(&old.val, &in->val);
    if (got && in->kind == STORE_KIND_BOUND) keep->bound = merge_bound(&old.bound, &in->bound);
    StoreKey key;
    store_key_decode(kb, &key);
    if (ogot && contradicts(&key, in->kind == STORE_KIND_VALUE ? &keep->val : &other.val,
                            in->kind == STORE_KIND_BOUND ? &keep->bound : &other.bound, err, errlen))
        return STORE_CONFLICT;
    if (got && in->kind == STORE_KIND_BOUND && keep->bound.yes != STORE_BOUND_NONE &&
        keep->bound.no != STORE_BOUND_NONE && keep->bound.yes <= keep->bound.no) {
        errmsg_set(err, errlen,
                   "conflict: the position's bounds would say Order wins within %d plies and cannot within %d (the "
                   "stored record is kept)",
                   keep->bound.yes, keep->bound.no);
        return STORE_CONFLICT;
    }
    if (!got) {
        meta->records++;
        return 0;
    }
    if (in->kind == STORE_KIND_VALUE ? same_value(&keep->val, &old.val) : same_bound(&keep->bound, &old.bound))
        return 1;
    meta->digest ^= check; /* the old record leaves the digest */
    return 0;
}

/* One write transaction: read, merge, write the record and the meta
 * record, commit; with game (the store has none yet) the meta record is
 * made. 0 done; 1 the map was full (nothing written); STORE_CONFLICT or
 * -3 (a corrupt record), message in err; -1 LMDB's error code in *mdb_rc. */
static int put_txn(Store *s, const StoreKeyBytes *kb, const Rec *in, const StoreGame *game, int *mdb_rc, char *err,
                   int errlen)
{
    MDB_txn *txn;
    int rc = mdb_txn_begin(s->env, NULL, 0, &txn);
    if (rc == MDB_MAP_RESIZED) {
        /* Another process grew the map: take its size, then go on. */
        rc = mdb_env_set_mapsize(s->env, 0);
        if (rc == 0) rc = mdb_txn_begin(s->env, NULL, 0, &txn);
    }
    if (rc != 0) {
        *mdb_rc = rc;
        return -1;
    }
    Rec keep;
    StoreMeta meta;
    int r = merge_in_txn(s, txn, kb, in, game, &keep, &meta, mdb_rc, err, errlen);
    if (r != 0) {
        mdb_txn_abort(txn);
        return r == 1 ? 0 : r;
    }
    StoreValueBytes vb;
    if (in->kind == STORE_KIND_BOUND) store_bound_encode(kb, &keep.bound, &vb);
    else store_value_encode(kb, &keep.val, &vb);
    meta.digest ^= store_value_check(&vb);
    MDB_val k = {sizeof kb->b, (void *)kb->b}, val = {sizeof vb.b, vb.b};
    rc = store_put_meta(s, txn, &meta);
    if (rc == 0) rc = mdb_put(txn, s->dbi, &k, &val, 0);
    if (rc == 0) rc = mdb_txn_commit(txn);
    else mdb_txn_abort(txn);
    if (rc == MDB_MAP_FULL) return 1;
    if (rc != 0) {
        *mdb_rc = rc;
        return -1;
    }
    return 0;
}

/* The map is full: doubles it, up to the limit (no transaction of ours
 * is open). 0 grown, or -1 with a message naming the store and the cause.
 * A failed mdb_env_set_mapsize leaves LMDB with no map at all (it unmaps
 * first), so the Store is marked broken: every later call fails with the
 * same message instead of touching a missing map. */
static int grow_map(Store *s, char *err, int errlen)
{
    MDB_envinfo info;
    mdb_env_info(s->env, &info);
    uint64_t cur = info.me_mapsize, want = cur > UINT64_MAX / 2 ? UINT64_MAX : cur * 2;
    if (s->map_limit && want > s->map_limit) want = s->map_limit;
    if (want <= cur || want > SIZE_MAX) {
        errmsg_set(err, errlen, "store %s is full: its map is at its limit of %.1f MiB", s->path, cur / 1048576.0);
        return -1;
    }
    int rc = mdb_env_set_mapsize(s->env, (size_t)want);
    if (rc == 0) return 0;
    s->broken = true;
    errmsg_set(s->error, sizeof s->error, "store %s is full and its map cannot grow from %.1f to %.1f MiB: %s", s->path,
            cur / 1048576.0, want / 1048576.0, mdb_strerror(rc));
    errmsg_set(err, errlen, "%s", s->error);
    return -1;
}

/* Writes in (a value or a bound record, its key bytes kb canonical) by
 * put_txn, growing the map as needed; store_put's returns. */
static int put_rec(Store *s, const StoreKey *key, const StoreKeyBytes *kb, const Rec *in, char *err, int errlen)
{
    /* The store's first put names its game (store.h, meta record). */
    StoreGame game = {key->rules, key->n, key->k};
    for (int tries = 0;; tries++) {
        int mdb_rc = 0;
        int r = put_txn(s, kb, in, s->has_game ? NULL : &game, &mdb_rc, err, errlen);
        if (r == 0) {
            s->game = game;
            s->has_game = true;
            return 0;
        }
        if (r == STORE_CONFLICT) return STORE_CONFLICT;
        if (r == -3) return -1;
        if (r == 1 && tries >= 64) {
            errmsg_set(err, errlen, "store %s: still full after growing its map %d times", s->path, tries);
            return -1;
        }
        if (r == 1 && grow_map(s, err, errlen) != 0) return -1;
        if (r == 1) continue;
        errmsg_set(err, errlen, "store %s: cannot write: %s", s->path, mdb_strerror(mdb_rc));
        return -1;
    }
}

/* -1 with a message unless the store can take a put of key. */
static int check_put(Store *s, const StoreKey *key, char *err, int errlen)
{
    if (store_check_usable(s, err, errlen) != 0) return -1;
    if (s->readonly) {
        errmsg_set(err, errlen, "store %s: opened read-only", s->path);
        return -1;
    }
    if (store_check_key(key, err, errlen) != 0) return -1;
    return store_check_game(s, key, err, errlen);
}

int store_put(Store *s, const StoreKey *key, const StoreValue *v, char *err, int errlen)
{
    if (check_put(s, key, err, errlen) != 0 || store_check_value(key, v, err, errlen) != 0) return -1;
    int sym;
    StoreKey ck = *key;
    ck.pos = sym_canonical(key->pos, key->n, &sym);
    Rec in = {.kind = STORE_KIND_VALUE, .val = *v};
    in.val.move = v->move == MOVE_NONE ? MOVE_NONE : sym_move(v->move, sym, key->n);
    StoreKeyBytes kb;
    store_key_encode(&ck, &kb);
    return put_rec(s, key, &kb, &in, err, errlen);
}

int store_put_bound(Store *s, const StoreKey *key, const StoreBound *b, char *err, int errlen)
{
    if (check_put(s, key, err, errlen) != 0 || store_check_bound(key, b, err, errlen) != 0) return -1;
    int sym;
    StoreKey ck = *key;
    ck.pos = sym_canonical(key->pos, key->n, &sym);
    Rec in = {.kind = STORE_KIND_BOUND, .bound = *b};
    in.bound.move = b->move == MOVE_NONE ? MOVE_NONE : sym_move(b->move, sym, key->n);
    StoreKeyBytes kb;
    store_key_encode(&ck, &kb);
    kb.b[3] = STORE_KIND_BOUND;
    return put_rec(s, key, &kb, &in, err, errlen);
}
