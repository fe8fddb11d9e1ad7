/* The tests' own deterministic choices (splitmix64), independent of the library's in-state PRNG. */
#ifndef STPETE_TEST_RNG_H
#define STPETE_TEST_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform-enough integer in [0, n) for test choices (n small). */
static inline int rng_below(uint64_t *s, int n)
{
    return (int)(rng_next(s) % (uint64_t)n);
}

#endif /* STPETE_TEST_RNG_H */
