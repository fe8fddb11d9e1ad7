/* The invariants of a position (§2-§9): what a position must satisfy for the engine to play on from it. One
 * function, on a plain position, with a reason; the JSON reader parses a document into a stpete_core and calls it
 * (a loaded position is accepted iff it passes), and the options' marker rule is checked by the same code. No
 * jansson here: the engine layer knows nothing of documents. */
#include <stdarg.h>
#include <stdio.h>

#include "engine/engine.h"

int stpete_validate_markers(const int markers[STPETE_NUM_PHASES], int players, char *why, size_t why_size)
{
    int fault = stpete_engine_markers_fault(markers, players);
    if (fault > 0) {
        int k = fault - 1;
        return stpete_error_why(why, why_size, STPETE_E_INVALID_ARGUMENT,
                             "the %s phase's start-player marker must be held by a seat in [0, %d), not %d (§3.3)",
                             stpete_phase_words[k], players, markers[k]);
    }
    if (fault < 0) {
        int s = -fault - 1, held = 0;
        for (int k = 0; k < STPETE_NUM_PHASES; k++)
            held += markers[k] == s;
        return stpete_error_why(why, why_size, STPETE_E_INVALID_ARGUMENT,
                             "seat %d holds %d start-player markers; every seat holds 1 or 2 (§3.3, R15)", s, held);
    }
    return STPETE_OK;
}

/* Shorthand: an inconsistent position, with the reason into why (stpete_error_why()). */
#define INCONSISTENT(...) stpete_error_why(why, why_size, STPETE_E_INCONSISTENT, __VA_ARGS__)

/* Copies of each card type in a multiset (display, discard pile): at most its number of copies (§2). */
static int check_copies(const card_def *cards, const uint8_t counts[DISPLAY_CAP], const char *path, char *why,
                        size_t why_size)
{
    for (int t = 0; t < DISPLAY_CAP; t++)
        if (counts[t] > (t < CARD_TYPES_ALL ? cards[t].copies : 0))
            return INCONSISTENT("%s: more than the %d copies of %s (§2)", path, cards[t].copies,
                                cards[t].name);
    return STPETE_OK;
}

/* A chance node is one the engine can reach and go on from (explicit-chance mode, §3.3, §4.5, §7.1). */
static int check_chance_node(const stpete_core *c, const card_def *cards, char *why, size_t why_size)
{
    (void)cards;
    int n = c->rules.players, board = c->row_n[0] + c->row_n[1];
    if ((c->decision == STPETE_DECISION_CHANCE) != (c->chance != CHANCE_NONE))
        return INCONSISTENT("chance: set exactly when the decision is \"chance\"");
    if (c->chance == CHANCE_NONE)
        return STPETE_OK;
    if (c->rules.chance_mode != STPETE_CHANCE_EXPLICIT)
        return INCONSISTENT("chance: a chance node exists only in the explicit-chance mode");
    switch (c->chance) {
    case CHANCE_MARKERS:
        if (c->round != 1 || c->phase != STPETE_PHASE_WORKER || board != 0 || c->rules.start_markers[0] >= 0)
            return INCONSISTENT("chance: the random marker deal comes first in a game without explicit markers, "
                                "before any card is dealt (§3.3)");
        return STPETE_OK;
    case CHANCE_DRAW:
        if (c->phase != STPETE_PHASE_BUILDING || c->p[c->current].obs_used == 0 || c->stack_n[c->deal_stack] < 2)
            return INCONSISTENT("chance: an Observatory draw happens in the building phase, after an Observatory "
                                "was used, from a stack of 2 or more (§7.1)");
        return STPETE_OK;
    default: /* a deal (§3.4, §4.5) */
        if (c->stack_n[c->deal_stack] == 0 || board >= c->deal_to)
            return INCONSISTENT("chance: a deal in progress needs a card in its stack and room on the board (§4.5)");
        if (c->deal_then == THEN_SETUP
                ? c->deal_stack != STPETE_STACK_WORKER || c->deal_to != stpete_engine_setup_deal(n) || c->round != 1 ||
                      c->phase != STPETE_PHASE_WORKER
            : c->deal_then == THEN_NEXT_PHASE
                ? c->phase == STPETE_PHASE_TRADING || c->deal_stack != c->phase + 1 || c->deal_to != STPETE_BOARD_SIZE
                : c->phase != STPETE_PHASE_WORKER || c->deal_stack != STPETE_STACK_WORKER ||
                      c->deal_to != STPETE_BOARD_SIZE)
            return INCONSISTENT("chance: the deal's stack, target and what follows it must be those of §3.4 or §4.5 "
                                "for this phase");
        return STPETE_OK;
    }
}

