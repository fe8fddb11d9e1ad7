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
    const card_def *cards; /* the edition's table (§2, §11) */
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
    uint64_t m = stpete_display_types(p, FIRST_TRADING);
    if (stpete_face_up_observatories(p) <= 0)
        m &= ~(UINT64_C(1) << STPETE_CARD_OBSERVATORY);
    return m;
}

/* Append the non-trading cards of the type mask m, bought or played from source, that the seat can afford (§5).
 * Each candidate is written and then kept or not (n += legal), without a branch on its legality: which cards a
 * random playout meets is unpredictable. (Loops of a fixed number of steps, with no exit to mispredict, were tried:
 * twice the instructions, a slower listing, and no faster game.) */
LISTING_INLINE size_t add_plain(const lister *ls, uint64_t m, int lower, int base, int *out, size_t n)
{
    for (; m; m &= m - 1) {
        int card = stpete_lowest_bit(m);
        const card_def *d = &ls->cards[card];
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
        const card_def *c = &ls->cards[card];
        /* the displaced card's value must cover the rest (§5.2, §7.4, R7) */
        int need = c->cost - ls->p->display[card] - ls->budget[c->colour] - lower;
        /* Variants are numbered by target type ascending (§6.2), so the ids come out ascending. */
        for (uint64_t t = c->targets & ls->targets; t; t &= t - 1) {
            int d = stpete_lowest_bit(t);
            out[n] = base + stpete_variant_index(card, d);
            n += (size_t)(ls->cards[d].value >= need);
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

/* Bit mask of the card types in a row (cap 8) or a hand (cap 4) of n cards: one bit set per byte, with no
 * comparison with n. The bytes past the count are 0 (stpete_remove8/4, the deal and the loader keep them so; states
 * compare with memcmp), so they can only add bit 0, the Lumberjack: that bit is then taken from a search for a 0
 * among the first n bytes (stpete_holds8/4, one machine word). */
LISTING_INLINE uint64_t types_in(const uint8_t *list, int n, int cap)
{
    uint64_t m = 0;
    for (int i = 0; i < cap; i++)
        m |= UINT64_C(1) << list[i];
    int zero = cap == ROW_CAP ? stpete_holds8(list, n, 0) : stpete_holds4(list, n, 0);
    return (m & ~UINT64_C(1)) | (uint64_t)zero;
}

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
    size_t n = 0;
    int seat = c->current;
    const player_state *p = &c->p[seat];
    int rubles = p->rubles;
    lister ls = { stpete_cards_of(&c->rules), p,
                  { rubles + stpete_colour_discount(p, STPETE_COLOUR_GREEN),
                    rubles + stpete_colour_discount(p, STPETE_COLOUR_BLUE),
                    rubles + stpete_colour_discount(p, STPETE_COLOUR_ORANGE) },
                  0, 0 };
    int solvent = rubles >= 1; /* every price is at least 1 R (R5) */
    int hand_room = p->hand_n < stpete_hand_limit_of(p);
    switch (c->decision) {
    case STPETE_DECISION_GAME_OVER:
        return 0;
    case STPETE_DECISION_CHANCE:
        return chance_outcomes(c, out);
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
    uint64_t upper = types_in(c->row[0], c->row_n[0], ROW_CAP);
    uint64_t lower = types_in(c->row[1], c->row_n[1], ROW_CAP);
    if (stpete_buy_only(c)) { /* §11: buy a board card if one is affordable; pass only when none is */
        if (solvent) {
            n = add_acquisitions(&ls, upper, STPETE_SOURCE_UPPER, ID_BUY_UPPER, out, n);
            n = add_acquisitions(&ls, lower, STPETE_SOURCE_LOWER, ID_BUY_LOWER, out, n);
        }
        if (n == 0)
            out[n++] = ID_PASS;
        return n;
    }
    out[n++] = ID_PASS;
    if (solvent) {
        n = add_acquisitions(&ls, upper, STPETE_SOURCE_UPPER, ID_BUY_UPPER, out, n);
        n = add_acquisitions(&ls, lower, STPETE_SOURCE_LOWER, ID_BUY_LOWER, out, n);
        n = add_acquisitions(&ls, types_in(p->hand, p->hand_n, STPETE_MAX_HAND), STPETE_SOURCE_HAND, ID_PLAY,
                             out, n);
    }
    if (hand_room) {
        for (uint64_t m = upper; m; m &= m - 1)
            out[n++] = ID_TAKE_UPPER + stpete_lowest_bit(m);
        for (uint64_t m = lower; m; m &= m - 1)
            out[n++] = ID_TAKE_LOWER + stpete_lowest_bit(m);
    }
    /* One branch, almost never taken (a face-up Observatory in the building phase), instead of two of which the
     * first (the phase) changes every few actions. */
    if ((c->phase == STPETE_PHASE_BUILDING) & (stpete_face_up_observatories(p) > 0))
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

/* Check buying or playing (card, displaced) from source by seat: target present (§6), price affordable (§5). The
 * price goes to *price_out. */
static int check_acquire(const stpete_core *c, int seat, int card, int source, int displaced, int *price_out,
                         char *why, size_t why_size)
{
    const card_def *cards = stpete_cards_of(&c->rules);
    const player_state *p = &c->p[seat];
    if (displaced >= 0 && stpete_displaceable(p, displaced) <= 0) {
        if (displaced == STPETE_CARD_OBSERVATORY && p->display[displaced])
            REFUSE("the Observatory of seat %d is face down and cannot be displaced (§7.1, R9)", seat);
        REFUSE("%s must displace a %s, and the display of seat %d has none (§6)", cards[card].name,
               cards[displaced].name, seat);
    }
    int price = stpete_price(c, seat, card, source, displaced);
    if (price > p->rubles)
        REFUSE("%s from the %s costs %d R and seat %d has %d R (§5)", cards[card].name,
               stpete_source_phrases[source], price, seat, p->rubles);
    *price_out = price;
    return STPETE_OK;
}

/* Check a chance outcome id (>= STPETE_CHANCE_CARD_FIRST). */
static int check_chance(const stpete_core *c, int id, char *why, size_t why_size)
{
    if (c->decision != STPETE_DECISION_CHANCE)
        REFUSE(c->rules.chance_mode == STPETE_CHANCE_EXPLICIT
                   ? "chance outcome %d at a player's decision: only a chance node takes one"
                   : "chance outcome %d in sampled mode: the library draws every random event itself", id);
    if (c->chance == CHANCE_MARKERS) {
        if (id < STPETE_CHANCE_MARKERS_FIRST || !stpete_markers_code_valid(id - STPETE_CHANCE_MARKERS_FIRST,
                                                                            c->rules.players))
            REFUSE("chance outcome %d is not a deal of the start-player markers for %d players (§3.3)", id,
                   c->rules.players);
        return STPETE_OK;
    }
    int card = id - STPETE_CHANCE_CARD_FIRST, s = c->deal_stack;
    if (id >= STPETE_CHANCE_MARKERS_FIRST || memchr(c->stack[s], card, c->stack_n[s]) == NULL)
        REFUSE("chance outcome %d: the %s stack holds no %s (§%s)", id, stpete_stack_words[s],
               id >= STPETE_CHANCE_MARKERS_FIRST ? "such card" : stpete_cards_of(&c->rules)[card].name,
               c->chance == CHANCE_DRAW ? "7.1" : "4.5");
    return STPETE_OK;
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
    const card_def *cards = stpete_cards_of(&c->rules);
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
                REFUSE("the Observatory drew %s, not %s (§7.1)", cards[c->obs_card].name, cards[a.card].name);
            return check_acquire(c, seat, a.card, STPETE_SOURCE_OBSERVATORY, a.displaced, &mv->price, why,
                                 why_size);
        default:
            REFUSE("seat %d must first buy, take or discard the card drawn by the Observatory (§7.1)", seat);
        }
    }
    if (stpete_buy_only(c)) { /* §11: the first worker phase of the second edition */
        if (a.kind == STPETE_ACTION_PASS) {
            int ids[STPETE_MAX_LEGAL_ACTIONS];
            if (stpete_core_legal(c, ids) > 1 || ids[0] != ID_PASS)
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
            REFUSE("there is no %s in the %s (§4.2)", cards[a.card].name, stpete_source_phrases[a.source]);
        if (a.kind == STPETE_ACTION_TAKE) {
            if (hand_full)
                REFUSE("the hand of seat %d is at its limit of %d (§4.2, §7.3)", seat, hand_limit);
            return STPETE_OK;
        }
        return check_acquire(c, seat, a.card, a.source, a.displaced, &mv->price, why, why_size);
    case STPETE_ACTION_PLAY:
        mv->index = stpete_find4(p->hand, p->hand_n, a.card);
        if (mv->index < 0)
            REFUSE("seat %d has no %s in hand (§4.2)", seat, cards[a.card].name);
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
