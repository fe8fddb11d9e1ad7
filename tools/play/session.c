/* stpete-play: the session: the game, its bots, its log (from the library's events), saving and loading. */

#define _DEFAULT_SOURCE /* pselect, ioctl's TIOCGWINSZ, sigaction, strcasecmp */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <stpete/stpete.h>

#include <stpete/bots.h>

#include "cli.h"
#include "play.h"

/* ---- the session ------------------------------------------------------------------------------------------ */

int log_append(session *s, const char *line)
{
    if (s->log_n == s->log_cap) {
        size_t cap = s->log_cap ? 2 * s->log_cap : 256;
        char **l = realloc(s->log, cap * sizeof *l);
        if (!l)
            return -1;
        s->log = l;
        s->log_cap = cap;
    }
    char *copy = strdup(line);
    if (!copy)
        return -1;
    s->log[s->log_n++] = copy;
    return 0;
}

void log_clear(session *s)
{
    for (size_t i = 0; i < s->log_n; i++)
        free(s->log[i]);
    s->log_n = s->log_mark = 0;
    s->dealing = 0;
}

/* "seat 1" for others, "seat 0 (you)" for the person. */
const char *seat_label(const session *s, int seat, char *buf, size_t size)
{
    snprintf(buf, size, seat == s->seat ? "seat %d (you)" : "seat %d", seat);
    return buf;
}

/* The event callback: one log line per event, in the library's words (stpete_event_to_string()). The deals of
 * one step are gathered on one line; a displacement is already part of its buy or play line. Another seat's
 * rubles are left out unless they are public (§9): the line is then made without the state. */
void session_on_event(const stpete_state *st, const stpete_event *ev, void *user)
{
    session *s = user;
    char line[STPETE_EVENT_STRING_MAX + 64];
    if (ev->kind == STPETE_EVENT_DISPLACE)
        return;
    if (ev->kind == STPETE_EVENT_DEAL) {
        const char *name = screen_card_name(s->game, ev->card);
        if (s->dealing && s->log_n > 0) {
            char *prev = s->log[s->log_n - 1];
            size_t n = strlen(prev) + strlen(name) + 3;
            char *grown = realloc(prev, n);
            if (grown) {
                strcat(grown, ", ");
                strcat(grown, name);
                s->log[s->log_n - 1] = grown;
            }
            return;
        }
        snprintf(line, sizeof line, "dealt from the %s stack to the upper row: %s", stpete_stack_name(ev->stack),
                 name);
        s->dealing = log_append(s, line) == 0;
        return;
    }
    s->dealing = 0;
    int visible = 1; /* the seat's rubles, if this person sees them (§9: the library's answer) */
    if (ev->seat >= 0 && stpete_state_rubles_visible(st, s->seat, ev->seat, &visible) != STPETE_OK)
        visible = 0;
    int secret = !visible && ev->kind != STPETE_EVENT_FINAL_SCORING;
    if (stpete_event_to_string(ev, secret ? NULL : st, line, sizeof line) != STPETE_OK)
        snprintf(line, sizeof line, "(event %s)", stpete_event_kind_name(ev->kind));
    log_append(s, line); /* the game-over line names the winners itself */
}

