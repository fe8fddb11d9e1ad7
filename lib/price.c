/* Prices (§5), hand limit (§7.3) and displacement targets (§6.1). */
#include "stpete_internal.h"

int stpete_price(const stpete_core *c, int seat, int card, int source, int displaced)
{
    const card_def *d = &stpete_cards[card];
    const player_state *p = &c->p[seat];
    int price = d->cost;
    price -= p->display[card];                                         /* §5.1.1 same name */
    if (source == STPETE_SOURCE_LOWER)                                 /* §5.1.2, R6 */
        price -= 1;
    if (d->colour == STPETE_COLOUR_BLUE && p->display[STPETE_CARD_CARPENTER_WORKSHOP]) /* §5.1.3 */
        price -= 1;
    if (d->colour == STPETE_COLOUR_ORANGE && p->display[STPETE_CARD_GOLD_SMELTER])     /* §5.1.4 */
        price -= 1;
    if (d->trading)                                                    /* §5.2, §7.4, R7 */
        price -= displaced == STPETE_CARD_POTJOMKINS_VILLAGE ? 6 : stpete_cards[displaced].cost;
    return price < 1 ? 1 : price;                                      /* R5 floor */
}

int stpete_hand_limit(const stpete_core *c, int seat)
{
    return c->p[seat].display[STPETE_CARD_WAREHOUSE] ? STPETE_MAX_HAND : STPETE_MAX_HAND - 1; /* §7.3 */
}

int stpete_displaceable(const stpete_core *c, int seat, int card)
{
    int n = c->p[seat].display[card];
    if (card == STPETE_CARD_OBSERVATORY) /* a face-down Observatory cannot be displaced (§6.1, §7.1) */
        n -= c->p[seat].obs_used;
    return n;
}
