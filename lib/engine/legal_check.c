/* The check of one action id with its reason (stpete_legal_check: inside every apply, stpete_state_is_legal,
 * stpete_state_action_price), from the legality core's functions for the one card the id names (legal.h); the
 * listing (legal_list.c) where a rule reads the whole of it. Its reasons only explain a refusal. */
#include <stdio.h>

#include "engine/legal.h"


/* Shorthand: the action is illegal, with the reason into why (stpete_error_why()). */
#define REFUSE(...) return stpete_error_why(why, why_size, STPETE_E_ILLEGAL_ACTION, __VA_ARGS__)

/* Check buying or playing (card, displaced) from source, the card present there: legal by the listing's functions
 * (legal_plain; for a trading card, the target in legal_displaceable_mask() and legal_target(), §5, §6); its price to
 * mv->price. A refusal says which rule: the target (§6.1) or the price (§5). */
static int check_acquire(const stpete_core *c, seat_ctx *x, int card, int source, int displaced, stpete_move *mv,
                         char *why, size_t why_size)
{
    int lower = source == STPETE_SOURCE_LOWER;
    int before = legal_price_before(x, card, lower);
    int targets_ok = displaced < 0 || ((legal_displaceable_mask(x) >> displaced) & 1);
    int legal = x->rubles >= 1 && /* R5 */
                (displaced < 0 ? legal_plain(x, card, lower) : targets_ok && legal_target(x, before, displaced));
    int price = stpete_price_with(before, displaced >= 0 ? x->cards[displaced].value : 0);
    if (legal) {
        mv->price = price;
        return STPETE_OK;
    }
    int seat = c->current;
    if (!targets_ok) {
        if (displaced == STPETE_CARD_OBSERVATORY && x->p->display[displaced])
            REFUSE("the Observatory of seat %d is face down and cannot be displaced (§7.1, R9)", seat);
        if (displaced == STPETE_CARD_DEBTORS_PRISON && x->p->display[displaced])
            REFUSE("the Debtor's Prison of seat %d is used and cannot be displaced until the next round (§12.6, R22)",
                   seat);
        REFUSE("%s must displace a %s, and the display of seat %d has none (§6)", x->cards[card].name,
               x->cards[displaced].name, seat);
    }
    REFUSE("%s from the %s costs %d R and seat %d has %d R (§5)", x->cards[card].name, stpete_source_phrases[source],
           price, seat, x->rubles);
}

/* Check a chance outcome id (>= STPETE_CHANCE_CARD_FIRST): one of the listed outcomes. */
static int check_chance(const stpete_core *c, int id, char *why, size_t why_size)
{
    if (c->decision != STPETE_DECISION_CHANCE)
        REFUSE(c->rules.chance_mode == STPETE_CHANCE_EXPLICIT
                   ? "chance outcome %d at a player's decision: only a chance node takes one"
                   : "chance outcome %d in sampled mode: the library draws every random event itself", id);
    int ids[LEGAL_CAP];
    size_t n = stpete_legal_chance_outcomes(c, ids);
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return STPETE_OK;
    if (c->chance == CHANCE_MARKERS)
        REFUSE("chance outcome %d is not a deal of the start-player markers for %d players (§3.3)", id,
               c->rules.players);
    int s = c->deal_stack;
    REFUSE("chance outcome %d: the %s stack holds no %s (§%s)", id, stpete_stack_words[s],
           stpete_actions_chance_card(id) < 0 ? "such card"
                                              : stpete_engine_cards(&c->rules)[stpete_actions_chance_card(id)].name,
           c->chance == CHANCE_DRAW ? "7.1" : "4.5");
}

/* A decision on one card held in c->obs_card: buy it, take it into the hand, or put it back / discard it. The
 * Observatory's (§7.1) and the Debtor's Prison's (§12.7.5, R21) differ only in their action kinds, the source of a
 * purchase and the rules a refusal cites. */
typedef struct {
    int back, take, buy;     /* the action kinds: put back or discard, take, buy */
    int source;              /* a purchase's STPETE_SOURCE_* */
    const char *hand_rule;   /* cited when the hand is full */
    const char *held;        /* "<who> <drew or picked>" */
    const char *held_rule;   /* cited when another card is named */
    const char *first;       /* what the seat must first do, with its rule */
} card_decision;

static const card_decision prison_decision = {
    STPETE_ACTION_PRISON_PUT_BACK, STPETE_ACTION_PRISON_TAKE, STPETE_ACTION_PRISON_BUY, STPETE_SOURCE_DISCARD,
    "§12.10, §7.3", "the Debtor's Prison picked", "§12.7.5",
    "buy, take or put back the card picked with the Debtor's Prison (§12.7.5, R21)"};

