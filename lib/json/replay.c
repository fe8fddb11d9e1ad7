/* Replay records (doc/format.md): the options and seed of a game and its actions, with the result they reach.
 * Writing and checking both run the actions on a plain position (no handle, no events): the writer refuses an
 * illegal action, the reader (after read.c parsed the record) applies every action and compares the recorded
 * result. */
#include <stdio.h>

#include "json/json.h"

/* Ids a replay record holds: the actions, and in explicit-chance mode the chance outcomes (stpete.h, group
 * "Search and learning"); stpete_rules_apply() refuses whatever the game's mode does not allow. */
#define REPLAY_ID_END STPETE_NS_ID_END /* a game without the New Society: stpete_engine_id_in_game() refuses 1277.. */

#define REPLAY_FLAGS (JSON_INDENT(1) | JSON_ENSURE_ASCII)

static json_t *recorded_result_json(const stpete_core *c, int *ok)
{
    json_t *r = json_object();
    int over = c->decision == STPETE_DECISION_GAME_OVER;
    stpete_json_put(r, "game_over", json_boolean(over), ok);
    json_t *vp = json_array();
    for (int i = 0; i < c->rules.players; i++)
        stpete_json_push(vp, json_integer(c->p[i].vp), ok);
    stpete_json_put(r, "vp", vp, ok);
    json_t *winners = json_null();
    if (over) {
        winners = json_array();
        unsigned mask = stpete_scoring_winners(c);
        for (int i = 0; i < c->rules.players; i++)
            if (mask >> i & 1u)
                stpete_json_push(winners, json_integer(i), ok);
    }
    stpete_json_put(r, "winners", winners, ok);
    return r;
}

int stpete_replay_root(const stpete_game *game, uint64_t seed, const int *actions, size_t count, int strings,
                       json_t **out)
{
    *out = NULL;
    stpete_core c; /* the replay runs on a plain position: no handle, no events */
    stpete_rules_setup(&c, &game->rules, seed, NULL);
    int ok = 1;
    json_t *root = stpete_write_header(STPETE_FORMAT_REPLAY, stpete_json_version_of(game), &ok);
    stpete_json_put(root, "options", stpete_write_options(&game->opts, &seed, &ok), &ok);
    json_t *list = json_array();
    for (size_t i = 0; i < count; i++) {
        int id = actions[i];
        if (id < 0 || !stpete_engine_id_in_game(&game->rules, id) || stpete_rules_apply(&c, id, NULL, NULL, 0)) {
            json_decref(list);
            json_decref(root);
            return STPETE_E_ILLEGAL_ACTION;
        }
        json_t *a = json_object();
        stpete_json_put(a, "id", json_integer(id), &ok);
        if (strings) {
            char text[STPETE_ACTION_STRING_MAX];
            stpete_actions_to_string(stpete_engine_cards(&game->rules), id, text, sizeof text); /* the edition's */
            stpete_json_put(a, "action", json_string_nocheck(text), &ok);
        }
        stpete_json_push(list, a, &ok);
    }
    stpete_json_put(root, "actions", list, &ok);
    stpete_json_put(root, "result", recorded_result_json(&c, &ok), &ok);
    if (!ok) {
        json_decref(root);
        return STPETE_E_OUT_OF_MEMORY;
    }
    *out = root;
    return STPETE_OK;
}

