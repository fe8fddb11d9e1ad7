/* The reference bots' handle: specs, life cycle, choose (bots.h). The searches are in bot_search.c, the evaluation,
 * playouts and determinization in bot_policy.c, memory, messages and the PRNG in bot_base.c (the layers, from the
 * top). Public API only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot_private.h"
#include "bot_value.h"

/* ---- specs ------------------------------------------------------------------------------------------ */

/* The keys of the specs, in canonical order. */
enum { KEY_ITERATIONS, KEY_MS, KEY_C, KEY_PLAYOUT, KEY_DEPTH, KEY_TEMP, KEY_SEED, NUM_KEYS };
static const char *const key_names[NUM_KEYS] = { "iterations", "ms", "c", "playout", "depth", "temp", "seed" };

typedef struct kind_desc {
    const char *name;
    unsigned keys; /* bit mask of KEY_* */
} kind_desc;

#define K(k) (1u << (k))
static const kind_desc kinds[] = {
    [BOT_RANDOM] = { "random", K(KEY_SEED) },
    [BOT_GREEDY] = { "greedy", 0 },
    [BOT_MC] = { "mc", K(KEY_ITERATIONS) | K(KEY_MS) | K(KEY_PLAYOUT) | K(KEY_DEPTH) | K(KEY_TEMP) | K(KEY_SEED) },
    [BOT_ISMCTS] = { "ismcts", K(KEY_ITERATIONS) | K(KEY_MS) | K(KEY_C) | K(KEY_PLAYOUT) | K(KEY_DEPTH) |
                                   K(KEY_TEMP) | K(KEY_SEED) },
    [BOT_LEARNED] = { "learned", K(KEY_ITERATIONS) | K(KEY_MS) | K(KEY_C) | K(KEY_DEPTH) | K(KEY_SEED) },
};
#undef K
#define NUM_KINDS ((int)(sizeof kinds / sizeof kinds[0]))

static const char *const playout_names[] = { [PLAYOUT_RANDOM] = "random", [PLAYOUT_GREEDY] = "greedy" };

/* The learned bot's defaults (doc/learning.md): 4000 iterations take about the CPU time of the default ismcts's
 * 1000 at 2 and 4 players (measured, doc/learning.md), c and depth those of the pilot matches. */
#define LEARNED_ITERATIONS 4000
#define LEARNED_C 0.7
#define LEARNED_DEPTH 0

/* Decimals are read and written without the C library (strtod and printf follow the locale's decimal point):
 * at most 6 decimal places, held as millionths. */
#define MICRO 1000000

static void defaults(bot_params *p, int kind)
{
    p->kind = kind;
    p->iterations = 1000;
    p->ms = 0;
    p->c = 0.7;
    p->playout = PLAYOUT_RANDOM;
    p->depth = 0; /* playouts to the end: stronger than any cut-off tried, at equal time (doc/bots.md) */
    p->temp = 10.0;
    p->seed = 0;
    if (kind == BOT_LEARNED) { /* measured in doc/learning.md */
        p->iterations = LEARNED_ITERATIONS;
        p->c = LEARNED_C;
        p->depth = LEARNED_DEPTH; /* random actions before the network evaluates (0: at the leaf) */
    }
}

