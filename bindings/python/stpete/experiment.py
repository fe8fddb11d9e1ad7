"""Rule experiments: play many games with the library's bots under several *arms* (rule options × bots × player
count) on the same seeds, keep every game as tidy data, summarise with 95% intervals and paired tests, plot.

    python3 -m stpete.experiment --games 1000 --out pub.jsonl \\
        --arm per-pub:players=3:bots=greedy,ismcts:iterations=200 \\
        --arm per-player:players=3:pub_cap=per-player:bots=greedy,ismcts:iterations=200

An arm is ``NAME:KEY=VALUE:...`` whose keys are the game's options of the library's table (``stpete.options()``:
the rules and what seats see, e.g. ``players`` (default 4), ``pub_cap`` (per-pub, per-player), ``public_rubles``
(true, false), ``edition`` (1, 2), ``start_markers`` (one seat per phase, e.g. 0,1,2,3), ``new_society`` and the
New Society's rulings ``markers_one_seat``, ``used_prison_scores``, ``textile_without_new_society``; not the seed
and the chance mode, which are the experiment's) and, last because bot specs contain colons, ``bots``:
comma-separated specs of ``stpete.Bot`` (``KIND[:KEY=VALUE]...``, bots.h) dealt to the seats in turn, as
``stpete-selfplay --bots`` does (default greedy). ``--help`` lists the keys. Arms may also come from a JSON or TOML file (``--config``; see
:func:`load_config`).

Common random numbers: game g of every arm uses the deal seed ``seed + g``, and the bot of seat s is reseeded
for it from (its spec's seed, the deal seed, s), so arms are compared game by game on the same deals, and the
rows do not depend on the backend (in-process, ``--jobs N`` processes, a Dask cluster) or on batching.

Output (``--out FILE``): for ``.jsonl``/``.json`` a results file (doc/format.md, "Results files": the format
stpete-arena writes too, through the library's ``stpete_results_*``, one home for both): a header naming the
definition, then one line per game with its replay record (the seed and the actions) and its fields, the arm and
one row per seat; for ``.csv``, the rows, each with the game's action ids. A row has the columns of
:data:`COLUMNS`: ``exp`` (the definition's hash), ``arm``, ``game``, ``seed``, ``players``, ``seat``, ``bot``
(canonical spec), the final score (``vp`` total and its parts ``vp_before``, ``aristocrat_bonus``,
``rubles_bonus``, ``hand_penalty``, §8), ``rubles`` and ``tie_break`` (R14), ``win`` (the seat's return: 1/k for
each of k winners), ``winner``, ``moves`` (actions in the game) and ``display`` (the final display as card name →
copies; CSV: ``Name=n;Name=n``); :func:`read_rows` gives them from either. Rows are appended one batch at a time.
A run holds an exclusive lock on ``--out`` (flock): a second run on the same file is refused before it reads or
writes anything. ``--resume`` continues such a file: complete games are kept, a game cut short by a kill is dropped
(the file cut after the last complete game) and played again, and a file written for another definition (other
arms, seed or library version) is refused. Every game is checked through the library (:func:`scan_output`:
stpete_results_read_line() replays its record, and every value of its rows is compared with the game it proves): a
forged or damaged row, a consistent forgery included, or a game repeated, is refused with its line number and the
file left unchanged; blank lines are skipped. The output is never written through a symbolic link: a link at
``--out`` is refused, and every open of it refuses one (:mod:`stpete._files`).

``--plot DIR`` checks before any game that matplotlib can be imported and that ``DIR`` can be written. Without
``--out``, the rows go meanwhile to a private file ``DIR/rows-HASH-*.jsonl`` (``HASH``: :attr:`Experiment.hash`),
removed once the plots are drawn and kept (and named) if they fail or the run is interrupted, so that finished games
are never lost: ``--out`` that file with ``--resume`` draws the plots again without playing.

``--jobs N`` worker processes end within 0.2 s of their parent's death (a kill -9 of the run included), so none is
left behind holding the output file open.
"""
import argparse
import collections
import csv
import io
import json
import os
import stat
import sys
import tempfile
import threading
import time
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, TextIO, Tuple, Union

from ._files import LinkError, open_output

__all__ = ["Arm", "Experiment", "ExperimentError", "Tally", "COLUMNS", "ARM_KEYS", "parse_arm", "load_config",
           "play_batch", "read_rows", "scan_output", "summarize", "paired", "report", "plot", "main"]

#: One row of the output (a dict of :data:`COLUMNS`).
Row = Dict[str, Any]

#: Format of the rows (part of the definition hash): 2, rows kept in the library's results files with each game's
#: actions (1.2).
ROW_FORMAT = 2
#: The program a results file of this module names in its header (stpete_results_header_to_json()).
PROGRAM = "stpete.experiment"
#: The columns of a row, in order (CSV header).
COLUMNS = ("exp", "arm", "game", "seed", "players", "seat", "bot", "vp", "vp_before", "aristocrat_bonus",
           "rubles_bonus", "hand_penalty", "rubles", "tie_break", "win", "winner", "moves", "display")
def _arm_options():
    """The options an arm sets: the library's table's, but those of how a program deals and drives its games (the
    seed: the experiment's; the chance mode: sampled)."""
    import stpete
    return tuple(o for o in stpete.options() if o.category != stpete.OptionCategory.PLAY)


def __getattr__(name):
    if name == "ARM_KEYS":  #: Keys of an arm (``bots`` last on the command line): from the library's table.
        return tuple(o.name for o in _arm_options()) + ("bots",)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
_INT_COLUMNS = ("game", "seed", "players", "seat", "vp", "vp_before", "aristocrat_bonus", "rubles_bonus",
                "hand_penalty", "rubles", "tie_break", "moves")


class ExperimentError(Exception):
    """Bad input (an arm, a bot, a file, a scheduler): the message says what and why."""


# ---- arms --------------------------------------------------------------------------------------------------

def _int(key, value):
    if isinstance(value, bool):
        raise ExperimentError(f"{key} must be an integer, not {value!r}")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ExperimentError(f"{key} must be an integer, not {value!r}") from None


