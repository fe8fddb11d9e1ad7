"""Saint Petersburg in OpenSpiel's Python shape (``pyspiel``), standard library only.

Code written against OpenSpiel's Python API runs unchanged on these classes:

    from stpete import openspiel as pyspiel
    game = pyspiel.load_game("stpete", {"players": 3})
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(random.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(random.choice(state.legal_actions()))
    print(state.returns())

The methods have pyspiel's names and semantics (OpenSpiel's ``spiel.h``): :class:`Game` (``load_game``,
``new_initial_state``, ``num_distinct_actions``, ``max_chance_outcomes``, ``num_players``, ``max_game_length``,
``observation_tensor_shape``, ``get_type``, ``get_parameters``, ``deserialize_state`` ...) and :class:`State`
(``current_player``, ``legal_actions``, ``apply_action``, ``is_chance_node``, ``chance_outcomes``, ``returns``,
``observation_tensor``, ``information_state_string``, ``history``, ``undo_action``, ``clone``, ``child``,
``serialize``, ``resample_from_infostate`` ...). Player actions are the library's action ids in
[0, ``num_distinct_actions()``): [0, 972), or [0, 2188) with the New Society (whose ids 972..1276 are never legal);
chance outcomes, as in OpenSpiel, are numbered in their own range [0, ``max_chance_outcomes()``): outcome k < 305 is
the library's chance outcome id 972 + k, and with the New Society k >= 305 is its id 2188 + k - 305
(:class:`stpete.ChanceOutcome`; ``str`` via ``action_to_string``).

The game defaults to explicit chance (``"chance_mode": "explicit"``, OpenSpiel's ``EXPLICIT_STOCHASTIC``): every
card dealt or drawn by an Observatory and the random start-player markers are chance nodes with exact
probabilities, which is what OpenSpiel's algorithms expect. ``"chance_mode": "sampled"`` gives
``SAMPLED_STOCHASTIC``: the library draws every random event from the seed (``"seed"``), and no chance node is
ever seen. Parameters (``get_parameters()``, all optional): every option of the library's table
(:func:`stpete.options`; ``parameter_specification``), by its name and with its default but the chance mode's:
``players`` (2-4; 5 with ``new_society``), ``seed``, ``chance_mode`` (``"explicit"``, ``"sampled"``), ``edition``
(1, 2), ``pub_cap`` (``"per-pub"``, ``"per-player"``), ``tie_break`` (``"rubles-mod-10"``, ``"rubles-total"``),
``public_rubles``, ``public_hands``, ``new_society`` and its rulings (bools), and ``start_markers`` (a string of 4
seats, e.g. ``"0 1 2 3"``; ``""`` or ``"random"`` = dealt at random, §3.3; read by the library, as
:meth:`stpete.Option.parse` reads ``"0,1,2,3"``).

Returns: 1/k for each of the k winners and 0 for the others at the end, 0 before (constant-sum 1, terminal
rewards). Errors are the library's exceptions (:class:`stpete.IllegalActionError`, ...), with the state unchanged;
a feature this game does not provide (the information-state tensor) raises :class:`SpielError`. A :class:`State`
wraps a :class:`stpete.State` (``state.stpete_state``), whose lock every method holds, so one state may be shared
between threads as the core binding allows.
"""
import enum
import re
from typing import Any, Callable, Dict, List, Optional, Tuple, Union
from ctypes import c_int

from . import _ffi
from ._core import _C, Action, ChanceMode as _ChanceMode, ChanceOutcome, Game as _Game, Option, OptionType, \
    State as _State, _move, _pascal, options
from .errors import InvalidArgumentError

__all__ = ["Game", "GameType", "PlayerId", "SpielError", "State", "load_game", "registered_names"]

_NUM_ACTIONS = _ffi.NUM_DISTINCT_ACTIONS
_CHANCE_FIRST = _ffi.CHANCE_CARD_FIRST
_NUM_OUTCOMES = _ffi.NUM_CHANCE_OUTCOMES
#: The New Society (§12): player action ids [0, 2188) (972..1276, the base chance outcomes, never legal), chance
#: outcomes 305 + (id - 2188) for its ids [2188, 2826) after the base game's 305.
_NS_NUM_ACTIONS = _ffi.NUM_DISTINCT_ACTIONS_NEW_SOCIETY
_NS_NUM_OUTCOMES = _ffi.NUM_CHANCE_OUTCOMES + _ffi.NS_ID_END - _ffi.NS_CHANCE_CARD_FIRST


