/* The card catalogue of §2, §11 and §12.2 as one data table (cards.h), with a card's public description and its
 * lookup by name; the displacement variants of §6.2 are the action encoding's (actions.c). */
#include <string.h>

#include "facts/facts.h"

/* Displacement targets (§6.2, R8): a green trading card the worker of its ware or Czar and Carpenter; a blue one
 * any building that is not a trading card; an orange one any aristocrat that is not a trading card. With the New
 * Society (§12.6, R28) the blue and orange ones also take its new buildings and the Sycophant. */
#define BIT(t) (UINT64_C(1) << (t))
#define GREEN_TARGETS(ware_) (BIT(ware_) | BIT(STPETE_CARD_CZAR_AND_CARPENTER))
#define BLUE_TARGETS (((UINT64_C(1) << NUM_BUILDINGS) - 1) << FIRST_BUILDING)
#define ORANGE_TARGETS (((UINT64_C(1) << NUM_ARISTOCRATS) - 1) << FIRST_ARISTOCRAT)
#define NEW_BUILDINGS (BIT(STPETE_CARD_COFFEE_HOUSE) | BIT(STPETE_CARD_DEBTORS_PRISON) | BIT(STPETE_CARD_TRADING_HOUSE))
#define BLUE_TARGETS_NS (BLUE_TARGETS | NEW_BUILDINGS)
#define ORANGE_TARGETS_NS (ORANGE_TARGETS | BIT(STPETE_CARD_SYCOPHANT))
#define ALL_WORKERS (((UINT64_C(1) << FIRST_BUILDING) - 1) | BIT(STPETE_CARD_NEW_FARMER))

/* The stack of each colour's cards that are not trading cards (§1, §2.1-§2.3: workers, buildings, aristocrats). */
#define STACK_OF_GREEN STPETE_STACK_WORKER
#define STACK_OF_BLUE STPETE_STACK_BUILDING
#define STACK_OF_ORANGE STPETE_STACK_ARISTOCRAT

/* One row of §2.1-§2.3 (value = cost: what a displacing trading card deducts, §5.2) or of §2.4. */
#define CARD(id, name_, colour_, cost_, rubles_, vp_, copies_, ware_, special_, weaving_)                    \
    [STPETE_CARD_##id] = { .name = name_, .name_len = sizeof(name_) - 1, .colour = STPETE_COLOUR_##colour_,  \
                           .stack = STACK_OF_##colour_, .trading = 0, .cost = cost_,                       \
                           .rubles = rubles_, .vp = vp_, .copies = copies_, .ware = ware_,                 \
                           .special = STPETE_SPECIAL_##special_, .value = cost_, .weaving = weaving_,      \
                           .targets = 0 }
#define TRADING(id, name_, colour_, cost_, rubles_, vp_, copies_, ware_, special_, targets_, weaving_)      \
    [STPETE_CARD_##id] = { .name = name_, .name_len = sizeof(name_) - 1, .colour = STPETE_COLOUR_##colour_,  \
                           .stack = STPETE_STACK_TRADING, .trading = 1, .cost = cost_,                     \
                           .rubles = rubles_, .vp = vp_, .copies = copies_, .ware = ware_,                 \
                           .special = STPETE_SPECIAL_##special_, .value = cost_, .weaving = weaving_,      \
                           .targets = targets_ }
#define NO_WARE (-1)
#define W WEAVING_ALWAYS

/* The two rows of CARD_TABLE whose fields differ from CARD()'s pattern (the name or the special changes with the
 * edition, §11; Potjomkin's Village's value, §7.4, R7), and which earn nothing at a scoring. */
