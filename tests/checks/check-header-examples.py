#!/usr/bin/env python3
"""Every example id or string quoted in the public headers is checked against the library (issue 11: docs that
cannot go stale).

Usage: check-header-examples.py LIBRARY HEADER [HEADER...]

Collects every double-quoted string inside the Doxygen comments of the headers (comment lines joined, so an
example may wrap), and requires each to be checked by one of the rules below, against the built library (ctypes):
  - action strings ("buy Wharf from upper displacing Ship Builder", "pass", ...) parse and are canonical;
  - "action N (S) ..." pairs: S is the string of id N, and the rest is the message the library gives for it;
  - the name lists of the name functions (phases, stacks, decisions, sources, event kinds) equal their output;
  - event lines equal stpete_event_to_string() of the event they describe;
  - status names equal stpete_strerror(); option and JSON messages are the ones the library writes.
Words that are not examples (JSON keys and values of the format) are listed in NOT_EXAMPLES. TAP output.
"""
import ctypes
import json
import re
import sys

lib = ctypes.CDLL(sys.argv[1])
headers = sys.argv[2:]
c_int, c_char_p, c_size_t = ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t
for name in ("stpete_phase_name", "stpete_stack_name", "stpete_decision_name", "stpete_source_name",
             "stpete_event_kind_name", "stpete_action_kind_name", "stpete_strerror", "stpete_colour_name",
             "stpete_options_pub_cap_name",
             "stpete_options_tie_break_name", "stpete_options_chance_mode_name"):
    getattr(lib, name).restype = c_char_p
    getattr(lib, name).argtypes = [c_int]
lib.stpete_state_last_error.restype = c_char_p
lib.stpete_state_last_error.argtypes = [ctypes.c_void_p]


class Error(ctypes.Structure):
    """stpete_error (1.0): the detail of calls without a handle."""
    _fields_ = [("struct_size", c_size_t), ("status", c_int), ("line", c_int), ("column", c_int),
                ("position", c_int), ("message", ctypes.c_char * 256)]


def new_error():
    return Error(ctypes.sizeof(Error), 0, -1, -1, -1, b"")


class CardInfo(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("name", c_char_p)] + [
        (n, c_int) for n in ("colour", "trading", "cost", "rubles", "vp", "copies", "ware", "special", "stack")]


def card_name(edition, card):
    info = CardInfo()
    info.struct_size = ctypes.sizeof(CardInfo)
    assert lib.stpete_card_get_info(edition, card, ctypes.byref(info)) == 0, card
    return info.name.decode()

results = []


def check(ok, name, detail=""):
    results.append((bool(ok), name, detail))


def names(fn):
    out, i = [], 0
    while getattr(lib, fn)(i) is not None:
        out.append(getattr(lib, fn)(i).decode())
        i += 1
    return out


def action_string(i, edition=1):
    buf = ctypes.create_string_buffer(96)
    return buf.value.decode() if lib.stpete_action_to_string(edition, i, buf, 96) == 0 else None


def action_id(text):
    out = c_int()
    return out.value if lib.stpete_action_from_string(text.encode(), ctypes.byref(out)) == 0 else None


class Event(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t)] + [(n, c_int) for n in ("kind", "seat", "card", "displaced", "source", "stack", "price", "rubles", "vp",
                                      "amount", "phase", "round", "edition")]


def card(name):
    out = c_int()
    assert lib.stpete_card_from_name(name.encode(), ctypes.byref(out)) == 0, name
    return out.value


def event_line(**fields):
    ev = Event(ctypes.sizeof(Event), *([-1] * 12), 1)
    for k, v in fields.items():
        setattr(ev, k, v)
    buf = ctypes.create_string_buffer(192)
    rc = lib.stpete_event_to_string(ctypes.byref(ev), None, buf, 192)
    return buf.value.decode() if rc == 0 else f"<status {rc}>"


# ---- the example checkers: each takes the quoted text and returns True when it handled (and checked) it ----

NAME_LISTS = {fn: names(fn) for fn in ("stpete_phase_name", "stpete_stack_name", "stpete_decision_name",
                                       "stpete_source_name", "stpete_event_kind_name", "stpete_action_kind_name",
                                       "stpete_colour_name",
                                       "stpete_options_pub_cap_name", "stpete_options_tie_break_name",
                                       "stpete_options_chance_mode_name")}
KNOWN_NAMES = {w for ws in NAME_LISTS.values() for w in ws}
ACTION_WORDS = ("pass", "buy ", "take ", "play ", "observatory ", "pub ", "chance ")


