"""README.md's Python examples run: the first one of the binding (at most 15 lines) plays a game to the end and prints the winners; the
OpenSpiel-shaped search prints the move it chose. (The PettingZoo loop needs PettingZoo: pettingzoo_api.py runs
it.)"""
import os
import re
import subprocess
import sys
import unittest

from support import PACKAGE_PARENT, SOURCE_ROOT


def blocks():
    with open(os.path.join(SOURCE_ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"^```python\n(.*?)^```$", text, re.S | re.M)


def run(code):
    env = dict(os.environ, PYTHONPATH=PACKAGE_PARENT)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


class ReadmeExample(unittest.TestCase):
    def test_python_example_runs(self):
        found = [b for b in blocks() if "final_scores" in b]
        self.assertEqual(len(found), 1)
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