class Arm:
    """One arm: ``name``, ``players``, ``options`` (the rule keywords of :class:`stpete.Game`, canonical words)
    and ``bots`` (one canonical spec per seat). Build it with :meth:`from_dict` or :func:`parse_arm`, which check
    everything against the library (unknown key, bad value, unknown bot or bot key: :class:`ExperimentError`)."""

    def __init__(self, name: str, players: int, options: Dict[str, Any], bots: List[str]) -> None:
        self.name, self.players, self.options, self.bots = name, players, options, bots

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Arm":
        import stpete
        data = dict(data)
        name = data.pop("name", None)
        if not isinstance(name, str) or not name or any(c in name for c in ":,\n"):
            raise ExperimentError(f"an arm needs a name without ':', ',' or a newline (got {name!r})")
        import stpete
        table = {o.name: o for o in _arm_options()}
        keys = tuple(table) + ("bots",)
        unknown = sorted(set(data) - set(keys))
        if unknown:
            raise ExperimentError(f"arm {name}: unknown key(s) {', '.join(unknown)} (known: {', '.join(keys)})")
        given = {key: _option_value(table[key], f"arm {name}", value) for key, value in data.items() if key in table}
        try:
            game = stpete.Game(**given)
        except (stpete.StPeteError, TypeError, ValueError) as e:
            raise ExperimentError(f"arm {name}: {e}") from None
        players = game.players
        # canonical values, every option the game's format holds explicit (so equal definitions hash equally)
        options = {key: _canonical(value) for key, value in game.options.items() if key in table and key != "players"}
        bots = data.get("bots", "greedy")
        if isinstance(bots, str):
            bots = _split_bots(bots)
        if not bots or not all(isinstance(b, str) and b for b in bots):
            raise ExperimentError(f"arm {name}: bots must be a non-empty list of bot specs")
        canonical = []
        for spec in bots:
            try:
                canonical.append(stpete.Bot(spec, game=game).spec)
            except stpete.StPeteError as e:
                raise ExperimentError(f"arm {name}: bot {spec!r}: {e}") from None
        seat_bots = [canonical[s % len(canonical)] for s in range(players)]
        return cls(name, players, options, seat_bots)

    def to_dict(self) -> Dict[str, Any]:
        return {"name": self.name, "players": self.players, **self.options, "bots": list(self.bots)}

    def describe(self) -> str:
        """``3 players, edition 1, pub cap per-pub, tie-break rubles-mod-10, public rubles``: the integers and words
        of the table's options, then those set of the others."""
        table = {o.name: o for o in _arm_options()}
        parts = [f"{self.players} players"]
        for kinds in (("int",), ("enum",), ("bool", "seats")):
            for key, value in self.options.items():
                option = table[key]
                if option.type.name.lower() not in kinds or (kinds[0] == "bool" and value in (False, None)):
                    continue
                title = option.title.lower()
                parts.append(title if value is True else f"{title} {value}")
        return ", ".join(parts)


def _option_value(option, what, value):
    """A value of an arm's option as :class:`stpete.Game` takes it: text (the command line's, or a string of a
    TOML/JSON file) read by the library (``stpete.Option.parse``), or a TOML/JSON value as it is."""
    import stpete
    if not isinstance(value, str):
        return value
    try:
        return option.parse(value)
    except stpete.StPeteError as e:
        raise ExperimentError(f"{what}: {str(e).partition('(): ')[2] or e}") from None


def _canonical(value):
    """An option's value as the definition holds it: an enum's word, a list of seats, a bool or an int."""
    word = getattr(value, "word", None)
    if word is not None:
        return word
    return list(value) if isinstance(value, tuple) else value


def _split_bots(text):
    """``greedy,ismcts:iterations=200`` → ``["greedy", "ismcts:iterations=200"]``."""
    return [part.strip() for part in text.split(",") if part.strip()]


def parse_arm(text: str) -> Arm:
    """An arm from the command line: ``NAME:KEY=VALUE:...:bots=SPEC,SPEC`` (``bots`` takes the rest of the text,
    since bot specs contain colons). Returns an :class:`Arm`."""
    name, _, rest = text.partition(":")
    data = {"name": name}
    while rest:
        item, _, tail = rest.partition(":")
        key, eq, value = item.partition("=")
        if not eq:
            raise ExperimentError(f"arm {text!r}: {item!r} is not KEY=VALUE (known keys: "
                                  f"{', '.join(__getattr__('ARM_KEYS'))})")
        if key == "bots":
            value = rest.partition("=")[2]
            tail = ""
        if key in data:
            raise ExperimentError(f"arm {text!r}: {key} given twice")
        data[key] = value
        rest = tail
    try:
        return Arm.from_dict(data)
    except ExperimentError as e:
        if "bots" in data and ": bot " in str(e) and "=" in data["bots"]:
            raise ExperimentError(f"{e} (on the command line bots= comes last: it takes the rest of the arm, "
                                  f"since bot specs contain colons)") from None
        raise


def load_config(path: str) -> Dict[str, Any]:
    """An experiment file, JSON (``.json``) or TOML (``.toml``, Python 3.11's tomllib)::

        games = 1000          # optional: the command line's --games and --seed win
        seed = 1
        [[arms]]
        name = "per-pub"
        players = 3
        bots = ["greedy", "ismcts:iterations=200"]

    (JSON: ``{"games": 1000, "seed": 1, "arms": [{"name": "per-pub", ...}]}``.) Returns a dict with ``arms``
    (:class:`Arm` list) and, when given, ``games`` and ``seed``."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise ExperimentError(f"cannot read the experiment file {path}: {e.strerror}") from None
    try:
        if path.endswith(".toml"):
            try:
                import tomllib
            except ImportError:
                raise ExperimentError(f"{path}: TOML needs Python 3.11 (tomllib); use JSON") from None
            data = tomllib.loads(raw.decode("utf-8"))
        else:
            data = json.loads(raw)
    except ExperimentError:
        raise
    except Exception as e:
        raise ExperimentError(f"{path} is not valid {'TOML' if path.endswith('.toml') else 'JSON'}: {e}") from None
    if not isinstance(data, dict):
        raise ExperimentError(f"{path}: expected a table/object with 'arms'")
    unknown = sorted(set(data) - {"arms", "games", "seed"})
    if unknown:
        raise ExperimentError(f"{path}: unknown key(s) {', '.join(unknown)} (known: arms, games, seed)")
    arms = data.get("arms", [])
    if not isinstance(arms, list) or not all(isinstance(a, dict) for a in arms):
        raise ExperimentError(f"{path}: 'arms' must be a list of tables/objects")
    out = {"arms": [Arm.from_dict(a) for a in arms]}
    for key in ("games", "seed"):
        if key in data:
            out[key] = _int(f"{path}: {key}", data[key])
    return out


class Experiment:
    """The definition: arms and the base seed. :attr:`hash` identifies it (with the library version and the row
    format, not the number of games, so that ``--resume --games`` can extend a run)."""

    def __init__(self, arms: Sequence[Arm], seed: int) -> None:
        import stpete
        names = [a.name for a in arms]
        if not arms:
            raise ExperimentError("no arm: give at least one --arm NAME:KEY=VALUE:...:bots=SPEC (or --config FILE)")
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ExperimentError(f"arm name(s) used twice: {', '.join(dup)}")
        if not 0 <= seed < 2 ** 64:
            raise ExperimentError(f"seed must be in [0, 2**64), not {seed}")
        self.arms, self.seed = arms, seed
        self.arms_by_name = {a.name: a for a in arms}
        self.definition = {"format": ROW_FORMAT, "library": stpete.version(), "seed": seed,
                           "arms": [a.to_dict() for a in arms]}
        # the results file's hash of it, from the library (the format's one home; stpete-arena's too)
        self.hash = stpete.results_hash(self.definition)


# ---- playing (in any process: a worker needs only this module and the library) -------------------------------

_MASK = 0xFFFFFFFFFFFFFFFF


def _mix(*values):
    """splitmix64 over the values: the per-game seed of a seat's bot."""
    x = 0
    for v in values:
        x = (x ^ (v & _MASK)) + 0x9E3779B97F4A7C15 & _MASK
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
        x = (x ^ (x >> 27)) * 0x94D049BB133111EB & _MASK
        x ^= x >> 31
    return x


def _spec_seed(spec):
    for part in spec.split(":")[1:]:
        key, _, value = part.partition("=")
        if key == "seed":
            return int(value)
    return 0