/* An unsigned decimal integer of len characters; 0 on success, -1 if not a number, -2 if it overflows. */
static int parse_u64(const char *s, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    if (len == 0)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -2;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* A decimal DIGITS[.DIGITS] with at most 6 decimal places, in millionths; 0, -1 (not such a number), -2 (too big). */
static int parse_micro(const char *s, size_t len, uint64_t *micro)
{
    const char *dot = memchr(s, '.', len);
    size_t int_len = dot ? (size_t)(dot - s) : len;
    size_t frac_len = dot ? len - int_len - 1 : 0;
    uint64_t whole = 0, frac = 0;
    if (int_len == 0 || (dot && (frac_len == 0 || frac_len > 6)))
        return -1;
    int rc = parse_u64(s, int_len, &whole);
    if (rc == 0 && dot)
        rc = parse_u64(dot + 1, frac_len, &frac);
    if (rc != 0)
        return rc;
    for (size_t i = frac_len; i < 6; i++)
        frac *= 10;
    if (whole > UINT64_C(1000000000))
        return -2;
    *micro = whole * MICRO + frac;
    return 0;
}

/* Write millionths as the shortest decimal: 700000 -> "0.7", 10000000 -> "10". */
static void format_micro(char *buf, size_t size, uint64_t micro)
{
    char frac[8];
    snprintf(frac, sizeof frac, "%06u", (unsigned)(micro % MICRO));
    for (int i = 5; i >= 0 && frac[i] == '0'; i--)
        frac[i] = '\0';
    snprintf(buf, size, "%llu%s%s", (unsigned long long)(micro / MICRO), frac[0] ? "." : "", frac);
}

static uint64_t to_micro(double v)
{
    return (uint64_t)(v * MICRO + 0.5);
}

/* The index in kinds of the kind named by the first kind_len characters of spec, or -1 with the reason in err. */
static int parse_kind(const char *spec, size_t kind_len, char *err, size_t err_size)
{
    if (kind_len == 0) {
        snprintf(err, err_size, "%s bot spec: expected KIND[:KEY=VALUE]..., KIND one of random, greedy, mc, ismcts, learned",
                 spec[0] ? "no kind in the" : "empty");
        return -1;
    }
    int kind = -1;
    for (int k = 0; k < NUM_KINDS; k++)
        if (strlen(kinds[k].name) == kind_len && strncmp(spec, kinds[k].name, kind_len) == 0)
            kind = k;
    if (kind < 0)
        snprintf(err, err_size, "unknown bot kind '%.*s' (expected random, greedy, mc, ismcts or learned)", (int)kind_len,
                 spec);
    return kind;
}

/* The KEY_* named by the key_len characters at s if a bot of this kind takes it, or -1 with the reason in err. */
static int parse_key(const char *s, size_t key_len, int kind, char *err, size_t err_size)
{
    int key = -1;
    for (int k = 0; k < NUM_KEYS; k++)
        if (strlen(key_names[k]) == key_len && strncmp(s, key_names[k], key_len) == 0)
            key = k;
    if (key >= 0 && (kinds[kind].keys & (1u << key)))
        return key;
    char allowed[128] = "";
    for (int k = 0; k < NUM_KEYS; k++)
        if (kinds[kind].keys & (1u << k)) {
            strcat(allowed, allowed[0] ? ", " : "");
            strcat(allowed, key_names[k]);
        }
    snprintf(err, err_size, "unknown key '%.*s' for a %s bot (%s%s)", (int)key_len, s, kinds[kind].name,
             allowed[0] ? "keys: " : "it takes no keys", allowed);
    return -1;
}

/* Read the val_len characters at val as the value of key: the number into *u (the playout word straight into p).
 * 0 on success, -2 if the number is too big to read (reported as out of range by store_value), -1 with the reason in
 * err if the text is not of the key's form. */
static int parse_value(int key, const char *val, size_t val_len, bot_params *p, uint64_t *u, char *err,
                       size_t err_size)
{
    int rc = 0;
    const char *expect = "a non-negative integer";
    switch (key) {
    case KEY_C:
    case KEY_TEMP:
        rc = parse_micro(val, val_len, u);
        expect = "a decimal number with at most 6 decimal places, like 0.7";
        break;
    case KEY_PLAYOUT:
        rc = -1;
        for (int k = 0; k < 2; k++)
            if (strlen(playout_names[k]) == val_len && strncmp(val, playout_names[k], val_len) == 0) {
                p->playout = k;
                rc = 0;
            }
        expect = "random or greedy";
        break;
    default:
        rc = parse_u64(val, val_len, u);
    }
    if (rc == -1)
        snprintf(err, err_size, "bad value '%.*s' for %s: expected %s", (int)val_len, val, key_names[key], expect);
    return rc;
}

/* Store the value u of key into p (rc: parse_value's result, 0 or -2); the text of the key's range if the value is
 * outside it, NULL if it is stored. */
static const char *store_value(int key, int rc, uint64_t u, bot_params *p)
{
    const char *range = NULL;
    switch (key) {
    case KEY_ITERATIONS:
        range = rc || u > UINT64_C(1000000000) ? "0..1000000000" : NULL;
        p->iterations = u;
        break;
    case KEY_MS:
        range = rc || u > UINT64_C(3600000) ? "0..3600000 (one hour)" : NULL;
        p->ms = u;
        break;
    case KEY_C:
        range = rc || u > UINT64_C(100) * MICRO ? "0..100" : NULL;
        p->c = (double)u / MICRO;
        break;
    case KEY_DEPTH:
        range = rc || u > 10000 ? "0..10000 (0 = play to the end)" : NULL;
        p->depth = (int)u;
        break;
    case KEY_TEMP:
        range = rc || u == 0 || u > UINT64_C(1000) * MICRO ? "above 0, at most 1000" : NULL;
        p->temp = (double)u / MICRO;
        break;
    case KEY_SEED:
        range = rc ? "0..18446744073709551615" : NULL;
        p->seed = u;
        break;
    default:
        break;
    }
    return range;
}

/* Parse the KEY=VALUE field of field_len characters at s into p, for a bot of the given kind; *seen holds the bits of
 * the keys given before it. On failure write the reason into err and return the status. */
static int parse_field(const char *s, size_t field_len, int kind, unsigned *seen, bot_params *p, char *err,
                       size_t err_size)
{
    const char *eq = memchr(s, '=', field_len);
    if (!eq) {
        snprintf(err, err_size, "bot spec field '%.*s' is not KEY=VALUE", (int)field_len, s);
        return STPETE_E_PARSE;
    }
    size_t key_len = (size_t)(eq - s), val_len = field_len - key_len - 1;
    const char *val = eq + 1;
    int key = parse_key(s, key_len, kind, err, err_size);
    if (key < 0)
        return STPETE_E_PARSE;
    if (*seen & (1u << key)) {
        snprintf(err, err_size, "key '%s' given twice in the bot spec", key_names[key]);
        return STPETE_E_PARSE;
    }
    *seen |= 1u << key;
    uint64_t u = 0;
    int rc = parse_value(key, val, val_len, p, &u, err, err_size);
    if (rc == -1)
        return STPETE_E_PARSE;
    const char *range = store_value(key, rc, u, p);
    if (range) {
        snprintf(err, err_size, "%s=%.*s is out of range: %s", key_names[key], (int)val_len, val, range);
        return STPETE_E_INVALID_ARGUMENT;
    }
    return STPETE_OK;
}

/* Parse a spec into p; on failure write the reason into err and return the status. */
static int parse_spec(const char *spec, bot_params *p, char *err, size_t err_size)
{
    size_t total = strlen(spec);
    if (total >= STPETE_BOT_SPEC_MAX) {
        snprintf(err, err_size, "bot spec is %zu characters long; at most %d are accepted", total,
                 STPETE_BOT_SPEC_MAX - 1);
        return STPETE_E_PARSE;
    }
    size_t kind_len = strcspn(spec, ":");
    int kind = parse_kind(spec, kind_len, err, err_size);
    if (kind < 0)
        return STPETE_E_PARSE;
    defaults(p, kind);
    unsigned seen = 0;
    const char *s = spec + kind_len;
    while (*s == ':') {
        s++;
        size_t field_len = strcspn(s, ":");
        int rc = parse_field(s, field_len, kind, &seen, p, err, err_size);
        if (rc != STPETE_OK)
            return rc;
        s += field_len;
    }
    if (*s) { /* only reachable through an empty kind, handled above */
        snprintf(err, err_size, "unexpected text in the bot spec: '%s'", s);
        return STPETE_E_PARSE;
    }
    if (p->iterations == 0 && p->ms == 0 && (kind == BOT_MC || kind == BOT_ISMCTS || kind == BOT_LEARNED)) {
        snprintf(err, err_size, "iterations=0 needs a time limit (ms=...): the search would never stop");
        return STPETE_E_INVALID_ARGUMENT;
    }
    return STPETE_OK;
}

static void format_spec(const bot_params *p, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "%s", kinds[p->kind].name);
    unsigned keys = kinds[p->kind].keys;
    for (int k = 0; k < NUM_KEYS && n < size; k++) {
        if (!(keys & (1u << k)))
            continue;
        char val[48];
        switch (k) {
        case KEY_ITERATIONS:
            snprintf(val, sizeof val, "%llu", (unsigned long long)p->iterations);
            break;
        case KEY_MS:
            snprintf(val, sizeof val, "%llu", (unsigned long long)p->ms);
            break;
        case KEY_C:
            format_micro(val, sizeof val, to_micro(p->c));
            break;
        case KEY_PLAYOUT:
            snprintf(val, sizeof val, "%s", playout_names[p->playout]);
            break;
        case KEY_DEPTH:
            snprintf(val, sizeof val, "%d", p->depth);
            break;
        case KEY_TEMP:
            format_micro(val, sizeof val, to_micro(p->temp));
            break;
        default:
            snprintf(val, sizeof val, "%llu", (unsigned long long)p->seed);
        }
        n += (size_t)snprintf(buf + n, size - n, ":%s=%s", key_names[k], val);
    }
}

