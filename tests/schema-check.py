"""doc/stpete.schema.json (JSON Schema draft 2020-12, issue 21) against the library's own documents: full states,
every seat's view and the spectators' view of many random positions (both chance modes, both editions, 2-4
players, with and without public rubles and hands; the New Society at 2-5 players, format_version 4), and replay
records, all valid; documents broken on purpose
(a wrong type, a missing key, a card name that does not exist, an unknown key) refused; doc/format.md names every key
the library writes and its format_version. Debian's python3-jsonschema.
TAP output.

Usage: /usr/bin/python3 schema-check.py BINDINGS-DIR LIBSTPETE-PATH SCHEMA"""
import copy
import json
import os
import random
import sys

sys.path.insert(0, sys.argv[1])
os.environ["STPETE_LIBRARY"] = sys.argv[2]
import jsonschema  # noqa: E402  (Debian's python3-jsonschema)
import stpete  # noqa: E402
from tap_report import report  # noqa: E402  (tests/tap_report.py)

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


whole, kinds = jsonschema.Draft202012Validator(schema), {k: sub(k) for k in ("state", "view", "replay")}
docs = {"state": [], "view": [], "replay": []}
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
                                  else stpete._ffi.FORMAT_VERSION) for items in docs.values() for d in items) and
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
report(results)
