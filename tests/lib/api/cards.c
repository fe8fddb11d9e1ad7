/* Public-API tests, the §2 card table through the public API (stpete_card_get_info, names in both editions), bad input.
 * Part of the program 'api' (main.c); links the shared library and uses only the public headers. */
#include "api_tests.h"

/* ---- cards (§2) -------------------------------------------------------------------------------- */

/* The tables of §2.1–§2.4 of the rules specification, transcribed independently of lib/cards.c. */
static const struct {
    const char *name;
    int colour, trading, copies, cost, rubles, vp;
} spec_cards[STPETE_NUM_CARD_TYPES] = {
    { "Lumberjack", 0, 0, 6, 3, 3, 0 },
    { "Gold Miner", 0, 0, 6, 4, 3, 0 },
    { "Shepherd", 0, 0, 6, 5, 3, 0 },
    { "Fur Trapper", 0, 0, 6, 6, 3, 0 },
    { "Ship Builder", 0, 0, 6, 7, 3, 0 },
    { "Czar and Carpenter", 0, 0, 1, 8, 3, 0 },
    { "Market", 1, 0, 5, 5, 0, 1 },
    { "Customs House", 1, 0, 5, 8, 0, 2 },
    { "Firehouse", 1, 0, 3, 11, 0, 3 },
    { "Hospital", 1, 0, 3, 14, 0, 4 },
    { "Library", 1, 0, 3, 17, 0, 5 },
    { "Theater", 1, 0, 2, 20, 0, 6 },
    { "Academy", 1, 0, 1, 23, 0, 7 },
    { "Potjomkin's Village", 1, 0, 1, 2, 0, 0 },
    { "Pub", 1, 0, 2, 1, 0, 0 },
    { "Warehouse", 1, 0, 1, 2, 0, 0 },
    { "Observatory", 1, 0, 2, 6, 0, 1 },
    { "Author", 2, 0, 6, 4, 1, 0 },
    { "Administrator", 2, 0, 5, 7, 2, 0 },
    { "Warehouse Manager", 2, 0, 5, 10, 3, 0 },
    { "Secretary", 2, 0, 4, 12, 4, 0 },
    { "Controller", 2, 0, 3, 14, 4, 1 },
    { "Judge", 2, 0, 2, 16, 5, 2 },
    { "Mistress of Ceremonies", 2, 0, 2, 18, 6, 3 },
    { "Carpenter Workshop", 0, 1, 1, 4, 3, 0 },
    { "Gold Smelter", 0, 1, 1, 6, 3, 0 },
    { "Weaving Mill", 0, 1, 2, 8, 6, 0 },
    { "Fur Shop", 0, 1, 3, 10, 3, 2 },
    { "Wharf", 0, 1, 3, 12, 6, 1 },
    { "Mariinskij-Theater", 1, 1, 1, 10, 0, 0 },
    { "Bank", 1, 1, 1, 13, 5, 1 },
    { "Peterhof", 1, 1, 1, 14, 4, 2 },
    { "St Isaac's Cathedral", 1, 1, 1, 15, 3, 3 },
    { "Church of the Resurrection of Jesus Christ", 1, 1, 1, 16, 2, 4 },
    { "Harbor", 1, 1, 1, 16, 5, 2 },
    { "Catherine the Great Palace", 1, 1, 1, 17, 1, 5 },
    { "Smolny Cathedral", 1, 1, 1, 17, 4, 3 },
    { "Hermitage", 1, 1, 1, 18, 3, 4 },
    { "Winter Palace", 1, 1, 1, 19, 2, 5 },
    { "Pope", 2, 1, 1, 6, 1, 1 },
    { "Weapon Master", 2, 1, 1, 8, 4, 0 },
    { "Chamber Maid", 2, 1, 1, 8, 0, 2 },
    { "Builder", 2, 1, 1, 10, 5, 0 },
    { "Senator", 2, 1, 1, 12, 2, 2 },
    { "Patriarch", 2, 1, 1, 16, 0, 4 },
    { "Tax Man", 2, 1, 1, 17, 0, 0 },
    { "Admiral", 2, 1, 1, 18, 3, 3 },
    { "Minister of Foreign Affairs", 2, 1, 1, 20, 2, 4 },
    { "Czar", 2, 1, 1, 24, 0, 6 },
};

