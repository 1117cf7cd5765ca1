/* store.c - the Store (store.h): a store opened, which is input from
 * outside, its settings, and closed. Its records, puts, gets and walks
 * are the other tables/store*.c (store_internal.h names them).
 *
 * Why an open goes in this order (store_open_game): the writer lock
 * first, so that a refused writer has touched nothing; data.mdb checked
 * with plain reads (store_file.h) before LMDB maps it, since LMDB trusts
 * its file and dies on a corrupt one; with the map, every page of the
 * snapshot a read transaction pins; then the meta record, and every
 * position record against its count and digest. A Store is handed out
 * only when all of them passed, and closed (its lock released after
 * LMDB let go) otherwise.
 */
#include "store_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errmsg.h"
#include "store_file.h"

enum { STORE_DEFAULT_MB = 1024 };

/* The directory: made when missing (write-opens), and for a read-only
 * open it must already hold a store. 0, or -1 with a message. */
int store_prepare_dir(const char *path, bool readonly, char *err, int errlen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno != ENOENT || readonly) {
            errmsg_set(err, errlen, "store %s: %s", path, strerror(errno));
            return -1;
        }
        if (mkdir(path, 0777) != 0) {
            errmsg_set(err, errlen, "store %s: cannot create the directory: %s", path, strerror(errno));
            return -1;
        }
    } else if (!S_ISDIR(st.st_mode)) {
        errmsg_set(err, errlen, "store %s: not a directory", path);
        return -1;
    }
    if (readonly) {
        char data[4200];
        snprintf(data, sizeof data, "%s/data.mdb", path);
        if (stat(data, &st) != 0) {
            errmsg_set(err, errlen, "store %s: not a store (no data.mdb: %s)", path, strerror(errno));
            return -1;
        }
        /* LMDB would take an empty file for a new store, which it cannot
         * make read-only ("Bad file descriptor"). */
        if (st.st_size == 0) {
            errmsg_set(err, errlen, "store %s: not a store (data.mdb is empty)", path);
            return -1;
        }
    }
    return 0;
}

/* Before LMDB maps anything: data.mdb, when it has anything in it,
 * holds its meta pages and the pages the newest says (store_file.h);
 * lock.mdb, when there, is a regular file (LMDB's open of a FIFO would
 * block). 0, or -1 with a message. */
int store_check_files(const char *path, char *err, int errlen)
{
    char data[4200], why[400];
    struct stat st;
    snprintf(data, sizeof data, "%s/lock.mdb", path);
    if (stat(data, &st) == 0 && !S_ISREG(st.st_mode)) {
        errmsg_set(err, errlen, "store %s: lock.mdb is not a regular file", path);
        return -1;
    }
    snprintf(data, sizeof data, "%s/data.mdb", path);
    if (stat(data, &st) != 0) return 0; /* a new store */
    if (S_ISREG(st.st_mode) && st.st_size == 0) return 0; /* LMDB makes it */
    if (storefile_check(data, 0, false, NULL, why, sizeof why) == 0) return 0;
    errmsg_set(err, errlen, "store %s: %s", path, why);
    return -1;
}

/* After LMDB mapped the file and before it reads any page: every page of
 * the snapshot a read transaction of ours pins (store_file.h, When). 0,
 * or -1 with a message. */
int store_check_pages(Store *s, char *err, int errlen)
{
    char data[4200], why[400] = "";
    snprintf(data, sizeof data, "%s/data.mdb", s->path);
    for (int tries = 0; tries < 100; tries++) {
        MDB_txn *txn;
        int rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &txn);
        if (rc != 0) {
            errmsg_set(err, errlen, "store %s: cannot read: %s", s->path, mdb_strerror(rc));
            return -1;
        }
        rc = storefile_check(data, (uint64_t)mdb_txn_id(txn), true, NULL, why, sizeof why);
        mdb_txn_abort(txn);
        if (rc == 0) return 0;
        if (rc != STOREFILE_GONE) break;
    }
    errmsg_set(err, errlen, "store %s: %s", s->path, why[0] ? why : "it changed too fast to be checked");
    return -1;
}

/* One writer (store.h): the flock on DIR/writer.lock, before LMDB opens
 * anything, so that a refused writer has touched nothing. */
