/* PCG32 (XSH-RR 64/32, M. E. O'Neill, https://www.pcg-random.org). Its state lives in the game state, so the same
 * seed gives the same game on every platform: only fixed-width unsigned arithmetic is used. */
#include "facts/facts.h"

void stpete_rng_seed(stpete_rng *rng, uint64_t seed, uint64_t stream)
{
    rng->state = 0u;
    rng->inc = (stream << 1u) | 1u;
    (void)stpete_rng_next(rng);
    rng->state += seed;
    (void)stpete_rng_next(rng);
}

uint32_t stpete_rng_next(stpete_rng *rng)
{
    uint64_t old = rng->state;
    rng->state = old * 6364136223846793005ULL + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

uint32_t stpete_rng_below(stpete_rng *rng, uint32_t bound)
{
    /* Lemire, "Fast Random Integer Generation in an Interval" (2019): unbiased. */
    uint64_t m = (uint64_t)stpete_rng_next(rng) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t threshold = (uint32_t)(-bound) % bound;
        while (low < threshold) {
            m = (uint64_t)stpete_rng_next(rng) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

void stpete_rng_shuffle(stpete_rng *rng, uint8_t *a, int n)
{
    stpete_rng r = *rng; /* a local copy: the byte stores below cannot alias it, so it stays in registers */
    for (int i = n - 1; i > 0; i--) { /* Fisher–Yates */
        int j = (int)stpete_rng_below(&r, (uint32_t)i + 1u);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    *rng = r;
}
