/* The learned evaluation (bot_value.h, doc/learning.md): a seat's observation tensor through a small network to the
 * seats' expected returns, in integers only (the same numbers on every platform, native and WebAssembly), with no
 * allocation. Public API only. */
#include <string.h>

#include "bot_private.h"
#include "bot_value.h"

const bot_value_net *bot_value_net_of(const stpete_game *game)
{
    int new_society = 0;
    stpete_game_is_new_society(game, &new_society);
    return &bot_value_nets[new_society ? 1 : 0];
}

int bot_value_inputs(const bot_value_net *net, const stpete_state *st, int seat, bot_value_x *x)
{
    float tensor[BOT_VALUE_MAX_INPUTS];
    int rc = stpete_state_observation_tensor(st, seat, tensor, (size_t)net->tensor);
    if (rc != STPETE_OK)
        return rc;
    /* The extra input: the edition (§11), which the tensor does not show and which prices four cards. */
    if (net->inputs > net->tensor)
        tensor[net->tensor] = stpete_game_edition(stpete_state_game(st)) == STPETE_EDITION_SECOND;
    const int blocks = (net->inputs + 7) / 8;
    for (int i = net->inputs; i < 8 * blocks; i++)
        tensor[i] = 0;
    int n = 0;
    for (int b = 0; b < blocks; b++) { /* most blocks of 8 are all 0 (all bits 0): one test each */
        uint32_t bits[8], any = 0;
        memcpy(bits, tensor + 8 * b, sizeof bits);
        for (int i = 0; i < 8; i++)
            any |= bits[i];
        if (!any)
            continue;
        const int end = 8 * b + 8 < net->inputs ? 8 * b + 8 : net->inputs; /* net->limit has net->inputs entries */
        for (int i = 8 * b; i < end; i++) {
            float v = tensor[i], limit = net->limit[i]; /* integers (doc/observation.md): counts, flags, VP, R */
            if (v == 0 || limit == 0)
                continue;
            x->index[n] = (int16_t)i;
            x->value[n++] = (int16_t)(v > limit ? limit : v < -limit ? -limit : v);
        }
    }
    x->count = n;
    return STPETE_OK;
}

/* exp(-d / 256) in units of 2^-30 (bot_value.h). */
static uint64_t exp_fixed(uint64_t d)
{
    if (d >= 16 * BOT_VALUE_EXP_STEPS)
        return 0;
    return ((uint64_t)bot_value_exp_hi[d >> 4] * bot_value_exp_lo[d & 15]) >> 30;
}

void bot_value_forward(const bot_value_net *net, const bot_value_x *x, int players, double *returns)
{
    int32_t acc[BOT_VALUE_MAX_HIDDEN];
    const int hidden = net->hidden;
    memcpy(acc, net->b1, (size_t)hidden * sizeof *acc);
    for (int n = 0; n < x->count; n++) { /* the rows of the inputs that are not 0 (most are) */
        const int16_t v = x->value[n];
        const int16_t *w = net->w1 + (size_t)x->index[n] * (size_t)hidden;
        /* in blocks of BOT_VALUE_BLOCK (hidden is a multiple), which the compiler turns into vector code */
        if (v == 1) /* flags and single cards */
            for (int j0 = 0; j0 < hidden; j0 += BOT_VALUE_BLOCK)
                for (int j = j0; j < j0 + BOT_VALUE_BLOCK; j++)
                    acc[j] += w[j];
        else
            for (int j0 = 0; j0 < hidden; j0 += BOT_VALUE_BLOCK)
                for (int j = j0; j < j0 + BOT_VALUE_BLOCK; j++)
                    acc[j] += (int32_t)v * (int32_t)w[j]; /* |v| <= limit: in int32 (export.py) */
    }
    const int32_t one = INT32_C(1) << net->shift1;
    int64_t z[STPETE_MAX_PLAYERS];
    for (int k = 0; k < players; k++)
        z[k] = net->b2[k];
    for (int j = 0; j < hidden; j++) {
        int64_t a = acc[j] < 0 ? 0 : acc[j] > one ? one : acc[j];
        if (a == 0)
            continue;
        const int16_t *w = net->w2 + (size_t)j * (size_t)net->outputs;
        for (int k = 0; k < players; k++)
            z[k] += a * w[k];
    }
    /* The softmax over the game's seats, with the logits in units of 1/256 below the largest. */
    int64_t top = z[0];
    for (int k = 1; k < players; k++)
        if (z[k] > top)
            top = z[k];
    const int down = net->shift1 + net->shift2 - 8;
    uint64_t e[STPETE_MAX_PLAYERS], sum = 0;
    for (int k = 0; k < players; k++)
        sum += e[k] = exp_fixed((uint64_t)(top - z[k]) >> down);
    for (int k = 0; k < players; k++)
        returns[k] = (double)e[k] / (double)sum;
}
