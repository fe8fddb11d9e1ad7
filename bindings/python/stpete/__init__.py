"""libstpete for Python: the complete rules of Saint Petersburg (first edition and the second-edition preset, 2-4
players; the New Society expansion with 2-5 players, Game(new_society=True)) through ctypes, standard library only.
Rule references (§n, Rn) point to the rules specification (doc/rules.md; §12 the New Society, doc/expansion.md).

The package, in brief:

    options            the library's table of options: every keyword of Game, its type, default, words, rule
    Game, State        a game's rule options and a position: Game(players=4, seed=1).new_state(); queries
                       (rows, displays, hands, rubles, VP, prices, displacements, scores, winners), apply and
                       undo, clone, events, JSON (to_json, State.from_json, per-seat views, replay records)
    Action             state.legal_actions() gives Actions; apply an Action, its id or its words
                       ("take Market from lower"); Card, CardInfo, Colour, Phase, Source, ... name the rest
    Bot, play          the library's bots: Bot("ismcts", iterations=1000, seed=1).choose(state);
                       play(state, bots) plays on in one library call
    search, learning   State.chance_outcomes, returns, observation_tensor, information_state_key, determinize
    stpete.openspiel   pyspiel's names and semantics: openspiel.load_game("stpete") for OpenSpiel code
    stpete.pettingzoo  a pettingzoo.AECEnv (imports PettingZoo); stpete.env() is its standard-library twin
    stpete.experiment  rule experiments: python3 -m stpete.experiment (stpete-experiment after pip)
    errors             StPeteError, and a subclass per status: IllegalActionError, ParseError, ...

    import stpete
    state = stpete.Game(players=4, seed=1, pub_cap="per-player").new_state()
    while not state.is_terminal:
        state.apply(state.legal_actions()[-1])
    print(state.final_scores, state.winners)

The shared library is found as described in stpete._ffi (STPETE_LIBRARY, next to the package, a build directory,
the system search path).
"""
from .errors import (BufferTooSmallError, ClosedError, GameOverError, IllegalActionError, InconsistentError,
                     InvalidArgumentError, LibraryNotFoundError, MismatchError, NotTerminalError, OutOfMemoryError,
                     NoPriceError, ParseError, RedactedError, ReentrantError, StPeteError, TooLargeError,
                     UnsupportedVersionError)
from ._ffi import (CHANCE_CARD_FIRST, CHANCE_MARKERS_FIRST, MAX_LEGAL_ACTIONS, NUM_CARD_TYPES, NUM_CARDS,
                   NUM_CHANCE_OUTCOMES, NUM_DISTINCT_ACTIONS)
from ._core import (Action, ActionKind, Card, CardInfo, ChanceMode, ChanceOutcome, Colour, Decision, Edition, Event,
                    EventKind, Game, Games, NewSocietyCard, Offer, Option, OptionCategory, OptionType, Phase, Pick,
                    PubCap, Score, Seat, Source, Special, Stack, State, TieBreak, check_options, library_path,
                    options, read_results_line, replay_from_json, replay_to_json, results_game_line, results_hash,
                    results_header, version)
from .env import StPeteEnv, env
from .bots import Bot, BotStats, play

__version__ = "1.2.0"

__all__ = [
    "Action", "ActionKind", "Card", "CardInfo", "ChanceMode", "ChanceOutcome", "Colour", "Decision", "Edition", "Event",
    "EventKind", "Game", "Games", "NewSocietyCard", "Offer", "Option", "OptionCategory", "OptionType", "Phase", "Pick",
    "PubCap", "Score", "Seat", "Source", "Special", "Stack", "State", "TieBreak", "options", "check_options",
    "StPeteEnv", "env", "library_path", "version", "MAX_LEGAL_ACTIONS", "NUM_CARD_TYPES", "NUM_CARDS",
    "NUM_DISTINCT_ACTIONS", "NUM_CHANCE_OUTCOMES", "CHANCE_CARD_FIRST", "CHANCE_MARKERS_FIRST",
    "StPeteError", "InvalidArgumentError", "IllegalActionError", "BufferTooSmallError", "OutOfMemoryError",
    "GameOverError", "NotTerminalError", "ParseError", "UnsupportedVersionError", "MismatchError",
    "ReentrantError", "RedactedError", "InconsistentError", "TooLargeError", "NoPriceError", "ClosedError",
    "LibraryNotFoundError",
    "replay_to_json", "replay_from_json", "results_hash", "results_header", "results_game_line",
    "read_results_line", "Bot", "BotStats", "play",
]
