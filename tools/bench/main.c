/* stpete-bench: options, --help and main. */

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

static void bench_usage(FILE *out)
{
    fprintf(out,
            "Usage: stpete-bench [OPTION]...\n"
            "Measure the engine on one core: random full games per second, applied actions per second, ns per\n"
            "legal-action listing (on trained and on new positions), clone and copy, bytes per state, heap\n"
            "allocations per game, JSON serialize and parse throughput (and jansson's alone), observation\n"
            "tensor, information-state key and undo, explicit-chance games, and a bot's iterations per second.\n"
            "Rates are computed from the process's CPU time.\n"
            "Pin it to one core yourself: taskset -c 0 stpete-bench.\n"
            "\n"
            "Options:\n"
            "  --players N     measure one player count, 2, 3 or 4 (5 with --new-society;\n"
            "                  default: all of them)\n"
            "  --new-society   play the New Society expansion (rules, section 12), 2-5 players\n"
            "  --edition E     1 = the first edition (default), 2 = the second-edition\n"
            "                  preset (rules, section 11)\n"
            "  --seed S        seed of the first game; game g uses S + g, the games of\n"
            "                  stpete-selfplay --bots random with the same seed (default 1)\n"
            "  --games G       play exactly G games per player count instead of a time budget\n"
            "  --seconds T     time budget of each measurement, in seconds (default 1)\n"
            "  --iterations N  exactly N iterations of each micro-measurement instead of a time budget\n"
            "  --bot SPEC      the bot whose iterations per second are measured (default\n"
            "                  ismcts; a spec of stpete/bots.h)\n"
            "  --json          print one JSON object instead of text\n"
            "  --pick WAY      how the random games pick an action: play (default,\n"
            "                  stpete_state_apply_random, the playout step), mask\n"
            "                  (stpete_state_random_action, then stpete_state_apply) or listing\n"
            "                  (stpete_state_legal_actions and the listed id); the other ways are\n"
            "                  measured too, on the same games\n"
            "  --games-only    play the random games and print their digest, measure nothing\n"
            "                  else (a profiler then sees the games alone; with --json the\n"
            "                  other measures are 0)\n"
            "  --warm-up       play the random games once, untimed, before the timed run of\n"
            "                  the same games (for a just-in-time compiler: V8 running the\n"
            "                  wasm build)\n"
            "  -h, --help      show this help and exit\n"
            "  --version       show the version and exit\n");
}

/* An option's value into cfg: the end of what was read (the value's end when it is whole and in range), NULL for
 * a value out of range or unknown. */
static const char *bench_value_option(config *cfg, const char *arg, const char *val)
{
    char *end = NULL;
    if (!strcmp(arg, "--pick")) {
        cfg->way = -1;
        for (int w = 0; w < WAYS; w++)
            if (!strcmp(val, pick_way_names[w]))
                cfg->way = w;
        return cfg->way >= 0 ? val + strlen(val) : NULL;
    } else if (!strcmp(arg, "--bot")) {
        cfg->bot = val;
        return val + strlen(val);
    } else if (!strcmp(arg, "--players")) {
        cfg->players = (int)strtol(val, &end, 10);
        if (cfg->players < STPETE_MIN_PLAYERS || cfg->players > STPETE_MAX_PLAYERS) /* 5: checked below */
            end = NULL;
    } else if (!strcmp(arg, "--edition")) {
        cfg->edition = (int)strtol(val, &end, 10);
        if (cfg->edition != 1 && cfg->edition != 2)
            end = NULL;
    } else if (!strcmp(arg, "--seed")) {
        cfg->seed = strtoull(val, &end, 10);
    } else if (!strcmp(arg, "--games")) {
        cfg->games = strtol(val, &end, 10);
        if (cfg->games < 1)
            end = NULL;
    } else if (!strcmp(arg, "--seconds")) {
        cfg->seconds = strtod(val, &end);
        if (!(cfg->seconds > 0))
            end = NULL;
    } else if (!strcmp(arg, "--iterations")) {
        cfg->iterations = strtol(val, &end, 10);
        if (cfg->iterations < 1)
            end = NULL;
    }
    return end;
}

int main(int argc, char **argv)
{
    config cfg = { 0, 1, 1, 0, 1.0, 0, 0, "ismcts", 0, 0, 0, 0 };
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        int common = cli_common("stpete-bench", arg, bench_usage);
        if (common != CLI_NOT_COMMON)
            return common;
        if (!strcmp(arg, "--json")) {
            cfg.json = 1;
            continue;
        }
        if (!strcmp(arg, "--games-only") || !strcmp(arg, "--new-society") || !strcmp(arg, "--warm-up")) {
            *(arg[2] == 'g' ? &cfg.games_only : arg[2] == 'n' ? &cfg.new_society : &cfg.warm_up) = 1;
            continue;
        }
        if (cli_check_value("stpete-bench", arg, val,
                            "--pick --bot --players --edition --seed --games --seconds --iterations "))
            return CLI_USAGE_ERROR;
        const char *end = bench_value_option(&cfg, arg, val);
        if (!end || end == val || *end) {
            fprintf(stderr, "stpete-bench: bad value for %s: %s\n", arg, val);
            return 2;
        }
        i++;
    }
    if ((cfg.players == 5 && !cfg.new_society) || (cfg.new_society && cfg.edition != 1)) {
        fprintf(stderr, "stpete-bench: 5 players need --new-society, which is an expansion of the first edition\n");
        return 2;
    }
    result rs[4];
    int n = 0;
    for (int p = STPETE_MIN_PLAYERS; p <= (cfg.new_society ? 5 : 4); p++) {
        if (cfg.players && p != cfg.players)
            continue;
        if (run_players(&cfg, p, &rs[n]) != 0)
            return 1;
        if (!cfg.json && cfg.games_only)
            printf("%d players: %ld random games, %ld actions, digest %016" PRIx64 "\n", p, rs[n].games, rs[n].moves,
                   rs[n].digest);
        else if (!cfg.json)
            print_text(&rs[n]);
        n++;
    }
    if (cfg.json)
        print_json(rs, n, &cfg);
    return 0;
}
