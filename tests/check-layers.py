#!/usr/bin/env python3
"""The files of lib/ sit in one folder per layer and call each other only downward, never in a circle (issues 11,
23 and 32; lib/facts/facts.h and doc/development.md describe the layers).

Usage: check-layers.py STATIC_LIBRARY SOURCE_ROOT

The layers are the folders of lib/, lowest first:
  facts/   the facts that need no position (card tables, action encoding, names, PRNG, the conventions' plumbing)
  engine/  the game on a plain position (legality, apply, scoring, knowledge, observation), reporting to a sink
  api/     the handles and the public entry points (games, states, history, listeners, event text)
  json/    the JSON documents (jansson), above the handles
  bots/    above the public API: they include only public headers, as any user would write them
Each folder has one internal header named for it (facts/facts.h, engine/engine.h, api/api.h, json/json.h), which
includes the one of the layer below it.

Reads the object files of the library (`nm` on the static archive): file A calls file B when A uses a symbol that
B defines. Checks, in TAP:
  1. every source file of lib/ is in a layer's folder (no file at the top of lib/ but the version script);
  2. the graph of calls between files has no cycle (a cycle is printed if found);
  3. no file calls a file of a higher layer;
  4. each file includes its own layer's header and no other internal header (a header includes the one below
     it): including another layer's private header is an error; jansson only in json/json.h;
  5. the bots include only the public headers;
  6. a card's edition facts (name, cost, incomes, value, copies) are read only through a game's own card table:
     never through stpete_shared_card() (the facts no edition changes) nor a table picked by a constant index.
Standard library only (plus binutils' nm).
"""
import glob
import os
import re
import subprocess
import sys

LAYERS = ["facts", "engine", "api", "json", "bots"]
HEADER = {"facts": "facts/facts.h", "engine": "engine/engine.h", "api": "api/api.h", "json": "json/json.h"}

archive, root = sys.argv[1:3]
lib = os.path.join(root, "lib")
results = []


def check(ok, name, detail=""):
    results.append((ok, name, detail))


# 1. every file of lib/ in a layer's folder
loose = sorted(f for f in os.listdir(lib) if os.path.isfile(os.path.join(lib, f)) and f != "libstpete.map")
stray = sorted(d for d in os.listdir(lib) if os.path.isdir(os.path.join(lib, d)) and d not in LAYERS)
check(not loose and not stray, "every file of lib/ is in a layer's folder (" + ", ".join(LAYERS) + ")",
      ", ".join(loose + [d + "/" for d in stray]))

out = subprocess.run(["nm", "-A", archive], check=True, capture_output=True, text=True).stdout
defined, used = {}, {}
member = re.compile(r"lib_(" + "|".join(LAYERS) + r")_(\w+)\.c\.o$")  # lib_engine_rules.c.o -> engine/rules.c
for line in out.splitlines():
    path, _, rest = line.rpartition(":")
    m = member.search(os.path.basename(path.split(":")[-1]))
    if not m:
        continue
    unit = f"{m.group(1)}/{m.group(2)}.c"
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
units = set(edges) | set(defined.values())
sources = {os.path.relpath(p, lib) for p in glob.glob(os.path.join(lib, "*", "*.c"))}
check(units == sources, "the archive holds exactly the source files of lib/'s folders",
      ", ".join(sorted(units ^ sources)))

# 2. no cycle (depth-first search with colours)
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


for u in sorted(units):
    if u not in state:
        visit(u)
check(not cycle, "no two files of lib/ call each other in a circle", " -> ".join(cycle))


# 3. calls go downward only
def layer(unit):
    return LAYERS.index(unit.split("/")[0])


bad = sorted(f"{u} -> {v}" for u in edges for v in edges[u] if layer(v) > layer(u))
check(not bad, "no file of lib/ calls a file of a higher layer (" + " < ".join(LAYERS) + ")", ", ".join(bad))

# 4. each file includes its own layer's header only; each header the one below it
include = re.compile(r'#\s*include\s*[<"]([^>"]+)[>"]')
internal_names = set(HEADER.values()) | {os.path.basename(h) for h in HEADER.values()}
bad, jansson = [], []
for path in sorted(glob.glob(os.path.join(lib, "*", "*.[ch]"))):
    rel = os.path.relpath(path, lib)
    folder = rel.split("/")[0]
    if folder == "bots":
        continue
    incs = include.findall(open(path, encoding="utf-8").read())
    internal = [i for i in incs if i in internal_names or i.endswith("_internal.h")]
    if rel == HEADER[folder]:
        below = LAYERS.index(folder) - 1
        want = [HEADER[LAYERS[below]]] if below >= 0 else []
    else:
        want = [HEADER[folder]]
    if internal != want:
        bad.append(f"{rel} includes {internal or 'none'}, not {want or 'none'}")
    if "jansson.h" in incs and rel != HEADER["json"]:
        jansson.append(rel)
check(not bad, "each file of lib/ includes its own layer's header and no other layer's", ", ".join(bad))
check(not jansson, "only json/json.h includes jansson", ", ".join(jansson))

# 5. the bots use the public API only
offenders = [p for p in glob.glob(os.path.join(lib, "bots", "*.[ch]"))
             if re.search(r'#\s*include\s*[<"][^>"]*(_internal|facts|engine|api|json)\.h', open(p, encoding="utf-8").read())]
check(not offenders, "lib/bots/ includes no internal header", ", ".join(offenders))

# 6. card names and edition facts only through the game's table
edition_fact = re.compile(r"stpete_shared_card\([^()]*\)->\s*(name|name_len|cost|rubles|vp|value|copies)\b"
                          r"|stpete_card_tables\[\s*\d+\s*\]")
bad = []
for path in sorted(glob.glob(os.path.join(lib, "*", "*.[ch]"))):
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        if edition_fact.search(line) and not re.search(r"^\s*return &stpete_card_tables\[2\]\[card\];"
                                                       r"|^(extern )?const card_def stpete_card_tables\[", line):
            bad.append(f"{os.path.relpath(path, lib)}:{no}: {line.strip()}")
check(not bad, "card names and edition facts are read only through the game's own card table", "; ".join(bad))

print(f"1..{len(results)}")
for i, (ok, name, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if detail and not ok:
        print(f"# {detail}")
for u in sorted(edges):
    print(f"# {u} -> {', '.join(sorted(edges[u]))}")
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
