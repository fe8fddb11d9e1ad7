/* Rule scenarios of the New Society expansion and five players (§12 of the spec): one test or more per ruling
 * R16-R31, with its default and its [option], and the test cases of §12.13 (the Board Game Arena history). Positions
 * are built exactly with scenario.h (and checked by stpete_validate_position, the reader's invariants: a position the
 * loader would accept) or reached by play from a seeded setup. Every test names the rule it checks. */
#include "rules_tests.h"

/* A New Society game (§12) of the given players and seed, [option]s as given (R19, R22, R29). */
static scn ns_new(int players, uint64_t seed, int one_seat, int prison_scores, int textile_without)
{
    stpete_options o;
    stpete_options_init(&o);
    o.players = players;
    o.seed = seed;
    o.new_society = 1;
    o.markers_one_seat = one_seat;
    o.used_prison_scores = prison_scores;
    o.textile_without_new_society = textile_without;
    return scn_new_opts(&o);
}

static scn ns(int players)
{
    return ns_new(players, 7, 0, 0, 0);
}

/* The position is one the loader accepts (stpete_validate_position, what stpete_state_from_json checks). */
static void valid(scn *s)
{
    char why[200] = "";
    if (stpete_validate_position(scn_core(s), why, sizeof why) != STPETE_OK)
        fail_msg("invalid position: %s", why);
}

static int price_of(scn *s, const char *str)
{
    int price = -1;
    assert_int_equal(stpete_state_action_price(s->st, scn_id(str), &price), STPETE_OK);
    return price;
}

/* An empty board and an empty hand for everyone, every purse 25: a blank position to build on (the cards go to
 * the discard pile; take them back with scn_put). Seat 0 to act in phase. */
static void blank(scn *s, int phase)
{
    stpete_core *c = scn_core(s);
    scn_clear_board(s);
    for (int p = 0; p < c->rules.players; p++) {
        c->p[p].rubles = 25;
        while (c->p[p].hand_n)
            c->discard[c->p[p].hand[--c->p[p].hand_n]]++;
        c->p[p].hand_known = 0;
        memset(c->p[p].hand, 0, sizeof c->p[p].hand);
    }
    scn_turn(s, phase, 0);
}

/* Empty the discard pile back into the stacks of its cards (a pile that the Prison must not see). */
static void empty_discard(scn *s)
{
    stpete_core *c = scn_core(s);
    for (int t = 0; t < CARD_TYPES_ALL; t++)
        while (c->discard[t]) {
            c->discard[t]--;
            int st = stpete_cards_stack(t);
            c->stack[st][c->stack_n[st]++] = (uint8_t)t;
        }
}

/* ==== R16, R17: the option, the deck, the player counts ================================================= */

/* R16 (§12.0, §12.2): the New Society changes card types as a whole and deals all 144 cards at every player count;
 * without it the game is unchanged (49 types, 116 cards). */
static void test_r16_deck_of_144_at_every_player_count(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 5; players++) {
        scn s = ns(players);
        assert_int_equal(stpete_game_num_card_types(s.game), 62);
        assert_int_equal(scn_card_total(scn_core(&s)), 144);
        int total = 0;
        for (int t = 0; t < 62; t++) {
            stpete_card_info info = STPETE_CARD_INFO_INIT;
            assert_int_equal(stpete_game_get_card_info(s.game, t, &info), STPETE_OK);
            total += info.copies;
        }
        assert_int_equal(total, STPETE_NUM_CARDS_NEW_SOCIETY);
        /* §12.2.4: 37 workers, 34 buildings, 34 aristocrats, 39 trading cards */
        assert_int_equal(stpete_state_stack_size(s.st, STPETE_STACK_WORKER) + 2 * players, 37);
        assert_int_equal(stpete_state_stack_size(s.st, STPETE_STACK_BUILDING), 34);
        assert_int_equal(stpete_state_stack_size(s.st, STPETE_STACK_ARISTOCRAT), 34);
        assert_int_equal(stpete_state_stack_size(s.st, STPETE_STACK_TRADING), 39);
        valid(&s);
        scn_free(&s);
    }
    scn b = scn_new(4, 7); /* without the option: 1.0's game */
    assert_int_equal(stpete_game_num_card_types(b.game), 49);
    assert_int_equal(scn_card_total(scn_core(&b)), 116);
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    assert_int_equal(stpete_game_get_card_info(b.game, C(NEW_FARMER), &info), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_display_count(b.st, 0, C(NEW_FARMER)), STPETE_E_INVALID_ARGUMENT);
    scn_free(&b);
}

/* R16 (§12.2.1, §12.2.2): the replaced card types, every copy, and the extra copies. */
static void test_r16_replaced_card_types(void **unused)
{
    (void)unused;
    scn s = ns(3);
    static const struct {
        int card, cost, rubles, vp, copies, special;
    } rows[] = {
        { C(CZAR_AND_CARPENTER), 3, 2, 0, 1, STPETE_SPECIAL_CZAR_AND_CARPENTER },
        { C(OBSERVATORY), 8, 0, 1, 2, STPETE_SPECIAL_OBSERVATORY },
        { C(ACADEMY), 25, 0, 9, 1, STPETE_SPECIAL_NONE },
        { C(MARIINSKIJ_THEATER), 20, 0, 0, 1, STPETE_SPECIAL_MARIINSKY_THEATER_VP },
        { C(MISTRESS_OF_CEREMONIES), 18, 3, 4, 2, STPETE_SPECIAL_NONE },
        { C(WHARF), 12, 6, 1, 4, STPETE_SPECIAL_NONE },
        { C(FIREHOUSE), 11, 0, 3, 5, STPETE_SPECIAL_NONE },
        { C(JUDGE), 16, 5, 2, 3, STPETE_SPECIAL_NONE },
        { C(NEW_FARMER), 9, 3, 1, 6, STPETE_SPECIAL_NONE },
        { C(SYCOPHANT), 1, -1, 0, 2, STPETE_SPECIAL_SYCOPHANT },
        { C(DEBTORS_PRISON), 8, 0, 1, 1, STPETE_SPECIAL_DEBTORS_PRISON },
        { C(LT_KIJE), 12, 0, 3, 1, STPETE_SPECIAL_NONE },
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        assert_int_equal(stpete_game_get_card_info(s.game, rows[i].card, &info), STPETE_OK);
        assert_int_equal(info.cost, rows[i].cost);
        assert_int_equal(info.rubles, rows[i].rubles);
        assert_int_equal(info.vp, rows[i].vp);
        assert_int_equal(info.copies, rows[i].copies);
        assert_int_equal(info.special, rows[i].special);
    }
    /* the displaced value is the new cost (§12.2.1): the Czar and Carpenter is worth 3 */
    blank(&s, WORKER);
    scn_put(&s, C(CZAR_AND_CARPENTER), SCN_DISPLAY, 0);
    int price = 0;
    assert_int_equal(stpete_state_price(s.st, 0, C(NEW_SOCIETY), STPETE_SOURCE_UPPER, C(CZAR_AND_CARPENTER), &price),
                     STPETE_OK);
    assert_int_equal(price, 12);
    scn_free(&s);
}

/* R17 (§12.0): 5 players only with the New Society; the New Society only with the first edition, refused with a
 * clear message; its [option]s only with it. */
