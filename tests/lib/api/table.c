/* What a table UI draws, from the library (issue 41), through the public API only, at every decision of seeded random
 * games at 2-5 players (both editions, the New Society) and at positions loaded from JSON: the offers (every price
 * the one stpete_state_price() or stpete_state_displacements() gives, every legal buy and play among them), the
 * incomes (what the next scoring then pays, §4.4), the cards discarded last (the discard pile's gain, §4.5, §6,
 * §7.1, §12.7.5, §12.7.9), the card texts, the action kinds' words, and the table document (its log the events'
 * lines, from the setup on). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stpete/stpete.h"
#include "test_game.h"
#include "test_rng.h"

/* The game kinds of these tests: 2-4 players, both editions, and the New Society with 2-5. */
static const test_game KINDS[] = {
    { .players = 2 }, { .players = 3, .edition = 2 }, { .players = 4 }, { .players = 2, .new_society = 1 },
    { .players = 4, .new_society = 1 }, { .players = 5, .new_society = 1 },
    { .players = 3, .new_society = 1, .chance_mode = STPETE_CHANCE_EXPLICIT },
};
enum { NUM_KINDS = sizeof KINDS / sizeof *KINDS };

static int offer_is_trading(const stpete_state *st, int card)
{
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    assert_int_equal(stpete_game_get_card_info(stpete_state_game(st), card, &info), STPETE_OK);
    return info.trading;
}

/* Each offer of seat is at the price stpete_state_price() gives; a trading card's offers in a place are exactly
 * stpete_state_displacements() there; every legal buy or play of the seat to act is an offer at its price. Returns
 * the offers checked. */
static int check_offers(const stpete_state *st, int seat)
{
    stpete_offer offers[STPETE_MAX_OFFERS];
    size_t n = 0;
    assert_int_equal(stpete_state_offers(st, seat, offers, STPETE_MAX_OFFERS, &n), STPETE_OK);
    for (size_t i = 0; i < n; i++) {
        const stpete_offer *o = &offers[i];
        int price = 0;
        assert_int_equal(stpete_state_price(st, seat, o->card, o->source, o->displaced, &price), STPETE_OK);
        assert_int_equal(o->price, price);
        if (offer_is_trading(st, o->card)) {
            stpete_displacement d[STPETE_NUM_CARD_TYPES_NEW_SOCIETY];
            size_t k = 0, at = 0;
            assert_int_equal(stpete_state_displacements(st, seat, o->card, o->source, d, STPETE_NUM_CARD_TYPES_NEW_SOCIETY,
                                                        &k), STPETE_OK);
            while (at < k && d[at].displaced != o->displaced)
                at++;
            assert_true(at < k);
        } else {
            assert_int_equal(o->displaced, STPETE_NONE);
        }
        stpete_action a;
        assert_int_equal(stpete_action_decode(o->action, &a), STPETE_OK);
        assert_int_equal(a.card, o->card);
    }
    if (stpete_state_current_player(st) == seat) {
        int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
        size_t m = 0;
        assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &m), STPETE_OK);
        for (size_t j = 0; j < m; j++) {
            stpete_action a;
            stpete_action_decode(ids[j], &a);
            if (a.kind != STPETE_ACTION_BUY && a.kind != STPETE_ACTION_PLAY && a.kind != STPETE_ACTION_OBSERVATORY_BUY &&
                a.kind != STPETE_ACTION_PRISON_BUY)
                continue;
            int price = 0;
            size_t i = 0;
            assert_int_equal(stpete_state_action_price(st, ids[j], &price), STPETE_OK);
            while (i < n && offers[i].action != ids[j])
                i++;
            assert_true(i < n);
            assert_int_equal(offers[i].price, price);
        }
    }
    return (int)n;
}

/* The discard pile's copies of each card type. */
static void pile_of(const stpete_state *st, int *pile)
{
    for (int t = 0; t < STPETE_NUM_CARD_TYPES_NEW_SOCIETY; t++)
        pile[t] = t < stpete_game_num_card_types(stpete_state_game(st)) ? stpete_state_discard_count(st, t) : 0;
}

