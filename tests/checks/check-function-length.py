"""Functions of at most MAX lines (issue 32): fails if a C function of the given folders has a body longer than
MAX lines (default 60, the lines between its braces) and the comment directly above it does not say why it is one
function, in a sentence that starts "One function:" (e.g. "/* One function: one case per action kind (§4.2), each
kind's effect side by side. */"). The comment is the block of comment lines that ends on the line before the
function (a one-line comment under the function's own comment counts with it). Prints TAP: one test per folder.

    check-function-length.py [--max MAX] [--pending FILE:FUNCTION]... DIR...

--pending names a long function that waits for its split and passes meanwhile (FILE: the path's last parts, e.g.
lib/engine/validate.c); it is listed as pending, and a pending entry that no longer names a long function is listed
for removal. The C is read as tests/checks/check-globals.py reads it (comments, strings and preprocessor lines dropped); a
function is a brace block at file scope after a ')'."""
import importlib.util
import os
import re
import sys

_spec = importlib.util.spec_from_file_location("check_globals", os.path.join(os.path.dirname(__file__),
                                                                            "check-globals.py"))
cg = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cg)

MARK = "One function:"


def functions(text):
    """(name, first line, body lines) of each function defined in the C text."""
    toks = cg.tokens(cg.strip(text))
    found, i, stmt = [], 0, []
    while i < len(toks):
        tok = toks[i][0]
        if tok == ";":
            stmt, i = [], i + 1
            continue
        if tok == "{":
            end = cg.matching(toks, i)
            words = [t for t, _ in cg.without_attributes(stmt)]
            if words and words[-1] == ")" and "=" not in words:
                name = next((w for k, w in enumerate(words) if k + 1 < len(words) and words[k + 1] == "(" and
                             re.match(r"[A-Za-z_]\w*$", w)), "?")
                found.append((name, stmt[0][1], toks[end - 1][1] - toks[i][1] - 1))
                stmt = []
            i = end
            continue
        stmt.append(toks[i])
        i += 1
    return found


def says_why(lines, first):
    """Whether the comment that ends on the line before line `first` (1-based) holds a sentence starting with
    MARK."""
    k = first - 2
    block = []
    while k >= 0 and (lines[k].strip().startswith(("/*", "*", "//")) or lines[k].rstrip().endswith("*/")):
        block.append(lines[k])
        k -= 1
    return MARK in " ".join(block)


def long_functions(folder, most):
    """(path, first line, name, body lines) of each function of the folder's C files longer than `most` lines
    without a comment that says why."""
    found = []
    for dirpath, _, files in sorted(os.walk(folder)):
        for name in sorted(files):
            if not name.endswith(".c"):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            lines = text.split("\n")
            found += [(path, first, func, body) for func, first, body in functions(text)
                      if body > most and not says_why(lines, first)]
    return found


def is_pending(pending, path, func):
    return any(func == f and (path == p or path.endswith("/" + p)) for p, f in pending)


def main():
    args = sys.argv[1:]
    most, pending = 60, []
    while args[:1] in (["--max"], ["--pending"]):
        if args[0] == "--max":
            most = int(args[1])
        else:
            pending.append(tuple(args[1].rsplit(":", 1)))
        args = args[2:]
    results, used = [], set()
    for folder in args:
        bad, notes = [], []
        for path, first, func, body in long_functions(folder, most):
            line = f"{path}:{first}: {func}: {body} lines"
            if is_pending(pending, path, func):
                used.add(next(e for e in pending if is_pending([e], path, func)))
                notes.append(f"pending (waits for its split): {line}")
            else:
                bad.append(line)
        results.append((f"no function of {folder} longer than {most} lines without a comment that says why "
                        f"(\"{MARK} ...\")", bad, notes))
    print(f"1..{len(results)}")
    for k, (name, bad, notes) in enumerate(results, 1):
        print(f"{'not ok' if bad else 'ok'} {k} - {name}")
        for line in bad + notes:
            print(f"# {line}")
    for p, f in pending:
        if (p, f) not in used:
            print(f"# pending entry {p}:{f} names no function over {most} lines any more: remove it")
    return 1 if any(bad for _, bad, _ in results) else 0


if __name__ == "__main__":
    sys.exit(main())
