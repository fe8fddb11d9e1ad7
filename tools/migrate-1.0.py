#!/usr/bin/env python3
"""Rewrite C sources written for libstpete 0.3 to the 1.0 API (NEWS.md, "Migrating from 0.3 to 1.0").

Usage: tools/migrate-1.0.py [--predicate-helpers PREFIX] FILE...

Rewrites each FILE in place, once (run it on 0.3 code only: a second run would move the arguments again), and
prints how many places changed and, on standard error, the places it left for you:
- mechanical changes: renamed functions and types, out-parameters moved after the inputs, the `stpete_error *err`
  (NULL) of constructors and parsers, the edition argument of stpete_card_get_info() and stpete_action_to_string()
  (the first edition for the 0.3 forms without a game, stpete_game_edition(game) for the stpete_game_* forms),
  stpete_state_resample() into stpete_state_determinize(..., 0), `stpete_json_error` (also `struct
  stpete_json_error`) and its `text` member;
- the STPETE_*_INIT initialiser of every stpete_card_info, stpete_score, stpete_event and stpete_error object
  (their struct_size must be set, or calls fail with STPETE_E_UNSUPPORTED_VERSION): each name of a declaration
  (`stpete_error a, b;` becomes `stpete_error a = STPETE_ERROR_INIT, b = STPETE_ERROR_INIT;`), `= {0}` and `= {}`
  replaced, arrays of up to 16 elements with a literal size one initialiser per element, `(stpete_score){0}`
  compound literals;
- left for you, reported: predicates used as values (stpete_state_is_terminal, _is_final_round, _is_legal,
  _equal now write their answer through an int *; they no longer compile with their 0.3 arguments), card names and
  stacks (stpete_card_name and friends: read stpete_card_get_info()'s name and stack), the `msg` buffers of
  stpete_bot_new() and stpete_options_check() (marked `/* MIGRATE: ... */`: read err.message instead), and the
  objects of those four structs it cannot initialise: other brace initialisers, arrays of another size, members of
  a struct, malloc'ed ones, and memset over them.
With --predicate-helpers PREFIX, predicates become PREFIXis_terminal(st) etc. and card names PREFIXcard_name(edition,
card), for helpers you define (tests/include/test_values.h of the project is an example).
Standard library only. A helper for a one-time port, not a parser: review the diff.
"""
import re
import sys

RENAMES = {
    "stpete_game_compatible": "stpete_game_check_compatible",
    "stpete_max_game_length": "stpete_game_max_length",
    "stpete_observation_tensor_size": "stpete_game_observation_tensor_size",
    "stpete_state_score": "stpete_state_get_score",
    "stpete_json_error": "stpete_error",
    "STPETE_DECISION_NONE": "STPETE_DECISION_GAME_OVER",
}

# name -> function(args) -> (new name, new args) ; args are stripped strings
def _move_first_to_end(extra):
    def f(a):
        return a[1:] + [a[0]] + extra
    return f


def _bot_new(a):
    game_out, game, spec, msg, size = a
    if msg.strip() in ("NULL", "0") :
        return [game, spec, game_out, "NULL"]
    return [game, spec, game_out, "/* MIGRATE: was msg %s, size %s */ NULL" % (msg, size)]


def _options_check(a):
    opts, msg, size = a
    if msg.strip() in ("NULL", "0"):
        return [opts, "NULL"]
    return [opts, "/* MIGRATE: was msg %s, size %s */ NULL" % (msg, size)]


