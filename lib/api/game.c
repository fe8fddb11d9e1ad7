/* The game handle (§3, §7.2, §8, §9, §11, §12), made from options that the table of options (options.c) checks:
 * one validator, with a reason, serves stpete_game_new(), the JSON readers and the callers who want to know why
 * before creating a game. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "api/api.h"

static int options_size_ok(size_t size)
{
    return stpete_options_size_ok(size); /* options.c: the released layouts */
}

/* Copy the fields the caller's struct has (struct_size) over the defaults. */
static int options_of(const stpete_options *opts, stpete_options *o, char *why, size_t why_size)
{
    stpete_options_init_size(o, sizeof *o);
    if (!opts)
        return STPETE_OK;
    if (!options_size_ok(opts->struct_size))
        return stpete_error_why(why, why_size, STPETE_E_UNSUPPORTED_VERSION,
                      "struct_size %zu: not the size of a released stpete_options layout (%zu, %zu, this library's %zu)",
                      opts->struct_size, STPETE_OPTIONS_SIZE_1_0, (size_t)STPETE_OPTIONS_SIZE_1_1, sizeof *o);
    memcpy(o, opts, opts->struct_size); /* fields the caller does not know keep their defaults */
    o->struct_size = sizeof *o;
    return STPETE_OK;
}

/* The table's checks (options.c: every option in its range and its games, players, markers), then the allocator. */
static int check(const stpete_options *o, char *why, size_t size)
{
    const stpete_allocator *al = &o->allocator;
    int custom = (al->malloc_fn != NULL) + (al->realloc_fn != NULL) + (al->free_fn != NULL);
    int rc = stpete_options_check_table(o, why, size);
    if (rc)
        return rc;
    if (custom != 0 && custom != 3)
        return stpete_error_why(why, size, STPETE_E_INVALID_ARGUMENT,
                      "allocator: set all three functions (malloc_fn, realloc_fn, free_fn) or none");
    if (why && size)
        why[0] = '\0';
    return STPETE_OK;
}

void stpete_game_rules_of(const stpete_options *o, stpete_rules *r)
{
    memset(r, 0, sizeof *r); /* the padding too: rules compare with memcmp (stpete_game_rules_same) */
    r->players = (uint8_t)o->players;
    r->pub_cap = (uint8_t)o->pub_cap;
    r->tie_break = (uint8_t)o->tie_break;
    r->public_rubles = (uint8_t)o->public_rubles;
    r->public_hands = (uint8_t)o->public_hands;
    r->chance_mode = (uint8_t)o->chance_mode;
    r->edition_index = (uint8_t)(o->edition - 1);
    r->new_society = (uint8_t)o->new_society;
    r->markers_one_seat = (uint8_t)o->markers_one_seat;
    r->used_prison_scores = (uint8_t)o->used_prison_scores;
    r->textile_without_new_society = (uint8_t)o->textile_without_new_society;
    for (int k = 0; k < STPETE_NUM_PHASES; k++)
        r->start_markers[k] = (int8_t)o->start_markers[k];
}

STPETE_API int stpete_game_check_compatible(const stpete_game *a, const stpete_game *b)
{
    if (!a || !b)
        return STPETE_E_INVALID_ARGUMENT;
    return stpete_game_rules_same(&a->rules, &b->rules) ? STPETE_OK : STPETE_E_MISMATCH;
}

/* The options as this library's struct, validated; the reason of a refusal in e. */
static int options_valid(const stpete_options *opts, stpete_options *o, stpete_error *e)
{
    int rc = options_of(opts, o, e->message, sizeof e->message);
    return rc ? rc : check(o, e->message, sizeof e->message);
}

STPETE_API int stpete_options_check(const stpete_options *opts, stpete_error *err)
{
    int rc = stpete_error_check(err);
    if (rc)
        return rc;
    stpete_error e = STPETE_ERROR_INIT;
    stpete_options o;
    rc = opts ? options_valid(opts, &o, &e) : stpete_error_fail(&e, STPETE_E_INVALID_ARGUMENT, "opts is NULL");
    return stpete_error_finish(err, &e, rc);
}

STPETE_API int stpete_game_new(const stpete_options *opts, stpete_game **out, stpete_error *err)
{
    if (out)
        *out = NULL;
    int rc = stpete_error_begin(err, out != NULL);
    if (rc)
        return rc;
    stpete_error e = STPETE_ERROR_INIT;
    stpete_options o;
    rc = options_valid(opts, &o, &e);
    if (rc)
        return stpete_error_finish(err, &e, rc);
    stpete_game *g = stpete_facts_malloc(&o.allocator, sizeof *g);
    if (!g)
        return stpete_error_caller_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory");
    memset(g, 0, sizeof *g);
    g->opts = o;
    stpete_game_rules_of(&o, &g->rules);
    *out = g;
    return stpete_error_finish(err, &e, STPETE_OK);
}

