/* What the bots share: the projected-score evaluation and the greedy choice (stpete-selfplay's since 0.1),
 * returns, playouts, and the determinization of what a seat knows (§9). Public API only. */
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "bot_private.h"

/* ---- evaluation ---------------------------------------------------------------------------------------- */

/* Projected final score of a seat, in VP: the final scoring as if the game ended now (§8), plus the display's
 * income (§4.4) for the rounds that probably remain, 1 + smallest stack / 6 (a round deals about 6 cards of a
 * stack with 2-4 players; the game ends when a stack runs out, §4.6), rubles valued at a quarter VP. The same
 * arithmetic as stpete-selfplay's `evaluate` of 0.1-0.2 (the sums are of small integers, exact in a double, so
 * adding per copy gives the same values as adding per card type). */
double bot_evaluate(const stpete_bot *bot, const stpete_state *st, int seat)
{
    stpete_score score;
    stpete_state_score(st, seat, &score);
    if (stpete_state_is_terminal(st))
        return score.total;
    int smallest = 99;
    for (int s = 0; s < 4; s++) {
        int n = stpete_state_stack_size(st, s);
        if (n < smallest)
            smallest = n;
    }
    double rounds_left = 1.0 + smallest / 6.0;
    int cards[STPETE_NUM_CARDS];
    size_t n = 0;
    stpete_state_display(st, seat, cards, STPETE_NUM_CARDS, &n);
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

void bot_returns(const stpete_bot *bot, const stpete_state *st, double out[STPETE_MAX_PLAYERS])
{
    int players = bot->players;
    if (stpete_state_is_terminal(st)) { /* the end: 1/k for each of k winners (§8, R14) */
        stpete_state_returns(st, out, STPETE_MAX_PLAYERS);
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
    int outcomes[STPETE_MAX_LEGAL_ACTIONS];
    double probabilities[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    int rc = stpete_state_chance_outcomes(st, outcomes, probabilities, STPETE_MAX_LEGAL_ACTIONS, &n);
    if (rc != STPETE_OK || n == 0)
        return bot_fail(bot, rc != STPETE_OK ? rc : STPETE_E_INVALID_ARGUMENT, "chance node without outcomes");
    double u = (double)(bot_next_random(&bot->rng) >> 11) * 0x1.0p-53, acc = 0;
    size_t i = 0;
    while (i + 1 < n && (acc += probabilities[i]) <= u)
        i++;
    rc = stpete_state_apply(st, outcomes[i]);
    return rc == STPETE_OK ? rc : bot_fail(bot, rc, "chance outcome: %s", stpete_state_last_error(st));
}

int bot_playout(stpete_bot *bot, stpete_state *st, double out[STPETE_MAX_PLAYERS], uint64_t *actions)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    int depth = bot->p.depth;
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
        /* The uniform playout draws its index with a multiply-shift (bot_random_below), not with
         * stpete_state_random_action()'s `random % n`: the same distribution, but keeping this draw keeps every
         * mc and ismcts game of 0.3 the same game for the same bot seed. Both read the one listing. */
        size_t n = 0;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
        int id = ids[0], rc = STPETE_OK;
        if (bot->p.playout == PLAYOUT_GREEDY)
            rc = bot_greedy_choice(bot, st, ids, n, &id, NULL);
        else
            id = ids[bot_random_below(&bot->rng, n)];
        if (rc != STPETE_OK)
            return rc;
        rc = stpete_state_apply(st, id);
        if (rc != STPETE_OK)
            return bot_fail(bot, rc, "playout: %s", stpete_state_last_error(st));
        (*actions)++;
    }
    bot_returns(bot, st, out);
    return STPETE_OK;
}

/* ---- determinization (§9) ---------------------------------------------------------------------------- */

/* The hidden cards of state, for seat, put in a canonical order: for each stack, the unseen cards with that
 * back (the stack and the other players' hand cards from it, unless hands are public) sorted by card type, dealt
 * back to the stack and then to those hand slots; the deal's PRNG set to a constant. The result depends only
 * on what the seat knows, so the determinizations drawn from it by stpete_state_resample() (which shuffles the
 * cards in the order it finds them) depend only on that and the seed. Done through the JSON of the state, the
 * only public way to set a stack's order, once per decision. */
static const char *const stack_keys[4] = { "worker", "building", "aristocrat", "trading" };

typedef struct hidden_slot {
    json_t *array; /* a stack's list or a hand */
    size_t index;
    int card;
} hidden_slot;

static int canonicalize(json_t *doc, int seat, int public_hands)
{
    /* The hand cards the seat has not seen: another player's, unless hands are public or everyone saw the card
     * taken (`hand_known`, perfect recall, §9). */
    json_t *stacks = json_object_get(doc, "stacks"), *players = json_object_get(doc, "players");
    if (!json_is_object(stacks) || !json_is_array(players))
        return -1;
    for (int s = 0; s < 4; s++) {
        hidden_slot slots[STPETE_NUM_CARDS];
        size_t n = 0;
        int counts[STPETE_NUM_CARD_TYPES] = { 0 };
        json_t *stack = json_object_get(stacks, stack_keys[s]);
        for (size_t i = 0; i < json_array_size(stack) && n < STPETE_NUM_CARDS; i++)
            slots[n++] = (hidden_slot){ stack, i, -1 };
        for (size_t p = 0; p < json_array_size(players) && !public_hands; p++) {
            json_t *pl = json_array_get(players, p);
            json_t *hand = json_object_get(pl, "hand"), *backs = json_object_get(pl, "hand_backs");
            json_t *known = json_object_get(pl, "hand_known");
            for (size_t i = 0; (int)p != seat && i < json_array_size(hand) && n < STPETE_NUM_CARDS; i++) {
                const char *back = json_string_value(json_array_get(backs, i));
                if (!json_is_true(json_array_get(known, i)) && back && strcmp(back, stack_keys[s]) == 0)
                    slots[n++] = (hidden_slot){ hand, i, -1 };
            }
        }
        for (size_t i = 0; i < n; i++) {
            const char *name = json_string_value(json_array_get(slots[i].array, slots[i].index));
            if (!name || stpete_card_from_name(name, &slots[i].card) != STPETE_OK)
                return -1;
            counts[slots[i].card]++;
        }
        size_t k = 0;
        for (int card = 0; card < STPETE_NUM_CARD_TYPES; card++)
            for (int c = 0; c < counts[card]; c++, k++)
                if (json_array_set_new(slots[k].array, slots[k].index, json_string(stpete_card_name(card))) != 0)
                    return -1;
    }
    json_t *rng = json_pack("{s:s,s:s}", "state", "0000000000000000", "inc", "0000000000000001");
    return rng && json_object_set_new(doc, "rng", rng) == 0 ? 0 : -1;
}

int bot_info_root(stpete_bot *bot, const stpete_state *state, int seat)
{
    size_t len = 0;
    int rc = stpete_state_to_json(state, bot->json, bot->json_cap, &len);
    if (rc == STPETE_E_BUFFER_TOO_SMALL) {
        char *buf = bot_realloc(bot, bot->json, len + 1);
        if (!buf)
            return bot_fail(bot, STPETE_E_OUT_OF_MEMORY, "out of memory (determinization)");
        bot->json = buf;
        bot->json_cap = len + 1;
        rc = stpete_state_to_json(state, bot->json, bot->json_cap, &len);
    }
    if (rc != STPETE_OK)
        return bot_fail(bot, rc, "determinization: cannot serialize the state: %s", stpete_strerror(rc));
    json_error_t jerr;
    json_t *doc = json_loadb(bot->json, len, 0, &jerr);
    stpete_state *tmp = NULL;
    stpete_json_error err;
    rc = STPETE_E_OUT_OF_MEMORY;
    if (doc && canonicalize(doc, seat, bot->rules.public_hands) == 0) {
        /* jansson writes into the bot's buffer (its own allocations belong to the application's hooks) */
        len = json_dumpb(doc, bot->json, bot->json_cap, JSON_COMPACT);
        if (len > bot->json_cap) {
            char *buf = bot_realloc(bot, bot->json, len);
            if (buf) {
                bot->json = buf;
                bot->json_cap = len;
                len = json_dumpb(doc, bot->json, bot->json_cap, JSON_COMPACT);
            }
        }
        if (len > 0 && len <= bot->json_cap)
            rc = stpete_state_from_json(&tmp, stpete_state_game(state), bot->json, len, &err);
    }
    if (rc == STPETE_OK)
        rc = stpete_state_copy(bot->root, tmp);
    stpete_state_free(tmp);
    json_decref(doc);
    if (rc != STPETE_OK)
        return bot_fail(bot, rc == STPETE_E_OUT_OF_MEMORY ? rc : STPETE_E_INVALID_ARGUMENT,
                        "determinization failed: %s", stpete_strerror(rc));
    return STPETE_OK;
}

int bot_determinize(stpete_bot *bot, stpete_state *dst, int seat, uint64_t seed)
{
    /* Secret rubles are redrawn too (every other seat as rich as this one, STPETE_DETERMINIZE_RUBLES), so that
     * nothing secret to the seat reaches the search (§9). */
    int rc = stpete_state_copy(dst, bot->root);
    if (rc == STPETE_OK)
        rc = stpete_state_determinize(dst, seat, seed, STPETE_DETERMINIZE_RUBLES);
    return rc;
}
