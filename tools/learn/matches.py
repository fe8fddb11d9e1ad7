#!/usr/bin/env python3
"""The learned bot's matches (issue 43's targets; doc/learning.md): tools/bot-match runs, seats rotated, with 95%
Wilson intervals; a Markdown table, and with --record FILE the results written into the training record of the
weights (lib/bots/bot_value_data.c's comment, lines "match: ...").

Usage: tools/learn/matches.py --build DIR [--games N] [--only NAME[=GAMES],...] [--jobs J] [--record FILE]

Each match is one bot-match command (printed); "equal time" matches give the learned bot the iterations whose CPU
time per decision is the default ismcts's (1000 iterations) on the same positions, as tools/learn/calibrate.py
measures it: 3600 at 2 players, 4000 (its default) at 3 and 4, 6000 at 5 with the New Society. bot-match's "ms per
decision" is wall-clock time, which a shared machine's other programs inflate. Standard
library only. Exit status 0, or 1 when a bot-match run fails.
"""
import argparse
import math
import concurrent.futures
import os
import re
import subprocess
import sys

#: name -> (players, new_society, edition, bots, games multiple, what the target is)
MATCHES = {
    "2p-ismcts": (2, False, 1, "learned:iterations=3600,ismcts", 2, ">= 0.65 (95% lower bound > 0.60), equal time"),
    "4p-ismcts": (4, False, 1, "learned,ismcts,ismcts,ismcts", 4, ">= 0.35 per seat, equal time"),
    "5p-ns-ismcts": (5, True, 1, "learned:iterations=6000,ismcts,ismcts,ismcts,ismcts", 5,
                     ">= 0.30 per seat, equal time"),
    "2p-greedy": (2, False, 1, "learned,greedy", 2, ">= 0.995"),
    "3p-ismcts": (3, False, 1, "learned,ismcts,ismcts", 3, "(no target) equal time"),
    "2p-ed2-ismcts": (2, False, 2, "learned:iterations=3600,ismcts", 2, "(no target) equal time"),
    "2p-ns-ismcts": (2, True, 1, "learned:iterations=3600,ismcts", 2, "(no target) equal time"),
}
LINE = re.compile(r"^  (\S+)\n    win rate per seat ([\d.]+) \[([\d.]+), ([\d.]+)\].*?wins (\d+), mean VP ([-\d.]+), "
                  r"([\d.]+) ms and (\d+) iterations per decision", re.M)


