"""stpete-arena against hostile bots and forged results files (issue 22): no process of a bot outlives the
tournament (children that stay in the bot's process group, and children that leave it with setsid), an answer with
bytes after its JSON value is a forfeit, and --resume checks every field of every game line against the tournament
(a forged line refused with its line number, the file unchanged; a blank trailing line fine). Prints TAP.

    arena-hostile.py ARENA SOURCE_ROOT"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "include"))  # tap_report.py
from tap_report import report  # noqa: E402  (tests/include/tap_report.py)
from results_file import flat, read_lines, unflat  # noqa: E402  (tests/include/results_file.py)

arena, root = sys.argv[1:3]
py = sys.executable
bot = os.path.join(root, "tests", "arena", "arena-hostile-bot.py")
tmp = tempfile.mkdtemp(prefix="arena-hostile-")
results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))


def run(*args, timeout=120):
    p = subprocess.run([arena, *args], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def game_lines(path):
    """The game lines of a results file ([] when there is none), each its fields, game and record in one dict."""
    if not os.path.exists(path):
        return []
    return read_lines(path)[1:]


def with_marker(marker):
    """The processes whose command line holds ``marker``."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() in f.read().split(b"\0"):
                    found.append(int(pid))
        except OSError:
            pass
    return found


# ---- no process of a bot left behind: its group killed when it ends (also by itself), adopted ones at the end ----
for mode in ("fork", "fork-crash", "fork-setsid"):
    marker = f"stpete-hostile-{mode}-{os.getpid()}-{time.time_ns()}"
    path = os.path.join(tmp, f"{mode}.jsonl")
    rc, stdout, err = run("--games", "4", "--bots", f"cmd:{py} {bot} {mode} {marker},random", "--time-ms", "2000",
                          "--seed", "3", "--out", path, "--quiet")
    games = game_lines(path)
    check(f"{mode}: the tournament finishes (exit 0, 4 games)", rc == 0 and len(games) == 4, err[-300:])
    if mode == "fork-crash":
        check("fork-crash: the bot that exited by itself forfeits (crash)",
              all(g["forfeit"] and g["forfeit"]["reason"] == "crash" for g in games), json.dumps(games)[:300])
    left = []
    for _ in range(20):  # a SIGKILLed process disappears from /proc once reaped: allow a moment
        left = with_marker(marker)
        if not left:
            break
        time.sleep(0.1)
    for pid in left:
        os.kill(pid, 9)
    check(f"{mode}: no child of the bot is left after the tournament", not left, str(left))

def zombie_children(pid):
    """How many children of ``pid`` have ended but are not reaped (zombies)."""
    n = 0
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        n += fields[0] == "Z" and int(fields[1]) == pid
    return n


# the killed members of a bot's group are reaped with it, not kept as zombies of the arena (a subreaper) until the
# end: a bot that forks a child and crashes every game would otherwise leave one zombie per game
marker = f"stpete-hostile-zombies-{os.getpid()}-{time.time_ns()}"
proc = subprocess.Popen([arena, "--games", "8", "--jobs", "1", "--bots", f"cmd:{py} {bot} fork-crash {marker},random",
                         "--time-ms", "2000", "--seed", "3", "--quiet"], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)
most = 0
while proc.poll() is None:
    most = max(most, zombie_children(proc.pid))
    time.sleep(0.02)
check("fork-crash x8: no zombies of the bots' children pile up in the arena (at most 2 at a time)",
      proc.returncode == 0 and most <= 2, f"rc={proc.returncode}, up to {most} zombies")

# ---- bytes after the JSON value of an answer: a forfeit (garbage); spaces are fine ----
for mode, forfeit in (("trailing-nul", True), ("trailing-junk", True), ("trailing-spaces", False)):
    path = os.path.join(tmp, f"{mode}.jsonl")
    rc, stdout, err = run("--games", "2", "--bots", f"cmd:{py} {bot} {mode} -,random", "--seed", "3",
                          "--out", path, "--quiet")
    games = game_lines(path)
    if forfeit:
        check(f"{mode}: every game is a forfeit (garbage, the byte after the JSON value named)",
              rc == 0 and len(games) == 2 and all(g["forfeit"] and g["forfeit"]["reason"] == "garbage" and
                                                  "after the JSON value" in g["forfeit"]["detail"] for g in games),
              json.dumps([g["forfeit"] for g in games])[:400] + err[-200:])
    else:
        check(f"{mode}: answers followed by spaces are fine (no forfeit)",
              rc == 0 and len(games) == 2 and all(g["forfeit"] is None for g in games), err[-300:])

