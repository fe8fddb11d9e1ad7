/* Random-play conformance (public API only): thousands of seeded games for 2, 3 and 4 players, choosing uniformly
 * among the legal actions with a local deterministic PRNG, checking at every node:
 *  - the game ends (fewer than MAX_MOVES moves), within stpete_game_max_length() actions and 30 rounds (the bound
 *    derived in doc/format.md);
 *  - the legal list is non-empty and strictly ascending when not terminal, empty when terminal, equal to the mask
 *    (and, for the first FULL_MASK_GAMES games, to stpete_state_is_legal() over every id in [0, 972));
 *  - every listed action applies (on a scratch copy made with stpete_state_copy()), and the playout step
 *    (stpete_state_apply_random, both picks) applies it the same way: same position, information states, history;
 *    the games that reconcile their events advance by it;
 *  - unlisted actions are refused with STPETE_E_ILLEGAL_ACTION and leave the state unchanged;
 *  - the 116 cards are conserved (§2), rubles are never negative, VP never drop before the final scoring;
 *  - every BUY / PLAY / OBSERVATORY_BUY legal action costs 1 ≤ price ≤ the player's rubles (§5, R5), and applying
 *    it takes exactly that price; a Pub purchase of k VP takes 2k R (§7.2); the Pub and Observatory decisions offer
 *    exactly the choices of §7.1 / §7.2;
 *  - turn order and passes (§4.1, §4.3), and every deal and end of round against §4.5 / §4.6 (R2–R4): cards from the
 *    next phase's stack into the upper row up to 8, lower row discarded, upper row moved down, markers moved left,
 *    Observatories face up, the final round exactly when a deal empties a stack, no end-of-round steps at the end;
 *  - the position an event callback sees is consistent (116 cards, a drawn card iff an Observatory decision);
 *  - an independent oracle written from the spec and the public queries agrees with the engine: the legal set of
 *    every turn and Observatory decision (§4.2, §6, §7.1), every price (§5.1, §5.2) and every scoring event's income
 *    (§4.4, §7.1 face-down Observatories, §7.5);
 *  - the uniform random pick (stpete_state_random_action) is the listed id at random % count, for several random
 *    numbers (0, 2^64 - 1, and drawn ones), and refuses a finished game;
 *  - in the full-mask games, every fifth position saved to JSON and loaded again (stpete_state_to_json,
 *    stpete_state_from_json) lists, masks, checks (is_legal over every id), prices and picks the same actions:
 *    loaded positions, not only positions reached by play (hand cards, Observatory draws, Pub decisions included);
 * and at the end of every game: winners non-empty and consistent with the §8 breakdown, breakdown totals = VP;
 * on half of the games, the event stream reproduces every player's final VP and rubles.
 * A further quarter as many games use a pass-averse policy (pass only when alone or with probability 1/10), which
 * reaches fuller displays, Warehouse hands, trading displacements and other end-of-game triggers.
 * Two more tests: games in the explicit chance mode (every node, chance nodes included, with the same agreements
 * over every player action and chance outcome id, the playout step against stpete_state_apply, and loaded
 * positions), and a chi-square test that the random pick
 * is uniform over the listed actions.
 * Environment: STPETE_CONFORMANCE_GAMES overrides the number of uniform games per player count (default 2000). */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "stpete/stpete.h"

enum {
    DEFAULT_GAMES = 2000,  /* uniformly random games per player count */
    BUSY_GAMES_DIV = 4,    /* plus games/4 games with a pass-averse policy, for deeper positions */
    FULL_MASK_GAMES = 200, /* games per player count checked with is_legal over every id at every node */
    FULL_REFUSAL_GAMES = 5, /* games per player count where apply() is tried with every unlisted id at every node */
    UNLISTED_SAMPLE = 16,  /* unlisted ids applied per node in the other games */
    MAX_MOVES = 5000
};

#include "test_game.h"
#include "test_rng.h"

static stpete_card_info cards[STPETE_NUM_CARD_TYPES]; /* of the edition being played (§2, §11) */
static int card_copies[STPETE_NUM_CARD_TYPES];
static int card_stack[STPETE_NUM_CARD_TYPES]; /* the stack a card type is dealt from (§1) */
static int edition = 1;

static void load_cards(int ed)
{
    stpete_options o;
    stpete_options_init(&o);
    o.edition = ed;
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
    edition = ed;
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++) {
        cards[t].struct_size = sizeof cards[t];
        assert_int_equal(stpete_card_get_info(stpete_game_edition(g), t, &cards[t]), STPETE_OK);
        card_copies[t] = cards[t].copies;
        card_stack[t] = tg_card_stack(t);
    }
    stpete_game_free(g);
}

/* ---- an independent oracle for prices (§5), targets (§6) and legal actions (§4.2, §7.1) --------------------- */

/* Price by §5.1 / §5.2 from the public display (R5–R7). */
static int oracle_price(const stpete_state *st, int seat, int card, int source, int displaced)
{
    const stpete_card_info *c = &cards[card];
    int price = c->cost - stpete_state_display_count(st, seat, card);
    if (source == STPETE_SOURCE_LOWER)
        price -= 1;
    if (c->colour == STPETE_COLOUR_BLUE && stpete_state_display_count(st, seat, STPETE_CARD_CARPENTER_WORKSHOP) > 0)
        price -= 1;
    if (c->colour == STPETE_COLOUR_ORANGE && stpete_state_display_count(st, seat, STPETE_CARD_GOLD_SMELTER) > 0)
        price -= 1;
    if (c->trading)
        price -= displaced == STPETE_CARD_POTJOMKINS_VILLAGE ? 6 : cards[displaced].cost;
    return price < 1 ? 1 : price;
}

/* The target types of a trading card (§6.2); a non-trading card has the single "target" -1. */
static int oracle_targets(int card, int *out)
{
    const stpete_card_info *c = &cards[card];
    int n = 0;
    if (!c->trading) {
        out[n++] = -1;
    } else if (c->colour == STPETE_COLOUR_GREEN) {
        out[n++] = c->ware;
        out[n++] = STPETE_CARD_CZAR_AND_CARPENTER;
    } else {
        for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
            if (cards[t].colour == c->colour && !cards[t].trading)
                out[n++] = t;
    }
    return n;
}

/* Whether seat's display holds a copy of d that a trading card may displace (§6.1: not a face-down Observatory). */
static int oracle_displaceable(const stpete_state *st, int seat, int d)
{
    int n = stpete_state_display_count(st, seat, d);
    if (d == STPETE_CARD_OBSERVATORY)
        n -= stpete_state_observatories_used(st, seat);
    return n > 0;
}

static void oracle_add(uint8_t *mask, int kind, int source, int card, int displaced, int stack)
{
    stpete_action a = { kind, source, card, displaced, stack, -1 };
    int id = -1;
    assert_int_equal(stpete_action_encode(&a, &id), STPETE_OK);
    mask[id] = 1;
}

/* Buying or playing `card` from `source`: every affordable variant with a target in the display. */
static void oracle_acquire(const stpete_state *st, int seat, int kind, int source, int card, uint8_t *mask)
{
    int targets[16];
    int nt = oracle_targets(card, targets);
    int rubles = stpete_state_rubles(st, seat);
    for (int i = 0; i < nt; i++) {
        if (targets[i] >= 0 && !oracle_displaceable(st, seat, targets[i]))
            continue;
        if (oracle_price(st, seat, card, source, targets[i]) <= rubles)
            oracle_add(mask, kind, source, card, targets[i], -1);
    }
}

/* The legal actions of an ordinary turn (§4.2) or an Observatory decision (§7.1), as a mask. */
static void oracle_legal(const stpete_state *st, uint8_t *mask)
{
    memset(mask, 0, STPETE_NUM_DISTINCT_ACTIONS);
    int seat = stpete_state_current_player(st);
    int hand[STPETE_MAX_HAND];
    size_t hn = 0;
    assert_int_equal(stpete_state_hand(st, seat, hand, STPETE_MAX_HAND, &hn), STPETE_OK);
    int room = (int)hn < stpete_state_hand_limit(st, seat);
    if (stpete_state_decision(st) == STPETE_DECISION_OBSERVATORY) {
        int card = stpete_state_observatory_card(st);
        oracle_acquire(st, seat, STPETE_ACTION_OBSERVATORY_BUY, STPETE_SOURCE_OBSERVATORY, card, mask);
        if (room)
            oracle_add(mask, STPETE_ACTION_OBSERVATORY_TAKE, -1, -1, -1, -1);
        oracle_add(mask, STPETE_ACTION_OBSERVATORY_DISCARD, -1, -1, -1, -1);
        return;
    }
    if (edition == 2 && stpete_state_round(st) == 1 && stpete_state_phase(st) == STPETE_PHASE_WORKER) {
        /* §11: the first worker phase is buy-only; a player who can afford no board card passes */
        int any = 0;
        for (int r = STPETE_SOURCE_UPPER; r <= STPETE_SOURCE_LOWER; r++) {
            int row[STPETE_BOARD_SIZE];
            size_t n = 0;
            assert_int_equal(stpete_state_row(st, r, row, STPETE_BOARD_SIZE, &n), STPETE_OK);
            for (size_t i = 0; i < n; i++)
                oracle_acquire(st, seat, STPETE_ACTION_BUY, r, row[i], mask);
        }
        for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++)
            any |= mask[id];
        if (!any)
            oracle_add(mask, STPETE_ACTION_PASS, -1, -1, -1, -1);
        return;
    }
    oracle_add(mask, STPETE_ACTION_PASS, -1, -1, -1, -1);
    for (int r = STPETE_SOURCE_UPPER; r <= STPETE_SOURCE_LOWER; r++) {
        int row[STPETE_BOARD_SIZE];
        size_t n = 0;
        assert_int_equal(stpete_state_row(st, r, row, STPETE_BOARD_SIZE, &n), STPETE_OK);
        for (size_t i = 0; i < n; i++) {
            oracle_acquire(st, seat, STPETE_ACTION_BUY, r, row[i], mask);
            if (room)
                oracle_add(mask, STPETE_ACTION_TAKE, r, row[i], -1, -1);
        }
    }
    for (size_t i = 0; i < hn; i++)
        oracle_acquire(st, seat, STPETE_ACTION_PLAY, STPETE_SOURCE_HAND, hand[i], mask);
    if (stpete_state_phase(st) == STPETE_PHASE_BUILDING &&
        stpete_state_display_count(st, seat, STPETE_CARD_OBSERVATORY) > stpete_state_observatories_used(st, seat))
        for (int k = 0; k < 4; k++)
            if (stpete_state_stack_size(st, k) >= 2)
                oracle_add(mask, STPETE_ACTION_OBSERVATORY, -1, -1, -1, k);
}

