/* The legal actions of a position (§4.2, §5, §6, §7.1, §7.2), in one place: the legality core computes, per
 * source and kind, which actions are legal as bit masks (the card types of each row and of the hand, the affordable
 * variants of each card, §5 and §6; the takes, §4.2 and §7.3; the Observatory draws, §7.1; the Pub choices, §7.2;
 * pass) and sets them in one bit set over the action ids (stpete_legal). Everything else is derived from it:
 *   - the listing (stpete_core_legal): the set bits, ascending (the order and ids of 0.3.0);
 *   - the mask (stpete_state_legal_action_mask): the bits as bytes;
 *   - the uniform random pick (stpete_core_random_action): the k-th set bit, k = random mod the count;
 *   - the check of one id (stpete_core_check_move, the check inside every apply and stpete_state_is_legal): the same
 *     per-card functions evaluated for the one card the id names (legal_variants), or the whole set where a rule
 *     reads it (pass in the buy-only phase, §11); the reasons of a refusal only explain a clear bit.
 * Prices: stpete_price_before_displacement() and stpete_price_with() (stpete_internal.h), for the masks, the check,
 * the apply and stpete_state_action_price(). */
#include <stdio.h>
#include <string.h>

#include "stpete_internal.h"

/* The core's helpers are inlined (called from one place each, or in a loop). */
#if defined(__GNUC__) || defined(__clang__)
#define CORE_INLINE static inline __attribute__((always_inline))
#else
#define CORE_INLINE static inline
#endif

/* ---- bits of the set ------------------------------------------------------------------------------- */

/* Set the bits of `bits` (< 2^64) at ids at, at + 1, ...; the spare last word takes what passes the end. */
CORE_INLINE void set_bits(stpete_legal *s, int at, uint64_t bits)
{
    int w = at >> 6, sh = at & 63;
    s->w[w] |= bits << sh;
    s->w[w + 1] |= (bits >> 1) >> (63 - sh); /* two shifts: no shift by 64 when sh == 0 */
}

/* ---- the legality core: what a seat may buy, play, take, draw, pay ------------------------------------ */

/* What the core reads about the seat to act. */
typedef struct seat_ctx {
    const card_def *cards; /* the edition's table (§2, §11) */
    const player_state *p;
    int rubles;
    int targets_known;  /* targets computed (only when a trading card is met) */
    uint64_t targets;   /* card types the seat's trading cards may displace now (§6.1) */
} seat_ctx;

CORE_INLINE seat_ctx seat_of(const stpete_core *c)
{
    const player_state *p = &c->p[c->current];
    seat_ctx x = { stpete_cards_of(&c->rules), p, p->rubles, 0, 0 };
    return x;
}

/* Card types of the display that a trading card may displace (§6.1): present, and for the Observatory not face
 * down (§7.1); stpete_displaceable() > 0 as a mask. Only workers, buildings and aristocrats (types 0..23) are ever
 * targets (§6.2). */
CORE_INLINE uint64_t displaceable_mask(seat_ctx *x)
{
    if (!x->targets_known) {
        uint64_t m = stpete_display_types(x->p, FIRST_TRADING);
        if (stpete_face_up_observatories(x->p) <= 0)
            m &= ~(UINT64_C(1) << STPETE_CARD_OBSERVATORY);
        x->targets = m;
        x->targets_known = 1;
    }
    return x->targets;
}

/* Whether a non-trading card from a source (lower = 1 for the lower row, §5.1.2) is affordable: its price (§5,
 * R5: at least 1 R) within the seat's rubles. */
CORE_INLINE int plain_legal(const seat_ctx *x, int card, int lower)
{
    return stpete_price_with(stpete_price_before_displacement(x->cards, x->p, card, lower), 0) <= x->rubles;
}

/* The legal variants of a trading card from a source: bit i for its i-th target type ascending (§6.2, the variant
 * order of stpete.h), set iff that type is displaceable now (§6.1) and the price with its value deducted (§5.2,
 * §7.4) is affordable. */
CORE_INLINE uint64_t trading_legal(seat_ctx *x, int card, int lower)
{
    const card_def *d = &x->cards[card];
    int before = stpete_price_before_displacement(x->cards, x->p, card, lower);
    uint64_t ok = 0;
    for (uint64_t t = d->targets & displaceable_mask(x); t; t &= t - 1) {
        int target = stpete_lowest_bit(t);
        ok |= (uint64_t)(stpete_price_with(before, x->cards[target].value) <= x->rubles) << target;
    }
    /* compress the target types into variant order: blue and orange targets are contiguous (buildings,
     * aristocrats); a green card's are the worker of its ware and Czar and Carpenter (§6.2) */
    int lo = stpete_lowest_bit(d->targets);
    uint64_t y = ok >> lo;
    uint64_t green = (y & 1) | (((y >> ((STPETE_CARD_CZAR_AND_CARPENTER - lo) & 63)) & 1) << 1);
    return card < FIRST_BLUE_TRADING ? green : y;
}

