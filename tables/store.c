/* store.c - see store.h. */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/symmetry.h"
#include "errmsg.h"
#include "filelock.h"
#include "le.h"
#include "store_file.h"

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

enum { STORE_DEFAULT_MB = 1024 };

static bool game_valid(const StoreGame *g)
{
    return (int)g->rules >= RULES_ORIGINAL && (int)g->rules <= RULES_EXACT_END && g->n >= BOARD_MIN_N &&
           g->n <= BOARD_MAX_N && g->k >= 3 && g->k <= g->n;
}

static bool game_equal(const StoreGame *a, const StoreGame *b)
{
    return a->rules == b->rules && a->n == b->n && a->k == b->k;
}

/* -1 with "store DIR holds G positions, not H" when key is of another game
 * than the store's (a store without a game yet takes any). */
static int check_game(const Store *s, const StoreKey *key, char *err, int errlen)
{
    StoreGame g = {key->rules, key->n, key->k};
    if (!s->has_game || game_equal(&g, &s->game)) return 0;
    char have[64], want[64];
    store_game_name(&s->game, have, sizeof have);
    store_game_name(&g, want, sizeof want);
    errmsg_set(err, errlen, "store %s holds %s positions, not %s (one game per store)", s->path, have, want);
    return -1;
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */
/* ------------------------------------------------------------------ */

static int check_key(const StoreKey *k, char *err, int errlen)
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
static int check_value(const StoreKey *k, const StoreValue *v, char *err, int errlen)
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

static MDB_val meta_key(void) { return (MDB_val){STORE_META_KEY_BYTES, (void *)STORE_META_KEY}; }

static bool is_meta_key(const MDB_val *k)
{
    return k->mv_size == STORE_META_KEY_BYTES && memcmp(k->mv_data, STORE_META_KEY, STORE_META_KEY_BYTES) == 0;
}

/* Puts meta record m inside txn. */
static int put_meta(Store *s, MDB_txn *txn, const StoreMeta *m)
{
    StoreMetaBytes mb;
    store_meta_encode(m, &mb);
    MDB_val k = meta_key(), v = {sizeof mb.b, mb.b};
    return mdb_put(txn, s->dbi, &k, &v, 0);
}

/* The meta record in txn: 1 found (*m, of this format, its game valid),
 * 0 none, -1 with a message naming path. */
static int read_meta(const char *path, MDB_txn *txn, MDB_dbi dbi, StoreMeta *m, char *err, int errlen)
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
    if (!game_valid(&m->game)) {
        errmsg_set(err, errlen, "store %s: corrupt meta record (rules %d, n %d, k %d)", path, (int)m->game.rules,
                   m->game.n, m->game.k);
        return -1;
    }
    return 1;
}

/* A record as read: a value record or a bound record (store.h). */
typedef struct {
    int kind; /* STORE_KIND_* */
    StoreValue val;
    StoreBound bound;
} Rec;

/* One raw position record, checked, in a store of format `version`: 0
 * (key and record filled), -1 malformed (why says how), STORE_BAD_CHECK.
 * A bound record in a format-2 store is malformed (store.h, Versions). */