static void test_r17_options(void **unused)
{
    (void)unused;
    stpete_options o;
    stpete_options_init(&o);
    stpete_error e = STPETE_ERROR_INIT;
    o.players = 5;
    assert_int_equal(stpete_options_check(&o, &e), STPETE_E_INVALID_ARGUMENT);
    assert_string_equal(e.message, "players must be 2, 3 or 4, not 5: 5 players need the New Society (new_society, "
                                   "§12.0, R17)"); /* names the option (issue 45) */
    o.new_society = 1;
    assert_int_equal(stpete_options_check(&o, &e), STPETE_OK);
    o.players = 6;
    assert_int_equal(stpete_options_check(&o, &e), STPETE_E_INVALID_ARGUMENT);
    assert_non_null(strstr(e.message, "or 5 with the New Society"));
    o.players = 4;
    o.edition = 2;
    assert_int_equal(stpete_options_check(&o, &e), STPETE_E_INVALID_ARGUMENT);
    assert_non_null(strstr(e.message, "expansion of the first edition"));
    assert_non_null(strstr(e.message, "R17"));
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_null(g);
    o.edition = 1;
    o.new_society = 2;
    assert_int_equal(stpete_options_check(&o, &e), STPETE_E_INVALID_ARGUMENT);
    stpete_options_init(&o);
    o.used_prison_scores = 1; /* an option of the expansion, without it */
    assert_int_equal(stpete_options_check(&o, &e), STPETE_E_INVALID_ARGUMENT);
    assert_non_null(strstr(e.message, "used_prison_scores"));
    o.new_society = 1;
    assert_int_equal(stpete_options_check(&o, &e), STPETE_OK);
    o.markers_one_seat = 3;
    assert_int_equal(stpete_options_check(&o, &e), STPETE_E_INVALID_ARGUMENT);
}

/* ==== R18-R20: five players ================================================================================ */

/* R18 (§12.3): the 4 markers and the gold disc, one per player; the disc holder starts with 27 R and 2 VP; 10
 * workers dealt (§12.13 case 11: the disc holder at setup has 27 R). By play from several seeds. */
static void test_r18_five_player_setup(void **unused)
{
    (void)unused;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        scn s = ns_new(5, seed, 0, 0, 0);
        int disc = stpete_state_gold_disc_holder(s.st), held = 0;
        assert_true(disc >= 0 && disc < 5);
        for (int k = 0; k < 4; k++) {
            int seat = stpete_state_marker_holder(s.st, k);
            assert_true(seat != disc && !(held >> seat & 1));
            held |= 1 << seat;
        }
        for (int p = 0; p < 5; p++) {
            assert_int_equal(rub(&s, p), p == disc ? 27 : 25);
            assert_int_equal(scn_vp(&s, p), p == disc ? 2 : 0);
        }
        int row[16];
        size_t n = 0;
        assert_int_equal(stpete_state_row(s.st, STPETE_SOURCE_UPPER, row, 16, &n), STPETE_OK);
        assert_int_equal(n, 10);
        valid(&s);
        scn_free(&s);
    }
}

/* R18 [option]: an explicit assignment; the seat without a marker holds the disc. A seat with two markers is no
 * 5-player assignment. In explicit-chance mode the random deal is a chance node of 120 outcomes. */
