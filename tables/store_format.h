/* store_format.h - the store's records as bytes (store.h: Key, Value,
 * Bound records, Meta record), with no LMDB and no canonicalisation: the
 * constants of the format, the key, value, bound and meta records as C
 * values and as the byte strings written to disk, and the functions that
 * encode, decode and check them (store_format.c). Plain functions of
 * bytes, so the store (store*.c) and the tests build and damage records
 * alike.
 *
 * Invariants: every number little-endian (a store file moves between
 * machines); a key is STORE_KEY_BYTES bytes, a value or bound value
 * STORE_VALUE_BYTES, the meta value STORE_META_BYTES, the meta key
 * STORE_META_KEY_BYTES (never a position key's length); every value
 * carries an XXH3-64 check (seed STORE_SEED) over its key and its first
 * bytes, and a decoder refuses a value whose check, version or reserved
 * bytes do not match (STORE_BAD_CHECK, -1) rather than misread it. What
 * a record means, how records merge and which frame a key is in are the
 * store's (store.h).
 */
#ifndef OCS_STORE_FORMAT_H
#define OCS_STORE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/board.h"
#include "../engine/rules.h"

enum { STORE_KEY_BYTES = 20, STORE_VALUE_BYTES = 16, STORE_FORMAT = 2, STORE_FORMAT_BOUNDS = 3 };
enum { STORE_KIND_VALUE = 0, STORE_KIND_BOUND = 1 }; /* key byte 3 */
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

/* The on-disk byte strings (layouts: store.h). */
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

/* A bound record (store.h, Bound records). */
enum { STORE_BOUND_NONE = -1, STORE_BOUND_MAX = 64 };
typedef struct {
    int yes;   /* dtw <= yes (0..64); STORE_BOUND_NONE: not known */
    int no;    /* dtw > no (0..64); STORE_BOUND_NONE: not known */
    Move move; /* with yes, Order to move: a move whose child is within yes - 1; MOVE_NONE */
    uint8_t flags, source;
} StoreBound;

/* The meta record's content. */
typedef struct {
    StoreGame game;
    unsigned version;
    uint64_t records, digest;
} StoreMeta;
/* The byte strings (exposed for tests): no canonicalisation here. A key
 * is encoded as a value record's (kind 0); store_key_kind reads byte 3. */
void store_key_encode(const StoreKey *k, StoreKeyBytes *out);
static inline int store_key_kind(const StoreKeyBytes *kb) { return kb->b[3]; }
void store_key_decode(const StoreKeyBytes *in, StoreKey *k);
/* The value of the record with key bytes kb, its check included. */
void store_value_encode(const StoreKeyBytes *kb, const StoreValue *v, StoreValueBytes *out);
enum { STORE_BAD_CHECK = -2 };
/* 0; -1 on a malformed value (winner, version, reserved byte);
 * STORE_BAD_CHECK when the check does not match key and value. */
int store_value_decode(const StoreKeyBytes *kb, const StoreValueBytes *in, StoreValue *v);
/* The check a value carries (bytes 8..15), as the digest sums it. */
uint64_t store_value_check(const StoreValueBytes *in);
/* The value of the bound record with key bytes kb (byte 3 must be
 * STORE_KIND_BOUND), its check included; decoding as store_value_decode
 * (-1 also for a bound out of range, none known, a reserved byte set). */
void store_bound_encode(const StoreKeyBytes *kb, const StoreBound *b, StoreValueBytes *out);
int store_bound_decode(const StoreKeyBytes *kb, const StoreValueBytes *in, StoreBound *b);

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