/* Income of seat at the scoring of `colour` (§4.4, §7.1 face-down Observatories, §7.5 Mariinskij and Tax Man). */
static void oracle_income(const stpete_state *st, int seat, int colour, int *rubles, int *vp)
{
    int r = 0, v = 0, per_colour[3] = { 0, 0, 0 };
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++) {
        int copies = stpete_state_display_count(st, seat, t);
        per_colour[cards[t].colour] += copies;
        if (cards[t].colour == colour) {
            r += copies * cards[t].rubles;
            v += copies * cards[t].vp;
        }
    }
    if (colour == STPETE_COLOUR_BLUE) {
        v -= stpete_state_observatories_used(st, seat) * cards[STPETE_CARD_OBSERVATORY].vp;
        int theater = stpete_state_display_count(st, seat, STPETE_CARD_MARIINSKIJ_THEATER) *
                      per_colour[STPETE_COLOUR_ORANGE];
        if (cards[STPETE_CARD_MARIINSKIJ_THEATER].special == STPETE_SPECIAL_MARIINSKY_THEATER_VP)
            v += theater; /* §11 */
        else
            r += theater; /* §7.5 */
    } else if (colour == STPETE_COLOUR_ORANGE) {
        r += stpete_state_display_count(st, seat, STPETE_CARD_TAX_MAN) * per_colour[STPETE_COLOUR_GREEN];
    }
    *rubles = r;
    *vp = v;
}

/* ---- statistics -------------------------------------------------------------------------------- */

typedef struct tally {
    long games, nodes, moves, min_moves, max_moves, max_round, max_legal;
    long decisions[3];     /* nodes per decision kind (turn, observatory, pub) */
    long chosen[9];        /* actions applied per kind */
    long listed_applied;   /* listed actions applied on a scratch copy */
    long priced;           /* BUY/PLAY/OBSERVATORY_BUY legal actions whose price was checked */
    long unlisted_applied; /* unlisted actions refused by apply */
    long is_legal_checks;  /* ids compared with is_legal in full-mask games */
    long loaded;           /* positions saved, loaded and compared (listing, mask, is_legal, prices, pick) */
    long event_games, events;
    long shared_wins, negative_vp, hand_penalties;
    long exhausted[4];     /* games ending with this stack empty (§4.6) */
    long phase_changes, round_changes; /* transitions checked against §4.5 */
    long oracle_nodes;                 /* nodes whose legal set matched the independent oracle */
    long max_display, max_aristocrat_kinds, max_vp, max_hand;
} tally;

/* ---- event reconciliation ---------------------------------------------------------------------- */

typedef struct ev_acc {
    int players;
    long vp[STPETE_MAX_PLAYERS];     /* SCORING vp + PUB vp */
    long rubles[STPETE_MAX_PLAYERS]; /* 25 + SCORING rubles - BUY/PLAY price - PUB rubles */
    int final_seen[STPETE_MAX_PLAYERS];
    int final_vp[STPETE_MAX_PLAYERS];
    int game_over_seen;
    unsigned game_over_mask;
    long events;
    int errors;
    char first_error[256];
} ev_acc;

static void ev_error(ev_acc *a, const char *fmt, ...)
{
    if (a->errors++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(a->first_error, sizeof a->first_error, fmt, ap);
        va_end(ap);
    }
}

/* Number of cards in all places (§2 conservation), through the public queries. */
static int count_cards(const stpete_state *st)
{
    int players = stpete_game_num_players(stpete_state_game(st));
    int total = 0;
    for (int s = 0; s < 4; s++)
        total += stpete_state_stack_size(st, s);
    for (int r = STPETE_SOURCE_UPPER; r <= STPETE_SOURCE_LOWER; r++) {
        size_t n = 0;
        stpete_state_row(st, r, NULL, 0, &n);
        total += (int)n;
    }
    for (int s = 0; s < players; s++) {
        size_t n = 0;
        stpete_state_display(st, s, NULL, 0, &n);
        total += (int)n;
        stpete_state_hand(st, s, NULL, 0, &n);
        total += (int)n;
    }
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
        total += stpete_state_discard_count(st, t);
    return total + (stpete_state_observatory_card(st) >= 0);
}

/* What a callback sees after event ev of seat: the rubles and VP the events so far sum to (a), the final score,
 * and a consistent position (116 cards, a drawn card iff an Observatory decision, a listing). */
static void check_state_seen(const stpete_state *st, const stpete_event *ev, ev_acc *a, int seat)
{
    int vp = 0;
    /* queries inside the callback see the state after the change reported */
    if (ev->kind == STPETE_EVENT_SCORING || ev->kind == STPETE_EVENT_PUB) {
        if (stpete_state_vp(st, seat, &vp) != STPETE_OK || vp != a->vp[seat])
            ev_error(a, "seat %d has %d VP after event %d, events sum to %ld", seat, vp, ev->kind, a->vp[seat]);
    }
    if (ev->kind == STPETE_EVENT_SCORING || ev->kind == STPETE_EVENT_PUB || ev->kind == STPETE_EVENT_BUY ||
        ev->kind == STPETE_EVENT_PLAY) {
        if (stpete_state_rubles(st, seat) != a->rubles[seat])
            ev_error(a, "seat %d has %d R after event %d, events sum to %ld", seat, stpete_state_rubles(st, seat),
                     ev->kind, a->rubles[seat]);
    }
    if (ev->kind == STPETE_EVENT_FINAL_SCORING) {
        if (stpete_state_vp(st, seat, &vp) != STPETE_OK || vp != ev->vp)
            ev_error(a, "final scoring event of seat %d says %d VP, state says %d", seat, ev->vp, vp);
    }
    /* the state a callback sees is a consistent position: 116 cards, a drawn card iff an Observatory decision,
     * a legal list that can be computed */
    int cards = count_cards(st);
    if (cards != STPETE_NUM_CARDS)
        ev_error(a, "%d cards in the state seen by the callback of event %d", cards, ev->kind);
    int decision = stpete_state_decision(st), obs = stpete_state_observatory_card(st);
    if ((decision == STPETE_DECISION_OBSERVATORY) != (obs >= 0))
        ev_error(a, "callback of event %d sees decision %d with Observatory card %d", ev->kind, decision, obs);
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    if (stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n) != STPETE_OK)
        ev_error(a, "legal actions fail in the callback of event %d", ev->kind);
}

static void conf_on_event(const stpete_state *st, const stpete_event *ev, void *user)
{
    ev_acc *a = user;
    a->events++;
    int seat = ev->seat;
    switch (ev->kind) {
    case STPETE_EVENT_SCORING:
    case STPETE_EVENT_PUB:
    case STPETE_EVENT_BUY:
    case STPETE_EVENT_PLAY:
    case STPETE_EVENT_FINAL_SCORING:
        if (seat < 0 || seat >= a->players) {
            ev_error(a, "event %d with seat %d", ev->kind, seat);
            return;
        }
        break;
    default:
        break;
    }
    switch (ev->kind) {
    case STPETE_EVENT_SCORING:
        if (ev->phase < STPETE_PHASE_WORKER || ev->phase > STPETE_PHASE_ARISTOCRAT) {
            ev_error(a, "scoring event in phase %d", ev->phase);
        } else {
            int want_r = 0, want_vp = 0;
            oracle_income(st, seat, ev->phase, &want_r, &want_vp);
            if (ev->rubles != want_r || ev->vp != want_vp)
                ev_error(a, "seat %d scored %d R %d VP in phase %d, the display gives %d R %d VP", seat, ev->rubles,
                         ev->vp, ev->phase, want_r, want_vp);
        }
        if (ev->vp < 0 || ev->rubles < 0)
            ev_error(a, "scoring event with negative income %d R %d VP", ev->rubles, ev->vp);
        a->vp[seat] += ev->vp;
        a->rubles[seat] += ev->rubles;
        break;
    case STPETE_EVENT_PUB:
        if (ev->amount < 0 || ev->vp != ev->amount || ev->rubles != 2 * ev->amount)
            ev_error(a, "pub event amount %d vp %d rubles %d", ev->amount, ev->vp, ev->rubles);
        a->vp[seat] += ev->vp;
        a->rubles[seat] -= ev->rubles;
        break;
    case STPETE_EVENT_BUY:
    case STPETE_EVENT_PLAY:
        if (ev->price < 1)
            ev_error(a, "event %d with price %d", ev->kind, ev->price);
        a->rubles[seat] -= ev->price;
        break;
    case STPETE_EVENT_FINAL_SCORING:
        a->final_seen[seat]++;
        a->final_vp[seat] = ev->vp;
        break;
    case STPETE_EVENT_GAME_OVER:
        a->game_over_seen++;
        a->game_over_mask = (unsigned)ev->amount;
        break;
    default:
        break;
    }
    check_state_seen(st, ev, a, seat);
}

/* ---- per-node invariants ----------------------------------------------------------------------- */

typedef struct game_ctx {
    int players;
    uint64_t seed;
    int tie_total; /* tie-break option */
    int alt_rules; /* the optional rulings: per-player Pub cap, total-rubles tie-break */
    int prev_vp[STPETE_MAX_PLAYERS];
} game_ctx;

