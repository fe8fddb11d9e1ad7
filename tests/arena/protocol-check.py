"""The external bot written from doc/protocol.md alone (tests/arena/protocol-doc-bot.py) plays tournaments without a
forfeit: protocol version 2 (the seed as a string) and version 1 (the arena still speaks it to a bot that asks),
both editions (the second edition's buy-only first worker phase has no pass), 2-4 players, and the New Society
(§12) at 3 and 5 players, its prison, guild-hall and trading-house decisions among the requests; every legal
action's structured form checked by the bot, and each of the 15 action kinds listed in some request. TAP output.

Usage: protocol-check.py STPETE-ARENA SOURCE-ROOT"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "include"))  # tap_report.py
from tap_report import report  # noqa: E402  (tests/include/tap_report.py)
from results_file import read_lines  # noqa: E402  (tests/include/results_file.py)

results = []  # (name, ok, detail), reported at the end


def check(name, ok, detail=""):
    results.append((name, ok, detail))

arena, root = sys.argv[1], sys.argv[2]
bot = os.path.join(root, "tests", "arena", "protocol-doc-bot.py")
py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

kinds_listed = set()
with tempfile.TemporaryDirectory() as tmp:
    for version, players, edition, ns in ((2, 2, 1, 0), (2, 3, 2, 0), (2, 4, 1, 0), (1, 2, 2, 0), (2, 3, 1, 1),
                                          (2, 5, 1, 1)):
        out = os.path.join(tmp, f"v{version}-{players}p-ed{edition}-ns{ns}.jsonl")
        p = subprocess.run([arena, "--players", str(players), "--edition", str(edition), "--games", "40" if ns else "12", "--seed",
                            str(7 + players), "--quiet", "--out", out, "--bots",
                            f"cmd:{py} {bot} {version},random,greedy"] + (["--new-society"] if ns else []),
                           capture_output=True, text=True, timeout=240,
                           env=dict(os.environ, PROTOCOL_DOC_BOT_LOG=os.path.join(tmp, "decisions")))
        lines = read_lines(out) if os.path.exists(out) else []
        games = [x for x in lines if "game" in x]
        forfeits = [x["forfeit"] for x in games if x["forfeit"]]
        name = f"protocol {version}, {players} players, edition {edition}" + (", New Society" if ns else "")
        check(f"{name}: the tournament finishes", p.returncode == 0 and len(games) >= 12, p.stderr)
        check(f"{name}: no forfeit, every game played to its end",
              not forfeits and all(x["result"]["finished"] for x in games), json.dumps(forfeits)[:1500])
        check(f"{name}: nothing reported on the terminal", "forfeits:" not in p.stderr, p.stderr)
        log = os.path.join(tmp, "decisions")
        seen = set(open(log).read().split()) if os.path.exists(log) else set()
        kinds_listed |= {int(w[len("kind-"):]) for w in seen if w.startswith("kind-")}
        if os.path.exists(log):
            os.remove(log)
        # the New Society's decisions reach the bot (§12.7.5-§12.7.7), and never without it
        ns_kinds = {"prison", "guild-hall", "trading-house"}
        check(f"{name}: the bot decided " + ("the New Society's prison, guild-hall and trading-house" if ns
                                             else "no decision of the New Society"),
              (ns_kinds <= seen) if ns else not (ns_kinds & seen), f"decisions seen: {sorted(seen)}")
check("every action kind (stpete_action_kind 0-14) was listed with its structure in some request",
      kinds_listed == set(range(15)), f"kinds listed: {sorted(kinds_listed)}")
report(results)