class _Runner:
    """One arm's game, state and bots in a worker, kept between batches."""

    def __init__(self, arm):
        import ctypes
        import stpete
        from . import _core
        self.stpete = stpete
        options = dict(arm["options"])
        self.players = arm["players"]
        self.game = stpete.Game(players=self.players, **options)
        self.state = self.game.new_state()
        self.bots = [stpete.Bot(spec, game=self.game) for spec in arm["bots"]]
        self.bot_seeds = [_spec_seed(b.spec) for b in self.bots]
        self.names = {}
        self.lib = _core._lib
        # A whole game is one library call, stpete_bot_play() (stpete.play() without its Python checks: a second
        # handle on the same loaded library, dlopen returns the same one, whose function is undeclared: int result,
        # the handles passed as the pointers they are).
        raw = ctypes.CDLL(stpete.library_path())
        self.raw = raw.stpete_bot_play
        # the final displays the same way: card type ids into a reused buffer, no Card objects
        self.raw_display = raw.stpete_state_display
        self.cards = (ctypes.c_int * self.stpete._ffi.NUM_CARDS)()
        self.card_count = ctypes.c_size_t()

    def play(self, exp, arm_name, bots, seed_base, games):
        import ctypes
        from .bots import _play_error
        state, game, players = self.state, self.game, self.players
        play = self.raw
        played = ctypes.c_size_t()
        ref = ctypes.byref(played)
        rows = []
        for g in games:
            seed = (seed_base + g) & _MASK
            state.reset(seed)
            handle = state.handle
            for s, bot in enumerate(self.bots):
                bot.set_seed(_mix(self.bot_seeds[s], seed, s))
            ptrs = (self.stpete._ffi.BotPtr * players)(*[bot._handle(state) for bot in self.bots])
            with state._lock:  # the whole game under the state's lock
                rc = play(ptrs, ctypes.c_size_t(players), handle, ctypes.c_size_t(0), ref)
                if rc < 0:  # the library's message, as stpete.play() raises it
                    raise _play_error(state, ptrs, rc, played.value)
            moves = played.value
            actions = state.local_history()
            returns = state.returns()
            for s in range(players):
                sc = state.score(s)
                with state._lock:
                    rc = self.raw_display(handle, s, self.cards, ctypes.c_size_t(len(self.cards)),
                                          ctypes.byref(self.card_count))
                if rc < 0:
                    raise self.stpete.StPeteError(f"stpete_state_display: status {rc}")
                display = collections.Counter(self.cards[:self.card_count.value])
                names = {}
                for card, n in sorted(display.items()):
                    name = self.names.get(card)
                    if name is None:
                        name = self.names[card] = game.card_name(card)
                    names[name] = n
                rows.append({"exp": exp, "arm": arm_name, "game": g, "seed": seed, "players": players, "seat": s,
                             "bot": bots[s], "vp": sc.total, "vp_before": sc.vp_before,
                             "aristocrat_bonus": sc.aristocrat_bonus, "rubles_bonus": sc.rubles_bonus,
                             "hand_penalty": sc.hand_penalty, "rubles": sc.rubles, "tie_break": sc.tie_break,
                             "win": returns[s], "winner": returns[s] > 0, "moves": moves, "display": names,
                             "actions": actions})
        return rows


_RUNNERS = threading.local()  # per thread: Dask's threaded workers run batches side by side


