/* Public-API tests (links the shared library, uses only include/stpete/stpete.h): bad input on every entry point,
 * status codes, version, the §2 card table, the action encoding, options validation, life cycle (clone, copy,
 * reset, allocator), determinism, and the "a failing call never modifies the state" contract. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stpete/bots.h"
#include "stpete/stpete.h"

/* ---- helpers ----------------------------------------------------------------------------------- */

#include "test_game.h"
#include "test_rng.h"

/* Play random legal actions until the game ends; returns the number of moves. */
static int play_to_end(stpete_state *st, uint64_t rng_seed)
{
    uint64_t rng = rng_seed;
    int moves = 0;
    while (!tg_is_terminal(st)) {
        step_random(st, &rng);
        moves++;
        assert_true(moves < 5000);
    }
    return moves;
}

/* Play until the current decision is `want` (or the game ends); returns 1 if reached. */
static int play_until_decision(stpete_state *st, int want, uint64_t *rng)
{
    int moves = 0;
    while (!tg_is_terminal(st)) {
        if (stpete_state_decision(st) == want)
            return 1;
        step_random(st, rng);
        assert_true(++moves < 5000);
    }
    return want == STPETE_DECISION_GAME_OVER;
}

/* ---- library: version, status codes ------------------------------------------------------------ */

static void test_version(void **unused)
{
    (void)unused;
    assert_non_null(stpete_version());
    assert_string_equal(stpete_version(), STPETE_VERSION_STRING);
    assert_int_equal(stpete_version_number(), STPETE_VERSION_NUMBER);
    char buf[32];
    snprintf(buf, sizeof buf, "%d.%d.%d", STPETE_VERSION_MAJOR, STPETE_VERSION_MINOR, STPETE_VERSION_PATCH);
    assert_string_equal(stpete_version(), buf);
    assert_int_equal(STPETE_VERSION_NUMBER,
                     STPETE_VERSION_MAJOR * 10000 + STPETE_VERSION_MINOR * 100 + STPETE_VERSION_PATCH);
    assert_int_equal(stpete_num_distinct_actions(), STPETE_NUM_DISTINCT_ACTIONS);
    assert_int_equal(STPETE_NUM_DISTINCT_ACTIONS, 972);
    assert_int_equal(STPETE_ACTION_ENCODING_VERSION, 1);
}

static void test_strerror(void **unused)
{
    (void)unused;
    static const int codes[] = { STPETE_OK, STPETE_E_INVALID_ARGUMENT, STPETE_E_ILLEGAL_ACTION,
                                 STPETE_E_BUFFER_TOO_SMALL, STPETE_E_OUT_OF_MEMORY, STPETE_E_GAME_OVER,
                                 STPETE_E_NOT_TERMINAL, STPETE_E_PARSE, STPETE_E_UNSUPPORTED_VERSION,
                                 STPETE_E_MISMATCH, STPETE_E_REENTRANT, STPETE_E_REDACTED,
                                 STPETE_E_INCONSISTENT, STPETE_E_TOO_LARGE, STPETE_E_NO_PRICE };
    const size_t n = sizeof codes / sizeof codes[0];
    const char *unknown = stpete_strerror(-1000);
    assert_non_null(unknown);
    assert_string_equal(unknown, "unknown status");
    for (size_t i = 0; i < n; i++) {
        /* the codes are dense below -100 (1.0): 0, -101, ..., -114, so that no value or sentinel is one */
        assert_int_equal(codes[i], i ? -100 - (int)i : 0);
        assert_true(i ? STPETE_FAILED(codes[i]) : !STPETE_FAILED(codes[i]));
        const char *s = stpete_strerror(codes[i]);
        assert_non_null(s);
        assert_true(strlen(s) > 0);
        assert_string_not_equal(s, unknown);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(s, stpete_strerror(codes[j]));
    }
    assert_string_equal(stpete_strerror(STPETE_E_ILLEGAL_ACTION), "illegal action");
    assert_int_equal(STPETE_E_FIRST, codes[1]);
    assert_int_equal(STPETE_E_LAST, codes[n - 1]);
    /* no sentinel is a status (1.0): each names no code and is not a failure */
    static const int sentinels[] = { STPETE_PLAYER_CHANCE, STPETE_PLAYER_TERMINAL, STPETE_CARD_NONE, STPETE_NONE,
                                     STPETE_VIEW_PUBLIC };
    for (size_t i = 0; i < sizeof sentinels / sizeof *sentinels; i++) {
        assert_false(STPETE_FAILED(sentinels[i]));
        assert_string_equal(stpete_strerror(sentinels[i]), unknown);
    }
    static const int bad[] = { 1, 2, -1, -4, -14, -15, -16, -100, -115, 100, INT_MAX, INT_MIN };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_string_equal(stpete_strerror(bad[i]), "unknown status");
}

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

/* ---- actions ----------------------------------------------------------------------------------- */

static int is_trading(int card)
{
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    assert_int_equal(stpete_card_get_info(STPETE_EDITION_FIRST, card, &info), STPETE_OK);
    return info.trading;
}

static void test_action_decode_encode_all(void **unused)
{
    (void)unused;
    int kinds[9] = { 0 };
    for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++) {
        stpete_action a;
        memset(&a, 0x7f, sizeof a);
        assert_int_equal(stpete_action_decode(id, &a), STPETE_OK);
        assert_true(a.kind >= STPETE_ACTION_PASS && a.kind <= STPETE_ACTION_PUB);
        kinds[a.kind]++;
        /* unused fields are -1 */
        switch (a.kind) {
        case STPETE_ACTION_PASS:
            assert_int_equal(a.source, -1);
            assert_int_equal(a.card, -1);
            assert_int_equal(a.displaced, -1);
            assert_int_equal(a.stack, -1);
            assert_int_equal(a.amount, -1);
            break;
        case STPETE_ACTION_BUY:
        case STPETE_ACTION_PLAY:
        case STPETE_ACTION_OBSERVATORY_BUY:
            assert_true(a.card >= 0 && a.card < STPETE_NUM_CARD_TYPES);
            if (a.kind == STPETE_ACTION_BUY)
                assert_true(a.source == STPETE_SOURCE_UPPER || a.source == STPETE_SOURCE_LOWER);
            else if (a.kind == STPETE_ACTION_PLAY)
                assert_int_equal(a.source, STPETE_SOURCE_HAND);
            else
                assert_int_equal(a.source, STPETE_SOURCE_OBSERVATORY);
            if (is_trading(a.card))
                assert_true(a.displaced >= 0 && a.displaced < STPETE_NUM_CARD_TYPES && !is_trading(a.displaced));
            else
                assert_int_equal(a.displaced, -1);
            assert_int_equal(a.stack, -1);
            assert_int_equal(a.amount, -1);
            break;
        case STPETE_ACTION_TAKE:
            assert_true(a.card >= 0 && a.card < STPETE_NUM_CARD_TYPES);
            assert_true(a.source == STPETE_SOURCE_UPPER || a.source == STPETE_SOURCE_LOWER);
            assert_int_equal(a.displaced, -1);
            assert_int_equal(a.stack, -1);
            assert_int_equal(a.amount, -1);
            break;
        case STPETE_ACTION_OBSERVATORY:
            assert_true(a.stack >= 0 && a.stack < 4);
            assert_int_equal(a.card, -1);
            assert_int_equal(a.displaced, -1);
            assert_int_equal(a.amount, -1);
            break;
        case STPETE_ACTION_OBSERVATORY_TAKE:
        case STPETE_ACTION_OBSERVATORY_DISCARD:
            assert_int_equal(a.source, STPETE_SOURCE_OBSERVATORY);
            assert_int_equal(a.card, -1);
            assert_int_equal(a.displaced, -1);
            assert_int_equal(a.stack, -1);
            assert_int_equal(a.amount, -1);
            break;
        case STPETE_ACTION_PUB:
            assert_true(a.amount >= 0 && a.amount <= 10);
            assert_int_equal(a.card, -1);
            assert_int_equal(a.stack, -1);
            break;
        }
        int back = -1;
        assert_int_equal(stpete_action_encode(&a, &back), STPETE_OK);
        assert_int_equal(back, id);
    }
    /* counts per kind from the encoding table of stpete.h */
    assert_int_equal(kinds[STPETE_ACTION_PASS], 1);
    assert_int_equal(kinds[STPETE_ACTION_BUY], 2 * STPETE_NUM_CARD_VARIANTS);
    assert_int_equal(kinds[STPETE_ACTION_PLAY], STPETE_NUM_CARD_VARIANTS);
    assert_int_equal(kinds[STPETE_ACTION_TAKE], 2 * STPETE_NUM_CARD_TYPES);
    assert_int_equal(kinds[STPETE_ACTION_OBSERVATORY], 4);
    assert_int_equal(kinds[STPETE_ACTION_OBSERVATORY_BUY], STPETE_NUM_CARD_VARIANTS);
    assert_int_equal(kinds[STPETE_ACTION_OBSERVATORY_TAKE], 1);
    assert_int_equal(kinds[STPETE_ACTION_OBSERVATORY_DISCARD], 1);
    assert_int_equal(kinds[STPETE_ACTION_PUB], 11);
}

/* Spot checks of the documented id layout. */
static void test_action_layout(void **unused)
{
    (void)unused;
    static const struct {
        int id, kind, source, card, displaced, stack, amount;
    } anchors[] = {
        { 0, STPETE_ACTION_PASS, -1, -1, -1, -1, -1 },
        { 1, STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_LUMBERJACK, -1, -1, -1 },
        { 1 + 23, STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_MISTRESS_OF_CEREMONIES, -1, -1, -1 },
        { 1 + 24, STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_CARPENTER_WORKSHOP, STPETE_CARD_LUMBERJACK, -1,
          -1 },
        { 1 + 25, STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_CARPENTER_WORKSHOP,
          STPETE_CARD_CZAR_AND_CARPENTER, -1, -1 },
        { 1 + 32, STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_WHARF, STPETE_CARD_SHIP_BUILDER, -1, -1 },
        { 1 + 33, STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_WHARF, STPETE_CARD_CZAR_AND_CARPENTER, -1, -1 },
        { 1 + 34, STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_MARIINSKIJ_THEATER, STPETE_CARD_MARKET, -1,
          -1 },
        { 1 + 44, STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_MARIINSKIJ_THEATER, STPETE_CARD_OBSERVATORY,
          -1, -1 },
        { 1 + 143, STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_WINTER_PALACE, STPETE_CARD_OBSERVATORY, -1,
          -1 },
        { 1 + 144, STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_POPE, STPETE_CARD_AUTHOR, -1, -1 },
        { 1 + 213, STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_CZAR, STPETE_CARD_MISTRESS_OF_CEREMONIES, -1,
          -1 },
        { 215, STPETE_ACTION_BUY, STPETE_SOURCE_LOWER, STPETE_CARD_LUMBERJACK, -1, -1, -1 },
        { 428, STPETE_ACTION_BUY, STPETE_SOURCE_LOWER, STPETE_CARD_CZAR, STPETE_CARD_MISTRESS_OF_CEREMONIES, -1, -1 },
        { 429, STPETE_ACTION_PLAY, STPETE_SOURCE_HAND, STPETE_CARD_LUMBERJACK, -1, -1, -1 },
        { 642, STPETE_ACTION_PLAY, STPETE_SOURCE_HAND, STPETE_CARD_CZAR, STPETE_CARD_MISTRESS_OF_CEREMONIES, -1, -1 },
        { 643, STPETE_ACTION_TAKE, STPETE_SOURCE_UPPER, STPETE_CARD_LUMBERJACK, -1, -1, -1 },
        { 691, STPETE_ACTION_TAKE, STPETE_SOURCE_UPPER, STPETE_CARD_CZAR, -1, -1, -1 },
        { 692, STPETE_ACTION_TAKE, STPETE_SOURCE_LOWER, STPETE_CARD_LUMBERJACK, -1, -1, -1 },
        { 740, STPETE_ACTION_TAKE, STPETE_SOURCE_LOWER, STPETE_CARD_CZAR, -1, -1, -1 },
        { 741, STPETE_ACTION_OBSERVATORY, -1, -1, -1, STPETE_STACK_WORKER, -1 },
        { 744, STPETE_ACTION_OBSERVATORY, -1, -1, -1, STPETE_STACK_TRADING, -1 },
        { 745, STPETE_ACTION_OBSERVATORY_BUY, STPETE_SOURCE_OBSERVATORY, STPETE_CARD_LUMBERJACK, -1, -1, -1 },
        { 958, STPETE_ACTION_OBSERVATORY_BUY, STPETE_SOURCE_OBSERVATORY, STPETE_CARD_CZAR,
          STPETE_CARD_MISTRESS_OF_CEREMONIES, -1, -1 },
        { 959, STPETE_ACTION_OBSERVATORY_TAKE, STPETE_SOURCE_OBSERVATORY, -1, -1, -1, -1 },
        { 960, STPETE_ACTION_OBSERVATORY_DISCARD, STPETE_SOURCE_OBSERVATORY, -1, -1, -1, -1 },
        { 961, STPETE_ACTION_PUB, -1, -1, -1, -1, 0 },
        { 971, STPETE_ACTION_PUB, -1, -1, -1, -1, 10 },
    };
    for (size_t i = 0; i < sizeof anchors / sizeof anchors[0]; i++) {
        stpete_action a;
        assert_int_equal(stpete_action_decode(anchors[i].id, &a), STPETE_OK);
        assert_int_equal(a.kind, anchors[i].kind);
        assert_int_equal(a.card, anchors[i].card);
        assert_int_equal(a.displaced, anchors[i].displaced);
        assert_int_equal(a.stack, anchors[i].stack);
        assert_int_equal(a.amount, anchors[i].amount);
        if (anchors[i].source >= 0)
            assert_int_equal(a.source, anchors[i].source);
    }
    /* the documented strings */
    static const struct {
        int id;
        const char *text;
    } strings[] = {
        { 0, "pass" },
        { 1 + 32, "buy Wharf from upper displacing Ship Builder" },
        { 692 + STPETE_CARD_MARKET, "take Market from lower" },
        { 429 + STPETE_CARD_PUB, "play Pub" },
        { 742, "observatory building" },
        { 960, "observatory discard" },
        { 964, "pub 3" },
    };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        char buf[STPETE_ACTION_STRING_MAX];
        assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, strings[i].id, buf, sizeof buf), STPETE_OK);
        assert_string_equal(buf, strings[i].text);
    }
}

