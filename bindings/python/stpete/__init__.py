"""libstpete for Python: the complete rules of Saint Petersburg (first edition and the second-edition preset, 2-4
players) through ctypes.

    import stpete
    game = stpete.Game(players=4, seed=1, pub_cap="per-player")
    state = game.new_state()
    while not state.is_terminal:
        state.apply(state.legal_actions()[-1])
    print(state.final_scores, state.winners)

Pure standard library. The shared library is found as described in :mod:`stpete._ffi` (``STPETE_LIBRARY``, next to
the package, a build directory, the system search path). Rule references (§n, Rn) point to the project's rules
specification (doc/rules.md).
"""
from .errors import (BufferTooSmallError, ClosedError, GameOverError, IllegalActionError, InconsistentError,
                     InvalidArgumentError, LibraryNotFoundError, MismatchError, NotTerminalError, OutOfMemoryError,
                     NoPriceError, ParseError, RedactedError, ReentrantError, StPeteError, TooLargeError,
                     UnsupportedVersionError)
from ._ffi import (CHANCE_CARD_FIRST, CHANCE_MARKERS_FIRST, MAX_LEGAL_ACTIONS, NUM_CARD_TYPES, NUM_CARDS,
                   NUM_CHANCE_OUTCOMES, NUM_DISTINCT_ACTIONS)
from ._core import (Action, ActionKind, Card, CardInfo, ChanceMode, ChanceOutcome, Colour, Decision, Event,
                    EventKind, Game, Phase, PubCap, Score, Seat, Source, Special, Stack, State, TieBreak,
                    library_path, replay_from_json, replay_to_json, version)
from .env import StPeteEnv, env
from .bots import Bot, BotStats, play

__version__ = "0.3.0"

__all__ = [
    "Action", "ActionKind", "Card", "CardInfo", "ChanceMode", "ChanceOutcome", "Colour", "Decision", "Event",
    "EventKind", "Game", "Phase", "PubCap", "Score", "Seat", "Source", "Special", "Stack", "State", "TieBreak",
    "StPeteEnv", "env", "library_path", "version", "MAX_LEGAL_ACTIONS", "NUM_CARD_TYPES", "NUM_CARDS",
    "NUM_DISTINCT_ACTIONS", "NUM_CHANCE_OUTCOMES", "CHANCE_CARD_FIRST", "CHANCE_MARKERS_FIRST",
    "StPeteError", "InvalidArgumentError", "IllegalActionError", "BufferTooSmallError", "OutOfMemoryError",
    "GameOverError", "NotTerminalError", "ParseError", "UnsupportedVersionError", "MismatchError",
    "ReentrantError", "RedactedError", "InconsistentError", "TooLargeError", "NoPriceError", "ClosedError",
    "LibraryNotFoundError",
    "replay_to_json", "replay_from_json", "Bot", "BotStats", "play",
]
