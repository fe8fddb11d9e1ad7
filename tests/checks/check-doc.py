#!/usr/bin/env python3
"""What Doxygen does not check in the public header's function documentation.

Usage: check-doc.py HEADER [LIB_SOURCE...]

The constants of the project headers HEADER includes (e.g. bots.h includes stpete/stpete.h) count as defined.

For every STPETE_API function of HEADER (Doxygen itself already fails on a missing comment or @param):
  - the comment cites the rule it implements (a § section or an R-id of doc/rules.md), or carries the marker
    `@norule` (an empty Doxygen alias, doc/Doxyfile.in) for library plumbing that implements none (versions, status
    names, freeing); never filler text such as "No game rule." in place of the marker;
  - a function that returns a value documents it with @return; every STPETE_* constant the comment names exists;
  - a function returning a pointer says who owns it ("static", "owned by", "not owned");
  - a function that allocates a handle (_new, _clone, _from_json) says it is "owned by the caller";
  - when LIB_SOURCE files are given: every STPETE_E_* status that the function's definition can return is listed
    in its comment: the codes it returns directly (return STPETE_E_X, return c ? x : STPETE_E_X,
    fail(st, STPETE_E_X, ...), or in a function-like macro it uses) and, to a fixed point, those of every
    library function whose result it returns or assigns (return g(...), rc = g(...)).
Output is TAP. Standard library only.
"""
import os
import re
import sys


def functions(header_text):
    """(name, return type, comment) of every STPETE_API function, with the comment just before it."""
    out = []
    for m in re.finditer(r"/\*\*((?:(?!\*/).)*)\*/\s*STPETE_API\b([^;{]*?)\b(\w+)\s*\(", header_text, re.S):
        out.append((m.group(3), m.group(2).strip(), m.group(1)))
    return out


def definitions(sources):
    """{name: statuses} for every function defined in the library sources: the STPETE_E_* codes it returns
    directly (return STPETE_E_X; fail(st, STPETE_E_X, ...)) or passes on from a function whose result it returns
    or stores (return g(...); rc = g(...)), to a fixed point."""
    bodies, macros = {}, {}
    for path in sources:
        text = re.sub(r"/\*.*?\*/", " ", open(path, encoding="utf-8").read(), flags=re.S)
        for m in re.finditer(r"^#\s*define\s+(\w+)\s*\(((?:[^\n]*\\\n)*[^\n]*)", text, re.M):
            macros[m.group(1)] = set(re.findall(r"\b(STPETE_E_\w+)", m.group(2)))
        for m in re.finditer(r"^(?:STPETE_API\b|static\b|[a-z])[^;{}()]*?\b(\w+)\s*\([^;{}]*\)\s*\{", text, re.M):
            depth, i = 1, m.end()
            while depth and i < len(text):
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
            bodies[m.group(1)] = text[m.end():i]
    statuses = {}
    calls = {}
    for name, body in bodies.items():
        statuses[name] = set(re.findall(r"return\s+(STPETE_E_\w+)", body))
        statuses[name] |= set(re.findall(r"\b\w*fail\s*\([^,]+,\s*(STPETE_E_\w+)", body))  # fail(), jfail()
        statuses[name] |= set(re.findall(r"[?:]\s*(STPETE_E_\w+)\s*[:;]", body))  # return c ? x : STPETE_E_X;
        for macro in set(re.findall(r"\b(\w+)\s*\(", body)) & set(macros):
            statuses[name] |= macros[macro]
        called = re.findall(r"return\s+(\w+)\s*\([^;]*\)\s*;|\w\s*=\s*(\w+)\s*\(", body)
        calls[name] = {a or b for a, b in called} & set(bodies) - {name}
    changed = True
    while changed:
        changed = False
        for name in bodies:
            for g in calls[name]:
                if not statuses[g] <= statuses[name]:
                    statuses[name] |= statuses[g]
                    changed = True
    return statuses


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    header = open(argv[1], encoding="utf-8").read()
    code = re.sub(r"/\*.*?\*/", " ", header, flags=re.S)
    # constants of the project's headers it includes (bots.h includes stpete.h), from the same directory
    for inc in re.findall(r'^#\s*include\s+[<"]stpete/(\w+\.h)[>"]', code, re.M):
        path = os.path.join(os.path.dirname(argv[1]), inc)
        if os.path.exists(path):
            code += re.sub(r"/\*.*?\*/", " ", open(path, encoding="utf-8").read(), flags=re.S)
    defined = set(re.findall(r"\bSTPETE_[A-Z0-9_]+", code))
    defined |= {"STPETE_VERSION_NUMBER", "STPETE_VERSION_STRING", "STPETE_VERSION_MAJOR", "STPETE_VERSION_MINOR",
                "STPETE_VERSION_PATCH"}  # version.h
    bodies = definitions([a for a in argv[2:] if a != "-v"])
    results = []
    for name, ret, doc in functions(header):
        problems = []
        cites = re.search(r"§|\bR\d+\b", doc)
        norule = re.search(r"[@\\]norule\b", doc)
        if not cites and not norule:
            problems.append("cites no rule (§n or Rn) and has no @norule marker")
        if re.search(r"[Nn]o game rule", doc):
            problems.append("says \"no game rule\" in words: use the @norule marker")
        if ret != "void" and "@return" not in doc:
            problems.append("no @return")
        for const in sorted(set(re.findall(r"\bSTPETE_[A-Z0-9_]+", doc)) - defined):
            problems.append(f"names {const}, which the header does not define")
        if "*" in ret:
            ret_doc = doc.split("@return", 1)[-1]
            if not re.search(r"static|owned by|not owned", ret_doc):
                problems.append("returns a pointer without saying who owns it")
        if re.search(r"_(new|clone)$|_from_json$", name) and not re.search(r"owned by the caller", doc):
            problems.append("allocates a handle without saying \"owned by the caller\"")
        if name in bodies:
            for status in sorted(bodies[name]):
                if status not in doc:
                    problems.append(f"returns {status} (see its definition) but does not document it")
        results.append((name, problems))
    if not results:
        print("Bail out! no documented STPETE_API function found")
        return 1
    print(f"1..{len(results)}")
    failed = 0
    for i, (name, problems) in enumerate(results, 1):
        print(f"{'not ok' if problems else 'ok'} {i} - {name}: rule, return value, ownership, statuses")
        for p in problems:
            print(f"#   {p}")
        failed += bool(problems)
    if bodies and "-v" in sys.argv:
        for name, _, _ in functions(header):
            print(f"# {name}: {' '.join(sorted(bodies.get(name, ())))}")
    if bodies:
        print(f"# statuses cross-checked against {len(bodies)} definitions in {len(argv) - 2} source file(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
