/* stpete-bench: the output, as text or as one JSON object. */

#define _POSIX_C_SOURCE 199309L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <stpete/bots.h>
#include <stpete/stpete.h>
#include "cli.h"
#include "bench.h"

/* ---- output ------------------------------------------------------------------------------------- */

static double per_second(long n, double s)
{
    return s > 0 ? (double)n / s : 0;
}

static double ns_per(double s, long n)
{
    return n > 0 ? s * 1e9 / (double)n : 0;
}

/* ns per listing at the positions of the recorded games: the replay with listings minus the replay without. */
static double listing_in_game_ns(const result *r)
{
    double d = ns_per(r->replay_listed_seconds, r->replay_listed_actions) - ns_per(r->replay_seconds, r->replay_actions);
    return d > 0 ? d : 0;
}

/* Games per second and ns per action of the random games picked and applied one way (enum pick_way). */
static double games_rate(const result *r, int way)
{
    return per_second(r->way_games[way], r->way_seconds[way]);
}

static double action_ns(const result *r, int way)
{
    return ns_per(r->way_seconds[way], r->way_moves[way]);
}

void print_text(const result *r)
{
    printf("%d players\n", r->players);
    printf("  random games:           %ld in %.3f s CPU = %.0f games/s (%.1f actions per game, %.1f ns per action "
           "picked the %s way)\n",
           r->games, r->games_seconds, per_second(r->games, r->games_seconds),
           r->games ? (double)r->moves / (double)r->games : 0, ns_per(r->games_seconds, r->moves),
           pick_way_names[r->way_first]);
    printf("  random games, playout step (stpete_state_apply_random): %.0f games/s (%.1f ns per action)\n",
           games_rate(r, WAY_PLAY), action_ns(r, WAY_PLAY));
    printf("  random games, pick from the masks + apply: %.0f games/s (%.1f ns per action)\n",
           games_rate(r, WAY_MASK), action_ns(r, WAY_MASK));
    printf("  random games, listing + pick + apply:      %.0f games/s (%.1f ns per action; masks / listing %.2fx, "
           "play / listing %.2fx)\n",
           games_rate(r, WAY_LISTING), action_ns(r, WAY_LISTING),
           games_rate(r, WAY_LISTING) > 0 ? games_rate(r, WAY_MASK) / games_rate(r, WAY_LISTING) : 0,
           games_rate(r, WAY_LISTING) > 0 ? games_rate(r, WAY_PLAY) / games_rate(r, WAY_LISTING) : 0);
    printf("  digest:                 %016" PRIx64 " (seeds from the --seed, same as stpete-selfplay --bots random)\n",
           r->digest);
    printf("  applied actions:        %.0f actions/s (%.1f ns per apply)\n",
           per_second(r->replay_actions, r->replay_seconds), ns_per(r->replay_seconds, r->replay_actions));
    printf("  legal-action listing:   %.1f ns (%.1f ns with one PRNG call and pick; gap to the in-game action: "
           "%.1f ns)\n",
           ns_per(r->listing_seconds, r->listings), ns_per(r->pick_seconds, r->picks),
           action_ns(r, WAY_LISTING) - ns_per(r->pick_seconds, r->picks));
    printf("  mask pick:              %.1f ns (one PRNG call and stpete_state_random_action; gap to the in-game "
           "action: %.1f ns)\n",
           ns_per(r->mask_pick_seconds, r->mask_picks),
           action_ns(r, WAY_MASK) - ns_per(r->mask_pick_seconds, r->mask_picks));
    double learned = ns_per(r->listing_seconds, r->listings);
    printf("  listing at game positions: %.1f ns (the replay with a listing before each apply, minus the replay; "
           "%.2fx the listing on learned positions)\n",
           listing_in_game_ns(r), learned > 0 ? listing_in_game_ns(r) / learned : 0);
    printf("  clone (+ free):         %.1f ns\n", ns_per(r->clone_seconds, r->clones));
    printf("  copy into:              %.1f ns\n", ns_per(r->copy_seconds, r->copies));
    printf("  bytes per state:        %zu\n", r->state_bytes);
    printf("  heap allocations/game:  %.3f\n", r->allocs_per_game);
    printf("  JSON serialize:         %.0f ns per state (%.0f bytes, %.1f MB/s)\n",
           ns_per(r->serialize_seconds, r->serialized), r->json_bytes,
           per_second(r->serialized, r->serialize_seconds) * r->json_bytes / 1e6);
    printf("  JSON parse (+ free):    %.0f ns per state (%.1f MB/s)\n", ns_per(r->parse_seconds, r->parsed),
           per_second(r->parsed, r->parse_seconds) * r->json_bytes / 1e6);
    printf("  jansson alone:          %.0f ns per json_dumpb, %.0f ns per json_loadb + json_decref (same texts)\n",
           ns_per(r->jansson_dump_seconds, r->jansson_dumped), ns_per(r->jansson_load_seconds, r->jansson_loaded));
    double undo_ns = ns_per(r->undo_seconds, r->undos) - ns_per(r->replay_seconds, r->replay_actions);
    printf("  observation tensor:     %.1f ns\n", ns_per(r->tensor_seconds, r->tensors));
    printf("  information-state key:  %.1f ns\n", ns_per(r->key_seconds, r->keys));
    printf("  undo:                   %.1f ns (%.1f ns with the action applied again)\n", undo_ns > 0 ? undo_ns : 0,
           ns_per(r->undo_seconds, r->undos));
    printf("  explicit-chance games:  %.0f games/s (%.1f actions per game incl. chance outcomes; %.0f%% of the "
           "sampled mode's games/s)\n",
           per_second(r->chance_games, r->chance_seconds),
           r->chance_games ? (double)r->chance_moves / (double)r->chance_games : 0,
           per_second(r->games, r->games_seconds) > 0
               ? 100.0 * per_second(r->chance_games, r->chance_seconds) / per_second(r->games, r->games_seconds)
               : 0);
    printf("  bot %s:\n"
           "                          %.0f iterations/s from the opening position (%.1f ms per decision of %.0f "
           "iterations, %.1f allocations per decision)\n", r->bot_spec,
           per_second((long)r->ismcts_iterations, r->ismcts_seconds),
           r->ismcts_decisions ? 1e3 * r->ismcts_seconds / (double)r->ismcts_decisions : 0,
           r->ismcts_decisions ? (double)r->ismcts_iterations / (double)r->ismcts_decisions : 0, r->ismcts_allocs);
}