/* Create the opponents of the seats other than the person's, and the hint bot. */
int make_bots(session *s, const stpete_game *game, stpete_bot **bots, char names[][STPETE_BOT_SPEC_MAX],
              stpete_bot **hint, char *msg, size_t size)
{
    const char *list = s->cfg.bots ? s->cfg.bots : "greedy";
    char specs[STPETE_MAX_PLAYERS][STPETE_BOT_SPEC_MAX];
    int n = 0;
    for (const char *p = list; n < STPETE_MAX_PLAYERS;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof specs[0]) {
            snprintf(msg, size, "--bots takes a comma-separated list of bots (%s), not '%s'", BOT_KINDS, list);
            return -1;
        }
        memcpy(specs[n], p, len);
        specs[n++][len] = '\0';
        p += len;
        if (!*p)
            break;
        p++;
    }
    int players = stpete_game_num_players(game);
    int k = 0;
    for (int seat = 0; seat < players; seat++) {
        if (seat == s->seat)
            continue;
        const char *spec = specs[k++ % n];
        stpete_error why = STPETE_ERROR_INIT;
        if (stpete_bot_new(game, spec, &bots[seat], &why) != STPETE_OK) {
            snprintf(msg, size, "--bots: %s", why.message[0] ? why.message : "cannot create the bot");
            return -1;
        }
        stpete_bot_set_seed(bots[seat], s->seed * 4 + (uint64_t)seat);
        snprintf(names[seat], sizeof names[seat], "%s", spec);
    }
    stpete_error why = STPETE_ERROR_INIT;
    if (stpete_bot_new(game, "greedy", hint, &why) != STPETE_OK) {
        snprintf(msg, size, "cannot create the hint bot: %s", why.message);
        return -1;
    }
    return 0;
}

void free_bots(stpete_bot **bots, stpete_bot *hint)
{
    for (int seat = 0; seat < STPETE_MAX_PLAYERS; seat++) {
        stpete_bot_free(bots[seat]);
        bots[seat] = NULL;
    }
    stpete_bot_free(hint);
}

/* ---- saving and loading ----------------------------------------------------------------------------------- */

int mkdir_parents(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return 0;
}

/* Write the state as JSON (stpete_state_to_json()) to path, through a temporary file renamed over it, so that a
 * failure leaves an older save intact. Returns 0, or -1 with why. */
