/* Results files (doc/format.md, "Results files"): the resumable record of a batch of games, one JSON line each,
 * which stpete-arena --out and python3 -m stpete.experiment --out write and read back through these functions, so
 * that the format and its checks have one home. A game line holds the game's replay record (replay.c), and reading
 * it replays the record: a line proves its result, it cannot merely state one. No file is opened here: the
 * programs append, lock and truncate their files themselves. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"

#define RESULTS_FORMAT "stpete-results"
#define RESULTS_VERSION 1
/* A line: a game's replay record with its program's fields; the replay record's own bound applies to it. */
#define RESULTS_LINE_MAX STPETE_JSON_REPLAY_MAX

static const char *const header_keys[] = { "format", "format_version", "program", "library", "hash", "definition" };
static const char *const game_keys[] = { "game", "hash", "record", "fields" };

/* FNV-1a (64 bits) of a NUL-terminated text. */
static uint64_t results_fnv1a(const char *s)
{
    uint64_t h = UINT64_C(0xCBF29CE484222325);
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= UINT64_C(0x100000001B3);
    }
    return h;
}

/* Free a text jansson allocated (json_dumps()) through jansson's hooks, which an application may have set
 * (json_set_alloc_funcs()). */
static void results_dump_free(char *text)
{
    json_malloc_t malloc_fn;
    json_free_t free_fn;
    json_get_alloc_funcs(&malloc_fn, &free_fn);
    if (text)
        free_fn(text);
}

/* Parse a program's JSON object (a definition, a line's fields): *obj (the caller frees it), STPETE_OK or
 * STPETE_E_PARSE with the reason (what names the argument). */
static int object_of(const char *text, const char *what, json_t **obj, stpete_error *err)
{
    json_error_t jerr;
    memset(&jerr, 0, sizeof jerr);
    *obj = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!*obj)
        return json_error_code(&jerr) == json_error_out_of_memory
                   ? stpete_error_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory")
                   : stpete_error_fail(err, STPETE_E_PARSE, "%s: %s", what, jerr.text);
    if (!json_is_object(*obj)) {
        json_decref(*obj);
        *obj = NULL;
        return stpete_error_fail(err, STPETE_E_PARSE, "%s: must be a JSON object", what);
    }
    return STPETE_OK;
}

/* Parse one line (len bytes; its newline, if any, is white space): a JSON object into *obj (the caller frees
 * it). */
static int object_of_bytes(const char *line, size_t len, json_t **obj, stpete_error *err)
{
    json_error_t jerr;
    memset(&jerr, 0, sizeof jerr);
    *obj = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!*obj) {
        if (json_error_code(&jerr) == json_error_out_of_memory)
            return stpete_error_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory");
        int rc = stpete_error_fail(err, STPETE_E_PARSE, "not JSON: %s", jerr.text);
        if (err) { /* where, as the other readers say it */
            err->line = jerr.line;
            err->column = jerr.column;
            err->position = jerr.position;
        }
        return rc;
    }
    if (!json_is_object(*obj)) {
        json_decref(*obj);
        *obj = NULL;
        return stpete_error_fail(err, STPETE_E_PARSE, "a results line must be a JSON object");
    }
    return STPETE_OK;
}

/* The canonical text of a definition (compact, keys sorted; the caller frees it) and its hash (16 lowercase hex
 * digits: FNV-1a 64 of that text). */
static int canonical(const json_t *definition, char **text, char hash[STPETE_RESULTS_HASH_SIZE])
{
    *text = json_dumps(definition, JSON_COMPACT | JSON_SORT_KEYS);
    if (!*text)
        return STPETE_E_OUT_OF_MEMORY;
    snprintf(hash, STPETE_RESULTS_HASH_SIZE, "%016" PRIx64, results_fnv1a(*text));
    return STPETE_OK;
}

/* The definition text parsed, with its canonical text and hash (see canonical()). */
static int definition_of(const char *definition, json_t **obj, char **text, char hash[STPETE_RESULTS_HASH_SIZE],
                         stpete_error *err)
{
    *text = NULL;
    int rc = object_of(definition, "definition", obj, err);
    if (!rc && canonical(*obj, text, hash) != STPETE_OK) {
        json_decref(*obj);
        *obj = NULL;
        rc = stpete_error_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory");
    }
    return rc;
}

