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
    cli_options defaults;
    cli_options_init(&defaults);
    fprintf(out,
            "Usage: stpete-bench [OPTION]...\n"
            "Measure the engine on one core: random full games per second, applied actions\n"
            "per second, ns per legal-action listing (on trained and on new positions), clone\n"
            "and copy, bytes per state, heap allocations per game, JSON serialize and parse\n"
            "throughput (and jansson's alone), observation tensor, information-state key and\n"
            "undo, explicit-chance games, and a bot's iterations per second. Rates are\n"
            "computed from the process's CPU time. Pin it to one core yourself:\n"
            "taskset -c 0 stpete-bench.\n"
            "\n"
            "Options:\n"
            "  --seed S              seed of the first game; game g uses S + g, the games of\n"
            "                        stpete-selfplay --bots random with the same seed\n"
            "                        (default 1)\n"
            "  --games G             play exactly G games per player count instead of a time\n"
            "                        budget\n"
            "  --seconds T           time budget of each measurement, in seconds (default 1)\n"
            "  --iterations N        exactly N iterations of each micro-measurement instead\n"
            "                        of a time budget\n"
            "  --bot SPEC            the bot whose iterations per second are measured\n"
            "                        (default ismcts; a spec of stpete/bots.h)\n"
            "  --json                print one JSON object instead of text\n"
            "  --pick WAY            how the random games pick an action: play (default,\n"
            "                        stpete_state_apply_random, the playout step), mask\n"
            "                        (stpete_state_random_action, then stpete_state_apply) or\n"
            "                        listing (stpete_state_legal_actions and the listed id);\n"
            "                        the other ways are measured too, on the same games\n"
            "  --games-only          play the random games and print their digest, measure\n"
            "                        nothing else (a profiler then sees the games alone; with\n"
            "                        --json the other measures are 0)\n"
            "  --warm-up             play the random games once, untimed, before the timed\n"
            "                        run of the same games (for a just-in-time compiler: V8\n"
            "                        running the wasm build)\n"
            "  -h, --help            show this help and exit\n"
            "  --version             show the version and exit\n"
            "\n");
    cli_options_usage(out, &defaults, "players", "every count the other options allow");
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
    config cfg = { .seed = 1, .seconds = 1.0, .bot = "ismcts" };
    cli_options game;
    cli_options_init(&game);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = cli_common("stpete-bench", arg, bench_usage);
        if (rc != CLI_NOT_COMMON)
            return rc;
        rc = cli_option("stpete-bench", &game, argc, argv, &i); /* a game option (the library's table) */
        if (rc != CLI_NOT_COMMON) {
            if (rc != 0)
                return rc;
            continue;
        }
        if (!strcmp(arg, "--json")) {
            cfg.json = 1;
            continue;
        }
        if (!strcmp(arg, "--games-only") || !strcmp(arg, "--warm-up")) {
            *(arg[2] == 'g' ? &cfg.games_only : &cfg.warm_up) = 1;
            continue;
        }
        if (cli_check_value("stpete-bench", arg, val, "--pick --bot --seed --games --seconds --iterations "))
            return CLI_USAGE_ERROR;
        const char *end = bench_value_option(&cfg, arg, val);
        if (!end || end == val || *end) {
            fprintf(stderr, "stpete-bench: bad value for %s: %s\n", arg, val);
            return 2;
        }
        i++;
    }
    if (cli_options_check("stpete-bench", &game)) /* the library's setup rule, in these flags' words */
        return CLI_USAGE_ERROR;
    cfg.opts = game.opts;
    cfg.players = cli_option_given(&game, "players") ? game.opts.players : 0;
    result rs[STPETE_MAX_PLAYERS];
    int n = 0;
    for (int p = STPETE_MIN_PLAYERS; p <= STPETE_MAX_PLAYERS; p++) {
        stpete_options o = cfg.opts;
        o.players = p;
        if ((cfg.players && p != cfg.players) || stpete_options_check(&o, NULL) != STPETE_OK)
            continue; /* every count the options allow (the library's setup rule: 5 with the New Society) */
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
