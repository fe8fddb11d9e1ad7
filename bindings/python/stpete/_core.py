"""The Pythonic surface: enums, Card, Action, Event, Score, Game and State over the ctypes layer."""
import enum
import weakref
from ctypes import byref, c_int, c_size_t, c_uint, c_uint8, create_string_buffer

from . import _ffi
from .errors import BufferTooSmallError, ClosedError, InvalidArgumentError, NotTerminalError, StPeteError

_lib = _ffi.load_library()

# ---- enums (values as in stpete.h) ------------------------------------------------------------------------


class Card(enum.IntEnum):
    """The 49 card types of §2, in the order of stpete.h's ``enum stpete_card``. ``str(card)`` is the printed
    English name; ``Card.from_name("Potjomkin's Village")`` parses one (case-insensitive)."""
    LUMBERJACK = 0
    GOLD_MINER = 1
    SHEPHERD = 2
    FUR_TRAPPER = 3
    SHIP_BUILDER = 4
    CZAR_AND_CARPENTER = 5
    MARKET = 6
    CUSTOMS_HOUSE = 7
    FIREHOUSE = 8
    HOSPITAL = 9
    LIBRARY = 10
    THEATER = 11
    ACADEMY = 12
    POTJOMKINS_VILLAGE = 13
    PUB = 14
    WAREHOUSE = 15
    OBSERVATORY = 16
    AUTHOR = 17
    ADMINISTRATOR = 18
    WAREHOUSE_MANAGER = 19
    SECRETARY = 20
    CONTROLLER = 21
    JUDGE = 22
    MISTRESS_OF_CEREMONIES = 23
    CARPENTER_WORKSHOP = 24
    GOLD_SMELTER = 25
    WEAVING_MILL = 26
    FUR_SHOP = 27
    WHARF = 28
    MARIINSKIJ_THEATER = 29
    BANK = 30
    PETERHOF = 31
    ST_ISAACS_CATHEDRAL = 32
    CHURCH_OF_THE_RESURRECTION = 33
    HARBOR = 34
    CATHERINE_THE_GREAT_PALACE = 35
    SMOLNY_CATHEDRAL = 36
    HERMITAGE = 37
    WINTER_PALACE = 38
    POPE = 39
    WEAPON_MASTER = 40
    CHAMBER_MAID = 41
    BUILDER = 42
    SENATOR = 43
    PATRIARCH = 44
    TAX_MAN = 45
    ADMIRAL = 46
    MINISTER_OF_FOREIGN_AFFAIRS = 47
    CZAR = 48

    def __str__(self):
        return _CARD_NAMES[self]

    @property
    def info(self):
        """The card's row of the §2 tables (:class:`CardInfo`)."""
        return _CARD_INFO[self]

    @classmethod
    def from_name(cls, name):
        """The card type with this printed name (case-insensitive). Raises :class:`ParseError`."""
        out = c_int()
        _lib.stpete_card_from_name(name.encode(), byref(out))
        return cls(out.value)


class Colour(enum.IntEnum):
    """Colours (§1); also the phase that scores the colour."""
    GREEN = 0
    BLUE = 1
    ORANGE = 2


class Special(enum.IntEnum):
    """Special abilities (§7)."""
    NONE = 0
    OBSERVATORY = 1
    PUB = 2
    WAREHOUSE = 3
    POTJOMKINS_VILLAGE = 4
    MARIINSKIJ_THEATER = 5
    TAX_MAN = 6
    CARPENTER_WORKSHOP = 7
    GOLD_SMELTER = 8
    CZAR_AND_CARPENTER = 9


class Source(enum.IntEnum):
    """Where a card comes from (§4.2, §5.1); UPPER and LOWER are also the two rows."""
    UPPER = 0
    LOWER = 1
    HAND = 2
    OBSERVATORY = 3


class Stack(enum.IntEnum):
    """The four stacks (§1)."""
    WORKER = 0
    BUILDING = 1
    ARISTOCRAT = 2
    TRADING = 3


class Phase(enum.IntEnum):
    """The four phases of a round (§4), also the index of each start-player marker."""
    WORKER = 0
    BUILDING = 1
    ARISTOCRAT = 2
    TRADING = 3


class Decision(enum.IntEnum):
    """What the current player decides."""
    TURN = 0
    OBSERVATORY = 1
    PUB = 2
    GAME_OVER = 3
    NONE = 3  # former name of GAME_OVER (an alias)


class ActionKind(enum.IntEnum):
    """Kinds of action."""
    PASS = 0
    BUY = 1
    PLAY = 2
    TAKE = 3
    OBSERVATORY = 4
    OBSERVATORY_BUY = 5
    OBSERVATORY_TAKE = 6
    OBSERVATORY_DISCARD = 7
    PUB = 8


class EventKind(enum.IntEnum):
    """Kinds of event (stpete.h ``enum stpete_event_kind``)."""
    PHASE_START = 0
    DEAL = 1
    BUY = 2
    PLAY = 3
    TAKE = 4
    DISPLACE = 5
    PASS = 6
    OBSERVATORY_DRAW = 7
    OBSERVATORY_DISCARD = 8
    SCORING = 9
    PUB = 10
    ROUND_END = 11
    MARKERS_MOVED = 12
    LAST_ROUND = 13
    FINAL_SCORING = 14
    GAME_OVER = 15


