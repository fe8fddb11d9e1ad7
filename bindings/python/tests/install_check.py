"""Install check of the Python package (TAP): `meson install` into a temporary DESTDIR puts the package `stpete`
into the interpreter's install directory with _install_config.py naming the installed library directory, and the
installed package imports, loads the installed libstpete and plays a game.

    python3 install_check.py BUILD_DIR PYTHON_INSTALL_DIR LIBDIR on-path|off-path

on-path: meson chose a directory this interpreter searches (its own purelib, or its user site for a prefix of
$HOME/.local), so an installed copy imports without PYTHONPATH; off-path: meson warned at setup that it does not,
and the check is that the warning is true (issue 26: it was a SKIP, and the warning was false for the user site).
"""
import os
import site
import subprocess
import sys
import tempfile

build, purelib, libdir, where = sys.argv[1:5]
results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))
    return ok


with tempfile.TemporaryDirectory(prefix="stpete-pyinstall-") as dest:
    p = subprocess.run(["meson", "install", "-C", build, "--no-rebuild", "--quiet", "--destdir", dest],
                       capture_output=True, text=True, timeout=300)
    if check("meson install into a DESTDIR", p.returncode == 0, p.stdout + p.stderr):
        package = dest + os.path.join(purelib, "stpete")
        for name in ("__init__.py", "_core.py", "_ffi.py", "env.py", "errors.py", "openspiel.py", "pettingzoo.py",
                     "_install_config.py"):
            check(f"installed {name}", os.path.isfile(os.path.join(package, name)), package)
        config = {}
        config_path = os.path.join(package, "_install_config.py")
        if os.path.isfile(config_path):
            exec(open(config_path).read(), config)
        check("_install_config.py names the library directory", config.get("LIBDIR") == libdir,
              f"{config.get('LIBDIR')} != {libdir}")
        installed_lib = dest + os.path.join(libdir, "libstpete.so.1")
        check("libstpete.so.1 installed there", os.path.exists(installed_lib), installed_lib)
        env = dict(os.environ, PYTHONPATH=dest + purelib, STPETE_LIBRARY=installed_lib)
        code = ("import stpete, random; s = stpete.Game(players=2, seed=3).new_state()\n"
                "while not s.is_terminal: s.apply(random.choice(s.legal_actions()))\n"
                "print(stpete.__file__); print(stpete.library_path()); print(len(s.final_scores))")
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=dest,
                           timeout=120)
        lines = p.stdout.split()
        check("the installed package plays a game with the installed library",
              p.returncode == 0 and len(lines) == 3 and lines[0].startswith(package) and lines[1] == installed_lib
              and lines[2] == "2", p.stdout + p.stderr)

# Where the package goes: a directory this interpreter searches when meson said so, and one it does not search
# when meson warned. The user site is searched once it exists (site.py adds it at start-up then).
usersite = site.getusersitepackages() if site.ENABLE_USER_SITE else None
searched = purelib in sys.path or purelib == usersite
if where == "on-path":
    check("the install directory is searched by this interpreter (no PYTHONPATH needed)",
          searched, f"{purelib} not in {sys.path} and not the user site {usersite}")
else:
    check("meson's warning is true: this interpreter does not search the install directory",
          not searched, f"{purelib} is in {sys.path} or the user site {usersite}")

print(f"1..{len(results)}")
for i, (name, ok, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if not ok and detail:
        for line in detail.strip().splitlines():
            print(f"# {line}")
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
