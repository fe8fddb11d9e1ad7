#!/usr/bin/env python3
"""doc/rules.md is the project's copy of the rules specification and must equal the authoritative one,
../shared/rules/saint-petersburg.md (issue 11 item 8), when that is present (it is outside the project: a clone
alone has no ../shared, and the test then reports SKIP).

Usage: check-spec-sync.py SOURCE_ROOT      (TAP output)
"""
import difflib
import os
import sys

root = sys.argv[1]
ours = os.path.join(root, "doc", "rules.md")
spec = os.path.normpath(os.path.join(root, "..", "shared", "rules", "saint-petersburg.md"))
print("1..1")
if not os.path.exists(spec):
    print(f"ok 1 - doc/rules.md equals the shared rules specification # SKIP {spec} is not present")
    sys.exit(0)
a = open(spec, encoding="utf-8").read().splitlines(keepends=True)
b = open(ours, encoding="utf-8").read().splitlines(keepends=True)
if a == b:
    print("ok 1 - doc/rules.md equals the shared rules specification")
    sys.exit(0)
print("not ok 1 - doc/rules.md equals the shared rules specification")
for line in list(difflib.unified_diff(a, b, spec, ours))[:40]:
    print("# " + line.rstrip("\n"))
sys.exit(1)
