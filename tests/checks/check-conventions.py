#!/usr/bin/env python3
"""The API conventions of include/stpete/stpete.h's introduction hold for every public declaration (issue 23).

Usage: check-conventions.py HEADER... [--definitions DIR]

Reads the public headers (C declarations and their doc comments) and checks, in TAP, one line per rule:
  1. statuses: every STPETE_E_* code is in [STPETE_E_LAST, STPETE_E_FIRST] and at most -101;
  2. sentinels: every other negative constant (#define or enum member) is in [-99, -1], so no sentinel equals a
     status code;
  3. names: every function is stpete_<object>_<what> with a known object, or one of the library-wide functions;
     a function named after a handle (game, state, bot) or a struct (options, event) takes it first, except the
     constructors, which receive it, and the names of enum values and their parsers (`*_name(int)`,
     `*_from_name(const char *, int *)`);
  4. parameter order: inputs, then outputs; a buffer is followed by its `capacity`, then the count or length it
     receives; `stpete_error *err` is last where present;
  5. one capacity word: no parameter is called cap, size, n, msg_size, or anything else but `capacity` after a
     caller's buffer;
  6. predicates (is_*, equal, *_visible) return a status and write the answer through an `int *`; no function's
     @return promises a bare truth value ("1 if ...");
  7. constructors (_new, _new_with_callback, _clone, _from_json) and stpete_options_check() end with
     `stpete_error *err` (the one detail channel of calls without a handle);
  8. structs that may grow begin with `size_t struct_size` and have an initialiser (STPETE_*_INIT or a _init
     function); the others say "Frozen" in their comment;
  9. `get_` names exactly the functions whose last parameter is a caller's growable struct (other than the
     error detail and the event queue's stpete_state_next_event());
 10. with --definitions DIR: every STPETE_API definition in DIR's .c files (recursively) names its size_t
     parameters (capacities, counts, lengths) as the header declares them (`st` for `state` is fine).
Standard library only.
"""
import os
import re
import sys

OBJECTS = {"card", "action", "options", "option", "game", "state", "bot", "event", "replay", "results", "phase",
           "stack", "decision", "source", "colour"}
LIBRARY_WIDE = {"stpete_version", "stpete_version_number", "stpete_strerror", "stpete_num_distinct_actions"}
HANDLES = {"game": "stpete_game", "state": "stpete_state", "bot": "stpete_bot", "options": "stpete_options",
           "event": "stpete_event"}
CONSTRUCTOR = re.compile(r"_(new|new_with_callback|clone|from_json)$")

args = sys.argv[1:]
definitions = None
if "--definitions" in args:
    i = args.index("--definitions")
    definitions = args[i + 1]
    args = args[:i] + args[i + 2:]
text = "".join(open(p, encoding="utf-8").read() for p in args)
nocomment = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
results = []


def check(ok, name, problems):
    results.append((ok, name, problems))


# ---- 1, 2: statuses and sentinels
defines = {m.group(1): int(m.group(2)) for m in re.finditer(r"#define (STPETE_\w+) \((-\d+)\)", nocomment)}
statuses = {k: v for k, v in defines.items() if k.startswith("STPETE_E_")}
first, last = statuses.pop("STPETE_E_FIRST", None), statuses.pop("STPETE_E_LAST", None)
bad = [f"{k} = {v}" for k, v in statuses.items() if not (first is not None and last is not None and last <= v <= first <= -101)]
if first not in statuses.values() or last not in statuses.values() or len(set(statuses.values())) != len(statuses):
    bad.append(f"STPETE_E_FIRST {first} / STPETE_E_LAST {last} are not the ends of {len(statuses)} distinct codes")
check(not bad and statuses, "statuses are distinct codes in [STPETE_E_LAST, STPETE_E_FIRST], all <= -101", bad)
sentinels = {k: v for k, v in defines.items() if not k.startswith("STPETE_E_")}
for body in re.findall(r"enum \w+ \{(.*?)\}", nocomment, flags=re.S):
    for name, value in re.findall(r"(STPETE_\w+)\s*=\s*\(?(-\d+)\)?", body):
        sentinels[name] = int(value)