/* The first variant of a card (§6.2): the card for a non-trading card, else its variant of its lowest target. */
CORE_INLINE int first_variant(const card_def *cards, int card)
{
    return card < FIRST_TRADING ? card : stpete_variant_index(card, stpete_lowest_bit(cards[card].targets));
}

/* The legal variants of buying or playing card from a source (lower = 1 for the lower row): bit i = the card's
 * variant first_variant(card) + i. The check's entry to the core; the set reaches the same two functions. */
CORE_INLINE uint64_t legal_variants(seat_ctx *x, int card, int lower)
{
    return card < FIRST_TRADING ? (uint64_t)plain_legal(x, card, lower) : trading_legal(x, card, lower);
}

/* Set the legal acquisitions of the card types m from a source, whose ids start at base (§5, §6). */
CORE_INLINE void add_acquisitions(seat_ctx *x, stpete_legal *s, uint64_t m, int lower, int base)
{
    const uint64_t plain_types = (UINT64_C(1) << FIRST_TRADING) - 1;
    uint64_t plain = 0;
    /* Each candidate is evaluated and its bit set or not, without a branch on its legality: which cards a random
     * playout meets is unpredictable. */
    for (uint64_t t = m & plain_types; t; t &= t - 1) {
        int card = stpete_lowest_bit(t);
        plain |= (uint64_t)plain_legal(x, card, lower) << card;
    }
    set_bits(s, base, plain); /* a non-trading card's only variant is the card (stpete.h) */
    s->n += (uint32_t)stpete_popcount64(plain);
    for (uint64_t t = m & ~plain_types; t; t &= t - 1) {
        int card = stpete_lowest_bit(t);
        uint64_t v = trading_legal(x, card, lower);
        set_bits(s, base + first_variant(x->cards, card), v);
        s->n += (uint32_t)stpete_popcount64(v);
    }
}

/* Bit mask of the card types in a row (cap 8) or a hand (cap 4) of n cards: one bit set per byte, with no
 * comparison with n. The bytes past the count are 0 (stpete_remove8/4, the deal and the loader keep them so; states
 * compare with memcmp), so they can only add bit 0, the Lumberjack: that bit is then taken from a search for a 0
 * among the first n bytes (stpete_holds8/4, one machine word). */
CORE_INLINE uint64_t types_in(const uint8_t *list, int n, int cap)
{
    uint64_t m = 0;
    for (int i = 0; i < cap; i++)
        m |= UINT64_C(1) << list[i];
    int zero = cap == ROW_CAP ? stpete_holds8(list, n, 0) : stpete_holds4(list, n, 0);
    return (m & ~UINT64_C(1)) | (uint64_t)zero;
}

/* Whether the seat to act may draw with an Observatory from stack s now (§7.1, R9): the building phase, a face-up
 * Observatory, a stack of at least 2 cards. */
CORE_INLINE int observatory_legal(const stpete_core *c, int s)
{
    return (c->phase == STPETE_PHASE_BUILDING) & (stpete_face_up_observatories(&c->p[c->current]) > 0) &
           (c->stack_n[s] >= 2);
}

/* The buys of the board rows (§4.2, §5). */
CORE_INLINE void add_buys(seat_ctx *x, stpete_legal *s, uint64_t upper, uint64_t lower)
{
    add_acquisitions(x, s, upper, 0, ID_BUY_UPPER);
    add_acquisitions(x, s, lower, 1, ID_BUY_LOWER); /* §5.1.2, R6 */
}

