/* Rule scenario tests, §11 the second-edition preset: its prices, names, the Mariinsky Theater's VP, the buy-only
 * first worker phase. Exact positions built with scenario.h, acted on through the public API, checked for exact
 * rubles, VP and card locations. Part of the program 'rules' (main.c; rules_tests.h holds the shared helpers).
 * Section numbers (§) and ruling ids (R) refer to doc/rules.md. */
#include "rules_tests.h"

/* ==== §11 the second-edition preset ============================================================== */

static scn fresh_edition(int players, int edition)
{
    stpete_options o;
    stpete_options_init(&o);
    o.players = players;
    o.edition = edition;
    return fresh_opts(&o);
}

/* §11: the Mariinsky Theater scores +1 VP (not R) per orange card at building scoring, orange trading cards and
 * duplicates included (two Authors and the Senator: +3 VP). The first edition pays 3 R for the same display (§7.5). */
static void test_s11_mariinsky_theater_vp(void **unused)
{
    (void)unused;
    for (int edition = 1; edition <= 2; edition++) {
        scn s = fresh_edition(2, edition);
        scn_put(&s, C(MARIINSKIJ_THEATER), SCN_DISPLAY, 0);
        scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
        scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
        scn_put(&s, C(SENATOR), SCN_DISPLAY, 0);
        scn_put(&s, C(MARKET), SCN_DISPLAY, 0); /* 1 VP */
        scn_put(&s, C(AUTHOR), SCN_HAND, 0);    /* hand cards never count (§7.5) */
        scn_turn(&s, BUILDING, 0);
        pass_n(&s, 2);
        assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
        assert_int_equal(rub(&s, 0), edition == 2 ? 25 : 28);
        assert_int_equal(scn_vp(&s, 0), edition == 2 ? 4 : 1);
        assert_int_equal(rub(&s, 1), 25);
        done(&s);
    }
}

/* §11: the four prices: Observatory 7, Judge 17, Mistress of Ceremonies 20, Mariinsky Theater 15 — as bought, and as
 * displaced (their value is their cost, §5.2), each against the first edition's. */
static void test_s11_four_prices(void **unused)
{
    (void)unused;
    for (int edition = 1; edition <= 2; edition++) {
        int e2 = edition == 2;
        scn s = fresh_edition(2, edition);
        scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
        scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 1);
        scn_put(&s, C(JUDGE), SCN_DISPLAY, 1);
        scn_put(&s, C(MISTRESS_OF_CEREMONIES), SCN_DISPLAY, 1);
        scn_turn(&s, TRADING, 0);
        assert_int_equal(price(&s, 0, C(OBSERVATORY), UPPER, -1), e2 ? 7 : 6);
        assert_int_equal(price(&s, 0, C(JUDGE), UPPER, -1), e2 ? 17 : 16);
        assert_int_equal(price(&s, 0, C(MISTRESS_OF_CEREMONIES), UPPER, -1), e2 ? 20 : 18);
        assert_int_equal(price(&s, 0, C(MARIINSKIJ_THEATER), UPPER, C(MARKET)), e2 ? 15 - 5 : 10 - 5);
        assert_int_equal(price(&s, 1, C(BANK), UPPER, C(OBSERVATORY)), e2 ? 13 - 7 : 13 - 6);
        assert_int_equal(price(&s, 1, C(ADMIRAL), UPPER, C(JUDGE)), e2 ? 1 : 2);
        assert_int_equal(price(&s, 1, C(CZAR), UPPER, C(MISTRESS_OF_CEREMONIES)), e2 ? 4 : 6);
        /* buying them: exactly the price in rubles */
        scn_put(&s, C(MARIINSKIJ_THEATER), SCN_UPPER, 0);
        scn_set_rubles(&s, 0, e2 ? 10 : 5);
        assert_true(legal(&s, "buy Mariinskij-Theater from upper displacing Market"));
        scn_set_rubles(&s, 0, e2 ? 9 : 4);
        assert_false(legal(&s, "buy Mariinskij-Theater from upper displacing Market"));
        scn_set_rubles(&s, 0, e2 ? 10 : 5);
        scn_do(&s, "buy Mariinskij-Theater from upper displacing Market");
        assert_int_equal(rub(&s, 0), 0);
        assert_int_equal(disp(&s, 0, C(MARIINSKIJ_THEATER)), 1);
        assert_int_equal(disp(&s, 0, C(MARKET)), 0);
        scn_put(&s, C(JUDGE), SCN_LOWER, 0);
        scn_set_rubles(&s, 1, e2 ? 15 : 14); /* lower row and same name: two less (§5.1.1, §5.1.2) */
        scn_do(&s, "buy Judge from lower");
        assert_int_equal(rub(&s, 1), 0);
        assert_int_equal(disp(&s, 1, C(JUDGE)), 2);
        done(&s);
    }
}