bad = [f"{k} = {v}" for k, v in sentinels.items() if not -99 <= v <= -1]
bad += [f"{k} = {v} equals a status" for k, v in sentinels.items() if v in statuses.values()]
check(not bad and sentinels, f"{len(sentinels)} negative sentinels, all in [-99, -1]", bad)

# ---- declarations
decls = []
for m in re.finditer(r"STPETE_API\s+([^;]*?)\b(stpete_\w+)\s*\(([^;]*?)\);", nocomment, flags=re.S):
    ret, name, params = m.group(1).strip(), m.group(2), " ".join(m.group(3).split())
    doc_end = text.find("STPETE_API " + ret)  # the comment right before the declaration
    pos = text.find(name + "(")
    doc = text[text.rfind("/**", 0, pos):pos]
    plist = [] if params in ("void", "") else [p.strip() for p in params.split(",")]
    parsed = []
    for p in plist:
        pm = re.match(r"(.*?)(\w+)$", p)
        parsed.append((pm.group(1).strip(), pm.group(2)))
    decls.append((ret, name, parsed, doc))

# ---- 3: names
bad = []
for ret, name, params, doc in decls:
    if name in LIBRARY_WIDE:
        continue
    obj = name[len("stpete_"):].split("_")[0]
    if obj not in OBJECTS:
        bad.append(f"{name}: object '{obj}' is not one of {sorted(OBJECTS)}")
        continue
    enum_name = name.endswith("_name") and len(params) == 1 and params[0][0] == "int"
    # and its parser: the word first, the value out (stpete_options_pub_cap_from_name("per-pub", &cap))
    enum_name = enum_name or (name.endswith("_from_name") and [t for t, _ in params] == ["const char *", "int *"])
    if obj in HANDLES and not CONSTRUCTOR.search(name) and name != "stpete_options_init" and not enum_name:
        typ = params[0][0] if params else ""
        if not re.fullmatch(r"(const )?%s \*(const \*)?" % HANDLES[obj], typ):
            bad.append(f"{name}: first parameter '{typ}' is not the {HANDLES[obj]} it is named after")
check(not bad, f"{len(decls)} functions named stpete_<object>_<what>, the named handle first", bad)

# ---- 4, 5: parameter order and capacity word
GROWABLE = set()
for m in re.finditer(r"typedef struct (stpete_\w+) \{\s*size_t struct_size;", nocomment):
    GROWABLE.add(m.group(1))


def is_output(typ, pname):
    if typ.startswith("const ") or "*" not in typ:
        return False
    if pname == "user_data" or typ.startswith("stpete_event_fn"):
        return False
    base = typ.replace("*", "").replace("const", "").strip()
    if base in ("stpete_state", "stpete_bot", "stpete_game", "stpete_options") and typ.count("*") == 1:
        return False  # the handle acted on (stpete_options_set() changes the options it is given)
    if "*const *" in typ.replace(" ", " "):
        return False
    return True


bad, badcap = [], []
for ret, name, params, doc in decls:
    seen_output = False
    for i, (typ, pname) in enumerate(params):
        if pname in ("cap", "size", "n", "msg_size", "buf_size", "bufsize", "len_cap"):
            badcap.append(f"{name}: parameter '{pname}'")
        prev_out = i > 0 and is_output(*params[i - 1]) and params[i - 1][0] != "stpete_error *"
        if typ == "size_t" and prev_out and pname != "capacity":
            badcap.append(f"{name}: '{pname}' follows the buffer '{params[i - 1][1]}': call it capacity")
        if typ == "stpete_error *" and i != len(params) - 1:
            bad.append(f"{name}: err is not last")
        out = is_output(typ, pname)
        if out:
            seen_output = True
        elif seen_output and not (typ == "size_t" and pname == "capacity"):
            bad.append(f"{name}: input '{pname}' after an output")
