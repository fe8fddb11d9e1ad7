"""No global mutable state (issue 32): fails if a C file of the given folders defines a mutable variable that
outlives a call, at file scope or as a `static` inside a function. Allowed: what is const (for a pointer, the
pointer itself: `const char *const names[]`, not `const char *names[]`), declarations (`extern`, prototypes,
typedefs, types), and a signal flag, a `volatile sig_atomic_t` or an atomic (`atomic_int`, `_Atomic`), which a
signal handler may set. Prints TAP: one test per folder.

    check-globals.py DIR...

The scanner reads C as written in this project: comments, strings and preprocessor lines dropped, then the
declarations at brace depth 0 (a function's body, a type's members and an initializer skipped) and every
`static` declaration inside a function. A declaration is `SPECIFIERS DECLARATOR [= INIT], ...;`."""
import os
import re
import sys

TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|\.\.\.|->|[^\s\w]")
SIGNAL_FLAG = {"sig_atomic_t", "_Atomic"}
TYPE_WORDS = {"struct", "union", "enum"}


def strip(text):
    """The C text without comments, string and character literals (each one "" or ''), or preprocessor lines; line
    numbers kept."""
    out, i, n = [], 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":  # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("\n")
                    i += 1
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(" " + "\n" * text.count("\n", i, end))
            i = end
            continue
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            continue
        if c == "\n":
            at_line_start = True
        elif not c.isspace():
            at_line_start = False
        out.append(c)
        i += 1
    return "".join(out)


def tokens(text):
    """(token, line) pairs."""
    result, line = [], 1
    for m in re.finditer(r"\n|" + TOKEN.pattern, text):
        if m.group() == "\n":
            line += 1
        else:
            result.append((m.group(), line))
    return result


def matching(toks, i):
    """The index after the bracket that closes the one at toks[i]."""
    pairs = {"{": "}", "(": ")", "[": "]"}
    opening, closing, depth = toks[i][0], pairs[toks[i][0]], 0
    for j in range(i, len(toks)):
        if toks[j][0] == opening:
            depth += 1
        elif toks[j][0] == closing:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(toks)


def without_attributes(decl):
    """The declaration without __attribute__((...)) and alignas(...)."""
    out, i = [], 0
    while i < len(decl):
        if decl[i][0] in ("__attribute__", "_Alignas", "alignas", "__declspec") and i + 1 < len(decl) and \
                decl[i + 1][0] == "(":
            i = matching(decl, i + 1)
            continue
        out.append(decl[i])
        i += 1
    return out


def declarators(decl):
    """The declaration's specifiers and its declarators (each a token list, its initializer cut off)."""
    words = [t for t, _ in decl]
    # the specifiers end before the first declarator: the first '*', '(' or the identifier followed by
    # '[', '=', ',', ';' or the end (the declared name)
    parts, current, depth = [], [], 0
    for tok in decl:
        if tok[0] in "([{":
            depth += 1
        elif tok[0] in ")]}":
            depth -= 1
        if tok[0] == "," and depth == 0:
            parts.append(current)
            current = []
        else:
            current.append(tok)
    parts.append(current)
    parts = [p[:[t for t, _ in p].index("=")] if "=" in [t for t, _ in p] else p for p in parts]
    first = parts[0]
    names = [t for t, _ in first]
    cut = len(first)
    for k, w in enumerate(names):
        if w in ("*", "("):
            cut = k
            break
        if re.match(r"[A-Za-z_]", w) and (k + 1 == len(names) or names[k + 1] in ("[", ":")):
            cut = k
            break
    del words
    return first[:cut], [first[cut:]] + parts[1:]


def mutable(specifiers, declarator):
    """Whether the object a declarator declares may be written: a pointer unless const follows its last '*',
    anything else unless its specifiers say const."""
    spec = {t for t, _ in specifiers}
    if spec & SIGNAL_FLAG or any(t.startswith("atomic_") for t in spec):
        return False
    words = [t for t, _ in declarator]
    if "(" in words and words.index("(") + 1 < len(words) and words[words.index("(") + 1] == "*":
        inner = words[words.index("(") + 1:]
        return "const" not in inner[:inner.index(")")] if ")" in inner else True
    if "*" in words:
        last = len(words) - 1 - words[::-1].index("*")
        return "const" not in words[last + 1:]
    return "const" not in spec and "const" not in words


