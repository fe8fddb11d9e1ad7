#!/usr/bin/env bash
# Build libstpete for WebAssembly with Debian's emscripten: jansson from Debian's source package (compiled here,
# never committed), then the library, its bots, stpete-selfplay and stpete-bench (wasm, run under Node) and the
# JavaScript package (bindings/js) through meson with bindings/js/emscripten.ini.
#
#   bindings/js/build.sh [BUILD_DIR] [-- extra meson setup options]     (default BUILD_DIR: build-wasm)
#
# Needs: apt-get install emscripten nodejs dpkg-dev (and chromium for the browser tests); `npm ci` in
# bindings/js for the browser tests. The jansson source comes from `apt-get source jansson`: when no deb-src
# entry exists and the script runs as root, it adds one for Debian's archive (bookworm, main) and runs
# apt-get update. Then: meson test -C BUILD_DIR --print-errorlogs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:-build-wasm}"
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
case "$build" in /*) ;; *) build="$root/$build" ;; esac
deps="$build-deps"
# Debian's node does not search /usr/share/nodejs, where emcc's acorn lives (emcc -O1 and above need it).
export NODE_PATH=/usr/share/nodejs

jansson_version=2.14
src="$deps/jansson-$jansson_version"
if [ ! -f "$src/src/dump.c" ]; then
    mkdir -p "$deps"
    if ! (cd "$deps" && apt-get source -qq --download-only jansson >/dev/null 2>&1); then
        if [ "$(id -u)" != 0 ]; then
            echo "build.sh: apt-get source jansson failed: add a deb-src entry for Debian's archive (as root)" >&2
            exit 1
        fi
        cat > /etc/apt/sources.list.d/stpete-deb-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
        apt-get update -qq
        (cd "$deps" && apt-get source -qq --download-only jansson >/dev/null)
    fi
    (cd "$deps" && rm -rf "$src" && dpkg-source -x jansson_${jansson_version}-*.dsc "$src" >/dev/null)
fi

# jansson's sources compiled directly (seconds; its CMake checks take minutes under emcc) with a private config:
# no /dev/urandom (the hash seed then comes from time(), which changes no output: objects keep insertion order),
# so the glue needs no file system.
prefix="$deps/jansson"
if [ ! -f "$prefix/lib/libjansson.a" ]; then
    mkdir -p "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/obj"
    sed -e 's/@json_inline@/inline/' -e 's/@json_have_long_long@/1/' -e 's/@json_have_localeconv@/0/' \
        -e 's/@json_have_atomic_builtins@/0/' -e 's/@json_have_sync_builtins@/0/' \
        "$src/src/jansson_config.h.in" > "$prefix/include/jansson_config.h"
    cp "$src/src/jansson.h" "$prefix/include/"
    printf '#define HAVE_STDINT_H 1\n#define HAVE_UNISTD_H 1\n' > "$prefix/obj/jansson_private_config.h"
    objs=()
    for c in "$src"/src/*.c; do
        o="$prefix/obj/$(basename "$c" .c).o"
        emcc -O3 -DHAVE_CONFIG_H -I"$prefix/obj" -I"$prefix/include" -c "$c" -o "$o"
        objs+=("$o")
    done
    emar rcs "$prefix/lib/libjansson.a" "${objs[@]}"
    cat > "$prefix/lib/pkgconfig/jansson.pc" <<PC
prefix=$prefix
Name: Jansson
Description: Library for encoding, decoding and manipulating JSON data (Debian source $jansson_version, wasm)
Version: $jansson_version
Libs: -L\${prefix}/lib -ljansson
Cflags: -I\${prefix}/include
PC
fi

export PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig"
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" "$root" --cross-file "$here/emscripten.ini" "$@"
fi
meson compile -C "$build"
