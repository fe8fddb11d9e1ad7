"""doc/stpete.schema.json (JSON Schema draft 2020-12, issue 21) against the library's own documents: full states,
every seat's view and the spectators' view of many random positions (both chance modes, both editions, 2-4
players, with and without public rubles and hands; the New Society at 2-5 players, format_version 4), and replay
records, all valid; documents broken on purpose
(a wrong type, a missing key, a card name that does not exist, an unknown key) refused; doc/format.md names every key
the library writes and its format_version. Debian's python3-jsonschema.
TAP output.

With --mutants (the `slow` suite's test schema-mutants; issue 31 item 9), also a differential of the schema and the
library's readers over mutants of the library's own full states and replay records (every value replaced by values
of other types, at and beyond the bounds, other lengths and spellings; keys removed and added; integers written as
5.0 and 5e0; keys duplicated): whatever the library loads, the schema accepts; whatever the schema accepts, the
library loads or refuses for a reason beyond one value (a rule of the position, doc/format.md "What a state must
satisfy"), never with one value's message ("KEY: must be ..."). The two rules JSON Schema cannot state (an integer
written with a fraction or an exponent, a duplicate key) are listed in doc/format.md: there the library must refuse.

Usage: /usr/bin/python3 schema-check.py BINDINGS-DIR LIBSTPETE-PATH SCHEMA [--mutants]"""
import copy
import json
import os
import random
import sys

sys.path.insert(0, sys.argv[1])
os.environ["STPETE_LIBRARY"] = sys.argv[2]
import jsonschema  # noqa: E402  (Debian's python3-jsonschema)
import stpete  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", "include"))  # tap_report.py
from tap_report import report  # noqa: E402  (tests/include/tap_report.py)

results = []  # (name, ok, detail), reported at the end


def check(name, ok, detail=""):
    results.append((name, ok, detail))

schema = json.load(open(sys.argv[3]))


jsonschema.Draft202012Validator.check_schema(schema)
check("the schema is a valid draft 2020-12 schema", True)


def sub(kind):
    s = dict(schema)
    del s["oneOf"]
    s["$ref"] = f"#/$defs/{kind}"
    return jsonschema.Draft202012Validator(s)


