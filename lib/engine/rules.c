/* The rules engine on a plain position: setup (§3), apply and every automatic step that follows an action
 * (§4.3-§4.6, §7.1, §7.2, §8). Events go to the sink it is given (NULL: nobody listens); legality is legal*.c's.
 *
 * Randomness. Every random event (a card dealt, §4.5; the start-player markers, §3.3; an Observatory draw, §7.1)
 * goes through one place per kind. In sampled mode the event is drawn at once from the state's PRNG (the stacks
 * were shuffled at setup, §3.1). In explicit-chance mode the engine stops at a chance node (decision
 * STPETE_DECISION_CHANCE, core.chance says which event) and resumes when the caller applies an outcome: a deal in
 * progress (deal_stack, deal_to, deal_then) continues card by card. Both modes run the same steps in the same
 * order, so a sampled game and the explicit game given the same outcomes are the same game. */
#include <string.h>

#include "engine/engine.h"

#define EMIT(kind, ...) STPETE_EMIT(sink, c, kind, __VA_ARGS__)

/* ---- small helpers ----------------------------------------------------------------------------- */

static int board_total(const stpete_core *c)
{
    return c->row_n[0] + c->row_n[1];
}

/* Remove list[i]. The vacated slot is zeroed: bytes past a count are always 0, so equal positions are equal
 * byte for byte (stpete_state_equal). */
static void remove_at(uint8_t *list, uint8_t *n, int i)
{
    for (int k = i + 1; k < *n; k++) /* at most 7 bytes: a loop, not a library call */
        list[k - 1] = list[k];
    list[--(*n)] = 0;
}

/* Pop the top card of a stack, zeroing its slot. */
static int pop_stack(stpete_core *c, int s)
{
    int card = c->stack[s][--c->stack_n[s]];
    c->stack[s][c->stack_n[s]] = 0;
    return card;
}

/* The seat k places to the left of seat (0 <= k < players, §4.1's clockwise turn order): a comparison instead of a
 * remainder, whose division costs more than the rest of a typical apply's arithmetic. */
static int seat_after(int seat, int k, int players)
{
    seat += k;
    return seat >= players ? seat - players : seat;
}

static void next_player(stpete_core *c)
{
    c->current = (uint8_t)seat_after(c->current, 1, c->rules.players);
}

/* ---- random events and deals (§3, §4.5, §4.6, §7.1) --------------------------------------------- */

static int explicit_chance(const stpete_core *c)
{
    return c->rules.chance_mode == STPETE_CHANCE_EXPLICIT;
}

/* Wait for the caller to choose a random event's outcome (explicit-chance mode). */
static void chance_node(stpete_core *c, int kind)
{
    c->chance = (uint8_t)kind;
    c->decision = STPETE_DECISION_CHANCE;
}

/* Remove one card of a type from a stack kept in card-type order (explicit mode); the slot past the count is 0. */
static void take_from_multiset(stpete_core *c, int s, int card)
{
    int i = 0;
    while (c->stack[s][i] != card) /* the caller checked that the stack holds one */
        i++;
    remove_at(c->stack[s], &c->stack_n[s], i);
}

/* A card leaves a stack for the board: the DEAL event, and the last card of a stack starts the final round
 * (§4.6, R4). */
static STPETE_ALWAYS_INLINE void place_dealt(stpete_core *c, int s, int card, const stpete_sink *sink)
{
    c->row[0][c->row_n[0]++] = (uint8_t)card;
    c->public_hash = stpete_engine_hash_mix(c->public_hash, (uint64_t)stpete_actions_chance_id(card));
    EMIT(STPETE_EVENT_DEAL, ev.card = card; ev.stack = s);
    if (c->stack_n[s] == 0 && !c->final_round) {
        c->final_round = 1;
        EMIT(STPETE_EVENT_LAST_ROUND, ev.stack = s);
    }
}

static void start_phase(stpete_core *c, int phase, const stpete_sink *sink);
static void round_steps_after_deal(stpete_core *c, const stpete_sink *sink);

/* Go on with the deal in progress: deal from deal_stack into the upper row until the board holds deal_to cards
 * (8 after a phase, §4.5, R2; 2 per player at setup, §3.4) or the stack is empty ("deal what is left", §4.5), then
 * what follows it. In explicit mode each card is a chance node. Built once per caller of continue_deal(): without a
 * sink, the deal and what follows have no event to build. */
