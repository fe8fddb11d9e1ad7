/* What a front end asks beyond the position (issue 41): each card's price in every way a seat could buy or play it,
 * the incomes of the next scorings, the cards discarded last, each seat's last move and the log of the history
 * (replayed from its root, the chronicle), and each card's text. The table document (lib/json/table.c) is written
 * from these. */
#include "api/api.h"

/* Replay st's history from its root into ch: the events (to ch->fn, with the move after the action that reported
 * them), the cards the last action that put cards on the discard pile put there (less those the Debtor's Prison
 * picked since), each seat's last move. The discard pile's gain of each action is the pile's difference, not a list
 * of event kinds: whatever the rules put there (§4.5, §6, §7.1, §12.7.5, §12.7.9). */
void stpete_front_chronicle(const stpete_state *st, stpete_chronicle *ch)
{
    memset(ch->discarded, 0, sizeof ch->discarded);
    for (int s = 0; s < STPETE_MAX_PLAYERS; s++)
        ch->last_moves[s] = -1;
    const history *h = &st->hist;
    stpete_core c;
    stpete_engine_copy(&c, h->n ? &stpete_history_checkpoints(h)[0] : &st->core); /* the root */
    stpete_sink sink = { ch->fn, ch->ctx };
    const stpete_sink *to = ch->fn ? &sink : NULL;
    ch->move = 0;
    if (st->root_setup) /* a history from a setup: its events first (§3) */
        stpete_rules_setup_events(&c, to);
    for (uint32_t i = 0; i < h->n; i++) {
        uint8_t before[DISPLAY_CAP];
        memcpy(before, c.discard, sizeof before);
        if (c.decision != STPETE_DECISION_CHANCE)
            ch->last_moves[c.current] = (int)i;
        ch->move = (int)i + 1;
        stpete_rules_apply(&c, h->ids[i], to, NULL, 0); /* legal here when it was applied: it is again */
        int gained = 0;
        for (int t = 0; t < CARD_TYPES_ALL; t++)
            gained |= c.discard[t] > before[t];
        for (int t = 0; t < CARD_TYPES_ALL; t++) {
            if (gained) /* the action put cards there: they are the cards discarded last */
                ch->discarded[t] = c.discard[t] > before[t] ? (uint8_t)(c.discard[t] - before[t]) : 0;
            else if (c.discard[t] < before[t]) { /* picked from the pile (§12.7.5): no longer discarded last */
                int lost = before[t] - c.discard[t];
                ch->discarded[t] = ch->discarded[t] > lost ? (uint8_t)(ch->discarded[t] - lost) : 0;
            }
        }
    }
}

STPETE_API int stpete_state_last_discards(const stpete_state *st, int *cards, size_t capacity, size_t *count)
{
    if (!st || !count || (!cards && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    stpete_chronicle ch = { 0 };
    stpete_front_chronicle(st, &ch);
    size_t n = 0;
    for (int t = 0; t < CARD_TYPES_ALL; t++)
        for (int k = 0; k < ch.discarded[t]; k++, n++)
            if (n < capacity)
                cards[n] = t;
    *count = n;
    return n > capacity ? STPETE_E_BUFFER_TOO_SMALL : STPETE_OK;
}

STPETE_API int stpete_state_offers(const stpete_state *st, int seat, stpete_offer *out, size_t capacity,
                                   size_t *count)
{
    if (!stpete_state_seat_ok(st, seat) || !count || (!out && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    size_t n = stpete_offers_list(&st->core, seat, out, capacity);
    *count = n;
    return n > capacity ? STPETE_E_BUFFER_TOO_SMALL : STPETE_OK;
}

STPETE_API int stpete_state_income(const stpete_state *st, int seat, int phase, int *rubles, int *vp)
{
    if (!stpete_state_seat_ok(st, seat) || phase < STPETE_PHASE_WORKER || phase > STPETE_PHASE_ARISTOCRAT)
        return STPETE_E_INVALID_ARGUMENT;
    stpete_income in = stpete_scoring_due_next(&st->core, seat, phase); /* a phase scores its colour (§4.4) */
    if (rubles)
        *rubles = in.rubles;
    if (vp)
        *vp = in.vp;
    return STPETE_OK;
}

STPETE_API int stpete_state_next_scoring(const stpete_state *st)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    return stpete_scoring_next(&st->core);
}

STPETE_API int stpete_game_card_text(const stpete_game *game, int card, char *buf, size_t capacity, size_t *len)
{
    if (!game || !len || (!buf && capacity) || card < 0 || card >= stpete_engine_card_types(&game->rules))
        return STPETE_E_INVALID_ARGUMENT;
    size_t n = stpete_card_text_write(&game->rules, card, buf, capacity);
    *len = n;
    return n >= capacity ? STPETE_E_BUFFER_TOO_SMALL : STPETE_OK;
}
