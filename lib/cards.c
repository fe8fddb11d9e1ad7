/* The card catalogue of §2 as one data table, and the displacement variants of §6.2. */
#include <string.h>

#include "stpete_internal.h"

#define G STPETE_COLOUR_GREEN
#define B STPETE_COLOUR_BLUE
#define O STPETE_COLOUR_ORANGE
#define S(x) STPETE_SPECIAL_##x

/* name, colour, trading, cost, R, VP, copies, ware, special — exactly the tables of §2.1–§2.4. */
const card_def stpete_cards[STPETE_NUM_CARD_TYPES] = {
    /* §2.1 workers, 31 */
    { "Lumberjack", G, 0, 3, 3, 0, 6, STPETE_CARD_LUMBERJACK, S(NONE) },
    { "Gold Miner", G, 0, 4, 3, 0, 6, STPETE_CARD_GOLD_MINER, S(NONE) },
    { "Shepherd", G, 0, 5, 3, 0, 6, STPETE_CARD_SHEPHERD, S(NONE) },
    { "Fur Trapper", G, 0, 6, 3, 0, 6, STPETE_CARD_FUR_TRAPPER, S(NONE) },
    { "Ship Builder", G, 0, 7, 3, 0, 6, STPETE_CARD_SHIP_BUILDER, S(NONE) },
    { "Czar and Carpenter", G, 0, 8, 3, 0, 1, -1, S(CZAR_AND_CARPENTER) },
    /* §2.2 buildings, 28 */
    { "Market", B, 0, 5, 0, 1, 5, -1, S(NONE) },
    { "Customs House", B, 0, 8, 0, 2, 5, -1, S(NONE) },
    { "Firehouse", B, 0, 11, 0, 3, 3, -1, S(NONE) },
    { "Hospital", B, 0, 14, 0, 4, 3, -1, S(NONE) },
    { "Library", B, 0, 17, 0, 5, 3, -1, S(NONE) },
    { "Theater", B, 0, 20, 0, 6, 2, -1, S(NONE) },
    { "Academy", B, 0, 23, 0, 7, 1, -1, S(NONE) },
    { "Potjomkin's Village", B, 0, 2, 0, 0, 1, -1, S(POTJOMKINS_VILLAGE) },
    { "Pub", B, 0, 1, 0, 0, 2, -1, S(PUB) },
    { "Warehouse", B, 0, 2, 0, 0, 1, -1, S(WAREHOUSE) },
    { "Observatory", B, 0, 6, 0, 1, 2, -1, S(OBSERVATORY) },
    /* §2.3 aristocrats, 27 */
    { "Author", O, 0, 4, 1, 0, 6, -1, S(NONE) },
    { "Administrator", O, 0, 7, 2, 0, 5, -1, S(NONE) },
    { "Warehouse Manager", O, 0, 10, 3, 0, 5, -1, S(NONE) },
    { "Secretary", O, 0, 12, 4, 0, 4, -1, S(NONE) },
    { "Controller", O, 0, 14, 4, 1, 3, -1, S(NONE) },
    { "Judge", O, 0, 16, 5, 2, 2, -1, S(NONE) },
    { "Mistress of Ceremonies", O, 0, 18, 6, 3, 2, -1, S(NONE) },
    /* §2.4 trading cards, green, 10 */
    { "Carpenter Workshop", G, 1, 4, 3, 0, 1, STPETE_CARD_LUMBERJACK, S(CARPENTER_WORKSHOP) },
    { "Gold Smelter", G, 1, 6, 3, 0, 1, STPETE_CARD_GOLD_MINER, S(GOLD_SMELTER) },
    { "Weaving Mill", G, 1, 8, 6, 0, 2, STPETE_CARD_SHEPHERD, S(NONE) },
    { "Fur Shop", G, 1, 10, 3, 2, 3, STPETE_CARD_FUR_TRAPPER, S(NONE) },
    { "Wharf", G, 1, 12, 6, 1, 3, STPETE_CARD_SHIP_BUILDER, S(NONE) },
    /* §2.4 trading cards, blue, 10 */
    { "Mariinskij-Theater", B, 1, 10, 0, 0, 1, -1, S(MARIINSKIJ_THEATER) },
    { "Bank", B, 1, 13, 5, 1, 1, -1, S(NONE) },
    { "Peterhof", B, 1, 14, 4, 2, 1, -1, S(NONE) },
    { "St Isaac's Cathedral", B, 1, 15, 3, 3, 1, -1, S(NONE) },
    { "Church of the Resurrection of Jesus Christ", B, 1, 16, 2, 4, 1, -1, S(NONE) },
    { "Harbor", B, 1, 16, 5, 2, 1, -1, S(NONE) },
    { "Catherine the Great Palace", B, 1, 17, 1, 5, 1, -1, S(NONE) },
    { "Smolny Cathedral", B, 1, 17, 4, 3, 1, -1, S(NONE) },
    { "Hermitage", B, 1, 18, 3, 4, 1, -1, S(NONE) },
    { "Winter Palace", B, 1, 19, 2, 5, 1, -1, S(NONE) },
    /* §2.4 trading cards, orange, 10 */
    { "Pope", O, 1, 6, 1, 1, 1, -1, S(NONE) },
    { "Weapon Master", O, 1, 8, 4, 0, 1, -1, S(NONE) },
    { "Chamber Maid", O, 1, 8, 0, 2, 1, -1, S(NONE) },
    { "Builder", O, 1, 10, 5, 0, 1, -1, S(NONE) },
    { "Senator", O, 1, 12, 2, 2, 1, -1, S(NONE) },
    { "Patriarch", O, 1, 16, 0, 4, 1, -1, S(NONE) },
    { "Tax Man", O, 1, 17, 0, 0, 1, -1, S(TAX_MAN) },
    { "Admiral", O, 1, 18, 3, 3, 1, -1, S(NONE) },
    { "Minister of Foreign Affairs", O, 1, 20, 2, 4, 1, -1, S(NONE) },
    { "Czar", O, 1, 24, 0, 6, 1, -1, S(NONE) },
};

