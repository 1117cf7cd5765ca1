/* store_walk.c - the whole store at once: every position record walked
 * for a caller (visit_all, for store_foreach, store_foreach_bound and
 * store_stats), a store checked without trusting any of it (store_check,
 * whose walk of every record is store_record.c's store_walk_records, the
 * one the open takes too), and its compact copy (store_snapshot).
 *
 * Invariants: each walk reads in one read transaction, so it sees one
 * committed state while puts may go on; every record is decoded and
 * checked before its check joins a digest or it reaches a caller, and a
 * walk for a caller stops at the first bad record rather than hand it out;
 * store_check never takes the writer lock, and checks data.mdb with
 * plain reads (store_file.h) before LMDB maps it.
 */
#include "store_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errmsg.h"

/* ------------------------------------------------------------------ */
/* Iteration and statistics                                            */
/* ------------------------------------------------------------------ */

/* Calls value (on value records) or bound (on bound records), either
 * NULL to skip that kind, on every record in key order until one returns
 * non-zero (store_foreach's returns). */
static int visit_all(Store *s, StoreVisit value, StoreBoundVisit bound, void *ctx, char *err, int errlen)
{
    if (store_check_usable(s, err, errlen) != 0) return -1;
    MDB_txn *txn;
    MDB_cursor *cur;
    int rc = store_read_begin(s, &txn);
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
        if (store_is_meta_key(&k)) continue; /* checked at open */
        StoreKey key;
        Rec rec;
        uint64_t check;
        const char *why;
        int bad = store_decode_record(&k, &v, STORE_FORMAT_BOUNDS, &key, &rec, &check, &why);
        if (bad == 0 && store_check_key(&key, NULL, 0) != 0) bad = -1, why = "a key that is no position";
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
    if (store_prepare_dir(path, true, err, errlen) != 0) return -1;
    if (store_check_files(path, out->problem, sizeof out->problem) != 0) return strip_store(out->problem, path), 0;
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
    if (store_open_env(s, 0, out->problem, sizeof out->problem) == 0 &&
        store_check_pages(s, out->problem, sizeof out->problem) == 0) {
        out->file_ok = true;
        rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &txn);
        if (rc == 0) rc = mdb_dbi_open(txn, NULL, 0, &s->dbi);
        if (rc != 0) snprintf(out->problem, sizeof out->problem, "cannot read it: %s", mdb_strerror(rc));
    }
    if (rc == 0) {
        char why[512] = "";
        Walked w;
        int found = store_read_meta(path, txn, s->dbi, &out->meta, why, sizeof why);
        out->meta_ok = found == 1;
        rc = store_walk_records(txn, s->dbi, out->meta_ok ? out->meta.version : STORE_FORMAT_BOUNDS, &w, bad, ctx);
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
    if (store_check_usable(s, err, errlen) != 0) return -1;
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
