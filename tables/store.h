/* store.h - a persistent store of decided positions, in LMDB.
 *
 * What it is for: a job-level solver hands positions to workers, and every
 * position one of them decides goes in here, so that a restarted job redoes
 * nothing and two runs can share one store. It keeps facts, not guesses:
 * who wins a position, a winning move when one is known, and the distance
 * to win when known. Searches and their tables live elsewhere; this knows
 * no algorithm.
 *
 * On disk: PATH is an LMDB environment *directory* (data.mdb and lock.mdb
 * inside; not MDB_NOSUBDIR), created when missing (the directory itself,
 * not its parents) unless opened read-only. One unnamed database: one meta
 * record, then one record per position; LMDB orders records by memcmp of
 * the key bytes. While a process has the store open for writing, the
 * directory also holds writer.lock (below, One writer).
 *
 * One game per store: every position in a store is of one game (rule
 * set, n, k), the one its meta record names. A put of another game's
 * position is refused, and so is a get (a coordinator mixing games has a
 * bug, which a silent "not found" would hide).
 *
 * Key, 20 bytes, every number little-endian (explicit byte order, so a
 * store file moves between machines):
 *
 *   byte 0       1     2     3       4                  12                 20
 *        | rules | n   | k   | 0   | X bits (8, LE)   | O bits (8, LE)   |
 *
 *   rules  0 original, 1 exact, 2 exact-end (RuleSet); n 4..8; k 3..n;
 *   byte 3 is zero (reserved);
 *   X, O   the position's CANONICAL form (symmetry.h: the least of its 16
 *          images), bit layout of board.h. store_put and store_get
 *          canonicalise themselves: callers pass any of the 16 images and
 *          all of them reach the one record.
 *
 * Value, 16 bytes:
 *
 *   byte 0        1       2            4       5        6         7   8            16
 *        | winner | move | dtw (LE)   | flags | source | version | 0 | check (LE)   |
 *
 *   winner  1 Order, 2 Chaos (Winner; a store holds decided positions only);
 *   move    a winning move of the side to move IN THE CANONICAL FRAME
 *           (board.h's Move), 0xFF none known; store_get maps it back into
 *           the caller's frame with the inverse of the symmetry that took
 *           the caller's position to the canonical one;
 *   dtw     distance to win: plies until Order's line appears with Order
 *           hurrying and Chaos delaying (1: Order wins on this move), as
 *           `solve --dtw` reports it; 0xFFFF unknown (always for Chaos);
 *   flags   STORE_FLAG_*; merged by OR;
 *   source  who decided it (STORE_SOURCE_*);
 *   version STORE_FORMAT (2); a record of another version is refused as
 *           corrupt rather than misread. Byte 7 is zero (reserved);
 *   check   XXH3-64 (seed STORE_SEED) of the record's 20 key bytes and
 *           then value bytes 0..7.
 *
 * Why a checksum over key and value: LMDB checks nothing of what it
 * stores, and one flipped bit in a winner byte turns a Chaos win into an
 * Order win that a search then takes as a fact. With the check, a record
 * whose winner, move or distance changed, or whose key now names another
 * position, fails, and a failing record is never used: opening the store
 * refuses it (below), and store_get and store_foreach refuse a record
 * that fails later. The check guards against corruption (a disk, a copy,
 * a damaged snapshot); it is no signature: a record rewritten on purpose
 * with a matching check is caught only by the certificates, which the
 * verifier checks (a store is a cache of results, a certificate the
 * proof).
 *
 * Meta record, one per store: key STORE_META_KEY, 5 bytes, 0xFF "meta". Its
 * first byte is no rule set's number (position keys start with 0..2) and
 * its length is not 20, so it sorts after every position and can never be
 * read as one (store_foreach skips it). Value, 40 bytes:
 *
 *   byte 0           8             10      11    12    13      16        24       32      40
 *        | "OCSSTORE" | version (LE) | rules | n   | k   | 0 0 0 | records | digest | check |
 *
 *   magic   STORE_MAGIC, the 8 bytes "OCSSTORE": an LMDB database of
 *           another program has no such record;
 *   version STORE_FORMAT, the format of the whole store (meta and
 *           records); a store of another version is refused at open;
 *   rules, n, k  the game of every position in the store;
 *   records the number of position records (LE);
 *   digest  the XOR of every position record's check (LE);
 *   check   XXH3-64 (seed STORE_SEED) of the meta key and bytes 0..31.
 * Every put updates records and digest in the transaction that writes the
 * record, so they always describe the committed records: a record that
 * vanished or appeared shows as a count or digest that no longer matches.
 * The meta record is written with the first write-open of an empty store
 * when the caller names the game (store_open_game), else with the first
 * put (its key's game), in that put's transaction.
 *
 * Opening refuses, with one line naming the store and the reason:
 *   - a data.mdb that is not an LMDB file (or of another LMDB version), or
 *     one that store_file.h finds truncated or corrupt: it is read with
 *     plain reads before LMDB maps it, since LMDB would crash on it;
 *   - a meta record without the magic, of another version, failing its
 *     check, or naming no valid game; records without a meta record
 *     (another program's database);
 *   - a game other than the one the caller expects;
 *   - any position record that is malformed or fails its check, or
 *     records that do not match the meta record's count or digest. Every
 *     open reads every record for this (about a second for a million;
 *     `ocsolve store check DIR` lists the bad records one by one).
 *
 * Merging: a put for a position already stored never changes its winner.
 * If the stored winner differs, the put fails with STORE_CONFLICT and the
 * message "conflict: ... stored order, new chaos", and the old record stays.
 * Why not last-writer-wins: runs sharing a store (one after another)
 * decide the same positions, so the second put of a position is normal,
 * but each is an exact result; a contradiction means a bug (in a search, a lemma, or a
 * hand repair) and must be loud, not silently overwritten. With the same
 * winner the record keeps the better of the two: the smaller known dtw
 * (an unknown dtw never replaces a known one), with the move that came
 * with it; when the better record has no move, the other's move is kept
 * (every stored move is a winning move, though then not necessarily one
 * that wins in dtw plies). flags are ORed; source stays the first known one.
 *
 * One writer: a store has at most one process writing at a time. A
 * write-open takes an exclusive flock on writer.lock in the directory
 * (tables/filelock.h; LMDB's lock.mdb is LMDB's own) and holds it until
 * store_close; a second write-open, by another process or the same one,
 * is refused with "store DIR is in use by another writer (pid N)". The
 * kernel drops the lock when the writer dies (kill -9 included), so a
 * crash leaves nothing to clean up. Read-only opens never take it: any
 * number of readers run while one writer writes. So two runs share a
 * store one after another (or one writing, others reading). Why not many
 * writers, which LMDB would serialise: a coordinator owns its store for
 * its run (it trusts what it put), and two racing coordinators on one
 * store are more likely a mistake (the same job started twice) than a plan.
 *
 * Guarantees (LMDB: readers never block the writer nor it them):
 *   - each put is its own write transaction, and the read-merge-write of a
 *     put happens inside it;
 *   - durable: with LMDB's default sync a put has reached the disk when it
 *     returns 0;
 *   - crash-safe: LMDB's copy-on-write B-tree never overwrites live pages,
 *     so after a crash (kill -9, power loss) the store opens with every put
 *     that returned 0 and nothing of the one that was under way;
 *   - the map (the most the store can hold) is map_mb at open; a put that
 *     finds it full doubles it (up to the limit of store_set_map_limit, if
 *     one is set) and retries, and a reader whose map the writer grew
 *     adopts the new size, so map_mb is a starting size, not a bound
 *     (about 20 M positions per GiB);
 *   - a put that cannot be stored fails with one line naming the store and
 *     the cause, and every put that returned 0 stays: the map at its limit
 *     ("store DIR is full: ..."), a map that cannot grow (the address
 *     space; then the Store is unusable and every later call says so), the
 *     disk full or a file size limit (LMDB's write error).
 * A process must open one environment only once at a time (an LMDB rule:
 * a second open in the same process breaks its locks), and must not use a
 * Store inherited across fork(). The calls on one Store must not overlap
 * in time (a coordinator with threads puts a mutex around them): growing
 * the map needs that no other transaction of the process is open.
 *
 * Nothing here prints or exits: errors come back as a return value and a
 * one-line message.
 */
