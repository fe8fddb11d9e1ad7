/* Internal: what the JSON files share (write.c, read.c, replay.c). Not installed. The only header that
 * includes jansson; the engine below it never sees a document (doc/development.md, "Architecture of lib/"). */
#ifndef STPETE_JSON_H
#define STPETE_JSON_H

#include <jansson.h>

#include "api/api.h"

/* The "format" of each document (doc/format.md). */
#define STPETE_FORMAT_STATE "stpete-state"
#define STPETE_FORMAT_REPLAY "stpete-replay"
#define STPETE_FORMAT_TABLE "stpete-table"

/* ---- write.c --------------------------------------------------------------------------------- */

/* Building helpers: jansson's *_new functions take ownership of the value even when they fail (and fail on a
 * NULL container or value), so a failed allocation anywhere only clears *ok and never leaks. */
static inline void stpete_json_put(json_t *obj, const char *key, json_t *value, int *ok)
{
    if (json_object_set_new(obj, key, value))
        *ok = 0;
}

static inline void stpete_json_push(json_t *arr, json_t *value, int *ok)
{
    if (json_array_append_new(arr, value))
        *ok = 0;
}

/* The object {"format", "format_version"} a document starts with. */
json_t *stpete_write_header(const char *format, int version, int *ok);
/* The format version of a game's documents: STPETE_FORMAT_VERSION, STPETE_FORMAT_VERSION_NEW_SOCIETY with the
 * New Society (§12), or the version of a later option set away from its default (stpete_options_format_version()). */
static inline int stpete_json_version_of(const stpete_game *game)
{
    return stpete_options_format_version(&game->opts);
}
/* A state document as a tree: a seat's view, the spectators' (STPETE_VIEW_PUBLIC) or, for -2, the full state
 * (stpete_state_view_to_json(), stpete_state_to_json()). */
json_t *stpete_write_state(const stpete_state *st, int view, int *ok);
/* The options of the table that the game's format version holds; seed NULL writes null (state documents). */
json_t *stpete_write_options(const stpete_options *o, const uint64_t *seed, int *ok);
/* Dump a tree into the caller's buffer (NUL-terminated, *len = the length it needs) and free it: STPETE_OK,
 * STPETE_E_BUFFER_TOO_SMALL or STPETE_E_OUT_OF_MEMORY (also when ok is 0: building the tree failed). */
int stpete_write_dump(json_t *root, int ok, size_t flags, char *buf, size_t size, size_t *len);

/* ---- read.c ---------------------------------------------------------------------------------- */

/* Parse the text (at most the size limit of its format, doc/format.md) and check the header: format NULL accepts
 * a state or a replay record. *root is the document (the caller frees it) on success, NULL on failure. */
int stpete_read_root(const char *json, size_t len, const char *format, json_t **root, stpete_error *err);
/* Every key of obj is one of the first n of keys, and every one of them is present; errors name path. */
int stpete_read_keys_only(const json_t *obj, const char *path, const char *const *keys, size_t n,
                          stpete_error *err);
/* obj.key is an integer in [lo, hi] into *out: STPETE_E_PARSE if not an integer, STPETE_E_INCONSISTENT if out of
 * range. */
int stpete_read_int(const json_t *obj, const char *path, const char *key, long long lo, long long hi, int *out,
                        stpete_error *err);
/* Create the game of a document's options (alloc may be NULL). */
int stpete_read_game(const json_t *root, const stpete_allocator *alloc, stpete_game **out,
                        stpete_error *err);

/* ---- replay.c --------------------------------------------------------------------------------- */

/* The replay record of @p count actions from @p seed in @p game (each checked: STPETE_E_ILLEGAL_ACTION, nothing
 * built), with each action's string when @p strings, into *out (the caller frees it): STPETE_OK, or
 * STPETE_E_OUT_OF_MEMORY. */
int stpete_replay_root(const stpete_game *game, uint64_t seed, const int *actions, size_t count, int strings,
                       json_t **out);
/* stpete_replay_from_json() into a stpete_error being built (the public one checks the caller's first). */
int stpete_replay_read(const char *json, size_t len, const stpete_allocator *alloc, stpete_game **game_out,
                       int *actions, size_t cap, size_t *n, stpete_error *err);

#endif /* STPETE_JSON_H */
