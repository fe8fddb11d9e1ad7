"""The Pythonic surface: enums, Card, Action, Event, Score, Game and State over the ctypes layer.

Every C call goes through :data:`_C` (:func:`stpete._ffi.checked`): each argument is converted by its C type's
checked conversion first, so nothing is truncated on the way to C. Every C call on a :class:`State` holds that
state's lock (see :class:`State`, "Threads").
"""
import copy as _copy
import enum
import json
from array import array as _array
import operator
import threading
import weakref
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, NamedTuple, Optional, Tuple, Union
import ctypes
from ctypes import (byref, c_double, c_float, c_int, c_longlong, c_size_t, c_uint, c_uint8, c_uint64,
                    create_string_buffer)

from . import _ffi
from .errors import BufferTooSmallError, ClosedError, InvalidArgumentError, NoPriceError, NotTerminalError, \
    ParseError, RedactedError, TooLargeError, error_for_status

_lib = _ffi.load_library()

#: What the methods taking an action accept: an Action, a ChanceOutcome, an id or a string ("pass").
ActionLike = Union["Action", "ChanceOutcome", int, str]
_C = _ffi.checked(_lib)

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
    def info(self) -> "CardInfo":
        """The card's row of the §2 tables (:class:`CardInfo`)."""
        return _CARD_INFO[self]

    @classmethod
    def from_name(cls, name: str) -> "Card":
        """The card type with this printed name (case-insensitive). Raises :class:`ParseError`."""
        out = c_int()
        _C.stpete_card_from_name(name, byref(out))
        return cls(out.value)


class NewSocietyCard(enum.IntEnum):
    """The 13 card types of the New Society expansion (§12.2.3, stpete.h ``enum stpete_card_new_society``),
    numbered after the 49 of :class:`Card`; a game with ``new_society=True`` has all 62 (:meth:`Game.card_info`)."""
    NEW_FARMER = 49
    COFFEE_HOUSE = 50
    DEBTORS_PRISON = 51
    TRADING_HOUSE = 52
    SYCOPHANT = 53
    OBSHCHINA_COMMUNE = 54
    NEW_SOCIETY = 55
    ST_PETERSBURG_UNIVERSITY = 56
    GUILD_HALL = 57
    TEXTILE_FACTORY = 58
    MERCHANT = 59
    LT_KIJE = 60
    MAYOR = 61


class Colour(enum.IntEnum):
    """Colours (§1); also the phase that scores the colour."""
    GREEN = 0
    BLUE = 1
    ORANGE = 2

    @property
    def word(self) -> str:
        """The colour's name for front ends (``stpete_colour_name``): ``"green"``, ``"blue"`` or ``"orange"``."""
        return _C.stpete_colour_name(self).decode()


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
    MARIINSKY_THEATER_VP = 10
    COFFEE_HOUSE = 11
    DEBTORS_PRISON = 12
    TRADING_HOUSE = 13
    SYCOPHANT = 14
    OBSHCHINA_COMMUNE = 15
    NEW_SOCIETY = 16
    GUILD_HALL = 17
    TEXTILE_FACTORY = 18
    MAYOR = 19


class Source(enum.IntEnum):
    """Where a card comes from (§4.2, §5.1); UPPER and LOWER are also the two rows."""
    UPPER = 0
    LOWER = 1
    HAND = 2
    OBSERVATORY = 3
    DISCARD = 4  #: the Debtor's Prison's card (§12.7.5)


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
    CHANCE = 4
    PRISON = 5  #: the Debtor's Prison's card: buy, take or put back (§12.7.5)
    GUILD_HALL = 6  #: split the Guild Hall's 4 (§12.7.7)
    TRADING_HOUSE = 7  #: 3 R for 2 VP or not (§12.7.6)


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
    PRISON = 9
    PRISON_BUY = 10
    PRISON_TAKE = 11
    PRISON_PUT_BACK = 12
    GUILD_HALL = 13
    TRADING_HOUSE = 14

    @property
    def word(self) -> str:
        """The kind's word in the table document (``stpete_action_kind_name``): ``"pass"``, ``"buy"``, ...
        ``"trading-house"``."""
        return _C.stpete_action_kind_name(self).decode()


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
    UNDO = 16
    PRISON = 17
    PRISON_PUT_BACK = 18
    GUILD_HALL = 19
    TRADING_HOUSE = 20
    SYCOPHANT_DISCARD = 21
    GOLD_DISC = 22


class PubCap(enum.IntEnum):
    """Pub cap (§7.2, R10); as a string option, the JSON format's words ``"per-pub"`` (default) or
    ``"per-player"``."""
    PER_PUB = 0
    PER_PLAYER = 1

    @property
    def word(self) -> str:
        """The value's word in the JSON format and the programs' options (``stpete_options_pub_cap_name``)."""
        return _C.stpete_options_pub_cap_name(self).decode()


class ChanceMode(enum.IntEnum):
    """How random events happen (stpete.h ``enum stpete_chance_mode``, OpenSpiel's ``ChanceMode``); as a string
    option, the JSON format's words ``"sampled"`` (default: the library draws every random event, no chance node is
    ever seen) or ``"explicit"`` (every random event is a chance node: :attr:`State.is_chance_node`,
    :meth:`State.chance_outcomes`, and the outcome is applied with :meth:`State.apply`)."""
    SAMPLED = 0
    EXPLICIT = 1

    @property
    def word(self) -> str:
        """The value's word in the JSON format and the programs' options (``stpete_options_chance_mode_name``)."""
        return _C.stpete_options_chance_mode_name(self).decode()


class TieBreak(enum.IntEnum):
    """Tie-break (§8, R14); as a string option, the JSON format's words ``"rubles-mod-10"`` (rubles mod 10,
    default) or ``"rubles-total"`` (total rubles); the former words ``"mod10"`` and ``"total"`` are accepted too."""
    RUBLES_MOD_10 = 0
    RUBLES_TOTAL = 1

    @property
    def word(self) -> str:
        """The value's word in the JSON format and the programs' options (``stpete_options_tie_break_name``)."""
        return _C.stpete_options_tie_break_name(self).decode()


class Pick(enum.IntEnum):
    """How :meth:`State.apply_random` turns its random number into an index of the n listed actions (stpete.h
    ``enum stpete_pick``): ``MODULO`` is ``random % n`` (:meth:`State.random_action`'s draw, the random bot's),
    ``SCALED`` is ``((random >> 32) * n) >> 32`` (the mc and ismcts bots' playouts)."""
    MODULO = 0
    SCALED = 1


class Edition(enum.IntEnum):
    """The edition whose cards a game uses (stpete.h ``enum stpete_edition``; :attr:`Game.edition` is 1 or 2)."""
    FIRST = 1   #: the first edition (2004), the default
    SECOND = 2  #: the second-edition preset (2014, §11)


_CARD_NAMES = {}
_CARD_INFO = {}


def _card_enum(value):
    """A card type as its enum: :class:`Card`, or :class:`NewSocietyCard` for the New Society's 49..61 (§12.2.3)."""
    return Card(value) if value < _ffi.NUM_CARD_TYPES else NewSocietyCard(value)


class CardInfo:
    """A row of the §2 tables: name, colour, trading (bool), cost (R), rubles and vp (income at its colour's
    scoring), copies, ware (the worker type of its ware, or None), special (:class:`Special`), stack
    (:class:`Stack`)."""
    __slots__ = ("card", "name", "colour", "trading", "cost", "rubles", "vp", "copies", "ware", "special", "_stack")

    def __init__(self, card, s):
        self.card = card
        self.name = s.name.decode()
        self.colour = Colour(s.colour)
        self.trading = bool(s.trading)
        self.cost, self.rubles, self.vp, self.copies = s.cost, s.rubles, s.vp, s.copies
        self.ware = _card_enum(s.ware) if s.ware >= 0 else None
        self.special = Special(s.special)
        self._stack = Stack(s.stack)

    @property
    def stack(self) -> "Stack":
        """The stack the card is dealt from (the colour of its back, §1, §2, §9): the library's card table
        (``stpete_card_info.stack``)."""
        return self._stack

    def __repr__(self):
        return (f"CardInfo({self.name!r}, colour={self.colour.name}, trading={self.trading}, cost={self.cost}, "
                f"rubles={self.rubles}, vp={self.vp}, copies={self.copies})")


def _card_info(edition, card):
    """The C card table's row of ``card`` in ``edition`` (stpete_card_get_info(), §2, §11), a CardInfoStruct."""
    out = _ffi.new(_ffi.CardInfoStruct)
    _C.stpete_card_get_info(edition, card, byref(out))
    return out


for _card in Card:
    _CARD_INFO[_card] = CardInfo(_card, _card_info(_ffi.EDITION_FIRST, _card))
    _CARD_NAMES[_card] = _CARD_INFO[_card].name


def version() -> str:
    """Run-time library version string, e.g. ``"0.3.0"``."""
    return _C.stpete_version().decode()


def library_path() -> str:
    """Path of the loaded shared library."""
    return _lib._name


# ---- actions ---------------------------------------------------------------------------------------------

class _Id:
    """What :class:`Action` and :class:`ChanceOutcome` share: an immutable value, one object per id, that pickles and
    copies as its id, converts to it (``int()``, use as an index), compares and hashes by it within its class, and
    prints as the library's string (``_text``)."""
    __slots__ = ()

    def __reduce__(self):
        return (type(self), (self.id,))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __int__(self):
        return self.id

    __index__ = __int__

    def __eq__(self, other):
        if isinstance(other, type(self)):
            return self.id == other.id
        return NotImplemented

    def __hash__(self):
        return hash(self.id)

    def __str__(self):
        return self._text

    def __repr__(self):
        return f"{type(self).__name__}({self.id}, {self._text!r})"


class Action(_Id):
    """One action id with its structured form and readable string. Immutable; ``int(action)`` and use as an index
    give the id; ``str(action)`` is the canonical string, e.g. ``buy Wharf from upper displacing Ship Builder``.
    Get one with :meth:`Action.from_id`, :meth:`Action.parse` or :meth:`State.legal_actions`. There is one object
    per id: pickling, ``copy.copy`` and ``copy.deepcopy`` give that object back."""
    __slots__ = ("id", "kind", "source", "card", "displaced", "stack", "amount", "_text")

    def __new__(cls, action):
        return cls.from_id(action) if not isinstance(action, str) else cls.parse(action)

    @classmethod
    def from_id(cls, action_id: int) -> "Action":
        """The action with this id: a base game's in [0, :data:`NUM_DISTINCT_ACTIONS`) = [0, 972), or the New
        Society's in [1277, 2188) (stpete.h, §12; a game's own count is :attr:`Game.num_distinct_actions`). Raises
        :class:`InvalidArgumentError` for any other id (stpete_action_decode()), ``TypeError`` for anything but an
        integer."""
        if type(action_id) is int and 0 <= action_id < _ffi.NUM_DISTINCT_ACTIONS:
            return _ACTIONS[action_id]
        if type(action_id) is int and _ffi.NS_ACTION_FIRST <= action_id < _ffi.NUM_DISTINCT_ACTIONS_NEW_SOCIETY:
            return _NS_ACTIONS[action_id - _ffi.NS_ACTION_FIRST]  # the New Society's (§12)
        if isinstance(action_id, Action):
            return action_id
        _not_an_enum(action_id, "Action.from_id")
        _C.stpete_action_decode(action_id, byref(_ffi.ActionStruct()))  # the library's checks: type and range
        return _move(operator.index(action_id))

    @classmethod
    def _decode(cls, action_id):
        s = _ffi.ActionStruct()
        _C.stpete_action_decode(action_id, byref(s))
        buf = create_string_buffer(_ffi.ACTION_STRING_MAX)
        _C.stpete_action_to_string(_ffi.EDITION_FIRST, action_id, buf, len(buf))
        self = object.__new__(cls)
        self.id = action_id
        self.kind = ActionKind(s.kind)
        self.source = Source(s.source) if s.source >= 0 else None
        self.card = _card_enum(s.card) if s.card >= 0 else None
        self.displaced = _card_enum(s.displaced) if s.displaced >= 0 else None
        self.stack = Stack(s.stack) if s.stack >= 0 else None
        self.amount = s.amount if s.amount >= 0 else None
        self._text = buf.value.decode()
        return self

    @classmethod
    def parse(cls, text):
        """The action written ``text`` (case-insensitive; card names of either edition, §11). Raises
        :class:`ParseError` (also for a chance outcome's string: :meth:`ChanceOutcome.parse` reads those); a string
        with a NUL character is refused (:class:`InvalidArgumentError`)."""
        out = c_int()
        _C.stpete_action_from_string(text, byref(out))
        if _is_chance_id(out.value):
            raise ParseError(f"{text!r} is a chance outcome, not an action (ChanceOutcome.parse reads it)",
                             status=ParseError.status, function="Action.parse")
        return cls.from_id(out.value)

    def __setattr__(self, name, value):
        if hasattr(self, "_text"):
            raise AttributeError("Action is immutable")
        object.__setattr__(self, name, value)