# ---- --resume: every field of a game line checked; a forged line refused with its number, the file unchanged ----
spec = ["--games", "4", "--bots", f"cmd:{py} {bot} plain -,random", "--seed", "5", "--quiet"]
base = os.path.join(tmp, "base.jsonl")
rc, _, err = run(*spec, "--out", base)
with open(base) as f:
    base_lines = f.read().splitlines(keepends=True)
check("resume: the base tournament runs", rc == 0 and len(base_lines) == 5, err[-300:])
forfeit_game = None
crash_spec = ["--games", "4", "--bots", f"cmd:{py} {bot} fork-crash -,random", "--seed", "5", "--quiet",
              "--time-ms", "2000"]
crash = os.path.join(tmp, "crash.jsonl")
rc, _, err = run(*crash_spec, "--out", crash)
with open(crash) as f:
    crash_lines = f.read().splitlines(keepends=True)
check("resume: the forfeit tournament runs", rc == 0 and len(crash_lines) == 5, err[-300:])


def forge(name, edit, lines=base_lines, args=spec, line_no=3, says=""):
    """Apply ``edit`` to the game line ``line_no`` (1-based; 3 = the second game) of a copy, resume it: exit 2, the
    line named (and ``says`` in the message: the rule that refused it), the file byte for byte unchanged. ``edit``
    sees the line flat (results_file.flat(): its fields, game and record in one dict)."""
    path = os.path.join(tmp, "forged.jsonl")
    doc = json.loads(lines[line_no - 1])
    view = flat(doc)
    edit(view)
    text = "".join(lines[:line_no - 1]) + json.dumps(unflat(view, doc)) + "\n" + "".join(lines[line_no:])
    with open(path, "w") as f:
        f.write(text)
    rc, _, err = run(*args, "--out", path, "--resume")
    with open(path) as f:
        after = f.read()
    check(f"resume refuses a forged line: {name} (exit 2, line {line_no} named, file unchanged)",
          rc == 2 and re.search(rf"line {line_no}\b", err) and says in err and after == text, f"rc={rc} {err[-300:]}")


def setter(*keys_value):
    *keys, value = keys_value

    def edit(doc):
        d = doc
        for k in keys[:-1]:
            d = d[k]
        d[keys[-1]] = value(d[keys[-1]]) if callable(value) else value
    return edit


forge("game 10000000000", setter("game", 10000000000))
forge("game -1", setter("game", -1))
forge("game as a string", setter("game", "1"))
forge("game as a float", setter("game", 1.0))
forge("game beyond the run (4 games: 0..3)", setter("game", 4))
forge("deal", setter("deal", 7))
forge("deal_seed", setter("deal_seed", "0000000000000000"))
forge("seating", setter("seating", lambda v: v[::-1]))
forge("seating out of range", setter("seating", [0, 9]))
forge("bots", setter("bots", ["random", "random"]))
forge("actions -5", setter("actions", -5))
forge("actions 10**9", setter("actions", 10 ** 9))
forge("scores beyond the VP bound", setter("result", "scores", lambda v: [10 ** 9, v[1]]))
forge("scores as strings", setter("result", "scores", lambda v: [str(x) for x in v]))
forge("returns 1e300", setter("result", "returns", lambda v: [1e300, v[1]]))
forge("returns -0.5 and 1.5", setter("result", "returns", [-0.5, 1.5]))
forge("returns adding up to 2", setter("result", "returns", [1.0, 1.0]))
forge("returns as strings", setter("result", "returns", ["0.5", "0.5"]))
forge("winners", setter("result", "winners", lambda v: [1 - v[0]] if len(v) == 1 else [0]))
forge("finished", setter("result", "finished", "yes"))


def forfeit_of(seat):
    def edit(doc):
        f = {"seat": seat, "bot": "random", "reason": "crash", "detail": "", "stderr": ""}
        doc["forfeit"] = doc["result"]["forfeit"] = f
    return edit


forge("a forfeit naming seat 7 of a 2-player game", forfeit_of(7))
forge("a forfeit whose returns are not a forfeit's", forfeit_of(1))
forge("forfeit reason", setter("forfeit", "reason", "tired"), lines=crash_lines, args=crash_spec)
forge("forfeit seat -1", setter("forfeit", "seat", -1), lines=crash_lines, args=crash_spec)
forge("forfeit differs from result.forfeit", setter("forfeit", "detail", "other"), lines=crash_lines,
      args=crash_spec)
