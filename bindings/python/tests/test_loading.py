"""Loading the shared library (doc/install.md, "Python package"): STPETE_LIBRARY, next to the package, a build
directory, find_library; one error listing every place tried; the version check."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import stpete
from stpete import _ffi
from support import LIBRARY, PACKAGE_PARENT


def run_python(code, env_changes, cwd, pythonpath):
    env = dict(os.environ)
    env.pop("STPETE_LIBRARY", None)
    env.update(env_changes)
    env["PYTHONPATH"] = pythonpath
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=60)


class Loading(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="stpete-py-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def copy_package(self, parent):
        os.makedirs(parent, exist_ok=True)
        shutil.copytree(os.path.join(PACKAGE_PARENT, "stpete"), os.path.join(parent, "stpete"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        return parent

    def test_loaded_from_environment_variable(self):
        self.assertEqual(os.path.realpath(stpete.library_path()), os.path.realpath(LIBRARY))

    def test_version_matches_binding(self):
        self.assertRegex(stpete.version(), r"^\d+\.\d+\.\d+$")
        major = int(stpete.version().split(".")[0])
        self.assertEqual(major, _ffi.EXPECTED_MAJOR)

    def test_version_check_refuses_other_major(self):
        saved = _ffi.EXPECTED_MAJOR
        _ffi.EXPECTED_MAJOR = saved + 1
        try:
            with self.assertRaises(stpete.UnsupportedVersionError) as cm:
                _ffi.load_library(LIBRARY)
        finally:
            _ffi.EXPECTED_MAJOR = saved
        self.assertIn(stpete.version(), str(cm.exception))
        self.assertEqual(cm.exception.status, -108)

    def test_version_check_refuses_older_minor(self):
        saved = _ffi.MIN_VERSION
        _ffi.MIN_VERSION = _ffi.EXPECTED_MAJOR * 10000 + 9999  # a minor version this library is older than
        try:
            with self.assertRaises(stpete.UnsupportedVersionError):
                _ffi.load_library(LIBRARY)
        finally:
            _ffi.MIN_VERSION = saved

    def test_bad_environment_variable_is_one_clear_error(self):
        bogus = os.path.join(self.tmp, "nowhere", "libstpete.so.1")
        p = run_python("import stpete", {"STPETE_LIBRARY": bogus}, self.tmp, PACKAGE_PARENT)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("LibraryNotFoundError", p.stderr)
        self.assertIn("STPETE_LIBRARY: " + bogus, p.stderr)

    def test_not_a_library(self):
        fake = os.path.join(self.tmp, "libstpete.so.1")
        with open(fake, "w") as f:
            f.write("not an ELF file\n")
        with self.assertRaises(stpete.LibraryNotFoundError) as cm:
            _ffi.load_library(fake)
        self.assertIn(fake, str(cm.exception))
        self.assertIsInstance(cm.exception, ImportError)

    def test_search_lists_every_place_tried(self):
        parent = self.copy_package(os.path.join(self.tmp, "site"))
        p = run_python("import stpete", {"LD_LIBRARY_PATH": ""}, self.tmp, parent)
        if p.returncode == 0:  # an installed copy was found by find_library: the other places were still tried
            self.skipTest("libstpete is installed system-wide; find_library found it")
        for where in ("package: " + os.path.join(parent, "stpete", "libstpete.so.1"), "build dir: ",
                      os.path.join(self.tmp, "build", "libstpete.so.1"), "find_library", "STPETE_LIBRARY"):
            self.assertIn(where, p.stderr)

    def test_found_next_to_the_package(self):
        parent = self.copy_package(os.path.join(self.tmp, "site"))
        os.symlink(os.path.realpath(LIBRARY), os.path.join(parent, "stpete", "libstpete.so.1"))
        p = run_python("import stpete; print(stpete.library_path())", {}, self.tmp, parent)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), os.path.join(parent, "stpete", "libstpete.so.1"))

    def test_found_in_a_build_directory_above(self):
        root = os.path.join(self.tmp, "checkout")
        parent = self.copy_package(os.path.join(root, "bindings", "python"))
        os.makedirs(os.path.join(root, "build"))
        os.symlink(os.path.realpath(LIBRARY), os.path.join(root, "build", "libstpete.so.1"))
        p = run_python("import stpete; print(stpete.library_path())", {}, self.tmp, parent)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), os.path.join(root, "build", "libstpete.so.1"))

    def test_found_by_find_library(self):
        libdir = os.path.join(self.tmp, "lib")
        os.makedirs(libdir)
        os.symlink(os.path.realpath(LIBRARY), os.path.join(libdir, "libstpete.so"))
        os.symlink(os.path.realpath(LIBRARY), os.path.join(libdir, "libstpete.so.1"))
        parent = self.copy_package(os.path.join(self.tmp, "site"))
        # find_library searches LD_LIBRARY_PATH (Python >= 3.6 on Linux) and the linker's paths
        p = run_python("import stpete; print(stpete.library_path())",
                       {"LD_LIBRARY_PATH": libdir, "LIBRARY_PATH": libdir}, self.tmp, parent)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("libstpete.so", p.stdout)

    def test_installed_libdir_is_searched(self):
        libdir = os.path.join(self.tmp, "prefix", "lib")
        os.makedirs(libdir)
        os.symlink(os.path.realpath(LIBRARY), os.path.join(libdir, "libstpete.so.1"))
        parent = self.copy_package(os.path.join(self.tmp, "site"))
        with open(os.path.join(parent, "stpete", "_install_config.py"), "w") as f:
            f.write(f"LIBDIR = {libdir!r}\n")
        p = run_python("import stpete; print(stpete.library_path())", {}, self.tmp, parent)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), os.path.join(libdir, "libstpete.so.1"))


if __name__ == "__main__":
    unittest.main()
