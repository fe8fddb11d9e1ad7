/* States through their JSON documents for the C tests that edit positions (jansson): one helper each instead of a
 * copy per file. Include after <cmocka.h> and <jansson.h> (the helpers fail the running test when the library
 * refuses). */
#ifndef STPETE_TEST_JSON_H
#define STPETE_TEST_JSON_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "stpete/stpete.h"

/* st's full document (stpete_state_to_json) as a jansson value; the caller json_decref()s it. */
static inline json_t *state_doc(const stpete_state *st)
{
    size_t need = 0, len = 0;
    assert_int_equal(stpete_state_to_json(st, NULL, 0, &need), STPETE_E_BUFFER_TOO_SMALL);
    char *text = malloc(need + 1);
    assert_non_null(text);
    assert_int_equal(stpete_state_to_json(st, text, need + 1, &len), STPETE_OK);
    json_t *doc = json_loadb(text, len, 0, NULL);
    free(text);
    assert_non_null(doc);
    return doc;
}

/* The position doc describes, loaded as a state of g (the caller frees it); the test fails with the library's
 * reason and the document if it is refused. */
static inline stpete_state *load_doc(const stpete_game *g, const json_t *doc)
{
    char *text = json_dumps(doc, JSON_COMPACT);
    assert_non_null(text);
    stpete_state *st = NULL;
    stpete_error err = STPETE_ERROR_INIT;
    if (stpete_state_from_json(g, text, strlen(text), &st, &err) != STPETE_OK)
        fail_msg("the test's document does not load: %s\n%s", err.message, text);
    free(text);
    return st;
}

/* An edit of a state's document for edited_state(): changes doc as seen from `seat` and returns 1, or returns 0
 * when there is nothing to change. */
typedef int (*state_edit)(json_t *doc, int seat);

/* st edited through its document by edit(doc, seat) and loaded back as a state of st's game (the caller frees it),
 * or NULL when the edit had nothing to change. */
static inline stpete_state *edited_state(const stpete_state *st, int seat, state_edit edit)
{
    json_t *doc = state_doc(st);
    stpete_state *out = edit(doc, seat) ? load_doc(stpete_state_game(st), doc) : NULL;
    json_decref(doc);
    return out;
}

#endif /* STPETE_TEST_JSON_H */