#ifndef OCS_STORE_H
#define OCS_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/board.h"
#include "../engine/rules.h"

enum { STORE_KEY_BYTES = 20, STORE_VALUE_BYTES = 16, STORE_FORMAT = 2 };
enum { STORE_META_KEY_BYTES = 5, STORE_META_BYTES = 40 };
#define STORE_SEED 0x4F43535354524532ULL /* "OCSSTRE2": the checks' XXH3 seed */
#define STORE_META_KEY "\xFF" "meta" /* STORE_META_KEY_BYTES bytes, no NUL */
#define STORE_MAGIC "OCSSTORE"       /* 8 bytes, no NUL */
enum { STORE_DTW_UNKNOWN = -1 };
enum { STORE_FLAG_VERIFIED = 1 }; /* a checked certificate backs the value */
enum {
    STORE_SOURCE_UNKNOWN = 0,
    STORE_SOURCE_DFPN = 1,  /* a df-pn job */
    STORE_SOURCE_LEMMA = 2, /* a lemma (centre, pairing) */
    STORE_SOURCE_HAND = 3,  /* `ocsolve store put`: tests and hand repair */
};
enum { STORE_CONFLICT = -2 }; /* store_put: the stored winner differs */

/* The on-disk byte strings (layouts above). */
typedef struct {
    uint8_t b[STORE_KEY_BYTES];
} StoreKeyBytes;
typedef struct {
    uint8_t b[STORE_VALUE_BYTES];
} StoreValueBytes;
_Static_assert(sizeof(StoreKeyBytes) == 20, "store key: 1 rules + 1 n + 1 k + 1 zero + 8 X + 8 O bytes");
_Static_assert(sizeof(StoreValueBytes) == 16,
               "store value: winner, move, 2 dtw, flags, source, version, zero, 8 check");
