/* Public-API tests, the action encoding of stpete.h: every id decoded and encoded, the layout, the strings, bad input.
 * Part of the program 'api' (main.c); links the shared library and uses only the public headers. */
#include "api_tests.h"

/* ---- actions ----------------------------------------------------------------------------------- */

static int is_trading(int card)
{
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    assert_int_equal(stpete_card_get_info(STPETE_EDITION_FIRST, card, &info), STPETE_OK);
    return info.trading;
}

/* The fields a decoded action of its kind does not use are -1, the ones it uses in range (stpete.h's encoding). */
static void check_action_fields(stpete_action a)
{
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
        check_action_fields(a);
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

/* The documented strings of a few ids (stpete.h's encoding table). */
static void check_documented_strings(void)
{
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
    check_documented_strings();
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

/* stpete_action_encode(): NULL, the combinations no id represents (nothing written), and the fields a kind does
 * not use ignored. */
static void check_encode_refusals(void)
{
    int id = 777;
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

    check_encode_refusals();

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

TEST_GROUP(api_actions,
    cmocka_unit_test(test_action_decode_encode_all),
    cmocka_unit_test(test_action_layout),
    cmocka_unit_test(test_action_strings_all),
    cmocka_unit_test(test_action_bad_input));