/* §11: the first worker phase of a second-edition game is buy-only: no pass while a board card is affordable, no
 * take; each of the 2N opening workers is bought, two per player, then everyone passes and the phase ends. A player
 * who can afford no board card passes. Exact rubles after each buy. */
static void test_s11_buy_only_first_worker_phase(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_options o;
        stpete_options_init(&o);
        o.players = players;
        o.seed = 5;
        o.edition = 2;
        scn s = scn_new_opts(&o);
        int rubles[4] = { 25, 25, 25, 25 }, bought[4] = { 0, 0, 0, 0 };
        for (int k = 0; k < 2 * players; k++) {
            int seat = current(&s);
            assert_int_equal(legal_kind(&s, STPETE_ACTION_PASS, -1), 0);
            assert_int_equal(legal_kind(&s, STPETE_ACTION_TAKE, -1), 0);
            assert_int_equal(legal_kind(&s, STPETE_ACTION_BUY, -1), legal_total(&s));
            expect_illegal(&s, "pass");
            int row[STPETE_BOARD_SIZE];
            size_t n = 0;
            assert_int_equal(stpete_state_row(s.st, UPPER, row, STPETE_BOARD_SIZE, &n), STPETE_OK);
            assert_int_equal(n, (size_t)(2 * players - k));
            char take[96], buy[96];
            snprintf(take, sizeof take, "take %s from upper", tg_card_name(STPETE_EDITION_FIRST, row[0]));
            expect_illegal(&s, take);
            int p = price(&s, seat, row[0], UPPER, -1);
            snprintf(buy, sizeof buy, "buy %s from upper", tg_card_name(STPETE_EDITION_FIRST, row[0]));
            scn_do(&s, buy);
            rubles[seat] -= p;
            bought[seat]++;
            assert_int_equal(rub(&s, seat), rubles[seat]);
        }
        for (int seat = 0; seat < players; seat++)
            assert_int_equal(bought[seat], 2); /* every player buys exactly two (§11) */
        assert_int_equal(row_size(&s, UPPER) + row_size(&s, LOWER), 0);
        for (int k = 0; k < players; k++) { /* nothing left to buy: pass is the only action */
            assert_int_equal(legal_total(&s), 1);
            assert_int_equal(legal_kind(&s, STPETE_ACTION_PASS, -1), 1);
            scn_do(&s, "pass");
        }
        assert_int_equal(stpete_state_phase(s.st), BUILDING);
        assert_int_equal(legal_kind(&s, STPETE_ACTION_PASS, -1), 1); /* the building phase plays as usual */
        done(&s);
    }
    /* a player who cannot afford any board card passes */
    stpete_options o;
    stpete_options_init(&o);
    o.players = 2;
    o.edition = 2;
    scn s = scn_new_opts(&o);
    scn_clear_board(&s);
    scn_put(&s, C(SHEPHERD), SCN_UPPER, 0);
    scn_turn(&s, WORKER, 0);
    scn_set_rubles(&s, 0, 4);
    assert_int_equal(legal_total(&s), 1);
    assert_true(legal(&s, "pass"));
    expect_illegal(&s, "take Shepherd from upper");
    scn_do(&s, "pass");
    expect_illegal(&s, "pass"); /* seat 1 has 25 R: must buy */
    scn_do(&s, "buy Shepherd from upper");
    assert_int_equal(rub(&s, 1), 20);
    done(&s);
}

/* §11 names: Pope → Abbot, Czar → Czarina, Potjomkin's Village → Potemkin Village, Mariinskij-Theater → Mariinsky
 * Theater in the game's card info, action strings and JSON; both editions' names are read. */