def name_of(declarator):
    for t, line in declarator:
        if re.match(r"[A-Za-z_]\w*$", t) and t not in ("const", "volatile", "restrict", "static"):
            return t, line
    return "?", declarator[0][1] if declarator else 0


def variables(decl):
    """The mutable variables a declaration defines: [(name, line)]."""
    decl = without_attributes(decl)
    k = 0
    while k < len(decl):  # a type's members ({ ... } before any '='; an initializer's braces are cut with it)
        if decl[k][0] == "=":
            break
        if decl[k][0] == "{":
            decl = decl[:k] + decl[matching(decl, k):]
            continue
        k += 1
    words = [t for t, _ in decl]
    if not words or words[0] in ("typedef", "extern") or "extern" in words or "typedef" in words:
        return []
    if words[0] in TYPE_WORDS and len(words) <= 2:  # struct NAME; (a type, or a forward declaration)
        return []
    # a function prototype: NAME ( ... ) with NAME an identifier, not (*NAME)
    for k, w in enumerate(words):
        if w == "=":
            break
        if w == "(":
            if k > 0 and re.match(r"[A-Za-z_]", words[k - 1]) and (k + 1 >= len(words) or words[k + 1] != "*"):
                return []
            break
    specifiers, decls = declarators(decl)
    found = []
    for d in decls:
        if d and mutable(specifiers, d):
            found.append(name_of(d))
    return found


def scan(path):
    """The mutable variables of a C file: [(line, name, where)]."""
    with open(path, encoding="utf-8", errors="replace") as f:
        toks = tokens(strip(f.read()))
    found, i, stmt = [], 0, []
    while i < len(toks):
        tok = toks[i][0]
        if tok == ";":
            found += [(line, name, "file scope") for name, line in variables(stmt)]
            stmt, i = [], i + 1
            continue
        if tok == "{":
            words = [t for t, _ in without_attributes(stmt)]
            end = matching(toks, i)
            if "=" in words:  # an initializer: part of the declaration
                stmt += [("{", toks[i][1]), ("}", toks[end - 1][1])]
            elif any(w in TYPE_WORDS for w in words) and (not words or words[-1] != ")"):
                stmt += [("{", toks[i][1]), ("}", toks[end - 1][1])]  # a type's members: skipped
                stmt = [t for t in stmt if t[0] not in "{}"]
            else:  # a function's body: its static declarations
                found += [(line, name, "static in a function") for line, name in statics(toks[i + 1:end - 1])]
                stmt = []
            i = end
            continue
        stmt.append(toks[i])
        i += 1
    return found


def statics(body):
    """The mutable static variables declared in a function body: [(line, name)]."""
    found, i = [], 0
    while i < len(body):
        if body[i][0] == "static" and (i == 0 or body[i - 1][0] in (";", "{", "}", ")")):
            j, depth = i, 0
            while j < len(body) and not (body[j][0] == ";" and depth == 0):
                if body[j][0] in "([{":
                    depth += 1
                elif body[j][0] in ")]}":
                    depth -= 1
                j += 1
            found += [(line, name) for name, line in variables(body[i:j])]
            i = j
        i += 1
    return found


def main():
    results = []
    for folder in sys.argv[1:]:
        bad = []
        for dirpath, _, files in sorted(os.walk(folder)):
            for name in sorted(files):
                if name.endswith((".c", ".h")):
                    path = os.path.join(dirpath, name)
                    bad += [f"{path}:{line}: {var} ({where})" for line, var, where in scan(path)]
        results.append((f"no mutable global variable in {folder} (const and a signal flag allowed)", bad))
    print(f"1..{len(results)}")
    for k, (name, bad) in enumerate(results, 1):
        print(f"{'not ok' if bad else 'ok'} {k} - {name}")
        for line in bad:
            print(f"# {line}")
    return 1 if any(bad for _, bad in results) else 0


if __name__ == "__main__":
    sys.exit(main())