class SpielError(Exception):
    """pyspiel's ``SpielError``: raised for what this game does not provide."""


class PlayerId(enum.IntEnum):
    """pyspiel.PlayerId (spiel.h ``kChancePlayerId`` ...)."""
    DEFAULT_PLAYER_ID = 0
    CHANCE = -1
    SIMULTANEOUS = -2
    INVALID = -3
    TERMINAL = -4
    MEAN_FIELD = -5


class GameType:
    """pyspiel.GameType: the game's properties under OpenSpiel's field names, with its nested enums."""

    class Dynamics(enum.Enum):
        SIMULTANEOUS = 0
        SEQUENTIAL = 1
        MEAN_FIELD = 2

    class ChanceMode(enum.Enum):
        DETERMINISTIC = 0
        EXPLICIT_STOCHASTIC = 1
        SAMPLED_STOCHASTIC = 2

    class Information(enum.Enum):
        ONE_SHOT = 0
        PERFECT_INFORMATION = 1
        IMPERFECT_INFORMATION = 2

    class Utility(enum.Enum):
        ZERO_SUM = 0
        CONSTANT_SUM = 1
        GENERAL_SUM = 2
        IDENTICAL = 3

    class RewardModel(enum.Enum):
        REWARDS = 0
        TERMINAL = 1

    _FIELDS = ("short_name", "long_name", "dynamics", "chance_mode", "information", "utility", "reward_model",
               "max_num_players", "min_num_players", "provides_information_state_string",
               "provides_information_state_tensor", "provides_observation_string", "provides_observation_tensor",
               "parameter_specification", "default_loadable", "provides_factored_observation_string")

    def __init__(self, **fields: Any) -> None:
        for name in self._FIELDS:
            setattr(self, name, fields[name])

    def __repr__(self):
        return "GameType(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in self._FIELDS) + ")"


def _parameter(option: Option) -> Any:
    """A table option's default as a pyspiel parameter (a bool, an int or a string): the start markers a string of
    4 seats, ``""`` for random (§3.3)."""
    return "" if option.type == OptionType.SEATS else option.default


#: The option of the chance mode: the one whose values are :class:`stpete.ChanceMode`'s.
_CHANCE = next(o.name for o in options() if _pascal(o.name) == _ChanceMode.__name__)
#: The parameters and their defaults (pyspiel's ``parameter_specification``): every option of the library's table
#: (:func:`stpete.options`), the chance mode explicit (OpenSpiel's algorithms expect chance nodes).
_DEFAULTS = {**{o.name: _parameter(o) for o in options()}, _CHANCE: _ChanceMode.EXPLICIT.word}


def registered_names() -> List[str]:
    """The names :func:`load_game` knows: ``["stpete"]``."""
    return ["stpete"]


