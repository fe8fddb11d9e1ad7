/* Hidden information for bots (§9): determinization. stpete_state_resample() replaces what one seat cannot know
 * by a uniformly random draw consistent with what it does know (OpenSpiel's ResampleFromInfostate). */
#include <string.h>

#include "stpete_internal.h"

typedef struct slot {
    uint8_t player, index; /* a hidden hand card: c->p[player].hand[index] */
} slot;

/* What a seat cannot see (§9): the order of every stack, and the identity of other players' hand cards unless
 * hands are public. Hand sizes and the back of each hand card are public; a card's back is that of the stack it
 * is dealt from (§1: four face-down stacks: workers, buildings, aristocrats, trading cards), and a stack holds
 * only its own kind (§2).
 *
 * So for each stack kind, the unseen cards of that kind (the stack plus the hidden hand cards with that back)
 * are exchangeable: a uniform shuffle of them, dealt back into the stack and then into the hidden hand slots of
 * that back, is a uniform draw among all placements consistent with what the seat knows. */
void stpete_core_resample(stpete_core *c, int seat, uint64_t seed)
{
    stpete_rng rng;
    stpete_rng_seed(&rng, seed, STPETE_RNG_STREAM_RESAMPLE);
    for (int s = 0; s < STPETE_NUM_STACKS; s++) {
        uint8_t pool[STACK_CAP + STPETE_MAX_PLAYERS * STPETE_MAX_HAND];
        slot slots[STPETE_MAX_PLAYERS * STPETE_MAX_HAND];
        int n_pool = c->stack_n[s], n_slots = 0;
        memcpy(pool, c->stack[s], (size_t)n_pool);
        for (int p = 0; p < c->rules.players; p++)
            for (int h = 0; c->rules.public_hands == 0 && p != seat && h < c->p[p].hand_n; h++)
                if (stpete_stack_of(c->p[p].hand[h]) == s) {
                    slots[n_slots++] = (slot){ (uint8_t)p, (uint8_t)h };
                    pool[n_pool++] = c->p[p].hand[h];
                }
        stpete_rng_shuffle(&rng, pool, n_pool);
        memcpy(c->stack[s], pool, (size_t)c->stack_n[s]);
        for (int i = 0; i < n_slots; i++)
            c->p[slots[i].player].hand[slots[i].index] = pool[c->stack_n[s] + i];
    }
    /* The deal's PRNG is part of what nobody knows either. */
    stpete_rng_seed(&c->rng, seed, STPETE_RNG_STREAM_DEAL);
}
