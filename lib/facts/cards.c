/* The card catalogue of §2 as one data table, and the displacement variants of §6.2. */
#include <string.h>

#include "facts/facts.h"

/* Displacement targets (§6.2, R8): a green trading card the worker of its ware or Czar and Carpenter; a blue one
 * any building that is not a trading card; an orange one any aristocrat that is not a trading card. */
#define BIT(t) (UINT64_C(1) << (t))
#define GREEN_TARGETS(ware_) (BIT(ware_) | BIT(STPETE_CARD_CZAR_AND_CARPENTER))
#define BLUE_TARGETS (((UINT64_C(1) << NUM_BUILDINGS) - 1) << FIRST_BUILDING)
#define ORANGE_TARGETS (((UINT64_C(1) << NUM_ARISTOCRATS) - 1) << FIRST_ARISTOCRAT)

/* The stack of each colour's cards that are not trading cards (§1, §2.1-§2.3: workers, buildings, aristocrats). */
#define STACK_OF_GREEN STPETE_STACK_WORKER
#define STACK_OF_BLUE STPETE_STACK_BUILDING
#define STACK_OF_ORANGE STPETE_STACK_ARISTOCRAT

/* One row of §2.1-§2.3 (value = cost: what a displacing trading card deducts, §5.2) or of §2.4. */
#define CARD(id, name_, colour_, cost_, rubles_, vp_, copies_, ware_, special_)                           \
    [STPETE_CARD_##id] = { .name = name_, .name_len = sizeof(name_) - 1, .colour = STPETE_COLOUR_##colour_,  \
                           .stack = STACK_OF_##colour_, .trading = 0, .cost = cost_,                       \
                           .rubles = rubles_, .vp = vp_, .copies = copies_, .ware = ware_,                 \
                           .special = STPETE_SPECIAL_##special_, .value = cost_, .targets = 0 }
#define TRADING(id, name_, colour_, cost_, rubles_, vp_, copies_, ware_, special_, targets_)              \
    [STPETE_CARD_##id] = { .name = name_, .name_len = sizeof(name_) - 1, .colour = STPETE_COLOUR_##colour_,  \
                           .stack = STPETE_STACK_TRADING, .trading = 1, .cost = cost_,                     \
                           .rubles = rubles_, .vp = vp_, .copies = copies_, .ware = ware_,                 \
                           .special = STPETE_SPECIAL_##special_, .value = cost_, .targets = targets_ }
#define NO_WARE (-1)

/* Exactly the tables of §2.1-§2.4: name, colour, cost, R, VP, copies, ware, special (, targets); ED(first, second)
 * is the value of the first edition (2004) or of the second-edition preset (§11: four card changes, four names). */
#define CARD_TABLE                                                                                            \
    /* §2.1 workers, 31 */                                                                                    \
    CARD(LUMBERJACK, "Lumberjack", GREEN, 3, 3, 0, 6, STPETE_CARD_LUMBERJACK, NONE),                          \
    CARD(GOLD_MINER, "Gold Miner", GREEN, 4, 3, 0, 6, STPETE_CARD_GOLD_MINER, NONE),                          \
    CARD(SHEPHERD, "Shepherd", GREEN, 5, 3, 0, 6, STPETE_CARD_SHEPHERD, NONE),                                \
    CARD(FUR_TRAPPER, "Fur Trapper", GREEN, 6, 3, 0, 6, STPETE_CARD_FUR_TRAPPER, NONE),                       \
    CARD(SHIP_BUILDER, "Ship Builder", GREEN, 7, 3, 0, 6, STPETE_CARD_SHIP_BUILDER, NONE),                    \
    CARD(CZAR_AND_CARPENTER, "Czar and Carpenter", GREEN, 8, 3, 0, 1, NO_WARE, CZAR_AND_CARPENTER),           \
    /* §2.2 buildings, 28 */                                                                                  \
    CARD(MARKET, "Market", BLUE, 5, 0, 1, 5, NO_WARE, NONE),                                                  \
    CARD(CUSTOMS_HOUSE, "Customs House", BLUE, 8, 0, 2, 5, NO_WARE, NONE),                                    \
    CARD(FIREHOUSE, "Firehouse", BLUE, 11, 0, 3, 3, NO_WARE, NONE),                                           \
    CARD(HOSPITAL, "Hospital", BLUE, 14, 0, 4, 3, NO_WARE, NONE),                                             \
    CARD(LIBRARY, "Library", BLUE, 17, 0, 5, 3, NO_WARE, NONE),                                               \
    CARD(THEATER, "Theater", BLUE, 20, 0, 6, 2, NO_WARE, NONE),                                               \
    CARD(ACADEMY, "Academy", BLUE, 23, 0, 7, 1, NO_WARE, NONE),                                               \
    [STPETE_CARD_POTJOMKINS_VILLAGE] = { .name = ED("Potjomkin's Village", "Potemkin Village"),             \
                                         .name_len = sizeof(ED("Potjomkin's Village", "Potemkin Village")) - 1, \
                                         .colour = STPETE_COLOUR_BLUE, .stack = STPETE_STACK_BUILDING,        \
                                         .cost = 2, .copies = 1, .ware = NO_WARE,                             \
                                         .special = STPETE_SPECIAL_POTJOMKINS_VILLAGE,                        \
                                         .value = 6 /* §7.4, R7 */ },                                         \
    CARD(PUB, "Pub", BLUE, 1, 0, 0, 2, NO_WARE, PUB),                                                         \
    CARD(WAREHOUSE, "Warehouse", BLUE, 2, 0, 0, 1, NO_WARE, WAREHOUSE),                                       \
    CARD(OBSERVATORY, "Observatory", BLUE, ED(6, 7), 0, 1, 2, NO_WARE, OBSERVATORY),                          \
    /* §2.3 aristocrats, 27 */                                                                                \
    CARD(AUTHOR, "Author", ORANGE, 4, 1, 0, 6, NO_WARE, NONE),                                                \
    CARD(ADMINISTRATOR, "Administrator", ORANGE, 7, 2, 0, 5, NO_WARE, NONE),                                  \
    CARD(WAREHOUSE_MANAGER, "Warehouse Manager", ORANGE, 10, 3, 0, 5, NO_WARE, NONE),                         \
    CARD(SECRETARY, "Secretary", ORANGE, 12, 4, 0, 4, NO_WARE, NONE),                                         \
    CARD(CONTROLLER, "Controller", ORANGE, 14, 4, 1, 3, NO_WARE, NONE),                                       \
    CARD(JUDGE, "Judge", ORANGE, ED(16, 17), 5, 2, 2, NO_WARE, NONE),                                         \
    CARD(MISTRESS_OF_CEREMONIES, "Mistress of Ceremonies", ORANGE, ED(18, 20), 6, 3, 2, NO_WARE, NONE),       \
    /* §2.4 trading cards, green, 10 */                                                                       \
    TRADING(CARPENTER_WORKSHOP, "Carpenter Workshop", GREEN, 4, 3, 0, 1, STPETE_CARD_LUMBERJACK,              \
            CARPENTER_WORKSHOP, GREEN_TARGETS(STPETE_CARD_LUMBERJACK)),                                       \
    TRADING(GOLD_SMELTER, "Gold Smelter", GREEN, 6, 3, 0, 1, STPETE_CARD_GOLD_MINER, GOLD_SMELTER,           \
            GREEN_TARGETS(STPETE_CARD_GOLD_MINER)),                                                           \
    TRADING(WEAVING_MILL, "Weaving Mill", GREEN, 8, 6, 0, 2, STPETE_CARD_SHEPHERD, NONE,                      \
            GREEN_TARGETS(STPETE_CARD_SHEPHERD)),                                                             \
    TRADING(FUR_SHOP, "Fur Shop", GREEN, 10, 3, 2, 3, STPETE_CARD_FUR_TRAPPER, NONE,                          \
            GREEN_TARGETS(STPETE_CARD_FUR_TRAPPER)),                                                          \
    TRADING(WHARF, "Wharf", GREEN, 12, 6, 1, 3, STPETE_CARD_SHIP_BUILDER, NONE,                               \
            GREEN_TARGETS(STPETE_CARD_SHIP_BUILDER)),                                                         \
    /* §2.4 trading cards, blue, 10 */                                                                        \
    [STPETE_CARD_MARIINSKIJ_THEATER] = { .name = ED("Mariinskij-Theater", "Mariinsky Theater"),              \
                                         .name_len = sizeof(ED("Mariinskij-Theater", "Mariinsky Theater")) - 1, \
                                         .colour = STPETE_COLOUR_BLUE, .stack = STPETE_STACK_TRADING,         \
                                         .trading = 1, .cost = ED(10, 15),                                    \
                                         .copies = 1, .ware = NO_WARE,                                       \
                                         .special = ED(STPETE_SPECIAL_MARIINSKIJ_THEATER,                     \
                                                       STPETE_SPECIAL_MARIINSKY_THEATER_VP),                  \
                                         .value = ED(10, 15), .targets = BLUE_TARGETS },                      \
    TRADING(BANK, "Bank", BLUE, 13, 5, 1, 1, NO_WARE, NONE, BLUE_TARGETS),                                    \
    TRADING(PETERHOF, "Peterhof", BLUE, 14, 4, 2, 1, NO_WARE, NONE, BLUE_TARGETS),                            \
    TRADING(ST_ISAACS_CATHEDRAL, "St Isaac's Cathedral", BLUE, 15, 3, 3, 1, NO_WARE, NONE, BLUE_TARGETS),     \
    TRADING(CHURCH_OF_THE_RESURRECTION, "Church of the Resurrection of Jesus Christ", BLUE, 16, 2, 4, 1,      \
            NO_WARE, NONE, BLUE_TARGETS),                                                                     \
    TRADING(HARBOR, "Harbor", BLUE, 16, 5, 2, 1, NO_WARE, NONE, BLUE_TARGETS),                                \
    TRADING(CATHERINE_THE_GREAT_PALACE, "Catherine the Great Palace", BLUE, 17, 1, 5, 1, NO_WARE, NONE,       \
            BLUE_TARGETS),                                                                                    \
    TRADING(SMOLNY_CATHEDRAL, "Smolny Cathedral", BLUE, 17, 4, 3, 1, NO_WARE, NONE, BLUE_TARGETS),            \
    TRADING(HERMITAGE, "Hermitage", BLUE, 18, 3, 4, 1, NO_WARE, NONE, BLUE_TARGETS),                          \
    TRADING(WINTER_PALACE, "Winter Palace", BLUE, 19, 2, 5, 1, NO_WARE, NONE, BLUE_TARGETS),                  \
    /* §2.4 trading cards, orange, 10 */                                                                      \
    TRADING(POPE, ED("Pope", "Abbot"), ORANGE, 6, 1, 1, 1, NO_WARE, NONE, ORANGE_TARGETS),                    \
    TRADING(WEAPON_MASTER, "Weapon Master", ORANGE, 8, 4, 0, 1, NO_WARE, NONE, ORANGE_TARGETS),               \
    TRADING(CHAMBER_MAID, "Chamber Maid", ORANGE, 8, 0, 2, 1, NO_WARE, NONE, ORANGE_TARGETS),                 \
    TRADING(BUILDER, "Builder", ORANGE, 10, 5, 0, 1, NO_WARE, NONE, ORANGE_TARGETS),                          \
    TRADING(SENATOR, "Senator", ORANGE, 12, 2, 2, 1, NO_WARE, NONE, ORANGE_TARGETS),                          \
    TRADING(PATRIARCH, "Patriarch", ORANGE, 16, 0, 4, 1, NO_WARE, NONE, ORANGE_TARGETS),                      \
    TRADING(TAX_MAN, "Tax Man", ORANGE, 17, 0, 0, 1, NO_WARE, TAX_MAN, ORANGE_TARGETS),                       \
    TRADING(ADMIRAL, "Admiral", ORANGE, 18, 3, 3, 1, NO_WARE, NONE, ORANGE_TARGETS),                          \
    TRADING(MINISTER_OF_FOREIGN_AFFAIRS, "Minister of Foreign Affairs", ORANGE, 20, 2, 4, 1, NO_WARE, NONE,   \
            ORANGE_TARGETS),                                                                                  \
    TRADING(CZAR, ED("Czar", "Czarina"), ORANGE, 24, 0, 6, 1, NO_WARE, NONE, ORANGE_TARGETS)

/* [0] the first edition (§2), [1] the second-edition preset (§11). */
const card_def stpete_card_tables[2][STPETE_NUM_CARD_TYPES] = {
#define ED(first, second) first
    { CARD_TABLE },
#undef ED
#define ED(first, second) second
    { CARD_TABLE },
#undef ED
};

int stpete_variant_of(int card, int displaced)
{
    if (card < 0 || card >= STPETE_NUM_CARD_TYPES)
        return -1;
    if (card >= FIRST_TRADING &&
        (displaced < 0 || displaced >= STPETE_NUM_CARD_TYPES || !(stpete_shared_card(card)->targets >> displaced & 1u)))
        return -1;
    return stpete_variant_index(card, displaced);
}

void stpete_card_describe(const card_def *d, int card, stpete_card_info *out)
{
    out->struct_size = sizeof *out;
    out->name = d->name;
    out->colour = d->colour;
    out->trading = d->trading;
    out->cost = d->cost;
    out->rubles = d->rubles;
    out->vp = d->vp;
    out->copies = d->copies;
    out->ware = d->ware;
    out->special = d->special;
    out->stack = stpete_stack_of(card);
}

STPETE_API int stpete_card_get_info(int edition, int card, stpete_card_info *out)
{
    if (!out || card < 0 || card >= STPETE_NUM_CARD_TYPES || (edition != 1 && edition != 2))
        return STPETE_E_INVALID_ARGUMENT;
    stpete_card_info full = STPETE_CARD_INFO_INIT;
    stpete_card_describe(&stpete_card_tables[edition - 1][card], card, &full);
    return stpete_struct_out(out, &full, STPETE_CARD_INFO_SIZE_1_0, sizeof full);
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
    for (int e = 0; e < 2; e++) /* either edition's name (§11) */
        for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++) {
            const card_def *d = &stpete_card_tables[e][t];
            if (d->name_len == n && stpete_ascii_lower((unsigned char)d->name[0]) ==
                                        stpete_ascii_lower((unsigned char)text[0]) &&
                stpete_text_equals(d->name, text, n))
                return t;
        }
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

/* The non-trading types' costs and colours of both tables in lanes (facts.h; test_rules compares them with
 * stpete_card_tables): workers 0-5 green, buildings 6-16 blue, aristocrats 17-23 orange. */
#define PLAIN_BLUE 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
#define PLAIN_ORANGE 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
#define PLAIN_COSTS(observatory, judge, mistress) \
    3, 4, 5, 6, 7, 8, 5, 8, 11, 14, 17, 20, 23, 2, 1, 2, observatory, 4, 7, 10, 12, 14, judge, mistress
#if defined(__GNUC__) || defined(__clang__)
__attribute__((aligned(16)))
#endif
const card_lanes stpete_card_lanes[2] = {
    { { PLAIN_COSTS(6, 16, 18) }, { PLAIN_BLUE }, { PLAIN_ORANGE } },
    { { PLAIN_COSTS(7, 17, 20) }, { PLAIN_BLUE }, { PLAIN_ORANGE } },
};
