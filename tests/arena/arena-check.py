"""stpete-arena (issue 13): legality over thousands of games, determinism, every protocol failure ending in the
documented forfeit and a finished tournament, resume after kill -9, bad specs, records, the example bots and
--bench. Prints TAP.

    arena-check.py ARENA REPLAY SOURCE_ROOT [BINDING_DIR LIBRARY]

The external bots run with this interpreter (sys.executable). python_bot.py needs the binding: it is played
only when BINDING_DIR and LIBRARY are given (builds whose library Python can load)."""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "include"))  # tap_report.py
from tap_report import report  # noqa: E402  (tests/include/tap_report.py)
from results_file import flat, read_lines, unflat  # noqa: E402  (tests/include/results_file.py)

arena, replay, root = sys.argv[1:4]
binding = sys.argv[4:6]
py = sys.executable
bad_bot = os.path.join(root, "tests", "arena", "arena-bad-bot.py")
minimal_bot = os.path.join(root, "examples", "bots", "minimal_bot.py")
python_bot = os.path.join(root, "examples", "bots", "python_bot.py")
tmp = tempfile.mkdtemp(prefix="arena-check-")
results = []


timings = []
_t0 = [time.time()]


def section(name):
    """Note how long the previous section took (printed as TAP comments at the end)."""
    now = time.time()
    timings.append((name, now - _t0[0]))
    _t0[0] = now


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))