__attribute__((format(printf, 4, 5))) static void check_failed(const game_ctx *g, int move, const char *cond,
                                                              const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fail_msg("%dp seed %llu move %d: check (%s) failed: %s", g->players, (unsigned long long)g->seed, move, cond, msg);
}

/* Fail with the game, seed and move if cond is false; the rest is a printf format and its arguments. */
#define CHECK(cond, ...)                                   \
    do {                                                   \
        if (!(cond))                                       \
            check_failed(g, move, #cond, __VA_ARGS__);     \
    } while (0)

/* Seat s's purse, VP (growing until the final scoring: §4.4, §7.2), display, hand, hand limit (§7.3) and
 * Observatories used (§7.1), its cards counted into where; returns how many. */
static int count_seat_cards(const stpete_state *st, game_ctx *g, int move, int s, int terminal,
                            int where[STPETE_NUM_CARD_TYPES])
{
    int total = 0;
    int rubles = stpete_state_rubles(st, s);
    CHECK(rubles >= 0, "seat %d has %d R", s, rubles);
    int vp = 0;
    CHECK(stpete_state_vp(st, s, &vp) == STPETE_OK, "vp");
    if (!terminal) {
        /* before the final scoring VP only grow (§4.4 scoring, §7.2 Pub) */
        CHECK(vp >= g->prev_vp[s], "seat %d VP went from %d to %d", s, g->prev_vp[s], vp);
        g->prev_vp[s] = vp;
    }
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++) {
        int c = stpete_state_display_count(st, s, t);
        CHECK(c >= 0, "display count %d", c);
        where[t] += c;
        total += c;
    }
    int hand[STPETE_MAX_HAND];
    size_t hn = 0;
    CHECK(stpete_state_hand(st, s, hand, STPETE_MAX_HAND, &hn) == STPETE_OK, "hand of seat %d", s);
    for (size_t i = 0; i < hn; i++) {
        CHECK(hand[i] >= 0 && hand[i] < STPETE_NUM_CARD_TYPES, "hand card %d", hand[i]);
        where[hand[i]]++;
    }
    total += (int)hn;
    int limit = stpete_state_hand_limit(st, s);
    int warehouse = stpete_state_display_count(st, s, STPETE_CARD_WAREHOUSE) > 0;
    CHECK(limit == (warehouse ? 4 : 3), "seat %d hand limit %d", s, limit);
    int used = stpete_state_observatories_used(st, s);
    CHECK(used >= 0 && used <= 2, "seat %d used %d Observatories", s, used);
    return total;
}

/* The start-player markers (§3.3, §4.5 step 4): every seat holds 1 or 2. */
static void check_markers_held(const stpete_state *st, game_ctx *g, int move)
{
    int players = g->players;
    /* start-player markers (§3.3, §4.5 step 4): every seat holds 1 or 2 */
    int held[STPETE_MAX_PLAYERS] = { 0 };
    for (int k = 0; k < 4; k++) {
        int s = stpete_state_marker_holder(st, k);
        CHECK(s >= 0 && s < players, "marker %d held by %d", k, s);
        held[s]++;
    }
    for (int s = 0; s < players; s++)
        CHECK(held[s] >= 1 && held[s] <= 2, "seat %d holds %d markers", s, held[s]);
}

/* An Observatory decision (§7.1) and the Pub step (§7.2) happen in the building phase only. */
static void check_decision_phase(game_ctx *g, int move, int decision, int phase)
{
    if (decision == STPETE_DECISION_OBSERVATORY)
        CHECK(phase == STPETE_PHASE_BUILDING, "observatory decision in phase %d", phase);
    if (decision == STPETE_DECISION_PUB)
        CHECK(phase == STPETE_PHASE_BUILDING, "pub decision in phase %d", phase);
}

/* The end of the game and the seat to act agree with the decision (§4.6). */
static void check_turn_words(game_ctx *g, int move, int terminal, int decision, int current)
{
    int players = g->players;
    CHECK(terminal == 0 || terminal == 1, "is_terminal %d", terminal);
    CHECK(terminal == (decision == STPETE_DECISION_GAME_OVER), "terminal %d decision %d", terminal, decision);
    CHECK(decision >= STPETE_DECISION_TURN && decision <= STPETE_DECISION_GAME_OVER, "decision %d", decision);
    if (terminal)
        CHECK(current == STPETE_PLAYER_TERMINAL, "current %d", current);
    else
        CHECK(current >= 0 && current < players, "current %d", current);
}

static void check_invariants(const stpete_state *st, game_ctx *g, int move)
{
    int players = g->players;
    int terminal = tg_is_terminal(st);
    int decision = stpete_state_decision(st);
    int current = stpete_state_current_player(st);
    check_turn_words(g, move, terminal, decision, current);
    int phase = stpete_state_phase(st);
    CHECK(phase >= STPETE_PHASE_WORKER && phase <= STPETE_PHASE_TRADING, "phase %d", phase);
    CHECK(stpete_state_round(st) >= 1, "round %d", stpete_state_round(st));
    int passes = stpete_state_consecutive_passes(st);
    CHECK(passes >= 0 && passes < players, "passes %d", passes);
    int obs = stpete_state_observatory_card(st);
    CHECK((obs >= 0) == (decision == STPETE_DECISION_OBSERVATORY), "observatory card %d decision %d", obs, decision);
    CHECK(obs >= -1 && obs < STPETE_NUM_CARD_TYPES, "observatory card %d", obs);
    check_decision_phase(g, move, decision, phase);

    check_markers_held(st, g, move);

    /* card conservation (§2): stacks + rows + displays + hands + discard + pending Observatory draw = 116 */
    int where[STPETE_NUM_CARD_TYPES] = { 0 };
    int total = 0;
    for (int s = 0; s < 4; s++) {
        int n = stpete_state_stack_size(st, s);
        CHECK(n >= 0 && n <= 31, "stack %d size %d", s, n);
        total += n;
    }
    int board = 0;
    for (int r = STPETE_SOURCE_UPPER; r <= STPETE_SOURCE_LOWER; r++) {
        int cards[STPETE_BOARD_SIZE];
        size_t n = 0;
        CHECK(stpete_state_row(st, r, cards, STPETE_BOARD_SIZE, &n) == STPETE_OK, "row %d", r);
        for (size_t i = 0; i < n; i++) {
            CHECK(cards[i] >= 0 && cards[i] < STPETE_NUM_CARD_TYPES, "row card %d", cards[i]);
            where[cards[i]]++;
        }
        board += (int)n;
    }
    CHECK(board <= STPETE_BOARD_SIZE, "board holds %d cards", board);
    total += board;
    for (int s = 0; s < players; s++) {
        total += count_seat_cards(st, g, move, s, terminal, where);
    }
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++) {
        int d = stpete_state_discard_count(st, t);
        CHECK(d >= 0, "discard count %d", d);
        where[t] += d;
        total += d;
    }
    if (obs >= 0) {
        where[obs]++;
        total++;
    }
    CHECK(total == STPETE_NUM_CARDS, "%d cards in the game", total);
    /* §4.6: only a deal takes the last card of a stack (an Observatory needs 2), and it makes the round final */
    for (int s = 0; s < 4; s++)
        if (stpete_state_stack_size(st, s) == 0)
            CHECK(tg_is_final_round(st) == 1, "stack %d is empty outside the final round", s);
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
        CHECK(where[t] <= card_copies[t], "%d copies of card %d outside the stacks", where[t], t);
}

/* ---- transitions (§4.1, §4.3, §4.5, §4.6) ------------------------------------------------------- */

/* The public position that deals and the end of a round change. */
typedef struct view {
    int phase, round, final_round, terminal, decision, current, passes;
    int row_n[2], row[2][STPETE_BOARD_SIZE];
    int stack[4], markers[4], discard[STPETE_NUM_CARD_TYPES], obs_used[STPETE_MAX_PLAYERS];
} view;

static void view_of(const stpete_state *st, int players, view *v)
{
    memset(v, 0, sizeof *v); /* unused row slots compare equal */
    v->phase = stpete_state_phase(st);
    v->round = stpete_state_round(st);
    v->final_round = tg_is_final_round(st);
    v->terminal = tg_is_terminal(st);
    v->decision = stpete_state_decision(st);
    v->current = stpete_state_current_player(st);
    v->passes = stpete_state_consecutive_passes(st);
    for (int r = 0; r < 2; r++) {
        size_t n = 0;
        assert_int_equal(stpete_state_row(st, r, v->row[r], STPETE_BOARD_SIZE, &n), STPETE_OK);
        v->row_n[r] = (int)n;
    }
    for (int k = 0; k < 4; k++) {
        v->stack[k] = stpete_state_stack_size(st, k);
        v->markers[k] = stpete_state_marker_holder(st, k);
    }
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
        v->discard[t] = stpete_state_discard_count(st, t);
    for (int s = 0; s < players; s++)
        v->obs_used[s] = stpete_state_observatories_used(st, s);
}

static int count_in(const int *cards, int n, int card)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += cards[i] == card;
    return k;
}

/* The deal at a phase change (§4.5, R2, R3): from stack deal_stack into the upper row until the board (board_left
 * cards before it) holds 8, or the stack is empty, which makes the round final (R4). */
static void check_deal(const view *pre, const view *post, game_ctx *g, int move, int deal_stack, int board_left)
{
    int first_new = post->round == pre->round ? pre->row_n[0] : 0;
    int want = STPETE_BOARD_SIZE - board_left;
    if (want > pre->stack[deal_stack])
        want = pre->stack[deal_stack];
    CHECK(post->row_n[0] - first_new == want, "dealt %d cards, expected %d", post->row_n[0] - first_new, want);
    for (int i = first_new; i < post->row_n[0]; i++)
        CHECK(card_stack[post->row[0][i]] == deal_stack, "card %d dealt from stack %d", post->row[0][i],
              deal_stack);
    for (int k = 0; k < 4; k++)
        CHECK(post->stack[k] == pre->stack[k] - (k == deal_stack ? want : 0), "stack %d: %d -> %d", k,
              pre->stack[k], post->stack[k]);
    if (want > 0 && post->stack[deal_stack] == 0)
        CHECK(post->final_round, "the last card of stack %d was dealt and the round is not final (R4)", deal_stack);
    if (!pre->final_round && post->final_round)
        CHECK(want > 0 && post->stack[deal_stack] == 0, "the round became final without exhausting a stack");
}

