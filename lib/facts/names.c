/* The words of the library: status names, the names of phases, stacks, decisions, sources and event kinds (the
 * same words as the JSON format, doc/format.md, one table each). The options' words are the table of options'
 * (lib/api/options.c). */
#include <stdio.h>
#include <string.h>

#include "facts/facts.h"

const char *const stpete_phase_words[STPETE_NUM_PHASES] = { "worker", "building", "aristocrat", "trading" };
const char *const stpete_stack_words[STPETE_NUM_STACKS] = { "worker", "building", "aristocrat", "trading" };
const char *const stpete_decision_words[8] = { "turn",   "observatory", "pub",       "game-over",
                                               "chance", "prison",      "guild-hall", "trading-house" };
const char *const stpete_source_words[5] = { "upper", "lower", "hand", "observatory", "discard" };
const char *const stpete_chance_event_words[4] = { "none", "deal", "markers", "draw" };
const char *const stpete_deal_then_words[3] = { "setup", "next-phase", "round" };

static const char *const event_kind_words[] = {
    "phase-start", "deal", "buy", "play", "take", "displace", "pass", "observatory-draw", "observatory-discard",
    "scoring", "pub", "round-end", "markers-moved", "last-round", "final-scoring", "game-over", "undo",
    "prison", "prison-put-back", "guild-hall", "trading-house", "sycophant-discard", "gold-disc",
};
_Static_assert(sizeof event_kind_words / sizeof *event_kind_words == STPETE_EVENT_GOLD_DISC + 1,
               "one word per event kind");

/* How a sentence names where a card comes from (log lines, refusal reasons). */
const char *const stpete_source_phrases[5] = { "upper row", "lower row", "hand", "Observatory draw",
                                               "discard pile" };

#define NAME_OF(table, i) ((i) >= 0 && (size_t)(i) < sizeof(table) / sizeof *(table) ? (table)[i] : NULL)

STPETE_API const char *stpete_colour_name(int colour)
{
    static const char *const colour_words[3] = { "green", "blue", "orange" }; /* §1, enum stpete_colour */
    return NAME_OF(colour_words, colour);
}

STPETE_API const char *stpete_phase_name(int phase)
{
    return NAME_OF(stpete_phase_words, phase);
}

STPETE_API const char *stpete_stack_name(int stack)
{
    return NAME_OF(stpete_stack_words, stack);
}

STPETE_API const char *stpete_decision_name(int decision)
{
    return NAME_OF(stpete_decision_words, decision);
}

STPETE_API const char *stpete_source_name(int source)
{
    return NAME_OF(stpete_source_words, source);
}

STPETE_API const char *stpete_event_kind_name(int kind)
{
    return NAME_OF(event_kind_words, kind);
}

STPETE_API const char *stpete_action_kind_name(int kind)
{
    static const char *const action_kind_words[] = { /* enum stpete_action_kind (§4.2, §7.1, §7.2, §12.7) */
        "pass", "buy", "play", "take", "observatory", "observatory-buy", "observatory-take", "observatory-discard",
        "pub", "prison", "prison-buy", "prison-take", "prison-put-back", "guild-hall", "trading-house",
    };
    _Static_assert(sizeof action_kind_words / sizeof *action_kind_words == STPETE_ACTION_TRADING_HOUSE + 1,
                   "one word per action kind");
    return NAME_OF(action_kind_words, kind);
}

STPETE_API const char *stpete_strerror(int status)
{
    switch (status) {
    case STPETE_OK: return "success";
    case STPETE_E_INVALID_ARGUMENT: return "invalid argument";
    case STPETE_E_ILLEGAL_ACTION: return "illegal action";
    case STPETE_E_BUFFER_TOO_SMALL: return "buffer too small";
    case STPETE_E_OUT_OF_MEMORY: return "out of memory";
    case STPETE_E_GAME_OVER: return "game over";
    case STPETE_E_NOT_TERMINAL: return "game not over";
    case STPETE_E_PARSE: return "parse error";
    case STPETE_E_UNSUPPORTED_VERSION: return "unsupported version";
    case STPETE_E_MISMATCH: return "states of different games";
    case STPETE_E_REENTRANT: return "re-entrant call from an event callback";
    case STPETE_E_REDACTED: return "a redacted view is not a playable state";
    case STPETE_E_INCONSISTENT: return "data inconsistent with the rules";
    case STPETE_E_TOO_LARGE: return "input too large";
    case STPETE_E_NO_PRICE: return "the action has no price";
    default: return "unknown status";
    }
}