static STPETE_ALWAYS_INLINE void go_on_dealing(stpete_core *c, const stpete_sink *sink)
{
    int s = c->deal_stack;
    int cards = c->deal_to - board_total(c); /* the cards still to deal: as many as fit, at most the stack's */
    if (cards > c->stack_n[s])
        cards = c->stack_n[s];
    if (cards > 0 && explicit_chance(c)) {
        chance_node(c, CHANCE_DEAL);
        return;
    }
    for (; cards > 0; cards--)
        place_dealt(c, s, pop_stack(c, s), sink);
    int then = c->deal_then;
    c->chance = CHANCE_NONE; /* at rest the deal fields are 0: equal positions are equal byte for byte */
    c->deal_stack = c->deal_to = c->deal_then = 0;
    switch (then) {
    case THEN_SETUP:
        start_phase(c, STPETE_PHASE_WORKER, sink); /* §3.5 */
        break;
    case THEN_NEXT_PHASE:
        start_phase(c, c->phase + 1, sink);
        break;
    default:
        round_steps_after_deal(c, sink);
        break;
    }
}

/* go_on_dealing() with its events to a listening sink (out of line). */
STPETE_NOINLINE static void continue_deal_listened(stpete_core *c, const stpete_sink *sink)
{
    go_on_dealing(c, sink);
}

static void continue_deal(stpete_core *c, const stpete_sink *sink)
{
    if (sink)
        continue_deal_listened(c, sink);
    else
        go_on_dealing(c, NULL);
}

static void begin_deal(stpete_core *c, int s, int board, int then, const stpete_sink *sink)
{
    c->deal_stack = (uint8_t)s;
    c->deal_to = (uint8_t)board;
    c->deal_then = (uint8_t)then;
    continue_deal(c, sink);
}

/* The five-player gold disc (§12.3, R18): 2 R more at setup (rubles = 2), and 2 VP at setup and each time it moves
 * (§12.4.1, R19). */
enum { GOLD_DISC_RUBLES = 2, GOLD_DISC_VP = 2 };
static void gold_disc_received(stpete_core *c, int rubles, const stpete_sink *sink)
{
    int seat = stpete_engine_gold_disc(c->markers, c->rules.players);
    if (seat < 0)
        return;
    c->p[seat].rubles = stpete_engine_add_rubles(c->p[seat].rubles, rubles);
    c->p[seat].vp = stpete_engine_add_vp(c->p[seat].vp, GOLD_DISC_VP);
    EMIT(STPETE_EVENT_GOLD_DISC, ev.seat = seat; ev.vp = GOLD_DISC_VP; ev.rubles = rubles);
}

/* The markers are known: deal the workers (§3.4). */
static void markers_dealt(stpete_core *c, const stpete_sink *sink)
{
    c->public_hash =
        stpete_engine_hash_mix(c->public_hash, (uint64_t)stpete_engine_markers_outcome(c->markers, c->rules.players));
    c->chance = CHANCE_NONE;
    gold_disc_received(c, GOLD_DISC_RUBLES, sink); /* 5 players: 27 R and 2 VP (§12.3, R18) */
    begin_deal(c, STPETE_STACK_WORKER, stpete_engine_setup_deal(c->rules.players), THEN_SETUP, sink);
}