static void test_action_strings_all(void **unused)
{
    (void)unused;
    static char all[STPETE_NUM_DISTINCT_ACTIONS][STPETE_ACTION_STRING_MAX];
    for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++) {
        char *s = all[id];
        assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, id, s, STPETE_ACTION_STRING_MAX), STPETE_OK);
        size_t len = strlen(s);
        assert_true(len > 0 && len < STPETE_ACTION_STRING_MAX);
        int back = -1;
        assert_int_equal(stpete_action_from_string(s, &back), STPETE_OK);
        assert_int_equal(back, id);
        /* exactly len + 1 bytes suffice; len bytes do not, and give a truncated NUL-terminated prefix */
        char exact[STPETE_ACTION_STRING_MAX];
        assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, id, exact, len + 1), STPETE_OK);
        assert_string_equal(exact, s);
        char small[STPETE_ACTION_STRING_MAX];
        memset(small, 'x', sizeof small);
        assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, id, small, len), STPETE_E_BUFFER_TOO_SMALL);
        assert_int_equal(strlen(small), len - 1);
        assert_memory_equal(small, s, len - 1);
    }
    /* uniqueness of the strings */
    for (int i = 0; i < STPETE_NUM_DISTINCT_ACTIONS; i++)
        for (int j = i + 1; j < STPETE_NUM_DISTINCT_ACTIONS; j++)
            if (strcmp(all[i], all[j]) == 0)
                fail_msg("actions %d and %d share the string \"%s\"", i, j, all[i]);
    /* case-insensitive, surrounding blanks ignored (sample of ids, every kind covered) */
    static const int sample[] = { 0, 1, 33, 144, 214, 215, 428, 429, 600, 643, 740, 741, 744, 745, 900, 958, 959,
                                  960, 961, 971 };
    for (size_t i = 0; i < sizeof sample / sizeof sample[0]; i++) {
        const char *s = all[sample[i]];
        char up[STPETE_ACTION_STRING_MAX + 8];
        size_t len = strlen(s);
        up[0] = ' ';
        up[1] = '\t';
        for (size_t k = 0; k < len; k++)
            up[2 + k] = (char)((s[k] >= 'a' && s[k] <= 'z') ? s[k] - 32 : s[k]);
        up[2 + len] = ' ';
        up[3 + len] = '\n';
        up[4 + len] = '\0';
        int back = -1;
        assert_int_equal(stpete_action_from_string(up, &back), STPETE_OK);
        assert_int_equal(back, sample[i]);
    }
}

