/* The JSON reader (jansson): games, full states and the parsing of replay records (replay.c checks them). The
 * schema is documented in doc/format.md; keep the two in step. The reader only parses: a document becomes a plain
 * position (stpete_core), options or an action list, each value checked against what its key may hold (its type and
 * its range, doc/format.md), with the path of the key in the error text and jansson's line and column for a syntax
 * error. Whether the position is one the rules allow is stpete_validate_position()'s question (validate.c, the engine
 * layer). Nothing is allocated until every check has passed: a failure builds nothing. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json/json.h"

/* The round counter is 8 bits and saturates at 255 (rules.c), so every value it can take loads again. */
#define ROUND_MAX 255

#define stack_keys stpete_stack_words
#define phase_keys stpete_phase_words
#define decision_keys stpete_decision_words

/* ---- reading: small checked getters ----------------------------------------------------------------- */

/* Every getter reports "path.key: problem" and returns a status; path names the enclosing object. */

int stpete_read_keys_only(const json_t *obj, const char *path, const char *const *keys, size_t n,
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
            return stpete_error_fail(err, STPETE_E_PARSE, "%s: unknown key \"%.60s\"", path, key);
    }
    for (size_t i = 0; i < n; i++)
        if (!json_object_get(obj, keys[i]))
            return stpete_error_fail(err, STPETE_E_PARSE, "%s: missing key \"%s\"", path, keys[i]);
    return STPETE_OK;
}

int stpete_read_int(const json_t *obj, const char *path, const char *key, long long lo, long long hi, int *out,
                               stpete_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v))
        return stpete_error_fail(err, STPETE_E_PARSE, "%s.%s: must be an integer", path, key);
    long long x = json_integer_value(v);
    if (x < lo || x > hi)
        return stpete_error_fail(err, STPETE_E_INCONSISTENT,
                                "%s.%s: must be an integer in [%lld, %lld], not %lld", path, key, lo, hi, x);
    *out = (int)x;
    return STPETE_OK;
}

static int get_bool(const json_t *obj, const char *path, const char *key, int *out, stpete_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_boolean(v))
        return stpete_error_fail(err, STPETE_E_PARSE, "%s.%s: must be true or false", path, key);
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
    return stpete_error_fail(err, STPETE_E_PARSE,
                            "%s.%s: must be one of \"%s\" ... \"%s\"", path, key, words[0], words[n - 1]);
}

static int card_of(const json_t *v, const char *path, int index, int *card, stpete_error *err)
{
    int t = json_is_string(v) ? stpete_cards_lookup(json_string_value(v), json_string_length(v)) : -1;
    if (t < 0)
        return stpete_error_fail(err, STPETE_E_PARSE, "%s[%d]: must be a card name of either edition (§2, §11)", path,
                                 index);
    *card = t;
    return STPETE_OK;
}