/* Copy text (n bytes) into a caller's buffer, NUL-terminated: STPETE_OK, or STPETE_E_BUFFER_TOO_SMALL with
 * nothing written but *len. */
static int text_out(const char *text, size_t n, char *buf, size_t capacity, size_t *len)
{
    *len = n;
    if (n + 1 > capacity)
        return STPETE_E_BUFFER_TOO_SMALL;
    memcpy(buf, text, n + 1);
    return STPETE_OK;
}

STPETE_API int stpete_results_hash(const char *definition, char *buf, size_t capacity, size_t *len)
{
    if (!definition || !len || (!buf && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    json_t *obj;
    char *text, hash[STPETE_RESULTS_HASH_SIZE];
    int rc = definition_of(definition, &obj, &text, hash, NULL);
    if (rc)
        return rc;
    results_dump_free(text);
    json_decref(obj);
    return text_out(hash, strlen(hash), buf, capacity, len);
}

STPETE_API int stpete_results_header_to_json(const char *program, const char *definition, char *buf,
                                             size_t capacity, size_t *len)
{
    if (!program || !definition || !len || (!buf && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    json_t *obj;
    char *text, hash[STPETE_RESULTS_HASH_SIZE];
    int rc = definition_of(definition, &obj, &text, hash, NULL);
    if (rc)
        return rc;
    results_dump_free(text);
    int ok = 1;
    json_t *root = stpete_write_header(RESULTS_FORMAT, RESULTS_VERSION, &ok);
    stpete_json_put(root, "program", json_string(program), &ok);
    stpete_json_put(root, "library", json_string(stpete_version()), &ok);
    stpete_json_put(root, "hash", json_string(hash), &ok);
    stpete_json_put(root, "definition", obj, &ok);
    return stpete_write_dump(root, ok, JSON_COMPACT | JSON_SORT_KEYS, buf, capacity, len);
}

STPETE_API int stpete_results_game_to_json(const stpete_game *game, const char *definition, long long number,
                                           uint64_t seed, const int *actions, size_t count, const char *fields,
                                           char *buf, size_t capacity, size_t *len)
{
    if (!game || !definition || !fields || !len || (!actions && count) || (!buf && capacity) || number < 0 ||
        number > STPETE_RESULTS_GAME_MAX)
        return STPETE_E_INVALID_ARGUMENT;
    json_t *def, *obj, *record;
    char *text, hash[STPETE_RESULTS_HASH_SIZE];
    int rc = definition_of(definition, &def, &text, hash, NULL);
    if (rc)
        return rc;
    results_dump_free(text);
    json_decref(def);
    rc = object_of(fields, "fields", &obj, NULL); /* written as given (a program's numbers keep their digits) */
    json_decref(obj);
    if (!rc && strpbrk(fields, "\r\n"))
        rc = STPETE_E_PARSE; /* one line */
    if (!rc)
        rc = stpete_replay_root(game, seed, actions, count, 0, &record);
    if (rc)
        return rc;
    char *rec = json_dumps(record, JSON_COMPACT);
    json_decref(record);
    if (!rec)
        return STPETE_E_OUT_OF_MEMORY;
    int n = snprintf(buf, capacity, "{\"game\":%lld,\"hash\":\"%s\",\"record\":%s,\"fields\":%s}", number, hash,
                     rec, fields);
    results_dump_free(rec);
    if (n < 0)
        return STPETE_E_OUT_OF_MEMORY;
    *len = (size_t)n;
    return (size_t)n < capacity ? STPETE_OK : STPETE_E_BUFFER_TOO_SMALL;
}

/* The header of a results file (root, parsed), checked against the caller's program and definition (def, its
 * canonical text and hash). */
static int check_results_header(const json_t *root, const char *program, const char *text, const char *hash,
                        stpete_error *err)
{
    int rc = stpete_read_keys_only(root, "header", header_keys, sizeof header_keys / sizeof *header_keys, err);
    if (rc)
        return rc;
    const json_t *f = json_object_get(root, "format"), *v = json_object_get(root, "format_version");
    const json_t *p = json_object_get(root, "program"), *h = json_object_get(root, "hash");
    const json_t *d = json_object_get(root, "definition");
    if (!json_is_string(f) || strcmp(json_string_value(f), RESULTS_FORMAT) != 0)
        return stpete_error_fail(err, STPETE_E_PARSE, "format: must be \"" RESULTS_FORMAT "\"");
    if (!json_is_integer(v) || json_integer_value(v) != RESULTS_VERSION)
        return stpete_error_fail(err, STPETE_E_UNSUPPORTED_VERSION,
                                 "format_version: this library reads version %d of results files", RESULTS_VERSION);
    if (!json_is_string(p) || !json_is_string(h) || !json_is_object(d) ||
        !json_is_string(json_object_get(root, "library")))
        return stpete_error_fail(err, STPETE_E_PARSE,
                                 "header: program, library and hash must be strings, definition an object");
    if (strcmp(json_string_value(p), program) != 0)
        return stpete_error_fail(err, STPETE_E_MISMATCH, "written by %.60s, not by %.60s", json_string_value(p),
                                 program);
    char *theirs, their_hash[STPETE_RESULTS_HASH_SIZE];
    if (canonical(d, &theirs, their_hash) != STPETE_OK)
        return stpete_error_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory");
    int same = strcmp(theirs, text) == 0;
    results_dump_free(theirs);
    if (!same)
        return stpete_error_fail(err, STPETE_E_MISMATCH,
                                 "another definition (hash %s; this run's is %s): its options, seed or players "
                                 "differ", their_hash, hash);
    if (strcmp(json_string_value(h), hash) != 0)
        return stpete_error_fail(err, STPETE_E_INCONSISTENT, "hash: must be %s, the definition's", hash);
    return STPETE_OK;
}

/* A game line's record (parsed) replayed: the same rules as game (STPETE_E_MISMATCH otherwise), every action
 * legal and the recorded result the one reached (stpete_replay_from_json()'s checks), the final position into a
 * new state of game (*out) and the record's seed into *seed. */
static int replay_record(const stpete_game *game, const json_t *record, stpete_state **out, uint64_t *seed,
                         stpete_error *err)
{
    *out = NULL;
    if (!json_is_object(record))
        return stpete_error_fail(err, STPETE_E_PARSE, "record: must be a replay record (an object)");
    const stpete_allocator *al = &game->opts.allocator;
    char *text = json_dumps(record, JSON_COMPACT);
    size_t cap = (size_t)stpete_game_max_length(game), n = 0;
    int *ids = text ? stpete_facts_malloc(al, (cap ? cap : 1) * sizeof *ids) : NULL;
    stpete_game *theirs = NULL;
    int rc = ids ? stpete_replay_read(text, strlen(text), al, &theirs, ids, cap, &n, err)
                 : stpete_error_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory");
    if (rc == STPETE_E_BUFFER_TOO_SMALL || rc == STPETE_E_TOO_LARGE) /* more actions than game's longest */
        rc = stpete_error_fail(err, STPETE_E_TOO_LARGE, "record: more actions than the longest game (%zu)", cap);
    if (!rc && stpete_game_check_compatible(game, theirs) != STPETE_OK)
        rc = stpete_error_fail(err, STPETE_E_MISMATCH, "record: a game of other rules than this run's");
    if (!rc)
        *seed = theirs->opts.seed;
    stpete_game_free(theirs);
    results_dump_free(text);
    if (!rc)
        rc = stpete_state_new(game, out, NULL) ? stpete_error_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory")
                                               : stpete_state_reset(*out, *seed);
    for (size_t i = 0; !rc && i < n; i++) /* legal: the record was replayed with these rules */
        rc = stpete_state_apply(*out, ids[i]);
    stpete_facts_free(al, ids);
    if (rc && *out) {
        stpete_state_free(*out);
        *out = NULL;
    }
    return rc;
}

/* A game line (root, parsed) of the definition of hash: its number, its record replayed into a new state
 * (replay_record()), its fields' compact text (the caller frees it). */
static int read_game_line(const stpete_game *game, const json_t *root, const char *hash, long long *number,
                          uint64_t *seed, stpete_state **replayed, char **fields, stpete_error *err)
{
    *replayed = NULL;
    *fields = NULL;
    int rc = stpete_read_keys_only(root, "game line", game_keys, sizeof game_keys / sizeof *game_keys, err);
    if (rc)
        return rc;
    const json_t *g = json_object_get(root, "game"), *h = json_object_get(root, "hash");
    if (!json_is_integer(g) || json_integer_value(g) < 0 || json_integer_value(g) > STPETE_RESULTS_GAME_MAX)
        return stpete_error_fail(err, STPETE_E_PARSE, "game: must be an integer in [0, %lld]",
                                 (long long)STPETE_RESULTS_GAME_MAX);
    if (!json_is_string(h) || strcmp(json_string_value(h), hash) != 0)
        return stpete_error_fail(err, STPETE_E_MISMATCH, "hash: a line of another definition (this run's is %s)",
                                 hash);
    if (!json_is_object(json_object_get(root, "fields")))
        return stpete_error_fail(err, STPETE_E_PARSE, "fields: must be an object");
    rc = replay_record(game, json_object_get(root, "record"), replayed, seed, err);
    if (rc)
        return rc;
    *number = (long long)json_integer_value(g);
    *fields = json_dumps(json_object_get(root, "fields"), JSON_COMPACT);
    return *fields ? STPETE_OK : stpete_error_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory");
}

/* stpete_results_read_line() into a stpete_error being built. */
static int read_results_line(const stpete_game *game, const char *program, const char *definition,
                             const char *line, size_t len, stpete_state *state, long long *number, uint64_t *seed,
                             char *fields, size_t capacity, size_t *fields_len, stpete_error *err)
{
    if (!game || !program || !definition || !line || !state || !number || !seed || !fields_len ||
        (!fields && capacity))
        return stpete_error_fail(err, STPETE_E_INVALID_ARGUMENT, "an argument is NULL");
    if (len > RESULTS_LINE_MAX)
        return stpete_error_fail(err, STPETE_E_TOO_LARGE, "the line has %zu bytes; a results line has at most %d",
                                 len, RESULTS_LINE_MAX);
    json_t *def, *root;
    char *text, hash[STPETE_RESULTS_HASH_SIZE];
    int rc = definition_of(definition, &def, &text, hash, err);
    if (rc)
        return rc;
    json_decref(def);
    rc = object_of_bytes(line, len, &root, err);
    if (!rc && json_object_get(root, "format")) {
        rc = check_results_header(root, program, text, hash, err);
        if (!rc) {
            *number = -1;
            *seed = 0;
            *fields_len = 0;
            if (capacity)
                fields[0] = '\0';
        }
    } else if (!rc) {
        stpete_state *replayed;
        char *out;
        long long g = -1;
        uint64_t s = 0;
        rc = read_game_line(game, root, hash, &g, &s, &replayed, &out, err);
        if (!rc && (rc = text_out(out, strlen(out), fields, capacity, fields_len)) != STPETE_OK)
            stpete_error_fail(err, rc, "fields: %zu bytes do not fit in %zu", *fields_len, capacity);
        if (!rc)
            rc = stpete_state_take(state, replayed);
        if (!rc) {
            *number = g;
            *seed = s;
        }
        stpete_state_free(replayed);
        results_dump_free(out);
    }
    json_decref(root);
    results_dump_free(text);
    return rc;
}

STPETE_API int stpete_results_read_line(const stpete_game *game, const char *program, const char *definition,
                                             const char *line, size_t len, stpete_state *state, long long *number,
                                             uint64_t *seed, char *fields, size_t capacity, size_t *fields_len,
                                             stpete_error *err)
{
    int rc = stpete_error_check(err);
    if (rc)
        return rc;
    stpete_error e = STPETE_ERROR_INIT;
    rc = read_results_line(game, program, definition, line, len, state, number, seed, fields, capacity, fields_len,
                        &e);
    return stpete_error_finish(err, &e, rc);
}