/* The green trading cards' wares (§2.4) and the special cards (§7) of the card table. */
static void check_wares_and_specials(void)
{
    /* green trading wares (§2.4) and the specials (§7) */
    static const int ware_of[][2] = {
        { STPETE_CARD_CARPENTER_WORKSHOP, STPETE_CARD_LUMBERJACK },
        { STPETE_CARD_GOLD_SMELTER, STPETE_CARD_GOLD_MINER },
        { STPETE_CARD_WEAVING_MILL, STPETE_CARD_SHEPHERD },
        { STPETE_CARD_FUR_SHOP, STPETE_CARD_FUR_TRAPPER },
        { STPETE_CARD_WHARF, STPETE_CARD_SHIP_BUILDER },
    };
    for (size_t i = 0; i < sizeof ware_of / sizeof ware_of[0]; i++) {
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        assert_int_equal(stpete_card_get_info(STPETE_EDITION_FIRST, ware_of[i][0], &info), STPETE_OK);
        assert_int_equal(info.ware, ware_of[i][1]);
    }
    static const int special_of[][2] = {
        { STPETE_CARD_OBSERVATORY, STPETE_SPECIAL_OBSERVATORY },
        { STPETE_CARD_PUB, STPETE_SPECIAL_PUB },
        { STPETE_CARD_WAREHOUSE, STPETE_SPECIAL_WAREHOUSE },
        { STPETE_CARD_POTJOMKINS_VILLAGE, STPETE_SPECIAL_POTJOMKINS_VILLAGE },
        { STPETE_CARD_MARIINSKIJ_THEATER, STPETE_SPECIAL_MARIINSKIJ_THEATER },
        { STPETE_CARD_TAX_MAN, STPETE_SPECIAL_TAX_MAN },
        { STPETE_CARD_CARPENTER_WORKSHOP, STPETE_SPECIAL_CARPENTER_WORKSHOP },
        { STPETE_CARD_GOLD_SMELTER, STPETE_SPECIAL_GOLD_SMELTER },
        { STPETE_CARD_CZAR_AND_CARPENTER, STPETE_SPECIAL_CZAR_AND_CARPENTER },
    };
    int specials = 0;
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++) {
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        assert_int_equal(stpete_card_get_info(STPETE_EDITION_FIRST, t, &info), STPETE_OK);
        int want = STPETE_SPECIAL_NONE;
        for (size_t i = 0; i < sizeof special_of / sizeof special_of[0]; i++)
            if (special_of[i][0] == t)
                want = special_of[i][1];
        assert_int_equal(info.special, want);
        specials += info.special != STPETE_SPECIAL_NONE;
    }
    assert_int_equal(specials, 9);
}

static void test_card_table(void **unused)
{
    (void)unused;
    assert_int_equal(STPETE_NUM_CARD_TYPES, 49);
    int total = 0, per_stack[4] = { 0 }, per_trading_colour[3] = { 0 }, types = 0;
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++) {
        stpete_card_info info;
        memset(&info, 0x55, sizeof info);
        info.struct_size = sizeof info;
        assert_int_equal(stpete_card_get_info(STPETE_EDITION_FIRST, t, &info), STPETE_OK);
        assert_non_null(info.name);
        assert_string_equal(info.name, spec_cards[t].name);
        assert_ptr_equal(tg_card_name(STPETE_EDITION_FIRST, t), info.name);
        assert_int_equal(info.colour, spec_cards[t].colour);
        assert_int_equal(info.trading, spec_cards[t].trading);
        assert_int_equal(info.copies, spec_cards[t].copies);
        assert_int_equal(info.cost, spec_cards[t].cost);
        assert_int_equal(info.rubles, spec_cards[t].rubles);
        assert_int_equal(info.vp, spec_cards[t].vp);
        /* ware: workers and green trading cards have one (Czar and Carpenter: "any", §6.2), others -1 */
        if (info.colour == STPETE_COLOUR_GREEN && t != STPETE_CARD_CZAR_AND_CARPENTER) {
            assert_true(info.ware >= STPETE_CARD_LUMBERJACK && info.ware <= STPETE_CARD_SHIP_BUILDER);
            if (!info.trading)
                assert_int_equal(info.ware, t);
        } else if (info.colour != STPETE_COLOUR_GREEN) {
            assert_int_equal(info.ware, -1);
        }
        assert_true(info.special >= STPETE_SPECIAL_NONE && info.special <= STPETE_SPECIAL_CZAR_AND_CARPENTER);
        total += info.copies;
        /* the card table's stack (§1, §2): a trading card's is the trading stack, any other its colour's */
        assert_int_equal(tg_card_stack(t), info.trading ? STPETE_STACK_TRADING : info.colour);
        per_stack[tg_card_stack(t)] += info.copies;
        if (info.trading)
            per_trading_colour[info.colour] += info.copies;
        types++;
    }
    assert_int_equal(types, 49);
    assert_int_equal(total, STPETE_NUM_CARDS);
    assert_int_equal(total, 116);
    assert_int_equal(per_stack[STPETE_STACK_WORKER], 31);
    assert_int_equal(per_stack[STPETE_STACK_BUILDING], 28);
    assert_int_equal(per_stack[STPETE_STACK_ARISTOCRAT], 27);
    assert_int_equal(per_stack[STPETE_STACK_TRADING], 30);
    assert_int_equal(tg_card_stack(-1), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(tg_card_stack(STPETE_NUM_CARD_TYPES), STPETE_E_INVALID_ARGUMENT);
    for (int c = 0; c < 3; c++)
        assert_int_equal(per_trading_colour[c], 10);

    check_wares_and_specials();
}

