/* Values of the 1.0 API read inside expressions, for the tests, fuzzers and test programs: predicates answer
 * through an out-parameter (a status never reads as true) and card names come from stpete_card_get_info(). A
 * status where a value was expected fails the test (cmocka) or aborts (the fuzzers and plain programs). */
#ifndef STPETE_TEST_VALUES_H
#define STPETE_TEST_VALUES_H

#include "stpete/stpete.h"

#ifdef assert_int_equal
#define TG_OK(expr) assert_int_equal((expr), STPETE_OK)
#else
#include <stdlib.h>
#define TG_OK(expr)                                                                                                 \
    do {                                                                                                            \
        if ((expr) != STPETE_OK)                                                                                    \
            abort();                                                                                                \
    } while (0)
#endif

/* Predicates answer through an out-parameter since 1.0 (a status never reads as true); these read them inside
 * expressions, and fail the test if the library returns a status instead. */
static inline int tg_is_terminal(const stpete_state *st)
{
    int v = -1;
    TG_OK(stpete_state_is_terminal(st, &v));
    return v;
}

static inline int tg_is_final_round(const stpete_state *st)
{
    int v = -1;
    TG_OK(stpete_state_is_final_round(st, &v));
    return v;
}

static inline int tg_is_legal(const stpete_state *st, int id)
{
    int v = -1;
    TG_OK(stpete_state_is_legal(st, id, &v));
    return v;
}

static inline int tg_equal(const stpete_state *a, const stpete_state *b)
{
    int v = -1;
    TG_OK(stpete_state_equal(a, b, &v));
    return v;
}

/* A card's name in an edition (stpete_card_get_info()), or NULL for a card or edition out of range. */
static inline const char *tg_card_name(int edition, int card)
{
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    return stpete_card_get_info(edition, card, &info) == STPETE_OK ? info.name : NULL;
}

/* A card's stack (stpete_card_info::stack), or the status of stpete_card_get_info(). */
static inline int tg_card_stack(int card)
{
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    int rc = stpete_card_get_info(STPETE_EDITION_FIRST, card, &info);
    return rc ? rc : info.stack;
}

#endif /* STPETE_TEST_VALUES_H */