def wilson(successes, n, z=1.96):
    """The 95% Wilson score interval of a rate (bot-match's)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def run(build, name, games, learned, chunk, log):
    """The match, in bot-match runs of `chunk` games (whole rotations of the seats; run k starts at deal 1 + k *
    chunk / players, so the runs play the deals of one run of all the games), its results summed after each run.
    Returns (commands, games played, target, rows): rows maps each spec to (rate, low, high, wins, vp, ms, its)."""
    players, ns, edition, bots, multiple, target = MATCHES[name]
    games = -(-games // multiple) * multiple
    chunk = max(multiple, -(-min(chunk or games, games) // multiple) * multiple)
    if learned:
        bots = learned + bots[bots.index(","):]
    seats_of = {}
    sums, cmds, played = {}, [], 0
    while played < games:
        n = min(chunk, games - played)
        cmd = [os.path.join(build, "tools", "bot-match"), "--players", str(players), "--games", str(n), "--seed",
               str(1 + played // players), "--bots", bots, "--quiet"] + (["--new-society"] if ns else []) + \
              (["--edition", "2"] if edition == 2 else [])
        out = subprocess.run(cmd, capture_output=True, text=True)
        shown = "$ " + " ".join(cmd[0:1] + [repr(a) if "," in a else a for a in cmd[1:]])
        if out.returncode != 0:
            sys.exit(f"matches.py: {shown}: {out.stderr}")
        cmds.append(shown)
        for m in LINE.finditer(out.stdout):
            spec = m.group(1)
            rate, _, _, wins, vp, ms, its = (float(v) for v in m.groups()[1:])
            if spec not in seats_of:  # seats per game: its entries in the list (repeated over the seats)
                entries = bots.split(",")
                canon = [e.split(":")[0] for e in entries]
                seats_of[spec] = sum(1 for s in range(players) if canon[s % len(entries)] == spec.split(":")[0])
            held = n * seats_of[spec]
            t = sums.setdefault(spec, [0.0, 0, 0.0, 0.0, 0.0, 0.0, 0])
            t[0] += rate * held
            t[1] += int(wins)
            t[2] += vp * held
            t[3] += ms * n
            t[4] += its * n
            t[6] += held
        played += n
        rows = {}
        for spec, (shares, wins, vp, ms, its, _, held) in sums.items():
            low, high = wilson(shares, held)
            rows[spec] = (f"{shares / held:.3f}", f"{low:.3f}", f"{high:.3f}", str(wins), f"{vp / held:.1f}",
                          f"{ms / played:.2f}", f"{its / played:.0f}")
        log(f"{name}: {played}/{games} games: " + "; ".join(f"{s.split(':ms=')[0]} {r[0]} [{r[1]}, {r[2]}]"
                                                          for s, r in rows.items()))
    return cmds, played, target, rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="a release build folder (its tools/bot-match)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--only", help="comma-separated names, each optionally with =GAMES: " + ", ".join(MATCHES))
    ap.add_argument("--jobs", type=int, default=1, help="matches played at the same time (default 1)")
    ap.add_argument("--chunk", type=int, default=0, help="games per bot-match run (default: all in one); the sums are "
                                                          "printed after each run")
    ap.add_argument("--learned", help="the learned bot's spec instead of the match's")
    ap.add_argument("--record", help="write the results into this weights file's training record")
    args = ap.parse_args(argv)
    names, sizes = [], {}
    for item in (args.only.split(",") if args.only else list(MATCHES)):
        name, _, n = item.partition("=")
        if name not in MATCHES or (n and not n.isdigit()):
            ap.error(f"unknown match {item!r} (names: {', '.join(MATCHES)}; NAME=GAMES)")
        names.append(name)
        sizes[name] = int(n) if n else args.games
    table = ["| match | games | bot | win rate per seat (95% interval) | target | mean VP | ms per decision | "
             "iterations per decision |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    record = []
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(lambda n: run(args.build, n, sizes[n], args.learned, args.chunk,
                                              lambda text: print(text, flush=True)), names))
    for name, (cmds, games, target, rows) in zip(names, results):
        print("\n".join(cmds))
        for bot, (rate, low, high, wins, vp, ms, its) in rows.items():
            table.append(f"| {name} | {games} | `{bot}` | **{rate}** ({low}-{high}) | "
                         f"{target if bot.startswith('learned') else ''} | {vp} | {ms} | {its} |")
        learned = next((b for b in rows if b.startswith("learned")), None)
        if learned:
            rate, low, high, wins, vp, ms, its = rows[learned]
            others = [f"{b.split(':')[0]} {r[5]} ms" for b, r in rows.items() if b != learned]
            record.append(f"match: {name}, {games} games (matches.py, seats rotated, deals from seed 1): {learned.split(':ms=')[0]} "
                          f"{rate} [{low}, {high}] per seat; {ms} ms, {its} iterations per decision "
                          f"(against {', '.join(others)})")
        print("\n".join(table[-len(rows):]), flush=True)
    print("\n".join(table))
    if args.record:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import export
        nets, old = export.read_c(args.record)
        rerun = tuple(f"match: {name}," for name in names)
        export.write_c(args.record, nets, [line for line in old if line and not line.startswith(rerun)] + record)
        print(f"wrote the results into {args.record}'s record")
    return 0


if __name__ == "__main__":
    sys.exit(main())
