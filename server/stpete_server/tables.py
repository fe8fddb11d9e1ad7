"""The server's tables: the one full state of each game, who may act, and what each client is sent.

A :class:`Table` holds the full :class:`stpete.State` (the only one: no client ever receives it), its seats and
the log of events. Every move, a person's or a bot's, goes through :meth:`Table.play`, which checks it against the
current position (the move number the client saw, whose turn, legality), stores it (:mod:`.storage`) and only then
reports it. :meth:`Table.message` writes what one client may see (§9): the library's table document of its seat
(``stpete_state_table_to_json``, doc/format.md "Table document": the view, legal actions, prices, incomes, the
cards discarded last, the log since its last message ...), sent as is, and the fields of the protocol's first
version read from it (doc/server.md). The server computes no rule fact of its own.
"""
import asyncio
import hashlib
import hmac
import json
import secrets
import time
from typing import Any, Dict, List, Optional

import stpete

from .storage import GroupCommitter, SeatRecord, StaleMoveError, TableRecord

#: The rule options a table may set (doc/format.md "options"), with their allowed values. The library checks their
#: combination (stpete.Game: the New Society needs the first edition, 5 players need the New Society, its three
#: rulings need it, §12.0, R16-R19, R22, R29).
RULE_CHOICES = {
    "edition": (1, 2),
    "pub_cap": ("per-pub", "per-player"),
    "tie_break": ("rubles-mod-10", "rubles-total"),
    "public_rubles": (False, True),
    "public_hands": (False, True),
    "new_society": (False, True),
    "markers_one_seat": (False, True),
    "used_prison_scores": (False, True),
    "textile_without_new_society": (False, True),
}


def options_table() -> List[Dict[str, Any]]:
    """The rule options a table may set, as the lobby's form reads them (GET /api/options, doc/server.md): one entry
    each, {"name", "type" ("int", "bool" or "enum"), "default", "min"/"max" or "values", "description", "rule"},
    players first. Until the library's own options table (issue 42), from :data:`RULE_CHOICES`, whose values the
    library checks together."""
    table: List[Dict[str, Any]] = [{"name": "players", "type": "int", "default": 4, "min": 2, "max": 5,
                                    "description": "Players", "rule": "§3, §12.0"}]
    for name, values in RULE_CHOICES.items():
        entry: Dict[str, Any] = {"name": name, "default": values[0], "description": name.replace("_", " ").capitalize(),
                                 "rule": ""}
        if isinstance(values[0], bool):
            entry["type"] = "bool"
        elif isinstance(values[0], int):
            entry.update(type="int", min=min(values), max=max(values))
        else:
            entry.update(type="enum", values=list(values))
        table.append(entry)
    return table


def check_options(options: Any) -> Optional[str]:
    """The library's reason for refusing a combination of rule options (players and :data:`RULE_CHOICES`' words), or
    None when it accepts it (stpete.Game: stpete_options_check)."""
    if not isinstance(options, dict):
        return "the options must be an object"
    rules = dict(options)
    try:
        rule_options(rules.pop("players", 4), rules)
    except (ValueError, TypeError, stpete.StPeteError) as e:
        return str(e)
    return None