/* The PRNG, the markers (§3.3, R15) and the stacks (§2; explicit chance: a multiset in card-type order). */
static int check_rng_markers_stacks(const stpete_core *c, const card_def *cards, char *why, size_t why_size)
{
    int n = c->rules.players;
    if (!(c->rng.inc & 1u))
        return INCONSISTENT("rng.inc: must be odd (PCG32 stream)");
    if (c->chance != CHANCE_MARKERS) { /* the markers are dealt (§3.3, R15) */
        int seats[STPETE_NUM_PHASES];
        for (int k = 0; k < STPETE_NUM_PHASES; k++)
            seats[k] = c->markers[k];
        char reason[160];
        if (stpete_validate_markers(seats, n, reason, sizeof reason))
            return INCONSISTENT("start_player_markers: %s", reason);
    }
    for (int s = 0; s < STPETE_NUM_STACKS; s++)
        for (int i = 0; i < c->stack_n[s]; i++) {
            if (stpete_cards_stack(c->stack[s][i]) != s)
                return INCONSISTENT("stacks.%s[%d]: %s belongs to another stack (§2)", stpete_stack_words[s], i,
                                    cards[c->stack[s][i]].name);
            if (c->rules.chance_mode == STPETE_CHANCE_EXPLICIT && i > 0 && c->stack[s][i] < c->stack[s][i - 1])
                return INCONSISTENT("stacks.%s: in explicit-chance mode a stack is a multiset, written in card-type "
                                    "order", stpete_stack_words[s]);
        }
    return STPETE_OK;
}

/* The discard pile, the board's size (§4.5, §12.4.1) and each display with its used Observatories and Prison. */
static int check_places(const stpete_core *c, const card_def *cards, char *why, size_t why_size)
{
    int n = c->rules.players;
    int rc = check_copies(cards, c->discard, "discard", why, why_size);
    if (rc)
        return rc;
    int board_max = n == 5 ? BOARD_MAX : STPETE_BOARD_SIZE; /* 10 only after the 5-player opening (§12.4.1, R20) */
    if (c->row_n[0] + c->row_n[1] > board_max)
        return INCONSISTENT("the board holds %d cards, more than %d (§4.5, §12.4.1)", c->row_n[0] + c->row_n[1],
                            board_max);
    for (int i = 0; i < n; i++) {
        char path[48];
        snprintf(path, sizeof path, "players[%d].display", i);
        rc = check_copies(cards, c->p[i].display, path, why, why_size);
        if (rc)
            return rc;
        if (c->p[i].obs_used > c->p[i].display[STPETE_CARD_OBSERVATORY])
            return INCONSISTENT("players[%d].observatories_used: more than the Observatories owned (§7.1)", i);
        if (c->p[i].prison_used > c->p[i].display[STPETE_CARD_DEBTORS_PRISON])
            return INCONSISTENT("players[%d].prison_used: without a Debtor's Prison in the display (§12.7.5)", i);
    }
    return STPETE_OK;
}

/* §2: every one of the 116 cards (144 with the New Society, §12.2.4) in exactly one place. */
static int check_card_count(const stpete_core *c, const card_def *cards, char *why, size_t why_size)
{
    int n = c->rules.players;
    int count[CARD_TYPES_ALL] = { 0 };
    for (int s = 0; s < STPETE_NUM_STACKS; s++)
        for (int i = 0; i < c->stack_n[s]; i++)
            count[c->stack[s][i]]++;
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < c->row_n[r]; i++)
            count[c->row[r][i]]++;
    for (int i = 0; i < n; i++)
        for (int h = 0; h < c->p[i].hand_n; h++)
            count[c->p[i].hand[h]]++;
    if (c->obs_card >= 0)
        count[c->obs_card]++;
    for (int t = 0; t < CARD_TYPES_ALL; t++) {
        count[t] += c->discard[t];
        for (int i = 0; i < n; i++)
            count[t] += c->p[i].display[t];
        if (count[t] != cards[t].copies)
            return INCONSISTENT("%d copies of %s are placed, the game has %d (§2: 116 cards; §12.2: 144)", count[t],
                                cards[t].name, cards[t].copies);
    }
    return STPETE_OK;
}

/* The decision matches the phase and the drawn or picked card (§7.1, §7.2, §12.7.5-§12.7.7), and the Pub step's
 * count (§7.2). */
