#!/bin/bash
# Regenerate the ABI baseline abi/libstpete.abi from a fresh debugoptimized gcc build (abidw needs the DWARF of
# -g). Run it for a release, after the API is final; commit the result. tests/checks/check-abi.sh compares every
# debug build's library against it with abidiff and fails on a removed or changed symbol or public type.
# Usage: abi/update.sh   (from anywhere; needs meson, ninja, gcc and abigail-tools)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stpete-abi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
CC=gcc meson setup "$tmp/build" "$src" --buildtype=debugoptimized -Dtests=false -Ddocs=disabled >/dev/null
meson compile -C "$tmp/build" stpete >/dev/null
lib=$(readlink -f "$tmp/build/libstpete.so")
abidw --no-corpus-path --drop-private-types \
    --headers-dir "$src/include/stpete" --headers-dir "$tmp/build/include/stpete" \
    --out-file "$src/abi/libstpete.abi" "$lib"
echo "abi/libstpete.abi: $(grep -c '<elf-symbol ' "$src/abi/libstpete.abi") symbols of $(basename "$lib")"