int save_state(const stpete_state *st, const char *path, char *why, size_t size)
{
    size_t len = 0;
    int rc = stpete_state_to_json(st, NULL, 0, &len);
    char *json = rc == STPETE_E_BUFFER_TOO_SMALL ? malloc(len + 2) : NULL;
    if (!json || stpete_state_to_json(st, json, len + 1, &len) != STPETE_OK) {
        free(json);
        snprintf(why, size, "cannot serialize the game: %s", stpete_strerror(rc == STPETE_OK ? STPETE_E_OUT_OF_MEMORY : rc));
        return -1;
    }
    json[len++] = '\n';
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(json, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    free(json);
    if (!ok || rename(tmp, path) != 0) {
        snprintf(why, size, "cannot write %s: %s", path, strerror(errno));
        if (f)
            remove(tmp);
        return -1;
    }
    return 0;
}

/* Read a saved game: its game (stpete_game_from_json()) and state (stpete_state_from_json()). */
int load_state(const char *path, stpete_game **game, stpete_state **st, char *why, size_t size)
{
    *game = NULL;
    *st = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, size, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = STPETE_JSON_STATE_MAX + 1, len = 0;
    char *text = malloc(cap);
    if (text)
        len = fread(text, 1, cap, f);
    int read_error = ferror(f);
    fclose(f);
    if (!text || read_error) {
        free(text);
        snprintf(why, size, "cannot read %s", path);
        return -1;
    }
    stpete_error err = STPETE_ERROR_INIT;
    int rc = stpete_game_from_json(text, len, NULL, game, &err);
    if (rc == STPETE_OK)
        rc = stpete_state_from_json(*game, text, len, st, &err);
    free(text);
    if (rc != STPETE_OK) {
        stpete_game_free(*game);
        *game = NULL;
        if (err.line > 0)
            snprintf(why, size, "%s is not a saved game: %s (%s, line %d, column %d)", path, err.message,
                     stpete_strerror(rc), err.line, err.column);
        else
            snprintf(why, size, "%s is not a saved game: %s (%s)", path, err.message[0] ? err.message : "", stpete_strerror(rc));
        return -1;
    }
    return 0;
}

void autosave_path(session *s)
{
    const char *state_home = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    if (s->cfg.autosave)
        snprintf(s->autosave, sizeof s->autosave, "%s", s->cfg.autosave);
    else if (state_home && state_home[0] == '/')
        snprintf(s->autosave, sizeof s->autosave, "%s/stpete/autosave.json", state_home);
    else if (home && home[0])
        snprintf(s->autosave, sizeof s->autosave, "%s/.local/state/stpete/autosave.json", home);
    else
        snprintf(s->autosave, sizeof s->autosave, "stpete-autosave.json");
}

/* How to go on with a saved game. */
void say_resume(session *s, const char *path)
{
    say(s, "Continue it with: " PROGRAM " --load '%s' --seat %d%s%s", path, s->seat, s->cfg.bots ? " --bots " : "",
        s->cfg.bots ? s->cfg.bots : "");
}

/* Save a game in progress on the way out (quit, end of input, a signal): the autosave file, else the current
 * directory, else the JSON on standard error. */
void save_on_exit(session *s, const char *reason)
{
    if (stpete_state_is_terminal_or(s->st, 1)) {
        say(s, "%s: the game is over, nothing to save.", reason);
        return;
    }
    char why[5000] = "";
    const char *path = s->autosave;
    if (mkdir_parents(path) != 0)
        snprintf(why, sizeof why, "cannot create the directory of %s: %s", path, strerror(errno));
    if (why[0] || save_state(s->st, path, why, sizeof why) != 0) {
        path = "stpete-autosave.json";
        char why2[512];
        if (save_state(s->st, path, why2, sizeof why2) != 0) {
            say(s, "%s: %s; %s. The game follows as JSON on standard error: save it to a file and load it with "
                   "--load.", reason, why, why2);
            size_t len = 0;
            stpete_state_to_json(s->st, NULL, 0, &len);
            char *json = malloc(len + 1);
            if (json && stpete_state_to_json(s->st, json, len + 1, &len) == STPETE_OK)
                fprintf(stderr, "%s\n", json);
            free(json);
            return;
        }
    }
    say(s, "%s: the game is saved to %s.", reason, path);
    say_resume(s, path);
}

/* ---- the game --------------------------------------------------------------------------------------------- */

/* The rule options of the command line (§3, §9, §11, §12), the seed left at 0: what start_game() plays and what
 * main() has the library check first (stpete_options_check()). */
void play_options(const play_config *cfg, stpete_options *opts)
{
    *opts = cfg->game.opts;
    opts->seed = 0;
}

int start_game(session *s, char *why, size_t size)
{
    if (s->cfg.load) {
        if (load_state(s->cfg.load, &s->game, &s->st, why, size) != 0)
            return -1;
        s->loaded = 1;
        s->players = stpete_game_num_players(s->game);
        if (s->seat >= s->players) {
            snprintf(why, size, "%s is a %d-player game: --seat must be 0..%d", s->cfg.load, s->players,
                     s->players - 1);
            return -1;
        }
        stpete_game_get_options(s->game, &s->cfg.game.opts); /* the loaded game's options (what the screen shows) */
        stpete_state_set_event_callback(s->st, session_on_event, s);
        char line[4200];
        snprintf(line, sizeof line, "loaded %s: round %d, %s phase", s->cfg.load, stpete_state_round(s->st),
                 stpete_phase_name(stpete_state_phase(s->st)));
        log_append(s, line);
    } else {
        stpete_options opts;
        play_options(&s->cfg, &opts);
        opts.seed = s->seed;
        stpete_error err = STPETE_ERROR_INIT; /* the library's check of the options (§3, §11, §12.0) */
        int rc = stpete_game_new(&opts, &s->game, &err);
        if (rc == STPETE_OK) /* the callback is set before the deal: the log starts with the setup (§3) */
            rc = stpete_state_new_with_callback(s->game, session_on_event, s, &s->st, &err);
        if (rc != STPETE_OK) {
            snprintf(why, size, "cannot start a game: %s", err.message[0] ? err.message : stpete_strerror(rc));
            return -1;
        }
        s->players = s->cfg.game.opts.players;
    }
    return make_bots(s, s->game, s->bots, s->bot_names, &s->hint_bot, why, size);
}
