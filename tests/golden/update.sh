#!/usr/bin/env bash
# Regenerate the golden replay records and logs (tests/golden-check.py compares them byte for byte).
# Run only after a deliberate change of the rules engine, the bots, the log or the replay format, and say why in
# the commit message:  bash tests/golden/update.sh build
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
for n in 2 3 4; do
    "$build/examples/stpete-selfplay" --players "$n" --seed 1 --record "$here/replay-${n}p.json" >/dev/null
    "$build/examples/stpete-replay" "$here/replay-${n}p.json" | sed "s|$here/||" >"$here/replay-${n}p.log"
done
