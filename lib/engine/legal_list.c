/* The listing (stpete_legal_list): the legal ids of a position ascending, in the order and with the ids of stpete.h's
 * encoding, from the legality core (legal.h). The check of one id reads it where a rule reads the whole of it (pass
 * in the buy-only phase, §11), and the playout step's pick off a turn (legal_pick.c). */
#include "engine/legal.h"


/* Append the legal acquisitions of the card types m from a source, whose ids start at base (§5, §6), ascending:
 * the non-trading cards (their variant is the card; the affordable ones, x->affordable from legal_plain_affordable(),
 * which the caller computes once per listing), then each trading card's variants (its targets ascending,
 * §6.2). Each trading variant is written and then kept or not (n += legal), without a branch on its legality: which
 * cards a random playout meets is unpredictable. (Loops of a fixed number of steps, with no exit to mispredict, were
 * tried: twice the instructions, a slower listing; bit sets with a pick of their k-th bit were tried too:
 * doc/performance.md.) */
CORE_INLINE size_t add_acquisitions(seat_ctx *x, uint64_t m, int lower, int base, int ext_base, int *out, size_t n)
{
    const uint64_t plain_types = (UINT64_C(1) << FIRST_TRADING) - 1; /* the base game's: their variant is the card */
    /* the affordable ones from legal_plain_affordable(): no price here */
    for (uint64_t t = m & plain_types & x->affordable[lower]; t; t &= t - 1)
        out[n++] = base + stpete_bytes_lowest_bit(t);
    if (x->ns) /* the New Society's plain types 49..53, at ext_base (stpete.h) */
        for (uint64_t t = m & (PLAIN_TYPES & ~plain_types) & x->affordable[lower]; t; t &= t - 1)
            out[n++] = ext_base + stpete_bytes_lowest_bit(t) - STPETE_NUM_CARD_TYPES;
    for (uint64_t t = m & ~PLAIN_TYPES; t; t &= t - 1) {
        int card = stpete_bytes_lowest_bit(t);
        int before = legal_price_before(x, card, lower);
        for (uint64_t d = x->cards[card].targets & legal_displaceable_mask(x); d; d &= d - 1) {
            int target = stpete_bytes_lowest_bit(d);
            out[n] = x->ns ? stpete_actions_variant_id(base, ext_base, stpete_actions_variant(card, target))
                           : base + stpete_actions_base_variant(card, target);
            n += (size_t)legal_target(x, before, target);
        }
    }
    return n;
}

/* Insertion sort of a listing (the New Society's ids interleave with the base ones: the listing stays ascending). */
static void sort_ids(int *ids, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        int v = ids[i];
        size_t j = i;
        for (; j > 0 && ids[j - 1] > v; j--)
            ids[j] = ids[j - 1];
        ids[j] = v;
    }
}
/* The New Society's decisions (§12.7.5-§12.7.7) and the Debtor's Prison picks of a turn (R21). */
static size_t legal_ns(const stpete_core *c, seat_ctx *x, int *out, size_t n)
{
    switch (c->decision) {
    case STPETE_DECISION_PRISON: /* R21: buy (no row discount), take (hand limit) or put back */
        if (x->rubles >= 1) {
            legal_plain_affordable(x, &c->rules);
            n = add_acquisitions(x, UINT64_C(1) << c->obs_card, 0, ID_PRISON_BUY,
                                 ID_PRISON_BUY + STPETE_NUM_CARD_VARIANTS, out, n);
        }
        out[n] = ID_PRISON_TAKE;
        n += (size_t)(x->p->hand_n < stpete_engine_hand_limit(x->p));
        out[n++] = ID_PRISON_PUT_BACK;
        return n;
    case STPETE_DECISION_GUILD_HALL: /* R24: r R and 4 - r VP */
        for (int r = 0; r <= GUILD_HALL_UNITS; r++)
            out[n++] = ID_GUILD_HALL + r;
        return n;
    case STPETE_DECISION_TRADING_HOUSE: /* R25: asked only with 3 R or more */
        out[n++] = ID_TRADING_HOUSE;
        out[n++] = ID_TRADING_HOUSE + 1;
        return n;
    default: /* a turn: the Prison's picks, the largest ids */
        for (uint64_t m = legal_prison_picks(c, x->p); m; m &= m - 1)
            out[n++] = ID_PRISON + stpete_bytes_lowest_bit(m);
        sort_ids(out, n);
        return n;
    }
}
/* The Observatory draws of a turn (§7.1, R9), ascending. */
CORE_INLINE size_t add_draws(const stpete_core *c, const seat_ctx *x, int *out, size_t n)
{
    for (unsigned m = legal_observatory_stacks(c, x->p); m; m &= m - 1)
        out[n++] = ID_OBSERVATORY + stpete_bytes_lowest_bit(m);
    return n;
}

