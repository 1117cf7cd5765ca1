/* store_read.c - a get (store_get, store_get_bound): one position's
 * record read in a read transaction, its move mapped back into the
 * caller's frame.
 *
 * Invariants: a record is handed out only when it decodes and its check
 * holds (a record that went bad after the open is refused, never used:
 * store.h); a position of another game than the store's is an error, not
 * "not found" (store.h, One game per store); a read transaction adopts a
 * map another process grew.
 */
#include "store_internal.h"

#include "../engine/symmetry.h"
#include "errmsg.h"

/* A read transaction, adopting a map grown by another process. */
int store_read_begin(Store *s, MDB_txn **txn)
{
    int rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, txn);
    if (rc == MDB_MAP_RESIZED) {
        rc = mdb_env_set_mapsize(s->env, 0);
        if (rc == 0) rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, txn);
    }
    return rc;
}

/* The record of kind `kind` of key's position: 1 found (*rec, *sym the
 * symmetry from the caller's frame to the canonical one), 0 not found,
 * -1 error (s->error). */
static int get_rec(Store *s, const StoreKey *key, int kind, Rec *rec, int *sym)
{
    if (s->broken) return -1; /* s->error says why */
    s->error[0] = '\0';
    if (store_check_key(key, s->error, sizeof s->error) != 0 ||
        store_check_game(s, key, s->error, sizeof s->error) != 0)
        return -1;
    StoreKey ck = *key;
    ck.pos = sym_canonical(key->pos, key->n, sym);
    StoreKeyBytes kb;
    store_key_encode(&ck, &kb);
    kb.b[3] = (uint8_t)kind;
    MDB_val k = {sizeof kb.b, kb.b}, val;
    MDB_txn *txn;
    int rc = store_read_begin(s, &txn);
    if (rc != 0) {
        errmsg_set(s->error, sizeof s->error, "store %s: cannot read: %s", s->path, mdb_strerror(rc));
        return -1;
    }
    rc = mdb_get(txn, s->dbi, &k, &val);
    StoreKey got;
    uint64_t check;
    const char *why = "";
    /* checked at open against the format; here by its kind */
    int bad = rc == 0 ? store_decode_record(&k, &val, STORE_FORMAT_BOUNDS, &got, rec, &check, &why) : 0;
    mdb_txn_abort(txn);
    if (rc == MDB_NOTFOUND) return 0;
    if (rc != 0) {
        errmsg_set(s->error, sizeof s->error, "store %s: cannot read: %s", s->path, mdb_strerror(rc));
        return -1;
    }
    /* never used: a record that fails its check (store.h) */
    if (bad || rec->kind != kind) {
        errmsg_set(s->error, sizeof s->error, "store %s is corrupt: the record of this position %s", s->path,
                   bad ? why : "is of another kind");
        return -1;
    }
    return 1;
}

int store_get(Store *s, const StoreKey *key, StoreValue *out)
{
    Rec rec;
    int sym, rc = get_rec(s, key, STORE_KIND_VALUE, &rec, &sym);
    if (rc != 1) return rc;
    *out = rec.val;
    if (out->move != MOVE_NONE) out->move = sym_move(out->move, sym_inverse(sym), key->n);
    return 1;
}

int store_get_bound(Store *s, const StoreKey *key, StoreBound *out)
{
    Rec rec;
    int sym, rc = get_rec(s, key, STORE_KIND_BOUND, &rec, &sym);
    if (rc != 1) return rc;
    *out = rec.bound;
    if (out->move != MOVE_NONE) out->move = sym_move(out->move, sym_inverse(sym), key->n);
    return 1;
}
