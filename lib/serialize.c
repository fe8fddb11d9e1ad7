/* JSON serialization with jansson: full states, per-seat and public views (§9), replay records. The schema is
 * documented in doc/format.md; keep the two in step. Writing builds a jansson tree in a fixed key order, so the
 * same position always gives the same bytes. Reading checks everything against the rules into a local position
 * first and allocates the result only when all checks pass: a failure builds nothing. */
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stpete_internal.h"

#define FORMAT_STATE "stpete-state"
#define FORMAT_REPLAY "stpete-replay"
/* The round counter is 8 bits and saturates at 255 (rules.c), so every value it can take loads again. */
#define ROUND_MAX 255

/* View codes of state_json(). */
enum { VIEW_FULL = -2 };

#define stack_keys stpete_stack_words
#define phase_keys stpete_phase_words
#define decision_keys stpete_decision_words
#define pub_cap_keys stpete_pub_cap_words
#define tie_break_keys stpete_tie_break_words
static const char *const chance_mode_keys[2] = { "sampled", "explicit" };
static const char *const chance_event_keys[4] = { "none", "deal", "markers", "draw" };
static const char *const deal_then_keys[3] = { "setup", "next-phase", "round" };

/* ---- errors --------------------------------------------------------------------------------------- */

static int jfail(stpete_error *err, int status, const char *fmt, ...)
{
    if (err) {
        err->line = err->column = err->position = -1;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

static void jclear(stpete_error *err)
{
    if (err) {
        err->line = err->column = err->position = -1;
        err->message[0] = '\0';
    }
}

/* ---- writing ------------------------------------------------------------------------------------- */

/* Building helpers: jansson's *_new functions take ownership of the value even when they fail (and fail on a
 * NULL container or value), so a failed allocation anywhere only clears *ok and never leaks. */
static void put(json_t *obj, const char *key, json_t *value, int *ok)
{
    if (json_object_set_new(obj, key, value))
        *ok = 0;
}

static void push(json_t *arr, json_t *value, int *ok)
{
    if (json_array_append_new(arr, value))
        *ok = 0;
}

/* A list of card types as names of the edition's table (§2, §11). */
static json_t *card_list(const card_def *names, const uint8_t *cards, int n, int *ok)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        push(a, json_string_nocheck(names[cards[i]].name), ok);
    return a;
}

/* A multiset of card types (display, discard pile) as names in card-type order, each repeated per copy. */
static json_t *card_multiset(const card_def *names, const uint8_t *counts, int *ok)
{
    json_t *a = json_array();
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
        for (int k = 0; k < counts[t]; k++)
            push(a, json_string_nocheck(names[t].name), ok);
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

/* The options; seed NULL writes null (state documents: the PRNG state continues the game, and a seed would
 * reveal the order of every stack to a view, §9). */
static json_t *options_json(const stpete_options *o, const uint64_t *seed, int *ok)
{
    json_t *obj = json_object();
    put(obj, "players", json_integer(o->players), ok);
    put(obj, "seed", seed ? u64_string(*seed, 0) : json_null(), ok);
    put(obj, "pub_cap", json_string_nocheck(pub_cap_keys[o->pub_cap]), ok);
    put(obj, "tie_break", json_string_nocheck(tie_break_keys[o->tie_break]), ok);
    json_t *markers = json_null();
    if (o->start_markers[0] >= 0) {
        markers = json_array();
        for (int k = 0; k < STPETE_NUM_PHASES; k++)
            push(markers, json_integer(o->start_markers[k]), ok);
    }
    put(obj, "start_markers", markers, ok);
    put(obj, "public_rubles", json_boolean(o->public_rubles), ok);
    put(obj, "public_hands", json_boolean(o->public_hands), ok);
    put(obj, "chance_mode", json_string_nocheck(chance_mode_keys[o->chance_mode]), ok);
    put(obj, "edition", json_integer(o->edition), ok);
    return obj;
}

static json_t *header(const char *format, int *ok)
{
    json_t *root = json_object();
    put(root, "format", json_string_nocheck(format), ok);
    put(root, "format_version", json_integer(STPETE_FORMAT_VERSION), ok);
    return root;
}

/* The state as a jansson tree; view = VIEW_FULL, STPETE_VIEW_PUBLIC or a seat (§9). A view is written from the
 * seat's knowledge (observe.c, the one definition of what a seat knows), never from the position itself. */
static json_t *state_json(const stpete_state *st, int view, int *ok)
{
    stpete_knowledge kn;
    kn.rubles_shown = ~0u; /* a full state shows everything */
    const stpete_core *c = &st->core;
    int full = view == VIEW_FULL;
    if (!full) {
        stpete_core_knowledge(&st->core, view, &kn);
        c = &kn.k;
    }
    const stpete_options *o = &st->game->opts;
    const card_def *names = stpete_cards_of(&c->rules); /* the edition's card names (§11) */
    json_t *root = header(FORMAT_STATE, ok);
    put(root, "view", json_string_nocheck(full ? "full" : view == STPETE_VIEW_PUBLIC ? "public" : "seat"), ok);
    put(root, "viewer", view >= 0 ? json_integer(view) : json_null(), ok);
    put(root, "options", options_json(o, NULL, ok), ok);
    json_t *rng = json_null();
    if (full) {
        rng = json_object();
        put(rng, "state", u64_string(c->rng.state, 1), ok);
        put(rng, "inc", u64_string(c->rng.inc, 1), ok);
    }
    put(root, "rng", rng, ok);
    put(root, "round", json_integer(c->round), ok);
    put(root, "phase", json_string_nocheck(phase_keys[c->phase]), ok);
    put(root, "decision", json_string_nocheck(decision_keys[c->decision]), ok);
    put(root, "current_player", json_integer(c->current), ok);
    put(root, "consecutive_passes", json_integer(c->passes), ok);
    put(root, "final_round", json_boolean(c->final_round), ok);
    put(root, "pub_next", json_integer(c->pub_next), ok);
    put(root, "observatory_card", c->obs_card >= 0 ? json_string_nocheck(names[c->obs_card].name) : json_null(), ok);
    json_t *chance = json_null();
    if (c->chance != CHANCE_NONE) { /* the random event a chance node waits for (explicit-chance mode) */
        chance = json_object();
        put(chance, "event", json_string_nocheck(chance_event_keys[c->chance]), ok);
        put(chance, "stack", c->chance == CHANCE_MARKERS ? json_null() : json_string_nocheck(stack_keys[c->deal_stack]), ok);
        put(chance, "until", c->chance == CHANCE_DEAL ? json_integer(c->deal_to) : json_null(), ok);
        put(chance, "then", c->chance == CHANCE_DEAL ? json_string_nocheck(deal_then_keys[c->deal_then]) : json_null(), ok);
    }
    put(root, "chance", chance, ok);
    json_t *markers = json_null(); /* null before the marker deal (a chance node in explicit-chance mode) */
    if (c->chance != CHANCE_MARKERS) {
        markers = json_array();
        for (int k = 0; k < STPETE_NUM_PHASES; k++)
            push(markers, json_integer(c->markers[k]), ok);
    }
    put(root, "start_player_markers", markers, ok);
    put(root, "public_hash", u64_string(c->public_hash, 1), ok);
    put(root, "rubles_recalled", json_boolean(c->rubles_recalled), ok);
    put(root, "information_state_key", view >= 0 ? u64_string(stpete_knowledge_key(&kn), 1) : json_null(), ok);
    json_t *sizes = json_object(), *stacks = json_object();
    for (int s = 0; s < STPETE_NUM_STACKS; s++) {
        put(sizes, stack_keys[s], json_integer(c->stack_n[s]), ok);
        put(stacks, stack_keys[s], full ? card_list(names, c->stack[s], c->stack_n[s], ok) : json_null(), ok);
    }
    put(root, "stack_sizes", sizes, ok);
    put(root, "stacks", stacks, ok);
    put(root, "upper_row", card_list(names, c->row[0], c->row_n[0], ok), ok);
    put(root, "lower_row", card_list(names, c->row[1], c->row_n[1], ok), ok);
    put(root, "discard", card_multiset(names, c->discard, ok), ok);
    json_t *players = json_array();
    for (int i = 0; i < c->rules.players; i++) {
        const player_state *p = &c->p[i];
        json_t *pj = json_object();
        put(pj, "rubles", kn.rubles_shown >> i & 1u ? json_integer(p->rubles) : json_null(), ok);
        put(pj, "vp", json_integer(p->vp), ok);
        put(pj, "display", card_multiset(names, p->display, ok), ok);
        put(pj, "observatories_used", json_integer(p->obs_used), ok);
        put(pj, "hand_size", json_integer(p->hand_n), ok);
        json_t *backs = json_array(), *known = json_array(), *hand = json_array();
        for (int h = 0; h < p->hand_n; h++) {
            int t = p->hand[h]; /* in a view: HIDDEN_CARD + back for a card the viewer has not seen */
            push(backs, json_string_nocheck(stack_keys[t >= HIDDEN_CARD ? t - HIDDEN_CARD : stpete_stack_of(t)]), ok);
            push(known, json_boolean(p->hand_known >> h & 1u), ok);
            push(hand, t >= HIDDEN_CARD ? json_null() : json_string_nocheck(names[t].name), ok);
        }
        put(pj, "hand_backs", backs, ok);
        put(pj, "hand_known", known, ok);
        put(pj, "hand", hand, ok);
        push(players, pj, ok);
    }
    put(root, "players", players, ok);
    return root;
}

/* Dump a tree into the caller's buffer (NUL-terminated) and free it. json_dumpb() returns the length it needs
 * whether or not it fits, so one call both writes and measures. */
static int dump(json_t *root, int ok, size_t flags, char *buf, size_t size, size_t *len)
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
#define REPLAY_FLAGS (JSON_INDENT(1) | JSON_ENSURE_ASCII)

STPETE_API int stpete_state_to_json(const stpete_state *st, char *buf, size_t size, size_t *len)
{
    if (!st || !len || (!buf && size))
        return STPETE_E_INVALID_ARGUMENT;
    int ok = 1;
    json_t *root = state_json(st, VIEW_FULL, &ok);
    return dump(root, ok, STATE_FLAGS, buf, size, len);
}

STPETE_API int stpete_state_view_to_json(const stpete_state *st, int seat, char *buf, size_t size, size_t *len)
{
    if (!st || !len || (!buf && size))
        return STPETE_E_INVALID_ARGUMENT;
    if (seat != STPETE_VIEW_PUBLIC && (seat < 0 || seat >= st->core.rules.players))
        return STPETE_E_INVALID_ARGUMENT;
    int ok = 1;
    json_t *root = state_json(st, seat, &ok);
    return dump(root, ok, STATE_FLAGS, buf, size, len);
}

/* ---- reading: small checked getters ----------------------------------------------------------------- */

/* Every getter reports "path.key: problem" and returns a status; path names the enclosing object. */

static int keys_only(const json_t *obj, const char *path, const char *const *keys, size_t n,
                     stpete_error *err)
{
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)obj, key, value) {
        (void)value;
        size_t i = 0;
        while (i < n && strcmp(keys[i], key) != 0)
            i++;
        if (i == n)
            return jfail(err, STPETE_E_PARSE, "%s: unknown key \"%.60s\"", path, key);
    }
    for (size_t i = 0; i < n; i++)
        if (!json_object_get(obj, keys[i]))
            return jfail(err, STPETE_E_PARSE, "%s: missing key \"%s\"", path, keys[i]);
    return STPETE_OK;
}

