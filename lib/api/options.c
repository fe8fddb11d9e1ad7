/* The table of options (issue 42): every member of stpete_options but the allocator, declared once, with its
 * type, default, range or words, title, description, rule (§ / R-id), the games it applies to and the first
 * version of the JSON format that holds it (OpenSpiel's parameter_specification, SQLite's pragma table). The checks
 * of a combination (stpete_options_check(), game.c), the JSON format (json/read.c, json/write.c), the public
 * description and the text setters read it; so do, through the public calls, the programs' command lines, the
 * bindings, the experiment runner, the arena and the server. Nothing else in the project spells an option's word
 * (tests/checks/check-option-words.py). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

/* ---- the words ---------------------------------------------------------------------------------------- */

static const char *const bool_words[2] = { "false", "true" };
static const char *const pub_cap_words[2] = { "per-pub", "per-player" };       /* enum stpete_pub_cap */
static const char *const tie_break_words[2] = { "rubles-mod-10", "rubles-total" }; /* enum stpete_tie_break */
static const char *const tie_break_former[2] = { "mod10", "total" };            /* the words of 0.x */
static const char *const chance_mode_words[2] = { "sampled", "explicit" };     /* enum stpete_chance_mode */

static const char *const players_labels[4] = { "2", "3", "4", "5 (the New Society)" };
static const char *const pub_cap_labels[2] = { "5 VP per Pub", "5 VP per player" };
static const char *const tie_break_labels[2] = { "rubles after tens", "total rubles" };
static const char *const chance_mode_labels[2] = { "drawn by the library", "chance nodes" };
static const char *const edition_labels[2] = { "first (2004)", "second (2014)" };

/* ---- the rules of a combination that belong to one option ------------------------------------------------ */

/* 2-4 players; 5 with the New Society only (§3, §12.0, R17). The reason names the option that allows 5. */
static int players_check(const stpete_options *o, char *why, size_t size)
{
    if (o->players >= STPETE_MIN_PLAYERS && o->players <= (o->new_society == 1 ? 5 : 4))
        return STPETE_OK;
    if (o->players == 5)
        return stpete_error_why(why, size, STPETE_E_INVALID_ARGUMENT,
                               "players must be 2, 3 or 4, not 5: 5 players need the New Society (new_society, "
                               "§12.0, R17)");
    return stpete_error_why(why, size, STPETE_E_INVALID_ARGUMENT, "players must be 2, 3 or 4%s, not %d (%s)",
                           o->new_society == 1 ? " (or 5 with the New Society)" : "", o->players,
                           o->new_society == 1 ? "§3, §12.0" : "§3");
}

/* All random, or every seat holding 1 or 2 markers (§3.3, R15; one each and the gold disc with 5, §12.3, R18).
 * A number that is no seat of any game is refused first, with a reason that holds whatever the players (the one
 * Option.parse() gives, and stpete_options_value() writes no such number). */
static int start_markers_check(const stpete_options *o, char *why, size_t size)
{
    int unset = 0;
    for (int k = 0; k < STPETE_NUM_PHASES; k++) {
        if (o->start_markers[k] < -1 || o->start_markers[k] >= STPETE_MAX_PLAYERS)
            return stpete_error_why(why, size, STPETE_E_INVALID_ARGUMENT,
                                   "the %s phase's start-player marker must be held by a seat, not %d: no game "
                                   "has it (seats 0 to %d, or -1 for all four dealt at random; §3.3)",
                                   stpete_phase_words[k], o->start_markers[k], STPETE_MAX_PLAYERS - 1);
        unset += o->start_markers[k] == -1;
    }
    if (unset == STPETE_NUM_PHASES)
        return STPETE_OK;
    if (unset != 0)
        return stpete_error_why(why, size, STPETE_E_INVALID_ARGUMENT,
                               "start_markers must be all -1 (dealt at random) or all seats, not a mix (§3.3)");
    return stpete_validate_markers(o->start_markers, o->players, why, size);
}