def _parse_game_string(text):
    """``"stpete"`` or ``"stpete(players=3,chance_mode=sampled)"`` -> (name, params)."""
    match = re.fullmatch(r"\s*(\w+)\s*(?:\((.*)\))?\s*", text)
    if not match:
        raise SpielError(f"cannot parse the game string {text!r}")
    params = {}
    for item in filter(None, (part.strip() for part in (match.group(2) or "").split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise SpielError(f"game string {text!r}: {item!r} is not key=value")
        value = value.strip()
        if value in ("True", "true", "False", "false"):
            params[key.strip()] = value.lower() == "true"
        elif re.fullmatch(r"-?\d+", value):
            params[key.strip()] = int(value)
        else:
            params[key.strip()] = value
    return match.group(1), params


def load_game(name: str, params: Optional[Dict[str, Any]] = None) -> "Game":
    """A :class:`Game`: ``load_game("stpete")``, ``load_game("stpete", {"players": 3})`` or
    ``load_game("stpete(players=3,chance_mode=sampled)")`` (pyspiel's game string). Raises :class:`SpielError` for
    another game's name or an unknown parameter."""
    base, string_params = _parse_game_string(name)
    if base not in registered_names():
        raise SpielError(f"unknown game {base!r}: this module provides {registered_names()}")
    merged = dict(string_params)
    merged.update(params or {})
    return Game(merged)


class Game:
    """Saint Petersburg with pyspiel.Game's methods. ``Game(params=None)``; see the module's documentation for the
    parameters. Wraps a :class:`stpete.Game` (``stpete_game``)."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = dict(params or {})
        unknown = set(params) - set(_DEFAULTS)
        if unknown:
            raise SpielError(f"unknown parameter(s) {sorted(unknown)} for stpete (known: {sorted(_DEFAULTS)})")
        self._params: Dict[str, Any] = {**_DEFAULTS, **params}
        given = dict(self._params)
        for option in options():
            if option.type == OptionType.SEATS:  # pyspiel's parameters are scalars: the seats as "0 1 2 3"
                markers = given[option.name]
                if not isinstance(markers, str):
                    raise TypeError(f"{option.name} must be a string of 4 seats such as '0 1 2 3', not "
                                    f"{type(markers).__name__}")
                # read by the library (Option.parse: InvalidArgumentError with its reason), "" or "random" random
                given[option.name] = option.parse(",".join(markers.replace(",", " ").split()) or "random")
        self._game = _Game(**given)
        self._ns = self._game.num_distinct_actions != _NUM_ACTIONS  # the New Society's ids (§12)
        self._explicit = self._game.options[_CHANCE] == _ChanceMode.EXPLICIT
        if self._explicit:
            sampled_options: Dict[str, Any] = {**self._game.options, _CHANCE: _ChanceMode.SAMPLED.word}
            with _Game(**sampled_options) as sampled:
                self._decisions = sampled.max_game_length
        else:
            self._decisions = self._game.max_game_length
        self._history_length = self._game.max_game_length

    @property
    def stpete_game(self) -> _Game:
        """The :class:`stpete.Game` this game wraps."""
        return self._game

    def new_initial_state(self) -> "State":
        """The initial position (§3 setup): in explicit-chance mode a chance node (the markers or the first card
        dealt); in sampled mode the first player's decision, from the game's seed."""
        return State(self, self._game.new_state())

    def num_distinct_actions(self) -> int:
        """972: the player action ids (stpete.h); 2188 with the New Society (§12); the library's count
        (stpete_game_num_distinct_actions())."""
        return self._game.num_distinct_actions

    def max_chance_outcomes(self) -> int:
        """305 in explicit-chance mode (49 card types + 256 marker deals), 943 with the New Society (§12: 13 more card
        types and 625 five-player marker codes), 0 in sampled mode (no chance node)."""
        return (_NS_NUM_OUTCOMES if self._ns else _NUM_OUTCOMES) if self._explicit else 0

    def num_players(self) -> int:
        return self._game.players

    def min_utility(self) -> float:
        return 0.0

    def max_utility(self) -> float:
        return 1.0

    def utility_sum(self) -> float:
        """1.0: the returns of a game add up to 1 (constant-sum)."""
        return 1.0

    def max_game_length(self) -> int:
        """An upper bound on the player decisions of a game (stpete_max_game_length() of the sampled-mode game;
        OpenSpiel counts decisions here, chance nodes in :meth:`max_chance_nodes_in_history`)."""
        return self._decisions

    def max_chance_nodes_in_history(self) -> int:
        """An upper bound on the chance nodes of a game (0 in sampled mode)."""
        return self._history_length - self._decisions

    def max_history_length(self) -> int:
        """:meth:`max_game_length` + :meth:`max_chance_nodes_in_history`."""
        return self._history_length

    max_move_number = max_history_length

    def observation_tensor_shape(self) -> List[int]:
        """``[668]`` (``[972]`` with the New Society): the flat observation tensor of doc/observation.md
        (stpete_game_observation_tensor_size())."""
        return [self._game.observation_tensor_size]

    def observation_tensor_size(self) -> int:
        return self._game.observation_tensor_size

    def information_state_tensor_shape(self) -> List[int]:
        raise SpielError("stpete provides the information state as a string and a key, not as a tensor")

    information_state_tensor_size = information_state_tensor_shape

    def get_parameters(self) -> Dict[str, Any]:
        """The parameters with their values (defaults filled in)."""
        return dict(self._params)

    def get_type(self) -> GameType:
        """The :class:`GameType`: sequential, explicit or sampled stochastic, imperfect information, constant-sum,
        terminal rewards, 2-4 players (2-5 with the New Society), information-state string and observation string and
        tensor provided."""
        return GameType(
            short_name="stpete", long_name="Saint Petersburg", dynamics=GameType.Dynamics.SEQUENTIAL,
            chance_mode=(GameType.ChanceMode.EXPLICIT_STOCHASTIC if self._explicit
                         else GameType.ChanceMode.SAMPLED_STOCHASTIC),
            information=GameType.Information.IMPERFECT_INFORMATION, utility=GameType.Utility.CONSTANT_SUM,
            reward_model=GameType.RewardModel.TERMINAL, max_num_players=_ffi.MAX_PLAYERS,
            min_num_players=_ffi.MIN_PLAYERS, provides_information_state_string=True,
            provides_information_state_tensor=False, provides_observation_string=True,
            provides_observation_tensor=True, parameter_specification=dict(_DEFAULTS), default_loadable=True,
            provides_factored_observation_string=False)

    def action_to_string(self, player: int, action: int) -> str:
        """The readable form of a player's action, or of chance outcome ``action`` when ``player`` is
        ``PlayerId.CHANCE``, in the game's edition (§11)."""
        return self._game.action_string(_library_id(player, action, self._ns))

    def deserialize_state(self, text: str) -> "State":
        """The state :meth:`State.serialize` wrote."""
        lines = text.split("\n")
        if lines[0] == _JSON_TAG:
            state = State(self, _State.from_json(lines[1], self._game))
            state._before = [int(line) for line in lines[2:] if line.strip()]
            return state
        state = self.new_initial_state()
        for line in lines:
            if line.strip():
                state.apply_action(int(line))
        return state

    def __str__(self):
        return "stpete(" + ",".join(f"{k}={self._params[k]}" for k in sorted(self._params)) + ")"

    def __repr__(self):
        return f"<stpete.openspiel.Game {self}>"

    def __eq__(self, other):
        return isinstance(other, Game) and other._params == self._params

    def __hash__(self):
        return hash(str(self))


_JSON_TAG = "# stpete-state"


def _int(value, name, function):
    return _ffi.convert(c_int, value, name, function)


def _library_id(player, action, ns=False):
    """The library's id of OpenSpiel's (player, action): a chance outcome k is 972 + k, and with the New Society
    (ns) k >= 305 is 2188 + k - 305."""
    player = _int(player, "player", "action_to_string")
    action = _int(action, "action", "action_to_string")
    outcomes, actions = (_NS_NUM_OUTCOMES, _NS_NUM_ACTIONS) if ns else (_NUM_OUTCOMES, _NUM_ACTIONS)
    if player == PlayerId.CHANCE:
        if not 0 <= action < outcomes:
            raise InvalidArgumentError(f"chance outcome {action} is not in [0, {outcomes})")
        return action + _CHANCE_FIRST if action < _NUM_OUTCOMES else action - _NUM_OUTCOMES + _ffi.NS_CHANCE_CARD_FIRST
    if not 0 <= action < actions:
        raise InvalidArgumentError(f"action {action} is not in [0, {actions})")
    return action


def _openspiel_id(library_id):
    """OpenSpiel's action or chance outcome index of a library id (the inverse of :func:`_library_id`)."""
    if library_id >= _ffi.NS_CHANCE_CARD_FIRST:
        return library_id - _ffi.NS_CHANCE_CARD_FIRST + _NUM_OUTCOMES
    return library_id - _CHANCE_FIRST if _CHANCE_FIRST <= library_id < _ffi.NS_ACTION_FIRST else library_id


class State:
    """A position with pyspiel.State's methods; get one from :meth:`Game.new_initial_state`. Wraps a
    :class:`stpete.State` (``stpete_state``)."""

    def __init__(self, game: Game, state: _State) -> None:
        self._game = game
        self._state = state
        self._before: List[int] = []  # OpenSpiel history before the library's history began (a determinization's past)

    @property
    def stpete_state(self) -> _State:
        """The :class:`stpete.State` this state wraps (its lock guards every method here)."""
        return self._state

    def get_game(self) -> Game:
        return self._game

    # -- whose turn --

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` (-1) at a chance node, ``PlayerId.TERMINAL`` (-4) at the end."""
        return self._state._query(_C.stpete_state_current_player)

    def is_chance_node(self) -> bool:
        return self.current_player() == PlayerId.CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == PlayerId.TERMINAL

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def is_simultaneous_node(self) -> bool:
        return False

    def is_mean_field_node(self) -> bool:
        return False

    def is_initial_state(self) -> bool:
        return not self.history()

    def num_players(self) -> int:
        return self._game.num_players()

    # -- actions --

    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """The legal actions of ``player`` (default: the player to act), ascending: action ids for a seat,
        outcome indices in [0, ``max_chance_outcomes()``) for ``PlayerId.CHANCE``; empty for a player not to act and
        at the end."""
        st = self._state
        with st._lock:
            current = self.current_player()
            if player is not None and _int(player, "player", "legal_actions") != current:
                return []
            ids = st.legal_action_ids()
            if current == PlayerId.CHANCE:
                return [_openspiel_id(i) for i in ids]
            return ids

    def legal_actions_mask(self, player: Optional[int] = None) -> List[int]:
        """A list of 0/1 ints, 1 where :meth:`legal_actions` has the action: ``num_distinct_actions()`` entries for
        a seat, ``max_chance_outcomes()`` for ``PlayerId.CHANCE``."""
        st = self._state
        with st._lock:
            current = self.current_player()
            who = current if player is None else _int(player, "player", "legal_actions_mask")
            size = self._game.max_chance_outcomes() if who == PlayerId.CHANCE else self._game.num_distinct_actions()
            size = size or _NUM_OUTCOMES  # a sampled game's chance player has no outcome: an empty mask of 305
            mask = [0] * size
            for a in self.legal_actions(who):
                mask[a] = 1
            return mask

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """At a chance node, ``[(outcome, probability), ...]`` with outcomes in [0, ``max_chance_outcomes()``)
        ascending and exact
        probabilities adding up to 1 (stpete_state_chance_outcomes()); empty elsewhere."""
        return [(_openspiel_id(outcome.id), p) for outcome, p in self._state.chance_outcomes()]

    def apply_action(self, action: int) -> None:
        """Apply a legal action of the player to act, or at a chance node the chance outcome ``action`` (in
        [0, ``max_chance_outcomes()``)). Raises :class:`stpete.IllegalActionError` (state unchanged),
        :class:`stpete.GameOverError`, :class:`stpete.InvalidArgumentError` out of range, ``TypeError`` for a
        non-integer."""
        st = self._state
        with st._lock:
            st.apply(_library_id(self.current_player(), action, self._game._ns))

    apply_action_with_legality_check = apply_action

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action, which must be ``action`` of ``player`` (OpenSpiel ``UndoAction``): the state
        is then what it was before it (stpete_state_undo()). Raises :class:`stpete.InvalidArgumentError` when the
        last action is another one or nothing can be undone (state unchanged)."""
        st = self._state
        with st._lock:
            expected = _library_id(player, action, self._game._ns)
            history = st.local_history()
            if not history or history[-1] != expected:
                last = history[-1] if history else None
                raise InvalidArgumentError(f"undo_action({player}, {action}): the last action is "
                                           f"{'none' if last is None else _openspiel_id(last)}"
                                           f"{'' if last is None else ' (' + str(_move(last)) + ')'}")
            st.undo()
            if self.current_player() != player:
                st.apply(expected)
                raise InvalidArgumentError(f"undo_action({player}, {action}): that action was not {player}'s")

    def child(self, action: int) -> "State":
        """A new state: this one after ``action``."""
        state = self.clone()
        state.apply_action(action)
        return state

    def clone(self) -> "State":
        """An independent copy (its history too)."""
        state = State(self._game, self._state.clone())
        state._before = list(self._before)
        return state

    __copy__ = clone

    def __deepcopy__(self, memo: Any) -> "State":
        return self.clone()

    def action_to_string(self, player: int, action: Optional[int] = None) -> str:
        """``action_to_string(player, action)`` or ``action_to_string(action)`` (the player to act): the readable
        form, card names of the game's edition (§11)."""
        if action is None:
            player, action = self.current_player(), player
        return self._game.action_to_string(player, action)

    def string_to_action(self, player: Union[int, str], text: Optional[str] = None) -> int:
        """The action (or, for ``PlayerId.CHANCE``, the outcome index) written ``text``;
        ``string_to_action(text)`` for the player to act. Raises :class:`stpete.ParseError`."""
        seat: Union[int, str]
        if text is None:
            seat, written = self.current_player(), player
        else:
            seat, written = player, text
        if _int(seat, "player", "string_to_action") == PlayerId.CHANCE:
            return _openspiel_id(ChanceOutcome.parse(written).id)
        return Action.parse(written).id

    # -- results --

    def returns(self) -> List[float]:
        """Per player: 1/k for each of the k winners at the end, 0 for the others (§8, R14); all 0 before."""
        return self._state.returns()

    def rewards(self) -> List[float]:
        """Per player: the returns at the end (terminal rewards), 0 before."""
        return self._state.returns()

    def player_return(self, player: int) -> float:
        return self.returns()[_int(player, "player", "player_return")]

    def player_reward(self, player: int) -> float:
        return self.rewards()[_int(player, "player", "player_reward")]

    # -- what a player knows --

    def _player(self, player, function):
        if player is None:
            player = self.current_player()
            if player < 0:
                raise SpielError(f"{function}() needs a player at a chance node or at the end")
        return player

    def observation_tensor(self, player: Optional[int] = None) -> List[float]:
        """What ``player`` may know now (§9), ``observation_tensor_size()`` floats (668, 972 with the New Society; a
        list; layout in doc/observation.md)."""
        return self._state.observation_tensor(self._player(player, "observation_tensor")).tolist()

    def observation_string(self, player: Optional[int] = None) -> str:
        return self._state.observation_string(self._player(player, "observation_string"))

    def information_state_string(self, player: Optional[int] = None) -> str:
        """The information state of ``player`` with perfect recall (its key, its public-history hash and its
        observation)."""
        return self._state.information_state_string(self._player(player, "information_state_string"))

    def information_state_tensor(self, player: Optional[int] = None) -> List[float]:
        raise SpielError("stpete provides the information state as a string and a key, not as a tensor")

    # -- history --

    def history(self) -> List[int]:
        """Every action since the initial state, oldest first: player action ids and chance outcomes (in
        [0, ``max_chance_outcomes()``)) as OpenSpiel lists them."""
        return self._before + [_openspiel_id(i) for i in self._state.local_history()]

    def history_str(self) -> str:
        return ", ".join(map(str, self.history()))

    def move_number(self) -> int:
        return len(self.history())

    # -- serialization --

    def serialize(self) -> str:
        """Text that :meth:`Game.deserialize_state` reads: OpenSpiel's default (the history, one action per line)
        when the history replays from the game's seed; otherwise (a determinization) the library's JSON state and
        then the history."""
        st = self._state
        with st._lock:
            if st.history is not None and st.seed == self._game.stpete_game.seed and not self._before:
                return "".join(f"{a}\n" for a in self.history())
            return "\n".join([_JSON_TAG, st.to_json()] + [str(a) for a in self.history()]) + "\n"

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> "State":
        """A new state that ``player_id`` cannot tell from this one (OpenSpiel ``ResampleFromInfostate``;
        stpete_state_determinize() with flags 0, which reads the library's one definition of what a seat knows: the
        other players' unseen hand cards and, in sampled mode, the order of every stack are redrawn, and rubles the
        player does not know — another seat's secret rubles in a position loaded without ``rubles_recalled`` — are set to its
        own). ``probability_sampler()`` returns floats in [0, 1) (e.g. ``random.random``); two calls seed the
        draw. Positions the player cannot tell apart (equal :meth:`information_state_string`) give the same worlds
        for the same numbers. The history is kept: everything in it is public (§9)."""
        seed = 0
        for _ in range(2):
            seed = seed << 32 | min(int(probability_sampler() * 2 ** 32), 2 ** 32 - 1)
        state = self.clone()
        with state._state._lock:
            before = state.history()
            state._state.resample(_int(player_id, "player_id", "resample_from_infostate"), seed)
            state._before = before
        return state

    def __str__(self):
        return str(self._state)

    def __repr__(self):
        return f"<stpete.openspiel.State {self.history_str()[-60:]!r}>"

