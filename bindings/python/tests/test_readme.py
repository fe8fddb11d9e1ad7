"""The Python examples of README.md and doc/*.md run: the README's (at most 15 lines) plays a game to the end and
prints the winners; the OpenSpiel-shaped search (doc/python.md) prints the move it chose. (The PettingZoo loop
needs PettingZoo: pettingzoo_api.py runs it.)"""
import glob
import os
import re
import subprocess
import sys
import unittest

from support import PACKAGE_PARENT, SOURCE_ROOT


def blocks(only=None):
    """The ```python blocks of README.md and doc/*.md (or of the file named only)."""
    paths = [os.path.join(SOURCE_ROOT, "README.md")] + sorted(glob.glob(os.path.join(SOURCE_ROOT, "doc", "*.md")))
    found = []
    for path in paths:
        if only and os.path.basename(path) != only:
            continue
        with open(path, encoding="utf-8") as f:
            found += re.findall(r"^```python\n(.*?)^```$", f.read(), re.S | re.M)
    return found


def run(code):
    env = dict(os.environ, PYTHONPATH=PACKAGE_PARENT)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


class ReadmeExample(unittest.TestCase):
    def test_python_example_runs(self):
        found = [b for b in blocks() if "final_scores" in b]
        self.assertEqual(len(found), 1)
        self.assertEqual(found, [b for b in blocks("README.md") if "final_scores" in b])  # the quickstart's
        code = found[0]
        self.assertLessEqual(len(code.splitlines()), 15)
        p = run(code)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"(?m)^Game over after round \d+")  # str(event): the library's log line
        self.assertRegex(p.stdout, r"refused: .*game")
        self.assertRegex(p.stdout, r"final scores: \(-?\d+, -?\d+, -?\d+, -?\d+\) winners: \(\d")

    def test_openspiel_search_runs(self):
        found = [b for b in blocks() if "import openspiel" in b]
        self.assertEqual(len(found), 1)
        p = run(found[0])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"^seat 0: \w.* \(wins \d+% of its playouts\)\n$")

    def test_every_block_is_run_by_a_test(self):
        tested = ("final_scores", "import openspiel", "stpete.pettingzoo")
        self.assertEqual([b for b in blocks() if not any(mark in b for mark in tested)], [])


if __name__ == "__main__":
    unittest.main()