static void test_s11_names(void **unused)
{
    (void)unused;
    scn s = fresh_edition(3, 2);
    static const struct {
        int card;
        const char *first, *second;
    } names[] = { { C(POPE), "Pope", "Abbot" }, { C(CZAR), "Czar", "Czarina" },
                  { C(POTJOMKINS_VILLAGE), "Potjomkin's Village", "Potemkin Village" },
                  { C(MARIINSKIJ_THEATER), "Mariinskij-Theater", "Mariinsky Theater" } };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        assert_string_equal(tg_card_name(stpete_game_edition(s.game), names[i].card), names[i].second);
        assert_string_equal(tg_card_name(STPETE_EDITION_FIRST, names[i].card), names[i].first); /* edition-free: the first */
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        assert_int_equal(stpete_card_get_info(stpete_game_edition(s.game), names[i].card, &info), STPETE_OK);
        assert_string_equal(info.name, names[i].second);
        int a = -1, b = -1;
        assert_int_equal(stpete_card_from_name(names[i].first, &a), STPETE_OK);
        assert_int_equal(stpete_card_from_name(names[i].second, &b), STPETE_OK);
        assert_int_equal(a, names[i].card);
        assert_int_equal(b, names[i].card);
    }
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    assert_int_equal(stpete_card_get_info(stpete_game_edition(s.game), C(MARIINSKIJ_THEATER), &info), STPETE_OK);
    assert_int_equal(info.cost, 15);
    assert_int_equal(info.special, STPETE_SPECIAL_MARIINSKY_THEATER_VP);
    assert_int_equal(stpete_card_get_info(STPETE_EDITION_FIRST, C(MARIINSKIJ_THEATER), &info), STPETE_OK);
    assert_int_equal(info.cost, 10);
    int id = scn_id("buy Pope from upper displacing Author");
    assert_int_equal(scn_id("buy Abbot from upper displacing Author"), id);
    char text[STPETE_ACTION_STRING_MAX];
    assert_int_equal(stpete_action_to_string(stpete_game_edition(s.game), id, text, sizeof text), STPETE_OK);
    assert_string_equal(text, "buy Abbot from upper displacing Author");
    /* JSON and log lines carry the second edition's names */
    scn_put(&s, C(CZAR), SCN_UPPER, 0);
    scn_turn(&s, TRADING, 0);
    size_t len = 0;
    char json[1 << 14];
    assert_int_equal(stpete_state_to_json(s.st, json, sizeof json, &len), STPETE_OK);
    assert_non_null(strstr(json, "\"Czarina\""));
    assert_null(strstr(json, "\"Czar\""));
    assert_non_null(strstr(json, "\"edition\":2"));
    stpete_event ev = { sizeof ev, STPETE_EVENT_TAKE, 0, C(CZAR), -1, STPETE_SOURCE_UPPER, -1, -1, -1, -1, -1, TRADING, 1,
                        STPETE_EDITION_SECOND };
    char line[STPETE_EVENT_STRING_MAX];
    assert_int_equal(stpete_event_to_string(&ev, s.st, line, sizeof line), STPETE_OK);
    assert_string_equal(line, "seat 0 takes Czarina from the upper row into hand");
    /* the edition travels with the event: the same line without the state (a queue consumer, another seat) */
    assert_int_equal(stpete_event_to_string(&ev, NULL, line, sizeof line), STPETE_OK);
    assert_string_equal(line, "seat 0 takes Czarina from the upper row into hand");
    ev.edition = STPETE_EDITION_FIRST;
    assert_int_equal(stpete_event_to_string(&ev, NULL, line, sizeof line), STPETE_OK);
    assert_string_equal(line, "seat 0 takes Czar from the upper row into hand");
    ev.edition = 3;
    assert_int_equal(stpete_event_to_string(&ev, NULL, line, sizeof line), STPETE_E_INVALID_ARGUMENT);
    done(&s);
}

TEST_GROUP(rules_s11_second_edition,
    cmocka_unit_test(test_s11_mariinsky_theater_vp),
    cmocka_unit_test(test_s11_four_prices),
    cmocka_unit_test(test_s11_buy_only_first_worker_phase),
    cmocka_unit_test(test_s11_names));