typedef struct {
    uint8_t b[STORE_META_BYTES];
} StoreMetaBytes;
_Static_assert(sizeof(StoreMetaBytes) == 40,
               "store meta: 8 magic + 2 version + rules + n + k + 3 zero + 8 records + 8 digest + 8 check");
_Static_assert(sizeof(STORE_META_KEY) - 1 == STORE_META_KEY_BYTES, "meta key: 0xFF then \"meta\"");
_Static_assert(sizeof(STORE_MAGIC) - 1 == 8, "store magic: 8 bytes");
_Static_assert((int)STORE_META_KEY_BYTES != (int)STORE_KEY_BYTES, "the meta key is never a position key");

/* The game a store is for (its meta record). */
typedef struct {
    RuleSet rules;
    int n, k;
} StoreGame;

/* A position in any frame. */
typedef struct {
    RuleSet rules;
    int n, k;
    Board pos;
} StoreKey;

typedef struct {
    Winner winner; /* WINNER_ORDER or WINNER_CHAOS */
    Move move;     /* MOVE_NONE: none known */
    int dtw;       /* STORE_DTW_UNKNOWN, or 1..empty cells (Order wins only) */
    uint8_t flags, source;
} StoreValue;

typedef struct Store Store;

/* Opens (readonly = false: creates when missing, directory included) the
 * store at the directory path, with a map of map_mb MiB (0: 1024). A
 * write-open takes the writer lock (One writer, above) until store_close.
 * expect: the game the caller will put and get; the store must be of it
 * (an empty store without a meta record is, and a write-open records it);
 * NULL accepts any game (store_game then says which). NULL with a one-line
 * message on failure: a missing store opened read-only, a path that is not
 * a directory, another writer, data.mdb not an LMDB file, a meta record of
 * another format or game, records without a meta record. */
Store *store_open_game(const char *path, bool readonly, size_t map_mb, const StoreGame *expect, char *err,
                       int errlen);
/* store_open_game(path, readonly, map_mb, NULL, err, errlen): any game. */
Store *store_open(const char *path, bool readonly, size_t map_mb, char *err, int errlen);

/* Forbids this process to open any store (and its journal,
 * tables/journal.h) from now on: every later store_open_game and
 * journal_open fails with "store PATH: not opened: this process is WHY".
 * For processes that must never touch the store even by mistake: an MPI
 * worker rank, whose store folder may be the coordinator's on a shared
 * file system, where LMDB's locks do not reach across machines (the
 * README's MPI section). why must outlive the process's use of stores
 * (a string literal). Not undone. */
void store_forbid(const char *why);
/* The reason given to store_forbid, NULL while stores may be opened. */
const char *store_forbidden(void);
void store_close(Store *s);

/* The store's game: 1 (*out filled), or 0 when it has none yet (an empty
 * store opened without naming one, before its first put). As of the open,
 * or this process's first put. */
int store_game(const Store *s, StoreGame *out);

/* The most the map may grow to, in bytes (0, the default: no limit but
 * the machine's). A put that finds the map full at the limit fails with
 * "store DIR is full". For a size bound, and for tests that make a store
 * fill up. */
void store_set_map_limit(Store *s, uint64_t max_bytes);

/* 0 stored (new or merged), STORE_CONFLICT (old record kept), -1 another
 * error (a malformed key or value, a key of another game than the store's,
 * a read-only store, the map full at its limit or unable to grow, disk
 * full). key and v->move are in the caller's frame. */
int store_put(Store *s, const StoreKey *key, const StoreValue *v, char *err, int errlen);
/* 1 found (*out filled, its move in the caller's frame), 0 not found, -1
 * error (store_error says which: also a key of another game). */