class PubCap(enum.IntEnum):
    """Pub cap (§7.2, R10): ``"per-pub"`` (default) or ``"per-player"``."""
    PER_PUB = 0
    PER_PLAYER = 1


class TieBreak(enum.IntEnum):
    """Tie-break (§8, R14): ``"mod10"`` (rubles mod 10, default) or ``"total"`` (total rubles)."""
    RUBLES_MOD_10 = 0
    RUBLES_TOTAL = 1


_CARD_NAMES = {}
_CARD_INFO = {}


class CardInfo:
    """A row of the §2 tables: name, colour, trading (bool), cost (R), rubles and vp (income at its colour's
    scoring), copies, ware (the worker type of its ware, or None), special (:class:`Special`)."""
    __slots__ = ("card", "name", "colour", "trading", "cost", "rubles", "vp", "copies", "ware", "special")

    def __init__(self, card, s):
        self.card = card
        self.name = s.name.decode()
        self.colour = Colour(s.colour)
        self.trading = bool(s.trading)
        self.cost, self.rubles, self.vp, self.copies = s.cost, s.rubles, s.vp, s.copies
        self.ware = Card(s.ware) if s.ware >= 0 else None
        self.special = Special(s.special)

    @property
    def stack(self):
        """The stack the card is dealt from (the colour of its back, §9)."""
        return Stack.TRADING if self.trading else Stack(int(self.colour))

    def __repr__(self):
        return (f"CardInfo({self.name!r}, colour={self.colour.name}, trading={self.trading}, cost={self.cost}, "
                f"rubles={self.rubles}, vp={self.vp}, copies={self.copies})")


for _card in Card:
    _CARD_NAMES[_card] = _lib.stpete_card_name(_card).decode()
    _s = _ffi.CardInfoStruct()
    _lib.stpete_card_get_info(_card, byref(_s))
    _CARD_INFO[_card] = CardInfo(_card, _s)


def version():
    """Run-time library version string, e.g. ``"0.1.0"``."""
    return _lib.stpete_version().decode()


def library_path():
    """Path of the loaded shared library."""
    return _lib._name


# ---- actions ---------------------------------------------------------------------------------------------

_ACTIONS = [None] * _ffi.NUM_DISTINCT_ACTIONS


class Action:
    """One action id with its structured form and readable string. Immutable; ``int(action)`` and use as an index
    give the id; ``str(action)`` is the canonical string, e.g. ``buy Wharf from upper displacing Ship Builder``.
    Get one with :meth:`Action.from_id`, :meth:`Action.parse` or :meth:`State.legal_actions`."""
    __slots__ = ("id", "kind", "source", "card", "displaced", "stack", "amount", "_text")

    def __new__(cls, action):
        return cls.from_id(action) if not isinstance(action, str) else cls.parse(action)

    @classmethod
    def from_id(cls, action_id):
        """The action with this id (cached). Raises :class:`InvalidArgumentError` outside [0, 972)."""
        if isinstance(action_id, Action):
            return action_id
        action_id = int(action_id)
        if 0 <= action_id < _ffi.NUM_DISTINCT_ACTIONS:
            cached = _ACTIONS[action_id]
            if cached is not None:
                return cached
        s = _ffi.ActionStruct()
        _lib.stpete_action_decode(action_id, byref(s))
        buf = create_string_buffer(_ffi.ACTION_STRING_MAX)
        _lib.stpete_action_to_string(action_id, buf, len(buf))
        self = object.__new__(cls)
        self.id = action_id
        self.kind = ActionKind(s.kind)
        self.source = Source(s.source) if s.source >= 0 else None
        self.card = Card(s.card) if s.card >= 0 else None
        self.displaced = Card(s.displaced) if s.displaced >= 0 else None
        self.stack = Stack(s.stack) if s.stack >= 0 else None
        self.amount = s.amount if s.amount >= 0 else None
        self._text = buf.value.decode()
        _ACTIONS[action_id] = self
        return self

    @classmethod
    def parse(cls, text):
        """The action written ``text`` (case-insensitive). Raises :class:`ParseError`."""
        out = c_int()
        _lib.stpete_action_from_string(text.encode(), byref(out))
        return cls.from_id(out.value)

    def __setattr__(self, name, value):
        if hasattr(self, "_text"):
            raise AttributeError("Action is immutable")
        object.__setattr__(self, name, value)

    def __int__(self):
        return self.id

    __index__ = __int__

    def __eq__(self, other):
        if isinstance(other, Action):
            return self.id == other.id
        return NotImplemented

    def __hash__(self):
        return hash(self.id)

    def __str__(self):
        return self._text

    def __repr__(self):
        return f"Action({self.id}, {self._text!r})"


def _action_id(action):
    """An action id from an Action, an int or a string."""
    if type(action) is int:
        return action
    if isinstance(action, Action):
        return action.id
    if isinstance(action, str):
        return Action.parse(action).id
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise TypeError(f"an action is an Action, an int id or a string, not {type(action).__name__}")
    return action.__index__()


