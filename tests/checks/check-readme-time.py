#!/usr/bin/env python3
"""The README's test command says what its time is, as measured (issue 45 item 13), TAP.

    check-readme-time.py README

1.1.2's README said the tests took "under a minute on two idle cores"; they used 151-169 CPU-seconds, and no idle
machine was at hand to check the minute. The sentence that introduces the test command (`meson test -C build
--print-errorlogs`) must give the CPU time in CPU-seconds, the wall time with the load it was measured under, and
the command that measured them; an unmeasured "under a minute" or "idle" is refused. (The time itself is never a
test: tests are not timed, brief "Standards".)
"""
import re
import sys

n = failed = 0


def check(cond, name, detail=""):
    global n, failed
    n += 1
    print(("ok" if cond else "not ok") + f" {n} - {name}")
    if not cond:
        failed += 1
        for line in str(detail).splitlines()[:20]:
            print("#   " + line)


with open(sys.argv[1], encoding="utf-8") as f:
    readme = f.read()
command = readme.find("meson test -C build --print-errorlogs\n")
check(command >= 0, "the README has the test command")
# the paragraph before the command's code block
before = readme[:command]
block = before.rfind("```sh")
start = before.rfind("\n\n", 0, block - 2)
claim = re.sub(r"\s+", " ", before[start:block])
check(re.search(r"\b\d+ CPU-seconds\b", claim), "the test command's time is given in CPU-seconds", claim)
check(re.search(r"\b\d+(\.\d+)? (s|min|minutes) of wall time\b", claim) and re.search(r"load average", claim),
      "and its wall time, with the load average it was measured under", claim)
check("/usr/bin/time" in claim, "and how it was measured (/usr/bin/time)", claim)
check(not re.search(r"under a minute|idle cores", claim), "no unmeasured claim (under a minute, idle cores)", claim)
print(f"1..{n}")
sys.exit(1 if failed else 0)
