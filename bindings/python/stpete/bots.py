"""The library's reference bots (``stpete/bots.h``): ``random``, ``greedy``, ``mc``, ``ismcts`` and ``learned`` (ismcts
with a learned evaluation, doc/learning.md).

    import stpete
    game = stpete.Game(players=2, seed=1)
    state = game.new_state()
    bots = [stpete.Bot("ismcts", iterations=1000, seed=1), stpete.Bot("greedy")]
    while not state.is_terminal:
        state.apply(bots[state.current_player].choose(state))

A bot is seat-independent: it chooses for whichever seat is to act in the state it is given, and uses only what
that seat may know (§9). The search bots are reproducible for a given seed and iteration budget (``ms=`` limits
are not). The kinds, keys and defaults are documented in ``bots.h``; :attr:`Bot.spec` is the canonical spec.
"""
import contextlib
import ctypes
import threading
from ctypes import byref, c_double, c_int, c_size_t
from typing import Any, List, Optional, Sequence

from . import _ffi
from ._core import Action, Game, State, _acquire_all, _lib, _Owner, _release_all
from .errors import ClosedError, InvalidArgumentError, error_for_status

__all__ = ["Bot", "BotStats", "play"]


def _spec_text(spec, params):
    if not isinstance(spec, str):
        raise TypeError(f"Bot(spec): spec must be a str such as 'ismcts' or 'mc:iterations=500', not {spec!r}")
    parts = [spec]
    for key, value in params.items():
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise TypeError(f"Bot parameter {key}={value!r}: expected an int, a float or a str")
        parts.append(f"{key}={value}")
    return ":".join(parts)


def _new_bot(game, text):
    """A new ``stpete_bot *`` for ``game``; raises the status's exception with the library's message."""
    ptr = _ffi.BotPtr()
    err = _ffi.new(_ffi.ErrorStruct)
    # checked as every string passed to C is (_ffi.CONVERSIONS): a NUL is refused, never cut ('random\0:x' is no
    # "random" bot)
    spec = _ffi.convert(ctypes.c_char_p, text, "spec", "stpete_bot_new")
    rc = _lib.stpete_bot_new(game.handle, spec, byref(ptr), byref(err))
    if rc < 0:
        raise error_for_status(rc)(f"{err.message.decode('utf-8', 'replace')} (spec {text!r})", status=rc,
                                   function="stpete_bot_new")
    return ptr


class BotStats:
    """What the last :meth:`Bot.choose` did (``stpete_bot_stats``): ``iterations`` (determinized playouts),
    ``elapsed_ns``, ``nodes`` (ismcts tree), ``playout_actions``, ``value`` (mean return of the chosen action for
    the acting seat, or greedy's projected score in VP), ``action`` (an :class:`~stpete.Action`, or None before
    the first choice), ``seat``, ``legal_actions``."""

    __slots__ = ("iterations", "elapsed_ns", "nodes", "playout_actions", "value", "action", "seat", "legal_actions")

    def __init__(self, s):
        self.iterations = s.iterations
        self.elapsed_ns = s.elapsed_ns
        self.nodes = s.nodes
        self.playout_actions = s.playout_actions
        self.value = s.value
        self.action = Action.from_id(s.action) if s.action >= 0 else None
        self.seat = s.seat
        self.legal_actions = s.legal_actions

    def __repr__(self):
        fields = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__)
        return f"BotStats({fields})"


