/* What a seat knows (§9): the one definition (stpete_knowledge_of), which the observation, the information state,
 * the JSON views and determinization read. stpete_knowledge_resample() replaces what one seat does not know by a
 * uniformly random draw consistent with what it knows, with perfect recall (OpenSpiel's ResampleFromInfostate). */
#include <string.h>

#include "engine/engine.h"

typedef struct slot {
    uint8_t player, index; /* a hidden hand card: c->p[player].hand[index] */
} slot;

int stpete_knowledge_rubles_visible(const stpete_core *c, int seat, int player)
{
    return player == seat || c->rules.public_rubles;
}

int stpete_knowledge_rubles_known(const stpete_core *c, int seat, int player)
{
    return stpete_knowledge_rubles_visible(c, seat, player) || (seat >= 0 && c->rubles_recalled);
}

/* Whether seat can see (or remembers) the identity of player's hand card h (§9): its own, every hand with the
 * public_hands option, and a card everyone saw taken (hand_known). */
int stpete_knowledge_hand_card(const stpete_core *c, int seat, int player, int h)
{
    return player == seat || c->rules.public_hands || (c->p[player].hand_known >> h & 1u);
}

/* §9, for one seat: what it sees and what it remembers. Public: the board, every display, VP, stack sizes, the
 * discard pile, the markers, hand sizes and backs, every action (the public history hash), the Observatory card.
 * Secret unless seen: rubles (stpete_knowledge_rubles_known), hand card identities (stpete_knowledge_hand_card), the
 * order and the content of every stack (what a stack holds follows from the 116 cards and what is in view: it is the
 * unseen rest, so it needs no place here). */
void stpete_knowledge_of(const stpete_core *c, int seat, stpete_knowledge *out)
{
    stpete_core *k = &out->k;
    stpete_engine_copy(k, c);
    out->seat = seat;
    out->rubles_shown = 0;
    k->rules.chance_mode = 0; /* a sampled game and the explicit game given the same outcomes look alike */
    memset(&k->rng, 0, sizeof k->rng);
    memset(k->stack, 0, sizeof k->stack);
    if (k->chance == CHANCE_NONE) /* the last deal's bookkeeping: meaningful only at a chance node */
        k->deal_stack = k->deal_to = k->deal_then = 0;
    for (int p = 0; p < c->rules.players; p++) {
        player_state *q = &k->p[p];
        for (int h = 0; h < q->hand_n; h++)
            if (!stpete_knowledge_hand_card(c, seat, p, h))
                q->hand[h] = (uint8_t)(HIDDEN_CARD + stpete_cards_stack(q->hand[h]));
        if (stpete_knowledge_rubles_visible(c, seat, p))
            out->rubles_shown |= 1u << p;
        if (!stpete_knowledge_rubles_known(c, seat, p))
            q->rubles = -1;
    }
}

/* One step of the key over a 64-bit word: xor, multiply, xorshift (the splitmix64 finalizer's first round; the
 * whole finalizer runs once at the end). Cheap on the serial chain of a key's ~50 words. */
static inline uint64_t key_step(uint64_t h, uint64_t w)
{
    h = (h ^ w) * UINT64_C(0xBF58476D1CE4E5B9);
    return h ^ (h >> 31);
}

/* Step over n bytes, 8 at a time as a little-endian word (the last one padded with zeros): the same on every
 * platform. */
static uint64_t key_bytes(uint64_t h, const uint8_t *b, size_t n)
{
    size_t i = 0;
#ifdef STPETE_WORD_LISTS /* little-endian: a word is its 8 bytes as they lie */
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = key_step(h, w);
    }
#endif
    for (; i < n; i += 8) {
        uint64_t w = 0;
        for (size_t j = 0; j < 8 && i + j < n; j++)
            w |= (uint64_t)b[i + j] << (8 * j);
        h = key_step(h, w);
    }
    return h;
}

/* Field by field in a documented order (doc/observation.md), never the struct's bytes: the same on every platform.
 * Rubles and VP enter as 64-bit two's complement (unknown rubles: -1). */
uint64_t stpete_knowledge_key(const stpete_knowledge *kn)
{
    const stpete_core *k = &kn->k;
    uint64_t h = stpete_engine_hash_mix(k->public_hash, UINT64_C(0x5345415400000000) | (uint64_t)(uint32_t)kn->seat);
    h = key_bytes(h, (const uint8_t *)&k->rules, sizeof k->rules); /* 16 single bytes, chance mode 0 */
    const uint8_t global[] = { k->round, k->phase, k->decision, k->current, k->passes, (uint8_t)k->obs_card,
                               k->final_round, k->pub_next, k->chance, k->deal_stack, k->deal_to, k->deal_then,
                               k->rubles_recalled, k->markers[0], k->markers[1], k->markers[2], k->markers[3],
                               k->stack_n[0], k->stack_n[1], k->stack_n[2], k->stack_n[3], k->row_n[0],
                               k->row_n[1] };
    h = key_bytes(h, global, sizeof global);
    /* a base game's key reads 8 bytes a row, 49 card types; the New Society's rows of up to 10 (§12.4.1) and
     * 62 types, with the Prisons used (§12.7.5) */
    int ns = k->rules.new_society;
    size_t row_bytes = ns ? ROW_CAP : ROW_WORD, types = ns ? DISPLAY_CAP : STPETE_NUM_CARD_TYPES;
    h = key_bytes(h, k->row[0], row_bytes);
    h = key_bytes(h, k->row[1], row_bytes);
    h = key_bytes(h, k->discard, types);
    for (int p = 0; p < k->rules.players; p++) {
        const player_state *q = &k->p[p];
        h = key_step(h, (uint64_t)(int64_t)q->rubles);
        h = key_step(h, (uint64_t)(int64_t)q->vp);
        const uint8_t small[] = { q->hand_n, q->obs_used, q->hand_known, q->hand[0], q->hand[1], q->hand[2],
                                  q->hand[3] };
        h = key_bytes(h, small, sizeof small);
        h = key_bytes(h, q->display, types);
        if (ns)
            h = key_step(h, q->prison_used);
    }
    return stpete_engine_hash_mix(h, 0); /* the full finalizer once */
}