void stpete_rules_setup(stpete_core *c, const stpete_rules *rules, uint64_t seed, const stpete_sink *sink)
{
    memset(c, 0, sizeof *c);
    c->rules = *rules;
    c->public_hash = stpete_engine_rules_hash(rules); /* the public history starts with the rules */
    c->rubles_recalled = 1; /* from here every income and price is public: everyone can count every purse (§9) */
    stpete_rng_seed(&c->rng, seed, STPETE_RNG_STREAM_DEAL);
    const card_def *cards = stpete_engine_cards(rules); /* 116 cards, or 144 with the New Society (§12.2) */
    for (int t = 0; t < CARD_TYPES_ALL; t++) { /* in card-type order: explicit mode keeps it so */
        int s = stpete_cards_stack(t);
        for (int k = 0; k < cards[t].copies; k++)
            c->stack[s][c->stack_n[s]++] = (uint8_t)t;
    }
    if (!explicit_chance(c))
        for (int s = 0; s < STPETE_NUM_STACKS; s++) /* §3.1 */
            stpete_rng_shuffle(&c->rng, c->stack[s], c->stack_n[s]);
    int n = rules->players;
    for (int i = 0; i < n; i++) /* §3.2 */
        c->p[i].rubles = 25;
    c->round = 1;
    c->phase = STPETE_PHASE_WORKER;
    c->obs_card = -1;
    c->decision = STPETE_DECISION_TURN;
    if (rules->start_markers[0] >= 0) { /* §3.3 [option] explicit assignment */
        for (int k = 0; k < STPETE_NUM_PHASES; k++)
            c->markers[k] = (uint8_t)rules->start_markers[k];
    } else if (explicit_chance(c)) {
        chance_node(c, CHANCE_MARKERS);
        return;
    } else if (n == 5) { /* §12.3, R18: the 4 markers and the gold disc shuffled, one each */
        uint8_t seats[5] = { 0, 1, 2, 3, 4 };
        stpete_rng_shuffle(&c->rng, seats, 5);
        memcpy(c->markers, seats, STPETE_NUM_PHASES);
    } else { /* §3.3: 4 players 1/1/1/1; 3 players a random player gets two; 2 players 2/2 */
        uint8_t seats[STPETE_NUM_PHASES] = { 0, 1, 2, 3 };
        if (n == 2) {
            seats[2] = 0;
            seats[3] = 1;
        } else if (n == 3) {
            seats[3] = (uint8_t)stpete_rng_below(&c->rng, 3);
        }
        stpete_rng_shuffle(&c->rng, seats, STPETE_NUM_PHASES);
        memcpy(c->markers, seats, STPETE_NUM_PHASES);
    }
    markers_dealt(c, NULL);
    stpete_rules_setup_events(c, sink); /* the setup's events, from the position they made: the one home of them */
}

void stpete_rules_setup_events(const stpete_core *c, const stpete_sink *sink)
{
    if (!sink || (c->decision == STPETE_DECISION_CHANCE && c->chance == CHANCE_MARKERS))
        return; /* explicit chance, random markers: nothing has happened yet */
    int seat = stpete_engine_gold_disc(c->markers, c->rules.players); /* 5 players (§12.3, R18) */
    if (seat >= 0)
        EMIT(STPETE_EVENT_GOLD_DISC, ev.seat = seat; ev.vp = GOLD_DISC_VP; ev.rubles = GOLD_DISC_RUBLES);
    if (c->decision == STPETE_DECISION_CHANCE)
        return; /* explicit chance: the workers are dealt by the outcomes that follow (§3.4) */
    for (int i = 0; i < c->row_n[0]; i++) /* the setup deal (§3.4), in the order dealt */
        EMIT(STPETE_EVENT_DEAL, ev.card = c->row[0][i]; ev.stack = STPETE_STACK_WORKER);
    EMIT(STPETE_EVENT_PHASE_START, ev.seat = c->current); /* §3.5 */
}

/* An Observatory draws the top card of a stack (§7.1): its owner decides next. */
static void observatory_drawn(stpete_core *c, int s, int card, const stpete_sink *sink)
{
    c->obs_card = (int8_t)card;
    c->chance = CHANCE_NONE;
    c->deal_stack = 0;
    c->decision = STPETE_DECISION_OBSERVATORY;
    c->public_hash = stpete_engine_hash_mix(c->public_hash, (uint64_t)stpete_actions_chance_id(card));
    EMIT(STPETE_EVENT_OBSERVATORY_DRAW, ev.seat = c->current; ev.card = card; ev.stack = s);
}

void stpete_rules_apply_chance(stpete_core *c, int outcome, const stpete_sink *sink)
{
    if (c->chance == CHANCE_MARKERS) {
        int markers[STPETE_NUM_PHASES];
        if (c->rules.players == 5) /* §12.3: base 5 */
            for (int k = 0, code = outcome - STPETE_NS_CHANCE_MARKERS_FIRST; k < STPETE_NUM_PHASES; k++, code /= 5)
                markers[k] = code % 5;
        else
            stpete_engine_markers_decode(outcome - STPETE_CHANCE_MARKERS_FIRST, markers);
        for (int k = 0; k < STPETE_NUM_PHASES; k++)
            c->markers[k] = (uint8_t)markers[k];
        markers_dealt(c, sink);
        return;
    }
    int card = stpete_actions_chance_card(outcome);
    if (c->chance == CHANCE_DRAW) {
        take_from_multiset(c, c->deal_stack, card);
        observatory_drawn(c, c->deal_stack, card, sink);
        return;
    }
    take_from_multiset(c, c->deal_stack, card);
    place_dealt(c, c->deal_stack, card, sink);
    continue_deal(c, sink);
}

