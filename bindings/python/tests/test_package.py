"""The package's version and `python3 -m stpete` (issue 15): stpete.__version__ is the C library's version and
meson.build's project version; `python3 -m stpete` prints both and the path of the library it loaded. Issue 32: the
package's modules import each other in one direction only (stpete.experiment and stpete._plots imported each
other), and the soak loops of the quick suite are short, their long runs in the suite `slow`."""
import ast
import os
import re
import subprocess
import sys
import unittest

import stpete
import support
from support import PACKAGE_PARENT, SOURCE_ROOT

PACKAGE = os.path.join(PACKAGE_PARENT, "stpete")


def imports_of(module):
    """The package's modules that ``module`` (a name such as "experiment") imports, anywhere in its file (imports
    inside functions too): ``from . import x``, ``from .x import y``, ``import stpete.x``, ``from stpete import x``
    and ``import stpete`` (the package, "__init__")."""
    with open(os.path.join(PACKAGE, module + ".py")) as f:
        tree = ast.parse(f.read())
    modules = {name.split(".")[0] for name in os.listdir(PACKAGE) if name.endswith((".py", ".py.in"))}  # .in: made
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "stpete":
                    found.add(parts[1] if len(parts) > 1 else "__init__")
        elif isinstance(node, ast.ImportFrom):
            if node.level == 1 or node.module == "stpete" or (node.module or "").startswith("stpete."):
                base = node.module if node.level == 1 else (node.module or "")[len("stpete."):] or None
                if base:
                    found.add(base.split(".")[0])
                else:  # from . import x, y: a module each, or a name of the package
                    found.update(a.name if a.name in modules else "__init__" for a in node.names)
    return found - {module}


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


    def test_no_import_circle(self):
        """the import graph of the package's modules has no circle (a depth-first search for a back edge)"""
        modules = sorted(name[:-3] for name in os.listdir(PACKAGE) if name.endswith(".py"))
        graph = {m: imports_of(m) for m in modules}
        self.assertIn("_plots", graph["experiment"])  # the graph is read (the runner draws the plots)
        state, path = {}, []

        def visit(m):
            state[m] = "open"
            path.append(m)
            for n in sorted(graph.get(m, ())):
                if state.get(n) == "open":
                    self.fail("import circle: " + " -> ".join(path[path.index(n):] + [n]))
                if n not in state:
                    visit(n)
            path.pop()
            state[m] = "done"

        for m in modules:
            if m not in state:
                visit(m)

    def test_soak_loops_are_short_in_the_quick_suite(self):
        """the time-bound loops of the binding's tests (threads hammering one state, bots closed under use) run
        support.SOAK_SECONDS: short in the quick suite, long in `python-soak` (suite slow, meson.build)"""
        import test_reliability
        import test_threads
        for module in (test_threads, test_reliability):
            self.assertEqual(module.SECONDS, support.SOAK_SECONDS, module.__name__)
        if "STPETE_SOAK_SECONDS" not in os.environ:
            self.assertLessEqual(support.SOAK_SECONDS, 0.5)
        with open(os.path.join(SOURCE_ROOT, "bindings", "python", "meson.build")) as f:
            build = f.read()
        soak = build[build.index("test('python-soak'"):]
        soak = soak[:soak.index(")\n") + 1]  # the call, up to its closing parenthesis
        self.assertIn("'slow'", soak)
        self.assertIn("test_threads.py", soak)
        self.assertIn("test_reliability.py", soak)
        self.assertRegex(build, r"python_soak_env\.set\('STPETE_SOAK_SECONDS', '(\d+)'\)")
        seconds = int(re.search(r"python_soak_env\.set\('STPETE_SOAK_SECONDS', '(\d+)'\)", build).group(1))
        self.assertGreaterEqual(seconds, 3)


if __name__ == "__main__":
    unittest.main()