/* ---- life cycle ------------------------------------------------------------------------------------- */

/* The first sizes of the structs the bots fill (their 1.0 layouts; a later version keeps these as the minimum). */
#define BOT_STATS_SIZE_1_0 sizeof(stpete_bot_stats)
#define BOT_ERROR_SIZE_1_0 sizeof(stpete_error)

/* A failure (or the success) of stpete_bot_new(): its status and reason into the caller's detail (stpete.h,
 * "Parameters"), only the struct_size bytes the caller has (checked on entry). */
static int refuse(stpete_error *err, int status, const char *text)
{
    if (err) {
        stpete_error e = STPETE_ERROR_INIT;
        e.status = status;
        snprintf(e.message, sizeof e.message, "%s", text);
        size_t size = err->struct_size;
        memcpy((char *)err + sizeof size, (const char *)&e + sizeof size, size - sizeof size);
    }
    return status;
}

/* The income per card its heuristics count (§2, §4.4): the first edition's values in either edition (the same games
 * as before), or with the New Society the expansion's (§12.2, the Sycophant's -1 R included) and the specials'
 * income at each building scoring, roughly: the Guild Hall's 4 taken as VP, the Trading House's 2 VP for 3 R
 * (§12.7.6, §12.7.7). */
static void card_values(stpete_bot *bot, const stpete_game *game)
{
    int new_society = 0;
    stpete_game_is_new_society(game, &new_society);
    for (int card = 0; card < stpete_game_num_card_types(game); card++) {
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        if (new_society)
            stpete_game_get_card_info(game, card, &info);
        else
            stpete_card_get_info(STPETE_EDITION_FIRST, card, &info);
        bot->card_vp[card] = info.vp;
        bot->card_rubles[card] = info.rubles;
    }
    if (new_society) {
        bot->card_vp[STPETE_CARD_GUILD_HALL] = 4;
        bot->card_vp[STPETE_CARD_TRADING_HOUSE] = 2;
        bot->card_rubles[STPETE_CARD_TRADING_HOUSE] = -3;
    }
}

