/* What the bots share: the projected-score evaluation and the greedy choice (as in stpete-selfplay),
 * returns, playouts, and the determinization of what a seat knows (§9). Public API only. */
#include <math.h>
#include <string.h>

#include "bot_private.h"
#include "bot_value.h"

/* ---- evaluation ---------------------------------------------------------------------------------------- */

/* Projected final score of a seat, in VP: the final scoring as if the game ended now (§8), plus the display's
 * income (§4.4) for the rounds that probably remain, 1 + smallest stack / 6 (a round deals about 6 cards of a
 * stack with 2-4 players; the game ends when a stack runs out, §4.6), rubles valued at a quarter VP. The same
 * arithmetic as stpete-selfplay's `evaluate` (the sums are of small integers, exact in a double, so adding per
 * copy gives the same values as adding per card type). */
double bot_evaluate(const stpete_bot *bot, const stpete_state *st, int seat)
{
    stpete_score score = STPETE_SCORE_INIT;
    stpete_state_get_score(st, seat, &score);
    if (bot_game_over(st))
        return score.total;
    int smallest = 99;
    for (int s = 0; s < 4; s++) {
        int n = stpete_state_stack_size(st, s);
        if (n < smallest)
            smallest = n;
    }
    double rounds_left = 1.0 + smallest / 6.0;
    int cards[STPETE_NUM_CARDS_NEW_SOCIETY];
    size_t n = 0;
    stpete_state_display(st, seat, cards, STPETE_NUM_CARDS_NEW_SOCIETY, &n);
    double income_vp = 0, income_r = 0;
    for (size_t i = 0; i < n; i++) {
        income_vp += bot->card_vp[cards[i]];
        income_r += bot->card_rubles[cards[i]];
    }
    return score.total + rounds_left * (income_vp + income_r / 4.0) + score.rubles / 4.0;
}

int bot_greedy_choice(stpete_bot *bot, const stpete_state *st, const int *ids, size_t n, int *choice, double *value)
{
    int seat = stpete_state_current_player(st);
    int best = ids[0];
    double best_value = -1e300;
    for (size_t i = 0; i < n; i++) {
        int rc = stpete_state_copy(bot->scratch, st);
        if (rc == STPETE_OK)
            rc = stpete_state_apply(bot->scratch, ids[i]);
        if (rc != STPETE_OK) /* only out of memory: the ids are legal */
            return bot_fail(bot, rc, "greedy look-ahead: %s", stpete_strerror(rc));
        double v = bot_evaluate(bot, bot->scratch, seat);
        if (v > best_value + 1e-9) {
            best_value = v;
            best = ids[i];
        }
    }
    *choice = best;
    if (value)
        *value = best_value;
    return STPETE_OK;
}

/* The learned bot's returns before the end: the network on the observation of the bot's view seat (bot->view),
 * from relative seats to seats. */
static void learned_returns(const stpete_bot *bot, const stpete_state *st, double out[STPETE_MAX_PLAYERS])
{
    bot_value_x x;
    double r[STPETE_MAX_PLAYERS];
    int players = bot->players;
    if (bot_value_inputs(bot->net, st, bot->view, &x) != STPETE_OK) { /* cannot happen: a seat of the bot's game */
        for (int s = 0; s < players; s++)
            out[s] = 1.0 / players;
        return;
    }
    bot_value_forward(bot->net, &x, players, r);
    for (int k = 0; k < players; k++)
        out[(bot->view + k) % players] = r[k];
}

void bot_returns(const stpete_bot *bot, const stpete_state *st, double out[STPETE_MAX_PLAYERS])
{
    int players = bot->players;
    if (bot_game_over(st)) { /* the end: 1/k for each of k winners (§8, R14) */
        stpete_state_returns(st, out, STPETE_MAX_PLAYERS);
        return;
    }
    if (bot->p.kind == BOT_LEARNED) {
        learned_returns(bot, st, out);
        return;
    }
    /* A cut-off: the softmax of the projected scores. */
    double v[STPETE_MAX_PLAYERS], top = -1e300, sum = 0;
    for (int s = 0; s < players; s++) {
        v[s] = bot_evaluate(bot, st, s);
        if (v[s] > top)
            top = v[s];
    }
    for (int s = 0; s < players; s++) {
        v[s] = exp((v[s] - top) / bot->p.temp);
        sum += v[s];
    }
    for (int s = 0; s < players; s++)
        out[s] = v[s] / sum;
}

/* ---- playouts ------------------------------------------------------------------------------------------ */

