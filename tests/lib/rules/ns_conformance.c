/* Random-play conformance of the New Society expansion and five players (§12), public API only: seeded games with
 * new_society at 2, 3, 4 and 5 players, in both chance modes, every action chosen uniformly among the legal ones
 * with a local PRNG. At every node:
 *  - the listing is non-empty and strictly ascending (empty at the end), equal to the mask (stpete_game_num_distinct
 *    _actions() bytes), and in the first games of each configuration equal to stpete_state_is_legal() over every
 *    id of the game's id space [0, STPETE_NS_ID_END);
 *  - an independent oracle, written from §12 of the spec and the public queries only, gives the same legal set at
 *    every turn (§4.2 with the Debtor's Prison's picks, R21), Observatory (§7.1), Debtor's Prison (R21), Guild Hall
 *    (R24), Trading House (R25) and Pub (§7.2) decision: targets by §6.2 and §12.6 (R28), used Observatory and
 *    Prison not displaceable (R22), prices by §5 and §12.5 (R27, no row discount for the Prison);
 *  - every priced legal action's price (stpete_state_action_price) equals the oracle's, and applying it takes exactly
 *    that (the Trading House 3 R for 2 VP, the Pub 2 R per VP, the Guild Hall r R and 4 - r VP);
 *  - every listed action applies on a copy, sampled unlisted ids are refused and leave the state equal;
 *  - the random pick is the listed id at random % count, and at every listed index the playout step's picks
 *    (stpete_state_random_action, stpete_state_apply_random with both picks) give that id and reach the position
 *    stpete_state_apply does, in positions reached by play and loaded;
 *  - 144 cards are in play (§12.2.4) and rubles are never negative;
 *  - every scoring event's income equals the oracle's (§4.4, §12.4.3, §12.4.4: Coffee House, Mariinskij-Theater's VP,
 *    Textile Factory R29, used Prison R22, Mayor and Tax Man R30, Sycophants R26), and a forced Sycophant discard
 *    leaves the player at 0 R;
 *  - with 5 players: the gold disc is held by the seat without a marker, which started with 27 R and 2 VP (R18), and
 *    every marker moves two seats at each round's end (R19);
 *  - the game ends within stpete_game_max_length() actions;
 *  - in the first games, every 7th position saved to JSON (format version 4) loads back equal with the same listing,
 *    its views are written, each seat's determinization keeps its information-state key (and the seat to act its
 *    choices) and loads, and the whole game as a replay record reads back with its result checked.
 * Environment: STPETE_CONFORMANCE_GAMES / 10 games per configuration (default 60). */
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
#include "test_rng.h"

enum { NS_TYPES = STPETE_NUM_CARD_TYPES_NEW_SOCIETY, IDS = STPETE_NS_ID_END, FULL_GAMES = 3, UNLISTED = 12 };

static stpete_card_info cards[NS_TYPES];
static int options_flags[3]; /* markers_one_seat, used_prison_scores, textile_without_new_society */

static int count(const stpete_state *st, int seat, int card)
{
    return stpete_state_display_count(st, seat, card);
}

static int prison_used(const stpete_state *st, int seat)
{
    int used = -1;
    assert_int_equal(stpete_state_is_prison_used(st, seat, &used), STPETE_OK);
    return used;
}

/* ---- the oracle: §5, §6, §12.5, §12.6 -------------------------------------------------------------------- */

static int is_worker(int t)
{
    return t <= STPETE_CARD_CZAR_AND_CARPENTER || t == STPETE_CARD_NEW_FARMER;
}

/* Whether trading card `card` may displace type `t` (§6.2, §12.6, R28). */
static int oracle_is_target(int card, int t)
{
    const stpete_card_info *c = &cards[card], *d = &cards[t];
    if (d->trading || d->colour != c->colour)
        return 0;
    if (c->colour != STPETE_COLOUR_GREEN)
        return 1; /* any non-trading card of its colour */
    if (card == STPETE_CARD_NEW_SOCIETY)
        return is_worker(t); /* any worker */
    if (t == STPETE_CARD_CZAR_AND_CARPENTER)
        return 1; /* any green trading card */
    if (card == STPETE_CARD_OBSHCHINA_COMMUNE)
        return t == STPETE_CARD_NEW_FARMER;
    return t == c->ware; /* the worker of its ware: never a New Farmer */
}

static int ns_oracle_displaceable(const stpete_state *st, int seat, int t)
{
    int n = count(st, seat, t);
    if (t == STPETE_CARD_OBSERVATORY)
        n -= stpete_state_observatories_used(st, seat);
    if (t == STPETE_CARD_DEBTORS_PRISON && prison_used(st, seat))
        n = 0; /* R22 */
    return n > 0;
}