/* ---- the automatic steps ----------------------------------------------------------------------- */

/* §4.4: income of the phase's colour for every player, in turn order from the phase's start player. Built once per
 * caller of score_phase(): without a sink, no event to build. */
static STPETE_ALWAYS_INLINE void score_seats(stpete_core *c, const stpete_sink *sink)
{
    int n = c->rules.players;
    for (int k = 0; k < n; k++) {
        int seat = seat_after(c->markers[c->phase], k, n);
        int unpaid = 0; /* §12.7.9, R26: the Sycophants a seat cannot pay are discarded (stpete_scoring_due) */
        stpete_income in = stpete_scoring_due(c, seat, c->phase, &unpaid);
        int rubles = in.rubles, vp = in.vp;
        for (; unpaid > 0; unpaid--) {
            c->p[seat].display[STPETE_CARD_SYCOPHANT]--;
            c->discard[STPETE_CARD_SYCOPHANT]++;
            EMIT(STPETE_EVENT_SYCOPHANT_DISCARD, ev.seat = seat; ev.card = STPETE_CARD_SYCOPHANT);
        }
        c->p[seat].rubles = stpete_engine_add_rubles(c->p[seat].rubles, rubles);
        c->p[seat].vp = stpete_engine_add_vp(c->p[seat].vp, vp);
        EMIT(STPETE_EVENT_SCORING, ev.seat = seat; ev.rubles = rubles; ev.vp = vp);
    }
}

/* score_seats() with its events to a listening sink (out of line). */
STPETE_NOINLINE static void score_seats_listened(stpete_core *c, const stpete_sink *sink)
{
    score_seats(c, sink);
}

static void score_phase(stpete_core *c, const stpete_sink *sink)
{
    if (sink)
        score_seats_listened(c, sink);
    else
        score_seats(c, NULL);
}

static void final_scoring_step(stpete_core *c, const stpete_sink *sink)
{
    stpete_score s[STPETE_MAX_PLAYERS];
    for (int i = 0; i < c->rules.players; i++)
        stpete_scoring_score(c, i, &s[i]);
    c->decision = STPETE_DECISION_GAME_OVER;
    for (int i = 0; i < c->rules.players; i++) /* all scores first: listeners see the final position */
        c->p[i].vp = s[i].total;
    for (int i = 0; i < c->rules.players; i++) {
        EMIT(STPETE_EVENT_FINAL_SCORING, ev.seat = i; ev.vp = s[i].total; ev.rubles = s[i].rubles;
             ev.amount = s[i].aristocrat_bonus + s[i].rubles_bonus + s[i].hand_penalty);
    }
    EMIT(STPETE_EVENT_GAME_OVER, ev.amount = (int)stpete_scoring_winners(c));
}

static void start_phase(stpete_core *c, int phase, const stpete_sink *sink)
{
    c->phase = (uint8_t)phase;
    c->passes = 0;
    c->decision = STPETE_DECISION_TURN;
    c->current = c->markers[phase];
    EMIT(STPETE_EVENT_PHASE_START, ev.seat = c->current);
}

/* §4.5 after the trading phase, or §4.6 the end of the game. Out of line: finish_phase() stays a frameless jump. */
STPETE_NOINLINE static void end_round(stpete_core *c, const stpete_sink *sink)
{
    if (c->final_round) {
        final_scoring_step(c, sink);
        return;
    }
    int discarded = c->row_n[1];
    for (int i = 0; i < c->row_n[1]; i++) /* (1) lower row to the discard pile */
        c->discard[c->row[1][i]]++;
    memcpy(c->row[1], c->row[0], sizeof c->row[0]); /* (2) upper row moves down (unused slots are 0) */
    c->row_n[1] = c->row_n[0];
    memset(c->row[0], 0, sizeof c->row[0]);
    c->row_n[0] = 0;
    EMIT(STPETE_EVENT_ROUND_END, ev.amount = discarded);
    if (c->round < UINT8_MAX) /* saturates: no real game comes near, and a loaded one must not wrap (§4.6) */
        c->round++;
    c->phase = STPETE_PHASE_WORKER;
    begin_deal(c, STPETE_STACK_WORKER, STPETE_BOARD_SIZE, THEN_ROUND, sink); /* (3) */
}

