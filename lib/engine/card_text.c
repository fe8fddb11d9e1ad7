/* What a card does, in words (stpete_game_card_text()): the cards a trading card may displace (§6.2, R8, §12.6, R28)
 * and its special ability (§7, §11, §12.7), as a game plays them: its table's names and figures and its rule
 * options. The one text of the terminal game, the pages and the table document. */
#include <stdarg.h>
#include <stdio.h>

#include "engine/engine.h"

/* A text being written: a caller's buffer (may be too small: the length still counts) and the length so far. */
typedef struct card_text_out {
    char *buf;
    size_t cap, len;
} card_text_out;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void card_text_put(card_text_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *at = o->len < o->cap ? o->buf + o->len : NULL;
    int n = vsnprintf(at, at ? o->cap - o->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

/* The cards a trading card may displace (§6.2, R8; the New Society's §12.6, R28): "any building that is not a
 * trading card" when it is every card of its colour that is no trading card (§6.1: never a trading card), else
 * the names, "Fur Trapper or Czar and Carpenter". */
static void card_text_targets(card_text_out *o, const stpete_rules *rules, const card_def *d)
{
    const card_def *cards = stpete_engine_cards(rules);
    int types = stpete_engine_card_types(rules);
    uint64_t in_game = types == 64 ? ~UINT64_C(0) : (UINT64_C(1) << types) - 1;
    uint64_t targets = d->targets & in_game;
    uint64_t plain = stpete_cards_colour_types(d->colour) & PLAIN_TYPES & in_game;
    for (int t = 0; t < types; t++) /* card types without a copy in this game are none of its cards */
        if (!cards[t].copies)
            plain &= ~CARD_BIT(t), targets &= ~CARD_BIT(t);
    static const char *const kinds[3] = { "worker", "building", "aristocrat" };
    card_text_put(o, "Displaces ");
    if (targets == plain) {
        card_text_put(o, "any %s that is not a trading card", kinds[d->colour]);
    } else {
        int left = 0;
        for (uint64_t m = targets; m; m &= m - 1)
            left++;
        for (uint64_t m = targets; m; m &= m - 1, left--)
            card_text_put(o, "%s%s", cards[stpete_bytes_lowest_bit(m)].name, left > 2 ? ", " : left == 2 ? " or " : "");
    }
    card_text_put(o, " (§6.2%s).", rules->new_society ? ", §12.6" : "");
}

/* The Textile Factory's weaving cards (§12.7.8, R29): the green cards with the weaving symbol in this game. */
static void card_text_weaving(card_text_out *o, const stpete_rules *rules)
{
    const card_def *cards = stpete_engine_cards(rules);
    int n = 0;
    for (int t = 0; t < stpete_engine_card_types(rules); t++) {
        int w = cards[t].weaving;
        if (cards[t].copies && (w == WEAVING_ALWAYS || (w == WEAVING_BY_DEFAULT && !rules->textile_without_new_society)))
            card_text_put(o, "%s%s", n++ ? ", " : "", cards[t].name);
    }
}

/* The special abilities whose words no option or figure changes (enum stpete_special); the others are written by
 * card_text_special(). */
static const char *const card_text_fixed[] = {
    [STPETE_SPECIAL_OBSERVATORY] = "In the building phase, as your action: draw the top card of a stack holding at "
                                   "least 2 cards, then buy it, take it into hand or discard it. Used, it lies face "
                                   "down until the next round: no VP, not displaceable (§7.1, R9).",
    [STPETE_SPECIAL_MARIINSKIJ_THEATER] = "At the building scoring, +1 R for every orange card in your display (§7.5).",
    [STPETE_SPECIAL_TAX_MAN] = "At the aristocrat scoring, +1 R for every green card in your display (§7.5).",
    [STPETE_SPECIAL_CARPENTER_WORKSHOP] = "Blue cards cost you 1 R less (§5.1).",
    [STPETE_SPECIAL_GOLD_SMELTER] = "Orange cards cost you 1 R less (§5.1).",
    [STPETE_SPECIAL_CZAR_AND_CARPENTER] = "Any green trading card may displace it (§6.2).",
    [STPETE_SPECIAL_COFFEE_HOUSE] = "At the building scoring, +1 R for every orange card in your display (§12.7.4).",
    [STPETE_SPECIAL_SYCOPHANT] = "Costs you 1 R at each aristocrat scoring; if you cannot pay, it is discarded "
                                 "(§12.7.9).",
    [STPETE_SPECIAL_OBSHCHINA_COMMUNE] = "Green cards cost you 1 R less (§12.5, R27).",
    [STPETE_SPECIAL_MAYOR] = "At the aristocrat scoring, +1 R for every blue card in your display (§12.7.4).",
    [STPETE_SPECIAL_NEW_SOCIETY] = NULL, /* it displaces any worker: its targets say it (§12.6) */
};

/* The special ability of a card (enum stpete_special), as the game's options and figures play it. */
static void card_text_special(card_text_out *o, const stpete_rules *rules, const card_def *d)
{
    switch (d->special) {
    case STPETE_SPECIAL_PUB:
        card_text_put(o, "After each building scoring, buy VP at %d R each: up to 5 VP %s (§7.2, R10).",
                      PUB_RUBLES_PER_VP,
                      rules->pub_cap == STPETE_PUB_CAP_PER_PLAYER ? "in all, however many Pubs you have"
                                                                  : "per Pub you have");
        break;
    case STPETE_SPECIAL_WAREHOUSE:
        card_text_put(o, "Your hand limit is %d instead of %d (§7.3).", STPETE_MAX_HAND, STPETE_MAX_HAND - 1);
        break;
    case STPETE_SPECIAL_POTJOMKINS_VILLAGE:
        card_text_put(o, "Worth %d R when a trading card displaces it (§7.4, §5.2).", d->value);
        break;
    case STPETE_SPECIAL_MARIINSKY_THEATER_VP:
        card_text_put(o, "At the building scoring, +1 VP for every orange card in your display (%s).",
                      rules->new_society ? "§12.7.3" : "§11");
        break;
    case STPETE_SPECIAL_DEBTORS_PRISON:
        card_text_put(o, "In the building phase, as your action, once a round: pick a card from the discard pile, "
                         "then buy it (no row discount), take it into hand or put it back. Used, it cannot be "
                         "displaced and %s that round (§12.7.5, R21, R22).",
                      rules->used_prison_scores ? "still scores its VP" : "scores no VP");
        break;
    case STPETE_SPECIAL_TRADING_HOUSE:
        card_text_put(o, "At each building scoring you may pay %d R for %d VP (§12.7.6, R25).", TRADING_HOUSE_RUBLES,
                      TRADING_HOUSE_VP);
        break;
    case STPETE_SPECIAL_GUILD_HALL:
        card_text_put(o, "At each building scoring, split %d between rubles and VP as you like (§12.7.7, R24).",
                      GUILD_HALL_UNITS);
        break;
    case STPETE_SPECIAL_TEXTILE_FACTORY:
        card_text_put(o, "At the building scoring, +2 VP for every card with the weaving symbol in your display (");
        card_text_weaving(o, rules);
        card_text_put(o, "; §12.7.8, R29).");
        break;
    default:
        if (d->special < sizeof card_text_fixed / sizeof *card_text_fixed && card_text_fixed[d->special])
            card_text_put(o, "%s", card_text_fixed[d->special]);
        break;
    }
}

size_t stpete_card_text_write(const stpete_rules *rules, int card, char *buf, size_t capacity)
{
    card_text_out o = { buf, capacity, 0 };
    const card_def *d = &stpete_engine_cards(rules)[card];
    if (d->trading)
        card_text_targets(&o, rules, d);
    size_t before = o.len;
    if (d->trading)
        card_text_put(&o, " ");
    card_text_special(&o, rules, d);
    if (o.len == before + 1) /* a space and no special ability */
        o.len = before;
    if (capacity)
        buf[o.len < capacity ? o.len : capacity - 1] = '\0';
    return o.len;
}