void print_json(const result *rs, int n, const config *cfg)
{
    printf("{\"library\":\"%s\",\"seed\":%" PRIu64, stpete_version(), cfg->seed);
    for (int i = 0; i < stpete_option_count(); i++) { /* the game's options (the table), players per result */
        stpete_option_info in = STPETE_OPTION_INFO_INIT;
        char value[STPETE_OPTION_VALUE_MAX + 2];
        stpete_option_get_info(i, &in);
        if (in.category != STPETE_OPTION_PLAY && strcmp(in.name, "players") != 0 &&
            cli_option_json(&cfg->opts, &in, value, sizeof value) == 0)
            printf(",\"%s\":%s", in.name, value);
    }
    printf(",\"seconds\":%g,\"time\":\"process CPU time\",\"warm_up\":%s,\"results\":[", cfg->seconds,
           cfg->warm_up ? "true" : "false");
    for (int i = 0; i < n; i++) {
        const result *r = &rs[i];
        printf("%s{\"players\":%d,\"games\":%ld,\"actions\":%ld,\"games_seconds\":%.6f,"
               "\"games_wall_seconds\":%.6f,\"games_per_second\":%.1f,"
               "\"actions_per_game\":%.2f,\"ns_per_action_in_games\":%.2f,\"digest\":\"%016" PRIx64 "\","
               "\"applied_actions_per_second\":%.1f,\"ns_per_apply\":%.2f,\"ns_per_legal_listing\":%.2f,"
               "\"ns_per_listing_and_pick\":%.2f,\"ns_per_listing_at_game_positions\":%.2f,"
               "\"pick\":\"%s\",\"games_per_second_play\":%.1f,\"ns_per_action_in_games_play\":%.2f,"
               "\"games_per_second_mask_pick\":%.1f,\"ns_per_action_in_games_mask_pick\":%.2f,"
               "\"games_per_second_listing_pick\":%.1f,\"ns_per_action_in_games_listing_pick\":%.2f,"
               "\"ns_per_mask_pick\":%.2f,"
               "\"ns_per_clone\":%.2f,\"ns_per_copy\":%.2f,\"bytes_per_state\":%zu,"
               "\"heap_allocations_per_game\":%.3f,\"json_bytes_per_state\":%.1f,\"ns_per_json_serialize\":%.1f,"
               "\"ns_per_json_parse\":%.1f,\"ns_per_jansson_dump\":%.1f,\"ns_per_jansson_load\":%.1f,\"ismcts_iterations_per_second\":%.1f,"
               "\"ismcts_ms_per_decision\":%.3f,\"ismcts_allocations_per_decision\":%.2f,\"bot\":\"%s\","
               "\"ns_per_observation_tensor\":%.2f,\"ns_per_information_state_key\":%.2f,"
               "\"ns_per_undo_and_apply\":%.2f,\"explicit_chance_games\":%ld,"
               "\"explicit_chance_games_per_second\":%.1f,\"explicit_chance_actions_per_game\":%.2f}",
               i ? "," : "", r->players, r->games, r->moves, r->games_seconds, r->games_wall_seconds,
               per_second(r->games, r->games_seconds),
               r->games ? (double)r->moves / (double)r->games : 0, ns_per(r->games_seconds, r->moves), r->digest,
               per_second(r->replay_actions, r->replay_seconds), ns_per(r->replay_seconds, r->replay_actions),
               ns_per(r->listing_seconds, r->listings), ns_per(r->pick_seconds, r->picks), listing_in_game_ns(r),
               pick_way_names[r->way_first], games_rate(r, WAY_PLAY), action_ns(r, WAY_PLAY),
               games_rate(r, WAY_MASK), action_ns(r, WAY_MASK), games_rate(r, WAY_LISTING),
               action_ns(r, WAY_LISTING), ns_per(r->mask_pick_seconds, r->mask_picks),
               ns_per(r->clone_seconds, r->clones),
               ns_per(r->copy_seconds, r->copies), r->state_bytes, r->allocs_per_game, r->json_bytes,
               ns_per(r->serialize_seconds, r->serialized), ns_per(r->parse_seconds, r->parsed),
               ns_per(r->jansson_dump_seconds, r->jansson_dumped), ns_per(r->jansson_load_seconds, r->jansson_loaded),
               per_second((long)r->ismcts_iterations, r->ismcts_seconds),
               r->ismcts_decisions ? 1e3 * r->ismcts_seconds / (double)r->ismcts_decisions : 0, r->ismcts_allocs,
               r->bot_spec, ns_per(r->tensor_seconds, r->tensors), ns_per(r->key_seconds, r->keys),
               ns_per(r->undo_seconds, r->undos), r->chance_games, per_second(r->chance_games, r->chance_seconds),
               r->chance_games ? (double)r->chance_moves / (double)r->chance_games : 0);
    }
    printf("]}\n");
}
