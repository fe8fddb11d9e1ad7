#!/usr/bin/env python3
"""The rule facts a table shows are the library's (issue 41): no front end computes one itself.

Usage: tests/checks/check-front-ends.py SOURCE_ROOT

The front ends are the page (bindings/js/web: the local page and the online page, one folder), the online server
(server/stpete_server) and the terminal game (tools/play); examples/web and the server's old static folder are
read too when they exist (the page's homes before 1.2). For each rule fact a table shows, FACTS names the library
call that answers it and the signs of a front end working it out itself; the check fails on any sign in any front
end, and when a front end does not reach the fact through the library (REACH: the page and the server through the
table document, stpete-play through the calls). Standard library only; TAP output.
"""
import os
import re
import sys

root = sys.argv[1]
FRONT_ENDS = {
    "the page": ["bindings/js/web", "examples/web", "server/stpete_server/static"],
    "the server": ["server/stpete_server"],
    "the terminal game": ["tools/play"],
}
EXTENSIONS = (".js", ".mjs", ".html", ".py", ".c", ".h")

# (fact, the library's answer, [(sign, why it is one)])
FACTS = [
    ("what a card costs a seat (§5, §5.2, §6.2, §7.1, §12.7.5)",
     "stpete_state_offers(), the table document's offers",
     [(r"\bstpete_state_price\b|\bstpete_state_displacements\b", "prices asked card by card"),
      (r"\.\s*price\s*\(|\.\s*displacements\s*\(", "prices asked card by card"),
      (r"catch\s*\([^)]*\)\s*\{[^}]*InvalidArgumentError", "probing prices by catching errors")]),
    ("each seat's income at the next scoring (§4.4, §7.1, §7.5, §12.7)",
     "stpete_state_income(), stpete_state_next_scoring(), the document's incomes",
     [(r"\bclone\s*\(|\bstpete_state_clone\b", "playing ahead on a copy of the game"),
      (r"\bEventKind\.SCORING\b|\bSTPETE_EVENT_SCORING\b", "reading incomes from scoring events")]),
    ("the cards discarded last (§4.5, §6, §7.1, §12.7.5, §12.7.9)",
     "stpete_state_last_discards(), the document's discarded_last",
     [(r"\b(?:EventKind\.|STPETE_EVENT_)(?:OBSERVATORY_DISCARD|SYCOPHANT_DISCARD|PRISON_PUT_BACK|ROUND_END|DISPLACE)\b"
       r"[\s\S]{0,300}?\b(?:EventKind\.|STPETE_EVENT_)(?:OBSERVATORY_DISCARD|SYCOPHANT_DISCARD|PRISON_PUT_BACK|ROUND_END|PRISON)\b",
       "keeping the discards from the events (the kinds that put cards on the pile, listed)"),
      (r"\bstpete_state_discard_count\b.*\n?.*\bdiscarded\b", "keeping the discards from the pile")]),
    ("what each card does, in words (§6.2, §7, §11, §12.7)",
     "stpete_game_card_text(), the document's card table",
     [(r"\bSTPETE_SPECIAL_\w+|\bspecial_texts\b|\bSPECIAL\s*=", "a table of ability texts"),
      (r"\.\s*special\s*[=!]==?|->\s*special\b|\[['\"]special['\"]\]", "an ability chosen by its number"),
      (r"cost(s)? you 1 R less|[Hh]and limit (is )?4|worth 6 R|[Dd]isplaces (a|an|any) ", "an ability's words")]),
    ("the names of colours and phases (§1, §4)",
     "stpete_colour_name(), stpete_phase_name(), the document's words",
     [(r"['\"]green['\"]\s*,\s*['\"]blue['\"]", "the colours' words listed"),
      (r"['\"]worker['\"]\s*,\s*['\"]building['\"]", "the phases' words listed")]),
    ("which options, players, editions and expansion go together (§3, §11, §12.0, R16-R19)",
     "stpete_options_check() and the options table: the forms ask the library",
     [(r"players\s*===?\s*5|players\s*==\s*5\b|\bns\s*&&\s*players", "a player count tied to the expansion"),
      (r"players must be \d|5 \((the )?New Society\)|expansion of the first edition", "the library's refusal written again"),
      (r"\bedition\s*!==?\s*1\b.*new_?[sS]ociety|new_?[sS]ociety.*\bedition\s*!==?\s*1\b", "the edition tied to the expansion")]),
    ("what kind of action a button is (§4.2)",
     "stpete_action_kind_name(), the document's action kinds",
     [(r"\bkind\s*[=!]==?\s*\d", "an action kind by its number")]),
]
# How each front end reaches the facts: a pattern that must be in it.
REACH = {
    "the page": [(r"tableToJson\s*\(", "the local page writes the table document"),
                 (r"\.document\b", "the online page reads the server's table document"),
                 (r"\bS\.options\(\)", "the local setup form is built from the library's table of options"),
                 (r"/api/options\b", "the lobby's form is built from the server's table of options")],
    "the server": [(r"\btable_to_json\s*\(", "the server sends the table document")],
    "the terminal game": [(r"\bstpete_state_offers\b", "prices"), (r"\bstpete_state_income\b", "incomes"),
                          (r"\bstpete_state_last_discards\b", "the cards discarded last"),
                          (r"\bstpete_game_card_text\b", "the cards' texts")],
}


def sources(folders):
    for folder in folders:
        top = os.path.join(root, folder)
        for dirpath, _, files in os.walk(top):
            for f in sorted(files):
                if f.endswith(EXTENSIONS) and "__pycache__" not in dirpath:
                    path = os.path.join(dirpath, f)
                    with open(path, encoding="utf-8") as fh:
                        yield os.path.relpath(path, root), fh.read()


def code_only(text, path):
    """The text without comments (the signs are of code and strings, not of words about them)."""
    if path.endswith(".py"):
        text = re.sub(r'"""[\s\S]*?"""', '""', text)
        return re.sub(r"(?m)#.*$", "", text)
    text = re.sub(r"/\*[\s\S]*?\*/", " ", text)
    text = re.sub(r"<!--[\s\S]*?-->", " ", text)
    return re.sub(r"(?m)(^|[^:\\'\"])//.*$", r"\1", text)


results = []
texts = {front: [(p, code_only(t, p)) for p, t in sources(folders)] for front, folders in FRONT_ENDS.items()}
for fact, answer, signs in FACTS:
    found = []
    for front, files in texts.items():
        for path, text in files:
            for sign, why in signs:
                for m in re.finditer(sign, text):
                    line = text.count("\n", 0, m.start()) + 1
                    found.append(f"{path}:{line}: {why} ({m.group(0).strip()[:40]!r})")
    results.append((not found, f"{fact}: no front end computes it (the library's: {answer})", found))
for front, needs in REACH.items():
    joined = "\n".join(t for _, t in texts[front])
    missing = [why for pattern, why in needs if not re.search(pattern, joined)]
    results.append((not missing and bool(joined), f"{front} draws the facts from the library", missing or
                    ([] if joined else ["no source found"])))

print(f"1..{len(results)}")
for k, (ok, name, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {k} - {name}")
    for d in detail[:20]:
        print(f"# {d}")
    if len(detail) > 20:
        print(f"# ... {len(detail) - 20} more")
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
