#!/usr/bin/env bash
# Regenerate the golden replay records and logs (tests/selfplay/golden-check.py compares them byte for byte).
# Run only after a deliberate change of the rules engine, the bots, the log or the replay format, and say why in
# the commit message:  bash tests/selfplay/golden/update.sh build
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
# First edition: replay-Np.*; the second-edition preset (rules §11): replay-Np-ed2.*.
for n in 2 3 4; do
    for ed in 1 2; do
        name=replay-${n}p$([ "$ed" = 2 ] && echo -ed2 || true)
        "$build/examples/stpete-selfplay" --players "$n" --edition "$ed" --seed 1 --record "$here/$name.json" >/dev/null
        (cd "$here" && "$build/examples/stpete-replay" "$name.json") >"$here/$name.log"
    done
done
