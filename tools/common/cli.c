/* The options every program of tools/ and examples/ answers alike (cli.h, issue 26). */
#include "cli.h"

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