check(not bad, "inputs first, then outputs; err last", bad)
check(not badcap, "one capacity word: `capacity` after a caller's buffer", badcap)

# ---- 6: predicates
bad = []
for ret, name, params, doc in decls:
    if re.search(r"_is_|_equal$|_visible$", name):
        if ret != "int" or not params or params[-1][0] != "int *":
            bad.append(f"{name}: a predicate must return a status and write an int *")
    if re.search(r"@return\s+(1 if|1 or 0|0 or 1)", doc):
        bad.append(f"{name}: @return promises a truth value")
check(not bad, "predicates answer through an int *; no bare truth values", bad)

# ---- 7: constructors' detail
bad = []
for ret, name, params, doc in decls:
    if CONSTRUCTOR.search(name) or name == "stpete_options_check":
        if not params or params[-1] != ("stpete_error *", "err"):
            bad.append(f"{name}: does not end with stpete_error *err")
check(not bad, "calls without a handle report through a last stpete_error *err", bad)

# ---- 8: structs
bad = []
for m in re.finditer(r"/\*\*((?:(?!\*/).)*)\*/\s*typedef struct (stpete_\w+) \{", text, flags=re.S):
    comment, sname = m.group(1), m.group(2)
    if sname in GROWABLE:
        init = "STPETE_" + sname[len("stpete_"):].upper() + "_INIT"
        if init not in nocomment and sname + "_init" not in nocomment:
            bad.append(f"{sname}: no {init}")
    elif "Frozen" not in comment:
        bad.append(f"{sname}: neither begins with size_t struct_size nor says Frozen")
check(not bad and GROWABLE, f"structs: {len(GROWABLE)} growable with an initialiser, the others frozen", bad)

# ---- 9: get_
bad = []
for ret, name, params, doc in decls:
    last_struct = params and params[-1][0].rstrip(" *") in GROWABLE and params[-1][0].endswith("*") and \
        not params[-1][0].startswith("const") and params[-1][0] != "stpete_error *"
    if ("_get_" in name) != bool(last_struct) and name not in ("stpete_state_next_event", "stpete_options_init") \
            and not name.endswith("_free"):  # stpete_options_free() takes the struct it frees
        bad.append(f"{name}: get_ {'without' if '_get_' in name else 'missing for'} a struct copied out")
check(not bad, "get_ names exactly the queries that copy a struct out", bad)

# ---- 10: definitions name their parameters as declared
if definitions:
    import glob
    declared = {name: [p[1] for p in params if p[0] == "size_t"] for ret, name, params, doc in decls}
    bad, seen = [], 0
    for path in sorted(glob.glob(os.path.join(definitions, "**", "*.c"), recursive=True)):
        src = re.sub(r"/\*.*?\*/", " ", open(path, encoding="utf-8").read(), flags=re.S)
        for m in re.finditer(r"STPETE_API\s+[^;{]*?\b(stpete_\w+)\s*\(([^;{]*?)\)\s*\{", src):
            name, params = m.group(1), " ".join(m.group(2).split())
            names = [] if params in ("void", "") else [re.match(r".*?(\w+)$", p.strip()).group(1)
                                                       for p in params.split(",")
                                                       if re.match(r"size_t \w+$", p.strip())]
            seen += 1
            if name in declared and names != declared[name]:
                bad.append(f"{os.path.relpath(path, definitions)}: {name}({', '.join(names)}) but the header says "
                           f"({', '.join(declared[name])})")
    check(not bad and seen == len(declared), f"{seen} definitions name their size_t parameters as the header does", bad)

print(f"1..{len(results)}")
for i, (ok, name, problems) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    for p in problems:
        print(f"#   {p}")
sys.exit(0 if all(r[0] for r in results) else 1)