static void test_r18_explicit_markers_and_chance(void **unused)
{
    (void)unused;
    stpete_options o;
    stpete_options_init(&o);
    o.players = 5;
    o.new_society = 1;
    int ok[4] = { 3, 0, 4, 1 };
    memcpy(o.start_markers, ok, sizeof ok);
    scn s = scn_new_opts(&o);
    assert_int_equal(stpete_state_gold_disc_holder(s.st), 2);
    assert_int_equal(rub(&s, 2), 27);
    assert_int_equal(stpete_state_current_player(s.st), 3); /* the worker marker's holder starts */
    scn_free(&s);
    int two[4] = { 0, 0, 1, 2 };
    memcpy(o.start_markers, two, sizeof two);
    stpete_error e = STPETE_ERROR_INIT;
    assert_int_equal(stpete_options_check(&o, &e), STPETE_E_INVALID_ARGUMENT);
    for (int k = 0; k < 4; k++)
        o.start_markers[k] = -1;
    o.chance_mode = STPETE_CHANCE_EXPLICIT;
    scn x = scn_new_opts(&o);
    int outcomes[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
    double p[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
    size_t n = 0;
    assert_int_equal(stpete_state_chance_outcomes(x.st, outcomes, p, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n),
                     STPETE_OK);
    assert_int_equal(n, 120);
    assert_int_equal(stpete_state_gold_disc_holder(x.st), STPETE_NONE); /* not dealt yet */
    /* "chance markers5 1 2 3 4": the disc to seat 0 */
    assert_int_equal(stpete_state_apply_string(x.st, "chance markers5 1 2 3 4"), STPETE_OK);
    assert_int_equal(stpete_state_gold_disc_holder(x.st), 0);
    assert_int_equal(rub(&x, 0), 27);
    scn_free(&x);
}

/* Play every phase of a round with passes only (5 x 4 phases, plus chance-free deals). */
static void pass_round(scn *s)
{
    int round = stpete_state_round(s->st);
    while (stpete_state_round(s->st) == round && stpete_state_decision(s->st) != STPETE_DECISION_GAME_OVER)
        scn_do(s, "pass");
}

/* R19 (§12.4.1) default: at each round's end every marker and the disc move two seats clockwise and the new disc
 * holder scores 2 VP at once; after r rounds the disc VP add up to 2 r (§12.13 case 11). By play, passes only. */
static void test_r19_markers_two_seats(void **unused)
{
    (void)unused;
    scn s = ns_new(5, 3, 0, 0, 0);
    int before[4];
    for (int k = 0; k < 4; k++)
        before[k] = stpete_state_marker_holder(s.st, k);
    int disc = stpete_state_gold_disc_holder(s.st);
    for (int r = 1; r <= 3; r++) {
        pass_round(&s);
        for (int k = 0; k < 4; k++)
            assert_int_equal(stpete_state_marker_holder(s.st, k), (before[k] + 2 * r) % 5);
        assert_int_equal(stpete_state_gold_disc_holder(s.st), (disc + 2 * r) % 5);
        int total = 0;
        for (int p = 0; p < 5; p++)
            total += scn_vp(&s, p);
        assert_int_equal(total, 2 * (r + 1)); /* the setup's 2 and 2 per round */
    }
    valid(&s);
    scn_free(&s);
}

/* R19 [option: one seat]: the base rule's move, the disc with the markers. */
static void test_r19_option_one_seat(void **unused)
{
    (void)unused;
    scn s = ns_new(5, 3, 1, 0, 0);
    int disc = stpete_state_gold_disc_holder(s.st), first = stpete_state_marker_holder(s.st, 0);
    pass_round(&s);
    assert_int_equal(stpete_state_marker_holder(s.st, 0), (first + 1) % 5);
    assert_int_equal(stpete_state_gold_disc_holder(s.st), (disc + 1) % 5);
    assert_int_equal(scn_vp(&s, (disc + 1) % 5), 2);
    scn_free(&s);
}

/* R19, §12.13 case 11: no disc award after the final round (§4.6 skips the end-of-round steps). */
static void test_r19_no_disc_award_after_the_final_round(void **unused)
{
    (void)unused;
    scn s = ns(5);
    blank(&s, TRADING);
    scn_core(&s)->final_round = 1;
    /* a stack is empty in a final round (§4.6): move the trading stack to the discard pile */
    stpete_core *c = scn_core(&s);
    while (c->stack_n[3])
        c->discard[c->stack[3][--c->stack_n[3]]]++;
    valid(&s);
    int vp[5];
    for (int p = 0; p < 5; p++)
        vp[p] = scn_vp(&s, p);
    pass_n(&s, 5);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_GAME_OVER);
    for (int p = 0; p < 5; p++) {
        stpete_score sc = STPETE_SCORE_INIT;
        assert_int_equal(stpete_state_get_score(s.st, p, &sc), STPETE_OK);
        assert_int_equal(sc.vp_before, vp[p]); /* nothing but final scoring */
    }
    scn_free(&s);
}

/* R20 (§12.4.1), §12.13 case 6: a deal adds max(0, 8 - cards on board). Five players, nobody buys in round 1: no
 * buildings are dealt after the worker phase, the end-of-round deal adds no workers while 8 or more remain; the
 * 10 unsold workers are discarded at the end of round 2, and 8 workers are dealt. By play. */
static void test_r20_board_of_ten(void **unused)
{
    (void)unused;
    scn s = ns(5);
    int building_stack = stpete_state_stack_size(s.st, STPETE_STACK_BUILDING);
    pass_n(&s, 5); /* the worker phase */
    assert_int_equal(stpete_state_phase(s.st), BUILDING);
    assert_int_equal(stpete_state_stack_size(s.st, STPETE_STACK_BUILDING), building_stack);
    int workers = stpete_state_stack_size(s.st, STPETE_STACK_WORKER);
    pass_round(&s); /* the rest of round 1 */
    size_t upper = 0, lower = 0;
    int row[16];
    stpete_state_row(s.st, STPETE_SOURCE_UPPER, row, 16, &upper);
    stpete_state_row(s.st, STPETE_SOURCE_LOWER, row, 16, &lower);
    assert_int_equal(upper, 0);
    assert_int_equal(lower, 10);
    assert_int_equal(stpete_state_stack_size(s.st, STPETE_STACK_WORKER), workers);
    valid(&s);
    pass_round(&s); /* round 2: the 10 are discarded, 8 workers come */
    stpete_state_row(s.st, STPETE_SOURCE_UPPER, row, 16, &upper);
    stpete_state_row(s.st, STPETE_SOURCE_LOWER, row, 16, &lower);
    assert_int_equal(upper, 8);
    assert_int_equal(lower, 0);
    assert_int_equal(stpete_state_stack_size(s.st, STPETE_STACK_WORKER), workers - 8);
    scn_free(&s);
}

/* R20: a card of the upper row beyond the 8th (the 5-player opening) can be bought and taken like any other. */
static void test_r20_tenth_worker_can_be_bought(void **unused)
{
    (void)unused;
    scn s = ns(5);
    stpete_core *c = scn_core(&s);
    assert_int_equal(c->row_n[0], 10);
    int last = c->row[0][9];
    char buf[96];
    stpete_action a = { STPETE_ACTION_TAKE, STPETE_SOURCE_UPPER, last, -1, -1, -1 };
    int id = -1;
    assert_int_equal(stpete_action_encode(&a, &id), STPETE_OK);
    assert_int_equal(stpete_action_to_string(1, id, buf, sizeof buf), STPETE_OK);
    int seat = stpete_state_current_player(s.st);
    scn_do(&s, buf);
    assert_int_equal(c->row_n[0], 9);
    assert_int_equal(c->p[seat].hand[0], last);
    scn_free(&s);
}

/* ==== R21, R22: the Debtor's Prison ========================================================================= */

/* R21 (§12.7.5): building phase, the owner of an unused Prison, a non-empty pile: pick any card of the pile, then buy
 * it (no lower-row discount), take it (hand limit) or put it back. A Prison action counts as an action. */
static void test_r21_prison_pick_and_buy(void **unused)
{
    (void)unused;
    scn s = ns(3);
    blank(&s, BUILDING);
    empty_discard(&s);
    scn_put(&s, C(DEBTORS_PRISON), SCN_DISPLAY, 0);
    scn_put(&s, C(THEATER), SCN_DISCARD, 0);
    scn_put(&s, C(THEATER), SCN_DISPLAY, 0); /* a same-name discount applies, a row discount never */
    valid(&s);
    assert_int_equal(legal(&s, "prison Theater"), 1);
    assert_int_equal(legal(&s, "prison Market"), 0); /* not in the pile */
    scn_do(&s, "prison Theater");
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_PRISON);
    assert_int_equal(stpete_state_prison_card(s.st), C(THEATER));
    assert_int_equal(stpete_state_observatory_card(s.st), STPETE_CARD_NONE);
    assert_int_equal(stpete_state_discard_count(s.st, C(THEATER)), 0);
    assert_int_equal(scn_card_total(scn_core(&s)), 144);
    int used = 0;
    stpete_state_is_prison_used(s.st, 0, &used);
    assert_int_equal(used, 1);
    valid(&s);
    assert_int_equal(price_of(&s, "prison buy Theater"), 19); /* 20 - 1 same name, no row discount */
    scn_do(&s, "prison buy Theater");
    assert_int_equal(rub(&s, 0), 25 - 19);
    assert_int_equal(stpete_state_display_count(s.st, 0, C(THEATER)), 2);
    assert_int_equal(stpete_state_current_player(s.st), 1); /* an action: the turn passes on */
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_TURN);
    scn_free(&s);
}

/* R21: take into hand (seen by all) or put back; the Prison is then used for the round (one use), and it never
 * takes from a stack. */
static void test_r21_prison_take_and_put_back(void **unused)
{
    (void)unused;
    scn s = ns(2);
    blank(&s, BUILDING);
    empty_discard(&s);
    scn_put(&s, C(DEBTORS_PRISON), SCN_DISPLAY, 0);
    scn_put(&s, C(CZAR), SCN_DISCARD, 0);
    int stacks[4];
    for (int k = 0; k < 4; k++)
        stacks[k] = stpete_state_stack_size(s.st, k);
    scn_do(&s, "prison Czar");
    scn_do(&s, "prison take");
    int hand[4];
    size_t n = 0;
    stpete_state_hand(s.st, 0, hand, 4, &n);
    assert_int_equal(n, 1);
    assert_int_equal(hand[0], C(CZAR));
    assert_int_equal(scn_core(&s)->p[0].hand_known & 1, 1); /* shown to everyone (§12.9) */
    for (int k = 0; k < 4; k++)
        assert_int_equal(stpete_state_stack_size(s.st, k), stacks[k]);
    scn_do(&s, "pass"); /* seat 1 */
    /* seat 0 again: the Prison is used until the next round (R22) */
    scn_put(&s, C(AUTHOR), SCN_DISCARD, 0);
    assert_int_equal(legal(&s, "prison Author"), 0);
    /* a fresh round: usable again (§12.4.5) */
    scn_core(&s)->p[0].prison_used = 0;
    scn_do(&s, "prison Author");
    assert_int_equal(legal(&s, "prison take"), 1);
    scn_do(&s, "prison put back");
    assert_int_equal(stpete_state_discard_count(s.st, C(AUTHOR)), 1);
    scn_free(&s);
}