def _is_chance_id(value):
    """Whether an id the library returned is a chance outcome's (stpete.h: [972, 1277) and [2188, 2826))."""
    return _ffi.CHANCE_CARD_FIRST <= value < _ffi.NS_ACTION_FIRST or value >= _ffi.NS_CHANCE_CARD_FIRST


_ACTIONS = [Action._decode(i) for i in range(_ffi.NUM_DISTINCT_ACTIONS)]  # one object per id, made once (~2 ms)
#: The New Society's action ids [1277, 2188) (stpete.h, §12).
_NS_ACTIONS = [Action._decode(i) for i in range(_ffi.NS_ACTION_FIRST, _ffi.NUM_DISTINCT_ACTIONS_NEW_SOCIETY)]


class ChanceOutcome(_Id):
    """The outcome of a random event at a chance node of an explicit-chance game (:class:`ChanceMode` EXPLICIT;
    stpete.h group "Search and learning"). Chance outcome ids follow the action ids: ``id`` is in [972, 1277)
    (:data:`CHANCE_CARD_FIRST` .. ``CHANCE_CARD_FIRST + NUM_CHANCE_OUTCOMES``), and with the New Society (§12) also
    in [2188, 2826) (its 13 card types, then the five-player marker deals). ``outcome`` is ``id - 972``: for the base
    game's ids OpenSpiel's outcome index in [0, 305) (``MaxChanceOutcomes``; :mod:`stpete.openspiel` numbers the New
    Society's 305 + ``id`` − 2188). Either ``card``
    is set: a card of this type is dealt (§4.5) or drawn by an Observatory (§7.1); or ``markers``: the seats that
    receive the start-player markers of the worker, building, aristocrat and trading phases (§3.3).
    ``str(outcome)`` is the library's string ("chance Market", "chance markers 0 1 0 1"), which
    :meth:`State.apply` and :meth:`ChanceOutcome.parse` read. Immutable, one object per id (like :class:`Action`);
    ``int(outcome)`` and use as an index give the id."""
    __slots__ = ("id", "outcome", "card", "markers", "_text")
    id: int
    outcome: int
    card: Optional["Card"]
    markers: Optional[Tuple[int, int, int, int]]

    def __new__(cls, outcome):
        return cls.from_id(outcome) if not isinstance(outcome, str) else cls.parse(outcome)

    @classmethod
    def from_id(cls, outcome_id: int) -> "ChanceOutcome":
        """The chance outcome with this id, in [972, 1277), or [2188, 2826) with the New Society (§12; not OpenSpiel's
        index: :meth:`from_outcome`). Raises :class:`InvalidArgumentError` outside those ranges, ``TypeError`` for
        anything but an integer."""
        if isinstance(outcome_id, ChanceOutcome):
            return outcome_id
        _not_an_enum(outcome_id, "ChanceOutcome.from_id")
        value = _ffi.convert(c_int, outcome_id, "id", "ChanceOutcome.from_id")
        if _ffi.NS_CHANCE_CARD_FIRST <= value < _ffi.NS_ID_END:  # the New Society's (§12)
            return _move(value)
        if not _ffi.CHANCE_CARD_FIRST <= value < _ffi.CHANCE_CARD_FIRST + _ffi.NUM_CHANCE_OUTCOMES:
            raise InvalidArgumentError(f"ChanceOutcome.from_id({value}): a chance outcome id is in "
                                       f"[{_ffi.CHANCE_CARD_FIRST}, "
                                       f"{_ffi.CHANCE_CARD_FIRST + _ffi.NUM_CHANCE_OUTCOMES})",
                                       function="ChanceOutcome.from_id")
        return _OUTCOMES[value - _ffi.CHANCE_CARD_FIRST]

    @classmethod
    def from_outcome(cls, index: int) -> "ChanceOutcome":
        """The base game's chance outcome with OpenSpiel's index ``index`` in [0, 305) (= id - 972; the New
        Society's are read by :meth:`from_id`)."""
        value = _ffi.convert(c_int, index, "index", "ChanceOutcome.from_outcome")
        if not 0 <= value < _ffi.NUM_CHANCE_OUTCOMES:
            raise InvalidArgumentError(f"ChanceOutcome.from_outcome({value}): an outcome index is in "
                                       f"[0, {_ffi.NUM_CHANCE_OUTCOMES})",
                                       function="ChanceOutcome.from_outcome")
        return _OUTCOMES[value]

    @classmethod
    def parse(cls, text):
        """The chance outcome written ``text`` (case-insensitive), e.g. ``"chance Market"``. Raises
        :class:`ParseError`, also for an action's string."""
        out = c_int()
        _C.stpete_action_from_string(text, byref(out))
        if not _is_chance_id(out.value):
            raise ParseError(f"{text!r} is an action, not a chance outcome (Action.parse reads it)",
                             status=ParseError.status, function="ChanceOutcome.parse")
        return _move(out.value)

    @classmethod
    def _make(cls, outcome_id):
        buf = create_string_buffer(_ffi.ACTION_STRING_MAX)
        _C.stpete_action_to_string(_ffi.EDITION_FIRST, outcome_id, buf, len(buf))
        self = object.__new__(cls)
        object.__setattr__(self, "id", outcome_id)
        object.__setattr__(self, "outcome", outcome_id - _ffi.CHANCE_CARD_FIRST)
        if outcome_id >= _ffi.NS_CHANCE_MARKERS_FIRST:  # 5 players (§12.3): base 5
            code = outcome_id - _ffi.NS_CHANCE_MARKERS_FIRST
            card, markers = None, (code % 5, code // 5 % 5, code // 25 % 5, code // 125)
        elif outcome_id >= _ffi.NS_CHANCE_CARD_FIRST:
            card, markers = _card_enum(outcome_id - _ffi.NS_CHANCE_CARD_FIRST + _ffi.NUM_CARD_TYPES), None
        elif outcome_id < _ffi.CHANCE_MARKERS_FIRST:
            card, markers = Card(outcome_id - _ffi.CHANCE_CARD_FIRST), None
        else:
            code = outcome_id - _ffi.CHANCE_MARKERS_FIRST
            card, markers = None, (code % 4, code // 4 % 4, code // 16 % 4, code // 64)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "markers", markers)
        object.__setattr__(self, "_text", buf.value.decode())
        return self

    def __setattr__(self, name, value):
        raise AttributeError("ChanceOutcome is immutable")


_OUTCOMES = [ChanceOutcome._make(_ffi.CHANCE_CARD_FIRST + k) for k in range(_ffi.NUM_CHANCE_OUTCOMES)]
_NS_OUTCOMES: Dict[int, "ChanceOutcome"] = {}  # the New Society's chance outcomes (§12), made when first met


def _move(move_id):
    """The :class:`Action` or :class:`ChanceOutcome` of an id the library returned."""
    if move_id < _ffi.NUM_DISTINCT_ACTIONS:
        return _ACTIONS[move_id]
    if move_id < _ffi.NS_ACTION_FIRST:
        return _OUTCOMES[move_id - _ffi.CHANCE_CARD_FIRST]
    if move_id < _ffi.NUM_DISTINCT_ACTIONS_NEW_SOCIETY:
        return _NS_ACTIONS[move_id - _ffi.NS_ACTION_FIRST]
    outcome = _NS_OUTCOMES.get(move_id)
    if outcome is None:
        outcome = _NS_OUTCOMES.setdefault(move_id, ChanceOutcome._make(move_id))
    return outcome


def _not_an_enum(value, function):
    """``TypeError`` for a member of an enum (an ``IntEnum`` such as :class:`Phase` or :class:`Card` converts to an
    int, but its value is no action or outcome id)."""
    if isinstance(value, enum.Enum):
        raise TypeError(f"{function}(): {type(value).__name__}.{value.name} is not an action id: give an Action, a "
                        f"ChanceOutcome, an int id or an action string")


def _action_id(action):
    """An action id from an Action or a string (parsed, as stpete_state_apply_string() does); anything else is
    passed on to the checked conversion of the C call that takes it (an int id: ``TypeError`` for other types, the
    C status out of range). A member of an enum (``Phase.TRADING``, ``Card.MARKET``: ints of another kind) is
    ``TypeError``."""
    if type(action) is int:
        return action
    if isinstance(action, (Action, ChanceOutcome)):
        return action.id
    if isinstance(action, str):
        out = c_int()
        _C.stpete_action_from_string(action, byref(out))  # an action or a chance outcome (explicit-chance mode)
        return out.value
    _not_an_enum(action, "action")
    return action


# ---- events and scores -----------------------------------------------------------------------------------


def _event_text(state_handle, s):
    buf = create_string_buffer(_ffi.EVENT_STRING_MAX)
    _C.stpete_event_to_string(byref(s), state_handle, buf, len(buf))
    return buf.value.decode("utf-8", "replace")


class Event:
    """One event reported while an action is applied (stpete.h ``stpete_event``): ``kind`` (:class:`EventKind`)
    and the fields that kind fills (seat, card, displaced, source, stack, price, rubles, vp, amount, phase, round);
    unused fields are None. ``str(event)`` (and ``text``) is the library's log line (stpete_event_to_string(), the
    words of stpete-selfplay's log): for an event given to an event callback, written during the callback with
    what the state knows then (rubles left after a purchase, totals after a scoring, the final-scoring breakdown)
    and the card names of the game's edition (§11); for an event from the queue, from the event's own fields
    (first-edition names)."""
    __slots__ = ("kind", "seat", "card", "displaced", "source", "stack", "price", "rubles", "vp", "amount",
                 "phase", "round", "text")

    def __init__(self, s, state_handle=None):
        self.kind = EventKind(s.kind)
        self.seat = s.seat if s.seat >= 0 else None
        self.card = _card_enum(s.card) if s.card >= 0 else None
        self.displaced = _card_enum(s.displaced) if s.displaced >= 0 else None
        self.source = Source(s.source) if s.source >= 0 else None
        self.stack = Stack(s.stack) if s.stack >= 0 else None
        self.phase = Phase(s.phase) if s.phase >= 0 else None
        for name in ("price", "rubles", "vp", "amount", "round"):
            value = getattr(s, name)
            # vp may be negative after final scoring, rubles at a scoring (a Sycophant's -1 R, §12.7.9); amount is
            # a winner mask for GAME_OVER
            setattr(self, name, value if value >= 0 or (name == "vp" and self.kind == EventKind.FINAL_SCORING) or
                    (name == "rubles" and self.kind == EventKind.SCORING) else None)
        self.text = _event_text(state_handle, s)

    def as_dict(self) -> Dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__ if name != "text"}

    def __str__(self):
        return self.text

    def __repr__(self):
        fields = ", ".join(f"{k}={v!s}" for k, v in self.as_dict().items() if v is not None and k != "kind")
        return f"Event({self.kind.name}{', ' if fields else ''}{fields})"


class Score:
    """Final scoring of one seat (§8, R13): vp_before, aristocrat_kinds, aristocrat_bonus, rubles, rubles_bonus,
    hand_cards, hand_penalty, total, tie_break."""
    __slots__ = ("seat",) + tuple(name for name, _ in _ffi.ScoreStruct._fields_[1:])  # not struct_size

    def __init__(self, seat, s):
        self.seat = seat
        for name in self.__slots__[1:]:
            setattr(self, name, getattr(s, name))

    def __eq__(self, other):
        return isinstance(other, Score) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def __repr__(self):
        return "Score(" + ", ".join(f"{k}={getattr(self, k)}" for k in self.__slots__) + ")"


class Offer(NamedTuple):
    """One card a seat could buy or play, in one way, and its price (:meth:`State.offers`,
    ``stpete_state_offers``)."""
    action: int  #: the action id that buys or plays it so (legal or not now)
    source: "Source"  #: where the card is
    card: "Union[Card, NewSocietyCard]"
    displaced: "Optional[Union[Card, NewSocietyCard]]"  #: for a trading card the card it displaces (§6.2), else None
    price: int  #: rubles (§5, §5.2)


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


def _with_error(fn, *args):
    """Call a C function whose last argument is a ``stpete_error`` (constructors, JSON readers): a failure raises
    its exception class with the library's reason (and line, column, position for a JSON syntax error; the ERROR
    check of _ffi)."""
    return fn(*args, _ffi.new(_ffi.ErrorStruct))


def _action_array(actions: Iterable[ActionLike], fn: str) -> Tuple[Any, int]:
    """The C array of ``actions`` (Actions, ids or strings) as action ids and its length, for ``fn``'s record of
    them; each id checked to fit a C int (InvalidArgumentError names ``fn`` and the index)."""
    ids = [_action_id(a) for a in actions]
    array = (c_int * max(1, len(ids)))()
    for i, action in enumerate(ids):
        array[i] = _ffi.convert(c_int, action, f"actions[{i}]", fn)
    return array, len(ids)


def replay_to_json(game: "Game", seed: int, actions: Iterable[ActionLike]) -> str:
    """A replay record (options, ``seed``, the actions with their strings, the result), every action checked by
    replaying it from the initial position of ``seed`` (an int in [0, 2**64)). ``actions``: Actions, ids or
    strings. Raises :class:`IllegalActionError` if one is not legal where it is applied; ``TypeError`` for a
    ``game`` that is not a :class:`Game` or an action of another type."""
    if not isinstance(game, Game):
        raise TypeError(f"replay_to_json(game, seed, actions): game must be a stpete.Game, not {type(game).__name__}")
    array, count = _action_array(actions, "replay_to_json")
    with game._lock:
        return _write_json(_C.stpete_replay_to_json, game.handle, seed, array, count)


def replay_from_json(text: Union[str, bytes]) -> Tuple["Game", List[int]]:
    """Read and verify a replay record: ``(game, [action ids])``; ``game.new_state()`` is its initial position.
    Raises :class:`ParseError`, :class:`UnsupportedVersionError`, :class:`InconsistentError` (an illegal action,
    a string naming another action, a recorded result that differs) or :class:`TooLargeError` (over
    STPETE_JSON_REPLAY_MAX bytes or more actions than the longest game, refused before parsing)."""
    data = _json_bytes(text)
    n = c_size_t()
    ptr = _ffi.GamePtr()
    try:
        _with_error(_C.stpete_replay_from_json, data, len(data), None, byref(ptr), None, 0, byref(n))
    except BufferTooSmallError:
        pass  # n is the number of actions
    else:
        if ptr:  # an empty record: the game was created
            return Game._adopt(ptr), []
    actions = (c_int * max(1, n.value))()
    _with_error(_C.stpete_replay_from_json, data, len(data), None, byref(ptr), actions, len(actions), byref(n))
    return Game._adopt(ptr), actions[:n.value]


# ---- results files -----------------------------------------------------------------------------------------

def _definition_text(definition):
    """A definition as JSON text: a mapping is written compact with sorted keys, a str or bytes passed as is."""
    if isinstance(definition, (str, bytes, bytearray)):
        return bytes(definition, "utf-8") if isinstance(definition, str) else bytes(definition)
    return json.dumps(definition, sort_keys=True, separators=(",", ":")).encode("utf-8")


def results_hash(definition: Union[str, bytes, Mapping[str, Any]]) -> str:
    """The hash that names a run's ``definition`` in its results file (doc/format.md, "Results files"): 16 hex
    digits, FNV-1a of the definition's canonical JSON (stpete_results_hash()), the same whatever the key order.
    ``definition``: a JSON object (text, or a mapping of JSON values). Raises :class:`ParseError` for text that is
    not a JSON object."""
    return _write_json(_C.stpete_results_hash, _definition_text(definition))


def results_header(program: str, definition: Union[str, bytes, Mapping[str, Any]]) -> str:
    """The header line of a results file (no newline) of ``program`` for ``definition``
    (stpete_results_header_to_json()). Raises :class:`ParseError` for a definition that is not a JSON object."""
    return _write_json(_C.stpete_results_header_to_json, program, _definition_text(definition))


def results_game_line(game: "Game", definition: Union[str, bytes, Mapping[str, Any]], number: int, seed: int,
                      actions: Iterable[ActionLike], fields: Union[str, Mapping[str, Any]]) -> str:
    """A game line of a results file (no newline): game ``number`` (an int in [0, 2**53)) of the run
    ``definition``, played from ``seed`` with ``actions`` (its replay record, every action checked), and the
    program's ``fields`` (a JSON object: a mapping, or text on one line) (stpete_results_game_to_json()). Raises
    :class:`IllegalActionError` for an action that is not legal where it is applied, :class:`ParseError` for a
    definition or fields that are not JSON objects, :class:`InvalidArgumentError` for a number out of range."""
    if not isinstance(game, Game):
        raise TypeError(f"results_game_line(): game must be a stpete.Game, not {type(game).__name__}")
    array, count = _action_array(actions, "results_game_line")
    text = fields if isinstance(fields, str) else json.dumps(fields, separators=(",", ":"))
    with game._lock:
        return _write_json(_C.stpete_results_game_to_json, game.handle, _definition_text(definition), number, seed,
                           array, count, text)


def read_results_line(state: "State", program: str, definition: Union[str, bytes, Mapping[str, Any]],
                      line: Union[str, bytes]) -> Tuple[int, int, Optional[Dict[str, Any]]]:
    """Read and check one line of a results file of ``program`` for ``definition``
    (stpete_results_read_line()): ``(-1, 0, None)`` for its header; for a game line ``(number, seed, fields)``,
    its record replayed into ``state`` (a state of the run's game), which then holds the game's last position with
    the record's actions as its history: the result comes from ``state``, never from the line. Raises
    :class:`ParseError`, :class:`UnsupportedVersionError`, :class:`MismatchError` (another program, definition or
    game), :class:`InconsistentError` (an illegal action, a result the actions do not reach, a header whose hash
    is not its definition's) or :class:`TooLargeError`; on failure ``state`` is unchanged."""
    if not isinstance(state, State):
        raise TypeError(f"read_results_line(): state must be a stpete.State, not {type(state).__name__}")
    data = _json_bytes(line)
    number, seed = c_longlong(), c_uint64()
    size = max(256, len(data) + 1)  # the fields are shorter than their line
    fields = create_string_buffer(size)
    length = c_size_t()
    game = state.game
    with state._lock, game._lock:
        _with_error(_C.stpete_results_read_line, game.handle, program, _definition_text(definition), data, len(data),
                    state.handle, byref(number), byref(seed), fields, size, byref(length))
        if number.value >= 0:  # the game from its seed: its history is the record's actions
            state._seed, state._prefix = seed.value, ()
    if number.value < 0:
        return -1, 0, None
    return number.value, seed.value, json.loads(fields.raw[:length.value].decode("utf-8"))


# ---- games -----------------------------------------------------------------------------------------------

# The table of options (stpete.h "The table of options", issue 42): every option is the library's, reached by its
# name; this module spells none. Game(**options), Game.options, its attributes and stpete.options() are built from
# the table.

class OptionType(enum.IntEnum):
    """The type of an option's value (stpete.h ``enum stpete_option_type``): how :class:`Game` takes it."""
    BOOL = 0   #: True or False
    INT = 1    #: an int in [min, max]
    ENUM = 2   #: one of the words (or the option's enum, e.g. :class:`PubCap`)
    SEED = 3   #: an int in [0, 2**64)
    SEATS = 4  #: a seat per phase (4 ints), or None for random


class OptionCategory(enum.IntEnum):
    """What an option changes (stpete.h ``enum stpete_option_category``)."""
    RULES = 0        #: the game: players, cards, setup, rules
    INFORMATION = 1  #: what each seat sees (§9)
    PLAY = 2         #: how a program deals and drives its games: the seed and the chance mode, not a rule


class Games(enum.IntFlag):
    """The kinds of game an option applies to (stpete.h ``enum stpete_games``), a mask."""
    FIRST_EDITION = 1   #: the first edition's base game (§1-§10)
    SECOND_EDITION = 2  #: the second-edition preset (§11)
    NEW_SOCIETY = 4     #: the first edition with the New Society (§12)
    ALL = 7             #: every game


#: The kinds of game as words (the JavaScript package's and the server's).
_GAME_WORDS = ((Games.FIRST_EDITION, "first-edition"), (Games.SECOND_EDITION, "second-edition"),
               (Games.NEW_SOCIETY, "new-society"))


class Option:
    """One option of the library's table (``stpete_option_get_info()``): ``name`` (the keyword of :class:`Game`,
    the JSON format's key), ``title``, ``description`` (one line), ``rule`` (§ / R-id), ``type``
    (:class:`OptionType`), ``category`` (:class:`OptionCategory`), ``games`` (:class:`Games`, the kinds of game it
    applies to), ``min`` and ``max``, ``default`` (as the JSON format writes it: a bool, an int, a word, an int
    seed, None for random seats), ``words`` (an enum's words; a bool's ``"false"``, ``"true"``) and ``labels`` (a
    short label per value from min to max, for a form; or None)."""
    __slots__ = ("name", "title", "description", "rule", "type", "category", "games", "min", "max", "default",
                 "words", "labels")

    def __init__(self, info):
        self.name = info.name.decode()
        self.title = info.title.decode()
        self.description = info.description.decode()
        self.rule = info.rule.decode()
        self.type = OptionType(info.type)
        self.category = OptionCategory(info.category)
        self.games = Games(info.games)
        self.min, self.max = info.min, info.max
        self.words = tuple(info.words[i].decode() for i in range(info.num_words)) if info.num_words else None
        self.labels = (tuple(info.labels[i].decode() for i in range(info.max - info.min + 1)) if info.labels
                       else None)
        self.default = self.from_text(info.default_text.decode())

    def from_text(self, text: str) -> Any:
        """The value of a text as stpete_options_value() writes it, as the JSON format holds it."""
        if self.type == OptionType.BOOL:
            return text == "true"
        if self.type in (OptionType.INT, OptionType.SEED):
            return int(text)
        if self.type == OptionType.SEATS:
            return None if text == "random" else tuple(int(seat) for seat in text.split(","))
        return text

    def parse(self, text: str) -> Any:
        """A value given as text (a command line's, a form's: ``"true"``, ``"per-player"``, ``"0,1,2,3"``, ...) as
        :class:`Game` takes it: the library reads the text (stpete_options_set()) and raises
        :class:`InvalidArgumentError` with its reason when it is no value of the option: text of another type, or a
        number that is none of a boolean's or an enum's values or no seat of any game (the reason of
        stpete_options_check()). Whether an integer fits the rest of a combination (5 players, R17) is
        :func:`check_options`'s and :class:`Game`'s to say."""
        if not isinstance(text, str):
            raise TypeError(f"Option.parse(): {self.name}: text must be a str, not {type(text).__name__}")
        opts = _Options()
        try:
            opts.set(self.name, text, "Option.parse")
            try:
                written = opts.value(self.name)
            except InvalidArgumentError:  # a number that is none of its values (a boolean 7, seat 7): say why
                refused = opts.check()
                if refused is None:
                    raise
                raise error_for_status(refused[0])(f"Option.parse(): {refused[1]}", status=refused[0],
                                                   function="stpete_options_check") from None
            return self.from_text(written)
        finally:
            opts.free()

    def to_text(self, value: Any, function: str = "Game") -> str:
        """A Python value as the text stpete_options_set() reads, by the option's type: a bool; an int; an enum's
        word (case and ``_`` for ``-`` free) or its :class:`enum.IntEnum` member or number; a seed; seats (a
        sequence of 4 seats) or None. Raises TypeError for a value of the wrong type, InvalidArgumentError for an
        int that C cannot hold (the library checks the range)."""
        kind = self.type
        if kind == OptionType.BOOL:
            if not isinstance(value, bool):
                raise TypeError(f"{function}(): {self.name} must be True or False, not {type(value).__name__}")
            return "true" if value else "false"
        if kind == OptionType.SEATS:
            if value is None:
                return "random"
            if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
                raise TypeError(f"{function}(): {self.name} must be a sequence of 4 ints, not {type(value).__name__}")
            if len(value) != 4:
                raise InvalidArgumentError(f"{function}(): {self.name} must have 4 entries, not {len(value)}",
                                           function=function)
            return ",".join(str(_ffi.convert(c_int, seat, f"{self.name}[{k}]", function))
                            for k, seat in enumerate(value))
        if kind == OptionType.ENUM and isinstance(value, str):
            return value.lower().replace("_", "-")
        return str(_ffi.convert(c_uint64 if kind == OptionType.SEED else c_int, value, self.name, function))

    def as_dict(self) -> Dict[str, Any]:
        """The description as JSON-ready data (what a form is built from): the fields above, the type and category
        as lowercase words, the games as a list of ``"first-edition"``, ``"second-edition"``, ``"new-society"``."""
        return {"name": self.name, "title": self.title, "description": self.description, "rule": self.rule,
                "type": self.type.name.lower(), "category": self.category.name.lower(),
                "games": [word for kind, word in _GAME_WORDS if kind in self.games],
                "min": self.min, "max": self.max, "default": self.default,
                "words": list(self.words) if self.words else None,
                "labels": list(self.labels) if self.labels else None}

    def __repr__(self):
        return f"Option({self.name!r}, {self.type.name}, default={self.default!r}, rule={self.rule!r})"


_OPTIONS: Tuple[Option, ...] = ()


def options() -> Tuple[Option, ...]:
    """The library's table of options, in its order (the JSON format's): the keywords :class:`Game` takes, with
    their types, defaults, ranges or words, descriptions and rules (``stpete_option_count()``,
    ``stpete_option_get_info()``)."""
    global _OPTIONS
    if not _OPTIONS:
        table = []
        for i in range(_C.stpete_option_count()):
            info = _ffi.new(_ffi.OptionInfoStruct)
            _C.stpete_option_get_info(i, byref(info))
            table.append(Option(info))
        _OPTIONS = tuple(table)
    return _OPTIONS


def _option(name):
    for option in options():
        if option.name == name:
            return option
    return None


def _pascal(name):
    """``pub_cap`` -> ``PubCap``: the enum class of an enum option's values in this module, if it has one."""
    return "".join(part.capitalize() for part in name.split("_"))


def _typed(option, value):
    """A value as the JSON format holds it, as :attr:`Game.options` gives it: an enum option's word as this
    module's enum of it (:class:`PubCap`, :class:`TieBreak`, :class:`ChanceMode`) when there is one."""
    if option.type == OptionType.ENUM:
        members = globals().get(_pascal(option.name))
        if isinstance(members, type) and issubclass(members, enum.IntEnum):
            return members(option.words.index(value))
    if option.type == OptionType.SEED and isinstance(value, str):
        return int(value)
    if option.type == OptionType.SEATS and value is not None:
        return tuple(value)
    return value


class _Options:
    """An options struct of the library's own size (stpete_options_new()), set by name: whatever options this
    library has, this binding reaches them without knowing its members."""

    def __init__(self):
        self.ptr = POINTER_OPTIONS()
        _with_error(_C.stpete_options_new, byref(self.ptr))

    def set(self, name, text, function="Game"):
        """Set one option from text; InvalidArgumentError with the library's reason."""
        err = _ffi.new(_ffi.ErrorStruct)
        status = _C.stpete_options_set(self.ptr, name.encode(), text.encode(), byref(err))
        if status != 0:
            raise error_for_status(status)(f"{function}(): {err.message.decode('utf-8', 'replace')}", status=status,
                                           function="stpete_options_set")

    def value(self, name):
        """One option's value as text (stpete_options_value())."""
        buf = create_string_buffer(_ffi.OPTION_VALUE_MAX)
        length = c_size_t()
        _C.stpete_options_value(self.ptr, name.encode(), buf, len(buf), byref(length))
        return buf.value.decode()

    def check(self):
        """The library's reason for refusing the combination (stpete_options_check()), or None."""
        err = _ffi.new(_ffi.ErrorStruct)
        status = _C.stpete_options_check(self.ptr, byref(err))
        return None if status == 0 else (status, err.message.decode("utf-8", "replace"))

    def free(self):
        _C.stpete_options_free(self.ptr)
        self.ptr = None


POINTER_OPTIONS = ctypes.POINTER(_ffi.OptionsStruct)


def _options_of(values, function="Game"):
    """An :class:`_Options` with the keywords set; TypeError for an unknown keyword or a value of the wrong type,
    InvalidArgumentError with the library's reason for a value out of range. The caller frees it."""
    unknown = sorted(set(values) - {o.name for o in options()})
    if unknown:
        raise TypeError(f"unknown option(s): {', '.join(unknown)} (known: {', '.join(o.name for o in options())})")
    opts = _Options()
    try:
        for name, value in values.items():
            opts.set(name, _option(name).to_text(value, function), function)
    except BaseException:
        opts.free()
        raise
    return opts


def check_options(**values: Any) -> Optional[str]:
    """Why the library refuses a combination of options (stpete_options_set(), stpete_options_check(): the setup
    rule, e.g. 5 players only with the New Society, R17), or None when it is a game. The keywords of
    :class:`Game`; raises TypeError for an unknown keyword or a value of the wrong type."""
    try:
        opts = _options_of(values)
    except InvalidArgumentError as e:
        return str(e).partition("(): ")[2] or str(e)
    try:
        refused = opts.check()
        return refused[1] if refused else None
    finally:
        opts.free()


def _game_from_record(text):
    """Unpickle a :class:`Game`: the game of an empty replay record (every option the JSON format knows, seed
    included)."""
    return replay_from_json(text)[0]


class _Owner:
    """What :class:`Game`, :class:`State` and :class:`~stpete.Bot` share as owners of a C handle: ``close()`` (their
    own) also as a context manager and when garbage-collected."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the module may be half torn down
            pass


class Game(_Owner):
    """An immutable game configuration (players, seed, rule options), ``stpete_game``.

    ``Game(players=4, seed=1, pub_cap="per-player", tie_break="rubles-total", start_markers=(0, 1, 2, 3),
    public_rubles=True, chance_mode="explicit", edition=2)``: every option of the library's table
    (:func:`stpete.options`) is a keyword, by its name, and every keyword is optional (the spec's defaults, §3,
    §7.2, §8, §9, §11, §12). By the option's type: a bool (``public_rubles``, ``new_society``, ...); an int
    (``players``, ``edition``); an enum's word (``"per-pub"``, ``"rubles-total"``, ``"explicit"``; case and ``_``
    for ``-`` free; the 0.x words ``"mod10"`` and ``"total"`` too) or its :class:`PubCap` / :class:`TieBreak` /
    :class:`ChanceMode`; the seed an int in [0, 2**64) (a negative seed is refused, not reduced); the start
    markers 4 seats or None. Unknown keywords and values of the wrong type raise TypeError; bad values and
    combinations :class:`InvalidArgumentError` with the C library's reason (stpete_options_set(),
    stpete_options_check(), e.g. "players must be 2, 3 or 4, not 5: 5 players need the New Society (new_society,
    §12.0, R17)").

    Each option is also an attribute (``game.pub_cap``, ``game.new_society``: a base game's New Society options
    read as their defaults); :attr:`options` gives them as a dict.

    Owns its handle: ``close()``, ``with Game(...) as game:``, or garbage collection. The handle is freed only
    once every :class:`State` of the game has been closed (states keep their game alive). Thread-safe. Pickling,
    ``copy.copy`` and ``copy.deepcopy`` give a new game with the same options and seed (its own handle; carried as
    an empty replay record, so every option of the JSON format is kept).
    """

    if TYPE_CHECKING:
        def __getattr__(self, name: str) -> Any:  # the options' attributes, made from the table below the class
            ...

    def __init__(self, players: int = 4, seed: int = 0, **rule_options: Any) -> None:
        self._lock = threading.RLock()
        self._ptr = None
        self._open_states = 0
        self._closing = False
        opts = _options_of({"players": players, "seed": seed, **rule_options})
        try:
            refused = opts.check()
            if refused:
                status, reason = refused
                raise error_for_status(status)(f"Game(): {reason}", status=status, function="stpete_options_check")
            ptr = _ffi.GamePtr()
            _with_error(_C.stpete_game_new, opts.ptr, byref(ptr))
        finally:
            opts.free()
        self._ptr = ptr
        self._read_options()

    @classmethod
    def from_json(cls, text):
        """The game described by the ``"options"`` of a serialized state or replay record (JSON ``str`` or
        ``bytes``). Raises :class:`ParseError`, :class:`UnsupportedVersionError`, :class:`InconsistentError`,
        :class:`TooLargeError`."""
        data = _json_bytes(text)
        ptr = _ffi.GamePtr()
        _with_error(_C.stpete_game_from_json, data, len(data), None, byref(ptr))
        return cls._adopt(ptr)

    @classmethod
    def _adopt(cls, ptr):
        self = object.__new__(cls)
        self._lock = threading.RLock()
        self._ptr = ptr
        self._open_states = 0
        self._closing = False
        self._read_options()
        return self

    def _read_options(self):
        """The options as the JSON format writes them (an empty replay record's "options": the keys of the game's
        format version, so a base game's are those of 1.0), typed by the table."""
        self._edition = _C.stpete_game_edition(self._ptr)
        record = _write_json(_C.stpete_replay_to_json, self._ptr, 0, (c_int * 1)(), 0)
        written = json.loads(record)["options"]
        self._options = {name: _typed(_option(name), value) for name, value in written.items()}
        opts = _Options()  # the seed, which a replay record has as its own
        try:
            _C.stpete_game_get_options(self._ptr, opts.ptr)
            self._seed = int(opts.value("seed"))
        finally:
            opts.free()
        self._players = _C.stpete_game_num_players(self._ptr)
        self._options.update(players=self._players, seed=self._seed)

    @property
    def handle(self):
        """The ``stpete_game *`` (ctypes pointer). Raises :class:`ClosedError` after close()."""
        if self._ptr is None or self._closing:
            raise ClosedError("the game is closed")
        return self._ptr

    players = property(lambda self: self._players,
                       doc="Number of players (seats): 2..4, or 2..5 (:data:`MAX_PLAYERS`) with the New Society "
                           "(§12.0, R17; stpete_game_num_players()).")
    seed = property(lambda self: self._seed, doc="The seed of new states (§3.1).")
    edition = property(lambda self: self._edition,
                       doc="1 (the first edition, 2004) or 2 (the second-edition preset, 2014, §11).")

    @property
    def options(self) -> Dict[str, Any]:
        """The options as a dict, for ``Game(**game.options)``: those the JSON format writes for this game (a base
        game's without the New Society's), by name, typed by the table (enums as :class:`PubCap` ...)."""
        return dict(self._options)

    @property
    def max_game_length(self) -> int:
        """An upper bound on the number of actions of any game of these options (stpete_game_max_length(),
        doc/format.md "The longest game"); longer replay records are refused (:class:`TooLargeError`)."""
        with self._lock:
            return _C.stpete_game_max_length(self.handle)

    @property
    def num_distinct_actions(self) -> int:
        """Number of player action ids of this game: 972 (:data:`NUM_DISTINCT_ACTIONS`, stpete.h), 2188 with the
        New Society (§12; stpete_game_num_distinct_actions()); the length of :meth:`State.legal_action_mask`."""
        with self._lock:
            return _C.stpete_game_num_distinct_actions(self.handle)

    @property
    def num_card_types(self) -> int:
        """Number of card types of this game: 49 (:data:`NUM_CARD_TYPES`, §2), 62 with the New Society (§12.2.3;
        stpete_game_num_card_types()). Its card types are the ints in [0, num_card_types): :class:`Card`, then
        :class:`NewSocietyCard`."""
        with self._lock:
            return _C.stpete_game_num_card_types(self.handle)

    @property
    def observation_tensor_size(self) -> int:
        """Number of floats of :meth:`State.observation_tensor` (668 for every player count, 972 with the New Society;
        stpete_game_observation_tensor_size(), layout in doc/observation.md)."""
        with self._lock:
            return _C.stpete_game_observation_tensor_size(self.handle)

    def card_name(self, card: int) -> str:
        """The name of a card type in this game's edition (§2, §11; e.g. ``"Abbot"`` for :attr:`Card.JUDGE` in
        the second edition). ``str(card)`` is the first edition's. Raises :class:`InvalidArgumentError` for a card
        outside [0, :attr:`num_card_types`) (:meth:`card_info`)."""
        return self.card_info(card).name

    def card_text(self, card: int) -> str:
        """What a card type does in this game, in words, with its rule (stpete_game_card_text(): the cards a trading
        card may displace, §6.2, and its special ability, §7, §11, §12.7, as the game's edition and options play
        them); "" for a card that only scores its income. Raises :class:`InvalidArgumentError` for a card out of
        range."""
        return _write_json(_C.stpete_game_card_text, self.handle, card)

    def card_info(self, card: int) -> CardInfo:
        """A card type as this game's edition prints it (:class:`CardInfo`; §2, §11: the second edition's costs
        and names; stpete_card_get_info() with :attr:`edition`). ``Card.info`` is the first edition's. Raises
        :class:`InvalidArgumentError` for a card outside [0, :attr:`num_card_types`)."""
        out = _ffi.new(_ffi.CardInfoStruct)  # the game's own table: its edition's (§11), the New Society's (§12.2)
        with self._lock:
            _C.stpete_game_get_card_info(self.handle, card, byref(out))  # checks card first
        return CardInfo(_card_enum(card), out)

    def action_string(self, action: ActionLike) -> str:
        """The readable form of an action or chance outcome (an :class:`Action`, :class:`ChanceOutcome` or id) with
        the card names of this game's edition (stpete_action_to_string() with :attr:`edition`; ``str(action)`` uses
        the first edition's). :meth:`State.apply` and :meth:`Action.parse` read both editions' names."""
        buf = create_string_buffer(_ffi.ACTION_STRING_MAX)
        _C.stpete_action_to_string(self._edition, _action_id(action), buf, len(buf))
        return buf.value.decode()

    def new_state(self, seed: Optional[int] = None) -> "State":
        """A new :class:`State` at the start of the game (§3 setup), from the game's seed or ``seed``."""
        return State(self, seed)

    def _attach(self, create, closing_ok=False):
        """``create(game handle)`` -> a new state handle, made and counted while the game is locked (so that no
        close() of another thread frees the game in between). ``closing_ok``: also after close() while states are
        open (a clone of one of them)."""
        with self._lock:
            ptr = create(self._ptr if closing_ok and self._ptr is not None else self.handle)
            self._open_states += 1
            return ptr

    def close(self) -> None:
        """Release the handle (idempotent). With open states, it is released when the last one closes."""
        lock = getattr(self, "_lock", None)
        if lock is None:  # __init__ did not get that far
            return
        with lock:
            self._closing = True
            if self._ptr is not None and self._open_states == 0:
                ptr, self._ptr = self._ptr, None
                _C.stpete_game_free(ptr)

    def _state_closed(self):
        with self._lock:
            self._open_states -= 1
            if self._closing and self._open_states == 0:
                self.close()

    def __reduce__(self):
        # an empty replay record carries every option of the JSON format, also those this class does not read
        with self._lock:
            if self._ptr is None:
                raise ClosedError("the game is closed")
            record = _write_json(_C.stpete_replay_to_json, self._ptr, self._seed, (c_int * 1)(), 0)
        return (_game_from_record, (record,))

    def __repr__(self):
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"Game({opts}{', closed' if self._ptr is None or self._closing else ''})"


# ---- states ----------------------------------------------------------------------------------------------



def _option_property(option):
    """The attribute of an option (the table's): its value in this game, or its default where the game's JSON format
    has no key for it (a base game's New Society options)."""
    return property(lambda self: self._options.get(option.name, _typed(option, option.default)),
                     doc=f"{option.title}: {option.description} ({option.rule}).")


for _option_row in options():
    if _option_row.name not in Game.__dict__:  # players, seed, edition: the properties above
        setattr(Game, _option_row.name, _option_property(_option_row))

class Seat:
    """A live, read-only view of one seat of a :class:`State` (``state.seats[i]``): rubles, vp, hand, display,
    hand_limit, observatories_used, prison_used, markers (the phases whose start-player marker it holds),
    gold_disc, score."""
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
    prison_used = property(lambda self: self._state.prison_used(self.seat),
                           doc="Its Debtor's Prison is used this round (§12.7.5, R21, R22; "
                               ":meth:`State.prison_used`).")
    gold_disc = property(lambda self: self._state.gold_disc_holder == self.seat,
                         doc="It holds the gold disc (5 players, §12.3, R18; :attr:`State.gold_disc_holder`).")
    score = property(lambda self: self._state.score(self.seat), doc="Final score breakdown (§8).")

    @property
    def markers(self):
        """The phases whose start-player marker this seat holds (§3.3)."""
        return tuple(Phase(p) for p, holder in enumerate(self._state.marker_holders) if holder == self.seat)

    def __repr__(self):
        with self._state._lock:
            return f"<stpete.Seat {self.seat}: {self.rubles} R, {self.vp} VP, {len(self.hand)} hand cards>"


def _acquire_pair(a, b):
    """Take the locks of two states in a fixed order (by id), so that two threads locking the same pair never wait
    for each other; returns them for :func:`_release_pair`."""
    first, second = (a._lock, b._lock) if id(a) <= id(b) else (b._lock, a._lock)
    first.acquire()
    try:
        second.acquire()
    except BaseException:
        first.release()
        raise
    return first, second


def _release_pair(locks):
    locks[1].release()
    locks[0].release()


def _acquire_all(locks):
    """Take several locks (re-entrant ones, duplicates allowed) without ever waiting for one while holding another
    that the thread holding it may wait for: the first in the list blocking, the others only if free; when one is
    busy, everything is released and that one is waited for first. So no two threads deadlock over the locks they
    ask for here, whatever order each asks in. Locks a thread already holds are not released: inside an event
    callback (its state's lock held), a bot or state whose holder waits for that state still deadlocks, as two
    callbacks waiting for each other's state do (README, "Threads"). Returns the locks taken, for
    :func:`_release_all`."""
    order = list(dict.fromkeys(locks))  # distinct, in the order asked
    while True:
        taken = []
        try:
            order[0].acquire()
            taken.append(order[0])
            for lock in order[1:]:
                if not lock.acquire(blocking=False):
                    order.remove(lock)
                    order.insert(0, lock)  # wait for the busy one first, next round
                    break
                taken.append(lock)
            else:
                return taken
        except BaseException:
            _release_all(taken)
            raise
        _release_all(taken)


def _release_all(locks):
    for lock in reversed(locks):
        lock.release()


def _state_from_pickle(game, text, seed, history):
    """Unpickle a :class:`State`: its position (JSON), the seed of its start and its history."""
    state = State.from_json(text, game)
    state._seed = seed
    state._prefix = None if history is None else tuple(history)
    return state


_apply = _C.stpete_state_apply
_legal = _C.stpete_state_legal_actions


class State(_Owner):
    """A position of a game (``stpete_state``): legal actions, apply, queries, events.

    ``State(game, seed=None)`` or ``game.new_state()``. Owns its handle (``close()``, context manager, garbage
    collection) and keeps its :class:`Game` alive. A failing call raises a :class:`StPeteError` subclass carrying
    the C message and leaves the state unchanged.

    Threads: every C call on a state holds the state's lock (a re-entrant lock), and so do the methods that make
    several calls (``str()``, ``scores``, ``to_json()`` ...), which therefore see one position. A second thread
    using the same state waits; it never corrupts it. The event callback runs in the thread that applied the
    action, with the lock held: it may query the state (and use other states), but not modify it
    (:class:`ReentrantError`). ``close()`` takes the lock too: from another thread it waits until the running call
    returns; from inside the state's own callback it is deferred (the state counts as closed at once, no further
    event reaches the callback, and the handle is freed when the call that reported the event returns).
    ``handle`` bypasses all this: raw C calls on it are the caller's affair.

    Pickling and ``copy.deepcopy`` carry the position, the seed of its start and its history (so
    :meth:`replay_to_json` still works), with a game of the same options; ``copy.copy`` is :meth:`clone` (same
    :class:`Game`). The event callback and the event queue are not carried (as by :meth:`clone`).
    """

    def __init__(self, game: Game, seed: Optional[int] = None) -> None:
        if not isinstance(game, Game):
            raise TypeError("State(game): game must be a stpete.Game")

        def create(game_handle):
            ptr = _ffi.StatePtr()
            _with_error(_C.stpete_state_new, game_handle, byref(ptr))
            return ptr

        self._init(game, game._attach(create))
        self._seed = game.seed
        self._prefix = ()
        if seed is not None:
            self.reset(seed)

    def _init(self, game, ptr):
        self._lock = threading.RLock()
        self._game = game
        self._ptr = ptr
        self._busy = 0                # C calls of this state under way that may report events (in this thread)
        self._close_requested = False  # close() from inside one of them: freed when it returns
        self._ids = (c_int * _ffi.MAX_LEGAL_ACTIONS_NEW_SOCIETY)()
        self._count = c_size_t()
        self._cards = (c_int * _ffi.NUM_CARDS_NEW_SOCIETY)()
        self._callback = None       # the Python function
        self._c_callback = None     # its ctypes thunk, kept alive while C holds it
        self._pending = None        # an exception raised by the callback, re-raised after the C call
        self._queue_limit = None    # the event queue's bound while it is on (enable_event_queue)
        self._dropped_events = 0    # events dropped from the queue's front to keep that bound
        self._seed = None           # the seed of the game's start, when known
        self._prefix = None         # the action ids from then to where the C history begins, when known

    @classmethod
    def _adopt(cls, game, ptr):
        self = object.__new__(cls)
        self._init(game, ptr)
        return self

    # -- life cycle --

    @property
    def handle(self):
        """The ``stpete_state *`` (ctypes pointer). Raises :class:`ClosedError` after close()."""
        ptr = self._ptr
        if ptr is None or self._close_requested:
            raise ClosedError("the state is closed")
        return ptr

    @property
    def game(self) -> Game:
        """The :class:`Game` of this state."""
        return self._game

    @property
    def players(self) -> int:
        """Number of players."""
        return self._game._players

    def close(self) -> None:
        """Free the handle (idempotent). From another thread, waits until a call on this state returns. From
        inside this state's own event callback, deferred: the state is closed at once for every later call
        (:class:`ClosedError`) and for the callback (no further event), and the handle is freed when the call
        that reported the event (apply, reset) returns; that call still completes its step."""
        lock = getattr(self, "_lock", None)
        if lock is None:  # __init__ did not get that far
            return
        with lock:
            if self._ptr is None or self._close_requested:
                return
            if self._busy:
                self._close_requested = True
                return
            self._free()

    def _free(self):
        ptr, self._ptr = self._ptr, None
        self._close_requested = False
        _C.stpete_state_free(ptr)
        self._callback = self._c_callback = None
        self._game._state_closed()

    def clone(self) -> "State":
        """An independent copy (a new owning State of the same game; the event callback is not copied)."""
        with self._lock:
            src = self.handle

            def create(_game_handle):
                ptr = _ffi.StatePtr()
                _with_error(_C.stpete_state_clone, src, byref(ptr))
                return ptr

            clone = State._adopt(self._game, self._game._attach(create, closing_ok=True))
            clone._seed = self._seed
            clone._prefix = self._prefix  # and C copies its history
            return clone

    def copy_from(self, other: "State") -> None:
        """Copy ``other``'s position into this state without allocating (same rule options, else
        :class:`MismatchError`). The event callback of this state is kept."""
        if not isinstance(other, State):
            raise TypeError(f"copy_from(other): other must be a stpete.State, not {type(other).__name__}")
        locks = _acquire_pair(self, other)
        try:
            self._call((other._seed, other.history), _C.stpete_state_copy, other.handle)
        finally:
            _release_pair(locks)

    def reset(self, seed: int) -> None:
        """Restart as a new game with ``seed`` (an int in [0, 2**64), §3 setup), in place; reports events to the
        callback."""
        self._call((seed, ()), _C.stpete_state_reset, seed)

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        locks = _acquire_pair(self, other)
        try:
            equal = c_int()
            _C.stpete_state_equal(self.handle, other.handle, byref(equal))
            return bool(equal.value)
        finally:
            _release_pair(locks)

    __hash__ = None  # type: ignore[assignment]  # mutable: unhashable

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        game = _copy.deepcopy(self._game, memo)
        state = State(game)
        state.copy_from(self)
        return state

    def __reduce__(self):
        with self._lock:
            return (_state_from_pickle, (self._game, self.to_json(), self._seed, self.history))

    # -- calls --

    def _query(self, fn, *args):
        """``fn(handle, *args)`` with the lock held. (acquire/release rather than ``with``: this is the hot path,
        and a ``with`` on a lock costs several times more.)"""
        lock = self._lock
        lock.acquire()
        try:
            ptr = self._ptr
            if ptr is None or self._close_requested:
                raise ClosedError("the state is closed")
            return fn(ptr, *args)
        finally:
            lock.release()

    def _predicate(self, fn, *args):
        """The truth a C predicate ``fn(handle, *args, int *out)`` writes (1.0: predicates return a status)."""
        out = c_int()
        self._query(fn, *args, byref(out))
        return bool(out.value)

    def _call(self, after, fn, *args):
        """``fn(handle, *args)``, a C call that may modify the state or report events, with the lock held. Once it
        has succeeded, ``after`` says what becomes of the seed and history: None, nothing (the C history records
        an applied action and forgets an undone one); else the (seed, history before the C history's start) the
        state now has (None = unknown). An exception of the event callback is re-raised after that (the C call
        completed). A close() from the callback takes effect when the call has returned."""
        lock = self._lock
        lock.acquire()
        try:
            ptr = self._ptr
            if ptr is None or self._close_requested:
                raise ClosedError("the state is closed")
            self._busy += 1
            try:
                try:
                    fn(ptr, *args)
                except BaseException:
                    pending, self._pending = self._pending, None
                    if pending is not None:
                        raise pending
                    raise
                pending, self._pending = self._pending, None
                if self._queue_limit is not None:
                    self._trim_events(ptr)
                if after is not None:
                    seed, prefix = after
                    self._seed = None if seed is None else operator.index(seed)
                    self._prefix = None if prefix is None else tuple(prefix)
            finally:
                self._busy -= 1
                if not self._busy and self._close_requested:
                    self._free()
        finally:
            lock.release()
        if pending is not None:
            raise pending

    # -- legal actions and apply --

    def legal_action_ids(self) -> List[int]:
        """The legal action ids of the current player, ascending (a list of ints; empty when terminal); at a
        chance node, the chance outcome ids (972 and above)."""
        lock = self._lock
        lock.acquire()
        try:
            _legal(self.handle, self._ids, _ffi.MAX_LEGAL_ACTIONS_NEW_SOCIETY, byref(self._count))
            return self._ids[:self._count.value]
        finally:
            lock.release()

    def legal_actions(self) -> List[Action]:
        """The legal actions of the current player, ascending (:class:`Action` objects; empty when terminal); at a
        chance node the possible outcomes (:class:`ChanceOutcome` objects; :meth:`chance_outcomes` gives their
        probabilities)."""
        return [_move(i) for i in self.legal_action_ids()]

    def chance_outcomes(self) -> List[Tuple[ChanceOutcome, float]]:
        """At a chance node (explicit-chance games, :attr:`is_chance_node`), the outcomes of the pending random
        event with their exact probabilities (OpenSpiel ``ChanceOutcomes``; stpete_state_chance_outcomes()): a list
        of ``(ChanceOutcome, probability)``, outcomes ascending, probabilities adding up to 1. A card dealt (§4.5)
        or drawn by an Observatory (§7.1) is each card type its stack holds, with probability copies left / cards
        left; the random start-player markers (§3.3) are every deal the rule allows, uniformly. Empty at a
        player's decision, at the end, and always in sampled mode."""
        probabilities = (c_double * _ffi.MAX_LEGAL_ACTIONS_NEW_SOCIETY)()
        lock = self._lock
        lock.acquire()
        try:
            _C.stpete_state_chance_outcomes(self.handle, self._ids, probabilities,
                                            _ffi.MAX_LEGAL_ACTIONS_NEW_SOCIETY, byref(self._count))
            n = self._count.value
            return [(_move(self._ids[i]), probabilities[i]) for i in range(n)]
        finally:
            lock.release()

    def legal_action_mask(self):
        """A ``bytes`` of 972 entries (2188 with the New Society, §12): 1 where the action id is legal, else 0."""
        mask = (c_uint8 * _C.stpete_game_num_distinct_actions(self._game.handle))()
        self._query(_C.stpete_state_legal_action_mask, mask, len(mask))
        return bytes(mask)

    def random_action(self, random: int) -> "Union[Action, ChanceOutcome]":
        """A uniform legal action drawn without a list (stpete_state_random_action(), §4.2): the entry
        ``random % n`` of :meth:`legal_actions` (n entries), for ``random`` an int in [0, 2**64) the caller draws
        (e.g. ``random.getrandbits(64)``); each action then has probability 1/n (within n / 2**64). At a chance node
        an outcome, uniformly (not by its probability). Raises :class:`GameOverError` at the end of the game."""
        out = c_int()
        self._query(_C.stpete_state_random_action, random, byref(out))
        return _move(out.value)

    def apply_random(self, random: int, pick: "Pick" = Pick.MODULO) -> "Union[Action, ChanceOutcome]":
        """A playout step (stpete_state_apply_random(); §4.2-§8): apply a uniform legal action picked by the library
        from its own listing, for ``random`` an int in [0, 2**64) the caller draws; with :attr:`Pick.MODULO` the
        action :meth:`random_action` would give, then as :meth:`apply` would do, without checking it a second
        time. Returns the :class:`Action` (or :class:`ChanceOutcome`, uniformly at a chance node) applied. Raises
        :class:`GameOverError` at the end, :class:`InvalidArgumentError` for a ``pick`` that is no :class:`Pick`,
        :class:`ReentrantError` from inside an event callback, or the exception an event callback raised (the
        action has then been applied)."""
        if isinstance(pick, bool) or not isinstance(pick, int):
            raise TypeError(f"apply_random(): pick must be a Pick, not {type(pick).__name__}")
        out = c_int()
        self._call(None, _C.stpete_state_apply_random, random, int(pick), byref(out))
        return _move(out.value)

    def is_legal(self, action: ActionLike) -> bool:
        """Whether an action (Action, ChanceOutcome, id or string) is legal now."""
        try:
            return self._predicate(_C.stpete_state_is_legal, _action_id(action))
        except ClosedError:
            raise
        except Exception:
            return False

    def apply(self, action: ActionLike) -> None:
        """Apply an action of the current player: an :class:`Action`, an int id or a string such as
        ``"take Market from lower"``, and advance through every automatic step (scoring, deals, end of game). At a
        chance node, apply a chance outcome the same way (a :class:`ChanceOutcome`, its id or its string such as
        ``"chance Market"``).

        Raises :class:`IllegalActionError` (also for a chance outcome at a player's decision or in sampled mode,
        and an action at a chance node), :class:`GameOverError`, :class:`ParseError`,
        :class:`InvalidArgumentError` (an id that is neither an action nor a chance outcome, a string with NUL),
        ``TypeError`` (not an Action, ChanceOutcome, int or str) with the state unchanged;
        :class:`ReentrantError` from inside an event callback, or the exception an event callback raised (the
        action has then been applied)."""
        self._call(None, _apply, _action_id(action))

    def undo(self):
        """Take back the last action (or chance outcome) of :meth:`local_history` (OpenSpiel ``UndoAction``;
        stpete_state_undo()): the state then equals what it was before it, by ``==`` and by :meth:`to_json`, its
        PRNG included. Reports :attr:`EventKind.UNDO` (``amount`` = the id undone). Returns the :class:`Action` or
        :class:`ChanceOutcome` undone. Raises :class:`InvalidArgumentError` when the local history is empty (a new
        state, or right after from_json, copy_from, resample: the past of such a position is not kept), with the
        state unchanged; :class:`ReentrantError` from inside an event callback."""
        with self._lock:
            history = self.local_history()
            self._call(None, _C.stpete_state_undo)
            return _move(history[-1])

    # -- history and serialization --

    def local_history(self):
        """The ids applied since this state's history began (OpenSpiel ``History``; stpete_state_history()), oldest
        first, chance outcomes included in explicit-chance games: since its creation or last reset, or since the
        position was put in without its past (:meth:`from_json`, :meth:`copy_from`, :meth:`resample`,
        :meth:`determinize`); a clone copies it. These are the actions :meth:`undo` can take back. A list of
        ints."""
        lock = self._lock
        lock.acquire()
        try:
            count = c_size_t()
            try:
                _C.stpete_state_history(self.handle, None, 0, byref(count))
                return []
            except BufferTooSmallError:  # count is the length
                ids = (c_int * count.value)()
            _C.stpete_state_history(self.handle, ids, len(ids), byref(count))
            return ids[:count.value]
        finally:
            lock.release()

    @property
    def history(self):
        """The action ids (and chance outcome ids) applied since the game's start (new state or reset, from
        :attr:`seed`), a tuple for :meth:`replay_to_json`, or None when unknown (after loading JSON, resample,
        determinize, or copy_from a state whose history is unknown). Read from the library's history
        (:meth:`local_history`), after the ids that came before a copy_from or pickling."""
        with self._lock:
            prefix = self._prefix
            return None if prefix is None else prefix + tuple(self.local_history())

    @property
    def seed(self):
        """The seed this game was started with (the game's, or reset's), or None when unknown."""
        return self._seed

    def to_json(self) -> str:
        """The full state as JSON (deterministic; ``State.from_json`` continues it exactly). Raises
        :class:`ReentrantError` inside the state's own event callback, where it is between two steps of a move
        (stpete_state_to_json): save it after the call that applies the move returns."""
        with self._lock:
            return _write_json(_C.stpete_state_to_json, self.handle)

    def view_to_json(self, seat: Optional[int] = None) -> str:
        """What ``seat`` may know (§9), or a spectator with ``seat=None`` (stpete_state_view_to_json(), written from
        the library's one definition of a seat's knowledge): the same schema with secrets as null — the stacks'
        order, the PRNG, other seats' rubles unless public, each hand card the seat has not seen (every card seen
        taken is shown) — and the seat's ``information_state_key``. Format in doc/format.md and
        doc/stpete.schema.json. Cannot be loaded as a state (:class:`RedactedError`)."""
        with self._lock:
            return _write_json(_C.stpete_state_view_to_json, self.handle, _ffi.VIEW_PUBLIC if seat is None else seat)

    @classmethod
    def from_json(cls, text: Union[str, bytes], game: Optional[Game] = None) -> "State":
        """Load a state written by :meth:`to_json`. Without ``game``, its game is created from the JSON's options
        (:meth:`Game.from_json`). Raises :class:`ParseError` (with ``line`` / ``column`` for a syntax error),
        :class:`UnsupportedVersionError`, :class:`RedactedError` for a view, :class:`MismatchError` when ``game``
        has other options, :class:`InconsistentError` for a position that breaks the rules,
        :class:`TooLargeError` for a document over STPETE_JSON_STATE_MAX (1 MiB, refused before parsing);
        ``TypeError`` for ``text`` not str or bytes, ``game`` not a :class:`Game` or None."""
        if game is not None and not isinstance(game, Game):
            raise TypeError(f"State.from_json(text, game): game must be a stpete.Game or None, not "
                            f"{type(game).__name__}")
        data = _json_bytes(text)
        if game is None:
            if len(data) > _ffi.JSON_STATE_MAX:  # as the state reader would, before its options are parsed
                raise TooLargeError(f"the document has {len(data)} bytes; a stpete-state has at most "
                                    f"{_ffi.JSON_STATE_MAX} (doc/format.md)", status=TooLargeError.status,
                                    function="stpete_state_from_json")
            game = Game.from_json(data)

        def create(game_handle):
            ptr = _ffi.StatePtr()
            _with_error(_C.stpete_state_from_json, game_handle, data, len(data), byref(ptr))
            return ptr

        return cls._adopt(game, game._attach(create))

    def replay_to_json(self) -> str:
        """A replay record of this game: options, seed, every action since the start, the result."""
        with self._lock:
            history = self.history
            if history is None:
                raise InvalidArgumentError("the history of this state is unknown (loaded from JSON, copied or "
                                           "determinized)")
            return replay_to_json(self._game, self._seed, history)

    @classmethod
    def from_replay(cls, text: Union[str, bytes]) -> "State":
        """The position a replay record reaches (verified), with its history."""
        game, actions = replay_from_json(text)
        state = cls(game)
        for a in actions:
            state.apply(a)
        return state

    def resample(self, seat: int, seed: int) -> None:
        """Determinization for search bots (§9; OpenSpiel ``ResampleFromInfostate``; stpete_state_determinize()
        with flags 0, which replaced 0.3's stpete_state_resample()):
        redraw, in place, everything ``seat`` cannot know (the order of every stack, the other players' hand cards
        it has not seen taken) consistently with what it knows, with perfect recall; ``view_to_json(seat)``,
        :meth:`observation_tensor` and :meth:`information_state_key` of the seat are unchanged. ``seed``: an int
        in [0, 2**64). The history becomes unknown (:attr:`history` None; :meth:`local_history` begins again).
        Typical use: ``state.clone()``, then resample the clone and play it out; or :meth:`resampled`."""
        self.determinize(seat, seed)

    def determinize(self, seat: int, seed: int, rubles: bool = False) -> None:
        """:meth:`resample`, and with ``rubles=True`` also set the rubles of every other seat, when rubles are
        secret (§9), to the rubles of ``seat`` (stpete_state_determinize() with STPETE_DETERMINIZE_RUBLES): then
        the determinization depends on nothing secret to the seat. In place; ``rubles`` must be a bool."""
        if not isinstance(rubles, bool):
            raise TypeError(f"determinize(): rubles must be True or False, not {type(rubles).__name__}")
        self._call((None, None), _C.stpete_state_determinize, seat, seed,
                   _ffi.DETERMINIZE_RUBLES if rubles else 0)

    def resampled(self, seat: int, seed: int) -> "State":
        """A resampled clone (see :meth:`resample`); this state is unchanged."""
        clone = self.clone()
        clone.resample(seat, seed)
        return clone

    # -- events --

    #: The default bound of the event queue (events), see :meth:`enable_event_queue`.
    EVENT_QUEUE_LIMIT = 100000

    def enable_event_queue(self, enabled: bool = True, limit: int = EVENT_QUEUE_LIMIT) -> None:
        """Turn the pull-style event queue on or off (off drops pending events); independent of the callback.

        The queue is bounded: it holds at most ``limit`` events (an int ≥ 1; default :attr:`EVENT_QUEUE_LIMIT`, a
        few hundred games of events). When a call (apply, reset, :func:`~stpete.play` ...) leaves more waiting, the
        oldest are dropped, and counted in :attr:`dropped_events`; so a queue that is never drained stays within
        ``limit`` events (plus those of the one call under way). Raises ``TypeError`` for a ``limit`` that is not an
        int, :class:`InvalidArgumentError` for one below 1."""
        if enabled:
            limit = _ffi.convert(c_int, limit, "limit", "enable_event_queue")
            if limit < 1:
                raise InvalidArgumentError(f"enable_event_queue(limit={limit}): the queue must hold at least one "
                                           f"event", function="enable_event_queue")
        with self._lock:
            self._call(None, _C.stpete_state_set_event_queue, 1 if enabled else 0)
            self._queue_limit = limit if enabled else None

    @property
    def dropped_events(self):
        """How many events the bounded queue dropped, oldest first, since this state was created (an int; see
        :meth:`enable_event_queue`)."""
        return self._dropped_events

    def _trim_events(self, ptr):
        """Drop the oldest queued events beyond the queue's bound (with the lock held)."""
        extra = _C.stpete_state_pending_events(ptr) - self._queue_limit
        if extra > 0:
            scratch = _ffi.new(_ffi.EventStruct)
            for _ in range(extra):
                _C.stpete_state_next_event(ptr, byref(scratch))
            self._dropped_events += extra

    @property
    def pending_events(self):
        """Number of events waiting in the queue (0 when it is off)."""
        return self._query(_C.stpete_state_pending_events)

    def next_event(self):
        """The oldest queued :class:`Event`, or None when the queue is empty or off."""
        out = _ffi.new(_ffi.EventStruct)
        if self._query(_C.stpete_state_next_event, byref(out)) == 1:
            return Event(out)
        return None

    def events(self):
        """Take every queued event out, in order (a list of :class:`Event`)."""
        out = []
        with self._lock:
            event = self.next_event()
            while event is not None:
                out.append(event)
                event = self.next_event()
        return out

    def set_event_callback(self, fn):
        """Call ``fn(state, event)`` for every :class:`Event` while actions are applied or the state is reset;
        None removes it. ``fn`` runs in the thread that made the call, with the state's lock held: it may query
        the state but not modify it (:class:`ReentrantError`); ``state.close()`` there is deferred until the call
        returns (see :meth:`close`). If ``fn`` raises, the C call still completes, and the first exception is
        re-raised by the method that made the call."""
        if fn is None:
            with self._lock:
                self._call(None, _C.stpete_state_set_event_callback, _ffi.EVENT_FN(), None)
                self._callback = self._c_callback = None
            return
        if not callable(fn):
            raise TypeError("the event callback must be callable or None")
        ref = weakref.ref(self)

        def thunk(_state, event, _user):
            state = ref()
            if state is None or state._callback is None or state._close_requested:
                return
            try:
                state._callback(state, Event(event.contents, _state))
            except BaseException as e:  # never unwind through C: keep it for the caller
                if state._pending is None:
                    state._pending = e

        c_callback = _ffi.EVENT_FN(thunk)
        with self._lock:
            self._call(None, _C.stpete_state_set_event_callback, c_callback, None)
            self._callback, self._c_callback = fn, c_callback

    # -- what a front end draws --

    @property
    def current_player(self) -> int:
        """The seat to act, or None when the game is over or at a chance node (:attr:`is_chance_node`)."""
        seat = self._query(_C.stpete_state_current_player)
        return seat if seat >= 0 else None

    @property
    def is_chance_node(self) -> bool:
        """Whether a random event's outcome is pending (explicit-chance games only, :class:`ChanceMode`): the
        current player is chance (STPETE_PLAYER_CHANCE), :meth:`chance_outcomes` lists the outcomes."""
        return self._query(_C.stpete_state_current_player) == _ffi.PLAYER_CHANCE

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over (§4.6, §8)."""
        return self._predicate(_C.stpete_state_is_terminal)

    @property
    def decision(self):
        """The kind of decision the current player faces (:class:`Decision`)."""
        return Decision(self._query(_C.stpete_state_decision))

    @property
    def phase(self):
        """The current phase (:class:`Phase`, §4)."""
        return Phase(self._query(_C.stpete_state_phase))

    @property
    def round(self) -> int:
        """The current round, from 1."""
        return self._query(_C.stpete_state_round)

    @property
    def is_final_round(self) -> bool:
        """Whether this is the final round (§4.6, R4)."""
        return self._predicate(_C.stpete_state_is_final_round)

    @property
    def consecutive_passes(self) -> int:
        """Consecutive passes so far in this phase (§4.3, R1)."""
        return self._query(_C.stpete_state_consecutive_passes)

    def row(self, row: int) -> Tuple[Card, ...]:
        """The cards of a row (:class:`Source` UPPER or LOWER), in the order dealt (§1, §4.5): up to 8 cards on the
        board, 10 after a 5-player New Society opening (§12.4.1, R20)."""
        with self._lock:
            _C.stpete_state_row(self.handle, row, self._cards, len(self._cards), byref(self._count))
            return tuple(_card_enum(c) for c in self._cards[:self._count.value])

    upper_row = property(lambda self: self.row(Source.UPPER), doc="The upper row (tuple of :class:`Card`).")
    lower_row = property(lambda self: self.row(Source.LOWER), doc="The lower row (tuple of :class:`Card`).")

    @property
    def stack_sizes(self):
        """Cards left in the worker, building, aristocrat and trading stacks (§9)."""
        with self._lock:
            return tuple(_C.stpete_state_stack_size(self.handle, s) for s in Stack)

    @property
    def seats(self):
        """A live read-only :class:`Seat` view per seat (rubles, vp, hand, display, ...)."""
        return tuple(Seat(self, s) for s in range(self.players))

    def display(self, seat: int) -> Tuple[Card, ...]:
        """A seat's display, one entry per copy, by card type (tuple of :class:`Card`, §1)."""
        with self._lock:
            _C.stpete_state_display(self.handle, seat, self._cards, _ffi.NUM_CARDS_NEW_SOCIETY, byref(self._count))
            return tuple(_card_enum(c) for c in self._cards[:self._count.value])

    def display_count(self, seat: int, card: int) -> int:
        """Copies of a card type in a seat's display."""
        return self._query(_C.stpete_state_display_count, seat, card)

    def hand(self, seat: int) -> Tuple[Card, ...]:
        """A seat's hand in the order taken (tuple of :class:`Card`; secret to others unless public_hands, §9)."""
        with self._lock:
            _C.stpete_state_hand(self.handle, seat, self._cards, _ffi.MAX_HAND, byref(self._count))
            return tuple(_card_enum(c) for c in self._cards[:self._count.value])

    def hand_limit(self, seat: int) -> int:
        """3, or 4 with a Warehouse (§7.3, R11)."""
        return self._query(_C.stpete_state_hand_limit, seat)

    def rubles(self, seat: int) -> int:
        """A seat's rubles (secret by default, §9; the library always knows them). A screen for one seat asks
        :meth:`visible_rubles` instead."""
        return self._query(_C.stpete_state_rubles, seat)

    def rubles_visible(self, viewer: Optional[int], seat: int) -> bool:
        """Whether ``viewer`` (a seat, or None: a spectator) sees ``seat``'s rubles now (§9): its own always,
        every seat's with ``public_rubles``, no other (stpete_state_visible_rubles() answers or refuses with
        ``STPETE_E_REDACTED``: the library's one definition of what a seat knows). Raises
        :class:`InvalidArgumentError` for a bad seat or viewer."""
        try:
            self.visible_rubles(viewer, seat)
        except RedactedError:
            return False
        return True

    def visible_rubles(self, viewer: Optional[int], seat: int) -> int:
        """``seat``'s rubles (R) as ``viewer`` (a seat, or None: a spectator) may see them now (§9): the amount,
        or :class:`RedactedError` when hidden from ``viewer`` (stpete_state_visible_rubles()); a front end that
        asks only this never shows a secret. Raises :class:`InvalidArgumentError` for a bad seat or viewer."""
        out = c_int()
        self._query(_C.stpete_state_visible_rubles, _ffi.VIEW_PUBLIC if viewer is None else viewer, seat, byref(out))
        return out.value

    def vp(self, seat: int) -> int:
        """A seat's victory points (public; may be negative after final scoring, §8)."""
        out = c_int()
        self._query(_C.stpete_state_vp, seat, byref(out))
        return out.value

    def observatories_used(self, seat: int) -> int:
        """Observatories the seat has used this round (§7.1, R9)."""
        return self._query(_C.stpete_state_observatories_used, seat)

    @property
    def observatory_card(self):
        """The card drawn by an Observatory awaiting its owner's decision (§7.1), or None."""
        card = self._query(_C.stpete_state_observatory_card)
        return _card_enum(card) if card >= 0 else None

    @property
    def prison_card(self):
        """The card the Debtor's Prison picked from the discard pile, awaiting its owner's decision (§12.7.5, R21), or
        None (stpete_state_prison_card()); bought from :attr:`Source.DISCARD`, without a row discount."""
        card = self._query(_C.stpete_state_prison_card)
        return _card_enum(card) if card >= 0 else None

    def prison_used(self, seat: int) -> bool:
        """Whether ``seat``'s Debtor's Prison is used this round (§12.7.5, R21, R22): from its pick on it cannot be
        used again or displaced and, unless ``used_prison_scores``, scores no VP until the next round. Always False
        without the New Society (stpete_state_is_prison_used()). Raises :class:`InvalidArgumentError` for a bad
        seat."""
        return self._predicate(_C.stpete_state_is_prison_used, seat)

    @property
    def gold_disc_holder(self) -> Optional[int]:
        """The seat holding the gold disc (§12.3, §12.4.1, R18, R19): in a 5-player game the seat that holds no
        start-player marker; None with fewer players, or before the markers are dealt (a chance node of the
        explicit-chance mode; stpete_state_gold_disc_holder())."""
        seat = self._query(_C.stpete_state_gold_disc_holder)
        return seat if seat >= 0 else None

    @property
    def marker_holders(self):
        """The seat holding each phase's start-player marker (§3.3, §4.1), indexed by :class:`Phase`."""
        with self._lock:
            return tuple(_C.stpete_state_marker_holder(self.handle, p) for p in Phase)

    @property
    def discard_pile(self):
        """The discard pile as {Card: copies} (public, §9)."""
        pile = {}
        with self._lock:
            for card in (*Card, *NewSocietyCard)[:_C.stpete_game_num_card_types(self._game.handle)]:
                n = _C.stpete_state_discard_count(self.handle, card)
                if n:
                    pile[card] = n
        return pile

    def price(self, seat: int, card: int, source: int = Source.UPPER, displaced: Optional[int] = None) -> int:
        """Rubles ``seat`` would pay now for ``card`` from ``source`` (§5, R5–R7); for a trading card,
        ``displaced`` is the card type it displaces (§6.2)."""
        out = c_int()
        self._query(_C.stpete_state_price, seat, card, source, -1 if displaced is None else displaced, byref(out))
        return out.value

    def displacements(self, seat: int, card: int,
                      source: int = Source.UPPER) -> "List[Tuple[Union[Card, NewSocietyCard], int]]":
        """What a trading card could displace for ``seat`` and at what price: ``[(Card, rubles), ...]`` in
        ascending card type (a :class:`NewSocietyCard` for the New Society's targets, §12.6), one per card type of
        the seat's display among the card's targets (§6.2, R8; an Observatory only while one is face up, §7.1, R9),
        each priced as :meth:`price` gives it (§5.2; ``source`` LOWER gives the lower-row discount, §5.1). Does not
        check that the card is available or affordable; an empty list means the seat cannot buy or play it (§6.1).
        ``stpete_state_displacements``.
        Raises :class:`InvalidArgumentError` for a bad seat or source, or a card that is not a trading card;
        :class:`ClosedError` after :meth:`close`."""
        out = (_ffi.DisplacementStruct * _ffi.NUM_CARD_TYPES_NEW_SOCIETY)()
        count = c_size_t()
        self._query(_C.stpete_state_displacements, seat, card, source, out, _ffi.NUM_CARD_TYPES_NEW_SOCIETY,
                    byref(count))
        return [(_card_enum(d.displaced), d.price) for d in out[:count.value]]

    def offers(self, seat: int) -> "List[Offer]":
        """Every card ``seat`` could buy or play now, in every way, with its price (stpete_state_offers(): the upper
        and lower rows, §5.1; the card an Observatory drew or the Debtor's Prison picked, to the seat deciding it,
        §7.1, §12.7.5; the seat's hand), whether or not the seat is to act or can pay: :class:`Offer` tuples
        ``(action, source, card, displaced, price)``, a trading card once per target in the seat's display (§6.2)
        with ``displaced`` its card type, another card once with ``displaced`` None. Raises
        :class:`InvalidArgumentError` for a bad seat."""
        out = (_ffi.OfferStruct * _ffi.MAX_OFFERS)()
        count = c_size_t()
        self._query(_C.stpete_state_offers, seat, out, _ffi.MAX_OFFERS, byref(count))
        return [Offer(o.action, Source(o.source), _card_enum(o.card),
                      None if o.displaced < 0 else _card_enum(o.displaced), o.price) for o in out[:count.value]]

    def income(self, seat: int, phase: int) -> "Tuple[int, int]":
        """``(rubles, vp)`` that ``seat``'s display as it is now earns at ``phase``'s next scoring
        (stpete_state_income(): §4.4, §7.1's face-down Observatories and R22's used Prison only while this round's
        building scoring is to come, §7.5, §11, §12.7; negative rubles for Sycophants, §12.7.9). Raises
        :class:`InvalidArgumentError` for a bad seat or :attr:`Phase.TRADING` (no scoring)."""
        rubles, vp = c_int(), c_int()
        self._query(_C.stpete_state_income, seat, phase, byref(rubles), byref(vp))
        return rubles.value, vp.value

    @property
    def next_scoring(self) -> "Optional[Phase]":
        """The phase whose scoring comes next (stpete_state_next_scoring(), §4.4): the current phase's until it has
        scored, then the next phase's (the aristocrat scoring at the Pub, Guild Hall and Trading House decisions,
        §7.2, §12.4.3); in the trading phase the next round's worker scoring; None in the final round's trading
        phase and after the end."""
        phase = self._query(_C.stpete_state_next_scoring)
        return None if phase < 0 else Phase(phase)

    def last_discards(self) -> "Tuple[Union[Card, NewSocietyCard], ...]":
        """The cards the last action that put cards on the discard pile put there, less those the Debtor's Prison
        picked since (stpete_state_last_discards(): §4.5, §6, §7.1, §12.7.5, §12.7.9), ascending; from the replay
        of :attr:`history` (none before a loaded position's root)."""
        out = (c_int * 16)()
        count = c_size_t()
        self._query(_C.stpete_state_last_discards, out, 16, byref(count))
        return tuple(_card_enum(c) for c in out[:count.value])

    def table_to_json(self, seat: Optional[int] = None, since: int = 0, cards: bool = False,
                      person: bool = False) -> str:
        """The table document of ``seat`` (None: spectators), everything a table UI draws
        (stpete_state_table_to_json(), doc/format.md "Table document"): the view, the seat's legal actions with
        their fields and prices, its offers, the incomes, hand limits, gold disc, the cards discarded last, each
        seat's last move, the log from entry ``since`` on, the result; the card table with ``cards``; without what a
        person at a table may not be handed (``known_rubles``, the key) with ``person``. Raises
        :class:`InvalidArgumentError` for a bad seat or a negative ``since``."""
        flags = (_ffi.TABLE_CARDS if cards else 0) | (_ffi.TABLE_PERSON if person else 0)
        with self._lock:
            return _write_json(_C.stpete_state_table_to_json, self.handle,
                               _ffi.VIEW_PUBLIC if seat is None else seat, since, flags)

    def score(self, seat: int) -> Score:
        """A seat's final score breakdown (:class:`Score`, §8, R13): as applied after the end, a projection
        before."""
        out = _ffi.new(_ffi.ScoreStruct)
        self._query(_C.stpete_state_get_score, seat, byref(out))
        return Score(operator.index(seat), out)

    @property
    def scores(self):
        """Every seat's :class:`Score` (a projection before the end)."""
        with self._lock:
            return tuple(self.score(s) for s in range(self.players))

    @property
    def final_scores(self):
        """Every seat's final total VP (§8). Raises :class:`NotTerminalError` before the end."""
        with self._lock:
            if not self.is_terminal:
                raise NotTerminalError("final scores need a finished game")
            return tuple(self.score(s).total for s in range(self.players))

    @property
    def winners(self):
        """The winning seats, ascending (several = a shared win, §8, R14). Raises :class:`NotTerminalError`
        before the end."""
        mask = c_uint()
        self._query(_C.stpete_state_winners, byref(mask))
        return tuple(s for s in range(self.players) if mask.value >> s & 1)

    def returns(self):
        """Per seat (a list of floats; OpenSpiel ``Returns``, stpete_state_returns()): at the end each of the k
        winners gets 1/k (a shared win, §8, R14) and the others 0.0, so they add up to 1 (constant-sum); all 0.0
        before the end."""
        out = (c_double * _ffi.MAX_PLAYERS)()
        self._query(_C.stpete_state_returns, out, len(out))
        return out[:self.players]

    def observation_tensor(self, seat):
        """What ``seat`` may know now (§9), from its point of view, as :attr:`Game.observation_tensor_size` (668;
        972 with the New Society) floats in the fixed layout of doc/observation.md (OpenSpiel ``ObservationTensor``;
        stpete_state_observation_tensor()): an ``array.array("f")`` (``numpy.frombuffer(t, numpy.float32)`` views
        it without a copy). Neither a stack's order nor anything else secret to the seat changes it."""
        size = self._game.observation_tensor_size
        out = (c_float * size)()
        self._query(_C.stpete_state_observation_tensor, seat, out, size)
        tensor = _array("f")
        tensor.frombytes(memoryview(out).cast("B"))
        return tensor

    def observation_string(self, seat: int) -> str:
        """The information of :meth:`observation_tensor` as readable text, one line per item, each secret of §9
        shown as a question mark (OpenSpiel ``ObservationString``; stpete_state_observation_string())."""
        with self._lock:
            return _write_json(_C.stpete_state_observation_string, self.handle, seat)

    def information_state_string(self, seat: int) -> str:
        """The information state of ``seat`` with perfect recall as text (OpenSpiel ``InformationStateString``;
        stpete_state_information_state_string()): the key and public-history hash of everything it has seen,
        then the observation string. Equal texts exactly when the keys are equal."""
        with self._lock:
            return _write_json(_C.stpete_state_information_state_string, self.handle, seat)

    def information_state_key(self, seat: int) -> int:
        """A 64-bit key (an int in [0, 2**64)) of the information state of ``seat`` with perfect recall
        (stpete_state_information_state_key(), hash documented in doc/observation.md): equal for positions the seat
        cannot tell apart given everything it has seen since the game's start; unchanged by :meth:`resample`,
        copies and JSON; the same on every platform."""
        key = c_uint64()
        self._query(_C.stpete_state_information_state_key, seat, byref(key))
        return key.value

    def action_price(self, action: ActionLike) -> Optional[int]:
        """The rubles the current player would pay for a legal ``action`` (an :class:`Action`, id or string): the
        price of a card bought, played or bought from an Observatory draw (§5, R5–R7; §5.2 for a trading card), or
        2 R per VP for a Pub purchase (§7.2); None for a legal action that costs nothing (pass, take, an
        Observatory draw, take or discard). Raises :class:`IllegalActionError` if the action is not legal now,
        :class:`GameOverError` after the end (stpete_state_action_price())."""
        out = c_int()
        lock = self._lock
        lock.acquire()
        try:
            status = _C.stpete_state_action_price(self.handle, _action_id(action), byref(out))
        finally:
            lock.release()
        if status == 0:
            return out.value
        if status == NoPriceError.status:
            return None
        cls = error_for_status(status)
        raise cls(f"stpete_state_action_price(id={_action_id(action)!r}): {_C.stpete_strerror(status).decode()}",
                  status=status, function="stpete_state_action_price")

    def __str__(self):
        name = self._game.card_name  # the edition's names (§11)
        with self._lock:
            if self.is_terminal:
                who = ", game over"
            elif self.is_chance_node:
                who = ", chance to act"
            else:
                who = f", seat {self.current_player} to act ({self.decision.name.lower()})"
            lines = [f"round {self.round}, {self.phase.name.lower()} phase" +
                     (" (final round)" if self.is_final_round else "") + who,
                     "upper row: " + (", ".join(map(name, self.upper_row)) or "(empty)"),
                     "lower row: " + (", ".join(map(name, self.lower_row)) or "(empty)"),
                     "stacks: %d workers, %d buildings, %d aristocrats, %d trading cards" % self.stack_sizes]
            for s in range(self.players):
                display = self.display(s)  # sorted by card type: group the copies
                shown = [f"{display.count(c)}x {name(c)}" if display.count(c) > 1 else name(c)
                         for c in dict.fromkeys(display)]
                lines.append(f"seat {s}: {self.rubles(s)} R, {self.vp(s)} VP, "
                             f"hand [{', '.join(map(name, self.hand(s)))}], display [{', '.join(shown)}]")
            if self.is_terminal:
                lines.append("winners: " + ", ".join(f"seat {s}" for s in self.winners))
        return "\n".join(lines)

    def __repr__(self):
        with self._lock:
            if self._ptr is None or self._close_requested:
                return "<stpete.State closed>"
            where = ("game over" if self.is_terminal else "chance to act" if self.is_chance_node
                     else f"seat {self.current_player} to act")
            return (f"<stpete.State {self.players} players, round {self.round}, {self.phase.name.lower()} phase, "
                    f"{where}>")