# ---- events and scores -----------------------------------------------------------------------------------


class Event:
    """One event reported while an action is applied (stpete.h ``stpete_event``): ``kind`` (:class:`EventKind`)
    and the fields that kind fills (seat, card, displaced, source, stack, price, rubles, vp, amount, phase, round);
    unused fields are None."""
    __slots__ = ("kind", "seat", "card", "displaced", "source", "stack", "price", "rubles", "vp", "amount",
                 "phase", "round")

    def __init__(self, s):
        self.kind = EventKind(s.kind)
        self.seat = s.seat if s.seat >= 0 else None
        self.card = Card(s.card) if s.card >= 0 else None
        self.displaced = Card(s.displaced) if s.displaced >= 0 else None
        self.source = Source(s.source) if s.source >= 0 else None
        self.stack = Stack(s.stack) if s.stack >= 0 else None
        self.phase = Phase(s.phase) if s.phase >= 0 else None
        for name in ("price", "rubles", "vp", "amount", "round"):
            value = getattr(s, name)
            # vp may be negative after final scoring; amount is a winner mask for GAME_OVER
            setattr(self, name, value if value >= 0 or (name == "vp" and self.kind == EventKind.FINAL_SCORING)
                    else None)

    def as_dict(self):
        return {name: getattr(self, name) for name in self.__slots__}

    def __repr__(self):
        fields = ", ".join(f"{k}={v!s}" for k, v in self.as_dict().items() if v is not None and k != "kind")
        return f"Event({self.kind.name}{', ' if fields else ''}{fields})"


class Score:
    """Final scoring of one seat (§8, R13): vp_before, aristocrat_kinds, aristocrat_bonus, rubles, rubles_bonus,
    hand_cards, hand_penalty, total, tie_break."""
    __slots__ = ("seat",) + tuple(name for name, _ in _ffi.ScoreStruct._fields_)

    def __init__(self, seat, s):
        self.seat = seat
        for name, _ in _ffi.ScoreStruct._fields_:
            setattr(self, name, getattr(s, name))

    def __eq__(self, other):
        return isinstance(other, Score) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def __repr__(self):
        return "Score(" + ", ".join(f"{k}={getattr(self, k)}" for k in self.__slots__) + ")"


# ---- JSON helpers ----------------------------------------------------------------------------------------


def _write_json(fn, *args):
    """Call a stpete_*_to_json function (args before buf), growing the buffer on STPETE_E_BUFFER_TOO_SMALL."""
    size = 16384
    length = c_size_t()
    while True:
        buf = create_string_buffer(size)
        try:
            fn(*args, buf, size, byref(length))
        except BufferTooSmallError:
            if length.value + 1 <= size:
                raise
            size = length.value + 1
            continue
        return buf.raw[:length.value].decode("utf-8")


def _json_bytes(text):
    if isinstance(text, str):
        return text.encode("utf-8")
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text)
    raise TypeError(f"JSON text must be str or bytes, not {type(text).__name__}")


def _read_json(fn, *args):
    """Call a stpete_*_from_json function whose last argument is a stpete_json_error; a failure raises its
    exception class with the library's reason (and line, column, position for a syntax error)."""
    err = _ffi.JsonErrorStruct()
    try:
        return fn(*args, byref(err))
    except StPeteError as e:
        reason = err.text.decode("utf-8", "replace")
        where = f" at line {err.line}, column {err.column}" if err.line > 0 else ""
        exc = type(e)(f"{reason or e.message}{where} ({e.function}: {e.message.rsplit(': ', 1)[-1]})",
                      status=e.status, function=e.function)
        if err.line > 0:
            exc.line, exc.column, exc.position = err.line, err.column, err.position
        raise exc from None


def replay_to_json(game, seed, actions):
    """A replay record (options, ``seed``, the actions with their strings, the result), every action checked by
    replaying it from the initial position of ``seed``. ``actions``: Actions, ids or strings.
    Raises :class:`IllegalActionError` if one is not legal where it is applied."""
    ids = [_action_id(a) for a in actions]
    array = (c_int * max(1, len(ids)))(*ids)
    return _write_json(_lib.stpete_replay_to_json, game.handle, int(seed) & 0xFFFFFFFFFFFFFFFF, array, len(ids))


def replay_from_json(text):
    """Read and verify a replay record: ``(game, [action ids])``; ``game.new_state()`` is its initial position.
    Raises :class:`ParseError`, :class:`UnsupportedVersionError` or :class:`InconsistentError` (an illegal action,
    a string naming another action, a recorded result that differs)."""
    data = _json_bytes(text)
    n = c_size_t()
    ptr = _ffi.GamePtr()
    try:
        _read_json(_lib.stpete_replay_from_json, byref(ptr), None, 0, byref(n), data, len(data), None)
    except BufferTooSmallError:
        pass  # n is the number of actions
    else:
        if ptr:  # an empty record: the game was created
            return Game._adopt(ptr), []
    actions = (c_int * max(1, n.value))()
    _read_json(_lib.stpete_replay_from_json, byref(ptr), actions, len(actions), byref(n), data, len(data), None)
    return Game._adopt(ptr), actions[:n.value]


# ---- games -----------------------------------------------------------------------------------------------

