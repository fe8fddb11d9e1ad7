/* Prices (§5), with the costs of the game's edition (§11): the inline functions of engine.h, which the
 * legality core (legal.h) uses for its masks and the check for the price an apply pays. */
#include "engine/engine.h"

int stpete_price(const stpete_core *c, int seat, int card, int source, int displaced)
{
    const card_def *cards = stpete_engine_cards(&c->rules), *d = &cards[card];
    const player_state *p = &c->p[seat];
    int before = stpete_price_before_displacement(d, p->display[card], source == STPETE_SOURCE_LOWER,
                                                  stpete_price_colour_discount(p, d->colour));
    return stpete_price_with(before, cards[card].trading ? cards[displaced].value : 0);
}