CALLS = {
    "stpete_game_new": ("stpete_game_new", _move_first_to_end(["NULL"])),
    "stpete_state_new": ("stpete_state_new", _move_first_to_end(["NULL"])),
    "stpete_state_clone": ("stpete_state_clone", _move_first_to_end(["NULL"])),
    "stpete_state_new_with_callback": ("stpete_state_new_with_callback", _move_first_to_end(["NULL"])),
    "stpete_game_from_json": ("stpete_game_from_json", lambda a: [a[1], a[2], a[3], a[0], a[4]]),
    "stpete_state_from_json": ("stpete_state_from_json", lambda a: [a[1], a[2], a[3], a[0], a[4]]),
    "stpete_replay_from_json": ("stpete_replay_from_json",
                                lambda a: [a[4], a[5], a[6], a[0], a[1], a[2], a[3], a[7]]),
    "stpete_bot_new": ("stpete_bot_new", _bot_new),
    "stpete_options_check": ("stpete_options_check", _options_check),
    "stpete_event_to_string": ("stpete_event_to_string", lambda a: [a[1], a[0]] + a[2:]),
    "stpete_bot_play": ("stpete_bot_play", lambda a: [a[1], a[2], a[0]] + a[3:]),
    "stpete_state_resample": ("stpete_state_determinize", lambda a: a + ["0"]),
    "stpete_card_get_info": ("stpete_card_get_info", lambda a: ["STPETE_EDITION_FIRST"] + a),
    "stpete_game_card_info": ("stpete_card_get_info", lambda a: ["stpete_game_edition(%s)" % a[0]] + a[1:]),
    "stpete_action_to_string": ("stpete_action_to_string", lambda a: ["STPETE_EDITION_FIRST"] + a),
    "stpete_game_action_to_string": ("stpete_action_to_string",
                                     lambda a: ["stpete_game_edition(%s)" % a[0]] + a[1:]),
}
# the number of arguments of each of CALLS in 0.3: a call with another number is left as written
ARITY = {"stpete_game_new": 2, "stpete_state_new": 2, "stpete_state_clone": 2, "stpete_state_new_with_callback": 4,
         "stpete_game_from_json": 5, "stpete_state_from_json": 5, "stpete_replay_from_json": 8, "stpete_bot_new": 5,
         "stpete_options_check": 3, "stpete_event_to_string": 4, "stpete_bot_play": 5, "stpete_state_resample": 3,
         "stpete_card_get_info": 2, "stpete_game_card_info": 3, "stpete_action_to_string": 3,
         "stpete_game_action_to_string": 4}
assert set(ARITY) == set(CALLS)
PREDICATES = {"stpete_state_is_terminal": 1, "stpete_state_is_final_round": 1, "stpete_state_is_legal": 2,
              "stpete_state_equal": 2}
NAMES = {"stpete_card_name": 1, "stpete_game_card_name": 2, "stpete_card_stack": 1}


def parse_call(s, i):
    """s[i] is '('; return (args as raw strings, index after the closing paren)."""
    depth, j, start, args = 0, i, i + 1, []
    while j < len(s):
        c = s[j]
        if c in "\"'":
            q = c
            j += 1
            while s[j] != q:
                j += 2 if s[j] == "\\" else 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(s[start:j])
                return args, j + 1
        elif c == "," and depth == 1:
            args.append(s[start:j])
            start = j + 1
        j += 1
    raise ValueError("unbalanced call at %d" % i)


def join(args, orig):
    # keep the original's first separator style (", ")
    return ", ".join(a.strip() for a in args)


# The structs that begin with struct_size in 1.0, and their initialisers (NEWS.md, "Structs that may grow").
INITS = {"stpete_card_info": "STPETE_CARD_INFO_INIT", "stpete_score": "STPETE_SCORE_INIT",
         "stpete_event": "STPETE_EVENT_INIT", "stpete_error": "STPETE_ERROR_INIT"}
SPECIFIERS = {"static", "const", "volatile", "register", "auto", "extern", "typedef", "struct", "_Thread_local",
              "thread_local"}
ARRAY_INIT_MAX = 16  # arrays of up to this many elements get one initialiser per element
ZERO_BRACES = re.compile(r"\{\s*(0\s*,?\s*)?\}$")


def mask(src):
    """src with comments, string and character literals and preprocessor lines blanked (same length and lines)."""
    out, i, n = list(src), 0, len(src)
    line_start = True
    while i < n:
        c = src[i]
        if line_start and c == "#":
            j = i
            while j < n and (src[j] != "\n" or src[j - 1] == "\\"):
                j += 1
            out[i:j] = [" " if ch != "\n" else ch for ch in src[i:j]]
            i = j
            continue
        if c == "\n":
            line_start = True
        elif not c.isspace():
            line_start = False
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            i += 1
            continue
        out[i:j] = [" " if ch != "\n" else ch for ch in src[i:j]]
        i = j
    return "".join(out)