/* R21, §12.13 case 2: the action is refused without the Prison in the display (in hand, or not owned), outside the
 * building phase, with an empty pile, and in a game without the New Society. */
static void test_r21_prison_refused(void **unused)
{
    (void)unused;
    scn s = ns(2);
    blank(&s, BUILDING);
    empty_discard(&s);
    scn_put(&s, C(MARKET), SCN_DISCARD, 0);
    assert_int_equal(legal(&s, "prison Market"), 0); /* no Prison */
    scn_put(&s, C(DEBTORS_PRISON), SCN_HAND, 0);
    assert_int_equal(legal(&s, "prison Market"), 0); /* in hand */
    assert_int_equal(stpete_state_apply_string(s.st, "prison Market"), STPETE_E_ILLEGAL_ACTION);
    assert_non_null(strstr(stpete_state_last_error(s.st), "no Debtor's Prison in its display"));
    scn_put(&s, C(DEBTORS_PRISON), SCN_DISPLAY, 1);
    assert_int_equal(legal(&s, "prison Market"), 0); /* another seat's */
    scn_turn(&s, BUILDING, 1);
    assert_int_equal(legal(&s, "prison Market"), 1);
    scn_turn(&s, ARISTOCRAT, 1);
    assert_int_equal(legal(&s, "prison Market"), 0); /* building phase only */
    scn_turn(&s, BUILDING, 1);
    empty_discard(&s);
    assert_int_equal(legal(&s, "prison Market"), 0); /* an empty pile */
    scn_free(&s);
    scn b = scn_new(2, 1);
    int ok = -1;
    assert_int_equal(stpete_state_is_legal(b.st, scn_id("prison Market"), &ok), STPETE_OK);
    assert_int_equal(ok, 0);
    assert_int_equal(stpete_state_apply_string(b.st, "prison Market"), STPETE_E_INVALID_ARGUMENT);
    scn_free(&b);
}

/* §12.13 case 1: building phase, 0 R, hand full, a card in the pile, an unused Prison: the legal moves are exactly
 * the Prison's picks and pass (BGA once passed such a player automatically). */
static void test_s1213_case1_prison_is_not_skipped(void **unused)
{
    (void)unused;
    scn s = ns(2);
    blank(&s, BUILDING);
    empty_discard(&s);
    scn_put(&s, C(DEBTORS_PRISON), SCN_DISPLAY, 0);
    scn_put(&s, C(AUTHOR), SCN_HAND, 0);
    scn_put(&s, C(AUTHOR), SCN_HAND, 0);
    scn_put(&s, C(AUTHOR), SCN_HAND, 0);
    scn_put(&s, C(SECRETARY), SCN_DISCARD, 0);
    scn_put(&s, C(MARKET), SCN_UPPER, 0);
    scn_set_rubles(&s, 0, 0);
    valid(&s);
    int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
    size_t n = 0;
    assert_int_equal(stpete_state_legal_actions(s.st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n), STPETE_OK);
    assert_int_equal(n, 2);
    assert_int_equal(ids[0], scn_id("pass"));
    assert_int_equal(ids[1], scn_id("prison Secretary"));
    /* with a full hand the Prison still buys or puts back (§12.10): here only put back (0 R) */
    scn_do(&s, "prison Secretary");
    assert_int_equal(stpete_state_legal_actions(s.st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n), STPETE_OK);
    assert_int_equal(n, 1);
    assert_int_equal(ids[0], scn_id("prison put back"));
    scn_free(&s);
}

/* §12.13 case 10: the put-back is always legal and resets the pass count; the Prison then cannot repeat. */
static void test_s1213_case10_prison_stalls_once(void **unused)
{
    (void)unused;
    scn s = ns(3);
    blank(&s, BUILDING);
    empty_discard(&s);
    scn_put(&s, C(DEBTORS_PRISON), SCN_DISPLAY, 2);
    scn_put(&s, C(MARKET), SCN_DISCARD, 0);
    pass_n(&s, 2); /* seats 0 and 1 */
    assert_int_equal(stpete_state_consecutive_passes(s.st), 2);
    scn_do(&s, "prison Market");
    assert_int_equal(stpete_state_consecutive_passes(s.st), 0);
    scn_do(&s, "prison put back");
    assert_int_equal(stpete_state_phase(s.st), BUILDING);
    pass_n(&s, 2);
    assert_int_equal(stpete_state_current_player(s.st), 2);
    assert_int_equal(legal(&s, "prison Market"), 0); /* used */
    scn_do(&s, "pass");
    assert_int_equal(stpete_state_phase(s.st) == BUILDING, 0);
    scn_free(&s);
}

/* A building scoring of a blank position: seat 0 acts in the building phase, everyone passes. */
static void building_scoring(scn *s)
{
    scn_turn(s, BUILDING, 0);
    pass_n(s, scn_core(s)->rules.players);
}

/* R22 (§12.7.5), §12.13 case 3: a used Prison scores no VP this round (default, the card text) / its 1 VP (the
 * option, BGA's behaviour); an unused one scores 1 VP either way. */
static void test_r22_used_prison_scores(void **unused)
{
    (void)unused;
    for (int option = 0; option <= 1; option++)
        for (int used = 0; used <= 1; used++) {
            scn s = ns_new(2, 7, 0, option, 0);
            blank(&s, BUILDING);
            scn_put(&s, C(DEBTORS_PRISON), SCN_DISPLAY, 0);
            scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
            scn_core(&s)->p[0].prison_used = (uint8_t)used;
            valid(&s);
            building_scoring(&s);
            assert_int_equal(scn_vp(&s, 0), 1 + (used && !option ? 0 : 1));
            scn_free(&s);
        }
}

/* R22, §12.13 case 4: a used Prison cannot be displaced until the next round; the listing, the check, the
 * displacements query and apply agree on every target. */
static void test_r22_used_prison_not_displaceable(void **unused)
{
    (void)unused;
    scn s = ns(2);
    blank(&s, BUILDING);
    scn_put(&s, C(DEBTORS_PRISON), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(BANK), SCN_UPPER, 0);
    scn_set_rubles(&s, 0, 30);
    assert_int_equal(legal(&s, "buy Bank from upper displacing Debtor's Prison"), 1);
    assert_int_equal(price_of(&s, "buy Bank from upper displacing Debtor's Prison"), 13 - 8);
    scn_core(&s)->p[0].prison_used = 1;
    valid(&s);
    assert_int_equal(legal(&s, "buy Bank from upper displacing Debtor's Prison"), 0);
    assert_int_equal(legal(&s, "buy Bank from upper displacing Market"), 1);
    stpete_displacement d[16];
    size_t n = 0;
    assert_int_equal(stpete_state_displacements(s.st, 0, C(BANK), STPETE_SOURCE_UPPER, d, 16, &n), STPETE_OK);
    assert_int_equal(n, 1);
    assert_int_equal(d[0].displaced, C(MARKET));
    assert_int_equal(stpete_state_apply_string(s.st, "buy Bank from upper displacing Debtor's Prison"),
                     STPETE_E_ILLEGAL_ACTION);
    assert_non_null(strstr(stpete_state_last_error(s.st), "R22"));
    scn_free(&s);
}