void stpete_core_legal_set(const stpete_core *c, stpete_legal *s)
{
    memset(s, 0, sizeof *s);
    seat_ctx x = seat_of(c);
    int solvent = x.rubles >= 1; /* every price is at least 1 R (R5): nothing to buy otherwise (a shortcut) */
    int hand_room = x.p->hand_n < stpete_hand_limit_of(x.p);
    switch (c->decision) {
    case STPETE_DECISION_GAME_OVER:
    case STPETE_DECISION_CHANCE: /* no player action; the chance outcomes are listed by chance_outcomes() */
        return;
    case STPETE_DECISION_PUB: { /* §7.2, R10: 0 .. cap VP */
        int cap = stpete_pub_choice_cap(c, c->current);
        set_bits(s, ID_PUB, (UINT64_C(2) << cap) - 1);
        s->n = (uint32_t)cap + 1;
        return;
    }
    case STPETE_DECISION_OBSERVATORY: /* §7.1: buy the drawn card, take it into the hand, or discard it */
        if (solvent)
            add_acquisitions(&x, s, UINT64_C(1) << c->obs_card, 0, ID_OBS_BUY);
        set_bits(s, ID_OBS_TAKE, (uint64_t)hand_room | 2); /* take (§7.3), discard */
        s->n += (uint32_t)hand_room + 1;
        return;
    default:
        break;
    }
    uint64_t upper = types_in(c->row[0], c->row_n[0], ROW_CAP);
    uint64_t lower = types_in(c->row[1], c->row_n[1], ROW_CAP);
    if (stpete_buy_only(c)) { /* §11: buy a board card if one is affordable; pass only when none is */
        if (solvent)
            add_buys(&x, s, upper, lower);
        s->w[0] |= s->n == 0;
        s->n += s->n == 0;
        return;
    }
    s->w[0] = 1; /* pass (§4.3) */
    s->n = 1;
    if (solvent) {
        add_buys(&x, s, upper, lower);
        add_acquisitions(&x, s, types_in(x.p->hand, x.p->hand_n, STPETE_MAX_HAND), 0, ID_PLAY);
    }
    if (hand_room) { /* take a card into the hand (§4.2, §7.3): one action per card type of a row */
        set_bits(s, ID_TAKE_UPPER, upper);
        set_bits(s, ID_TAKE_LOWER, lower);
        s->n += (uint32_t)(stpete_popcount64(upper) + stpete_popcount64(lower));
    }
    /* One branch, almost never taken (a face-up Observatory in the building phase). */
    if ((c->phase == STPETE_PHASE_BUILDING) & (stpete_face_up_observatories(x.p) > 0))
        for (int k = 0; k < STPETE_NUM_STACKS; k++) {
            int ok = observatory_legal(c, k);
            s->w[(ID_OBSERVATORY + k) >> 6] |= (uint64_t)ok << ((ID_OBSERVATORY + k) & 63);
            s->n += (uint32_t)ok;
        }
}

/* ---- derived: the listing, the pick ---------------------------------------------------------------- */

/* The outcomes of the pending chance event, ascending (explicit-chance mode): the card types the stack being dealt
 * or drawn from holds (§4.5, §7.1), or the start-player marker deals of §3.3. */
static size_t chance_outcomes(const stpete_core *c, int *out)
{
    size_t n = 0;
    if (c->chance == CHANCE_MARKERS) {
        for (int code = 0; code < 256; code++)
            if (stpete_markers_code_valid(code, c->rules.players))
                out[n++] = STPETE_CHANCE_MARKERS_FIRST + code;
        return n;
    }
    const uint8_t *stack = c->stack[c->deal_stack];
    for (int i = 0; i < c->stack_n[c->deal_stack]; i++) /* kept in card-type order */
        if (i == 0 || stack[i] != stack[i - 1])
            out[n++] = STPETE_CHANCE_CARD_FIRST + stack[i];
    return n;
}

int stpete_markers_code_valid(int code, int players)
{
    int held[STPETE_MAX_PLAYERS] = { 0 };
    for (int k = 0; k < STPETE_NUM_PHASES; k++, code /= 4) {
        if (code % 4 >= players)
            return 0;
        held[code % 4]++;
    }
    for (int s = 0; s < players; s++)
        if (held[s] < 1 || held[s] > 2)
            return 0;
    return 1;
}

size_t stpete_core_legal(const stpete_core *c, int *out)
{
    if (c->decision == STPETE_DECISION_CHANCE)
        return chance_outcomes(c, out);
    stpete_legal s;
    stpete_core_legal_set(c, &s);
    size_t n = 0;
    for (int w = 0; w < STPETE_LEGAL_WORDS; w++)
        for (uint64_t m = s.w[w]; m; m &= m - 1)
            out[n++] = w * 64 + stpete_lowest_bit(m);
    return n;
}

/* Index of the k-th set bit (from 0) of m, k < popcount(m). */
CORE_INLINE int select_bit(uint64_t m, unsigned k)
{
    /* halve the word by the count of its low half, three times; then at most 7 steps in a byte */
    int at = 0;
    for (int width = 32; width >= 8; width /= 2) {
        uint64_t low = (m >> at) & ((UINT64_C(1) << width) - 1);
        unsigned c = (unsigned)stpete_popcount64(low);
        int up = k >= c;
        k -= up ? c : 0;
        at += up ? width : 0;
    }
    uint64_t b = (m >> at) & 0xFF;
    for (; k; k--)
        b &= b - 1;
    return at + stpete_lowest_bit(b);
}