/* A list of at most cap card names into cards[]; *n = its length. */
static int get_cards(const json_t *arr, const char *path, uint8_t *cards, int cap, uint8_t *n,
                     stpete_error *err)
{
    if (!json_is_array(arr))
        return stpete_error_fail(err, STPETE_E_PARSE, "%s: must be an array of card names", path);
    if (json_array_size(arr) > (size_t)cap)
        return stpete_error_fail(err, STPETE_E_INCONSISTENT,
                                "%s: at most %d cards, not %zu", path, cap, json_array_size(arr));
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

/* A multiset of card names into per-type counts (how many copies the game has is stpete_validate_position()'s, §2). */
static int get_multiset(const json_t *arr, const char *path, uint8_t *counts, stpete_error *err)
{
    uint8_t cards[STPETE_NUM_CARDS_NEW_SOCIETY], n = 0; /* 116 cards, 144 with the New Society (§12.2.4) */
    int rc = get_cards(arr, path, cards, STPETE_NUM_CARDS_NEW_SOCIETY, &n, err);
    for (int i = 0; !rc && i < n; i++)
        counts[cards[i]]++;
    return rc;
}

static int get_u64(const json_t *obj, const char *path, const char *key, int hex, uint64_t *out,
                   stpete_error *err)
{
    json_t *v = json_object_get(obj, key);
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    size_t n = s ? json_string_length(v) : 0;
    if (!s || n == 0 || (hex ? n != 16u : n > 20u)) /* hex: exactly 16 digits, as written (doc/format.md) */
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
    return stpete_error_fail(err, STPETE_E_PARSE, "%s.%s: must be a string of %s", path, key,
                            hex ? "16 lowercase hex digits" : "1 to 20 decimal digits (an unsigned 64-bit number)");
}

/* ---- reading: documents and options ------------------------------------------------------------------ */

/* Parse the text and check the header; *root is the document (the caller frees it) on success. */
int stpete_read_root(const char *json, size_t len, const char *format, json_t **root, stpete_error *err)
{
    *root = NULL;
    size_t max = format && strcmp(format, STPETE_FORMAT_STATE) == 0 ? STPETE_JSON_STATE_MAX : STPETE_JSON_REPLAY_MAX;
    if (len > max) /* before parsing: a huge document costs nothing to refuse */
        return stpete_error_fail(err, STPETE_E_TOO_LARGE,
                                "the document has %zu bytes; a %s has at most %zu (doc/format.md)", len,
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
        rc = stpete_error_fail(err, STPETE_E_PARSE, "the document must be a JSON object");
    else if (!json_is_string(f) || (format && strcmp(json_string_value(f), format) != 0) ||
             (!format && strcmp(json_string_value(f), STPETE_FORMAT_STATE) != 0 &&
              strcmp(json_string_value(f), STPETE_FORMAT_REPLAY) != 0))
        rc = stpete_error_fail(err, STPETE_E_PARSE,
                              "format: must be \"%s\"",
                              format ? format : STPETE_FORMAT_STATE "\" or \"" STPETE_FORMAT_REPLAY);
    else if (!json_is_integer(v) || json_integer_value(v) < 1)
        rc = stpete_error_fail(err, STPETE_E_PARSE, "format_version: must be a positive integer");
    else if (json_integer_value(v) > stpete_options_newest_format())
        rc = stpete_error_fail(err, STPETE_E_UNSUPPORTED_VERSION,
                              "format_version %lld is newer than this library's (%d)",
                              json_integer_value(v), stpete_options_newest_format());
    if (rc) {
        json_decref(*root);
        *root = NULL;
    }
    return rc;
}

/* The format version of a document that stpete_read_root() accepted. */
static int doc_version(const json_t *root)
{
    return (int)json_integer_value(json_object_get(root, "format_version"));
}

/* options.start_markers: null (dealt at random) or one seat per phase, each below players (read before it). */
static int get_seats(const json_t *o, const char *key, int players, int seats[STPETE_NUM_PHASES], stpete_error *err)
{
    const json_t *m = json_object_get(o, key);
    for (int k = 0; k < STPETE_NUM_PHASES; k++)
        seats[k] = -1;
    if (json_is_null(m))
        return STPETE_OK;
    if (!json_is_array(m) || json_array_size(m) != STPETE_NUM_PHASES)
        return stpete_error_fail(err, STPETE_E_PARSE, "options.%s: must be null or an array of 4 seats", key);
    for (int k = 0; k < STPETE_NUM_PHASES; k++) {
        json_t *v = json_array_get(m, (size_t)k);
        if (!json_is_integer(v))
            return stpete_error_fail(err, STPETE_E_PARSE, "options.%s[%d]: must be an integer", key, k);
        if (json_integer_value(v) < 0 || json_integer_value(v) >= players)
            return stpete_error_fail(err, STPETE_E_INCONSISTENT, "options.%s[%d]: must be a seat in [0, %d)", key,
                                     k, players);
        seats[k] = (int)json_integer_value(v);
    }
    return STPETE_OK;
}

/* One option of the "options" object into its member of opts, by its type (the table of options, api/options.c):
 * a boolean, an integer in range, a word, the seed (a decimal string in a replay record, null in a state
 * document: the rng object continues the game) or the markers' seats. */
static int read_option(const json_t *o, const stpete_option_def *d, int state_doc, stpete_options *opts,
                       stpete_error *err)
{
    const stpete_option_info *in = &d->info;
    char *member = (char *)opts + d->offset;
    int v = 0, rc;
    switch (in->type) {
    case STPETE_OPTION_SEED:
        if (state_doc)
            return json_is_null(json_object_get(o, in->name))
                       ? STPETE_OK
                       : stpete_error_fail(err, STPETE_E_PARSE,
                                           "options.%s: must be null in a state (the rng object continues the game)",
                                           in->name);
        return get_u64(o, "options", in->name, 0, (uint64_t *)(void *)member, err);
    case STPETE_OPTION_SEATS:
        return get_seats(o, in->name, opts->players, (int *)(void *)member, err);
    case STPETE_OPTION_BOOL:
        rc = get_bool(o, "options", in->name, &v, err);
        break;
    case STPETE_OPTION_ENUM:
        rc = get_keyword(o, "options", in->name, in->words, in->num_words, &v, err);
        break;
    default:
        rc = stpete_read_int(o, "options", in->name, in->min, in->max, &v, err);
        break;
    }
    if (!rc)
        memcpy(member, &v, sizeof v);
    return rc;
}

/* The "options" object into opts (allocator untouched): the table's options of the document's format version, each
 * present, no other key; the others keep their defaults (version 1 had only the sampled mode and the first edition,
 * version 4 added the New Society's). Validity of the combination is stpete_game_new()'s. */
static int read_options(const json_t *root, stpete_options *opts, stpete_error *err)
{
    const json_t *o = json_object_get(root, "options");
    if (!json_is_object(o))
        return stpete_error_fail(err, STPETE_E_PARSE, "options: must be an object");
    int version = doc_version(root);
    const char *keys[STPETE_OPTIONS_MAX] = { NULL };
    size_t n = 0;
    while (n < (size_t)stpete_options_rows && stpete_options_table[n].format_version <= version) {
        keys[n] = stpete_options_table[n].info.name;
        n++;
    }
    int rc = stpete_read_keys_only(o, "options", keys, n, err);
    const char *format = json_string_value(json_object_get(root, "format"));
    int state_doc = format && strcmp(format, STPETE_FORMAT_STATE) == 0;
    for (size_t i = 0; !rc && i < n; i++) /* players before start_markers, whose seats it bounds */
        rc = read_option(o, &stpete_options_table[i], state_doc, opts, err);
    return rc;
}

/* Create the game of a document's options. */
int stpete_read_game(const json_t *root, const stpete_allocator *alloc, stpete_game **out, stpete_error *err)
{
    stpete_options opts;
    stpete_options_init(&opts);
    if (alloc) {
        int set = (alloc->malloc_fn != NULL) + (alloc->realloc_fn != NULL) + (alloc->free_fn != NULL);
        if (set != 0 && set != 3)
            return stpete_error_fail(err, STPETE_E_INVALID_ARGUMENT,
                                    "a partial allocator: set all three functions or none");
        opts.allocator = *alloc;
    }
    int rc = read_options(root, &opts, err);
    if (rc)
        return rc;
    stpete_error why = STPETE_ERROR_INIT;
    if (stpete_options_check(&opts, &why)) /* the allocator was checked above: the options break §3 */
        return stpete_error_fail(err, STPETE_E_INCONSISTENT, "options: %s", why.message);
    rc = stpete_game_new(&opts, out, NULL);
    if (rc)
        return stpete_error_fail(err, rc, "%s", stpete_strerror(rc));
    return STPETE_OK;
}

static int game_from_json_impl(stpete_game **out, const char *json, size_t len,
                                     const stpete_allocator *alloc, stpete_error *err)
{
    if (!out)
        return stpete_error_fail(err, STPETE_E_INVALID_ARGUMENT, "out is NULL");
    *out = NULL;
    if (!json)
        return stpete_error_fail(err, STPETE_E_INVALID_ARGUMENT, "json is NULL");
    json_t *root;
    int rc = stpete_read_root(json, len, NULL, &root, err);
    if (rc)
        return rc;
    rc = stpete_read_game(root, alloc, out, err);
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
                                           "hand_backs", "hand", "hand_known", "prison_used" };
/* Version 4 adds prison_used (§12.7.5), in a game with the New Society only. */
#define PLAYER_KEYS(v, ns) ((v) >= 4 && (ns) ? 9u : (v) >= 2 ? 8u : 7u)

/* A player's hand, its backs and which of its cards everyone saw taken (§9), after the player's other keys. */
static int read_hand(const json_t *pj, const char *path, int version, int hand_size, player_state *p,
                     stpete_error *err)
{
    char sub[48];
    int rc;
    const json_t *hand = json_object_get(pj, "hand");
    if (json_is_null(hand))
        return stpete_error_fail(err, STPETE_E_REDACTED, "%s.hand: hidden in a view (§9)", path);
    for (size_t h = 0; json_is_array(hand) && h < json_array_size(hand); h++) /* version 3 views: per card */
        if (json_is_null(json_array_get(hand, h)))
            return stpete_error_fail(err, STPETE_E_REDACTED, "%s.hand[%zu]: hidden in a view (§9)", path, h);
    snprintf(sub, sizeof sub, "%s.hand", path);
    rc = get_cards(hand, sub, p->hand, STPETE_MAX_HAND, &p->hand_n, err);
    if (rc)
        return rc;
    const json_t *backs = json_object_get(pj, "hand_backs");
    if (!json_is_array(backs))
        return stpete_error_fail(err, STPETE_E_PARSE, "%s.hand_backs: must be an array of stack names", path);
    if (p->hand_n != hand_size || json_array_size(backs) != p->hand_n)
        return stpete_error_fail(err, STPETE_E_INCONSISTENT, "%s: hand_size and hand_backs must match the hand", path);
    for (int h = 0; h < p->hand_n; h++) {
        json_t *v = json_array_get(backs, (size_t)h);
        if (!json_is_string(v))
            return stpete_error_fail(err, STPETE_E_PARSE, "%s.hand_backs[%d]: must be a stack name", path, h);
        if (strcmp(json_string_value(v), stack_keys[stpete_cards_stack(p->hand[h])]) != 0)
            return stpete_error_fail(err, STPETE_E_INCONSISTENT,
                                    "%s.hand_backs[%d]: must be the stack of the hand card", path, h);
    }
    /* Which hand cards everyone saw taken (§9); version 1 did not say: every card reaches a hand in view of all. */
    p->hand_known = (uint8_t)((1u << p->hand_n) - 1u);
    if (version < 2)
        return STPETE_OK;
    const json_t *known = json_object_get(pj, "hand_known");
    if (!json_is_array(known) || json_array_size(known) != p->hand_n)
        return stpete_error_fail(err, STPETE_E_PARSE,
                                "%s.hand_known: must be an array of a boolean per hand card", path);
    for (int h = 0; h < p->hand_n; h++) {
        json_t *v = json_array_get(known, (size_t)h);
        if (!json_is_boolean(v))
            return stpete_error_fail(err, STPETE_E_PARSE, "%s.hand_known[%d]: must be true or false", path, h);
        if (json_is_false(v))
            p->hand_known &= (uint8_t)~(1u << h);
    }
    return STPETE_OK;
}

static int read_player(const json_t *pj, int seat, int version, int ns, player_state *p, stpete_error *err)
{
    char path[32];
    snprintf(path, sizeof path, "players[%d]", seat);
    if (!json_is_object(pj))
        return stpete_error_fail(err, STPETE_E_PARSE, "%s: must be an object", path);
    int rc = stpete_read_keys_only(pj, path, player_keys, PLAYER_KEYS(version, ns), err);
    int rubles = 0, vp = 0, used = 0, hand_size = 0, prison = 0;
    if (!rc && version >= 4 && ns)
        rc = get_bool(pj, path, "prison_used", &prison, err);
    p->prison_used = (uint8_t)prison;
    if (!rc && json_is_null(json_object_get(pj, "rubles")))
        rc = stpete_error_fail(err, STPETE_E_REDACTED, "%s.rubles: hidden in a view (§9)", path);
    if (!rc)
        rc = stpete_read_int(pj, path, "rubles", 0, STPETE_RUBLES_MAX, &rubles, err);
    if (!rc)
        rc = stpete_read_int(pj, path, "vp", -STPETE_VP_MAX, STPETE_VP_MAX, &vp, err);
    if (!rc)
        rc = stpete_read_int(pj, path, "observatories_used", 0, 2, &used, err);
    if (!rc)
        rc = stpete_read_int(pj, path, "hand_size", 0, STPETE_MAX_HAND, &hand_size, err);
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
    return read_hand(pj, path, version, hand_size, p, err);
}

/* The pending chance event of a version-2 state: null, or {"event", "stack", "until", "then"}. */
static int read_chance(const json_t *root, stpete_core *c, stpete_error *err)
{
    const json_t *ch = json_object_get(root, "chance");
    if (json_is_null(ch))
        return STPETE_OK;
    static const char *const keys[] = { "event", "stack", "until", "then" };
    if (!json_is_object(ch))
        return stpete_error_fail(err, STPETE_E_PARSE, "chance: must be null or an object");
    int event = 0, rc = stpete_read_keys_only(ch, "chance", keys, 4, err);
    if (!rc)
        rc = get_keyword(ch, "chance", "event", stpete_chance_event_words, 4, &event, err);
    if (rc)
        return rc;
    if (event == CHANCE_NONE)
        return stpete_error_fail(err, STPETE_E_PARSE,
                                "chance.event: must be \"deal\", \"markers\" or \"draw\" (null for none)");
    c->chance = (uint8_t)event;
    int stack = 0, until = 0, then = 0;
    if (event == CHANCE_MARKERS) {
        if (!json_is_null(json_object_get(ch, "stack")) || !json_is_null(json_object_get(ch, "until")) ||
            !json_is_null(json_object_get(ch, "then")))
            return stpete_error_fail(err, STPETE_E_PARSE, "chance: stack, until and then are null for the marker deal");
        return STPETE_OK;
    }
    rc = get_keyword(ch, "chance", "stack", stack_keys, STPETE_NUM_STACKS, &stack, err);
    if (!rc && event == CHANCE_DEAL)
        rc = stpete_read_int(ch, "chance", "until", 1, BOARD_MAX, &until, err); /* 10: §12.3 */
    if (!rc && event == CHANCE_DEAL)
        rc = get_keyword(ch, "chance", "then", stpete_deal_then_words, 3, &then, err);
    if (!rc && event == CHANCE_DRAW &&
        (!json_is_null(json_object_get(ch, "until")) || !json_is_null(json_object_get(ch, "then"))))
        rc = stpete_error_fail(err, STPETE_E_PARSE, "chance: until and then are null for an Observatory draw");
    c->deal_stack = (uint8_t)stack;
    c->deal_to = (uint8_t)until;
    c->deal_then = (uint8_t)then;
    return rc;
}


/* A full state's "view" and "viewer" (a view is refused: §9) and its PRNG. */
static int read_view_rng(const json_t *root, stpete_core *c, stpete_error *err)
{
    const json_t *view = json_object_get(root, "view");
    if (!json_is_string(view))
        return stpete_error_fail(err, STPETE_E_PARSE, "view: must be \"full\", \"seat\" or \"public\"");
    if (strcmp(json_string_value(view), "full") != 0) {
        if (strcmp(json_string_value(view), "seat") != 0 && strcmp(json_string_value(view), "public") != 0)
            return stpete_error_fail(err, STPETE_E_PARSE, "view: must be \"full\", \"seat\" or \"public\"");
        return stpete_error_fail(err, STPETE_E_REDACTED,
                                "this is a %s view with secrets removed (§9): it cannot be loaded as a playable state",
                                json_string_value(view));
    }
    if (!json_is_null(json_object_get(root, "viewer")))
        return stpete_error_fail(err, STPETE_E_PARSE, "viewer: must be null in a full state");
    int rc;
    const json_t *rng = json_object_get(root, "rng");
    if (!json_is_object(rng))
        return stpete_error_fail(err, json_is_null(rng) ? STPETE_E_REDACTED : STPETE_E_PARSE, "rng: must be an object");
    static const char *const rng_keys[] = { "state", "inc" };
    rc = stpete_read_keys_only(rng, "rng", rng_keys, 2, err);
    if (!rc)
        rc = get_u64(rng, "rng", "state", 1, &c->rng.state, err);
    if (!rc)
        rc = get_u64(rng, "rng", "inc", 1, &c->rng.inc, err);
    if (rc)
        return rc;
    return STPETE_OK;
}

/* Where the game stands: round, phase, decision, the seat to act, passes, final round, the Pub step, the card drawn
 * or picked. */
static int read_turn(const json_t *root, int version, stpete_core *c, stpete_error *err)
{
    int n = c->rules.players, rc;
    int round = 0, phase = 0, decision = 0, current = 0, passes = 0, final_round = 0, pub_next = 0;
    rc = stpete_read_int(root, "state", "round", 1, ROUND_MAX, &round, err);
    if (!rc)
        rc = get_keyword(root, "state", "phase", phase_keys, 4, &phase, err);
    if (!rc)
        rc = get_keyword(root, "state", "decision", decision_keys, version >= 4 ? 8 : version >= 2 ? 5 : 4, &decision,
                         err);
    if (!rc)
        rc = stpete_read_int(root, "state", "current_player", 0, n - 1, &current, err);
    if (!rc)
        rc = stpete_read_int(root, "state", "consecutive_passes", 0, n - 1, &passes, err);
    if (!rc)
        rc = get_bool(root, "state", "final_round", &final_round, err);
    if (!rc)
        rc = stpete_read_int(root, "state", "pub_next", 0, n, &pub_next, err);
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
            return stpete_error_fail(err, rc, "observatory_card: must be null or a card name");
        c->obs_card = (int8_t)t;
    }
    return STPETE_OK;
}

/* What versions 2 and 3 add: the pending chance event, the public history hash, what the seats recall. */
static int read_history(const json_t *root, int version, stpete_core *c, stpete_error *err)
{
    int rc;
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
            return stpete_error_fail(err, STPETE_E_PARSE, "information_state_key: must be null in a full state");
    }
    return STPETE_OK;
}