static void test_action_bad_input(void **unused)
{
    (void)unused;
    stpete_action a;
    int id = 777;
    char buf[STPETE_ACTION_STRING_MAX];
    static const int bad_ids[] = { -1, STPETE_NUM_DISTINCT_ACTIONS, 1000, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++)
        assert_int_equal(stpete_action_decode(bad_ids[i], &a), STPETE_E_INVALID_ARGUMENT); /* actions only */
    /* strings exist for actions and chance outcomes, nothing else */
    static const int no_string[] = { -1, STPETE_NS_ID_END, INT_MIN, INT_MAX }; /* 1277..: the New Society's */
    for (size_t i = 0; i < sizeof no_string / sizeof no_string[0]; i++)
        assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, no_string[i], buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_action_decode(0, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, 0, NULL, 10), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, 0, buf, 0), STPETE_E_BUFFER_TOO_SMALL);
    memset(buf, 'x', sizeof buf);
    assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, 0, buf, 1), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(buf[0], '\0');
    assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, 0, buf, 4), STPETE_E_BUFFER_TOO_SMALL);
    assert_string_equal(buf, "pas");
    assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, 0, buf, 5), STPETE_OK);
    assert_string_equal(buf, "pass");

    /* encode: NULL and combinations no id represents */
    stpete_action ok = { STPETE_ACTION_PASS, -1, -1, -1, -1, -1 };
    assert_int_equal(stpete_action_encode(NULL, &id), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_action_encode(&ok, NULL), STPETE_E_INVALID_ARGUMENT);
    static const stpete_action bad[] = {
        { -1, -1, -1, -1, -1, -1 },
        { STPETE_ACTION_TRADING_HOUSE + 1, -1, -1, -1, -1, -1 },
        { STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, -1, -1, -1, -1 },
        { STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_NUM_CARD_TYPES_NEW_SOCIETY, -1, -1, -1 },
        { STPETE_ACTION_BUY, STPETE_SOURCE_HAND, STPETE_CARD_MARKET, -1, -1, -1 },
        { STPETE_ACTION_BUY, STPETE_SOURCE_OBSERVATORY, STPETE_CARD_MARKET, -1, -1, -1 },
        { STPETE_ACTION_BUY, -1, STPETE_CARD_MARKET, -1, -1, -1 },
        { STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_WHARF, -1, -1, -1 },                     /* no target */
        { STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_WHARF, STPETE_CARD_LUMBERJACK, -1, -1 }, /* wrong ware */
        { STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, STPETE_CARD_WHARF, STPETE_CARD_FUR_SHOP, -1, -1 },   /* trading */
        { STPETE_ACTION_PLAY, STPETE_SOURCE_HAND, STPETE_CARD_BANK, STPETE_CARD_AUTHOR, -1, -1 },      /* colour */
        { STPETE_ACTION_PLAY, STPETE_SOURCE_HAND, STPETE_CARD_BANK, STPETE_CARD_HERMITAGE, -1, -1 },   /* trading */
        { STPETE_ACTION_OBSERVATORY_BUY, STPETE_SOURCE_OBSERVATORY, STPETE_CARD_POPE, STPETE_CARD_MARKET, -1, -1 },
        { STPETE_ACTION_OBSERVATORY_BUY, STPETE_SOURCE_OBSERVATORY, STPETE_CARD_CZAR, -1, -1, -1 },
        { STPETE_ACTION_TAKE, STPETE_SOURCE_HAND, STPETE_CARD_MARKET, -1, -1, -1 },
        { STPETE_ACTION_TAKE, STPETE_SOURCE_UPPER, -1, -1, -1, -1 },
        { STPETE_ACTION_TAKE, STPETE_SOURCE_LOWER, STPETE_NUM_CARD_TYPES_NEW_SOCIETY, -1, -1, -1 },
        { STPETE_ACTION_OBSERVATORY, -1, -1, -1, -1, -1 },
        { STPETE_ACTION_OBSERVATORY, -1, -1, -1, 4, -1 },
        { STPETE_ACTION_PUB, -1, -1, -1, -1, -1 },
        { STPETE_ACTION_PUB, -1, -1, -1, -1, 11 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        id = 777;
        if (stpete_action_encode(&bad[i], &id) != STPETE_E_INVALID_ARGUMENT)
            fail_msg("bad action %zu encoded as %d", i, id);
        assert_int_equal(id, 777);
    }
    /* unused fields are ignored */
    stpete_action noisy = { STPETE_ACTION_PASS, 3, 7, 9, 2, 5 };
    assert_int_equal(stpete_action_encode(&noisy, &id), STPETE_OK);
    assert_int_equal(id, 0);
    stpete_action market = { STPETE_ACTION_BUY, STPETE_SOURCE_LOWER, STPETE_CARD_MARKET, 17, 3, 9 };
    assert_int_equal(stpete_action_encode(&market, &id), STPETE_OK);
    assert_int_equal(id, 215 + STPETE_CARD_MARKET);

    /* parse failures */
    static const char *const garbage[] = { "", "   ", "passs", "pass pass", "buy", "buy Market", "buy Market from",
                                           "buy Market from middle", "buy Wharf from upper",
                                           "buy Wharf from upper displacing Lumberjack", "take Market from hand",
                                           "play", "play Markt", "pub 11", "pub -1", "pub", "observatory",
                                           "observatory hand", "\x01\x02", "buy  Market from upper" };
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        id = 777;
        if (stpete_action_from_string(garbage[i], &id) != STPETE_E_PARSE)
            fail_msg("\"%s\" parsed as %d", garbage[i], id);
        assert_int_equal(id, 777);
    }
    assert_int_equal(stpete_action_from_string(NULL, &id), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_action_from_string("pass", NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(id, 777);
}

/* ---- options and games ------------------------------------------------------------------------- */

static void test_options_defaults(void **unused)
{
    (void)unused;
    stpete_options o, m = STPETE_OPTIONS_INIT;
    memset(&o, 0x5a, sizeof o);
    stpete_options_init(&o);
    stpete_options_init(NULL); /* ignored */
    assert_int_equal(o.struct_size, sizeof(stpete_options));
    assert_int_equal(o.players, 4);
    assert_true(o.seed == 0);
    assert_int_equal(o.pub_cap, STPETE_PUB_CAP_PER_PUB);
    assert_int_equal(o.tie_break, STPETE_TIE_BREAK_RUBLES_MOD_10);
    for (int k = 0; k < 4; k++)
        assert_int_equal(o.start_markers[k], -1);
    assert_int_equal(o.public_rubles, 0);
    assert_int_equal(o.public_hands, 0);
    assert_null(o.allocator.malloc_fn);
    assert_null(o.allocator.realloc_fn);
    assert_null(o.allocator.free_fn);
    assert_null(o.allocator.user);
    /* the macro and the function agree field by field */
    assert_int_equal(m.struct_size, o.struct_size);
    assert_int_equal(m.players, o.players);
    assert_true(m.seed == o.seed);
    assert_int_equal(m.pub_cap, o.pub_cap);
    assert_int_equal(m.tie_break, o.tie_break);
    assert_memory_equal(m.start_markers, o.start_markers, sizeof o.start_markers);
    assert_int_equal(m.public_rubles, o.public_rubles);
    assert_int_equal(m.public_hands, o.public_hands);

    /* NULL options = the defaults */
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(NULL, &g, NULL), STPETE_OK);
    assert_int_equal(stpete_game_num_players(g), 4);
    stpete_options got;
    memset(&got, 0, sizeof got);
    /* the caller must say how large its struct is */
    assert_int_equal(stpete_game_get_options(g, &got), STPETE_E_UNSUPPORTED_VERSION);
    got.struct_size = sizeof got + 1;
    assert_int_equal(stpete_game_get_options(g, &got), STPETE_E_UNSUPPORTED_VERSION);
    stpete_options_init(&got);
    assert_int_equal(stpete_game_get_options(g, &got), STPETE_OK);
    assert_int_equal(got.players, 4);
    assert_true(got.seed == 0);
    assert_int_equal(got.pub_cap, STPETE_PUB_CAP_PER_PUB);
    assert_int_equal(got.tie_break, STPETE_TIE_BREAK_RUBLES_MOD_10);
    stpete_game_free(g);

    /* get_options returns what was given */
    for (int players = 2; players <= 4; players++) {
        stpete_options_init(&o);
        o.players = players;
        o.seed = UINT64_C(0xDEADBEEFCAFEF00D) + (uint64_t)players;
        o.pub_cap = STPETE_PUB_CAP_PER_PLAYER;
        o.tie_break = STPETE_TIE_BREAK_RUBLES_TOTAL;
        o.public_rubles = 1;
        o.public_hands = 1;
        for (int k = 0; k < 4; k++)
            o.start_markers[k] = k % players;
        assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
        assert_int_equal(stpete_game_num_players(g), players);
        assert_int_equal(stpete_game_get_options(g, &got), STPETE_OK);
        assert_int_equal(got.struct_size, sizeof got);
        assert_int_equal(got.players, players);
        assert_true(got.seed == o.seed);
        assert_int_equal(got.pub_cap, STPETE_PUB_CAP_PER_PLAYER);
        assert_int_equal(got.tie_break, STPETE_TIE_BREAK_RUBLES_TOTAL);
        assert_int_equal(got.public_rubles, 1);
        assert_int_equal(got.public_hands, 1);
        assert_memory_equal(got.start_markers, o.start_markers, sizeof o.start_markers);
        stpete_state *st = make_state(g);
        for (int k = 0; k < 4; k++)
            assert_int_equal(stpete_state_marker_holder(st, k), o.start_markers[k]);
        assert_int_equal(stpete_state_current_player(st), o.start_markers[STPETE_PHASE_WORKER]);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

static int game_new_status(const stpete_options *o)
{
    stpete_game *g = (stpete_game *)(uintptr_t)1; /* must be set to NULL on failure */
    int rc = stpete_game_new(o, &g, NULL);
    if (rc != STPETE_OK)
        assert_null(g);
    stpete_game_free(rc == STPETE_OK ? g : NULL);
    return rc;
}

typedef struct counting {
    long mallocs, reallocs, frees, live;
    long fail_after; /* fail the n-th allocation from now (0 = never) */
} counting;

static void *count_malloc(void *user, size_t size);
static void *count_realloc(void *user, void *ptr, size_t size);
static void count_free(void *user, void *ptr);

static void test_options_bad(void **unused)
{
    (void)unused;
    stpete_options o;
    assert_int_equal(stpete_game_new(NULL, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
    stpete_options_init(&o);
    assert_int_equal(stpete_game_new(&o, NULL, NULL), STPETE_E_INVALID_ARGUMENT);

    static const int bad_players[] = { -1, 0, 1, 5, 100 };
    for (size_t i = 0; i < sizeof bad_players / sizeof bad_players[0]; i++) {
        stpete_options_init(&o);
        o.players = bad_players[i];
        assert_int_equal(game_new_status(&o), STPETE_E_INVALID_ARGUMENT);
    }
    for (int players = 2; players <= 4; players++) {
        stpete_options_init(&o);
        o.players = players;
        assert_int_equal(game_new_status(&o), STPETE_OK);
    }
    static const int bad_enum[] = { -1, 2, 3, 1000 };
    for (size_t i = 0; i < sizeof bad_enum / sizeof bad_enum[0]; i++) {
        stpete_options_init(&o);
        o.pub_cap = bad_enum[i];
        assert_int_equal(game_new_status(&o), STPETE_E_INVALID_ARGUMENT);
        stpete_options_init(&o);
        o.tie_break = bad_enum[i];
        assert_int_equal(game_new_status(&o), STPETE_E_INVALID_ARGUMENT);
    }
    stpete_options_init(&o);
    o.public_rubles = 2;
    assert_int_equal(game_new_status(&o), STPETE_E_INVALID_ARGUMENT);
    stpete_options_init(&o);
    o.public_hands = -1;
    assert_int_equal(game_new_status(&o), STPETE_E_INVALID_ARGUMENT);

    /* start markers (§3.3 [option]): all -1, or every entry a seat and every seat holding 1 or 2 */
    static const struct {
        int players, m[4], rc;
    } markers[] = {
        { 4, { 0, 1, 2, 3 }, STPETE_OK },
        { 4, { 3, 2, 1, 0 }, STPETE_OK },
        { 4, { 0, 0, 1, 2 }, STPETE_E_INVALID_ARGUMENT },  /* seat 3 holds none */
        { 4, { 0, 1, 2, 4 }, STPETE_E_INVALID_ARGUMENT },  /* seat out of range */
        { 4, { -1, 1, 2, 3 }, STPETE_E_INVALID_ARGUMENT }, /* partial -1 */
        { 4, { 0, 1, 2, -1 }, STPETE_E_INVALID_ARGUMENT }, /* partial -1 */
        { 4, { -2, -1, -1, -1 }, STPETE_E_INVALID_ARGUMENT },
        { 3, { 0, 0, 1, 2 }, STPETE_OK },
        { 3, { 2, 1, 2, 0 }, STPETE_OK },
        { 3, { 0, 1, 2, 3 }, STPETE_E_INVALID_ARGUMENT },  /* seat 3 in a 3-player game */
        { 3, { 0, 0, 0, 1 }, STPETE_E_INVALID_ARGUMENT },  /* 3-1-0 */
        { 3, { 0, 0, 1, 1 }, STPETE_E_INVALID_ARGUMENT },  /* seat 2 holds none */
        { 2, { 0, 1, 0, 1 }, STPETE_OK },
        { 2, { 1, 1, 0, 0 }, STPETE_OK },
        { 2, { 0, 0, 0, 1 }, STPETE_E_INVALID_ARGUMENT },  /* 3-1 split */
        { 2, { 1, 0, 1, 1 }, STPETE_E_INVALID_ARGUMENT },  /* 1-3 split */
        { 2, { 0, 0, 0, 0 }, STPETE_E_INVALID_ARGUMENT },
        { 2, { 0, 1, 2, 1 }, STPETE_E_INVALID_ARGUMENT },  /* seat out of range */
        { 2, { 0, 1, -1, -1 }, STPETE_E_INVALID_ARGUMENT },/* partial -1 */
        { 2, { -1, -1, -1, -1 }, STPETE_OK },
    };
    for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++) {
        stpete_options_init(&o);
        o.players = markers[i].players;
        memcpy(o.start_markers, markers[i].m, sizeof o.start_markers);
        int rc = game_new_status(&o);
        if (rc != markers[i].rc)
            fail_msg("markers case %zu: got %d, want %d", i, rc, markers[i].rc);
    }

    /* partial allocators */
    for (int mask = 1; mask < 7; mask++) {
        stpete_options_init(&o);
        o.allocator.malloc_fn = (mask & 1) ? count_malloc : NULL;
        o.allocator.realloc_fn = (mask & 2) ? count_realloc : NULL;
        o.allocator.free_fn = (mask & 4) ? count_free : NULL;
        assert_int_equal(game_new_status(&o), STPETE_E_INVALID_ARGUMENT);
    }

    /* struct_size: 0 or larger than the library's struct */
    stpete_options_init(&o);
    o.struct_size = 0;
    assert_int_equal(game_new_status(&o), STPETE_E_UNSUPPORTED_VERSION);
    o.struct_size = sizeof(stpete_options) + 1;
    assert_int_equal(game_new_status(&o), STPETE_E_UNSUPPORTED_VERSION);
    o.struct_size = sizeof(stpete_options) + 64;
    assert_int_equal(game_new_status(&o), STPETE_E_UNSUPPORTED_VERSION);
    o.struct_size = (size_t)-1;
    assert_int_equal(game_new_status(&o), STPETE_E_UNSUPPORTED_VERSION);
    /* unsupported version wins over otherwise bad fields: the library must not read an unknown layout */
    o.struct_size = sizeof(stpete_options) + 8;
    o.players = 9;
    assert_int_equal(game_new_status(&o), STPETE_E_UNSUPPORTED_VERSION);
}

/* stpete_options.struct_size is exactly the size of a released layout (stpete.h, "Structs that may grow"; issue 31
 * item 3): soname 1 has only the 1.0 layout. Every size from 0 to sizeof + 8 is probed through every call that reads
 * or writes the struct: only sizeof(stpete_options) is accepted. 1.0 accepted every size from its 0.1 layout up,
 * so a size ending inside allocator.free_fn copied one byte of a pointer, which stpete_game_free() then called. */
static void test_options_struct_sizes(void **unused)
{
    (void)unused;
    stpete_game *ref = make_game(3, 4);
    for (size_t size = 0; size <= sizeof(stpete_options) + 8; size++) {
        /* the two released layouts: 1.0's (up to edition) and the one with the New Society's members (§12) */
        int want = size == sizeof(stpete_options) || size == offsetof(stpete_options, new_society)
                       ? STPETE_OK
                       : STPETE_E_UNSUPPORTED_VERSION;
        stpete_options o;
        stpete_options_init(&o);
        o.players = 3;
        o.allocator.malloc_fn = count_malloc; /* a whole allocator: a truncated copy of it must never be used */
        o.allocator.realloc_fn = count_realloc;
        o.allocator.free_fn = count_free;
        counting c = { 0, 0, 0, 0, 0 };
        o.allocator.user = &c;
        o.struct_size = size;
        stpete_error e = STPETE_ERROR_INIT;
        if (stpete_options_check(&o, &e) != want || e.status != want)
            fail_msg("stpete_options_check with struct_size %zu: %d (%s), want %d", size, e.status, e.message, want);
        stpete_game *g = (stpete_game *)&g;
        int rc = stpete_game_new(&o, &g, NULL);
        if (rc != want)
            fail_msg("stpete_game_new with struct_size %zu: %d, want %d", size, rc, want);
        if (want == STPETE_OK)
            assert_int_equal(stpete_game_num_players(g), 3);
        else
            assert_null(g);
        stpete_game_free(g);
        union {
            stpete_options o;
            unsigned char bytes[sizeof(stpete_options) + 16];
        } out;
        memset(&out, 0x5A, sizeof out);
        out.o.struct_size = size;
        rc = stpete_game_get_options(ref, &out.o);
        if (rc != want)
            fail_msg("stpete_game_get_options with struct_size %zu: %d, want %d", size, rc, want);
        if (want == STPETE_OK) {
            assert_int_equal(out.o.players, 3);
            assert_true(out.o.struct_size == size);
            for (size_t i = size; i < sizeof out.bytes; i++) /* nothing past the caller's layout */
                if (out.bytes[i] != 0x5A)
                    fail_msg("stpete_game_get_options with struct_size %zu wrote byte %zu", size, i);
        } else {
            assert_true(out.o.struct_size == size);
            for (size_t i = sizeof(size_t); i < sizeof out.bytes; i++)
                if (out.bytes[i] != 0x5A)
                    fail_msg("stpete_game_get_options with struct_size %zu wrote byte %zu", size, i);
        }
    }
    stpete_game_free(ref);
}

/* ---- life cycle: NULL arguments ---------------------------------------------------------------- */

/* The struct_size rule of stpete.h ("Structs that may grow") for every call that reads or writes such a struct: a
 * size below the 1.0 layout (0, 1, a size_t, half the struct) or above the library's is refused with
 * STPETE_E_UNSUPPORTED_VERSION before anything is written, and never crashes; a constructor given such a detail
 * struct still sets *out to NULL. */
static void test_struct_sizes(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 4);
    stpete_state *st = make_state(g);
    assert_int_equal(stpete_state_set_event_queue(st, 1), STPETE_OK);
    assert_int_equal(stpete_state_reset(st, 4), STPETE_OK);
    const size_t bad[] = { 0, 1, sizeof(size_t), sizeof(size_t) + 4, 4096 };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        union {
            stpete_card_info info;
            stpete_score score;
            stpete_event event;
            stpete_error error;
            stpete_bot_stats stats;
            unsigned char bytes[8192];
        } u;
        memset(&u, 0x55, sizeof u);
        u.info.struct_size = bad[i];
        assert_int_equal(stpete_card_get_info(1, 0, &u.info), STPETE_E_UNSUPPORTED_VERSION);
        assert_int_equal(u.bytes[sizeof(size_t)], 0x55); /* nothing written */
        u.score.struct_size = bad[i];
        assert_int_equal(stpete_state_get_score(st, 0, &u.score), STPETE_E_UNSUPPORTED_VERSION);
        assert_int_equal(u.bytes[sizeof(size_t)], 0x55);
        u.event.struct_size = bad[i];
        assert_int_equal(stpete_state_pending_events(st) > 0, 1);
        int pending = stpete_state_pending_events(st);
        assert_int_equal(stpete_state_next_event(st, &u.event), STPETE_E_UNSUPPORTED_VERSION);
        assert_int_equal(stpete_state_pending_events(st), pending); /* the event is not lost */
        char line[STPETE_EVENT_STRING_MAX];
        assert_int_equal(stpete_event_to_string(&u.event, NULL, line, sizeof line), STPETE_E_UNSUPPORTED_VERSION);
        u.error.struct_size = bad[i];
        stpete_options o;
        stpete_options_init(&o);
        assert_int_equal(stpete_options_check(&o, &u.error), STPETE_E_UNSUPPORTED_VERSION);
        assert_int_equal(u.bytes[sizeof(size_t)], 0x55);
        stpete_game *g2 = (stpete_game *)&g2;
        assert_int_equal(stpete_game_new(&o, &g2, &u.error), STPETE_E_UNSUPPORTED_VERSION);
        assert_null(g2);
        stpete_state *s2 = (stpete_state *)&s2;
        assert_int_equal(stpete_state_new(g, &s2, &u.error), STPETE_E_UNSUPPORTED_VERSION);
        assert_null(s2);
        s2 = (stpete_state *)&s2;
        assert_int_equal(stpete_state_clone(st, &s2, &u.error), STPETE_E_UNSUPPORTED_VERSION);
        assert_null(s2);
        s2 = (stpete_state *)&s2;
        assert_int_equal(stpete_state_from_json(g, "{}", 2, &s2, &u.error), STPETE_E_UNSUPPORTED_VERSION);
        assert_null(s2);
        g2 = (stpete_game *)&g2;
        assert_int_equal(stpete_game_from_json("{}", 2, NULL, &g2, &u.error), STPETE_E_UNSUPPORTED_VERSION);
        assert_null(g2);
        g2 = (stpete_game *)&g2;
        size_t n = 0;
        assert_int_equal(stpete_replay_from_json("{}", 2, NULL, &g2, NULL, 0, &n, &u.error),
                         STPETE_E_UNSUPPORTED_VERSION);
        assert_null(g2);
        stpete_bot *b = (stpete_bot *)&b;
        assert_int_equal(stpete_bot_new(g, "random", &b, &u.error), STPETE_E_UNSUPPORTED_VERSION);
        assert_null(b);
        assert_int_equal(u.bytes[sizeof(size_t)], 0x55);
        b = NULL;
        assert_int_equal(stpete_bot_new(g, "random", &b, NULL), STPETE_OK);
        u.stats.struct_size = bad[i];
        assert_int_equal(stpete_bot_get_stats(b, &u.stats), STPETE_E_UNSUPPORTED_VERSION);
        stpete_bot_free(b);
        o.struct_size = bad[i];
        assert_int_equal(stpete_options_check(&o, NULL), STPETE_E_UNSUPPORTED_VERSION);
        assert_int_equal(stpete_game_get_options(g, &o), STPETE_E_UNSUPPORTED_VERSION);
    }
    /* a good size works after a refusal, and a success clears the state's last error */
    stpete_event ev = STPETE_EVENT_INIT;
    assert_int_equal(stpete_state_next_event(st, &ev), 1);
    assert_string_equal(stpete_state_last_error(st), "");
    assert_int_equal(ev.edition, STPETE_EDITION_FIRST);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* Formatting a queued event later with its state adds nothing the state knows now (its rubles and VP have moved
 * on): the line is the one without the state. */
static void test_event_line_later_has_no_details(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 9);
    stpete_state *st = make_state(g);
    assert_int_equal(stpete_state_set_event_queue(st, 1), STPETE_OK);
    uint64_t rng = 3;
    for (int i = 0; i < 60 && !tg_is_terminal(st); i++)
        step_random(st, &rng);
    stpete_event ev = STPETE_EVENT_INIT;
    int lines = 0;
    while (stpete_state_next_event(st, &ev) == 1) {
        char with[STPETE_EVENT_STRING_MAX], without[STPETE_EVENT_STRING_MAX];
        assert_int_equal(stpete_event_to_string(&ev, st, with, sizeof with), STPETE_OK);
        assert_int_equal(stpete_event_to_string(&ev, NULL, without, sizeof without), STPETE_OK);
        assert_string_equal(with, without);
        lines++;
    }
    assert_true(lines > 20);
    stpete_state_free(st);
    stpete_game_free(g);
}

static void test_lifecycle_null(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 5);
    stpete_state *st = make_state(g);
    stpete_state *out = (stpete_state *)(uintptr_t)1;

    stpete_game_free(NULL);
    stpete_state_free(NULL);
    stpete_options opts;
    assert_int_equal(stpete_game_get_options(NULL, &opts), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_game_get_options(g, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_game_num_players(NULL), STPETE_E_INVALID_ARGUMENT);

    assert_int_equal(stpete_state_new(g, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_new(NULL, &out, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_null(out);
    out = (stpete_state *)(uintptr_t)1;
    assert_int_equal(stpete_state_clone(st, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_clone(NULL, &out, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_null(out);
    assert_int_equal(stpete_state_copy(NULL, st), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_copy(st, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_equal(NULL, st, &(int){ 0 }), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_equal(st, NULL, &(int){ 0 }), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_equal(NULL, NULL, &(int){ 0 }), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(tg_equal(st, st), 1);
    assert_int_equal(stpete_state_reset(NULL, 1), STPETE_E_INVALID_ARGUMENT);
    assert_null(stpete_state_game(NULL));
    assert_ptr_equal(stpete_state_game(st), g);
    assert_non_null(stpete_state_last_error(NULL));
    assert_string_equal(stpete_state_last_error(NULL), "");
    assert_string_equal(stpete_state_last_error(st), "");
    assert_int_equal(stpete_state_set_event_callback(NULL, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_set_event_callback(st, NULL, NULL), STPETE_OK);

    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- queries: bad input ------------------------------------------------------------------------ */

static void test_queries_bad_input(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 11);
    stpete_state *st = make_state(g);
    stpete_state *before = NULL;
    assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
    const int E = STPETE_E_INVALID_ARGUMENT;
    int buf[STPETE_NUM_CARDS];
    size_t count = 0;
    int vp = 0, price = 0;
    stpete_score score = STPETE_SCORE_INIT;
    unsigned mask = 0;

    /* NULL state */
    assert_int_equal(stpete_state_current_player(NULL), E);
    assert_int_equal(stpete_state_is_terminal(NULL, &(int){ 0 }), E);
    assert_int_equal(stpete_state_decision(NULL), E);
    assert_int_equal(stpete_state_phase(NULL), E);
    assert_int_equal(stpete_state_round(NULL), E);
    assert_int_equal(stpete_state_is_final_round(NULL, &(int){ 0 }), E);
    assert_int_equal(stpete_state_consecutive_passes(NULL), E);
    assert_int_equal(stpete_state_row(NULL, 0, buf, 8, &count), E);
    assert_int_equal(stpete_state_stack_size(NULL, 0), E);
    assert_int_equal(stpete_state_display_count(NULL, 0, 0), E);
    assert_int_equal(stpete_state_display(NULL, 0, buf, STPETE_NUM_CARDS, &count), E);
    assert_int_equal(stpete_state_hand(NULL, 0, buf, STPETE_MAX_HAND, &count), E);
    assert_int_equal(stpete_state_hand_limit(NULL, 0), E);
    assert_int_equal(stpete_state_rubles(NULL, 0), E);
    assert_int_equal(stpete_state_vp(NULL, 0, &vp), E);
    assert_int_equal(stpete_state_observatories_used(NULL, 0), E);
    assert_int_equal(stpete_state_observatory_card(NULL), E);
    assert_int_equal(stpete_state_marker_holder(NULL, 0), E);
    assert_int_equal(stpete_state_discard_count(NULL, 0), E);
    assert_int_equal(stpete_state_price(NULL, 0, STPETE_CARD_MARKET, STPETE_SOURCE_UPPER, -1, &price), E);
    assert_int_equal(stpete_state_get_score(NULL, 0, &score), E);
    assert_int_equal(stpete_state_winners(NULL, &mask), E);
    assert_int_equal(stpete_state_legal_actions(NULL, buf, STPETE_MAX_LEGAL_ACTIONS, &count), E);
    uint8_t m[STPETE_NUM_DISTINCT_ACTIONS];
    assert_int_equal(stpete_state_legal_action_mask(NULL, m, sizeof m), E);
    assert_int_equal(stpete_state_is_legal(NULL, 0, &(int){ 0 }), E);
    assert_int_equal(stpete_state_apply(NULL, 0), E);
    assert_int_equal(stpete_state_apply_string(NULL, "pass"), E);

    /* NULL out-pointers */
    assert_int_equal(stpete_state_row(st, 0, buf, 8, NULL), E);
    assert_int_equal(stpete_state_display(st, 0, buf, STPETE_NUM_CARDS, NULL), E);
    assert_int_equal(stpete_state_hand(st, 0, buf, STPETE_MAX_HAND, NULL), E);
    assert_int_equal(stpete_state_vp(st, 0, NULL), E);
    assert_int_equal(stpete_state_price(st, 0, STPETE_CARD_MARKET, STPETE_SOURCE_UPPER, -1, NULL), E);
    assert_int_equal(stpete_state_get_score(st, 0, NULL), E);
    assert_int_equal(stpete_state_winners(st, NULL), E);
    assert_int_equal(stpete_state_legal_actions(st, buf, STPETE_MAX_LEGAL_ACTIONS, NULL), E);
    assert_int_equal(stpete_state_legal_action_mask(st, NULL, STPETE_NUM_DISTINCT_ACTIONS), E);
    /* NULL buffer with a non-zero capacity */
    assert_int_equal(stpete_state_row(st, 0, NULL, 8, &count), E);
    assert_int_equal(stpete_state_display(st, 0, NULL, 8, &count), E);
    assert_int_equal(stpete_state_hand(st, 0, NULL, 4, &count), E);
    assert_int_equal(stpete_state_legal_actions(st, NULL, 10, &count), E);

    /* bad seats (2 players: seats 0 and 1 only) */
    static const int bad_seats[] = { -1, 2, 3, 4, 100, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_seats / sizeof bad_seats[0]; i++) {
        int s = bad_seats[i];
        assert_int_equal(stpete_state_display_count(st, s, 0), E);
        assert_int_equal(stpete_state_display(st, s, buf, STPETE_NUM_CARDS, &count), E);
        assert_int_equal(stpete_state_hand(st, s, buf, STPETE_MAX_HAND, &count), E);
        assert_int_equal(stpete_state_hand_limit(st, s), E);
        assert_int_equal(stpete_state_rubles(st, s), E);
        assert_int_equal(stpete_state_vp(st, s, &vp), E);
        assert_int_equal(stpete_state_observatories_used(st, s), E);
        assert_int_equal(stpete_state_price(st, s, STPETE_CARD_MARKET, STPETE_SOURCE_UPPER, -1, &price), E);
        assert_int_equal(stpete_state_get_score(st, s, &score), E);
    }
    /* bad cards */
    static const int bad_cards[] = { -1, STPETE_NUM_CARD_TYPES, 255, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_cards / sizeof bad_cards[0]; i++) {
        int c = bad_cards[i];
        assert_int_equal(stpete_state_display_count(st, 0, c), E);
        assert_int_equal(stpete_state_discard_count(st, c), E);
        assert_int_equal(stpete_state_price(st, 0, c, STPETE_SOURCE_UPPER, -1, &price), E);
    }
    /* bad rows, stacks, phases, sources */
    static const int bad_small[] = { -1, 4, 5, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_small / sizeof bad_small[0]; i++) {
        int k = bad_small[i];
        assert_int_equal(stpete_state_row(st, k, buf, 8, &count), E);
        assert_int_equal(stpete_state_stack_size(st, k), E);
        assert_int_equal(stpete_state_marker_holder(st, k), E);
        assert_int_equal(stpete_state_price(st, 0, STPETE_CARD_MARKET, k == 4 ? 5 : k, -1, &price), E); /* 4: discard */
    }
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_HAND, buf, 8, &count), E);
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_OBSERVATORY, buf, 8, &count), E);
    /* a trading card priced with a displaced type that is not one of its targets (§6.2) */
    static const int bad_targets[][2] = {
        { STPETE_CARD_WHARF, -1 },
        { STPETE_CARD_WHARF, STPETE_CARD_LUMBERJACK },
        { STPETE_CARD_WHARF, STPETE_CARD_FUR_SHOP },
        { STPETE_CARD_CARPENTER_WORKSHOP, STPETE_CARD_GOLD_MINER },
        { STPETE_CARD_BANK, STPETE_CARD_AUTHOR },
        { STPETE_CARD_BANK, STPETE_CARD_HERMITAGE },
        { STPETE_CARD_BANK, STPETE_NUM_CARD_TYPES },
        { STPETE_CARD_POPE, STPETE_CARD_MARKET },
        { STPETE_CARD_CZAR, STPETE_CARD_SENATOR },
    };
    for (size_t i = 0; i < sizeof bad_targets / sizeof bad_targets[0]; i++)
        assert_int_equal(stpete_state_price(st, 0, bad_targets[i][0], STPETE_SOURCE_UPPER, bad_targets[i][1], &price),
                         E);
    /* good price queries: ≥ 1, and a non-trading card ignores `displaced` */
    assert_int_equal(stpete_state_price(st, 0, STPETE_CARD_MARKET, STPETE_SOURCE_UPPER, -1, &price), STPETE_OK);
    assert_int_equal(price, 5);
    assert_int_equal(stpete_state_price(st, 1, STPETE_CARD_MARKET, STPETE_SOURCE_LOWER, 42, &price), STPETE_OK);
    assert_int_equal(price, 4);
    assert_int_equal(stpete_state_price(st, 0, STPETE_CARD_WHARF, STPETE_SOURCE_HAND, STPETE_CARD_SHIP_BUILDER,
                                        &price), STPETE_OK);
    assert_int_equal(price, 5);
    assert_int_equal(stpete_state_price(st, 0, STPETE_CARD_PUB, STPETE_SOURCE_LOWER, -1, &price), STPETE_OK);
    assert_int_equal(price, 1);

    /* buffers too small report the needed size */
    size_t upper = 0;
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, buf, 8, &upper), STPETE_OK);
    assert_int_equal(upper, 4); /* 2 workers per player (§3.4) */
    count = 0;
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, NULL, 0, &count), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(count, upper);
    count = 0;
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, buf, upper - 1, &count), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(count, upper);
    count = 99;
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_LOWER, NULL, 0, &count), STPETE_OK);
    assert_int_equal(count, 0);
    count = 99;
    assert_int_equal(stpete_state_hand(st, 0, NULL, 0, &count), STPETE_OK);
    assert_int_equal(count, 0);
    count = 99;
    assert_int_equal(stpete_state_display(st, 1, NULL, 0, &count), STPETE_OK);
    assert_int_equal(count, 0);

    size_t nlegal = 0;
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &nlegal), STPETE_OK);
    assert_true(nlegal > 1);
    count = 0;
    assert_int_equal(stpete_state_legal_actions(st, NULL, 0, &count), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(count, nlegal);
    count = 0;
    int few[STPETE_MAX_LEGAL_ACTIONS];
    assert_int_equal(stpete_state_legal_actions(st, few, nlegal - 1, &count), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(count, nlegal);
    count = 0;
    assert_int_equal(stpete_state_legal_actions(st, few, nlegal, &count), STPETE_OK);
    assert_int_equal(count, nlegal);
    assert_memory_equal(few, ids, nlegal * sizeof ids[0]);
    assert_int_equal(stpete_state_legal_action_mask(st, m, STPETE_NUM_DISTINCT_ACTIONS - 1),
                     STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(stpete_state_legal_action_mask(st, m, 0), STPETE_E_BUFFER_TOO_SMALL);

    /* is_legal: out-of-range ids are simply not legal */
    static const int bad_ids[] = { -1, STPETE_NUM_DISTINCT_ACTIONS, 5000, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++)
        assert_int_equal(tg_is_legal(st, bad_ids[i]), 0);

    /* winners before the end */
    mask = 12345;
    assert_int_equal(stpete_state_winners(st, &mask), STPETE_E_NOT_TERMINAL);
    assert_int_equal(mask, 12345);

    /* none of this changed the state */
    assert_int_equal(tg_equal(st, before), 1);
    stpete_state_free(before);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* Display buffer too small once a player owns cards. */
static void test_display_hand_buffers(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 21);
    stpete_state *st = make_state(g);
    uint64_t rng = 7;
    int checked_display = 0, checked_hand = 0;
    while (!tg_is_terminal(st) && (!checked_display || !checked_hand)) {
        for (int s = 0; s < 3; s++) {
            int cards[STPETE_NUM_CARDS];
            size_t n = 0, n2 = 0;
            assert_int_equal(stpete_state_display(st, s, cards, STPETE_NUM_CARDS, &n), STPETE_OK);
            if (n >= 2) {
                int few[STPETE_NUM_CARDS];
                assert_int_equal(stpete_state_display(st, s, few, n - 1, &n2), STPETE_E_BUFFER_TOO_SMALL);
                assert_int_equal(n2, n);
                assert_int_equal(stpete_state_display(st, s, NULL, 0, &n2), STPETE_E_BUFFER_TOO_SMALL);
                assert_int_equal(n2, n);
                /* ascending, one entry per copy, agreeing with display_count */
                int per[STPETE_NUM_CARD_TYPES] = { 0 };
                for (size_t i = 0; i < n; i++) {
                    if (i)
                        assert_true(cards[i - 1] <= cards[i]);
                    per[cards[i]]++;
                }
                for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
                    assert_int_equal(stpete_state_display_count(st, s, t), per[t]);
                checked_display = 1;
            }
            assert_int_equal(stpete_state_hand(st, s, cards, STPETE_MAX_HAND, &n), STPETE_OK);
            if (n >= 1) {
                assert_int_equal(stpete_state_hand(st, s, NULL, 0, &n2), STPETE_E_BUFFER_TOO_SMALL);
                assert_int_equal(n2, n);
                int few[STPETE_MAX_HAND];
                assert_int_equal(stpete_state_hand(st, s, few, n - 1, &n2), STPETE_E_BUFFER_TOO_SMALL);
                assert_int_equal(n2, n);
                checked_hand = 1;
            }
        }
        step_random(st, &rng);
    }
    assert_true(checked_display);
    assert_true(checked_hand);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- legal actions ----------------------------------------------------------------------------- */

static void check_legal_consistency(const stpete_state *st)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    uint8_t mask[STPETE_NUM_DISTINCT_ACTIONS + 16];
    memset(mask, 0xee, sizeof mask);
    assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    assert_int_equal(stpete_state_legal_action_mask(st, mask, sizeof mask), STPETE_OK);
    for (size_t i = 1; i < n; i++)
        assert_true(ids[i - 1] < ids[i]);
    size_t k = 0, set = 0;
    for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++) {
        int listed = k < n && ids[k] == id;
        if (listed)
            k++;
        assert_int_equal(mask[id], listed);
        assert_int_equal(tg_is_legal(st, id), listed);
        set += mask[id];
    }
    assert_int_equal(k, n);
    assert_int_equal(set, n);
    assert_int_equal(mask[STPETE_NUM_DISTINCT_ACTIONS], 0xee); /* writes only `STPETE_NUM_DISTINCT_ACTIONS` bytes */
    if (tg_is_terminal(st))
        assert_int_equal(n, 0);
    else
        assert_true(n > 0 && n <= STPETE_MAX_LEGAL_ACTIONS);
}

static void test_legal_list_and_mask(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 1000 + (uint64_t)players);
        stpete_state *st = make_state(g);
        uint64_t rng = 31 * (uint64_t)players;
        int moves = 0;
        while (!tg_is_terminal(st)) {
            check_legal_consistency(st);
            step_random(st, &rng);
            assert_true(++moves < 5000);
        }
        check_legal_consistency(st);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

/* ---- apply: failures leave the state unchanged -------------------------------------------------- */

static void test_apply_invalid_and_illegal(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(4, 77);
    stpete_state *st = make_state(g);
    stpete_state *before = NULL;
    assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);

    /* out-of-range ids */
    static const int bad_ids[] = { -1, STPETE_CHANCE_CARD_FIRST + STPETE_NUM_CHANCE_OUTCOMES, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
        assert_int_equal(stpete_state_apply(st, bad_ids[i]), STPETE_E_INVALID_ARGUMENT);
        assert_true(strlen(stpete_state_last_error(st)) > 0);
        assert_int_equal(tg_equal(st, before), 1);
    }
    /* chance outcomes in sampled mode: the library draws them itself */
    for (int id = STPETE_CHANCE_CARD_FIRST; id < STPETE_CHANCE_CARD_FIRST + STPETE_NUM_CHANCE_OUTCOMES; id += 13) {
        assert_int_equal(stpete_state_apply(st, id), STPETE_E_ILLEGAL_ACTION);
        assert_non_null(strstr(stpete_state_last_error(st), "sampled mode"));
        assert_int_equal(tg_is_legal(st, id), 0);
        assert_int_equal(tg_equal(st, before), 1);
    }
    /* every unlisted id of the initial state is refused as illegal */
    int refused = 0;
    for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++) {
        if (tg_is_legal(st, id))
            continue;
        assert_int_equal(stpete_state_apply(st, id), STPETE_E_ILLEGAL_ACTION);
        assert_true(strlen(stpete_state_last_error(st)) > 0);
        assert_int_equal(tg_equal(st, before), 1);
        refused++;
    }
    assert_true(refused > 900);
    /* the playout step: NULL, an unknown pick; the state unchanged, *id untouched */
    int picked = -7;
    assert_int_equal(stpete_state_apply_random(NULL, 0, STPETE_PICK_MODULO, &picked), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_apply_random(st, 0, STPETE_PICK_MODULO, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_non_null(strstr(stpete_state_last_error(st), "NULL"));
    for (int pick = -1; pick <= 2; pick += 3) {
        assert_int_equal(stpete_state_apply_random(st, 0, pick, &picked), STPETE_E_INVALID_ARGUMENT);
        assert_non_null(strstr(stpete_state_last_error(st), "pick"));
    }
    assert_int_equal(picked, -7);
    assert_int_equal(tg_equal(st, before), 1);
    /* a success clears the message */
    assert_true(strlen(stpete_state_last_error(st)) > 0);
    assert_int_equal(stpete_state_apply(st, 0), STPETE_OK);
    assert_string_equal(stpete_state_last_error(st), "");
    assert_int_equal(tg_equal(st, before), 0);

    /* an illegal action in the middle of a game, in each kind of decision that random play reaches */
    uint64_t rng = 3;
    int reached_kinds = 0;
    for (int want = STPETE_DECISION_TURN; want <= STPETE_DECISION_PUB; want++) {
        assert_int_equal(stpete_state_reset(st, 500 + (uint64_t)want), STPETE_OK);
        int reached = 0;
        for (int tries = 0; tries < 50 && !reached; tries++) {
            if (play_until_decision(st, want, &rng)) {
                reached = 1;
                break;
            }
            assert_int_equal(stpete_state_reset(st, 600 + (uint64_t)tries), STPETE_OK);
        }
        if (!reached)
            continue;
        reached_kinds++;
        assert_int_equal(stpete_state_copy(before, st), STPETE_OK);
        int bad = want == STPETE_DECISION_TURN ? 960 : 0; /* discard without a draw; pass while resolving */
        assert_int_equal(stpete_state_apply(st, bad), STPETE_E_ILLEGAL_ACTION);
        assert_true(strlen(stpete_state_last_error(st)) > 0);
        assert_int_equal(tg_equal(st, before), 1);
        assert_int_equal(stpete_state_decision(st), want);
    }
    assert_int_equal(reached_kinds, 3); /* turn, Observatory draw and Pub step were all reached */
    stpete_state_free(before);
    stpete_state_free(st);
    stpete_game_free(g);
}

static void test_apply_string(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 8);
    stpete_state *st = make_state(g);
    stpete_state *before = NULL;
    assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
    assert_int_equal(stpete_state_apply_string(st, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_true(strlen(stpete_state_last_error(st)) > 0);
    assert_int_equal(tg_equal(st, before), 1);
    assert_int_equal(stpete_state_apply_string(st, "fly to the moon"), STPETE_E_PARSE);
    assert_true(strlen(stpete_state_last_error(st)) > 0);
    assert_int_equal(tg_equal(st, before), 1);
    assert_int_equal(stpete_state_apply_string(st, ""), STPETE_E_PARSE);
    assert_int_equal(tg_equal(st, before), 1);
    assert_int_equal(stpete_state_apply_string(st, "observatory discard"), STPETE_E_ILLEGAL_ACTION);
    assert_true(strlen(stpete_state_last_error(st)) > 0);
    assert_int_equal(tg_equal(st, before), 1);
    /* a legal string applies like its id */
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    int id = ids[n - 1];
    char s[STPETE_ACTION_STRING_MAX];
    assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, id, s, sizeof s), STPETE_OK);
    assert_int_equal(stpete_state_apply_string(st, s), STPETE_OK);
    assert_string_equal(stpete_state_last_error(st), "");
    assert_int_equal(stpete_state_apply(before, id), STPETE_OK);
    assert_int_equal(tg_equal(st, before), 1);
    stpete_state_free(before);
    stpete_state_free(st);
    stpete_game_free(g);
}