int stpete_variant_of(int card, int displaced)
{
    if (card < 0 || card >= STPETE_NUM_CARD_TYPES)
        return -1;
    if (card < FIRST_TRADING)
        return card;
    if (card < FIRST_BLUE_TRADING) {
        int base = VARIANT_GREEN_TRADING + (card - FIRST_TRADING) * 2;
        if (displaced == stpete_cards[card].ware)
            return base;
        if (displaced == STPETE_CARD_CZAR_AND_CARPENTER)
            return base + 1;
        return -1;
    }
    if (card < FIRST_ORANGE_TRADING) {
        if (displaced < FIRST_BUILDING || displaced >= FIRST_BUILDING + NUM_BUILDINGS)
            return -1;
        return VARIANT_BLUE_TRADING + (card - FIRST_BLUE_TRADING) * NUM_BUILDINGS + (displaced - FIRST_BUILDING);
    }
    if (displaced < FIRST_ARISTOCRAT || displaced >= FIRST_ARISTOCRAT + NUM_ARISTOCRATS)
        return -1;
    return VARIANT_ORANGE_TRADING + (card - FIRST_ORANGE_TRADING) * NUM_ARISTOCRATS + (displaced - FIRST_ARISTOCRAT);
}

STPETE_API int stpete_card_get_info(int card, stpete_card_info *out)
{
    if (!out || card < 0 || card >= STPETE_NUM_CARD_TYPES)
        return STPETE_E_INVALID_ARGUMENT;
    const card_def *d = &stpete_cards[card];
    out->name = d->name;
    out->colour = d->colour;
    out->trading = d->trading;
    out->cost = d->cost;
    out->rubles = d->rubles;
    out->vp = d->vp;
    out->copies = d->copies;
    out->ware = d->ware;
    out->special = d->special;
    return STPETE_OK;
}

STPETE_API const char *stpete_card_name(int card)
{
    if (card < 0 || card >= STPETE_NUM_CARD_TYPES)
        return NULL;
    return stpete_cards[card].name;
}

int stpete_text_equals(const char *name, const char *text, size_t n)
{
    if (strlen(name) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (stpete_ascii_lower((unsigned char)name[i]) != stpete_ascii_lower((unsigned char)text[i]))
            return 0;
    return 1;
}

int stpete_card_lookup(const char *text, size_t n)
{
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
        if (stpete_text_equals(stpete_cards[t].name, text, n))
            return t;
    return -1;
}

STPETE_API int stpete_card_from_name(const char *name, int *card)
{
    if (!name || !card)
        return STPETE_E_INVALID_ARGUMENT;
    int t = stpete_card_lookup(name, strlen(name));
    if (t < 0)
        return STPETE_E_PARSE;
    *card = t;
    return STPETE_OK;
}

int stpete_stack_of(int card)
{
    return stpete_cards[card].trading ? STPETE_STACK_TRADING : stpete_cards[card].colour;
}