static int get_int(const json_t *obj, const char *path, const char *key, long long lo, long long hi, int *out,
                   stpete_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v))
        return jfail(err, STPETE_E_PARSE, "%s.%s: must be an integer", path, key);
    long long x = json_integer_value(v);
    if (x < lo || x > hi)
        return jfail(err, STPETE_E_INCONSISTENT, "%s.%s: must be an integer in [%lld, %lld], not %lld", path, key,
                     lo, hi, x);
    *out = (int)x;
    return STPETE_OK;
}

static int get_bool(const json_t *obj, const char *path, const char *key, int *out, stpete_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_boolean(v))
        return jfail(err, STPETE_E_PARSE, "%s.%s: must be true or false", path, key);
    *out = json_is_true(v);
    return STPETE_OK;
}

/* A string that must be one of n keywords; *out = its index. */
static int get_keyword(const json_t *obj, const char *path, const char *key, const char *const *words, int n,
                       int *out, stpete_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (json_is_string(v))
        for (int i = 0; i < n; i++)
            if (strcmp(json_string_value(v), words[i]) == 0) {
                *out = i;
                return STPETE_OK;
            }
    return jfail(err, STPETE_E_PARSE, "%s.%s: must be one of \"%s\" ... \"%s\"", path, key, words[0], words[n - 1]);
}

static int card_of(const json_t *v, const char *path, int index, int *card, stpete_error *err)
{
    int t = json_is_string(v) ? stpete_card_lookup(json_string_value(v), json_string_length(v)) : -1;
    if (t < 0)
        return jfail(err, STPETE_E_PARSE, "%s[%d]: must be a card name (stpete_card_name())", path, index);
    *card = t;
    return STPETE_OK;
}

/* A list of at most cap card names into cards[]; *n = its length. */
static int get_cards(const json_t *arr, const char *path, uint8_t *cards, int cap, uint8_t *n,
                     stpete_error *err)
{
    if (!json_is_array(arr))
        return jfail(err, STPETE_E_PARSE, "%s: must be an array of card names", path);
    if (json_array_size(arr) > (size_t)cap)
        return jfail(err, STPETE_E_INCONSISTENT, "%s: at most %d cards, not %zu", path, cap, json_array_size(arr));
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        int t = 0, rc = card_of(v, path, (int)i, &t, err); /* = 0: gcc -O3 cannot see card_of() sets it */
        if (rc)
            return rc;
        cards[i] = (uint8_t)t;
    }
    *n = (uint8_t)json_array_size(arr);
    return STPETE_OK;
}