static int ns_oracle_price(const stpete_state *st, int seat, int card, int source, int displaced)
{
    const stpete_card_info *c = &cards[card];
    int price = c->cost - count(st, seat, card);
    if (source == STPETE_SOURCE_LOWER)
        price -= 1; /* never from the discard pile (§12.5) */
    if (c->colour == STPETE_COLOUR_BLUE && count(st, seat, STPETE_CARD_CARPENTER_WORKSHOP))
        price -= 1;
    if (c->colour == STPETE_COLOUR_ORANGE && count(st, seat, STPETE_CARD_GOLD_SMELTER))
        price -= 1;
    if (c->colour == STPETE_COLOUR_GREEN && count(st, seat, STPETE_CARD_OBSHCHINA_COMMUNE))
        price -= 1; /* R27 */
    if (c->trading)
        price -= displaced == STPETE_CARD_POTJOMKINS_VILLAGE ? 6 : cards[displaced].cost;
    return price < 1 ? 1 : price;
}

static int encode(int kind, int source, int card, int displaced, int stack, int amount)
{
    stpete_action a = { kind, source, card, displaced, stack, amount };
    int id = -1;
    assert_int_equal(stpete_action_encode(&a, &id), STPETE_OK);
    return id;
}

static void ns_oracle_acquire(const stpete_state *st, int seat, int kind, int source, int card, uint8_t *mask)
{
    int rubles = stpete_state_rubles(st, seat);
    if (!cards[card].trading) {
        if (ns_oracle_price(st, seat, card, source, -1) <= rubles)
            mask[encode(kind, source, card, -1, -1, -1)] = 1;
        return;
    }
    for (int t = 0; t < NS_TYPES; t++)
        if (oracle_is_target(card, t) && ns_oracle_displaceable(st, seat, t) &&
            ns_oracle_price(st, seat, card, source, t) <= rubles)
            mask[encode(kind, source, card, t, -1, -1)] = 1;
}

/* The building phase's uses of a seat's cards: its unused Observatories' draws (§7.1, R9) and its unused Debtor's
 * Prison's picks from the discard pile (R21). */
static void ns_oracle_uses(const stpete_state *st, int seat, uint8_t *mask)
{
    if (count(st, seat, STPETE_CARD_OBSERVATORY) > stpete_state_observatories_used(st, seat))
        for (int k = 0; k < 4; k++)
            if (stpete_state_stack_size(st, k) >= 2)
                mask[encode(STPETE_ACTION_OBSERVATORY, -1, -1, -1, k, -1)] = 1;
    if (count(st, seat, STPETE_CARD_DEBTORS_PRISON) && !prison_used(st, seat)) /* R21: any card of the pile */
        for (int t = 0; t < NS_TYPES; t++)
            if (stpete_state_discard_count(st, t) > 0)
                mask[encode(STPETE_ACTION_PRISON, STPETE_SOURCE_DISCARD, t, -1, -1, -1)] = 1;
}

static void ns_oracle_legal(const stpete_state *st, uint8_t *mask)
{
    memset(mask, 0, IDS);
    int seat = stpete_state_current_player(st);
    int hand[STPETE_MAX_HAND];
    size_t hn = 0;
    assert_int_equal(stpete_state_hand(st, seat, hand, STPETE_MAX_HAND, &hn), STPETE_OK);
    int room = (int)hn < stpete_state_hand_limit(st, seat);
    switch (stpete_state_decision(st)) {
    case STPETE_DECISION_OBSERVATORY: {
        int card = stpete_state_observatory_card(st);
        ns_oracle_acquire(st, seat, STPETE_ACTION_OBSERVATORY_BUY, STPETE_SOURCE_OBSERVATORY, card, mask);
        if (room)
            mask[encode(STPETE_ACTION_OBSERVATORY_TAKE, -1, -1, -1, -1, -1)] = 1;
        mask[encode(STPETE_ACTION_OBSERVATORY_DISCARD, -1, -1, -1, -1, -1)] = 1;
        return;
    }
    case STPETE_DECISION_PRISON: { /* R21 */
        int card = stpete_state_prison_card(st);
        assert_true(card >= 0);
        ns_oracle_acquire(st, seat, STPETE_ACTION_PRISON_BUY, STPETE_SOURCE_DISCARD, card, mask);
        if (room)
            mask[encode(STPETE_ACTION_PRISON_TAKE, -1, -1, -1, -1, -1)] = 1;
        mask[encode(STPETE_ACTION_PRISON_PUT_BACK, -1, -1, -1, -1, -1)] = 1;
        return;
    }
    case STPETE_DECISION_GUILD_HALL: /* R24 */
        assert_true(count(st, seat, STPETE_CARD_GUILD_HALL) > 0);
        for (int r = 0; r <= 4; r++)
            mask[encode(STPETE_ACTION_GUILD_HALL, -1, -1, -1, -1, r)] = 1;
        return;
    case STPETE_DECISION_TRADING_HOUSE: /* R25: asked only with 3 R */
        assert_true(count(st, seat, STPETE_CARD_TRADING_HOUSE) > 0 && stpete_state_rubles(st, seat) >= 3);
        mask[encode(STPETE_ACTION_TRADING_HOUSE, -1, -1, -1, -1, 0)] = 1;
        mask[encode(STPETE_ACTION_TRADING_HOUSE, -1, -1, -1, -1, 1)] = 1;
        return;
    case STPETE_DECISION_PUB: { /* §7.2, R10 (per Pub, the default) */
        int cap = 5 * count(st, seat, STPETE_CARD_PUB), afford = stpete_state_rubles(st, seat) / 2;
        for (int k = 0; k <= (cap < afford ? cap : afford); k++)
            mask[encode(STPETE_ACTION_PUB, -1, -1, -1, -1, k)] = 1;
        return;
    }
    default:
        break;
    }
    mask[encode(STPETE_ACTION_PASS, -1, -1, -1, -1, -1)] = 1;
    for (int r = STPETE_SOURCE_UPPER; r <= STPETE_SOURCE_LOWER; r++) {
        int row[16];
        size_t n = 0;
        assert_int_equal(stpete_state_row(st, r, row, 16, &n), STPETE_OK);
        for (size_t i = 0; i < n; i++) {
            ns_oracle_acquire(st, seat, STPETE_ACTION_BUY, r, row[i], mask);
            if (room)
                mask[encode(STPETE_ACTION_TAKE, r, row[i], -1, -1, -1)] = 1;
        }
    }
    for (size_t i = 0; i < hn; i++)
        ns_oracle_acquire(st, seat, STPETE_ACTION_PLAY, STPETE_SOURCE_HAND, hand[i], mask);
    if (stpete_state_phase(st) != STPETE_PHASE_BUILDING)
        return;
    ns_oracle_uses(st, seat, mask);
}

