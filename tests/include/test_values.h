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

/* The predicates and card facts inside expressions, through stpete.h's expression helpers (stpete_*_or); an error
 * reads as -1 (NULL for a name), which fails the test (or aborts) here. */
static inline int tg_value(int v)
{
    TG_OK(v < 0 ? STPETE_E_INVALID_ARGUMENT : STPETE_OK);
    return v;
}

#define tg_is_terminal(st) tg_value(stpete_state_is_terminal_or((st), -1))
#define tg_is_final_round(st) tg_value(stpete_state_is_final_round_or((st), -1))
#define tg_is_legal(st, id) tg_value(stpete_state_is_legal_or((st), (id), -1))
#define tg_equal(a, b) tg_value(stpete_state_equal_or((a), (b), -1))

/* A card's name in an edition, or NULL for a card or edition out of range (tests of refusals ask for those). */
#define tg_card_name(edition, card) stpete_card_name_or((edition), (card), NULL)
/* A card's stack, or STPETE_E_INVALID_ARGUMENT (stpete_card_get_info()'s status) for a card out of range. */
#define tg_card_stack(card) stpete_card_stack_or((card), STPETE_E_INVALID_ARGUMENT)

#endif /* STPETE_TEST_VALUES_H */
