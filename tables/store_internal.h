/* store_internal.h - what the store's files (tables/store*.c) share, and
 * no one else: only they include it; every other file sees store.h.
 *
 * The files, one idea each (store.h says what the store promises):
 *   store.c         the Store: a store opened (directory, files, writer
 *                   lock, LMDB environment, meta record and every record
 *                   checked before the Store is handed out), its settings,
 *                   closed;
 *   store_record.c  records as the database holds them: a key, value or
 *                   bound a caller hands in checked, one game per store,
 *                   the meta record read and written, a raw record
 *                   decoded and checked, every position record of a
 *                   transaction so checked (the open's walk and
 *                   store_check's) (the byte strings themselves are
 *                   store_format.h's);
 *   store_write.c   put: one record merged with the stored one and
 *                   written with the meta record in one transaction, the
 *                   map grown when full;
 *   store_read.c    get: one position's record, in the caller's frame;
 *   store_walk.c    the whole store: every record walked for a caller
 *                   (store_foreach, store_stats), checked untrusted
 *                   (store_check) and copied (store_snapshot).
 * The calls run one way: store_record.c calls no other of these files
 * (only store_format.c below them, and the types here), store.c calls
 * store_record.c, and store_walk.c calls both; so the walk of every
 * record that the open and store_check share lives with the records,
 * below store.c, and not in store_walk.c, which calls store.c's open
 * steps (a call each way was a loop between the two files).
 * The helpers below were statics of one store.c; shared now, they carry
 * the store_ prefix (scripts/check-names: each name defined once).
 *
 * Invariants: a Store that store_open_game hands out passed every check
 * of store.h's "Opening refuses"; has_game says whether the store has a
 * meta record (read at open, or written by this process's open or first
 * put), and game is then its game; broken, once set, stays set, and every
 * later put, get, walk or snapshot fails with error instead of touching
 * the map LMDB no longer has. A record read from the file is used only
 * after store_decode_record accepted it: the store is input from outside.
 */
#ifndef OCS_STORE_INTERNAL_H
#define OCS_STORE_INTERNAL_H

#include <lmdb.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "filelock.h"
#include "store.h"

struct Store {
    MDB_env *env;
    MDB_dbi dbi;
    bool readonly;
    bool has_game;       /* the meta record is there (or written by our first put) */
    StoreGame game;
    uint64_t map_limit;  /* store_set_map_limit; 0 none */
    bool broken;         /* a failed map growth left LMDB without a map */
    FileLock lock;       /* the writer lock (write-opens only) */
    char path[4096];
    char error[512];     /* store_get's last message; also why the Store is broken */
};

/* A record as read: a value record or a bound record (store.h). */
typedef struct {
    int kind; /* STORE_KIND_* */
    StoreValue val;
    StoreBound bound;
} Rec;

/* What a walk over every position record found. */
typedef struct {
    uint64_t records, bad, digest;
    char first[200]; /* the first bad record's fault */
} Walked;

/* store.c: the open's steps that store_check takes too, and whether a
 * failed map growth left the Store unusable. */
int store_prepare_dir(const char *path, bool readonly, char *err, int errlen);
int store_check_files(const char *path, char *err, int errlen);
int store_open_env(Store *s, size_t map_mb, char *err, int errlen);
int store_check_pages(Store *s, char *err, int errlen);
int store_check_usable(const Store *s, char *err, int errlen);

/* store_record.c: the checks of what a caller hands in, the meta record,
 * a raw record decoded, and every position record of txn checked (the
 * open's walk and store_check's: both call down here, so store.c needs
 * nothing of store_walk.c). */
bool store_game_valid(const StoreGame *g);
bool store_game_equal(const StoreGame *a, const StoreGame *b);
int store_check_game(const Store *s, const StoreKey *key, char *err, int errlen);
int store_check_key(const StoreKey *k, char *err, int errlen);
int store_check_value(const StoreKey *k, const StoreValue *v, char *err, int errlen);
int store_check_bound(const StoreKey *k, const StoreBound *b, char *err, int errlen);
bool store_is_meta_key(const MDB_val *k);
int store_put_meta(Store *s, MDB_txn *txn, const StoreMeta *m);
int store_read_meta(const char *path, MDB_txn *txn, MDB_dbi dbi, StoreMeta *m, char *err, int errlen);
int store_decode_record(const MDB_val *k, const MDB_val *v, unsigned version, StoreKey *key, Rec *rec, uint64_t *check,
                  const char **why);
int store_walk_records(MDB_txn *txn, MDB_dbi dbi, unsigned version, Walked *w, StoreBadRecord bad, void *ctx);

/* store_read.c: a read transaction that adopts a map grown elsewhere. */
int store_read_begin(Store *s, MDB_txn **txn);

#endif
