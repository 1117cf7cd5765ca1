/* rng.h - the one pseudo-random generator: splitmix64 (Steele, Lea and
 * Flood). Fixed streams from a seed, so random positions and benchmark
 * keys are the same on every run and build. Not for anything secret. */
#ifndef OCS_RNG_H
#define OCS_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#endif