def check_action(text):
    if not (text == "pass" or text.startswith(ACTION_WORDS)):
        return False
    i = action_id(text)
    # canonical in the first edition, or in the second (§11: its card names)
    ok = i is not None and text in (action_string(i), action_string(i, edition=2))
    check(ok, f'"{text}" is an action string, canonical', f"parsed as {i} = {action_string(i) if i is not None else None!r}")
    return True


def check_action_message(text):
    m = re.match(r"action (\d+) \(([^)]*)\) is not legal: (.*)$", text)
    if not m:
        return False
    aid, s, reason = int(m.group(1)), m.group(2), m.group(3)
    check(action_string(aid) == s, f"action {aid} is \"{s}\"", f"library: {action_string(aid)!r}")
    # Reproduce it: a position where seat 0 is to act with 3 R and a Market in the upper row.
    got = reproduce_market_refusal(aid)
    check(got == text, f'the library writes "{text[:40]}..." for it', f"library: {got!r}")
    return True


def new_game(players=2, seed=1, edition=1):
    opts = ctypes.create_string_buffer(256)  # larger than stpete_options; stpete_options_init fills it
    lib.stpete_options_init(opts)
    ctypes.memmove(ctypes.addressof(opts) + 8, ctypes.byref(c_int(players)), 4)
    ctypes.memmove(ctypes.addressof(opts) + 16, ctypes.byref(ctypes.c_uint64(seed)), 8)
    ctypes.memmove(ctypes.addressof(opts) + 92, ctypes.byref(c_int(edition)), 4)  # stpete_options.edition
    game = ctypes.c_void_p()
    assert lib.stpete_game_new(opts, ctypes.byref(game), None) == 0
    return game


def to_json(state):
    n = c_size_t()
    lib.stpete_state_to_json(state, None, 0, ctypes.byref(n))
    buf = ctypes.create_string_buffer(n.value + 1)
    assert lib.stpete_state_to_json(state, buf, n.value + 1, ctypes.byref(n)) == 0
    return json.loads(buf.value)


def from_json(game, doc):
    text = json.dumps(doc).encode()
    st = ctypes.c_void_p()
    err = new_error()
    rc = lib.stpete_state_from_json(game, text, len(text), ctypes.byref(st), ctypes.byref(err))
    return st if rc == 0 else None, err.message.decode()


def reproduce_market_refusal(aid):
    game = new_game(2, 1)
    st = ctypes.c_void_p()
    assert lib.stpete_state_new(game, ctypes.byref(st), None) == 0
    doc = to_json(st)
    # the building stack gives a Market to the upper row, which gives a worker back to the worker stack
    b = doc["stacks"]["building"]
    worker = doc["upper_row"][0]
    b.remove("Market")
    doc["upper_row"][0] = "Market"
    b_size = len(b)
    doc["stacks"]["worker"].append(worker)
    doc["stack_sizes"]["worker"] += 1
    doc["stack_sizes"]["building"] = b_size
    doc["current_player"] = 0
    doc["players"][0]["rubles"] = 3
    loaded, why = from_json(game, doc)
    if not loaded:
        return f"<could not build the position: {why}>"
    rc = lib.stpete_state_apply(loaded, aid)
    return lib.stpete_state_last_error(loaded).decode() if rc != 0 else "<applied>"


def check_name_list(text):
    if text not in KNOWN_NAMES:
        return False
    check(True, f'"{text}" is a name the name functions return')
    return True


def check_event(text):
    examples = {
        "seat 1 buys Wharf from the upper row, displacing Ship Builder, for 5 R":
            dict(kind=2, seat=1, card=card("Wharf"), source=0, displaced=card("Ship Builder"), price=5),
        "building scoring: seat 0 gets +0 R and +3 VP": dict(kind=9, seat=0, phase=1, rubles=0, vp=3),
        "Game over after round 6: seat 2 wins": dict(kind=15, round=6, amount=0b100),
        "Game over after round 5: seats 0 and 2 share the win": dict(kind=15, round=5, amount=0b101),
        "undo: seat 2's pass is taken back": dict(kind=16, seat=2, amount=action_id("pass")),
    }
    if text not in examples:
        return False
    got = event_line(**examples[text])
    check(got == text, f'event line "{text}"', f"library: {got!r}")
    return True


def check_card(text):
    out = c_int()
    if lib.stpete_card_from_name(text.encode(), ctypes.byref(out)) != 0:
        return False
    names = (card_name(1, out.value), card_name(2, out.value))
    check(text in names, f'"{text}" is a card name (§2, or §11 in the second edition)')
    return True