static void test_game_over(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 4242);
        stpete_state *st = make_state(g);
        unsigned mask = 0;
        assert_int_equal(stpete_state_winners(st, &mask), STPETE_E_NOT_TERMINAL);
        play_to_end(st, 99);
        assert_int_equal(tg_is_terminal(st), 1);
        assert_int_equal(stpete_state_current_player(st), STPETE_PLAYER_TERMINAL);
        assert_int_equal(stpete_state_decision(st), STPETE_DECISION_GAME_OVER);
        assert_int_equal(stpete_state_phase(st), STPETE_PHASE_TRADING);
        assert_int_equal(tg_is_final_round(st), 1);
        size_t n = 99;
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
        assert_int_equal(n, 0);
        n = 99;
        assert_int_equal(stpete_state_legal_actions(st, NULL, 0, &n), STPETE_OK);
        assert_int_equal(n, 0);
        assert_int_equal(stpete_state_winners(st, &mask), STPETE_OK);
        assert_true(mask != 0 && mask < (1u << players));

        stpete_state *before = NULL;
        assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
        for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++) {
            assert_int_equal(tg_is_legal(st, id), 0);
            assert_int_equal(stpete_state_apply(st, id), STPETE_E_GAME_OVER);
            assert_true(strlen(stpete_state_last_error(st)) > 0);
            assert_int_equal(tg_equal(st, before), 1);
        }
        assert_int_equal(stpete_state_apply_string(st, "pass"), STPETE_E_GAME_OVER);
        assert_true(strlen(stpete_state_last_error(st)) > 0);
        assert_int_equal(tg_equal(st, before), 1);
        /* score breakdown of a finished game: the scoring applied (§8, R13) */
        for (int s = 0; s < players; s++) {
            stpete_score sc = STPETE_SCORE_INIT;
            int vp = 0;
            assert_int_equal(stpete_state_get_score(st, s, &sc), STPETE_OK);
            assert_int_equal(stpete_state_vp(st, s, &vp), STPETE_OK);
            assert_int_equal(sc.total, vp);
            assert_int_equal(sc.total, sc.vp_before + sc.aristocrat_bonus + sc.rubles_bonus + sc.hand_penalty);
            assert_int_equal(sc.rubles, stpete_state_rubles(st, s));
            assert_int_equal(sc.tie_break, sc.rubles % 10);
        }
        stpete_state_free(before);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

