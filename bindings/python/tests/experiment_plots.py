"""The plots of stpete.experiment say what they show (issue 26), with Debian's python3-matplotlib (skipped without
it): the VP plot has one marker per bot kind, named in its legend; the cards plot has "more" and "fewer" bars."""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from stpete import _plots
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
            _plots.plot(E.Experiment([E.parse_arm(ARM)], 3), rows, os.path.join(cls.tmp, "plots"))
        finally:
            plt.close = close

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

    def test_cards_has_more_and_fewer(self):
        fig = self.figure("Cards")
        labels, _ = self.legend(fig.legends[0])
        self.assertEqual(labels, ["more", "fewer"])
        widths = [p.get_width() for p in fig.axes[0].patches]
        self.assertTrue(any(w > 0 for w in widths) and any(w < 0 for w in widths), widths)


if __name__ == "__main__":
    unittest.main()
