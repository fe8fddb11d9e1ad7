/* The table document (stpete_state_table_to_json(), doc/format.md "Table document"): everything a table UI draws
 * for one seat or for spectators, written from the library's own answers (the view of write.c, the legal actions
 * and prices of the engine, the offers, incomes, discards, last moves and log of api/front.c, the card texts), so
 * that a front end renders and never computes a rule fact. Written, never read. */
#include "json/json.h"

/* A card type, or null for STPETE_NONE. */
static json_t *table_card(int card)
{
    return card >= 0 ? json_integer(card) : json_null();
}

/* A word of a table (stpete_*_name()), or null for STPETE_NONE. */
static json_t *table_word(const char *word)
{
    return word ? json_string_nocheck(word) : json_null();
}

/* One legal action of the viewer: its fields (stpete_action_decode()), text and price (§5, §7.2, §12.7.6). */
static json_t *table_action(const stpete_state *st, int edition, int id, int *ok)
{
    stpete_action a;
    stpete_action_decode(id, &a);
    char text[STPETE_ACTION_STRING_MAX];
    stpete_action_to_string(edition, id, text, sizeof text);
    int price = 0;
    int priced = stpete_state_action_price(st, id, &price) == STPETE_OK;
    json_t *o = json_object();
    stpete_json_put(o, "id", json_integer(id), ok);
    stpete_json_put(o, "text", json_string_nocheck(text), ok);
    stpete_json_put(o, "kind", table_word(stpete_action_kind_name(a.kind)), ok);
    stpete_json_put(o, "source", table_word(stpete_source_name(a.source)), ok);
    stpete_json_put(o, "card", table_card(a.card), ok);
    stpete_json_put(o, "displaced", table_card(a.displaced), ok);
    stpete_json_put(o, "stack", table_word(stpete_stack_name(a.stack)), ok);
    stpete_json_put(o, "amount", a.amount >= 0 ? json_integer(a.amount) : json_null(), ok);
    stpete_json_put(o, "price", priced ? json_integer(price) : json_null(), ok);
    return o;
}

static json_t *table_actions(const stpete_state *st, int seat, int *ok)
{
    json_t *list = json_array();
    if (seat < 0 || st->core.decision == STPETE_DECISION_GAME_OVER || st->core.decision == STPETE_DECISION_CHANCE ||
        st->core.current != seat)
        return list;
    int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
    size_t n = stpete_legal_list(&st->core, ids);
    for (size_t i = 0; i < n; i++)
        stpete_json_push(list, table_action(st, st->core.rules.edition_index + 1, ids[i], ok), ok);
    return list;
}

static json_t *table_offers(const stpete_state *st, int seat, int *ok)
{
    if (seat < 0)
        return json_null();
    stpete_offer offers[STPETE_MAX_OFFERS];
    size_t n = stpete_offers_list(&st->core, seat, offers, STPETE_MAX_OFFERS);
    json_t *list = json_array();
    for (size_t i = 0; i < n && i < STPETE_MAX_OFFERS; i++) {
        int legal = 0;
        stpete_state_is_legal(st, offers[i].action, &legal);
        json_t *o = json_object();
        stpete_json_put(o, "action", json_integer(offers[i].action), ok);
        stpete_json_put(o, "source", json_string_nocheck(stpete_source_name(offers[i].source)), ok);
        stpete_json_put(o, "card", json_integer(offers[i].card), ok);
        stpete_json_put(o, "displaced", table_card(offers[i].displaced), ok);
        stpete_json_put(o, "price", json_integer(offers[i].price), ok);
        stpete_json_put(o, "legal", json_boolean(legal), ok);
        stpete_json_push(list, o, ok);
    }
    return list;
}

/* Each seat's income at the next scoring of each colour (§4.4), and which comes next; null after the end. */
static json_t *table_incomes(const stpete_state *st, int *ok)
{
    const stpete_core *c = &st->core;
    if (c->decision == STPETE_DECISION_GAME_OVER)
        return json_null();
    json_t *o = json_object();
    int next = stpete_scoring_next(c);
    stpete_json_put(o, "next", next >= 0 ? json_string_nocheck(stpete_phase_name(next)) : json_null(), ok);
    for (int phase = STPETE_PHASE_WORKER; phase <= STPETE_PHASE_ARISTOCRAT; phase++) {
        json_t *seats = json_array();
        for (int s = 0; s < c->rules.players; s++) {
            stpete_income in = stpete_scoring_due_next(c, s, phase);
            json_t *x = json_object();
            stpete_json_put(x, "rubles", json_integer(in.rubles), ok);
            stpete_json_put(x, "vp", json_integer(in.vp), ok);
            stpete_json_push(seats, x, ok);
        }
        stpete_json_put(o, stpete_phase_name(phase), seats, ok);
    }
    return o;
}