/* ---- events: re-entrancy ----------------------------------------------------------------------- */

typedef struct reentry {
    stpete_state *self;  /* the state whose callback this is (non-const handle kept by the test) */
    stpete_state *other; /* another state of the same game */
    int calls;
    int checked;
    int failures;
} reentry;

static void reentrant_cb(const stpete_state *state, const stpete_event *ev, void *user)
{
    reentry *r = user;
    r->calls++;
    if (state != r->self)
        r->failures++;
    if (ev->kind < STPETE_EVENT_PHASE_START || ev->kind > STPETE_EVENT_GAME_OVER)
        r->failures++;
    /* queries are allowed: clone the position, then try every mutating entry point */
    stpete_state *snap = NULL;
    if (stpete_state_clone(state, &snap, NULL) != STPETE_OK) {
        r->failures++;
        return;
    }
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    if (stpete_state_legal_actions(state, ids, STPETE_MAX_LEGAL_ACTIONS, &n) != STPETE_OK)
        r->failures++;
    /* the position seen by a callback is consistent: a drawn card exactly when an Observatory decision is open */
    if ((stpete_state_decision(state) == STPETE_DECISION_OBSERVATORY) != (stpete_state_observatory_card(state) >= 0))
        r->failures++;
    int try_ids[3] = { 0, n ? ids[0] : 0, n ? ids[n - 1] : 0 };
    for (int i = 0; i < 3; i++) {
        if (stpete_state_apply(r->self, try_ids[i]) != STPETE_E_REENTRANT)
            r->failures++;
        if (stpete_state_last_error(r->self)[0] == '\0')
            r->failures++;
        if (tg_equal(r->self, snap) != 1)
            r->failures++;
    }
    if (stpete_state_apply_string(r->self, "pass") != STPETE_E_REENTRANT)
        r->failures++;
    int picked = -7;
    if (stpete_state_apply_random(r->self, 3, STPETE_PICK_MODULO, &picked) != STPETE_E_REENTRANT || picked != -7)
        r->failures++;
    if (stpete_state_reset(r->self, 12345) != STPETE_E_REENTRANT)
        r->failures++;
    if (stpete_state_last_error(r->self)[0] == '\0')
        r->failures++;
    if (stpete_state_copy(r->self, r->other) != STPETE_E_REENTRANT)
        r->failures++;
    if (stpete_state_set_event_callback(r->self, NULL, NULL) != STPETE_E_REENTRANT)
        r->failures++;
    if (stpete_state_copy(r->self, state) != STPETE_E_REENTRANT) /* even a copy onto itself */
        r->failures++;
    if (tg_equal(r->self, snap) != 1)
        r->failures++;
    /* copying out of the state into another one is a query of this state: allowed */
    if (stpete_state_copy(r->other, state) != STPETE_OK)
        r->failures++;
    stpete_state_free(snap);
    r->checked++;
}

static void test_reentrant(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 2024);
    stpete_state *st = make_state(g);
    stpete_state *other = make_state(g);
    reentry r = { st, other, 0, 0, 0 };
    assert_int_equal(stpete_state_set_event_callback(st, reentrant_cb, &r), STPETE_OK);
    uint64_t rng = 5;
    int moves = 0, seen[3] = { 0, 0, 0 }; /* Observatory draws resolved by buy, take, discard */
    /* whole games, until an Observatory draw has been resolved in each of the three ways */
    for (uint64_t seed = 2024; seed < 2024 + 40 && !(seen[0] && seen[1] && seen[2]); seed++) {
        assert_int_equal(stpete_state_reset(st, seed), STPETE_OK);
        while (!tg_is_terminal(st)) {
            int id = step_random(st, &rng);
            moves++;
            if (id >= 745 && id <= 960)
                seen[id < 959 ? 0 : id - 958] = 1;
            /* the failed calls inside the callback did not leak out: the outer apply succeeded and cleared them */
            assert_string_equal(stpete_state_last_error(st), "");
        }
    }
    assert_true(seen[0] && seen[1] && seen[2]);
    assert_true(r.calls > moves);
    assert_int_equal(r.checked, r.calls);
    assert_int_equal(r.failures, 0);
    /* reset fires events too (deals, phase start), with the same protection */
    int calls = r.calls;
    assert_int_equal(stpete_state_reset(st, 9), STPETE_OK);
    assert_true(r.calls > calls);
    assert_int_equal(r.failures, 0);
    /* after the callback the state is freely mutable again */
    assert_int_equal(stpete_state_set_event_callback(st, NULL, NULL), STPETE_OK);
    calls = r.calls;
    assert_int_equal(stpete_state_apply(st, 0), STPETE_OK);
    assert_int_equal(r.calls, calls);
    stpete_state_free(other);
    stpete_state_free(st);
    stpete_game_free(g);
}


/* ---- equality is by position, not by history ---------------------------------------------------- */

/* Two move orders that reach the same position compare equal (stpete_state_equal compares positions: no stale
 * bytes past a hand, row or stack count). */
static void test_equal_positions_from_different_orders(void **unused)
{
    (void)unused;
    int found = 0;
    for (uint64_t seed = 1; seed < 50 && !found; seed++) {
        stpete_game *g = make_game(2, seed);
        stpete_state *a = make_state(g);
        int upper[STPETE_BOARD_SIZE];
        size_t n = 0;
        assert_int_equal(stpete_state_row(a, STPETE_SOURCE_UPPER, upper, STPETE_BOARD_SIZE, &n), STPETE_OK);
        int x = upper[0], y = -1;
        for (size_t i = 1; i < n; i++)
            if (upper[i] != x)
                y = upper[i];
        if (y >= 0) {
            found = 1;
            stpete_state *b = make_state(g);
            char take_x[STPETE_ACTION_STRING_MAX], take_y[STPETE_ACTION_STRING_MAX], play_x[STPETE_ACTION_STRING_MAX];
            snprintf(take_x, sizeof take_x, "take %s from upper", tg_card_name(STPETE_EDITION_FIRST, x));
            snprintf(take_y, sizeof take_y, "take %s from upper", tg_card_name(STPETE_EDITION_FIRST, y));
            snprintf(play_x, sizeof play_x, "play %s", tg_card_name(STPETE_EDITION_FIRST, x));
            const char *seq_a[] = { take_x, "pass", take_y, "pass", play_x };
            const char *seq_b[] = { take_y, "pass", take_x, "pass", play_x };
            int actor = stpete_state_current_player(a);
            for (int i = 0; i < 5; i++) {
                assert_int_equal(stpete_state_apply_string(a, seq_a[i]), STPETE_OK);
                assert_int_equal(stpete_state_apply_string(b, seq_b[i]), STPETE_OK);
            }
            /* same hand (y), same display (x), same rubles: the same position */
            int hand_a[STPETE_MAX_HAND], hand_b[STPETE_MAX_HAND];
            size_t na = 0, nb = 0;
            assert_int_equal(stpete_state_hand(a, actor, hand_a, STPETE_MAX_HAND, &na), 0);
            assert_int_equal(stpete_state_hand(b, actor, hand_b, STPETE_MAX_HAND, &nb), 0);
            assert_int_equal(na, 1);
            assert_int_equal(nb, 1);
            assert_int_equal(hand_a[0], y);
            assert_int_equal(hand_b[0], y);
            assert_int_equal(tg_equal(a, b), 1);
            /* and they stay equal under the same future */
            uint64_t ra = 77, rb = 77;
            while (!tg_is_terminal(a)) {
                assert_int_equal(step_random(a, &ra), step_random(b, &rb));
                assert_int_equal(tg_equal(a, b), 1);
            }
            stpete_state_free(b);
        }
        stpete_state_free(a);
        stpete_game_free(g);
    }
    assert_true(found);
}

/* ---- events see consistent positions ------------------------------------------------------------ */

typedef struct final_seen {
    int players;
    int events;
    int vp_at_event[STPETE_MAX_PLAYERS][STPETE_MAX_PLAYERS]; /* [event][seat] */
} final_seen;

static void final_cb(const stpete_state *state, const stpete_event *ev, void *user)
{
    final_seen *f = user;
    if (ev->kind != STPETE_EVENT_FINAL_SCORING)
        return;
    for (int s = 0; s < f->players; s++)
        stpete_state_vp(state, s, &f->vp_at_event[f->events][s]);
    f->events++;
}

/* Every FINAL_SCORING event (§8) sees every player's final VP, not a half-scored table. */
static void test_final_scoring_events_see_final_scores(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(4, 31);
    stpete_state *st = make_state(g);
    final_seen f;
    memset(&f, 0, sizeof f);
    f.players = 4;
    assert_int_equal(stpete_state_set_event_callback(st, final_cb, &f), STPETE_OK);
    play_to_end(st, 99);
    assert_int_equal(f.events, 4);
    for (int e = 0; e < 4; e++)
        for (int s = 0; s < 4; s++) {
            int vp = 0;
            assert_int_equal(stpete_state_vp(st, s, &vp), STPETE_OK);
            assert_int_equal(f.vp_at_event[e][s], vp);
        }
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- error messages ----------------------------------------------------------------------------- */

/* Length of the valid UTF-8 prefix of s (whole string if valid). */
static size_t utf8_valid_prefix(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (p[i]) {
        int extra = p[i] < 0x80 ? 0 : (p[i] & 0xE0) == 0xC0 ? 1 : (p[i] & 0xF0) == 0xE0 ? 2 : (p[i] & 0xF8) == 0xF0 ? 3 : -1;
        if (extra < 0)
            return i;
        for (int k = 1; k <= extra; k++)
            if ((p[i + k] & 0xC0) != 0x80)
                return i;
        i += (size_t)extra + 1;
    }
    return i;
}

/* Every refusal's message is complete valid UTF-8 that names the action (bindings decode it as UTF-8). */
static void test_error_messages_are_utf8(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 5);
    stpete_state *st = make_state(g);
    uint64_t rng = 3;
    int checked = 0;
    for (int game = 0; game < 20; game++) {
        assert_int_equal(stpete_state_reset(st, (uint64_t)game), STPETE_OK);
        while (!tg_is_terminal(st)) {
            for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id += 7) {
                if (tg_is_legal(st, id))
                    continue;
                assert_int_equal(stpete_state_apply(st, id), STPETE_E_ILLEGAL_ACTION);
                const char *msg = stpete_state_last_error(st);
                assert_int_equal(utf8_valid_prefix(msg), strlen(msg));
                char name[STPETE_ACTION_STRING_MAX];
                assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, id, name, sizeof name), STPETE_OK);
                assert_non_null(strstr(msg, name));
                checked++;
            }
            step_random(st, &rng);
        }
    }
    assert_true(checked > 1000);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- clone, copy ------------------------------------------------------------------------------- */