class Bot(_Owner):
    """A reference bot (``stpete_bot``) from a spec and keyword parameters: ``Bot("random", seed=3)``,
    ``Bot("greedy")``, ``Bot("mc", iterations=500, playout="greedy")``, ``Bot("ismcts", iterations=2000, c=0.7)``,
    or a whole spec ``Bot("ismcts:iterations=2000:seed=3")``.

    A bad spec raises :class:`~stpete.ParseError` or :class:`~stpete.InvalidArgumentError` at once, with the
    library's message. ``game`` binds the bot to a :class:`~stpete.Game`; without it the bot binds to the game of
    the first state it is given, and then plays states of games with the same rule options (else
    :class:`~stpete.MismatchError`). Owns its handle: ``close()``, context manager, garbage collection; it keeps
    its game alive.

    Threads: a bot may be shared by threads. Every C call of a bot holds the bot's own lock and the lock of each
    :class:`~stpete.State` it reads (taken together without deadlock, see :meth:`choose_id`), so calls of one bot
    run one after another — from two threads on two states, too — and a state is not changed or closed under the
    bot's feet. (``bots.h``: a ``stpete_bot`` is for one thread at a time; the binding enforces it.)

    Pickling (and ``copy.deepcopy``) gives a new bot of the same spec, game and :meth:`set_seed` seed: its PRNG
    starts afresh, as after ``set_seed``; the statistics of the last choice are not carried.
    """

    def __init__(self, spec: str = "random", game: Optional[Game] = None, **params: Any) -> None:
        self._lock = threading.RLock()
        self._busy = 0  # play() calls under way that use this bot (their event callbacks may close it)
        self._ptr = None
        self._game = None
        self._text = _spec_text(spec, params)
        self._seed: Optional[int] = None  # a set_seed() made before the bot is bound
        if game is not None and not isinstance(game, Game):
            raise TypeError(f"Bot(game=): game must be a stpete.Game or None, not {type(game).__name__}")
        probe_game = game if game is not None else Game(players=2)
        probe = _new_bot(probe_game, self._text)  # the spec is checked now, before any game starts
        try:
            self._spec = self._read_spec(probe)
        finally:
            _lib.stpete_bot_free(probe)
        if game is not None:
            self._bind(game)

    @staticmethod
    def _read_spec(ptr):
        buf = ctypes.create_string_buffer(_ffi.BOT_SPEC_MAX)
        n = c_size_t()
        _lib.stpete_bot_spec(ptr, buf, len(buf), byref(n))
        return buf.value.decode()

    def _bind(self, game):
        # counted among the game's open handles while the game is locked: its handle outlives the bot
        self._ptr = game._attach(lambda game_handle: _new_bot(game, self._text))
        self._game = game
        if self._seed is not None:
            _lib.stpete_bot_set_seed(self._ptr, self._seed)

    def _handle(self, state=None):
        """The handle (bound to ``state``'s game first if need be); call with the bot's lock held."""
        if getattr(self, "_closed", False):
            raise ClosedError("the bot is closed")
        if self._game is None and self._ptr is None and state is not None:
            if getattr(self, "_closed", False):
                raise ClosedError("the bot is closed")
            self._bind(state.game)
        if self._ptr is None:
            raise ClosedError("the bot is closed" if getattr(self, "_closed", False) else "the bot is not bound to "
                              "a game yet: give it a state first")
        return self._ptr

    @contextlib.contextmanager
    def _using(self, state=None):
        """The bot's lock and ``state``'s, held together (:func:`~stpete._core._acquire_all`); yields the handle."""
        taken = _acquire_all([self._lock] + ([state._lock] if state is not None else []))
        try:
            yield self._handle(state)
        finally:
            _release_all(taken)

    def _check(self, rc, function):
        if rc < 0:
            detail = _lib.stpete_bot_last_error(self._ptr).decode("utf-8", "replace")
            raise error_for_status(rc)(f"{detail} ({function})", status=rc, function=function)
        return rc

    @property
    def spec(self) -> str:
        """The canonical spec: every key with its value, defaults filled in (``stpete_bot_spec``)."""
        return self._spec

    @property
    def game(self) -> Optional[Game]:
        """The :class:`~stpete.Game` the bot is bound to, or None before its first state."""
        return self._game

    def set_seed(self, seed: int) -> None:
        """Reseed the bot's own PRNG (``seed``: an int in [0, 2**64)): the same states then give the same choices
        (iteration budgets). Raises ``TypeError`` for a seed that is not an int,
        :class:`~stpete.InvalidArgumentError` for one out of range."""
        seed = _ffi.convert(ctypes.c_uint64, seed, "seed", "Bot.set_seed")
        with self._lock:
            self._seed = seed
            if self._ptr is not None:
                _lib.stpete_bot_set_seed(self._ptr, self._seed)

    def choose_id(self, state: State) -> int:
        """The id of the action chosen for the seat to act in ``state`` (a :class:`~stpete.State`; unchanged).
        Holds the bot's lock and the state's for the call: another thread's apply or close of the state, and
        another thread's use of the bot, wait until it returns. Raises ``TypeError`` for a ``state`` that is not a
        State, :class:`~stpete.ClosedError` for a closed bot or state, :class:`~stpete.GameOverError` on a
        finished game, :class:`~stpete.MismatchError` for a state of a game with other rule options."""
        if not isinstance(state, State):
            raise TypeError(f"choose(state): state must be a stpete.State, not {type(state).__name__}")
        out = c_int(-1)
        with self._using(state) as ptr:
            self._check(_lib.stpete_bot_choose(ptr, state.handle, byref(out)), "stpete_bot_choose")
        return out.value

    def choose(self, state: State) -> Action:
        """The :class:`~stpete.Action` chosen for the seat to act in ``state`` (see :meth:`choose_id`)."""
        return Action.from_id(self.choose_id(state))

    def evaluate(self, state: State) -> List[float]:
        """The returns the bot's searches give ``state`` where a playout stops, one per seat, adding up to 1: 1/k
        per winner at the end, before it the softmax of the projected scores (``stpete_bot_evaluate``), which reads
        every seat's hidden cards and rubles: meant for determinized states; for a ``learned`` bot, its network on
        the observation tensor of the seat to act (only what that seat knows, §9; doc/learning.md). Locks as :meth:`choose_id` does
        (the state cannot be closed during the call); raises ``TypeError`` for a ``state`` that is not a State,
        :class:`~stpete.ClosedError`, :class:`~stpete.MismatchError`."""
        if not isinstance(state, State):
            raise TypeError(f"evaluate(state): state must be a stpete.State, not {type(state).__name__}")
        out = (c_double * _ffi.MAX_PLAYERS)()
        with self._using(state) as ptr:
            self._check(_lib.stpete_bot_evaluate(ptr, state.handle, out, len(out)), "stpete_bot_evaluate")
        return list(out[:state.players])

    @property
    def stats(self) -> BotStats:
        """:class:`BotStats` of the last choice (``stpete_bot_get_stats``)."""
        s = _ffi.BotStatsStruct()
        s.struct_size = ctypes.sizeof(s)
        s.action = s.seat = -1
        with self._lock:
            if self._ptr is not None:
                self._check(_lib.stpete_bot_get_stats(self._ptr, byref(s)), "stpete_bot_get_stats")
        return BotStats(s)

    def close(self):
        """Free the handle (idempotent). From another thread, waits until a call of the bot returns. From an event
        callback of a :func:`play` that uses the bot, deferred: the bot is closed at once for later calls
        (:class:`~stpete.ClosedError`) and freed when that play returns."""
        lock = getattr(self, "_lock", None)
        if lock is None:  # __init__ did not get that far
            return
        with lock:
            self._closed = True
            if self._busy:
                return
            ptr, self._ptr = self._ptr, None
            if ptr is not None:
                _lib.stpete_bot_free(ptr)
                game, self._game = self._game, None
                game._state_closed()

    def __reduce__(self):
        with self._lock:
            return (_bot_from_pickle, (self._spec, self._game, self._seed))

    def __repr__(self):
        return f"Bot({self._spec!r}{', closed' if getattr(self, '_closed', False) else ''})"


