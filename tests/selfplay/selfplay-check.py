"""stpete-selfplay, the README's main job: a complete readable game for 2, 3 and 4 players, reproducible from its
seed, and the many-games summary. Prints TAP."""
import re
import subprocess
import sys

exe = sys.argv[1]
results = []


def check(name, ok):
    results.append((name, ok))


def run(*args):
    p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout


for players in (2, 3, 4):
    rc, log = run("--players", str(players), "--seed", "7")
    check(f"{players} players: exit 0", rc == 0)
    for section in ("worker phase", "building phase", "aristocrat phase", "trading phase",
                    "worker scoring", "building scoring", "aristocrat scoring", "dealt from the"):
        check(f"{players} players: log has '{section}'", section in log)
    check(f"{players} players: actions with prices", re.search(r"buys .* for \d+ R \(\d+ R left\)", log) is not None)
    finals = re.findall(r"^final scoring, seat (\d): (-?\d+) VP \+ (\d+) \(aristocrats: \d+ different\) \+ (\d+) "
                        r"\(\d+ R\) ([+-]\d+) \(\d+ hand cards?\) = (-?\d+) VP", log, re.M)
    check(f"{players} players: one final scoring line per seat", sorted(int(f[0]) for f in finals) == list(range(players)))
    check(f"{players} players: breakdowns add up",
          all(int(a) + int(b) + int(c) + int(d) == int(t) for _, a, b, c, d, t in finals))
    winners = re.search(r"^winners?( \(shared\))?:((?: seat \d)+)$", log, re.M)
    check(f"{players} players: winner line", winners is not None)
    if winners and finals:
        best = max(int(f[5]) for f in finals)
        named = [int(x) for x in re.findall(r"\d", winners.group(2))]
        check(f"{players} players: winners have the most VP", all(int(finals[s][5]) == best for s in
                                                                   range(len(finals)) if int(finals[s][0]) in named))
    rc2, log2 = run("--players", str(players), "--seed", "7")
    check(f"{players} players: same seed, same game", rc2 == 0 and log2 == log)

rc, summary = run("--players", "3", "--games", "40", "--seed", "1", "--bots", "greedy,random,random")
check("summary: exit 0", rc == 0)
check("summary: games", "games: 40 (3 players" in summary)
check("summary: mean moves", re.search(r"mean moves per game: \d+\.\d", summary) is not None)
check("summary: mean winning score", re.search(r"mean winning score: \d+\.\d+ VP", summary) is not None)
wins = [int(w) for w in re.findall(r"^wins seat \d \([^)]+\): (\d+)", summary, re.M)]
check("summary: wins per seat", len(wins) == 3 and 40 <= sum(wins) <= 40 * 3)
p = subprocess.run([exe, "--players", "5"], capture_output=True, text=True, timeout=120)
check("--players 5 without the expansion: refused, the reason names --new-society (issue 45)",
      p.returncode == 2 and not p.stdout and "5 players need the New Society (--new-society, §12.0, R17)" in p.stderr)
p = subprocess.run([exe, "--players", "5", "--option", "new_society=true", "--option", "markers_one_seat=true",
                    "--games", "2", "--quiet"], capture_output=True, text=True, timeout=120)
check("--option NAME=VALUE: any option of the library's table (issue 42)",
      p.returncode == 0 and "games: 2 (5 players, New Society" in p.stdout)
rc, _ = run("--bots", "clever")
check("bad --bots refused", rc == 2)

# The library's bots by their specs (issue 13): search bots play, reproducibly with iteration budgets.
specs = "ismcts:iterations=30:depth=6,mc:iterations=20:depth=6:playout=greedy"
rc, summary = run("--players", "2", "--games", "2", "--seed", "3", "--bots", specs)
rc2, summary2 = run("--players", "2", "--games", "2", "--seed", "3", "--bots", specs)
check("search bots: exit 0", rc == 0 and "wins seat 0 (ismcts:iterations=30:depth=6)" in summary)
check("search bots: same seed, same games", rc2 == 0 and summary2 == summary)
# The search bots' games themselves (issue 35): a faster search makes the same choices. Digests of 1.1.0's
# bots (uniform and greedy playouts, cut-offs, the expansion, 3 seats with hidden rubles in the determinizations).
for args, digest in [
        (("--players", "3", "--bots", "ismcts:iterations=60,mc:iterations=40"), "87f79e6c82d793a8"),
        (("--players", "3", "--bots", "ismcts:iterations=40:depth=8:playout=greedy,mc:iterations=20:depth=5"),
         "c4089294212b6ee1"),
        (("--new-society", "--players", "3", "--bots", "ismcts:iterations=40,mc:iterations=30,random"),
         "cec560594ca04936")]:
    rc, summary = run(*args, "--games", "2", "--seed", "4")
    check(f"search bots' games unchanged: {' '.join(args)}", rc == 0 and f"digest: {digest}" in summary)
p = subprocess.run([exe, "--bots", "ismcts:c=-1"], capture_output=True, text=True, timeout=120)
check("a bad bot spec is refused with the library's message",
      p.returncode == 2 and "bad value '-1' for c" in p.stderr)

# The New Society and five players (issue 30, §12): a logged 5-player game names the new cards and the gold disc,
# a summary of several games is reproducible, and the expansion refuses edition 2.
rc, log = run("--new-society", "--players", "5", "--seed", "3", "--bots", "greedy,random")
check("--new-society --players 5: a whole game, the gold disc and the expansion's names in the log",
      rc == 0 and "holds the gold disc: +2 R and +2 VP" in log and "move two seats" in log and "?" not in log
      and "winner" in log)
rc, summary = run("--new-society", "--players", "3", "--games", "6", "--seed", "2", "--bots", "random")
rc2, summary2 = run("--new-society", "--players", "3", "--games", "6", "--seed", "2", "--bots", "random")
check("--new-society: a summary, the same twice", rc == 0 and "New Society" in summary and summary == summary2)
rc, _ = run("--new-society", "--edition", "2")
check("--new-society with --edition 2 refused", rc == 2)

print(f"1..{len(results)}")
for i, (name, ok) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
sys.exit(0 if all(ok for _, ok in results) else 1)
