/* What a table UI writes beside each card a seat could buy or play (stpete_state_offers(), the table document's
 * "offers"): every card of the rows, the drawn or picked card and the seat's hand, in every way it may be bought or
 * played, with the price of price.c (§5, §5.2, §6.2, §7.1, §12.5, §12.7.5). From the seat's display and hand and the
 * public board only (§9). */
#include "engine/engine.h"

/* The action kind that buys or plays a card from a place (stpete.h, "Actions"). */
static int offers_kind(int source)
{
    switch (source) {
    case STPETE_SOURCE_HAND:
        return STPETE_ACTION_PLAY;
    case STPETE_SOURCE_OBSERVATORY:
        return STPETE_ACTION_OBSERVATORY_BUY;
    case STPETE_SOURCE_DISCARD:
        return STPETE_ACTION_PRISON_BUY;
    default:
        return STPETE_ACTION_BUY;
    }
}

/* Add the offers of one card in one place: a trading card once per target the display holds (§6.2, R8; a
 * face-down Observatory or a used Prison is no target, §7.1, R9, R22), another card once. */
static size_t offers_of_card(const stpete_core *c, int seat, int source, int card, stpete_offer *out, size_t cap,
                             size_t n)
{
    const card_def *d = &stpete_engine_cards(&c->rules)[card];
    const player_state *p = &c->p[seat];
    stpete_action a = { offers_kind(source), source, card, STPETE_NONE, STPETE_NONE, STPETE_NONE };
    for (int t = d->trading ? 0 : -1; t < (d->trading ? stpete_engine_card_types(&c->rules) : 0); t++) {
        if (t >= 0 && (!(d->targets >> t & 1u) || stpete_engine_displaceable(p, t) <= 0))
            continue;
        a.displaced = t;
        int id = -1;
        stpete_action_encode(&a, &id); /* every (card, target) pair of a game's table has an id (stpete.h) */
        if (n < cap)
            out[n] = (stpete_offer){ id, source, card, t, stpete_price(c, seat, card, source, t) };
        n++;
    }
    return n;
}

/* Whether card is among the first k entries of list (each card type once per place). */
static int offers_seen(const uint8_t *list, int k, int card)
{
    for (int i = 0; i < k; i++)
        if (list[i] == card)
            return 1;
    return 0;
}

size_t stpete_offers_list(const stpete_core *c, int seat, stpete_offer *out, size_t cap)
{
    size_t n = 0;
    for (int row = 0; row < 2; row++)
        for (int i = 0; i < c->row_n[row]; i++)
            if (!offers_seen(c->row[row], i, c->row[row][i]))
                n = offers_of_card(c, seat, row, c->row[row][i], out, cap, n);
    if (c->obs_card >= 0 && c->current == seat) /* its owner's: the Observatory's draw (§7.1) or the Debtor's
                                                   Prison's pick (§12.7.5) */
        n = offers_of_card(c, seat, c->decision == STPETE_DECISION_PRISON ? STPETE_SOURCE_DISCARD
                                                                           : STPETE_SOURCE_OBSERVATORY,
                           c->obs_card, out, cap, n);
    const player_state *p = &c->p[seat];
    for (int h = 0; h < p->hand_n; h++)
        if (!offers_seen(p->hand, h, p->hand[h]))
            n = offers_of_card(c, seat, STPETE_SOURCE_HAND, p->hand[h], out, cap, n);
    return n;
}
