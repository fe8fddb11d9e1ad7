"""stpete.experiment (issue 15): rows, common random numbers, summary and paired tests, JSON lines and CSV,
processes, resume, bad input. Run by the `experiment` test with Debian's /usr/bin/python3 (experiment_*.py)."""
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import stpete
from stpete import experiment as E
from support import SOURCE_ROOT

ARMS = ["--arm", "base:players=3:bots=greedy,random", "--arm", "cap:players=3:pub_cap=per-player:bots=greedy,random",
        "--arm", "twin:players=3:bots=greedy,random"]


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "stpete.experiment", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def rows_of(path):
    rows, _, bad = E.read_rows(path)
    assert bad == 0, f"{path}: {bad} bad line(s)"
    return rows


def key(r):
    return (r["arm"], r["game"], r["seat"])


class Experiment(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="stpete-exp-")
        cls.full = os.path.join(cls.tmp, "full.jsonl")
        cls.out = run("--games", "12", "--seed", "40", "--out", cls.full, *ARMS)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def test_rows(self):
        self.assertEqual(self.out.returncode, 0, self.out.stderr)
        rows = rows_of(self.full)
        self.assertEqual(len(rows), 3 * 12 * 3)
        self.assertEqual(len({key(r) for r in rows}), len(rows))  # no duplicate
        self.assertEqual({r["exp"] for r in rows}, {E.Experiment([E.parse_arm(a) for a in ARMS[1::2]], 40).hash})
        games = collections.defaultdict(list)
        for r in rows:
            self.assertEqual(list(r), list(E.COLUMNS))
            self.assertEqual(r["seed"], 40 + r["game"])
            self.assertEqual(r["bot"], ["greedy", "random:seed=0", "greedy"][r["seat"]])
            self.assertEqual(r["vp"], r["vp_before"] + r["aristocrat_bonus"] + r["rubles_bonus"] + r["hand_penalty"])
            self.assertEqual(r["winner"], r["win"] > 0)
            self.assertTrue(r["display"] and all(n > 0 for n in r["display"].values()))
            games[(r["arm"], r["game"])].append(r)
        for g in games.values():
            self.assertAlmostEqual(sum(r["win"] for r in g), 1.0)  # returns: 1/k per winner
            self.assertEqual(len({r["moves"] for r in g}), 1)
            best = max(r["vp"] for r in g)
            self.assertTrue(all(r["vp"] == best for r in g if r["winner"]))

    def test_common_random_numbers(self):
        """An arm identical to the base gives the same rows (same deals, same bot seeds); a rule change keeps the
        deals, so some games are the same and the seeds match one by one."""
        rows = rows_of(self.full)
        by = {key(r): r for r in rows}
        strip = lambda r: {k: v for k, v in r.items() if k != "arm"}
        for (arm, g, s), r in by.items():
            if arm == "base":
                self.assertEqual(strip(r), strip(by[("twin", g, s)]))
                self.assertEqual(r["seed"], by[("cap", g, s)]["seed"])

    def test_rows_are_the_library_games(self):
        """Game 3 of the base arm replayed with the plain binding (Game, Bot.choose, apply) gives the same row."""
        rows = {key(r): r for r in rows_of(self.full)}
        seed = 43
        game = stpete.Game(players=3, seed=seed)
        state = game.new_state()
        bots = [stpete.Bot(spec, game=game) for spec in ("greedy", "random", "greedy")]
        for s, bot in enumerate(bots):
            bot.set_seed(E._mix(0, seed, s))
        moves = 0
        while not state.is_terminal:
            state.apply(bots[state.current_player].choose(state))
            moves += 1
        for s in range(3):
            r = rows[("base", 3, s)]
            self.assertEqual((r["vp"], r["rubles"], r["moves"], r["win"]),
                             (state.score(s).total, state.score(s).rubles, moves, state.returns()[s]))
            self.assertEqual(sum(r["display"].values()), len(state.display(s)))

    def test_summary(self):
        out = self.out.stdout
        self.assertIn("arm base: 3 players, edition 1, pub cap per-pub, tie-break rubles-mod-10; 12 games", out)
        self.assertIn("arm cap: 3 players, edition 1, pub cap per-player", out)
        self.assertIn("paired: cap − base over 12 common seeds", out)
        self.assertIn("paired: twin − base over 12 common seeds", out)
        # the twin arm: no difference at all
        twin = out[out.index("paired: twin"):]
        self.assertIn("seat 0: win share +0.000 ± 0.000 (t = 0.00, p = 1.0000); VP +0.00 ± 0.00", twin)
        self.assertIn("36/36 games (100%)", self.out.stderr)  # plain progress lines without a terminal

    def test_summary_numbers(self):
        rows = rows_of(self.full)
        arms = [E.parse_arm(a) for a in ARMS[1::2]]
        s = E.summarize(rows, arms)["base"]["seats"][1]
        vps = [r["vp"] for r in rows if r["arm"] == "base" and r["seat"] == 1]
        self.assertAlmostEqual(s["vp"][0], sum(vps) / 12)
        self.assertEqual(s["vp"][2], 12)
        self.assertGreater(s["vp"][1], 0)

    def test_csv_and_processes(self):
        csv_path = self.path("two.csv")
        out = run("--games", "12", "--seed", "40", "--out", csv_path, "--jobs", "2", "--batch", "2", *ARMS)
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(csv_path) as f:
            self.assertEqual(f.readline().strip(), ",".join(E.CSV_COLUMNS))  # the rows, and the game's actions
        self.assertEqual(sorted(rows_of(csv_path), key=key), sorted(rows_of(self.full), key=key))

    def test_resume(self):
        path = self.path("resume.jsonl")
        first = run("--games", "12", "--seed", "40", "--out", path, "--max-games", "14", "--batch", "3", *ARMS)
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertEqual(len(rows_of(path)), 14 * 3)
        # a kill in the middle of a write: the last game's line is cut
        with open(path) as f:
            lines = f.readlines()
        with open(path, "w") as f:
            f.writelines(lines[:-1])
            f.write(lines[-1][:25])
        again = run("--games", "12", "--seed", "40", "--out", path, "--resume", "--batch", "5", *ARMS)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("dropping a cut last line; it is played again", again.stderr)
        self.assertIn("13 game(s) already in", again.stderr)
        rows = rows_of(path)
        self.assertEqual(len({key(r) for r in rows}), len(rows))
        self.assertEqual(sorted(rows, key=key), sorted(rows_of(self.full), key=key))
        # nothing left to do: the summary again, the file unchanged
        with open(path, "rb") as f:
            before = f.read()
        done = run("--games", "12", "--seed", "40", "--out", path, "--resume", *ARMS)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("playing 0", done.stderr)
        self.assertIn("paired: cap − base over 12 common seeds", done.stdout)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), before)
        # more games extend the same experiment
        more = run("--games", "13", "--seed", "40", "--out", path, "--resume", *ARMS)
        self.assertEqual(more.returncode, 0, more.stderr)
        self.assertEqual(len(rows_of(path)), 13 * 3 * 3)

    def test_resume_csv(self):
        path = self.path("resume.csv")
        first = run("--games", "12", "--seed", "40", "--out", path, "--max-games", "10", *ARMS)
        self.assertEqual(first.returncode, 0, first.stderr)
        with open(path) as f:
            lines = f.readlines()
        with open(path, "w") as f:
            f.writelines(lines[:-2])  # the last game loses two seats' rows
        again = run("--games", "12", "--seed", "40", "--out", path, "--resume", *ARMS)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("dropping 1 row(s) of an incomplete game; those games are played again", again.stderr)
        self.assertEqual(sorted(rows_of(path), key=key), sorted(rows_of(self.full), key=key))

    def test_resume_after_kill(self):
        """SIGKILL in the middle of a run (batches of one game), then --resume: the same rows as an uninterrupted
        run, none lost or duplicated."""
        import signal
        import time
        path = self.path("killed.jsonl")
        proc = subprocess.Popen([sys.executable, "-m", "stpete.experiment", "--games", "12", "--seed", "40", "--out",
                                 path, "--batch", "1", *ARMS[:2], "--arm", "slow:players=3:bots=mc:iterations=30"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if os.path.exists(path) and os.path.getsize(path) > 0 and sum(1 for _ in open(path)) >= 6:
                break
            time.sleep(0.05)
        self.assertIsNone(proc.poll(), "the run ended before it could be killed")
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        again = run("--games", "12", "--seed", "40", "--out", path, "--resume", *ARMS[:2], "--arm",
                    "slow:players=3:bots=mc:iterations=30")
        self.assertEqual(again.returncode, 0, again.stderr)
        rows = rows_of(path)
        self.assertEqual(len(rows), 2 * 12 * 3)
        self.assertEqual(len({key(r) for r in rows}), len(rows))
        full = [r for r in rows_of(self.full) if r["arm"] == "base"]
        self.assertEqual(sorted([r for r in rows if r["arm"] == "base"], key=key),
                         sorted([{**r, "exp": rows[0]["exp"]} for r in full], key=key))

    def test_resume_refuses_a_foreign_file(self):
        path = self.path("foreign.jsonl")
        with open(self.full) as f:
            lines = f.readlines()
        lines[5] = '{"something": "else"}\n'
        with open(path, "w") as f:
            f.writelines(lines)
        out = run("--games", "12", "--seed", "40", "--out", path, "--resume", *ARMS)
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertIn("line 6: not a line of stpete.experiment's results; not resuming", out.stderr)
        with open(path) as f:
            self.assertEqual(f.readlines(), lines)

    def test_progress_bar_on_a_terminal(self):
        import pty
        master, slave = pty.openpty()
        proc = subprocess.Popen([sys.executable, "-m", "stpete.experiment", "--games", "6", *ARMS],
                                stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        data = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
        os.close(master)
        self.assertEqual(proc.wait(), 0)
        text = data.decode()
        self.assertIn("\r[##############################] 18/18 games", text)
        self.assertNotIn("games (100%)", text)

    def test_resume_other_definition(self):
        path = self.path("other.jsonl")
        shutil.copy(self.full, path)
        with open(path, "rb") as f:
            before = f.read()
        for args in (["--seed", "41", *ARMS], ["--seed", "40", *ARMS[:4]],
                     ["--seed", "40", *ARMS[:4], "--arm", "twin:players=3:bots=greedy"]):
            out = run("--games", "12", "--out", path, "--resume", *args)
            self.assertEqual(out.returncode, 2, out.stderr)
            self.assertIn("was written by another experiment definition", out.stderr)
        exists = run("--games", "12", "--seed", "40", "--out", path, *ARMS)
        self.assertEqual(exists.returncode, 2)
        self.assertIn("exists: add --resume", exists.stderr)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), before)  # no row lost or added

    def test_config_file(self):
        toml = self.path("exp.toml")
        with open(toml, "w") as f:
            f.write('games = 12\nseed = 40\n'
                    '[[arms]]\nname = "base"\nplayers = 3\nbots = ["greedy", "random"]\n'
                    '[[arms]]\nname = "cap"\nplayers = 3\npub_cap = "per-player"\nbots = "greedy,random"\n')
        path = self.path("toml.jsonl")
        out = run("--config", toml, "--arm", ARMS[5], "--out", path, "--quiet")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout + out.stderr, "")
        self.assertEqual(sorted(rows_of(path), key=key), sorted(rows_of(self.full), key=key))
        js = self.path("exp.json")
        with open(js, "w") as f:
            json.dump({"arms": [{"name": "x", "players": 2, "bogus": 1}]}, f)
        bad = run("--config", js)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("arm x: unknown key(s) bogus", bad.stderr)

    def test_every_option_is_an_arm_key(self):
        """Issue 42: the arms' keys are the library's table of options (but the seed and the chance mode), so the
        New Society and its rulings R19, R22, R29 are compared in 5-player games; a TOML/JSON value or the command
        line's text, read by the library."""
        keys = E.ARM_KEYS
        self.assertEqual(keys[-1], "bots")
        self.assertEqual(set(keys[:-1]), {o.name for o in stpete.options()
                                          if o.category != stpete.OptionCategory.PLAY})
        out = self.path("ns.jsonl")
        p = run("--games", "3", "--seed", "5", "--out", out,
                "--arm", "base:players=5:new_society=true:bots=greedy",
                "--arm", "r19:players=5:new_society=true:markers_one_seat=true:bots=greedy",
                "--arm", "r22:players=5:new_society=true:used_prison_scores=true:bots=greedy",
                "--arm", "r29:players=5:new_society=true:textile_without_new_society=true:bots=greedy")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("arm r19: 5 players, edition 1, pub cap per-pub, tie-break rubles-mod-10, new society, "
                      "markers move one seat; 3 games", p.stdout)
        rows = rows_of(out)
        self.assertEqual(len(rows), 4 * 3 * 5)
        arm = E.Arm.from_dict({"name": "t", "players": 5, "new_society": True, "used_prison_scores": "true",
                               "start_markers": [0, 1, 2, 3]})
        self.assertEqual((arm.options["new_society"], arm.options["used_prison_scores"], arm.options["start_markers"]),
                         (True, True, [0, 1, 2, 3]))
        for arm_text, reason in (("a:players=5", "5 players need the New Society (new_society, §12.0, R17)"),
                                 ("a:seed=3", "unknown key(s) seed"),
                                 ("a:markers_one_seat=true", "an option of the New Society: set new_society"),
                                 # a number that is no seat: a reason true of this 5-player game too (not the
                                 # 4-player default's "[0, 4)", nor cut to three seats when four ints are long)
                                 ("a:players=5:new_society=true:start_markers=0,1,2,7", "not 7: no game has it"),
                                 ("a:players=5:new_society=true:start_markers=" + ",".join(["-2147483648"] * 4),
                                  "not -2147483648: no game has it")):
            p = run("--games", "1", "--arm", arm_text)
            self.assertEqual(p.returncode, 2)
            self.assertIn(reason, p.stderr)
            self.assertNotIn("[0, 4)", p.stderr)

    def test_bad_input(self):
        cases = [
            (["--arm", "a:players=5"], "players must be 2, 3 or 4"),
            (["--arm", "a:colour=red"], "unknown key(s) colour"),
            (["--arm", "a:pub_cap=sometimes"], "arm a:"),
            (["--arm", "a:public_rubles=maybe"], "public_rubles must be \"false\" or \"true\""),
            (["--arm", "a:bots=clever"], "bot 'clever'"),
            (["--arm", "a:bots=ismcts:iteration=5"], "bot 'ismcts:iteration=5'"),
            (["--arm", "a:players"], "is not KEY=VALUE"),
            (["--arm", "a:bots=greedy:players=3"], "bots= comes last"),
            (["--arm", "a", "--arm", "a"], "arm name(s) used twice: a"),
            ([], "no arm"),
            (["--arm", "a", "--resume"], "--resume needs --out"),
            (["--arm", "a", "--games", "0"], "--games must be at least 1"),
            (["--arm", "a", "--dask-local", "1", "--scheduler", "tcp://x:1"], "exclude each other"),
            (["--config", "/nonexistent.json"], "cannot read the experiment file"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                out = run(*args)
                self.assertEqual(out.returncode, 2, out.stderr)
                self.assertIn(message, out.stderr)
                self.assertNotIn("Traceback", out.stderr)
        self.assertEqual(run("--bogus").returncode, 2)

    def test_example_wrapper(self):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        out = subprocess.run([sys.executable, os.path.join(SOURCE_ROOT, "examples", "python", "experiment.py"),
                              "--games", "4", "--jobs", "2", "--arm", "w:players=2:bots=greedy,random"],
                             capture_output=True, text=True, timeout=120, env=env, cwd=self.tmp)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("arm w: 2 players", out.stdout)


if __name__ == "__main__":
    unittest.main()
