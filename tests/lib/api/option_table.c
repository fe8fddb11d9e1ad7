/* The table of options (issue 42), through the public API only: it describes every option once (name = the JSON
 * key, type, default, range or words, rule, games); every option and value is set by name from text and read back;
 * bad text is refused with the option's reason and the struct unchanged; every combination of one option's value
 * with or without the New Society is accepted or refused by stpete_options_check() as §3, §11 and §12.0 say (the
 * setup rule), with stpete_game_new() agreeing; and every accepted one survives a JSON replay record. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "stpete/stpete.h"

/* ---- helpers ----------------------------------------------------------------------------------- */

static stpete_option_info table_info(int i)
{
    stpete_option_info in = STPETE_OPTION_INFO_INIT;
    assert_int_equal(stpete_option_get_info(i, &in), STPETE_OK);
    return in;
}

static int table_find(const char *name)
{
    int i = -1;
    assert_int_equal(stpete_option_from_name(name, &i), STPETE_OK);
    return i;
}

/* The text of an option's value. */
static const char *table_value(const stpete_options *o, const char *name)
{
    static _Thread_local char text[STPETE_OPTION_VALUE_MAX];
    size_t len = 0;
    assert_int_equal(stpete_options_value(o, name, text, sizeof text, &len), STPETE_OK);
    assert_int_equal(len, strlen(text));
    return text;
}

/* Every value an option takes, as text, and the values just outside its range, into values[] (at most 10); returns
 * the count. */
static int table_values(const stpete_option_info *in, char values[10][STPETE_OPTION_VALUE_MAX])
{
    int n = 0;
    switch (in->type) {
    case STPETE_OPTION_SEED:
        snprintf(values[n++], STPETE_OPTION_VALUE_MAX, "0");
        snprintf(values[n++], STPETE_OPTION_VALUE_MAX, "18446744073709551615");
        break;
    case STPETE_OPTION_SEATS:
        snprintf(values[n++], STPETE_OPTION_VALUE_MAX, "random");
        snprintf(values[n++], STPETE_OPTION_VALUE_MAX, "3,2,1,0");
        snprintf(values[n++], STPETE_OPTION_VALUE_MAX, "0,0,1,1"); /* refused with 4 players, R15 */
        snprintf(values[n++], STPETE_OPTION_VALUE_MAX, "0,1,2,7"); /* no seat 7 */
        snprintf(values[n++], STPETE_OPTION_VALUE_MAX, "-1,0,1,2"); /* a mix of random and seats */
        break;
    default:
        for (int64_t v = in->min - 1; v <= in->max + 1 && n < 10; v++) {
            if (in->words && v >= in->min && v <= in->max)
                snprintf(values[n++], STPETE_OPTION_VALUE_MAX, "%s", in->words[v]);
            else
                snprintf(values[n++], STPETE_OPTION_VALUE_MAX, "%lld", (long long)v);
        }
        break;
    }
    return n;
}

/* ---- the table ------------------------------------------------------------------------------------ */

/* Every option described once: a unique name found again by name, a title, a one-line description, a rule, a
 * type with its range or words, a category, the games it applies to, and a default that stpete_options_init()
 * writes. */