/* The start-player markers (§3.3; null while their deal is pending). */
static int read_markers(const json_t *root, stpete_core *c, stpete_error *err)
{
    int n = c->rules.players;
    const json_t *markers = json_object_get(root, "start_player_markers");
    if (c->chance == CHANCE_MARKERS) { /* not dealt yet (§3.3) */
        if (!json_is_null(markers))
            return stpete_error_fail(err, STPETE_E_INCONSISTENT,
                                    "start_player_markers: must be null while the marker deal is the pending "
                                    "chance event (§3.3)");
        markers = NULL;
    } else if (!json_is_array(markers) || json_array_size(markers) != STPETE_NUM_PHASES)
        return stpete_error_fail(err, STPETE_E_PARSE, "start_player_markers: must be an array of 4 seats");
    for (int k = 0; markers && k < STPETE_NUM_PHASES; k++) {
        json_t *v = json_array_get(markers, (size_t)k);
        if (!json_is_integer(v))
            return stpete_error_fail(err, STPETE_E_PARSE, "start_player_markers[%d]: must be an integer", k);
        if (json_integer_value(v) < 0 || json_integer_value(v) >= n)
            return stpete_error_fail(err, STPETE_E_INCONSISTENT,
                                    "start_player_markers[%d]: must be a seat in [0, %d)", k, n);
        c->markers[k] = (uint8_t)json_integer_value(v);
    }
    return STPETE_OK;
}