/* ---- the table ---------------------------------------------------------------------------------------------- */

#define MEMBER(m) offsetof(stpete_options, m), sizeof(((stpete_options *)0)->m)
#define INFO(...) { sizeof(stpete_option_info), __VA_ARGS__ }

/* In the order of the JSON format's "options" object (doc/format.md), which is also the order of the checks and
 * of every listing; format versions never decrease along it (the JSON reader takes the first n keys of a version).
 * A new option is a new row here, a member of stpete_options, and its rule in the engine. */
const stpete_option_def stpete_options_table[] = {
    { INFO("players", "Players", "the number of players: 2, 3 or 4; 5 with the New Society", "§3, §12.0, R17",
           STPETE_OPTION_INT, STPETE_OPTION_RULES, STPETE_GAMES_ALL, STPETE_MIN_PLAYERS, STPETE_MAX_PLAYERS, 4, "4",
           0, NULL, players_labels),
      MEMBER(players), 1, NULL, players_check, NULL },
    { INFO("seed", "Seed", "the seed of the game's random numbers: the same options and seed deal the same game",
           "§3.1", STPETE_OPTION_SEED, STPETE_OPTION_PLAY, STPETE_GAMES_ALL, 0, 0, 0, "0", 0, NULL, NULL),
      MEMBER(seed), 1, NULL, NULL, NULL },
    { INFO("pub_cap", "Pub cap", "Pub purchases: up to 5 VP per Pub owned, or per player however many Pubs",
           "§7.2, R10", STPETE_OPTION_ENUM, STPETE_OPTION_RULES, STPETE_GAMES_ALL, 0, 1, STPETE_PUB_CAP_PER_PUB,
           "per-pub", 2, pub_cap_words, pub_cap_labels),
      MEMBER(pub_cap), 1, NULL, NULL, NULL },
    { INFO("tie_break", "Tie-break", "a tie on VP goes to the most rubles left after converting tens, or in total",
           "§8, R14", STPETE_OPTION_ENUM, STPETE_OPTION_RULES, STPETE_GAMES_ALL, 0, 1,
           STPETE_TIE_BREAK_RUBLES_MOD_10, "rubles-mod-10", 2, tie_break_words, tie_break_labels),
      MEMBER(tie_break), 1, tie_break_former, NULL, NULL },
    { INFO("start_markers", "Start-player markers",
           "the seat holding each phase's start-player marker (worker, building, aristocrat, trading), or random",
           "§3.3, §12.3, R15, R18", STPETE_OPTION_SEATS, STPETE_OPTION_RULES, STPETE_GAMES_ALL, -1,
           STPETE_MAX_PLAYERS - 1, -1, "random", 0, NULL, NULL),
      MEMBER(start_markers), 1, NULL, start_markers_check, NULL },
    { INFO("public_rubles", "Public rubles", "every seat sees everyone's rubles", "§9", STPETE_OPTION_BOOL,
           STPETE_OPTION_INFORMATION, STPETE_GAMES_ALL, 0, 1, 0, "false", 2, bool_words, NULL),
      MEMBER(public_rubles), 1, NULL, NULL, NULL },
    { INFO("public_hands", "Public hands", "every seat sees everyone's hand cards", "§9", STPETE_OPTION_BOOL,
           STPETE_OPTION_INFORMATION, STPETE_GAMES_ALL, 0, 1, 0, "false", 2, bool_words, NULL),
      MEMBER(public_hands), 1, NULL, NULL, NULL },
    { INFO("chance_mode", "Chance mode",
           "random events drawn by the library (sampled), or chance nodes the caller resolves (explicit)", "§3.1",
           STPETE_OPTION_ENUM, STPETE_OPTION_PLAY, STPETE_GAMES_ALL, 0, 1, STPETE_CHANCE_SAMPLED, "sampled", 2,
           chance_mode_words, chance_mode_labels),
      MEMBER(chance_mode), 2, NULL, NULL, NULL },
    { INFO("edition", "Edition",
           "1 = the first edition (2004); 2 = the second-edition preset (2014: four cards and names change)", "§11",
           STPETE_OPTION_INT, STPETE_OPTION_RULES, STPETE_GAMES_ALL, 1, 2, 1, "1", 0, NULL, edition_labels),
      MEMBER(edition), 2, NULL, NULL, NULL },
    { INFO("new_society", "New Society",
           "the New Society expansion of the first edition: 144 cards, 13 new card types, 2-5 players",
           "§12.0, R16, R17", STPETE_OPTION_BOOL, STPETE_OPTION_RULES,
           STPETE_GAMES_FIRST_EDITION | STPETE_GAMES_NEW_SOCIETY, 0, 1, 0, "false", 2, bool_words, NULL),
      MEMBER(new_society), 4, NULL, NULL,
      "the New Society is an expansion of the first edition: edition 2 with new_society is not a valid game (%s)" },
    { INFO("markers_one_seat", "Markers move one seat",
           "5 players: at a round's end the markers and the gold disc move one seat, not two", "§12.4.1, R19",
           STPETE_OPTION_BOOL, STPETE_OPTION_RULES, STPETE_GAMES_NEW_SOCIETY, 0, 1, 0, "false", 2, bool_words, NULL),
      MEMBER(markers_one_seat), 4, NULL, NULL, NULL },
    { INFO("used_prison_scores", "Used Prison scores", "a used Debtor's Prison still scores its VP that round",
           "§12.7.5, R22", STPETE_OPTION_BOOL, STPETE_OPTION_RULES, STPETE_GAMES_NEW_SOCIETY, 0, 1, 0, "false", 2,
           bool_words, NULL),
      MEMBER(used_prison_scores), 4, NULL, NULL, NULL },
    { INFO("textile_without_new_society", "Textile Factory without the New Society",
           "the Textile Factory does not count the New Society card (the 2014 print)", "§12.7.8, R29",
           STPETE_OPTION_BOOL, STPETE_OPTION_RULES, STPETE_GAMES_NEW_SOCIETY, 0, 1, 0, "false", 2, bool_words,
           NULL),
      MEMBER(textile_without_new_society), 4, NULL, NULL, NULL },
};