STPETE_API int stpete_game_edition(const stpete_game *game)
{
    return game ? game->rules.edition_index + 1 : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_game_is_new_society(const stpete_game *game, int *new_society)
{
    if (!game || !new_society)
        return STPETE_E_INVALID_ARGUMENT;
    *new_society = game->rules.new_society;
    return STPETE_OK;
}

STPETE_API int stpete_game_num_card_types(const stpete_game *game)
{
    return game ? stpete_engine_card_types(&game->rules) : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_game_num_distinct_actions(const stpete_game *game)
{
    if (!game)
        return STPETE_E_INVALID_ARGUMENT;
    return game->rules.new_society ? STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY : STPETE_NUM_DISTINCT_ACTIONS;
}

STPETE_API int stpete_game_get_card_info(const stpete_game *game, int card, stpete_card_info *out)
{
    if (!game || !out || card < 0 || card >= stpete_engine_card_types(&game->rules))
        return STPETE_E_INVALID_ARGUMENT;
    stpete_card_info full = STPETE_CARD_INFO_INIT;
    stpete_cards_describe(&stpete_engine_cards(&game->rules)[card], card, &full);
    return stpete_struct_out(out, &full, STPETE_CARD_INFO_SIZE_1_0, sizeof full);
}

STPETE_API void stpete_game_free(stpete_game *game)
{
    if (game) {
        stpete_allocator al = game->opts.allocator;
        stpete_facts_free(&al, game);
    }
}

STPETE_API int stpete_game_get_options(const stpete_game *game, stpete_options *out)
{
    if (!game || !out)
        return STPETE_E_INVALID_ARGUMENT;
    size_t size = out->struct_size;
    if (!options_size_ok(size))
        return STPETE_E_UNSUPPORTED_VERSION;
    memcpy(out, &game->opts, size); /* never more than the caller's struct */
    out->struct_size = size;
    return STPETE_OK;
}

STPETE_API int stpete_game_num_players(const stpete_game *game)
{
    return game ? game->rules.players : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_num_distinct_actions(void)
{
    return STPETE_NUM_DISTINCT_ACTIONS;
}

/* The derivation is in doc/format.md ("The longest game"), and the conformance tests check the bound on random
 * games. */
STPETE_API int stpete_game_max_length(const stpete_game *game)
{
    if (!game)
        return STPETE_E_INVALID_ARGUMENT;
    int n = game->rules.players;
    /* Cards left in the stacks after the setup deal (§3.4); before a stack empties each of the 4 keeps one. */
    int cards = game->rules.new_society ? STPETE_NUM_CARDS_NEW_SOCIETY : STPETE_NUM_CARDS; /* §2, §12.2.4 */
    int dealable = cards - stpete_engine_setup_deal(n) - STPETE_NUM_STACKS;
    /* Every two consecutive rounds that are not the last deal at least 8 cards (§4.5): rounds 2.. before the last
     * non-final round come in at most dealable / 8 pairs; plus round 1, that last non-final round and the final one. */
    int rounds = 2 * (dealable / STPETE_BOARD_SIZE) + 4;
    /* Each card enters a hand and a display at most once (2 x 116); the 2 Observatories draw at most twice a round,
     * each draw adding the draw and perhaps a discard; N Pub decisions a round; before each of those K actions at
     * most N - 1 passes in a row, and N passes end each of the 4 phases of a round. Total <= N K + N R + 4 N R with
     * K <= 232 + 4 R. */
    int others = 2 * cards + 4 * rounds;
    /* The New Society adds at most 6 decisions a round: the Debtor's Prison's pick and resolution, a card it brings
     * back played from hand later (once a round, §12.7.5), the Guild Hall and the Trading House (§12.4.3), and a
     * displaced card's re-entry. */
    if (game->rules.new_society)
        others += 6 * rounds;
    int length = n * others + n * rounds + STPETE_NUM_PHASES * n * rounds;
    /* Explicit chance: one outcome per card that leaves a stack (dealt or drawn), and the marker deal. */
    if (game->rules.chance_mode == STPETE_CHANCE_EXPLICIT)
        length += cards + 1;
    return length;
}