/* The stacks and their sizes (§1). */
static int read_stacks(const json_t *root, stpete_core *c, stpete_error *err)
{
    int rc;
    const json_t *sizes = json_object_get(root, "stack_sizes"), *stacks = json_object_get(root, "stacks");
    if (!json_is_object(sizes) || !json_is_object(stacks))
        return stpete_error_fail(err, STPETE_E_PARSE, "stack_sizes and stacks: must be objects keyed by stack");
    rc = stpete_read_keys_only(sizes, "stack_sizes", stack_keys, 4, err);
    if (!rc)
        rc = stpete_read_keys_only(stacks, "stacks", stack_keys, 4, err);
    if (rc)
        return rc;
    for (int s = 0; s < STPETE_NUM_STACKS; s++) {
        char path[24];
        snprintf(path, sizeof path, "stacks.%s", stack_keys[s]);
        const json_t *list = json_object_get(stacks, stack_keys[s]);
        if (json_is_null(list))
            return stpete_error_fail(err, STPETE_E_REDACTED,
                                    "%s: the order of the stack is hidden in a view (§9)", path);
        rc = get_cards(list, path, c->stack[s], STACK_CAP, &c->stack_n[s], err);
        if (rc)
            return rc;
        int size = 0;
        rc = stpete_read_int(sizes, "stack_sizes", stack_keys[s], 0, STACK_CAP, &size, err);
        if (rc)
            return rc;
        if (size != c->stack_n[s])
            return stpete_error_fail(err, STPETE_E_INCONSISTENT, "stack_sizes.%s: %d, but the stack holds %d cards",
                                    stack_keys[s], size, c->stack_n[s]);
    }
    return STPETE_OK;
}

