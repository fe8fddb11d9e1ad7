/* The options every program of tools/ and examples/ answers alike (issue 26): --help and -h print the program's
 * usage on standard output and exit 0; --version prints "NAME VERSION" (the library's version) and exits 0; an
 * unknown option or a missing value prints one line naming it and the --help hint on standard error and exits 2.
 * And the game's options, which every program that plays takes alike from the library's table of options (issue
 * 42; stpete_option_get_info()): `--option NAME=VALUE` for any of them, and each one's own flag, its name with
 * dashes (`--pub-cap per-player`, `--new-society`: a BOOL's flag takes no value); --help lists them from the table,
 * wrapped to 80 columns; a refusal is the library's reason, with the options named as on the command line.
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

/* ---- the game's options, from the library's table (issue 42) -------------------------------------- */

/* The widest line of a --help (the programs' man pages come from it, help2man). */
#define CLI_COLUMNS 80

/* The game's options of a command line: the program's defaults, then what was given. */
typedef struct cli_options {
    stpete_options opts; /* the options (stpete_options_init(), then the program's own defaults) */
    unsigned given;      /* bit i: option i of the table was given */
} cli_options;

/* The library's defaults, nothing given. */
void cli_options_init(cli_options *c);

/* If argv[*i] is `--option NAME=VALUE` or an option's own flag (`--NAME-WITH-DASHES VALUE`, a BOOL's without a
 * value), set it and move *i to the last argument it used: 0. CLI_NOT_COMMON if argv[*i] is neither. Otherwise the
 * reason on stderr (the option's value refused, or an option of how a program deals its games, the seed and the
 * chance mode, which each program keeps its own: --seed) and CLI_USAGE_ERROR. */
int cli_option(const char *program, cli_options *c, int argc, char **argv, int *i);

/* Whether option `name` was given on the command line (1 or 0). */
int cli_option_given(const cli_options *c, const char *name);

/* The whole combination checked (stpete_options_check(): the setup rule, 5 players only with the New Society,
 * ...): 0, or the library's reason on stderr, its option names written as this command line's flags
 * ("--new-society"), and CLI_USAGE_ERROR. */
int cli_options_check(const char *program, const cli_options *c);

/* Write text to out with the option names of the table that the library's reasons use written as flags: every name
 * with an underscore ("new_society" becomes "--new-society") and the name a reason begins with ("players must be
 * ..."); other words are left alone ("the first edition"). */
void cli_print_as_flags(FILE *out, const char *text);

/* Print text from column `at` on (the caller has printed that much of the line), wrapped at CLI_COLUMNS with the
 * continuation lines indented to `indent`, then a newline: --help's descriptions. */
void cli_wrap(FILE *out, const char *text, int at, int indent);

/* An option's value as JSON text into buf (capacity >= STPETE_OPTION_VALUE_MAX + 2), by its type in the table: true
 * or false, a number, a quoted word or seed, an array of seats or null (random), as the JSON format writes it
 * (doc/format.md "options"). 0, or -1 for an option the library does not describe. */
int cli_option_json(const stpete_options *o, const stpete_option_info *in, char *buf, size_t size);

/* The --help lines of the game's options, from the table, wrapped to CLI_COLUMNS: each option's flag, its
 * description, rule and default (the program's own: c's), and how to give any of them as --option NAME=VALUE.
 * default_note, if not NULL, replaces the default shown for the option `noted`. */
void cli_options_usage(FILE *out, const cli_options *c, const char *noted, const char *default_note);

#endif
