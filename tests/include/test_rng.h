/* The tests' own deterministic choices (splitmix64), independent of the library's in-state PRNG. */
#ifndef STPETE_TEST_RNG_H
#define STPETE_TEST_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "stpete/bots.h"
#include "stpete/stpete.h"
#include "test_values.h"

static inline uint64_t rng_next(uint64_t *s)
{
    return stpete_splitmix64(s);
}

/* A random number that STPETE_PICK_SCALED turns into index i of n (stpete_state_apply_random): the smallest
 * r >> 32 with ((r >> 32) * n) >> 32 == i. */
static inline uint64_t scaled_random_for(size_t i, size_t n)
{
    uint64_t high = (((uint64_t)i << 32) + n - 1) / n;
    return high << 32 | 0xFFFFFFFFu; /* the low half is ignored */
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

/* Random play biased towards taking cards into hand (one move in three takes when it can), so that hands hold
 * secrets (§9); stops after `moves` moves or at the end. Returns STPETE_OK or the first failing status. */
static inline int play_taking(stpete_state *st, int moves, uint64_t *rng)
{
    for (int m = 0; m < moves && !tg_is_terminal(st); m++) {
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n = 0;
        int rc = stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
        if (rc != STPETE_OK)
            return rc;
        int pick = ids[rng_below(rng, (int)n)];
        if (rng_below(rng, 3) == 0)
            pick = take_action_or(ids, n, pick);
        if ((rc = stpete_state_apply(st, pick)) != STPETE_OK)
            return rc;
    }
    return STPETE_OK;
}

/* Cards in the hands of the seats other than `seat` (their identities are secret to it unless hands are public). */
static inline int hand_cards_of_others(const stpete_state *st, int seat, int players)
{
    int total = 0;
    for (int p = 0; p < players; p++) {
        size_t n = 0;
        stpete_state_hand(st, p, NULL, 0, &n);
        total += p == seat ? 0 : (int)n;
    }
    return total;
}

#endif /* STPETE_TEST_RNG_H */