def check_card_text(text):
    """A card's text (stpete_game_card_text()) quoted in a comment: the text the library writes for some card of a
    first-edition game."""
    if not text.endswith(").") or "(§" not in text:
        return False
    game = new_game(players=4)
    lib.stpete_game_card_text.argtypes = [ctypes.c_void_p, c_int, ctypes.c_char_p, c_size_t, ctypes.POINTER(c_size_t)]
    found = False
    for c in range(49):
        buf = ctypes.create_string_buffer(384)
        n = c_size_t()
        if lib.stpete_game_card_text(game, c, buf, 384, ctypes.byref(n)) == 0 and buf.value.decode() == text:
            found = True
    lib.stpete_game_free(game)
    check(found, f'"{text}" is the text of a card (stpete_game_card_text)')
    return True


def check_doc_section(text):
    """A section a comment refers to (e.g. doc/format.md's "The longest game") exists."""
    import os
    doc = os.path.join(os.path.dirname(os.path.abspath(headers[0])), "..", "..", "doc", "format.md")
    if not os.path.exists(doc) or not re.match(r"[A-Z][a-z]+( [a-z]+)+$", text):
        return False
    found = re.search(r"^#+ " + re.escape(text) + r"\s*$", open(doc, encoding="utf-8").read(), re.M)
    check(found, f'doc/format.md has the section "{text}"')
    return True


def check_version_format(text):
    if text != "MAJOR.MINOR.PATCH":
        return False
    lib.stpete_version.restype = c_char_p
    check(re.match(r"\d+\.\d+\.\d+$", lib.stpete_version().decode()), "stpete_version() is MAJOR.MINOR.PATCH")
    return True


def check_status(text):
    statuses = {lib.stpete_strerror(c).decode() for c in range(-120, 1)}
    if text not in statuses:
        return False
    check(True, f'"{text}" is a status name of stpete_strerror()')
    return True


def check_options_message(text):
    m = re.match(r"players must be 2, 3 or 4, not (\d+)(: .*| \(.*\))$", text)
    if not m:
        return False
    opts = ctypes.create_string_buffer(256)
    lib.stpete_options_init(opts)
    ctypes.memmove(ctypes.addressof(opts) + 8, ctypes.byref(c_int(int(m.group(1)))), 4)
    err = new_error()
    lib.stpete_options_check(opts, ctypes.byref(err))
    check(err.message.decode() == text, f'stpete_options_check() says "{text}"', f"library: {err.message!r}")
    return True


def check_json_message(text):
    m = re.match(r"players\[(\d)\]\.rubles: must be an integer in \[0, (\d+)\], not (\d+)$", text)
    if not m:
        return False
    game = new_game(2, 1)
    st = ctypes.c_void_p()
    lib.stpete_state_new(game, ctypes.byref(st), None)
    doc = to_json(st)
    doc["players"][int(m.group(1))]["rubles"] = int(m.group(3))
    _, why = from_json(game, doc)
    check(why == text, f'the JSON reader says "{text}"', f"library: {why!r}")
    return True


def check_results_header(text):
    """The format's and a program's name in a results file's header (stpete_results_header_to_json())."""
    if text not in ("stpete-results", "stpete-arena"):
        return False
    fn = lib.stpete_results_header_to_json
    fn.argtypes = [c_char_p, c_char_p, c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]
    buf, n = ctypes.create_string_buffer(4096), ctypes.c_size_t()
    rc = fn(b"stpete-arena", b'{"seed":1}', buf, len(buf), ctypes.byref(n))
    header = json.loads(buf.value.decode()) if rc == 0 else {}
    key = "format" if text == "stpete-results" else "program"
    check(header.get(key) == text, f'a results file\'s header has "{key}": "{text}"', f"library: {header!r}")
    return True


class OptionInfo(ctypes.Structure):
    """stpete_option_info (1.2): one option of the table."""
    _fields_ = [("struct_size", c_size_t), ("name", c_char_p), ("title", c_char_p), ("description", c_char_p),
                ("rule", c_char_p), ("type", c_int), ("category", c_int), ("games", c_int),
                ("min", ctypes.c_int64), ("max", ctypes.c_int64), ("default_value", ctypes.c_int64),
                ("default_text", c_char_p), ("num_words", c_int), ("words", ctypes.POINTER(c_char_p)),
                ("labels", ctypes.POINTER(c_char_p))]