/* §12.7.5 (its sentence of 1.2): the Prison is used from the moment it is taken, so the card it picked cannot displace
 * it either (as the Observatory's draw, §7.1): a blue trading card bought from the pile takes another building, and
 * with the Prison its only target it cannot be bought at all. */
static void test_r22_prison_not_displaced_by_its_own_pick(void **unused)
{
    (void)unused;
    scn s = ns(2);
    blank(&s, BUILDING);
    empty_discard(&s);
    scn_put(&s, C(DEBTORS_PRISON), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(BANK), SCN_DISCARD, 0);
    scn_set_rubles(&s, 0, 30);
    valid(&s);
    scn_do(&s, "prison Bank");
    assert_int_equal(legal(&s, "prison buy Bank displacing Debtor's Prison"), 0);
    assert_int_equal(legal(&s, "prison buy Bank displacing Market"), 1);
    stpete_displacement d[16];
    size_t n = 0;
    assert_int_equal(stpete_state_displacements(s.st, 0, C(BANK), STPETE_SOURCE_DISCARD, d, 16, &n), STPETE_OK);
    assert_int_equal(n, 1);
    assert_int_equal(d[0].displaced, C(MARKET));
    assert_int_equal(stpete_state_apply_string(s.st, "prison buy Bank displacing Debtor's Prison"),
                     STPETE_E_ILLEGAL_ACTION);
    assert_non_null(strstr(stpete_state_last_error(s.st), "R22"));
    scn_free(&s);
    /* the Prison the only building: the picked Bank has no target, so it can only be taken or put back */
    s = ns(2);
    blank(&s, BUILDING);
    empty_discard(&s);
    scn_put(&s, C(DEBTORS_PRISON), SCN_DISPLAY, 0);
    scn_put(&s, C(BANK), SCN_DISCARD, 0);
    scn_set_rubles(&s, 0, 30);
    scn_do(&s, "prison Bank");
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    assert_int_equal(stpete_state_legal_actions(s.st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    assert_int_equal(n, 2);
    assert_int_equal(legal(&s, "prison take"), 1);
    assert_int_equal(legal(&s, "prison put back"), 1);
    scn_free(&s);
}

/* ==== R23-R25: after the building scoring ============================================================== */

/* R23 (§12.4.3), R24, R25, §12.10: incomes, then the Guild Hall, then the Trading House, then the Pub. 9 R after
 * scoring (the Guild Hall's rubles included): the Trading House turns 3 R into 2 VP, the Pub then sells at most 3 VP
 * for the 6 R left. */
static void test_r23_order_guild_hall_trading_house_pub(void **unused)
{
    (void)unused;
    scn s = ns(2);
    blank(&s, BUILDING);
    scn_put(&s, C(GUILD_HALL), SCN_DISPLAY, 0);
    scn_put(&s, C(TRADING_HOUSE), SCN_DISPLAY, 0);
    scn_put(&s, C(PUB), SCN_DISPLAY, 0);
    scn_set_rubles(&s, 0, 5);
    valid(&s);
    building_scoring(&s);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_GUILD_HALL);
    assert_int_equal(stpete_state_current_player(s.st), 0);
    valid(&s);
    assert_int_equal(legal(&s, "pub 1"), 0);
    assert_int_equal(legal(&s, "trading house buy"), 0);
    scn_do(&s, "guild hall 4"); /* 4 R, 0 VP: 9 R */
    assert_int_equal(rub(&s, 0), 9);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_TRADING_HOUSE);
    valid(&s);
    assert_int_equal(price_of(&s, "trading house buy"), 3);
    scn_do(&s, "trading house buy");
    assert_int_equal(rub(&s, 0), 6);
    assert_int_equal(scn_vp(&s, 0), 2);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_PUB);
    assert_int_equal(legal(&s, "pub 3"), 1);
    assert_int_equal(legal(&s, "pub 4"), 0);
    scn_do(&s, "pub 3");
    assert_int_equal(scn_vp(&s, 0), 5);
    assert_int_equal(rub(&s, 0), 0);
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    scn_free(&s);
}

/* R24 (§12.7.7): 4 split as r R and 4 - r VP, every r from 0 to 4, the owner's choice, even with 0 R. */
static void test_r24_guild_hall_split(void **unused)
{
    (void)unused;
    for (int r = 0; r <= 4; r++) {
        scn s = ns(3);
        blank(&s, BUILDING);
        scn_put(&s, C(GUILD_HALL), SCN_DISPLAY, 2);
        scn_set_rubles(&s, 2, 0);
        building_scoring(&s);
        assert_int_equal(stpete_state_current_player(s.st), 2);
        int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
        size_t n = 0;
        stpete_state_legal_actions(s.st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n);
        assert_int_equal(n, 5);
        char str[32];
        snprintf(str, sizeof str, "guild hall %d", r);
        scn_do(&s, str);
        assert_int_equal(rub(&s, 2), r);
        assert_int_equal(scn_vp(&s, 2), 4 - r);
        assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
        scn_free(&s);
    }
}

/* R25 (§12.7.6): at most once per building scoring, optional, 3 R for 2 VP, only with 3 R. */
static void test_r25_trading_house(void **unused)
{
    (void)unused;
    scn s = ns(2);
    blank(&s, BUILDING);
    scn_put(&s, C(TRADING_HOUSE), SCN_DISPLAY, 1);
    scn_set_rubles(&s, 1, 2);
    building_scoring(&s); /* 2 R: no choice */
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    scn_free(&s);
    s = ns(2);
    blank(&s, BUILDING);
    scn_put(&s, C(TRADING_HOUSE), SCN_DISPLAY, 1);
    scn_set_rubles(&s, 1, 20);
    building_scoring(&s);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_TRADING_HOUSE);
    int price = 0;
    assert_int_equal(stpete_state_action_price(s.st, scn_id("trading house decline"), &price), STPETE_E_NO_PRICE);
    scn_do(&s, "trading house decline");
    assert_int_equal(rub(&s, 1), 20);
    assert_int_equal(scn_vp(&s, 1), 0);
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT); /* once: no second offer */
    assert_int_equal(legal(&s, "trading house buy"), 0);
    scn_free(&s);
}

/* ==== R26: the Sycophant ================================================================================ */

static void aristocrat_scoring(scn *s)
{
    scn_turn(s, ARISTOCRAT, 0);
    pass_n(s, scn_core(s)->rules.players);
}

/* R26 (§12.7.9), §12.13 case 8: the examples of the spec, one row each: the seat's Sycophants and Authors and its
 * rubles before the aristocrat scoring, its rubles and Sycophants after. */