/* Cards of a colour in a display, duplicates and trading cards included, face-down and used cards too (R30). */
static int oracle_colour_count(const stpete_state *st, int seat, int colour)
{
    int n = 0;
    for (int t = 0; t < NS_TYPES; t++)
        if (cards[t].colour == colour)
            n += count(st, seat, t);
    return n;
}

/* Income at a scoring (§4.4, §12.4.3, §12.4.4), from the display as it is when the event is reported. */
static void ns_oracle_income(const stpete_state *st, int seat, int colour, int *rubles, int *vp)
{
    int r = 0, v = 0;
    for (int t = 0; t < NS_TYPES; t++)
        if (cards[t].colour == colour) {
            r += count(st, seat, t) * cards[t].rubles; /* the Sycophant's -1 (R26) */
            v += count(st, seat, t) * cards[t].vp;
        }
    if (colour == STPETE_COLOUR_BLUE) {
        v -= stpete_state_observatories_used(st, seat) * cards[STPETE_CARD_OBSERVATORY].vp;
        if (prison_used(st, seat) && !options_flags[1])
            v -= cards[STPETE_CARD_DEBTORS_PRISON].vp; /* R22 */
        int orange = oracle_colour_count(st, seat, STPETE_COLOUR_ORANGE);
        v += count(st, seat, STPETE_CARD_MARIINSKIJ_THEATER) * orange; /* §12.7.3: VP, not R */
        r += count(st, seat, STPETE_CARD_COFFEE_HOUSE) * orange;       /* §12.7.4 */
        int weaving = count(st, seat, STPETE_CARD_SHEPHERD) + count(st, seat, STPETE_CARD_WEAVING_MILL) +
                      count(st, seat, STPETE_CARD_CZAR_AND_CARPENTER) +
                      (options_flags[2] ? 0 : count(st, seat, STPETE_CARD_NEW_SOCIETY)); /* R29 */
        v += 2 * count(st, seat, STPETE_CARD_TEXTILE_FACTORY) * weaving;
    } else if (colour == STPETE_COLOUR_ORANGE) {
        r += count(st, seat, STPETE_CARD_TAX_MAN) * oracle_colour_count(st, seat, STPETE_COLOUR_GREEN);
        r += count(st, seat, STPETE_CARD_MAYOR) * oracle_colour_count(st, seat, STPETE_COLOUR_BLUE); /* R30 */
    }
    *rubles = r;
    *vp = v;
}

/* ---- events ---------------------------------------------------------------------------------------- */

typedef struct watch {
    int sycophant_discards[5]; /* in the scoring in progress */
    long scorings, discards, gold_discs, guild_halls, trading_houses, prisons;
    int errors;
    char first[256];
} watch;

static void watch_error(watch *w, const char *fmt, ...)
{
    if (w->errors++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->first, sizeof w->first, fmt, ap);
    va_end(ap);
}

static void ns_on_event(const stpete_state *st, const stpete_event *ev, void *user)
{
    watch *w = user;
    switch (ev->kind) {
    case STPETE_EVENT_SYCOPHANT_DISCARD:
        w->sycophant_discards[ev->seat]++;
        w->discards++;
        break;
    case STPETE_EVENT_SCORING: {
        int r, v;
        ns_oracle_income(st, ev->seat, ev->phase, &r, &v);
        w->scorings++;
        int rubles = stpete_state_rubles(st, ev->seat);
        if (w->sycophant_discards[ev->seat]) { /* R26: discarded until the purse stays at 0 or more */
            if (rubles != 0)
                watch_error(w, "seat %d discarded a Sycophant and has %d R after scoring", ev->seat, rubles);
            w->sycophant_discards[ev->seat] = 0;
        }
        if (ev->rubles != r || ev->vp != v)
            watch_error(w, "round %d phase %d seat %d scores %d R %d VP, the oracle %d R %d VP", ev->round, ev->phase,
                        ev->seat, ev->rubles, ev->vp, r, v);
        break;
    }
    case STPETE_EVENT_GOLD_DISC:
        w->gold_discs++;
        if (ev->seat != stpete_state_gold_disc_holder(st) || ev->vp != 2)
            watch_error(w, "gold disc event for seat %d (+%d VP), the holder is %d", ev->seat, ev->vp,
                        stpete_state_gold_disc_holder(st));
        break;
    case STPETE_EVENT_GUILD_HALL:
        w->guild_halls++;
        if (ev->rubles + ev->vp != 4)
            watch_error(w, "Guild Hall split %d R + %d VP", ev->rubles, ev->vp);
        break;
    case STPETE_EVENT_TRADING_HOUSE:
        w->trading_houses++;
        break;
    case STPETE_EVENT_PRISON:
        w->prisons++;
        break;
    default:
        break;
    }
}

