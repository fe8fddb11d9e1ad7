/* The JSON writer (jansson): full states and per-seat and public views (§9); the replay records' options and
 * header (replay.c). The schema is documented in doc/format.md; keep the two in step. Writing builds a jansson tree
 * in a fixed key order, so the same position always gives the same bytes. */
#include <inttypes.h>
#include <stdio.h>

#include "json/json.h"

#define stack_keys stpete_stack_words
#define phase_keys stpete_phase_words
#define decision_keys stpete_decision_words

/* View code of stpete_write_state() for the full state. */
enum { VIEW_FULL = -2 };

/* A list of card types as names of the edition's table (§2, §11). */
static json_t *card_list(const card_def *names, const uint8_t *cards, int n, int *ok)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        stpete_json_push(a, json_string_nocheck(names[cards[i]].name), ok);
    return a;
}

/* A multiset of card types (display, discard pile) as names in card-type order, each repeated per copy. */
static json_t *card_multiset(const card_def *names, const uint8_t *counts, int *ok)
{
    json_t *a = json_array();
    for (int t = 0; t < CARD_TYPES_ALL; t++) /* the New Society's types 49.. are 0 in a base game */
        for (int k = 0; k < counts[t]; k++)
            stpete_json_push(a, json_string_nocheck(names[t].name), ok);
    return a;
}

static json_t *u64_string(uint64_t v, int hex)
{
    char text[24];
    if (hex)
        snprintf(text, sizeof text, "%016" PRIx64, v);
    else
        snprintf(text, sizeof text, "%" PRIu64, v);
    return json_string_nocheck(text);
}

/* One option's JSON value, by its type (the table of options, api/options.c). */
static json_t *option_json(const stpete_options *o, const stpete_option_def *d, const uint64_t *seed)
{
    const char *member = (const char *)o + d->offset;
    int64_t v = d->info.type == STPETE_OPTION_SEED || d->info.type == STPETE_OPTION_SEATS ? 0 : stpete_options_int(o, d);
    switch (d->info.type) {
    case STPETE_OPTION_SEED:
        return seed ? u64_string(*seed, 0) : json_null();
    case STPETE_OPTION_SEATS: {
        int m[STPETE_NUM_PHASES];
        memcpy(m, member, sizeof m);
        if (m[0] < 0)
            return json_null();
        json_t *arr = json_array();
        int ok = 1;
        for (int k = 0; k < STPETE_NUM_PHASES; k++)
            stpete_json_push(arr, json_integer(m[k]), &ok);
        if (!ok) {
            json_decref(arr);
            return NULL;
        }
        return arr;
    }
    case STPETE_OPTION_BOOL:
        return json_boolean(v);
    case STPETE_OPTION_ENUM:
        return json_string_nocheck(d->info.words[v]);
    default:
        return json_integer(v);
    }
}

/* The options of the table that the document's format version holds (a game without the New Society is written
 * as before it: version 3, without its options); seed NULL writes null (state documents: the PRNG state continues
 * the game, and a seed would reveal the order of every stack to a view, §9). */
json_t *stpete_write_options(const stpete_options *o, const uint64_t *seed, int *ok)
{
    json_t *obj = json_object();
    int version = stpete_options_format_version(o);
    for (int i = 0; i < stpete_options_rows && stpete_options_table[i].format_version <= version; i++)
        stpete_json_put(obj, stpete_options_table[i].info.name, option_json(o, &stpete_options_table[i], seed), ok);
    return obj;
}

json_t *stpete_write_header(const char *format, int version, int *ok)
{
    json_t *root = json_object();
    stpete_json_put(root, "format", json_string_nocheck(format), ok);
    stpete_json_put(root, "format_version", json_integer(version), ok);
    return root;
}

/* The random event a chance node waits for (explicit-chance mode), or null. */
static json_t *chance_json(const stpete_core *c, int *ok)
{
    json_t *chance = json_null();
    if (c->chance != CHANCE_NONE) { /* the random event a chance node waits for (explicit-chance mode) */
        chance = json_object();
        stpete_json_put(chance, "event", json_string_nocheck(stpete_chance_event_words[c->chance]), ok);
        stpete_json_put(chance, "stack",
                        c->chance == CHANCE_MARKERS ? json_null() : json_string_nocheck(stack_keys[c->deal_stack]), ok);
        stpete_json_put(chance, "until", c->chance == CHANCE_DEAL ? json_integer(c->deal_to) : json_null(), ok);
        stpete_json_put(chance, "then",
                        c->chance == CHANCE_DEAL ? json_string_nocheck(stpete_deal_then_words[c->deal_then])
                                                 : json_null(),
                        ok);
    }
    return chance;
}