#define POTJOMKINS_VILLAGE_ROW                                                                                \
    [STPETE_CARD_POTJOMKINS_VILLAGE] = { .name = ED("Potjomkin's Village", "Potemkin Village",                \
                                                    "Potjomkin's Village"),                                   \
                                         .name_len = sizeof(ED("Potjomkin's Village", "Potemkin Village",     \
                                                               "Potjomkin's Village")) - 1,                   \
                                         .colour = STPETE_COLOUR_BLUE, .stack = STPETE_STACK_BUILDING,        \
                                         .cost = 2, .copies = 1, .ware = NO_WARE,                             \
                                         .special = STPETE_SPECIAL_POTJOMKINS_VILLAGE,                        \
                                         .value = 6 /* §7.4, R7 */ }
#define MARIINSKIJ_THEATER_ROW                                                                                \
    [STPETE_CARD_MARIINSKIJ_THEATER] = { .name = ED("Mariinskij-Theater", "Mariinsky Theater",               \
                                                    "Mariinskij-Theater"),                                    \
                                         .name_len = sizeof(ED("Mariinskij-Theater", "Mariinsky Theater",    \
                                                               "Mariinskij-Theater")) - 1,                    \
                                         .colour = STPETE_COLOUR_BLUE, .stack = STPETE_STACK_TRADING,         \
                                         .trading = 1, .cost = ED(10, 15, 20),                                \
                                         .copies = 1, .ware = NO_WARE,                                       \
                                         .special = ED(STPETE_SPECIAL_MARIINSKIJ_THEATER,                     \
                                                       STPETE_SPECIAL_MARIINSKY_THEATER_VP,                   \
                                                       STPETE_SPECIAL_MARIINSKY_THEATER_VP),                  \
                                         .value = ED(10, 15, 20),                                             \
                                         .targets = ED(BLUE_TARGETS, BLUE_TARGETS, BLUE_TARGETS_NS) }

/* Exactly the tables of §2.1-§2.4 and §12.2: name, colour, cost, R, VP, copies, ware, special (, targets), weaving
 * symbol; ED(first, second, ns) is the value of the first edition (2004), of the second-edition preset (§11: four
 * card changes, four names) or of the first edition with the New Society (§12.2.1 replaced types, §12.2.2 extra
 * copies, §12.2.3 new types: 0 copies in the other two). With the New Society the Mariinskij-Theater keeps its
 * first-edition name (BGA calls it "Mariinski Theater"): one name per card in the action strings of edition 1. */
