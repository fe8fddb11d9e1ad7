"""stpete.experiment on Dask and its plots (issue 15), with Debian's python3-distributed and python3-matplotlib
(each case is skipped where its package is missing): the same seeds give the same rows on a LocalCluster as in
local processes; a batch lost with a worker is re-run; an unreachable scheduler is a clear error after the
timeout; --plot writes PNG and SVG."""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from stpete import experiment as E

HAVE_DASK = importlib.util.find_spec("distributed") is not None
HAVE_MPL = importlib.util.find_spec("matplotlib") is not None
ARMS = ["--arm", "a:players=2:bots=greedy,random", "--arm", "b:players=2:pub_cap=per-player:bots=random,greedy"]


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "stpete.experiment", *args], capture_output=True, text=True,
                          timeout=300, env=env)


def rows(path):
    r, _, bad = E.read_rows(path)
    assert bad == 0
    return sorted(r, key=lambda x: (x["arm"], x["game"], x["seat"]))


class Dask(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="stpete-dask-")
        cls.local = os.path.join(cls.tmp, "local.jsonl")
        out = run("--games", "8", "--seed", "3", "--out", cls.local, "--jobs", "2", "--quiet", *ARMS)
        assert out.returncode == 0, out.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @unittest.skipUnless(HAVE_DASK, "python3-distributed is not installed")
    def test_local_cluster_threads_equals_processes(self):
        path = os.path.join(self.tmp, "threads.jsonl")
        out = run("--games", "8", "--seed", "3", "--out", path, "--dask-local", "2", "--dask-threads", "--batch",
                  "3", "--quiet", *ARMS)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(rows(path), rows(self.local))

    @unittest.skipUnless(HAVE_DASK, "python3-distributed is not installed")
    def test_lost_worker_batch_is_rerun(self):
        """Worker processes; the first batch kills its worker (a test hook of play_batch): the batch is re-run
        and no row is lost or duplicated."""
        path = os.path.join(self.tmp, "killed.jsonl")
        env = dict(os.environ, STPETE_EXPERIMENT_KILL_ONCE=os.path.join(self.tmp, "killed-once"))
        out = run("--games", "8", "--seed", "3", "--out", path, "--dask-local", "2", "--batch", "2", "--quiet",
                  *ARMS, env=env)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertTrue(os.path.exists(env["STPETE_EXPERIMENT_KILL_ONCE"]))  # a worker did die
        self.assertEqual(rows(path), rows(self.local))

    @unittest.skipUnless(HAVE_DASK, "python3-distributed is not installed")
    def test_existing_scheduler(self):
        """--scheduler ADDRESS: a cluster started elsewhere (here in this process, workers as threads)."""
        import distributed
        cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                           dashboard_address=None, scheduler_port=0, protocol="tcp",
                                           host="127.0.0.1")
        try:
            path = os.path.join(self.tmp, "scheduler.jsonl")
            out = run("--games", "8", "--seed", "3", "--out", path, "--scheduler", cluster.scheduler_address,
                      "--batch", "4", *ARMS)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn(f"Dask scheduler {cluster.scheduler_address}: 1 workers", out.stderr)
            self.assertEqual(rows(path), rows(self.local))
        finally:
            cluster.close()

    @unittest.skipUnless(HAVE_DASK, "python3-distributed is not installed")
    def test_unreachable_scheduler(self):
        start = time.monotonic()
        out = run("--games", "2", "--arm", "a", "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "1")
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertIn("cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 1 s", out.stderr)
        self.assertNotIn("Traceback", out.stderr)
        self.assertLess(time.monotonic() - start, 60)

    @unittest.skipUnless(HAVE_MPL, "python3-matplotlib is not installed")
    def test_plots(self):
        plots = os.path.join(self.tmp, "plots")
        out = run("--games", "8", "--seed", "3", "--out", self.local, "--resume", "--plot", plots, *ARMS)
        self.assertEqual(out.returncode, 0, out.stderr)
        for name in ("winrate", "vp", "cards"):
            with open(os.path.join(plots, name + ".png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            with open(os.path.join(plots, name + ".svg")) as f:
                self.assertIn("<svg", f.read())
        self.assertIn("plots: ", out.stderr)

    def test_no_optional_import_without_options(self):
        code = ("import sys; from stpete import experiment as E; E.main(['--games', '2', '--arm', 'a', '--quiet']);"
                "print('distributed' in sys.modules, 'matplotlib' in sys.modules)")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        self.assertEqual(out.stdout.strip(), "False False", out.stderr)


if __name__ == "__main__":
    unittest.main()