/* A multiset of card names into per-type counts (each at most its number of copies, §2). */
static int get_multiset(const json_t *arr, const char *path, uint8_t *counts, stpete_error *err)
{
    uint8_t cards[STPETE_NUM_CARDS], n = 0;
    int rc = get_cards(arr, path, cards, STPETE_NUM_CARDS, &n, err);
    for (int i = 0; !rc && i < n; i++)
        if (counts[cards[i]]++ >= stpete_cards[cards[i]].copies)
            rc = jfail(err, STPETE_E_INCONSISTENT, "%s: more than the %d copies of %s (§2)", path,
                       stpete_cards[cards[i]].copies, stpete_cards[cards[i]].name);
    return rc;
}

static int get_u64(const json_t *obj, const char *path, const char *key, int hex, uint64_t *out,
                   stpete_error *err)
{
    json_t *v = json_object_get(obj, key);
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    size_t n = s ? json_string_length(v) : 0;
    if (!s || n == 0 || n > (hex ? 16u : 20u))
        goto bad;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        int d;
        char ch = s[i];
        if (ch >= '0' && ch <= '9')
            d = ch - '0';
        else if (hex && ch >= 'a' && ch <= 'f')
            d = ch - 'a' + 10;
        else
            goto bad;
        if (hex)
            x = x << 4 | (uint64_t)d;
        else {
            if (x > (UINT64_MAX - (uint64_t)d) / 10)
                goto bad;
            x = x * 10 + (uint64_t)d;
        }
    }
    *out = x;
    return STPETE_OK;
bad:
    return jfail(err, STPETE_E_PARSE, "%s.%s: must be a string of %s", path, key,
                 hex ? "1 to 16 lowercase hex digits" : "decimal digits (an unsigned 64-bit number)");
}

/* ---- reading: documents and options ------------------------------------------------------------------ */

/* Parse the text and check the header; *root is the document (the caller frees it) on success. */
static int load(const char *json, size_t len, const char *format, json_t **root, stpete_error *err)
{
    *root = NULL;
    size_t max = format && strcmp(format, FORMAT_STATE) == 0 ? STPETE_JSON_STATE_MAX : STPETE_JSON_REPLAY_MAX;
    if (len > max) /* before parsing: a huge document costs nothing to refuse */
        return jfail(err, STPETE_E_TOO_LARGE, "the document has %zu bytes; a %s has at most %zu (doc/format.md)", len,
                     format ? format : "document", max);
    json_error_t jerr;
    memset(&jerr, 0, sizeof jerr); /* jansson leaves it unset on some allocation failures (json_error_code reads it) */
    *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!*root) {
        int status = json_error_code(&jerr) == json_error_out_of_memory ? STPETE_E_OUT_OF_MEMORY : STPETE_E_PARSE;
        if (err) {
            err->line = jerr.line;
            err->column = jerr.column;
            err->position = jerr.position;
            snprintf(err->message, sizeof err->message, "%s", jerr.text);
        }
        return status;
    }
    int rc = STPETE_OK;
    json_t *f = json_object_get(*root, "format");
    json_t *v = json_object_get(*root, "format_version");
    if (!json_is_object(*root))
        rc = jfail(err, STPETE_E_PARSE, "the document must be a JSON object");
    else if (!json_is_string(f) || (format && strcmp(json_string_value(f), format) != 0) ||
             (!format && strcmp(json_string_value(f), FORMAT_STATE) != 0 &&
              strcmp(json_string_value(f), FORMAT_REPLAY) != 0))
        rc = jfail(err, STPETE_E_PARSE, "format: must be \"%s\"", format ? format : FORMAT_STATE "\" or \"" FORMAT_REPLAY);
    else if (!json_is_integer(v) || json_integer_value(v) < 1)
        rc = jfail(err, STPETE_E_PARSE, "format_version: must be a positive integer");
    else if (json_integer_value(v) > STPETE_FORMAT_VERSION)
        rc = jfail(err, STPETE_E_UNSUPPORTED_VERSION, "format_version %lld is newer than this library's (%d)",
                   json_integer_value(v), STPETE_FORMAT_VERSION);
    if (rc) {
        json_decref(*root);
        *root = NULL;
    }
    return rc;
}

/* The format version of a document that load() accepted. */
static int doc_version(const json_t *root)
{
    return (int)json_integer_value(json_object_get(root, "format_version"));
}

/* Keys by format version: version 2 (0.3) adds the last ones of each list. */
static const char *const option_keys[] = { "players", "seed", "pub_cap", "tie_break", "start_markers",
                                           "public_rubles", "public_hands", "chance_mode", "edition" };
#define OPTION_KEYS(v) ((v) >= 2 ? 9u : 7u)

/* The "options" object into opts (allocator untouched). Validity of the combination is stpete_game_new()'s.
 * The seed is a decimal string in replay records and null in state documents (then opts->seed stays 0). */
static int read_options(const json_t *root, stpete_options *opts, stpete_error *err)
{
    const json_t *o = json_object_get(root, "options");
    if (!json_is_object(o))
        return jfail(err, STPETE_E_PARSE, "options: must be an object");
    int version = doc_version(root);
    int rc = keys_only(o, "options", option_keys, OPTION_KEYS(version), err);
    if (!rc)
        rc = get_int(o, "options", "players", STPETE_MIN_PLAYERS, STPETE_MAX_PLAYERS, &opts->players, err);
    const char *format = json_string_value(json_object_get(root, "format"));
    int state_doc = format && strcmp(format, FORMAT_STATE) == 0;
    if (!rc && state_doc && !json_is_null(json_object_get(o, "seed")))
        rc = jfail(err, STPETE_E_PARSE, "options.seed: must be null in a state (the rng object continues the game)");
    if (!rc && !state_doc)
        rc = get_u64(o, "options", "seed", 0, &opts->seed, err);
    if (!rc)
        rc = get_keyword(o, "options", "pub_cap", pub_cap_keys, 2, &opts->pub_cap, err);
    if (!rc)
        rc = get_keyword(o, "options", "tie_break", tie_break_keys, 2, &opts->tie_break, err);
    if (!rc)
        rc = get_bool(o, "options", "public_rubles", &opts->public_rubles, err);
    if (!rc)
        rc = get_bool(o, "options", "public_hands", &opts->public_hands, err);
    opts->chance_mode = STPETE_CHANCE_SAMPLED; /* version 1 had only the sampled mode and the first edition */
    opts->edition = 1;
    if (!rc && version >= 2)
        rc = get_keyword(o, "options", "chance_mode", chance_mode_keys, 2, &opts->chance_mode, err);
    if (!rc && version >= 2)
        rc = get_int(o, "options", "edition", 1, 2, &opts->edition, err);
    if (rc)
        return rc;
    const json_t *m = json_object_get(o, "start_markers");
    for (int k = 0; k < STPETE_NUM_PHASES; k++)
        opts->start_markers[k] = -1;
    if (json_is_null(m))
        return STPETE_OK;
    if (!json_is_array(m) || json_array_size(m) != STPETE_NUM_PHASES)
        return jfail(err, STPETE_E_PARSE, "options.start_markers: must be null or an array of 4 seats");
    for (int k = 0; k < STPETE_NUM_PHASES; k++) {
        json_t *v = json_array_get(m, (size_t)k);
        if (!json_is_integer(v))
            return jfail(err, STPETE_E_PARSE, "options.start_markers[%d]: must be an integer", k);
        if (json_integer_value(v) < 0 || json_integer_value(v) >= opts->players)
            return jfail(err, STPETE_E_INCONSISTENT, "options.start_markers[%d]: must be a seat in [0, %d)", k,
                         opts->players);
        opts->start_markers[k] = (int)json_integer_value(v);
    }
    return STPETE_OK;
}

