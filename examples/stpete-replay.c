/* stpete-replay: print the readable log of a recorded game.
 *
 *   stpete-replay FILE      (FILE = a replay record, e.g. from stpete-selfplay --record; "-" = standard input)
 *
 * The record (doc/format.md) holds the options, the seed and every action; stpete_replay_from_json() verifies
 * each action and the recorded result, then the game is replayed with the same event log as stpete-selfplay.
 * Exit status: 0 on success, 1 if the record is rejected (the reason is printed), 2 for a replay_usage error. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stpete/stpete.h>

#include "cli.h"
#include "gamelog.h"

/* Read a whole file (or stdin for "-") into a malloc'd buffer. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *bigger = realloc(buf, cap *= 2);
        if (!bigger)
            free(buf);
        buf = bigger;
    }
    if (ferror(f)) {
        free(buf);
        buf = NULL;
    }
    if (f != stdin)
        fclose(f);
    *len = n;
    return buf;
}

static int reject(const char *path, int rc, const stpete_error *err)
{
    fprintf(stderr, "stpete-replay: %s: %s", path, stpete_strerror(rc));
    if (err->line > 0)
        fprintf(stderr, " at line %d, column %d", err->line, err->column);
    fprintf(stderr, ": %s\n", err->message);
    return 1;
}

static void replay_usage(FILE *out)
{
    fprintf(out,
            "Usage: stpete-replay FILE\n"
            "Verify a replay record of Saint Petersburg (JSON, e.g. from stpete-selfplay\n"
            "--record; - reads standard input) and print the game's readable log: every\n"
            "action is checked against the rules and the recorded result against the one\n"
            "reached. The game's options are the record's.\n"
            "\n"
            "Options:\n"
            "  -h, --help  show this help and exit\n"
            "  --version   show the version and exit\n"
            "\n"
            "Exit status: 0 on success, 1 if the record is rejected (the reason is printed),\n"
            "2 for a usage error.\n"
            "\n"
            "Example:\n"
            "  stpete-selfplay --players 2 --seed 7 --record game.json >/dev/null\n"
            "  stpete-replay game.json\n");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "stpete-replay: %s (see stpete-replay --help)\n",
                argc < 2 ? "give the record FILE" : "one record FILE only");
        return CLI_USAGE_ERROR;
    }
    int common = cli_common("stpete-replay", argv[1], replay_usage);
    if (common != CLI_NOT_COMMON)
        return common;
    if (argv[1][0] == '-' && argv[1][1])
        return cli_unknown("stpete-replay", argv[1]);
    const char *path = argv[1];
    size_t len = 0;
    char *text = read_all(path, &len);
    if (!text) {
        fprintf(stderr, "stpete-replay: cannot read %s\n", path);
        return 1;
    }
    stpete_error err = STPETE_ERROR_INIT;
    stpete_game *game = NULL;
    size_t n = 0;
    int *actions = NULL;
    int rc = stpete_replay_from_json(text, len, NULL, &game, NULL, 0, &n, &err); /* learn the length */
    if (rc == STPETE_E_BUFFER_TOO_SMALL) {
        actions = malloc((n ? n : 1) * sizeof *actions);
        rc = actions ? stpete_replay_from_json(text, len, NULL, &game, actions, n, &n, &err) : STPETE_E_OUT_OF_MEMORY;
    }
    free(text);
    if (rc != STPETE_OK) {
        free(actions);
        return reject(path, rc, &err);
    }
    stpete_options opts;
    stpete_options_init(&opts);
    stpete_game_get_options(game, &opts);
    stpete_state *st = NULL;
    rc = stpete_state_new(game, &st, NULL);
    if (rc == STPETE_OK) {
        printf("replay of %s: Saint Petersburg (%s), %d players, seed %" PRIu64 ", %zu actions\n", path,
               gamelog_edition(&opts), opts.players, opts.seed, n);
        gamelog lg = { stdout, 0 };
        /* The initial deal happened in stpete_state_new(); reset to the same seed to log it. */
        stpete_state_set_event_callback(st, gamelog_event, &lg);
        rc = stpete_state_reset(st, opts.seed);
        for (size_t i = 0; i < n && rc == STPETE_OK; i++)
            rc = stpete_state_apply(st, actions[i]);
        if (rc != STPETE_OK)
            fprintf(stderr, "stpete-replay: %s: %s\n", stpete_strerror(rc), stpete_state_last_error(st));
        else if (!stpete_state_is_terminal_or(st, 1))
            printf("\n(the record ends before the game is over)\n");
    }
    stpete_state_free(st);
    stpete_game_free(game);
    free(actions);
    return rc == STPETE_OK ? 0 : 1;
}
