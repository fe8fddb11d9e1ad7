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
includes the one of the layer below it. A layer header may gather topic headers of its own folder (facts/cards.h,
facts/actions.h, facts/bytes.h), and a module of several files may share one private header named for it (the legal*.c
files of engine/ around engine/legal.h, as SQLite's where*.c around whereInt.h), which includes the layer's header.

Reads the object files of the library (`nm` on the static archive): file A calls file B when A uses a symbol that
B defines. Checks, in TAP:
  1. every source file of lib/ is in a layer's folder (no file at the top of lib/ but the version script);
  2. the graph of calls between files has no cycle (a cycle is printed if found);
  3. no file calls a file of a higher layer;
  4. each file includes one internal header: its module's private header if it has one, else its own layer's
     header; a private header includes its layer's header, a layer header the one below it and its topic headers, a
     topic header only other topic headers of its folder; including another layer's private header is an error,
     and so is a circle of includes among the internal headers; jansson only in json/json.h;
  5. the bots include only the public headers;
  6. a card's edition facts (name, cost, incomes, value, copies) are read only through a game's own card table:
     never through stpete_cards_shared() (the facts no edition changes) nor a table picked by a constant index;
  7. every internal function's prefix names its file or module (Lua's rule: luaD_ is ldo.c): a function of lib/
     that is neither public (lib/libstpete.map) nor static in a .c file is named [stpete_]WORD or [stpete_]WORD_...,
     where WORD is the name of the file that defines it (legal_pick.c: legal_pick), or its module (the name before
     the first '_': legal_pick.c, legal.h: legal; bot_policy.c: bot); a static inline function of a layer's header
     may also carry the name of a file of its folder whose inline part it is (engine.h: stpete_price_with, price.c).
     The extern functions are read from the object files, the headers' inline functions from the source. And the
     other way: a WORD names files of one folder only, so that a prefix leads to one place;
  8. no two functions of the project share a name: every function defined in the C files of lib/, tools/,
     examples/, tests/ and bindings/js/ (static ones included) has a name of its own, but `main` and libFuzzer's
     entry point LLVMFuzzerTestOneInput, which each program or harness must define; the 0.3 programs of
     tests/migrate/ (*-0.3.c: the input of tools/migrate-1.0.py, written against the old API, never compiled) are
     not the project's code.
Standard library only (plus binutils' nm).
"""
import glob
import importlib.util
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
def find_cycle(nodes, edges):
    """A cycle of the graph (its nodes, the first repeated at the end), or []."""
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

    for u in sorted(nodes):
        if u not in state:
            visit(u)
    return cycle


cycle = find_cycle(units, edges)
check(not cycle, "no two files of lib/ call each other in a circle", " -> ".join(cycle))


# 3. calls go downward only
def layer(unit):
    return LAYERS.index(unit.split("/")[0])


bad = sorted(f"{u} -> {v}" for u in edges for v in edges[u] if layer(v) > layer(u))
check(not bad, "no file of lib/ calls a file of a higher layer (" + " < ".join(LAYERS) + ")", ", ".join(bad))

# 4. each file includes its module's or its layer's header only; headers as described above, without a circle
include = re.compile(r'#\s*include\s*[<"]([^>"]+)[>"]')
headers = sorted(os.path.relpath(p, lib) for p in glob.glob(os.path.join(lib, "*", "*.h"))
                 if not os.path.relpath(p, lib).startswith("bots/"))
internal_names = set(headers) | {os.path.basename(h) for h in headers}


def includes(rel):
    return include.findall(open(os.path.join(lib, rel), encoding="utf-8").read())


def internal_of(incs, folder):
    """The internal headers among includes, as folder/name.h."""
    return sorted({i if "/" in i else f"{folder}/{i}" for i in incs if i in internal_names or i.endswith("_internal.h")})


topics = {f: [h for h in internal_of(includes(HEADER[f]), f) if h.startswith(f + "/")] for f in HEADER}
private = {h for h in headers if h not in HEADER.values() and h not in topics[h.split("/")[0]]}


def module_header(rel):
    """The private header of a .c file's module (legal_pick.c -> legal.h), or None."""
    folder, stem = rel.split("/")[0], os.path.basename(rel)[:-2]
    for word in (stem, stem.split("_")[0]):
        if f"{folder}/{word}.h" in private:
            return f"{folder}/{word}.h"
    return None


bad, jansson, header_edges = [], [], {}
for path in sorted(glob.glob(os.path.join(lib, "*", "*.[ch]"))):
    rel = os.path.relpath(path, lib)
    folder = rel.split("/")[0]
    if folder == "bots":
        continue
    incs = includes(rel)
    internal = internal_of(incs, folder)
    if rel.endswith(".h"):
        header_edges[rel] = internal
    if rel == HEADER[folder]:
        below = LAYERS.index(folder) - 1
        want = sorted(([HEADER[LAYERS[below]]] if below >= 0 else []) + topics[folder])
    elif rel in private:
        want = [HEADER[folder]]
    elif rel.endswith(".h"):  # a topic header: only topic headers of its own folder
        want = [i for i in internal if i in topics[folder]]
    else:
        want = [module_header(rel) or HEADER[folder]]
    if internal != want:
        bad.append(f"{rel} includes {internal or 'none'}, not {want or 'none'}")
    if "jansson.h" in incs and rel != HEADER["json"]:
        jansson.append(rel)
check(not bad, "each file of lib/ includes its module's or its own layer's header and no other layer's",
      ", ".join(bad))
include_cycle = find_cycle(header_edges, header_edges)
check(not include_cycle, "no circle of includes among lib/'s internal headers", " -> ".join(include_cycle))
check(not jansson, "only json/json.h includes jansson", ", ".join(jansson))

# 5. the bots use the public API only
offenders = [p for p in glob.glob(os.path.join(lib, "bots", "*.[ch]"))
             if re.search(r'#\s*include\s*[<"][^>"]*(_internal|facts|engine|api|json)\.h', open(p, encoding="utf-8").read())]
check(not offenders, "lib/bots/ includes no internal header", ", ".join(offenders))

# 6. card names and edition facts only through the game's table
edition_fact = re.compile(r"stpete_cards_shared\([^()]*\)->\s*(name|name_len|cost|rubles|vp|value|copies)\b"
                          r"|stpete_card_tables\[\s*\d+\s*\]")
bad = []
for path in sorted(glob.glob(os.path.join(lib, "*", "*.[ch]"))):
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        if edition_fact.search(line) and not re.search(r"^\s*return &stpete_card_tables\[2\]\[card\];"
                                                       r"|^(extern )?const card_def stpete_card_tables\[", line):
            bad.append(f"{os.path.relpath(path, lib)}:{no}: {line.strip()}")
check(not bad, "card names and edition facts are read only through the game's own card table", "; ".join(bad))

# 7. every internal function's prefix names its file or module
_spec = importlib.util.spec_from_file_location("function_length",
                                               os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                            "check-function-length.py"))
