/* The readable line of an event (stpete_event_to_string): the words of stpete-selfplay's log, so that every front
 * end shows the same log. */
#include <stdio.h>

#include "api/api.h"

/* Whether the members an event's kind uses (stpete_event_kind) are in range (a caller may hand in anything); the
 * members a kind does not use are never read, whatever they hold (issue 31: 1.0 read names[card] for every kind). */
static int event_valid(const stpete_event *ev)
{
    int card_ok = ev->card >= 0 && ev->card < CARD_TYPES_ALL;
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
        return seat_ok && card_ok && ev->source >= 0 && ev->source <= STPETE_SOURCE_DISCARD &&
               (ev->displaced == -1 || (ev->displaced >= 0 && ev->displaced < CARD_TYPES_ALL));
    case STPETE_EVENT_DISPLACE:
    case STPETE_EVENT_OBSERVATORY_DISCARD:
    case STPETE_EVENT_PRISON:
    case STPETE_EVENT_PRISON_PUT_BACK:
    case STPETE_EVENT_SYCOPHANT_DISCARD:
        return seat_ok && card_ok;
    case STPETE_EVENT_PASS:
    case STPETE_EVENT_PUB:
    case STPETE_EVENT_FINAL_SCORING:
    case STPETE_EVENT_GUILD_HALL:
    case STPETE_EVENT_TRADING_HOUSE:
    case STPETE_EVENT_GOLD_DISC:
        return seat_ok;
    case STPETE_EVENT_SCORING:
        return seat_ok && phase_ok;
    case STPETE_EVENT_LAST_ROUND:
        return ev->stack >= 0 && ev->stack < STPETE_NUM_STACKS;
    case STPETE_EVENT_ROUND_END:
    case STPETE_EVENT_MARKERS_MOVED:
        return 1;
    case STPETE_EVENT_GAME_OVER: /* the winner mask */
        return ev->amount >= 0 && ev->amount < 1 << STPETE_MAX_PLAYERS;
    case STPETE_EVENT_UNDO: { /* an action id or chance outcome, and its seat or -1 (a chance outcome) */
        char action[STPETE_ACTION_STRING_MAX];
        return stpete_actions_to_string(stpete_card_tables[ev->edition == STPETE_EDITION_SECOND], ev->amount, action,
                                   sizeof action) == STPETE_OK &&
               (ev->seat == -1 || seat_ok);
    }
    default:
        return 0;
    }
}

/* "Game over after round 6: seat 2 wins" or "...: seats 0 and 2 share the win" (§8, R14: the winner mask). */
static int game_over_line(const stpete_event *ev, char *buf, size_t size)
{
    char seats[64] = "";
    size_t len = 0;
    int n = 0, total = __builtin_popcount((unsigned)ev->amount & ((1u << STPETE_MAX_PLAYERS) - 1)); /* 5 with §12 */
    for (int s = 0; s < STPETE_MAX_PLAYERS; s++) {
        if (!(ev->amount >> s & 1))
            continue;
        n++;
        const char *sep = n == 1 ? "" : n == total ? " and " : ", ";
        len += (size_t)snprintf(seats + len, sizeof seats - len, "%s%d", sep, s);
    }
    if (total == 0)
        return snprintf(buf, size, "Game over after round %d", ev->round);
    return snprintf(buf, size, "Game over after round %d: seat%s %s %s", ev->round, total > 1 ? "s" : "", seats,
                    total > 1 ? "share the win" : "wins");
}

/* "seat 1 buys Wharf from the upper row, displacing Ship Builder, for 5 R (3 R left)": a buy or play; the rubles left
 * only with the state of the player (p) during the callback. */
static int card_line(const stpete_event *ev, const card_def *names, const player_state *p, char *buf, size_t size)
{
    char displacing[96] = "", left[32] = "";
    if (ev->displaced >= 0)
        snprintf(displacing, sizeof displacing, ", displacing %s", names[ev->displaced].name);
    if (p)
        snprintf(left, sizeof left, " (%d R left)", p->rubles);
    return snprintf(buf, size, "seat %d %s %s from the %s%s, for %d R%s", ev->seat,
                    ev->kind == STPETE_EVENT_BUY ? "buys" : "plays", names[ev->card].name,
                    stpete_source_phrases[ev->source], displacing, ev->price, left);
}

/* "worker scoring: seat 0 gets +3 R and +0 VP (now 8 R, 2 VP)": the totals only with the state of the player (p). */
static int scoring_line(const stpete_event *ev, const player_state *p, char *buf, size_t size)
{
    char now[48] = "";
    if (p)
        snprintf(now, sizeof now, " (now %d R, %d VP)", p->rubles, p->vp);
    return snprintf(buf, size, "%s scoring: seat %d gets %+d R and %+d VP%s", stpete_phase_words[ev->phase], ev->seat,
                    ev->rubles, ev->vp, now);
}

/* A seat's final scoring (§8): every term with the state that reported it (st, NULL otherwise), else the sum the
 * event carries. */
static int final_scoring_line(const stpete_state *st, const stpete_event *ev, char *buf, size_t size)
{
    int seat = ev->seat;
    if (st) {
        stpete_score s = STPETE_SCORE_INIT;
        stpete_scoring_score(&st->core, seat, &s);
        return snprintf(buf, size,
                        "final scoring, seat %d: %d VP + %d (aristocrats: %d different) + %d (%d R) %+d (%d hand "
                        "card%s) = %d VP, tie-break %d",
                        seat, s.vp_before, s.aristocrat_bonus, s.aristocrat_kinds, s.rubles_bonus, s.rubles,
                        s.hand_penalty, s.hand_cards, s.hand_cards == 1 ? "" : "s", s.total, s.tie_break);
    }
    return snprintf(buf, size, "final scoring, seat %d: %+d VP (aristocrats, rubles, hand) = %d VP", seat, ev->amount,
                    ev->vp);
}