static int take_writer_lock(Store *s, char *err, int errlen)
{
    char lock[4200], why[4400];
    snprintf(lock, sizeof lock, "%s/writer.lock", s->path);
    long pid;
    int rc = filelock_take(&s->lock, lock, &pid, why, sizeof why);
    if (rc == FILELOCK_BUSY && pid)
        errmsg_set(err, errlen, "store %s is in use by another writer (pid %ld)", s->path, pid);
    else if (rc == FILELOCK_BUSY)
        errmsg_set(err, errlen, "store %s is in use by another writer", s->path);
    else if (rc != 0)
        errmsg_set(err, errlen, "store %s: %s", s->path, why);
    return rc == 0 ? 0 : -1;
}

/* The LMDB environment; the usual reasons of a foreign data.mdb named. */
int store_open_env(Store *s, size_t map_mb, char *err, int errlen)
{
    int rc = mdb_env_create(&s->env);
    if (rc == 0) rc = mdb_env_set_mapsize(s->env, (size_t)(map_mb ? map_mb : STORE_DEFAULT_MB) << 20);
    /* MDB_NOTLS: read transactions are not tied to a thread's storage. */
    if (rc == 0) rc = mdb_env_open(s->env, s->path, MDB_NOTLS | (s->readonly ? MDB_RDONLY : 0), 0666);
    if (rc == MDB_INVALID || rc == MDB_VERSION_MISMATCH)
        errmsg_set(err, errlen, "store %s: data.mdb is not an LMDB file (or one of another LMDB version): %s", s->path,
                mdb_strerror(rc));
    else if (rc != 0)
        errmsg_set(err, errlen, "store %s: cannot open: %s", s->path, mdb_strerror(rc));
    return rc == 0 ? 0 : -1;
}

/* Every position record against the meta record m (store.h, Opening
 * refuses). 0, or -1 with a message. */
static int check_records(Store *s, MDB_txn *txn, const StoreMeta *m, char *err, int errlen)
{
    Walked w;
    int rc = store_walk_records(txn, s->dbi, m->version, &w, NULL, NULL);
    if (rc != 0) {
        errmsg_set(err, errlen, "store %s: cannot read its records: %s", s->path, mdb_strerror(rc));
        return -1;
    }
    if (w.bad) {
        errmsg_set(err, errlen, "store %s is corrupt: %llu of %llu records bad (%s); 'ocsolve store check %s' lists them",
                   s->path, (unsigned long long)w.bad, (unsigned long long)w.records, w.first, s->path);
        return -1;
    }
    if (w.records != m->records || w.digest != m->digest) {
        errmsg_set(err, errlen, "store %s is corrupt: %llu records where its meta record counts %llu%s", s->path,
                   (unsigned long long)w.records, (unsigned long long)m->records,
                   w.records == m->records ? ", and they are not the ones it sums" : "");
        return -1;
    }
    return 0;
}

/* Reads (or, first write-open of an empty store, writes) the meta record
 * inside txn, checks every record against it and the game against
 * expect. 0, -1 with a message (the transaction is the caller's to end). */
static int check_meta(Store *s, MDB_txn *txn, const StoreGame *expect, char *err, int errlen)
{
    StoreMeta m;
    int found = store_read_meta(s->path, txn, s->dbi, &m, err, errlen);
    if (found < 0) return -1;
    if (found) {
        if (check_records(s, txn, &m, err, errlen) != 0) return -1;
        s->game = m.game;
        s->has_game = true;
    } else {
        MDB_stat ms;
        int rc = mdb_stat(txn, s->dbi, &ms);
        if (rc == 0 && ms.ms_entries > 0) {
            errmsg_set(err, errlen,
                       "store %s: no ocsolve meta record, yet %zu record%s (another program's database, "
                       "or a store made before meta records)",
                       s->path, (size_t)ms.ms_entries, ms.ms_entries == 1 ? "" : "s");
            return -1;
        }
        if (rc == 0 && expect && !s->readonly &&
            (rc = store_put_meta(s, txn, &(StoreMeta){*expect, STORE_FORMAT, 0, 0})) == 0) {
            s->game = *expect;
            s->has_game = true;
        }
        if (rc != 0) {
            errmsg_set(err, errlen, "store %s: cannot write its meta record: %s", s->path, mdb_strerror(rc));
            return -1;
        }
    }
    if (expect && s->has_game && !store_game_equal(expect, &s->game)) {
        char have[64], want[64];
        store_game_name(&s->game, have, sizeof have);
        store_game_name(expect, want, sizeof want);
        errmsg_set(err, errlen, "store %s holds %s positions, not %s", s->path, have, want);
        return -1;
    }
    return 0;
}

