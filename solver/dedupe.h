/* dedupe.h - the symmetric-duplicate test of a node's expansion (the
 * df-pn kernel's, dfpn_kernel.h, for both df-pn searches): a set of
 * the open children listed so far, by key, held as list index + 1 in
 * open-addressing byte slots over the caller's own child array (so no key
 * is copied). Comparing each child with every listed one was 8 % of a
 * node's time near the opening (~40 children, all keyed canonically).
 *
 * Invariants: more slots than children (a free slot is always found, so
 * the probe loop ends); a slot holds the index + 1 where the caller lists
 * the child it was asked about (the caller must list it there when the
 * answer is false); slots are zeroed before each expansion. */
#ifndef OCS_DEDUPE_H
#define OCS_DEDUPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/board.h"
#include "../engine/moves.h"

enum { DEDUPE_SLOTS = 256 };
_Static_assert(MOVES_MAX + 1 < DEDUPE_SLOTS && DEDUPE_SLOTS <= 256, "a free slot; indices + 1 fit a byte");

/* Whether a child of key `key` is listed already among list[0 .. n) (the
 * key of entry i at byte offset key_off of list + i * stride); if not,
 * remembers it as entry n. stride and key_off are the caller's constants
 * (sizeof and offsetof of its child type), folded where this is inlined. */
static inline bool dedupe_listed(uint8_t slots[DEDUPE_SLOTS], const void *list, size_t stride, size_t key_off, int n,
                                 Board key)
{
    unsigned h = (unsigned)((key.s[0] * 0x9E3779B97F4A7C15ULL ^ key.s[1] * 0xC2B2AE3D27D4EB4FULL) >> 56);
    for (;; h = (h + 1) % DEDUPE_SLOTS) {
        if (slots[h] == 0) {
            slots[h] = (uint8_t)(n + 1);
            return false;
        }
        const Board *k = (const Board *)((const char *)list + (size_t)(slots[h] - 1) * stride + key_off);
        if (board_equal(*k, key)) return true;
    }
}

#endif