/* ---- a game ---------------------------------------------------------------------------------------- */

typedef struct totals {
    long games, nodes, oracle_nodes, priced, unlisted, full_checks, decisions[8];
} totals;

static int total_cards(const stpete_state *st, int players)
{
    int n = 0, row[16], hand[STPETE_MAX_HAND];
    size_t k;
    for (int r = 0; r < 2; r++) {
        assert_int_equal(stpete_state_row(st, r, row, 16, &k), STPETE_OK);
        n += (int)k;
    }
    for (int s = 0; s < 4; s++)
        n += stpete_state_stack_size(st, s);
    for (int t = 0; t < NS_TYPES; t++) {
        n += stpete_state_discard_count(st, t);
        for (int p = 0; p < players; p++)
            n += count(st, p, t);
    }
    for (int p = 0; p < players; p++) {
        assert_int_equal(stpete_state_hand(st, p, hand, STPETE_MAX_HAND, &k), STPETE_OK);
        n += (int)k;
    }
    return n + (stpete_state_observatory_card(st) >= 0) + (stpete_state_prison_card(st) >= 0);
}

/* The playout step's pick of listed index i of ids[0..n) of st (a position reached by play, or loaded): the uniform
 * random pick (stpete_state_random_action) with both picks of stpete_state_apply_random, each applied to a copy
 * (`picked`), reaches the position `applied` holds (st with ids[i] applied by stpete_state_apply), with the same
 * information state for every seat. The playout step counts a turn's ids without listing them (lib/engine/legal.c,
 * pick_turn_of): this holds it to the listing at every index. */
static void check_pick(const stpete_state *st, stpete_state *picked, const stpete_state *applied, const int *ids,
                       size_t i, size_t n, int move)
{
    int id = -1;
    uint64_t modulo = i + n * (uint64_t)move;
    assert_int_equal(stpete_state_random_action(st, modulo, &id), STPETE_OK);
    if (id != ids[i])
        fail_msg("move %d: the random pick of index %zu of %zu is %d, listed %d", move, i, n, id, ids[i]);
    uint64_t scaled = scaled_random_for(i, n);
    for (int way = 0; way < 2; way++) {
        assert_int_equal(stpete_state_copy(picked, st), STPETE_OK);
        id = -1;
        int rc = way ? stpete_state_apply_random(picked, scaled, STPETE_PICK_SCALED, &id)
                     : stpete_state_apply_random(picked, modulo, STPETE_PICK_MODULO, &id);
        if (rc != STPETE_OK || id != ids[i])
            fail_msg("move %d: apply_random (pick %d) of index %zu: %d, id %d, listed %d", move, way, i, rc, id,
                     ids[i]);
        int equal = 0;
        assert_int_equal(stpete_state_equal(picked, applied, &equal), STPETE_OK);
        if (!equal)
            fail_msg("move %d: apply_random (pick %d) and apply(%d) reach different positions", move, way, id);
        for (int seat = 0; seat < stpete_game_num_players(stpete_state_game(st)); seat++) {
            uint64_t ka = 0, kb = 1;
            assert_int_equal(stpete_state_information_state_key(picked, seat, &ka), STPETE_OK);
            assert_int_equal(stpete_state_information_state_key(applied, seat, &kb), STPETE_OK);
            assert_true(ka == kb);
        }
    }
}

/* Save st to JSON and load it back: format version 4, an equal position, the same legal actions and playout step's
 * picks (check_pick). */
