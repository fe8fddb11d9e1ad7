#!/bin/bash
# Every public header compiles alone (the only include of a translation unit, included twice) as C11 and as C++11,
# with -Wall -Wextra -Werror -pedantic: with gcc and g++, and with clang and clang++ when installed.
# The headers are the *.h of the source tree's include/stpete/ and the build tree's generated include/stpete/
# (version.h), so headers added later are checked without editing this script.
# Usage: check-headers.sh BUILD_DIR SOURCE_DIR. Output is TAP.
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD_DIR SOURCE_DIR" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stpete-headers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

headers=()
for h in "$src"/include/stpete/*.h "$build"/include/stpete/*.h; do
    [ -e "$h" ] && headers+=("$(basename "$h")")
done
warn=(-Wall -Wextra -Werror -pedantic)
# compiler, language flags: gcc is required; without g++ the C++ checks are reported as TAP "# SKIP" (CI installs
# g++); clang and clang++ are optional
compilers=()
for c in "gcc -x c -std=c11" "g++ -x c++ -std=c++11" "clang -x c -std=c11" "clang++ -x c++ -std=c++11"; do
    if command -v "${c%% *}" >/dev/null 2>&1; then
        compilers+=("$c")
    else
        case "${c%% *}" in
        gcc) echo "Bail out! gcc not found"; exit 1 ;;
        g++) compilers+=("$c") ;; # reported as skipped below
        *) echo "# ${c%% *} not found: not checked with it" ;;
        esac
    fi
done

n=0
failed=0
echo "1..$(( ${#headers[@]} * ${#compilers[@]} ))"
for h in "${headers[@]}"; do
    # included twice (include guard), then one declaration (ISO C forbids an empty translation unit)
    printf '#include <stpete/%s>\n#include <stpete/%s>\ntypedef int header_check_unit;\n' "$h" "$h" >"$tmp/tu"
    for c in "${compilers[@]}"; do
        n=$((n + 1))
        if ! command -v "${c%% *}" >/dev/null 2>&1; then
            echo "ok $n - stpete/$h alone with $c # SKIP ${c%% *} not found (Debian package ${c%% *})"
            continue
        fi
        # shellcheck disable=SC2086 # $c is "compiler flags..."
        if $c "${warn[@]}" -fsyntax-only -I"$src/include" -I"$build/include" "$tmp/tu" >"$tmp/log" 2>&1; then
            echo "ok $n - stpete/$h alone with $c ${warn[*]}"
        else
            echo "not ok $n - stpete/$h alone with $c ${warn[*]}"
            sed 's/^/#   /' "$tmp/log"
            failed=$((failed + 1))
        fi
    done
done
[ "$failed" -eq 0 ]
