#!/usr/bin/env python3
"""The files of lib/ call each other in layers, never in a circle (issues 11 and 23; lib/facts.h describes the
layers).

Usage: check-layers.py STATIC_LIBRARY SOURCE_ROOT

Reads the object files of the library (`nm` on the static archive): file A calls file B when A uses a symbol that
B defines. Checks, in TAP:
  1. the graph of those calls has no cycle (a cycle is printed if found);
  2. the engine files (rules.c, legal.c, validate.c, events.c, observe.c, observation.c, history.c) and the fact
     files below them never call the handle files (state.c, game.c, search.c, eventlog.c, json_read.c,
     json_write.c, replay.c): the engine works on a plain position and a sink; every file of lib/ is listed in one
     of the two sets; the fact files that need no position (cards.c, actions.c, names.c, rng.c) call only each
     other;
  3. each file of lib/ includes the internal header of its layer only (facts.h, core.h, handles.h, json.h; a header
     includes the one below it), so the layout shows the layers: the fact files that need no position include
     facts.h, the engine core.h, the handles handles.h, the JSON files json.h; jansson only in json.h;
  4. the bots (lib/bots/*.c, when present) include only the public headers, never an internal header: they are
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
handles = {"state.c", "game.c", "search.c", "eventlog.c", "json_read.c", "json_write.c", "replay.c"}
engine = {"rules.c", "legal.c", "events.c", "observe.c", "observation.c", "history.c", "validate.c", "cards.c",
          "price.c", "scoring.c", "rng.c", "actions.c", "names.c", "detail.c"}
bad = sorted(f"{u} -> {v}" for u in engine for v in edges.get(u, ()) if v in handles)
check(not bad, "the engine and the fact files call no handle file (" + ", ".join(sorted(handles)) + ")",
      ", ".join(bad))
# the facts that need no position (facts.h) call nothing above them
facts = {"cards.c", "actions.c", "names.c", "rng.c", "detail.c"}
bad = sorted(f"{u} -> {v}" for u in facts for v in edges.get(u, ()) if v not in facts)
check(not bad, "the fact files (" + ", ".join(sorted(facts)) + ") call only each other", ", ".join(bad))
# the bots (lib/bots/) sit above the public API: nothing of the library calls them
bots = {u for u in set(defined.values()) | set(edges) if u.startswith("bot")}
bad = sorted(f"{u} -> {v}" for u in handles | engine for v in edges.get(u, ()) if v in bots)
check(not bad, "no file of the library below the bots calls them", ", ".join(bad))
unknown = sorted(set(defined.values()) - handles - engine - bots)
check(not unknown, "every file of lib/ has a layer in this check", ", ".join(unknown))

# 3. each file includes its layer's internal header, and only that one
INTERNAL = ("facts.h", "core.h", "handles.h", "json.h")
header_of = {u: "facts.h" for u in facts}
header_of.update({u: "core.h" for u in engine - set(header_of)})
header_of.update({u: "handles.h" for u in handles})
header_of.update({u: "json.h" for u in ("json_read.c", "json_write.c", "replay.c")})
header_of.update({"core.h": "facts.h", "handles.h": "core.h", "json.h": "handles.h"})
include = re.compile(r'#\s*include\s*[<"]([^>"]+)[>"]')
bad, jansson = [], []
for path in sorted(glob.glob(os.path.join(root, "lib", "*.[ch]"))):
    name = os.path.basename(path)
    incs = include.findall(open(path, encoding="utf-8").read())
    internal = [i for i in incs if i in INTERNAL or i.endswith("_internal.h")]
    if name in header_of and internal != [header_of[name]]:
        bad.append(f"{name} includes {internal or 'none'}, not [{header_of[name]}]")
    elif name not in header_of and name != "facts.h":
        bad.append(f"{name} has no layer in this check")
    if "jansson.h" in incs and name != "json.h":
        jansson.append(name)
check(not bad, "each file of lib/ includes its layer's internal header and no other", ", ".join(bad))
check(not jansson, "only json.h includes jansson", ", ".join(jansson))

# 4. the bots use the public API only
offenders = [p for p in glob.glob(os.path.join(root, "lib", "bots", "*.[ch]"))
             if re.search(r'#\s*include\s*[<"][^>"]*(_internal|facts|core|handles|json)\.h', open(p, encoding="utf-8").read())]
check(not offenders, "lib/bots/ includes no internal header", ", ".join(offenders))

print(f"1..{len(results)}")
for i, (ok, name, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if detail and not ok:
        print(f"# {detail}")
for u in sorted(edges):
    print(f"# {u} -> {', '.join(sorted(edges[u]))}")
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
