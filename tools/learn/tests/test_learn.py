"""The training command end to end, in seconds (tools/learn/learn.py --smoke): self-play through the OpenSpiel-shaped
interface, training with PyTorch, the integer network written as C data with its training record, the report and
its plot; the written file reads back to the same networks, and the integer network gives the held-out loss the
report states. Needs Debian's python3-torch (and python3-matplotlib for the plot)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
LEARN = os.path.join(HERE, "..")
sys.path.insert(0, LEARN)
import export  # noqa: E402

try:
    import torch  # noqa: F401
except ImportError:  # pragma: no cover
    raise unittest.SkipTest("no PyTorch (apt-get install python3-torch)")


class Smoke(unittest.TestCase):
    def test_a_smoke_run_writes_weights_the_c_code_reads(self):
        with tempfile.TemporaryDirectory() as tmp:
            out, report = os.path.join(tmp, "weights.c"), os.path.join(tmp, "report")
            data = os.path.join(tmp, "data")
            cmd = [sys.executable, os.path.join(LEARN, "learn.py"), "--smoke", "--seed", "5", "--hidden", "16",
                   "--out", out, "--report", report, "--data-dir", data]
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            nets, record = export.read_c(out)
            self.assertEqual([(n.tensor, n.hidden, n.outputs) for n in nets], [(668, 16, 4), (972, 16, 5)])
            self.assertTrue(record[0].startswith("command: ") and "--smoke" in record[0], record)
            self.assertTrue(any(line.startswith("base: ") for line in record), record)
            self.assertTrue(any(line.startswith("new_society: ") for line in record), record)
            with open(os.path.join(report, "report.json")) as fh:
                rep = json.load(fh)
            self.assertTrue(os.path.getsize(os.path.join(report, "learning-curves.png")) > 1000)
            for f_index, family in enumerate(("base", "new_society")):
                r = rep["families"][family]
                self.assertGreater(r["selfplay"]["games"], 0)
                self.assertEqual(len(r["curve"]), 1)
                self.assertTrue(np.isfinite(r["int_val_loss"]))
                # the file's network gives the loss the report states, on the kept data
                with np.load(os.path.join(data, f"{family}.npz")) as d:
                    val = d["G"] % 5 == 0
                    rows = {k: d[k] for k in ("X", "R", "M")}
                import train
                loss, _ = train.int_loss(nets[f_index], rows, val)
                self.assertAlmostEqual(loss, r["int_val_loss"], places=9)
            # the same command again reads the kept self-play data and writes the same weights
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assertIn("read ", run.stdout)
            again, _ = export.read_c(out)
            for a, b in zip(nets, again):
                for field in ("limit", "w1", "b1", "w2", "b2"):
                    self.assertTrue(np.array_equal(getattr(a, field), getattr(b, field)), field)
                self.assertEqual((a.shift1, a.shift2), (b.shift1, b.shift2))

    def test_matches_play_arena_runs_and_record_them(self):
        """matches.py plays its matches with stpete-arena (tools/bot-match, which it ran until issue 40 removed it,
        is gone): runs summed, both bots' rates per seat adding up to 1, the result in a weights file's record."""
        build = os.path.dirname(os.environ.get("STPETE_LIBRARY", ""))
        if not os.path.exists(os.path.join(build, "tools", "stpete-arena")):
            self.skipTest("no stpete-arena beside the library")
        source = os.path.join(LEARN, "..", "..", "lib", "bots", "bot_value_data.c")
        with tempfile.TemporaryDirectory() as tmp:
            weights = os.path.join(tmp, "weights.c")
            with open(source) as f, open(weights, "w") as g:
                g.write(f.read())
            run = subprocess.run([sys.executable, os.path.join(LEARN, "matches.py"), "--build", build, "--only",
                                  "2p-greedy=4", "--chunk", "2", "--learned", "learned:iterations=20", "--record",
                                  weights], capture_output=True, text=True, timeout=300)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            rows = [line.split(" | ") for line in run.stdout.splitlines() if line.startswith("| 2p-greedy | 4 |")]
            self.assertEqual(len(rows), 4, run.stdout)  # each bot's row, as each match ends and in the whole table
            rates = {row[2]: float(row[3].split("**")[1]) for row in rows}
            self.assertEqual(set(rates), {"`learned:iterations=20`", "`greedy`"}, run.stdout)
            self.assertAlmostEqual(sum(rates.values()), 1.0, places=6)
            _, record = export.read_c(weights)
            self.assertEqual(len([line for line in record if line.startswith("match: 2p-greedy, 4 games")]), 1,
                             record)

    def test_bad_arguments(self):
        for args in (["--families", "chess"], ["--hidden", "20"], ["--games", "0"]):
            run = subprocess.run([sys.executable, os.path.join(LEARN, "learn.py")] + args, capture_output=True,
                                 text=True, timeout=120)
            self.assertEqual(run.returncode, 2, args)
            self.assertIn("error", run.stderr)


if __name__ == "__main__":
    unittest.main()
