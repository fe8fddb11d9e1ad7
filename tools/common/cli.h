/* The options every program of tools/ and examples/ answers alike (issue 26): --help and -h print the program's
 * usage on standard output and exit 0; --version prints "NAME VERSION" (the library's version) and exits 0; an
 * unknown option or a missing value prints one line naming it and the --help hint on standard error and exits 2.
 * Internal, not installed: the static library stpete_cli (tools/common/meson.build), linked into each program. */
#ifndef STPETE_TOOLS_CLI_H
#define STPETE_TOOLS_CLI_H

#include <stdio.h>

#include <stpete/stpete.h>

/* The exit status of a usage error. */
#define CLI_USAGE_ERROR 2
/* cli_common()'s answer for an argument that is none of --help, -h and --version. */
#define CLI_NOT_COMMON (-1)

/* If arg is --help or -h, print usage(stdout); if --version, print "program VERSION"; and return 0, the exit
 * status. Any other arg: CLI_NOT_COMMON, nothing printed. */
int cli_common(const char *program, const char *arg, void (*usage)(FILE *out));

/* Whether arg is one of the words of options, a list of option names each followed by a space (e.g.
 * "--players --seed "): whole words only, so "--play" is not "--players". */
int cli_is_option(const char *arg, const char *options);

/* For an argument that is not a switch: arg is one of options (cli_is_option) and has a value: 0; no value:
 * cli_needs_value(); not an option: cli_unknown(). */
int cli_check_value(const char *program, const char *arg, const char *value, const char *options);

/* Print "program: unknown option 'arg' (see program --help)" on stderr; return CLI_USAGE_ERROR. */
int cli_unknown(const char *program, const char *arg);

/* Print "program: option needs a value (see program --help)" on stderr; return CLI_USAGE_ERROR. */
int cli_needs_value(const char *program, const char *option);

#endif
