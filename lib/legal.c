/* The legal actions of a position (§4.2, §5, §6, §7.1, §7.2): the listing, and beside it the check of one action
 * with a reason. Both read the same facts (prices §5, hand limit §7.3, displacement targets §6.2 and the value of
 * a displaced card §7.4) from the card table and the inline functions of stpete_internal.h; the conformance tests
 * check that the listing, the mask and the check agree with an independent oracle. */
#include <stdio.h>
#include <string.h>

#include "stpete_internal.h"

/* ---- the listing -------------------------------------------------------------------------------- */

/* The listing is the hot path of every playout. It computes the same prices as stpete_price() (§5) and the same
 * targets as stpete_displaceable() (§6.1), but once per listing instead of once per (card, target) pair: the part
 * of a price that does not depend on the displaced card is computed once per card and source, and the displacement
 * targets present in the display are one bit mask. The order of the ids is unchanged: ascending. */

/* The listing's helpers are inlined into it (they are called from one place each, in a loop). */
#if defined(__GNUC__) || defined(__clang__)
#define LISTING_INLINE static inline __attribute__((always_inline))
#else
#define LISTING_INLINE static inline
#endif

/* What a listing reads about the seat to act. A price is max(1, printed cost - same-name copies - lower row
 * - colour discount - displaced value) (§5, R5): it is affordable iff the seat has at least 1 R and
 * printed cost - same-name copies - displaced value <= rubles + colour discount + lower-row discount. */
typedef struct lister {
    const player_state *p;
    int budget[3];     /* by colour: rubles + the colour discount (§5.1.3, §5.1.4) */
    int targets_known; /* targets computed (only when a trading card is listed) */
    uint64_t targets;  /* card types the seat's trading cards may displace now (§6.1) */
} lister;

/* Card types of the display that a trading card may displace (§6.1): present, and for the Observatory not face
 * down (§7.1); stpete_displaceable() > 0 as a mask. Only workers, buildings and aristocrats (types 0..23) are ever
 * targets (§6.2). */
static uint64_t displaceable_mask(const player_state *p)
{
    uint64_t m = stpete_nonzero_bytes(p->display) | (uint64_t)stpete_nonzero_bytes(p->display + 8) << 8 |
                 (uint64_t)stpete_nonzero_bytes(p->display + 16) << 16;
    if (stpete_face_up_observatories(p) <= 0)
        m &= ~(UINT64_C(1) << STPETE_CARD_OBSERVATORY);
    return m;
}

/* Append the non-trading cards of the type mask m, bought or played from source, that the seat can afford (§5).
 * Each candidate is written and then kept or not (n += legal), without a branch on its legality: which cards a
 * random playout meets is unpredictable. */
LISTING_INLINE size_t add_plain(const lister *ls, uint64_t m, int lower, int base, int *out, size_t n)
{
    for (; m; m &= m - 1) {
        int card = stpete_lowest_bit(m);
        const card_def *d = &stpete_cards[card];
        out[n] = base + card;
        n += (size_t)(d->cost - ls->p->display[card] <= ls->budget[d->colour] + lower);
    }
    return n;
}

/* Append the variants (card, displaced) of the trading cards of the type mask m, bought or played from source,
 * that are legal for the seat: a target in the display (§6.1, §6.2) and an affordable price (§5.2). */
LISTING_INLINE size_t add_trading(lister *ls, uint64_t m, int lower, int base, int *out, size_t n)
{
    if (!m)
        return n;
    if (!ls->targets_known) {
        ls->targets = displaceable_mask(ls->p);
        ls->targets_known = 1;
    }
    for (; m; m &= m - 1) {
        int card = stpete_lowest_bit(m);
        const card_def *c = &stpete_cards[card];
        /* the displaced card's value must cover the rest (§5.2, §7.4, R7) */
        int need = c->cost - ls->p->display[card] - ls->budget[c->colour] - lower;
        /* Variants are numbered by target type ascending (§6.2), so the ids come out ascending. */
        for (uint64_t t = c->targets & ls->targets; t; t &= t - 1) {
            int d = stpete_lowest_bit(t);
            out[n] = base + stpete_variant_index(card, d);
            n += (size_t)(stpete_cards[d].value >= need);
        }
    }
    return n;
}