static int decode_record(const MDB_val *k, const MDB_val *v, unsigned version, StoreKey *key, Rec *rec,
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

/* What a walk over every position record found. */
typedef struct {
    uint64_t records, bad, digest;
    char first[200]; /* the first bad record's fault */
} Walked;

/* Reads every position record of txn, in key order, checking each
 * (check_key too); bad ones are counted and told to bad (NULL: not
 * told). 0, or LMDB's error. */
static int walk_records(MDB_txn *txn, MDB_dbi dbi, unsigned version, Walked *w, StoreBadRecord bad, void *ctx)
{
    MDB_cursor *cur;
    *w = (Walked){0};
    int rc = mdb_cursor_open(txn, dbi, &cur);
    if (rc != 0) return rc;
    MDB_val k, v;
    for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        if (is_meta_key(&k)) continue;
        StoreKey key;
        Rec rec;
        uint64_t check = 0;
        const char *why;
        w->records++;
        int r = decode_record(&k, &v, version, &key, &rec, &check, &why);
        if (r == 0 && check_key(&key, NULL, 0) != 0) r = -1, why = "a key that is no position";
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

/* ------------------------------------------------------------------ */
/* Open and close                                                      */
/* ------------------------------------------------------------------ */

/* The directory: made when missing (write-opens), and for a read-only
 * open it must already hold a store. 0, or -1 with a message. */
static int prepare_dir(const char *path, bool readonly, char *err, int errlen)
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
static int check_files(const char *path, char *err, int errlen)
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
static int check_pages(Store *s, char *err, int errlen)
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
static int open_env(Store *s, size_t map_mb, char *err, int errlen)
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
    int rc = walk_records(txn, s->dbi, m->version, &w, NULL, NULL);
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
    int found = read_meta(s->path, txn, s->dbi, &m, err, errlen);
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
            (rc = put_meta(s, txn, &(StoreMeta){*expect, STORE_FORMAT, 0, 0})) == 0) {
            s->game = *expect;
            s->has_game = true;
        }
        if (rc != 0) {
            errmsg_set(err, errlen, "store %s: cannot write its meta record: %s", s->path, mdb_strerror(rc));
            return -1;
        }
    }
    if (expect && s->has_game && !game_equal(expect, &s->game)) {
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
    if (expect && !game_valid(expect)) {
        errmsg_set(err, errlen, "store %s: bad game (rules %d, n %d, k %d)", path, (int)expect->rules, expect->n,
                expect->k);
        return NULL;
    }
    if (prepare_dir(path, readonly, err, errlen) != 0) return NULL;
    Store *s = calloc(1, sizeof *s);
    if (!s) {
        errmsg_set(err, errlen, "store %s: out of memory", path);
        return NULL;
    }
    snprintf(s->path, sizeof s->path, "%s", path);
    s->readonly = readonly;
    filelock_init(&s->lock);
    if ((readonly || take_writer_lock(s, err, errlen) == 0) && check_files(path, err, errlen) == 0 &&
        open_env(s, map_mb, err, errlen) == 0 && check_pages(s, err, errlen) == 0 &&
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
static int check_usable(const Store *s, char *err, int errlen)
{
    if (!s->broken) return 0;
    errmsg_set(err, errlen, "%s", s->error);
    return -1;
}

/* ------------------------------------------------------------------ */
/* Put and get                                                         */
/* ------------------------------------------------------------------ */

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
    if (decode_record(&key, &old, version, &ok, rec, check, &why) != 0) {
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
    int found = read_meta(s->path, txn, s->dbi, meta, err, errlen);
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
    rc = put_meta(s, txn, &meta);
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
    if (check_usable(s, err, errlen) != 0) return -1;
    if (s->readonly) {
        errmsg_set(err, errlen, "store %s: opened read-only", s->path);
        return -1;
    }
    if (check_key(key, err, errlen) != 0) return -1;
    return check_game(s, key, err, errlen);
}

int store_put(Store *s, const StoreKey *key, const StoreValue *v, char *err, int errlen)
{
    if (check_put(s, key, err, errlen) != 0 || check_value(key, v, err, errlen) != 0) return -1;
    int sym;
    StoreKey ck = *key;
    ck.pos = sym_canonical(key->pos, key->n, &sym);
    Rec in = {.kind = STORE_KIND_VALUE, .val = *v};
    in.val.move = v->move == MOVE_NONE ? MOVE_NONE : sym_move(v->move, sym, key->n);
    StoreKeyBytes kb;
    store_key_encode(&ck, &kb);
    return put_rec(s, key, &kb, &in, err, errlen);
}

/* A bound as the caller gives it, against its position (caller's frame). */
static int check_bound(const StoreKey *k, const StoreBound *b, char *err, int errlen)
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

int store_put_bound(Store *s, const StoreKey *key, const StoreBound *b, char *err, int errlen)
{
    if (check_put(s, key, err, errlen) != 0 || check_bound(key, b, err, errlen) != 0) return -1;
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

/* A read transaction, adopting a map grown by another process. */
static int read_begin(Store *s, MDB_txn **txn)
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
    if (check_key(key, s->error, sizeof s->error) != 0 || check_game(s, key, s->error, sizeof s->error) != 0)
        return -1;
    StoreKey ck = *key;
    ck.pos = sym_canonical(key->pos, key->n, sym);
    StoreKeyBytes kb;
    store_key_encode(&ck, &kb);
    kb.b[3] = (uint8_t)kind;
    MDB_val k = {sizeof kb.b, kb.b}, val;
    MDB_txn *txn;
    int rc = read_begin(s, &txn);
    if (rc != 0) {
        errmsg_set(s->error, sizeof s->error, "store %s: cannot read: %s", s->path, mdb_strerror(rc));
        return -1;
    }
    rc = mdb_get(txn, s->dbi, &k, &val);
    StoreKey got;
    uint64_t check;
    const char *why = "";
    /* checked at open against the format; here by its kind */
    int bad = rc == 0 ? decode_record(&k, &val, STORE_FORMAT_BOUNDS, &got, rec, &check, &why) : 0;
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

/* ------------------------------------------------------------------ */
/* Iteration and statistics                                            */
/* ------------------------------------------------------------------ */

/* Calls value (on value records) or bound (on bound records), either
 * NULL to skip that kind, on every record in key order until one returns
 * non-zero (store_foreach's returns). */
static int visit_all(Store *s, StoreVisit value, StoreBoundVisit bound, void *ctx, char *err, int errlen)
{
    if (check_usable(s, err, errlen) != 0) return -1;
    MDB_txn *txn;
    MDB_cursor *cur;
    int rc = read_begin(s, &txn);
    if (rc != 0) {
        errmsg_set(err, errlen, "store %s: cannot read: %s", s->path, mdb_strerror(rc));
        return -1;
    }
    rc = mdb_cursor_open(txn, s->dbi, &cur);
    if (rc != 0) {
        mdb_txn_abort(txn);
        errmsg_set(err, errlen, "store %s: cannot read: %s", s->path, mdb_strerror(rc));
        return -1;
    }
    MDB_val k, v;
    int ret = 0;
    for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        if (is_meta_key(&k)) continue; /* checked at open */
        StoreKey key;
        Rec rec;
        uint64_t check;
        const char *why;
        int bad = decode_record(&k, &v, STORE_FORMAT_BOUNDS, &key, &rec, &check, &why);
        if (bad == 0 && check_key(&key, NULL, 0) != 0) bad = -1, why = "a key that is no position";
        if (bad) {
            errmsg_set(err, errlen, "store %s is corrupt: a record %s; 'ocsolve store check %s' lists the bad ones",
                       s->path, why, s->path);
            ret = -1;
            break;
        }
        if (rec.kind == STORE_KIND_VALUE && value) ret = value(&key, &rec.val, ctx);
        if (rec.kind == STORE_KIND_BOUND && bound) ret = bound(&key, &rec.bound, ctx);
        if (ret != 0) break;
    }
    if (ret == 0 && rc != MDB_NOTFOUND) {
        errmsg_set(err, errlen, "store %s: cannot read: %s", s->path, mdb_strerror(rc));
        ret = -1;
    }
    mdb_cursor_close(cur);
    mdb_txn_abort(txn);
    return ret;
}

int store_foreach(Store *s, StoreVisit fn, void *ctx, char *err, int errlen)
{
    return visit_all(s, fn, NULL, ctx, err, errlen);
}

int store_foreach_bound(Store *s, StoreBoundVisit fn, void *ctx, char *err, int errlen)
{
    return visit_all(s, NULL, fn, ctx, err, errlen);
}

static int count_one(const StoreKey *k, const StoreValue *v, void *ctx)
{
    (void)k;
    StoreStats *st = ctx;
    st->entries++;
    if (v->winner == WINNER_ORDER) st->order++;
    else st->chaos++;
    if (v->move != MOVE_NONE) st->with_move++;
    if (v->dtw != STORE_DTW_UNKNOWN) st->with_dtw++;
    return 0;
}

static int count_bound(const StoreKey *k, const StoreBound *b, void *ctx)
{
    (void)k, (void)b;
    ((StoreStats *)ctx)->bounds++;
    return 0;
}

int store_stats(Store *s, StoreStats *out, char *err, int errlen)
{
    memset(out, 0, sizeof *out);
    if (visit_all(s, count_one, count_bound, out, err, errlen) != 0) return -1;
    MDB_envinfo info;
    MDB_stat ms;
    mdb_env_info(s->env, &info);
    mdb_env_stat(s->env, &ms);
    out->map_bytes = info.me_mapsize;
    out->page_bytes = ms.ms_psize;
    char data[4200];
    snprintf(data, sizeof data, "%s/data.mdb", s->path);
    struct stat st;
    if (stat(data, &st) != 0) {
        errmsg_set(err, errlen, "store %s: %s", data, strerror(errno));
        return -1;
    }
    out->file_bytes = (uint64_t)st.st_size;
    return 0;
}

/* ------------------------------------------------------------------ */
/* The check of a store that is not trusted                            */
/* ------------------------------------------------------------------ */

/* What the walk and the meta record say, as store_check's one line. */
static void check_verdict(StoreCheck *out, int found, const char *meta_why, const Walked *w)
{
    char *p = out->problem;
    size_t n = sizeof out->problem;
    if (found < 0) snprintf(p, n, "%s", meta_why);
    else if (!found && w->records) snprintf(p, n, "no meta record, yet %llu records", (unsigned long long)w->records);
    else if (w->bad)
        snprintf(p, n, "%llu of %llu records bad (the first: %s)", (unsigned long long)w->bad,
                 (unsigned long long)w->records, w->first);
    else if (found && w->records != out->meta.records)
        snprintf(p, n, "%llu records where the meta record counts %llu (records lost or added)",
                 (unsigned long long)w->records, (unsigned long long)out->meta.records);
    else if (found && w->digest != out->meta.digest)
        snprintf(p, n, "the records are not the ones the meta record sums (a record replaced)");
}

/* A message without its leading "store PATH: " (store_check's caller
 * names the store itself). */
static void strip_store(char *msg, const char *path)
{
    char head[4200];
    snprintf(head, sizeof head, "store %s: ", path);
    size_t n = strlen(head);
    if (strncmp(msg, head, n) == 0) memmove(msg, msg + n, strlen(msg + n) + 1);
}

int store_check(const char *path, StoreCheck *out, StoreBadRecord bad, void *ctx, char *err, int errlen)
{
    memset(out, 0, sizeof *out);
    if (strlen(path) >= sizeof((Store *)0)->path - 16) {
        errmsg_set(err, errlen, "store %s: path too long", path);
        return -1;
    }
    if (prepare_dir(path, true, err, errlen) != 0) return -1;
    if (check_files(path, out->problem, sizeof out->problem) != 0) return strip_store(out->problem, path), 0;
    Store *s = calloc(1, sizeof *s);
    if (!s) {
        errmsg_set(err, errlen, "store %s: out of memory", path);
        return -1;
    }
    snprintf(s->path, sizeof s->path, "%s", path);
    s->readonly = true;
    filelock_init(&s->lock);
    MDB_txn *txn = NULL;
    int rc = -1;
    if (open_env(s, 0, out->problem, sizeof out->problem) == 0 &&
        check_pages(s, out->problem, sizeof out->problem) == 0) {
        out->file_ok = true;
        rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &txn);
        if (rc == 0) rc = mdb_dbi_open(txn, NULL, 0, &s->dbi);
        if (rc != 0) snprintf(out->problem, sizeof out->problem, "cannot read it: %s", mdb_strerror(rc));
    }
    if (rc == 0) {
        char why[512] = "";
        Walked w;
        int found = read_meta(path, txn, s->dbi, &out->meta, why, sizeof why);
        out->meta_ok = found == 1;
        rc = walk_records(txn, s->dbi, out->meta_ok ? out->meta.version : STORE_FORMAT_BOUNDS, &w, bad, ctx);
        out->records = w.records;
        out->bad = w.bad;
        out->digest = w.digest;
        if (rc != 0) snprintf(out->problem, sizeof out->problem, "cannot read its records: %s", mdb_strerror(rc));
        else check_verdict(out, found, why, &w);
    }
    if (txn) mdb_txn_abort(txn);
    store_close(s);
    strip_store(out->problem, path);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Snapshots                                                           */
/* ------------------------------------------------------------------ */

int store_snapshot(Store *s, const char *dir, char *err, int errlen)
{
    if (check_usable(s, err, errlen) != 0) return -1;
    char tmp[4200], final[4200];
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        errmsg_set(err, errlen, "snapshot %s: %s", dir, strerror(errno));
        return -1;
    }
    snprintf(tmp, sizeof tmp, "%s/data.mdb.tmp", dir);
    snprintf(final, sizeof final, "%s/data.mdb", dir);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        errmsg_set(err, errlen, "snapshot %s: %s", tmp, strerror(errno));
        return -1;
    }
    int rc = mdb_env_copyfd2(s->env, fd, MDB_CP_COMPACT);
    const char *why = rc ? mdb_strerror(rc) : NULL;
    if (!rc && fsync(fd) != 0) why = strerror(errno);
    if (close(fd) != 0 && !why) why = strerror(errno);
    if (!why && rename(tmp, final) != 0) why = strerror(errno);
    if (why) {
        remove(tmp);
        errmsg_set(err, errlen, "snapshot of store %s into %s: %s", s->path, dir, why);
        return -1;
    }
    return 0;
}
