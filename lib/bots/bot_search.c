/* The search bots: flat Monte Carlo over determinizations (mc) and single-observer information-set MCTS (ismcts,
 * Cowling, Powley and Whitehouse 2012). Public API only. */
#include <math.h>
#include <string.h>

#include "bot_private.h"

/* Whether the budget is spent after `done` iterations started at t0. */
static int budget_spent(const stpete_bot *bot, uint64_t done, uint64_t t0)
{
    if (bot->p.iterations && done >= bot->p.iterations)
        return 1;
    return bot->p.ms && bot_now_ns() - t0 >= bot->p.ms * UINT64_C(1000000);
}

/* ---- mc ---------------------------------------------------------------------------------------------- */

int bot_choose_mc(stpete_bot *bot, const stpete_state *state, int seat, const int *ids, size_t n, int *action)
{
    int rc = STPETE_OK;
    double sum[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY] = { 0 };
    /* The seat's final score (VP, §8) summed over each action's playouts: the tie-break between equal sums of
     * returns. Without it a seat that loses every playout (far behind, or few playouts per action) sees all its
     * actions tie at 0 and takes the first id, pass, again and again. */
    double vp[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY] = { 0 };
    uint64_t t0 = bot_now_ns(), it = 0, rounds = 0;
    /* The legal actions in turn, a new determinization for each playout; the budget is checked after whole
     * rounds, so that every action gets as many playouts. */
    do {
        for (size_t a = 0; a < n; a++, it++) {
            double r[STPETE_MAX_PLAYERS];
            rc = bot_determinize(bot->work, state, seat, bot_next_random(&bot->rng));
            if (rc == STPETE_OK)
                rc = stpete_state_apply(bot->work, ids[a]);
            if (rc == STPETE_OK)
                rc = bot_playout(bot, bot->work, r, &bot->stats.playout_actions);
            if (rc != STPETE_OK)
                return bot->error[0] ? rc : bot_fail(bot, rc, "mc: %s", stpete_state_last_error(bot->work));
            sum[a] += r[seat];
            stpete_score score = STPETE_SCORE_INIT;
            if (stpete_state_get_score(bot->work, seat, &score) == STPETE_OK)
                vp[a] += score.total;
        }
        rounds++;
    } while (!budget_spent(bot, it, t0));
    size_t best = 0;
    for (size_t a = 1; a < n; a++)
        if (sum[a] > sum[best] || (sum[a] == sum[best] && vp[a] > vp[best]))
            best = a;
    bot->stats.iterations = it;
    bot->stats.value = sum[best] / (double)rounds;
    *action = ids[best];
    return STPETE_OK;
}

/* ---- ismcts -------------------------------------------------------------------------------------------- */

/* Most nodes in a tree: 2^22 nodes of 32 bytes = 128 MiB. When the pool is full the search goes on without
 * expanding. */
#define MAX_NODES (UINT32_C(1) << 22)

/* A new child of parent for action taken by player; -1 if the pool is full and cannot grow. */
static int32_t new_node(stpete_bot *bot, int32_t parent, int action, int player)
{
    if (bot->node_n == bot->node_cap) {
        size_t cap = bot->node_cap ? 2 * bot->node_cap : 4096;
        if (cap > MAX_NODES)
            cap = MAX_NODES;
        bot_node *nodes = cap > bot->node_cap ? bot_realloc(bot, bot->nodes, cap * sizeof *nodes) : NULL;
        if (!nodes)
            return -1;
        bot->nodes = nodes;
        bot->node_cap = cap;
    }
    int32_t i = (int32_t)bot->node_n++;
    bot_node *v = &bot->nodes[i];
    v->parent = parent;
    v->first_child = -1;
    v->next_sibling = parent >= 0 ? bot->nodes[parent].first_child : -1;
    v->action = (int16_t)action;
    v->player = (int8_t)player;
    v->visits = 0;
    v->avail = 1;
    v->reward = 0;
    if (parent >= 0)
        bot->nodes[parent].first_child = i;
    return i;
}

/* A new generation of stamps, with the n legal actions ids stamped in it (every stamp cleared when the generations
 * wrap around). */