/* Buying or playing card types m from a source: non-trading cards first, their variant ids are the lower ones. */
LISTING_INLINE size_t add_acquisitions(lister *ls, uint64_t m, int source, int base, int *out, size_t n)
{
    const uint64_t plain = (UINT64_C(1) << FIRST_TRADING) - 1;
    int lower = source == STPETE_SOURCE_LOWER; /* §5.1.2, R6 */
    n = add_plain(ls, m & plain, lower, base, out, n);
    return add_trading(ls, m & ~plain, lower, base, out, n);
}

/* Bit mask of the card types in a list of at most cap cards (rows, hands): a fixed number of steps, no branch. */
LISTING_INLINE uint64_t types_in_fixed(const uint8_t *list, int n, int cap)
{
    uint64_t m = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (int i = 0; i < cap; i++)
        m |= (uint64_t)(i < n) << list[i];
    return m;
}

size_t stpete_core_legal(const stpete_core *c, int *out)
{
    size_t n = 0;
    int seat = c->current;
    const player_state *p = &c->p[seat];
    int rubles = p->rubles;
    lister ls = { p,
                  { rubles + stpete_colour_discount(p, STPETE_COLOUR_GREEN),
                    rubles + stpete_colour_discount(p, STPETE_COLOUR_BLUE),
                    rubles + stpete_colour_discount(p, STPETE_COLOUR_ORANGE) },
                  0, 0 };
    int solvent = rubles >= 1; /* every price is at least 1 R (R5) */
    int hand_room = p->hand_n < stpete_hand_limit_of(p);
    switch (c->decision) {
    case STPETE_DECISION_GAME_OVER:
        return 0;
    case STPETE_DECISION_PUB: {
        int cap = stpete_pub_choice_cap(c, seat);
        for (int k = 0; k <= cap; k++)
            out[n++] = ID_PUB + k;
        return n;
    }
    case STPETE_DECISION_OBSERVATORY:
        if (solvent)
            n = add_acquisitions(&ls, UINT64_C(1) << c->obs_card, STPETE_SOURCE_OBSERVATORY, ID_OBS_BUY, out, n);
        if (hand_room)
            out[n++] = ID_OBS_TAKE;
        out[n++] = ID_OBS_DISCARD;
        return n;
    default:
        break;
    }
    out[n++] = ID_PASS;
    uint64_t upper = types_in_fixed(c->row[0], c->row_n[0], ROW_CAP);
    uint64_t lower = types_in_fixed(c->row[1], c->row_n[1], ROW_CAP);
    if (solvent) {
        n = add_acquisitions(&ls, upper, STPETE_SOURCE_UPPER, ID_BUY_UPPER, out, n);
        n = add_acquisitions(&ls, lower, STPETE_SOURCE_LOWER, ID_BUY_LOWER, out, n);
        n = add_acquisitions(&ls, types_in_fixed(p->hand, p->hand_n, STPETE_MAX_HAND), STPETE_SOURCE_HAND, ID_PLAY,
                             out, n);
    }
    if (hand_room) {
        for (uint64_t m = upper; m; m &= m - 1)
            out[n++] = ID_TAKE_UPPER + stpete_lowest_bit(m);
        for (uint64_t m = lower; m; m &= m - 1)
            out[n++] = ID_TAKE_LOWER + stpete_lowest_bit(m);
    }
    if (c->phase == STPETE_PHASE_BUILDING && stpete_face_up_observatories(p) > 0)
        for (int s = 0; s < STPETE_NUM_STACKS; s++)
            if (c->stack_n[s] >= 2)
                out[n++] = ID_OBSERVATORY + s;
    return n;
}

/* ---- the check of one action, with a reason ------------------------------------------------------- */

#define REFUSE(...)                                     \
    do {                                                \
        if (why)                                        \
            snprintf(why, why_size, __VA_ARGS__);       \
        return STPETE_E_ILLEGAL_ACTION;                 \
    } while (0)

/* Index of the first copy of card in a list, or -1. */
static int find(const uint8_t *list, int n, int card)
{
    for (int i = 0; i < n; i++)
        if (list[i] == card)
            return i;
    return -1;
}

/* Check buying or playing (card, displaced) from source by seat: target present (§6), price affordable (§5). The
 * price goes to *price_out. */