STPETE_API int stpete_bot_new(const stpete_game *game, const char *spec, stpete_bot **out, stpete_error *err)
{
    char why[256] = "";
    if (out)
        *out = NULL;
    if (err && (err->struct_size < BOT_ERROR_SIZE_1_0 || err->struct_size > sizeof *err))
        return STPETE_E_UNSUPPORTED_VERSION;
    if (!out || !game || !spec)
        return refuse(err, STPETE_E_INVALID_ARGUMENT,
                      !out ? "stpete_bot_new: out is NULL" : !game ? "stpete_bot_new: game is NULL"
                                                                  : "stpete_bot_new: spec is NULL");
    bot_params p;
    int rc = parse_spec(spec, &p, why, sizeof why);
    if (rc != STPETE_OK)
        return refuse(err, rc, why);
    stpete_options rules;
    stpete_options_init(&rules);
    rc = stpete_game_get_options(game, &rules);
    if (rc != STPETE_OK)
        return refuse(err, rc == STPETE_E_INVALID_ARGUMENT ? rc : STPETE_E_UNSUPPORTED_VERSION,
                      "stpete_bot_new: cannot read the game's options");
    stpete_bot proto;
    memset(&proto, 0, sizeof proto);
    proto.alloc = rules.allocator;
    stpete_bot *bot = bot_malloc(&proto, sizeof *bot);
    if (!bot)
        return refuse(err, STPETE_E_OUT_OF_MEMORY, "out of memory");
    memset(bot, 0, sizeof *bot);
    bot->game = game;
    bot->alloc = rules.allocator;
    bot->players = rules.players;
    bot->p = p;
    bot->rng = p.seed;
    bot->stats.action = -1;
    bot->stats.seat = -1;
    format_spec(&p, bot->spec, sizeof bot->spec);
    card_values(bot, game);
    rc = STPETE_OK;
    if (p.kind != BOT_RANDOM)
        rc = stpete_state_new(game, &bot->scratch, NULL);
    if (rc == STPETE_OK && (p.kind == BOT_MC || p.kind == BOT_ISMCTS || p.kind == BOT_LEARNED))
        rc = stpete_state_new(game, &bot->work, NULL);
    bot->net = bot_value_net_of(game);
    if (rc != STPETE_OK) {
        stpete_bot_free(bot);
        return refuse(err, rc, rc == STPETE_E_OUT_OF_MEMORY ? "out of memory" : stpete_strerror(rc));
    }
    *out = bot;
    return refuse(err, STPETE_OK, "");
}