int stpete_core_random_action(const stpete_core *c, uint64_t random, int *id)
{
    if (c->decision == STPETE_DECISION_GAME_OVER)
        return STPETE_E_GAME_OVER;
    if (c->decision == STPETE_DECISION_CHANCE) { /* uniform over the listed outcomes */
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n = chance_outcomes(c, ids);
        *id = ids[random % n];
        return STPETE_OK;
    }
    stpete_legal s;
    stpete_core_legal_set(c, &s);
    unsigned k = (unsigned)(random % s.n); /* as the random bot draws its index: random mod the count */
    int w = 0;
    for (unsigned pc; k >= (pc = (unsigned)stpete_popcount64(s.w[w])); w++)
        k -= pc;
    *id = w * 64 + select_bit(s.w[w], k);
    return STPETE_OK;
}

/* ---- derived: the check of one action, with a reason ----------------------------------------------- */

#define REFUSE(...)                                     \
    do {                                                \
        if (why)                                        \
            snprintf(why, why_size, __VA_ARGS__);       \
        return STPETE_E_ILLEGAL_ACTION;                 \
    } while (0)

/* Check buying or playing (card, displaced) from source: the variant's bit among the core's legal variants of the
 * card (§5, §6); its price to mv->price. A refusal says which rule: the target (§6.1) or the price (§5). */
static int check_acquire(const stpete_core *c, seat_ctx *x, int card, int source, int displaced, stpete_move *mv,
                         char *why, size_t why_size)
{
    int lower = source == STPETE_SOURCE_LOWER;
    int before = stpete_price_before_displacement(x->cards, x->p, card, lower);
    int price = stpete_price_with(before, displaced >= 0 ? x->cards[displaced].value : 0);
    int local = stpete_variant_index(card, displaced) - first_variant(x->cards, card);
    if ((legal_variants(x, card, lower) >> local) & 1) {
        mv->price = price;
        return STPETE_OK;
    }
    int seat = c->current;
    if (displaced >= 0 && !((displaceable_mask(x) >> displaced) & 1)) {
        if (displaced == STPETE_CARD_OBSERVATORY && x->p->display[displaced])
            REFUSE("the Observatory of seat %d is face down and cannot be displaced (§7.1, R9)", seat);
        REFUSE("%s must displace a %s, and the display of seat %d has none (§6)", x->cards[card].name,
               x->cards[displaced].name, seat);
    }
    REFUSE("%s from the %s costs %d R and seat %d has %d R (§5)", x->cards[card].name, stpete_source_phrases[source],
           price, seat, x->rubles);
}

/* Check a chance outcome id (>= STPETE_CHANCE_CARD_FIRST): one of the listed outcomes. */
static int check_chance(const stpete_core *c, int id, char *why, size_t why_size)
{
    if (c->decision != STPETE_DECISION_CHANCE)
        REFUSE(c->rules.chance_mode == STPETE_CHANCE_EXPLICIT
                   ? "chance outcome %d at a player's decision: only a chance node takes one"
                   : "chance outcome %d in sampled mode: the library draws every random event itself", id);
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = chance_outcomes(c, ids);
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return STPETE_OK;
    if (c->chance == CHANCE_MARKERS)
        REFUSE("chance outcome %d is not a deal of the start-player markers for %d players (§3.3)", id,
               c->rules.players);
    int s = c->deal_stack;
    REFUSE("chance outcome %d: the %s stack holds no %s (§%s)", id, stpete_stack_words[s],
           id >= STPETE_CHANCE_MARKERS_FIRST ? "such card" : stpete_cards_of(&c->rules)[id - STPETE_CHANCE_CARD_FIRST].name,
           c->chance == CHANCE_DRAW ? "7.1" : "4.5");
}