# consistent forgeries (issue 31): each field well formed, the line against the rules of its game
line3 = flat(json.loads(base_lines[2]))
check("resume: the forged game (line 3) has two different scores and one winner, no forfeit",
      line3["result"]["scores"][0] != line3["result"]["scores"][1] and len(line3["result"]["winners"]) == 1 and
      line3["forfeit"] is None, base_lines[2])


def winner_is_loser(doc):
    loser = 1 - doc["result"]["winners"][0]
    doc["result"]["winners"] = [loser]
    doc["result"]["returns"] = [1.0 if s == loser else 0.0 for s in range(2)]


def shared_win(doc):
    doc["result"]["winners"] = [0, 1]
    doc["result"]["returns"] = [0.5, 0.5]


forge("a winner who is not the top scorer", winner_is_loser, says="winners")
forge("swapped scores", setter("result", "scores", lambda v: v[::-1]), says="scores")
forge("a shared win without a tie", shared_win, says="winners")
forge("actions 1 (decisions [1, 0])", lambda d: (setter("actions", 1)(d), setter("decisions", [1, 0])(d)),
      says="actions")
forge("actions 20 (decisions [10, 10]): fewer than any finished game", lambda d: (setter("actions", 20)(d),
                                                                                   setter("decisions", [10, 10])(d)),
      says="actions")
forge("decisions not adding up to the actions", setter("decisions", lambda v: [v[0] - 1, v[1]]), says="decisions")
forge("finished false without a forfeit", setter("result", "finished", False), says="finished")


def swap_seats(doc):
    """The consistent forgery of issue 46 item 14: two seats' scores, returns and winner swapped, every field
    well formed and the line against the rules of a game (the top scorer wins)."""
    r = doc["result"]
    for key in ("scores", "returns"):
        r[key][0], r[key][1] = r[key][1], r[key][0]
    r["winners"] = [{0: 1, 1: 0}.get(w, w) for w in r["winners"]]


def swap_record_too(doc):
    """The same, and the record's own result swapped alike (its actions unchanged)."""
    swap_seats(doc)
    rec = doc["record"]["result"]
    rec["vp"] = rec["vp"][::-1]
    rec["winners"] = [{0: 1, 1: 0}.get(w, w) for w in rec["winners"]]


def other_action(doc):
    acts = doc["record"]["actions"]
    acts[len(acts) // 2]["id"] = 960


forge("a consistent forgery: two seats' scores, returns and winner swapped (issue 46 item 14)", swap_seats,
      says="scores")
if "record" in line3:
    forge("the same with the record's result swapped too", swap_record_too, says="result")
    forge("an action of the record changed", other_action, says="actions[")
    other_deal = next(json.loads(x)["record"] for x in base_lines[1:] if flat(json.loads(x))["deal"] != line3["deal"])
    forge("another deal's game record under line 3's number", lambda d: d.update(record=other_deal), says="deal_seed")
forge("an unknown key in the line", setter("note", "forged"), says='unknown key "note"')
forge("an unknown key in the result", setter("result", "bonus", 1), says='unknown key "bonus"')
forge("an unknown key in the forfeit", lambda d: (setter("forfeit", "extra", 1)(d), setter("result", "forfeit", "extra", 1)(d)),
      lines=crash_lines, args=crash_spec, says='unknown key "extra"')
forge("a forfeit in a finished game", setter("result", "finished", True), lines=crash_lines, args=crash_spec,
      says="finished")
forge("an unknown key in the header", setter("note", "forged"), line_no=1, says='unknown key "note"')
forge("another definition under this hash", setter("definition", "seed", 6), line_no=1, says="definition")
forge("time_ms negative", setter("time_ms", [-1, 0]))
forge("decisions above the actions", setter("decisions", [10 ** 6, 0]))
forge("an unknown type", setter("type", "gam"))

# a blank trailing line (an editor's) is fine, and the file then completes
for blank in ("\n", "\n\n", "  \n"):
    path = os.path.join(tmp, "blank.jsonl")
    with open(path, "w") as f:
        f.write("".join(base_lines[:3]) + blank)
    rc, _, err = run(*spec, "--out", path, "--resume")
    got = read_lines(path)
    check(f"resume: a blank trailing line {blank!r} is fine (exit 0, the tournament completed)",
          rc == 0 and sorted(g["game"] for g in got[1:]) == [0, 1, 2, 3], f"rc={rc} {err[-300:]}")

shutil.rmtree(tmp, ignore_errors=True)
report(results)
