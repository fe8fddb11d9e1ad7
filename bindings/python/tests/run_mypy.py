"""The meson test 'mypy': Debian's mypy over the stpete package with bindings/python/mypy.ini.

Usage: run_mypy.py CONFIG PACKAGE_DIR CACHE_DIR. Exit status 0 when mypy finds nothing, 1 with its report when it
does, 77 (meson's skip) when this interpreter has no mypy (Debian: python3-mypy)."""
import importlib.util
import subprocess
import sys

config, package, cache = sys.argv[1:4]
if importlib.util.find_spec("mypy") is None:
    print("mypy is not installed for", sys.executable, "(Debian: python3-mypy)")
    sys.exit(77)
result = subprocess.run([sys.executable, "-m", "mypy", "--config-file", config, "--cache-dir", cache, package],
                        check=False)
sys.exit(0 if result.returncode == 0 else 1)