/* The log being written from the chronicle's replay: the entries numbered above since, with the move of each. */
typedef struct table_log {
    json_t *list;
    const stpete_chronicle *ch;
    int since, n, *ok;
} table_log;

static void table_log_event(void *ctx, const stpete_event *ev)
{
    table_log *log = ctx;
    if (++log->n <= log->since)
        return;
    char text[STPETE_EVENT_STRING_MAX];
    if (stpete_event_to_string(ev, NULL, text, sizeof text) != STPETE_OK) /* the public line (§9) */
        text[0] = '\0';
    json_t *e = json_object();
    stpete_json_put(e, "n", json_integer(log->n), log->ok);
    stpete_json_put(e, "move", json_integer(log->ch->move), log->ok);
    stpete_json_put(e, "seat", ev->seat >= 0 ? json_integer(ev->seat) : json_null(), log->ok);
    stpete_json_put(e, "kind", json_string_nocheck(stpete_event_kind_name(ev->kind)), log->ok);
    stpete_json_put(e, "text", json_string(text), log->ok);
    stpete_json_push(log->list, e, log->ok);
}

/* After the end: every seat's final scoring (§8, R13), the winners (R14) and the tie-break's word. */
static json_t *table_result(const stpete_state *st, int *ok)
{
    const stpete_core *c = &st->core;
    if (c->decision != STPETE_DECISION_GAME_OVER)
        return json_null();
    json_t *o = json_object(), *scores = json_array(), *winners = json_array();
    unsigned mask = stpete_scoring_winners(c);
    for (int s = 0; s < c->rules.players; s++) {
        stpete_score sc;
        stpete_scoring_score(c, s, &sc);
        json_t *x = json_object();
        stpete_json_put(x, "vp_before", json_integer(sc.vp_before), ok);
        stpete_json_put(x, "aristocrat_kinds", json_integer(sc.aristocrat_kinds), ok);
        stpete_json_put(x, "aristocrat_bonus", json_integer(sc.aristocrat_bonus), ok);
        stpete_json_put(x, "rubles", json_integer(sc.rubles), ok);
        stpete_json_put(x, "rubles_bonus", json_integer(sc.rubles_bonus), ok);
        stpete_json_put(x, "hand_cards", json_integer(sc.hand_cards), ok);
        stpete_json_put(x, "hand_penalty", json_integer(sc.hand_penalty), ok);
        stpete_json_put(x, "total", json_integer(sc.total), ok);
        stpete_json_put(x, "tie_break", json_integer(sc.tie_break), ok);
        stpete_json_push(scores, x, ok);
        if (mask >> s & 1u)
            stpete_json_push(winners, json_integer(s), ok);
    }
    stpete_json_put(o, "scores", scores, ok);
    stpete_json_put(o, "winners", winners, ok);
    stpete_json_put(o, "tie_break", json_string_nocheck(stpete_options_tie_break_name(c->rules.tie_break)), ok);
    return o;
}

/* The game's card table with each card's text (stpete_game_card_text()). */
static json_t *table_cards(const stpete_game *game, int *ok)
{
    const card_def *cards = stpete_engine_cards(&game->rules);
    json_t *list = json_array();
    for (int t = 0; t < stpete_engine_card_types(&game->rules); t++) {
        const card_def *d = &cards[t];
        char text[STPETE_CARD_TEXT_MAX];
        stpete_card_text_write(&game->rules, t, text, sizeof text);
        json_t *o = json_object();
        stpete_json_put(o, "card", json_integer(t), ok);
        stpete_json_put(o, "name", json_string_nocheck(d->name), ok);
        stpete_json_put(o, "colour", json_string_nocheck(stpete_colour_name(d->colour)), ok);
        stpete_json_put(o, "trading", json_boolean(d->trading), ok);
        stpete_json_put(o, "cost", json_integer(d->cost), ok);
        stpete_json_put(o, "rubles", json_integer(d->rubles), ok);
        stpete_json_put(o, "vp", json_integer(d->vp), ok);
        stpete_json_put(o, "copies", json_integer(d->copies), ok);
        stpete_json_put(o, "stack", json_string_nocheck(stpete_stack_name(d->stack)), ok);
        stpete_json_put(o, "scoring", json_string_nocheck(stpete_phase_name(d->colour)), ok); /* §4.4 */
        stpete_json_put(o, "special", json_integer(d->special), ok);
        stpete_json_put(o, "text", json_string(text), ok);
        stpete_json_push(list, o, ok);
    }
    return list;
}