/* Create the game of a document's options. */
static int game_of(const json_t *root, const stpete_allocator *alloc, stpete_game **out, stpete_error *err)
{
    stpete_options opts;
    stpete_options_init(&opts);
    if (alloc) {
        int set = (alloc->malloc_fn != NULL) + (alloc->realloc_fn != NULL) + (alloc->free_fn != NULL);
        if (set != 0 && set != 3)
            return jfail(err, STPETE_E_INVALID_ARGUMENT, "a partial allocator: set all three functions or none");
        opts.allocator = *alloc;
    }
    int rc = read_options(root, &opts, err);
    if (rc)
        return rc;
    stpete_error why = STPETE_ERROR_INIT;
    if (stpete_options_check(&opts, &why)) /* the allocator was checked above: the options break §3 */
        return jfail(err, STPETE_E_INCONSISTENT, "options: %s", why.message);
    rc = stpete_game_new(&opts, out, NULL);
    if (rc)
        return jfail(err, rc, "%s", stpete_strerror(rc));
    return STPETE_OK;
}

static int game_from_json_impl(stpete_game **out, const char *json, size_t len,
                                     const stpete_allocator *alloc, stpete_error *err)
{
    jclear(err);
    if (!out)
        return jfail(err, STPETE_E_INVALID_ARGUMENT, "out is NULL");
    *out = NULL;
    if (!json)
        return jfail(err, STPETE_E_INVALID_ARGUMENT, "json is NULL");
    json_t *root;
    int rc = load(json, len, NULL, &root, err);
    if (rc)
        return rc;
    rc = game_of(root, alloc, out, err);
    json_decref(root);
    return rc;
}

/* ---- reading: the position --------------------------------------------------------------------------- */

static const char *const state_keys[] = {
    "format", "format_version", "view", "viewer", "options", "rng", "round", "phase", "decision",
    "current_player", "consecutive_passes", "final_round", "pub_next", "observatory_card",
    "start_player_markers", "stack_sizes", "stacks", "upper_row", "lower_row", "discard", "players",
    "chance", "public_hash", "rubles_recalled", "information_state_key"
};
/* Keys by format version: 2 (0.3) adds chance and public_hash, 3 (0.4) rubles_recalled and information_state_key. */
#define STATE_KEYS(v) ((v) >= 3 ? 25u : (v) >= 2 ? 23u : 21u)
static const char *const player_keys[] = { "rubles", "vp", "display", "observatories_used", "hand_size",
                                           "hand_backs", "hand", "hand_known" };
#define PLAYER_KEYS(v) ((v) >= 2 ? 8u : 7u)

static int read_player(const json_t *pj, int seat, int version, player_state *p, stpete_error *err)
{
    char path[32];
    snprintf(path, sizeof path, "players[%d]", seat);
    if (!json_is_object(pj))
        return jfail(err, STPETE_E_PARSE, "%s: must be an object", path);
    int rc = keys_only(pj, path, player_keys, PLAYER_KEYS(version), err);
    int rubles = 0, vp = 0, used = 0, hand_size = 0;
    if (!rc && json_is_null(json_object_get(pj, "rubles")))
        rc = jfail(err, STPETE_E_REDACTED, "%s.rubles: hidden in a view (§9)", path);
    if (!rc)
        rc = get_int(pj, path, "rubles", 0, STPETE_RUBLES_MAX, &rubles, err);
    if (!rc)
        rc = get_int(pj, path, "vp", -STPETE_VP_MAX, STPETE_VP_MAX, &vp, err);
    if (!rc)
        rc = get_int(pj, path, "observatories_used", 0, 2, &used, err);
    if (!rc)
        rc = get_int(pj, path, "hand_size", 0, STPETE_MAX_HAND, &hand_size, err);
    if (rc)
        return rc;
    p->rubles = rubles;
    p->vp = vp;
    p->obs_used = (uint8_t)used;
    char sub[48];
    snprintf(sub, sizeof sub, "%s.display", path);
    rc = get_multiset(json_object_get(pj, "display"), sub, p->display, err);
    if (rc)
        return rc;
    if (used > p->display[STPETE_CARD_OBSERVATORY])
        return jfail(err, STPETE_E_INCONSISTENT, "%s.observatories_used: more than the Observatories owned (§7.1)",
                     path);
    const json_t *hand = json_object_get(pj, "hand");
    if (json_is_null(hand))
        return jfail(err, STPETE_E_REDACTED, "%s.hand: hidden in a view (§9)", path);
    for (size_t h = 0; json_is_array(hand) && h < json_array_size(hand); h++) /* version 3 views: per card */
        if (json_is_null(json_array_get(hand, h)))
            return jfail(err, STPETE_E_REDACTED, "%s.hand[%zu]: hidden in a view (§9)", path, h);
    snprintf(sub, sizeof sub, "%s.hand", path);
    rc = get_cards(hand, sub, p->hand, STPETE_MAX_HAND, &p->hand_n, err);
    if (rc)
        return rc;
    const json_t *backs = json_object_get(pj, "hand_backs");
    if (!json_is_array(backs))
        return jfail(err, STPETE_E_PARSE, "%s.hand_backs: must be an array of stack names", path);
    if (p->hand_n != hand_size || json_array_size(backs) != p->hand_n)
        return jfail(err, STPETE_E_INCONSISTENT, "%s: hand_size and hand_backs must match the hand", path);
    for (int h = 0; h < p->hand_n; h++) {
        json_t *v = json_array_get(backs, (size_t)h);
        if (!json_is_string(v))
            return jfail(err, STPETE_E_PARSE, "%s.hand_backs[%d]: must be a stack name", path, h);
        if (strcmp(json_string_value(v), stack_keys[stpete_stack_of(p->hand[h])]) != 0)
            return jfail(err, STPETE_E_INCONSISTENT, "%s.hand_backs[%d]: must be the stack of the hand card", path,
                         h);
    }
    /* Which hand cards everyone saw taken (§9); version 1 did not say: every card reaches a hand in view of all. */
    p->hand_known = (uint8_t)((1u << p->hand_n) - 1u);
    if (version < 2)
        return STPETE_OK;
    const json_t *known = json_object_get(pj, "hand_known");
    if (!json_is_array(known) || json_array_size(known) != p->hand_n)
        return jfail(err, STPETE_E_PARSE, "%s.hand_known: must be an array of a boolean per hand card", path);
    for (int h = 0; h < p->hand_n; h++) {
        json_t *v = json_array_get(known, (size_t)h);
        if (!json_is_boolean(v))
            return jfail(err, STPETE_E_PARSE, "%s.hand_known[%d]: must be true or false", path, h);
        if (json_is_false(v))
            p->hand_known &= (uint8_t)~(1u << h);
    }
    return STPETE_OK;
}