/* The listing (stpete_legal_list); ns is the game's new_society as a constant (list_legal() instantiates both), so
 * a base game's listing carries none of §12's branches. */
CORE_INLINE size_t list_legal_of(const stpete_core *c, int *out, int ns)
{
    size_t n = 0;
    seat_ctx x = legal_seat_of(c);
    x.ns = ns;
    int solvent = x.rubles >= 1; /* every price is at least 1 R (R5): nothing to buy otherwise (a shortcut) */
    switch (c->decision) {
    case STPETE_DECISION_GAME_OVER:
        return 0;
    case STPETE_DECISION_CHANCE:
        return stpete_legal_chance_outcomes(c, out);
    case STPETE_DECISION_PUB: { /* §7.2, R10: 0 .. cap VP */
        int cap = stpete_engine_pub_cap(c, c->current);
        for (int k = 0; k <= cap; k++)
            out[n++] = ID_PUB + k;
        return n;
    }
    case STPETE_DECISION_OBSERVATORY: /* §7.1: buy the drawn card, take it into the hand (§7.3), or discard it */
        if (solvent) {
            legal_plain_affordable(&x, &c->rules);
            n = add_acquisitions(&x, UINT64_C(1) << c->obs_card, 0, ID_OBS_BUY, ID_NS_OBS_BUY, out, n);
        }
        out[n] = ID_OBS_TAKE;
        n += (size_t)legal_hand_room(x.p);
        out[n++] = ID_OBS_DISCARD;
        if (x.ns)
            sort_ids(out, n);
        return n;
    case STPETE_DECISION_TURN:
        break;
    default: /* the New Society's decisions (§12) */
        return legal_ns(c, &x, out, n);
    }
    uint64_t upper, lower;
    legal_board_types(c, &upper, &lower, ns);
    if (solvent)
        legal_plain_affordable(&x, &c->rules);
    if (stpete_engine_buy_only(c)) { /* §11: buy a board card if one is affordable; pass only when none is */
        if (solvent) {
            n = add_acquisitions(&x, upper, 0, ID_BUY_UPPER, ID_NS_BUY_UPPER, out, n);
            n = add_acquisitions(&x, lower, 1, ID_BUY_LOWER, ID_NS_BUY_LOWER, out, n); /* §5.1.2, R6 */
        }
        if (n == 0)
            out[n++] = ID_PASS;
        return n;
    }
    out[n++] = ID_PASS; /* §4.3 */
    if (solvent) {
        n = add_acquisitions(&x, upper, 0, ID_BUY_UPPER, ID_NS_BUY_UPPER, out, n);
        n = add_acquisitions(&x, lower, 1, ID_BUY_LOWER, ID_NS_BUY_LOWER, out, n); /* §5.1.2, R6 */
        n = add_acquisitions(&x, legal_source_types(c, STPETE_SOURCE_HAND, ns), 0, ID_PLAY, ID_NS_PLAY, out, n);
    }
    if (legal_hand_room(x.p)) { /* take a card into the hand: one action per card type of a row */
        for (uint64_t m = upper; m; m &= m - 1)
            out[n++] = stpete_actions_take_id(STPETE_SOURCE_UPPER, stpete_bytes_lowest_bit(m));
        for (uint64_t m = lower; m; m &= m - 1)
            out[n++] = stpete_actions_take_id(STPETE_SOURCE_LOWER, stpete_bytes_lowest_bit(m));
    }
    n = add_draws(c, &x, out, n);
    if (ns) /* the Debtor's Prison (R21), and the listing sorted */
        n = legal_ns(c, &x, out, n);
    return n;
}

CORE_INLINE size_t list_legal(const stpete_core *c, int *out)
{
    return c->rules.new_society ? list_legal_of(c, out, 1) : list_legal_of(c, out, 0);
}

/* Out of line: the playout step's pick calls it only off a turn, and keeps it out of its own body. */
STPETE_NOINLINE size_t stpete_legal_list(const stpete_core *c, int *out)
{
    return list_legal(c, out);
}