/* The cards discarded last, as copies per type. */
static void last_of(const stpete_state *st, int *last)
{
    int cards[16];
    size_t n = 0;
    assert_int_equal(stpete_state_last_discards(st, cards, 16, &n), STPETE_OK);
    memset(last, 0, STPETE_NUM_CARD_TYPES_NEW_SOCIETY * sizeof *last);
    for (size_t i = 0; i < n; i++)
        last[cards[i]]++;
}

/* A scoring event's rubles and VP, by seat, kept by the callback. */
typedef struct scorings {
    int count, phase, rubles[STPETE_MAX_PLAYERS], vp[STPETE_MAX_PLAYERS];
} scorings;

static void on_scoring(const stpete_state *st, const stpete_event *ev, void *user)
{
    (void)st;
    scorings *s = user;
    if (ev->kind != STPETE_EVENT_SCORING)
        return;
    s->count++;
    s->phase = ev->phase;
    s->rubles[ev->seat] = ev->rubles;
    s->vp[ev->seat] = ev->vp;
}

static void test_offers_incomes_discards_along_games(void **unused)
{
    (void)unused;
    uint64_t rng = 41;
    int offers = 0, incomes = 0, discards = 0;
    for (int k = 0; k < NUM_KINDS; k++) {
        test_game t = KINDS[k];
        t.seed = 100 + (uint64_t)k;
        stpete_game *g = test_game_new(t);
        scorings seen = { 0 };
        stpete_state *st = NULL;
        assert_int_equal(stpete_state_new_with_callback(g, on_scoring, &seen, &st, NULL), STPETE_OK);
        int players = stpete_game_num_players(g);
        unsigned said = 0; /* what stpete_state_next_scoring() said since the last scoring (bit next + 1) */
        while (!stpete_state_is_terminal_or(st, 1)) {
            for (int seat = 0; seat < players; seat++)
                offers += check_offers(st, seat);
            /* the incomes now, of the next scoring: what it pays, when this action brings it (a pass ends a phase
             * with the displays as they are, §4.3, §4.4) */
            int next = stpete_state_next_scoring(st), rubles[STPETE_MAX_PLAYERS], vp[STPETE_MAX_PLAYERS];
            said |= 1u << (next + 1);
            for (int seat = 0; next >= 0 && seat < players; seat++)
                assert_int_equal(stpete_state_income(st, seat, next, &rubles[seat], &vp[seat]), STPETE_OK);
            int pile[STPETE_NUM_CARD_TYPES_NEW_SOCIETY], after[STPETE_NUM_CARD_TYPES_NEW_SOCIETY],
                last[STPETE_NUM_CARD_TYPES_NEW_SOCIETY];
            pile_of(st, pile);
            seen.count = 0;
            step_random(st, &rng);
            if (seen.count) {
                /* at every position since the last scoring, this one was the next: also at the Pub, Guild Hall
                 * and Trading House decisions after the building scoring (§7.2, §12.4.3) and at the chance
                 * nodes of the deal after a scoring (§4.5) */
                assert_int_equal(said, 1u << (seen.phase + 1));
                said = 0;
                assert_int_equal(seen.phase, next);
                for (int seat = 0; seat < players; seat++) {
                    assert_int_equal(seen.rubles[seat], rubles[seat]);
                    assert_int_equal(seen.vp[seat], vp[seat]);
                }
                incomes++;
            }
            pile_of(st, after);
            last_of(st, last);
            int gained = 0;
            for (int c = 0; c < STPETE_NUM_CARD_TYPES_NEW_SOCIETY; c++)
                gained |= after[c] > pile[c];
            for (int c = 0; c < STPETE_NUM_CARD_TYPES_NEW_SOCIETY; c++) {
                if (gained) /* the action put cards on the pile: they are the cards discarded last */
                    assert_int_equal(last[c], after[c] > pile[c] ? after[c] - pile[c] : 0);
                assert_true(last[c] <= after[c]); /* and they stay on the pile */
            }
            discards += gained;
        }
        assert_int_equal(stpete_state_next_scoring(st), STPETE_NONE);
        assert_true(said == 0 || said == 1u); /* none left since the final round's aristocrat scoring (§4.6) */
        stpete_state_free(st);
        stpete_game_free(g);
    }
    print_message("# %d offers, %d scorings, %d discarding actions checked\n", offers, incomes, discards);
    assert_true(offers > 1000 && incomes > 50 && discards > 50);
}

