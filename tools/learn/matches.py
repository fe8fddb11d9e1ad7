#!/usr/bin/env python3
"""The learned bot's matches (issue 43's targets; doc/learning.md): stpete-arena runs (every seating of the match's
bots, so each holds every seat equally often), with 95% Wilson intervals; a Markdown table, and with --record FILE
the results written into the training record of the weights (lib/bots/bot_value_data.c's comment, lines
"match: ...").

Usage: tools/learn/matches.py --build DIR [--games N] [--only NAME[=GAMES],...] [--jobs J] [--record FILE]

Each match is stpete-arena runs of --chunk games (printed), run k dealing from --seed 1 + k; the arena rounds a
run's games up to a multiple of its seatings (P! for the P bots of a match: 2, 6, 24, 120). "Equal time" matches
give the learned bot the iterations whose CPU time per decision is the default ismcts's (1000 iterations) on the
same positions, as tools/learn/calibrate.py measures it: 3600 at 2 players, 4000 (its default) at 3 and 4, 6000 at
5 with the New Society. The arena's "ms per decision" is wall-clock time, which a shared machine's other programs
inflate. (Until issue 40 removed it, tools/bot-match played these matches, rotating the seats only: the committed
record's matches are its runs.) Standard library only. Exit status 0, or 1 when an arena run fails.
"""
import argparse
import json
import math
import concurrent.futures
import os
import subprocess
import sys
import tempfile

#: name -> (players, new_society, edition, bots (one per seat), what the target is)
MATCHES = {
    "2p-ismcts": (2, False, 1, "learned:iterations=3600,ismcts", ">= 0.65 (95% lower bound > 0.60), equal time"),
    "4p-ismcts": (4, False, 1, "learned,ismcts,ismcts,ismcts", ">= 0.35 per seat, equal time"),
    "5p-ns-ismcts": (5, True, 1, "learned:iterations=6000,ismcts,ismcts,ismcts,ismcts",
                     ">= 0.30 per seat, equal time"),
    "2p-greedy": (2, False, 1, "learned,greedy", ">= 0.995"),
    "3p-ismcts": (3, False, 1, "learned,ismcts,ismcts", "(no target) equal time"),
    "2p-ed2-ismcts": (2, False, 2, "learned:iterations=3600,ismcts", "(no target) equal time"),
    "2p-ns-ismcts": (2, True, 1, "learned:iterations=3600,ismcts", "(no target) equal time"),
}