/* A step within the action part of a phase (§4.2, §4.3): passes, the seat to act, an Observatory draw (§7.1), the
 * Pub step (§7.2), the rows and stacks. */
static void check_action_part(const view *pre, const view *post, const stpete_action *a, game_ctx *g, int move)
{
    int n = g->players;
    /* within the action part (§4.2, §4.3) */
    switch (a->kind) {
    case STPETE_ACTION_PASS:
        if (pre->passes + 1 < n) {
            CHECK(post->passes == pre->passes + 1, "passes %d -> %d", pre->passes, post->passes);
            CHECK(post->current == (pre->current + 1) % n, "turn went from %d to %d", pre->current,
                  post->current);
        } else { /* N passes: scoring, then the Pub step of the building phase (§7.2) */
            CHECK(pre->phase == STPETE_PHASE_BUILDING && post->decision == STPETE_DECISION_PUB,
                  "the action part ended without a phase change, decision %d", post->decision);
        }
        break;
    case STPETE_ACTION_OBSERVATORY:
        CHECK(pre->stack[a->stack] >= 2, "Observatory drew from a stack of %d", pre->stack[a->stack]);
        CHECK(post->stack[a->stack] == pre->stack[a->stack] - 1, "Observatory draw took %d cards",
              pre->stack[a->stack] - post->stack[a->stack]);
        CHECK(post->current == pre->current && post->decision == STPETE_DECISION_OBSERVATORY,
              "after an Observatory draw: seat %d, decision %d", post->current, post->decision);
        CHECK(post->obs_used[pre->current] == pre->obs_used[pre->current] + 1, "Observatory not turned");
        break;
    case STPETE_ACTION_PUB:
        CHECK(post->decision == STPETE_DECISION_PUB, "Pub step continued with decision %d", post->decision);
        break;
    default:
        CHECK(post->passes == 0, "%d passes after an action", post->passes);
        CHECK(post->current == (pre->current + 1) % n && post->decision == STPETE_DECISION_TURN,
              "after action kind %d: seat %d -> %d, decision %d", a->kind, pre->current, post->current,
              post->decision);
        break;
    }
    if (a->kind != STPETE_ACTION_OBSERVATORY)
        CHECK(memcmp(pre->stack, post->stack, sizeof pre->stack) == 0, "a stack changed within a phase");
    for (int r = 0; r < 2; r++) {
        int removed = (a->kind == STPETE_ACTION_BUY || a->kind == STPETE_ACTION_TAKE) && a->source == r;
        CHECK(post->row_n[r] == pre->row_n[r] - removed, "row %d: %d -> %d cards", r, pre->row_n[r],
              post->row_n[r]);
        if (removed)
            CHECK(count_in(post->row[r], post->row_n[r], a->card) ==
                      count_in(pre->row[r], pre->row_n[r], a->card) - 1, "row %d did not lose the card", r);
    }
}

/* The end of the game (§4.6): after the final round's trading phase, on the last pass, skipping the end-of-round
 * steps (rows, discard pile, markers and stacks unchanged). */
static void check_game_end(const view *pre, const view *post, const stpete_action *a, game_ctx *g, int move)
{
    int n = g->players;
    /* §4.6: the game ends after the final round's trading phase, skipping the end-of-round steps */
    CHECK(pre->phase == STPETE_PHASE_TRADING && pre->final_round, "game ended in phase %d, final round %d",
          pre->phase, pre->final_round);
    CHECK(a->kind == STPETE_ACTION_PASS && pre->passes == n - 1, "game ended on action kind %d", a->kind);
    CHECK(memcmp(pre->row, post->row, sizeof pre->row) == 0 && pre->row_n[0] == post->row_n[0] &&
              pre->row_n[1] == post->row_n[1], "rows changed at the end of the game");
    CHECK(memcmp(pre->discard, post->discard, sizeof pre->discard) == 0, "discard changed at the end");
    CHECK(memcmp(pre->markers, post->markers, sizeof pre->markers) == 0, "markers moved at the end");
    CHECK(memcmp(pre->stack, post->stack, sizeof pre->stack) == 0, "cards dealt at the end");
}

/* Check what applying action a (by the seat to act in `pre`) did to the public position. */
static void check_transition(const view *pre, const view *post, const stpete_action *a, game_ctx *g, int move,
                             tally *t)
{
    int n = g->players;
    CHECK(post->final_round >= pre->final_round, "the final-round flag was cleared");
    if (post->terminal) {
        check_game_end(pre, post, a, g, move);
        return;
    }
    if (post->round == pre->round && post->phase == pre->phase) {
        check_action_part(pre, post, a, g, move);
        return;
    }
    /* the N-th pass (or the last Pub choice) ends the phase: deal (§4.5), then the next phase or round */
    CHECK((a->kind == STPETE_ACTION_PASS && pre->passes == n - 1) || a->kind == STPETE_ACTION_PUB,
          "phase ended on action kind %d after %d passes", a->kind, pre->passes);
    CHECK(post->decision == STPETE_DECISION_TURN && post->passes == 0, "new phase: decision %d passes %d",
          post->decision, post->passes);
    CHECK(post->current == post->markers[post->phase], "phase %d starts with seat %d, marker held by %d",
          post->phase, post->current, post->markers[post->phase]);
    int deal_stack, board_left;
    if (post->round == pre->round) {
        t->phase_changes++;
        CHECK(pre->phase < STPETE_PHASE_TRADING && post->phase == pre->phase + 1, "phase %d -> %d", pre->phase,
              post->phase);
        /* R2: from the next phase's stack into the upper row until 8 cards; cards already there stay */
        deal_stack = post->phase;
        board_left = pre->row_n[0] + pre->row_n[1];
        CHECK(post->row_n[1] == pre->row_n[1] &&
                  memcmp(post->row[1], pre->row[1], sizeof(int) * (size_t)pre->row_n[1]) == 0,
              "the lower row changed on a deal");
        CHECK(post->row_n[0] >= pre->row_n[0] &&
                  memcmp(post->row[0], pre->row[0], sizeof(int) * (size_t)pre->row_n[0]) == 0,
              "the upper row lost cards on a deal");
        CHECK(memcmp(pre->markers, post->markers, sizeof pre->markers) == 0, "markers moved within a round");
        CHECK(memcmp(pre->discard, post->discard, sizeof pre->discard) == 0, "discard changed within a round");
    } else {
        t->round_changes++;
        /* R3: discard the lower row, shift the upper row down, deal workers to 8, markers left, Observatories up */
        CHECK(post->round == pre->round + 1 && pre->phase == STPETE_PHASE_TRADING &&
                  post->phase == STPETE_PHASE_WORKER, "round %d phase %d -> round %d phase %d", pre->round,
              pre->phase, post->round, post->phase);
        CHECK(!pre->final_round, "a round followed the final round");
        deal_stack = STPETE_STACK_WORKER;
        board_left = pre->row_n[0];
        CHECK(post->row_n[1] == pre->row_n[0] &&
                  memcmp(post->row[1], pre->row[0], sizeof(int) * (size_t)pre->row_n[0]) == 0,
              "the upper row did not move down");
        for (int c = 0; c < STPETE_NUM_CARD_TYPES; c++)
            CHECK(post->discard[c] == pre->discard[c] + count_in(pre->row[1], pre->row_n[1], c),
                  "discard of card %d: %d -> %d", c, pre->discard[c], post->discard[c]);
        for (int k = 0; k < 4; k++)
            CHECK(post->markers[k] == (pre->markers[k] + 1) % n, "marker %d: seat %d -> %d", k, pre->markers[k],
                  post->markers[k]);
        for (int s = 0; s < n; s++)
            CHECK(post->obs_used[s] == 0, "seat %d Observatories still face down", s);
    }
    check_deal(pre, post, g, move, deal_stack, board_left);
}

/* ---- one game ---------------------------------------------------------------------------------- */

static int is_priced(int kind)
{
    return kind == STPETE_ACTION_BUY || kind == STPETE_ACTION_PLAY || kind == STPETE_ACTION_OBSERVATORY_BUY;
}

/* Rubles and VP of seat in st. */
static void money_of(const stpete_state *st, int seat, int *rubles, int *vp)
{
    *rubles = stpete_state_rubles(st, seat);
    assert_int_equal(stpete_state_vp(st, seat, vp), STPETE_OK);
}

/* Check what applying id (with the precomputed price, or -1) did to the acting seat's money. */
static void check_money_after(const stpete_state *after, const stpete_action *a, int seat, int rubles_before,
                              int vp_before, int price, game_ctx *g, int move)
{
    int r = 0, v = 0;
    money_of(after, seat, &r, &v);
    switch (a->kind) {
    case STPETE_ACTION_BUY:
    case STPETE_ACTION_PLAY:
    case STPETE_ACTION_OBSERVATORY_BUY:
        CHECK(r == rubles_before - price, "paid %d R, price %d", rubles_before - r, price);
        CHECK(v == vp_before, "VP changed on a purchase");
        break;
    case STPETE_ACTION_TAKE:
    case STPETE_ACTION_OBSERVATORY:
    case STPETE_ACTION_OBSERVATORY_TAKE:
    case STPETE_ACTION_OBSERVATORY_DISCARD:
        CHECK(r == rubles_before && v == vp_before, "money changed on kind %d", a->kind);
        break;
    case STPETE_ACTION_PUB:
        CHECK(r == rubles_before - 2 * a->amount, "Pub %d VP cost %d R", a->amount, rubles_before - r);
        CHECK(v == vp_before + a->amount, "Pub %d VP gave %d VP", a->amount, v - vp_before);
        break;
    default: /* a pass may end the action part and score */
        break;
    }
}

enum policy { UNIFORM, BUSY };