/* The pending chance event of a version-2 state: null, or {"event", "stack", "until", "then"}. */
static int read_chance(const json_t *root, stpete_core *c, stpete_error *err)
{
    const json_t *ch = json_object_get(root, "chance");
    if (json_is_null(ch))
        return STPETE_OK;
    static const char *const keys[] = { "event", "stack", "until", "then" };
    if (!json_is_object(ch))
        return jfail(err, STPETE_E_PARSE, "chance: must be null or an object");
    int event = 0, rc = keys_only(ch, "chance", keys, 4, err);
    if (!rc)
        rc = get_keyword(ch, "chance", "event", chance_event_keys, 4, &event, err);
    if (rc)
        return rc;
    if (event == CHANCE_NONE)
        return jfail(err, STPETE_E_PARSE, "chance.event: must be \"deal\", \"markers\" or \"draw\" (null for none)");
    c->chance = (uint8_t)event;
    int stack = 0, until = 0, then = 0;
    if (event == CHANCE_MARKERS) {
        if (!json_is_null(json_object_get(ch, "stack")) || !json_is_null(json_object_get(ch, "until")) ||
            !json_is_null(json_object_get(ch, "then")))
            return jfail(err, STPETE_E_PARSE, "chance: stack, until and then are null for the marker deal");
        return STPETE_OK;
    }
    rc = get_keyword(ch, "chance", "stack", stack_keys, STPETE_NUM_STACKS, &stack, err);
    if (!rc && event == CHANCE_DEAL)
        rc = get_int(ch, "chance", "until", 1, STPETE_BOARD_SIZE, &until, err);
    if (!rc && event == CHANCE_DEAL)
        rc = get_keyword(ch, "chance", "then", deal_then_keys, 3, &then, err);
    if (!rc && event == CHANCE_DRAW &&
        (!json_is_null(json_object_get(ch, "until")) || !json_is_null(json_object_get(ch, "then"))))
        rc = jfail(err, STPETE_E_PARSE, "chance: until and then are null for an Observatory draw");
    c->deal_stack = (uint8_t)stack;
    c->deal_to = (uint8_t)until;
    c->deal_then = (uint8_t)then;
    return rc;
}

/* A chance node is one the engine can reach and go on from (explicit-chance mode, §3.3, §4.5, §7.1). */
static int check_chance_node(const stpete_core *c, stpete_error *err)
{
    int n = c->rules.players, board = c->row_n[0] + c->row_n[1];
    if ((c->decision == STPETE_DECISION_CHANCE) != (c->chance != CHANCE_NONE))
        return jfail(err, STPETE_E_INCONSISTENT, "chance: set exactly when the decision is \"chance\"");
    if (c->chance == CHANCE_NONE)
        return STPETE_OK;
    if (c->rules.chance_mode != STPETE_CHANCE_EXPLICIT)
        return jfail(err, STPETE_E_INCONSISTENT, "chance: a chance node exists only in the explicit-chance mode");
    switch (c->chance) {
    case CHANCE_MARKERS:
        if (c->round != 1 || c->phase != STPETE_PHASE_WORKER || board != 0 || c->rules.start_markers[0] >= 0)
            return jfail(err, STPETE_E_INCONSISTENT, "chance: the random marker deal comes first in a game without "
                                                     "explicit markers, before any card is dealt (§3.3)");
        return STPETE_OK;
    case CHANCE_DRAW:
        if (c->phase != STPETE_PHASE_BUILDING || c->p[c->current].obs_used == 0 || c->stack_n[c->deal_stack] < 2)
            return jfail(err, STPETE_E_INCONSISTENT, "chance: an Observatory draw happens in the building phase, "
                                                     "after an Observatory was used, from a stack of 2 or more (§7.1)");
        return STPETE_OK;
    default: /* a deal (§3.4, §4.5) */
        if (c->stack_n[c->deal_stack] == 0 || board >= c->deal_to)
            return jfail(err, STPETE_E_INCONSISTENT, "chance: a deal in progress needs a card in its stack and room on "
                                                     "the board (§4.5)");
        if (c->deal_then == THEN_SETUP ? c->deal_stack != STPETE_STACK_WORKER || c->deal_to != stpete_setup_deal(n) || c->round != 1 ||
                                             c->phase != STPETE_PHASE_WORKER
            : c->deal_then == THEN_NEXT_PHASE ? c->phase == STPETE_PHASE_TRADING || c->deal_stack != c->phase + 1 ||
                                                    c->deal_to != STPETE_BOARD_SIZE
                                              : c->phase != STPETE_PHASE_WORKER ||
                                                    c->deal_stack != STPETE_STACK_WORKER || c->deal_to != STPETE_BOARD_SIZE)
            return jfail(err, STPETE_E_INCONSISTENT, "chance: the deal's stack, target and what follows it must be "
                                                     "those of §3.4 or §4.5 for this phase");
        return STPETE_OK;
    }
}

