#!/bin/bash
# Install test, in two parts.
# 1. This build: `meson install` into a temporary DESTDIR; the headers, library, .pc file (without a made-up URL),
#    documentation (doc/rules.md, doc/format.md, doc/api.md, ...; the HTML reference and man pages when this build makes them) are
#    there; the installed programs run from the DESTDIR without LD_LIBRARY_PATH (their run path is relative,
#    $ORIGIN/..) and load the DESTDIR's library; a tiny program built with pkg-config only (no source-tree headers)
#    runs against the installed library, with a run-time version equal to the installed header's
#    STPETE_VERSION_STRING, and plays a game to the end.
# 2. A non-system prefix, as doc/install.md does it for $HOME/.local: a fresh build of the sources
#    with --prefix <tmp>/home/.local --libdir lib, installed; the installed programs run (a game of stpete-selfplay,
#    stpete-play in plain mode until end of input) and a program built with PKG_CONFIG_PATH and the .pc file's
#    libdir as its run path runs, all WITHOUT LD_LIBRARY_PATH.
# Usage: install-check.sh BUILD_DIR SOURCE_DIR
set -eu

if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD_DIR SOURCE_DIR" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/stpete-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dest="$tmp/dest"

fail() {
    echo "not ok - install: $*"
    exit 1
}

echo "# source $src, build $build, destdir $dest"
# --no-rebuild: every installed file must already be built (tests/meson.build lists them in the test's depends).
missing=$(meson introspect "$build" --installed | python3 -c '
import json, os, sys
for built in sorted(json.load(sys.stdin)):
    if not os.path.lexists(os.path.join(sys.argv[1], built)):
        print(built)
' "$build") || fail "meson introspect --installed failed"
if [ -n "$missing" ]; then
    while IFS= read -r f; do echo "# not built: $f"; done <<<"$missing"
    fail "installed targets are not built; add them to depends: of test('install') in tests/meson.build"
fi
if ! meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    fail "meson install failed"
fi

# The .pc file lands in <libdir>/pkgconfig, and libdir may be lib, lib64 or lib/<multiarch>.
pc=$(find "$dest" -name stpete.pc -path '*/pkgconfig/*' | head -n 1)
[ -n "$pc" ] || fail "stpete.pc not installed"
pcdir=$(dirname "$pc")
libdir=$(dirname "$pcdir")
echo "# stpete.pc: ${pc#"$dest"}"
[ -e "$libdir/libstpete.so" ] || fail "libstpete.so not installed next to the .pc file (${libdir#"$dest"})"
ls "$libdir"/libstpete.so.* >/dev/null 2>&1 || fail "no versioned libstpete.so.* installed"
find "$dest" -path '*/include/stpete/stpete.h' | grep -q . || fail "stpete/stpete.h not installed"
find "$dest" -path '*/include/stpete/version.h' | grep -q . || fail "stpete/version.h not installed"

# The .pc file names the final prefix; the sysroot maps its -I/-L paths into the DESTDIR. Only the paths the
# installed .pc file names are used: nothing from the source or build tree.
pkgconf() {
    env -u PKG_CONFIG_LIBDIR PKG_CONFIG_PATH="$pcdir" PKG_CONFIG_SYSROOT_DIR="$dest" pkg-config "$@"
}
pkgconf --exists stpete || fail "pkg-config does not find stpete"
cflags=$(pkgconf --cflags stpete) || fail "pkg-config --cflags"
libs=$(pkgconf --libs stpete) || fail "pkg-config --libs"
modversion=$(pkgconf --modversion stpete) || fail "pkg-config --modversion"
echo "# cflags: $cflags"
echo "# libs: $libs"
case "$libs" in
*"-L$dest"*) ;;
*) fail "pkg-config --libs does not point into the DESTDIR: $libs" ;;
esac

cat >"$tmp/prog.c" <<'CEOF'
#include <stdio.h>
#include <string.h>

#include <stpete/stpete.h>

int main(void)
{
    if (strcmp(stpete_version(), STPETE_VERSION_STRING) != 0) {
        fprintf(stderr, "run-time version %s, header %s\n", stpete_version(), STPETE_VERSION_STRING);
        return 1;
    }
    if (stpete_version_number() != STPETE_VERSION_NUMBER) {
        fprintf(stderr, "run-time version number %d, header %d\n", stpete_version_number(), STPETE_VERSION_NUMBER);
        return 1;
    }
    stpete_options opts = STPETE_OPTIONS_INIT;
    opts.players = 3;
    opts.seed = 42;
    stpete_game *game = NULL;
    stpete_state *st = NULL;
    if (stpete_game_new(&opts, &game, NULL) != STPETE_OK || stpete_state_new(game, &st, NULL) != STPETE_OK) {
        fprintf(stderr, "cannot create a game\n");
        return 1;
    }
    /* play the last legal action each time (a deterministic policy) until the game ends */
    int moves = 0, over = 0;
    while (stpete_state_is_terminal(st, &over) == STPETE_OK && !over) {
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n = 0;
        if (stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n) != STPETE_OK || n == 0 ||
            stpete_state_apply(st, ids[(size_t)moves % n]) != STPETE_OK || ++moves > 10000) {
            fprintf(stderr, "play failed after %d moves: %s\n", moves, stpete_state_last_error(st));
            return 1;
        }
    }
    unsigned winners = 0;
    if (stpete_state_winners(st, &winners) != STPETE_OK || winners == 0) {
        fprintf(stderr, "no winners\n");
        return 1;
    }
    printf("%s %d moves, winners %#x\n", stpete_version(), moves, winners);
    stpete_state_free(st);
    stpete_game_free(game);
    return 0;
}
CEOF