#define CARD_TABLE                                                                                            \
    /* §2.1 workers, 31 */                                                                                    \
    CARD(LUMBERJACK, "Lumberjack", GREEN, 3, 3, 0, 6, STPETE_CARD_LUMBERJACK, NONE, 0),                       \
    CARD(GOLD_MINER, "Gold Miner", GREEN, 4, 3, 0, 6, STPETE_CARD_GOLD_MINER, NONE, 0),                       \
    CARD(SHEPHERD, "Shepherd", GREEN, 5, 3, 0, 6, STPETE_CARD_SHEPHERD, NONE, W),                             \
    CARD(FUR_TRAPPER, "Fur Trapper", GREEN, 6, 3, 0, 6, STPETE_CARD_FUR_TRAPPER, NONE, 0),                    \
    CARD(SHIP_BUILDER, "Ship Builder", GREEN, 7, 3, 0, 6, STPETE_CARD_SHIP_BUILDER, NONE, 0),                 \
    CARD(CZAR_AND_CARPENTER, "Czar and Carpenter", GREEN, ED(8, 8, 3), ED(3, 3, 2), 0, 1, NO_WARE,            \
         CZAR_AND_CARPENTER, W),                                                                              \
    /* §2.2 buildings, 28 */                                                                                  \
    CARD(MARKET, "Market", BLUE, 5, 0, 1, 5, NO_WARE, NONE, 0),                                               \
    CARD(CUSTOMS_HOUSE, "Customs House", BLUE, 8, 0, 2, 5, NO_WARE, NONE, 0),                                 \
    CARD(FIREHOUSE, "Firehouse", BLUE, 11, 0, 3, ED(3, 3, 5), NO_WARE, NONE, 0),                              \
    CARD(HOSPITAL, "Hospital", BLUE, 14, 0, 4, ED(3, 3, 4), NO_WARE, NONE, 0),                                \
    CARD(LIBRARY, "Library", BLUE, 17, 0, 5, 3, NO_WARE, NONE, 0),                                            \
    CARD(THEATER, "Theater", BLUE, 20, 0, 6, 2, NO_WARE, NONE, 0),                                            \
    CARD(ACADEMY, "Academy", BLUE, ED(23, 23, 25), 0, ED(7, 7, 9), 1, NO_WARE, NONE, 0),                      \
    POTJOMKINS_VILLAGE_ROW,                                                                                   \
    CARD(PUB, "Pub", BLUE, 1, 0, 0, 2, NO_WARE, PUB, 0),                                                      \
    CARD(WAREHOUSE, "Warehouse", BLUE, 2, 0, 0, 1, NO_WARE, WAREHOUSE, 0),                                    \
    CARD(OBSERVATORY, "Observatory", BLUE, ED(6, 7, 8), 0, 1, 2, NO_WARE, OBSERVATORY, 0),                    \
    /* §2.3 aristocrats, 27 */                                                                                \
    CARD(AUTHOR, "Author", ORANGE, 4, 1, 0, 6, NO_WARE, NONE, 0),                                             \
    CARD(ADMINISTRATOR, "Administrator", ORANGE, 7, 2, 0, ED(5, 5, 6), NO_WARE, NONE, 0),                     \
    CARD(WAREHOUSE_MANAGER, "Warehouse Manager", ORANGE, 10, 3, 0, ED(5, 5, 6), NO_WARE, NONE, 0),            \
    CARD(SECRETARY, "Secretary", ORANGE, 12, 4, 0, ED(4, 4, 5), NO_WARE, NONE, 0),                            \
    CARD(CONTROLLER, "Controller", ORANGE, 14, 4, 1, ED(3, 3, 4), NO_WARE, NONE, 0),                          \
    CARD(JUDGE, "Judge", ORANGE, ED(16, 17, 16), 5, 2, ED(2, 2, 3), NO_WARE, NONE, 0),                        \
    CARD(MISTRESS_OF_CEREMONIES, "Mistress of Ceremonies", ORANGE, ED(18, 20, 18), ED(6, 6, 3), ED(3, 3, 4),  \
         2, NO_WARE, NONE, 0),                                                                                \
    /* §2.4 trading cards, green, 10 */                                                                       \
    TRADING(CARPENTER_WORKSHOP, "Carpenter Workshop", GREEN, 4, 3, 0, 1, STPETE_CARD_LUMBERJACK,              \
            CARPENTER_WORKSHOP, GREEN_TARGETS(STPETE_CARD_LUMBERJACK), 0),                                    \
    TRADING(GOLD_SMELTER, "Gold Smelter", GREEN, 6, 3, 0, 1, STPETE_CARD_GOLD_MINER, GOLD_SMELTER,           \
            GREEN_TARGETS(STPETE_CARD_GOLD_MINER), 0),                                                        \
    TRADING(WEAVING_MILL, "Weaving Mill", GREEN, 8, 6, 0, 2, STPETE_CARD_SHEPHERD, NONE,                      \
            GREEN_TARGETS(STPETE_CARD_SHEPHERD), W),                                                          \
    TRADING(FUR_SHOP, "Fur Shop", GREEN, 10, 3, 2, 3, STPETE_CARD_FUR_TRAPPER, NONE,                          \
            GREEN_TARGETS(STPETE_CARD_FUR_TRAPPER), 0),                                                       \
    TRADING(WHARF, "Wharf", GREEN, 12, 6, 1, ED(3, 3, 4), STPETE_CARD_SHIP_BUILDER, NONE,                     \
            GREEN_TARGETS(STPETE_CARD_SHIP_BUILDER), 0),                                                      \
    /* §2.4 trading cards, blue, 10 */                                                                        \
    MARIINSKIJ_THEATER_ROW,                                                                                   \
    TRADING(BANK, "Bank", BLUE, 13, 5, 1, 1, NO_WARE, NONE, BLUE_T, 0),                                       \
    TRADING(PETERHOF, "Peterhof", BLUE, 14, 4, 2, 1, NO_WARE, NONE, BLUE_T, 0),                               \
    TRADING(ST_ISAACS_CATHEDRAL, "St Isaac's Cathedral", BLUE, 15, 3, 3, 1, NO_WARE, NONE, BLUE_T, 0),        \
    TRADING(CHURCH_OF_THE_RESURRECTION, "Church of the Resurrection of Jesus Christ", BLUE, 16, 2, 4, 1,      \
            NO_WARE, NONE, BLUE_T, 0),                                                                        \
    TRADING(HARBOR, "Harbor", BLUE, 16, 5, 2, 1, NO_WARE, NONE, BLUE_T, 0),                                   \
    TRADING(CATHERINE_THE_GREAT_PALACE, "Catherine the Great Palace", BLUE, 17, 1, 5, 1, NO_WARE, NONE,       \
            BLUE_T, 0),                                                                                       \
    TRADING(SMOLNY_CATHEDRAL, "Smolny Cathedral", BLUE, 17, 4, 3, 1, NO_WARE, NONE, BLUE_T, 0),               \
    TRADING(HERMITAGE, "Hermitage", BLUE, 18, 3, 4, 1, NO_WARE, NONE, BLUE_T, 0),                             \
    TRADING(WINTER_PALACE, "Winter Palace", BLUE, 19, 2, 5, 1, NO_WARE, NONE, BLUE_T, 0),                     \
    /* §2.4 trading cards, orange, 10 */                                                                      \
    TRADING(POPE, ED("Pope", "Abbot", "Pope"), ORANGE, 6, 1, 1, 1, NO_WARE, NONE, ORANGE_T, 0),               \
    TRADING(WEAPON_MASTER, "Weapon Master", ORANGE, 8, 4, 0, 1, NO_WARE, NONE, ORANGE_T, 0),                  \
    TRADING(CHAMBER_MAID, "Chamber Maid", ORANGE, 8, 0, 2, 1, NO_WARE, NONE, ORANGE_T, 0),                    \
    TRADING(BUILDER, "Builder", ORANGE, 10, 5, 0, 1, NO_WARE, NONE, ORANGE_T, 0),                             \
    TRADING(SENATOR, "Senator", ORANGE, 12, 2, 2, 1, NO_WARE, NONE, ORANGE_T, 0),                             \
    TRADING(PATRIARCH, "Patriarch", ORANGE, 16, 0, 4, 1, NO_WARE, NONE, ORANGE_T, 0),                         \
    TRADING(TAX_MAN, "Tax Man", ORANGE, 17, 0, 0, 1, NO_WARE, TAX_MAN, ORANGE_T, 0),                          \
    TRADING(ADMIRAL, "Admiral", ORANGE, 18, 3, 3, 1, NO_WARE, NONE, ORANGE_T, 0),                             \
    TRADING(MINISTER_OF_FOREIGN_AFFAIRS, "Minister of Foreign Affairs", ORANGE, 20, 2, 4, 1, NO_WARE, NONE,   \
            ORANGE_T, 0),                                                                                     \
    TRADING(CZAR, ED("Czar", "Czarina", "Czar"), ORANGE, 24, 0, 6, 1, NO_WARE, NONE, ORANGE_T, 0),            \
    /* §12.2.3 the New Society's new card types (no copies without it) */                                     \
    CARD(NEW_FARMER, "New Farmer", GREEN, 9, 3, 1, ED(0, 0, 6), STPETE_CARD_NEW_FARMER, NONE, 0),             \
    CARD(COFFEE_HOUSE, "Coffee House", BLUE, 6, 0, 0, ED(0, 0, 1), NO_WARE, COFFEE_HOUSE, 0),                 \
    CARD(DEBTORS_PRISON, "Debtor's Prison", BLUE, 8, 0, 1, ED(0, 0, 1), NO_WARE, DEBTORS_PRISON, 0),          \
    CARD(TRADING_HOUSE, "Trading House", BLUE, 2, 0, 0, ED(0, 0, 1), NO_WARE, TRADING_HOUSE, 0),              \
    CARD(SYCOPHANT, "Sycophant", ORANGE, 1, -1, 0, ED(0, 0, 2), NO_WARE, SYCOPHANT, 0),                       \
    TRADING(OBSHCHINA_COMMUNE, "Obshchina Commune", GREEN, 13, 3, 2, ED(0, 0, 1), STPETE_CARD_NEW_FARMER,     \
            OBSHCHINA_COMMUNE, GREEN_TARGETS(STPETE_CARD_NEW_FARMER), 0),                                     \
    TRADING(NEW_SOCIETY, "New Society", GREEN, 15, 6, 2, ED(0, 0, 1), NO_WARE, NEW_SOCIETY, ALL_WORKERS,      \
            WEAVING_BY_DEFAULT),                                                                              \
    TRADING(ST_PETERSBURG_UNIVERSITY, "St Petersburg University", BLUE, 18, 0, 6, ED(0, 0, 1), NO_WARE, NONE, \
            BLUE_TARGETS_NS, 0),                                                                              \
    TRADING(GUILD_HALL, "Guild Hall", BLUE, 13, 0, 0, ED(0, 0, 1), NO_WARE, GUILD_HALL, BLUE_TARGETS_NS, 0),  \
    TRADING(TEXTILE_FACTORY, "Textile Factory", BLUE, 16, 0, 0, ED(0, 0, 1), NO_WARE, TEXTILE_FACTORY,        \
            BLUE_TARGETS_NS, 0),                                                                              \
    TRADING(MERCHANT, "Merchant", ORANGE, 6, 3, 0, ED(0, 0, 1), NO_WARE, NONE, ORANGE_TARGETS_NS, 0),         \
    TRADING(LT_KIJE, "Lt. Kije", ORANGE, 12, 0, 3, ED(0, 0, 1), NO_WARE, NONE, ORANGE_TARGETS_NS, 0),         \
    TRADING(MAYOR, "Mayor", ORANGE, 13, 0, 0, ED(0, 0, 1), NO_WARE, MAYOR, ORANGE_TARGETS_NS, 0)

