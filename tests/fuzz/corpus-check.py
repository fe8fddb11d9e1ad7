"""The fuzz seed corpus covers the format-version-2 reader (issue 22, finding 10): for each edition, state
documents of format_version 2 at a chance node of every kind (the marker deal, a deal at setup, before the next
phase and for a new round, an Observatory draw), one with a hand card whose hand_known is false, one with
public_hash, a seat view, and a replay record of an explicit-chance game with chance outcome ids. And format
version 3, the one 1.0 writes (issue 31 item 10): for both editions and chance modes a full state, a seat view and
a replay record; 2-4 players; a public view; played states at several points (start, round 1, a middle round, the
final round, the end, an Observatory and a Pub decision, a chance node); public_rubles and public_hands. And format
version 4, the New Society's (issue 46 item 15): 2-5 players, both chance modes, a state at each of its decisions
(prison, guild-hall, trading-house), views, replay records, its rulings; with the actions corpus too, New Society
games of every player count among the action inputs. Prints TAP.

    corpus-check.py CORPUS_JSON_DIR [CORPUS_ACTIONS_DIR]"""
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
# Format version 3, which 1.0 writes and nothing else (issue 31 item 10): every kind of document, both editions and
# chance modes, 2-4 players, played states at several points, the §9 options.
v3 = [d for _, d in docs if isinstance(d, dict) and d.get("format_version") == 3]
v3_states = [d for d in v3 if d.get("format") == "stpete-state" and d.get("view") == "full"]
v3_views = [d for d in v3 if d.get("format") == "stpete-state" and d.get("view") in ("seat", "public")]
v3_replays = [d for d in v3 if d.get("format") == "stpete-replay"]
for edition in (1, 2):
    for mode in ("sampled", "explicit"):
        def ours(d):
            return (d.get("options") or {}).get("edition") == edition and (d.get("options") or {}).get("chance_mode") == mode
        for kind, items in (("full state", v3_states), ("seat view", [d for d in v3_views if d["view"] == "seat"]),
                            ("replay record", v3_replays)):
            checks.append((f"format 3, edition {edition}, {mode} chance: a {kind}", any(map(ours, items))))
for players in (2, 3, 4):
    checks.append((f"format 3: a full state, a view and a replay record of {players} players",
                   all(any(len(d["players"]) == players for d in items) for items in (v3_states, v3_views)) and
                   any(d["options"]["players"] == players for d in v3_replays)))
checks.append(("format 3: a public view", any(d["view"] == "public" for d in v3_views)))
for label, test in (("at the start (round 1, nothing bought)", lambda d: d["round"] == 1 and not any(p["display"] for p in d["players"])),
                    ("later in round 1", lambda d: d["round"] == 1 and any(p["display"] or p["hand"] for p in d["players"])),
                    ("in a middle round", lambda d: 3 <= d["round"] and not d["final_round"] and d["decision"] == "turn"),
                    ("in the final round", lambda d: d["final_round"] and d["decision"] != "game-over"),
                    ("at the end", lambda d: d["decision"] == "game-over"),
                    ("in an Observatory decision", lambda d: d["decision"] == "observatory"),
                    ("in a Pub decision", lambda d: d["decision"] == "pub"),
                    ("at a chance node", lambda d: d["decision"] == "chance"),
                    ("played (rubles_recalled true)", lambda d: d["rubles_recalled"] is True)):
    checks.append((f"format 3: a full state {label}", any(map(test, v3_states))))
for option in ("public_rubles", "public_hands"):
    checks.append((f"format 3: a state and a view with {option}",
                   all(any(d["options"][option] for d in items) for items in (v3_states, v3_views))))
# Format version 4, the New Society's (issue 46 item 15: none before): 2-5 players, both chance modes, a state at
# each of the expansion's decisions, views, replay records, the three rulings on in some.
v4 = [d for _, d in docs if isinstance(d, dict) and d.get("format_version") == 4]
v4_states = [d for d in v4 if d.get("format") == "stpete-state" and d.get("view") == "full"]
v4_views = [d for d in v4 if d.get("format") == "stpete-state" and d.get("view") in ("seat", "public")]
v4_replays = [d for d in v4 if d.get("format") == "stpete-replay"]
for mode in ("sampled", "explicit"):
    for kind, items in (("full state", v4_states), ("seat view", [d for d in v4_views if d["view"] == "seat"]),
                        ("replay record", v4_replays)):
        checks.append((f"format 4, {mode} chance: a {kind}",
                       any((d.get("options") or {}).get("chance_mode") == mode for d in items)))
for players in (2, 3, 4, 5):
    checks.append((f"format 4: a full state and a view of {players} players",
                   all(any(len(d["players"]) == players for d in items) for items in (v4_states, v4_views))))
checks.append(("format 4: a replay record of 5 players", any(d["options"]["players"] == 5 for d in v4_replays)))
checks.append(("format 4: a public view", any(d["view"] == "public" for d in v4_views)))
for decision in ("prison", "guild-hall", "trading-house", "chance", "game-over"):
    checks.append((f"format 4: a full state at a '{decision}' decision",
                   any(d["decision"] == decision for d in v4_states)))
for ruling in ("markers_one_seat", "used_prison_scores", "textile_without_new_society"):
    checks.append((f"format 4: {ruling} on in a document", any(d["options"].get(ruling) for d in v4)))
# The actions corpus (a second argument): New Society games of every player count (fuzz_actions.c's byte 0 from 128).
if len(sys.argv) > 2:
    firsts = []
    for name in sorted(os.listdir(sys.argv[2])):
        with open(os.path.join(sys.argv[2], name), "rb") as f:
            head = f.read(1)
        if head:
            firsts.append(head[0])
    for players in (2, 3, 4, 5):
        checks.append((f"actions: a New Society game of {players} players",
                       any(b >= 128 and 2 + (b - 128) % 4 == players for b in firsts)))
    checks.append(("actions: a New Society game in the explicit-chance mode",
                   any(b >= 128 and (b - 128) // 32 % 2 for b in firsts)))
print(f"1..{len(checks)}")
for i, (name, ok) in enumerate(checks, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
sys.exit(0 if all(ok for _, ok in checks) else 1)