whole, kinds = jsonschema.Draft202012Validator(schema), {k: sub(k) for k in ("state", "view", "replay", "table")}
docs = {"state": [], "view": [], "replay": [], "table": []}
errors = []
for k in range(32):
    players, edition = 2 + k % 3, 1 + k // 3 % 2
    mode = "explicit" if k // 6 % 2 else "sampled"
    extra = {}
    if k >= 24:  # the New Society (§12, format_version 4): 2-5 players, both chance modes, each [option]
        players, edition, extra = 2 + k % 4, 1, {"new_society": True, "used_prison_scores": k % 3 == 1,
                                                  "markers_one_seat": k % 3 == 2}
    game = stpete.Game(players=players, seed=k + 1, edition=edition, chance_mode=mode,
                       public_rubles=k % 4 == 1, public_hands=k % 8 == 3, **extra)
    state, rng = game.new_state(), random.Random(k)
    step = 0
    while True:
        if step % 12 == 0 or state.is_terminal:
            docs["state"].append(json.loads(state.to_json()))
            for seat in [None, *range(players)]:
                docs["view"].append(json.loads(state.view_to_json(seat)))
            if step % 36 == 0 or state.is_terminal:  # the table document (since 1.2, issue 41): a spectator's and
                for seat in (None, k % players):     # a seat's, the card table at the start, a person's now and then;
                    since = 0 if step == 0 or state.is_terminal else step - 24  # the whole log at both ends only
                    docs["table"].append(json.loads(state.table_to_json(seat, since=since, cards=step == 0,
                                                                        person=(step // 36 + k) % 2 == 1)))
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))  # a chance outcome at a chance node
        step += 1
    docs["replay"].append(json.loads(state.replay_to_json()))

for kind, items in docs.items():
    bad = [(i, e.message) for i, d in enumerate(items) for e in kinds[kind].iter_errors(d)][:5]
    check(f"{len(items)} {kind} documents of the library are valid {kind}s", not bad, bad)
    bad = [i for i, d in enumerate(items) if not whole.is_valid(d)][:5]
    check("... and valid under the whole schema (exactly one kind)", not bad, bad)


# Every value of every option of the library's table (stpete.options(), its enum's words, its integers, both seeds,
# start markers dealt or given), alone and with the New Society: the documents of such a game (a state after a few
# random moves, a seat's view, its replay record) are valid. The schema refuses unknown keys and format versions, so
# an option added to the table without its key in the schema fails here even where the games above leave it at its
# default.
def option_texts(o):
    if o.type in (stpete.OptionType.BOOL, stpete.OptionType.ENUM):
        return list(o.words)
    if o.type == stpete.OptionType.INT:
        return [str(v) for v in range(o.min, o.max + 1)]
    if o.type == stpete.OptionType.SEED:
        return ["0", str(2**64 - 1)]
    return ["random", "1,0,1,0", "0,1,2,3"]  # SEATS: the 0,1,2,3 of 4 and 5 players


games, bad = 0, []
for option in stpete.options():
    for text in option_texts(option):
        for with_ns in (False, True):
            values = {"new_society": True} if with_ns else {}
            values[option.name] = option.parse(text)
            if stpete.check_options(**values) is not None:  # a combination the library refuses (e.g. 5 players)
                values["players"] = 2 if text == "1,0,1,0" else values.get("players", 4)
                if stpete.check_options(**values) is not None:
                    continue
            game = stpete.Game(**values)
            state, rng = game.new_state(), random.Random(games)
            for _ in range(20):
                state.apply(rng.choice(state.legal_actions()))
            games += 1
            for kind, text_of in (("state", state.to_json), ("view", lambda: state.view_to_json(0)),
                                  ("replay", state.replay_to_json)):
                doc = json.loads(text_of())
                bad += [f"{values}: {kind}: {e.message[:200]}" for e in kinds[kind].iter_errors(doc)][:1]
check(f"the documents of {games} games, every value of every option of the library's table alone and with the "
      "New Society, are valid", games > 2 * len(stpete.options()) and not bad, bad[:5])


def keys_of(value, out):
    if isinstance(value, dict):
        for key, v in value.items():
            out.add(key)
            keys_of(v, out)
    elif isinstance(value, list):
        for v in value:
            keys_of(v, out)
    return out


format_md = open(os.path.join(os.path.dirname(sys.argv[3]), "format.md")).read()
written = keys_of([d for items in docs.values() for d in items], set())
missing = sorted(k for k in written if f"`{k}`" not in format_md and f"\"{k}\"" not in format_md)
check(f"doc/format.md names every one of the {len(written)} keys the library writes", not missing, missing)
check("doc/format.md says which format_version the library writes (4 with the New Society only)",
      f"format_version {stpete._ffi.FORMAT_VERSION}" in format_md and
      f"format_version {stpete._ffi.FORMAT_VERSION_NEW_SOCIETY}" in format_md and
      all(d["format_version"] == (stpete._ffi.FORMAT_VERSION_NEW_SOCIETY if d["options"].get("new_society")
                                  else stpete._ffi.FORMAT_VERSION)
          for kind, items in docs.items() if kind != "table" for d in items) and
      any(d["format_version"] == stpete._ffi.FORMAT_VERSION_NEW_SOCIETY for d in docs["state"]))


def refused(kind, doc, what):
    check(f"{kind}: refused with {what}", not whole.is_valid(doc) and not kinds[kind].is_valid(doc))


state, view, replay = docs["state"][5], docs["view"][7], docs["replay"][0]
for kind, doc in (("state", state), ("view", view)):
    d = copy.deepcopy(doc); d["round"] = str(d["round"]); refused(kind, d, "a wrong type (round as a string)")
    d = copy.deepcopy(doc); del d["players"][0]["vp"]; refused(kind, d, "a missing key (players[0].vp)")
    d = copy.deepcopy(doc); d["upper_row"] = ["Cathedral of Nowhere"]; refused(kind, d, "a card name that does not exist")
    d = copy.deepcopy(doc); d["secret"] = 1; refused(kind, d, "an unknown key")
    d = copy.deepcopy(doc); d["format_version"] = 5; refused(kind, d, "another format_version")
d = copy.deepcopy(state); d["stacks"]["worker"] = None; refused("state", d, "a view's null stack in a full state")
d = copy.deepcopy(replay); d["actions"][0]["id"] = "2"; refused("replay", d, "a wrong type (an id as a string)")
d = copy.deepcopy(replay); del d["result"]; refused("replay", d, "a missing key (result)")
d = copy.deepcopy(replay); d["options"]["edition"] = 3; refused("replay", d, "an edition that does not exist")
table = next(d for d in docs["table"] if d["offers"] and d["actions"])
d = copy.deepcopy(table); d["move"] = "3"; refused("table", d, "a wrong type (move as a string)")
d = copy.deepcopy(table); del d["log"]; refused("table", d, "a missing key (log)")
d = copy.deepcopy(table); d["table_version"] = 2; refused("table", d, "another table_version")
d = copy.deepcopy(table); d["offers"][0]["price"] = 0; refused("table", d, "an offer at 0 R (prices are at least 1, §5)")
d = copy.deepcopy(table); d["actions"][0]["kind"] = "steal"; refused("table", d, "an action kind that does not exist")


# ---- the differential over mutants (--mutants) --------------------------------------------------------------------

import re  # noqa: E402

# A message about one value ("KEY: must be ..."), except the one joining an action's id and its string (a replay's
# "actions[i].action: must be the string of action N", doc/format.md).
PER_VALUE = re.compile(r"^[\w.\[\]]+: (must be(?! the string of action)|unknown key|missing key)")
SPECIAL = "\u0000mutant:"  # a string value replaced by raw JSON text when the mutant is written


def leaves(value, path=()):
    """Every path into value, containers included."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, path + (i,))


def get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def replaced(doc, path, value):
    d = copy.deepcopy(doc)
    if not path:
        return value
    get(d, path[:-1])[path[-1]] = value
    return d


BOUNDS = [-100001, -100000, -2, -1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 30, 31, 32, 254, 255, 256, 971, 972, 1275, 1276, 1277,
          2007, 2008, 99999, 100000, 100001, 2**31, 2**63, 2**64]
U64 = 2**64


def values_for(v):
    """Replacements for a value: other types, bounds, other spellings."""
    out = [None, True, False, "x", [], {}, 0.5]
    if isinstance(v, bool):
        out += [0, 1, "true"]
    elif isinstance(v, int):
        out += [v - 1, v + 1, -v, str(v), SPECIAL + f"{v}.0", SPECIAL + f"{v}e0", SPECIAL + f"{v}.5"] + BOUNDS
    elif isinstance(v, str):
        out += ["", v.upper(), v + "a", v[:-1], " " + v, v + "\u0000"]
        if re.fullmatch(r"[0-9a-f]{16}", v):
            out += [v[:n] for n in (1, 8, 15)] + [v + "0", "0" * 16, "f" * 16, "g" * 16]
        if re.fullmatch(r"[0-9]+", v):
            out += [str(U64 - 1), str(U64), str(U64 * 10), "0" * 19 + "1", "0" * 20 + "1", "-1", "1.0", "1e3"]
    elif isinstance(v, list):
        if v:
            out += [v[:-1], v + [v[-1]], v + [None], [v[0]] * 9]
    return out


def mutants(doc):
    """(what, document, spelling) for the mutants of one document; spelling: an integer written as 5.0 or 5e0."""
    for path in leaves(doc):
        v = get(doc, path)
        where = ".".join(map(str, path)) or "(root)"
        if isinstance(v, dict):
            for k in v:
                d = copy.deepcopy(doc)
                del get(d, path)[k]
                yield f"{where}: without {k}", d, False
            yield f"{where}: an unknown key", replaced(doc, path, {**v, "unknown": 1}), False
        if path:
            for r in values_for(v):
                spelling = isinstance(r, str) and r.startswith(SPECIAL) and not r.endswith(".5")
                yield f"{where} = {r!r}", replaced(doc, path, r), spelling


def text_of(doc):
    """The document as JSON, each SPECIAL string written as the raw text after the prefix."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    return re.sub(r'"\\u0000mutant:([^"]*)"', r"\1", text)


def library_verdict(kind, text):
    """None if the library loads the document, else its message."""
    try:
        if kind == "state":
            stpete.State.from_json(text)
        else:
            stpete.replay_from_json(text)
        return None
    except stpete.StPeteError as e:
        return str(e)


def schema_verdict(kind, text):
    try:
        doc = json.loads(text)
    except ValueError:
        return False
    return kinds[kind].is_valid(doc)


if "--mutants" in sys.argv[4:]:
    import time
    started, rng = time.monotonic(), random.Random(31)
    # documents of both kinds, every player count, edition and chance mode (docs[] cycles through them); of each,
    # a sample of its mutants (a replay's are many: every action), so that the test takes about a minute
    per_doc = int(os.environ.get("STPETE_SCHEMA_MUTANTS_PER_DOC", "1000"))
    corpus = [("state", docs["state"][i]) for i in rng.sample(range(len(docs["state"])), 8)]
    corpus += [("replay", docs["replay"][i]) for i in rng.sample(range(len(docs["replay"])), 6)]
    tried, lib_only, schema_only, per_kind = 0, [], [], {"state": 0, "replay": 0}
    unstated = {"an integer written with a fraction or an exponent": [], "a duplicate key": []}
    for kind, doc in corpus:
        every = list(mutants(doc))
        for what, d, spelling in rng.sample(every, min(per_doc, len(every))):
            text = text_of(d)
            lib = library_verdict(kind, text)
            tried += 1
            per_kind[kind] += 1
            if spelling:  # 5.0 or 5e0: JSON Schema sees the number 5 (doc/format.md); the library must refuse
                if lib is None:
                    unstated["an integer written with a fraction or an exponent"].append(f"{kind} {what}")
                continue
            ok = schema_verdict(kind, text)
            if lib is None and not ok:
                lib_only.append(f"{kind} {what}")
            elif lib is not None and ok and PER_VALUE.match(lib):
                schema_only.append(f"{kind} {what}: {lib}")
        # a duplicate key in each object of the document (its first key again, with its value): the library
        # refuses, the schema cannot see it (Python's json keeps the last)
        for path in leaves(doc):
            v = get(doc, path)
            if isinstance(v, dict) and v:
                k = next(iter(v))
                inner = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
                dup = "{" + json.dumps(k) + ":" + json.dumps(v[k], separators=(",", ":")) + "," + inner[1:]
                text = text_of(replaced(doc, path, SPECIAL + "@@DUP@@")).replace("@@DUP@@", dup) if path else dup
                tried += 1
                if library_verdict(kind, text) is None:
                    unstated["a duplicate key"].append(f"{kind} {'.'.join(map(str, path)) or '(root)'}")
    check(f"{tried} mutants of {len(corpus)} documents ({per_kind['state']} states, {per_kind['replay']} replays): "
          "nothing the library loads is refused by the schema", not lib_only, "\n".join(lib_only[:20]))
    check("... and nothing the schema accepts is refused by the library for one value", not schema_only,
          "\n".join(schema_only[:20]))
    for rule, found in unstated.items():
        check(f"... the library refuses every document with {rule}", not found, "\n".join(found[:20]))
        check(f"doc/format.md says JSON Schema cannot state the rule on {rule}", rule in format_md)
    print(f"# differential: {tried} mutants in {time.monotonic() - started:.1f} s")
report(results)