def play_batch(task: Mapping[str, Any]) -> List[Row]:
    """Play one batch (a dict: ``exp``, ``arm`` (:meth:`Arm.to_dict`-like, with ``options``), ``seed``,
    ``games`` (indices)) and return its rows. A module-level function, so processes and Dask workers can run
    it; each worker keeps one game, state and bots per arm."""
    kill = os.environ.get("STPETE_EXPERIMENT_KILL_ONCE")
    if kill:  # test hook (experiment_dask.py): the first worker to get here dies, once, and its batch is lost
        try:
            os.close(os.open(kill, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            os._exit(3)
        except FileExistsError:
            pass
    arm = task["arm"]
    key = json.dumps(arm, sort_keys=True)
    runners = _RUNNERS.__dict__.setdefault("runners", {})
    runner = runners.get(key)
    if runner is None:
        runner = runners[key] = _Runner(arm)
    return runner.play(task["exp"], arm["name"], arm["bots"], task["seed"], task["games"])


# ---- results on disk: the library's results files (JSON lines), or CSV rows ------------------------------------

#: The columns of a CSV output: a row's, then the game's action ids (space-separated), which --resume replays.
CSV_COLUMNS = COLUMNS + ("actions",)
#: A game line's fields keep each seat's row without what the line says itself (game, seed) or the replayed game
#: gives (players, moves), nor the definition's hash or the arm's name (the line's).
_LINE_ONLY = ("exp", "arm", "game", "seed", "players", "moves")


def _is_csv(path):
    return path.lower().endswith(".csv")


def _arm_game(arm, cache):
    """The stpete.Game of an arm (its players and options), one per arm in ``cache``."""
    import stpete
    game = cache.get(arm.name)
    if game is None:
        options = {k: v for k, v in arm.options.items() if v is not None}
        game = cache[arm.name] = stpete.Game(players=arm.players, **options)
    return game


def _games_of(rows):
    """The games of rows that hold whole games in seat order (a batch of :func:`play_batch`): lists of rows."""
    games, i = [], 0
    while i < len(rows):
        n = rows[i]["players"]
        games.append(rows[i:i + n])
        i += n
    return games


def _game_line(exp, game, rows):
    """One game's line of the results file (stpete_results_game_to_json(), with a newline): its record (the seed and
    the actions, every one checked) and the fields: the arm and each seat's row."""
    import stpete
    first = rows[0]
    fields = {"arm": first["arm"], "seats": [{k: v for k, v in r.items() if k not in _LINE_ONLY and k != "actions"}
                                             for r in rows]}
    return stpete.results_game_line(game, exp.definition, first["game"], first["seed"], first["actions"],
                                    fields) + "\n"


def _csv_text(rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for r in rows:
        w.writerow([";".join(f"{k}={v}" for k, v in r["display"].items()) if c == "display"
                    else ("true" if r[c] else "false") if c == "winner" else repr(r[c]) if c == "win"
                    else " ".join(map(str, r[c])) if c == "actions" else r[c] for c in CSV_COLUMNS])
    return buf.getvalue()


def _batch_text(exp, rows, as_csv, games):
    """A batch's rows as the output's text: a game line each (JSON lines), or CSV rows with the game's actions.
    ``games``: the stpete.Game of each arm (:func:`_arm_game`)."""
    if as_csv:
        return _csv_text(rows)
    return "".join(_game_line(exp, _arm_game(exp.arms_by_name[g[0]["arm"]], games), g) for g in _games_of(rows))


def _parse_csv_row(values):
    if len(values) != len(CSV_COLUMNS):
        raise ValueError("wrong number of columns")
    r = dict(zip(CSV_COLUMNS, values))
    for c in _INT_COLUMNS:
        r[c] = int(r[c])
    r["win"] = float(r["win"])
    r["winner"] = r["winner"] == "true"
    display = {}
    for item in filter(None, r["display"].split(";")):
        k, _, v = item.rpartition("=")
        display[k] = int(v)
    r["display"] = display
    r["actions"] = [int(x) for x in r["actions"].split()]
    return r


def _rows_of_line(doc):
    """The rows (:data:`COLUMNS`, and the game's actions) of a game line (parsed JSON), without checking it."""
    fields, record = doc["fields"], doc["record"]
    actions = [a["id"] for a in record["actions"]]
    rows = []
    for seat_row in fields["seats"]:
        r = {"exp": doc["hash"], "arm": fields["arm"], "game": doc["game"], "seed": int(record["options"]["seed"]),
             "players": len(fields["seats"]), "moves": len(actions), **seat_row, "actions": actions}
        rows.append({c: r[c] for c in CSV_COLUMNS})
    return rows


def _entries(path, follow=False):
    """(line number, start offset, kind, content) of each complete line of an output: ("header", text) for a
    results file's header, ("game", text, rows) for a game line (rows: :func:`_rows_of_line`, unchecked), ("row",
    row) for a CSV row (:data:`CSV_COLUMNS`), ("bad", text) for anything else; blank lines and the CSV header are
    skipped; then (number, offset, "cut", None) for a last line cut short (no newline: a killed run). A link at
    ``path`` is refused (:class:`stpete._files.LinkError`) unless ``follow``."""
    as_csv = _is_csv(path)
    with (open(path, "rb") if follow else open_output(path, "rb")) as f:
        number = offset = 0
        for raw in f:
            number += 1
            start, offset = offset, offset + len(raw)
            if not raw.endswith(b"\n"):
                yield number, start, "cut", None
                return
            line = raw.decode("utf-8", errors="replace")
            if not line.strip():
                continue  # a blank line (one an editor appended): nothing
            if as_csv and number == 1:
                if line.rstrip("\r\n") != ",".join(CSV_COLUMNS):
                    old = line.rstrip("\r\n") == ",".join(COLUMNS)
                    raise ExperimentError(f"{path} " + ("was written by stpete.experiment 1.1, whose rows hold no "
                                                        "game's actions to check; start again with another --out"
                                                        if old else "is not an output of stpete.experiment (its "
                                                        "first line is not the CSV header)"))
                continue
            try:
                if as_csv:
                    yield number, start, "row", _parse_csv_row(next(csv.reader([line])))
                    continue
                doc = json.loads(line)
                if isinstance(doc, dict) and "format" in doc:
                    yield number, start, "header", line
                elif isinstance(doc, dict) and "exp" in doc and number == 1:
                    raise ExperimentError(f"{path} was written by stpete.experiment 1.1, whose rows hold no game's "
                                          f"actions to check; start again with another --out")
                else:
                    yield number, start, "game", (line, _rows_of_line(doc))
            except (ValueError, KeyError, TypeError, StopIteration, AttributeError):
                yield number, start, "bad", line


def read_rows(path: str) -> Tuple[List[Row], int, int]:
    """Every row of an output file (a results file or CSV; :data:`COLUMNS`): ``(rows, cut, bad)`` where ``cut`` is
    1 when its last line was cut short and ``bad`` the number of other lines that are neither rows nor a header.
    Nothing is checked: for tests and small files (:class:`Tally` and ``--resume`` check every game)."""
    rows, cut, bad = [], 0, 0
    for _, _, kind, content in _entries(path, follow=True):
        if kind == "cut":
            cut = 1
        elif kind == "bad":
            bad += 1
        elif kind == "game":
            rows += [{c: r[c] for c in COLUMNS} for r in content[1]]
        elif kind == "row":
            rows.append({c: content[c] for c in COLUMNS})
    return rows, cut, bad


class Tally:
    """What the summary, the paired tests and the plots need, kept compact (a million games per arm fit in
    tens of MB): per arm, arrays indexed by game of the moves and of each seat's win share and VP, which games
    are complete, and the copies of each card type in the final displays of winners and of losers. Rows are
    added one complete game at a time (:meth:`add_game`); a game already counted is ignored."""

    def __init__(self, arms: Iterable[Arm]) -> None:
        import array
        self._array = array.array
        self.arms = {a.name: a for a in arms}
        self.data: Dict[str, Dict[str, Any]] = {}
        for a in arms:
            self.data[a.name] = {"done": bytearray(), "moves": array.array("l"),
                                 "win": [array.array("d") for _ in range(a.players)],
                                 "vp": [array.array("l") for _ in range(a.players)],
                                 "cards": (collections.Counter(), collections.Counter()), "seats": [0, 0]}

    def add_game(self, rows: Sequence[Row]) -> bool:
        """Add one game (its rows, seat 0 first). Returns False when the game was already counted or its arm is
        not in the experiment."""
        first = rows[0]
        d = self.data.get(first["arm"])
        if d is None:
            return False
        g = first["game"]
        grow = g + 1 - len(d["done"])
        if grow > 0:
            d["done"].extend(bytes(grow))
            zeros_l = self._array("l", bytes(grow * d["moves"].itemsize))
            d["moves"].extend(zeros_l)
            for s in range(len(d["win"])):
                d["win"][s].extend(self._array("d", bytes(grow * 8)))
                d["vp"][s].extend(zeros_l)
        if d["done"][g]:
            return False
        d["done"][g] = 1
        d["moves"][g] = first["moves"]
        for r in rows:
            s = r["seat"]
            d["win"][s][g] = r["win"]
            d["vp"][s][g] = r["vp"]
            d["cards"][0 if r["winner"] else 1].update(r["display"])
            d["seats"][0 if r["winner"] else 1] += 1
        return True

    def add_rows(self, rows: Sequence[Row]) -> None:
        """Add rows that hold whole games, in seat order (a batch of :func:`play_batch`)."""
        i = 0
        while i < len(rows):
            n = rows[i]["players"]
            self.add_game(rows[i:i + n])
            i += n

    def games(self, arm: str) -> List[int]:
        """The complete games of an arm, ascending."""
        done = self.data[arm]["done"]
        return [g for g in range(len(done)) if done[g]]

    def count(self) -> int:
        """Number of complete games counted, over every arm."""
        return sum(sum(d["done"]) for d in self.data.values())


def _tally_of(rows, arms):
    if isinstance(rows, Tally):
        return rows
    tally = Tally(arms)
    by_game = collections.defaultdict(dict)
    for r in rows:
        by_game[(r["arm"], r["game"])][r["seat"]] = r
    for seats in by_game.values():
        players = next(iter(seats.values()))["players"]
        if sorted(seats) == list(range(players)):
            tally.add_game([seats[s] for s in range(players)])
    return tally


def _is_int(value):
    return type(value) is int  # not bool, not float


def _seat_problem(row, arm, s, state, returns):
    """What is wrong with seat s's row of a game that the library replayed (``state``, at its end; ``returns``:
    :meth:`stpete.State.returns`), or None: the seat's bot, and every value recomputed from the game (the final
    score and its parts, §8; the rubles and the tie-break, R14; the return and whether it wins; the final display),
    never believed from the row."""
    if row.get("seat") != s or not _is_int(row.get("seat")):
        return f"seat {row.get('seat')!r} where seat {s} was expected"
    if row.get("bot") != arm.bots[s]:
        return f"bot {row.get('bot')!r} is not seat {s}'s bot of arm {arm.name}, {arm.bots[s]!r}"
    sc = state.score(s)
    want = {"vp": sc.total, "vp_before": sc.vp_before, "aristocrat_bonus": sc.aristocrat_bonus,
            "rubles_bonus": sc.rubles_bonus, "hand_penalty": sc.hand_penalty, "rubles": sc.rubles,
            "tie_break": sc.tie_break}
    for column, value in want.items():
        if row.get(column) != value or not _is_int(row.get(column)):
            return f"seat {s}: {column} {row.get(column)!r} is not the game's, {value} (its actions replayed)"
    win = row.get("win")
    if type(win) not in (int, float) or abs(win - returns[s]) > 1e-9:
        return f"seat {s}: win {win!r} is not the game's return, {returns[s]!r}"
    if row.get("winner") is not (returns[s] > 0):
        return f"seat {s}: winner {row.get('winner')!r} is not whether the seat's return is above 0"
    game = state.game
    display = collections.Counter(game.card_name(int(c)) for c in state.display(s))
    if row.get("display") != dict(display):
        return f"seat {s}: display {row.get('display')!r} is not the game's final display"
    return None


def _game_problem(exp, arm, number, seed, state, rows, games):
    """What is wrong with one game of ``rows`` (seat 0 first, the arm's players), replayed by the library into
    ``state`` (its number and seed those of its record), or None: a game of this run (a number below ``games``, the
    seed the definition gives it), finished, and every seat's row the game's (:func:`_seat_problem`)."""
    if not 0 <= number < games:
        return (f"game {number} is not a game number of this run, [0, {games - 1}] (a file with more games is "
                f"resumed with a larger --games)")
    if seed != (exp.seed + number) & _MASK:
        return f"seed {seed} is not game {number}'s, {(exp.seed + number) & _MASK}"
    if len(rows) != arm.players:
        return f"{len(rows)} seats' rows, not arm {arm.name}'s {arm.players}"
    if not state.is_terminal:
        return "its record does not reach the end of the game"
    returns = state.returns()
    for s, row in enumerate(rows):
        problem = _seat_problem(row, arm, s, state, returns)
        if problem:
            return problem
    return None


class _Scan:
    """What ``--resume`` learns of an output (:func:`scan_output`): the games checked go into ``tally``; ``keep`` is
    the length of the file without a cut last line and the rows of incomplete games after the last complete one
    (the file is truncated there), ``drop`` the number of such rows."""

    def __init__(self, exp, tally, games):
        self.exp, self.tally, self.games = exp, tally, games
        self.keep = self.drop = 0
        self.seen = set()  # (arm, game) already in the file
        self.header = False
        self.arm_games, self.states = {}, {}

    def state_of(self, arm):
        state = self.states.get(arm.name)
        if state is None:
            state = self.states[arm.name] = _arm_game(arm, self.arm_games).new_state()
        return state

    def check(self, path, where, line, rows):
        """Check one game (its line text, or None for CSV rows, whose line is built from them), through the library:
        stpete_results_read_line() replays its record; then its rows against the replayed game. ``where`` names
        the game's line or rows in a refusal ("line 3", "lines 4-6")."""
        import stpete
        exp = self.exp
        arm = exp.arms_by_name.get(rows[0]["arm"]) if isinstance(rows[0].get("arm"), str) else None
        if arm is None:
            raise ExperimentError(f"{path}, {where}: arm {rows[0].get('arm')!r} is not an arm of this "
                                  f"experiment; not resuming (nothing was changed)")
        state = self.state_of(arm)
        try:
            if line is None:  # CSV: the game's line from its rows (stpete_results_game_to_json() replays it too)
                first = rows[0]
                if any(r.get("exp") != exp.hash for r in rows):
                    raise ExperimentError(f"{path}, {where}: exp is not this definition's hash {exp.hash} "
                                          f"(another experiment: its arms, seed or library version differ); not "
                                          f"resuming (nothing was changed)")
                if any((r["game"], r["seed"], r["actions"], r["moves"]) != (first["game"], first["seed"],
                                                                             first["actions"], len(first["actions"]))
                       for r in rows):
                    raise ExperimentError(f"{path}, {where}: the rows of game {first['game']} of arm "
                                          f"{arm.name} disagree on the game, its seed, its actions or their number; "
                                          f"not resuming (nothing was changed)")
                line = _game_line(exp, _arm_game(arm, self.arm_games), rows)
            g, seed, _ = stpete.read_results_line(state, PROGRAM, exp.definition, line)
        except stpete.StPeteError as e:
            raise ExperimentError(f"{path}, {where}: {e}; not resuming (nothing was changed)") from None
        problem = _game_problem(exp, arm, g, seed, state, rows, self.games)
        if problem:
            raise ExperimentError(f"{path}, {where}: game {g} of arm {arm.name}: {problem}; not resuming "
                                  f"(nothing was changed)")
        if (arm.name, g) in self.seen:
            raise ExperimentError(f"{path}, {where}: game {g} of arm {arm.name} again (a repeated game); not "
                                  f"resuming (nothing was changed)")
        self.seen.add((arm.name, g))
        self.tally.add_game([{c: r[c] for c in COLUMNS} for r in _rows_of_line(json.loads(line))])


def _scan_csv(path, scan, entries):
    """The rows of a CSV output, game by game (its rows one after the other, in seat order: one batch is one
    write), into scan; the rows of an incomplete game may only come last."""
    pending, start, first = [], 0, 0
    for number, offset, kind, content in entries:
        if kind == "cut":
            break
        if kind != "row":
            raise ExperimentError(f"{path}, line {number}: not a row of stpete.experiment; not resuming (nothing "
                                  f"was changed)")
        if pending and (content["arm"], content["game"]) != (pending[0]["arm"], pending[0]["game"]):
            raise ExperimentError(f"{path}, line {number}: game {pending[0]['game']} of arm {pending[0]['arm']} "
                                  f"has {len(pending)} of its rows before another game's (a damaged file); not "
                                  f"resuming (nothing was changed)")
        if not pending:
            start, first = offset, number
        if content["seat"] != len(pending):
            raise ExperimentError(f"{path}, line {number}: seat {content['seat']!r} where seat {len(pending)} of "
                                  f"game {content['game']} was expected (a repeated or missing row); not resuming "
                                  f"(nothing was changed)")
        pending.append(content)
        if len(pending) == content["players"]:
            scan.check(path, f"lines {first}-{number}" if number > first else f"line {number}", None, pending)
            pending = []
            scan.keep = offset + len(_csv_text([content]).encode())  # the end of the game's last row
    scan.drop = len(pending)
    if not pending:
        return
    scan.keep = start


def scan_output(path: str, exp: Experiment, tally: Tally, games: Optional[int] = None) -> Tuple[int, int]:
    """Read an output file for ``--resume``, every game through the library (stpete_results_read_line(): the
    header must be this program's for ``exp``'s definition, and each game line's record is replayed, so a line
    proves its game) and then its rows against the replayed game (:func:`_game_problem`: the number below ``games``
    (None: any), its seed, each seat's bot and every value of its row); a CSV output's rows are made into the same
    game lines first. Anything else (another definition, a row forged or damaged, a game repeated, rows of an
    incomplete game before a complete one) raises :class:`ExperimentError` naming the line; the file is then
    unchanged. Blank lines are skipped. Complete games go into ``tally``. A symbolic link at ``path`` is not
    followed: :class:`stpete._files.LinkError` (an OSError). Returns ``(keep, drop)``: the length the file must be
    cut to (without a cut last line and the rows of a last, incomplete game, which are played again) and the
    number of such rows."""
    scan = _Scan(exp, tally, games if games is not None else 2 ** 53)
    entries = _entries(path)
    if _is_csv(path):
        _scan_csv(path, scan, entries)
        return scan.keep, scan.drop
    for number, offset, kind, content in entries:
        if kind == "cut":
            break
        if kind == "bad":
            raise ExperimentError(f"{path}, line {number}: not a line of stpete.experiment's results; not resuming "
                                  f"(nothing was changed)")
        if kind == "header" and scan.header:
            raise ExperimentError(f"{path}, line {number}: a second header (another run's file appended?); not "
                                  f"resuming (nothing was changed)")
        if kind == "header":
            import stpete
            try:
                stpete.read_results_line(scan.state_of(exp.arms[0]), PROGRAM, exp.definition, content)
            except stpete.MismatchError as e:
                reason = e.message.rsplit(f" ({e.function}:", 1)[0]  # the library's words, without the call's
                if reason.startswith("written by "):  # another program's results file
                    raise ExperimentError(f"{path} was {reason}: another program's results file; not resuming "
                                          f"(nothing was changed)") from None
                raise ExperimentError(f"{path} was written by another experiment definition ({e}: its arms, seed "
                                      f"or library version differ); not resuming") from None
            except stpete.StPeteError as e:
                raise ExperimentError(f"{path}, line {number}: {e}; not resuming (nothing was changed)") from None
            scan.header = True
        elif not scan.header:
            raise ExperimentError(f"{path}, line {number}: a game line before the results file's header; not "
                                  f"resuming (nothing was changed)")
        else:
            scan.check(path, f"line {number}", content[0], content[1])
        scan.keep = offset + len(content.encode() if kind == "header" else content[0].encode())
    if scan.keep and not scan.header:
        raise ExperimentError(f"{path}: no results file header; not resuming (nothing was changed)")
    return scan.keep, scan.drop


# ---- backends ----------------------------------------------------------------------------------------------

def _watch_parent(parent):
    """The initializer of each ``--jobs`` worker process: a daemon thread that ends the worker (``os._exit``) as
    soon as its parent ``parent`` (a pid) is gone (the worker is then some other process's child), checking every
    0.2 s. A worker blocked waiting for its next batch, or inside a library call (which releases the GIL), would
    otherwise outlive a parent killed with SIGKILL, holding the output file it inherited open; with this, it ends
    within a fraction of a second and its files close with it."""
    def watch():
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="stpete-parent-watch", daemon=True).start()


def _run_local(tasks, jobs):
    if jobs <= 1:
        for task in tasks:
            yield task, play_batch(task)
        return
    import concurrent.futures
    import multiprocessing
    # fork where there is one: the workers inherit the loaded library and sys.path (a wrapper's, too)
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_watch_parent,
                                                initargs=(os.getpid(),)) as pool:
        futures = {pool.submit(play_batch, t): t for t in tasks}
        try:
            for fut in concurrent.futures.as_completed(futures):
                yield futures[fut], fut.result()
        finally:
            for fut in futures:
                fut.cancel()


def _run_dask(tasks, args, say):
    try:
        import logging
        import distributed
    except ImportError:
        raise ExperimentError("--dask-local and --scheduler need Dask's distributed package (Debian: apt-get install "
                              "python3-distributed)") from None
    cluster = None
    if args.scheduler:
        try:
            client = distributed.Client(args.scheduler, timeout=args.connect_timeout)
        except (OSError, TimeoutError, ValueError) as e:
            raise ExperimentError(f"cannot reach the Dask scheduler at {args.scheduler} within "
                                  f"{args.connect_timeout:g} s ({type(e).__name__}: {e}); is it running and "
                                  f"reachable? (--connect-timeout changes the wait)") from None
        say(f"Dask scheduler {args.scheduler}: {len(client.scheduler_info().get('workers', {}))} workers")
    else:
        cluster = distributed.LocalCluster(n_workers=args.dask_local, threads_per_worker=1,
                                           processes=not args.dask_threads, dashboard_address=None,
                                           silence_logs=logging.ERROR)
        client = distributed.Client(cluster)
    try:
        futures, attempts = {}, {}

        def submit(task, attempt):
            key = f"stpete-{task['exp']}-{task['arm']['name']}-{task['games'][0]}-{attempt}"
            fut = client.submit(play_batch, task, key=key, pure=False, retries=args.retries)
            futures[fut] = task
            attempts[key] = attempt
            return fut

        pending = distributed.as_completed([submit(t, 0) for t in tasks])
        for fut in pending:
            task = futures.pop(fut)
            try:
                rows = fut.result()
            except (distributed.KilledWorker, distributed.client.FutureCancelledError, OSError) as e:
                attempt = attempts[fut.key] + 1
                if attempt > args.retries:
                    raise ExperimentError(f"batch {task['arm']['name']} games {task['games'][0]}..."
                                          f"{task['games'][-1]} failed {attempt} times (last: {e})") from None
                say(f"batch {task['arm']['name']} games {task['games'][0]}... lost ({type(e).__name__}); resubmitted")
                pending.add(submit(task, attempt))
                continue
            yield task, rows
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# ---- summary -------------------------------------------------------------------------------------------------

def summarize(rows: Union[Sequence[Row], Tally], arms: Sequence[Arm]) -> Dict[str, Any]:
    """Per arm: ``{"games", "moves": (mean, ci, n), "seats": [{"bot", "win": (mean, ci, n), "vp": (mean, ci,
    n)}]}`` over the complete games of ``rows`` (a list of rows or a :class:`Tally`)."""
    from ._stats import mean_ci
    tally = _tally_of(rows, arms)
    out = {}
    for arm in arms:
        d = tally.data[arm.name]
        games = tally.games(arm.name)
        seats = []
        for s in range(arm.players):
            seats.append({"bot": arm.bots[s], "win": mean_ci([d["win"][s][g] for g in games]),
                          "vp": mean_ci([d["vp"][s][g] for g in games])})
        out[arm.name] = {"games": len(games), "moves": mean_ci([d["moves"][g] for g in games]), "seats": seats}
    return out


def paired(rows: Union[Sequence[Row], Tally], base: Arm, other: Arm,
           arms: Optional[Sequence[Arm]] = None) -> List[Dict[str, Any]]:
    """The paired comparison of arm ``other`` against arm ``base`` (:class:`Arm`) over their common seeds (games
    complete in both), per seat both have: ``[{"seat", "n", "win": paired_t, "vp": paired_t, "sign": sign_test
    on VP}]``. ``rows``: a list of rows or a :class:`Tally`."""
    from ._stats import paired_t, sign_test
    tally = _tally_of(rows, arms or [base, other])
    a, b = tally.data[base.name], tally.data[other.name]
    common = [g for g in tally.games(base.name) if g < len(b["done"]) and b["done"][g]]
    out = []
    for s in range(min(base.players, other.players)):
        dw = [b["win"][s][g] - a["win"][s][g] for g in common]
        dv = [b["vp"][s][g] - a["vp"][s][g] for g in common]
        out.append({"seat": s, "n": len(common), "win": paired_t(dw), "vp": paired_t(dv), "sign": sign_test(dv)})
    return out


def _p(p):
    return "nan" if p != p else "<0.0001" if p < 1e-4 else f"{p:.4f}"


def report(exp: Experiment, rows: Union[Sequence[Row], Tally], out: TextIO = sys.stdout) -> None:
    """Print the summary and the paired tests (each arm against the first); ``rows``: a list or a
    :class:`Tally`."""
    rows = _tally_of(rows, exp.arms)
    summary = summarize(rows, exp.arms)
    for arm in exp.arms:
        s = summary[arm.name]
        moves = s["moves"]
        print(f"arm {arm.name}: {arm.describe()}; {s['games']} games, {moves[0]:.1f} moves per game", file=out)
        print(f"  {'seat':<5}{'bot':<34}{'win share (95% CI)':<22}mean VP (95% CI)", file=out)
        for seat, r in enumerate(s["seats"]):
            w, v = r["win"], r["vp"]
            bot = r["bot"] if len(r["bot"]) <= 32 else r["bot"][:29] + "..."
            print(f"  {seat:<5}{bot:<34}{w[0]:.3f} ± {w[1]:.3f}{'':<7}{v[0]:.2f} ± {v[1]:.2f}", file=out)
    base = exp.arms[0]
    for other in exp.arms[1:]:
        comparison = paired(rows, base, other, exp.arms)
        if not comparison or comparison[0]["n"] == 0:
            continue
        print(f"paired: {other.name} − {base.name} over {comparison[0]['n']} common seeds "
              f"(paired t test; sign test on VP)", file=out)
        for c in comparison:
            w, v, sg = c["win"], c["vp"], c["sign"]
            print(f"  seat {c['seat']}: win share {w[0]:+.3f} ± {w[1]:.3f} (t = {w[2]:.2f}, p = {_p(w[3])}); "
                  f"VP {v[0]:+.2f} ± {v[1]:.2f} (t = {v[2]:.2f}, p = {_p(v[3])}); "
                  f"sign {sg[0]}+/{sg[1]}− p = {_p(sg[2])}", file=out)


# ---- progress ------------------------------------------------------------------------------------------------

class _Progress:
    """A bar on a terminal (redrawn at most 10 times a second), plain lines at each 10% otherwise."""

    def __init__(self, total, stream, enabled):
        self.total, self.stream, self.enabled = total, stream, enabled and total > 0
        self.tty = enabled and hasattr(stream, "isatty") and stream.isatty()
        self.done, self.start, self.last, self.next_tenth = 0, time.monotonic(), 0.0, 1

    def update(self, n):
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        rate = self.done / max(now - self.start, 1e-9)
        if self.tty:
            if now - self.last < 0.1 and self.done < self.total:
                return
            self.last = now
            width = 30
            fill = int(width * self.done / self.total)
            eta = (self.total - self.done) / rate if rate > 0 else 0
            self.stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} games "
                              f"{rate:.0f}/s ETA {eta:.0f} s ")
            if self.done >= self.total:
                self.stream.write("\n")
            self.stream.flush()
        else:
            tenth = self.done * 10 // self.total
            if tenth >= self.next_tenth:
                self.stream.write(f"{self.done}/{self.total} games ({100 * self.done // self.total}%), "
                                  f"{rate:.0f} games/s\n")
                self.stream.flush()
                self.next_tenth = tenth + 1