static void test_card_names(void **unused)
{
    (void)unused;
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++) {
        const char *name = tg_card_name(STPETE_EDITION_FIRST, t);
        assert_non_null(name);
        int back = -1;
        assert_int_equal(stpete_card_from_name(name, &back), STPETE_OK);
        assert_int_equal(back, t);
        /* case-insensitive: all upper, all lower */
        char up[96], low[96];
        size_t len = strlen(name);
        assert_true(len < sizeof up);
        for (size_t i = 0; i <= len; i++) {
            up[i] = (char)((name[i] >= 'a' && name[i] <= 'z') ? name[i] - 32 : name[i]);
            low[i] = (char)((name[i] >= 'A' && name[i] <= 'Z') ? name[i] + 32 : name[i]);
        }
        back = -1;
        assert_int_equal(stpete_card_from_name(up, &back), STPETE_OK);
        assert_int_equal(back, t);
        back = -1;
        assert_int_equal(stpete_card_from_name(low, &back), STPETE_OK);
        assert_int_equal(back, t);
        /* names are unique */
        for (int u = 0; u < t; u++)
            assert_string_not_equal(name, tg_card_name(STPETE_EDITION_FIRST, u));
    }
    int card = -1;
    assert_int_equal(stpete_card_from_name("potjomkin's village", &card), STPETE_OK);
    assert_int_equal(card, STPETE_CARD_POTJOMKINS_VILLAGE);
    assert_int_equal(stpete_card_from_name("CZAR", &card), STPETE_OK);
    assert_int_equal(card, STPETE_CARD_CZAR);

    /* failures leave *card alone */
    static const char *const bad[] = { "", "Marke", "Markets", "Market ", " Market", "Czar and", "Potjomkins Village",
                                       "pass", "\xff\xfe" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        card = 12345;
        assert_int_equal(stpete_card_from_name(bad[i], &card), STPETE_E_PARSE);
        assert_int_equal(card, 12345);
    }
    assert_int_equal(stpete_card_from_name(NULL, &card), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_card_from_name("Market", NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(card, 12345);
}

static void test_card_bad_input(void **unused)
{
    (void)unused;
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    assert_int_equal(stpete_card_get_info(STPETE_EDITION_FIRST, 0, NULL), STPETE_E_INVALID_ARGUMENT);
    static const int bad[] = { -1, STPETE_NUM_CARD_TYPES, 50, 1000, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(stpete_card_get_info(STPETE_EDITION_FIRST, bad[i], &info), STPETE_E_INVALID_ARGUMENT);
        assert_null(tg_card_name(STPETE_EDITION_FIRST, bad[i]));
    }
}

TEST_GROUP(api_cards,
    cmocka_unit_test(test_card_table),
    cmocka_unit_test(test_card_names),
    cmocka_unit_test(test_card_bad_input));