/* The view, as a person at a table may be handed it (STPETE_TABLE_PERSON: doc/format.md, "Views"). */
static json_t *table_view(const stpete_state *st, int seat, unsigned flags, int *ok)
{
    json_t *view = stpete_write_state(st, seat, ok);
    if (view && (flags & STPETE_TABLE_PERSON)) {
        json_object_del(view, "information_state_key");
        size_t i;
        json_t *p;
        json_array_foreach(json_object_get(view, "players"), i, p)
            json_object_del(p, "known_rubles");
    }
    return view;
}

/* What one replay of the history gives (api/front.c): the cards discarded last, each seat's last move, whose
 * last move the viewer's log counts from, and the log from entry since on. */
static void table_chronicle(json_t *root, const stpete_state *st, int seat, int since, int *ok)
{
    stpete_chronicle ch = { 0 };
    table_log log = { json_array(), &ch, since, 0, ok };
    ch.fn = table_log_event;
    ch.ctx = &log;
    stpete_front_chronicle(st, &ch);
    json_t *discarded = json_array();
    for (int t = 0; t < CARD_TYPES_ALL; t++)
        for (int k = 0; k < ch.discarded[t]; k++)
            stpete_json_push(discarded, json_integer(t), ok);
    stpete_json_put(root, "discarded_last", discarded, ok);
    json_t *last = json_array();
    int earliest = -1; /* spectators: since every seat's last move */
    for (int s = 0; s < st->core.rules.players; s++) {
        stpete_json_push(last, ch.last_moves[s] >= 0 ? json_integer(ch.last_moves[s]) : json_null(), ok);
        if (s == 0 || ch.last_moves[s] < earliest)
            earliest = ch.last_moves[s];
    }
    stpete_json_put(root, "last_moves", last, ok);
    stpete_json_put(root, "recent_from", json_integer(seat >= 0 ? ch.last_moves[seat] : earliest), ok);
    stpete_json_put(root, "log_size", json_integer(log.n), ok);
    stpete_json_put(root, "log", log.list, ok);
}

STPETE_API int stpete_state_table_to_json(const stpete_state *st, int seat, int since, unsigned flags, char *buf,
                                          size_t capacity, size_t *len)
{
    if (!st || !len || (!buf && capacity) || since < 0 || (flags & ~(STPETE_TABLE_CARDS | STPETE_TABLE_PERSON)))
        return STPETE_E_INVALID_ARGUMENT;
    if (seat != STPETE_VIEW_PUBLIC && !stpete_state_seat_ok(st, seat))
        return STPETE_E_INVALID_ARGUMENT;
    const stpete_core *c = &st->core;
    int ok = 1;
    json_t *root = json_object();
    stpete_json_put(root, "format", json_string_nocheck(STPETE_FORMAT_TABLE), &ok);
    stpete_json_put(root, "table_version", json_integer(STPETE_TABLE_VERSION), &ok);
    stpete_json_put(root, "seat", seat >= 0 ? json_integer(seat) : json_null(), &ok);
    stpete_json_put(root, "move", json_integer(st->hist.n), &ok);
    int over = c->decision == STPETE_DECISION_GAME_OVER, chance = c->decision == STPETE_DECISION_CHANCE;
    stpete_json_put(root, "to_act", over || chance ? json_null() : json_integer(c->current), &ok);
    stpete_json_put(root, "decision", json_string_nocheck(stpete_decision_name(c->decision)), &ok);
    json_t *phases = json_array();
    for (int p = 0; p < STPETE_NUM_PHASES; p++)
        stpete_json_push(phases, json_string_nocheck(stpete_phase_name(p)), &ok);
    stpete_json_put(root, "phases", phases, &ok);
    stpete_json_put(root, "view", table_view(st, seat, flags, &ok), &ok);
    stpete_json_put(root, "actions", table_actions(st, seat, &ok), &ok);
    stpete_json_put(root, "offers", table_offers(st, seat, &ok), &ok);
    stpete_json_put(root, "incomes", table_incomes(st, &ok), &ok);
    json_t *limits = json_array();
    for (int s = 0; s < c->rules.players; s++)
        stpete_json_push(limits, json_integer(stpete_engine_hand_limit(&c->p[s])), &ok);
    stpete_json_put(root, "hand_limits", limits, &ok);
    int gold = stpete_state_gold_disc_holder(st);
    stpete_json_put(root, "gold_disc", gold >= 0 ? json_integer(gold) : json_null(), &ok);
    table_chronicle(root, st, seat, since, &ok);
    stpete_json_put(root, "result", table_result(st, &ok), &ok);
    stpete_json_put(root, "cards", flags & STPETE_TABLE_CARDS ? table_cards(st->game, &ok) : json_null(), &ok);
    return stpete_write_dump(root, ok, JSON_COMPACT | JSON_ENSURE_ASCII, buf, capacity, len);
}