/* The start-player markers: null before their deal (a chance node in explicit-chance mode). */
static json_t *markers_json(const stpete_core *c, int *ok)
{
    json_t *markers = json_null(); /* null before the marker deal (a chance node in explicit-chance mode) */
    if (c->chance != CHANCE_MARKERS) {
        markers = json_array();
        for (int k = 0; k < STPETE_NUM_PHASES; k++)
            stpete_json_push(markers, json_integer(c->markers[k]), ok);
    }
    return markers;
}

/* Player i of a full state or a view: kn says which purses are shown (full: all). */
static json_t *player_json(const stpete_core *c, int i, const stpete_knowledge *kn, int full, const card_def *names,
                           int *ok)
{
    const player_state *p = &c->p[i];
    json_t *pj = json_object();
    stpete_json_put(pj, "rubles", kn->rubles_shown >> i & 1u ? json_integer(p->rubles) : json_null(), ok);
    if (!full) /* what the viewer knows, shown or recalled (§9): every amount its key hashes (issue 31) */
        stpete_json_put(pj, "known_rubles", p->rubles >= 0 ? json_integer(p->rubles) : json_null(), ok);
    stpete_json_put(pj, "vp", json_integer(p->vp), ok);
    stpete_json_put(pj, "display", card_multiset(names, p->display, ok), ok);
    stpete_json_put(pj, "observatories_used", json_integer(p->obs_used), ok);
    if (c->rules.new_society) /* §12.7.5 */
        stpete_json_put(pj, "prison_used", json_boolean(p->prison_used), ok);
    stpete_json_put(pj, "hand_size", json_integer(p->hand_n), ok);
    json_t *backs = json_array(), *known = json_array(), *hand = json_array();
    for (int h = 0; h < p->hand_n; h++) {
        int t = p->hand[h]; /* in a view: HIDDEN_CARD + back for a card the viewer has not seen */
        stpete_json_push(backs,
                         json_string_nocheck(stack_keys[t >= HIDDEN_CARD ? t - HIDDEN_CARD : stpete_cards_stack(t)]),
                         ok);
        stpete_json_push(known, json_boolean(p->hand_known >> h & 1u), ok);
        stpete_json_push(hand, t >= HIDDEN_CARD ? json_null() : json_string_nocheck(names[t].name), ok);
    }
    stpete_json_put(pj, "hand_backs", backs, ok);
    stpete_json_put(pj, "hand_known", known, ok);
    stpete_json_put(pj, "hand", hand, ok);
    return pj;
}

/* The state as a jansson tree; view = VIEW_FULL, STPETE_VIEW_PUBLIC or a seat (§9). A view is written from the
 * seat's knowledge (knowledge.c, the one definition of what a seat knows), never from the position itself. */