static void test_r26_sycophant(void **unused)
{
    (void)unused;
    static const struct {
        int sycophants, authors, rubles, want_rubles, want_sycophants;
    } cases[] = {
        { 1, 0, 0, 0, 0 }, /* 0 R, one Sycophant, no other orange income: discarded, still 0 R */
        { 1, 1, 0, 0, 1 }, /* 0 R, a Sycophant and an Author: N = 0, the Sycophant stays */
        { 2, 0, 1, 0, 1 }, /* 1 R, two Sycophants: one discarded, pays 1, ends at 0 */
        { 2, 0, 5, 3, 2 }, /* 5 R and two Sycophants: both paid */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        scn s = ns(2);
        blank(&s, ARISTOCRAT);
        for (int k = 0; k < cases[i].sycophants; k++)
            scn_put(&s, C(SYCOPHANT), SCN_DISPLAY, 0);
        for (int k = 0; k < cases[i].authors; k++)
            scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
        scn_set_rubles(&s, 0, cases[i].rubles);
        aristocrat_scoring(&s);
        assert_int_equal(rub(&s, 0), cases[i].want_rubles);
        assert_int_equal(stpete_state_display_count(s.st, 0, C(SYCOPHANT)), cases[i].want_sycophants);
        if (cases[i].want_sycophants < cases[i].sycophants) /* a discarded Sycophant goes to the discard pile */
            assert_int_equal(stpete_state_discard_count(s.st, C(SYCOPHANT)) >= 1, 1);
        scn_free(&s);
    }
}

/* R26, §12.13 case 8: a discarded Sycophant is missing from the final count of distinct aristocrats (§12.8). */
static void test_r26_discarded_sycophant_not_counted(void **unused)
{
    (void)unused;
    scn s = ns(2);
    blank(&s, ARISTOCRAT);
    scn_put(&s, C(SYCOPHANT), SCN_DISPLAY, 0);
    scn_put(&s, C(WEAPON_MASTER), SCN_DISPLAY, 0);
    scn_set_rubles(&s, 0, 0);
    stpete_score sc = STPETE_SCORE_INIT;
    stpete_state_get_score(s.st, 0, &sc);
    assert_int_equal(sc.aristocrat_kinds, 2);
    /* Weapon Master pays 4: N = 3, nothing discarded; a second Sycophant-only seat shows the discard */
    scn_put(&s, C(SYCOPHANT), SCN_DISPLAY, 1);
    scn_set_rubles(&s, 1, 0);
    aristocrat_scoring(&s);
    assert_int_equal(stpete_state_display_count(s.st, 0, C(SYCOPHANT)), 1);
    stpete_state_get_score(s.st, 1, &sc);
    assert_int_equal(sc.aristocrat_kinds, 0);
    scn_free(&s);
}

/* ==== R27, R28: prices and displacement pairs ======================================================== */

/* R27 (§12.5): the worked examples of the spec, each with its discounts (Obshchina on green cards, trading cards
 * included; cumulative; floor 1). */
static void test_r27_prices(void **unused)
{
    (void)unused;
    scn s = ns(2);
    blank(&s, WORKER);
    scn_set_rubles(&s, 0, 60);
    scn_put(&s, C(OBSHCHINA_COMMUNE), SCN_DISPLAY, 0);
    scn_put(&s, C(NEW_FARMER), SCN_DISPLAY, 0);
    scn_put(&s, C(NEW_FARMER), SCN_DISPLAY, 0);
    scn_put(&s, C(NEW_FARMER), SCN_LOWER, 0);
    scn_put(&s, C(SHIP_BUILDER), SCN_DISPLAY, 0);
    scn_put(&s, C(CZAR_AND_CARPENTER), SCN_DISPLAY, 0);
    scn_put(&s, C(NEW_SOCIETY), SCN_UPPER, 0);
    valid(&s);
    assert_int_equal(price_of(&s, "buy New Farmer from lower"), 9 - 2 - 1 - 1);               /* 5 */
    assert_int_equal(price_of(&s, "buy New Society from upper displacing Ship Builder"), 7);  /* 15 - 7 - 1 */
    assert_int_equal(price_of(&s, "buy New Society from upper displacing Czar and Carpenter"), 11); /* 15-3-1 */
    assert_int_equal(price_of(&s, "buy New Society from upper displacing New Farmer"), 5);   /* 15 - 9 - 1 */
    scn_free(&s);
    s = ns(2);
    blank(&s, WORKER);
    scn_put(&s, C(CZAR_AND_CARPENTER), SCN_DISPLAY, 0);
    scn_put(&s, C(NEW_FARMER), SCN_DISPLAY, 0);
    scn_put(&s, C(NEW_SOCIETY), SCN_UPPER, 0);
    scn_put(&s, C(OBSHCHINA_COMMUNE), SCN_LOWER, 0);
    assert_int_equal(price_of(&s, "buy New Society from upper displacing Czar and Carpenter"), 12);
    assert_int_equal(price_of(&s, "buy New Society from upper displacing New Farmer"), 6);
    assert_int_equal(price_of(&s, "buy Obshchina Commune from lower displacing New Farmer"), 3); /* 13 - 9 - 1 */
    scn_free(&s);
    s = ns(2);
    blank(&s, WORKER);
    scn_put(&s, C(ACADEMY), SCN_DISPLAY, 0);
    scn_put(&s, C(POTJOMKINS_VILLAGE), SCN_DISPLAY, 0);
    scn_put(&s, C(SYCOPHANT), SCN_DISPLAY, 0);
    scn_put(&s, C(GOLD_SMELTER), SCN_DISPLAY, 0);
    scn_put(&s, C(ST_PETERSBURG_UNIVERSITY), SCN_UPPER, 0);
    scn_put(&s, C(GUILD_HALL), SCN_UPPER, 0);
    scn_put(&s, C(LT_KIJE), SCN_UPPER, 0);
    scn_put(&s, C(SYCOPHANT), SCN_UPPER, 0);
    assert_int_equal(price_of(&s, "buy St Petersburg University from upper displacing Academy"), 1); /* 18-25 */
    assert_int_equal(price_of(&s, "buy Guild Hall from upper displacing Potjomkin's Village"), 7);   /* 13 - 6 */
    assert_int_equal(price_of(&s, "buy Lt. Kije from upper displacing Sycophant"), 10);              /* 12-1-1 */
    assert_int_equal(price_of(&s, "buy Sycophant from upper"), 1);                                   /* 1-1-1 */
    scn_free(&s);
}

/* R28 (§12.6), §12.13 case 5: the whole pair table of the green trading cards, and the new blue and orange trading
 * cards on the new targets: by the encoding (a pair no game allows has no id) and in a display (the listing). */
