#!/usr/bin/env python3
"""Every program answers alike (issue 26), TAP: `--help` and `-h` print its usage on standard output and exit 0;
`--version` prints exactly "NAME VERSION" and exits 0; an unknown option prints one line on standard error that
names it and hints at --help, nothing on standard output, and exits 2.

  cli-check.py VERSION [--man DIR] PROGRAM... [-- PYTHON PACKAGE_PARENT LIBRARY]

Every --help fits 80 columns; with --man, the man pages of DIR (help2man's, from --help) write "§" and keep every
option apart from its text.

The programs are the built C programs (their NAME is the file name); after `--`, `python3 -m stpete.experiment`
(NAME stpete-experiment) with the package from PACKAGE_PARENT and the library LIBRARY.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "include"))  # tap_report.py
from tap_report import report  # noqa: E402  (tests/include/tap_report.py)

version, rest = sys.argv[1], sys.argv[2:]
man_dir = None
if "--man" in rest:  # the directory of the man pages, when help2man made them
    at = rest.index("--man")
    man_dir, rest = rest[at + 1], rest[:at] + rest[at + 2:]
programs = rest[:rest.index("--")] if "--" in rest else rest
python = rest[rest.index("--") + 1:] if "--" in rest else []
commands = [(os.path.basename(p), [p], None) for p in programs]
if python:
    py, parent, library = python
    env = dict(os.environ, PYTHONPATH=parent, STPETE_LIBRARY=library, PYTHONDONTWRITEBYTECODE="1")
    commands.append(("stpete-experiment", [py, "-m", "stpete.experiment"], env))
results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))


def run(cmd, env, *args):
    return subprocess.run(cmd + list(args), capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL,
                          timeout=60)


for name, cmd, env in commands:
    for flag in ("--help", "-h"):
        p = run(cmd, env, flag)
        check(f"{name} {flag}: usage on stdout, exit 0", p.returncode == 0 and "usage" in p.stdout.lower()
              and not p.stderr, f"exit {p.returncode}\n{p.stdout[:300]}\n{p.stderr}")
    p = run(cmd, env, "--help")
    wide = [f"{len(line)}: {line}" for line in p.stdout.splitlines() if len(line) > 80]
    check(f"{name} --help: every line within 80 columns (issue 45; the man page is made from it)", not wide,
          "\n".join(wide))
    if name == "stpete-experiment":  # argparse prints its description as written: 95%, not 95%%
        p = run(cmd, env, "--help")
        check(f"{name} --help says 95% intervals", "95% intervals" in p.stdout and "%%" not in p.stdout, p.stdout)
    p = run(cmd, env, "--version")
    check(f"{name} --version: '{name} {version}', exit 0", p.returncode == 0 and p.stdout == f"{name} {version}\n"
          and not p.stderr, f"exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    for bad in ("--no-such-option", "--version-x"):
        p = run(cmd, env, bad)
        lines = p.stderr.splitlines()
        check(f"{name} {bad}: one line naming it with the --help hint, exit 2",
              p.returncode == 2 and not p.stdout and len(lines) == 1 and bad in lines[0] and "--help" in lines[0],
              f"exit {p.returncode}\nstdout: {p.stdout[:300]}\nstderr: {p.stderr}")

# The man pages (help2man, from --help): "§" is itself (help2man in a C locale wrote "??"), and every option's
# entry is the option and its value alone, its text below (an option two spaces short ran into its text).
for page in sorted(os.listdir(man_dir)) if man_dir else []:
    if not page.endswith(".1"):
        continue
    text = open(os.path.join(man_dir, page), encoding="utf-8").read()
    check(f"{page}: no '??' for a character help2man could not write", "??" not in text,
          [line for line in text.splitlines() if "??" in line][:5])
    lines = text.splitlines()
    runs = [lines[i + 1] for i, line in enumerate(lines[:-1]) if line == ".TP" and
            len(re.sub(r"\\f[BRI]", "", lines[i + 1]).split(" ")) > 2 and lines[i + 1].startswith("\\fB")]
    check(f"{page}: no option runs into its text", not runs, "\n".join(runs))

report(results)
