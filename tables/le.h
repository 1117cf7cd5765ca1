/* le.h - little-endian byte strings for the tables layer's files (the
 * store's keys and values, the journal's records): explicit byte order,
 * so a file moves between machines. */
#ifndef OCS_LE_H
#define OCS_LE_H

#include <stdint.h>

/* Writes the low `bytes` bytes of x at p, least significant first. */
static inline void le_put(uint8_t *p, uint64_t x, int bytes)
{
    for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(x >> (8 * i));
}

/* Reads `bytes` bytes at p, least significant first. */
static inline uint64_t le_get(const uint8_t *p, int bytes)
{
    uint64_t x = 0;
    for (int i = 0; i < bytes; i++) x |= (uint64_t)p[i] << (8 * i);
    return x;
}

#endif
