"""examples/python/experiment.py: runs games with bots and rule options in parallel processes and prints win rate
and mean score per seat with 95% confidence intervals; reproducible whatever the number of processes."""
import os
import re
import subprocess
import sys
import unittest

from support import SOURCE_ROOT

SCRIPT = os.path.join(SOURCE_ROOT, "examples", "python", "experiment.py")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=240)


class Experiment(unittest.TestCase):
    def test_report_and_reproducibility(self):
        args = ["--games", "30", "--players", "3", "--bots", "greedy,random", "--seed", "5", "--pub-cap",
                "per-player", "--tie-break", "total", "--public-rubles"]
        two = run(*args, "--processes", "2")
        self.assertEqual(two.returncode, 0, two.stderr)
        out = two.stdout
        self.assertIn("30 games, 3 players, bots greedy,random,greedy, seeds 5..34", out)
        self.assertIn("pub cap per-player, tie-break total, public rubles yes, public hands no", out)
        rows = re.findall(r"^(\d)\s+(\w+)\s+([\d.]+)% ± ([\d.]+)%\s+(-?[\d.]+) ± ([\d.]+) VP$", out, re.M)
        self.assertEqual(len(rows), 3, out)
        self.assertEqual([r[:2] for r in rows], [("0", "greedy"), ("1", "random"), ("2", "greedy")])
        self.assertAlmostEqual(sum(float(r[2]) for r in rows), 100.0, delta=0.2)  # shared wins split
        self.assertGreater(float(rows[0][4]), float(rows[1][4]))  # greedy outscores random
        one = run(*args, "--processes", "1")
        self.assertEqual(one.returncode, 0, one.stderr)
        strip = lambda text: [line for line in text.splitlines() if not line.startswith("time:")]
        self.assertEqual(strip(one.stdout), strip(out))

    def test_bad_arguments(self):
        self.assertEqual(run("--bots", "clever").returncode, 2)
        self.assertEqual(run("--players", "5").returncode, 2)
        self.assertEqual(run("--games", "0").returncode, 2)


if __name__ == "__main__":
    unittest.main()