/* Everything of the document except the options, into c (rules already set); then the cross-checks. */
static int read_position(const json_t *root, stpete_core *c, stpete_error *err)
{
    int version = doc_version(root);
    int rc = keys_only(root, "state", state_keys, STATE_KEYS(version), err);
    if (rc)
        return rc;
    const json_t *view = json_object_get(root, "view");
    if (!json_is_string(view))
        return jfail(err, STPETE_E_PARSE, "view: must be \"full\", \"seat\" or \"public\"");
    if (strcmp(json_string_value(view), "full") != 0) {
        if (strcmp(json_string_value(view), "seat") != 0 && strcmp(json_string_value(view), "public") != 0)
            return jfail(err, STPETE_E_PARSE, "view: must be \"full\", \"seat\" or \"public\"");
        return jfail(err, STPETE_E_REDACTED,
                     "this is a %s view with secrets removed (§9): it cannot be loaded as a playable state",
                     json_string_value(view));
    }
    if (!json_is_null(json_object_get(root, "viewer")))
        return jfail(err, STPETE_E_PARSE, "viewer: must be null in a full state");
    int n = c->rules.players;
    const json_t *rng = json_object_get(root, "rng");
    if (!json_is_object(rng))
        return jfail(err, json_is_null(rng) ? STPETE_E_REDACTED : STPETE_E_PARSE, "rng: must be an object");
    static const char *const rng_keys[] = { "state", "inc" };
    rc = keys_only(rng, "rng", rng_keys, 2, err);
    if (!rc)
        rc = get_u64(rng, "rng", "state", 1, &c->rng.state, err);
    if (!rc)
        rc = get_u64(rng, "rng", "inc", 1, &c->rng.inc, err);
    if (rc)
        return rc;
    if (!(c->rng.inc & 1u))
        return jfail(err, STPETE_E_INCONSISTENT, "rng.inc: must be odd (PCG32 stream)");
    int round = 0, phase = 0, decision = 0, current = 0, passes = 0, final_round = 0, pub_next = 0;
    rc = get_int(root, "state", "round", 1, ROUND_MAX, &round, err);
    if (!rc)
        rc = get_keyword(root, "state", "phase", phase_keys, 4, &phase, err);
    if (!rc)
        rc = get_keyword(root, "state", "decision", decision_keys, version >= 2 ? 5 : 4, &decision, err);
    if (!rc)
        rc = get_int(root, "state", "current_player", 0, n - 1, &current, err);
    if (!rc)
        rc = get_int(root, "state", "consecutive_passes", 0, n - 1, &passes, err);
    if (!rc)
        rc = get_bool(root, "state", "final_round", &final_round, err);
    if (!rc)
        rc = get_int(root, "state", "pub_next", 0, n, &pub_next, err);
    if (rc)
        return rc;
    c->round = (uint8_t)round;
    c->phase = (uint8_t)phase;
    c->decision = (uint8_t)decision;
    c->current = (uint8_t)current;
    c->passes = (uint8_t)passes;
    c->final_round = (uint8_t)final_round;
    c->pub_next = (uint8_t)pub_next;
    const json_t *obs = json_object_get(root, "observatory_card");
    c->obs_card = -1;
    if (!json_is_null(obs)) {
        int t = 0;
        rc = card_of(obs, "observatory_card", 0, &t, err);
        if (rc)
            return jfail(err, rc, "observatory_card: must be null or a card name");
        c->obs_card = (int8_t)t;
    }
    if (version >= 2) {
        rc = read_chance(root, c, err);
        if (!rc)
            rc = get_u64(root, "state", "public_hash", 1, &c->public_hash, err);
        if (rc)
            return rc;
    }
    if (version >= 3) { /* before: nothing said what the seats remember, so they remember nothing (doc/format.md) */
        int recalled = 0;
        rc = get_bool(root, "state", "rubles_recalled", &recalled, err);
        if (rc)
            return rc;
        c->rubles_recalled = (uint8_t)recalled;
        if (!json_is_null(json_object_get(root, "information_state_key")))
            return jfail(err, STPETE_E_PARSE, "information_state_key: must be null in a full state");
    }
    const json_t *markers = json_object_get(root, "start_player_markers");
    if (c->chance == CHANCE_MARKERS) { /* not dealt yet (§3.3) */
        if (!json_is_null(markers))
            return jfail(err, STPETE_E_INCONSISTENT, "start_player_markers: must be null while the marker deal is the "
                                                     "pending chance event (§3.3)");
        markers = NULL;
    } else if (!json_is_array(markers) || json_array_size(markers) != STPETE_NUM_PHASES)
        return jfail(err, STPETE_E_PARSE, "start_player_markers: must be an array of 4 seats");
    int seats[STPETE_NUM_PHASES] = { 0, 1, 2, 3 };
    for (int k = 0; markers && k < STPETE_NUM_PHASES; k++) {
        json_t *v = json_array_get(markers, (size_t)k);
        if (!json_is_integer(v))
            return jfail(err, STPETE_E_PARSE, "start_player_markers[%d]: must be an integer", k);
        if (json_integer_value(v) < 0 || json_integer_value(v) >= n)
            return jfail(err, STPETE_E_INCONSISTENT, "start_player_markers[%d]: must be a seat in [0, %d)", k, n);
        seats[k] = (int)json_integer_value(v);
        c->markers[k] = (uint8_t)seats[k];
    }
    char why[160];
    if (markers && stpete_markers_check(seats, n, why, sizeof why))
        return jfail(err, STPETE_E_INCONSISTENT, "start_player_markers: %s", why);
    const json_t *sizes = json_object_get(root, "stack_sizes"), *stacks = json_object_get(root, "stacks");
    if (!json_is_object(sizes) || !json_is_object(stacks))
        return jfail(err, STPETE_E_PARSE, "stack_sizes and stacks: must be objects keyed by stack");
    rc = keys_only(sizes, "stack_sizes", stack_keys, 4, err);
    if (!rc)
        rc = keys_only(stacks, "stacks", stack_keys, 4, err);
    if (rc)
        return rc;
    for (int s = 0; s < STPETE_NUM_STACKS; s++) {
        char path[24];
        snprintf(path, sizeof path, "stacks.%s", stack_keys[s]);
        const json_t *list = json_object_get(stacks, stack_keys[s]);
        if (json_is_null(list))
            return jfail(err, STPETE_E_REDACTED, "%s: the order of the stack is hidden in a view (§9)", path);
        rc = get_cards(list, path, c->stack[s], STACK_CAP, &c->stack_n[s], err);
        if (rc)
            return rc;
        for (int i = 0; i < c->stack_n[s]; i++) {
            if (stpete_stack_of(c->stack[s][i]) != s)
                return jfail(err, STPETE_E_INCONSISTENT, "%s[%d]: %s belongs to another stack (§2)", path, i,
                             stpete_cards[c->stack[s][i]].name);
            if (c->rules.chance_mode == STPETE_CHANCE_EXPLICIT && i > 0 && c->stack[s][i] < c->stack[s][i - 1])
                return jfail(err, STPETE_E_INCONSISTENT, "%s: in explicit-chance mode a stack is a multiset, written "
                                                         "in card-type order", path);
        }
        int size;
        rc = get_int(sizes, "stack_sizes", stack_keys[s], 0, STACK_CAP, &size, err);
        if (rc)
            return rc;
        if (size != c->stack_n[s])
            return jfail(err, STPETE_E_INCONSISTENT, "stack_sizes.%s: %d, but the stack holds %d cards",
                         stack_keys[s], size, c->stack_n[s]);
    }
    rc = get_cards(json_object_get(root, "upper_row"), "upper_row", c->row[0], ROW_CAP, &c->row_n[0], err);
    if (!rc)
        rc = get_cards(json_object_get(root, "lower_row"), "lower_row", c->row[1], ROW_CAP, &c->row_n[1], err);
    if (!rc)
        rc = get_multiset(json_object_get(root, "discard"), "discard", c->discard, err);
    if (rc)
        return rc;
    if (c->row_n[0] + c->row_n[1] > STPETE_BOARD_SIZE)
        return jfail(err, STPETE_E_INCONSISTENT, "the board holds %d cards, more than %d (§4.5)",
                     c->row_n[0] + c->row_n[1], STPETE_BOARD_SIZE);
    const json_t *players = json_object_get(root, "players");
    if (!json_is_array(players) || json_array_size(players) != (size_t)n)
        return jfail(err, STPETE_E_PARSE, "players: must be an array of %d players", n);
    for (int i = 0; i < n; i++) {
        rc = read_player(json_array_get(players, (size_t)i), i, version, &c->p[i], err);
        if (rc)
            return rc;
    }
    /* §2: every one of the 116 cards in exactly one place. */
    int count[STPETE_NUM_CARD_TYPES] = { 0 };
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
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++) {
        count[t] += c->discard[t];
        for (int i = 0; i < n; i++)
            count[t] += c->p[i].display[t];
        if (count[t] != stpete_cards[t].copies)
            return jfail(err, STPETE_E_INCONSISTENT, "%d copies of %s are placed, the game has %d (§2: 116 cards)",
                         count[t], stpete_cards[t].name, stpete_cards[t].copies);
    }
    /* The decision matches the phase and the drawn card (§7.1, §7.2). */
    if ((c->decision == STPETE_DECISION_OBSERVATORY) != (c->obs_card >= 0))
        return jfail(err, STPETE_E_INCONSISTENT, "observatory_card: set exactly when the decision is \"observatory\"");
    if ((c->decision == STPETE_DECISION_OBSERVATORY || c->decision == STPETE_DECISION_PUB) &&
        c->phase != STPETE_PHASE_BUILDING)
        return jfail(err, STPETE_E_INCONSISTENT, "decision \"%s\" happens only in the building phase (§7.1, §7.2)",
                     decision_keys[c->decision]);
    if (c->decision == STPETE_DECISION_OBSERVATORY && c->p[c->current].obs_used == 0)
        return jfail(err, STPETE_E_INCONSISTENT, "an Observatory draw needs a used Observatory of the current player "
                                                 "(§7.1)");
    if (c->decision == STPETE_DECISION_PUB && c->p[c->current].display[STPETE_CARD_PUB] == 0)
        return jfail(err, STPETE_E_INCONSISTENT, "a Pub decision needs a Pub of the current player (§7.2)");
    /* The Pub step asks the owners in turn from the building phase's start player (§7.2): pub_next counts the
     * seats asked, the current one included; 0 outside a Pub decision. */
    if (c->decision == STPETE_DECISION_PUB
            ? c->pub_next == 0 || c->current != (c->markers[STPETE_PHASE_BUILDING] + c->pub_next - 1) % n
            : c->pub_next != 0)
        return jfail(err, STPETE_E_INCONSISTENT, "pub_next: must count the seats asked in the Pub step, the current "
                                                 "player last, and be 0 outside it (§7.2)");
    /* The final round begins exactly when a deal takes the last card of a stack (§4.6, R4; an Observatory never
     * takes a stack's last card, §7.1), and stacks are never refilled: final_round is set iff a stack is empty.
     * Without this a loaded game could never end. */
    int empty = -1;
    for (int s = STPETE_NUM_STACKS - 1; s >= 0; s--)
        if (c->stack_n[s] == 0)
            empty = s;
    if (empty >= 0 && !c->final_round)
        return jfail(err, STPETE_E_INCONSISTENT, "final_round: the %s stack is empty, so this is the final round "
                                                 "(§4.6, R4)", stack_keys[empty]);
    if (empty < 0 && c->final_round)
        return jfail(err, STPETE_E_INCONSISTENT, "final_round: no stack is empty, so no deal has started the final "
                                                 "round (§4.6, R4)");
    /* A finished game ended after the final round's trading phase (§4.6, §8): its last N passes were counted and
     * reset, nothing is pending. */
    if (c->decision == STPETE_DECISION_GAME_OVER &&
        (!c->final_round || c->phase != STPETE_PHASE_TRADING || c->passes != 0))
        return jfail(err, STPETE_E_INCONSISTENT, "decision \"game-over\": a game ends only after the trading phase of "
                                                 "the final round, with no pass pending (§4.6, §8)");
    rc = check_chance_node(c, err);
    if (rc)
        return rc;
    if (version < 2) /* no public history recorded: it starts from what is public in this position (§9) */
        c->public_hash = stpete_public_digest(c);
    return STPETE_OK;
}

