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
from typing import Any, Dict, List, Optional, Tuple

import stpete

from .botpool import parse_bot_spec
from .storage import GroupCommitter, MoveRecord, SeatRecord, StaleMoveError, TableRecord

def rule_options() -> Dict[str, "stpete.Option"]:
    """The options a table may set, by name: the library's table of options (``stpete.options()``; doc/format.md
    "options"), but the number of players (a field of its own), the seed (the server draws it) and the chance mode
    (a table plays sampled chance). The library checks their combination (stpete.Game: the New Society needs the
    first edition, 5 players need the New Society, its rulings need it; §12.0, R16-R19, R22, R29)."""
    return {o.name: o for o in stpete.options()
            if o.category != stpete.OptionCategory.PLAY and o.name != "players"}


def rule_value(option: "stpete.Option", value: Any) -> Any:
    """A rule of a table-creation body, checked by the option's type (the JSON format's: true or false, an
    integer, a word, null or 4 seats); ValueError with the reason otherwise. The library checks the ranges and the
    combination."""
    kind = option.type
    if kind == stpete.OptionType.SEATS:
        if value is None or (isinstance(value, list) and len(value) == 4 and
                             all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            return value
        raise ValueError(f"{option.name} must be null or a list of 4 seats")
    if kind == stpete.OptionType.INT:  # its range is the library's to say (stpete.Game below)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{option.name} must be an integer")
        return value
    choices: List[Any] = [False, True] if kind == stpete.OptionType.BOOL else list(option.words or ())
    if value not in choices or type(value) is not type(choices[0]):
        raise ValueError(f"{option.name} must be one of {', '.join(map(json.dumps, choices))}")
    return value


async def _outcome(future: "asyncio.Future[None]"):
    """Wait for ``future`` to be resolved whatever happens to the waiting task meanwhile: ``(exception or None,
    whether the task was cancelled while it waited)``. The future itself is never cancelled."""
    cancelled = False
    while not future.done():
        try:
            await asyncio.wait([future])
        except asyncio.CancelledError:
            cancelled = True
    return future.exception(), cancelled


def check_rules(rules: Any) -> Dict[str, Any]:
    """``rules`` (a table's rule choices: options of :func:`rule_options` by name) checked by each option's type: a
    copy, or ValueError with the reason. The library checks their ranges and combination when the game is made."""
    if not isinstance(rules, dict):
        raise ValueError("rules must be an object")
    options = {}
    known = rule_options()
    for key, value in rules.items():
        if key not in known:
            raise ValueError(f"unknown rule option {key!r} (known: {', '.join(known)})")
        options[key] = rule_value(known[key], value)
    return options


def table_options(players: Any, rules: Any) -> Dict[str, Any]:
    """The rule options of a table of ``players`` from ``rules`` (:func:`check_rules`), each checked by its type
    (ValueError with the reason); the library judges the whole combination (stpete.Game, stpete.check_options: its
    one reason, e.g. players 2-4, 5 with the New Society)."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError("players must be an integer")
    return check_rules(rules)


def check_options(options: Any) -> Optional[str]:
    """The library's reason for refusing a combination of options (``players`` and the rules of
    :func:`rule_options`), or None when it accepts it (POST /api/options/check: the lobby's form asks it)."""
    if not isinstance(options, dict):
        return "the options must be an object"
    rules = dict(options)
    players = rules.pop("players", 4)
    try:
        return stpete.check_options(players=players, **table_options(players, rules))
    except (ValueError, TypeError) as e:
        return str(e)


def check_seats(seats: List[SeatRecord]) -> None:
    """A table's stored seats as the server writes them (2-5 seats, at least one person's; a person's seat with a
    token hash, a bot's with a bot spec of :func:`botpool.bot_spec`), or ValueError with the reason."""
    if not 2 <= len(seats) <= 5:
        raise ValueError(f"{len(seats)} seats")
    for k, s in enumerate(seats):
        if s.kind == "human":
            if not isinstance(s.token_hash, str) or len(s.token_hash) != 64:
                raise ValueError(f"seat {k} is a person's without a token hash")
        elif s.kind == "bot":
            parse_bot_spec(s.bot)  # raises ValueError
        else:
            raise ValueError(f"seat {k} is neither a person's nor a bot's: {s.kind!r}")
    if not any(s.kind == "human" for s in seats):
        raise ValueError("no seat is a person's")


class Refused(Exception):
    """A request refused: ``str(e)`` is the reason sent to the client; nothing changed. ``behind``: the storage
    holds moves this table in memory has not applied (another process stored them, or the table expired)."""

    def __init__(self, reason: str, code: str = "refused", behind: bool = False) -> None:
        super().__init__(reason)
        self.code = code
        self.behind = behind


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of a seat token: what is stored and compared (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def card_table(game: "stpete.Game") -> List[Dict[str, Any]]:
    """The card types of the game's table (public facts, §2/§11, and the New Society's 13 more, §12.2) for the page:
    name, colour, cost, ..."""
    out = []
    for card in range(game.num_card_types):
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

    def __init__(self, record: TableRecord, storage: Optional[GroupCommitter], owner: Optional[str] = None) -> None:
        """Rebuild the table from ``record`` (its moves replayed). ``owner``: whom its bots' thinking is charged to
        (botpool.BotPool's fair share: the creator's address; by default the table itself). Raises ValueError
        (or the library's StPeteError) for a record that is not a table the server could have written: rule
        options, seats or bot specs it would have refused, a move that is not legal where it was stored."""
        check_seats(record.seats)
        options = check_rules(record.options)
        self.id = record.table_id
        self.record = record
        self.storage = storage
        self.owner = owner if owner is not None else "table:" + record.table_id
        self.lock = asyncio.Lock()
        self.seats = list(record.seats)
        self.game = stpete.Game(players=len(self.seats), seed=record.seed, **options)
        self.state = self.game.new_state()  # the setup of the game's seed (§3): the log begins with its events
        for move, action in enumerate(record.moves):
            self._replay(move, action)
        self.clients: set = set()      # connections (app.Client) watching this table
        self.bot_task = None           # the asyncio task playing the bot seats, if any
        self.bot_elsewhere = None      # the move at which another process claimed the bot's move (app.Server)
        self.holds = 0                 # callers of app.Server.find_table(hold=True) not done with it
        self.cards = card_table(self.game)
        self.card_names = [c["name"] for c in self.cards]  # by card type, for the first version's "discarded"
        self._spectator_first = None   # (move, text, event count) of the first state message to a spectator at that move

    def _replay(self, move: int, action: int) -> None:
        """Apply stored move number ``move`` (a stored record replays exactly: every move was legal when stored).
        Raises ValueError, the state unchanged, for a move that is not legal there."""
        if self.state.is_terminal:
            raise ValueError(f"move {move} is stored after the end of the game")
        if isinstance(action, bool) or not isinstance(action, int) \
                or not 0 <= action < self.game.num_distinct_actions or not self.state.is_legal(action):
            raise ValueError(f"move {move} (action id {action}) is not legal where it is stored")
        self.state.apply(action)

    def apply_stored(self, actions: List[int]) -> None:
        """Apply moves another process stored after this table's last one (its clients are then sent the new
        position). The caller holds :attr:`lock`. Raises ValueError for a move that is not legal where it is
        stored; the moves before it are applied."""
        for action in actions:
            self._replay(self.move, action)
            self.record.moves.append(action)

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

    @property
    def to_act(self) -> str:
        """The kind of seat to act, as stored (storage.TO_ACT): "human", "bot", or "over"."""
        return to_act(self.state, self.seats)

    async def play(self, seat: int, move: Any, action: Any) -> None:
        """Apply ``action`` (an action id) for ``seat``, which saw the position after ``move`` moves; stored before
        this returns. The caller holds :attr:`lock`. Raises :class:`Refused` (nothing changed) for, in this order
        of the checks: a mistyped move or action (``bad-request``), a game that is over (``game-over``), a seat that
        is not to act (``not-your-turn``), a move number that is not the table's (``stale``), an illegal action
        (``illegal``), a move that could not be stored (``storage``).

        Cancellation (asyncio.CancelledError, or any BaseException) never leaves the table apart from what is
        stored: once the move is handed to the storage, this waits for the storage's answer, keeps the move if it
        was stored and takes it back (``undo``) if not, and only then lets the cancellation through."""
        if isinstance(move, bool) or not isinstance(move, int):
            raise Refused("'move' must be the move number of the position you saw (a whole number)", "bad-request")
        if isinstance(action, bool) or not isinstance(action, int):
            raise Refused("'action' must be an action id (a whole number) from your legal actions", "bad-request")
        if self.over:
            raise Refused("the game is over", "game-over")
        if seat != self.state.current_player:
            raise Refused(f"not your turn: seat {self.state.current_player} is to act", "not-your-turn")
        if move != self.move:
            raise Refused(f"stale: you saw move {move}, the table is at move {self.move}", "stale")
        if not 0 <= action < self.game.num_distinct_actions or not self.state.is_legal(action):
            raise Refused(f"illegal action {action} in this position", "illegal")
        self.state.apply(action)
        try:
            stored = self.storage.submit(MoveRecord(self.id, move, action, self.state.is_terminal,
                                                    self.to_act == "bot"))
        except BaseException:
            self.state.undo()
            raise
        error, cancelled = await _outcome(stored)
        if error is None:
            self.record.moves.append(action)
        else:
            self.state.undo()
        if cancelled:
            raise asyncio.CancelledError()
        if isinstance(error, StaleMoveError):  # another process stored this move number first (or it expired)
            raise Refused("stale: another move was stored first", "stale", behind=True)
        if error is not None:
            raise Refused(f"the move could not be stored ({type(error).__name__}); try again", "storage")

    def message(self, seat: Optional[int], since: int) -> Dict[str, Any]:
        """The "state" message for a client at ``seat`` (None: a spectator) that has received ``since`` log
        entries: the library's table document of the seat as a person at a table may be handed it
        (``document``: stpete_state_table_to_json with STPETE_TABLE_PERSON, doc/format.md; the card table when the
        client has received nothing yet), and the fields of the protocol's first version, read from it (doc/server.md:
        ``events``, ``event_count``, ``to_act``, ``actions``, ``hand_limits``, ``discarded``, ``prices``,
        ``result``). Only what that seat knows now (§9)."""
        doc = json.loads(self.state.table_to_json(seat, since=since, cards=since == 0, person=True))
        names = self.card_names
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
            "result": None if doc["result"] is None else {  # the first version's: each score names its seat
                "scores": [{"seat": seat, **score} for seat, score in enumerate(doc["result"]["scores"])],
                "winners": doc["result"]["winners"]},
            "document": doc,
        }

    def spectator_first_message(self) -> Tuple[str, int]:
        """The first state message of a spectator (the public view and the whole log) as JSON text, and its
        ``event_count``: the same for every spectator at one position, so computed once per move."""
        if self._spectator_first is None or self._spectator_first[0] != self.move:
            message = self.message(None, 0)
            self._spectator_first = (self.move, json.dumps(message, separators=(",", ":")), message["event_count"])
        return self._spectator_first[1], self._spectator_first[2]

    def seats_public(self) -> List[Dict[str, Any]]:
        """Who sits where (no token): kind, bot spec, whether a person is connected now."""
        connected = {c.seat for c in self.clients if c.seat is not None}
        return [{"seat": k, "kind": s.kind, "bot": s.bot, "connected": k in connected}
                for k, s in enumerate(self.seats)]


def to_act(state: "stpete.State", seats: List[SeatRecord]) -> str:
    """The kind of seat to act in ``state`` (storage.TO_ACT): "human", "bot", or "over" once the game has ended."""
    return "over" if state.is_terminal else seats[state.current_player].kind


def record_status(record: TableRecord) -> str:
    """The kind of seat to act in a stored table (storage.TO_ACT), its moves replayed: what SQLiteStorage fills in
    when it upgrades a database of libstpete 1.1. Raises (stpete.StPeteError, ...) for a record that does not
    replay."""
    game = stpete.Game(players=len(record.seats), seed=record.seed, **record.options)
    state = game.new_state()
    try:
        state.reset(record.seed)
        for action in record.moves:
            state.apply(action)
        return to_act(state, record.seats)
    finally:
        state.close()


def new_table(players: Any, seats: Any, bot: str, rules: Dict[str, Any]):
    """A new table's record, to be stored (Storage.create_table). ``seats``: a list of "human"/"bot" of length
    ``players`` (at least one person); ``bot``: the bots' spec (botpool.bot_spec); ``rules``: options of
    :func:`rule_options` by name. The seed and the table id are drawn with :mod:`secrets`. Returns
    ``(record, tokens)``, tokens[seat] the secret token of each person's seat (None for a bot), to be given to
    the creator once and never stored or logged. Raises ValueError with the reason for bad input."""
    options = table_options(players, rules)
    # the library's own check of the whole combination, with its one reason (players 2-4, 5 with the New Society):
    # the words of POST /api/options/check, not those of a Game() the server would make
    refused = stpete.check_options(players=players, **options)
    if refused:
        raise ValueError(refused)
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
    return record._replace(to_act=record_status(record)), tokens