static int check_acquire(const stpete_core *c, int seat, int card, int source, int displaced, int *price_out,
                         char *why, size_t why_size)
{
    const player_state *p = &c->p[seat];
    if (displaced >= 0 && stpete_displaceable(p, displaced) <= 0) {
        if (displaced == STPETE_CARD_OBSERVATORY && p->display[displaced])
            REFUSE("the Observatory of seat %d is face down and cannot be displaced (§7.1, R9)", seat);
        REFUSE("%s must displace a %s, and the display of seat %d has none (§6)", stpete_cards[card].name,
               stpete_cards[displaced].name, seat);
    }
    int price = stpete_price(c, seat, card, source, displaced);
    if (price > p->rubles)
        REFUSE("%s from the %s costs %d R and seat %d has %d R (§5)", stpete_cards[card].name,
               stpete_source_phrases[source], price, seat, p->rubles);
    *price_out = price;
    return STPETE_OK;
}

int stpete_core_check_move(const stpete_core *c, int id, stpete_move *mv, char *why, size_t why_size)
{
    if (c->decision == STPETE_DECISION_GAME_OVER) {
        if (why)
            snprintf(why, why_size, "the game is over (§4.6)");
        return STPETE_E_GAME_OVER;
    }
    stpete_action a;
    stpete_decode(id, &a);
    mv->a = a;
    mv->index = -1;
    mv->price = 0;
    int seat = c->current;
    const player_state *p = &c->p[seat];
    int hand_limit = stpete_hand_limit_of(p);
    int hand_full = p->hand_n >= hand_limit;

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
            if (hand_full)
                REFUSE("the hand of seat %d is at its limit of %d (§7.3)", seat, hand_limit);
            return STPETE_OK;
        case STPETE_ACTION_OBSERVATORY_BUY:
            if (a.card != c->obs_card)
                REFUSE("the Observatory drew %s, not %s (§7.1)", stpete_cards[c->obs_card].name,
                       stpete_cards[a.card].name);
            return check_acquire(c, seat, a.card, STPETE_SOURCE_OBSERVATORY, a.displaced, &mv->price, why,
                                 why_size);
        default:
            REFUSE("seat %d must first buy, take or discard the card drawn by the Observatory (§7.1)", seat);
        }
    }
    switch (a.kind) {
    case STPETE_ACTION_PASS:
        return STPETE_OK;
    case STPETE_ACTION_BUY:
    case STPETE_ACTION_TAKE:
        mv->index = find(c->row[a.source], c->row_n[a.source], a.card);
        if (mv->index < 0)
            REFUSE("there is no %s in the %s (§4.2)", stpete_cards[a.card].name, stpete_source_phrases[a.source]);
        if (a.kind == STPETE_ACTION_TAKE) {
            if (hand_full)
                REFUSE("the hand of seat %d is at its limit of %d (§4.2, §7.3)", seat, hand_limit);
            return STPETE_OK;
        }
        return check_acquire(c, seat, a.card, a.source, a.displaced, &mv->price, why, why_size);
    case STPETE_ACTION_PLAY:
        mv->index = find(p->hand, p->hand_n, a.card);
        if (mv->index < 0)
            REFUSE("seat %d has no %s in hand (§4.2)", seat, stpete_cards[a.card].name);
        return check_acquire(c, seat, a.card, STPETE_SOURCE_HAND, a.displaced, &mv->price, why, why_size);
    case STPETE_ACTION_OBSERVATORY:
        if (c->phase != STPETE_PHASE_BUILDING)
            REFUSE("an Observatory can be used only in the building phase (§7.1, R9)");
        if (stpete_face_up_observatories(p) <= 0)
            REFUSE("seat %d has no face-up Observatory (§7.1, R9)", seat);
        if (c->stack_n[a.stack] < 2)
            REFUSE("an Observatory draws only from a stack of at least 2 cards; this one has %d (§7.1, R9)",
                   c->stack_n[a.stack]);
        return STPETE_OK;
    case STPETE_ACTION_PUB:
        REFUSE("a Pub purchase is possible only right after building scoring (§7.2)");
    default:
        REFUSE("there is no Observatory draw to resolve (§7.1)");
    }
}