_PUB_CAP_NAMES = {"per-pub": PubCap.PER_PUB, "per-player": PubCap.PER_PLAYER}
_TIE_BREAK_NAMES = {"mod10": TieBreak.RUBLES_MOD_10, "total": TieBreak.RUBLES_TOTAL}
RULE_OPTIONS = ("pub_cap", "tie_break", "start_markers", "public_rubles", "public_hands")


def _enum_option(name, value, names, cls):
    if isinstance(value, str):
        try:
            return names[value.lower().replace("_", "-")]
        except KeyError:
            raise InvalidArgumentError(f"{name} must be one of {', '.join(names)}, not {value!r}",
                                       status=-1) from None
    return int(value)


class Game:
    """An immutable game configuration (players, seed, rule options), ``stpete_game``.

    ``Game(players=4, seed=1, pub_cap="per-player", tie_break="total", start_markers=(0, 1, 2, 3),
    public_rubles=True, public_hands=False)``. Every keyword is optional (the spec's defaults, §3, §7.2, §8, §9).
    Unknown keywords raise TypeError; bad values :class:`InvalidArgumentError` from the C library.
    Owns its handle: ``close()``, ``with Game(...) as game:``, or garbage collection. The handle is freed only
    once every :class:`State` of the game has been closed (states keep their game alive).
    """

    def __init__(self, players=4, seed=0, **rule_options):
        unknown = set(rule_options) - set(RULE_OPTIONS)
        if unknown:
            raise TypeError(f"unknown rule option(s): {', '.join(sorted(unknown))} (known: {', '.join(RULE_OPTIONS)})")
        self._ptr = None
        self._open_states = 0
        self._closing = False
        opts = _ffi.OptionsStruct()
        _lib.stpete_options_init(byref(opts))
        if int(players) not in (2, 3, 4):  # the C library has no message channel before a game exists
            raise InvalidArgumentError(f"players must be 2, 3 or 4, not {players}", status=-1)
        opts.players = int(players)
        opts.seed = int(seed) & 0xFFFFFFFFFFFFFFFF
        if "pub_cap" in rule_options:
            opts.pub_cap = _enum_option("pub_cap", rule_options["pub_cap"], _PUB_CAP_NAMES, PubCap)
        if "tie_break" in rule_options:
            opts.tie_break = _enum_option("tie_break", rule_options["tie_break"], _TIE_BREAK_NAMES, TieBreak)
        markers = rule_options.get("start_markers")
        if markers is not None:
            markers = list(markers)
            if len(markers) != 4:
                raise InvalidArgumentError("start_markers needs 4 seats, one per phase (§3.3)", status=-1)
            for i, seat in enumerate(markers):
                opts.start_markers[i] = int(seat)
        opts.public_rubles = 1 if rule_options.get("public_rubles") else 0
        opts.public_hands = 1 if rule_options.get("public_hands") else 0
        ptr = _ffi.GamePtr()
        _lib.stpete_game_new(byref(ptr), byref(opts))
        self._ptr = ptr
        self._read_options()

    @classmethod
    def from_json(cls, text):
        """The game described by the ``"options"`` of a serialized state or replay record (JSON ``str`` or
        ``bytes``). Raises :class:`ParseError`, :class:`UnsupportedVersionError`, :class:`InconsistentError`."""
        data = _json_bytes(text)
        ptr = _ffi.GamePtr()
        _read_json(_lib.stpete_game_from_json, byref(ptr), data, len(data), None)
        return cls._adopt(ptr)

    @classmethod
    def _adopt(cls, ptr):
        self = object.__new__(cls)
        self._ptr = ptr
        self._open_states = 0
        self._closing = False
        self._read_options()
        return self

    def _read_options(self):
        opts = _ffi.OptionsStruct()
        _lib.stpete_options_init(byref(opts))
        _lib.stpete_game_get_options(self._ptr, byref(opts))
        self._players = opts.players
        self._seed = opts.seed
        self._options = {
            "pub_cap": PubCap(opts.pub_cap),
            "tie_break": TieBreak(opts.tie_break),
            "start_markers": None if all(m < 0 for m in opts.start_markers) else tuple(opts.start_markers),
            "public_rubles": bool(opts.public_rubles),
            "public_hands": bool(opts.public_hands),
        }

    @property
    def handle(self):
        """The ``stpete_game *`` (ctypes pointer). Raises :class:`ClosedError` after close()."""
        if self._ptr is None or self._closing:
            raise ClosedError("the game is closed")
        return self._ptr

    players = property(lambda self: self._players, doc="Number of players, 2..4.")
    seed = property(lambda self: self._seed, doc="The seed of new states (§3.1).")
    pub_cap = property(lambda self: self._options["pub_cap"], doc="Pub cap (:class:`PubCap`, §7.2, R10).")
    tie_break = property(lambda self: self._options["tie_break"], doc="Tie-break (:class:`TieBreak`, §8, R14).")
    start_markers = property(lambda self: self._options["start_markers"],
                             doc="Explicit start-player markers per phase, or None = dealt at random (§3.3).")
    public_rubles = property(lambda self: self._options["public_rubles"], doc="Rubles are public (§9).")
    public_hands = property(lambda self: self._options["public_hands"], doc="Hand cards are public (§9).")

    @property
    def options(self):
        """All options as a dict (players, seed and the rule options), for ``Game(**game.options)``."""
        return {"players": self._players, "seed": self._seed, **self._options}

    def new_state(self, seed=None):
        """A new :class:`State` at the start of the game (§3 setup), from the game's seed or ``seed``."""
        return State(self, seed)

    def close(self):
        """Release the handle (idempotent). With open states, it is released when the last one closes."""
        self._closing = True
        if self._ptr is not None and self._open_states == 0:
            ptr, self._ptr = self._ptr, None
            _lib.stpete_game_free(ptr)

    def _state_closed(self):
        self._open_states -= 1
        if self._closing and self._open_states == 0:
            self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the module may be half torn down
            pass

    def __repr__(self):
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"Game({opts}{', closed' if self._ptr is None or self._closing else ''})"