typedef struct game_plan {
    int players;
    uint64_t seed;
    enum policy policy;
    int full_mask;    /* compare is_legal with the mask for every id */
    int full_refusal; /* apply every unlisted id */
    int use_events;   /* reconcile the event stream */
} game_plan;

/* The random pick agrees with the listing (ids[0..n), n > 0): the listed id at r % n, for r = 0, 2^64 - 1 and
 * four drawn numbers. */
static void check_random_pick(const stpete_state *st, const int *ids, size_t n, uint64_t *rng, const game_ctx *g,
                              int move)
{
    uint64_t rs[6] = { 0, UINT64_MAX, rng_next(rng), rng_next(rng), rng_next(rng), rng_next(rng) };
    for (int k = 0; k < 6; k++) {
        int id = -1;
        CHECK(stpete_state_random_action(st, rs[k], &id) == STPETE_OK, "random action");
        CHECK(id == ids[rs[k] % n], "random action %d for %#llx, listed at %llu: %d", id, (unsigned long long)rs[k],
              (unsigned long long)(rs[k] % n), ids[rs[k] % n]);
    }
}

/* The playout step (stpete_state_apply_random) applies listed action i of ids[0..n) of st to a copy (into `into`)
 * exactly as stpete_state_apply does to another copy (`applied`, which holds st + ids[i]): the same id, position,
 * information state of every seat (the public history) and history. Even i with STPETE_PICK_MODULO, odd with
 * STPETE_PICK_SCALED. */
static void check_apply_random(const stpete_state *st, stpete_state *into, const stpete_state *applied,
                               const int *ids, size_t i, size_t n, int players, const game_ctx *g, int move)
{
    CHECK(stpete_state_copy(into, st) == STPETE_OK, "copy");
    int pick = i % 2 ? STPETE_PICK_SCALED : STPETE_PICK_MODULO;
    uint64_t r = pick == STPETE_PICK_SCALED ? scaled_random_for(i, n) : i + n * (uint64_t)move;
    int id = -1;
    int rc = stpete_state_apply_random(into, r, pick, &id);
    CHECK(rc == STPETE_OK, "apply_random(%d): %d %s", pick, rc, stpete_state_last_error(into));
    CHECK(id == ids[i], "apply_random(pick %d) applied %d, listed at %zu: %d", pick, id, i, ids[i]);
    CHECK(stpete_state_last_error(into)[0] == '\0', "error message after success");
    CHECK(tg_equal(into, applied) == 1, "apply_random(%d) and apply(%d) reach different positions", pick, id);
    for (int s = 0; s < players; s++) {
        uint64_t ka = 0, kb = 1;
        stpete_state_information_state_key(into, s, &ka);
        stpete_state_information_state_key(applied, s, &kb);
        CHECK(ka == kb, "apply_random(%d): seat %d's information state differs from apply's", pick, s);
    }
    int ha[1024], hb[1024];
    size_t na = 0, nb = 0;
    stpete_state_history(into, ha, 1024, &na);
    stpete_state_history(applied, hb, 1024, &nb);
    CHECK(na == nb && na <= 1024 && memcmp(ha, hb, na * sizeof *ha) == 0, "apply_random(%d): history differs", pick);
}

/* Every id the library may be asked about: the player actions and the chance outcomes. */
enum { ALL_IDS = STPETE_CHANCE_CARD_FIRST + STPETE_NUM_CHANCE_OUTCOMES };

/* The listing, the mask, is_legal over every id, the prices and the random pick of a position loaded from the
 * JSON of st (a loaded position, not one reached by play) equal st's. */
static void check_loaded_position(const stpete_state *st, const stpete_game *game, uint64_t *rng, const game_ctx *g,
                                  int move)
{
    static char json[1 << 16];
    size_t len = 0;
    CHECK(stpete_state_to_json(st, json, sizeof json, &len) == STPETE_OK, "to_json");
    stpete_state *loaded = NULL;
    stpete_error err = STPETE_ERROR_INIT;
    int rc = stpete_state_from_json(game, json, len, &loaded, &err);
    CHECK(rc == STPETE_OK, "from_json: %d", rc);
    CHECK(tg_equal(st, loaded) == 1, "loaded position differs");
    int a[STPETE_MAX_LEGAL_ACTIONS], b[STPETE_MAX_LEGAL_ACTIONS];
    size_t na = 0, nb = 0;
    stpete_state_legal_actions(st, a, STPETE_MAX_LEGAL_ACTIONS, &na);
    CHECK(stpete_state_legal_actions(loaded, b, STPETE_MAX_LEGAL_ACTIONS, &nb) == STPETE_OK, "listing");
    CHECK(na == nb && memcmp(a, b, na * sizeof *a) == 0, "loaded position lists %zu actions, played %zu", nb, na);
    uint8_t ma[STPETE_NUM_DISTINCT_ACTIONS], mb[STPETE_NUM_DISTINCT_ACTIONS];
    stpete_state_legal_action_mask(st, ma, sizeof ma);
    stpete_state_legal_action_mask(loaded, mb, sizeof mb);
    CHECK(memcmp(ma, mb, sizeof ma) == 0, "loaded position's mask differs");
    size_t next = 0;
    for (int id = 0; id < ALL_IDS; id++) {
        int listed = next < nb && b[next] == id;
        next += (size_t)listed;
        CHECK(tg_is_legal(loaded, id) == listed, "loaded: is_legal(%d) = %d, listed %d", id,
              tg_is_legal(loaded, id), listed);
        if (id < STPETE_NUM_DISTINCT_ACTIONS) {
            int pa = -1, pb = -1;
            int ra = stpete_state_action_price(st, id, &pa), rb = stpete_state_action_price(loaded, id, &pb);
            CHECK(ra == rb && pa == pb, "loaded: price of %d: %d (%d R), played %d (%d R)", id, rb, pb, ra, pa);
        }
    }
    if (nb > 0)
        check_random_pick(loaded, b, nb, rng, g, move);
    stpete_state_free(loaded);
}

/* One game being played: its handles, the event accumulator, the PRNGs and, at the current node, the listing and
 * what the seat to move holds. */
typedef struct game_run {
    const game_plan *plan;
    tally *t;
    game_ctx gc;
    stpete_game *game;
    stpete_state *st, *scratch, *before; /* before: the position before the move being played */
    ev_acc acc;
    uint64_t rng, pick_rng;
    int move;
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    int prices[STPETE_MAX_LEGAL_ACTIONS]; /* of ids[i], -1 when not a purchase */
    uint8_t mask[STPETE_NUM_DISTINCT_ACTIONS];
    size_t n;
    int decision, seat, rubles, vp;
} game_run;

/* The game of the plan, its state (with the event callback when the plan reconciles events) and two scratch
 * states; a quarter of the games use the optional rulings (§7.2 per-player Pub cap, §8 total-rubles tie-break). */
static void conf_start_game(game_run *r, const game_plan *plan, tally *t)
{
    memset(r, 0, sizeof *r);
    r->plan = plan;
    r->t = t;
    stpete_options o;
    stpete_options_init(&o);
    o.players = plan->players;
    o.seed = plan->seed;
    o.edition = edition;
    int alt = (plan->seed % 4) == 3;
    if (alt) {
        o.pub_cap = STPETE_PUB_CAP_PER_PLAYER;
        o.tie_break = STPETE_TIE_BREAK_RUBLES_TOTAL;
    }
    assert_int_equal(stpete_game_new(&o, &r->game, NULL), STPETE_OK);
    assert_int_equal(stpete_state_new(r->game, &r->st, NULL), STPETE_OK);
    assert_int_equal(stpete_state_new(r->game, &r->scratch, NULL), STPETE_OK);
    assert_int_equal(stpete_state_new(r->game, &r->before, NULL), STPETE_OK);
    r->acc.players = plan->players;
    for (int s = 0; s < plan->players; s++)
        r->acc.rubles[s] = 25;
    if (plan->use_events)
        assert_int_equal(stpete_state_set_event_callback(r->st, conf_on_event, &r->acc), STPETE_OK);
    r->gc = (game_ctx){ plan->players, plan->seed, alt, alt, { 0 } };
    r->rng = plan->seed ^ UINT64_C(0xC0FFEE1234567);
    r->pick_rng = plan->seed ^ UINT64_C(0x5049434B); /* the pick checks' numbers: the games stay those of 0.3 */
}

/* The node's invariants, listing and mask (ascending, equal, is_legal over every id in full-mask games, every fifth
 * of those positions loaded from JSON) and the random pick; returns 1 when the game is over (nothing listed). */
static int check_listing(game_run *r)
{
    game_ctx *g = &r->gc;
    int move = r->move;
    tally *t = r->t;
    CHECK(move < MAX_MOVES, "the game does not end");
    t->nodes++;
    check_invariants(r->st, g, move);
    size_t n = 0;
    CHECK(stpete_state_legal_actions(r->st, r->ids, STPETE_MAX_LEGAL_ACTIONS, &n) == STPETE_OK, "legal actions");
    CHECK(stpete_state_legal_action_mask(r->st, r->mask, sizeof r->mask) == STPETE_OK, "mask");
    r->n = n;
    if (tg_is_terminal(r->st)) {
        CHECK(n == 0, "%zu legal actions in a finished game", n);
        int none = -1;
        CHECK(stpete_state_random_action(r->st, 7, &none) == STPETE_E_GAME_OVER && none == -1,
              "random action in a finished game");
        CHECK(stpete_state_copy(r->scratch, r->st) == STPETE_OK, "copy");
        CHECK(stpete_state_apply_random(r->scratch, 7, STPETE_PICK_MODULO, &none) == STPETE_E_GAME_OVER &&
                  none == -1 && stpete_state_last_error(r->scratch)[0] != '\0' && tg_equal(r->scratch, r->st) == 1,
              "playout step in a finished game");
        for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++)
            CHECK(r->mask[id] == 0, "id %d in the mask of a finished game", id);
        return 1;
    }
    CHECK(n > 0 && n <= STPETE_MAX_LEGAL_ACTIONS, "%zu legal actions", n);
    if ((long)n > t->max_legal)
        t->max_legal = (long)n;
    r->decision = stpete_state_decision(r->st);
    t->decisions[r->decision]++;
    size_t set = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK(r->ids[i] >= 0 && r->ids[i] < STPETE_NUM_DISTINCT_ACTIONS, "id %d", r->ids[i]);
        if (i)
            CHECK(r->ids[i - 1] < r->ids[i], "list not strictly ascending at %zu: %d then %d", i, r->ids[i - 1],
                  r->ids[i]);
        CHECK(r->mask[r->ids[i]] == 1, "listed id %d not in the mask", r->ids[i]);
    }
    for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++)
        set += r->mask[id];
    CHECK(set == n, "mask has %zu ids, list %zu", set, n);
    if (r->plan->full_mask) {
        for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++)
            CHECK(tg_is_legal(r->st, id) == r->mask[id], "is_legal(%d) = %d, mask %d", id, tg_is_legal(r->st, id),
                  r->mask[id]);
        t->is_legal_checks += STPETE_NUM_DISTINCT_ACTIONS;
        if (move % 5 == 0) {
            check_loaded_position(r->st, r->game, &r->pick_rng, g, move);
            t->loaded++;
        }
    }
    check_random_pick(r->st, r->ids, n, &r->pick_rng, g, move);
    return 0;
}

