/* The tests' own deterministic choices (splitmix64), independent of the library's in-state PRNG. */
#ifndef STPETE_TEST_RNG_H
#define STPETE_TEST_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "stpete/stpete.h"

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

/* The last of n legal ids that takes a card into hand (§4.2), or fallback: tests that need hidden hands (§9)
 * steer random play towards takes with it. */
static inline int take_action_or(const int *ids, size_t n, int fallback)
{
    for (size_t i = n; i-- > 0;) {
        stpete_action a;
        stpete_action_decode(ids[i], &a);
        if (a.kind == STPETE_ACTION_TAKE)
            return ids[i];
    }
    return fallback;
}

#endif /* STPETE_TEST_RNG_H */
