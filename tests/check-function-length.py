"""Functions of at most MAX lines (issue 32): fails if a C function of the given folders has a body longer than
MAX lines (default 60, the lines between its braces) and its comment does not say why, in a sentence that starts
"Long:" (e.g. "Long: one table of every option, easier to read whole"). Prints TAP: one test per folder.

    check-function-length.py [--max MAX] DIR...

The C is read as tests/check-globals.py reads it (comments, strings and preprocessor lines dropped); a function is
a brace block at file scope after a ')'."""
import importlib.util
import os
import re
import sys

_spec = importlib.util.spec_from_file_location("check_globals", os.path.join(os.path.dirname(__file__),
                                                                            "check-globals.py"))
cg = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cg)


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
    """Whether the comment just above line `first` (1-based) holds a sentence starting "Long:"."""
    k = first - 2
    block = []
    while k >= 0 and (lines[k].strip().startswith(("/*", "*", "//")) or lines[k].rstrip().endswith("*/")):
        block.append(lines[k])
        k -= 1
    return "Long:" in " ".join(block)


def main():
    args = sys.argv[1:]
    most = 60
    if args[:1] == ["--max"]:
        most, args = int(args[1]), args[2:]
    results = []
    for folder in args:
        bad = []
        for dirpath, _, files in sorted(os.walk(folder)):
            for name in sorted(files):
                if not name.endswith(".c"):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                lines = text.split("\n")
                for func, first, body in functions(text):
                    if body > most and not says_why(lines, first):
                        bad.append(f"{path}:{first}: {func}: {body} lines")
        results.append((f"no function of {folder} longer than {most} lines without a comment that says why "
                        "(\"Long: ...\")", bad))
    print(f"1..{len(results)}")
    for k, (name, bad) in enumerate(results, 1):
        print(f"{'not ok' if bad else 'ok'} {k} - {name}")
        for line in bad:
            print(f"# {line}")
    return 1 if any(bad for _, bad in results) else 0


if __name__ == "__main__":
    sys.exit(main())
