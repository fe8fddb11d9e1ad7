/* Hidden information for bots (§9): determinization. stpete_state_resample() replaces what one seat cannot know
 * by a uniformly random draw consistent with what it does know (OpenSpiel's ResampleFromInfostate). */
#include <string.h>

#include "stpete_internal.h"

/* Stream of the resampling PRNG: "Resamp" in ASCII, distinct from the deal's stream. */
#define RESAMPLE_STREAM UINT64_C(0x526573616d70)

typedef struct slot {
    uint8_t player, index; /* a hidden hand card: c->p[player].hand[index] */
} slot;

/* What a seat cannot see (§9): the order of every stack, and the identity of other players' hand cards unless
 * hands are public. Hand sizes and the colour of each hand card's back are public, and a stack holds only its
 * own kind (§2): workers, buildings, aristocrats, or trading cards of any colour.
 *
 * The draw is uniform over the placements of the unseen physical cards that respect this. For each colour the
 * number of hidden hand cards that are not trading cards is fixed (unseen cards of that kind minus the stack's
 * size), so: pick which hidden slots of that colour hold them (uniformly), deal the kind's unseen cards shuffled
 * into its stack and those slots, then deal the unseen trading cards shuffled: each remaining hand slot takes the
 * next card of its colour, the trading stack takes the rest in order. */
static void resample_core(stpete_core *c, int seat, uint64_t seed)
{
    stpete_rng rng;
    stpete_rng_seed(&rng, seed, RESAMPLE_STREAM);
    int hidden_hands = !c->rules.public_hands;
    slot slots[3][STPETE_MAX_PLAYERS * STPETE_MAX_HAND]; /* hidden hand slots per colour */
    int n_slots[3] = { 0, 0, 0 };
    uint8_t pool[3][STACK_CAP + STPETE_MAX_PLAYERS * STPETE_MAX_HAND]; /* unseen non-trading cards per colour */
    int n_pool[3] = { 0, 0, 0 };
    uint8_t trading[STACK_CAP + STPETE_MAX_PLAYERS * STPETE_MAX_HAND];
    int n_trading = 0;
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < c->stack_n[s]; i++) {
            int t = c->stack[s][i];
            if (stpete_cards[t].trading)
                trading[n_trading++] = (uint8_t)t;
            else
                pool[stpete_cards[t].colour][n_pool[stpete_cards[t].colour]++] = (uint8_t)t;
        }
    for (int p = 0; p < c->rules.players; p++) {
        if (p == seat || !hidden_hands)
            continue;
        for (int h = 0; h < c->p[p].hand_n; h++) {
            int t = c->p[p].hand[h], col = stpete_cards[t].colour;
            slots[col][n_slots[col]++] = (slot){ (uint8_t)p, (uint8_t)h };
            if (stpete_cards[t].trading)
                trading[n_trading++] = (uint8_t)t;
            else
                pool[col][n_pool[col]++] = (uint8_t)t;
        }
    }
    int trading_slot_n = 0;
    slot trading_slots[STPETE_MAX_PLAYERS * STPETE_MAX_HAND];
    for (int col = 0; col < 3; col++) {
        /* the stack of this colour's kind is stack index col (worker, building, aristocrat) */
        int in_hands = n_pool[col] - c->stack_n[col];
        /* choose the hand slots that hold this kind: a random permutation of the slots, first in_hands of them */
        uint8_t order[STPETE_MAX_PLAYERS * STPETE_MAX_HAND];
        for (int i = 0; i < n_slots[col]; i++)
            order[i] = (uint8_t)i;
        stpete_rng_shuffle(&rng, order, n_slots[col]);
        stpete_rng_shuffle(&rng, pool[col], n_pool[col]);
        memcpy(c->stack[col], pool[col], (size_t)c->stack_n[col]);
        for (int i = 0; i < n_slots[col]; i++) {
            slot sl = slots[col][order[i]];
            if (i < in_hands)
                c->p[sl.player].hand[sl.index] = pool[col][c->stack_n[col] + i];
            else
                trading_slots[trading_slot_n++] = sl;
        }
    }
    stpete_rng_shuffle(&rng, trading, n_trading);
    uint8_t used[STACK_CAP + STPETE_MAX_PLAYERS * STPETE_MAX_HAND] = { 0 };
    for (int i = 0; i < trading_slot_n; i++) {
        slot sl = trading_slots[i];
        int col = stpete_cards[c->p[sl.player].hand[sl.index]].colour;
        for (int k = 0; k < n_trading; k++)
            if (!used[k] && stpete_cards[trading[k]].colour == col) {
                c->p[sl.player].hand[sl.index] = trading[k];
                used[k] = 1;
                break;
            }
    }
    int n = 0;
    for (int k = 0; k < n_trading; k++)
        if (!used[k])
            c->stack[STPETE_STACK_TRADING][n++] = trading[k];
    /* The deal's PRNG is part of what nobody knows either. */
    stpete_rng_seed(&c->rng, seed, UINT64_C(0x537450657465));
}

int stpete_core_resample(stpete_core *c, int seat, uint64_t seed)
{
    if (seat < 0 || seat >= c->rules.players)
        return STPETE_E_INVALID_ARGUMENT;
    resample_core(c, seat, seed);
    return STPETE_OK;
}