static void test_r28_displacement_pairs(void **unused)
{
    (void)unused;
    int id = -1;
    stpete_action a = { STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, C(WEAVING_MILL), C(NEW_FARMER), -1, -1 };
    assert_int_equal(stpete_action_encode(&a, &id), STPETE_E_INVALID_ARGUMENT); /* Weaving Mill -/-> New Farmer */
    a.card = C(OBSHCHINA_COMMUNE);
    a.displaced = C(SHEPHERD);
    assert_int_equal(stpete_action_encode(&a, &id), STPETE_E_INVALID_ARGUMENT); /* Obshchina -/-> Shepherd */
    a.displaced = C(CZAR_AND_CARPENTER);
    assert_int_equal(stpete_action_encode(&a, &id), STPETE_OK); /* Obshchina -> Czar and Carpenter */
    a.card = C(NEW_SOCIETY);
    for (int w = 0; w <= C(CZAR_AND_CARPENTER); w++) { /* New Society -> every worker */
        a.displaced = w;
        assert_int_equal(stpete_action_encode(&a, &id), STPETE_OK);
    }
    a.displaced = C(NEW_FARMER);
    assert_int_equal(stpete_action_encode(&a, &id), STPETE_OK);
    static const int green_trading[] = { C(CARPENTER_WORKSHOP), C(GOLD_SMELTER), C(WEAVING_MILL), C(FUR_SHOP), C(WHARF),
                                         C(OBSHCHINA_COMMUNE), C(NEW_SOCIETY) };
    for (size_t i = 0; i < 7; i++) /* no green trading card displaces a green trading card */
        for (size_t j = 0; j < 7; j++) {
            stpete_action b = { STPETE_ACTION_PLAY, STPETE_SOURCE_HAND, green_trading[i], green_trading[j], -1, -1 };
            assert_int_equal(stpete_action_encode(&b, &id), STPETE_E_INVALID_ARGUMENT);
        }
    /* in a display: the listing offers exactly the pairs of §12.6 */
    scn s = ns(2);
    blank(&s, WORKER);
    scn_set_rubles(&s, 0, 60);
    for (int w = 0; w <= C(CZAR_AND_CARPENTER); w++)
        scn_put(&s, w, SCN_DISPLAY, 0);
    scn_put(&s, C(NEW_FARMER), SCN_DISPLAY, 0);
    scn_put(&s, C(NEW_SOCIETY), SCN_HAND, 0);
    scn_put(&s, C(OBSHCHINA_COMMUNE), SCN_HAND, 0);
    scn_put(&s, C(WEAVING_MILL), SCN_HAND, 0);
    valid(&s);
    stpete_displacement d[16];
    size_t n = 0;
    assert_int_equal(stpete_state_displacements(s.st, 0, C(NEW_SOCIETY), STPETE_SOURCE_HAND, d, 16, &n), STPETE_OK);
    assert_int_equal(n, 7);
    assert_int_equal(stpete_state_displacements(s.st, 0, C(OBSHCHINA_COMMUNE), STPETE_SOURCE_HAND, d, 16, &n),
                     STPETE_OK);
    assert_int_equal(n, 2);
    assert_int_equal(d[0].displaced, C(CZAR_AND_CARPENTER));
    assert_int_equal(d[1].displaced, C(NEW_FARMER));
    assert_int_equal(stpete_state_displacements(s.st, 0, C(WEAVING_MILL), STPETE_SOURCE_HAND, d, 16, &n), STPETE_OK);
    assert_int_equal(n, 2);
    assert_int_equal(d[0].displaced, C(SHEPHERD));
    assert_int_equal(d[1].displaced, C(CZAR_AND_CARPENTER));
    assert_int_equal(legal(&s, "play Weaving Mill displacing Czar and Carpenter"), 1);
    /* blue and orange: the new buildings and the Sycophant are targets of old and new trading cards */
    scn_put(&s, C(COFFEE_HOUSE), SCN_DISPLAY, 0);
    scn_put(&s, C(SYCOPHANT), SCN_DISPLAY, 0);
    scn_put(&s, C(BANK), SCN_UPPER, 0);
    scn_put(&s, C(MAYOR), SCN_UPPER, 0);
    assert_int_equal(legal(&s, "buy Bank from upper displacing Coffee House"), 1);
    assert_int_equal(legal(&s, "buy Mayor from upper displacing Sycophant"), 1);
    scn_free(&s);
}

/* ==== R29-R31: scoring =================================================================================== */

/* R29 (§12.7.8), §12.13 case 9: Shepherd x2, Weaving Mill, Czar and Carpenter, New Society: +10 VP by default, +8
 * with the option. */
static void test_r29_textile_factory(void **unused)
{
    (void)unused;
    for (int option = 0; option <= 1; option++) {
        scn s = ns_new(2, 7, 0, 0, option);
        blank(&s, BUILDING);
        scn_put(&s, C(TEXTILE_FACTORY), SCN_DISPLAY, 0);
        scn_put(&s, C(SHEPHERD), SCN_DISPLAY, 0);
        scn_put(&s, C(SHEPHERD), SCN_DISPLAY, 0);
        scn_put(&s, C(WEAVING_MILL), SCN_DISPLAY, 0);
        scn_put(&s, C(CZAR_AND_CARPENTER), SCN_DISPLAY, 0);
        scn_put(&s, C(NEW_SOCIETY), SCN_DISPLAY, 0);
        scn_put(&s, C(LUMBERJACK), SCN_DISPLAY, 0); /* no weaving symbol */
        scn_put(&s, C(SHEPHERD), SCN_HAND, 0);      /* hand cards never count */
        valid(&s);
        building_scoring(&s);
        assert_int_equal(scn_vp(&s, 0), option ? 8 : 10);
        assert_int_equal(rub(&s, 0), 25);
        scn_free(&s);
    }
}

/* R30 (§12.7.3, §12.7.4): Coffee House +1 R and Mariinskij-Theater +1 VP per orange card (trading cards, duplicates
 * and the Sycophant included), both at once; Mayor +1 R per blue card (a face-down Observatory and a used Prison
 * included); hand cards never count. */