static void ns_check_loaded(const stpete_state *st, const stpete_game *g, const int *ids, size_t n)
{
    static char text[STPETE_JSON_STATE_MAX];
    size_t len = 0;
    assert_int_equal(stpete_state_to_json(st, text, sizeof text, &len), STPETE_OK);
    assert_non_null(strstr(text, "\"format_version\":4"));
    assert_non_null(strstr(text, "\"new_society\":true"));
    stpete_state *back = NULL;
    stpete_error e = STPETE_ERROR_INIT;
    if (stpete_state_from_json(g, text, len, &back, &e) != STPETE_OK)
        fail_msg("a saved position does not load: %s", e.message);
    int equal = 0;
    assert_int_equal(stpete_state_equal(st, back, &equal), STPETE_OK);
    assert_true(equal);
    int again[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
    size_t m = 0;
    assert_int_equal(stpete_state_legal_actions(back, again, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &m), STPETE_OK);
    assert_int_equal(m, n);
    assert_memory_equal(again, ids, n * sizeof *ids);
    if (n > 0 && stpete_state_decision(back) != STPETE_DECISION_CHANCE) { /* the playout step's pick, loaded */
        stpete_state *picked = NULL, *applied = NULL;
        assert_int_equal(stpete_state_clone(back, &picked, NULL), STPETE_OK);
        assert_int_equal(stpete_state_clone(back, &applied, NULL), STPETE_OK);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(stpete_state_copy(applied, back), STPETE_OK);
            assert_int_equal(stpete_state_apply(applied, ids[i]), STPETE_OK);
            check_pick(back, picked, applied, ids, i, n, 0);
        }
        stpete_state_free(picked);
        stpete_state_free(applied);
    }
    for (int seat = -1; seat < stpete_game_num_players(g); seat++) /* the views are written too (§9, §12.9) */
        assert_int_equal(stpete_state_view_to_json(st, seat, text, sizeof text, &len), STPETE_OK);
    /* determinization (§9, §12.9): what each seat knows is kept (its key), the position stays one the loader
     * accepts, and the seat to act has the same choices */
    for (int seat = 0; seat < stpete_game_num_players(g); seat++) {
        uint64_t key = 0, again_key = 1;
        assert_int_equal(stpete_state_copy(back, st), STPETE_OK);
        assert_int_equal(stpete_state_information_state_key(st, seat, &key), STPETE_OK);
        assert_int_equal(stpete_state_determinize(back, seat, 77 + (uint64_t)seat, 0), STPETE_OK);
        assert_int_equal(stpete_state_information_state_key(back, seat, &again_key), STPETE_OK);
        assert_true(key == again_key);
        assert_int_equal(stpete_state_to_json(back, text, sizeof text, &len), STPETE_OK);
        stpete_state *loaded = NULL;
        if (stpete_state_from_json(g, text, len, &loaded, &e) != STPETE_OK)
            fail_msg("a determinized position does not load: %s", e.message);
        stpete_state_free(loaded);
        if (seat == stpete_state_current_player(st)) {
            assert_int_equal(stpete_state_legal_actions(back, again, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &m),
                             STPETE_OK);
            assert_int_equal(m, n);
            assert_memory_equal(again, ids, n * sizeof *ids);
        }
    }
    stpete_state_free(back);
}

/* The whole game as a replay record (version 4) reads back to the same actions, its result checked. */
static void check_replay(const stpete_state *st, const stpete_game *g, uint64_t seed)
{
    static int history[20000], back_ids[20000];
    size_t n = 0, m = 0, len = 0;
    assert_int_equal(stpete_state_history(st, history, 20000, &n), STPETE_OK);
    static char text[STPETE_JSON_REPLAY_MAX];
    assert_int_equal(stpete_replay_to_json(g, seed, history, n, text, sizeof text, &len), STPETE_OK);
    stpete_game *g2 = NULL;
    stpete_error e = STPETE_ERROR_INIT;
    if (stpete_replay_from_json(text, len, NULL, &g2, back_ids, 20000, &m, &e) != STPETE_OK)
        fail_msg("a replay record does not load: %s", e.message);
    assert_int_equal(m, n);
    assert_memory_equal(back_ids, history, n * sizeof *history);
    assert_int_equal(stpete_game_check_compatible(g, g2), STPETE_OK);
    stpete_game_free(g2);
}

/* The end of a game: no event error, the replay record plays back (every full game), a winner (§8). */
static void check_ns_game_end(const stpete_state *st, const stpete_game *g, uint64_t seed, int players, const watch *w,
                              int full)
{
    if (w->errors)
        fail_msg("seed %llu players %d: %d event errors, the first: %s", (unsigned long long)seed, players, w->errors,
                 w->first);
    if (full)
        check_replay(st, g, seed);
    unsigned winners = 0;
    assert_int_equal(stpete_state_winners(st, &winners), STPETE_OK);
    assert_true(winners != 0);
}

/* The uniform random pick of stpete_state_random_action() is the listed id at r % n; apply it (moves counts the
 * moves, at most max_len, stpete_game_max_length()). */
static void apply_random_pick(stpete_state *st, const int *ids, size_t n, uint64_t *rng, uint64_t seed, int max_len,
                              int *moves)
{
    uint64_t r = rng_next(rng);
    int picked = -1;
    assert_int_equal(stpete_state_random_action(st, r, &picked), STPETE_OK);
    assert_int_equal(picked, ids[r % n]);
    if (stpete_state_apply(st, picked) != STPETE_OK)
        fail_msg("apply %d: %s", picked, stpete_state_last_error(st));
    if (++*moves > max_len)
        fail_msg("seed %llu: longer than stpete_game_max_length() = %d", (unsigned long long)seed, max_len);
}

