#!/usr/bin/env python3
"""The files of lib/ call each other in layers, never in a circle (issue 11; lib/stpete_internal.h describes the
layers).

Usage: check-layers.py STATIC_LIBRARY SOURCE_ROOT

Reads the object files of the library (`nm` on the static archive): file A calls file B when A uses a symbol that
B defines. Checks, in TAP:
  1. the graph of those calls has no cycle (a cycle is printed if found);
  2. the engine files (rules.c, legal.c, events.c, observe.c, observation.c, history.c) and the fact files below
     them never call the handle files (state.c, game.c, serialize.c, search.c): the engine works on a plain position
     and a sink; every file of lib/ is listed in one of the two sets;
  3. the bots (lib/bots/*.c, when present) include only the public headers, never stpete_internal.h: they are
     written against the public API, as any user would write them.
Standard library only (plus binutils' nm).
"""
import glob
import os
import re
import subprocess
import sys

archive, root = sys.argv[1:3]
out = subprocess.run(["nm", "-A", archive], check=True, capture_output=True, text=True).stdout
defined, used = {}, {}
for line in out.splitlines():
    member, _, rest = line.rpartition(":")
    name = os.path.basename(member.split(":")[-1])
    m = re.match(r"(?:lib_)?(?:bots_)?(\w+)\.c\.o$", name)  # lib_bots_bot.c.o -> bot.c
    if not m:
        continue
    unit = m.group(1) + ".c"
    parts = rest.split()
    kind, sym = (parts[0], parts[1]) if len(parts) == 2 else (parts[1], parts[2])
    if kind == "U":
        used.setdefault(unit, set()).add(sym)
    elif kind in "TDRB":
        defined[sym] = unit
edges = {}
for unit, syms in used.items():
    for sym in syms:
        target = defined.get(sym)
        if target and target != unit:
            edges.setdefault(unit, set()).add(target)

results = []


def check(ok, name, detail=""):
    results.append((ok, name, detail))


# 1. no cycle (depth-first search with colours)
state, stack, cycle = {}, [], []


def visit(u):
    state[u] = 1
    stack.append(u)
    for v in sorted(edges.get(u, ())):
        if state.get(v) == 1 and not cycle:
            cycle.extend(stack[stack.index(v):] + [v])
        elif v not in state:
            visit(v)
    stack.pop()
    state[u] = 2


for u in sorted(set(edges) | set(defined.values())):
    if u not in state:
        visit(u)
check(not cycle, "no two files of lib/ call each other in a circle", " -> ".join(cycle))

# 2. the engine and the facts never reach up into the handle layer
handles = {"state.c", "game.c", "search.c", "json_read.c", "json_write.c", "replay.c"}
engine = {"rules.c", "legal.c", "events.c", "observe.c", "observation.c", "history.c", "validate.c", "cards.c",
          "price.c", "scoring.c", "rng.c", "actions.c", "names.c", "eventlog.c"}
bad = sorted(f"{u} -> {v}" for u in engine for v in edges.get(u, ()) if v in handles)
check(not bad, "the engine and the fact files call no handle file (" + ", ".join(sorted(handles)) + ")",
      ", ".join(bad))
# the bots (lib/bots/) sit above the public API: nothing of the library calls them
bots = {u for u in set(defined.values()) | set(edges) if u.startswith("bot")}
bad = sorted(f"{u} -> {v}" for u in handles | engine for v in edges.get(u, ()) if v in bots)
check(not bad, "no file of the library below the bots calls them", ", ".join(bad))
unknown = sorted(set(defined.values()) - handles - engine - bots)
check(not unknown, "every file of lib/ has a layer in this check", ", ".join(unknown))

# 3. the bots use the public API only
offenders = [p for p in glob.glob(os.path.join(root, "lib", "bots", "*.[ch]"))
             if re.search(r'#\s*include\s*[<"][^>"]*stpete_internal\.h', open(p, encoding="utf-8").read())]
check(not offenders, "lib/bots/ includes no internal header", ", ".join(offenders))

print(f"1..{len(results)}")
for i, (ok, name, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if detail and not ok:
        print(f"# {detail}")
for u in sorted(edges):
    print(f"# {u} -> {', '.join(sorted(edges[u]))}")
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