/* The database and its meta record, in one transaction. */
static int open_db(Store *s, const StoreGame *expect, char *err, int errlen)
{
    MDB_txn *txn = NULL;
    int rc = mdb_txn_begin(s->env, NULL, s->readonly ? MDB_RDONLY : 0, &txn);
    if (rc == 0) rc = mdb_dbi_open(txn, NULL, 0, &s->dbi);
    if (rc != 0) {
        if (txn) mdb_txn_abort(txn);
        errmsg_set(err, errlen, "store %s: cannot open the database: %s", s->path, mdb_strerror(rc));
        return -1;
    }
    if (check_meta(s, txn, expect, err, errlen) != 0) {
        mdb_txn_abort(txn);
        return -1;
    }
    rc = mdb_txn_commit(txn);
    if (rc != 0) {
        errmsg_set(err, errlen, "store %s: cannot open the database: %s", s->path, mdb_strerror(rc));
        return -1;
    }
    return 0;
}

/* store_forbid's reason. Set once, early, by the process's main thread
 * before any other thread exists (app/main_mpi.c), and only read after. */
static const char *forbidden_why;

void store_forbid(const char *why) { forbidden_why = why; }
const char *store_forbidden(void) { return forbidden_why; }

Store *store_open_game(const char *path, bool readonly, size_t map_mb, const StoreGame *expect, char *err,
                       int errlen)
{
    if (forbidden_why) {
        errmsg_set(err, errlen, "store %s: not opened: this process is %s", path, forbidden_why);
        return NULL;
    }
    if (strlen(path) >= sizeof((Store *)0)->path - 16) {
        errmsg_set(err, errlen, "store %s: path too long", path);
        return NULL;
    }
    if (expect && !store_game_valid(expect)) {
        errmsg_set(err, errlen, "store %s: bad game (rules %d, n %d, k %d)", path, (int)expect->rules, expect->n,
                expect->k);
        return NULL;
    }
    if (store_prepare_dir(path, readonly, err, errlen) != 0) return NULL;
    Store *s = calloc(1, sizeof *s);
    if (!s) {
        errmsg_set(err, errlen, "store %s: out of memory", path);
        return NULL;
    }
    snprintf(s->path, sizeof s->path, "%s", path);
    s->readonly = readonly;
    filelock_init(&s->lock);
    if ((readonly || take_writer_lock(s, err, errlen) == 0) && store_check_files(path, err, errlen) == 0 &&
        store_open_env(s, map_mb, err, errlen) == 0 && store_check_pages(s, err, errlen) == 0 &&
        open_db(s, expect, err, errlen) == 0)
        return s;
    store_close(s);
    return NULL;
}

Store *store_open(const char *path, bool readonly, size_t map_mb, char *err, int errlen)
{
    return store_open_game(path, readonly, map_mb, NULL, err, errlen);
}

void store_close(Store *s)
{
    if (!s) return;
    if (s->env) mdb_env_close(s->env);
    filelock_release(&s->lock); /* after LMDB let go: the next writer finds it closed */
    free(s);
}

int store_game(const Store *s, StoreGame *out)
{
    if (!s->has_game) return 0;
    *out = s->game;
    return 1;
}

void store_set_map_limit(Store *s, uint64_t max_bytes) { s->map_limit = max_bytes; }

const char *store_error(const Store *s) { return s->error; }

int store_set_durable(Store *s, bool durable)
{
    if (s->broken) return -1;
    return mdb_env_set_flags(s->env, MDB_NOSYNC, durable ? 0 : 1) == 0 ? 0 : -1;
}

/* -1 with the reason when a failed map growth left the Store unusable. */
int store_check_usable(const Store *s, char *err, int errlen)
{
    if (!s->broken) return 0;
    errmsg_set(err, errlen, "%s", s->error);
    return -1;
}
