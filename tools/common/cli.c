/* The options every program of tools/ and examples/ answers alike (cli.h, issue 26). */
#include "cli.h"

#include <ctype.h>
#include <string.h>
#include <stpete/stpete.h>

int cli_common(const char *program, const char *arg, void (*usage)(FILE *out))
{
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(arg, "--version")) {
        printf("%s %s\n", program, stpete_version());
        return 0;
    }
    return CLI_NOT_COMMON;
}

int cli_unknown(const char *program, const char *arg)
{
    fprintf(stderr, "%s: unknown option '%s' (see %s --help)\n", program, arg, program);
    return CLI_USAGE_ERROR;
}

int cli_needs_value(const char *program, const char *option)
{
    fprintf(stderr, "%s: %s needs a value (see %s --help)\n", program, option, program);
    return CLI_USAGE_ERROR;
}

int cli_is_option(const char *arg, const char *options)
{
    size_t n = strlen(arg);
    for (const char *w = strstr(options, arg); n && w; w = strstr(w + 1, arg))
        if ((w == options || w[-1] == ' ') && w[n] == ' ')
            return 1;
    return 0;
}

int cli_check_value(const char *program, const char *arg, const char *value, const char *options)
{
    if (!cli_is_option(arg, options))
        return cli_unknown(program, arg);
    return value ? 0 : cli_needs_value(program, arg);
}

/* ---- the game's options, from the library's table (issue 42) -------------------------------------------- */

/* Option i of the table, or a zeroed description if the library has no such option. */
static stpete_option_info cli_info_of(int i)
{
    stpete_option_info in = STPETE_OPTION_INFO_INIT;
    stpete_option_get_info(i, &in);
    return in;
}

/* An option's flag, its name with dashes, into flag ("--pub-cap"). */
static void cli_flag_of(const char *name, char *flag, size_t size)
{
    snprintf(flag, size, "--%s", name);
    for (char *p = flag + 2; *p; p++)
        if (*p == '_')
            *p = '-';
}

void cli_options_init(cli_options *c)
{
    memset(c, 0, sizeof *c);
    stpete_options_init(&c->opts);
}

int cli_option_given(const cli_options *c, const char *name)
{
    int i;
    return stpete_option_from_name(name, &i) == STPETE_OK && (c->given >> i & 1u);
}

/* Set option i from text: 0, or the reason (its name as a flag) on stderr and CLI_USAGE_ERROR. */
static int cli_set_option(const char *program, cli_options *c, int i, const char *value)
{
    stpete_option_info in = cli_info_of(i);
    stpete_error err = STPETE_ERROR_INIT;
    if (in.category == STPETE_OPTION_PLAY) {
        char flag[64];
        cli_flag_of(in.name, flag, sizeof flag);
        fprintf(stderr, "%s: %s is how a program deals and drives its games, not a rule: %s keeps it its own "
                        "(see %s --help)\n", program, in.name, program, program);
        return CLI_USAGE_ERROR;
    }
    if (stpete_options_set(&c->opts, in.name, value, &err) != STPETE_OK) {
        fprintf(stderr, "%s: ", program);
        cli_print_as_flags(stderr, err.message);
        fprintf(stderr, " (see %s --help)\n", program);
        return CLI_USAGE_ERROR;
    }
    c->given |= 1u << i;
    return 0;
}

int cli_option(const char *program, cli_options *c, int argc, char **argv, int *i)
{
    const char *arg = argv[*i], *value = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(arg, "--option")) {
        if (!value)
            return cli_needs_value(program, arg);
        const char *eq = strchr(value, '=');
        char name[64];
        int k;
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - value) : 0, value);
        if (!eq || stpete_option_from_name(name, &k) != STPETE_OK) {
            fprintf(stderr, "%s: --option takes NAME=VALUE with the NAME of a game option, not '%s' (see %s --help)\n",
                    program, value, program);
            return CLI_USAGE_ERROR;
        }
        (*i)++;
        return cli_set_option(program, c, k, eq + 1);
    }
    for (int k = 0; k < stpete_option_count(); k++) {
        stpete_option_info in = cli_info_of(k);
        char flag[64];
        cli_flag_of(in.name, flag, sizeof flag);
        if (in.category == STPETE_OPTION_PLAY || strcmp(arg, flag) != 0)
            continue;
        if (in.type == STPETE_OPTION_BOOL)
            return cli_set_option(program, c, k, "true");
        if (!value)
            return cli_needs_value(program, arg);
        (*i)++;
        return cli_set_option(program, c, k, value);
    }
    return CLI_NOT_COMMON;
}

