/* Rule scenario tests, the invariants of a position (§2; lib/engine/validate.c), what the JSON reader checks.
 * Exact positions built with scenario.h, acted on through the public API, checked for exact rubles, VP and card
 * locations. Part of the program 'rules' (main.c; rules_tests.h holds the shared helpers). Section numbers (§)
 * and ruling ids (R) refer to doc/rules.md. */
#include "rules_tests.h"

/* A position the invariants refuse (§2): stpete_validate_position() and the JSON reader of its document both refuse it
 * with the message expect. */
static void expect_invalid(scn *s, const char *expect)
{
    char why[sizeof ((stpete_error *)0)->message];
    assert_int_equal(stpete_validate_position(scn_core(s), why, sizeof why), STPETE_E_INCONSISTENT);
    assert_string_equal(why, expect);
    size_t len = 0;
    static char json[1 << 14];
    assert_int_equal(stpete_state_to_json(s->st, json, sizeof json, &len), STPETE_OK);
    stpete_state *loaded = NULL;
    stpete_error err = STPETE_ERROR_INIT;
    assert_int_equal(stpete_state_from_json(s->game, json, len, &loaded, &err), STPETE_E_INCONSISTENT);
    assert_null(loaded);
    assert_string_equal(err.message, expect);
}

/* stpete_validate_position() (lib/validate.c), the invariants of a position: every position reached by play satisfies
 * them, in both editions and both chance modes; a position broken in one invariant fails with the reason, and the
 * same position as a JSON document fails to load with the same status and text (the reader asks the same
 * function). */
static void test_validate_positions(void **unused)
{
    (void)unused;
    char why[sizeof ((stpete_error *)0)->message];
    for (int players = 2; players <= 4; players++)
        for (int edition = 1; edition <= 2; edition++)
            for (int mode = STPETE_CHANCE_SAMPLED; mode <= STPETE_CHANCE_EXPLICIT; mode++) {
                stpete_options o;
                stpete_options_init(&o);
                o.players = players;
                o.edition = edition;
                o.chance_mode = mode;
                o.seed = (uint64_t)(100 * players + 10 * edition + mode);
                scn s = scn_new_opts(&o);
                uint64_t r = o.seed;
                for (int step = 0; !tg_is_terminal(s.st); step++) {
                    int rc = stpete_validate_position(scn_core(&s), why, sizeof why);
                    if (rc)
                        fail_msg("players %d, edition %d, mode %d, step %d: %s", players, edition, mode, step, why);
                    int id;
                    r = r * 6364136223846793005u + 1442695040888963407u;
                    assert_int_equal(stpete_state_random_action(s.st, r >> 11, &id), STPETE_OK);
                    assert_int_equal(stpete_state_apply(s.st, id), STPETE_OK);
                }
                assert_int_equal(stpete_validate_position(scn_core(&s), why, sizeof why), STPETE_OK);
                scn_free(&s);
            }
    /* one invariant broken: a card of the worker stack moved into the building stack (§2) */
    scn s = scn_new(3, 7);
    stpete_core *c = scn_core(&s);
    int card = c->stack[STPETE_STACK_WORKER][--c->stack_n[STPETE_STACK_WORKER]];
    c->stack[STPETE_STACK_WORKER][c->stack_n[STPETE_STACK_WORKER]] = 0;
    memmove(c->stack[STPETE_STACK_BUILDING] + 1, c->stack[STPETE_STACK_BUILDING], c->stack_n[STPETE_STACK_BUILDING]);
    c->stack[STPETE_STACK_BUILDING][0] = (uint8_t)card;
    c->stack_n[STPETE_STACK_BUILDING]++;
    char expect[sizeof why];
    snprintf(expect, sizeof expect, "stacks.building[0]: %s belongs to another stack (§2)",
             tg_card_name(STPETE_EDITION_FIRST, card));
    expect_invalid(&s, expect);
    scn_free(&s);
}

/* A refused position names its cards as its own edition prints them (§11): a second-edition document with a
 * Potemkin Village too many in the discard pile says "Potemkin Village", not the first edition's "Potjomkin's
 * Village" (issue 32 item 5: the validator read the first edition's table). Both by a position and by a document. */
static void test_validate_names_cards_of_the_edition(void **unused)
{
    (void)unused;
    for (int edition = STPETE_EDITION_FIRST; edition <= STPETE_EDITION_SECOND; edition++) {
        stpete_options o;
        stpete_options_init(&o);
        o.players = 2;
        o.edition = edition;
        scn s = scn_new_opts(&o);
        stpete_core *c = scn_core(&s);
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        assert_int_equal(stpete_card_get_info(edition, STPETE_CARD_POTJOMKINS_VILLAGE, &info), STPETE_OK);
        c->discard[STPETE_CARD_POTJOMKINS_VILLAGE] = (uint8_t)(info.copies + 1);
        char expect[sizeof ((stpete_error *)0)->message];
        snprintf(expect, sizeof expect, "discard: more than the %d copies of %s (§2)", info.copies, info.name);
        assert_non_null(strstr(expect, edition == STPETE_EDITION_SECOND ? "Potemkin Village" : "Potjomkin's Village"));
        expect_invalid(&s, expect);
        scn_free(&s);
    }
}

TEST_GROUP(rules_validate,
    cmocka_unit_test(test_validate_positions),
    cmocka_unit_test(test_validate_names_cards_of_the_edition));