const int stpete_options_rows = (int)(sizeof stpete_options_table / sizeof *stpete_options_table);
_Static_assert(sizeof stpete_options_table / sizeof *stpete_options_table <= STPETE_OPTIONS_MAX, "STPETE_OPTIONS_MAX");

/* The released sizes of stpete_options: the two released layouts (the second with the New Society's four members)
 * and this library's. */
int stpete_options_size_ok(size_t size)
{
    return size == STPETE_OPTIONS_SIZE_1_0 || size == STPETE_OPTIONS_SIZE_1_1 || size == sizeof(stpete_options);
}

/* The defaults (§3, §3.1, §3.3, §7.2, §8, §9, §11, §12): the header's STPETE_OPTIONS_INIT, which every row's
 * default_value and default_text restate (tests/lib/api/option_table.c reads them back through
 * stpete_options_value()). */
#undef stpete_options_init /* the header's macro: here the function that programs built against 1.0 call */
STPETE_API void stpete_options_init(stpete_options *opts)
{
    stpete_options_init_size(opts, STPETE_OPTIONS_SIZE_1_0);
}

STPETE_API void stpete_options_init_size(stpete_options *opts, size_t capacity)
{
    if (!opts || !stpete_options_size_ok(capacity))
        return;
    /* Static: its padding bytes are zero (C11 6.7.9), so a caller may compare whole structs (an automatic
     * struct's padding is indeterminate and memcpy would hand it to the caller). */
    static const stpete_options defaults = STPETE_OPTIONS_INIT;
    stpete_options def;
    memcpy(&def, &defaults, sizeof def);
    def.struct_size = capacity;
    memcpy(opts, &def, capacity);
}