static uint32_t stamp_legal(stpete_bot *bot, const int *ids, size_t n)
{
    uint32_t gen = ++bot->gen;
    if (gen == 0) { /* the stamps wrapped around: clear them */
        memset(bot->legal_stamp, 0, sizeof bot->legal_stamp);
        memset(bot->child_stamp, 0, sizeof bot->child_stamp);
        gen = bot->gen = 1;
    }
    for (size_t i = 0; i < n; i++)
        bot->legal_stamp[ids[i]] = gen;
    return gen;
}

/* Most entries of the table of logs: 2^16 doubles (512 KiB). Larger counts call log(). */
#define MAX_LOGS (UINT32_C(1) << 16)

/* Fill the table of logs up to the largest availability count a search of `iterations` iterations can reach
 * (avail starts at 1 and grows by at most 1 an iteration; 4096 entries for a search bounded by time only): the
 * same log() of the same counts as UCB1 would call, computed once per count instead of once per child and visit.
 * STPETE_OK, or STPETE_E_OUT_OF_MEMORY if the table cannot grow (as the node pool's root: the search fails cleanly;
 * the table stays as it was). */
static int fill_logs(stpete_bot *bot, uint64_t iterations)
{
    size_t want = iterations ? (iterations + 2 < MAX_LOGS ? (size_t)iterations + 2 : MAX_LOGS) : 4096;
    if (want <= bot->log_n)
        return STPETE_OK;
    double *logs = bot_realloc(bot, bot->logs, want * sizeof *logs);
    if (!logs)
        return STPETE_E_OUT_OF_MEMORY;
    bot->logs = logs;
    for (size_t k = bot->log_n ? bot->log_n : 1; k < want; k++)
        logs[k] = log((double)k);
    logs[0] = 0; /* never read: avail >= 1 */
    bot->log_n = want;
    return STPETE_OK;
}

/* log(k) for an availability count k >= 1 (the table, or log() beyond it). */
static inline double log_count(const stpete_bot *bot, uint32_t k)
{
    return k < bot->log_n ? bot->logs[k] : log((double)k);
}

/* The child of v of highest UCB1 among those whose action is legal (stamped gen), with the availability count in
 * place of the parent's visits; -1 if there is none. Stamps every child's action in child_stamp; *available receives
 * the number of legal children. */
static int32_t best_child(stpete_bot *bot, int32_t v, uint32_t gen, size_t *available)
{
    const double c = bot->p.c;
    int32_t best = -1;
    double best_ucb = -1.0;
    *available = 0;
    for (int32_t ch = bot->nodes[v].first_child; ch >= 0; ch = bot->nodes[ch].next_sibling) {
        bot_node *u = &bot->nodes[ch];
        bot->child_stamp[u->action] = gen;
        if (bot->legal_stamp[u->action] != gen)
            continue;
        (*available)++;
        double ucb = u->reward / u->visits + c * sqrt(log_count(bot, u->avail) / u->visits);
        if (ucb > best_ucb) {
            best_ucb = ucb;
            best = ch;
        }
    }
    return best;
}

/* Expand *v by one of its `untried` legal actions among ids (those without a child stamped gen), chosen uniformly,
 * for player, and apply it to st: *v becomes the new child. If the node pool is full, *v and st stay as they are
 * (the playout starts from *v). */
static int expand(stpete_bot *bot, stpete_state *st, int32_t *v, const int *ids, size_t n, size_t untried,
                  uint32_t gen, int player)
{
    size_t k = bot_random_below(&bot->rng, untried);
    int id = -1;
    for (size_t i = 0; i < n; i++)
        if (bot->child_stamp[ids[i]] != gen && k-- == 0) {
            id = ids[i];
            break;
        }
    int32_t child = new_node(bot, *v, id, player);
    if (child < 0) /* the pool is full: play out from here */
        return STPETE_OK;
    int rc = stpete_state_apply(st, id);
    if (rc != STPETE_OK)
        return bot_fail(bot, rc, "ismcts: %s", stpete_state_last_error(st));
    *v = child;
    return STPETE_OK;
}