/* "undo: seat 2's pass is taken back", or without a seat for a chance outcome. */
static int undo_line(const stpete_event *ev, const card_def *names, char *buf, size_t size)
{
    char action[STPETE_ACTION_STRING_MAX] = "";
    stpete_actions_to_string(names, ev->amount, action, sizeof action);
    if (ev->seat >= 0)
        return snprintf(buf, size, "undo: seat %d's %s is taken back", ev->seat, action);
    return snprintf(buf, size, "undo: %s is taken back", action);
}

/* The line of an event, with the card names of its edition (§11); with the state that reported it, during the
 * callback, the details the state adds (later the state has moved on: its rubles and VP are not the event's).
 * One function: one case per event kind (§4-§8, §12), every kind's line side by side. */
static int format_event(const stpete_state *st, const stpete_event *ev, char *buf, size_t size)
{
    const card_def *names = stpete_card_tables[ev->edition == STPETE_EDITION_SECOND];
    if (st && !(st->flags & STATE_IN_CALLBACK))
        st = NULL;
    /* read only for the kinds that use the card, which event_valid() checked */
    const char *card = ev->card >= 0 && ev->card < CARD_TYPES_ALL ? names[ev->card].name : "";
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
    case STPETE_EVENT_PLAY:
        return card_line(ev, names, p, buf, size);
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
    case STPETE_EVENT_SCORING:
        return scoring_line(ev, p, buf, size);
    case STPETE_EVENT_PUB:
        return snprintf(buf, size, "Pub: seat %d buys %d VP for %d R", seat, ev->amount, ev->rubles);
    case STPETE_EVENT_ROUND_END:
        return snprintf(buf, size, "End of round %d: %d card(s) of the lower row discarded, the upper row moves down",
                        ev->round, ev->amount);
    case STPETE_EVENT_MARKERS_MOVED:
        if (ev->amount == 2) /* 5 players (§12.4.1, R19) */
            return snprintf(buf, size, "start-player markers and the gold disc move two seats to the left");
        return snprintf(buf, size, "start-player markers move to the left neighbour");
    case STPETE_EVENT_PRISON:
        return snprintf(buf, size, "seat %d uses the Debtor's Prison and picks %s from the discard pile", seat, card);
    case STPETE_EVENT_PRISON_PUT_BACK:
        return snprintf(buf, size, "seat %d puts %s back on the discard pile", seat, card);
    case STPETE_EVENT_GUILD_HALL:
        return snprintf(buf, size, "Guild Hall: seat %d takes %d R and %d VP", seat, ev->rubles, ev->vp);
    case STPETE_EVENT_TRADING_HOUSE:
        if (ev->amount)
            return snprintf(buf, size, "Trading House: seat %d pays %d R for %d VP", seat, ev->rubles, ev->vp);
        return snprintf(buf, size, "Trading House: seat %d declines", seat);
    case STPETE_EVENT_SYCOPHANT_DISCARD:
        return snprintf(buf, size, "seat %d cannot pay its Sycophant and discards it", seat);
    case STPETE_EVENT_GOLD_DISC:
        if (ev->rubles > 0)
            return snprintf(buf, size, "seat %d holds the gold disc: +%d R and +%d VP", seat, ev->rubles, ev->vp);
        return snprintf(buf, size, "seat %d receives the gold disc: +%d VP", seat, ev->vp);
    case STPETE_EVENT_LAST_ROUND:
        return snprintf(buf, size, "the last card of the %s stack is on the board: round %d is the final round",
                        stpete_stack_words[ev->stack], ev->round);
    case STPETE_EVENT_FINAL_SCORING:
        return final_scoring_line(p ? st : NULL, ev, buf, size);
    case STPETE_EVENT_UNDO:
        return undo_line(ev, names, buf, size);
    default: /* STPETE_EVENT_GAME_OVER: the winners from the event's mask (§8, R14), so no state is needed */
        return game_over_line(ev, buf, size);
    }
}

STPETE_API int stpete_event_to_string(const stpete_event *event, const stpete_state *state, char *buf,
                                      size_t capacity)
{
    if (!event || !buf)
        return STPETE_E_INVALID_ARGUMENT;
    if (!stpete_struct_size_ok(event->struct_size, STPETE_EVENT_SIZE_1_0, sizeof *event))
        return STPETE_E_UNSUPPORTED_VERSION;
    stpete_event ev = STPETE_EVENT_INIT; /* the members the caller's struct has, the defaults for the others */
    memcpy(&ev, event, event->struct_size);
    if (!event_valid(&ev) || (ev.edition != STPETE_EDITION_FIRST && ev.edition != STPETE_EDITION_SECOND))
        return STPETE_E_INVALID_ARGUMENT;
    size_t size = capacity;
    if (size == 0)
        return STPETE_E_BUFFER_TOO_SMALL;
    char tmp[STPETE_EVENT_STRING_MAX];
    int len = format_event(state, &ev, tmp, sizeof tmp);
    snprintf(buf, size, "%s", tmp);
    return (size_t)len < size ? STPETE_OK : STPETE_E_BUFFER_TOO_SMALL;
}
