"""The lines of a results file (doc/format.md, "Results files": stpete-arena's and stpete.experiment's) as the
tests read them: the header as it is, and each game line as one dict of its program's fields with its "game",
"hash" and "record" (the replay record the program's --resume replays).

    read_lines(path) -> [header, game, ...]; flat(doc); unflat(view, doc) (the game line of an edited view)
"""
import json


def flat(doc):
    """A line as one dict: a game line's fields with its game, hash and record; the header unchanged."""
    if "fields" not in doc:
        return doc
    return {**doc["fields"], "game": doc["game"], "hash": doc["hash"], "record": doc["record"]}


def unflat(view, doc):
    """The game line doc with the fields, game, hash and record of view (an edited flat(doc)); a key that is not a
    field of the line goes into its fields. The header (no fields) is view itself."""
    if "fields" not in doc:
        return view
    view = dict(view)
    out = {"game": view.pop("game", None), "hash": view.pop("hash", None), "record": view.pop("record", None)}
    out["fields"] = view
    return {k: v for k, v in out.items() if v is not None or k == "fields"}


def read_lines(path):
    """Every line of a results file, flat()."""
    with open(path) as f:
        return [flat(json.loads(line)) for line in f if line.strip()]
