/* Hidden information for bots (§9): determinization. stpete_core_resample() replaces what one seat cannot know by a
 * uniformly random draw consistent with what it does know, with perfect recall (OpenSpiel's ResampleFromInfostate). */
#include <string.h>

#include "stpete_internal.h"

typedef struct slot {
    uint8_t player, index; /* a hidden hand card: c->p[player].hand[index] */
} slot;

/* Whether seat can see (or remembers) the identity of player's hand card h (§9): its own, every hand with the
 * public_hands option, and a card everyone saw taken (hand_known). */
int stpete_hand_card_known(const stpete_core *c, int seat, int player, int h)
{
    return player == seat || c->rules.public_hands || (c->p[player].hand_known >> h & 1u);
}

/* Put a stack back in card-type order (explicit-chance mode keeps stacks as multisets in that order). */
static void sort_stack(uint8_t *stack, int n)
{
    uint8_t count[STPETE_NUM_CARD_TYPES] = { 0 };
    for (int i = 0; i < n; i++)
        count[stack[i]]++;
    int k = 0;
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
        for (int j = 0; j < count[t]; j++)
            stack[k++] = (uint8_t)t;
}

/* What a seat cannot see (§9): the order of every stack, and the identity of the other players' hand cards it has
 * not seen (none in a game played from the start: every card reaches a hand in view of all). Hand sizes and the
 * back of each hand card are public; a card's back is that of the stack it is dealt from (§1: four face-down
 * stacks: workers, buildings, aristocrats, trading cards), and a stack holds only its own kind (§2).
 *
 * So for each stack kind, the unseen cards of that kind (the stack plus the unseen hand cards with that back)
 * are exchangeable: a uniform shuffle of them, dealt back into the stack and then into the unseen hand slots of
 * that back, is a uniform draw among all placements consistent with what the seat knows. The pool is put in
 * card-type order before the shuffle, so the result depends on the seed and on what the seat knows only, not on
 * the secret order it replaces: positions the seat cannot tell apart give the same determinization. */
void stpete_core_resample(stpete_core *c, int seat, uint64_t seed, unsigned flags)
{
    stpete_rng rng;
    stpete_rng_seed(&rng, seed, STPETE_RNG_STREAM_RESAMPLE);
    for (int s = 0; s < STPETE_NUM_STACKS; s++) {
        uint8_t pool[STACK_CAP + STPETE_MAX_PLAYERS * STPETE_MAX_HAND];
        slot slots[STPETE_MAX_PLAYERS * STPETE_MAX_HAND];
        int n_pool = c->stack_n[s], n_slots = 0;
        memcpy(pool, c->stack[s], (size_t)n_pool);
        for (int p = 0; p < c->rules.players; p++)
            for (int h = 0; h < c->p[p].hand_n; h++)
                if (!stpete_hand_card_known(c, seat, p, h) && stpete_stack_of(c->p[p].hand[h]) == s) {
                    slots[n_slots++] = (slot){ (uint8_t)p, (uint8_t)h };
                    pool[n_pool++] = c->p[p].hand[h];
                }
        sort_stack(pool, n_pool); /* what the seat knows: the multiset, not the order */
        stpete_rng_shuffle(&rng, pool, n_pool);
        memcpy(c->stack[s], pool, (size_t)c->stack_n[s]);
        for (int i = 0; i < n_slots; i++)
            c->p[slots[i].player].hand[slots[i].index] = pool[c->stack_n[s] + i];
        if (c->rules.chance_mode == STPETE_CHANCE_EXPLICIT) /* a multiset: no order to draw */
            sort_stack(c->stack[s], c->stack_n[s]);
    }
    /* Secret rubles (§9), on request: the seat sees only its own amount. */
    if ((flags & STPETE_DETERMINIZE_RUBLES) && !c->rules.public_rubles)
        for (int p = 0; p < c->rules.players; p++)
            c->p[p].rubles = c->p[seat].rubles;
    /* The deal's PRNG is part of what nobody knows either. */
    stpete_rng_seed(&c->rng, seed, STPETE_RNG_STREAM_DEAL);
}
