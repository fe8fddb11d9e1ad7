"""One results format, one home (issue 40, point 4): stpete-arena and stpete.experiment write the library's results
file (doc/format.md, "Results files"), and each reads the other's through the library. Prints TAP.

    results-shared.py ARENA SOURCE_ROOT BINDING_DIR LIBRARY

- One reader for both files: for a file of either program, the header's program and definition and
  stpete.read_results_line() (stpete_results_read_line(), the library) replay every game line; the replayed game's
  scores are the ones the program wrote in the line's fields, and the header's hash is stpete.results_hash() of its
  definition.
- Each program reads the other's file through the library and refuses to resume it, naming the program that wrote
  it (exit status 2, the file unchanged).
The experiment runs with Debian's interpreter (/usr/bin/python3), as its tests do."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "include"))  # tap_report.py
from tap_report import report  # noqa: E402  (tests/include/tap_report.py)

arena, root, binding, library = sys.argv[1:5]
sys.path.insert(0, binding)
os.environ["STPETE_LIBRARY"] = library
import stpete  # noqa: E402

env = dict(os.environ, PYTHONPATH=binding)
tmp = tempfile.mkdtemp(prefix="results-shared-")
results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))


def run(argv):
    p = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env)
    return p.returncode, p.stdout + p.stderr


def game_of(definition, arm):
    """The stpete.Game of a run's definition: the arena's (its players, edition, options) or an experiment's arm."""
    src = arm if arm is not None else definition.get("arms", [definition])[0]
    names = {o.name for o in stpete.options()} - {"seed"}
    return stpete.Game(**{k: v for k, v in src.items() if k in names})


def read_file(path):
    """Every game of a results file of either program, read by the library: [(number, scores of the replayed game,
    the line's fields)], and the header."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    header = json.loads(lines[0])
    definition = header["definition"]
    games = []
    for line in lines:
        doc = json.loads(line)
        arm = None
        if "arms" in definition and "fields" in doc:
            arm = next(a for a in definition["arms"] if a["name"] == doc["fields"]["arm"])
        state = game_of(definition, arm).new_state()
        number, _seed, fields = stpete.read_results_line(state, header["program"], definition, line)
        if number >= 0:
            games.append((number, [state.vp(s) for s in range(state.game.players)], fields))
    return header, games


arena_file = os.path.join(tmp, "arena.jsonl")
rc, text = run([arena, "--players", "3", "--games", "6", "--bots", "greedy,random", "--quiet", "--out", arena_file])
check("stpete-arena writes its results file", rc == 0, text)
exp_file = os.path.join(tmp, "experiment.jsonl")
rc, text = run(["/usr/bin/python3", "-m", "stpete.experiment", "--games", "4", "--quiet", "--out", exp_file,
                "--arm", "a:players=3:bots=greedy", "--arm", "b:players=3:bots=random"])
check("stpete.experiment writes its results file", rc == 0, text)

for program, path in (("stpete-arena", arena_file), ("stpete.experiment", exp_file)):
    try:
        header, games = read_file(path)
    except (stpete.StPeteError, KeyError, ValueError) as e:  # a 1.1 file: no header of the format
        check(f"the library reads {program}'s file", False, f"{type(e).__name__}: {e}")
        continue
    check(f"{program}'s header: the format, the program, the hash the library's of the definition",
          header["format"] == "stpete-results" and header["program"] == program and
          header["hash"] == stpete.results_hash(header["definition"]), json.dumps(header))
    if program == "stpete-arena":
        written = [g[2]["result"]["scores"] for g in games]
    else:
        written = [[row["vp"] for row in g[2]["seats"]] for g in games]
    check(f"the library reads every game of {program}'s file, the replayed scores the ones written",
          len(games) == (6 if program == "stpete-arena" else 8) and written == [g[1] for g in games],
          f"{len(games)} games; written {written}, replayed {[g[1] for g in games]}")

with open(exp_file, "rb") as f:
    before = f.read()
rc, text = run([arena, "--players", "3", "--games", "6", "--bots", "greedy,random", "--quiet", "--out", exp_file,
                "--resume"])
with open(exp_file, "rb") as f:
    after = f.read()
check("stpete-arena --resume on stpete.experiment's file: refused, the writer named, the file unchanged",
      rc == 2 and "was written by stpete.experiment, not by stpete-arena: another program's results file" in text
      and before == after, f"rc {rc}: {text}")

with open(arena_file, "rb") as f:
    before = f.read()
rc, text = run(["/usr/bin/python3", "-m", "stpete.experiment", "--games", "4", "--quiet", "--out", arena_file,
                "--resume", "--arm", "a:players=3:bots=greedy"])
with open(arena_file, "rb") as f:
    after = f.read()
check("stpete.experiment --resume on stpete-arena's file: refused, the writer named, the file unchanged",
      rc == 2 and "was written by stpete-arena, not by stpete.experiment: another program's results file" in text
      and before == after, f"rc {rc}: {text}")

sys.exit(report(results))