cc=${CC:-}
if [ -z "$cc" ]; then
    cc=$(command -v cc || command -v gcc || command -v clang) || fail "no C compiler (cc, gcc, clang) found"
fi
# shellcheck disable=SC2086 # the flags are word lists
if ! $cc -std=c11 -Wall -Wextra -Werror $cflags -o "$tmp/prog" "$tmp/prog.c" $libs >"$tmp/cc.log" 2>&1; then
    cat "$tmp/cc.log"
    fail "cannot compile against the installed headers and library"
fi

# Make sure the program resolves the installed copy, not the build tree's.
resolved=$(LD_LIBRARY_PATH="$libdir" ldd "$tmp/prog" | awk '/libstpete/ { print $3 }')
case "$resolved" in
"$libdir"/*) ;;
*) fail "the program resolves libstpete to '$resolved', not the installed copy in $libdir" ;;
esac

if ! out=$(LD_LIBRARY_PATH="$libdir" "$tmp/prog" 2>&1); then
    echo "$out"
    fail "the program failed"
fi
echo "# $out"
case "$out" in
"$modversion "*) ;;
*) fail "pkg-config version $modversion, program says: $out" ;;
esac
echo "ok - install: pkg-config $modversion, compiled, linked and ran against the installed copy"

# ---- the installed programs run from the DESTDIR, without LD_LIBRARY_PATH -------------------------------------
grep -q '^URL:' "$pc" && fail "stpete.pc has a URL line ($(grep '^URL:' "$pc")): the project has no public URL"
bindir=$(find "$dest" -type f -name stpete-selfplay -path '*/bin/*' -printf '%h\n' | head -n 1)
[ -n "$bindir" ] || fail "stpete-selfplay not installed"
for prog in stpete-selfplay stpete-replay stpete-bench stpete-play stpete-arena; do
    [ -x "$bindir/$prog" ] || fail "$prog not installed in ${bindir#"$dest"}"
    resolved=$(env -u LD_LIBRARY_PATH ldd "$bindir/$prog" | awk '/libstpete/ { print $3 }')
    resolved=$(realpath -m "$resolved")
    case "$resolved" in
    "$libdir"/*) ;;
    *) fail "the installed $prog resolves libstpete to '$resolved', not the installed copy in $libdir (run path: $(readelf -d "$bindir/$prog" | grep -E 'RPATH|RUNPATH'))" ;;
    esac
done
out=$(env -u LD_LIBRARY_PATH "$bindir/stpete-selfplay" --players 2 --seed 3 2>&1) || fail "the installed stpete-selfplay failed: $out"
case "$out" in
*"winner"*) ;;
*) fail "the installed stpete-selfplay did not play to the end: $(tail -n 3 <<<"$out")" ;;
esac
docdir=$(find "$dest" -type d -path '*/share/doc/libstpete' | head -n 1)
[ -n "$docdir" ] || fail "share/doc/libstpete not installed"
for f in rules.md format.md protocol.md api.md expansion.md stpete.schema.json; do
    cmp -s "$docdir/$f" "$src/doc/$f" || fail "share/doc/libstpete/$f is not doc/$f"
done
for f in minimal_bot.py python_bot.py; do
    [ -x "$docdir/examples/bots/$f" ] || fail "share/doc/libstpete/examples/bots/$f is not installed (executable)"
done
# the installed arena against the installed example bot, which needs no binding
out=$(env -u LD_LIBRARY_PATH "$bindir/stpete-arena" --games 2 --quiet \
      --bot "cmd:python3 $docdir/examples/bots/minimal_bot.py" --bot greedy 2>&1) || fail "the installed stpete-arena failed: $out"
case "$out" in
*"calls itself 'minimal-random'"*) ;;
*) fail "the installed stpete-arena did not play the installed minimal_bot.py: $(tail -n 5 <<<"$out")" ;;
esac
installed=$(meson introspect "$build" --installed)
if grep -q '/html' <<<"$installed"; then
    [ -f "$docdir/html/index.html" ] || fail "the HTML reference is not installed in share/doc/libstpete/html"
    [ -f "$docdir/python/stpete.html" ] || fail "the Python binding's reference is not installed in share/doc/libstpete/python"