#define BLUE_T ED(BLUE_TARGETS, BLUE_TARGETS, BLUE_TARGETS_NS)
#define ORANGE_T ED(ORANGE_TARGETS, ORANGE_TARGETS, ORANGE_TARGETS_NS)

/* [0] the first edition (§2), [1] the second-edition preset (§11), [2] the first edition with the New Society
 * (§12.2). */
const card_def stpete_card_tables[3][CARD_TYPES_ALL] = {
#define ED(first, second, ns) first
    { CARD_TABLE },
#undef ED
#define ED(first, second, ns) second
    { CARD_TABLE },
#undef ED
#define ED(first, second, ns) ns
    { CARD_TABLE },
#undef ED
};

/* The same CARD_TABLE once more, each row reduced to its income at a scoring (§2, §4.4): stpete_card_income. */
#undef CARD
#undef TRADING
#undef POTJOMKINS_VILLAGE_ROW
#undef MARIINSKIJ_THEATER_ROW
#define CARD(id, name_, colour_, cost_, rubles_, vp_, ...) [STPETE_CARD_##id] = STPETE_INCOME(rubles_, vp_)
#define TRADING(id, name_, colour_, cost_, rubles_, vp_, ...) [STPETE_CARD_##id] = STPETE_INCOME(rubles_, vp_)
#define POTJOMKINS_VILLAGE_ROW [STPETE_CARD_POTJOMKINS_VILLAGE] = STPETE_INCOME(0, 0)
#define MARIINSKIJ_THEATER_ROW [STPETE_CARD_MARIINSKIJ_THEATER] = STPETE_INCOME(0, 0)
const int32_t stpete_card_income[3][DISPLAY_CAP] = {
#define ED(first, second, ns) first
    { CARD_TABLE },
#undef ED
#define ED(first, second, ns) second
    { CARD_TABLE },
#undef ED
#define ED(first, second, ns) ns
    { CARD_TABLE },
#undef ED
};