/* Unlisted ids (UNLISTED drawn at random) are refused and change nothing. */
static void check_unlisted(const stpete_state *st, stpete_state *scratch, const int *in_list, uint64_t *rng, totals *t)
{
    for (int k = 0; k < UNLISTED; k++) {
        int id = (int)(rng_next(rng) % IDS);
        if (in_list[id])
            continue;
        assert_int_equal(stpete_state_copy(scratch, st), STPETE_OK);
        int rc = stpete_state_apply(scratch, id), equal = 0;
        assert_true(rc == STPETE_E_ILLEGAL_ACTION);
        assert_int_equal(stpete_state_equal(scratch, st, &equal), STPETE_OK);
        assert_true(equal);
        t->unlisted++;
    }
}

/* Every listed action applies on a copy (scratch), with the oracle's price (§5, §12.5), which the apply takes,
 * and the playout step picks it alike (picked). */
static void check_listed_apply(const stpete_state *st, stpete_state *scratch, stpete_state *picked, const int *ids,
                               size_t n, int decision, int moves, totals *t)
{
    int seat = stpete_state_current_player(st);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(stpete_state_copy(scratch, st), STPETE_OK);
        int rubles_before = seat >= 0 ? stpete_state_rubles(st, seat) : 0, price = -1;
        int rc = stpete_state_action_price(st, ids[i], &price);
        stpete_action a;
        if (decision != STPETE_DECISION_CHANCE)
            assert_int_equal(stpete_action_decode(ids[i], &a), STPETE_OK);
        if (decision != STPETE_DECISION_CHANCE &&
            (a.kind == STPETE_ACTION_BUY || a.kind == STPETE_ACTION_PLAY ||
             a.kind == STPETE_ACTION_OBSERVATORY_BUY || a.kind == STPETE_ACTION_PRISON_BUY)) {
            assert_int_equal(rc, STPETE_OK);
            assert_int_equal(price, ns_oracle_price(st, seat, a.card, a.source, a.displaced));
            t->priced++;
        }
        if (stpete_state_apply(scratch, ids[i]) != STPETE_OK)
            fail_msg("listed %d refused: %s", ids[i], stpete_state_last_error(scratch));
        if (decision != STPETE_DECISION_CHANCE)
            check_pick(st, picked, scratch, ids, i, n, moves);
        if (rc == STPETE_OK && decision != STPETE_DECISION_CHANCE && a.kind != STPETE_ACTION_GUILD_HALL &&
            stpete_state_decision(scratch) != STPETE_DECISION_GAME_OVER) {
            /* the price is what the apply takes, unless a scoring follows at once (a Pub or the Trading House
             * ends the building scoring steps only when nothing follows in the same seat's purse) */
            if (a.kind != STPETE_ACTION_PUB && a.kind != STPETE_ACTION_TRADING_HOUSE)
                assert_int_equal(stpete_state_rubles(scratch, seat), rubles_before - price);
        }
    }
}

/* At a decision the listing (in_list) is the oracle's (§12); at a chance node the outcomes are the listing, with
 * probabilities that sum to 1. */
static void check_oracle_or_chance(const stpete_state *st, const int *ids, size_t n, const int *in_list, int decision,
                                   uint64_t seed, int players, int moves, totals *t)
{
    static uint8_t oracle[IDS];
    if (decision != STPETE_DECISION_CHANCE) {
        ns_oracle_legal(st, oracle);
        for (int id = 0; id < IDS; id++)
            if (oracle[id] != in_list[id]) {
                char name[STPETE_ACTION_STRING_MAX] = "?";
                stpete_action_to_string(1, id, name, sizeof name);
                fail_msg("seed %llu players %d move %d decision %d: %s (%d) oracle %d, engine %d",
                         (unsigned long long)seed, players, moves, decision, name, id, oracle[id], in_list[id]);
            }
        t->oracle_nodes++;
    } else {
        double probabilities[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY], sum = 0;
        int outcomes[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
        size_t m = 0;
        assert_int_equal(stpete_state_chance_outcomes(st, outcomes, probabilities,
                                                      STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &m), STPETE_OK);
        assert_int_equal(m, n);
        for (size_t i = 0; i < m; i++) {
            assert_int_equal(outcomes[i], ids[i]);
            sum += probabilities[i];
        }
        assert_true(sum > 0.999999 && sum < 1.000001);
    }
}

/* The mask is the listing (in_list; empty at a chance node), and in a full game the check of every id agrees. */
static void check_mask_and_ids(const stpete_state *st, const uint8_t *mask, const int *in_list, int decision, int full,
                               uint64_t seed, int moves, totals *t)
{
    for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY; id++)
        if (mask[id] != (decision == STPETE_DECISION_CHANCE ? 0 : in_list[id]))
            fail_msg("seed %llu move %d: id %d mask %d listed %d", (unsigned long long)seed, moves, id, mask[id],
                     in_list[id]);
    if (full) { /* the check of every id of the game */
        for (int id = 0; id < IDS; id++) {
            int legal = -1;
            assert_int_equal(stpete_state_is_legal(st, id, &legal), STPETE_OK);
            if (legal != in_list[id])
                fail_msg("seed %llu move %d: is_legal(%d) = %d, listed %d", (unsigned long long)seed, moves, id,
                         legal, in_list[id]);
        }
        t->full_checks++;
    }
}

