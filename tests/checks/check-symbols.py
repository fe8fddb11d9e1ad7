#!/usr/bin/env python3
"""Exported symbols = version script = STPETE_API declarations.

Usage: check-symbols.py LIBRARY VERSION_SCRIPT HEADER_DIR [HEADER_DIR...]

Compares three sets of names, which must be equal:
  1. the dynamic symbols the built shared library defines (`nm -D --defined-only`), without the version-node
     symbols themselves;
  2. the `global:` names of every node of the GNU version script (lib/libstpete.map);
  3. the names declared with STPETE_API in every public header (*.h) of the given directories (the source
     include/stpete/ and the build tree's generated include/stpete/).
It also checks that every exported symbol carries the version node the script puts it in, that the script hides
everything else (`local: *;`), and that the library calls no C allocation function other than malloc, realloc and
free (the defaults behind stpete_allocator; calloc, strdup and friends would bypass the hooks).

Output is TAP; exit status 0 when everything matches. Standard library only (plus binutils' nm).
"""
import glob
import os
import re
import subprocess
import sys

checks = []


def check(ok, name, details=()):
    checks.append((ok, name, list(details)))


def nm(lib, *flags):
    out = subprocess.run(["nm", "-D", *flags, lib], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            rows.append((parts[1], parts[2]))
        elif len(parts) == 2:  # undefined symbols have no address
            rows.append((parts[0], parts[1]))
    return rows


def strip_c_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def parse_version_script(path):
    """{name: node} for global names, the set of node names, whether `local: *;` hides the rest."""
    text = strip_c_comments(open(path, encoding="utf-8").read())
    names, nodes, hides_rest = {}, set(), False
    for m in re.finditer(r"([A-Za-z_][\w.]*)\s*\{(.*?)\}\s*[\w.]*\s*;", text, re.S):
        node, body = m.group(1), m.group(2)
        nodes.add(node)
        scope = None
        for tok in re.findall(r"[\w.*]+\s*:|[^;\s]+\s*;", body):
            tok = tok.strip()
            if tok.endswith(":"):
                scope = tok[:-1].strip()
                continue
            sym = tok[:-1].strip()
            if scope == "global":
                if sym in names:
                    check(False, f"version script lists {sym} twice ({names[sym]} and {node})")
                names[sym] = node
            elif scope == "local" and sym == "*":
                hides_rest = True
    return names, nodes, hides_rest


def parse_headers(dirs):
    """{name: header} for every STPETE_API declaration."""
    decls = {}
    headers = sorted({os.path.realpath(h) for d in dirs for h in glob.glob(os.path.join(d, "*.h"))})
    for h in headers:
        text = strip_c_comments(open(h, encoding="utf-8").read())
        # drop preprocessor lines (the #define STPETE_API itself), joining continuations first
        text = re.sub(r"\\\n", " ", text)
        text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
        for m in re.finditer(r"\bSTPETE_API\b([^;{]*)", text):
            decl = m.group(1)
            fn = re.search(r"\b([A-Za-z_]\w*)\s*\(", decl)  # the first identifier followed by '(' is the name
            if fn and not re.match(r"\s*\(\s*\*", decl[fn.end() - 1:]):
                name = fn.group(1)
            else:  # a variable, or a function returning a function pointer: (*name(...))
                ids = re.findall(r"\(\s*\*\s*([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*$", decl)
                name = next((a or b for a, b in ids), None)
            if not name:
                check(False, f"cannot parse the STPETE_API declaration in {h}: {decl.strip()[:80]}")
                continue
            if name in decls:
                check(False, f"{name} declared with STPETE_API twice ({decls[name]}, {h})")
            decls[name] = os.path.basename(h)
    return decls, headers


def compare(a_name, a, b_name, b):
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    details = [f"only in {a_name}: {s}" for s in only_a] + [f"only in {b_name}: {s}" for s in only_b]
    check(not details, f"{a_name} = {b_name} ({len(set(a))} names)", details)


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    lib, script, dirs = argv[1], argv[2], argv[3:]

    exported = {}
    for kind, sym in nm(lib, "--defined-only"):
        if kind == "A":  # the version nodes themselves
            continue
        name, _, version = sym.partition("@")
        exported[name] = version.lstrip("@")
    script_names, nodes, hides_rest = parse_version_script(script)
    declared, headers = parse_headers(dirs)
    print(f"# library {lib}: {len(exported)} exported symbols")
    print(f"# version script {script}: {len(script_names)} global names in {len(nodes)} node(s)")
    print(f"# headers: {', '.join(os.path.basename(h) for h in headers)}: {len(declared)} STPETE_API names")

    check(bool(headers), "public headers found", [f"no *.h in {d}" for d in dirs])
    check(bool(exported), "the library exports symbols")
    compare("the library", exported, "the version script", script_names)
    compare("the version script", script_names, "the STPETE_API declarations", declared)
    compare("the library", exported, "the STPETE_API declarations", declared)
    check(hides_rest, "the version script hides every other symbol (local: *;)")
    wrong = [f"{n}: exported as {v or 'unversioned'}, script node {script_names[n]}"
             for n, v in sorted(exported.items()) if n in script_names and v != script_names[n]]
    check(not wrong, "every exported symbol carries its version-script node", wrong)
    bypass = {"calloc", "strdup", "strndup", "asprintf", "vasprintf", "reallocarray", "aligned_alloc",
              "posix_memalign", "memalign", "valloc", "pvalloc", "open_memstream"}
    undefined = {sym.partition("@")[0] for _, sym in nm(lib, "--undefined-only")}
    used = sorted(undefined & bypass)
    check(not used, "no C allocation function beside malloc/realloc/free (the allocator hooks' defaults)",
          [f"calls {u}" for u in used])

    print(f"1..{len(checks)}")
    failed = 0
    for i, (ok, name, details) in enumerate(checks, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        for d in details if not ok else ():
            print(f"#   {d}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