/* The legal set against the oracle (§4.2, §6, §7.1) outside Pub decisions; the choices of a Pub decision (§7.2,
 * R10) and of an Observatory decision (§7.1). */
static void check_decision_step(game_run *r)
{
    const game_ctx *g = &r->gc;
    int move = r->move, seat = r->seat, rubles = r->rubles;
    const int *ids = r->ids;
    size_t n = r->n;
    if (r->decision != STPETE_DECISION_PUB) {
        uint8_t want[STPETE_NUM_DISTINCT_ACTIONS];
        oracle_legal(r->st, want);
        for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++)
            if (want[id] != r->mask[id]) {
                char name[STPETE_ACTION_STRING_MAX];
                stpete_action_to_string(STPETE_EDITION_FIRST, id, name, sizeof name);
                CHECK(want[id] == r->mask[id], "action %d (%s): legal %d, §4.2/§6/§7.1 say %d", id, name,
                      r->mask[id], want[id]);
            }
        r->t->oracle_nodes++;
    }
    if (r->decision == STPETE_DECISION_PUB) {
        /* §7.2, R10: 0..cap VP at 2 R each, cap 5 per Pub (or 5 per player); a choice only from 2 R */
        int pubs = stpete_state_display_count(r->st, seat, STPETE_CARD_PUB);
        int cap = g->alt_rules ? 5 : 5 * pubs;
        if (cap > rubles / 2)
            cap = rubles / 2;
        CHECK(pubs >= 1 && rubles >= 2, "Pub decision for seat %d with %d Pubs and %d R", seat, pubs, rubles);
        CHECK(n == (size_t)cap + 1 && ids[0] == 961 && ids[n - 1] == 961 + cap,
              "Pub decision offers %zu choices from %d, cap %d", n, ids[0], cap);
    } else if (r->decision == STPETE_DECISION_OBSERVATORY) {
        /* §7.1: buy (as any displacement variant), take if the hand has room, discard always */
        int hand_room = 0;
        size_t hn = 0;
        stpete_state_hand(r->st, seat, NULL, 0, &hn);
        hand_room = (int)hn < stpete_state_hand_limit(r->st, seat);
        int obs_card = stpete_state_observatory_card(r->st);
        CHECK(ids[n - 1] == 960, "an Observatory draw cannot be discarded");
        CHECK((n >= 2 && ids[n - 2] == 959) == hand_room, "take offered %d, hand room %d",
              n >= 2 && ids[n - 2] == 959, hand_room);
        for (size_t i = 0; i + 1 + (size_t)hand_room < n; i++) {
            stpete_action b;
            stpete_action_decode(ids[i], &b);
            CHECK(b.kind == STPETE_ACTION_OBSERVATORY_BUY && b.card == obs_card,
                  "action %d offered for the drawn card %d", ids[i], obs_card);
        }
    }
}

/* Prices (§5, R5): every purchasable legal action costs 1..rubles, as the oracle says (r->prices); a Pub decision
 * lists only Pub actions. */
static void check_prices(game_run *r)
{
    const game_ctx *g = &r->gc;
    int move = r->move, seat = r->seat;
    for (size_t i = 0; i < r->n; i++) {
        stpete_action a;
        CHECK(stpete_action_decode(r->ids[i], &a) == STPETE_OK, "decode %d", r->ids[i]);
        r->prices[i] = -1;
        if (is_priced(a.kind)) {
            int price = 0;
            CHECK(stpete_state_price(r->st, seat, a.card, a.source, a.displaced, &price) == STPETE_OK,
                  "price of action %d", r->ids[i]);
            CHECK(price >= 1 && price <= r->rubles, "action %d costs %d R, seat %d has %d R", r->ids[i], price, seat,
                  r->rubles);
            int want = oracle_price(r->st, seat, a.card, a.source, a.displaced);
            CHECK(price == want, "action %d costs %d R, §5 gives %d R", r->ids[i], price, want);
            r->prices[i] = price;
            r->t->priced++;
        }
        CHECK(r->decision != STPETE_DECISION_PUB || a.kind == STPETE_ACTION_PUB, "kind %d in a Pub decision",
              a.kind);
    }
}

/* Every listed action applies on a scratch copy and takes its price; unlisted ones (every id in full-refusal games,
 * UNLISTED_SAMPLE drawn ones otherwise) are refused with a message and leave the state unchanged. Leaves the
 * position in r->before. */
static void check_apply_and_refuse(game_run *r)
{
    game_ctx *g = &r->gc;
    int move = r->move;
    for (size_t i = 0; i < r->n; i++) {
        stpete_action a;
        stpete_action_decode(r->ids[i], &a);
        CHECK(stpete_state_copy(r->scratch, r->st) == STPETE_OK, "copy");
        int rc = stpete_state_apply(r->scratch, r->ids[i]);
        CHECK(rc == STPETE_OK, "listed action %d refused (%d): %s", r->ids[i], rc,
              stpete_state_last_error(r->scratch));
        check_money_after(r->scratch, &a, r->seat, r->rubles, r->vp, r->prices[i], g, move);
        check_apply_random(r->st, r->before, r->scratch, r->ids, i, r->n, r->plan->players, g, move);
        r->t->listed_applied++;
    }
    CHECK(stpete_state_copy(r->before, r->st) == STPETE_OK, "copy");
    int tries = r->plan->full_refusal ? STPETE_NUM_DISTINCT_ACTIONS : UNLISTED_SAMPLE;
    for (int k = 0; k < tries; k++) {
        int id = k;
        if (!r->plan->full_refusal) {
            do
                id = rng_below(&r->rng, STPETE_NUM_DISTINCT_ACTIONS);
            while (r->mask[id]);
        } else if (r->mask[id]) {
            continue;
        }
        int rc = stpete_state_apply(r->st, id);
        CHECK(rc == STPETE_E_ILLEGAL_ACTION, "unlisted action %d gave %d", id, rc);
        CHECK(stpete_state_last_error(r->st)[0] != '\0', "no error message for unlisted action %d", id);
        CHECK(tg_equal(r->st, r->before) == 1, "refused action %d changed the state", id);
        r->t->unlisted_applied++;
    }
}

/* Choose (uniformly, or pass-averse) and apply; the result equals the same action applied to a copy, takes its
 * price, and the transition from r->before follows §4 (check_transition); the events seen so far agree. */
static void play_chosen(game_run *r)
{
    game_ctx *g = &r->gc;
    int move = r->move;
    int n = (int)r->n;
    int pick = rng_below(&r->rng, n);
    if (r->plan->policy == BUSY && r->ids[pick] == 0 && n > 1 && rng_below(&r->rng, 10) != 0)
        pick = 1 + rng_below(&r->rng, n - 1); /* pass is id 0, always first when listed */
    int id = r->ids[pick];
    stpete_action a;
    stpete_action_decode(id, &a);
    r->t->chosen[a.kind]++;
    CHECK(stpete_state_copy(r->scratch, r->st) == STPETE_OK, "copy");
    CHECK(stpete_state_apply(r->scratch, id) == STPETE_OK, "apply %d to the copy", id);
    int rc = STPETE_OK;
    if (r->plan->use_events) { /* the playout step, whose events the callback reconciles below */
        int got = -1;
        rc = stpete_state_apply_random(r->st, (uint64_t)pick, STPETE_PICK_MODULO, &got);
        CHECK(got == id, "apply_random(%d) applied %d, not %d", pick, got, id);
    } else {
        rc = stpete_state_apply(r->st, id);
    }
    CHECK(rc == STPETE_OK, "apply %d: %d %s", id, rc, stpete_state_last_error(r->st));
    CHECK(stpete_state_last_error(r->st)[0] == '\0', "error message after success");
    CHECK(tg_equal(r->st, r->scratch) == 1, "apply(%d) differs between a state and its copy", id);
    check_money_after(r->st, &a, r->seat, r->rubles, r->vp, r->prices[pick], g, move);
    view pre_view, post_view;
    view_of(r->before, r->plan->players, &pre_view); /* `before` still holds the position before the move */
    view_of(r->st, r->plan->players, &post_view);
    check_transition(&pre_view, &post_view, &a, g, move, r->t);
    if (r->plan->use_events)
        CHECK(r->acc.errors == 0, "event check: %s", r->acc.first_error);
}

/* One node: the listing, the decision, the prices, every listed and some unlisted actions, then the move. Returns
 * 1 when the game is over. */
static int play_node(game_run *r)
{
    if (check_listing(r))
        return 1;
    r->seat = stpete_state_current_player(r->st);
    money_of(r->st, r->seat, &r->rubles, &r->vp);
    check_decision_step(r);
    check_prices(r);
    check_apply_and_refuse(r);
    play_chosen(r);
    return 0;
}