/* §4.5 steps 4 and 5, once the end of round's workers are dealt. */
static void round_steps_after_deal(stpete_core *c, const stpete_sink *sink)
{
    /* (4) markers to the left neighbour; with 5 players two seats on, the gold disc too (§12.4.1, R19 [option: one
     * seat]), and its new holder scores 2 VP */
    int step = c->rules.players == 5 && !c->rules.markers_one_seat ? 2 : 1;
    for (int k = 0; k < STPETE_NUM_PHASES; k++)
        c->markers[k] = (uint8_t)seat_after(c->markers[k], step, c->rules.players);
    EMIT(STPETE_EVENT_MARKERS_MOVED, if (step == 2) ev.amount = step);
    gold_disc_received(c, 0, sink);
    for (int i = 0; i < c->rules.players; i++) { /* (5) Observatories face up, the Debtor's Prison unused (§12.4.5) */
        c->p[i].obs_used = 0;
        c->p[i].prison_used = 0;
    }
    start_phase(c, STPETE_PHASE_WORKER, sink);
}

/* Deal the next phase's cards (§4.5) and start it, or end the round. */
static void finish_phase(stpete_core *c, const stpete_sink *sink)
{
    if (c->phase == STPETE_PHASE_TRADING) {
        end_round(c, sink);
        return;
    }
    begin_deal(c, c->phase + 1, STPETE_BOARD_SIZE, THEN_NEXT_PHASE, sink);
}

/* Pub step (§7.2): ask the next Pub owner with a choice, in turn order from the building start player. */
static void next_pub(stpete_core *c, const stpete_sink *sink)
{
    int n = c->rules.players;
    while (c->pub_next < n) {
        int seat = seat_after(c->markers[STPETE_PHASE_BUILDING], c->pub_next, n);
        c->pub_next++;
        if (stpete_engine_pub_cap(c, seat) > 0) {
            c->decision = STPETE_DECISION_PUB;
            c->current = (uint8_t)seat;
            return;
        }
    }
    c->pub_next = 0;
    c->decision = STPETE_DECISION_TURN;
    finish_phase(c, sink);
}

/* The seat owning a card type, first in turn order from the building phase's start player, or -1 (the Guild Hall
 * and the Trading House have one copy each, §12.2.3). */
static int building_owner(const stpete_core *c, int card)
{
    int n = c->rules.players;
    for (int k = 0; k < n; k++) {
        int seat = seat_after(c->markers[STPETE_PHASE_BUILDING], k, n);
        if (c->p[seat].display[card])
            return seat;
    }
    return -1;
}

/* §12.4.3 step 3, R23, R25: the Trading House owner with 3 R or more may buy once; then the Pub step. */
static void trading_house_step(stpete_core *c, const stpete_sink *sink)
{
    int seat = building_owner(c, STPETE_CARD_TRADING_HOUSE);
    if (seat >= 0 && c->p[seat].rubles >= TRADING_HOUSE_RUBLES) {
        c->decision = STPETE_DECISION_TRADING_HOUSE;
        c->current = (uint8_t)seat;
        return;
    }
    c->pub_next = 0;
    next_pub(c, sink);
}

/* §12.4.3 step 2, R23, R24: the Guild Hall owner splits its 4; then the Trading House. */
static void guild_hall_step(stpete_core *c, const stpete_sink *sink)
{
    int seat = building_owner(c, STPETE_CARD_GUILD_HALL);
    if (seat >= 0) {
        c->decision = STPETE_DECISION_GUILD_HALL;
        c->current = (uint8_t)seat;
        return;
    }
    trading_house_step(c, sink);
}

/* §4.3: N consecutive passes end the action part; then scoring (§4.4), the Pub step, new cards (§4.5). */
static void end_action_part(stpete_core *c, const stpete_sink *sink)
{
    c->passes = 0;
    if (c->phase == STPETE_PHASE_TRADING) {
        finish_phase(c, sink);
        return;
    }
    score_phase(c, sink);
    if (c->phase == STPETE_PHASE_BUILDING) {
        if (c->rules.new_society) { /* §12.4.3: Guild Hall, Trading House, then the Pub */
            guild_hall_step(c, sink);
            return;
        }
        c->pub_next = 0;
        next_pub(c, sink);
        return;
    }
    finish_phase(c, sink);
}

