"""The external bot written from doc/protocol.md alone (tests/protocol-doc-bot.py) plays tournaments without a
forfeit: protocol version 2 (the seed as a string) and version 1 (the arena still speaks it to a bot that asks),
both editions (the second edition's buy-only first worker phase has no pass), 2-4 players. TAP output.

Usage: protocol-check.py STPETE-ARENA SOURCE-ROOT"""
import json
import os
import subprocess
import sys
import tempfile

from tap_report import report  # tests/tap_report.py

results = []  # (name, ok, detail), reported at the end


def check(name, ok, detail=""):
    results.append((name, ok, detail))

arena, root = sys.argv[1], sys.argv[2]
bot = os.path.join(root, "tests", "protocol-doc-bot.py")
py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

with tempfile.TemporaryDirectory() as tmp:
    for version, players, edition in ((2, 2, 1), (2, 3, 2), (2, 4, 1), (1, 2, 2)):
        out = os.path.join(tmp, f"v{version}-{players}p-ed{edition}.jsonl")
        p = subprocess.run([arena, "--players", str(players), "--edition", str(edition), "--games", "12", "--seed",
                            str(7 + players), "--quiet", "--out", out, "--bots",
                            f"cmd:{py} {bot} {version},random,greedy"],
                           capture_output=True, text=True, timeout=240)
        lines = [json.loads(x) for x in open(out)] if os.path.exists(out) else []
        games = [x for x in lines if x.get("type") == "game"]
        forfeits = [x["forfeit"] for x in games if x["forfeit"]]
        name = f"protocol {version}, {players} players, edition {edition}"
        check(f"{name}: the tournament finishes", p.returncode == 0 and len(games) >= 12, p.stderr)
        check(f"{name}: no forfeit, every game played to its end",
              not forfeits and all(x["result"]["finished"] for x in games), json.dumps(forfeits)[:1500])
        check(f"{name}: nothing reported on the terminal", "forfeits:" not in p.stderr, p.stderr)
report(results)