STPETE_API void stpete_bot_free(stpete_bot *bot)
{
    if (!bot)
        return;
    stpete_state_free(bot->work);
    stpete_state_free(bot->scratch);
    bot_freemem(bot, bot->nodes);
    bot_freemem(bot, bot->logs);
    stpete_bot proto = *bot;
    bot_freemem(&proto, bot);
}

STPETE_API int stpete_bot_set_seed(stpete_bot *bot, uint64_t seed)
{
    if (!bot)
        return STPETE_E_INVALID_ARGUMENT;
    bot->rng = seed;
    bot->error[0] = '\0';
    return STPETE_OK;
}

STPETE_API int stpete_bot_spec(const stpete_bot *bot, char *buf, size_t capacity, size_t *len)
{
    if (!bot || !len || (!buf && capacity > 0))
        return STPETE_E_INVALID_ARGUMENT;
    *len = strlen(bot->spec);
    if (*len + 1 > capacity)
        return STPETE_E_BUFFER_TOO_SMALL;
    memcpy(buf, bot->spec, *len + 1);
    return STPETE_OK;
}

STPETE_API const char *stpete_bot_last_error(const stpete_bot *bot)
{
    return bot ? bot->error : "";
}

STPETE_API int stpete_bot_get_stats(const stpete_bot *bot, stpete_bot_stats *out)
{
    if (!bot || !out)
        return STPETE_E_INVALID_ARGUMENT;
    if (out->struct_size < BOT_STATS_SIZE_1_0 || out->struct_size > sizeof(stpete_bot_stats))
        return STPETE_E_UNSUPPORTED_VERSION;
    size_t size = out->struct_size;
    stpete_bot_stats s = bot->stats;
    s.struct_size = size;
    memcpy(out, &s, size);
    return STPETE_OK;
}

/* ---- choose ------------------------------------------------------------------------------------------ */

/* The state's game is the bot's (stpete_game_check_compatible(), the library's one answer; bots.h): STPETE_OK, or a
 * failure recorded in the bot. */
static int check_game(stpete_bot *bot, const stpete_state *state)
{
    if (stpete_game_check_compatible(bot->game, stpete_state_game(state)) == STPETE_OK)
        return STPETE_OK;
    return bot_fail(bot, STPETE_E_MISMATCH, "the state belongs to a game with other rule options than the bot's");
}