def _bot_from_pickle(spec, game, seed):
    """Unpickle a :class:`Bot`: its canonical spec, its game (or None before its first state) and its set_seed."""
    bot = Bot(spec, game=game)
    if seed is not None:
        bot.set_seed(seed)
    return bot


def play(state: State, bots: Sequence["Bot"], max_actions: int = 0) -> int:
    """Play ``state`` forward in one library call (``stpete_bot_play``): while a seat is to act, ``bots[seat]``
    chooses and its action is applied, until the game is over, a chance node of the explicit-chance mode is
    reached (apply an outcome, then call again) or ``max_actions`` actions were applied (0 = no limit). Returns the
    number of actions applied. ``bots`` is a sequence of :class:`Bot`, one per seat (the same bot may play several
    seats). Much faster than a Python loop of :meth:`Bot.choose` and :meth:`State.apply` for cheap bots: one C
    call per game instead of three per action. Raises the library's error (e.g. :class:`~stpete.MismatchError`
    for a bot of other rule options); the state then holds the actions applied before the failure. The state's
    event callback runs during the call: an exception it raises is re-raised when the call has returned, and a
    ``close()`` of the state or of one of the ``bots`` there is deferred until then (the game is played on)."""
    if not isinstance(state, State):
        raise TypeError("play(state, bots): state must be a stpete.State")
    bots = list(bots)
    if any(not isinstance(b, Bot) for b in bots):
        raise TypeError("play(state, bots): bots must be stpete.Bot objects, one per seat")
    if len(bots) < state.players:
        raise InvalidArgumentError(f"play(): {len(bots)} bots for {state.players} seats",
                                   function="stpete_bot_play")
    limit = _ffi.convert(c_size_t, max_actions, "max_actions", "play")
    played = c_size_t(0)
    # every bot's lock and the state's, together (as Bot.choose_id): no other thread uses them meanwhile
    taken = _acquire_all([b._lock for b in bots] + [state._lock])
    pending = None
    try:
        ptrs = (_ffi.BotPtr * len(bots))(*[b._handle(state) for b in bots])
        handle = state.handle
        # a close() of the state or of a bot from the event callback is deferred until the call returns (as
        # State._call does): the C call goes on using them
        state._busy += 1
        for b in bots:
            b._busy += 1
        try:
            rc = _lib.stpete_bot_play(ptrs, len(bots), handle, limit, byref(played))
            pending, state._pending = state._pending, None  # the callback's exception, re-raised below
            if state._queue_limit is not None:
                state._trim_events(handle)
            error = _play_error(state, ptrs, rc, played.value, handle) if rc < 0 else None
        finally:
            state._busy -= 1
            for b in bots:
                b._busy -= 1
            for b in bots:
                if not b._busy and getattr(b, "_closed", False) and b._ptr is not None:
                    b.close()
            if not state._busy and state._close_requested:
                state._free()
        if pending is not None:
            raise pending
        if error is not None:
            raise error
    finally:
        _release_all(taken)
    return played.value


def _play_error(state, ptrs, rc, played, handle=None):
    """The exception for a failed stpete_bot_play on ``state`` (under its lock; ``handle``: its handle, default
    ``state.handle``) with the bots ``ptrs``: the message of the bot of the seat that was to act, else the
    state's (a failed apply)."""
    handle = state.handle if handle is None else handle
    seat = _lib.stpete_state_current_player(handle)
    detail = ""
    if 0 <= seat < len(ptrs):
        detail = _lib.stpete_bot_last_error(ptrs[seat]).decode("utf-8", "replace")
    if not detail:
        detail = _lib.stpete_state_last_error(handle).decode("utf-8", "replace")
    return error_for_status(rc)(f"{detail} (stpete_bot_play, after {played} actions)", status=rc,
                                function="stpete_bot_play")