int store_get(Store *s, const StoreKey *key, StoreValue *out);
/* The message of the last failed store_get (empty if none). */
const char *store_error(const Store *s);
/* durable (the default): a put has reached the disk when it returns. Off
 * (LMDB's MDB_NOSYNC), for bulk loads and tests: a put costs no flush; a
 * killed process still loses nothing (the data is in the system's
 * buffers), but a system crash may lose recent puts. 0, or -1. */
int store_set_durable(Store *s, bool durable);

typedef struct {
    uint64_t entries;
    uint64_t order, chaos;     /* per winner */
    uint64_t with_move, with_dtw;
    uint64_t map_bytes;        /* the map: what the store can hold now */
    uint64_t file_bytes;       /* data.mdb on disk */
    uint64_t page_bytes;
} StoreStats;

/* Reads every record (a read transaction: puts may go on meanwhile and
 * are not seen). 0, or -1 with a message. */
int store_stats(Store *s, StoreStats *out, char *err, int errlen);

/* Calls fn on every record in key order, in the canonical frame, until fn
 * returns non-zero (then returns that value). 0 when all were visited, -1
 * with a message on an error or a corrupt record. fn must not call the
 * store. */
typedef int (*StoreVisit)(const StoreKey *key, const StoreValue *v, void *ctx);
int store_foreach(Store *s, StoreVisit fn, void *ctx, char *err, int errlen);

/* The meta record's content. */
typedef struct {
    StoreGame game;
    unsigned version;
    uint64_t records, digest;
} StoreMeta;

/* A consistent, compact copy of the store's data file (LMDB's
 * mdb_env_copy2 with compaction, through a read transaction, so a writer
 * may go on meanwhile) as dir/data.mdb: written to dir/data.mdb.tmp,
 * synced and renamed, so a kill leaves the previous copy whole; dir is
 * made when missing. Only data.mdb: a store opened from dir makes its own
 * lock file. For snapshots that a later run, on another machine, resumes
 * from (commit-sized: free pages are dropped). 0, or -1 with a message. */
int store_snapshot(Store *s, const char *dir, char *err, int errlen);

/* What store_check found (`ocsolve store check DIR`). */
typedef struct {
    bool file_ok;     /* data.mdb passed store_file.h's checks */
    bool meta_ok;     /* a meta record of this format whose check holds */
    StoreMeta meta;   /* when meta_ok */
    uint64_t records; /* position records read */
    uint64_t bad;     /* of them, malformed or failing their check */
    uint64_t digest;  /* the XOR of the good records' checks */
    char problem[512]; /* the first fault, one line naming it; empty: sound */
} StoreCheck;
/* Told about each bad record: its raw key bytes and why. */
typedef void (*StoreBadRecord)(const uint8_t *key, size_t klen, const char *why, void *ctx);
/* Reads the store at path without trusting any of it: data.mdb by
 * store_file.h, then (if that passed) every record, its check and the
 * meta record's count and digest, telling bad (may be NULL) about each
 * bad record. Never takes the writer lock. 0 when it could look (out
 * says what it found: sound exactly when out->problem is empty), or -1
 * with a message when path holds no store at all. */
int store_check(const char *path, StoreCheck *out, StoreBadRecord bad, void *ctx, char *err, int errlen);

/* The byte strings (exposed for tests): no canonicalisation here. */
void store_key_encode(const StoreKey *k, StoreKeyBytes *out);
void store_key_decode(const StoreKeyBytes *in, StoreKey *k);
/* The value of the record with key bytes kb, its check included. */
void store_value_encode(const StoreKeyBytes *kb, const StoreValue *v, StoreValueBytes *out);
enum { STORE_BAD_CHECK = -2 };
/* 0; -1 on a malformed value (winner, version, reserved byte);
 * STORE_BAD_CHECK when the check does not match key and value. */
int store_value_decode(const StoreKeyBytes *kb, const StoreValueBytes *in, StoreValue *v);
/* The check a value carries (bytes 8..15), as the digest sums it. */
uint64_t store_value_check(const StoreValueBytes *in);

/* The meta record's value (m->version: STORE_FORMAT; tests write others),
 * its check computed. */
void store_meta_encode(const StoreMeta *m, StoreMetaBytes *out);
/* -1 without the magic, with a non-zero reserved byte or a check that
 * fails; else 0, with the version, game, count and digest as written
 * (not checked against anything). */
int store_meta_decode(const StoreMetaBytes *in, StoreMeta *m);
/* "original 6x6 k=5" */
void store_game_name(const StoreGame *g, char *buf, size_t size);

const char *store_source_name(int source); /* "df-pn", "lemma", "hand", "unknown" */

#endif
