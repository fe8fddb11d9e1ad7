"""The plots of stpete.experiment say what they show (issue 26), with Debian's python3-matplotlib (skipped without
it): the VP plot has one marker per bot kind, named in its legend; the cards plot has "more" and "fewer" bars.
Issue 33: `--plot` checks what it needs (matplotlib, a writable directory) before any game, and rows are never lost
when the plots fail after the games (the README's command has no --out). These cases replace matplotlib by a stand-in
package on PYTHONPATH (one that cannot be imported, or one whose plotting fails), so they run with or without it."""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from stpete import experiment as E

HAVE_MPL = importlib.util.find_spec("matplotlib") is not None
ARM = "a:players=3:bots=greedy,random,mc:iterations=5"


@unittest.skipUnless(HAVE_MPL, "python3-matplotlib is not installed")
class Plots(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="stpete-plots-")
        path = os.path.join(cls.tmp, "rows.jsonl")
        out = subprocess.run([sys.executable, "-m", "stpete.experiment", "--games", "40", "--seed", "3", "--out",
                              path, "--quiet", "--no-progress", "--arm", ARM], capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, out.stderr
        rows = E.read_rows(path)[0]
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        cls.figures, close = [], plt.close
        plt.close = cls.figures.append  # keep the figures to look at them
        try:
            E.plot(E.Experiment([E.parse_arm(ARM)], 3), rows, os.path.join(cls.tmp, "plots"))
        finally:
            plt.close = close
        cls.rows = rows

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def figure(self, title):
        found = [f for f in self.figures if hasattr(f, "axes") and (f._suptitle and f._suptitle.get_text().startswith(title)
                 or any(a.get_title().startswith(title) for a in f.axes))]
        self.assertEqual(len(found), 1, [a.get_title() for f in self.figures if hasattr(f, "axes") for a in f.axes])
        return found[0]

    @staticmethod
    def legend(legend):
        handles = getattr(legend, "legend_handles", None) or legend.legendHandles
        return [t.get_text() for t in legend.get_texts()], handles

    def test_vp_has_a_marker_per_bot_kind(self):
        labels, handles = self.legend(self.figure("Final VP").axes[0].get_legend())
        self.assertEqual(labels, ["greedy", "random", "mc"])
        self.assertEqual(len({h.get_marker() for h in handles}), 3)
        scatter_markers = {id(c.get_paths()[0]) for c in self.figure("Final VP").axes[0].collections[1:]}
        self.assertGreaterEqual(len(scatter_markers), 3)

    def test_a_planted_link_is_replaced_not_followed(self):
        """issue 31: each plot is written to a private temporary file renamed over its name"""
        plots = os.path.join(self.tmp, "linked")
        os.makedirs(plots)
        victim = os.path.join(self.tmp, "victim.txt")
        with open(victim, "w") as f:
            f.write("not yours\n")
        os.symlink(victim, os.path.join(plots, "winrate.png"))
        files = E.plot(E.Experiment([E.parse_arm(ARM)], 3), self.rows, plots)
        with open(victim) as f:
            self.assertEqual(f.read(), "not yours\n")
        path = os.path.join(plots, "winrate.png")
        self.assertFalse(os.path.islink(path))
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertEqual(sorted(os.listdir(plots)), sorted(os.path.basename(p) for p in files))

    def test_cards_has_more_and_fewer(self):
        fig = self.figure("Cards")
        labels, _ = self.legend(fig.legends[0])
        self.assertEqual(labels, ["more", "fewer"])
        widths = [p.get_width() for p in fig.axes[0].patches]
        self.assertTrue(any(w > 0 for w in widths) and any(w < 0 for w in widths), widths)


FAKE_MISSING = {"__init__.py": "raise ImportError('No module named matplotlib (hidden by the test)')\n"}
FAKE_BROKEN = {"__init__.py": "def use(backend, **kwargs):\n    pass\n",
               "pyplot.py": "def subplots(*args, **kwargs):\n    raise RuntimeError('plotting broken by the test')\n"}


class PlotNeeds(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="stpete-plot-needs-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def run_with(self, fake, *args):
        """python3 -m stpete.experiment with a stand-in matplotlib package first on PYTHONPATH"""
        site = os.path.join(self.tmp, "site")
        os.makedirs(os.path.join(site, "matplotlib"), exist_ok=True)
        for name, text in fake.items():
            with open(os.path.join(site, "matplotlib", name), "w") as f:
                f.write(text)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([site, os.environ.get("PYTHONPATH", "")]))
        return subprocess.run([sys.executable, "-m", "stpete.experiment", *args], capture_output=True, text=True,
                              timeout=300, env=env, cwd=self.tmp)

    def test_without_matplotlib_no_game_is_played(self):
        """refused before any game (it played every game, then exited 2), and no file is made"""
        plots, out = os.path.join(self.tmp, "plots"), os.path.join(self.tmp, "rows.jsonl")
        for extra in ([], ["--out", out]):
            with self.subTest(extra=extra):
                done = self.run_with(FAKE_MISSING, "--games", "3", "--plot", plots, "--arm", ARM, *extra)
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertIn("--plot needs matplotlib", done.stderr)
                self.assertIn("no game was played", done.stderr)
                self.assertNotIn("Traceback", done.stderr)
                self.assertNotIn("played 3 games", done.stderr)
                self.assertEqual(done.stdout, "")  # no summary: nothing was played
                self.assertFalse(os.path.exists(plots))
                self.assertFalse(os.path.exists(out))

    def test_an_unwritable_plot_directory_is_refused_first(self):
        blocker = os.path.join(self.tmp, "a-file")
        with open(blocker, "w") as f:
            f.write("x\n")
        done = self.run_with(FAKE_BROKEN, "--games", "3", "--plot", os.path.join(blocker, "plots"), "--arm", ARM)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn(f"--plot {os.path.join(blocker, 'plots')}: cannot write", done.stderr)
        self.assertIn("no game was played", done.stderr)
        self.assertEqual(done.stdout, "")

    def test_rows_are_kept_when_the_plots_fail(self):
        """no --out (the README's command): the plots fail after the games; the rows are in a file in the plot
        directory, named on standard error, and --out FILE --resume draws from them without playing again"""
        plots = os.path.join(self.tmp, "plots")
        done = self.run_with(FAKE_BROKEN, "--games", "3", "--seed", "3", "--plot", plots, "--arm", ARM)
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertIn("plotting broken by the test", done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        self.assertIn("arm a: 3 players", done.stdout)  # the summary came first
        kept = [os.path.join(plots, n) for n in os.listdir(plots) if n.endswith(".jsonl")]
        self.assertEqual(len(kept), 1, os.listdir(plots))
        self.assertIn(f"kept in {kept[0]}", done.stderr)
        rows, cut, bad = E.read_rows(kept[0])
        self.assertEqual((len(rows), cut, bad), (9, 0, 0))
        direct = os.path.join(self.tmp, "direct.jsonl")
        self.assertEqual(self.run_with(FAKE_MISSING, "--games", "3", "--seed", "3", "--out", direct, "--quiet",
                                       "--arm", ARM).returncode, 0)
        self.assertEqual(rows, E.read_rows(direct)[0])
        again = self.run_with(FAKE_MISSING, "--games", "3", "--seed", "3", "--out", kept[0], "--resume",
                              "--arm", ARM)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("playing 0", again.stderr)

    def test_the_rows_file_goes_when_the_plots_are_drawn(self):
        """with a working stand-in, the plot directory holds no rows file afterwards (the rows were only kept in
        case the plots failed)"""
        working = {"__init__.py": FAKE_BROKEN["__init__.py"], "pyplot.py": "LOG = []\n"}
        plots = os.path.join(self.tmp, "plots")
        code = ("import sys, stpete._plots as P\n"
                "P.draw = lambda *a, **k: []\n"
                "from stpete import experiment as E\n"
                "sys.exit(E.main(sys.argv[1:]))\n")
        site = os.path.join(self.tmp, "site")
        os.makedirs(os.path.join(site, "matplotlib"), exist_ok=True)
        for name, text in working.items():
            with open(os.path.join(site, "matplotlib", name), "w") as f:
                f.write(text)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([site, os.environ.get("PYTHONPATH", "")]))
        done = subprocess.run([sys.executable, "-c", code, "--games", "2", "--plot", plots, "--arm", ARM,
                               "--quiet"], capture_output=True, text=True, timeout=300, env=env)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(os.listdir(plots), [])


if __name__ == "__main__":
    unittest.main()