/* One iteration of SO-ISMCTS from the root (Cowling, Powley and Whitehouse 2012, Algorithm 3; the availability
 * counts and the UCB1 term as in their reference implementation): in a new determinization, descend while every
 * action legal in it has a child, by UCB1 with the availability count in place of the parent's visits; expand
 * one untried action chosen uniformly; play out; add each seat's return to the nodes where it acted. */
static int iterate(stpete_bot *bot, const stpete_state *root, int seat)
{
    stpete_state *st = bot->work;
    int rc = bot_determinize(st, root, seat, bot_next_random(&bot->rng));
    if (rc != STPETE_OK)
        return bot_fail(bot, rc, "ismcts: determinization failed: %s", stpete_strerror(rc));
    int32_t v = 0;
    int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
    for (;;) {
        int player = stpete_state_current_player(st);
        if (player == STPETE_PLAYER_TERMINAL)
            break;
        if (player == STPETE_PLAYER_CHANCE) {
            if ((rc = bot_chance_step(bot, st)) != STPETE_OK)
                return rc;
            continue;
        }
        size_t n = 0, available = 0;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n);
        uint32_t gen = stamp_legal(bot, ids, n);
        int32_t best = best_child(bot, v, gen, &available);
        if (available < n) { /* expand an untried action, chosen uniformly */
            if ((rc = expand(bot, st, &v, ids, n, n - available, gen, player)) != STPETE_OK)
                return rc;
            break;
        }
        for (int32_t ch = bot->nodes[v].first_child; ch >= 0; ch = bot->nodes[ch].next_sibling)
            if (bot->legal_stamp[bot->nodes[ch].action] == gen)
                bot->nodes[ch].avail++;
        v = best;
        if ((rc = stpete_state_apply(st, bot->nodes[v].action)) != STPETE_OK)
            return bot_fail(bot, rc, "ismcts: %s", stpete_state_last_error(st));
    }
    double r[STPETE_MAX_PLAYERS];
    if ((rc = bot_playout(bot, st, r, &bot->stats.playout_actions)) != STPETE_OK)
        return rc;
    for (; v > 0; v = bot->nodes[v].parent) {
        bot->nodes[v].visits++;
        bot->nodes[v].reward += r[bot->nodes[v].player];
    }
    bot->nodes[0].visits++;
    return STPETE_OK;
}

int bot_choose_ismcts(stpete_bot *bot, const stpete_state *state, int seat, const int *ids, size_t n,
                      int *action)
{
    (void)ids;
    (void)n;
    int rc;
    bot->node_n = 0;
    if (fill_logs(bot, bot->p.iterations) != STPETE_OK)
        return bot_fail(bot, STPETE_E_OUT_OF_MEMORY, "out of memory (ismcts log table)");
    if (new_node(bot, -1, -1, -1) < 0)
        return bot_fail(bot, STPETE_E_OUT_OF_MEMORY, "out of memory (ismcts tree)");
    uint64_t t0 = bot_now_ns(), it = 0;
    do {
        if ((rc = iterate(bot, state, seat)) != STPETE_OK)
            return rc;
        it++;
    } while (!budget_spent(bot, it, t0));
    /* The most visited root action; ties to the better mean, then the lower id. */
    int32_t best = -1;
    for (int32_t ch = bot->nodes[0].first_child; ch >= 0; ch = bot->nodes[ch].next_sibling) {
        const bot_node *u = &bot->nodes[ch], *b = best >= 0 ? &bot->nodes[best] : NULL;
        if (!b || u->visits > b->visits ||
            (u->visits == b->visits && (u->reward > b->reward || (u->reward == b->reward && u->action < b->action))))
            best = ch;
    }
    if (best < 0)
        return bot_fail(bot, STPETE_E_OUT_OF_MEMORY, "out of memory (ismcts tree)");
    bot->stats.iterations = it;
    bot->stats.nodes = bot->node_n;
    bot->stats.value = bot->nodes[best].visits ? bot->nodes[best].reward / bot->nodes[best].visits : 0;
    *action = bot->nodes[best].action;
    return STPETE_OK;
}