const stpete_option_def *stpete_options_find(const char *name)
{
    for (int i = 0; name && i < stpete_options_rows; i++)
        if (strcmp(stpete_options_table[i].info.name, name) == 0)
            return &stpete_options_table[i];
    return NULL;
}

int64_t stpete_options_int(const stpete_options *o, const stpete_option_def *d)
{
    int v;
    memcpy(&v, (const char *)o + d->offset, sizeof v);
    return v;
}

int stpete_options_games_of(const stpete_options *o)
{
    return o->edition == 2 ? STPETE_GAMES_SECOND_EDITION
           : o->new_society ? STPETE_GAMES_NEW_SOCIETY : STPETE_GAMES_FIRST_EDITION;
}

/* Whether an option's member holds its default. */
static int is_default(const stpete_options *o, const stpete_option_def *d)
{
    if (d->info.type == STPETE_OPTION_SEED)
        return o->seed == 0;
    if (d->info.type == STPETE_OPTION_SEATS)
        return o->start_markers[0] == -1 && o->start_markers[1] == -1 && o->start_markers[2] == -1 &&
               o->start_markers[3] == -1;
    return stpete_options_int(o, d) == d->info.default_value;
}

int stpete_options_format_version(const stpete_options *o)
{
    int v = o->new_society == 1 ? STPETE_FORMAT_VERSION_NEW_SOCIETY : STPETE_FORMAT_VERSION;
    for (int i = 0; i < stpete_options_rows; i++)
        if (stpete_options_table[i].format_version > v && !is_default(o, &stpete_options_table[i]))
            v = stpete_options_table[i].format_version;
    return v;
}

int stpete_options_newest_format(void)
{
    int v = STPETE_FORMAT_VERSION_NEW_SOCIETY;
    for (int i = 0; i < stpete_options_rows; i++)
        if (stpete_options_table[i].format_version > v)
            v = stpete_options_table[i].format_version;
    return v;
}

/* ---- the check of a combination ------------------------------------------------------------------------- */

/* "0 (per-pub) or 1 (per-player)", "1 (first (2004)) or 2 (second (2014))": the values an ENUM or INT member may
 * hold, with their words or labels. */
static void values_text(const stpete_option_def *d, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    if (!d->info.labels && d->info.type == STPETE_OPTION_INT && d->info.max - d->info.min > 4) {
        snprintf(out, size, "an integer from %" PRId64 " to %" PRId64, d->info.min, d->info.max);
        return;
    }
    for (int64_t v = d->info.min; v <= d->info.max && n < size; v++) {
        const char *sep = v == d->info.min ? "" : v == d->info.max ? " or " : ", ";
        const char *text = d->info.type == STPETE_OPTION_ENUM ? d->info.words[v]
                           : d->info.labels                   ? d->info.labels[v - d->info.min]
                                                              : NULL;
        int k = text ? snprintf(out + n, size - n, "%s%" PRId64 " (%s)", sep, v, text)
                     : snprintf(out + n, size - n, "%s%" PRId64, sep, v);
        n += k > 0 ? (size_t)k : 0;
    }
}

/* The games of a mask, as the reason of a refusal says them. */
static const char *games_text(int games)
{
    switch (games) {
    case STPETE_GAMES_NEW_SOCIETY: return "the New Society: set new_society";
    case STPETE_GAMES_FIRST_EDITION | STPETE_GAMES_NEW_SOCIETY: return "the first edition: set edition to 1";
    case STPETE_GAMES_SECOND_EDITION: return "the second edition: set edition to 2";
    case STPETE_GAMES_FIRST_EDITION: return "the first edition's base game";
    default: return "the first and second editions' base games";
    }
}