static int check_decision(const stpete_core *c, const card_def *cards, char *why, size_t why_size)
{
    (void)cards;
    int n = c->rules.players;
    int ns_decision = c->decision == STPETE_DECISION_PRISON || c->decision == STPETE_DECISION_GUILD_HALL ||
                      c->decision == STPETE_DECISION_TRADING_HOUSE;
    if (ns_decision && !c->rules.new_society)
        return INCONSISTENT("decision \"%s\" exists only with the New Society (§12)",
                            stpete_decision_words[c->decision]);
    if ((c->decision == STPETE_DECISION_OBSERVATORY || c->decision == STPETE_DECISION_PRISON) != (c->obs_card >= 0))
        return INCONSISTENT("observatory_card: set exactly when the decision is \"observatory\" or \"prison\"");
    if ((c->decision == STPETE_DECISION_OBSERVATORY || c->decision == STPETE_DECISION_PUB || ns_decision) &&
        c->phase != STPETE_PHASE_BUILDING)
        return INCONSISTENT("decision \"%s\" happens only in the building phase (§7.1, §7.2, §12.4.3)",
                            stpete_decision_words[c->decision]);
    if (c->decision == STPETE_DECISION_PRISON && !c->p[c->current].prison_used)
        return INCONSISTENT("a Debtor's Prison pick needs the used Prison of the current player (§12.7.5)");
    if (c->decision == STPETE_DECISION_GUILD_HALL && !c->p[c->current].display[STPETE_CARD_GUILD_HALL])
        return INCONSISTENT("a Guild Hall decision needs the Guild Hall of the current player (§12.7.7)");
    if (c->decision == STPETE_DECISION_TRADING_HOUSE &&
        (!c->p[c->current].display[STPETE_CARD_TRADING_HOUSE] || c->p[c->current].rubles < TRADING_HOUSE_RUBLES))
        return INCONSISTENT("a Trading House decision needs the Trading House and 3 R of the current player "
                            "(§12.7.6)");
    if (c->decision == STPETE_DECISION_OBSERVATORY && c->p[c->current].obs_used == 0)
        return INCONSISTENT("an Observatory draw needs a used Observatory of the current player (§7.1)");
    if (c->decision == STPETE_DECISION_PUB && c->p[c->current].display[STPETE_CARD_PUB] == 0)
        return INCONSISTENT("a Pub decision needs a Pub of the current player (§7.2)");
    /* The Pub step asks the owners in turn from the building phase's start player (§7.2): pub_next counts the
     * seats asked, the current one included; 0 outside a Pub decision. */
    if (c->decision == STPETE_DECISION_PUB
            ? c->pub_next == 0 || c->current != (c->markers[STPETE_PHASE_BUILDING] + c->pub_next - 1) % n
            : c->pub_next != 0)
        return INCONSISTENT("pub_next: must count the seats asked in the Pub step, the current player last, and be "
                            "0 outside it (§7.2)");
    return STPETE_OK;
}

/* The end: the final round and a finished game (§4.6, §8, R4). */
static int check_end(const stpete_core *c, const card_def *cards, char *why, size_t why_size)
{
    (void)cards;
    /* The final round begins exactly when a deal takes the last card of a stack (§4.6, R4; an Observatory never
     * takes a stack's last card, §7.1), and stacks are never refilled: final_round is set iff a stack is empty.
     * Without this a loaded game could never end. */
    int empty = -1;
    for (int s = STPETE_NUM_STACKS - 1; s >= 0; s--)
        if (c->stack_n[s] == 0)
            empty = s;
    if (empty >= 0 && !c->final_round)
        return INCONSISTENT("final_round: the %s stack is empty, so this is the final round (§4.6, R4)",
                            stpete_stack_words[empty]);
    if (empty < 0 && c->final_round)
        return INCONSISTENT("final_round: no stack is empty, so no deal has started the final round (§4.6, R4)");
    /* A finished game ended after the final round's trading phase (§4.6, §8): its last N passes were counted and
     * reset, nothing is pending. */
    if (c->decision == STPETE_DECISION_GAME_OVER &&
        (!c->final_round || c->phase != STPETE_PHASE_TRADING || c->passes != 0))
        return INCONSISTENT("decision \"game-over\": a game ends only after the trading phase of the final round, "
                            "with no pass pending (§4.6, §8)");
    return STPETE_OK;
}

/* Each part of a position's invariants, in the order its refusals are reported. */
typedef int invariant_check(const stpete_core *c, const card_def *cards, char *why, size_t why_size);
static invariant_check *const invariant_checks[] = { check_rng_markers_stacks, check_places, check_card_count,
                                                     check_decision, check_end, check_chance_node };

int stpete_validate_position(const stpete_core *c, char *why, size_t why_size)
{
    const card_def *cards = stpete_engine_cards(&c->rules);
    for (size_t i = 0; i < sizeof invariant_checks / sizeof *invariant_checks; i++) {
        int rc = invariant_checks[i](c, cards, why, why_size);
        if (rc)
            return rc;
    }
    return STPETE_OK;
}
