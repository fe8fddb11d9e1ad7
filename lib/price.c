/* Prices (§5). */
#include "stpete_internal.h"

int stpete_price(const stpete_core *c, int seat, int card, int source, int displaced)
{
    const card_def *d = &stpete_cards[card];
    const player_state *p = &c->p[seat];
    int price = d->cost;
    price -= p->display[card];                                         /* §5.1.1 same name */
    if (source == STPETE_SOURCE_LOWER)                                 /* §5.1.2, R6 */
        price -= 1;
    price -= stpete_colour_discount(p, d->colour);                     /* §5.1.3, §5.1.4 */
    if (d->trading)                                                    /* §5.2, §7.4, R7 */
        price -= stpete_cards[displaced].value;
    return price < 1 ? 1 : price;                                      /* R5 floor */
}
