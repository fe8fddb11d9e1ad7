/* The words of the library: status names, the names of phases, stacks, decisions, sources and event kinds (the
 * same words as the JSON format, doc/format.md, one table each), and the readable line of an event. */
#include <stdio.h>

#include "stpete_internal.h"

const char *const stpete_phase_words[STPETE_NUM_PHASES] = { "worker", "building", "aristocrat", "trading" };
const char *const stpete_stack_words[STPETE_NUM_STACKS] = { "worker", "building", "aristocrat", "trading" };
const char *const stpete_decision_words[4] = { "turn", "observatory", "pub", "game-over" };
const char *const stpete_source_words[4] = { "upper", "lower", "hand", "observatory" };
const char *const stpete_pub_cap_words[2] = { "per-pub", "per-player" };
const char *const stpete_tie_break_words[2] = { "rubles-mod-10", "rubles-total" };

static const char *const event_kind_words[] = {
    "phase-start", "deal", "buy", "play", "take", "displace", "pass", "observatory-draw", "observatory-discard",
    "scoring", "pub", "round-end", "markers-moved", "last-round", "final-scoring", "game-over",
};
_Static_assert(sizeof event_kind_words / sizeof *event_kind_words == STPETE_EVENT_GAME_OVER + 1,
               "one word per event kind");

/* How a sentence names where a card comes from (log lines, refusal reasons). */
const char *const stpete_source_phrases[4] = { "upper row", "lower row", "hand", "Observatory draw" };

#define NAME_OF(table, i) ((i) >= 0 && (size_t)(i) < sizeof(table) / sizeof *(table) ? (table)[i] : NULL)

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

/* Whether an event's card, stack, seat, source and phase fields are what its kind needs (a caller may hand in
 * anything). */
static int event_valid(const stpete_event *ev)
{
    int card_ok = ev->card >= 0 && ev->card < STPETE_NUM_CARD_TYPES;
    int seat_ok = ev->seat >= 0 && ev->seat < STPETE_MAX_PLAYERS;
    int phase_ok = ev->phase >= 0 && ev->phase < STPETE_NUM_PHASES;
    switch (ev->kind) {
    case STPETE_EVENT_PHASE_START:
        return seat_ok && phase_ok;
    case STPETE_EVENT_DEAL:
    case STPETE_EVENT_OBSERVATORY_DRAW:
        return card_ok && ev->stack >= 0 && ev->stack < STPETE_NUM_STACKS &&
               (ev->kind == STPETE_EVENT_DEAL || seat_ok);
    case STPETE_EVENT_BUY:
    case STPETE_EVENT_PLAY:
    case STPETE_EVENT_TAKE:
        return seat_ok && card_ok && ev->source >= 0 && ev->source <= STPETE_SOURCE_OBSERVATORY &&
               (ev->displaced == -1 || (ev->displaced >= 0 && ev->displaced < STPETE_NUM_CARD_TYPES));
    case STPETE_EVENT_DISPLACE:
    case STPETE_EVENT_OBSERVATORY_DISCARD:
        return seat_ok && card_ok;
    case STPETE_EVENT_PASS:
    case STPETE_EVENT_PUB:
    case STPETE_EVENT_FINAL_SCORING:
        return seat_ok;
    case STPETE_EVENT_SCORING:
        return seat_ok && phase_ok;
    case STPETE_EVENT_LAST_ROUND:
        return ev->stack >= 0 && ev->stack < STPETE_NUM_STACKS;
    case STPETE_EVENT_ROUND_END:
    case STPETE_EVENT_MARKERS_MOVED:
    case STPETE_EVENT_GAME_OVER:
        return 1;
    default:
        return 0;
    }
}