static int count_events_cb_calls;
static void count_events_cb(const stpete_state *state, const stpete_event *ev, void *user)
{
    (void)state;
    (void)ev;
    (void)user;
    count_events_cb_calls++;
}

static void test_clone_copy_independence(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(4, 31337);
    stpete_state *a = make_state(g);
    uint64_t rng = 17;
    for (int i = 0; i < 30; i++)
        step_random(a, &rng);
    stpete_state *b = NULL;
    assert_int_equal(stpete_state_clone(a, &b, NULL), STPETE_OK);
    assert_ptr_equal(stpete_state_game(b), g);
    assert_int_equal(tg_equal(a, b), 1);
    stpete_state *a0 = NULL;
    assert_int_equal(stpete_state_clone(a, &a0, NULL), STPETE_OK);

    /* advancing the clone does not touch the original */
    uint64_t rng_b = 99;
    for (int i = 0; i < 20 && !tg_is_terminal(b); i++)
        step_random(b, &rng_b);
    assert_int_equal(tg_equal(a, a0), 1);
    assert_int_equal(tg_equal(a, b), 0);

    /* the same moves on original and clone give equal states (the PRNG is part of the state) */
    stpete_state *c = NULL;
    assert_int_equal(stpete_state_clone(a, &c, NULL), STPETE_OK);
    uint64_t r1 = 5, r2 = 5;
    while (!tg_is_terminal(a)) {
        int x = step_random(a, &r1);
        int y = step_random(c, &r2);
        assert_int_equal(x, y);
        assert_int_equal(tg_equal(a, c), 1);
    }
    /* copy restores a position, without allocating, into a state that diverged */
    assert_int_equal(stpete_state_copy(a, a0), STPETE_OK);
    assert_int_equal(tg_equal(a, a0), 1);
    assert_string_equal(stpete_state_last_error(a), "");
    step_random(a, &rng);
    assert_int_equal(tg_equal(a, a0), 0);
    assert_int_equal(stpete_state_copy(a, a), STPETE_OK); /* self copy is a no-op */

    /* the event callback is not copied by clone; copy keeps the destination's */
    count_events_cb_calls = 0;
    assert_int_equal(stpete_state_set_event_callback(a0, count_events_cb, NULL), STPETE_OK);
    stpete_state *d = NULL;
    assert_int_equal(stpete_state_clone(a0, &d, NULL), STPETE_OK);
    step_random(d, &rng);
    assert_int_equal(count_events_cb_calls, 0);
    assert_int_equal(stpete_state_copy(a0, d), STPETE_OK);
    assert_int_equal(tg_equal(a0, d), 1);
    step_random(a0, &rng);                  /* a move on a0... */
    assert_true(count_events_cb_calls > 0); /* ...is reported to a0's own callback */

    stpete_state_free(a);
    stpete_state_free(a0);
    stpete_state_free(b);
    stpete_state_free(c);
    stpete_state_free(d);
    stpete_game_free(g);
}

static void test_copy_mismatch(void **unused)
{
    (void)unused;
    stpete_options base;
    stpete_options_init(&base);
    base.players = 4;
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(&base, &g, NULL), STPETE_OK);
    stpete_state *st = make_state(g);

    for (int variant = 0; variant < 6; variant++) {
        stpete_options o = base;
        switch (variant) {
        case 0: o.players = 3; break;
        case 1: o.players = 2; break;
        case 2: o.pub_cap = STPETE_PUB_CAP_PER_PLAYER; break;
        case 3: o.tie_break = STPETE_TIE_BREAK_RUBLES_TOTAL; break;
        case 4: o.start_markers[0] = 0; o.start_markers[1] = 1; o.start_markers[2] = 2; o.start_markers[3] = 3; break;
        default: o.public_rubles = 1; break;
        }
        stpete_game *h = NULL;
        assert_int_equal(stpete_game_new(&o, &h, NULL), STPETE_OK);
        stpete_state *other = make_state(h);
        stpete_state *before = NULL, *other_before = NULL;
        assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
        assert_int_equal(stpete_state_clone(other, &other_before, NULL), STPETE_OK);
        assert_int_equal(stpete_state_copy(st, other), STPETE_E_MISMATCH);
        assert_true(strlen(stpete_state_last_error(st)) > 0);
        assert_int_equal(stpete_state_copy(other, st), STPETE_E_MISMATCH);
        assert_int_equal(tg_equal(st, before), 1);
        assert_int_equal(tg_equal(other, other_before), 1);
        assert_int_equal(tg_equal(st, other), 0);
        stpete_state_free(before);
        stpete_state_free(other_before);
        stpete_state_free(other);
        stpete_game_free(h);
    }
    /* a second game with the same options: copy works both ways */
    stpete_game *same = NULL;
    assert_int_equal(stpete_game_new(&base, &same, NULL), STPETE_OK);
    stpete_state *twin = make_state(same);
    uint64_t rng = 1;
    for (int i = 0; i < 10; i++)
        step_random(twin, &rng);
    assert_int_equal(stpete_state_copy(st, twin), STPETE_OK);
    assert_int_equal(tg_equal(st, twin), 1);
    stpete_state_free(twin);
    stpete_game_free(same);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- determinism, seeds, reset ------------------------------------------------------------------ */

static void test_determinism(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        for (uint64_t seed = 0; seed < 5; seed++) {
            /* two independent games with the same options and seed */
            stpete_game *g1 = make_game(players, seed * 7919 + 1);
            stpete_game *g2 = make_game(players, seed * 7919 + 1);
            stpete_state *a = make_state(g1);
            stpete_state *b = make_state(g2);
            uint64_t ra = seed + 100, rb = seed + 100;
            int moves = 0;
            assert_int_equal(tg_equal(a, b), 1);
            while (!tg_is_terminal(a)) {
                int ids_a[STPETE_MAX_LEGAL_ACTIONS], ids_b[STPETE_MAX_LEGAL_ACTIONS];
                size_t na = 0, nb = 0;
                assert_int_equal(stpete_state_legal_actions(a, ids_a, STPETE_MAX_LEGAL_ACTIONS, &na), STPETE_OK);
                assert_int_equal(stpete_state_legal_actions(b, ids_b, STPETE_MAX_LEGAL_ACTIONS, &nb), STPETE_OK);
                assert_int_equal(na, nb);
                assert_memory_equal(ids_a, ids_b, na * sizeof ids_a[0]);
                int x = step_random(a, &ra);
                int y = step_random(b, &rb);
                assert_int_equal(x, y);
                assert_true(++moves < 5000);
            }
            assert_int_equal(tg_is_terminal(b), 1);
            assert_int_equal(tg_equal(a, b), 1);
            unsigned wa = 0, wb = 0;
            assert_int_equal(stpete_state_winners(a, &wa), STPETE_OK);
            assert_int_equal(stpete_state_winners(b, &wb), STPETE_OK);
            assert_int_equal(wa, wb);
            for (int s = 0; s < players; s++) {
                int va = 0, vb = 0;
                assert_int_equal(stpete_state_vp(a, s, &va), STPETE_OK);
                assert_int_equal(stpete_state_vp(b, s, &vb), STPETE_OK);
                assert_int_equal(va, vb);
            }
            stpete_state_free(a);
            stpete_state_free(b);
            stpete_game_free(g1);
            stpete_game_free(g2);
        }
    }
}

/* A summary of a setup: upper row, start markers. */
static void setup_signature(const stpete_state *st, char *out, size_t size)
{
    int row[STPETE_BOARD_SIZE];
    size_t n = 0;
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, row, STPETE_BOARD_SIZE, &n), STPETE_OK);
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(out + len, size - len, "%d,", row[i]);
    for (int k = 0; k < 4; k++)
        len += (size_t)snprintf(out + len, size - len, "m%d", stpete_state_marker_holder(st, k));
}

static void test_seeds_differ(void **unused)
{
    (void)unused;
    enum { SEEDS = 64 };
    for (int players = 2; players <= 4; players++) {
        static char sig[SEEDS][128];
        stpete_state *states[SEEDS];
        stpete_game *games[SEEDS];
        for (int i = 0; i < SEEDS; i++) {
            games[i] = make_game(players, (uint64_t)i);
            states[i] = make_state(games[i]);
            setup_signature(states[i], sig[i], sizeof sig[i]);
        }
        int distinct_sig = 0, distinct_state = 0;
        for (int i = 0; i < SEEDS; i++) {
            int dup_sig = 0, dup_state = 0;
            for (int j = 0; j < i; j++) {
                dup_sig |= strcmp(sig[i], sig[j]) == 0;
                dup_state |= tg_equal(states[i], states[j]) == 1;
            }
            distinct_sig += !dup_sig;
            distinct_state += !dup_state;
        }
        /* the visible setup differs for most seeds; full positions (stacks, PRNG) for all */
        assert_true(distinct_sig >= SEEDS * 9 / 10);
        assert_int_equal(distinct_state, SEEDS);
        /* the same seed, the same setup */
        stpete_game *again = make_game(players, 5);
        stpete_state *st = make_state(again);
        assert_int_equal(tg_equal(st, states[5]), 1);
        stpete_state_free(st);
        stpete_game_free(again);
        for (int i = 0; i < SEEDS; i++) {
            stpete_state_free(states[i]);
            stpete_game_free(games[i]);
        }
    }
}

static void test_reset(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 1);
        stpete_state *st = make_state(g);
        uint64_t rng = 8;
        for (uint64_t seed = 0; seed < 20; seed++) {
            /* play a bit, then reset: equal to a fresh state of a game with that seed */
            for (int i = 0; i < 25 && !tg_is_terminal(st); i++)
                step_random(st, &rng);
            uint64_t s = seed * UINT64_C(0x9E3779B97F4A7C15);
            assert_int_equal(stpete_state_reset(st, s), STPETE_OK);
            stpete_game *h = make_game(players, s);
            stpete_state *fresh = make_state(h);
            assert_int_equal(tg_equal(st, fresh), 1);
            assert_int_equal(stpete_state_round(st), 1);
            assert_int_equal(stpete_state_phase(st), STPETE_PHASE_WORKER);
            stpete_state_free(fresh);
            stpete_game_free(h);
        }
        /* reset to the game's own seed = a new state */
        assert_int_equal(stpete_state_reset(st, 1), STPETE_OK);
        stpete_state *fresh = make_state(g);
        assert_int_equal(tg_equal(st, fresh), 1);
        stpete_state_free(fresh);
        /* reset after the end of a game */
        play_to_end(st, 4);
        assert_int_equal(stpete_state_reset(st, 1), STPETE_OK);
        assert_int_equal(tg_is_terminal(st), 0);
        fresh = make_state(g);
        assert_int_equal(tg_equal(st, fresh), 1);
        stpete_state_free(fresh);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

/* Initial state: the public facts of §3 setup (R15). */
static void test_initial_state(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        for (uint64_t seed = 0; seed < 10; seed++) {
            stpete_game *g = make_game(players, seed);
            stpete_state *st = make_state(g);
            assert_int_equal(stpete_state_round(st), 1);
            assert_int_equal(stpete_state_phase(st), STPETE_PHASE_WORKER);
            assert_int_equal(stpete_state_decision(st), STPETE_DECISION_TURN);
            assert_int_equal(tg_is_terminal(st), 0);
            assert_int_equal(tg_is_final_round(st), 0);
            assert_int_equal(stpete_state_consecutive_passes(st), 0);
            assert_int_equal(stpete_state_observatory_card(st), -1);
            assert_int_equal(stpete_state_current_player(st), stpete_state_marker_holder(st, STPETE_PHASE_WORKER));
            int held[4] = { 0 };
            for (int k = 0; k < 4; k++) {
                int s = stpete_state_marker_holder(st, k);
                assert_true(s >= 0 && s < players);
                held[s]++;
            }
            for (int s = 0; s < players; s++) {
                assert_true(held[s] == (players == 4 ? 1 : players == 2 ? 2 : held[s]));
                assert_true(held[s] >= 1 && held[s] <= 2);
                assert_int_equal(stpete_state_rubles(st, s), 25);
                int vp = -1;
                assert_int_equal(stpete_state_vp(st, s, &vp), STPETE_OK);
                assert_int_equal(vp, 0);
                assert_int_equal(stpete_state_hand_limit(st, s), 3);
                assert_int_equal(stpete_state_observatories_used(st, s), 0);
            }
            size_t n = 0;
            int row[STPETE_BOARD_SIZE];
            assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, row, STPETE_BOARD_SIZE, &n), STPETE_OK);
            assert_int_equal(n, 2 * (size_t)players);
            for (size_t i = 0; i < n; i++)
                assert_true(row[i] <= STPETE_CARD_CZAR_AND_CARPENTER);
            assert_int_equal(stpete_state_stack_size(st, STPETE_STACK_WORKER), 31 - 2 * players);
            assert_int_equal(stpete_state_stack_size(st, STPETE_STACK_BUILDING), 28);
            assert_int_equal(stpete_state_stack_size(st, STPETE_STACK_ARISTOCRAT), 27);
            assert_int_equal(stpete_state_stack_size(st, STPETE_STACK_TRADING), 30);
            stpete_state_free(st);
            stpete_game_free(g);
        }
    }
}

/* ---- allocator --------------------------------------------------------------------------------- */

static void *count_malloc(void *user, size_t size)
{
    counting *c = user;
    if (c->fail_after > 0 && --c->fail_after == 0)
        return NULL;
    c->mallocs++;
    c->live++;
    return malloc(size);
}

static void *count_realloc(void *user, void *ptr, size_t size)
{
    counting *c = user;
    if (c->fail_after > 0 && --c->fail_after == 0)
        return NULL;
    if (!ptr) { /* realloc(NULL, n) is a malloc: a new block */
        c->mallocs++;
        c->live++;
    } else {
        c->reallocs++;
    }
    return realloc(ptr, size);
}

static void count_free(void *user, void *ptr)
{
    counting *c = user;
    assert_non_null(ptr); /* "never called with NULL" */
    c->frees++;
    c->live--;
    free(ptr);
}