# ---- command line --------------------------------------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    """argparse with the programs' usage errors (tools/common/cli.c): one line with the --help hint, exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _arm_keys_help():
    """``players (2..5), pub_cap (per-pub|per-player), ...``: each arm key with its values, from the table."""
    parts = []
    for option in _arm_options():
        kind = option.type.name.lower()
        values = ("|".join(option.words) if option.words else f"{option.min}..{option.max}" if kind == "int"
                  else "e.g. 0,1,2,3")
        parts.append(f"{option.name} ({values})")
    return ", ".join(parts)


def _arm_example():
    """An arm that sets the table's first word option to its second word (``a:players=3:pub_cap=per-player:...``)."""
    option = next(o for o in _arm_options() if o.type.name == "ENUM")
    return f"a:players=3:{option.name}={option.words[1]}:bots=greedy,ismcts:iterations=200"


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's, without breaking words at their hyphens (per-pub, rubles-mod-10)."""

    def _fill_text(self, text, width, indent):
        import textwrap
        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent,
                             break_on_hyphens=False)

    def _split_lines(self, text, width):
        import textwrap
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


def _parser():
    from . import __version__
    prog = "stpete-experiment" if os.path.basename(sys.argv[0]) == "stpete-experiment" else \
        "python3 -m stpete.experiment"
    p = _Parser(
        prog=prog,
        formatter_class=_HelpFormatter,
        description="Rule experiments with libstpete's bots: arms compared on the same seeds, one row per seat and "
                    "game, a summary with 95% intervals and paired tests, plots.",
        epilog="Arm keys (the library's table of options): " + _arm_keys_help() + ", and last bots=SPEC,SPEC "
               "(stpete.Bot specs, dealt to the seats in turn). Example: --arm " + _arm_example())
    p.add_argument("--arm", action="append", default=[], metavar="NAME:KEY=VALUE:...",
                   help="an arm (repeat for more); see below")
    p.add_argument("--config", metavar="FILE", help="arms (and games, seed) from a JSON or TOML file")
    p.add_argument("--games", type=int, help="games per arm (default 100, or the file's)")
    p.add_argument("--seed", type=int, help="game g of every arm uses seed + g (default 1, or the file's)")
    p.add_argument("--out", metavar="FILE", help="rows as JSON lines (.jsonl) or CSV (.csv); without it, rows are "
                                                 "only summarised")
    p.add_argument("--resume", action="store_true", help="continue --out: skip its complete games")
    p.add_argument("--max-games", type=int, metavar="N", help="play at most N new games in this run (then stop; "
                                                              "--resume continues)")
    p.add_argument("--batch", type=int, metavar="G", help="games per batch sent to a worker (default: automatic)")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="local worker processes (default 1)")
    p.add_argument("--dask-local", type=int, metavar="N", help="run on a Dask LocalCluster of N workers")
    p.add_argument("--dask-threads", action="store_true", help="with --dask-local: threads in one process "
                                                                "instead of worker processes")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on an existing Dask cluster (tcp://host:8786)")
    p.add_argument("--connect-timeout", type=float, default=10.0, metavar="S",
                   help="seconds to wait for --scheduler (default 10)")
    p.add_argument("--retries", type=int, default=3, help="re-runs of a batch lost with a Dask worker (default 3)")
    p.add_argument("--plot", metavar="DIR", help="write plots (PNG and SVG) into DIR (needs matplotlib: checked "
                                                 "before any game)")
    p.add_argument("--quiet", action="store_true", help="no progress and no summary")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.add_argument("--version", action="version", version=f"stpete-experiment {__version__}",
                   help="show the version and exit")
    return p


def _tasks(exp, games, batch, done, limit):
    """Batches of games not yet done, interleaved over the arms (so that a partial run is paired)."""
    tasks, count = [], 0
    for first in range(0, games, batch):
        for arm in exp.arms:
            todo = [g for g in range(first, min(first + batch, games)) if (arm.name, g) not in done]
            if limit is not None:
                todo = todo[:max(0, limit - count)]
            if todo:
                tasks.append({"exp": exp.hash, "seed": exp.seed, "games": todo,
                              "arm": {"name": arm.name, "players": arm.players, "options": arm.options,
                                      "bots": arm.bots}})
                count += len(todo)
    return tasks, count


def _link_refused(path):
    return ExperimentError(f"{path} is a symbolic link: stpete.experiment writes no output through a link (one "
                           f"planted in a shared directory would redirect it); give the file's own path (nothing "
                           f"was changed)")


def _lock(handle, path):
    """Take the output's lock (flock, exclusive, not waiting) for the run, on its open ``handle``: a second run on
    the same file is refused (:class:`ExperimentError`) before it reads or writes anything (issue 46 item 12). The
    lock goes with the handle (closed, or the process ends)."""
    try:
        import fcntl
    except ImportError:  # Windows: no flock; one run at a time is then the user's care
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise ExperimentError(f"{path} is in use by another run (it holds the file's lock): one run at a time "
                              f"writes an output (nothing was changed)") from None


def _prepare_output(args, exp, tally, say, games):
    """Open --out for the run (append, creating it; refused through a link: every open refuses one, O_NOFOLLOW),
    take its lock (:func:`_lock`), then: a new or empty file gets its header (the results file's, or the CSV
    header); an existing one needs --resume, and its complete games, each checked (:func:`scan_output`), go into
    ``tally``, the file cut after the last of them (a cut last line, the rows of an incomplete game: played
    again). Returns the open, locked handle (None without --out)."""
    if not args.out:
        if args.resume:
            raise ExperimentError("--resume needs --out FILE")
        return None
    try:
        st = os.lstat(args.out)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise _link_refused(args.out)
    try:
        handle = open_output(args.out, "c")
        _lock(handle, args.out)
        try:
            if os.fstat(handle.fileno()).st_size == 0:
                handle.write(",".join(CSV_COLUMNS) + "\n" if _is_csv(args.out) else
                             __import__("stpete").results_header(PROGRAM, exp.definition) + "\n")
                handle.flush()
                return handle
            if not args.resume:
                raise ExperimentError(f"{args.out} exists: add --resume to continue it, or choose another --out")
            keep, drop = scan_output(args.out, exp, tally, games)
            size = os.fstat(handle.fileno()).st_size
            if keep < size:
                # cut the file after its last complete game (the lock held: no other run writes meanwhile), so
                # that no row is duplicated when the cut games are played again
                say(f"{args.out}: dropping {'a cut last line' if drop == 0 else f'{drop} row(s) of an incomplete game'}"
                    f"; {'it is' if drop == 0 else 'those games are'} played again")
                os.ftruncate(handle.fileno(), keep)
            return handle
        except BaseException:
            handle.close()
            raise
    except LinkError:
        raise _link_refused(args.out) from None


def _check_plot(outdir):
    """What ``--plot DIR`` needs, checked before any game (issue 33): matplotlib importable and ``DIR`` created and
    writable (a file made and removed there), else :class:`ExperimentError`."""
    from . import _plots
    try:
        _plots.pyplot()
    except ImportError as e:
        raise ExperimentError(f"--plot needs matplotlib (Debian: apt-get install python3-matplotlib; here: {e}); "
                              f"no game was played") from None
    try:
        os.makedirs(outdir, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=outdir, prefix=".stpete-experiment-", suffix=".probe")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise ExperimentError(f"--plot {outdir}: cannot write there ({e.strerror or e}); no game was "
                              f"played") from None


def plot(exp: Experiment, rows: Union[Sequence[Row], Tally], outdir: str) -> List[str]:
    """Draw the plots of experiment ``exp`` from its rows (a list, or a :class:`Tally`) into the directory
    ``outdir`` (created): ``winrate``, ``vp`` and ``cards``, each PNG and SVG (:mod:`stpete._plots`). Returns the
    paths written. Raises :class:`ExperimentError` without matplotlib, OSError when a file cannot be written."""
    from . import _plots
    tally = _tally_of(rows, exp.arms)
    try:
        _plots.pyplot()
    except ImportError as e:
        raise ExperimentError(f"--plot needs matplotlib (Debian: apt-get install python3-matplotlib; here: "
                              f"{e})") from None
    return _plots.draw(exp.arms, tally, summarize(tally, exp.arms), outdir)


def run(args: argparse.Namespace, say: Optional[Callable[[str], None]] = None, out: TextIO = sys.stdout) -> int:
    """Run the experiment described by parsed arguments; returns the exit status (:func:`main`). Raises
    :class:`ExperimentError` for bad input, before any game (a link at --out, and what --plot needs, included)."""
    err = sys.stderr
    say = say or (lambda text: print(text, file=err, flush=True))
    config = load_config(args.config) if args.config else {"arms": []}
    arms = config["arms"] + [parse_arm(a) for a in args.arm]
    games = args.games if args.games is not None else config.get("games", 100)
    seed = args.seed if args.seed is not None else config.get("seed", 1)
    if games < 1:
        raise ExperimentError(f"--games must be at least 1, not {games}")
    if args.jobs < 1 or (args.batch is not None and args.batch < 1) or (args.max_games is not None and
                                                                        args.max_games < 0):
        raise ExperimentError("--jobs and --batch must be at least 1, --max-games at least 0")
    if args.dask_local is not None and args.scheduler:
        raise ExperimentError("--dask-local and --scheduler exclude each other")
    if args.dask_local is not None and args.dask_local < 1:
        raise ExperimentError("--dask-local needs at least 1 worker")
    exp = Experiment(arms, seed)
    tally = Tally(arms)
    if args.plot:
        _check_plot(args.plot)
    handle = _prepare_output(args, exp, tally, say, games)
    done = {(name, g) for name in tally.data for g in tally.games(name)}
    workers = args.dask_local or (args.jobs if not args.scheduler else 8)
    batch = args.batch or max(1, min(50, games * len(arms) // (workers * 8) or 1))
    tasks, count = _tasks(exp, games, batch, done, args.max_games)
    if not args.quiet:
        say(f"experiment {exp.hash}: {len(arms)} arm(s) × {games} games (seeds {seed}..{seed + games - 1}); "
            f"{len(done)} game(s) already in {args.out}; playing {count} in {len(tasks)} batch(es)"
            if args.out else f"experiment {exp.hash}: {len(arms)} arm(s) × {games} games; playing {count}")
    progress = _Progress(count, err, not (args.quiet or args.no_progress))
    if args.dask_local or args.scheduler:
        results = _run_dask(tasks, args, say)
    else:
        results = _run_local(tasks, args.jobs)
    played = 0
    start = time.monotonic()
    # The rows go to --out; with --plot and no --out, to a private file in the plot directory, removed once the
    # plots are drawn: rows are never lost to a failure after the games (issue 33).
    rows_path = args.out
    if not args.out and args.plot:
        fd, rows_path = tempfile.mkstemp(dir=args.plot, prefix=f"rows-{exp.hash}-", suffix=".jsonl")
        handle = open(fd, "w", encoding="utf-8", newline="")
        handle.write(__import__("stpete").results_header(PROGRAM, exp.definition) + "\n")
    arm_games: Dict[str, Any] = {}
    kept = (f"the rows are kept in {rows_path}: a run with --out {rows_path} --resume continues from them (their "
            f"games are not played again) and draws the plots")
    finished = False
    try:
        for task, rows in results:
            if handle:
                # one batch, then flush: a kill cuts at most it
                handle.write(_batch_text(exp, rows, _is_csv(rows_path), arm_games))
                handle.flush()
            tally.add_rows(rows)
            played += len(task["games"])
            progress.update(len(task["games"]))
        finished = True
    except KeyboardInterrupt:
        say(f"\ninterrupted after {played} new game(s)" + (f"; {kept}" if handle and (played or args.out) else ""))
        return 130
    except BaseException:
        if handle and (played or args.out):
            say(kept)
        raise
    finally:
        if handle:
            handle.close()
            if not played and not args.out and not finished:
                os.unlink(rows_path)  # stopped before its first game: no rows to keep
    elapsed = time.monotonic() - start
    if not args.quiet:
        if count:
            say(f"played {count} games in {elapsed:.1f} s ({count / max(elapsed, 1e-9):.1f} games/s)")
        report(exp, tally, out)
    if args.plot:
        try:
            files = plot(exp, tally, args.plot)
        except Exception as e:  # matplotlib's own errors included: the rows stay where they are
            say(f"stpete.experiment: error: the plots failed ({type(e).__name__}: {e}); {kept}")
            return 1
        if not args.out:
            os.unlink(rows_path)
        if not args.quiet:
            say("plots: " + ", ".join(files))
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python3 -m stpete.experiment``: exit status 0, 2 for bad input (with the reason; also a link at --out and
    what --plot needs, both checked before any game), 1 for a failed run (an output that cannot be written; plots
    that fail after the games, whose rows are then kept: see the module's introduction), 130 when interrupted."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return run(args)
    except ExperimentError as e:
        print(f"stpete.experiment: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # an output or plot directory that cannot be written
        print(f"stpete.experiment: error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    # run as stpete.experiment, not __main__: one copy of the module (its classes, and play_batch for pickling)
    from stpete import experiment as _module
    sys.exit(_module.main())