STPETE_API int stpete_replay_to_json(const stpete_game *game, uint64_t seed, const int *actions, size_t count,
                                     char *buf, size_t capacity, size_t *len)
{
    if (!game || !len || (!actions && count) || (!buf && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    json_t *root;
    int rc = stpete_replay_root(game, seed, actions, count, 1, &root);
    if (rc)
        return rc;
    return stpete_write_dump(root, 1, REPLAY_FLAGS, buf, capacity, len);
}

static const char *const replay_keys[] = { "format", "format_version", "options", "actions", "result" };
static const char *const action_keys[] = { "id", "action" };

/* Replay the actions on a scratch state, checking each, then the recorded result. */
static int verify_replay(const json_t *root, const stpete_game *game, stpete_error *err)
{
    stpete_core c; /* the replay runs on a plain position: no handle, no events */
    stpete_rules_setup(&c, &game->rules, game->opts.seed, NULL);
    const json_t *list = json_object_get(root, "actions");
    size_t i;
    json_t *a;
    json_array_foreach(list, i, a) {
        char path[32];
        snprintf(path, sizeof path, "actions[%zu]", i);
        if (!json_is_object(a))
            return stpete_error_fail(err, STPETE_E_PARSE, "%s: must be an object {\"id\", \"action\"}", path);
        /* "id" is required, "action" (the string) optional */
        int id = 0, rc = stpete_read_keys_only(a, path, action_keys, json_object_get(a, "action") ? 2 : 1, err);
        if (!rc)
            rc = stpete_read_int(a, path, "id", 0, REPLAY_ID_END - 1, &id, err);
        if (rc)
            return rc;
        const json_t *text = json_object_get(a, "action");
        int named;
        if (text && (!json_is_string(text) || stpete_action_from_string(json_string_value(text), &named) != 0 ||
                     named != id))
            return stpete_error_fail(err, STPETE_E_INCONSISTENT, "%s.action: must be the string of action %d", path, id);
        char why[160];
        if (!stpete_engine_id_in_game(&game->rules, id))
            return stpete_error_fail(err, STPETE_E_INCONSISTENT, "%s: %d is no action id of this game", path, id);
        if (stpete_rules_apply(&c, id, NULL, why, sizeof why))
            return stpete_error_fail(err, STPETE_E_INCONSISTENT, "%s: action %d is not legal: %s", path, id, why);
    }
    const json_t *r = json_object_get(root, "result");
    if (json_is_null(r))
        return STPETE_OK;
    int ok = 1;
    json_t *expect = recorded_result_json(&c, &ok);
    int same = ok && json_equal(expect, (json_t *)r);
    json_decref(expect);
    if (!ok)
        return stpete_error_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory");
    if (!same)
        return stpete_error_fail(err, STPETE_E_INCONSISTENT, "result: not the result the actions reach");
    return STPETE_OK;
}

int stpete_replay_read(const char *json, size_t len, const stpete_allocator *alloc, stpete_game **game_out,
                       int *actions, size_t cap, size_t *n, stpete_error *err)
{
    if (!game_out)
        return stpete_error_fail(err, STPETE_E_INVALID_ARGUMENT, "game_out is NULL");
    *game_out = NULL;
    if (!n || !json || (!actions && cap))
        return stpete_error_fail(err, STPETE_E_INVALID_ARGUMENT, "%s is NULL",
                                 !json ? "json" : !n ? "count" : "actions (with a capacity)");
    json_t *root;
    int rc = stpete_read_root(json, len, STPETE_FORMAT_REPLAY, &root, err);
    if (rc)
        return rc;
    const json_t *list = json_object_get(root, "actions");
    rc = stpete_read_keys_only(root, "replay", replay_keys, sizeof replay_keys / sizeof *replay_keys, err);
    if (!rc && !json_is_array(list))
        rc = stpete_error_fail(err, STPETE_E_PARSE, "actions: must be an array");
    if (rc) {
        json_decref(root);
        return rc;
    }
    *n = json_array_size(list);
    stpete_game *game = NULL;
    rc = stpete_read_game(root, alloc, &game, err);
    if (!rc && *n > (size_t)stpete_game_max_length(game))
        rc = stpete_error_fail(err, STPETE_E_TOO_LARGE,
                              "actions: %zu actions, more than the longest possible game (%d)", *n,
                              stpete_game_max_length(game));
    if (!rc && *n > cap)
        rc = stpete_error_fail(err, STPETE_E_BUFFER_TOO_SMALL, "%zu actions do not fit in %zu", *n, cap);
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

/* The public reader reports into the caller's stpete_error (stpete.h, "Parameters"). */
STPETE_API int stpete_replay_from_json(const char *json, size_t len, const stpete_allocator *alloc,
                                       stpete_game **game_out, int *actions, size_t capacity, size_t *count,
                                       stpete_error *err)
{
    if (game_out)
        *game_out = NULL;
    int rc = stpete_error_check(err);
    if (rc)
        return rc;
    stpete_error e = STPETE_ERROR_INIT;
    rc = stpete_replay_read(json, len, alloc, game_out, actions, capacity, count, &e);
    return stpete_error_finish(err, &e, rc);
}
