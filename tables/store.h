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
 * not its parents) unless opened read-only. One unnamed database, one record per
 * position; LMDB orders records by memcmp of the key bytes.
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
 * Value, 8 bytes:
 *
 *   byte 0        1       2            4       5        6         7        8
 *        | winner | move | dtw (LE)   | flags | source | version | 0      |
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
 *   version STORE_FORMAT (1); a record of another version is refused as
 *           corrupt rather than misread. Byte 7 is zero (reserved).
 *
 * Merging: a put for a position already stored never changes its winner.
 * If the stored winner differs, the put fails with STORE_CONFLICT and the
 * message "conflict: ... stored order, new chaos", and the old record stays.
 * Why not last-writer-wins: two runs sharing a store race to decide the
 * same positions, so the second put of a position is normal, but each is
 * an exact result; a contradiction means a bug (in a search, a lemma, or a
 * hand repair) and must be loud, not silently overwritten. With the same
 * winner the record keeps the better of the two: the smaller known dtw
 * (an unknown dtw never replaces a known one), with the move that came
 * with it; when the better record has no move, the other's move is kept
 * (every stored move is a winning move, though then not necessarily one
 * that wins in dtw plies). flags are ORed; source stays the first known one.
 *
 * Guarantees (LMDB: many readers and one writer per environment, also
 * across processes; readers never block the writer nor it them):
 *   - each put is its own write transaction, and the read-merge-write of a
 *     put happens inside it, so concurrent puts from several processes
 *     serialise and never lose a merge;
 *   - durable: with LMDB's default sync a put has reached the disk when it
 *     returns 0;
 *   - crash-safe: LMDB's copy-on-write B-tree never overwrites live pages,
 *     so after a crash (kill -9, power loss) the store opens with every put
 *     that returned 0 and nothing of the one that was under way;
 *   - the map (the most the store can hold) is map_mb at open; a put that
 *     finds it full doubles it and retries, and a process whose map another
 *     process grew adopts the new size, so map_mb is a starting size, not a
 *     bound (about 20 M positions per GiB).
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

enum { STORE_KEY_BYTES = 20, STORE_VALUE_BYTES = 8, STORE_FORMAT = 1 };
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
_Static_assert(sizeof(StoreValueBytes) == 8,
               "store value: winner, move, 2 dtw, flags, source, version, zero");

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
 * store at the directory path, with a map of map_mb MiB (0: 1024). NULL
 * with a message on failure: a missing store opened read-only, a path
 * that is not a directory, a file that is not an LMDB environment. */
Store *store_open(const char *path, bool readonly, size_t map_mb, char *err, int errlen);
void store_close(Store *s);

/* 0 stored (new or merged), STORE_CONFLICT (old record kept), -1 another
 * error (a malformed key or value, a read-only store, disk full). key and
 * v->move are in the caller's frame. */
int store_put(Store *s, const StoreKey *key, const StoreValue *v, char *err, int errlen);
/* 1 found (*out filled, its move in the caller's frame), 0 not found, -1
 * error (store_error says which). */
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

/* The byte strings (exposed for tests): no canonicalisation here. */
void store_key_encode(const StoreKey *k, StoreKeyBytes *out);
void store_key_decode(const StoreKeyBytes *in, StoreKey *k);
void store_value_encode(const StoreValue *v, StoreValueBytes *out);
/* -1 on a malformed record (winner, version, reserved byte). */
int store_value_decode(const StoreValueBytes *in, StoreValue *v);

const char *store_source_name(int source); /* "df-pn", "lemma", "hand", "unknown" */

#endif
