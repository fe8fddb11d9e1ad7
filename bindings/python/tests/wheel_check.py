"""The pip-installable package (issues 15 and 26), in TAP: in a copy of the source tree, the README's pip commands
(the ```sh block with `pip install --no-build-isolation .`, in README.md or doc/*.md) run as written in a clean
shell: a private $HOME, no PYTHONPATH, and the first `python3` on PATH that is not Debian's (a pyenv one, say)
first on PATH, as on a newcomer's machine. They install the package into ~/.venvs/stpete, where it imports, finds
its own library, plays a game with the library's bots and runs `stpete-experiment`, with no PYTHONPATH or
STPETE_LIBRARY; and the wheel they build in dist/ (the library inside the `stpete` package), installed with pip
(--no-index --no-deps) into a fresh `python3 -m venv --system-site-packages`, does the same.

    wheel_check.py SOURCE_ROOT [--skip REASON]

Needs Debian's python3-mesonpy, python3-build, python3-venv and python3-pip in the interpreter running it (the
whole case is skipped, with the reason, otherwise). Builds the library again (about 10 s on 2 cores).
"""
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

PLAY = r"""
import importlib.metadata, os, sys
import stpete
assert stpete.library_path().startswith(sys.prefix), stpete.library_path()
assert os.path.dirname(stpete.library_path()) == os.path.dirname(stpete.__file__)
assert stpete.__version__ == stpete.version() == importlib.metadata.version("stpete"), stpete.__version__
game = stpete.Game(players=3, seed=5)
state = game.new_state()
bots = [stpete.Bot("greedy"), stpete.Bot("random", seed=1), stpete.Bot("ismcts", iterations=20, seed=2)]
while not state.is_terminal:
    state.apply(bots[state.current_player].choose(state))
print("winners", state.winners, "scores", state.final_scores)
"""

# Every module pydoc and pkgutil list in the installed package imports (issue 26: a bundled libstpete.so was
# listed as a module 'libstpete' whose import failed); only a missing third-party package is allowed.
MODULES = r"""
import importlib, pkgutil, stpete
bad = []
for m in pkgutil.iter_modules(stpete.__path__):
    if m.name == "__main__":
        continue
    try:
        importlib.import_module("stpete." + m.name)
    except ModuleNotFoundError as e:
        if e.name.split(".")[0] not in ("pettingzoo", "gymnasium", "numpy"):
            bad.append(f"{m.name}: {e}")
    except ImportError as e:
        bad.append(f"{m.name}: {e}")
print("modules", sorted(m.name for m in pkgutil.iter_modules(stpete.__path__)), "bad", bad)
"""

cases = []


def case(ok, name, detail=""):
    cases.append((ok, name, detail))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)


def clean_env():
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "STPETE_LIBRARY", "LD_PRELOAD", "PYTHONHOME")}
    return env


def check_venv(venv, label, env, cwd):
    py = os.path.join(venv, "bin", "python")
    out = run([py, "-c", PLAY], env=env, cwd=cwd)
    case(out.returncode == 0 and "winners" in out.stdout, f"{label}: imports its bundled library and plays a game",
         out.stdout + out.stderr)
    out = run([py, "-c", MODULES], env=env, cwd=cwd)
    case(out.returncode == 0 and out.stdout.rstrip().endswith("bad []") and "libstpete" not in out.stdout,
         f"{label}: every module pkgutil (and pydoc) lists in the package imports", out.stdout + out.stderr)
    out = run([py, "-m", "stpete"], env=env, cwd=cwd)
    lines = out.stdout.splitlines()
    case(out.returncode == 0 and len(lines) == 2 and lines[1].startswith("library: " + venv),
         f"{label}: python -m stpete names the library in the venv", out.stdout + out.stderr)
    script = os.path.join(venv, "bin", "stpete-experiment")
    out = run([script, "--games", "3", "--arm", "a:players=2:bots=greedy,random"], env=env, cwd=cwd)
    case(out.returncode == 0 and "arm a: 2 players" in out.stdout, f"{label}: stpete-experiment runs",
         out.stdout + out.stderr)


def readme_pip_block(source):
    """The README's pip commands: the one sh block that runs `pip install --no-build-isolation .`."""
    found = []
    for path in [os.path.join(source, "README.md")] + sorted(glob.glob(os.path.join(source, "doc", "*.md"))):
        with open(path, encoding="utf-8") as f:
            found += [b for b in re.findall(r"^```sh\n(.*?)^```$", f.read(), re.S | re.M)
                      if "pip install --no-build-isolation ." in b]
    return found