uint64_t stpete_knowledge_public_digest(const stpete_core *c)
{
    stpete_knowledge kn;
    stpete_knowledge_of(c, STPETE_VIEW_PUBLIC, &kn);
    kn.k.public_hash = 0;     /* not yet known: this digest becomes it */
    kn.k.rubles_recalled = 0; /* what is public now, nothing remembered */
    return stpete_knowledge_key(&kn);
}

/* Room after the cards of a pool that sort_pool() may write over (a type's copies are written a word at a time). */
enum { POOL_SLACK = 8 };
_Static_assert(CARD_TYPES_ALL <= 64, "a pool's types in one 64-bit mask");

/* Put the n cards of a pool in card-type order (what a seat knows of the unseen cards is their multiset, not their
 * order; explicit-chance mode keeps stacks in that order): a counting sort that visits the types present only (a
 * stack holds one kind of card, §2: a dozen or so of the types), lowest first, each type's copies written 8 bytes
 * at a time (one store for at most 8 copies: no loop whose length the processor must guess). The pool has
 * POOL_SLACK bytes of room after its n cards. */
static void sort_pool(uint8_t *pool, int n)
{
    uint8_t count[CARD_TYPES_ALL] = { 0 };
    uint64_t present = 0; /* bit t: type t is in the pool */
    for (int i = 0; i < n; i++) {
        count[pool[i]]++;
        present |= UINT64_C(1) << pool[i];
    }
    uint8_t *out = pool;
    for (; present; present &= present - 1) {
        int t = stpete_bytes_lowest_bit(present), copies = count[t];
        uint64_t word = (uint64_t)t * UINT64_C(0x0101010101010101);
        int j = 0;
        do
            memcpy(out + j, &word, 8);
        while ((j += 8) < copies);
        out += copies;
    }
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
void stpete_knowledge_resample(stpete_core *c, int seat, uint64_t seed, unsigned flags)
{
    /* What the seat knows (the tests of stpete_knowledge_of(), read in place): everything else is redrawn. A hand
     * card's back (its stack) stays what it was, so the test below holds through the loop. */
    stpete_rng rng;
    stpete_rng_seed(&rng, seed, STPETE_RNG_STREAM_RESAMPLE);
    for (int s = 0; s < STPETE_NUM_STACKS; s++) {
        uint8_t pool[STACK_CAP + STPETE_MAX_PLAYERS * STPETE_MAX_HAND + POOL_SLACK];
        slot slots[STPETE_MAX_PLAYERS * STPETE_MAX_HAND];
        int n_pool = c->stack_n[s], n_slots = 0;
        memcpy(pool, c->stack[s], STACK_CAP); /* the whole row: a copy of fixed length, no branch on n_pool */
        for (int p = 0; p < c->rules.players; p++)
            for (int h = 0; h < c->p[p].hand_n; h++)
                if (!stpete_knowledge_hand_card(c, seat, p, h) && stpete_cards_stack(c->p[p].hand[h]) == s) {
                    slots[n_slots++] = (slot){ (uint8_t)p, (uint8_t)h };
                    pool[n_pool++] = c->p[p].hand[h];
                }
        sort_pool(pool, n_pool); /* what the seat knows: the multiset, not the order */
        stpete_rng_shuffle(&rng, pool, n_pool);
        memcpy(c->stack[s], pool, (size_t)c->stack_n[s]);
        for (int i = 0; i < n_slots; i++)
            c->p[slots[i].player].hand[slots[i].index] = pool[c->stack_n[s] + i];
        if (c->rules.chance_mode == STPETE_CHANCE_EXPLICIT) { /* a multiset: no order to draw */
            sort_pool(pool, c->stack_n[s]);
            memcpy(c->stack[s], pool, (size_t)c->stack_n[s]);
        }
    }
    /* Rubles (§9): the ones the seat does not know (another seat's secret rubles in a loaded position without
     * rubles_recalled) always, and on request every one it does not see now, are set to its own amount: a value
     * that depends on what it knows only. */
    for (int p = 0; p < c->rules.players; p++)
        if (!stpete_knowledge_rubles_known(c, seat, p) ||
            ((flags & STPETE_DETERMINIZE_RUBLES) && !stpete_knowledge_rubles_visible(c, seat, p)))
            c->p[p].rubles = c->p[seat].rubles;
    /* The deal's PRNG is part of what nobody knows either. */
    stpete_rng_seed(&c->rng, seed, STPETE_RNG_STREAM_DEAL);
}