fl = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fl)
public = set(re.findall(r"\b(stpete_\w+)\s*;", open(os.path.join(lib, "libstpete.map"), encoding="utf-8").read()))


def words(rel):
    """The words a function of this file may begin with: the file's name and its module's."""
    stem = os.path.basename(rel).rsplit(".", 1)[0]
    return {stem, stem.split("_")[0]}


def named_for(name, allowed):
    return any(re.match(r"(stpete_)?" + re.escape(w) + r"(_|$)", name) for w in allowed)


internal_functions = []  # (file, name, words allowed)
for line in out.splitlines():
    path, _, rest = line.rpartition(":")
    m = member.search(os.path.basename(path.split(":")[-1]))
    parts = rest.split()
    if m and len(parts) == 3 and parts[1] == "T" and parts[2] not in public:
        rel = f"{m.group(1)}/{m.group(2)}.c"
        internal_functions.append((rel, parts[2], words(rel)))
for path in sorted(glob.glob(os.path.join(lib, "*", "*.h"))):
    rel = os.path.relpath(path, lib)
    folder = rel.split("/")[0]
    allowed = set(words(rel))
    if rel in HEADER.values():  # a layer header: also the inline part of its folder's files
        allowed |= {w for c in glob.glob(os.path.join(lib, folder, "*.c")) for w in words(c)}
    for name, _, _ in fl.functions(open(path, encoding="utf-8").read()):
        internal_functions.append((rel, name, allowed))
bad = sorted({f"{rel}: {name}" for rel, name, allowed in internal_functions if not named_for(name, allowed)})
owners = {}
for path in glob.glob(os.path.join(lib, "*", "*.[ch]")):
    rel = os.path.relpath(path, lib)
    for w in words(rel):
        owners.setdefault(w, set()).add(rel.split("/")[0])
shared = sorted(f"{w} ({', '.join(sorted(f))})" for w, f in owners.items() if len(f) > 1)
check(not bad and not shared, "every internal function of lib/ is named for its file or module "
      "([stpete_]FILE_ or [stpete_]MODULE_), and a prefix names files of one folder",
      ", ".join(bad + ["the word " + s + " names files of two folders" for s in shared]))

# 8. no two functions of the project share a name
ENTRY_POINTS = {"main", "LLVMFuzzerTestOneInput"}
defined_at = {}
for top in ("lib", "tools", "examples", "tests", os.path.join("bindings", "js")):
    for dirpath, dirnames, files in os.walk(os.path.join(root, top)):
        dirnames[:] = sorted(d for d in dirnames if d != "node_modules" and not d.startswith("build"))
        for name in sorted(files):
            if name.endswith((".c", ".h")) and not name.endswith("-0.3.c"):
                path = os.path.join(dirpath, name)
                for func, first, _ in fl.functions(open(path, encoding="utf-8", errors="replace").read()):
                    defined_at.setdefault(func, {}).setdefault(os.path.relpath(path, root), first)
clashes = sorted(f"{func} ({', '.join(f'{p}:{n}' for p, n in sorted(at.items()))})"
                 for func, at in defined_at.items() if len(at) > 1 and func not in ENTRY_POINTS)
check(not clashes, "no two functions of lib/, tools/, examples/, tests/ and bindings/js/ share a name (but main "
      "and LLVMFuzzerTestOneInput)", "; ".join(clashes))

print(f"1..{len(results)}")
for i, (ok, name, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if detail and not ok:
        print(f"# {detail}")
for u in sorted(edges):
    print(f"# {u} -> {', '.join(sorted(edges[u]))}")
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