class Refused(Exception):
    """A request refused: ``str(e)`` is the reason sent to the client; nothing changed."""

    def __init__(self, reason: str, code: str = "refused") -> None:
        super().__init__(reason)
        self.code = code


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of a seat token: what is stored and compared (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def card_table(game: "stpete.Game") -> List[Dict[str, Any]]:
    """The card types of the game's table (public facts, §2/§11, and the New Society's 13 more, §12.2) for the page:
    name, colour, cost, ..."""
    out = []
    types = (*stpete.Card, *stpete.NewSocietyCard) if game.options.get("new_society") else tuple(stpete.Card)
    for card in map(int, types):
        info = game.card_info(card)
        out.append({"card": card, "name": info.name, "colour": int(info.colour), "trading": bool(info.trading),
                    "cost": info.cost, "rubles": info.rubles, "vp": info.vp, "copies": info.copies,
                    "ware": -1 if info.ware is None else int(info.ware),
                    "special": 0 if info.special is None else int(info.special)})
    return out


class Table:
    """One game. ``record`` is its stored form; the state is rebuilt by replaying its moves. ``storage`` stores its
    moves. ``lock`` is held while a move is applied and stored and while what a client is sent is computed, so that
    no client ever sees a position before it is stored."""

    def __init__(self, record: TableRecord, storage: GroupCommitter) -> None:
        self.id = record.table_id
        self.record = record
        self.storage = storage
        self.lock = asyncio.Lock()
        self.seats = list(record.seats)
        self.game = stpete.Game(players=len(self.seats), seed=record.seed, **record.options)
        self.state = self.game.new_state()  # the setup of the game's seed (§3): the log begins with its events
        for action in record.moves:
            self.state.apply(action)   # a stored record replays exactly (every move was legal when stored)
        self.clients: set = set()      # connections (app.Client) watching this table
        self.bot_task = None           # the asyncio task thinking for a bot seat, if any
        self.cards = card_table(self.game)

    @property
    def move(self) -> int:
        """The number of moves played (the position's history length, kept as the stored moves' count): a client
        names it with its action."""
        return len(self.record.moves)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def over(self) -> bool:
        return self.state.is_terminal

    def seat_of(self, token: Optional[str]) -> Optional[int]:
        """The seat whose secret token this is (compared in constant time with every seat's stored hash, so the
        time taken says nothing about which seat or how much matched), or None."""
        if not isinstance(token, str):
            return None
        given = token_hash(token)
        found = None
        for seat, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(given, s.token_hash):
                found = seat
        return found

    def bot_to_move(self) -> bool:
        return not self.over and self.seats[self.state.current_player].kind == "bot"

    async def play(self, seat: int, move: Any, action: Any) -> None:
        """Apply ``action`` (an action id) for ``seat``, which saw the position after ``move`` moves; stored before
        this returns. The caller holds :attr:`lock`. Raises :class:`Refused` (nothing changed) for a stale or
        repeated move, out of turn, a game that is over, an illegal action, or a move that could not be stored."""
        if isinstance(move, bool) or not isinstance(move, int):
            raise Refused("'move' must be the move number of the position you saw (a whole number)", "bad-request")
        if isinstance(action, bool) or not isinstance(action, int):
            raise Refused("'action' must be an action id (a whole number) from your legal actions", "bad-request")
        if self.over:
            raise Refused("the game is over", "game-over")
        if move != self.move:
            raise Refused(f"stale: you saw move {move}, the table is at move {self.move}", "stale")
        if seat != self.state.current_player:
            raise Refused(f"not your turn: seat {self.state.current_player} is to act", "not-your-turn")
        if not 0 <= action < self.game.num_distinct_actions or not self.state.is_legal(action):
            raise Refused(f"illegal action {action} in this position", "illegal")
        self.state.apply(action)
        try:
            await self.storage.store(self.id, move, action)
        except StaleMoveError:  # cannot happen with one server process per database; never apply twice
            self.state.undo()
            raise Refused("stale: the move was already stored", "stale")
        except Exception as e:
            self.state.undo()
            raise Refused(f"the move could not be stored ({type(e).__name__}); try again", "storage")
        self.record.moves.append(action)

    def message(self, seat: Optional[int], since: int) -> Dict[str, Any]:
        """The "state" message for a client at ``seat`` (None: a spectator) that has received ``since`` log
        entries: the library's table document of the seat as a person at a table may be handed it
        (``document``: stpete_state_table_to_json with STPETE_TABLE_PERSON, doc/format.md; the card table when the
        client has received nothing yet), and the fields of the protocol's first version, read from it (doc/server.md:
        ``events``, ``event_count``, ``to_act``, ``actions``, ``hand_limits``, ``discarded``, ``prices``,
        ``result``). Only what that seat knows now (§9)."""
        doc = json.loads(self.state.table_to_json(seat, since=since, cards=since == 0, person=True))
        names = [self.game.card_name(c) for c in range(self.game.num_card_types)]
        board = ("upper", "lower", "observatory", "discard")  # the places of the first version's prices
        return {
            "type": "state",
            "table": self.id,
            "move": doc["move"],
            "view": doc["view"],
            "events": [{"text": e["text"], "seat": e["seat"], "kind": e["kind"]} for e in doc["log"]],
            "event_count": doc["log_size"],
            "to_act": doc["to_act"],
            "hand_limits": doc["hand_limits"],
            "discarded": [names[c] for c in doc["discarded_last"]],
            "prices": None if doc["offers"] is None or doc["result"] is not None else [
                [int(stpete.Source[o["source"].upper()]), o["card"], -1 if o["displaced"] is None else o["displaced"],
                 o["price"]] for o in doc["offers"] if o["source"] in board],
            "actions": [{"id": a["id"], "text": a["text"], "price": a["price"],
                         "kind": int(stpete.ActionKind[a["kind"].upper().replace("-", "_")])} for a in doc["actions"]],
            "result": None if doc["result"] is None else {k: doc["result"][k] for k in ("scores", "winners")},
            "document": doc,
        }

    def seats_public(self) -> List[Dict[str, Any]]:
        """Who sits where (no token): kind, bot spec, whether a person is connected now."""
        connected = {c.seat for c in self.clients if c.seat is not None}
        return [{"seat": k, "kind": s.kind, "bot": s.bot, "connected": k in connected}
                for k, s in enumerate(self.seats)]


def rule_options(players: Any, rules: Any) -> Dict[str, Any]:
    """The rule options of a table of ``players`` from ``rules`` (a subset of :data:`RULE_CHOICES`), checked one by
    one and then together by the library (stpete.Game). Raises ValueError (or the library's error) with the
    reason."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError("'players' is not a whole number")  # which numbers: the library's answer (below)
    if not isinstance(rules, dict):
        raise ValueError("rules must be an object")
    options = {}
    for key, value in rules.items():
        if key not in RULE_CHOICES:
            raise ValueError(f"unknown rule option {key!r} (known: {', '.join(RULE_CHOICES)})")
        if value not in RULE_CHOICES[key] or type(value) is not type(RULE_CHOICES[key][0]):
            raise ValueError(f"{key} must be one of {', '.join(map(json.dumps, RULE_CHOICES[key]))}")
        options[key] = value
    stpete.Game(players=players, seed=0, **options)  # the library's own check of the options
    return options


def new_table(players: Any, seats: Any, bot: str, rules: Dict[str, Any]):
    """A new table's record, to be stored (Storage.create_table). ``seats``: a list of "human"/"bot" of length
    ``players`` (at least one person); ``bot``: the bots' spec (botpool.bot_spec); ``rules``: a subset of
    :data:`RULE_CHOICES`. The seed and the table id are drawn with :mod:`secrets`. Returns
    ``(record, tokens)``, tokens[seat] the secret token of each person's seat (None for a bot), to be given to
    the creator once and never stored or logged. Raises ValueError with the reason for bad input."""
    options = rule_options(players, rules)
    if not isinstance(seats, list) or len(seats) != players or any(s not in ("human", "bot") for s in seats):
        raise ValueError("seats must list 'human' or 'bot' for each of the players")
    if "human" not in seats:
        raise ValueError("at least one seat must be a person's")
    seed = secrets.randbits(64)
    tokens = [secrets.token_urlsafe(24) if kind == "human" else None for kind in seats]
    table_id = secrets.token_urlsafe(9)
    while table_id.startswith("-"):  # an id is also a command-line argument (stpete_server.export): never an option
        table_id = secrets.token_urlsafe(9)
    record = TableRecord(table_id, options, seed,
                         [SeatRecord(kind, token_hash(tok) if tok else None, bot if kind == "bot" else None)
                          for kind, tok in zip(seats, tokens)], [], time.time())
    return record, tokens