/* ---- apply ------------------------------------------------------------------------------------- */

/* Put (card, displaced) into seat's display for price rubles (§4.2, §6). The card enters the display before the
 * DISPLACE event, so that a listener sees all 116 cards in place (§2). */
static void acquire(stpete_core *c, int seat, int card, int displaced, int price, const stpete_sink *sink)
{
    player_state *p = &c->p[seat];
    p->rubles -= price;
    p->display[card]++;
    if (displaced >= 0) {
        p->display[displaced]--;
        c->discard[displaced]++;
        EMIT(STPETE_EVENT_DISPLACE, ev.seat = seat; ev.card = displaced);
    }
}

/* The Observatory draw is resolved (§7.1). The decision goes back to an ordinary turn at once, so that a listener
 * querying the state (e.g. its legal actions) never sees an Observatory decision without a drawn card. */
static void clear_draw(stpete_core *c)
{
    c->obs_card = -1;
    c->decision = STPETE_DECISION_TURN;
}

/* An action other than a pass was taken: reset the pass count and hand the turn on (§4.1, §4.3). */
static void acted(stpete_core *c)
{
    c->passes = 0;
    c->decision = STPETE_DECISION_TURN;
    next_player(c);
}

/* The card held by the decision (c->obs_card: drawn by the Observatory, §7.1, or picked with the Debtor's Prison,
 * §12.7.5, R21) goes to the discard pile; event kind is announced for seat, and the turn is handed on. */
static void back_to_discard(stpete_core *c, int seat, int kind, const stpete_sink *sink)
{
    int card = c->obs_card;
    c->discard[card]++;
    clear_draw(c);
    EMIT(kind, ev.seat = seat; ev.card = card);
    acted(c);
}

int stpete_rules_apply(stpete_core *c, int id, const stpete_sink *sink, char *why, size_t why_size)
{
    stpete_move mv;
    int rc = stpete_legal_check(c, id, &mv, why, why_size);
    if (rc == STPETE_OK)
        stpete_rules_apply_move(c, &mv, sink);
    return rc;
}

/* One function: one case per action kind (§4.2, §7.1, §7.2), every kind's effect side by side. An action at a
 * player's decision (not a chance outcome); inlined twice by stpete_rules_apply_move(), with a sink and without one
 * (then every EMIT vanishes at compile time). */
