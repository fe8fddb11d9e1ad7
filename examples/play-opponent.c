/* Local stand-ins for the library's bots (issue 13), used by stpete-play until include/stpete/bots.h lands: the
 * "random" and "greedy" bots of stpete-selfplay. See play-opponent.h. */
#include "play-opponent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opponent {
    int greedy;        /* 0 = random, 1 = greedy */
    uint64_t rng;      /* splitmix64 state */
    stpete_state *scratch;
};

const char *opponent_kinds(void)
{
    return "random, greedy";
}

int opponent_new(opponent **out, const stpete_game *game, const char *spec, char *msg, size_t size)
{
    if (msg && size)
        msg[0] = '\0';
    if (!out || !game || !spec)
        return STPETE_E_INVALID_ARGUMENT;
    *out = NULL;
    int greedy;
    if (!strcmp(spec, "random"))
        greedy = 0;
    else if (!strcmp(spec, "greedy"))
        greedy = 1;
    else {
        if (msg && size)
            snprintf(msg, size, "unknown bot '%s' (known: %s)", spec, opponent_kinds());
        return STPETE_E_PARSE;
    }
    opponent *o = calloc(1, sizeof *o);
    if (!o || stpete_state_new(&o->scratch, game) != STPETE_OK) {
        free(o);
        return STPETE_E_OUT_OF_MEMORY;
    }
    o->greedy = greedy;
    *out = o;
    return STPETE_OK;
}

void opponent_set_seed(opponent *o, uint64_t seed)
{
    if (o)
        o->rng = seed;
}

static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The projected score of stpete-selfplay's greedy bot: the final scoring as if the game ended now, plus the
 * display's income for the rounds that probably remain, rubles at a quarter VP. Reads only the seat's own cards
 * and rubles and the public stack sizes (§9). */
static double projected_score(const stpete_state *st, int seat)
{
    stpete_score score;
    stpete_state_score(st, seat, &score);
    if (stpete_state_is_terminal(st))
        return score.total;
    int smallest = 99;
    for (int s = 0; s < STPETE_NUM_STACKS; s++)
        if (stpete_state_stack_size(st, s) < smallest)
            smallest = stpete_state_stack_size(st, s);
    double income = 0;
    for (int card = 0; card < STPETE_NUM_CARD_TYPES; card++) {
        int copies = stpete_state_display_count(st, seat, card);
        stpete_card_info info;
        if (copies > 0 && stpete_card_get_info(card, &info) == STPETE_OK)
            income += copies * (info.vp + info.rubles / 4.0);
    }
    return score.total + (1.0 + smallest / 6.0) * income + score.rubles / 4.0;
}

int opponent_choose(opponent *o, const stpete_state *st, int *action)
{
    if (!o || !st || !action)
        return STPETE_E_INVALID_ARGUMENT;
    if (stpete_state_is_terminal(st))
        return STPETE_E_GAME_OVER;
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    int rc = stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
    if (rc != STPETE_OK || n == 0)
        return rc != STPETE_OK ? rc : STPETE_E_GAME_OVER;
    if (!o->greedy || n == 1) {
        *action = ids[n == 1 ? 0 : next_random(&o->rng) % n];
        return STPETE_OK;
    }
    int seat = stpete_state_current_player(st);
    double best_value = -1e300;
    *action = ids[0];
    for (size_t i = 0; i < n; i++) {
        if (stpete_state_copy(o->scratch, st) != STPETE_OK || stpete_state_apply(o->scratch, ids[i]) != STPETE_OK)
            continue;
        double v = projected_score(o->scratch, seat);
        if (v > best_value + 1e-9) {
            best_value = v;
            *action = ids[i];
        }
    }
    return STPETE_OK;
}

void opponent_free(opponent *o)
{
    if (o) {
        stpete_state_free(o->scratch);
        free(o);
    }
}