STPETE_API int stpete_bot_choose(stpete_bot *bot, const stpete_state *state, int *action)
{
    if (!bot)
        return STPETE_E_INVALID_ARGUMENT;
    if (!state || !action)
        return bot_fail(bot, STPETE_E_INVALID_ARGUMENT, "stpete_bot_choose: %s is NULL", !state ? "state" : "action");
    int rc = check_game(bot, state);
    if (rc)
        return rc;
    if (bot_game_over(state))
        return bot_fail(bot, STPETE_E_GAME_OVER, "the game is over (§4.6): no action to choose");
    int seat = stpete_state_current_player(state);
    if (seat < 0 || seat >= bot->players)
        return bot_fail(bot, STPETE_E_INVALID_ARGUMENT, "no seat is to act in this state (current player %d)", seat);
    int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
    size_t n = 0;
    if (stpete_state_legal_actions(state, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n) != STPETE_OK || n == 0)
        return bot_fail(bot, STPETE_E_INVALID_ARGUMENT, "no legal action in this state");
    uint64_t t0 = bot_now_ns();
    bot->error[0] = '\0'; /* the searches tell their own failures from a message set below them */
    stpete_bot_stats s = bot->stats;
    bot->stats.iterations = 0;
    bot->stats.nodes = 0;
    bot->stats.playout_actions = 0;
    bot->stats.value = 0;
    int choice = ids[0];
    switch (bot->p.kind) {
    case BOT_RANDOM:
        rc = stpete_state_random_action(state, bot_next_random(&bot->rng), &choice); /* = ids[next % n] */
        break;
    case BOT_GREEDY:
        rc = bot_greedy_choice(bot, state, ids, n, &choice, &bot->stats.value);
        break;
    case BOT_MC:
        if (n > 1)
            rc = bot_choose_mc(bot, state, seat, ids, n, &choice);
        break;
    default: /* ismcts; learned: the same search, its leaves evaluated from the seat's view by the network */
        bot->view = seat;
        if (n > 1)
            rc = bot_choose_ismcts(bot, state, seat, ids, n, &choice);
    }
    if (rc != STPETE_OK) {
        bot->stats = s;
        return rc;
    }
    bot->stats.struct_size = sizeof bot->stats;
    bot->stats.elapsed_ns = bot_now_ns() - t0;
    bot->stats.action = choice;
    bot->stats.seat = seat;
    bot->stats.legal_actions = (int)n;
    bot->error[0] = '\0';
    *action = choice;
    return STPETE_OK;
}

STPETE_API int stpete_bot_play(stpete_bot *const *bots, size_t count, stpete_state *state, size_t max_actions,
                               size_t *played)
{
    if (played)
        *played = 0;
    if (!state || !bots || count < (size_t)stpete_game_num_players(stpete_state_game(state)))
        return STPETE_E_INVALID_ARGUMENT;
    size_t applied = 0;
    int rc = STPETE_OK;
    while (max_actions == 0 || applied < max_actions) {
        int seat = stpete_state_current_player(state);
        if (seat < 0) /* the end of the game (STPETE_PLAYER_TERMINAL) or a chance node (STPETE_PLAYER_CHANCE) */
            break;
        if (!bots[seat]) {
            rc = STPETE_E_INVALID_ARGUMENT;
            break;
        }
        int id, freed = 0;
        rc = stpete_bot_choose(bots[seat], state, &id);
        if (rc == STPETE_OK)
            rc = stpete_state_apply_tracked(state, id, &freed);
        if (rc != STPETE_OK)
            break;
        applied++;
        if (freed) /* the state's callback freed it (stpete_state_free()): it is gone, never read it again */
            break;
    }
    if (played)
        *played = applied;
    return rc;
}

STPETE_API int stpete_bot_evaluate(stpete_bot *bot, const stpete_state *state, double *returns, size_t capacity)
{
    if (!bot)
        return STPETE_E_INVALID_ARGUMENT;
    if (!state || !returns)
        return bot_fail(bot, STPETE_E_INVALID_ARGUMENT, "stpete_bot_evaluate: %s is NULL",
                        !state ? "state" : "returns");
    if (capacity < (size_t)bot->players)
        return bot_fail(bot, STPETE_E_BUFFER_TOO_SMALL, "stpete_bot_evaluate: room for %zu returns, %d players", capacity,
                        bot->players);
    int rc = check_game(bot, state);
    if (rc)
        return rc;
    double r[STPETE_MAX_PLAYERS];
    int seat = stpete_state_current_player(state);
    bot->view = seat >= 0 && seat < bot->players ? seat : 0; /* learned: the seat to act's view */
    bot_returns(bot, state, r);
    memcpy(returns, r, (size_t)bot->players * sizeof *r);
    bot->error[0] = '\0';
    return STPETE_OK;
}