/* The rows, the discard pile and the players. */
static int read_board_players(const json_t *root, int version, stpete_core *c, stpete_error *err)
{
    int n = c->rules.players, rc;
    rc = get_cards(json_object_get(root, "upper_row"), "upper_row", c->row[0], ROW_CAP, &c->row_n[0], err);
    if (!rc)
        rc = get_cards(json_object_get(root, "lower_row"), "lower_row", c->row[1], ROW_CAP, &c->row_n[1], err);
    if (!rc)
        rc = get_multiset(json_object_get(root, "discard"), "discard", c->discard, err);
    if (rc)
        return rc;
    const json_t *players = json_object_get(root, "players");
    if (!json_is_array(players) || json_array_size(players) != (size_t)n)
        return stpete_error_fail(err, STPETE_E_PARSE, "players: must be an array of %d players", n);
    for (int i = 0; i < n; i++) {
        rc = read_player(json_array_get(players, (size_t)i), i, version, c->rules.new_society, &c->p[i], err);
        if (rc)
            return rc;
    }
    return STPETE_OK;
}

static int read_position(const json_t *root, stpete_core *c, stpete_error *err)
{
    int version = doc_version(root);
    int rc = stpete_read_keys_only(root, "state", state_keys, STATE_KEYS(version), err);
    if (!rc)
        rc = read_view_rng(root, c, err);
    if (!rc)
        rc = read_turn(root, version, c, err);
    if (!rc)
        rc = read_history(root, version, c, err);
    if (!rc)
        rc = read_markers(root, c, err);
    if (!rc)
        rc = read_stacks(root, c, err);
    return rc ? rc : read_board_players(root, version, c, err);
}

