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
 * store file moves between machines; the byte strings, their encoding and
 * checks are store_format.h's):
 *
 *   byte 0       1     2     3       4                  12                 20
 *        | rules | n   | k   | kind | X bits (8, LE)   | O bits (8, LE)  |
 *
 *   rules  0 original, 1 exact, 2 exact-end (RuleSet); n 4..8; k 3..n;
 *   kind   0 a value record (below), 1 a bound record (Bound records,
 *          below; format 3 only). Format 2 called it a reserved zero
 *          byte, so every format-2 record is a value record;
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
 *   version STORE_FORMAT (2), in format-3 stores too (a value record
 *           did not change); a record of another version is refused as
 *           corrupt rather than misread. Byte 7 is zero (reserved);
 *   check   XXH3-64 (seed STORE_SEED) of the record's 20 key bytes and
 *           then value bytes 0..7.
 *
 * Bound records (format 3): what the bounded question W(b, d) of
 * solver/dfpn_depth.h, "does Order force a line within d plies?", is known
 * to answer at a position, for `ocsolve jobs --within` (jobs/within.h).
 * Key: as above with kind 1, so a position may have a value record and a
 * bound record side by side, and a format-2 record is never read as one.
 * Value, 16 bytes:
 *
 *   byte 0     1    2      3   4       5        6         7   8            16
 *        | yes | no | move | 0 | flags | source | version | 0 | check (LE)   |
 *
 *   yes     Order forces a line within this many plies (dtw <= yes), the
 *           least such d proven; 0xFF none known;
 *   no      Order cannot force one within this many (dtw > no), the
 *           greatest such d proven; 0xFF none known (0..64 otherwise; at
 *           least one of yes and no is known);
 *   move    with yes, Order to move: a move whose child is within yes - 1,
 *           in the canonical frame; 0xFF none;
 *   version STORE_FORMAT_BOUNDS (3); check, flags, source as above.
 * Meaning and use: a yes at d answers every d' >= d with yes, a no at d
 * every d' <= d with no (dtw <= d <= d', dtw > d >= d'); nothing else
 * (store_bound_answer). A value record answers too (store_bound_of_value):
 * a Chaos win is no at every d, an Order win is yes at the empty cells
 * (a game lasts no longer), and a known dtw t is yes at t and no at t - 1.
 * Merging: a put keeps the least yes (with its move) and the greatest no;
 * a put after which the position's yes would be at or below its no, the
 * bound record and the value record read together (a yes at y says dtw
 * <= y, a no at n dtw > n), is refused with STORE_CONFLICT ("conflict:
 * ... within 9 and not within 11"), and so is a value put that
 * contradicts a stored bound: two facts that cannot both hold mean a bug.
 * (The store knows no parity argument: yes at 4 and no at 3 of an Order-
 * to-move position, where dtw is odd, is a contradiction it lets pass.)
 *
 * Versions: a store is of format 2 until its first bound record, whose
 * put rewrites the meta record's version to 3 in the same transaction; a
 * store with no bound record stays of format 2, readable by an ocsolve
 * that knows only format 2. This ocsolve reads both; an older one refuses
 * a format-3 store by its version ("has store format version 3 (this
 * ocsolve reads 2)"), never misreading a bound record, and a bound record
 * in a store whose meta record says 2 is a bad record (store check lists
 * it, opening refuses the store). The count and digest of the meta record
 * take bound records as they take value records.
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
 *   version the format of the whole store (meta and records):
 *           STORE_FORMAT (2), or STORE_FORMAT_BOUNDS (3) once it holds a
 *           bound record; a store of another version is refused at open
 *           ("store DIR has store format version 1 (this ocsolve reads 2
 *           and 3)");
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
#include "store_format.h"

enum { STORE_CONFLICT = -2 }; /* store_put: the stored winner differs */

/* W(position, d) by what b says: 1 yes, 0 no, -1 not known (above). */
static inline int store_bound_answer(const StoreBound *b, int d)
{
    if (b->yes != STORE_BOUND_NONE && b->yes <= d) return 1;
    if (b->no != STORE_BOUND_NONE && b->no >= d) return 0;
    return -1;
}

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
/* The bound record of key (any frame): as store_put and store_get, for
 * bound records (above): 0 stored or merged, STORE_CONFLICT (the old
 * record kept; also against the value record), -1 another error (a
 * bound out of 0..64, none known, a move without a yes or on a taken
 * cell, ...). The first bound record makes the store of format 3. */
int store_put_bound(Store *s, const StoreKey *key, const StoreBound *b, char *err, int errlen);
/* 1 found (*out, its move in the caller's frame), 0 not found, -1 error
 * (store_error). The bound record alone: store_bound_of_value reads a
 * value record the same way. */
int store_get_bound(Store *s, const StoreKey *key, StoreBound *out);
/* What the value record v of key says of the bounds (above): a Chaos win
 * no at STORE_BOUND_MAX; an Order win yes at its dtw, or else at the
 * empty cells, and no at dtw - 1 when its dtw is known. */
void store_bound_of_value(const StoreKey *key, const StoreValue *v, StoreBound *out);

/* The message of the last failed store_get (empty if none). */
const char *store_error(const Store *s);
/* durable (the default): a put has reached the disk when it returns. Off
 * (LMDB's MDB_NOSYNC), for bulk loads and tests: a put costs no flush; a
 * killed process still loses nothing (the data is in the system's
 * buffers), but a system crash may lose recent puts. 0, or -1. */
int store_set_durable(Store *s, bool durable);

typedef struct {
    uint64_t entries;          /* value records */
    uint64_t bounds;           /* bound records (above) */
    uint64_t order, chaos;     /* per winner */
    uint64_t with_move, with_dtw;
    uint64_t map_bytes;        /* the map: what the store can hold now */
    uint64_t file_bytes;       /* data.mdb on disk */
    uint64_t page_bytes;
} StoreStats;

/* Reads every record (a read transaction: puts may go on meanwhile and
 * are not seen). 0, or -1 with a message. */
int store_stats(Store *s, StoreStats *out, char *err, int errlen);

/* Calls fn on every value record in key order, in the canonical frame,
 * until fn returns non-zero (then returns that value). 0 when all were
 * visited, -1 with a message on an error or a corrupt record. fn must not
 * call the store. */
typedef int (*StoreVisit)(const StoreKey *key, const StoreValue *v, void *ctx);
int store_foreach(Store *s, StoreVisit fn, void *ctx, char *err, int errlen);
/* The same over every bound record. */
typedef int (*StoreBoundVisit)(const StoreKey *key, const StoreBound *b, void *ctx);
int store_foreach_bound(Store *s, StoreBoundVisit fn, void *ctx, char *err, int errlen);

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

#endif
