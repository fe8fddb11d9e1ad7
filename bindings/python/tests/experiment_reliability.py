"""stpete.experiment (issue 22): --jobs workers end when their parent is killed (finding 4), and --resume checks
every column of every row against the experiment's definition (finding 6): a forged row is refused with its line
number and the file left unchanged; a blank trailing line is fine. Run by the `experiment` test (experiment_*.py)."""
import contextlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from stpete import experiment as E

ARM = ["--arm", "base:players=3:bots=greedy,random"]
SPEC = ["--games", "4", "--seed", "40", *ARM]


def run(*args):
    return subprocess.run([sys.executable, "-m", "stpete.experiment", *args], capture_output=True, text=True,
                          timeout=300)


def children_of(pid):
    """The pids of the processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def alive(pid):
    """Whether ``pid`` is a process that has not ended (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def holders(path):
    """The pids of the processes that hold ``path`` open."""
    found = []
    target = os.path.realpath(path)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fds = os.listdir(f"/proc/{entry}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{entry}/fd/{fd}") == target:
                    found.append(int(entry))
                    break
            except OSError:
                pass
    return found


class Workers(unittest.TestCase):
    @unittest.skipUnless(os.path.isdir("/proc"), "needs /proc to find the workers")
    def test_workers_end_when_the_parent_is_killed(self):
        tmp = tempfile.mkdtemp(prefix="stpete-exp-kill-")
        self.addCleanup(shutil.rmtree, tmp, ignore_errors=True)
        out = os.path.join(tmp, "rows.jsonl")
        proc = subprocess.Popen([sys.executable, "-m", "stpete.experiment", "--games", "20000", "--jobs", "2",
                                 "--batch", "1", "--out", out, "--arm", "quick:players=4:bots=greedy"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        workers = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            workers = [p for p in children_of(proc.pid) if alive(p)]
            if len(workers) >= 2 and os.path.exists(out) and os.path.getsize(out) > 0:
                break
            time.sleep(0.05)
        self.assertIsNone(proc.poll(), "the run ended before it could be killed")
        self.assertGreaterEqual(len(workers), 2, "no worker processes found")
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(alive(p) for p in workers):
            time.sleep(0.05)
        left = [p for p in workers if alive(p)]
        for p in left:
            os.kill(p, signal.SIGKILL)
        self.assertEqual(left, [], "workers outlived their killed parent by more than 5 s")
        self.assertEqual(holders(out), [], "a process still holds the output file open")


class Resume(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="stpete-exp-forge-")
        cls.base = os.path.join(cls.tmp, "base.jsonl")
        done = run(*SPEC, "--out", cls.base, "--quiet")
        assert done.returncode == 0, done.stderr
        with open(cls.base) as f:
            cls.lines = f.read().splitlines(keepends=True)
        cls.csv = os.path.join(cls.tmp, "base.csv")
        done = run(*SPEC, "--out", cls.csv, "--quiet")
        assert done.returncode == 0, done.stderr
        with open(cls.csv) as f:
            cls.csv_lines = f.read().splitlines(keepends=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def refused(self, text, line_no, path_name="forged.jsonl"):
        path = os.path.join(self.tmp, path_name)
        with open(path, "w") as f:
            f.write(text)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):  # in this process: many runs, each refused before any game
            rc = E.main([*SPEC, "--out", path, "--resume", "--quiet"])
        with open(path) as f:
            after = f.read()
        self.assertEqual(rc, 2, err.getvalue())
        self.assertIn(f"line {line_no}:", err.getvalue())
        self.assertIn("not resuming (nothing was changed)", err.getvalue())
        self.assertEqual(after, text)

    def forge(self, column, value, line_no=5):
        row = json.loads(self.lines[line_no - 1])
        row[column] = value(row[column]) if callable(value) else value
        lines = list(self.lines)
        lines[line_no - 1] = json.dumps(row, separators=(",", ":")) + "\n"
        self.refused("".join(lines), line_no)

    def test_each_forged_column(self):
        forgeries = [
            ("game", 10 ** 10), ("game", -1), ("game", "1"), ("game", 1.0), ("game", True), ("game", 4),
            ("arm", "other"), ("arm", 3), ("exp", 5), ("seed", 7), ("seed", "41"), ("players", 2), ("players", 3.0),
            ("seat", 7), ("seat", -1), ("seat", "1"), ("bot", "random"),
            ("vp", 10 ** 9), ("vp", "50"), ("vp_before", -10 ** 9), ("aristocrat_bonus", 1.5),
            ("rubles_bonus", None), ("hand_penalty", 10 ** 6), ("rubles", -1), ("rubles", 10 ** 7),
            ("tie_break", "x"), ("win", 1e300), ("win", -0.5), ("win", "0.5"), ("win", float("nan")),
            ("winner", "yes"), ("winner", lambda w: not w), ("moves", -1), ("moves", 10 ** 9), ("moves", "12"),
            ("display", {"Market": -1}), ("display", ["Market"]), ("display", {"": 1}),
            ("display", {"Nonsense": 1}), ("display", lambda d: {**d, "Market ": 1}),
        ]
        for column, value in forgeries:
            with self.subTest(column=column, value=value):
                self.forge(column, value)

    def test_a_game_whose_rows_disagree(self):
        """rows each within range that do not make one game: wins adding up to more than 1, or other moves"""
        rows = [json.loads(l) for l in self.lines[:3]]  # game 0's three seats
        loser = next(i for i, r in enumerate(rows) if r["win"] == 0)
        for edit in ({"win": 1.0, "winner": True}, {"moves": rows[loser]["moves"] + 1}):
            with self.subTest(edit=edit):
                forged = [dict(r) for r in rows]
                forged[loser].update(edit)
                text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in forged) + "".join(self.lines[3:])
                self.refused(text, 3)

    def test_csv(self):
        header = self.csv_lines[0].rstrip("\n").split(",")
        for column, value in (("game", "10000000000"), ("seat", "9"), ("win", "1e300"), ("vp", "-1000000")):
            with self.subTest(column=column):
                lines = list(self.csv_lines)
                cells = lines[3].rstrip("\n").split(",")
                cells[header.index(column)] = value
                lines[3] = ",".join(cells) + "\n"
                self.refused("".join(lines), 4, "forged.csv")

    def test_a_blank_trailing_line_is_fine(self):
        for blank in ("\n", "\n\n", "  \n"):
            with self.subTest(blank=blank):
                path = os.path.join(self.tmp, "blank.jsonl")
                with open(path, "w") as f:
                    f.write("".join(self.lines[:6]) + blank)
                out = run(*SPEC, "--out", path, "--resume", "--quiet")
                self.assertEqual(out.returncode, 0, out.stderr)
                rows, cut, bad = E.read_rows(path)
                self.assertEqual((len(rows), cut, bad), (12, 0, 0))


if __name__ == "__main__":
    unittest.main()
