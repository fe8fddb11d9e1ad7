/* The legality core's out-of-line part (legal.h holds the inline core, legal_list.c the listing, legal_check.c the
 * check, legal_pick.c the playout step's pick): the chance outcomes of explicit-chance mode, which the listing lists
 * and the check finds an id among (§3.3, §4.5, §7.1), and the start-player marker deals (§3.3, R15). */
#include "engine/legal.h"


/* The outcomes of the pending chance event, ascending (explicit-chance mode): the card types the stack being dealt
 * or drawn from holds (§4.5, §7.1), or the start-player marker deals of §3.3. */
size_t stpete_legal_chance_outcomes(const stpete_core *c, int *out)
{
    size_t n = 0;
    if (c->chance == CHANCE_MARKERS && c->rules.players == 5) { /* §12.3, R18: four distinct seats of five */
        for (int code = 0; code < NS_CHANCE_MARKERS_CODES; code++) {
            int markers[STPETE_NUM_PHASES];
            for (int k = 0, x = code; k < STPETE_NUM_PHASES; k++, x /= 5)
                markers[k] = x % 5;
            if (stpete_engine_markers_fault(markers, 5) == 0)
                out[n++] = STPETE_NS_CHANCE_MARKERS_FIRST + code;
        }
        return n;
    }
    if (c->chance == CHANCE_MARKERS) {
        for (int code = 0; code < 256; code++)
            if (stpete_legal_markers_valid(code, c->rules.players))
                out[n++] = STPETE_CHANCE_MARKERS_FIRST + code;
        return n;
    }
    const uint8_t *stack = c->stack[c->deal_stack];
    for (int i = 0; i < c->stack_n[c->deal_stack]; i++) /* kept in card-type order: the ids ascend */
        if (i == 0 || stack[i] != stack[i - 1])
            out[n++] = stpete_actions_chance_id(stack[i]);
    return n;
}

int stpete_legal_markers_valid(int code, int players)
{
    int markers[STPETE_NUM_PHASES]; /* the marker rule itself (§3.3, R15) is stpete_engine_markers_fault's */
    stpete_engine_markers_decode(code, markers);
    return stpete_engine_markers_fault(markers, players) == 0;
}

