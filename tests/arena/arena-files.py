"""stpete-arena's descriptors and files (issue 31): a bot inherits no descriptor but its three pipes, whatever the
arena inherited (`stpete-arena ... 7</etc/hostname`) or opened (its results file), also with parallel games; the
arena never writes through a symbolic link planted at the name of its results file, a record or the --json file.
Prints TAP.

    arena-files.py ARENA SOURCE_ROOT"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "include"))  # tap_report.py
from tap_report import report  # noqa: E402  (tests/include/tap_report.py)

arena, root = sys.argv[1:3]
py = sys.executable
bot = os.path.join(root, "tests", "arena", "arena-hostile-bot.py")
tmp = tempfile.mkdtemp(prefix="arena-files-")
results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))


def run(*args, pass_fds=(), timeout=120):
    p = subprocess.run([arena, *args], capture_output=True, text=True, timeout=timeout, pass_fds=pass_fds)
    return p.returncode, p.stdout, p.stderr


# ---- a bot sees only 0, 1 and 2 ----
# the arena inherits descriptors 7 (a file, as `7</etc/hostname`) and 12 (a pipe), neither close-on-exec
reported = os.path.join(tmp, "fds.jsonl")
spare = os.open(os.path.join(root, "README.md"), os.O_RDONLY)
pipe_r, pipe_w = os.pipe()
os.dup2(spare, 7)
os.dup2(pipe_r, 12)
os.close(spare)
os.close(pipe_r)
rc, _, err = run("--games", "4", "--jobs", "2", "--bots", f"cmd:{py} {bot} fds {reported},random",
                 "--out", os.path.join(tmp, "out.jsonl"), "--seed", "3", "--quiet", pass_fds=(7, 12))
os.close(7)
os.close(12)
os.close(pipe_w)
with open(reported) as f:
    seen = [json.loads(line) for line in f]
check("the tournament with inherited descriptors 7 and 12 runs (exit 0)", rc == 0, err[-300:])
# at least one bot process reports (a worker that got no game under load starts none)
check("every bot process sees only descriptors 0, 1 and 2",
      len(seen) >= 1 and all(fds == [0, 1, 2] for fds in seen), json.dumps(seen))


# ---- no write through a planted symbolic link ----
def planted(name):
    """A symbolic link at tmp/name to a file the attacker wants overwritten; returns (link, target, content)."""
    target = os.path.join(tmp, f"{name}.target")
    with open(target, "w") as f:
        f.write("precious\n")
    link = os.path.join(tmp, name)
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(target, link)
    return link, target


def untouched(target):
    with open(target) as f:
        return f.read() == "precious\n"


common = ["--games", "2", "--bots", "random,greedy", "--seed", "3", "--quiet"]
link, target = planted("out.jsonl")
for extra in ([], ["--resume"]):
    rc, _, err = run(*common, "--out", link, *extra)
    check(f"--out through a planted symbolic link{' with --resume' if extra else ''}: refused (exit 2, said), "
          "the link's target unchanged",
          rc == 2 and "symbolic link" in err and untouched(target), f"rc={rc} {err[-300:]}")

link, target = planted("table.json")
rc, _, err = run(*common, "--json", link)
check("--json through a planted symbolic link: refused (exit 1, said), the target unchanged",
      rc == 1 and "symbolic link" in err and untouched(target), f"rc={rc} {err[-300:]}")

records = os.path.join(tmp, "records")
os.makedirs(records, exist_ok=True)
target = os.path.join(tmp, "record.target")
with open(target, "w") as f:
    f.write("precious\n")
os.symlink(target, os.path.join(records, "game-000000.json"))
rc, _, err = run(*common, "--record", records)
check("--record with a link planted at game-000000.json: that record refused (said), the target unchanged, "
      "the other game recorded",
      rc == 0 and "game-000000.json" in err and "symbolic link" in err and untouched(target) and
      os.path.isfile(os.path.join(records, "game-000001.json")), f"rc={rc} {err[-300:]}")

shutil.rmtree(tmp, ignore_errors=True)
report(results)
