"""README.md's Python example is at most 15 lines and runs: it plays a game to the end and prints the winners."""
import os
import re
import subprocess
import sys
import unittest

from support import PACKAGE_PARENT, SOURCE_ROOT


class ReadmeExample(unittest.TestCase):
    def test_python_example_runs(self):
        text = open(os.path.join(SOURCE_ROOT, "README.md"), encoding="utf-8").read()
        blocks = re.findall(r"^```python\n(.*?)^```$", text, re.S | re.M)
        self.assertEqual(len(blocks), 1)
        code = blocks[0]
        self.assertLessEqual(len(code.splitlines()), 15)
        env = dict(os.environ, PYTHONPATH=PACKAGE_PARENT)
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"(?m)^Game over after round \d+")  # str(event): the library's log line
        self.assertRegex(p.stdout, r"refused: .*game")
        self.assertRegex(p.stdout, r"final scores: \(-?\d+, -?\d+, -?\d+, -?\d+\) winners: \(\d")


if __name__ == "__main__":
    unittest.main()