static STPETE_ALWAYS_INLINE void apply_action(stpete_core *c, const stpete_move *mv, const stpete_sink *sink)
{
    c->public_hash = stpete_engine_hash_mix(c->public_hash, (uint64_t)mv->id);
    const stpete_action *a = &mv->a; /* read where used: no copy of the fields a kind does not need */
    int seat = c->current;
    player_state *p = &c->p[seat];
    switch (a->kind) {
    case STPETE_ACTION_PASS:
        c->passes++;
        EMIT(STPETE_EVENT_PASS, ev.seat = seat; ev.amount = c->passes);
        if (c->passes >= c->rules.players)
            end_action_part(c, sink);
        else
            next_player(c);
        break;
    case STPETE_ACTION_BUY:
    case STPETE_ACTION_PLAY:
    case STPETE_ACTION_OBSERVATORY_BUY:
    case STPETE_ACTION_PRISON_BUY: {
        int price = mv->price;
        if (a->kind == STPETE_ACTION_BUY) {
            stpete_engine_row_remove(c->row[a->source], &c->row_n[a->source], mv->index);
        } else if (a->kind == STPETE_ACTION_PLAY) {
            stpete_bytes_remove4(p->hand, &p->hand_n, mv->index);
            unsigned low = (1u << mv->index) - 1u; /* the known flags move with the cards */
            p->hand_known = (uint8_t)((p->hand_known & low) | (p->hand_known >> 1 & ~low));
        } else {
            clear_draw(c);
        }
        acquire(c, seat, a->card, a->displaced, price, sink);
        EMIT(a->kind == STPETE_ACTION_PLAY ? STPETE_EVENT_PLAY : STPETE_EVENT_BUY, ev.seat = seat; ev.card = a->card;
             ev.source = a->source; ev.displaced = a->displaced; ev.price = price);
        acted(c);
        break;
    }
    case STPETE_ACTION_TAKE:
    case STPETE_ACTION_OBSERVATORY_TAKE:
    case STPETE_ACTION_PRISON_TAKE: {
        int card = a->card;
        if (a->kind == STPETE_ACTION_TAKE) {
            stpete_engine_row_remove(c->row[a->source], &c->row_n[a->source], mv->index);
        } else {
            card = c->obs_card;
            clear_draw(c);
        }
        p->hand_known |= (uint8_t)(1u << p->hand_n); /* taken in view of all (§7.1, §9) */
        p->hand[p->hand_n++] = (uint8_t)card;
        EMIT(STPETE_EVENT_TAKE, ev.seat = seat; ev.card = card; ev.source = a->source);
        acted(c);
        break;
    }
    case STPETE_ACTION_OBSERVATORY:
        p->obs_used++;
        c->passes = 0;
        c->deal_stack = (uint8_t)a->stack;
        if (explicit_chance(c))
            chance_node(c, CHANCE_DRAW);
        else
            observatory_drawn(c, a->stack, pop_stack(c, a->stack), sink);
        break;
    case STPETE_ACTION_OBSERVATORY_DISCARD:
        back_to_discard(c, seat, STPETE_EVENT_OBSERVATORY_DISCARD, sink);
        break;
    case STPETE_ACTION_PRISON: /* §12.7.5, R21: the card leaves the pile, shown to all; the Prison is used */
        p->prison_used = 1;
        c->passes = 0;
        c->discard[a->card]--;
        c->obs_card = (int8_t)a->card;
        c->decision = STPETE_DECISION_PRISON;
        EMIT(STPETE_EVENT_PRISON, ev.seat = seat; ev.card = a->card; ev.source = STPETE_SOURCE_DISCARD);
        break;
    case STPETE_ACTION_PRISON_PUT_BACK:
        back_to_discard(c, seat, STPETE_EVENT_PRISON_PUT_BACK, sink);
        break;
    case STPETE_ACTION_GUILD_HALL: /* §12.7.7, R24 */
        p->rubles = stpete_engine_add_rubles(p->rubles, a->amount);
        p->vp = stpete_engine_add_vp(p->vp, GUILD_HALL_UNITS - a->amount);
        EMIT(STPETE_EVENT_GUILD_HALL, ev.seat = seat; ev.rubles = a->amount; ev.vp = GUILD_HALL_UNITS - a->amount;
             ev.amount = a->amount);
        trading_house_step(c, sink);
        break;
    case STPETE_ACTION_TRADING_HOUSE: /* §12.7.6, R25 */
        if (a->amount) {
            p->rubles -= TRADING_HOUSE_RUBLES;
            p->vp = stpete_engine_add_vp(p->vp, TRADING_HOUSE_VP);
        }
        EMIT(STPETE_EVENT_TRADING_HOUSE, ev.seat = seat; ev.amount = a->amount;
             ev.rubles = a->amount ? TRADING_HOUSE_RUBLES : 0; ev.vp = a->amount ? TRADING_HOUSE_VP : 0);
        c->decision = STPETE_DECISION_TURN;
        c->pub_next = 0;
        next_pub(c, sink);
        break;
    case STPETE_ACTION_PUB: {
        int price = stpete_price_pub(a->amount);
        p->rubles -= price;
        p->vp = stpete_engine_add_vp(p->vp, a->amount);
        EMIT(STPETE_EVENT_PUB, ev.seat = seat; ev.amount = a->amount; ev.vp = a->amount; ev.rubles = price);
        next_pub(c, sink);
        break;
    }
    default:
        break;
    }
}

/* The move with its events to a listening sink: apply_action() built with the EMITs (out of line: the playout step
 * without listeners does not pay for the event's frame). */
STPETE_NOINLINE static void apply_listened(stpete_core *c, const stpete_move *mv, const stpete_sink *sink)
{
    apply_action(c, mv, sink);
}

void stpete_rules_apply_move(stpete_core *c, const stpete_move *mv, const stpete_sink *sink)
{
    /* a successfully checked (or listed) id is a chance outcome exactly at a chance node (stpete_legal_check) */
    if (c->decision == STPETE_DECISION_CHANCE)
        stpete_rules_apply_chance(c, mv->id, sink);
    else if (sink)
        apply_listened(c, mv, sink);
    else
        apply_action(c, mv, NULL);
}