void cli_print_as_flags(FILE *out, const char *text)
{
    const char *p = text;
    while (*p) {
        int done = 0;
        int word_start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        for (int k = 0; word_start && !done && k < stpete_option_count(); k++) {
            stpete_option_info in = cli_info_of(k);
            size_t n = strlen(in.name);
            /* a name with an underscore anywhere (never an English word), any name as the subject of the reason */
            if ((!strchr(in.name, '_') && p != text) || strncmp(p, in.name, n) != 0 || isalnum((unsigned char)p[n]) ||
                p[n] == '_')
                continue;
            char flag[64];
            cli_flag_of(in.name, flag, sizeof flag);
            fputs(flag, out);
            p += n;
            done = 1;
        }
        if (!done)
            fputc(*p++, out);
    }
}

int cli_options_check(const char *program, const cli_options *c)
{
    stpete_error err = STPETE_ERROR_INIT;
    if (stpete_options_check(&c->opts, &err) == STPETE_OK)
        return 0;
    fprintf(stderr, "%s: ", program);
    cli_print_as_flags(stderr, err.message);
    fputc('\n', stderr);
    return CLI_USAGE_ERROR;
}

void cli_wrap(FILE *out, const char *text, int at, int indent)
{
    int col = at, first = 1;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, " ");
        int width = 0; /* characters, not bytes: "§" is two bytes and one column */
        for (size_t i = 0; i < n; i++)
            width += ((unsigned char)p[i] & 0xC0) != 0x80;
        if (!first && col + 1 + width > CLI_COLUMNS) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, n, out);
        col += width;
        first = 0;
        p += n;
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}

void cli_options_usage(FILE *out, const cli_options *c, const char *noted, const char *default_note)
{
    enum { DESC = 24 }; /* the column of the descriptions, as the programs' own options */
    char example[160] = "";
    for (int k = 0; k < stpete_option_count() && !example[0]; k++) { /* the table's first word option */
        stpete_option_info in = cli_info_of(k);
        if (in.type == STPETE_OPTION_ENUM && in.category != STPETE_OPTION_PLAY)
            snprintf(example, sizeof example, ", e.g. --option %s=%s", in.name, in.words[in.num_words - 1]);
    }
    char text[256];
    snprintf(text, sizeof text, "any game option below, by its name (its flag's words joined by _)%s", example);
    fprintf(out, "Game options (the library's table of options):\n");
    fprintf(out, "  %-*s", DESC - 2, "--option NAME=VALUE");
    cli_wrap(out, text, DESC, DESC);
    for (int k = 0; k < stpete_option_count(); k++) {
        stpete_option_info in = cli_info_of(k);
        if (in.category == STPETE_OPTION_PLAY)
            continue;
        char flag[160], value[STPETE_OPTION_VALUE_MAX], text[512];
        cli_flag_of(in.name, flag, sizeof flag);
        size_t n = strlen(flag), len = 0;
        if (in.type == STPETE_OPTION_ENUM)
            for (int w = 0; w < in.num_words; w++)
                n += (size_t)snprintf(flag + n, sizeof flag - n, "%c%s", w ? '|' : ' ', in.words[w]);
        else if (in.type == STPETE_OPTION_INT)
            snprintf(flag + n, sizeof flag - n, " N");
        else if (in.type == STPETE_OPTION_SEATS)
            snprintf(flag + n, sizeof flag - n, " S,S,S,S|random");
        if (stpete_options_value(&c->opts, in.name, value, sizeof value, &len) != STPETE_OK)
            snprintf(value, sizeof value, "%s", in.default_text);
        int noted_here = noted && default_note && !strcmp(noted, in.name);
        snprintf(text, sizeof text, "%s (%s; default %s)", in.description, in.rule, noted_here ? default_note
                 : in.type == STPETE_OPTION_BOOL ? (strcmp(value, "true") ? "off" : "on") : value);
        if (2 + (int)strlen(flag) + 2 > DESC) /* help2man needs two spaces between an option and its text */
            fprintf(out, "  %s\n%*s", flag, DESC, "");
        else
            fprintf(out, "  %-*s", DESC - 2, flag);
        cli_wrap(out, text, DESC, DESC);
    }
}

int cli_option_json(const stpete_options *o, const stpete_option_info *in, char *buf, size_t size)
{
    char text[STPETE_OPTION_VALUE_MAX];
    size_t len;
    if (stpete_options_value(o, in->name, text, sizeof text, &len) != STPETE_OK)
        return -1;
    if (in->type == STPETE_OPTION_ENUM || in->type == STPETE_OPTION_SEED)
        snprintf(buf, size, "\"%s\"", text);
    else if (in->type == STPETE_OPTION_SEATS)
        snprintf(buf, size, strcmp(text, "random") ? "[%s]" : "null", text);
    else /* BOOL's true or false, an INT's digits */
        snprintf(buf, size, "%s", text);
    return 0;
}