# ---- states ----------------------------------------------------------------------------------------------


class Seat:
    """A live, read-only view of one seat of a :class:`State` (``state.seats[i]``): rubles, vp, hand, display,
    hand_limit, observatories_used, markers (the phases whose start-player marker it holds), score."""
    __slots__ = ("_state", "seat")

    def __init__(self, state, seat):
        self._state = state
        self.seat = seat

    rubles = property(lambda self: self._state.rubles(self.seat), doc="Rubles (secret by default, §9).")
    vp = property(lambda self: self._state.vp(self.seat), doc="Victory points.")
    hand = property(lambda self: self._state.hand(self.seat), doc="Hand cards in the order taken.")
    display = property(lambda self: self._state.display(self.seat), doc="Display, one entry per copy.")
    hand_limit = property(lambda self: self._state.hand_limit(self.seat), doc="3, or 4 with a Warehouse (§7.3).")
    observatories_used = property(lambda self: self._state.observatories_used(self.seat),
                                  doc="Observatories used this round (§7.1).")
    score = property(lambda self: self._state.score(self.seat), doc="Final score breakdown (§8).")

    @property
    def markers(self):
        """The phases whose start-player marker this seat holds (§3.3)."""
        return tuple(Phase(p) for p, holder in enumerate(self._state.marker_holders) if holder == self.seat)

    def __repr__(self):
        return f"<stpete.Seat {self.seat}: {self.rubles} R, {self.vp} VP, {len(self.hand)} hand cards>"


_apply = _lib.stpete_state_apply
_legal = _lib.stpete_state_legal_actions