static void test_table_describes_every_option(void **unused)
{
    (void)unused;
    int n = stpete_option_count();
    /* the options of 1.1, first and in the JSON format's order; later ones are appended */
    const char *const first[] = { "players", "seed", "pub_cap", "tie_break", "start_markers", "public_rubles",
                                  "public_hands", "chance_mode", "edition", "new_society", "markers_one_seat",
                                  "used_prison_scores", "textile_without_new_society" };
    assert_true(n >= 13);
    for (int i = 0; i < 13; i++)
        assert_string_equal(table_info(i).name, first[i]);
    stpete_options def;
    stpete_options_init(&def);
    for (int i = 0; i < n; i++) {
        stpete_option_info in = table_info(i);
        assert_non_null(in.name);
        assert_int_equal(table_find(in.name), i);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(table_info(j).name, in.name);
        assert_true(in.title && *in.title && in.description && *in.description);
        assert_true(strlen(in.description) <= 110); /* one line */
        assert_non_null(strstr(in.rule, "§"));
        assert_in_range(in.type, STPETE_OPTION_BOOL, STPETE_OPTION_SEATS);
        assert_in_range(in.category, STPETE_OPTION_RULES, STPETE_OPTION_PLAY);
        assert_in_range(in.games, 1, STPETE_GAMES_ALL);
        assert_string_equal(table_value(&def, in.name), in.default_text);
        if (in.type == STPETE_OPTION_BOOL)
            assert_true(in.num_words == 2 && !strcmp(in.words[0], "false") && !strcmp(in.words[1], "true") &&
                        in.min == 0 && in.max == 1);
        if (in.type == STPETE_OPTION_ENUM) {
            assert_true(in.min == 0 && in.max == in.num_words - 1 && in.labels);
            assert_string_equal(in.words[in.default_value], in.default_text);
        }
        if (in.type == STPETE_OPTION_INT) {
            assert_true(in.min <= in.default_value && in.default_value <= in.max && !in.words);
            for (int64_t v = in.min; in.labels && v <= in.max; v++)
                assert_true(in.labels[v - in.min] && *in.labels[v - in.min]);
        }
    }
    assert_int_equal(stpete_option_get_info(n, &(stpete_option_info)STPETE_OPTION_INFO_INIT),
                     STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_option_get_info(-1, &(stpete_option_info)STPETE_OPTION_INFO_INIT),
                     STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_option_get_info(0, NULL), STPETE_E_INVALID_ARGUMENT);
    stpete_option_info bad = STPETE_OPTION_INFO_INIT;
    bad.struct_size = 3;
    assert_int_equal(stpete_option_get_info(0, &bad), STPETE_E_UNSUPPORTED_VERSION);
    int k = 99;
    assert_int_equal(stpete_option_from_name("no_such_option", &k), STPETE_E_PARSE);
    assert_int_equal(k, 99);
    assert_int_equal(stpete_option_from_name(NULL, &k), STPETE_E_INVALID_ARGUMENT);
}

/* The names are the JSON format's keys, in its order: a replay record's "options" (a base game's, version 3;
 * a New Society game's, version 4) holds exactly the table's names in the table's order. */
static void test_names_are_the_json_keys(void **unused)
{
    (void)unused;
    for (int ns = 0; ns <= 1; ns++) {
        stpete_options o;
        stpete_options_init(&o);
        o.new_society = ns;
        stpete_game *g = NULL;
        assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
        char buf[4096];
        size_t len;
        assert_int_equal(stpete_replay_to_json(g, 1, NULL, 0, buf, sizeof buf, &len), STPETE_OK);
        json_t *root = json_loads(buf, 0, NULL);
        json_t *opts = json_object_get(root, "options");
        assert_non_null(opts);
        const char *key;
        json_t *value;
        int i = 0;
        json_object_foreach(opts, key, value) {
            (void)value;
            assert_string_equal(key, table_info(i).name);
            i++;
        }
        assert_int_equal(i, ns ? 13 : 9); /* the New Society's four from version 4 on; a later option at its
                                             default is not written */
        json_decref(root);
        stpete_game_free(g);
    }
}

/* ---- set and read back -------------------------------------------------------------------------------- */

/* Every value of every option set from its text reads back as that text; an ENUM's index and 0.x word and a BOOL's
 * 0 and 1 are read too, and read back as the word. */
