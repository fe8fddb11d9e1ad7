"""The package's version and `python3 -m stpete` (issue 15): stpete.__version__ is the C library's version and
meson.build's project version; `python3 -m stpete` prints both and the path of the library it loaded."""
import os
import re
import subprocess
import sys
import unittest

import stpete
from support import SOURCE_ROOT


class Package(unittest.TestCase):
    def test_version_is_the_library_version(self):
        self.assertEqual(stpete.__version__, stpete.version())
        with open(os.path.join(SOURCE_ROOT, "meson.build")) as f:
            project = re.search(r"^\s*version: '([^']+)'", f.read(), re.M).group(1)
        self.assertEqual(stpete.__version__, project)
        with open(os.path.join(SOURCE_ROOT, "pyproject.toml")) as f:
            # the wheel's version comes from meson.build (meson-python's dynamic version)
            self.assertRegex(f.read(), r'(?m)^dynamic = \["version"\]')

    def test_main_prints_version_and_library(self):
        out = subprocess.run([sys.executable, "-m", "stpete"], capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        self.assertEqual(lines[0], f"stpete {stpete.__version__} (libstpete {stpete.version()})")
        self.assertEqual(lines[1], f"library: {stpete.library_path()}")
        self.assertTrue(os.path.exists(stpete.library_path()))


if __name__ == "__main__":
    unittest.main()