def foreign_python(env):
    """The bin directory of the first python3 on PATH that is not Debian's /usr/bin/python3 (through pyenv's
    shims to the real interpreter), or None when Debian's is the only one."""
    for d in env.get("PATH", "").split(os.pathsep):
        exe = os.path.join(d, "python3")
        if os.access(exe, os.X_OK) and os.path.realpath(exe) != os.path.realpath("/usr/bin/python3"):
            out = run([exe, "-c", "import sys; print(sys.executable)"], env=env)
            real = out.stdout.strip()
            if out.returncode == 0 and real and os.path.realpath(real) != os.path.realpath("/usr/bin/python3"):
                return os.path.dirname(real)
    return None


def main():
    source = os.path.abspath(sys.argv[1])
    skip = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--skip" else None
    missing = [m for m in ("mesonpy", "build", "venv", "pip") if importlib.util.find_spec(m) is None]
    if missing and not skip:
        skip = f"{sys.executable} lacks {', '.join(missing)} (Debian: python3-mesonpy python3-build python3-venv " \
               f"python3-pip)"
    if skip:
        print(f"1..0 # SKIP {skip}")
        return 0
    tmp = tempfile.mkdtemp(prefix="stpete-wheel-")
    try:
        # a copy of the source tree (no build directories, no git): the build writes nothing into the checkout
        tree = os.path.join(tmp, "src")
        shutil.copytree(source, tree, ignore=shutil.ignore_patterns("build*", ".git", ".mesonpy*", "__pycache__",
                                                                     "dist"))
        env = clean_env()
        blocks = readme_pip_block(source)
        case(len(blocks) == 1, "the README has one block of pip commands", f"{len(blocks)} found")
        home = os.path.join(tmp, "home")
        os.mkdir(home)
        shell_env = {k: v for k, v in env.items() if not k.startswith(("VIRTUAL_ENV", "PYENV", "XDG_"))}
        shell_env["HOME"] = home
        foreign = foreign_python(env)
        if foreign:
            shell_env["PATH"] = foreign + os.pathsep + env.get("PATH", "")
        which = run(["bash", "-c", "command -v python3"], env=shell_env).stdout.strip()
        out = run(["bash", "-euc", blocks[0] if blocks else "false"], env=shell_env, cwd=tree)
        case(out.returncode == 0 and re.search(r"(?m)^stpete \S+ \(libstpete \S+\)$", out.stdout),
             f"the README's pip commands run as written (private HOME, python3 first on PATH: {which})",
             out.stdout[-3000:] + out.stderr[-3000:])
        venv2 = os.path.join(home, ".venvs", "stpete")
        if cases[-1][0]:
            check_venv(venv2, "pip install . (README)", env, tmp)
        dist = os.path.join(tree, "dist")
        wheels = [f for f in os.listdir(dist)] if os.path.isdir(dist) else []
        case(len(wheels) == 1 and wheels[0].endswith(".whl"), "the README's python3 -m build --wheel made a wheel",
             " ".join(wheels))
        if cases[-1][0]:
            import zipfile
            names = zipfile.ZipFile(os.path.join(dist, wheels[0])).namelist()
            case("stpete/libstpete.so.1" in names and "stpete/experiment.py" in names and
                 not any(n.endswith(".h") or "/bin/" in n or n.endswith(".pc") for n in names),
                 "the wheel holds the package with its library, and no headers, programs or pkg-config file",
                 "\n".join(names))
            venv = os.path.join(tmp, "venv")
            out = run([sys.executable, "-m", "venv", "--system-site-packages", venv], env=env)
            case(out.returncode == 0, "python3 -m venv --system-site-packages", out.stderr)
            out = run([os.path.join(venv, "bin", "pip"), "install", "--no-index", "--no-deps",
                       os.path.join(dist, wheels[0])], env=env, cwd=tmp)
            case(out.returncode == 0, "pip install the wheel into the venv", out.stdout + out.stderr)
            check_venv(venv, "wheel", env, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{len(cases)}")
    for n, (ok, name, detail) in enumerate(cases, 1):
        print(f"{'ok' if ok else 'not ok'} {n} - {name}")
        if not ok:
            for line in detail.rstrip().splitlines():
                print(f"# {line}")
    return 0 if all(ok for ok, _, _ in cases) else 1


if __name__ == "__main__":
    sys.exit(main())