/* Seat s's final score (§8): the breakdown adds up to its VP, from the VP it had before the final scoring, with the
 * aristocrat, rubles and hand terms of §8 and the tie-break of the game's option; tallies the extremes. */
static void check_final_score(game_run *r, int s, stpete_score *sc)
{
    const game_ctx *g = &r->gc;
    int move = r->move;
    tally *t = r->t;
    int vp = 0;
    sc->struct_size = sizeof *sc;
    CHECK(stpete_state_get_score(r->st, s, sc) == STPETE_OK, "score");
    CHECK(stpete_state_vp(r->st, s, &vp) == STPETE_OK, "vp");
    CHECK(sc->total == vp, "seat %d breakdown total %d, VP %d", s, sc->total, vp);
    CHECK(sc->total == sc->vp_before + sc->aristocrat_bonus + sc->rubles_bonus + sc->hand_penalty,
          "seat %d breakdown does not add up", s);
    CHECK(sc->vp_before == g->prev_vp[s], "seat %d had %d VP before final scoring, breakdown says %d", s,
          g->prev_vp[s], sc->vp_before);
    CHECK(sc->rubles == stpete_state_rubles(r->st, s), "breakdown rubles");
    CHECK(sc->rubles_bonus == sc->rubles / 10, "rubles bonus");
    size_t hn = 0;
    CHECK(stpete_state_hand(r->st, s, NULL, 0, &hn) != STPETE_E_INVALID_ARGUMENT, "hand size");
    CHECK(sc->hand_cards == (int)hn && sc->hand_penalty == -5 * (int)hn, "hand penalty");
    CHECK(sc->aristocrat_kinds >= 0 && sc->aristocrat_kinds <= 17, "aristocrat kinds %d", sc->aristocrat_kinds);
    int k = sc->aristocrat_kinds;
    CHECK(sc->aristocrat_bonus == (k >= 10 ? 55 : k * (k + 1) / 2), "aristocrat bonus %d for %d kinds",
          sc->aristocrat_bonus, k);
    CHECK(sc->tie_break == (g->tie_total ? sc->rubles : sc->rubles % 10), "tie break %d", sc->tie_break);
    if (vp < 0)
        t->negative_vp++;
    if (hn)
        t->hand_penalties++;
    if ((long)hn > t->max_hand)
        t->max_hand = (long)hn;
    if (vp > t->max_vp)
        t->max_vp = vp;
    if (k > t->max_aristocrat_kinds)
        t->max_aristocrat_kinds = k;
    size_t dn = 0;
    stpete_state_display(r->st, s, NULL, 0, &dn);
    if ((long)dn > t->max_display)
        t->max_display = (long)dn;
}

/* The event stream reproduces the end (§8): one game-over event naming the winners, one final scoring per seat
 * with the state's VP, the scoring and Pub events summing to the VP before the final scoring, the rubles. */
static void check_final_events(game_run *r, unsigned winners, const stpete_score *sc)
{
    const game_ctx *g = &r->gc;
    int move = r->move;
    const ev_acc *acc = &r->acc;
    r->t->event_games++;
    r->t->events += acc->events;
    CHECK(acc->errors == 0, "event check: %s", acc->first_error);
    CHECK(acc->game_over_seen == 1, "%d game-over events", acc->game_over_seen);
    CHECK(acc->game_over_mask == winners, "game-over event mask %#x, winners %#x", acc->game_over_mask, winners);
    for (int s = 0; s < r->plan->players; s++) {
        int vp = 0;
        stpete_state_vp(r->st, s, &vp);
        CHECK(acc->final_seen[s] == 1, "seat %d: %d final scoring events", s, acc->final_seen[s]);
        CHECK(acc->final_vp[s] == vp, "seat %d: final scoring event %d VP, state %d", s, acc->final_vp[s], vp);
        CHECK(acc->vp[s] == sc[s].vp_before, "seat %d: scoring + Pub events give %ld VP, state had %d", s,
              acc->vp[s], sc[s].vp_before);
        /* the final scoring event's total is the events' sum plus the §8 bonuses of the breakdown */
        long bonus = sc[s].aristocrat_bonus + sc[s].rubles_bonus + sc[s].hand_penalty;
        CHECK(acc->vp[s] + bonus == acc->final_vp[s], "seat %d: events sum to %ld VP + %ld final bonus, final "
              "scoring event says %d", s, acc->vp[s], bonus, acc->final_vp[s]);
        CHECK(acc->rubles[s] == stpete_state_rubles(r->st, s), "seat %d: events give %ld R, state %d", s,
              acc->rubles[s], stpete_state_rubles(r->st, s));
    }
}

/* The end of the game (§4.6, §8): within the proven bounds, in a final round's trading phase, a stack exhausted,
 * the winners those of the breakdown (highest total, then tie-break), and the events agreeing when reconciled. */
static void check_end_of_game(game_run *r)
{
    const game_ctx *g = &r->gc;
    int move = r->move, players = r->plan->players;
    tally *t = r->t;
    t->games++;
    t->moves += move;
    if (t->min_moves == 0 || move < t->min_moves)
        t->min_moves = move;
    if (move > t->max_moves)
        t->max_moves = move;
    if (stpete_state_round(r->st) > t->max_round)
        t->max_round = stpete_state_round(r->st);
    CHECK(move <= stpete_game_max_length(stpete_state_game(r->st)), "%d actions, more than the proven bound %d "
          "(stpete_game_max_length, doc/format.md)", move, stpete_game_max_length(stpete_state_game(r->st)));
    CHECK(stpete_state_round(r->st) <= 30, "round %d: the bound of doc/format.md is 30 rounds",
          stpete_state_round(r->st));
    CHECK(tg_is_final_round(r->st) == 1, "finished outside a final round");
    CHECK(stpete_state_phase(r->st) == STPETE_PHASE_TRADING, "finished in phase %d", stpete_state_phase(r->st));
    int empty_stack = 0;
    for (int s = 0; s < 4; s++) {
        int empty = stpete_state_stack_size(r->st, s) == 0;
        empty_stack |= empty;
        t->exhausted[s] += empty;
    }
    CHECK(empty_stack, "the game ended with no stack exhausted (§4.6)");
    unsigned winners = 0;
    CHECK(stpete_state_winners(r->st, &winners) == STPETE_OK, "winners");
    CHECK(winners != 0 && winners < (1u << players), "winner mask %#x", winners);
    if (winners & (winners - 1))
        t->shared_wins++;
    stpete_score sc[STPETE_MAX_PLAYERS];
    int best = -1;
    for (int s = 0; s < players; s++) {
        check_final_score(r, s, &sc[s]);
        if (best < 0 || sc[s].total > sc[best].total ||
            (sc[s].total == sc[best].total && sc[s].tie_break > sc[best].tie_break))
            best = s;
    }
    unsigned expect = 0;
    for (int s = 0; s < players; s++)
        if (sc[s].total == sc[best].total && sc[s].tie_break == sc[best].tie_break)
            expect |= 1u << s;
    CHECK(winners == expect, "winners %#x, breakdown says %#x", winners, expect);
    if (r->plan->use_events)
        check_final_events(r, winners, sc);
}

/* One game of the plan, checked at every node (play_node) and at its end (check_end_of_game). */
static void conf_play_game(const game_plan *plan, tally *t)
{
    game_run run;
    game_run *r = &run;
    conf_start_game(r, plan, t);
    while (!play_node(r))
        r->move++;
    check_end_of_game(r);
    stpete_state_free(r->before);
    stpete_state_free(r->scratch);
    stpete_state_free(r->st);
    stpete_game_free(r->game);
}

static int games_per_count(void)
{
    return test_games("STPETE_CONFORMANCE_GAMES", DEFAULT_GAMES);
}

static void run_conformance(int players, int ed)
{
    load_cards(ed);
    int games = ed == 2 ? games_per_count() / 4 : games_per_count();
    tally t;
    memset(&t, 0, sizeof t);
    clock_t start = clock();
    int busy = games / BUSY_GAMES_DIV;
    for (int i = 0; i < games + busy; i++) {
        game_plan plan;
        plan.players = players;
        plan.seed = UINT64_C(1000003) * (uint64_t)players + (uint64_t)i;
        plan.policy = i < games ? UNIFORM : BUSY;
        plan.full_mask = i < FULL_MASK_GAMES || (i >= games && i < games + FULL_MASK_GAMES / 4);
        plan.full_refusal = i < FULL_REFUSAL_GAMES || (i >= games && i < games + FULL_REFUSAL_GAMES);
        plan.use_events = i % 2 == 1;
        conf_play_game(&plan, &t);
    }
    double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
    double mean = (double)t.moves / (double)(t.games ? t.games : 1);
    print_message("# %d players: %ld games (%d uniform, %d pass-averse) in %.2f s, %ld nodes, moves/game min %ld "
                  "mean %.1f max %ld, max round %ld, max legal %ld\n",
                  players, t.games, games, busy, secs, t.nodes, t.min_moves, mean, t.max_moves, t.max_round,
                  t.max_legal);
    print_message("# %d players: decisions turn %ld observatory %ld pub %ld; chosen pass %ld buy %ld play %ld take %ld "
                  "obs %ld obs-buy %ld obs-take %ld obs-discard %ld pub %ld\n",
                  players, t.decisions[0], t.decisions[1], t.decisions[2], t.chosen[0], t.chosen[1], t.chosen[2],
                  t.chosen[3], t.chosen[4], t.chosen[5], t.chosen[6], t.chosen[7], t.chosen[8]);
    print_message("# %d players: listed applied %ld, prices checked %ld, unlisted refused %ld, is_legal checks %ld, "
                  "event games %ld (%ld events), shared wins %ld, negative final VP %ld, hand penalties %ld\n",
                  players, t.listed_applied, t.priced, t.unlisted_applied, t.is_legal_checks, t.event_games, t.events,
                  t.shared_wins, t.negative_vp, t.hand_penalties);
    print_message("# %d players: loaded positions compared with the played ones: %ld\n", players, t.loaded);
    print_message("# %d players: transitions checked: %ld phase changes, %ld round changes; legal sets matched by the "
                  "oracle at %ld nodes\n",
                  players, t.phase_changes, t.round_changes, t.oracle_nodes);
    print_message("# %d players: games ending with an empty stack: worker %ld building %ld aristocrat %ld trading %ld; "
                  "max display %ld cards, max aristocrat kinds %ld, max final VP %ld, max hand %ld\n",
                  players, t.exhausted[0], t.exhausted[1], t.exhausted[2], t.exhausted[3], t.max_display,
                  t.max_aristocrat_kinds, t.max_vp, t.max_hand);
    assert_int_equal(t.games, games + busy);
    /* random play must reach every kind of decision and action, or the checks above prove little */
    if (games >= 500) {
        for (int k = 0; k < 9; k++)
            if (t.chosen[k] == 0)
                fail_msg("no action of kind %d was ever chosen in %d games", k, games);
        assert_true(t.decisions[1] > 0 && t.decisions[2] > 0);
    }
}

