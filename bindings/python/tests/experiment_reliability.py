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

    def refused(self, text, line_no, path_name="forged.jsonl", where=None):
        """Resume the file ``text``: exit 2, ``line_no`` named (``where``: the text that names it, e.g. a CSV game's
        rows "lines 4-6"), nothing changed."""
        path = os.path.join(self.tmp, path_name)
        with open(path, "w") as f:
            f.write(text)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):  # in this process: many runs, each refused before any game
            rc = E.main([*SPEC, "--out", path, "--resume", "--quiet"])
        with open(path) as f:
            after = f.read()
        self.assertEqual(rc, 2, err.getvalue())
        self.assertIn(where or f"line {line_no}:", err.getvalue())
        self.assertIn("not resuming (nothing was changed)", err.getvalue())
        self.assertEqual(after, text)

    def forge(self, edit, line_no=3):
        """Edit game line ``line_no`` (parsed) with ``edit`` and resume: refused."""
        doc = json.loads(self.lines[line_no - 1])
        edit(doc)
        lines = list(self.lines)
        lines[line_no - 1] = json.dumps(doc, separators=(",", ":")) + "\n"
        self.refused("".join(lines), line_no)

    def test_each_forged_column(self):
        """every value of a game line, forged alone: refused (the line's own keys, and each column of a seat's
        row, which --resume recomputes from the game its record replays)"""
        def line_key(key, value):
            def edit(doc):
                doc[key] = value
            return edit

        def seat_column(column, value, seat=1):
            def edit(doc):
                row = doc["fields"]["seats"][seat]
                row[column] = value(row[column]) if callable(value) else value
            return edit

        def record_seed(value):
            def edit(doc):
                doc["record"]["options"]["seed"] = value
            return edit

        def arm(value):
            def edit(doc):
                doc["fields"]["arm"] = value
            return edit

        forgeries = [line_key("game", v) for v in (10 ** 10, -1, "1", 1.0, True, 4)]
        forgeries += [line_key("hash", 5), line_key("hash", "0123456789abcdef"), arm("other"), arm(3),
                      record_seed("12345"), record_seed(7)]
        forgeries += [seat_column(c, v) for c, v in (
            ("seat", 7), ("seat", -1), ("seat", "1"), ("bot", "random"),
            ("vp", 10 ** 9), ("vp", "50"), ("vp", lambda v: v + 1), ("vp_before", -10 ** 9),
            ("aristocrat_bonus", 1.5), ("rubles_bonus", None), ("hand_penalty", 10 ** 6), ("rubles", -1),
            ("rubles", lambda v: v + 1), ("tie_break", "x"), ("win", 1e300), ("win", -0.5), ("win", "0.5"),
            ("win", float("nan")), ("winner", "yes"), ("winner", lambda w: not w), ("display", {"Market": -1}),
            ("display", ["Market"]), ("display", {"": 1}), ("display", {"Nonsense": 1}),
            ("display", lambda d: {**d, "Market ": 1}))]
        for i, edit in enumerate(forgeries):
            with self.subTest(forgery=i):
                self.forge(edit)

    def test_a_game_whose_rows_disagree(self):
        """rows each well formed that the game does not give: a loser made a winner, two seats' results swapped
        consistently (scores, returns, winner: issue 46 item 14's forgery, for the experiment), a seat's row
        missing; and a record that does not prove them (an action changed, the last actions cut)"""
        doc = json.loads(self.lines[2])
        seats = doc["fields"]["seats"]
        loser = next(i for i, r in enumerate(seats) if r["win"] == 0)

        def make_winner(d):
            d["fields"]["seats"][loser].update(win=1.0, winner=True)

        def swap(d):
            s = d["fields"]["seats"]
            for column in ("vp", "vp_before", "aristocrat_bonus", "rubles_bonus", "hand_penalty", "rubles",
                           "tie_break", "win", "winner", "display"):
                s[0][column], s[1][column] = s[1][column], s[0][column]

        def drop_seat(d):
            d["fields"]["seats"].pop()

        def other_action(d):
            acts = d["record"]["actions"]
            acts[len(acts) // 2]["id"] = 960

        def cut_actions(d):
            del d["record"]["actions"][-5:]

        for edit in (make_winner, swap, drop_seat, other_action, cut_actions):
            with self.subTest(edit=edit.__name__):
                self.forge(edit)

    def test_csv(self):
        """a forged cell of a CSV output (its rows made into game lines and replayed the same way): refused with
        the row's line, or the game's rows"""
        header = self.csv_lines[0].rstrip("\n").split(",")
        # line 4 is seat 2's row of game 0 (lines 2-4)
        for column, value, where in (("game", "10000000000", "line 4:"), ("seat", "9", "line 4:"),
                                     ("win", "1e300", "lines 2-4:"), ("vp", "-1000000", "lines 2-4:"),
                                     ("actions", "0 0 0", "lines 2-4:")):
            with self.subTest(column=column):
                lines = list(self.csv_lines)
                cells = lines[3].rstrip("\n").split(",")
                cells[header.index(column)] = value
                lines[3] = ",".join(cells) + "\n"
                self.refused("".join(lines), 4, "forged.csv", where)

    def test_a_blank_trailing_line_is_fine(self):
        for blank in ("\n", "\n\n", "  \n"):
            with self.subTest(blank=blank):
                path = os.path.join(self.tmp, "blank.jsonl")
                with open(path, "w") as f:
                    f.write("".join(self.lines[:3]) + blank)
                out = run(*SPEC, "--out", path, "--resume", "--quiet")
                self.assertEqual(out.returncode, 0, out.stderr)
                rows, cut, bad = E.read_rows(path)
                self.assertEqual((len(rows), cut, bad), (12, 0, 0))

    def test_a_repeated_row(self):
        """a game already in the file (right after it, at the end), or a second header, is refused with its line
        number, the file unchanged; in a CSV output, a seat's row again"""
        lines = self.lines
        cases = {"just after": (lines[:3] + [lines[2]] + lines[3:], 4),
                 "at the end": (lines + [lines[1]], 6),
                 "a second header": (lines + [lines[0]], 6)}
        for name, (forged, line_no) in cases.items():
            with self.subTest(name):
                self.refused("".join(forged), line_no)
        csv_lines = self.csv_lines
        with self.subTest("csv"):
            self.refused("".join(csv_lines[:4] + [csv_lines[2]] + csv_lines[4:]), 5, "forged.csv")


class OneWriter(unittest.TestCase):
    """Issue 46 item 12: two runs on one --out must not both write. While a run holds the file, a second one (with
    --resume, or without) is refused with a clear message, exit 2, having written nothing; the first completes, and
    its file is that of an uninterrupted run."""

    def test_a_second_run_on_the_same_file_is_refused(self):
        tmp = tempfile.mkdtemp(prefix="stpete-exp-lock-")
        self.addCleanup(shutil.rmtree, tmp, ignore_errors=True)
        path, alone = os.path.join(tmp, "busy.jsonl"), os.path.join(tmp, "alone.jsonl")
        spec = ["--games", "16", "--seed", "3", "--batch", "1", "--quiet", "--arm",
                "slow:players=2:bots=mc:iterations=40,greedy"]
        first = subprocess.Popen([sys.executable, "-m", "stpete.experiment", *spec, "--out", path],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and first.poll() is None and not (
                os.path.exists(path) and os.path.getsize(path) > 0):
            time.sleep(0.01)
        with open(path, "rb") as f:
            before = f.read()
        seconds = [run(*spec, "--out", path, "--resume"), run(*spec, "--out", path)]
        _, first_err = first.communicate(timeout=300)
        self.assertIsNotNone(first.returncode)
        self.assertEqual(first.returncode, 0, first_err)
        for second in seconds:
            self.assertEqual(second.returncode, 2, second.stderr)
            self.assertIn(f"{path} is in use by another run", second.stderr)
        with open(path, "rb") as f:
            after = f.read()
        self.assertTrue(after.startswith(before))
        done = run(*spec, "--out", alone)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(sorted(E.read_rows(path)[0], key=lambda r: (r["game"], r["seat"])),
                         sorted(E.read_rows(alone)[0], key=lambda r: (r["game"], r["seat"])))


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
        """An output of SPEC whose last game's line is gone: --resume plays it again."""
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