fi
if grep -q 'man1/stpete-play.1' <<<"$installed"; then
    for prog in stpete-selfplay stpete-replay stpete-bench stpete-play stpete-arena; do
        page=$(find "$dest" -path "*/share/man/man1/$prog.1" | head -n 1)
        [ -n "$page" ] || fail "no man page share/man/man1/$prog.1"
        grep -q '^\.SH OPTIONS\|^\.SH DESCRIPTION' "$page" || fail "$prog.1 has no DESCRIPTION or OPTIONS section"
    done
fi
echo "ok - install: the installed programs run from the DESTDIR without LD_LIBRARY_PATH; the documentation is installed"

# ---- a non-system prefix, as doc/install.md does it: $HOME/.local with --libdir lib ------------------------
home="$tmp/home"
prefix="$home/.local"
mkdir -p "$home"
if ! (cd "$src" && env -u LD_LIBRARY_PATH HOME="$home" meson setup "$tmp/build-prefix" --prefix "$prefix" \
        --libdir lib -Dtests=false -Ddocs=disabled >"$tmp/setup.log" 2>&1 &&
        meson compile -C "$tmp/build-prefix" >"$tmp/compile.log" 2>&1 &&
        meson install -C "$tmp/build-prefix" --quiet >"$tmp/install2.log" 2>&1); then
    cat "$tmp/setup.log" "$tmp/compile.log" "$tmp/install2.log" 2>/dev/null | tail -n 30
    fail "setup, build or install with --prefix $prefix failed"
fi
# the Python package goes to the interpreter's user site, which it searches: no warning at setup (issue 26: a false
# one said it would not), and it imports with no PYTHONPATH
if grep -q "which that interpreter does not search" "$tmp/setup.log"; then
    grep -A2 WARNING "$tmp/setup.log"
    fail "meson setup --prefix $prefix warns that python3 will not find the package"
fi
out=$(cd "$tmp" && env -u PYTHONPATH -u LD_LIBRARY_PATH -u STPETE_LIBRARY HOME="$home" python3 -c \
    'import stpete; print(stpete.__file__); print(stpete.library_path())' 2>&1) ||
    fail "python3 does not import the package installed under $prefix: $out"
case "$out" in
"$prefix/lib/python3"*"/stpete/__init__.py"*"$prefix/lib/libstpete.so.1") ;;
*) fail "python3 imports stpete from elsewhere than $prefix, or loads another library: $out" ;;
esac
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
pkg-config --exists stpete || fail "pkg-config does not find stpete with PKG_CONFIG_PATH=$PKG_CONFIG_PATH"
[ "$(pkg-config --variable=libdir stpete)" = "$prefix/lib" ] || fail "stpete.pc's libdir is $(pkg-config --variable=libdir stpete), not $prefix/lib"
out=$(env -u LD_LIBRARY_PATH "$prefix/bin/stpete-selfplay" --players 3 --seed 1 2>&1) ||
    fail "the installed stpete-selfplay does not run from $prefix: $out"
case "$out" in
*"winner"*) ;;
*) fail "the installed stpete-selfplay did not play to the end" ;;
esac
out=$(env -u LD_LIBRARY_PATH HOME="$home" XDG_STATE_HOME= "$prefix/bin/stpete-play" --players 2 --seed 4 </dev/null 2>&1) ||
    fail "the installed stpete-play failed: $(tail -n 5 <<<"$out")"
case "$out" in
*"End of input: the game is saved to $home/.local/state/stpete/autosave.json."*) ;;
*) fail "the installed stpete-play did not show a board and save at end of input: $(tail -n 5 <<<"$out")" ;;
esac
# shellcheck disable=SC2046 # the flags are word lists
if ! $cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags stpete) -o "$tmp/prog2" "$tmp/prog.c" \
        $(pkg-config --libs stpete) -Wl,-rpath,"$(pkg-config --variable=libdir stpete)" >"$tmp/cc2.log" 2>&1; then
    cat "$tmp/cc2.log"
    fail "cannot build a program against $prefix with pkg-config"
fi
resolved=$(env -u LD_LIBRARY_PATH ldd "$tmp/prog2" | awk '/libstpete/ { print $3 }')
[ "$resolved" = "$prefix/lib/libstpete.so.1" ] || fail "the program resolves libstpete to '$resolved', not $prefix/lib"
out=$(env -u LD_LIBRARY_PATH "$tmp/prog2" 2>&1) || fail "the program built against $prefix failed: $out"
echo "ok - install: --prefix $prefix --libdir lib: the installed programs and a pkg-config program run without LD_LIBRARY_PATH"