static const card_decision observatory_decision = {
    STPETE_ACTION_OBSERVATORY_DISCARD, STPETE_ACTION_OBSERVATORY_TAKE, STPETE_ACTION_OBSERVATORY_BUY,
    STPETE_SOURCE_OBSERVATORY, "§7.3", "the Observatory drew", "§7.1",
    "buy, take or discard the card drawn by the Observatory (§7.1)"};

static int check_card_decision(const stpete_core *c, seat_ctx *x, stpete_action a, const card_decision *d,
                               stpete_move *mv, char *why, size_t why_size)
{
    int seat = c->current;
    if (a.kind == d->back)
        return STPETE_OK;
    if (a.kind == d->take) {
        if (!legal_hand_room(x->p))
            REFUSE("the hand of seat %d is at its limit of %d (%s)", seat, stpete_engine_hand_limit(x->p),
                   d->hand_rule);
        return STPETE_OK;
    }
    if (a.kind == d->buy) {
        if (a.card != c->obs_card)
            REFUSE("%s %s, not %s (%s)", d->held, x->cards[c->obs_card].name, x->cards[a.card].name, d->held_rule);
        return check_acquire(c, x, a.card, d->source, a.displaced, mv, why, why_size);
    }
    REFUSE("seat %d must first %s", seat, d->first);
}

/* Using an Observatory now (§7.1, R9): the building phase, a face-up Observatory, a stack of at least 2 cards. */
static int check_observatory_use(const stpete_core *c, const seat_ctx *x, stpete_action a, char *why,
                                 size_t why_size)
{
    int seat = c->current;
    if (!legal_observatory(c, a.stack)) {
        if (c->phase != STPETE_PHASE_BUILDING)
            REFUSE("an Observatory can be used only in the building phase (§7.1, R9)");
        if (stpete_engine_face_up_observatories(x->p) <= 0)
            REFUSE("seat %d has no face-up Observatory (§7.1, R9)", seat);
        REFUSE("an Observatory draws only from a stack of at least 2 cards; this one has %d (§7.1, R9)",
               c->stack_n[a.stack]);
    }
    return STPETE_OK;
}

/* Using the Debtor's Prison now (§12.7.5, R21, R22): its unused owner in the building phase, a card of that type
 * in the discard pile. */
static int check_prison_use(const stpete_core *c, const seat_ctx *x, stpete_action a, char *why, size_t why_size)
{
    int seat = c->current;
    if (!stpete_engine_prison_usable(c, x->p)) {
        if (c->phase != STPETE_PHASE_BUILDING)
            REFUSE("the Debtor's Prison can be used only in the building phase (§12.7.5, R21)");
        if (!x->p->display[STPETE_CARD_DEBTORS_PRISON])
            REFUSE("seat %d has no Debtor's Prison in its display (§12.7.5, R21)", seat);
        if (x->p->prison_used)
            REFUSE("the Debtor's Prison of seat %d is used until the next round (§12.7.5, R22)", seat);
    }
    if (!c->discard[a.card])
        REFUSE("the discard pile holds no %s (§12.7.5, R21)", x->cards[a.card].name);
    return STPETE_OK;
}

/* The move of a decision other than a turn (§7.1, §7.2, §12.7.5-§12.7.7): only that decision's actions. */
static int check_decision_move(const stpete_core *c, seat_ctx *x, stpete_action a, stpete_move *mv, char *why,
                               size_t why_size)
{
    int seat = c->current;
    if (c->decision == STPETE_DECISION_PUB) {
        if (a.kind != STPETE_ACTION_PUB)
            REFUSE("seat %d must first choose how many VP to buy with the Pub (§7.2)", seat);
        int cap = stpete_engine_pub_cap(c, seat);
        if (a.amount > cap)
            REFUSE("seat %d may buy at most %d VP with the Pub now (§7.2, R10)", seat, cap);
        return STPETE_OK;
    }
    if (c->decision == STPETE_DECISION_GUILD_HALL) {
        if (a.kind != STPETE_ACTION_GUILD_HALL)
            REFUSE("seat %d must first split the Guild Hall's 4 into rubles and VP (§12.7.7, R24)", seat);
        return STPETE_OK;
    }
    if (c->decision == STPETE_DECISION_TRADING_HOUSE) {
        if (a.kind != STPETE_ACTION_TRADING_HOUSE)
            REFUSE("seat %d must first decide on the Trading House (§12.7.6, R25)", seat);
        return STPETE_OK; /* asked only with 3 R or more */
    }
    if (c->decision == STPETE_DECISION_PRISON)
        return check_card_decision(c, x, a, &prison_decision, mv, why, why_size);
    return check_card_decision(c, x, a, &observatory_decision, mv, why, why_size); /* STPETE_DECISION_OBSERVATORY */
}

/* §11's buy-only first worker phase of the second edition: a pass only when it is alone, a purchase otherwise.
 * *done is set when the check is complete (a pass). */