class State:
    """A position of a game (``stpete_state``): legal actions, apply, queries, events.

    ``State(game, seed=None)`` or ``game.new_state()``. Owns its handle (``close()``, context manager, garbage
    collection) and keeps its :class:`Game` alive. A failing call raises a :class:`StPeteError` subclass carrying
    the C message and leaves the state unchanged. Use a state from one thread at a time (distinct states may be
    used from distinct threads, §"No global mutable state" of stpete.h).
    """

    def __init__(self, game, seed=None):
        if not isinstance(game, Game):
            raise TypeError("State(game): game must be a stpete.Game")
        ptr = _ffi.StatePtr()
        _lib.stpete_state_new(byref(ptr), game.handle)
        self._init(game, ptr)
        self._seed = game.seed
        self._history = []
        if seed is not None:
            self.reset(seed)

    def _init(self, game, ptr):
        self._game = game
        self._ptr = ptr
        game._open_states += 1
        self._ids = (c_int * _ffi.MAX_LEGAL_ACTIONS)()
        self._count = c_size_t()
        self._cards = (c_int * _ffi.NUM_CARDS)()
        self._callback = None       # the Python function
        self._c_callback = None     # its ctypes thunk, kept alive while C holds it
        self._pending = None        # an exception raised by the callback, re-raised after the C call
        self._seed = None           # the seed of the game's start, when known
        self._history = None        # the action ids applied since then, when known

    @classmethod
    def _adopt(cls, game, ptr):
        self = object.__new__(cls)
        self._init(game, ptr)
        return self

    # -- life cycle --

    @property
    def handle(self):
        """The ``stpete_state *`` (ctypes pointer). Raises :class:`ClosedError` after close()."""
        if self._ptr is None:
            raise ClosedError("the state is closed")
        return self._ptr

    @property
    def game(self):
        """The :class:`Game` of this state."""
        return self._game

    @property
    def players(self):
        """Number of players."""
        return self._game._players

    def close(self):
        """Free the handle (idempotent)."""
        ptr = getattr(self, "_ptr", None)
        if ptr is not None:
            self._ptr = None
            _lib.stpete_state_free(ptr)
            self._c_callback = None
            self._game._state_closed()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def clone(self):
        """An independent copy (a new owning State of the same game; the event callback is not copied)."""
        ptr = _ffi.StatePtr()
        _lib.stpete_state_clone(byref(ptr), self.handle)
        clone = State._adopt(self._game, ptr)
        clone._seed = self._seed
        clone._history = None if self._history is None else list(self._history)
        return clone

    def copy_from(self, other):
        """Copy ``other``'s position into this state without allocating (same rule options, else
        :class:`MismatchError`). The event callback of this state is kept."""
        def after():
            self._seed = other._seed
            self._history = None if other._history is None else list(other._history)
        self._call(_lib.stpete_state_copy, self.handle, other.handle, after=after)

    def reset(self, seed):
        """Restart as a new game with ``seed`` (§3 setup), in place; reports events to the callback."""
        seed = int(seed) & 0xFFFFFFFFFFFFFFFF
        def after():
            self._seed = seed
            self._history = []
        self._call(_lib.stpete_state_reset, self.handle, seed, after=after)

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return bool(_lib.stpete_state_equal(self.handle, other.handle))

    __hash__ = None

    # -- legal actions and apply --

    def legal_action_ids(self):
        """The legal action ids of the current player, ascending (a list of ints; empty when terminal)."""
        _legal(self.handle, self._ids, _ffi.MAX_LEGAL_ACTIONS, byref(self._count))
        return self._ids[:self._count.value]

    def legal_actions(self):
        """The legal actions of the current player, ascending (:class:`Action` objects; empty when terminal)."""
        from_id = Action.from_id
        return [from_id(i) for i in self.legal_action_ids()]

    def legal_action_mask(self):
        """A ``bytes`` of 972 entries: 1 where the action id is legal, else 0."""
        mask = (c_uint8 * _ffi.NUM_DISTINCT_ACTIONS)()
        _lib.stpete_state_legal_action_mask(self.handle, mask, len(mask))
        return bytes(mask)

    def is_legal(self, action):
        """Whether an action (Action, id or string) is legal now."""
        try:
            action_id = _action_id(action)
        except Exception:
            return False
        return bool(_lib.stpete_state_is_legal(self.handle, action_id))

    def apply(self, action):
        """Apply an action of the current player: an :class:`Action`, an int id or a string such as
        ``"take Market from lower"``, and advance through every automatic step (scoring, deals, end of game).

        Raises :class:`IllegalActionError`, :class:`GameOverError`, :class:`ParseError`,
        :class:`InvalidArgumentError` (state unchanged), :class:`ReentrantError` from inside an event callback,
        or the exception an event callback raised (the action has then been applied)."""
        if type(action) is int:
            fn, arg = _apply, action
        elif isinstance(action, str):
            fn, arg = _lib.stpete_state_apply_string, action.encode()
        else:
            action = _action_id(action)
            fn, arg = _apply, action
        ptr = self.handle
        pending = None
        if self._callback is None:
            fn(ptr, arg)  # raises on failure: nothing was applied
        else:
            try:
                fn(ptr, arg)
            except BaseException:
                pending, self._pending = self._pending, None
                if pending is not None:
                    raise pending
                raise
            pending, self._pending = self._pending, None
        if self._history is not None:
            self._history.append(action if fn is _apply else Action.parse(action).id)
        if pending is not None:
            raise pending  # from the callback; the action has been applied

    def _call(self, fn, *args, after=None):
        """Call a C function that may report events; ``after()`` runs once it has succeeded. An exception of the
        event callback is re-raised after that (the C call completed)."""
        try:
            fn(*args)
        except BaseException:
            pending, self._pending = self._pending, None
            if pending is not None:
                raise pending
            raise
        pending, self._pending = self._pending, None
        if after is not None:
            after()
        if pending is not None:
            raise pending

    # -- history and serialization --

    @property
    def history(self):
        """The action ids applied since the game's start (new state or reset), or None when unknown (after
        copy_from a state without history, or loading JSON)."""
        return None if self._history is None else tuple(self._history)

    @property
    def seed(self):
        """The seed this game was started with (the game's, or reset's), or None when unknown."""
        return self._seed

    def to_json(self):
        """The full state as JSON (deterministic; ``State.from_json`` continues it exactly)."""
        return _write_json(_lib.stpete_state_to_json, self.handle)

    def view_to_json(self, seat=None):
        """What ``seat`` may know (§9), or a spectator with ``seat=None``: the same schema with secrets as null.
        Cannot be loaded as a state (:class:`RedactedError`)."""
        return _write_json(_lib.stpete_state_view_to_json, self.handle,
                           _ffi.VIEW_PUBLIC if seat is None else int(seat))

    @classmethod
    def from_json(cls, text, game=None):
        """Load a state written by :meth:`to_json`. Without ``game``, its game is created from the JSON's options
        (:meth:`Game.from_json`). Raises :class:`ParseError` (with ``line`` / ``column`` for a syntax error),
        :class:`UnsupportedVersionError`, :class:`RedactedError` for a view, :class:`MismatchError` when ``game``
        has other options, :class:`InconsistentError` for a position that breaks the rules."""
        data = _json_bytes(text)
        if game is None:
            game = Game.from_json(data)
        ptr = _ffi.StatePtr()
        _read_json(_lib.stpete_state_from_json, byref(ptr), game.handle, data, len(data))
        return cls._adopt(game, ptr)

    def replay_to_json(self):
        """A replay record of this game: options, seed, every action since the start, the result."""
        if self._history is None:
            raise InvalidArgumentError("the history of this state is unknown (loaded from JSON or copied)",
                                       status=-1)
        return replay_to_json(self._game, self._seed, self._history)

    @classmethod
    def from_replay(cls, text):
        """The position a replay record reaches (verified), with its history."""
        game, actions = replay_from_json(text)
        state = cls(game)
        for a in actions:
            state.apply(a)
        return state

    def resample(self, seat, seed):
        """Determinization for search bots (§9): redraw, in place, everything ``seat`` cannot know (the order of
        every stack, other players' hand cards unless hands are public) consistently with what it knows;
        ``view_to_json(seat)`` is unchanged. The history becomes unknown. Typical use: ``state.clone()``, then
        resample the clone and play it out; or :meth:`resampled`."""
        def after():
            self._seed = None
            self._history = None
        self._call(_lib.stpete_state_resample, self.handle, int(seat), int(seed) & 0xFFFFFFFFFFFFFFFF, after=after)

    def resampled(self, seat, seed):
        """A resampled clone (see :meth:`resample`); this state is unchanged."""
        clone = self.clone()
        clone.resample(seat, seed)
        return clone

    def __reduce__(self):
        # pickling (e.g. multiprocessing) goes through the JSON of the position
        return (State.from_json, (self.to_json(),))

    # -- events --

    def enable_event_queue(self, enabled=True):
        """Turn the pull-style event queue on or off (off drops pending events); independent of the callback."""
        self._call(_lib.stpete_state_set_event_queue, self.handle, 1 if enabled else 0)

    @property
    def pending_events(self):
        """Number of events waiting in the queue (0 when it is off)."""
        return _lib.stpete_state_pending_events(self.handle)

    def next_event(self):
        """The oldest queued :class:`Event`, or None when the queue is empty or off."""
        out = _ffi.EventStruct()
        if _lib.stpete_state_next_event(self.handle, byref(out)) == 1:
            return Event(out)
        return None

    def events(self):
        """Take every queued event out, in order (a list of :class:`Event`)."""
        out = []
        event = self.next_event()
        while event is not None:
            out.append(event)
            event = self.next_event()
        return out


    def set_event_callback(self, fn):
        """Call ``fn(state, event)`` for every :class:`Event` while actions are applied or the state is reset;
        None removes it. ``fn`` may query the state but not modify it (:class:`ReentrantError`). If ``fn`` raises,
        the C call still completes, and the first exception is re-raised by the method that made the call."""
        if fn is None:
            self._call(_lib.stpete_state_set_event_callback, self.handle, _ffi.EVENT_FN(), None)
            self._callback = self._c_callback = None
            return
        if not callable(fn):
            raise TypeError("the event callback must be callable or None")
        ref = weakref.ref(self)

        def thunk(_state, event, _user):
            state = ref()
            if state is None or state._callback is None:
                return
            try:
                state._callback(state, Event(event.contents))
            except BaseException as e:  # never unwind through C: keep it for the caller
                if state._pending is None:
                    state._pending = e

        c_callback = _ffi.EVENT_FN(thunk)
        self._call(_lib.stpete_state_set_event_callback, self.handle, c_callback, None)
        self._callback, self._c_callback = fn, c_callback

    # -- what a front end draws --

    @property
    def current_player(self):
        """The seat to act, or None when the game is over."""
        seat = _lib.stpete_state_current_player(self.handle)
        return seat if seat >= 0 else None

    @property
    def is_terminal(self):
        """Whether the game is over (§4.6, §8)."""
        return bool(_lib.stpete_state_is_terminal(self.handle))

    @property
    def decision(self):
        """The kind of decision the current player faces (:class:`Decision`)."""
        return Decision(_lib.stpete_state_decision(self.handle))

    @property
    def phase(self):
        """The current phase (:class:`Phase`, §4)."""
        return Phase(_lib.stpete_state_phase(self.handle))

    @property
    def round(self):
        """The current round, from 1."""
        return _lib.stpete_state_round(self.handle)

    @property
    def is_final_round(self):
        """Whether this is the final round (§4.6, R4)."""
        return bool(_lib.stpete_state_is_final_round(self.handle))

    @property
    def consecutive_passes(self):
        """Consecutive passes so far in this phase (§4.3, R1)."""
        return _lib.stpete_state_consecutive_passes(self.handle)

    def row(self, row):
        """The cards of a row (:class:`Source` UPPER or LOWER), in the order dealt (§1, §4.5)."""
        _lib.stpete_state_row(self.handle, int(row), self._cards, _ffi.BOARD_SIZE, byref(self._count))
        return tuple(Card(c) for c in self._cards[:self._count.value])

    upper_row = property(lambda self: self.row(Source.UPPER), doc="The upper row (tuple of :class:`Card`).")
    lower_row = property(lambda self: self.row(Source.LOWER), doc="The lower row (tuple of :class:`Card`).")

    @property
    def stack_sizes(self):
        """Cards left in the worker, building, aristocrat and trading stacks (§9)."""
        return tuple(_lib.stpete_state_stack_size(self.handle, s) for s in range(4))

    @property
    def seats(self):
        """A live read-only :class:`Seat` view per seat (rubles, vp, hand, display, ...)."""
        return tuple(Seat(self, s) for s in range(self.players))

    def display(self, seat):
        """A seat's display, one entry per copy, by card type (tuple of :class:`Card`, §1)."""
        _lib.stpete_state_display(self.handle, seat, self._cards, _ffi.NUM_CARDS, byref(self._count))
        return tuple(Card(c) for c in self._cards[:self._count.value])

    def display_count(self, seat, card):
        """Copies of a card type in a seat's display."""
        return _lib.stpete_state_display_count(self.handle, seat, int(card))

    def hand(self, seat):
        """A seat's hand in the order taken (tuple of :class:`Card`; secret to others unless public_hands, §9)."""
        _lib.stpete_state_hand(self.handle, seat, self._cards, _ffi.MAX_HAND, byref(self._count))
        return tuple(Card(c) for c in self._cards[:self._count.value])

    def hand_limit(self, seat):
        """3, or 4 with a Warehouse (§7.3, R11)."""
        return _lib.stpete_state_hand_limit(self.handle, seat)

    def rubles(self, seat):
        """A seat's rubles (secret by default, §9)."""
        return _lib.stpete_state_rubles(self.handle, seat)

    def vp(self, seat):
        """A seat's victory points (public; may be negative after final scoring, §8)."""
        out = c_int()
        _lib.stpete_state_vp(self.handle, seat, byref(out))
        return out.value

    def observatories_used(self, seat):
        """Observatories the seat has used this round (§7.1, R9)."""
        return _lib.stpete_state_observatories_used(self.handle, seat)

    @property
    def observatory_card(self):
        """The card drawn by an Observatory awaiting its owner's decision (§7.1), or None."""
        card = _lib.stpete_state_observatory_card(self.handle)
        return Card(card) if card >= 0 else None

    @property
    def marker_holders(self):
        """The seat holding each phase's start-player marker (§3.3, §4.1), indexed by :class:`Phase`."""
        return tuple(_lib.stpete_state_marker_holder(self.handle, p) for p in range(4))

    @property
    def discard_pile(self):
        """The discard pile as {Card: copies} (public, §9)."""
        pile = {}
        for card in Card:
            n = _lib.stpete_state_discard_count(self.handle, card)
            if n:
                pile[card] = n
        return pile

    def price(self, seat, card, source=Source.UPPER, displaced=None):
        """Rubles ``seat`` would pay now for ``card`` from ``source`` (§5, R5–R7); for a trading card,
        ``displaced`` is the card type it displaces (§6.2)."""
        out = c_int()
        _lib.stpete_state_price(self.handle, seat, int(card), int(source),
                                -1 if displaced is None else int(displaced), byref(out))
        return out.value

    def score(self, seat):
        """A seat's final score breakdown (:class:`Score`, §8, R13): as applied after the end, a projection
        before."""
        out = _ffi.ScoreStruct()
        _lib.stpete_state_score(self.handle, seat, byref(out))
        return Score(seat, out)

    @property
    def scores(self):
        """Every seat's :class:`Score` (a projection before the end)."""
        return tuple(self.score(s) for s in range(self.players))

    @property
    def final_scores(self):
        """Every seat's final total VP (§8). Raises :class:`NotTerminalError` before the end."""
        if not self.is_terminal:
            raise NotTerminalError("final scores need a finished game", status=-6)
        return tuple(self.score(s).total for s in range(self.players))

    @property
    def winners(self):
        """The winning seats, ascending (several = a shared win, §8, R14). Raises :class:`NotTerminalError`
        before the end."""
        mask = c_uint()
        _lib.stpete_state_winners(self.handle, byref(mask))
        return tuple(s for s in range(self.players) if mask.value >> s & 1)

    def returns(self):
        """Per seat: 1.0 for a winner (shared wins too), 0.0 otherwise; all 0.0 before the end."""
        if not self.is_terminal:
            return [0.0] * self.players
        won = self.winners
        return [1.0 if s in won else 0.0 for s in range(self.players)]

    def __str__(self):
        lines = [f"round {self.round}, {self.phase.name.lower()} phase" +
                 (" (final round)" if self.is_final_round else "") +
                 (", game over" if self.is_terminal else f", seat {self.current_player} to act"
                  f" ({self.decision.name.lower()})"),
                 "upper row: " + (", ".join(map(str, self.upper_row)) or "(empty)"),
                 "lower row: " + (", ".join(map(str, self.lower_row)) or "(empty)"),
                 "stacks: %d workers, %d buildings, %d aristocrats, %d trading cards" % self.stack_sizes]
        for s in range(self.players):
            display = self.display(s)  # sorted by card type: group the copies
            shown = [f"{display.count(c)}x {c}" if display.count(c) > 1 else str(c) for c in dict.fromkeys(display)]
            lines.append(f"seat {s}: {self.rubles(s)} R, {self.vp(s)} VP, hand [{', '.join(map(str, self.hand(s)))}],"
                         f" display [{', '.join(shown)}]")
        if self.is_terminal:
            lines.append("winners: " + ", ".join(f"seat {s}" for s in self.winners))
        return "\n".join(lines)

    def __repr__(self):
        if self._ptr is None:
            return "<stpete.State closed>"
        where = "game over" if self.is_terminal else f"seat {self.current_player} to act"
        return f"<stpete.State {self.players} players, round {self.round}, {self.phase.name.lower()} phase, {where}>"