def option_texts():
    """What the table of options says: every name, title, rule, default, word and label."""
    texts = set()
    for i in range(lib.stpete_option_count()):
        info = OptionInfo()
        info.struct_size = ctypes.sizeof(OptionInfo)
        assert lib.stpete_option_get_info(i, ctypes.byref(info)) == 0
        texts |= {info.name, info.title, info.rule, info.default_text}
        texts |= {info.words[w] for w in range(info.num_words)}
        if info.labels:
            texts |= {info.labels[v] for v in range(info.max - info.min + 1)}
    return {t.decode() for t in texts}


def check_option_example(text):
    """A name, title, rule, default, word or label of the table of options, or a value some option reads."""
    if text in option_texts():
        check(True, f'"{text}" is in the table of options')
        return True
    for i in range(lib.stpete_option_count()):
        info = OptionInfo()
        info.struct_size = ctypes.sizeof(OptionInfo)
        lib.stpete_option_get_info(i, ctypes.byref(info))
        opts = ctypes.create_string_buffer(256)
        lib.stpete_options_init_size(opts, c_size_t(lib_options_size()))
        if lib.stpete_options_set(opts, info.name, text.encode(), None) == 0:
            check(True, f'"{text}" is a value of the option {info.name.decode()}')
            return True
    return False


def lib_options_size():
    ptr = ctypes.c_void_p()
    assert lib.stpete_options_new(ctypes.byref(ptr), None) == 0
    size = ctypes.cast(ptr, ctypes.POINTER(c_size_t))[0]
    lib.stpete_options_free(ptr)
    return size


lib.stpete_options_set.argtypes = [ctypes.c_void_p, c_char_p, c_char_p, ctypes.c_void_p]
lib.stpete_options_init_size.argtypes = [ctypes.c_void_p, c_size_t]
lib.stpete_options_new.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
lib.stpete_options_free.argtypes = [ctypes.c_void_p]

# Quoted words that are not examples of library output: JSON keys and values of the format, placeholders.
NOT_EXAMPLES = {"receives ...", "receive ...", "unused", "default", "format_version", "options", ""}
CHECKERS = (check_action_message, check_action, check_event, check_options_message, check_json_message,
            check_name_list, check_status, check_card, check_card_text, check_option_example, check_doc_section,
            check_version_format, check_results_header)

for path in headers:
    text = open(path, encoding="utf-8").read()
    for comment in re.findall(r"/\*\*(.*?)\*/", text, re.S):
        joined = " ".join(re.sub(r"^\s*\*?\s?", "", line) for line in comment.splitlines())
        joined = re.sub(r"\s+", " ", joined)
        for quoted in re.findall(r'"([^"]*)"', joined):
            if quoted in NOT_EXAMPLES:
                continue
            if not any(checker(quoted) for checker in CHECKERS):
                check(False, f'"{quoted}" in {path.rsplit("/", 1)[-1]} is checked', "no checker knows it: add one")

# each option word parses back to its value, and an unknown word is refused (the parsers of the name functions)
for kind in ("pub_cap", "tie_break", "chance_mode"):
    parse = getattr(lib, f"stpete_options_{kind}_from_name")
    parse.argtypes = [c_char_p, ctypes.POINTER(c_int)]
    for value, word in enumerate(NAME_LISTS[f"stpete_options_{kind}_name"]):
        out = c_int(-7)
        rc = parse(word.encode(), ctypes.byref(out))
        check(rc == 0 and out.value == value, f'stpete_options_{kind}_from_name("{word}") = {value}')
    out = c_int(-7)
    rc = parse(b"Per-Pub", ctypes.byref(out))
    check(rc == -107 and out.value == -7, f"stpete_options_{kind}_from_name refuses an unknown word, value unchanged",
          f"rc {rc}, value {out.value}")

# the name lists written in the comments equal the functions' output, in order
for path in headers:
    text = open(path, encoding="utf-8").read()
    for fn, want in NAME_LISTS.items():
        m = re.search(r"/\*\*((?:(?!\*/).)*?)\*/\s*STPETE_API const char \*" + fn + r"\(", text, re.S)
        if not m:
            continue
        comment = re.sub(r"\s*\n\s*\*\s?", " ", m.group(1))
        listed = [w for w in re.findall(r'"([^"]*)"', comment) if w in KNOWN_NAMES]
        check(listed[:len(want)] == want, f"the comment of {fn}() lists its names in order", f"{listed} vs {want}")

print(f"1..{len(results)}")
for i, (ok, name, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if not ok and detail:
        print(f"# {detail}")
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