/* One option of a combination: its value in range, its own rule, and set only in the games it applies to. */
static int check_one(const stpete_options *o, const stpete_option_def *d, char *why, size_t size)
{
    const stpete_option_info *in = &d->info;
    if (d->check)
        return d->check(o, why, size);
    if (in->type == STPETE_OPTION_BOOL || in->type == STPETE_OPTION_ENUM || in->type == STPETE_OPTION_INT) {
        int64_t v = stpete_options_int(o, d);
        if (v < in->min || v > in->max) {
            char values[160];
            values_text(d, values, sizeof values);
            return stpete_error_why(why, size, STPETE_E_INVALID_ARGUMENT, "%s must be %s, not %" PRId64 " (%s)",
                                   in->name, values, v, in->rule);
        }
    }
    if (!(in->games & stpete_options_games_of(o)) && !is_default(o, d)) {
        if (d->refusal) {
            char text[200];
            snprintf(text, sizeof text, d->refusal, in->rule);
            return stpete_error_why(why, size, STPETE_E_INVALID_ARGUMENT, "%s", text);
        }
        return stpete_error_why(why, size, STPETE_E_INVALID_ARGUMENT, "%s is an option of %s (%s)", in->name,
                               games_text(in->games), in->rule);
    }
    return STPETE_OK;
}

int stpete_options_check_table(const stpete_options *o, char *why, size_t size)
{
    for (int i = 0; i < stpete_options_rows; i++) {
        int rc = check_one(o, &stpete_options_table[i], why, size);
        if (rc)
            return rc;
    }
    return STPETE_OK;
}

/* ---- the public calls ------------------------------------------------------------------------------------- */

STPETE_API int stpete_option_count(void)
{
    return stpete_options_rows;
}

STPETE_API int stpete_option_get_info(int option, stpete_option_info *out)
{
    if (!out || option < 0 || option >= stpete_options_rows)
        return STPETE_E_INVALID_ARGUMENT;
    return stpete_struct_out(out, &stpete_options_table[option].info, STPETE_OPTION_INFO_SIZE_1_2,
                             sizeof(stpete_option_info));
}

STPETE_API int stpete_option_from_name(const char *name, int *option)
{
    if (!name || !option)
        return STPETE_E_INVALID_ARGUMENT;
    const stpete_option_def *d = stpete_options_find(name);
    if (!d)
        return STPETE_E_PARSE;
    *option = (int)(d - stpete_options_table);
    return STPETE_OK;
}

STPETE_API int stpete_options_new(stpete_options **out, stpete_error *err)
{
    if (out)
        *out = NULL;
    int rc = stpete_error_begin(err, out != NULL);
    if (rc)
        return rc;
    stpete_options *o = malloc(sizeof *o);
    if (!o)
        return stpete_error_caller_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory");
    stpete_options_init_size(o, sizeof *o);
    *out = o;
    return stpete_error_caller_fail(err, STPETE_OK, "");
}

STPETE_API void stpete_options_free(stpete_options *opts)
{
    free(opts);
}

/* A decimal int filling the whole text (an optional '-' first), into *out: 1, or 0 if it is none. */
static int options_parse_int(const char *text, int *out)
{
    char *end;
    if (!*text || (*text != '-' && (*text < '0' || *text > '9')))
        return 0;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (*end || errno || v < INT32_MIN || v > INT32_MAX)
        return 0;
    *out = (int)v;
    return 1;
}

/* The SEATS text "random" or four comma-separated ints (whether they are seats of the game is
 * stpete_options_check()'s) into seats: 1, or 0. */
static int parse_seats(const char *text, int seats[STPETE_NUM_PHASES])
{
    if (strcmp(text, "random") == 0) {
        for (int k = 0; k < STPETE_NUM_PHASES; k++)
            seats[k] = -1;
        return 1;
    }
    char part[16];
    for (int k = 0; k < STPETE_NUM_PHASES; k++) {
        size_t n = strcspn(text, ",");
        if (n >= sizeof part || (text[n] == ',') != (k < STPETE_NUM_PHASES - 1))
            return 0;
        memcpy(part, text, n);
        part[n] = '\0';
        if (!options_parse_int(part, &seats[k]))
            return 0;
        text += n + (text[n] == ',');
    }
    return 1;
}

