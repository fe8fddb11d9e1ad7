"""stpete.experiment (issue 22): --jobs workers end when their parent is killed (finding 4), and --resume checks
every column of every row against the experiment's definition (finding 6): a forged row is refused with its line
number and the file left unchanged; a blank trailing line is fine. Issue 31: a row repeated in the file is refused
the same way (it was dropped and the file rewritten), and --resume writes through no planted symbolic link (it wrote
its rewrite to the fixed name OUT.tmp, following a link there). Run by the `experiment` test (experiment_*.py)."""
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

    def test_a_repeated_row(self):
        """a row of a game already in the file (right after it, at the end, or a whole game twice; JSON lines and
        CSV) is refused with its line number, the file unchanged: it was dropped and the file rewritten"""
        lines = self.lines
        cases = {"just after": (lines[:5] + [lines[4]] + lines[5:], 6),
                 "at the end": (lines + [lines[1]], 13),
                 "a whole game again": (lines + lines[3:6], 13),
                 "in a game cut short": (lines[:7] + [lines[6]], 8)}
        for name, (forged, line_no) in cases.items():
            with self.subTest(name):
                self.refused("".join(forged), line_no)
        csv_lines = self.csv_lines
        with self.subTest("csv"):
            self.refused("".join(csv_lines[:4] + [csv_lines[2]] + csv_lines[4:]), 5, "forged.csv")


class Links(unittest.TestCase):
    """--out and its rewrite never follow a symbolic link: a link planted at the output's old temporary name
    OUT.tmp, or at the output itself (in a shared directory, by someone else), must not redirect a write."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="stpete-exp-links-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.victim = os.path.join(self.tmp, "victim.txt")
        with open(self.victim, "w") as f:
            f.write("not yours\n")

    def path(self, name):
        return os.path.join(self.tmp, name)

    def cut_output(self, name):
        """An output of SPEC whose last game lost a seat's row: --resume rewrites it."""
        out = self.path(name)
        done = run(*SPEC, "--out", out, "--quiet")
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out) as f:
            lines = f.readlines()
        with open(out, "w") as f:
            f.writelines(lines[:-1])
        return out, lines

    def assertVictimUntouched(self):
        with open(self.victim) as f:
            self.assertEqual(f.read(), "not yours\n")

    def test_a_link_at_the_old_temporary_name(self):
        out, lines = self.cut_output("rows.jsonl")
        os.symlink(self.victim, out + ".tmp")
        again = run(*SPEC, "--out", out, "--resume", "--quiet")
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertVictimUntouched()
        self.assertTrue(os.path.islink(out + ".tmp"))
        self.assertFalse(os.path.islink(out))
        with open(out) as f:
            self.assertEqual(f.readlines(), lines)  # the game replayed: the same rows
        # no temporary file left beside it
        self.assertEqual(sorted(os.listdir(self.tmp)), ["rows.jsonl", "rows.jsonl.tmp", "victim.txt"])

    def test_the_rewrite_keeps_the_mode(self):
        out, _ = self.cut_output("mode.jsonl")
        os.chmod(out, 0o640)
        again = run(*SPEC, "--out", out, "--resume", "--quiet")
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(os.stat(out).st_mode & 0o777, 0o640)

    def test_a_link_at_the_output(self):
        """a link at --out: refused before any game, with the reason; the link and its target unchanged, whether
        the target exists (--resume would append to it) or not (a new output would create it)"""
        out, lines = self.cut_output("real.jsonl")
        with open(out) as f:
            real = f.read()
        for target, args in ((self.victim, ["--resume"]), (out, ["--resume"]), (self.path("absent.jsonl"), [])):
            with self.subTest(target=os.path.basename(target), args=args):
                link = self.path("link.jsonl")
                os.symlink(target, link)
                try:
                    refused = run(*SPEC, "--out", link, *args, "--quiet")
                    self.assertEqual(refused.returncode, 2, refused.stderr)
                    self.assertIn(f"{link} is a symbolic link", refused.stderr)
                    self.assertNotIn("Traceback", refused.stderr)
                    self.assertEqual(os.readlink(link), target)
                finally:
                    os.unlink(link)
                self.assertVictimUntouched()
                self.assertFalse(os.path.exists(self.path("absent.jsonl")))
                with open(out) as f:
                    self.assertEqual(f.read(), real)


if __name__ == "__main__":
    unittest.main()