int bot_chance_step(stpete_bot *bot, stpete_state *st)
{
    /* Explicit-chance mode (stpete.h): draw an outcome by its probability with the bot's PRNG. In the sampled mode
     * the deals happen inside stpete_state_apply(), from the determinized stacks, and this is never called. */
    int outcomes[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
    double probabilities[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
    size_t n = 0;
    int rc = stpete_state_chance_outcomes(st, outcomes, probabilities, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n);
    if (rc != STPETE_OK || n == 0)
        return bot_fail(bot, rc != STPETE_OK ? rc : STPETE_E_INVALID_ARGUMENT, "chance node without outcomes");
    double u = (double)(bot_next_random(&bot->rng) >> 11) * 0x1.0p-53, acc = 0;
    size_t i = 0;
    while (i + 1 < n && (acc += probabilities[i]) <= u)
        i++;
    rc = stpete_state_apply(st, outcomes[i]);
    return rc == STPETE_OK ? rc : bot_fail(bot, rc, "chance outcome: %s", stpete_state_last_error(st));
}

/* The uniform playout of bot_playout() for at most `steps` actions: the library's playout step, which picks from
 * its own listing and applies without a second check. Its draw is STPETE_PICK_SCALED, bot_random_below()'s
 * multiply-shift (not stpete_state_random_action()'s `random % n`): the same distribution, and this draw is part of
 * what makes an mc or ismcts game the same game for the same bot seed (its digests). The PRNG's state and the count
 * stay in registers across the steps; *actions counts the actions applied. A status (bot_fail). */
static int random_playout(stpete_bot *bot, stpete_state *st, uint64_t steps, uint64_t *actions)
{
    uint64_t rng = bot->rng, done = 0;
    int rc = STPETE_OK;
    for (uint64_t step = 0; step < steps; step++) { /* a chance outcome counts as a step, not as an action */
        int player = stpete_state_current_player(st), id;
        if (player == STPETE_PLAYER_TERMINAL)
            break;
        if (player == STPETE_PLAYER_CHANCE) {
            bot->rng = rng;
            rc = bot_chance_step(bot, st);
            rng = bot->rng;
            if (rc != STPETE_OK)
                break;
            continue;
        }
        rc = stpete_state_apply_random(st, stpete_splitmix64(&rng), STPETE_PICK_SCALED, &id);
        if (rc != STPETE_OK) {
            rc = bot_fail(bot, rc, "playout: %s", stpete_state_last_error(st));
            break;
        }
        done++;
    }
    bot->rng = rng;
    *actions += done;
    return rc;
}

int bot_playout(stpete_bot *bot, stpete_state *st, double out[STPETE_MAX_PLAYERS], uint64_t *actions)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
    int depth = bot->p.depth;
    if (bot->p.playout == PLAYOUT_RANDOM) {
        /* learned: depth random actions, then the network (0: at once); the others: 0 plays to the end */
        uint64_t steps = depth || bot->p.kind == BOT_LEARNED ? (uint64_t)depth : UINT64_MAX;
        int rc = random_playout(bot, st, steps, actions);
        if (rc != STPETE_OK)
            return rc;
        bot_returns(bot, st, out);
        return STPETE_OK;
    }
    for (int step = 0; depth == 0 || step < depth; step++) {
        int player = stpete_state_current_player(st);
        if (player == STPETE_PLAYER_TERMINAL)
            break;
        if (player == STPETE_PLAYER_CHANCE) {
            int rc = bot_chance_step(bot, st);
            if (rc != STPETE_OK)
                return rc;
            continue;
        }
        int id = -1;
        size_t n = 0;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n);
        int rc = bot_greedy_choice(bot, st, ids, n, &id, NULL);
        if (rc != STPETE_OK)
            return rc;
        if ((rc = stpete_state_apply(st, id)) != STPETE_OK)
            return bot_fail(bot, rc, "playout: %s", stpete_state_last_error(st));
        (*actions)++;
    }
    bot_returns(bot, st, out);
    return STPETE_OK;
}

/* ---- determinization (§9) ---------------------------------------------------------------------------- */

int bot_determinize(stpete_state *dst, const stpete_state *state, int seat, uint64_t seed)
{
    /* stpete_state_determinize() draws from what the seat knows only (it puts the unseen cards in card-type order
     * before its shuffle and reseeds the deal), so positions the seat cannot tell apart give the same
     * determinizations. Secret rubles are redrawn too (every other seat as rich as this one,
     * STPETE_DETERMINIZE_RUBLES), so that nothing secret to the seat reaches the search (§9). */
    int rc = stpete_state_copy(dst, state);
    if (rc == STPETE_OK)
        rc = stpete_state_determinize(dst, seat, seed, STPETE_DETERMINIZE_RUBLES);
    return rc;
}