/* The words a BOOL or ENUM option reads, for a reason: "\"per-pub\" or \"per-player\"". */
static void words_text(const stpete_option_info *in, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int w = 0; w < in->num_words && n < size; w++) {
        int k = snprintf(out + n, size - n, "%s\"%s\"", w == 0 ? "" : w == in->num_words - 1 ? " or " : ", ",
                         in->words[w]);
        n += k > 0 ? (size_t)k : 0;
    }
}

/* A value's text into the member of d: STPETE_OK, or STPETE_E_INVALID_ARGUMENT with the reason (o unchanged). The
 * text's type only: the range and the combination are stpete_options_check()'s (one reason for each). */
static int set_text(stpete_options *o, const stpete_option_def *d, const char *text, char *why, size_t size)
{
    const stpete_option_info *in = &d->info;
    char *member = (char *)o + d->offset;
    if (in->type == STPETE_OPTION_SEED) {
        char *end;
        errno = 0;
        unsigned long long v = text[0] >= '0' && text[0] <= '9' ? strtoull(text, &end, 10) : 0;
        if (text[0] < '0' || text[0] > '9' || *end || errno)
            return stpete_error_why(why, size, STPETE_E_INVALID_ARGUMENT,
                                   "%s must be a decimal number in [0, 2^64), not '%s' (%s)", in->name, text, in->rule);
        uint64_t seed = v;
        memcpy(member, &seed, sizeof seed);
        return STPETE_OK;
    }
    if (in->type == STPETE_OPTION_SEATS) {
        int seats[STPETE_NUM_PHASES];
        if (!parse_seats(text, seats))
            return stpete_error_why(why, size, STPETE_E_INVALID_ARGUMENT,
                                   "%s must be \"random\" or four seats such as \"0,1,2,3\", not '%s' (%s)", in->name,
                                   text, in->rule);
        memcpy(member, seats, sizeof seats);
        return STPETE_OK;
    }
    int v = 0, found = options_parse_int(text, &v);
    for (int i = 0; i < in->num_words && !found; i++)
        if (strcmp(text, in->words[i]) == 0 || (d->former_words && strcmp(text, d->former_words[i]) == 0)) {
            v = i;
            found = 1;
        }
    if (!found) {
        char words[200];
        words_text(in, words, sizeof words);
        return stpete_error_why(why, size, STPETE_E_INVALID_ARGUMENT, "%s must be %s%s, not '%s' (%s)", in->name,
                               in->num_words ? words : "an integer", in->type == STPETE_OPTION_ENUM ? " (or its number)"
                               : "", text, in->rule);
    }
    memcpy(member, &v, sizeof v);
    return STPETE_OK;
}

STPETE_API int stpete_options_set(stpete_options *opts, const char *name, const char *value, stpete_error *err)
{
    int rc = stpete_error_check(err);
    if (rc)
        return rc;
    stpete_error e = STPETE_ERROR_INIT;
    const stpete_option_def *d = stpete_options_find(name);
    if (!opts || !name || !value)
        rc = stpete_error_fail(&e, STPETE_E_INVALID_ARGUMENT, "%s is NULL", !opts ? "opts" : !name ? "name" : "value");
    else if (!d)
        rc = stpete_error_fail(&e, STPETE_E_INVALID_ARGUMENT, "no option is called '%s' (stpete_option_get_info())",
                               name);
    else if (!stpete_options_size_ok(opts->struct_size) || d->offset + d->size > opts->struct_size)
        rc = stpete_error_fail(&e, STPETE_E_UNSUPPORTED_VERSION,
                               "struct_size %zu: not a released stpete_options layout, or one without %s",
                               opts->struct_size, name);
    else
        rc = set_text(opts, d, value, e.message, sizeof e.message);
    return stpete_error_finish(err, &e, rc);
}

/* The text of a member of d (the caller's struct holds it) into text[STPETE_OPTION_VALUE_MAX]: 0, or -1 for an
 * ENUM or BOOL value out of range, or a SEATS entry outside [min, max] (four such ints need more than the buffer:
 * their text would be cut). */