json_t *stpete_write_state(const stpete_state *st, int view, int *ok)
{
    stpete_knowledge kn;
    kn.rubles_shown = ~0u; /* a full state shows everything */
    const stpete_core *c = &st->core;
    int full = view == VIEW_FULL;
    if (!full) {
        stpete_knowledge_of(&st->core, view, &kn);
        c = &kn.k;
    }
    const stpete_options *o = &st->game->opts;
    const card_def *names = stpete_engine_cards(&c->rules); /* the edition's card names (§11) */
    json_t *root = stpete_write_header(STPETE_FORMAT_STATE, stpete_json_version_of(st->game), ok);
    stpete_json_put(root, "view",
                    json_string_nocheck(full ? "full" : view == STPETE_VIEW_PUBLIC ? "public" : "seat"), ok);
    stpete_json_put(root, "viewer", view >= 0 ? json_integer(view) : json_null(), ok);
    stpete_json_put(root, "options", stpete_write_options(o, NULL, ok), ok);
    json_t *rng = json_null();
    if (full) {
        rng = json_object();
        stpete_json_put(rng, "state", u64_string(c->rng.state, 1), ok);
        stpete_json_put(rng, "inc", u64_string(c->rng.inc, 1), ok);
    }
    stpete_json_put(root, "rng", rng, ok);
    stpete_json_put(root, "round", json_integer(c->round), ok);
    stpete_json_put(root, "phase", json_string_nocheck(phase_keys[c->phase]), ok);
    stpete_json_put(root, "decision", json_string_nocheck(decision_keys[c->decision]), ok);
    stpete_json_put(root, "current_player", json_integer(c->current), ok);
    stpete_json_put(root, "consecutive_passes", json_integer(c->passes), ok);
    stpete_json_put(root, "final_round", json_boolean(c->final_round), ok);
    stpete_json_put(root, "pub_next", json_integer(c->pub_next), ok);
    stpete_json_put(root, "observatory_card",
                    c->obs_card >= 0 ? json_string_nocheck(names[c->obs_card].name) : json_null(), ok);
    stpete_json_put(root, "chance", chance_json(c, ok), ok);
    stpete_json_put(root, "start_player_markers", markers_json(c, ok), ok);
    stpete_json_put(root, "public_hash", u64_string(c->public_hash, 1), ok);
    stpete_json_put(root, "rubles_recalled", json_boolean(c->rubles_recalled), ok);
    stpete_json_put(root, "information_state_key",
                    view >= 0 ? u64_string(stpete_knowledge_key(&kn), 1) : json_null(), ok);
    json_t *sizes = json_object(), *stacks = json_object();
    for (int s = 0; s < STPETE_NUM_STACKS; s++) {
        stpete_json_put(sizes, stack_keys[s], json_integer(c->stack_n[s]), ok);
        stpete_json_put(stacks, stack_keys[s],
                        full ? card_list(names, c->stack[s], c->stack_n[s], ok) : json_null(), ok);
    }
    stpete_json_put(root, "stack_sizes", sizes, ok);
    stpete_json_put(root, "stacks", stacks, ok);
    stpete_json_put(root, "upper_row", card_list(names, c->row[0], c->row_n[0], ok), ok);
    stpete_json_put(root, "lower_row", card_list(names, c->row[1], c->row_n[1], ok), ok);
    stpete_json_put(root, "discard", card_multiset(names, c->discard, ok), ok);
    json_t *players = json_array();
    for (int i = 0; i < c->rules.players; i++)
        stpete_json_push(players, player_json(c, i, &kn, full, names, ok), ok);
    stpete_json_put(root, "players", players, ok);
    return root;
}

/* Dump a tree into the caller's buffer (NUL-terminated) and free it. json_dumpb() returns the length it needs
 * whether or not it fits, so one call both writes and measures. */
int stpete_write_dump(json_t *root, int ok, size_t flags, char *buf, size_t size, size_t *len)
{
    size_t need = root && ok ? json_dumpb(root, size ? buf : NULL, size, flags) : 0;
    json_decref(root);
    if (need == 0)
        return STPETE_E_OUT_OF_MEMORY;
    *len = need;
    if (need >= size)
        return STPETE_E_BUFFER_TOO_SMALL;
    buf[need] = '\0';
    return STPETE_OK;
}

#define STATE_FLAGS (JSON_COMPACT | JSON_ENSURE_ASCII)

STPETE_API int stpete_state_to_json(const stpete_state *st, char *buf, size_t capacity, size_t *len)
{
    if (!st || !len || (!buf && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    /* Inside its event callback the state is between two steps of a move (a phase's last pass before the phase
     * ends, a stack emptied before the final round is set, a Trading House decision before its scoring): no decision
     * point, so a document of it would be refused by the reader or would continue another game. */
    if (st->flags & STATE_IN_CALLBACK)
        return STPETE_E_REENTRANT;
    int ok = 1;
    json_t *root = stpete_write_state(st, VIEW_FULL, &ok);
    return stpete_write_dump(root, ok, STATE_FLAGS, buf, capacity, len);
}

STPETE_API int stpete_state_view_to_json(const stpete_state *st, int seat, char *buf, size_t capacity, size_t *len)
{
    if (!st || !len || (!buf && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    if (seat != STPETE_VIEW_PUBLIC && (seat < 0 || seat >= st->core.rules.players))
        return STPETE_E_INVALID_ARGUMENT;
    int ok = 1;
    json_t *root = stpete_write_state(st, seat, &ok);
    return stpete_write_dump(root, ok, STATE_FLAGS, buf, capacity, len);
}
