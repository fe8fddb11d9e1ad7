#!/usr/bin/env python3
"""Comments say what is; history goes to NEWS.md (issue 32 item 7). Refuses version narration in the library's
sources and public headers: a release number after a word that tells a story ("since 0.1", "Added in 0.3",
"ids of 0.3.0", "changed in 1.0", "new in 1.0"), a release's possessive ("0.3's") or a range of releases
("0.1-0.2"). A section (§3.3), a ruling, a number with a unit or an option value (c=0.7) is not a release number.
An availability note of the current ABI ("since 1.1", "Added in 1.2": what a 1.x caller must link against, as
GLib's "Since:") is documentation, not history, and is allowed.

Usage: check-narration.py SOURCE_ROOT      (TAP output)
"""
import glob
import os
import re
import sys

root = sys.argv[1]
RELEASE = r"(?<![§\w.=\-])v?[01]\.\d+(?:\.\d+)?(?![\d.]*\d)"
NARRATION = re.compile(
    r"(?i)\b(?:since|added in|changed in|new in|removed in|renamed in|as of|until|of|in|from|before|after)\s+"
    r"(?:version\s+|release\s+|libstpete\s+)?" + RELEASE + r"(?!\s*(?:VP|R|ms|ns|s|%)\b)"
    r"|" + RELEASE + r"'s\b"
    r"|" + RELEASE + r"\s*[-–]\s*[01]\.\d+")
paths = sorted(glob.glob(os.path.join(root, "lib", "**", "*.[ch]"), recursive=True) +
               glob.glob(os.path.join(root, "include", "stpete", "*.h*")))
bad = []
for path in paths:
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        m = next((m for m in NARRATION.finditer(line)
                  if not re.fullmatch(r"(?i)(?:since|added in)\s+1\.[1-9]\d*(?:\.\d+)?", m.group(0))), None)
        if m:
            bad.append(f"{os.path.relpath(path, root)}:{no}: \"{m.group(0)}\"")
print("1..2")
print(f"{'ok' if paths else 'not ok'} 1 - {len(paths)} files of lib/ and include/stpete/ read")
print(f"{'ok' if not bad else 'not ok'} 2 - no comment narrates releases (history belongs in NEWS.md)")
for b in bad:
    print(f"# {b}")
sys.exit(0 if paths and not bad else 1)