static int value_text(const stpete_options *o, const stpete_option_def *d, char *text)
{
    const char *member = (const char *)o + d->offset;
    if (d->info.type == STPETE_OPTION_SEED) {
        uint64_t seed;
        memcpy(&seed, member, sizeof seed);
        snprintf(text, STPETE_OPTION_VALUE_MAX, "%" PRIu64, seed);
        return 0;
    }
    if (d->info.type == STPETE_OPTION_SEATS) {
        int m[STPETE_NUM_PHASES];
        memcpy(m, member, sizeof m);
        for (int k = 0; k < STPETE_NUM_PHASES; k++)
            if (m[k] < d->info.min || m[k] > d->info.max)
                return -1;
        if (m[0] == -1 && m[1] == -1 && m[2] == -1 && m[3] == -1)
            snprintf(text, STPETE_OPTION_VALUE_MAX, "random");
        else
            snprintf(text, STPETE_OPTION_VALUE_MAX, "%d,%d,%d,%d", m[0], m[1], m[2], m[3]);
        return 0;
    }
    int64_t v = stpete_options_int(o, d);
    if (d->info.words) {
        if (v < 0 || v >= d->info.num_words)
            return -1;
        snprintf(text, STPETE_OPTION_VALUE_MAX, "%s", d->info.words[v]);
    } else
        snprintf(text, STPETE_OPTION_VALUE_MAX, "%" PRId64, v);
    return 0;
}

STPETE_API int stpete_options_value(const stpete_options *opts, const char *name, char *buf, size_t capacity,
                                    size_t *len)
{
    const stpete_option_def *d = stpete_options_find(name);
    if (!opts || !d || !len || (!buf && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    if (!stpete_options_size_ok(opts->struct_size))
        return STPETE_E_UNSUPPORTED_VERSION;
    char text[STPETE_OPTION_VALUE_MAX];
    if (d->offset + d->size > opts->struct_size) /* an older caller's struct: the option keeps its default */
        snprintf(text, sizeof text, "%s", d->info.default_text);
    else if (value_text(opts, d, text))
        return STPETE_E_INVALID_ARGUMENT;
    *len = strlen(text);
    if (*len >= capacity)
        return STPETE_E_BUFFER_TOO_SMALL;
    memcpy(buf, text, *len + 1);
    return STPETE_OK;
}

/* ---- the option values' names (1.1), from the table's words ------------------------------------------------- */

#define NAME_OF(table, i) ((i) >= 0 && (size_t)(i) < sizeof(table) / sizeof *(table) ? (table)[i] : NULL)

STPETE_API const char *stpete_options_pub_cap_name(int pub_cap)
{
    return NAME_OF(pub_cap_words, pub_cap);
}

STPETE_API const char *stpete_options_tie_break_name(int tie_break)
{
    return NAME_OF(tie_break_words, tie_break);
}

STPETE_API const char *stpete_options_chance_mode_name(int chance_mode)
{
    return NAME_OF(chance_mode_words, chance_mode);
}

/* The index of name among the two words into *out (exact, case-sensitive: the words of the formats). */
static int word_index(const char *const words[2], const char *name, int *out)
{
    if (!name || !out)
        return STPETE_E_INVALID_ARGUMENT;
    for (int i = 0; i < 2; i++)
        if (strcmp(words[i], name) == 0) {
            *out = i;
            return STPETE_OK;
        }
    return STPETE_E_PARSE;
}

STPETE_API int stpete_options_pub_cap_from_name(const char *name, int *pub_cap)
{
    return word_index(pub_cap_words, name, pub_cap);
}

STPETE_API int stpete_options_tie_break_from_name(const char *name, int *tie_break)
{
    return word_index(tie_break_words, name, tie_break);
}

STPETE_API int stpete_options_chance_mode_from_name(const char *name, int *chance_mode)
{
    return word_index(chance_mode_words, name, chance_mode);
}