static int state_from_json_impl(stpete_state **out, const stpete_game *game, const char *json, size_t len,
                                      stpete_error *err)
{
    jclear(err);
    if (!out)
        return jfail(err, STPETE_E_INVALID_ARGUMENT, "out is NULL");
    *out = NULL;
    if (!game || !json)
        return jfail(err, STPETE_E_INVALID_ARGUMENT, "%s is NULL", game ? "json" : "game");
    json_t *root;
    int rc = load(json, len, FORMAT_STATE, &root, err);
    if (rc)
        return rc;
    stpete_options opts;
    stpete_options_init(&opts);
    rc = read_options(root, &opts, err);
    stpete_rules doc_rules; /* the options were range-checked by read_options */
    if (!rc)
        stpete_rules_of(&opts, &doc_rules);
    if (!rc && !stpete_rules_same(&doc_rules, &game->rules))
        rc = jfail(err, STPETE_E_MISMATCH, "options: the state is of a game with other options than this game's");
    stpete_core core;
    memset(&core, 0, sizeof core);
    core.rules = game->rules;
    if (!rc)
        rc = read_position(root, &core, err);
    json_decref(root);
    if (rc)
        return rc;
    stpete_state *st;
    rc = stpete_state_new(game, &st, NULL);
    if (rc)
        return jfail(err, rc, "%s", stpete_strerror(rc));
    st->core = core;
    *out = st;
    return STPETE_OK;
}

/* ---- replay records ---------------------------------------------------------------------------------- */

/* Ids a replay record holds: the actions, and in explicit-chance mode the chance outcomes (stpete.h, group
 * "Search and learning"); stpete_core_apply() refuses whatever the game's mode does not allow. */
#define ID_END (STPETE_CHANCE_CARD_FIRST + STPETE_NUM_CHANCE_OUTCOMES)

static json_t *result_json(const stpete_core *c, int *ok)
{
    json_t *r = json_object();
    int over = c->decision == STPETE_DECISION_GAME_OVER;
    put(r, "game_over", json_boolean(over), ok);
    json_t *vp = json_array();
    for (int i = 0; i < c->rules.players; i++)
        push(vp, json_integer(c->p[i].vp), ok);
    put(r, "vp", vp, ok);
    json_t *winners = json_null();
    if (over) {
        winners = json_array();
        unsigned mask = stpete_winners_of(c);
        for (int i = 0; i < c->rules.players; i++)
            if (mask >> i & 1u)
                push(winners, json_integer(i), ok);
    }
    put(r, "winners", winners, ok);
    return r;
}