static void test_r30_colour_counting(void **unused)
{
    (void)unused;
    scn s = ns(2);
    blank(&s, BUILDING);
    scn_put(&s, C(COFFEE_HOUSE), SCN_DISPLAY, 0);
    scn_put(&s, C(MARIINSKIJ_THEATER), SCN_DISPLAY, 0);
    scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
    scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
    scn_put(&s, C(SYCOPHANT), SCN_DISPLAY, 0);
    scn_put(&s, C(POPE), SCN_DISPLAY, 0);
    scn_put(&s, C(JUDGE), SCN_HAND, 0);
    valid(&s);
    building_scoring(&s);
    assert_int_equal(rub(&s, 0), 25 + 4); /* Coffee House: 4 orange cards */
    assert_int_equal(scn_vp(&s, 0), 4);   /* Mariinski: 4 VP, no R */
    scn_free(&s);
    s = ns(2);
    blank(&s, ARISTOCRAT);
    scn_put(&s, C(MAYOR), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_put(&s, C(DEBTORS_PRISON), SCN_DISPLAY, 0);
    scn_put(&s, C(BANK), SCN_DISPLAY, 0);
    scn_put(&s, C(LIBRARY), SCN_HAND, 0);
    scn_core(&s)->p[0].obs_used = 1;
    scn_core(&s)->p[0].prison_used = 1;
    valid(&s);
    aristocrat_scoring(&s);
    assert_int_equal(rub(&s, 0), 25 + 5); /* Mayor: 5 blue cards */
    scn_free(&s);
}

/* R31 (§12.8): +10 VP per distinct orange name beyond 10 with the New Society: 11 -> 65, 12 -> 75; the base game
 * stays at 55. */
static void test_r31_bonus_beyond_ten(void **unused)
{
    (void)unused;
    static const int orange[] = { C(AUTHOR),  C(ADMINISTRATOR), C(WAREHOUSE_MANAGER), C(SECRETARY), C(CONTROLLER),
                                  C(JUDGE),   C(MISTRESS_OF_CEREMONIES), C(POPE),     C(WEAPON_MASTER),
                                  C(CHAMBER_MAID), C(BUILDER), C(SYCOPHANT) };
    for (int kinds = 10; kinds <= 12; kinds++) {
        scn s = ns(2);
        blank(&s, TRADING);
        for (int i = 0; i < kinds; i++)
            scn_put(&s, orange[i], SCN_DISPLAY, 0);
        stpete_score sc = STPETE_SCORE_INIT;
        stpete_state_get_score(s.st, 0, &sc);
        assert_int_equal(sc.aristocrat_kinds, kinds);
        assert_int_equal(sc.aristocrat_bonus, 55 + 10 * (kinds - 10));
        scn_free(&s);
    }
    scn b = scn_new(2, 7);
    for (int i = 0; i < 11; i++)
        scn_put(&b, orange[i], SCN_DISPLAY, 0);
    stpete_score sc = STPETE_SCORE_INIT;
    stpete_state_get_score(b.st, 0, &sc);
    assert_int_equal(sc.aristocrat_kinds, 11);
    assert_int_equal(sc.aristocrat_bonus, 55); /* §8: capped without the expansion */
    scn_free(&b);
}

/* ==== the strings, events and knowledge of the new actions (§12.9) ====================================== */

static void ns_record_event(const stpete_state *st, const stpete_event *ev, void *user)
{
    char *log = user, line[STPETE_EVENT_STRING_MAX];
    if (stpete_event_to_string(ev, st, line, sizeof line) == STPETE_OK) {
        strncat(log, line, 4000 - strlen(log) - 2);
        strcat(log, "\n");
    }
}

/* §12.9: the Prison's pick, the Guild Hall split, the Trading House purchase, a forced Sycophant discard and the
 * gold disc are public events with their own lines; the new action strings parse back. */
static void test_s129_events_and_strings(void **unused)
{
    (void)unused;
    static const char *const strings[] = { "prison Market", "prison buy Theater", "prison take", "prison put back",
                                           "guild hall 3", "trading house buy", "trading house decline",
                                           "buy New Farmer from lower", "take Sycophant from upper",
                                           "play Mayor displacing Sycophant",
                                           "observatory buy St Petersburg University displacing Coffee House",
                                           "prison buy New Society displacing New Farmer", "chance New Farmer",
                                           "chance markers5 0 1 2 3" };
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++) {
        int id = scn_id(strings[i]);
        char back[STPETE_ACTION_STRING_MAX];
        assert_int_equal(stpete_action_to_string(1, id, back, sizeof back), STPETE_OK);
        assert_string_equal(back, strings[i]);
    }
    scn s = ns(2);
    static char log[4096];
    log[0] = '\0';
    assert_int_equal(stpete_state_set_event_callback(s.st, ns_record_event, log), STPETE_OK);
    blank(&s, BUILDING);
    scn_put(&s, C(DEBTORS_PRISON), SCN_DISPLAY, 0);
    scn_put(&s, C(GUILD_HALL), SCN_DISPLAY, 0);
    scn_put(&s, C(TRADING_HOUSE), SCN_DISPLAY, 0);
    scn_put(&s, C(SYCOPHANT), SCN_DISPLAY, 1);
    scn_set_rubles(&s, 1, 0);
    scn_put(&s, C(MARKET), SCN_DISCARD, 0);
    scn_do(&s, "prison Market");
    scn_do(&s, "prison put back");
    pass_n(&s, 2);
    scn_do(&s, "guild hall 1");
    scn_do(&s, "trading house buy");
    pass_n(&s, 2); /* the aristocrat phase */
    assert_non_null(strstr(log, "seat 0 uses the Debtor's Prison and picks Market from the discard pile"));
    assert_non_null(strstr(log, "seat 0 puts Market back on the discard pile"));
    assert_non_null(strstr(log, "Guild Hall: seat 0 takes 1 R and 3 VP"));
    assert_non_null(strstr(log, "Trading House: seat 0 pays 3 R for 2 VP"));
    assert_non_null(strstr(log, "seat 1 cannot pay its Sycophant and discards it"));
    scn_free(&s);
}

/* §12.13 case 7 (§11): in the second-edition preset the Mariinsky Theater pays +1 VP and 0 R per orange card. */
static void test_s1213_case7_edition2_mariinsky(void **unused)
{
    (void)unused;
    stpete_options o;
    stpete_options_init(&o);
    o.players = 2;
    o.edition = 2;
    scn s = scn_new_opts(&o);
    blank(&s, BUILDING);
    scn_put(&s, C(MARIINSKIJ_THEATER), SCN_DISPLAY, 0);
    scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
    scn_put(&s, C(POPE), SCN_DISPLAY, 0);
    building_scoring(&s);
    assert_int_equal(scn_vp(&s, 0), 2);
    assert_int_equal(rub(&s, 0), 25);
    scn_free(&s);
}

/* §12.13 case 12: a trading card's price needs its target (stpete_state_price takes it as an argument). */
static void test_s1213_case12_price_needs_the_target(void **unused)
{
    (void)unused;
    scn s = ns(2);
    int price = -1;
    assert_int_equal(stpete_state_price(s.st, 0, C(NEW_SOCIETY), STPETE_SOURCE_UPPER, -1, &price),
                     STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_price(s.st, 0, C(NEW_SOCIETY), STPETE_SOURCE_UPPER, C(MARKET), &price),
                     STPETE_E_INVALID_ARGUMENT); /* not a target (§12.6) */
    assert_int_equal(stpete_state_price(s.st, 0, C(NEW_SOCIETY), STPETE_SOURCE_UPPER, C(NEW_FARMER), &price),
                     STPETE_OK);
    assert_int_equal(price, 6);
    scn_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_r16_deck_of_144_at_every_player_count),
        cmocka_unit_test(test_r16_replaced_card_types),
        cmocka_unit_test(test_r17_options),
        cmocka_unit_test(test_r18_five_player_setup),
        cmocka_unit_test(test_r18_explicit_markers_and_chance),
        cmocka_unit_test(test_r19_markers_two_seats),
        cmocka_unit_test(test_r19_option_one_seat),
        cmocka_unit_test(test_r19_no_disc_award_after_the_final_round),
        cmocka_unit_test(test_r20_board_of_ten),
        cmocka_unit_test(test_r20_tenth_worker_can_be_bought),
        cmocka_unit_test(test_r21_prison_pick_and_buy),
        cmocka_unit_test(test_r21_prison_take_and_put_back),
        cmocka_unit_test(test_r21_prison_refused),
        cmocka_unit_test(test_s1213_case1_prison_is_not_skipped),
        cmocka_unit_test(test_s1213_case10_prison_stalls_once),
        cmocka_unit_test(test_r22_used_prison_scores),
        cmocka_unit_test(test_r22_used_prison_not_displaceable),
        cmocka_unit_test(test_r22_prison_not_displaced_by_its_own_pick),
        cmocka_unit_test(test_r23_order_guild_hall_trading_house_pub),
        cmocka_unit_test(test_r24_guild_hall_split),
        cmocka_unit_test(test_r25_trading_house),
        cmocka_unit_test(test_r26_sycophant),
        cmocka_unit_test(test_r26_discarded_sycophant_not_counted),
        cmocka_unit_test(test_r27_prices),
        cmocka_unit_test(test_r28_displacement_pairs),
        cmocka_unit_test(test_r29_textile_factory),
        cmocka_unit_test(test_r30_colour_counting),
        cmocka_unit_test(test_r31_bonus_beyond_ten),
        cmocka_unit_test(test_s129_events_and_strings),
        cmocka_unit_test(test_s1213_case7_edition2_mariinsky),
        cmocka_unit_test(test_s1213_case12_price_needs_the_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