static void test_set_and_value_round_trip(void **unused)
{
    (void)unused;
    for (int i = 0; i < stpete_option_count(); i++) {
        stpete_option_info in = table_info(i);
        char values[10][STPETE_OPTION_VALUE_MAX];
        int n = table_values(&in, values);
        for (int v = 0; v < n; v++) {
            stpete_options o;
            stpete_options_init(&o);
            stpete_error e = STPETE_ERROR_INIT;
            assert_int_equal(stpete_options_set(&o, in.name, values[v], &e), STPETE_OK);
            assert_string_equal(e.message, "");
            char text[STPETE_OPTION_VALUE_MAX];
            size_t len;
            int rc = stpete_options_value(&o, in.name, text, sizeof text, &len);
            if (rc == STPETE_E_INVALID_ARGUMENT) /* a BOOL or ENUM number out of range has no word; seat 7 is none */
                assert_true(in.type == STPETE_OPTION_BOOL || in.type == STPETE_OPTION_ENUM ||
                            (in.type == STPETE_OPTION_SEATS && !strcmp(values[v], "0,1,2,7")));
            else
                assert_string_equal(text, values[v]);
        }
        if (in.type == STPETE_OPTION_ENUM || in.type == STPETE_OPTION_BOOL) {
            stpete_options o;
            stpete_options_init(&o);
            assert_int_equal(stpete_options_set(&o, in.name, "1", NULL), STPETE_OK);
            assert_string_equal(table_value(&o, in.name), in.words[1]);
        }
    }
    stpete_options o;
    stpete_options_init(&o);
    assert_int_equal(stpete_options_set(&o, "tie_break", "total", NULL), STPETE_OK); /* the words of 0.x */
    assert_int_equal(o.tie_break, STPETE_TIE_BREAK_RUBLES_TOTAL);
    assert_int_equal(stpete_options_set(&o, "pub_cap", "per-player", NULL), STPETE_OK);
    assert_int_equal(o.pub_cap, STPETE_PUB_CAP_PER_PLAYER);
    assert_int_equal(stpete_options_set(&o, "start_markers", "1,0,1,0", NULL), STPETE_OK);
    assert_int_equal(o.start_markers[2], 1);
    assert_int_equal(stpete_options_set(&o, "seed", "18446744073709551615", NULL), STPETE_OK);
    assert_true(o.seed == UINT64_MAX);
    /* the buffer: too small says the length needed */
    char small[3];
    size_t len = 0;
    assert_int_equal(stpete_options_value(&o, "seed", small, sizeof small, &len), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(len, 20);
    assert_int_equal(stpete_options_value(&o, "seed", NULL, 0, &len), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(stpete_options_value(&o, "seed", NULL, 4, &len), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_options_value(&o, "nope", small, sizeof small, &len), STPETE_E_INVALID_ARGUMENT);
    o.pub_cap = 7; /* set directly, out of range: no word */
    assert_int_equal(stpete_options_value(&o, "pub_cap", small, sizeof small, &len), STPETE_E_INVALID_ARGUMENT);
    /* start markers that are no seats: read by stpete_options_set() (stpete_options_check() says why), but their
     * text would not fit STPETE_OPTION_VALUE_MAX: refused, never cut */
    char text[STPETE_OPTION_VALUE_MAX];
    assert_int_equal(stpete_options_set(&o, "start_markers", "-2147483648,-2147483648,-2147483648,-2147483648", NULL),
                     STPETE_OK);
    assert_int_equal(stpete_options_value(&o, "start_markers", text, sizeof text, &len), STPETE_E_INVALID_ARGUMENT);
    o.start_markers[0] = o.start_markers[1] = o.start_markers[2] = -1;
    o.start_markers[3] = STPETE_MAX_PLAYERS;
    assert_int_equal(stpete_options_value(&o, "start_markers", text, sizeof text, &len), STPETE_E_INVALID_ARGUMENT);
    o.start_markers[3] = STPETE_MAX_PLAYERS - 1; /* seats of some game: written, whatever these players */
    assert_int_equal(stpete_options_value(&o, "start_markers", text, sizeof text, &len), STPETE_OK);
    assert_string_equal(text, "-1,-1,-1,4");
}

/* Bad text is refused with the option's name and rule in the reason, the struct unchanged. */
static void test_set_refuses_bad_text(void **unused)
{
    (void)unused;
    const struct {
        const char *name, *value, *says;
    } cases[] = {
        { "players", "four", "players must be an integer, not 'four' (§3, §12.0, R17)" },
        { "players", "", "players must be an integer" },
        { "players", "4294967296", "players must be an integer" },
        { "pub_cap", "per-seat",
          "pub_cap must be \"per-pub\" or \"per-player\" (or its number), not 'per-seat' (§7.2, R10)" },
        { "tie_break", "Rubles-Total", "(§8, R14)" },
        { "public_rubles", "yes", "public_rubles must be \"false\" or \"true\", not 'yes' (§9)" },
        { "edition", "2.0", "edition must be an integer, not '2.0' (§11)" },
        { "seed", "-1", "seed must be a decimal number in [0, 2^64)" },
        { "seed", "18446744073709551616", "seed must be" },
        { "seed", "0x10", "seed must be" },
        { "start_markers", "0,1,2", "start_markers must be \"random\" or four seats" },
        { "start_markers", "0,1,2,x", "start_markers must be" },
        { "start_markers", "0,1,2,3,", "start_markers must be" },
        { "chance_mode", "implicit", "chance_mode must be \"sampled\" or \"explicit\"" },
        { "no_such_option", "1", "no option is called 'no_such_option'" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        stpete_options o, before;
        stpete_options_init(&o);
        before = o;
        stpete_error e = STPETE_ERROR_INIT;
        assert_int_equal(stpete_options_set(&o, cases[c].name, cases[c].value, &e), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(e.status, STPETE_E_INVALID_ARGUMENT);
        if (!strstr(e.message, cases[c].says))
            fail_msg("case %zu: \"%s\" does not say \"%s\"", c, e.message, cases[c].says);
        assert_memory_equal(&o, &before, sizeof o);
    }
    stpete_options o;
    stpete_options_init(&o);
    assert_int_equal(stpete_options_set(NULL, "players", "3", NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_options_set(&o, NULL, "3", NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_options_set(&o, "players", NULL, NULL), STPETE_E_INVALID_ARGUMENT);
    stpete_error bad = STPETE_ERROR_INIT;
    bad.struct_size = 1;
    assert_int_equal(stpete_options_set(&o, "players", "3", &bad), STPETE_E_UNSUPPORTED_VERSION);
    /* a 1.0 caller's struct has no member for the New Society's options: refused, and read as the default */
    stpete_options old;
    memset(&old, 0x5a, sizeof old);
    stpete_options_init_size(&old, offsetof(stpete_options, new_society));
    stpete_error e = STPETE_ERROR_INIT;
    assert_int_equal(stpete_options_set(&old, "new_society", "true", &e), STPETE_E_UNSUPPORTED_VERSION);
    assert_int_equal(old.new_society, 0x5a5a5a5a);
    assert_string_equal(table_value(&old, "new_society"), "false");
    assert_int_equal(stpete_options_set(&old, "players", "3", NULL), STPETE_OK);
    old.struct_size = 7;
    size_t len;
    char text[STPETE_OPTION_VALUE_MAX];
    assert_int_equal(stpete_options_value(&old, "players", text, sizeof text, &len), STPETE_E_UNSUPPORTED_VERSION);
}

/* stpete_options_new() gives this library's struct with the defaults; stpete_options_free(NULL) is a no-op. */
static void test_new_and_free(void **unused)
{
    (void)unused;
    stpete_options *o = NULL, def;
    stpete_options_init(&def);
    assert_int_equal(stpete_options_new(&o, NULL), STPETE_OK);
    assert_non_null(o);
    for (int i = 0; i < stpete_option_count(); i++) {
        char a[STPETE_OPTION_VALUE_MAX];
        snprintf(a, sizeof a, "%s", table_value(o, table_info(i).name));
        assert_string_equal(a, table_value(&def, table_info(i).name));
    }
    assert_int_equal(o->struct_size, sizeof def);
    assert_int_equal(stpete_options_set(o, "players", "2", NULL), STPETE_OK);
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(o, &g, NULL), STPETE_OK);
    assert_int_equal(stpete_game_num_players(g), 2);
    stpete_game_free(g);
    stpete_options_free(o);
    stpete_options_free(NULL);
    stpete_error e = STPETE_ERROR_INIT;
    assert_int_equal(stpete_options_new(NULL, &e), STPETE_E_INVALID_ARGUMENT);
}

/* ---- combinations: the setup rule --------------------------------------------------------------------- */

/* Whether §3, §3.3, §7.2, §8, §9, §11 and §12.0 allow the combination: the spec restated, independently of the
 * library. */
static int table_allowed(const stpete_options *o)
{
    int ns = o->new_society;
    const int flags[] = { o->public_rubles, o->public_hands, o->new_society, o->markers_one_seat,
                          o->used_prison_scores, o->textile_without_new_society, o->pub_cap, o->tie_break,
                          o->chance_mode };
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) /* two values each (§7.2, §8, §9, §3.1, §12) */
        if (flags[i] != 0 && flags[i] != 1)
            return 0;
    if (o->players < 2 || o->players > (ns ? 5 : 4)) /* §3; 5 only with the New Society (R17) */
        return 0;
    if (o->edition != 1 && o->edition != 2) /* §11 */
        return 0;
    if (ns && o->edition == 2) /* R16, R17 */
        return 0;
    if (!ns && (o->markers_one_seat || o->used_prison_scores || o->textile_without_new_society)) /* §12's options */
        return 0;
    for (int i = 13; i < stpete_option_count(); i++) { /* a later option, by its table: an integer in range */
        stpete_option_info in = table_info(i);
        char text[STPETE_OPTION_VALUE_MAX];
        size_t len;
        if (stpete_options_value(o, in.name, text, sizeof text, &len) != STPETE_OK ||
            (in.type == STPETE_OPTION_INT && (atoll(text) < in.min || atoll(text) > in.max)))
            return 0;
    }
    int random = 0;
    for (int k = 0; k < STPETE_NUM_PHASES; k++)
        random += o->start_markers[k] == -1;
    if (random == STPETE_NUM_PHASES)
        return 1;
    if (random) /* all random or all seats */
        return 0;
    int held[STPETE_MAX_PLAYERS] = { 0 }; /* R15, R18: every seat 1 or 2 markers (one each with 4 or 5) */
    for (int k = 0; k < STPETE_NUM_PHASES; k++) {
        if (o->start_markers[k] < 0 || o->start_markers[k] >= o->players)
            return 0;
        held[o->start_markers[k]]++;
    }
    for (int s = 0; s < o->players; s++)
        if (held[s] > 2 || (o->players < 5 && held[s] == 0) || (o->players == 5 && held[s] > 1))
            return 0;
    return 1;
}

/* Every value of every option, alone and with the New Society: stpete_options_check() allows exactly the
 * combinations the spec allows, stpete_game_new() agrees with the same reason, and each reason names an option
 * and a rule. An accepted game's replay record gives the same options back. */
static void test_every_combination(void **unused)
{
    (void)unused;
    int refused = 0, accepted = 0;
    for (int i = 0; i < stpete_option_count(); i++) {
        stpete_option_info in = table_info(i);
        char values[10][STPETE_OPTION_VALUE_MAX];
        int n = table_values(&in, values);
        for (int v = 0; v < n; v++)
            for (int ns = 0; ns <= 1; ns++) {
                stpete_options o;
                stpete_options_init(&o);
                assert_int_equal(stpete_options_set(&o, "new_society", ns ? "true" : "false", NULL), STPETE_OK);
                assert_int_equal(stpete_options_set(&o, in.name, values[v], NULL), STPETE_OK);
                stpete_error e = STPETE_ERROR_INIT, e2 = STPETE_ERROR_INIT;
                int rc = stpete_options_check(&o, &e);
                stpete_game *g = NULL;
                assert_int_equal(stpete_game_new(&o, &g, &e2), rc);
                assert_string_equal(e.message, e2.message);
                if (table_allowed(&o) != (rc == STPETE_OK))
                    fail_msg("%s=%s, new_society=%d: check says %d (%s)", in.name, values[v], ns, rc, e.message);
                if (rc) {
                    refused++;
                    assert_non_null(strchr(e.message, '(')); /* the rule */
                    continue;
                }
                accepted++;
                char buf[4096];
                size_t len;
                assert_int_equal(stpete_replay_to_json(g, o.seed, NULL, 0, buf, sizeof buf, &len), STPETE_OK);
                stpete_game *back = NULL;
                assert_int_equal(stpete_game_from_json(buf, len, NULL, &back, NULL), STPETE_OK);
                assert_int_equal(stpete_game_check_compatible(g, back), STPETE_OK);
                stpete_options ob;
                stpete_options_init(&ob);
                assert_int_equal(stpete_game_get_options(back, &ob), STPETE_OK);
                for (int j = 0; j < stpete_option_count(); j++) {
                    const char *name = table_info(j).name;
                    char a[STPETE_OPTION_VALUE_MAX];
                    snprintf(a, sizeof a, "%s", table_value(&o, name));
                    assert_string_equal(a, table_value(&ob, name));
                }
                stpete_game_free(back);
                stpete_game_free(g);
            }
    }
    assert_true(refused >= 30 && accepted >= 40);
}

/* The reasons of the setup rule: 5 players name the option that allows them (issue 45), the New Society names
 * the edition, its rulings name it. */
static void test_setup_rule_reasons(void **unused)
{
    (void)unused;
    const struct {
        const char *set[3][2];
        const char *says;
    } cases[] = {
        { { { "players", "5" } }, "players must be 2, 3 or 4, not 5: 5 players need the New Society (new_society, "
                                  "§12.0, R17)" },
        { { { "new_society", "true" }, { "edition", "2" } },
          "the New Society is an expansion of the first edition: edition 2 with new_society is not a valid game "
          "(§12.0, R16, R17)" },
        { { { "markers_one_seat", "true" } },
          "markers_one_seat is an option of the New Society: set new_society (§12.4.1, R19)" },
        { { { "used_prison_scores", "true" } }, "used_prison_scores is an option of the New Society" },
        { { { "textile_without_new_society", "true" } }, "(§12.7.8, R29)" },
        { { { "players", "4" }, { "start_markers", "0,0,1,1" } }, "seat 2 holds 0 start-player markers" },
        /* no seat of any game: the same reason at 4 players (Option.parse()'s struct) and at 5 */
        { { { "start_markers", "0,1,2,7" } }, "the trading phase's start-player marker must be held by a seat, not "
                                              "7: no game has it (seats 0 to 4, or -1 for all four dealt at random; "
                                              "§3.3)" },
        { { { "players", "5" }, { "new_society", "true" }, { "start_markers", "0,1,2,7" } },
          "must be held by a seat, not 7: no game has it" },
        { { { "start_markers", "-1,-1,-2,-1" } }, "the aristocrat phase's start-player marker must be held by a seat, "
                                                  "not -2: no game has it" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        stpete_options o;
        stpete_options_init(&o);
        for (int k = 0; k < 3 && cases[c].set[k][0]; k++)
            assert_int_equal(stpete_options_set(&o, cases[c].set[k][0], cases[c].set[k][1], NULL), STPETE_OK);
        stpete_error e = STPETE_ERROR_INIT;
        assert_int_equal(stpete_options_check(&o, &e), STPETE_E_INVALID_ARGUMENT);
        if (!strstr(e.message, cases[c].says))
            fail_msg("case %zu: \"%s\" does not say \"%s\"", c, e.message, cases[c].says);
    }
    /* members set directly out of range: the table's words or labels in the reason */
    stpete_options o;
    stpete_options_init(&o);
    o.pub_cap = 7;
    stpete_error e = STPETE_ERROR_INIT;
    assert_int_equal(stpete_options_check(&o, &e), STPETE_E_INVALID_ARGUMENT);
    assert_string_equal(e.message, "pub_cap must be 0 (per-pub) or 1 (per-player), not 7 (§7.2, R10)");
    stpete_options_init(&o);
    o.edition = 0;
    assert_int_equal(stpete_options_check(&o, &e), STPETE_E_INVALID_ARGUMENT);
    assert_string_equal(e.message, "edition must be 1 (first (2004)) or 2 (second (2014)), not 0 (§11)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_describes_every_option),
        cmocka_unit_test(test_names_are_the_json_keys),
        cmocka_unit_test(test_set_and_value_round_trip),
        cmocka_unit_test(test_set_refuses_bad_text),
        cmocka_unit_test(test_new_and_free),
        cmocka_unit_test(test_every_combination),
        cmocka_unit_test(test_setup_rule_reasons),
    };
    return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