static void test_allocator(void **unused)
{
    (void)unused;
    counting c = { 0, 0, 0, 0, 0 };
    stpete_options o;
    stpete_options_init(&o);
    o.players = 3;
    o.seed = 77;
    o.allocator.malloc_fn = count_malloc;
    o.allocator.realloc_fn = count_realloc;
    o.allocator.free_fn = count_free;
    o.allocator.user = &c;
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
    long after_game = c.mallocs + c.reallocs;
    assert_true(after_game >= 1);
    stpete_options got;
    stpete_options_init(&got);
    assert_int_equal(stpete_game_get_options(g, &got), STPETE_OK);
    assert_ptr_equal(got.allocator.user, &c);

    stpete_state *st = make_state(g);
    long after_state = c.mallocs + c.reallocs;
    assert_true(after_state > after_game);
    stpete_state *cl = NULL;
    assert_int_equal(stpete_state_clone(st, &cl, NULL), STPETE_OK);
    long after_clone = c.mallocs + c.reallocs;
    assert_true(after_clone > after_state);

    /* the history grows in the first games of a state (amortized); then playing, listing, copying and resetting
     * allocate nothing */
    uint64_t rng = 2;
    play_to_end(st, 3);
    play_to_end(cl, 4);
    long warm = c.mallocs + c.reallocs;
    assert_true(warm - after_clone <= 8);
    for (uint64_t seed = 10; seed < 20; seed++) {
        assert_int_equal(stpete_state_reset(st, seed), STPETE_OK);
        play_to_end(st, seed);
        assert_int_equal(stpete_state_copy(cl, st), STPETE_OK);
        assert_int_equal(stpete_state_reset(cl, seed), STPETE_OK);
        step_random(cl, &rng);
    }
    assert_int_equal(c.mallocs + c.reallocs, warm);
    stpete_state_free(cl);
    stpete_state_free(st);
    stpete_game_free(g);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.frees, c.mallocs);

    /* failing allocations: OUT_OF_MEMORY, *out = NULL, nothing leaked */
    c = (counting){ 0, 0, 0, 0, 1 };
    stpete_game *bad = (stpete_game *)(uintptr_t)1;
    assert_int_equal(stpete_game_new(&o, &bad, NULL), STPETE_E_OUT_OF_MEMORY);
    assert_null(bad);
    assert_int_equal(c.live, 0);

    c = (counting){ 0, 0, 0, 0, 0 };
    assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
    st = make_state(g);
    c.fail_after = 1;
    stpete_state *nst = (stpete_state *)(uintptr_t)1;
    assert_int_equal(stpete_state_new(g, &nst, NULL), STPETE_E_OUT_OF_MEMORY);
    assert_null(nst);
    c.fail_after = 1;
    nst = (stpete_state *)(uintptr_t)1;
    assert_int_equal(stpete_state_clone(st, &nst, NULL), STPETE_E_OUT_OF_MEMORY);
    assert_null(nst);
    c.fail_after = 0;
    stpete_state_free(st);
    stpete_game_free(g);
    assert_int_equal(c.live, 0);
}

/* ---- options, names and front-end helpers (issues 11 and 14) ----------------------------------------------- */