void stpete_cards_describe(const card_def *d, int card, stpete_card_info *out)
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
    out->stack = stpete_cards_stack(card);
}

STPETE_API int stpete_card_get_info(int edition, int card, stpete_card_info *out)
{
    if (!out || card < 0 || card >= STPETE_NUM_CARD_TYPES || (edition != 1 && edition != 2))
        return STPETE_E_INVALID_ARGUMENT;
    stpete_card_info full = STPETE_CARD_INFO_INIT;
    stpete_cards_describe(&stpete_card_tables[edition - 1][card], card, &full);
    return stpete_struct_out(out, &full, STPETE_CARD_INFO_SIZE_1_0, sizeof full);
}

int stpete_cards_lookup(const char *text, size_t n)
{
    for (int e = 0; e < 2; e++) /* either edition's name (§11); the New Society's are the first edition's */
        for (int t = 0; t < CARD_TYPES_ALL; t++) {
            const card_def *d = &stpete_card_tables[e][t];
            if (d->name_len == n && stpete_bytes_ascii_lower((unsigned char)d->name[0]) ==
                                        stpete_bytes_ascii_lower((unsigned char)text[0]) &&
                stpete_bytes_text_equals(d->name, text, n))
                return t;
        }
    return -1;
}

STPETE_API int stpete_card_from_name(const char *name, int *card)
{
    if (!name || !card)
        return STPETE_E_INVALID_ARGUMENT;
    int t = stpete_cards_lookup(name, strlen(name));
    if (t < 0)
        return STPETE_E_PARSE;
    *card = t;
    return STPETE_OK;
}