/* What check_gold_disc() remembers between nodes: the disc's start checked, the markers and the round. */
typedef struct disc_watch {
    int checked, markers[4], round;
} disc_watch;

/* Five players (R18, R19): the gold disc is the seat without a marker, which starts with 27 R and 2 VP; the
 * markers move two seats on each round (one with the option); fewer players have no disc. */
static void check_gold_disc(const stpete_state *st, int players, const int flags[3], int decision, disc_watch *dw)
{
    if (players == 5 && decision != STPETE_DECISION_CHANCE) {
        int held = 0;
        for (int k = 0; k < 4; k++)
            held |= 1 << stpete_state_marker_holder(st, k);
        int disc = stpete_state_gold_disc_holder(st);
        assert_true(disc >= 0 && !(held >> disc & 1) && (held | 1 << disc) == 31);
        if (!dw->checked) {
            int vp = 0;
            stpete_state_vp(st, disc, &vp);
            assert_int_equal(stpete_state_rubles(st, disc), 27);
            assert_int_equal(vp, 2);
            for (int k = 0; k < 4; k++)
                dw->markers[k] = stpete_state_marker_holder(st, k);
            dw->checked = 1;
        }
        if (stpete_state_round(st) != dw->round) { /* R19: two seats on (one with the option) */
            for (int k = 0; k < 4; k++) {
                int now = stpete_state_marker_holder(st, k);
                assert_int_equal(now, (dw->markers[k] + (flags[0] ? 1 : 2)) % 5);
                dw->markers[k] = now;
            }
            dw->round = stpete_state_round(st);
        }
    } else if (players < 5) {
        assert_int_equal(stpete_state_gold_disc_holder(st), STPETE_NONE);
    }
}

/* A New Society game (§12) of these players, chance mode, [option]s (R19, R22, R29) and seed; the card facts into
 * cards. */
static stpete_game *ns_new_game(int players, int mode, const int flags[3], uint64_t seed)
{
    stpete_options o;
    stpete_options_init(&o);
    o.players = players;
    o.seed = seed;
    o.chance_mode = mode;
    o.new_society = 1;
    o.markers_one_seat = flags[0];
    o.used_prison_scores = flags[1];
    o.textile_without_new_society = flags[2];
    memcpy(options_flags, flags, sizeof options_flags);
    stpete_game *g = NULL;
    stpete_error err = STPETE_ERROR_INIT;
    if (stpete_game_new(&o, &g, &err) != STPETE_OK)
        fail_msg("stpete_game_new: %s", err.message);
    for (int c = 0; c < NS_TYPES; c++) {
        cards[c].struct_size = sizeof cards[c];
        assert_int_equal(stpete_game_get_card_info(g, c, &cards[c]), STPETE_OK);
    }
    assert_int_equal(stpete_game_num_distinct_actions(g), STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY);
    return g;
}

static void ns_play_game(int players, int mode, const int flags[3], uint64_t seed, int full, totals *t)
{
    stpete_game *g = ns_new_game(players, mode, flags, seed);
    watch w;
    memset(&w, 0, sizeof w);
    stpete_state *st = NULL, *scratch = NULL, *picked = NULL;
    assert_int_equal(stpete_state_new_with_callback(g, ns_on_event, &w, &st, NULL), STPETE_OK);
    assert_int_equal(stpete_state_new(g, &scratch, NULL), STPETE_OK);
    assert_int_equal(stpete_state_new(g, &picked, NULL), STPETE_OK);
    uint64_t rng = seed * 7919 + (uint64_t)players;
    int max_len = stpete_game_max_length(g), moves = 0, terminal = 0;
    static uint8_t mask[IDS];
    int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
    disc_watch dw = { 0, { 0 }, 1 };
    for (;;) {
        assert_int_equal(stpete_state_is_terminal(st, &terminal), STPETE_OK);
        size_t n = 0;
        assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n), STPETE_OK);
        if (terminal) {
            assert_int_equal(n, 0);
            break;
        }
        t->nodes++;
        assert_true(n > 0);
        for (size_t i = 1; i < n; i++)
            assert_true(ids[i] > ids[i - 1]);
        assert_int_equal(total_cards(st, players), STPETE_NUM_CARDS_NEW_SOCIETY);
        for (int p = 0; p < players; p++)
            assert_true(stpete_state_rubles(st, p) >= 0);
        int decision = stpete_state_decision(st);
        t->decisions[decision]++;
        /* 5 players (R18): the disc is the seat without a marker; 27 R and 2 VP at the start */
        check_gold_disc(st, players, flags, decision, &dw);
        /* the mask and the listing */
        assert_int_equal(stpete_state_legal_action_mask(st, mask, IDS), STPETE_OK);
        int in_list[IDS];
        memset(in_list, 0, sizeof in_list);
        for (size_t i = 0; i < n; i++)
            in_list[ids[i]] = 1;
        check_mask_and_ids(st, mask, in_list, decision, full, seed, moves, t);
        /* the oracle */
        check_oracle_or_chance(st, ids, n, in_list, decision, seed, players, moves, t);
        /* every listed action applies on a copy, with its price */
        check_listed_apply(st, scratch, picked, ids, n, decision, moves, t);
        /* unlisted ids are refused and change nothing */
        check_unlisted(st, scratch, in_list, &rng, t);
        /* a loaded position (doc/format.md, version 4): the document loads back to an equal position with the same
         * listing; every 7th node of the first games */
        if (full && moves % 7 == 0)
            ns_check_loaded(st, g, ids, n);
        /* the random pick, then the move */
        apply_random_pick(st, ids, n, &rng, seed, max_len, &moves);
    }
    check_ns_game_end(st, g, seed, players, &w, full);
    t->games++;
    stpete_state_free(scratch);
    stpete_state_free(picked);
    stpete_state_free(st);
    stpete_game_free(g);
}

