#!/bin/bash
# Install test: `meson install` into a temporary DESTDIR, then build a tiny program against the installed copy
# with pkg-config only (no source-tree headers), run it against the installed shared library, and check that the
# run-time version equals the installed header's STPETE_VERSION_STRING and that a game plays to the end.
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
    if (stpete_game_new(&game, &opts) != STPETE_OK || stpete_state_new(&st, game) != STPETE_OK) {
        fprintf(stderr, "cannot create a game\n");
        return 1;
    }
    /* play the last legal action each time (a deterministic policy) until the game ends */
    int moves = 0;
    while (!stpete_state_is_terminal(st)) {
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