/* The non-trading types' costs, colours and values of the three tables in lanes (cards.h; tests/lib/rules/card_tables.c
 * compares them with stpete_card_tables): workers 0-5 green, buildings 6-16 blue, aristocrats 17-23 orange. The
 * arguments are the costs that differ between the tables (the Czar and Carpenter, the Academy, the Observatory, the
 * Judge, the Mistress of Ceremonies). */
#define PLAIN_BLUE 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
#define PLAIN_GREEN 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
#define PLAIN_ORANGE 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
#define PLAIN_COSTS(czar, academy, observatory, judge, mistress) \
    3, 4, 5, 6, 7, czar, 5, 8, 11, 14, 17, 20, academy, 2, 1, 2, observatory, 4, 7, 10, 12, 14, judge, mistress
/* The values: the costs, but Potjomkin's Village's 6 (§7.4, R7). */
#define PLAIN_VALUES(czar, academy, observatory, judge, mistress) \
    3, 4, 5, 6, 7, czar, 5, 8, 11, 14, 17, 20, academy, 6, 1, 2, observatory, 4, 7, 10, 12, 14, judge, mistress
#define PLAIN_LANES(...) { { PLAIN_COSTS(__VA_ARGS__) }, { PLAIN_BLUE }, { PLAIN_ORANGE }, { PLAIN_GREEN }, \
                           { PLAIN_VALUES(__VA_ARGS__) } }
#if defined(__GNUC__) || defined(__clang__)
__attribute__((aligned(16)))
#endif
const card_lanes stpete_card_lanes[3] = {
    PLAIN_LANES(8, 23, 6, 16, 18), /* the first edition (§2) */
    PLAIN_LANES(8, 23, 7, 17, 20), /* the second-edition preset (§11) */
    PLAIN_LANES(3, 25, 8, 16, 18), /* the New Society's (§12.2) */
};