/* stpete_options_check() explains what stpete_game_new() refuses, with the status stpete_game_new() returns. */
static void test_options_check_reasons(void **unused)
{
    (void)unused;
    struct {
        int field, value; /* 0 players, 1 pub_cap, 2 tie_break, 3 markers partial, 4 markers 3 on one seat,
                             5 public_rubles, 6 public_hands */
        const char *expect;
    } cases[] = {
        { 0, 5, "players must be 2, 3 or 4, not 5" },
        { 0, 1, "players must be 2, 3 or 4, not 1" },
        { 1, 7, "pub_cap must be" },
        { 2, -1, "tie_break must be" },
        { 3, 0, "start_markers must be all -1" },
        { 4, 0, "holds 3 start-player markers" },
        { 5, 2, "public_rubles must be 0 or 1, not 2" },
        { 6, -3, "public_hands must be 0 or 1, not -3" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        stpete_options o;
        stpete_options_init(&o);
        switch (cases[i].field) {
        case 0: o.players = cases[i].value; break;
        case 1: o.pub_cap = cases[i].value; break;
        case 2: o.tie_break = cases[i].value; break;
        case 3: o.start_markers[0] = 0; break;
        case 4: { const int m[4] = { 0, 0, 0, 1 }; o.players = 2; memcpy(o.start_markers, m, sizeof m); break; }
        case 5: o.public_rubles = cases[i].value; break;
        default: o.public_hands = cases[i].value; break;
        }
        stpete_error err = STPETE_ERROR_INIT;
        assert_int_equal(stpete_options_check(&o, &err), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(err.status, STPETE_E_INVALID_ARGUMENT);
        if (!strstr(err.message, cases[i].expect))
            fail_msg("case %zu: \"%s\" does not say \"%s\"", i, err.message, cases[i].expect);
        stpete_game *g = (stpete_game *)1;
        stpete_error err2 = STPETE_ERROR_INIT;
        assert_int_equal(stpete_game_new(&o, &g, &err2), STPETE_E_INVALID_ARGUMENT); /* the same verdict */
        assert_string_equal(err2.message, err.message);                              /* and reason */
        assert_null(g);
    }
    stpete_options o;
    stpete_options_init(&o);
    stpete_error err = STPETE_ERROR_INIT;
    err.message[0] = 'x';
    assert_int_equal(stpete_options_check(&o, &err), STPETE_OK);
    assert_string_equal(err.message, "");
    assert_int_equal(err.status, STPETE_OK);
    o.players = 9;
    assert_int_equal(stpete_options_check(&o, &err), STPETE_E_INVALID_ARGUMENT);
    assert_string_equal(err.message, "players must be 2, 3 or 4, not 9");
    assert_int_equal(err.line, -1);
    assert_int_equal(stpete_options_check(&o, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_options_check(NULL, &err), STPETE_E_INVALID_ARGUMENT);
    /* the detail struct follows the struct_size rule: 0 or larger than the library's is refused, nothing written */
    stpete_error bad = STPETE_ERROR_INIT;
    bad.struct_size = 0;
    assert_int_equal(stpete_options_check(&o, &bad), STPETE_E_UNSUPPORTED_VERSION);
    bad.struct_size = sizeof bad + 8;
    assert_int_equal(stpete_options_check(&o, &bad), STPETE_E_UNSUPPORTED_VERSION);
    assert_string_equal(bad.message, "");
    o.struct_size = 0;
    assert_int_equal(stpete_options_check(&o, &err), STPETE_E_UNSUPPORTED_VERSION);
}

/* The name functions give the JSON format's words, NULL out of range (§1, §4). */
static void test_names(void **unused)
{
    (void)unused;
    static const char *const phases[] = { "worker", "building", "aristocrat", "trading" };
    for (int i = 0; i < STPETE_NUM_PHASES; i++) {
        assert_string_equal(stpete_phase_name(i), phases[i]);
        assert_string_equal(stpete_stack_name(i), phases[i]); /* a stack is named by its phase */
    }
    assert_string_equal(stpete_decision_name(STPETE_DECISION_GAME_OVER), "game-over");
    assert_int_equal(STPETE_DECISION_GAME_OVER, STPETE_DECISION_GAME_OVER);
    assert_string_equal(stpete_source_name(STPETE_SOURCE_LOWER), "lower");
    assert_string_equal(stpete_event_kind_name(STPETE_EVENT_PHASE_START), "phase-start");
    assert_string_equal(stpete_event_kind_name(STPETE_EVENT_GAME_OVER), "game-over");
    static const int bad[] = { -1, 4, 100, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_null(stpete_phase_name(bad[i]));
        assert_null(stpete_stack_name(bad[i]));
        assert_null(stpete_decision_name(bad[i] == 4 ? STPETE_DECISION_TRADING_HOUSE + 1 : bad[i]));
        assert_null(stpete_source_name(bad[i] == 4 ? STPETE_SOURCE_DISCARD + 1 : bad[i]));
        assert_null(stpete_event_kind_name(bad[i] == 4 ? STPETE_EVENT_GOLD_DISC + 1 : bad[i]));
    }
}

/* stpete_state_action_price(): the price of every priced legal action equals the price query with its decoded
 * arguments (§5); free actions have none (STPETE_E_NO_PRICE); illegal ones are refused. */
static void test_action_price(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 5);
    stpete_state *st = make_state(g);
    uint64_t rng = 17;
    long priced = 0, free_ = 0;
    for (int game = 0; game < 20; game++) {
        assert_int_equal(stpete_state_reset(st, 500 + (uint64_t)game), STPETE_OK);
        while (!tg_is_terminal(st)) {
            int ids[STPETE_MAX_LEGAL_ACTIONS];
            size_t n = 0;
            assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
            int seat = stpete_state_current_player(st);
            for (size_t i = 0; i < n; i++) {
                stpete_action a;
                assert_int_equal(stpete_action_decode(ids[i], &a), STPETE_OK);
                int rubles = -1, rc = stpete_state_action_price(st, ids[i], &rubles);
                if (a.kind == STPETE_ACTION_BUY || a.kind == STPETE_ACTION_PLAY ||
                    a.kind == STPETE_ACTION_OBSERVATORY_BUY) {
                    int p = -1;
                    assert_int_equal(stpete_state_price(st, seat, a.card, a.source, a.displaced, &p), STPETE_OK);
                    assert_int_equal(rc, STPETE_OK);
                    assert_int_equal(rubles, p);
                    assert_true(p >= 1 && p <= stpete_state_rubles(st, seat));
                    priced++;
                } else if (a.kind == STPETE_ACTION_PUB) {
                    assert_int_equal(rc, STPETE_OK);
                    assert_int_equal(rubles, 2 * a.amount); /* §7.2 */
                } else {
                    assert_int_equal(rc, STPETE_E_NO_PRICE);
                    assert_int_equal(rubles, 0);
                    free_++;
                }
            }
            /* an id that is not legal now */
            uint8_t mask[STPETE_NUM_DISTINCT_ACTIONS];
            assert_int_equal(stpete_state_legal_action_mask(st, mask, sizeof mask), STPETE_OK);
            for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id += 37)
                if (!mask[id]) {
                    int r = 0;
                    assert_int_equal(stpete_state_action_price(st, id, &r), STPETE_E_ILLEGAL_ACTION);
                }
            step_random(st, &rng);
        }
    }
    assert_true(priced > 1000 && free_ > 1000);
    int r = 0;
    assert_int_equal(stpete_state_action_price(st, 0, &r), STPETE_E_GAME_OVER);
    assert_int_equal(stpete_state_action_price(st, -1, &r), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_action_price(st, STPETE_NUM_DISTINCT_ACTIONS, &r), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_action_price(st, 0, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_action_price(NULL, 0, &r), STPETE_E_INVALID_ARGUMENT);
    stpete_state_free(st);
    stpete_game_free(g);
}

typedef struct setup_log {
    int deals, phase_starts, other;
    char first_line[STPETE_EVENT_STRING_MAX];
} setup_log;

static void log_setup(const stpete_state *st, const stpete_event *ev, void *user)
{
    setup_log *log = user;
    if (ev->kind == STPETE_EVENT_DEAL) {
        if (log->deals++ == 0)
            assert_int_equal(stpete_event_to_string(ev, st, log->first_line, sizeof log->first_line), STPETE_OK);
    } else if (ev->kind == STPETE_EVENT_PHASE_START) {
        log->phase_starts++;
    } else {
        log->other++;
    }
}

/* stpete_state_new_with_callback(): the callback hears the setup deal (§3.4: 2 workers per player) and the first
 * phase start, and stays set; the position is the one stpete_state_new() makes. */
static void test_new_with_callback_reports_setup(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 31);
        setup_log log = { 0, 0, 0, "" };
        stpete_state *st = NULL;
        assert_int_equal(stpete_state_new_with_callback(g, log_setup, &log, &st, NULL), STPETE_OK);
        assert_int_equal(log.deals, 2 * players);
        assert_int_equal(log.phase_starts, 1);
        assert_int_equal(log.other, 0);
        int first = -1;
        size_t n = 0;
        assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, &first, 1, &n), STPETE_E_BUFFER_TOO_SMALL);
        int row[STPETE_BOARD_SIZE];
        assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, row, STPETE_BOARD_SIZE, &n), STPETE_OK);
        char want[STPETE_EVENT_STRING_MAX];
        snprintf(want, sizeof want, "dealt %s from the worker stack to the upper row", tg_card_name(STPETE_EDITION_FIRST, row[0]));
        assert_string_equal(log.first_line, want);
        stpete_state *plain = make_state(g);
        assert_int_equal(tg_equal(st, plain), 1);
        step_random(st, &(uint64_t){ 1 });
        assert_true(log.other > 0); /* still set */
        stpete_state_free(plain);
        stpete_state_free(st);
        stpete_game_free(g);
    }
    stpete_state *st = (stpete_state *)1;
    assert_int_equal(stpete_state_new_with_callback(NULL, log_setup, NULL, &st, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_null(st);
    assert_int_equal(stpete_state_new_with_callback(NULL, NULL, NULL, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
}

/* An event callback: the line of the first purchase, formatted with the state that reports it. */
static void line_of_first_buy(const stpete_state *st, const stpete_event *ev, void *user)
{
    char *seen = user;
    if (ev->kind == STPETE_EVENT_BUY && !seen[0])
        assert_int_equal(stpete_event_to_string(ev, st, seen, STPETE_EVENT_STRING_MAX), STPETE_OK);
}

/* stpete_event_to_string(): the lines of the selfplay log, with and without the state's details; bad events and
 * small buffers are refused. */
static void test_event_to_string(void **unused)
{
    (void)unused;
    stpete_event ev = { sizeof ev, STPETE_EVENT_BUY, 1, STPETE_CARD_WHARF, STPETE_CARD_SHIP_BUILDER, STPETE_SOURCE_UPPER, -1, 5,
                        -1, -1, -1, STPETE_PHASE_TRADING, 3, 1 };
    char buf[STPETE_EVENT_STRING_MAX];
    assert_int_equal(stpete_event_to_string(&ev, NULL, buf, sizeof buf), STPETE_OK);
    assert_string_equal(buf, "seat 1 buys Wharf from the upper row, displacing Ship Builder, for 5 R");
    stpete_game *g = make_game(2, 3);
    stpete_state *st = make_state(g);
    /* a state outside its callback adds nothing (it has moved on since the event); inside, the rubles left */
    assert_int_equal(stpete_event_to_string(&ev, st, buf, sizeof buf), STPETE_OK);
    assert_string_equal(buf, "seat 1 buys Wharf from the upper row, displacing Ship Builder, for 5 R");
    char seen[STPETE_EVENT_STRING_MAX] = "";
    assert_int_equal(stpete_state_set_event_callback(st, line_of_first_buy, seen), STPETE_OK);
    uint64_t rng = 11;
    for (int i = 0; i < 200 && !seen[0] && !tg_is_terminal(st); i++)
        step_random(st, &rng);
    assert_non_null(strstr(seen, " buys "));
    assert_non_null(strstr(seen, " R left)"));
    assert_int_equal(stpete_state_set_event_callback(st, NULL, NULL), STPETE_OK);
    char small[10];
    assert_int_equal(stpete_event_to_string(&ev, NULL, small, sizeof small), STPETE_E_BUFFER_TOO_SMALL);
    assert_string_equal(small, "seat 1 bu");
    assert_int_equal(stpete_event_to_string(&ev, NULL, small, 0), STPETE_E_BUFFER_TOO_SMALL);
    stpete_event bad = ev;
    bad.card = STPETE_NUM_CARD_TYPES_NEW_SOCIETY; /* 49..61: the New Society's (§12.2.3) */
    assert_int_equal(stpete_event_to_string(&bad, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    bad = ev;
    bad.kind = 16;
    assert_int_equal(stpete_event_to_string(&bad, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    bad = ev;
    bad.source = 9;
    assert_int_equal(stpete_event_to_string(&bad, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_event_to_string(NULL, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_event_to_string(&ev, NULL, NULL, 5), STPETE_E_INVALID_ARGUMENT);
    /* every event of real games has a line that fits */
    stpete_state_free(st);
    stpete_game_free(g);
}

/* stpete_event_to_string() with every kind's members out of range (issue 31 item 2): a member the kind uses out of
 * range is STPETE_E_INVALID_ARGUMENT; a member it does not use is never read, whatever it holds (1.0 read
 * names[card] for every kind first: a PASS with card 1000 read past the card table, with 100000000 it crashed). The
 * members each kind uses are those of stpete_event_kind's comments that index a table or name a seat. */
enum { M_SEAT, M_CARD, M_DISPLACED, M_SOURCE, M_STACK, M_PHASE, M_AMOUNT, M_EDITION, NUM_M };
static int *event_member(stpete_event *ev, int m)
{
    int *members[NUM_M] = { &ev->seat, &ev->card, &ev->displaced, &ev->source, &ev->stack, &ev->phase, &ev->amount,
                            &ev->edition };
    return members[m];
}

static void test_event_members_out_of_range(void **unused)
{
    (void)unused;
#define U(m) (1u << (m))
    static const struct {
        stpete_event ev; /* a valid event of the kind */
        unsigned used;   /* the members it checks (the edition always) */
        unsigned shown;  /* members it prints as numbers, any value (pass count, VP bought, cards discarded) */
    } kinds[] = {
        { { sizeof(stpete_event), STPETE_EVENT_PHASE_START, 1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 3, 1 },
          U(M_SEAT) | U(M_PHASE), 0 },
        { { sizeof(stpete_event), STPETE_EVENT_DEAL, -1, 5, -1, -1, 2, -1, -1, -1, -1, 0, 1, 1 },
          U(M_CARD) | U(M_STACK), 0 },
        { { sizeof(stpete_event), STPETE_EVENT_BUY, 1, 20, 3, 1, -1, 5, -1, -1, -1, 2, 3, 1 },
          U(M_SEAT) | U(M_CARD) | U(M_DISPLACED) | U(M_SOURCE), 0 },
        { { sizeof(stpete_event), STPETE_EVENT_PLAY, 0, 20, -1, 2, -1, 7, -1, -1, -1, 2, 3, 2 },
          U(M_SEAT) | U(M_CARD) | U(M_DISPLACED) | U(M_SOURCE), 0 },
        { { sizeof(stpete_event), STPETE_EVENT_TAKE, 2, 9, -1, 0, -1, -1, -1, -1, -1, 2, 3, 1 },
          U(M_SEAT) | U(M_CARD) | U(M_DISPLACED) | U(M_SOURCE), 0 },
        { { sizeof(stpete_event), STPETE_EVENT_DISPLACE, 1, 3, -1, -1, -1, -1, -1, -1, -1, 2, 3, 1 },
          U(M_SEAT) | U(M_CARD), 0 },
        { { sizeof(stpete_event), STPETE_EVENT_PASS, 3, -1, -1, -1, -1, -1, -1, -1, 2, 2, 3, 1 },
          U(M_SEAT), U(M_AMOUNT) },
        { { sizeof(stpete_event), STPETE_EVENT_OBSERVATORY_DRAW, 0, 11, -1, -1, 3, -1, -1, -1, -1, 2, 3, 1 },
          U(M_SEAT) | U(M_CARD) | U(M_STACK), 0 },
        { { sizeof(stpete_event), STPETE_EVENT_OBSERVATORY_DISCARD, 0, 11, -1, -1, -1, -1, -1, -1, -1, 2, 3, 1 },
          U(M_SEAT) | U(M_CARD), 0 },
        { { sizeof(stpete_event), STPETE_EVENT_SCORING, 2, -1, -1, -1, -1, -1, 4, 1, -1, 1, 3, 1 },
          U(M_SEAT) | U(M_PHASE), 0 },
        { { sizeof(stpete_event), STPETE_EVENT_PUB, 1, -1, -1, -1, -1, -1, 4, 2, 2, 3, 3, 1 },
          U(M_SEAT), U(M_AMOUNT) },
        { { sizeof(stpete_event), STPETE_EVENT_ROUND_END, -1, -1, -1, -1, -1, -1, -1, -1, 3, 3, 3, 1 },
          0, U(M_AMOUNT) },
        { { sizeof(stpete_event), STPETE_EVENT_MARKERS_MOVED, -1, -1, -1, -1, -1, -1, -1, -1, -1, 3, 3, 1 },
          0, 0 },
        { { sizeof(stpete_event), STPETE_EVENT_LAST_ROUND, -1, -1, -1, -1, 1, -1, -1, -1, -1, 0, 5, 1 },
          U(M_STACK), 0 },
        { { sizeof(stpete_event), STPETE_EVENT_FINAL_SCORING, 0, -1, -1, -1, -1, -1, -1, 61, 9, 3, 6, 1 },
          U(M_SEAT), U(M_AMOUNT) },
        { { sizeof(stpete_event), STPETE_EVENT_GAME_OVER, -1, -1, -1, -1, -1, -1, -1, -1, 5, 3, 6, 1 },
          U(M_AMOUNT), 0 },
        { { sizeof(stpete_event), STPETE_EVENT_UNDO, 1, -1, -1, -1, -1, -1, -1, -1, 3, 0, 2, 1 },
          U(M_SEAT) | U(M_AMOUNT), 0 },
    };
#undef U
    assert_int_equal(sizeof kinds / sizeof kinds[0], STPETE_EVENT_UNDO + 1);
    static const int far[] = { INT_MIN, -1000, -2, 1000, 100000000, INT_MAX };
    char base[STPETE_EVENT_STRING_MAX], buf[STPETE_EVENT_STRING_MAX];
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        stpete_event ev = kinds[k].ev;
        assert_int_equal(ev.kind, (int)k);
        if (stpete_event_to_string(&ev, NULL, base, sizeof base) != STPETE_OK)
            fail_msg("kind %zu: the valid event is refused", k);
        for (int m = 0; m < NUM_M; m++)
            for (size_t v = 0; v < sizeof far / sizeof far[0]; v++) {
                stpete_event bad = ev;
                *event_member(&bad, m) = far[v];
                int rc = stpete_event_to_string(&bad, NULL, buf, sizeof buf);
                if (k == STPETE_EVENT_UNDO && m == M_AMOUNT && far[v] == 1000)
                    continue; /* 1000 is a chance outcome's id, which an undo may name */
                if (m == M_EDITION || (kinds[k].used & (1u << m))) {
                    if (rc != STPETE_E_INVALID_ARGUMENT)
                        fail_msg("kind %zu, member %d = %d: %d, want STPETE_E_INVALID_ARGUMENT", k, m, far[v], rc);
                } else if (!(kinds[k].shown & (1u << m)) && (rc != STPETE_OK || strcmp(buf, base) != 0)) {
                    fail_msg("kind %zu, unused member %d = %d: %d \"%s\", want \"%s\"", k, m, far[v], rc, buf, base);
                }
            }
    }
    /* the kinds' own edge values: displaced -1 (none), seat -1 of an undone chance outcome, every winner mask */
    stpete_event ev = kinds[STPETE_EVENT_UNDO].ev;
    ev.seat = -1;
    ev.amount = STPETE_CHANCE_CARD_FIRST;
    assert_int_equal(stpete_event_to_string(&ev, NULL, buf, sizeof buf), STPETE_OK);
    ev.amount = STPETE_NUM_DISTINCT_ACTIONS + 100000;
    assert_int_equal(stpete_event_to_string(&ev, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    ev = kinds[STPETE_EVENT_GAME_OVER].ev;
    for (ev.amount = 0; ev.amount < 1 << STPETE_MAX_PLAYERS; ev.amount++) /* 5 seats with the New Society (§12) */
        assert_int_equal(stpete_event_to_string(&ev, NULL, buf, sizeof buf), STPETE_OK);
    assert_int_equal(stpete_event_to_string(&ev, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    for (int kind = -3; kind < 40; kind += kind == -1 ? STPETE_EVENT_GOLD_DISC + 2 : 1) {
        ev.kind = kind;
        assert_int_equal(stpete_event_to_string(&ev, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    }
}

typedef struct closer {
    stpete_state *st;
    int events_after_free, freed, kind;
} closer;

/* A callback that frees its own state at the first event of a kind (issue 10: today a use-after-free). */
static void free_in_callback(const stpete_state *st, const stpete_event *ev, void *user)
{
    closer *c = user;
    (void)st;
    if (c->freed) {
        c->events_after_free++;
        return;
    }
    if (ev->kind == c->kind) {
        c->freed = 1;
        stpete_state_free(c->st); /* deferred until the reporting call returns */
    }
}

/* Like free_in_callback, but frees the state it is called for (the state's own pointer, cast from const). */
static void free_in_callback_own(const stpete_state *st, const stpete_event *ev, void *user)
{
    closer *c = user;
    c->st = (stpete_state *)(uintptr_t)st;
    free_in_callback(st, ev, user);
}

/* stpete_state_free() from the state's own callback is deferred to the end of the call that reported the event,
 * which then delivers no further event; valgrind and ASan see no use after free. */
static void test_free_inside_own_callback(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 9);
    /* during an apply that passes the phase on: SCORING comes first, DEAL and PHASE_START after it */
    stpete_state *st = make_state(g);
    closer c = { st, 0, 0, STPETE_EVENT_SCORING };
    assert_int_equal(stpete_state_set_event_callback(st, free_in_callback, &c), STPETE_OK);
    uint64_t rng = 4;
    int rc = STPETE_OK;
    while (!c.freed) {
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n = 0;
        assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
        rc = stpete_state_apply(st, ids[rng_below(&rng, (int)n)]); /* the last one frees st */
        assert_int_equal(rc, STPETE_OK);
    }
    assert_int_equal(c.events_after_free, 0);
    /* during a reset */
    st = make_state(g);
    c = (closer){ st, 0, 0, STPETE_EVENT_DEAL };
    assert_int_equal(stpete_state_set_event_callback(st, free_in_callback, &c), STPETE_OK);
    assert_int_equal(stpete_state_reset(st, 77), STPETE_OK);
    assert_int_equal(c.freed, 1);
    assert_int_equal(c.events_after_free, 0);
    /* during the setup of stpete_state_new_with_callback: the state never reaches the caller */
    c = (closer){ NULL, 0, 0, STPETE_EVENT_PHASE_START };
    stpete_state *out = (stpete_state *)1;
    /* the callback frees the state it is given: stpete_state_new_with_callback's own */
    assert_int_equal(stpete_state_new_with_callback(g, free_in_callback_own, &c, &out, NULL), STPETE_OK);
    assert_null(out);
    assert_int_equal(c.freed, 1);
    /* during an undo (its one event, UNDO) */
    st = make_state(g);
    assert_int_equal(stpete_state_apply_string(st, "pass"), STPETE_OK);
    c = (closer){ st, 0, 0, STPETE_EVENT_UNDO };
    assert_int_equal(stpete_state_set_event_callback(st, free_in_callback, &c), STPETE_OK);
    assert_int_equal(stpete_state_undo(st), STPETE_OK);
    assert_int_equal(c.freed, 1);
    assert_int_equal(c.events_after_free, 0);
    /* during an apply_string (PASS, then nothing) */
    st = make_state(g);
    c = (closer){ st, 0, 0, STPETE_EVENT_PASS };
    assert_int_equal(stpete_state_set_event_callback(st, free_in_callback, &c), STPETE_OK);
    assert_int_equal(stpete_state_apply_string(st, "pass"), STPETE_OK);
    assert_int_equal(c.freed, 1);
    /* stpete_state_apply_tracked() says so (issue 31 item 1): 0 while the state lives, 1 once it is gone */
    st = make_state(g);
    c = (closer){ st, 0, 0, STPETE_EVENT_SCORING };
    assert_int_equal(stpete_state_set_event_callback(st, free_in_callback, &c), STPETE_OK);
    int freed = -1, steps = 0;
    assert_int_equal(stpete_state_apply_tracked(st, 0, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_round(st), 1);
    assert_int_equal(stpete_state_apply_tracked(NULL, 0, &freed), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(freed, 0);
    assert_int_equal(stpete_state_apply_tracked(st, -5, &freed), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(freed, 0);
    while (!c.freed) {
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n = 0;
        assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
        freed = -1;
        assert_int_equal(stpete_state_apply_tracked(st, ids[rng_below(&rng, (int)n)], &freed), STPETE_OK);
        assert_int_equal(freed, c.freed); /* 1 exactly when this step's callback freed the state */
        steps++;
    }
    assert_true(steps > 1);
    assert_int_equal(c.events_after_free, 0);
    stpete_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_strerror),
        cmocka_unit_test(test_card_table),
        cmocka_unit_test(test_card_names),
        cmocka_unit_test(test_card_bad_input),
        cmocka_unit_test(test_action_decode_encode_all),
        cmocka_unit_test(test_action_layout),
        cmocka_unit_test(test_action_strings_all),
        cmocka_unit_test(test_action_bad_input),
        cmocka_unit_test(test_options_defaults),
        cmocka_unit_test(test_options_bad),
        cmocka_unit_test(test_options_struct_sizes),
        cmocka_unit_test(test_lifecycle_null),
        cmocka_unit_test(test_struct_sizes),
        cmocka_unit_test(test_event_line_later_has_no_details),
        cmocka_unit_test(test_queries_bad_input),
        cmocka_unit_test(test_display_hand_buffers),
        cmocka_unit_test(test_initial_state),
        cmocka_unit_test(test_legal_list_and_mask),
        cmocka_unit_test(test_apply_invalid_and_illegal),
        cmocka_unit_test(test_apply_string),
        cmocka_unit_test(test_game_over),
        cmocka_unit_test(test_reentrant),
        cmocka_unit_test(test_clone_copy_independence),
        cmocka_unit_test(test_copy_mismatch),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_seeds_differ),
        cmocka_unit_test(test_reset),
        cmocka_unit_test(test_allocator),
        cmocka_unit_test(test_equal_positions_from_different_orders),
        cmocka_unit_test(test_final_scoring_events_see_final_scores),
        cmocka_unit_test(test_error_messages_are_utf8),
        cmocka_unit_test(test_options_check_reasons),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_action_price),
        cmocka_unit_test(test_new_with_callback_reports_setup),
        cmocka_unit_test(test_event_to_string),
        cmocka_unit_test(test_event_members_out_of_range),
        cmocka_unit_test(test_free_inside_own_callback),
    };
    return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