static void test_conformance_2p(void **unused)
{
    (void)unused;
    run_conformance(2, 1);
}

static void test_conformance_3p(void **unused)
{
    (void)unused;
    run_conformance(3, 1);
}

static void test_conformance_4p(void **unused)
{
    (void)unused;
    run_conformance(4, 1);
}

/* The second-edition preset (§11): its costs, the Mariinsky Theater's VP and the buy-only first worker phase are
 * in the oracle; a quarter as many games. */
static void test_conformance_edition2(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++)
        run_conformance(players, 2);
}

/* A chance outcome of st drawn with its probability (stpete_state_chance_outcomes()) from the tests' generator
 * rng. */
static int draw_outcome(const stpete_state *st, uint64_t *rng)
{
    int id;
    int outcomes[STPETE_MAX_LEGAL_ACTIONS];
    double p[STPETE_MAX_LEGAL_ACTIONS];
    size_t k = 0;
    stpete_state_chance_outcomes(st, outcomes, p, STPETE_MAX_LEGAL_ACTIONS, &k);
    double u = (double)(rng_next(rng) >> 11) * 0x1.0p-53, acc = 0;
    size_t i = 0;
    while (i + 1 < k && (acc += p[i]) <= u)
        i++;
    id = outcomes[i];
    return id;
}

/* The listing (ids, n), is_legal() and the mask agree on every id, ascending; at a chance node the mask is empty. */
static void check_listing_agrees(const stpete_state *st, const int *ids, size_t n, const uint8_t *mask, int chance,
                                 const game_ctx *g, int move)
{
    size_t next = 0;
    for (int id = 0; id < ALL_IDS; id++) {
        int listed = next < n && ids[next] == id;
        next += (size_t)listed;
        CHECK(tg_is_legal(st, id) == listed, "is_legal(%d) = %d, listed %d (chance %d)", id,
              tg_is_legal(st, id), listed, chance);
        if (id < STPETE_NUM_DISTINCT_ACTIONS)
            CHECK(mask[id] == (listed && !chance), "mask[%d] = %d", id, mask[id]);
    }
    CHECK(next == n, "listing not ascending");
}

/* Explicit chance mode (stpete_options.chance_mode), both editions, 2-4 players: at every node, chance nodes
 * included (STPETE_CONFORMANCE_GAMES / 200 + 1 games each), the listing (actions or chance outcomes) equals is_legal
 * over every id, the mask holds the listed player
 * actions (none at a chance node), the random pick is the listed id at r % n; every seventh position is also
 * loaded from its JSON and compared. Chance outcomes are drawn by their probabilities. */
static void test_explicit_chance(void **unused)
{
    (void)unused;
    long nodes = 0, chance_nodes = 0, loaded = 0;
    int explicit_games = games_per_count() / 200 + 1; /* 11 per player count and edition; 1 under valgrind */
    for (int ed = 1; ed <= 2; ed++)
        for (int players = 2; players <= 4; players++)
            for (int g = 0; g < explicit_games; g++) {
                load_cards(ed);
                uint64_t seed = UINT64_C(777) * (uint64_t)players + (uint64_t)g;
                stpete_game *game = NULL;
                stpete_state *st = new_state_with(&game, .players = players, .edition = ed, .seed = seed,
                                                  .chance_mode = STPETE_CHANCE_EXPLICIT);
                stpete_state *into = NULL, *applied = NULL; /* the playout step against apply, chance nodes too */
                assert_int_equal(stpete_state_new(game, &into, NULL), STPETE_OK);
                assert_int_equal(stpete_state_new(game, &applied, NULL), STPETE_OK);
                uint64_t rng = seed ^ UINT64_C(0xE8C1), pick_rng = seed;
                game_ctx gc = { players, seed, 0, 0, { 0 } };
                const game_ctx *g = &gc;
                for (int move = 0; !tg_is_terminal(st); move++) {
                    CHECK(move < MAX_MOVES, "the game does not end");
                    int ids[STPETE_MAX_LEGAL_ACTIONS];
                    size_t n = 0;
                    uint8_t mask[STPETE_NUM_DISTINCT_ACTIONS];
                    CHECK(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n) == STPETE_OK && n > 0,
                          "listing");
                    CHECK(stpete_state_legal_action_mask(st, mask, sizeof mask) == STPETE_OK, "mask");
                    int chance = stpete_state_current_player(st) == STPETE_PLAYER_CHANCE;
                    check_listing_agrees(st, ids, n, mask, chance, g, move);
                    check_random_pick(st, ids, n, &pick_rng, g, move);
                    size_t j = (size_t)rng_below(&pick_rng, (int)n);
                    CHECK(stpete_state_copy(applied, st) == STPETE_OK, "copy");
                    CHECK(stpete_state_apply(applied, ids[j]) == STPETE_OK, "apply %d to a copy", ids[j]);
                    check_apply_random(st, into, applied, ids, j, n, players, g, move);
                    if (move % 7 == 0) {
                        check_loaded_position(st, game, &pick_rng, g, move);
                        loaded++;
                    }
                    nodes++;
                    int id = ids[0];
                    if (chance) {
                        id = draw_outcome(st, &rng);
                        chance_nodes++;
                    } else {
                        id = ids[rng_below(&rng, (int)n)];
                    }
                    CHECK(stpete_state_apply(st, id) == STPETE_OK, "apply %d: %s", id, stpete_state_last_error(st));
                }
                stpete_state_free(into);
                stpete_state_free(applied);
                stpete_state_free(st);
                stpete_game_free(game);
            }
    print_message("# explicit chance mode: %ld nodes (%ld chance nodes), %ld loaded positions compared\n", nodes,
                  chance_nodes, loaded);
    assert_true(chance_nodes > 0 && loaded > 0);
}

/* Upper critical value of the chi-square distribution with df degrees of freedom at significance 0.001 (Wilson and
 * Hilferty's cube approximation with z = 3.0902; within 1% for df >= 3). */
static double chi2_critical_001(int df)
{
    double k = (double)df, c = 1.0 - 2.0 / (9.0 * k) + 3.0902 * sqrt(2.0 / (9.0 * k));
    return k * c * c * c;
}

/* The random pick is uniform over the listed actions: at 40 positions of random games (2-4 players, with at least 4
 * legal actions), 200 picks per listed action with splitmix64 numbers from the fixed seed 20261125; the counts per
 * listed action must pass a chi-square test at significance 0.001 at each position (df = n - 1), and every pick
 * must be a listed action. */
static void test_random_pick_uniform(void **unused)
{
    (void)unused;
    load_cards(1);
    uint64_t rng = UINT64_C(20261125);
    int positions = 0, worst_df = 0;
    double worst = 0;
    for (int players = 2; players <= 4; players++) {
        stpete_game *game = NULL;
        stpete_state *st = new_state_with(&game, .players = players, .seed = (uint64_t)players);
        game_ctx gc = { players, (uint64_t)players, 0, 0, { 0 } };
        const game_ctx *g = &gc;
        int move = 0;
        for (int target = positions + 14; positions < target && !tg_is_terminal(st);) {
            int ids[STPETE_MAX_LEGAL_ACTIONS];
            size_t n = 0;
            stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
            if (n >= 4 && rng_below(&rng, 5) == 0) {
                long count[STPETE_MAX_LEGAL_ACTIONS] = { 0 };
                long draws = 200L * (long)n;
                for (long d = 0; d < draws; d++) {
                    int id = -1;
                    assert_int_equal(stpete_state_random_action(st, rng_next(&rng), &id), STPETE_OK);
                    size_t i = 0;
                    while (i < n && ids[i] != id)
                        i++;
                    CHECK(i < n, "picked %d, not listed", id);
                    count[i]++;
                }
                double chi2 = 0, expect = (double)draws / (double)n;
                for (size_t i = 0; i < n; i++)
                    chi2 += ((double)count[i] - expect) * ((double)count[i] - expect) / expect;
                double crit = chi2_critical_001((int)n - 1);
                CHECK(chi2 < crit, "position %d: chi-square %.1f >= %.1f (df %zu, significance 0.001)", positions,
                      chi2, crit, n - 1);
                if (chi2 / crit > worst)
                    worst = chi2 / crit, worst_df = (int)n - 1;
                positions++;
            }
            assert_int_equal(stpete_state_apply(st, ids[rng_below(&rng, (int)n)]), STPETE_OK);
            move++;
        }
        stpete_state_free(st);
        stpete_game_free(game);
    }
    print_message("# random pick: %d positions, largest chi-square / critical value %.2f (df %d)\n", positions, worst,
                  worst_df);
    assert_true(positions >= 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conformance_2p),
        cmocka_unit_test(test_conformance_3p),
        cmocka_unit_test(test_conformance_4p),
        cmocka_unit_test(test_conformance_edition2),
        cmocka_unit_test(test_explicit_chance),
        cmocka_unit_test(test_random_pick_uniform),
    };
    return cmocka_run_group_tests_name("conformance", tests, NULL, NULL);
}
