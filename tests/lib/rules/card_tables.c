/* Rule scenario tests, the card table's derived copies (lib/facts/cards.c): the listing's lanes and the packed
 * incomes equal the table (§2, §11, §12.2). Exact positions built with scenario.h, acted on through the public
 * API, checked for exact rubles, VP and card locations. Part of the program 'rules' (main.c; rules_tests.h holds
 * the shared helpers). Section numbers (§) and ruling ids (R) refer to doc/rules.md. */
#include "rules_tests.h"

/* The listing's lanes of costs, colours and values (stpete_card_lanes, lib/engine/legal.c) are the card table's (§2,
 * §11, §12.2): for each table and non-trading type the cost, the colour and the value, and 0 in every lane past
 * them. */
static void test_card_lanes_match_table(void **unused)
{
    (void)unused;
    for (int e = 0; e < 3; e++) {
        const card_lanes *l = &stpete_card_lanes[e];
        for (int t = 0; t < 32; t++) {
            if (t >= FIRST_TRADING) {
                assert_int_equal(l->cost[t] | l->blue[t] | l->orange[t] | l->green[t] | l->value[t], 0);
                continue;
            }
            const card_def *d = &stpete_card_tables[e][t];
            assert_int_equal(d->trading, 0);
            assert_int_equal(l->cost[t], d->cost);
            assert_int_equal(l->blue[t], d->colour == STPETE_COLOUR_BLUE ? 0xFF : 0);
            assert_int_equal(l->orange[t], d->colour == STPETE_COLOUR_ORANGE ? 0xFF : 0);
            assert_int_equal(l->green[t], d->colour == STPETE_COLOUR_GREEN ? 0xFF : 0);
            assert_int_equal(l->value[t], d->value);
        }
    }
}

/* The phase income's packed incomes (stpete_card_income, lib/engine/scoring.c) are the card table's rubles and VP
 * (§2, §11, §12.2) for each table and type, 0 past the types, and sums of them unpack to their rubles and VP, a
 * negative sum of rubles included (the Sycophant's -1, §12.7.9, R26). */
static void test_card_income_match_table(void **unused)
{
    (void)unused;
    for (int e = 0; e < 3; e++)
        for (int t = 0; t < DISPLAY_CAP; t++) {
            int32_t in = stpete_card_income[e][t];
            const card_def *d = t < CARD_TYPES_ALL ? &stpete_card_tables[e][t] : NULL; /* the table's rows only */
            assert_int_equal(stpete_cards_income_rubles(in), d ? d->rubles : 0);
            assert_int_equal(stpete_cards_income_vp(in), d ? d->vp : 0);
        }
    const int32_t *ns = stpete_card_income[2];
    int32_t sum = 2 * ns[STPETE_CARD_SYCOPHANT];
    assert_int_equal(stpete_cards_income_rubles(sum), -2);
    assert_int_equal(stpete_cards_income_vp(sum), 0);
    sum += ns[STPETE_CARD_SYCOPHANT] + 6 * ns[STPETE_CARD_ADMINISTRATOR] + ns[STPETE_CARD_MINISTER_OF_FOREIGN_AFFAIRS];
    assert_int_equal(stpete_cards_income_rubles(sum), -3 + 6 * 2 + 2);
    assert_int_equal(stpete_cards_income_vp(sum), 4);
    sum = 5 * ns[STPETE_CARD_SYCOPHANT] + 3 * ns[STPETE_CARD_CONTROLLER]; /* -5 R + 12 R, 3 VP */
    assert_int_equal(stpete_cards_income_rubles(sum), 7);
    assert_int_equal(stpete_cards_income_vp(sum), 3);
    sum = 2 * ns[STPETE_CARD_SYCOPHANT] + ns[STPETE_CARD_CZAR]; /* -2 R, 6 VP */
    assert_int_equal(stpete_cards_income_rubles(sum), -2);
    assert_int_equal(stpete_cards_income_vp(sum), 6);
}

TEST_GROUP(rules_card_tables,
    cmocka_unit_test(test_card_lanes_match_table),
    cmocka_unit_test(test_card_income_match_table));