def _split_top(m, start, stops):
    """From m[start], the top-level pieces (start, end) separated by ',' up to the first top-level char of stops;
    returns (pieces, index of that char, the char) or None if the text ends or closes a bracket first."""
    depth, i, piece, pieces = 0, start, start, []
    while i < len(m):
        c = m[i]
        if c in "([{":
            if depth == 0 and c in stops:
                break
            depth += 1
        elif c in ")]}":
            if depth == 0:
                if c in stops:
                    break
                return None
            depth -= 1
        elif depth == 0 and c in stops:
            break
        elif depth == 0 and c == ",":
            pieces.append((piece, i))
            piece = i + 1
        i += 1
    else:
        return None
    pieces.append((piece, i))
    return pieces, i, m[i]


def _top_level_eq(m, a, b):
    depth = 0
    for i in range(a, b):
        c = m[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "=" and depth == 0:
            return i
    return -1


def _brace_kind(m, pos, stack):
    """What the '{' at m[pos] opens: 'member' (a struct or union body), 'enum', 'init' (an initialiser), 'block'."""
    before = m[max(0, pos - 200):pos].rstrip()
    if re.search(r"\b(struct|union)(\s+\w+)?$", before):
        return "member"
    if re.search(r"\benum(\s+\w+)?$", before):
        return "enum"
    return "init" if before.endswith("=") or (stack and stack[-1] == "init") else "block"


def _declaration_start(m, pos):
    """The specifiers (static, const, struct...) before the type name at m[pos] and the character before them."""
    specs = []
    while True:
        w = re.search(r"(\w+)\s*$", m[max(0, pos - 100):pos])
        if not w or w.group(1) not in SPECIFIERS:
            break
        specs.append(w.group(1))
        pos -= len(w.group())
    while pos and m[pos - 1].isspace():
        pos -= 1
    return specs, m[pos - 1:pos]


def _declarators(m, pieces):
    """The object and pointer declarators among pieces (start, end) of m: name, start/end of the declarator,
    pointer, dims (the texts in brackets), init (start, end of the initialiser) or None."""
    decls = []
    for a, b in pieces:
        eq = _top_level_eq(m, a, b)
        d = m[a:eq if eq >= 0 else b]
        name = re.match(r"\s*(\**)\s*(?:const\s+)?(\w+)?", d)
        if not name or not name.group(2) or "(" in d:
            continue  # a function or function pointer, or an abstract parameter
        decls.append({"name": name.group(2), "start": a, "end": a + len(d.rstrip()), "pointer": bool(name.group(1)),
                      "dims": re.findall(r"\[([^\]]*)\]", d), "init": (eq + 1, b) if eq >= 0 else None})
    return decls


def struct_declarations(src, types):
    """Each declaration of a variable of one of types (names, struct tag or typedef), as dicts: type, line,
    context ('file', 'block', 'member' of a struct/union, 'parameter'), specifiers, and declarators (see
    _declarators). Casts, sizeof, compound literals, function return types and definitions are not declarations."""
    m = mask(src)
    stack, found = [], []
    for t in re.finditer(r"[{}]|\b(%s)\b" % "|".join(types), m):
        if t.group() == "{":
            stack.append(_brace_kind(m, t.start(), stack))
            continue
        if t.group() == "}":
            if stack:
                stack.pop()
            continue
        specs, prev = _declaration_start(m, t.start())
        if prev in ("(", ","):
            context, stops = "parameter", ",)"
        elif prev in ("", ";", "{", "}"):
            context, stops = (stack[-1] if stack else "file"), ";"
        else:
            continue  # a cast, sizeof, a return type after another word...
        if context not in ("file", "block", "member", "parameter") or re.compile(r"\s*\{").match(m, t.end()):
            continue  # an enum or initialiser, or the struct's definition
        split = _split_top(m, t.end(), stops)
        if split:
            found.append({"type": t.group(1), "context": context, "specs": specs,
                          "decls": _declarators(m, split[0]), "line": src.count("\n", 0, t.start()) + 1})
    return found


def _initialise_declarator(src, decl, d):
    """The edit (start, end, text) that gives declarator d of decl its initialiser, or the reason (a string) why
    it needs one and cannot get it here, or None when it needs none."""
    typ, init = decl["type"], INITS[decl["type"]]
    value = src[d["init"][0]:d["init"][1]].strip() if d["init"] else None
    if d["pointer"]:
        if value and re.search(r"\b(malloc|calloc|realloc)\s*\(", value):
            return "%s allocated: set struct_size of each (%s[i] = (%s)%s)" % (d["name"], d["name"], typ, init)
        return None
    if decl["context"] == "member":
        return "member %s of a struct: give it %s where the enclosing object is initialised" % (d["name"], init)
    if value is not None and (not value.startswith("{") or re.match(r"\{\s*sizeof\b", value)
                              or re.fullmatch(r"\{\s*%s(\s*,\s*%s)*\s*,?\s*\}" % (init, init), value)):
        return None  # a copy or a call's result (it carries its struct_size), or already initialised
    if value is not None and not ZERO_BRACES.match(value):
        return "%s: a brace initialiser leaves struct_size 0; start from %s" % (d["name"], init)
    text = src[d["start"]:d["end"]]
    if not d["dims"]:
        rep = "%s = %s" % (text.lstrip(), init)
    elif len(d["dims"]) == 1 and re.fullmatch(r"\s*[1-9][0-9]*\s*", d["dims"][0]) \
            and int(d["dims"][0]) <= ARRAY_INIT_MAX:
        rep = "%s = { %s }" % (text.lstrip(), ", ".join([init] * int(d["dims"][0])))
    else:
        return "array %s: set struct_size of each element (%s[i] = (%s)%s)" % (d["name"], d["name"], typ, init)
    start = d["start"] + len(text) - len(text.lstrip())
    return start, d["init"][1] if d["init"] else d["end"], rep


def _literals_and_clears(src):
    """Edits of the zero compound literals of these structs, and (line, reason) of the others and of each memset
    over an object of them."""
    m, edits, left = mask(src), [], []
    for lit in re.finditer(r"\(\s*(?:struct\s+)?(%s)\s*\)\s*\{" % "|".join(INITS), m):
        split = _split_top(m, lit.end(), "}")
        if not split:
            continue
        value, init = src[lit.end() - 1:split[1] + 1], INITS[lit.group(1)]
        if ZERO_BRACES.match(value):
            edits.append((lit.end() - 1, split[1] + 1, init))
        elif not re.fullmatch(r"\{\s*%s\s*\}" % init, value):
            left.append((src.count("\n", 0, lit.start()) + 1, "a compound literal of %s leaves struct_size 0; "
                         "start from %s" % (lit.group(1), init)))
    names = {d["name"]: decl["type"] for decl in struct_declarations(src, INITS) for d in decl["decls"]}
    if names:
        for clear in re.finditer(r"\bmemset\s*\(\s*&?\s*(%s)\b" % "|".join(sorted(names)), m):
            typ = names[clear.group(1)]
            left.append((src.count("\n", 0, clear.start()) + 1, "memset clears the struct_size of %s: assign "
                         "(%s)%s instead" % (clear.group(1), typ, INITS[typ])))
    return edits, left


def initialise(src):
    """Give every object of a struct that begins with struct_size its STPETE_*_INIT (one per name and element);
    returns (src, changes, left) where left lists (line, reason) of the places it cannot rewrite."""
    edits, left = _literals_and_clears(src)
    for decl in struct_declarations(src, INITS):
        if decl["context"] == "parameter" or "extern" in decl["specs"] or "typedef" in decl["specs"]:
            continue
        for d in decl["decls"]:
            got = _initialise_declarator(src, decl, d)
            if isinstance(got, str):
                left.append((decl["line"], got))
            elif got:
                edits.append(got)
    for a, b, rep in sorted(edits, reverse=True):
        src = src[:a] + rep + src[b:]
    return src, len(edits), sorted(left)


def json_error_names(src):
    """The names declared as stpete_json_error (objects, pointers, parameters, several per declaration)."""
    return {d["name"] for decl in struct_declarations(src, ["stpete_json_error"]) for d in decl["decls"]}


def rewrite(src, helpers=None):
    changes = 0
    for var in json_error_names(src):
        src, n = re.subn(r"\b%s(\.|->)text\b" % var, lambda m: var + m.group(1) + "message", src)
        changes += n
    for old, new in RENAMES.items():
        src, n = re.subn(r"\b%s\b" % old, new, src)
        changes += n
    names = list(CALLS) + (list(PREDICATES) + list(NAMES) if helpers else [])
    pat = re.compile(r"\b(%s)\s*\(" % "|".join(sorted(names, key=len, reverse=True)))
    out, pos = [], 0
    for m in pat.finditer(src):
        if m.start() < pos:
            continue
        # skip declarations/definitions: preceded by a type word on the same line
        line_start = src.rfind("\n", 0, m.start()) + 1
        before = src[line_start:m.start()]
        if re.search(r"\b(int|void|char|STPETE_API)\s*\**\s*$", before) and "return" not in before:
            continue
        name = m.group(1)
        try:
            args, end = parse_call(src, m.end() - 1)
        except (ValueError, IndexError):
            continue
        args = [a.strip() for a in args]
        if args == [""]:
            args = []
        if name in CALLS:
            newname, f = CALLS[name]
            if not args:
                rep = "%s()" % newname  # the name mentioned, as in a comment
            elif len(args) != ARITY[name]:
                continue  # not 0.3's form (already migrated)
            else:
                rep = "%s(%s)" % (newname, ", ".join(f(args)))
        elif name in PREDICATES:
            if len(args) != PREDICATES[name]:
                continue
            rep = "%s%s(%s)" % (helpers, name[len("stpete_state_"):], ", ".join(args))
        elif name in NAMES:
            if len(args) != NAMES[name]:
                continue
            if name == "stpete_card_name":
                rep = "%scard_name(STPETE_EDITION_FIRST, %s)" % (helpers, args[0])
            elif name == "stpete_game_card_name":
                rep = "%scard_name(stpete_game_edition(%s), %s)" % (helpers, args[0], args[1])
            else:
                rep = "%scard_stack(%s)" % (helpers, args[0])
        out.append(src[pos:m.start()])
        out.append(rep)
        pos = end
        changes += 1
    out.append(src[pos:])
    src = "".join(out)
    src, n, _ = initialise(src)
    changes += n
    return src, changes


def report_left(path, src):
    whys = {}
    for number, line in enumerate(src.splitlines(), 1):
        if "MIGRATE:" in line:
            whys.setdefault(number, []).append(
                "a message buffer: pass a stpete_error (STPETE_ERROR_INIT) and read its message")
        elif re.search(r"\b(%s)\s*\(" % "|".join(PREDICATES), line) and not re.search(r"&\w+\)", line):
            whys.setdefault(number, []).append("a predicate: it now returns a status and writes 1/0 through an int *")
        elif re.search(r"\b(%s)\s*\(" % "|".join(NAMES), line):
            whys.setdefault(number, []).append(
                "removed: use stpete_card_get_info(edition, card, &info) and info.name / info.stack")
    for number, why in initialise(src)[2]:
        whys.setdefault(number, []).append(why)
    for number in sorted(whys):
        print("%s:%d: %s" % (path, number, "; ".join(whys[number])), file=sys.stderr)
    return len(whys)


def main(argv):
    helpers = None
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] == "--predicate-helpers":
        if len(argv) < 2:
            print("migrate-1.0.py: --predicate-helpers needs a PREFIX (see --help)", file=sys.stderr)
            return 2
        helpers = argv[1]
        argv = argv[2:]
    for path in argv:
        if path.startswith("-"):
            print("migrate-1.0.py: unknown option '%s' (see --help)" % path, file=sys.stderr)
            return 2
        try:
            src = open(path, encoding="utf-8").read()
        except (OSError, UnicodeDecodeError) as e:
            print("migrate-1.0.py: %s: %s" % (path, e), file=sys.stderr)
            return 1
        new, n = rewrite(src, helpers)
        if new != src:
            open(path, "w", encoding="utf-8").write(new)
        left = report_left(path, new)
        print("%s: %d changes, %d places left for you" % (path, n, left))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
