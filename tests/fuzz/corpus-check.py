"""The fuzz seed corpus covers the format-version-2 reader (issue 22, finding 10): for each edition, state
documents of format_version 2 at a chance node of every kind (the marker deal, a deal at setup, before the next
phase and for a new round, an Observatory draw), one with a hand card whose hand_known is false, one with
public_hash, a seat view, and a replay record of an explicit-chance game with chance outcome ids. Prints TAP.

    corpus-check.py CORPUS_JSON_DIR"""
import json
import os
import sys

corpus = sys.argv[1]
docs = []
for name in sorted(os.listdir(corpus)):
    try:
        with open(os.path.join(corpus, name), "rb") as f:
            docs.append((name, json.loads(f.read())))
    except ValueError:
        pass  # the malformed seeds

CHANCE_FIRST = 972  # STPETE_CHANCE_CARD_FIRST
checks = []
for edition in (1, 2):
    v2 = [(n, d) for n, d in docs if isinstance(d, dict) and d.get("format_version") == 2 and
          (d.get("options") or {}).get("edition") == edition]
    states = [d for _, d in v2 if d.get("format") == "stpete-state" and d.get("view") == "full"]
    chance = [d["chance"] for d in states if d.get("chance")]
    for label, test in (("the marker deal", lambda c: c["event"] == "markers"),
                        ("a deal at setup", lambda c: c["event"] == "deal" and c["then"] == "setup"),
                        ("a deal before the next phase", lambda c: c["event"] == "deal" and c["then"] == "next-phase"),
                        ("a deal for a new round", lambda c: c["event"] == "deal" and c["then"] == "round"),
                        ("an Observatory draw", lambda c: c["event"] == "draw")):
        checks.append((f"edition {edition}: a version-2 state at a chance node: {label}", any(map(test, chance))))
    checks.append((f"edition {edition}: a version-2 state with hand_known false",
                   any(False in p.get("hand_known", []) for d in states for p in d["players"])))
    checks.append((f"edition {edition}: a version-2 state with public_hash", any("public_hash" in d for d in states)))
    checks.append((f"edition {edition}: a version-2 seat view",
                   any(d.get("format") == "stpete-state" and d.get("view") == "seat" for _, d in v2)))
    checks.append((f"edition {edition}: a version-2 replay record with chance outcomes",
                   any(d.get("format") == "stpete-replay" and any(a["id"] >= CHANCE_FIRST for a in d["actions"])
                       for _, d in v2)))
print(f"1..{len(checks)}")
for i, (name, ok) in enumerate(checks, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
sys.exit(0 if all(ok for _, ok in checks) else 1)