def wilson(successes, n, z=1.96):
    """The 95% Wilson score interval of a rate."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def commands(build, name, games, learned, chunk, out_dir):
    """The match's stpete-arena runs of `chunk` games each (whole sets of the P! seatings of its P bots; run k deals
    from seed 1 + k), each writing its table to a JSON file in out_dir: [(command, games, json file)]."""
    players, ns, edition, bots, target = MATCHES[name]
    multiple = math.factorial(players)  # the arena's seatings of P distinct bots (a repeated spec is "#2", ...)
    games = -(-games // multiple) * multiple
    chunk = max(multiple, -(-min(chunk or games, games) // multiple) * multiple)
    if learned:
        bots = learned + bots[bots.index(","):]
    out = []
    for k, start in enumerate(range(0, games, chunk)):
        n = min(chunk, games - start)
        table = os.path.join(out_dir, f"{name}-{k}.json")
        out.append(([os.path.join(build, "tools", "stpete-arena"), "--players", str(players), "--games", str(n),
                     "--seed", str(1 + k), "--bots", bots, "--quiet", "--json", table] +
                    (["--new-society"] if ns else []) + (["--edition", "2"] if edition == 2 else []), n, table))
    return out


def shown(cmd):
    return "$ " + " ".join(cmd[0:1] + [repr(a) if "," in a else a for a in cmd[1:]])


def play(cmd, table):
    """Run one arena command; its final table (--json)."""
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"matches.py: {shown(cmd)}: {out.stderr}")
    with open(table, encoding="utf-8") as f:
        return json.load(f)


def summed(name, runs):
    """The results of a match's finished runs [(games, the arena's JSON table)] summed: (games, rows), rows mapping
    each spec (its seats together: the arena names a repeated spec's "ismcts#2", ...) to (rate, low, high, wins, vp,
    ms) as strings; rates and mean VP per seat held, a Wilson interval over the seats held, ms per decision."""
    sums, played = {}, 0
    for n, table in runs:
        played += table["games"] if "games" in table else n
        for bot in table["bots"]:
            t = sums.setdefault(bot["bot"].split("#")[0], [0.0, 0, 0.0, 0, 0.0, 0, 0])
            t[0] += bot["score"] * bot["seats"]
            t[1] += bot["wins"]
            t[2] += (bot["mean_vp"] or 0.0) * bot["seats"]
            t[3] += bot["seats"]
            t[4] += bot["ms_per_decision"] * bot["decisions"]
            t[5] += bot["decisions"]
    rows = {}
    for spec, (shares, wins, vp, held, ms, decisions, _) in sums.items():
        low, high = wilson(shares, held)
        rows[spec] = (f"{shares / held:.3f}", f"{low:.3f}", f"{high:.3f}", str(wins), f"{vp / held:.1f}",
                      f"{ms / max(1, decisions):.2f}")
    return played, rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="a release build folder (its tools/stpete-arena)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--only", help="comma-separated names, each optionally with =GAMES: " + ", ".join(MATCHES))
    ap.add_argument("--jobs", type=int, default=1, help="matches played at the same time (default 1)")
    ap.add_argument("--chunk", type=int, default=0, help="games per arena run (default: all in one), the runs "
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
    table = ["| match | games | bot | win rate per seat (95% interval) | target | mean VP | ms per decision |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    record = []
    out_dir = tempfile.mkdtemp(prefix="stpete-matches-")
    runs = {name: commands(args.build, name, sizes[name], args.learned, args.chunk, out_dir) for name in names}
    done = {name: [] for name in names}
    order = [(name, k) for k in range(max(len(r) for r in runs.values())) for name in names if k < len(runs[name])]
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:  # the matches' runs interleaved
        futures = {pool.submit(play, runs[name][k][0], runs[name][k][2]): (name, k) for name, k in order}
        for future in concurrent.futures.as_completed(futures):
            name, k = futures[future]
            done[name].append((runs[name][k][1], future.result()))
            played, rows = summed(name, done[name])
            print(f"{name}: {played} games: " + "; ".join(f"{s.split(':ms=')[0]} {r[0]} [{r[1]}, {r[2]}]"
                                                       for s, r in rows.items()), flush=True)
    for name in names:
        print("\n".join(shown(cmd) for cmd, _, _ in runs[name]))
        games, rows = summed(name, done[name])
        target = MATCHES[name][4]
        for bot, (rate, low, high, wins, vp, ms) in rows.items():
            table.append(f"| {name} | {games} | `{bot}` | **{rate}** ({low}-{high}) | "
                         f"{target if bot.startswith('learned') else ''} | {vp} | {ms} |")
        learned = next((b for b in rows if b.startswith("learned")), None)
        if learned:
            rate, low, high, wins, vp, ms = rows[learned]
            others = [f"{b} {r[0]} per seat, {r[5]} ms" for b, r in rows.items() if b != learned]
            record.append(f"match: {name}, {games} games (tools/learn/matches.py, stpete-arena, every seating, deals "
                          f"from seeds 1-{len(runs[name])}): {learned} {rate} [{low}, {high}] per seat, {ms} ms per "
                          f"decision (against {'; '.join(others)}); target {target}")
        print("\n".join(table[-len(rows):]), flush=True)
    print("\n".join(table))
    for name in names:
        for _, _, path in runs[name]:
            if os.path.exists(path):
                os.remove(path)
    os.rmdir(out_dir)
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