STPETE_API int stpete_replay_to_json(const stpete_game *game, uint64_t seed, const int *actions, size_t n,
                                     char *buf, size_t size, size_t *len)
{
    if (!game || !len || (!actions && n) || (!buf && size))
        return STPETE_E_INVALID_ARGUMENT;
    stpete_core c; /* the replay runs on a plain position: no handle, no events */
    stpete_core_setup(&c, &game->rules, seed, NULL);
    int ok = 1;
    json_t *root = header(FORMAT_REPLAY, &ok);
    put(root, "options", options_json(&game->opts, &seed, &ok), &ok);
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) {
        int id = actions[i];
        if (id < 0 || id >= ID_END || stpete_core_apply(&c, id, NULL, NULL, 0)) {
            json_decref(list);
            json_decref(root);
            return STPETE_E_ILLEGAL_ACTION;
        }
        char text[STPETE_ACTION_STRING_MAX];
        stpete_id_to_string(stpete_cards_of(&game->rules), id, text, sizeof text); /* the edition's names */
        json_t *a = json_object();
        put(a, "id", json_integer(id), &ok);
        put(a, "action", json_string_nocheck(text), &ok);
        push(list, a, &ok);
    }
    put(root, "actions", list, &ok);
    put(root, "result", result_json(&c, &ok), &ok);
    return dump(root, ok, REPLAY_FLAGS, buf, size, len);
}

static const char *const replay_keys[] = { "format", "format_version", "options", "actions", "result" };
static const char *const action_keys[] = { "id", "action" };

/* Replay the actions on a scratch state, checking each, then the recorded result. */
static int verify_replay(const json_t *root, const stpete_game *game, stpete_error *err)
{
    stpete_core c; /* the replay runs on a plain position: no handle, no events */
    stpete_core_setup(&c, &game->rules, game->opts.seed, NULL);
    const json_t *list = json_object_get(root, "actions");
    size_t i;
    json_t *a;
    json_array_foreach(list, i, a) {
        char path[32];
        snprintf(path, sizeof path, "actions[%zu]", i);
        if (!json_is_object(a))
            return jfail(err, STPETE_E_PARSE, "%s: must be an object {\"id\", \"action\"}", path);
        /* "id" is required, "action" (the string) optional */
        int id = 0, rc = keys_only(a, path, action_keys, json_object_get(a, "action") ? 2 : 1, err);
        if (!rc)
            rc = get_int(a, path, "id", 0, ID_END - 1, &id, err);
        if (rc)
            return rc;
        const json_t *text = json_object_get(a, "action");
        int named;
        if (text && (!json_is_string(text) || stpete_action_from_string(json_string_value(text), &named) != 0 ||
                     named != id))
            return jfail(err, STPETE_E_INCONSISTENT, "%s.action: must be the string of action %d", path, id);
        char why[160];
        if (stpete_core_apply(&c, id, NULL, why, sizeof why))
            return jfail(err, STPETE_E_INCONSISTENT, "%s: action %d is not legal: %s", path, id, why);
    }
    const json_t *r = json_object_get(root, "result");
    if (json_is_null(r))
        return STPETE_OK;
    int ok = 1;
    json_t *expect = result_json(&c, &ok);
    int same = ok && json_equal(expect, (json_t *)r);
    json_decref(expect);
    if (!ok)
        return jfail(err, STPETE_E_OUT_OF_MEMORY, "out of memory");
    if (!same)
        return jfail(err, STPETE_E_INCONSISTENT, "result: not the result the actions reach");
    return STPETE_OK;
}

static int replay_from_json_impl(stpete_game **game_out, int *actions, size_t cap, size_t *n,
                                       const char *json, size_t len, const stpete_allocator *alloc,
                                       stpete_error *err)
{
    jclear(err);
    if (!game_out)
        return jfail(err, STPETE_E_INVALID_ARGUMENT, "game_out is NULL");
    *game_out = NULL;
    if (!n || !json || (!actions && cap))
        return jfail(err, STPETE_E_INVALID_ARGUMENT, "n, json or actions is NULL");
    json_t *root;
    int rc = load(json, len, FORMAT_REPLAY, &root, err);
    if (rc)
        return rc;
    const json_t *list = json_object_get(root, "actions");
    rc = keys_only(root, "replay", replay_keys, sizeof replay_keys / sizeof *replay_keys, err);
    if (!rc && !json_is_array(list))
        rc = jfail(err, STPETE_E_PARSE, "actions: must be an array");
    if (rc) {
        json_decref(root);
        return rc;
    }
    *n = json_array_size(list);
    stpete_game *game = NULL;
    rc = game_of(root, alloc, &game, err);
    if (!rc && *n > (size_t)stpete_game_max_length(game))
        rc = jfail(err, STPETE_E_TOO_LARGE, "actions: %zu actions, more than the longest possible game (%d)", *n,
                   stpete_game_max_length(game));
    if (!rc && *n > cap)
        rc = jfail(err, STPETE_E_BUFFER_TOO_SMALL, "%zu actions do not fit in %zu", *n, cap);
    if (!rc)
        rc = verify_replay(root, game, err);
    if (!rc && actions) /* only once everything checked: a failure writes nothing */
        for (size_t i = 0; i < *n; i++)
            actions[i] = (int)json_integer_value(json_object_get(json_array_get(list, i), "id"));
    json_decref(root);
    if (rc) {
        stpete_game_free(game);
        return rc;
    }
    *game_out = game;
    return STPETE_OK;
}

/* ---- the public readers: the caller's stpete_error (stpete.h, "Parameters") ---------------------------- */

STPETE_API int stpete_game_from_json(const char *json, size_t len, const stpete_allocator *alloc, stpete_game **out,
                                     stpete_error *err)
{
    int rc = stpete_error_check(err);
    if (rc)
        return rc;
    stpete_error e = STPETE_ERROR_INIT;
    return stpete_error_finish(err, &e, game_from_json_impl(out, json, len, alloc, &e));
}

STPETE_API int stpete_state_from_json(const stpete_game *game, const char *json, size_t len, stpete_state **out,
                                      stpete_error *err)
{
    int rc = stpete_error_check(err);
    if (rc)
        return rc;
    stpete_error e = STPETE_ERROR_INIT;
    return stpete_error_finish(err, &e, state_from_json_impl(out, game, json, len, &e));
}

STPETE_API int stpete_replay_from_json(const char *json, size_t len, const stpete_allocator *alloc,
                                       stpete_game **game_out, int *actions, size_t capacity, size_t *count,
                                       stpete_error *err)
{
    int rc = stpete_error_check(err);
    if (rc)
        return rc;
    stpete_error e = STPETE_ERROR_INIT;
    rc = replay_from_json_impl(game_out, actions, capacity, count, json, len, alloc, &e);
    return stpete_error_finish(err, &e, rc);
}