static int check_buy_only(const stpete_core *c, stpete_action a, int *done, char *why, size_t why_size)
{
    int seat = c->current;
    *done = 0;
    if (a.kind == STPETE_ACTION_PASS) {
        int ids[LEGAL_CAP];
        *done = 1;
        if (stpete_legal_list(c, ids) > 1 || ids[0] != ID_PASS) /* the listing: pass only when it is alone */
            REFUSE("the first worker phase of the second edition is buy-only: seat %d can afford a board card "
                   "and must buy one (§11)", seat);
        return STPETE_OK;
    }
    if (a.kind != STPETE_ACTION_BUY)
        REFUSE("the first worker phase of the second edition is buy-only: no %s (§11)",
               a.kind == STPETE_ACTION_TAKE ? "taking into hand" : a.kind == STPETE_ACTION_PLAY ? "playing from hand"
                                                                                         : "Observatory");
    return STPETE_OK;
}

/* The move of a turn (§4.2): its kind, the card present where it comes from, its price (check_acquire). */
static int check_turn_move(const stpete_core *c, seat_ctx *x, stpete_action a, stpete_move *mv, char *why,
                           size_t why_size)
{
    int seat = c->current;
    int hand_limit = stpete_engine_hand_limit(x->p);
    switch (a.kind) {
    case STPETE_ACTION_PASS:
        return STPETE_OK;
    case STPETE_ACTION_BUY:
    case STPETE_ACTION_TAKE:
        /* present: stpete_bytes_find8 reads the row's match mask, as legal_source_types() does (stpete_bytes_match8) */
        mv->index = stpete_engine_row_find(c->row[a.source], c->row_n[a.source], a.card);
        if (mv->index < 0)
            REFUSE("there is no %s in the %s (§4.2)", x->cards[a.card].name, stpete_source_phrases[a.source]);
        if (a.kind == STPETE_ACTION_TAKE) {
            if (!legal_hand_room(x->p))
                REFUSE("the hand of seat %d is at its limit of %d (§4.2, §7.3)", seat, hand_limit);
            return STPETE_OK;
        }
        return check_acquire(c, x, a.card, a.source, a.displaced, mv, why, why_size);
    case STPETE_ACTION_PLAY:
        mv->index = stpete_bytes_find4(x->p->hand, x->p->hand_n, a.card);
        if (mv->index < 0)
            REFUSE("seat %d has no %s in hand (§4.2)", seat, x->cards[a.card].name);
        return check_acquire(c, x, a.card, STPETE_SOURCE_HAND, a.displaced, mv, why, why_size);
    case STPETE_ACTION_OBSERVATORY:
        return check_observatory_use(c, x, a, why, why_size);
    case STPETE_ACTION_PUB:
        REFUSE("a Pub purchase is possible only right after building scoring (§7.2)");
    case STPETE_ACTION_PRISON: /* §12.7.5, R21, §12.13 case 2: the owner of an unused Prison, in its display */
        return check_prison_use(c, x, a, why, why_size);
    case STPETE_ACTION_GUILD_HALL:
        REFUSE("the Guild Hall is split only right after building scoring (§12.7.7, R24)");
    case STPETE_ACTION_TRADING_HOUSE:
        REFUSE("the Trading House is used only right after building scoring (§12.7.6, R25)");
    case STPETE_ACTION_PRISON_BUY:
    case STPETE_ACTION_PRISON_TAKE:
    case STPETE_ACTION_PRISON_PUT_BACK:
        REFUSE("there is no card picked with the Debtor's Prison to resolve (§12.7.5)");
    default:
        REFUSE("there is no Observatory draw to resolve (§7.1)");
    }
}

int stpete_legal_check(const stpete_core *c, int id, stpete_move *mv, char *why, size_t why_size)
{
    if (c->decision == STPETE_DECISION_GAME_OVER) {
        if (why)
            snprintf(why, why_size, "the game is over (§4.6)");
        return STPETE_E_GAME_OVER;
    }
    mv->id = id;
    mv->index = -1;
    mv->price = 0;
    if (stpete_actions_is_chance(id))
        return check_chance(c, id, why, why_size);
    if (c->decision == STPETE_DECISION_CHANCE)
        REFUSE("a chance node: the next step is a random event; apply one of its outcomes "
               "(stpete_state_chance_outcomes())");
    stpete_action a;
    stpete_actions_decode(id, &a);
    mv->a = a;
    seat_ctx x = legal_seat_of(c);
    if (c->decision != STPETE_DECISION_TURN)
        return check_decision_move(c, &x, a, mv, why, why_size);
    if (stpete_engine_buy_only(c)) { /* §11: the first worker phase of the second edition */
        int done, rc = check_buy_only(c, a, &done, why, why_size);
        if (rc || done)
            return rc;
    }
    return check_turn_move(c, &x, a, mv, why, why_size);
}