static int games_per_config(void)
{
    const char *env = getenv("STPETE_CONFORMANCE_GAMES");
    int n = env ? atoi(env) / 10 : 60;
    return n < 2 ? 2 : n;
}

static void ns_run(int players, int mode)
{
    totals t;
    memset(&t, 0, sizeof t);
    int games = games_per_config();
    for (int g = 0; g < games; g++) {
        int flags[3] = { g % 4 == 1, g % 4 == 2, g % 4 == 3 }; /* the defaults, then each [option] */
        ns_play_game(players, mode, flags, 1000 * (uint64_t)players + (uint64_t)g, g < FULL_GAMES, &t);
    }
    print_message("# %d players, %s chance: %ld games, %ld nodes (%ld against the oracle, %ld with every id checked), "
                  "%ld prices, %ld unlisted refused; decisions: %ld turn, %ld observatory, %ld pub, %ld chance, "
                  "%ld prison, %ld guild hall, %ld trading house\n",
                  players, mode ? "explicit" : "sampled", t.games, t.nodes, t.oracle_nodes, t.full_checks, t.priced,
                  t.unlisted, t.decisions[0], t.decisions[1], t.decisions[2], t.decisions[4], t.decisions[5],
                  t.decisions[6], t.decisions[7]);
    if (games >= 10) /* enough games to meet every decision of the expansion (fewer: a quick ns_run, e.g. valgrind's) */
        assert_true(t.decisions[STPETE_DECISION_PRISON] > 0 && t.decisions[STPETE_DECISION_GUILD_HALL] > 0 &&
                    t.decisions[STPETE_DECISION_TRADING_HOUSE] > 0);
}

static void test_2p(void **unused) { (void)unused; ns_run(2, STPETE_CHANCE_SAMPLED); }
static void test_3p(void **unused) { (void)unused; ns_run(3, STPETE_CHANCE_SAMPLED); }
static void test_4p(void **unused) { (void)unused; ns_run(4, STPETE_CHANCE_SAMPLED); }
static void test_5p(void **unused) { (void)unused; ns_run(5, STPETE_CHANCE_SAMPLED); }
static void test_2p_explicit(void **unused) { (void)unused; ns_run(2, STPETE_CHANCE_EXPLICIT); }
static void test_3p_explicit(void **unused) { (void)unused; ns_run(3, STPETE_CHANCE_EXPLICIT); }
static void test_4p_explicit(void **unused) { (void)unused; ns_run(4, STPETE_CHANCE_EXPLICIT); }
static void test_5p_explicit(void **unused) { (void)unused; ns_run(5, STPETE_CHANCE_EXPLICIT); }

/* The four reference bots play whole games of the expansion at 2 and 5 players (§12; bots.h): every choice legal,
 * the game to its end. */
static void test_bots_play_the_expansion(void **unused)
{
    (void)unused;
    static const char *const specs[] = { "random", "greedy", "mc:iterations=20", "ismcts:iterations=40" };
    for (int players = 2; players <= 5; players += 3) {
        stpete_options o;
        stpete_options_init(&o);
        o.players = players;
        o.new_society = 1;
        o.seed = 9;
        stpete_game *g = NULL;
        assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
        for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
            stpete_bot *bot = NULL;
            stpete_error e = STPETE_ERROR_INIT;
            if (stpete_bot_new(g, specs[k], &bot, &e) != STPETE_OK)
                fail_msg("%s: %s", specs[k], e.message);
            stpete_state *st = NULL;
            assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
            int terminal = 0, moves = 0;
            while (stpete_state_is_terminal(st, &terminal) == STPETE_OK && !terminal) {
                int id = -1, legal = 0;
                if (stpete_bot_choose(bot, st, &id) != STPETE_OK)
                    fail_msg("%s: %s", specs[k], stpete_bot_last_error(bot));
                assert_int_equal(stpete_state_is_legal(st, id, &legal), STPETE_OK);
                assert_true(legal);
                assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
                assert_true(++moves < stpete_game_max_length(g));
            }
            stpete_state_free(st);
            stpete_bot_free(bot);
        }
        stpete_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_2p),          cmocka_unit_test(test_3p),          cmocka_unit_test(test_4p),
        cmocka_unit_test(test_5p),          cmocka_unit_test(test_2p_explicit), cmocka_unit_test(test_3p_explicit),
        cmocka_unit_test(test_4p_explicit), cmocka_unit_test(test_5p_explicit),
        cmocka_unit_test(test_bots_play_the_expansion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