static void test_bad_input_and_buffers(void **unused)
{
    (void)unused;
    stpete_game *g = NULL;
    stpete_state *st = new_state_with(&g, .players = 3, .seed = 5);
    uint64_t rng = 5;
    play_random(st, 40, &rng);
    stpete_offer one[1];
    size_t n = 0, all = 0;
    int rubles = 0, vp = 0, cards[16];
    assert_int_equal(stpete_state_offers(st, 0, NULL, 0, &all), STPETE_E_BUFFER_TOO_SMALL); /* counting */
    assert_true(all > 1);
    assert_int_equal(stpete_state_offers(st, 0, one, 1, &n), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(n, all);
    assert_int_equal(stpete_state_offers(st, 3, one, 1, &n), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_offers(NULL, 0, one, 1, &n), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_offers(st, 0, NULL, 1, &n), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_income(st, 0, STPETE_PHASE_TRADING, &rubles, &vp), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_income(st, -1, STPETE_PHASE_WORKER, &rubles, &vp), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_income(st, 0, STPETE_PHASE_WORKER, NULL, NULL), STPETE_OK);
    assert_int_equal(stpete_state_next_scoring(NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_last_discards(NULL, cards, 16, &n), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_last_discards(st, NULL, 1, &n), STPETE_E_INVALID_ARGUMENT);
    char text[STPETE_CARD_TEXT_MAX];
    size_t len = 0;
    assert_int_equal(stpete_game_card_text(g, STPETE_CARD_MAYOR, text, sizeof text, &len), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_game_card_text(g, STPETE_CARD_WAREHOUSE, text, 5, &len), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(strlen(text), 4); /* a NUL-terminated prefix */
    assert_int_equal(len, strlen("Your hand limit is 4 instead of 3 (§7.3)."));
    assert_int_equal(stpete_game_card_text(NULL, 0, text, sizeof text, &len), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_table_to_json(st, 3, 0, 0, NULL, 0, &len), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_table_to_json(st, 0, -1, 0, NULL, 0, &len), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_table_to_json(st, 0, 0, 4u, NULL, 0, &len), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_table_to_json(st, 0, 0, 0, NULL, 0, &len), STPETE_E_BUFFER_TOO_SMALL);
    char *doc = malloc(len + 1);
    size_t len2 = 0;
    assert_int_equal(stpete_state_table_to_json(st, 0, 0, 0, doc, len + 1, &len2), STPETE_OK);
    assert_int_equal(len2, len);
    assert_int_equal(strlen(doc), len);
    free(doc);
    stpete_state_free(st);
    stpete_game_free(g);
}

static void test_card_texts(void **unused)
{
    (void)unused;
    struct {
        test_game t;
        int card;
        const char *text;
    } cases[] = {
        { { .players = 4 }, STPETE_CARD_WAREHOUSE, "Your hand limit is 4 instead of 3 (§7.3)." },
        { { .players = 4 }, STPETE_CARD_FUR_SHOP, "Displaces Fur Trapper or Czar and Carpenter (§6.2)." },
        { { .players = 4 }, STPETE_CARD_LUMBERJACK, "" },
        { { .players = 4 }, STPETE_CARD_BANK, "Displaces any building that is not a trading card (§6.2)." },
        { { .players = 4 }, STPETE_CARD_POTJOMKINS_VILLAGE, "Worth 6 R when a trading card displaces it (§7.4, §5.2)." },
        { { .players = 4 }, STPETE_CARD_PUB,
          "After each building scoring, buy VP at 2 R each: up to 5 VP per Pub you have (§7.2, R10)." },
        { { .players = 4, .pub_cap = STPETE_PUB_CAP_PER_PLAYER }, STPETE_CARD_PUB,
          "After each building scoring, buy VP at 2 R each: up to 5 VP in all, however many Pubs you have (§7.2, R10)." },
        { { .players = 4, .edition = 2 }, STPETE_CARD_MARIINSKIJ_THEATER,
          "Displaces any building that is not a trading card (§6.2). At the building scoring, +1 VP for every orange "
          "card in your display (§11)." },
        { { .players = 5, .new_society = 1 }, STPETE_CARD_NEW_SOCIETY, "Displaces any worker that is not a trading card (§6.2, §12.6)." },
        { { .players = 3, .new_society = 1 }, STPETE_CARD_OBSHCHINA_COMMUNE,
          "Displaces Czar and Carpenter or New Farmer (§6.2, §12.6). Green cards cost you 1 R less (§12.5, R27)." },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        stpete_game *g = test_game_new(cases[i].t);
        char text[STPETE_CARD_TEXT_MAX];
        size_t len = 0;
        assert_int_equal(stpete_game_card_text(g, cases[i].card, text, sizeof text, &len), STPETE_OK);
        assert_string_equal(text, cases[i].text);
        assert_int_equal(len, strlen(cases[i].text));
        stpete_game_free(g);
    }
    /* the options change the words: the Debtor's Prison's VP (R22), the Textile Factory's cards (R29) */
    stpete_game *a = make_game_with(.players = 3, .new_society = 1);
    stpete_game *b = make_game_with(.players = 3, .new_society = 1, .used_prison_scores = 1,
                                    .textile_without_new_society = 1);
    char ta[STPETE_CARD_TEXT_MAX], tb[STPETE_CARD_TEXT_MAX];
    size_t len = 0;
    stpete_game_card_text(a, STPETE_CARD_DEBTORS_PRISON, ta, sizeof ta, &len);
    stpete_game_card_text(b, STPETE_CARD_DEBTORS_PRISON, tb, sizeof tb, &len);
    assert_non_null(strstr(ta, "scores no VP"));
    assert_non_null(strstr(tb, "still scores its VP"));
    stpete_game_card_text(a, STPETE_CARD_TEXTILE_FACTORY, ta, sizeof ta, &len);
    stpete_game_card_text(b, STPETE_CARD_TEXTILE_FACTORY, tb, sizeof tb, &len);
    assert_non_null(strstr(ta, "Weaving Mill, New Society;"));
    assert_null(strstr(tb, "New Society;"));
    /* every card of every game has a text that fits the documented bound */
    for (int k = 0; k < NUM_KINDS; k++) {
        stpete_game *g = test_game_new(KINDS[k]);
        for (int c = 0; c < stpete_game_num_card_types(g); c++) {
            assert_int_equal(stpete_game_card_text(g, c, NULL, 0, &len), STPETE_E_BUFFER_TOO_SMALL); /* sizing */
            assert_true(len < STPETE_CARD_TEXT_MAX);
        }
        stpete_game_free(g);
    }
    stpete_game_free(a);
    stpete_game_free(b);
}

static void test_action_kind_names(void **unused)
{
    (void)unused;
    assert_string_equal(stpete_action_kind_name(STPETE_ACTION_PASS), "pass");
    assert_string_equal(stpete_action_kind_name(STPETE_ACTION_OBSERVATORY_DISCARD), "observatory-discard");
    assert_string_equal(stpete_action_kind_name(STPETE_ACTION_TRADING_HOUSE), "trading-house");
    assert_null(stpete_action_kind_name(-1));
    assert_null(stpete_action_kind_name(STPETE_ACTION_TRADING_HOUSE + 1));
}

/* The lines of the events queued so far, joined as the document's log writes them (without the state). */
static size_t queued_lines(stpete_state *st, char *out, size_t size, size_t at)
{
    stpete_event ev = STPETE_EVENT_INIT;
    while (stpete_state_next_event(st, &ev) == 1) {
        char line[STPETE_EVENT_STRING_MAX];
        assert_int_equal(stpete_event_to_string(&ev, NULL, line, sizeof line), STPETE_OK);
        at += (size_t)snprintf(out + at, size - at, "\"text\":\"%s\"", line);
    }
    return at;
}

/* The "text" entries of a document's log, joined. */
static void document_lines(const char *doc, char *out, size_t size)
{
    size_t at = 0;
    out[0] = '\0';
    for (const char *p = strstr(doc, "\"log\":["); p && (p = strstr(p, "\"text\":\"")); p += 8) {
        const char *end = strstr(p + 8, "\"}");
        at += (size_t)snprintf(out + at, size - at, "%.*s", (int)(end - p + 1), p);
    }
}

static void test_document_log_from_the_setup(void **unused)
{
    (void)unused;
    for (int k = 0; k < NUM_KINDS; k++) {
        test_game t = KINDS[k];
        t.seed = 7;
        stpete_game *g = test_game_new(t);
        stpete_state *st = make_state(g);
        assert_int_equal(stpete_state_set_event_queue(st, 1), STPETE_OK);
        assert_int_equal(stpete_state_reset(st, 7), STPETE_OK); /* the setup's events into the queue */
        static char expected[1 << 20], got[1 << 20];
        size_t at = queued_lines(st, expected, sizeof expected, 0);
        uint64_t rng = 9;
        for (int m = 0; m < 60 && !stpete_state_is_terminal_or(st, 1); m++) {
            step_random(st, &rng);
            at = queued_lines(st, expected, sizeof expected, at);
        }
        static char doc[1 << 20];
        size_t len = 0;
        assert_int_equal(stpete_state_table_to_json(st, STPETE_VIEW_PUBLIC, 0, 0, doc, sizeof doc, &len), STPETE_OK);
        document_lines(doc, got, sizeof got);
        assert_string_equal(got, expected);
        assert_non_null(strstr(doc, "\"format\":\"stpete-table\",\"table_version\":1,\"seat\":null"));
        /* a clone keeps the log; a copy, a loaded position and a determinization start a new one */
        stpete_state *c = NULL;
        assert_int_equal(stpete_state_clone(st, &c, NULL), STPETE_OK);
        static char doc2[1 << 20];
        assert_int_equal(stpete_state_table_to_json(c, STPETE_VIEW_PUBLIC, 0, 0, doc2, sizeof doc2, &len), STPETE_OK);
        assert_string_equal(doc2, doc);
        assert_int_equal(stpete_state_determinize(c, 0, 3, 0), STPETE_OK);
        assert_int_equal(stpete_state_table_to_json(c, STPETE_VIEW_PUBLIC, 0, 0, doc2, sizeof doc2, &len), STPETE_OK);
        assert_non_null(strstr(doc2, "\"log_size\":0,\"log\":[]"));
        assert_non_null(strstr(doc2, "\"discarded_last\":[]"));
        /* since: only the entries above it */
        assert_int_equal(stpete_state_table_to_json(st, 0, 1000000, STPETE_TABLE_PERSON, doc2, sizeof doc2, &len),
                         STPETE_OK);
        assert_non_null(strstr(doc2, "\"log\":[]"));
        assert_null(strstr(doc2, "known_rubles")); /* a person's document (doc/format.md, Views) */
        assert_null(strstr(doc2, "information_state_key"));
        stpete_state_free(c);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offers_incomes_discards_along_games),
        cmocka_unit_test(test_bad_input_and_buffers),
        cmocka_unit_test(test_card_texts),
        cmocka_unit_test(test_action_kind_names),
        cmocka_unit_test(test_document_log_from_the_setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