def run(*args, env=None, timeout=300):
    p = subprocess.run([arena, *args], capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def lines(path):
    """The header and the game lines (each its fields, game and record in one dict) of a results file."""
    return read_lines(path)


def games_of(path, strip_time=True):
    """The game lines of a results file, by game number, without the timings (which vary from run to run)."""
    out = {}
    for d in lines(path)[1:]:
        if strip_time:
            d.pop("time_ms", None)
        out[d["game"]] = d
    return out


def cmdline(pid):
    """The command line of a process, b"" for one that is gone (or not a process)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def out(name):
    path = os.path.join(tmp, name)
    if os.path.exists(path):
        os.remove(path)
    return path


# ---- legality over thousands of games: the arena applies every choice and stops (exit 1) on an illegal one ----
for players, games, bots in ((2, 1600, "random,greedy"), (3, 600, "random,greedy,random"), (4, 480, "random,greedy")):
    path = out(f"legal{players}.jsonl")
    rc, stdout, err = run("--players", str(players), "--games", str(games), "--bots", bots, "--jobs", "2",
                          "--seed", "11", "--out", path, "--quiet")
    g = games_of(path) if os.path.exists(path) else {}
    check(f"legality {players}p: exit 0", rc == 0, err[-300:])
    check(f"legality {players}p: {games} games, each played to the end",
          sorted(g) == list(range(games)) and all(d["result"]["finished"] and not d["forfeit"] and d["actions"] > 0
                                                  for d in g.values()))
    check(f"legality {players}p: returns add up to 1 and winners have the most VP",
          all(abs(sum(d["result"]["returns"]) - 1) < 1e-9 and
              all(d["result"]["scores"][w] == max(d["result"]["scores"]) for w in d["result"]["winners"]) for d in g.values()))
    # every seating equally often, and each deal under every seating
    seatings = {}
    for d in g.values():
        seatings.setdefault(tuple(d["seating"]), []).append(d["deal"])
    counts = {len(v) for v in seatings.values()}
    check(f"legality {players}p: every seating equally often, every deal under every seating",
          len(counts) == 1 and all(sorted(v) == sorted(next(iter(seatings.values()))) for v in seatings.values()),
          str({k: len(v) for k, v in seatings.items()}))
    if players == 2:
        greedy_score = [r for r in stdout.splitlines() if " greedy " in r]
        check("legality 2p: the table names greedy with its score", greedy_score, stdout[:400])

section("legality")
# ---- determinism: same seed, same results (jobs 1 and 2), with an external bot; another seed differs ----
det = []
for jobs in ("1", "2", "1"):
    path = out(f"det{len(det)}.jsonl")
    rc, stdout, err = run("--players", "3", "--games", "6", "--seed", "5", "--jobs", jobs, "--quiet", "--bots",
                          f"mc:iterations=6:depth=8,greedy,cmd:{py} {minimal_bot}", "--out", path,
                          "--json", path + ".summary")
    det.append((rc, games_of(path), stdout, open(path).read().splitlines()[0]))
check("determinism: exit 0", all(d[0] == 0 for d in det))
check("determinism: same seed, same results with --jobs 1 and 2", det[0][1] == det[1][1] == det[2][1])
check("determinism: same table", det[0][2] == det[1][2] == det[2][2])
check("determinism: byte-identical files apart from the timings (jobs 1, two runs)",
      [json.dumps(det[0][1][k]) for k in sorted(det[0][1])] == [json.dumps(det[2][1][k]) for k in sorted(det[2][1])])
summary = json.load(open(os.path.join(tmp, "det0.jsonl.summary")))
check("--json: the summary has the bots, ratings with intervals and the crosstable",
      len(summary["bots"]) == 3 and summary["games"] == 6 and
      all(b["elo_low"] <= b["elo"] <= b["elo_high"] for b in summary["bots"]) and len(summary["crosstable"]) == 3)
path = out("det-other.jsonl")
run("--players", "3", "--games", "6", "--seed", "6", "--quiet", "--bots",
    f"mc:iterations=6:depth=8,greedy,cmd:{py} {minimal_bot}", "--out", path)
check("determinism: another seed, other games", games_of(path) != det[0][1])

section("determinism")
# ---- every protocol failure: the documented forfeit, the bot restarted, the tournament finished ----
expect = {
    "crash": ("crash", "exited with status 3"),
    "hang": ("timeout", "no answer within 300 ms"),
    "garbage": ("garbage", "I think I will take the Market"),
    "illegal": ("illegal", "is not legal"),
    "unknown": ("illegal", "'fly to the moon' is not an action"),
    "wrong-request": ("garbage", "is for request"),
    "slow-start": ("start-timeout", "no hello within the start time limit"),
    "bad-hello": ("handshake", "protocol 99, not 1 to 2"),
}
for mode, (reason, detail) in expect.items():
    path = out(f"bad-{mode}.jsonl")
    games = "2" if mode in ("slow-start", "bad-hello") else "4"
    rec_f = os.path.join(tmp, f"records-{mode}")
    rc, stdout, err = run("--games", games, "--bots", f"cmd:{py} {bad_bot} {mode},random", "--time-ms", "300",
                          "--start-ms", "1000", "--seed", "3", "--out", path, "--quiet", "--record", rec_f,
                          timeout=120)
    g = games_of(path) if os.path.exists(path) else {}
    check(f"{mode}: the tournament finishes (exit 0, every game has a result)",
          rc == 0 and sorted(g) == list(range(int(games))), err[-300:])
    bad = [k for k in g if mode in ("slow-start", "bad-hello") or (k // 2) % 2 == 0]
    good = [k for k in g if k not in bad]
    ok = True
    for k in bad:
        d, seat = g[k], g[k]["seating"].index(0)
        f = d["forfeit"]
        ok = ok and f is not None and f["seat"] == seat and f["reason"] == reason and detail in f["detail"]
        ok = ok and d["result"]["returns"][seat] == 0 and d["result"]["returns"][1 - seat] == 1
        ok = ok and d["result"]["winners"] == [1 - seat] and d["result"]["forfeit"] == f
        if mode not in ("slow-start", "bad-hello"):
            ok = ok and f"misbehaving ({mode}) in game {k}" in f["stderr"]
    check(f"{mode}: forfeits as documented (reason {reason}, return 0, the other seat wins, stderr tail)", ok,
          json.dumps([g[k]["forfeit"] for k in bad])[:600])
    check(f"{mode}: each forfeit's reason and detail on the terminal (stderr) too, not only in --out",
          all(f"game {k}: seat {g[k]['seating'].index(0)} (" in err for k in bad) and f"forfeits: {reason}: " in err
          and detail in err, err[-400:])
    check(f"{mode}: restarted, the bot plays its other games to the end",
          all(g[k]["forfeit"] is None and g[k]["result"]["finished"] for k in good))
    check(f"{mode}: the table counts the forfeits", f"forfeits: {len(bad)} game" in stdout, stdout[:300])
    if mode == "crash":
        p = subprocess.run([replay, os.path.join(rec_f, "game-000000.json")], capture_output=True, text=True,
                           timeout=60)
        check("crash: the record of a forfeited game verifies and stops where the forfeit came",
              p.returncode == 0 and "the record ends before the game is over" in p.stdout, p.stdout[-300:] + p.stderr)
    if mode in ("hang", "slow-start"):
        left = [pid for pid in (os.listdir("/proc") if os.path.isdir("/proc") else [])
                if f"arena-bad-bot.py\0{mode}".encode() in cmdline(pid)]
        check(f"{mode}: the sleeping bots were killed, none is left", not left, str(left))

section("failures")
# ---- resume after kill -9: nothing lost or duplicated, the same results as an uninterrupted run ----
spec = ["--players", "2", "--games", "16", "--seed", "9", "--bots", f"greedy,cmd:{py} {bad_bot} slow", "--jobs", "2"]
full = out("full.jsonl")
rc, full_stdout, _ = run(*spec, "--out", full, "--quiet")
killed = out("killed.jsonl")
p = subprocess.Popen([arena, *spec, "--out", killed, "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.time() + 120
while time.time() < deadline and p.poll() is None:
    if os.path.exists(killed) and sum(1 for _ in open(killed)) >= 5:
        break
    time.sleep(0.01)
p.send_signal(signal.SIGKILL)
p.wait()
before = games_of(killed)
check("resume: the kill came midway", 4 <= len(before) < 16, str(len(before)))
rc2, stdout2, err2 = run(*spec, "--out", killed, "--resume")
after = lines(killed)
numbers = [d["game"] for d in after[1:]]
check("resume: exit 0", rc2 == 0, err2[-300:])
check("resume: it says what is left", f"{len(before)} games in" in err2, err2[:300])
check("resume: no game lost or duplicated", sorted(numbers) == list(range(16)), str(sorted(numbers)))
check("resume: the games kept are untouched", all(games_of(killed)[k] == v for k, v in before.items()))
check("resume: the results equal the uninterrupted run's", games_of(killed) == games_of(full))
check("resume: the same table", stdout2 == full_stdout, stdout2 + "\n---\n" + full_stdout)
rc3, _, err3 = run(*spec, "--out", killed, "--resume")
check("resume: a finished tournament plays nothing more", rc3 == 0 and len(lines(killed)) == 17 and
      "0 of 16 to play" in err3, err3[:200])
rc4, _, err4 = run(*spec[:5], "10", *spec[6:], "--out", killed, "--resume")
check("resume: another tournament's file is refused (exit 2)", rc4 == 2 and "another tournament" in err4, err4)
rc5, _, err5 = run(*spec, "--out", killed)
check("an existing results file is not overwritten without --resume (exit 2)", rc5 == 2 and "--resume" in err5,
      err5)
with open(killed, "a") as f:
    f.write('{"type":"game","hash":"')  # a line cut short by a kill
rc6, _, err6 = run(*spec[:3], "20", *spec[4:], "--out", killed, "--resume", "--quiet")
check("resume: a cut line is dropped, and --games can grow", rc6 == 0 and "incomplete" in err6 and
      sorted(d["game"] for d in lines(killed)[1:]) == list(range(20)), err6[:300])

# ---- a consistent forgery (issue 46 item 14): two seats' scores, returns and winner swapped, every field well
# formed and the top scorer the winner; the line's record (its actions) proves the real result: refused ----
forged_spec = ["--players", "3", "--games", "12", "--seed", "5", "--bots", "random,greedy,mc:iterations=20", "--jobs",
               "2", "--quiet"]
honest = out("honest.jsonl")
rc, _, err = run(*forged_spec, "--out", honest)
with open(honest) as f:
    text = f.read().splitlines(keepends=True)
k = next(i for i, x in enumerate(text) if i > 0 and flat(json.loads(x))["result"]["winners"][:1] in ([0], [1]))
doc = json.loads(text[k])
view = flat(doc)
for key in ("scores", "returns"):
    view["result"][key][0], view["result"][key][1] = view["result"][key][1], view["result"][key][0]
view["result"]["winners"] = [{0: 1, 1: 0}.get(w, w) for w in view["result"]["winners"]]
forged_text = "".join(text[:k]) + json.dumps(unflat(view, doc)) + "\n" + "".join(text[k + 1:])
forged = out("forged.jsonl")
with open(forged, "w") as f:
    f.write(forged_text)
rc2, _, err2 = run(*forged_spec, "--out", forged, "--resume")
check("resume refuses a consistent forgery: two seats' scores, returns and winner swapped (exit 2, its line named, "
      "the file unchanged)", rc == 0 and rc2 == 2 and f"line {k + 1} " in err2 and open(forged).read() == forged_text,
      f"rc={rc2} {err2[-300:]}")

# ---- one run at a time per results file: a second run on it (--resume too) is refused while the first holds it ----
busy = out("busy.jsonl")
spec_b = ["--games", "8", "--seed", "6", "--bots", f"random,cmd:{py} {bad_bot} slow", "--out", busy, "--quiet"]
first = subprocess.Popen([arena, *spec_b], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
deadline = time.time() + 60
while time.time() < deadline and first.poll() is None and not (os.path.exists(busy) and os.path.getsize(busy)):
    time.sleep(0.01)
before_b = open(busy).read() if os.path.exists(busy) else None
rc_b, _, err_b = run(*spec_b, "--resume")
after_b = open(busy).read() if os.path.exists(busy) else None
first_out, first_err = first.communicate(timeout=120)
check("a second run on a results file in use is refused (exit 2, 'in use', nothing written by it), and the first "
      "completes", first.returncode == 0 and rc_b == 2 and "in use" in err_b and
      len(read_lines(busy)) == 9 and (after_b or "").startswith(before_b or "\0"),
      f"first rc={first.returncode}, second rc={rc_b} {err_b[-300:]}")

section("resume")
# ---- Ctrl-C (SIGINT): exit 130 after the games in progress, finished games kept, --resume completes ----
intr = out("interrupted.jsonl")
spec_i = ["--games", "12", "--seed", "4", "--bots", f"random,cmd:{py} {bad_bot} slow", "--out", intr]
p = subprocess.Popen([arena, *spec_i], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
deadline = time.time() + 120
while time.time() < deadline and p.poll() is None:
    if os.path.exists(intr) and sum(1 for _ in open(intr)) >= 4:
        break
    time.sleep(0.01)
p.send_signal(signal.SIGINT)
stdout_i, err_i = p.communicate(timeout=60)
kept = games_of(intr)
check("SIGINT: exit 130, says how to continue, keeps the finished games",
      p.returncode == 130 and "--resume --out" in err_i and 3 <= len(kept) < 12, f"rc={p.returncode} {err_i[-300:]}")
rc, _, err = run(*spec_i, "--resume", "--quiet")
check("SIGINT: --resume completes the tournament", rc == 0 and sorted(games_of(intr)) == list(range(12)), err[-300:])

section("sigint")
# ---- bad specs and options: a clear message before any game, exit 2 ----
bad = {
    "unknown bot": (["--bots", "clever,random"], "unknown"),
    "bad parameter": (["--bots", "ismcts:c=-1,random"], "bad value '-1' for c"),
    "unknown key": (["--bots", "mc:iteration=5,random"], "iteration"),
    "empty cmd:": (["--bots", "cmd:,random"], "no program"),
    "unterminated quote": (["--bots", "cmd:python3 'bot.py,random"], "unterminated quote"),
    "missing program": (["--bots", "cmd:/nonexistent/bot --fast,random"], "'/nonexistent/bot' not found"),
    "missing program on PATH": (["--bots", "cmd:no-such-stpete-bot,random"], "'no-such-stpete-bot' not found"),
    "empty spec": (["--bots", "greedy,,random"], "empty spec"),
    "bad players": (["--players", "6"], "--players must be 2, 3 or 4, not 6 (§3)"),
    "5 players without the New Society": (["--players", "5"], "5 players need the New Society (--new-society"),
    "a New Society option without it": (["--used-prison-scores"], "an option of the New Society: set --new-society"),
    "a bad option word": (["--option", "pub_cap=per-seat"], '--pub-cap must be "per-pub" or "per-player"'),
    "the deal's seed as a game option": (["--option", "seed=3"], "seed is how a program deals"),
    "the New Society with the second edition": (["--new-society", "--edition", "2"], "expansion of the first edition"),
    "bad time": (["--time-ms", "0"], "--time-ms"),
    "resume without --out": (["--resume"], "--resume needs --out"),
    "unknown option": (["--fast"], "unknown option"),
}
for name, (args, needle) in bad.items():
    path = out("bad-spec.jsonl")
    rc, stdout, err = run(*args, "--games", "2", *([] if "--resume" in args else ["--out", path]))
    check(f"bad input ({name}): exit 2 with '{needle}', no game played",
          rc == 2 and needle in err and not os.path.exists(path), f"rc={rc} {err.strip()}")

# a cmd: bot whose program runs but cannot start the bot (its script missing, an import failing) stops the arena
# before the first game with one line naming the bot and its last word on stderr (issue 45 item 9), not a forfeit
# and a traceback per game
broken_bot = os.path.join(tmp, "broken_bot.py")
with open(broken_bot, "w") as f:
    f.write("import no_such_module_of_stpete_arena\n")
for name, spec, needle in (("its script missing", f"cmd:{py} {tmp}/no-such-bot.py", "no-such-bot.py"),
                           ("it fails as it starts", f"cmd:{py} {broken_bot}", "ModuleNotFoundError")):
    path = out("cannot-run.jsonl")
    started = time.monotonic()
    rc, stdout, err = run("--games", "20", "--out", path, "--bots", f"{spec},random")
    check(f"a bot that cannot run ({name}): exit 2 at once with one line naming it, no game played, no file",
          rc == 2 and err.count("\n") == 1 and f"bot '{spec}' cannot run" in err and needle in err and
          "forfeits" not in err and not stdout and not os.path.exists(path) and time.monotonic() - started < 30,
          f"rc={rc} {time.monotonic() - started:.1f} s\n{err[-1500:]}")

section("bad specs")
# ---- records: one replay record per game, which stpete-replay verifies ----
rec = os.path.join(tmp, "records")
rc, _, err = run("--players", "3", "--games", "6", "--bots", f"greedy,random,cmd:{py} {minimal_bot}", "--record",
                 rec, "--quiet", "--edition", "2")
files = sorted(os.listdir(rec)) if os.path.isdir(rec) else []
check("--record: one record per game", rc == 0 and files == [f"game-{k:06d}.json" for k in range(6)], str(files))
ok = True
for name in files:
    p = subprocess.run([replay, os.path.join(rec, name)], capture_output=True, text=True, timeout=60)
    ok = ok and p.returncode == 0 and "second edition" in p.stdout
check("--record: every record verifies with stpete-replay (second edition)", ok)

section("records")
# ---- the New Society (§12) with 5 seats: an external bot and the library's, records, definition, determinism ----
ns_spec = ["--players", "5", "--new-society", "--games", "10", "--seed", "5", "--quiet", "--bots",
           f"greedy,random,cmd:{py} {minimal_bot},mc:iterations=20"]
rec5 = os.path.join(tmp, "records-ns")
rc, stdout, err = run(*ns_spec, "--out", out("ns5.jsonl"), "--record", rec5)
ns_lines = lines(os.path.join(tmp, "ns5.jsonl")) if os.path.exists(os.path.join(tmp, "ns5.jsonl")) else [{}]
g = games_of(os.path.join(tmp, "ns5.jsonl")) if rc == 0 else {}
check("New Society, 5 seats: whole games without a forfeit", rc == 0 and len(g) >= 10 and
      all(d["forfeit"] is None and d["result"]["finished"] and len(d["result"]["scores"]) == 5 for d in g.values()),
      err[-300:])
check("New Society, 5 seats: the definition says so", ns_lines[0].get("definition", {}).get("new_society") is True
      and ns_lines[0]["definition"]["players"] == 5, json.dumps(ns_lines[0])[:300])
check("New Society, 5 seats: the table says so", "5 players, first edition, New Society" in stdout, stdout[:300])
ok = bool(g)
for name in sorted(os.listdir(rec5)) if os.path.isdir(rec5) else []:
    p = subprocess.run([replay, os.path.join(rec5, name)], capture_output=True, text=True, timeout=60)
    ok = ok and p.returncode == 0
check("New Society, 5 seats: every record verifies with stpete-replay", ok)
rc2, _, err2 = run(*ns_spec, "--out", out("ns5-again.jsonl"))
check("New Society, 5 seats: the same tournament gives the same games",
      rc2 == 0 and games_of(os.path.join(tmp, "ns5-again.jsonl")) == g, err2[-300:])
rc3, _, err3 = run("--players", "4", *ns_spec[3:], "--out",
                   os.path.join(tmp, "ns5.jsonl"), "--resume")
check("New Society: --resume of its file as a 4-player game without it is refused (another tournament)",
      rc3 == 2 and "another tournament" in err3, err3[-300:])

section("new society")
# ---- fewer bots than seats (issue 45 item 7): the list repeated to fill the seats, said at the start and under the
# table; the seats each bot held counted; the score and mean VP per seat, as the results file gives them ----
jpath = out("seats.json")
rc, stdout, err = run("--players", "3", "--games", "6", "--bots", "greedy,random", "--out", out("seats.jsonl"),
                      "--json", jpath)
sentence = "2 bots for 3 seats, the list repeated to fill them (greedy, random, greedy): greedy 2 seats, random 1 seat"
check("fewer bots than seats: the start says how the seats are filled",
      rc == 0 and err.startswith(f"stpete-arena: {sentence} of every game"), err[:300])
table = " ".join(stdout.split())
rows = dict(re.findall(r"^\d+ +(greedy|random) +(\d+ +\d+) ", stdout, re.M))
check("fewer bots than seats: the table says how, and counts games and seats",
      f"seats: {sentence} of every game" in table and re.search(r"bot +games +seats +score", stdout) and
      rows == {"greedy": "6     12", "random": "6      6"} and "mean return per seat" in table and
      "mean VP per seat" in table and "per game" not in table, stdout)
bots = {b["bot"]: b for b in json.load(open(jpath))["bots"]} if os.path.exists(jpath) else {}
returns = {"greedy": [], "random": []}
for d in games_of(os.path.join(tmp, "seats.jsonl")).values():
    for seat, who in enumerate(d["seating"]):
        returns[("greedy", "random")[who]].append(d["result"]["returns"][seat])
check("fewer bots than seats: --json's seats and score per seat are the results file's",
      bots and all(bots[b].get("seats") == len(r) and abs(bots[b]["score"] - sum(r) / len(r)) < 1e-9
                   for b, r in returns.items()), json.dumps(bots)[:600])
rc, stdout, err = run("--players", "2", "--games", "2", "--bots", "greedy,random,mc:iterations=5", "--quiet")
check("more bots than seats: one seat each, every ordered choice", rc == 0 and
      "seats: 3 bots for 2 seats, one seat each: every ordered choice of them equally often" in stdout, stdout[:400])

section("seats")
# ---- the example bots ----
rc, stdout, err = run("--games", "4", "--bots", f"cmd:{py} {minimal_bot} --first,cmd:{py} {minimal_bot}", "--quiet",
                      "--out", out("minimal.jsonl"))
g = games_of(os.path.join(tmp, "minimal.jsonl"))
check("minimal_bot.py: plays whole games without a forfeit", rc == 0 and len(g) == 4 and
      all(d["forfeit"] is None and d["result"]["finished"] for d in g.values()), err[-300:])
check("minimal_bot.py: its hello name is shown", "calls itself 'minimal-first'" in stdout, stdout[-300:])
if binding:
    env = dict(os.environ, PYTHONPATH=binding[0], STPETE_LIBRARY=binding[1])
    rc, stdout, err = run("--players", "3", "--games", "6", "--bots", f"cmd:{py} {python_bot},greedy,random",
                          "--quiet", "--out", out("python.jsonl"), env=env)
    g = games_of(os.path.join(tmp, "python.jsonl"))
    check("python_bot.py (binding): plays whole games without a forfeit", rc == 0 and len(g) == 6 and
          all(d["forfeit"] is None and d["result"]["finished"] for d in g.values()), err[-500:])
    # the bot makes its game from the hello's options: the New Society's 5 players and cards included
    ns_out = out("python-ns.jsonl")
    rc, stdout, err = run("--players", "5", "--new-society", "--used-prison-scores", "--games", "10", "--bots",
                          f"cmd:{py} {python_bot},greedy", "--quiet", "--out", ns_out, env=env)
    g = games_of(ns_out) if os.path.exists(ns_out) else {}
    check("python_bot.py (binding): plays 5-player New Society games without a forfeit", rc == 0 and len(g) == 10 and
          all(d["forfeit"] is None and d["result"]["finished"] for d in g.values()), err[-500:])
else:
    check("python_bot.py: # SKIP the binding cannot load this build's library", True)

section("example bots")
# ---- --bench: the protocol round trip of a trivial external bot ----
rc, stdout, err = run("--bench", "--games", "4")
m = re.search(r"protocol round trip: ([\d.]+) us per decision \((\d+) decisions in 4 2-player games", stdout)
check("--bench: prints the round trip per decision", rc == 0 and m and int(m.group(2)) > 200, stdout + err)

section("bench")
report(results, timings)