int stpete_core_check_move(const stpete_core *c, int id, stpete_move *mv, char *why, size_t why_size)
{
    if (c->decision == STPETE_DECISION_GAME_OVER) {
        if (why)
            snprintf(why, why_size, "the game is over (§4.6)");
        return STPETE_E_GAME_OVER;
    }
    mv->id = id;
    mv->index = -1;
    mv->price = 0;
    if (id >= STPETE_CHANCE_CARD_FIRST)
        return check_chance(c, id, why, why_size);
    if (c->decision == STPETE_DECISION_CHANCE)
        REFUSE("a chance node: the next step is a random event; apply one of its outcomes "
               "(stpete_state_chance_outcomes())");
    stpete_action a;
    stpete_decode(id, &a);
    mv->a = a;
    seat_ctx x = seat_of(c);
    int seat = c->current;
    int hand_limit = stpete_hand_limit_of(x.p);
    int hand_room = x.p->hand_n < hand_limit;

    if (c->decision == STPETE_DECISION_PUB) {
        if (a.kind != STPETE_ACTION_PUB)
            REFUSE("seat %d must first choose how many VP to buy with the Pub (§7.2)", seat);
        int cap = stpete_pub_choice_cap(c, seat);
        if (a.amount > cap)
            REFUSE("seat %d may buy at most %d VP with the Pub now (§7.2, R10)", seat, cap);
        return STPETE_OK;
    }
    if (c->decision == STPETE_DECISION_OBSERVATORY) {
        switch (a.kind) {
        case STPETE_ACTION_OBSERVATORY_DISCARD:
            return STPETE_OK;
        case STPETE_ACTION_OBSERVATORY_TAKE:
            if (!hand_room)
                REFUSE("the hand of seat %d is at its limit of %d (§7.3)", seat, hand_limit);
            return STPETE_OK;
        case STPETE_ACTION_OBSERVATORY_BUY:
            if (a.card != c->obs_card)
                REFUSE("the Observatory drew %s, not %s (§7.1)", x.cards[c->obs_card].name, x.cards[a.card].name);
            return check_acquire(c, &x, a.card, STPETE_SOURCE_OBSERVATORY, a.displaced, mv, why, why_size);
        default:
            REFUSE("seat %d must first buy, take or discard the card drawn by the Observatory (§7.1)", seat);
        }
    }
    if (stpete_buy_only(c)) { /* §11: the first worker phase of the second edition */
        if (a.kind == STPETE_ACTION_PASS) {
            stpete_legal s;
            stpete_core_legal_set(c, &s);
            if (!(s.w[0] & 1))
                REFUSE("the first worker phase of the second edition is buy-only: seat %d can afford a board card "
                       "and must buy one (§11)", seat);
            return STPETE_OK;
        }
        if (a.kind != STPETE_ACTION_BUY)
            REFUSE("the first worker phase of the second edition is buy-only: no %s (§11)",
                   a.kind == STPETE_ACTION_TAKE ? "taking into hand" : a.kind == STPETE_ACTION_PLAY ? "playing from hand"
                                                                                             : "Observatory");
    }
    switch (a.kind) {
    case STPETE_ACTION_PASS:
        return STPETE_OK;
    case STPETE_ACTION_BUY:
    case STPETE_ACTION_TAKE:
        mv->index = stpete_find8(c->row[a.source], c->row_n[a.source], a.card);
        if (mv->index < 0)
            REFUSE("there is no %s in the %s (§4.2)", x.cards[a.card].name, stpete_source_phrases[a.source]);
        if (a.kind == STPETE_ACTION_TAKE) {
            if (!hand_room)
                REFUSE("the hand of seat %d is at its limit of %d (§4.2, §7.3)", seat, hand_limit);
            return STPETE_OK;
        }
        return check_acquire(c, &x, a.card, a.source, a.displaced, mv, why, why_size);
    case STPETE_ACTION_PLAY:
        mv->index = stpete_find4(x.p->hand, x.p->hand_n, a.card);
        if (mv->index < 0)
            REFUSE("seat %d has no %s in hand (§4.2)", seat, x.cards[a.card].name);
        return check_acquire(c, &x, a.card, STPETE_SOURCE_HAND, a.displaced, mv, why, why_size);
    case STPETE_ACTION_OBSERVATORY:
        if (!observatory_legal(c, a.stack)) {
            if (c->phase != STPETE_PHASE_BUILDING)
                REFUSE("an Observatory can be used only in the building phase (§7.1, R9)");
            if (stpete_face_up_observatories(x.p) <= 0)
                REFUSE("seat %d has no face-up Observatory (§7.1, R9)", seat);
            REFUSE("an Observatory draws only from a stack of at least 2 cards; this one has %d (§7.1, R9)",
                   c->stack_n[a.stack]);
        }
        return STPETE_OK;
    case STPETE_ACTION_PUB:
        REFUSE("a Pub purchase is possible only right after building scoring (§7.2)");
    default:
        REFUSE("there is no Observatory draw to resolve (§7.1)");
    }
}
