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


def commands(build, name, games, learned, chunk):
    """The match's bot-match runs of `chunk` games each (whole rotations of the seats; run k starts at deal
    1 + k * chunk / players, so the runs play the deals of one run of all the games): [(command, games)]."""
    players, ns, edition, bots, multiple, target = MATCHES[name]
    games = -(-games // multiple) * multiple
    chunk = max(multiple, -(-min(chunk or games, games) // multiple) * multiple)
    if learned:
        bots = learned + bots[bots.index(","):]
    out = []
    for start in range(0, games, chunk):
        n = min(chunk, games - start)
        out.append(([os.path.join(build, "tools", "bot-match"), "--players", str(players), "--games", str(n),
                     "--seed", str(1 + start // players), "--bots", bots, "--quiet"] +
                    (["--new-society"] if ns else []) + (["--edition", "2"] if edition == 2 else []), n))
    return out


def shown(cmd):
    return "$ " + " ".join(cmd[0:1] + [repr(a) if "," in a else a for a in cmd[1:]])


def play(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"matches.py: {shown(cmd)}: {out.stderr}")
    return out.stdout


def summed(name, runs):
    """The results of a match's finished runs [(games, bot-match's output)] summed: (games, rows), rows mapping each
    spec to (rate, low, high, wins, vp, ms, its) as strings; rates per seat held, a Wilson interval over the seats
    held (the games, for a bot that holds one seat)."""
    players, _, _, bots, _, _ = MATCHES[name]
    sums, played = {}, 0
    for n, stdout in runs:
        played += n
        for m in LINE.finditer(stdout):
            spec = m.group(1)
            rate, _, _, wins, vp, ms, its = (float(v) for v in m.groups()[1:])
            entries = [e.split(":")[0] for e in bots.split(",")]
            seats = sum(1 for s in range(players) if entries[s % len(entries)] == spec.split(":")[0])
            t = sums.setdefault(spec, [0.0, 0, 0.0, 0.0, 0.0, 0])
            t[0] += rate * n * seats
            t[1] += int(wins)
            t[2] += vp * n * seats
            t[3] += ms * n
            t[4] += its * n
            t[5] += n * seats
    rows = {}
    for spec, (shares, wins, vp, ms, its, held) in sums.items():
        low, high = wilson(shares, held)
        rows[spec] = (f"{shares / held:.3f}", f"{low:.3f}", f"{high:.3f}", str(wins), f"{vp / held:.1f}",
                      f"{ms / played:.2f}", f"{its / played:.0f}")
    return played, rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="a release build folder (its tools/bot-match)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--only", help="comma-separated names, each optionally with =GAMES: " + ", ".join(MATCHES))
    ap.add_argument("--jobs", type=int, default=1, help="matches played at the same time (default 1)")
    ap.add_argument("--chunk", type=int, default=0, help="games per bot-match run (default: all in one), the runs "
                                                          "played --jobs at a time; the sums are printed after each")
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
    runs = {name: commands(args.build, name, sizes[name], args.learned, args.chunk) for name in names}
    done = {name: [] for name in names}
    order = [(name, k) for k in range(max(len(r) for r in runs.values())) for name in names if k < len(runs[name])]
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:  # the matches' runs interleaved
        futures = {pool.submit(play, runs[name][k][0]): (name, k) for name, k in order}
        for future in concurrent.futures.as_completed(futures):
            name, k = futures[future]
            done[name].append((runs[name][k][1], future.result()))
            played, rows = summed(name, done[name])
            print(f"{name}: {played} games: " + "; ".join(f"{s.split(':ms=')[0]} {r[0]} [{r[1]}, {r[2]}]"
                                                       for s, r in rows.items()), flush=True)
    for name in names:
        print("\n".join(shown(cmd) for cmd, _ in runs[name]))
        games, rows = summed(name, done[name])
        target = MATCHES[name][5]
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