/* The line of an event; with the state that reported it (during the callback), the details the state adds. */
static int format_event(const stpete_state *st, const stpete_event *ev, char *buf, size_t size)
{
    const char *card = ev->card >= 0 ? stpete_cards[ev->card].name : "";
    int seat = ev->seat;
    const player_state *p = st && seat >= 0 && seat < st->core.rules.players ? &st->core.p[seat] : NULL;
    switch (ev->kind) {
    case STPETE_EVENT_PHASE_START:
        return snprintf(buf, size, "Round %d, %s phase: seat %d starts", ev->round, stpete_phase_words[ev->phase],
                        seat);
    case STPETE_EVENT_DEAL:
        return snprintf(buf, size, "dealt %s from the %s stack to the upper row", card,
                        stpete_stack_words[ev->stack]);
    case STPETE_EVENT_BUY:
    case STPETE_EVENT_PLAY: {
        char displacing[96] = "", left[32] = "";
        if (ev->displaced >= 0)
            snprintf(displacing, sizeof displacing, ", displacing %s", stpete_cards[ev->displaced].name);
        if (p)
            snprintf(left, sizeof left, " (%d R left)", p->rubles);
        return snprintf(buf, size, "seat %d %s %s from the %s%s, for %d R%s", seat,
                        ev->kind == STPETE_EVENT_BUY ? "buys" : "plays", card, stpete_source_phrases[ev->source],
                        displacing, ev->price, left);
    }
    case STPETE_EVENT_TAKE:
        return snprintf(buf, size, "seat %d takes %s from the %s into hand", seat, card,
                        stpete_source_phrases[ev->source]);
    case STPETE_EVENT_DISPLACE:
        return snprintf(buf, size, "seat %d discards the displaced %s", seat, card);
    case STPETE_EVENT_PASS:
        return snprintf(buf, size, "seat %d passes (%d in a row)", seat, ev->amount);
    case STPETE_EVENT_OBSERVATORY_DRAW:
        return snprintf(buf, size, "seat %d uses an Observatory on the %s stack and draws %s", seat,
                        stpete_stack_words[ev->stack], card);
    case STPETE_EVENT_OBSERVATORY_DISCARD:
        return snprintf(buf, size, "seat %d discards the drawn %s", seat, card);
    case STPETE_EVENT_SCORING: {
        char now[48] = "";
        if (p)
            snprintf(now, sizeof now, " (now %d R, %d VP)", p->rubles, p->vp);
        return snprintf(buf, size, "%s scoring: seat %d gets %+d R and %+d VP%s", stpete_phase_words[ev->phase], seat,
                        ev->rubles, ev->vp, now);
    }
    case STPETE_EVENT_PUB:
        return snprintf(buf, size, "Pub: seat %d buys %d VP for %d R", seat, ev->amount, ev->rubles);
    case STPETE_EVENT_ROUND_END:
        return snprintf(buf, size, "End of round %d: %d card(s) of the lower row discarded, the upper row moves down",
                        ev->round, ev->amount);
    case STPETE_EVENT_MARKERS_MOVED:
        return snprintf(buf, size, "start-player markers move to the left neighbour");
    case STPETE_EVENT_LAST_ROUND:
        return snprintf(buf, size, "the last card of the %s stack is on the board: round %d is the final round",
                        stpete_stack_words[ev->stack], ev->round);
    case STPETE_EVENT_FINAL_SCORING:
        if (p) {
            stpete_score s;
            stpete_score_of(&st->core, seat, &s);
            return snprintf(buf, size,
                            "final scoring, seat %d: %d VP + %d (aristocrats: %d different) + %d (%d R) %+d (%d hand "
                            "card%s) = %d VP, tie-break %d",
                            seat, s.vp_before, s.aristocrat_bonus, s.aristocrat_kinds, s.rubles_bonus, s.rubles,
                            s.hand_penalty, s.hand_cards, s.hand_cards == 1 ? "" : "s", s.total, s.tie_break);
        }
        return snprintf(buf, size, "final scoring, seat %d: %+d VP (aristocrats, rubles, hand) = %d VP", seat,
                        ev->amount, ev->vp);
    default: /* STPETE_EVENT_GAME_OVER */
        return snprintf(buf, size, "Game over after round %d", ev->round);
    }
}

STPETE_API int stpete_event_to_string(const stpete_state *state, const stpete_event *event, char *buf, size_t size)
{
    if (!event || !buf || !event_valid(event))
        return STPETE_E_INVALID_ARGUMENT;
    if (size == 0)
        return STPETE_E_BUFFER_TOO_SMALL;
    char tmp[STPETE_EVENT_STRING_MAX];
    int len = format_event(state, event, tmp, sizeof tmp);
    snprintf(buf, size, "%s", tmp);
    return (size_t)len < size ? STPETE_OK : STPETE_E_BUFFER_TOO_SMALL;
}
