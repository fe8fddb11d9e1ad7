#!/usr/bin/env python3
"""tools/migrate-1.0.py does what NEWS.md says (issue 23): on tests/migrate/sample-0.3.c, a 0.3 program using every
mechanical rewrite and every declaration form of the structs that need struct_size (issue 33), it writes exactly
tests/migrate/sample-1.0.c (which the build compiles against 1.0 and runs: test migrate-sample; each object there is
passed to a call that fails without its initialiser); on tests/migrate/left-0.3.c it reports exactly the lines marked
LEFT (predicates, message buffers, card names, objects it cannot initialise) and no other.

Usage: migrate-check.py SOURCE_ROOT   (TAP; standard library only)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
tool = os.path.join(root, "tools", "migrate-1.0.py")
data = os.path.join(root, "tests", "migrate")
results = []
with tempfile.TemporaryDirectory() as tmp:
    sample = os.path.join(tmp, "sample.c")
    shutil.copy(os.path.join(data, "sample-0.3.c"), sample)
    run = subprocess.run([sys.executable, tool, sample], capture_output=True, text=True)
    got = open(sample, encoding="utf-8").read()
    want = open(os.path.join(data, "sample-1.0.c"), encoding="utf-8").read()
    detail = "" if got == want else "".join(
        f"# line {i}: got {a!r}\n#         want {b!r}\n" for i, (a, b) in enumerate(zip(got.splitlines(), want.splitlines()), 1)
        if a != b)[:2000]
    results.append((run.returncode == 0 and got == want and run.stderr == "",
                    "sample-0.3.c becomes sample-1.0.c, nothing left over", detail + run.stderr))
    left = os.path.join(tmp, "left.c")
    shutil.copy(os.path.join(data, "left-0.3.c"), left)
    run = subprocess.run([sys.executable, tool, left], capture_output=True, text=True)
    reported = sorted(int(m.group(1)) for m in re.finditer(r"left\.c:(\d+): ", run.stderr))
    marked = [i for i, line in enumerate(open(os.path.join(data, "left-0.3.c"), encoding="utf-8"), 1)
              if "/* LEFT */" in line]
    results.append((run.returncode == 0 and reported == marked,
                    f"left-0.3.c: the {len(marked)} places it cannot rewrite are reported, no other",
                    f"# reported {reported}, marked {marked}\n" + run.stderr))
print(f"1..{len(results)}")
for i, (ok, name, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if not ok and detail:
        print("\n".join("# " + l.lstrip("# ") for l in detail.splitlines()))
sys.exit(0 if all(r[0] for r in results) else 1)