static int state_from_json_impl(stpete_state **out, const stpete_game *game, const char *json, size_t len,
                                      stpete_error *err)
{
    if (!out)
        return stpete_error_fail(err, STPETE_E_INVALID_ARGUMENT, "out is NULL");
    *out = NULL;
    if (!game || !json)
        return stpete_error_fail(err, STPETE_E_INVALID_ARGUMENT, "%s is NULL", game ? "json" : "game");
    json_t *root;
    int rc = stpete_read_root(json, len, STPETE_FORMAT_STATE, &root, err);
    if (rc)
        return rc;
    stpete_options opts;
    stpete_options_init(&opts);
    rc = read_options(root, &opts, err);
    stpete_rules doc_rules; /* the options were range-checked by read_options */
    if (!rc)
        stpete_game_rules_of(&opts, &doc_rules);
    if (!rc && !stpete_game_rules_same(&doc_rules, &game->rules))
        rc = stpete_error_fail(err, STPETE_E_MISMATCH,
                              "options: the state is of a game with other options than this game's");
    stpete_core core;
    memset(&core, 0, sizeof core);
    core.rules = game->rules;
    if (!rc)
        rc = read_position(root, &core, err);
    int version = rc ? 0 : doc_version(root);
    json_decref(root);
    if (rc)
        return rc;
    char why[sizeof err->message]; /* the whole text a stpete_error holds */
    rc = stpete_validate_position(&core, why, sizeof why);
    if (rc)
        return stpete_error_fail(err, rc, "%s", why);
    if (version < 2) /* no public history recorded: it starts from what is public in this position (§9) */
        core.public_hash = stpete_knowledge_public_digest(&core);
    stpete_state *st;
    rc = stpete_state_new(game, &st, NULL);
    if (rc)
        return stpete_error_fail(err, rc, "%s", stpete_strerror(rc));
    st->core = core;
    st->root_setup = 0; /* the history begins at the loaded position, without the past that led to it */
    *out = st;
    return STPETE_OK;
}

/* The public readers report into the caller's stpete_error (stpete.h, "Parameters"); the parsers above write a
 * complete local one. */
STPETE_API int stpete_game_from_json(const char *json, size_t len, const stpete_allocator *alloc, stpete_game **out,
                                     stpete_error *err)
{
    if (out)
        *out = NULL;
    stpete_error e = STPETE_ERROR_INIT;
    int rc = stpete_error_check(err);
    return rc ? rc : stpete_error_finish(err, &e, game_from_json_impl(out, json, len, alloc, &e));
}

STPETE_API int stpete_state_from_json(const stpete_game *game, const char *json, size_t len, stpete_state **out,
                                      stpete_error *err)
{
    if (out)
        *out = NULL;
    stpete_error e = STPETE_ERROR_INIT;
    int rc = stpete_error_check(err);
    return rc ? rc : stpete_error_finish(err, &e, state_from_json_impl(out, game, json, len, &e));
}
