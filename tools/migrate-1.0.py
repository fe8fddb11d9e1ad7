#!/usr/bin/env python3
"""Rewrite C sources written for libstpete 0.3 to the 1.0 API (NEWS.md, "Migrating from 0.3 to 1.0").

Usage: tools/migrate-1.0.py [--predicate-helpers PREFIX] FILE...

Rewrites each FILE in place, once (run it on 0.3 code only: a second run would move the arguments again), and
prints how many places changed and, on standard error, the places it left for you:
- mechanical changes: renamed functions and types, out-parameters moved after the inputs, the `stpete_error *err`
  (NULL) of constructors and parsers, the edition argument of stpete_card_get_info() and stpete_action_to_string()
  (the first edition for the 0.3 forms without a game, stpete_game_edition(game) for the stpete_game_* forms),
  stpete_state_resample() into stpete_state_determinize(..., 0), `stpete_json_error` and its `text` member,
  the STPETE_*_INIT initialisers of stpete_card_info, stpete_score, stpete_event and stpete_error declarations;
- left for you, reported: predicates used as values (stpete_state_is_terminal, _is_final_round, _is_legal,
  _equal now write their answer through an int *; they no longer compile with their 0.3 arguments), card names and
  stacks (stpete_card_name and friends: read stpete_card_get_info()'s name and stack), and the `msg` buffers of
  stpete_bot_new() and stpete_options_check() (marked `/* MIGRATE: ... */`: read err.message instead).
With --predicate-helpers PREFIX, predicates become PREFIXis_terminal(st) etc. and card names PREFIXcard_name(edition,
card), for helpers you define (tests/test_values.h of the project is an example).
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


def rewrite(src, helpers=None):
    changes = 0
    for var in set(re.findall(r"stpete_json_error\s*\*?\s*(\w+)", src)):
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
            try:
                nargs = f(args)
            except (IndexError, ValueError):
                continue
            if name in ("stpete_card_get_info", "stpete_action_to_string") and len(args) != (2 if name == "stpete_card_get_info" else 3):
                continue  # already migrated
            rep = "%s(%s)" % (newname, ", ".join(nargs))
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
    # struct initialisers
    for typ, init in (("stpete_card_info", "STPETE_CARD_INFO_INIT"), ("stpete_score", "STPETE_SCORE_INIT"),
                      ("stpete_event", "STPETE_EVENT_INIT"), ("stpete_error", "STPETE_ERROR_INIT")):
        src, n = re.subn(r"(^\s*(?:static\s+)?%s\s+\w+)\s*(?:=\s*\{\s*0?\s*\}\s*)?;" % typ,
                         r"\1 = %s;" % init, src, flags=re.M)
        changes += n
    return src, changes


def report_left(path, src):
    left = 0
    for number, line in enumerate(src.splitlines(), 1):
        why = None
        if "MIGRATE:" in line:
            why = "a message buffer: pass a stpete_error (STPETE_ERROR_INIT) and read its message"
        elif re.search(r"\b(%s)\s*\(" % "|".join(PREDICATES), line) and not re.search(r"&\w+\)", line):
            why = "a predicate: it now returns a status and writes 1/0 through an int *"
        elif re.search(r"\b(%s)\s*\(" % "|".join(NAMES), line):
            why = "removed: use stpete_card_get_info(edition, card, &info) and info.name / info.stack"
        if why:
            left += 1
            print("%s:%d: %s" % (path, number, why), file=sys.stderr)
    return left


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
