/* store_format.c - the store's byte strings (store_format.h; the key,
 * value and meta layouts: store.h): encoding, decoding and the checks
 * that guard them. No LMDB here: these are plain functions of bytes, so
 * the tests can build and damage records by hand. */
#include "store_format.h"

#include <stdio.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "le.h"

enum { DTW_NONE = 0xFFFF, VALUE_CHECKED = 8, META_CHECKED = 32 };

void store_key_encode(const StoreKey *k, StoreKeyBytes *out)
{
    out->b[0] = (uint8_t)k->rules;
    out->b[1] = (uint8_t)k->n;
    out->b[2] = (uint8_t)k->k;
    out->b[3] = 0;
    le_put(out->b + 4, k->pos.s[PIECE_X], 8);
    le_put(out->b + 12, k->pos.s[PIECE_O], 8);
}

void store_key_decode(const StoreKeyBytes *in, StoreKey *k)
{
    k->rules = (RuleSet)in->b[0];
    k->n = in->b[1];
    k->k = in->b[2];
    k->pos.s[PIECE_X] = le_get(in->b + 4, 8);
    k->pos.s[PIECE_O] = le_get(in->b + 12, 8);
}

/* XXH3 of the key bytes then the value's first 8 bytes. */
static uint64_t value_check(const StoreKeyBytes *kb, const StoreValueBytes *vb)
{
    uint8_t both[STORE_KEY_BYTES + VALUE_CHECKED];
    memcpy(both, kb->b, STORE_KEY_BYTES);
    memcpy(both + STORE_KEY_BYTES, vb->b, VALUE_CHECKED);
    return XXH3_64bits_withSeed(both, sizeof both, STORE_SEED);
}

void store_value_encode(const StoreKeyBytes *kb, const StoreValue *v, StoreValueBytes *out)
{
    unsigned dtw = v->dtw < 0 ? DTW_NONE : (unsigned)v->dtw;
    out->b[0] = (uint8_t)v->winner;
    out->b[1] = v->move;
    le_put(out->b + 2, dtw, 2);
    out->b[4] = v->flags;
    out->b[5] = v->source;
    out->b[6] = STORE_FORMAT;
    out->b[7] = 0;
    le_put(out->b + 8, value_check(kb, out), 8);
}

uint64_t store_value_check(const StoreValueBytes *in) { return le_get(in->b + 8, 8); }

int store_value_decode(const StoreKeyBytes *kb, const StoreValueBytes *in, StoreValue *v)
{
    if (value_check(kb, in) != store_value_check(in)) return STORE_BAD_CHECK;
    if (in->b[6] != STORE_FORMAT || in->b[7] != 0) return -1;
    if (in->b[0] != WINNER_ORDER && in->b[0] != WINNER_CHAOS) return -1;
    v->winner = (Winner)in->b[0];
    v->move = in->b[1];
    unsigned dtw = (unsigned)le_get(in->b + 2, 2);
    v->dtw = dtw == DTW_NONE ? STORE_DTW_UNKNOWN : (int)dtw;
    v->flags = in->b[4];
    v->source = in->b[5];
    return 0;
}

enum { BOUND_NONE = 0xFF };

static unsigned bound_byte(int d) { return d == STORE_BOUND_NONE ? BOUND_NONE : (unsigned)d; }

void store_bound_encode(const StoreKeyBytes *kb, const StoreBound *b, StoreValueBytes *out)
{
    out->b[0] = (uint8_t)bound_byte(b->yes);
    out->b[1] = (uint8_t)bound_byte(b->no);
    out->b[2] = b->move;
    out->b[3] = 0;
    out->b[4] = b->flags;
    out->b[5] = b->source;
    out->b[6] = STORE_FORMAT_BOUNDS;
    out->b[7] = 0;
    le_put(out->b + 8, value_check(kb, out), 8);
}

/* A bound byte: 0..STORE_BOUND_MAX, or none; -2 for anything else. */
static int bound_of(uint8_t byte)
{
    if (byte == BOUND_NONE) return STORE_BOUND_NONE;
    return byte <= STORE_BOUND_MAX ? byte : -2;
}

int store_bound_decode(const StoreKeyBytes *kb, const StoreValueBytes *in, StoreBound *b)
{
    if (value_check(kb, in) != store_value_check(in)) return STORE_BAD_CHECK;
    if (store_key_kind(kb) != STORE_KIND_BOUND || in->b[6] != STORE_FORMAT_BOUNDS || in->b[3] || in->b[7]) return -1;
    int yes = bound_of(in->b[0]), no = bound_of(in->b[1]);
    if (yes == -2 || no == -2 || (yes == STORE_BOUND_NONE && no == STORE_BOUND_NONE)) return -1;
    if (in->b[2] != MOVE_NONE && (yes == STORE_BOUND_NONE || (in->b[2] & 0x80))) return -1;
    b->yes = yes;
    b->no = no;
    b->move = in->b[2];
    b->flags = in->b[4];
    b->source = in->b[5];
    return 0;
}

/* XXH3 of the meta key then the value's first 32 bytes. */
static uint64_t meta_check(const StoreMetaBytes *mb)
{
    uint8_t both[STORE_META_KEY_BYTES + META_CHECKED];
    memcpy(both, STORE_META_KEY, STORE_META_KEY_BYTES);
    memcpy(both + STORE_META_KEY_BYTES, mb->b, META_CHECKED);
    return XXH3_64bits_withSeed(both, sizeof both, STORE_SEED);
}

void store_meta_encode(const StoreMeta *m, StoreMetaBytes *out)
{
    memset(out->b, 0, sizeof out->b);
    memcpy(out->b, STORE_MAGIC, 8);
    le_put(out->b + 8, m->version, 2);
    out->b[10] = (uint8_t)m->game.rules;
    out->b[11] = (uint8_t)m->game.n;
    out->b[12] = (uint8_t)m->game.k;
    le_put(out->b + 16, m->records, 8);
    le_put(out->b + 24, m->digest, 8);
    le_put(out->b + 32, meta_check(out), 8);
}

int store_meta_decode(const StoreMetaBytes *in, StoreMeta *m)
{
    if (memcmp(in->b, STORE_MAGIC, 8) != 0 || in->b[13] || in->b[14] || in->b[15]) return -1;
    if (meta_check(in) != le_get(in->b + 32, 8)) return -1;
    m->version = (unsigned)le_get(in->b + 8, 2);
    m->game.rules = (RuleSet)in->b[10];
    m->game.n = in->b[11];
    m->game.k = in->b[12];
    m->records = le_get(in->b + 16, 8);
    m->digest = le_get(in->b + 24, 8);
    return 0;
}

void store_game_name(const StoreGame *g, char *buf, size_t size)
{
    bool known = (int)g->rules >= RULES_ORIGINAL && (int)g->rules <= RULES_EXACT_END;
    snprintf(buf, size, "%s %dx%d k=%d", known ? rules_name(g->rules) : "unknown-rules", g->n, g->n, g->k);
}

const char *store_source_name(int source)
{
    switch (source) {
    case STORE_SOURCE_DFPN: return "df-pn";
    case STORE_SOURCE_LEMMA: return "lemma";
    case STORE_SOURCE_HAND: return "hand";
    default: return "unknown";
    }
}
