"""Low-level ctypes layer: finding and loading libstpete, the C structs, ONE table declaring every exported C
function (argument names and types, result type, error check), and one checked conversion per C type.

ctypes truncates silently: 2**32 passed as a C ``int`` arrives as 0, and a ``char *`` ends at its first NUL byte.
:func:`checked` wraps every function of the table so that each Python argument is converted by the conversion of
its C type first (:data:`CONVERSIONS`): an ``int`` argument must be an integer (not a bool or float:
``TypeError``) in the C type's range (else :class:`~stpete.errors.InvalidArgumentError`, status -101, naming
the argument), a seed an integer in [0, 2**64) (negative seeds are refused, not reduced), a string ``str`` or
``bytes`` without NUL. :func:`set_fields` applies the same conversions to the fields of a struct.

Load order (README "Python"; as in PySDL2's and llvmlite's loaders), first hit wins:

1. the ``STPETE_LIBRARY`` environment variable (a path to the shared library; when set, it is the only candidate);
2. the package: a ``libstpete.so.1`` (soname 1) next to this package, then the library directory recorded by
   ``meson install``;
3. a build directory: ``build/`` or ``builddir/`` in this package's folder or any folder above it (source tree);
4. ``ctypes.util.find_library("stpete")`` (the system's library search path).

If nothing loads, :class:`~stpete.errors.LibraryNotFoundError` lists every place tried and why it failed. After
loading, the run-time version (``stpete_version_number()``) must have the major version this binding was written
for, and be at least :data:`MIN_VERSION`.
"""
import ctypes
import ctypes.util
import operator
import os
import sys
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_double, c_float, c_int, c_int64, c_longlong,
                    c_size_t, c_uint, c_uint8, c_uint64, c_void_p, sizeof)

from .errors import InvalidArgumentError, LibraryNotFoundError, UnsupportedVersionError, error_for_status

#: ABI major version this binding speaks (the library's soversion, STPETE_VERSION_MAJOR): the 1.0 API.
EXPECTED_MAJOR = 1
#: Oldest library version (MAJOR * 10000 + MINOR * 100 + PATCH) that exports every function of the table.
MIN_VERSION = 10100

# Constants of include/stpete/stpete.h (tests/test_ffi.py compares them with the header by value).
NUM_CARD_TYPES = 49
NUM_CARDS = 116
NUM_DISTINCT_ACTIONS = 972
MAX_LEGAL_ACTIONS = 160
MAX_LEGAL_ACTIONS_NEW_SOCIETY = 400
NUM_DISTINCT_ACTIONS_NEW_SOCIETY = 2188
NUM_CARD_TYPES_NEW_SOCIETY = 62
NUM_CARDS_NEW_SOCIETY = 144
NS_ACTION_FIRST = 1277
NS_CHANCE_CARD_FIRST = 2188
NS_CHANCE_MARKERS_FIRST = 2201
NS_ID_END = 2826
FORMAT_VERSION_NEW_SOCIETY = 4
ACTION_STRING_MAX = 96
OPTION_VALUE_MAX = 32
BOARD_SIZE = 8
MAX_HAND = 4
MAX_PLAYERS = 5
MIN_PLAYERS = 2
PLAYER_TERMINAL = -4
PLAYER_CHANCE = -1
FORMAT_VERSION = 3
VIEW_PUBLIC = -1
NUM_PHASES = 4
NUM_STACKS = 4
JSON_STATE_MAX = 1048576
JSON_REPLAY_MAX = 4194304
RESULTS_HASH_SIZE = 17
RESULTS_GAME_MAX = 9007199254740991
EVENT_STRING_MAX = 192
CHANCE_CARD_FIRST = 972
CHANCE_MARKERS_FIRST = 1021
NUM_CHANCE_OUTCOMES = 305
DETERMINIZE_RUBLES = 1
MAX_OFFERS = 256
CARD_TEXT_MAX = 384
TABLE_VERSION = 1
TABLE_CARDS = 1
TABLE_PERSON = 2
VP_MAX = 100000
RUBLES_MAX = 100000
CARD_NONE = -1
NONE = -1
EDITION_FIRST = 1
EDITION_SECOND = 2
#: The status codes are [E_LAST, E_FIRST]; every int result <= FAILED_MAX is a status (STPETE_FAILED()).
E_FIRST = -101
E_LAST = -114
FAILED_MAX = -100


# ---- opaque handle types: one pointer type per handle, so ctypes refuses a game where a state is expected ----
class _GameHandle(Structure):
    """Opaque ``stpete_game``."""


class _StateHandle(Structure):
    """Opaque ``stpete_state``."""


GamePtr = POINTER(_GameHandle)
StatePtr = POINTER(_StateHandle)


# ---- structs (layouts as in stpete.h) -------------------------------------------------------------------
# The structs that may grow begin with ``struct_size``: make them with :func:`new` (the STPETE_*_INIT macros).
class CardInfoStruct(Structure):
    _fields_ = [("struct_size", c_size_t), ("name", c_char_p), ("colour", c_int), ("trading", c_int),
                ("cost", c_int), ("rubles", c_int), ("vp", c_int), ("copies", c_int), ("ware", c_int),
                ("special", c_int), ("stack", c_int)]


class ActionStruct(Structure):
    _fields_ = [("kind", c_int), ("source", c_int), ("card", c_int), ("displaced", c_int), ("stack", c_int),
                ("amount", c_int)]


class AllocatorStruct(Structure):
    _fields_ = [("malloc_fn", c_void_p), ("realloc_fn", c_void_p), ("free_fn", c_void_p), ("user", c_void_p)]


class OptionsStruct(Structure):
    """``stpete_options``, opaque here: this binding allocates it at the library's own size
    (``stpete_options_new()``) and reaches every option by its name (``stpete_options_set()``,
    ``stpete_options_value()``; the table of options), never by a member, so a library with more options needs no
    change here."""


class OptionInfoStruct(Structure):
    """``stpete_option_info`` (1.2): one option of the library's table (its strings are static)."""
    _fields_ = [("struct_size", c_size_t), ("name", c_char_p), ("title", c_char_p), ("description", c_char_p),
                ("rule", c_char_p), ("type", c_int), ("category", c_int), ("games", c_int), ("min", c_int64),
                ("max", c_int64), ("default_value", c_int64), ("default_text", c_char_p), ("num_words", c_int),
                ("words", POINTER(c_char_p)), ("labels", POINTER(c_char_p))]


class ScoreStruct(Structure):
    _fields_ = [("struct_size", c_size_t)] + [(name, c_int) for name in (
        "vp_before", "aristocrat_kinds", "aristocrat_bonus", "rubles", "rubles_bonus", "hand_cards", "hand_penalty",
        "total", "tie_break")]


class DisplacementStruct(Structure):
    _fields_ = [("displaced", c_int), ("price", c_int)]


class OfferStruct(Structure):
    _fields_ = [("action", c_int), ("source", c_int), ("card", c_int), ("displaced", c_int), ("price", c_int)]


class EventStruct(Structure):
    _fields_ = [("struct_size", c_size_t)] + [(name, c_int) for name in (
        "kind", "seat", "card", "displaced", "source", "stack", "price", "rubles", "vp", "amount", "phase", "round",
        "edition")]


class ErrorStruct(Structure):
    """``stpete_error``: the detail of a failed call without a handle (constructors, parsers, options check)."""
    _fields_ = [("struct_size", c_size_t), ("status", c_int), ("line", c_int), ("column", c_int),
                ("position", c_int), ("message", c_char * 256)]


#: The STPETE_*_INIT macros: the members that are not 0 in a new struct (struct_size is set by :func:`new`).
_INIT = {
    CardInfoStruct: {"ware": -1},
    OptionInfoStruct: {},
    ScoreStruct: {},
    EventStruct: dict({name: NONE for name, _ in EventStruct._fields_[1:]}, edition=1),
    ErrorStruct: {"line": -1, "column": -1, "position": -1},
}


def new(struct_type):
    """A new struct of one of the types that may grow, as its ``STPETE_*_INIT`` macro makes it: ``struct_size``
    set to this binding's ``sizeof`` (the library then reads and writes only those members), the other members
    their initial values."""
    struct = struct_type(sizeof(struct_type), **_INIT[struct_type])
    return struct


#: ``stpete_event_fn``: void (*)(const stpete_state *, const stpete_event *, void *user_data)
EVENT_FN = CFUNCTYPE(None, StatePtr, POINTER(EventStruct), c_void_p)

# ---- error checks ----------------------------------------------------------------------------------------
# A result <= FAILED_MAX (-100) is a status code (STPETE_FAILED()); values and sentinels are above it.
# STATUS: the result is a status (0 or a code); a code raises with stpete_strerror() and the arguments.
# VALUE:  the result is a value (a count, or a sentinel in [-99, -1]) or a status code (same check, the value is
#         returned).
# STATE:  like STATUS, but the message is stpete_state_last_error() of the first argument (calls that set it).
# ERROR:  like STATUS, but the message, and the line, column and position of a JSON syntax error, come from the
#         last argument, a stpete_error (constructors, parsers, bot specs: pass an ErrorStruct from new()).
# RAW:    no check: the result is returned as is (void, strings, and calls whose callers read the status).
STATUS, VALUE, STATE, ERROR, RAW = "status", "value", "state", "error", "raw"

_int_p = POINTER(c_int)
_size_p = POINTER(c_size_t)

#: name -> (result type, ((argument name, ctypes type), ...), check). Every exported C function, and only those
#: (tests/test_ffi.py compares this table with the library's dynamic symbols and lib/libstpete.map).
FUNCTIONS = {
    # cards (§2, §11)
    "stpete_card_get_info": (c_int, (("edition", c_int), ("card", c_int), ("out", POINTER(CardInfoStruct))), STATUS),
    "stpete_card_from_name": (c_int, (("name", c_char_p), ("card", _int_p)), STATUS),
    # actions
    "stpete_action_decode": (c_int, (("id", c_int), ("out", POINTER(ActionStruct))), STATUS),
    "stpete_action_encode": (c_int, (("action", POINTER(ActionStruct)), ("id", _int_p)), STATUS),
    "stpete_action_to_string": (c_int, (("edition", c_int), ("id", c_int), ("buf", c_char_p), ("capacity", c_size_t)),
                                STATUS),
    "stpete_action_from_string": (c_int, (("str", c_char_p), ("id", _int_p)), STATUS),
    # options and games
    "stpete_options_init": (None, (("opts", POINTER(OptionsStruct)),), RAW),
    "stpete_options_init_size": (None, (("opts", POINTER(OptionsStruct)), ("capacity", c_size_t)), RAW),
    # RAW: Game() reads the status and err's message itself
    "stpete_options_check": (c_int, (("opts", POINTER(OptionsStruct)), ("err", POINTER(ErrorStruct))), RAW),
    # the table of options (1.2): every option by name; an options struct of the library's own size
    "stpete_option_count": (c_int, (), RAW),
    "stpete_option_get_info": (c_int, (("option", c_int), ("out", POINTER(OptionInfoStruct))), STATUS),
    "stpete_option_from_name": (c_int, (("name", c_char_p), ("option", _int_p)), RAW),
    "stpete_options_new": (c_int, (("out", POINTER(POINTER(OptionsStruct))), ("err", POINTER(ErrorStruct))), ERROR),
    "stpete_options_free": (None, (("opts", POINTER(OptionsStruct)),), RAW),
    # RAW: the callers say which option and value the library refused
    "stpete_options_set": (c_int, (("opts", POINTER(OptionsStruct)), ("name", c_char_p), ("value", c_char_p),
                                   ("err", POINTER(ErrorStruct))), RAW),
    "stpete_options_value": (c_int, (("opts", POINTER(OptionsStruct)), ("name", c_char_p), ("buf", c_char_p),
                                     ("capacity", c_size_t), ("len", _size_p)), STATUS),
    "stpete_game_new": (c_int, (("opts", POINTER(OptionsStruct)), ("out", POINTER(GamePtr)),
                                ("err", POINTER(ErrorStruct))), ERROR),
    "stpete_game_free": (None, (("game", GamePtr),), RAW),
    "stpete_game_get_options": (c_int, (("game", GamePtr), ("out", POINTER(OptionsStruct))), STATUS),
    "stpete_game_num_players": (c_int, (("game", GamePtr),), VALUE),
    "stpete_game_edition": (c_int, (("game", GamePtr),), VALUE),
    "stpete_game_is_new_society": (c_int, (("game", GamePtr), ("new_society", _int_p)), STATUS),
    "stpete_game_num_card_types": (c_int, (("game", GamePtr),), VALUE),
    "stpete_game_num_distinct_actions": (c_int, (("game", GamePtr),), VALUE),
    "stpete_game_get_card_info": (c_int, (("game", GamePtr), ("card", c_int), ("out", POINTER(CardInfoStruct))),
                                  STATUS),
    # STPETE_OK or STPETE_E_MISMATCH (both answers, so no exception): whether two games are the same game
    "stpete_game_check_compatible": (c_int, (("a", GamePtr), ("b", GamePtr)), RAW),
    "stpete_game_max_length": (c_int, (("game", GamePtr),), VALUE),
    "stpete_num_distinct_actions": (c_int, (), RAW),
    # states: life cycle
    "stpete_state_new": (c_int, (("game", GamePtr), ("out", POINTER(StatePtr)), ("err", POINTER(ErrorStruct))),
                         ERROR),
    "stpete_state_new_with_callback": (c_int, (("game", GamePtr), ("fn", EVENT_FN), ("user_data", c_void_p),
                                               ("out", POINTER(StatePtr)), ("err", POINTER(ErrorStruct))), ERROR),
    "stpete_state_reset": (c_int, (("state", StatePtr), ("seed", c_uint64)), STATE),
    "stpete_state_free": (None, (("state", StatePtr),), RAW),
    "stpete_state_clone": (c_int, (("src", StatePtr), ("out", POINTER(StatePtr)), ("err", POINTER(ErrorStruct))),
                           ERROR),
    "stpete_state_copy": (c_int, (("dst", StatePtr), ("src", StatePtr)), STATE),
    "stpete_state_equal": (c_int, (("a", StatePtr), ("b", StatePtr), ("equal", _int_p)), STATUS),
    "stpete_state_game": (GamePtr, (("state", StatePtr),), RAW),
    "stpete_state_last_error": (c_char_p, (("state", StatePtr),), RAW),
    # states: legal actions and apply
    "stpete_state_current_player": (c_int, (("state", StatePtr),), RAW),
    "stpete_state_is_terminal": (c_int, (("state", StatePtr), ("terminal", _int_p)), STATUS),
    "stpete_state_decision": (c_int, (("state", StatePtr),), VALUE),
    "stpete_state_legal_actions": (c_int, (("state", StatePtr), ("ids", _int_p), ("capacity", c_size_t),
                                           ("count", _size_p)), STATUS),
    "stpete_state_legal_action_mask": (c_int, (("state", StatePtr), ("mask", POINTER(c_uint8)),
                                               ("capacity", c_size_t)), STATUS),
    "stpete_state_is_legal": (c_int, (("state", StatePtr), ("id", c_int), ("legal", _int_p)), STATUS),
    "stpete_state_random_action": (c_int, (("state", StatePtr), ("random", c_uint64), ("id", _int_p)), STATUS),
    "stpete_state_action_price": (c_int, (("state", StatePtr), ("id", c_int), ("rubles", _int_p)), RAW),
    "stpete_state_apply": (c_int, (("state", StatePtr), ("id", c_int)), STATE),
    "stpete_state_apply_string": (c_int, (("state", StatePtr), ("str", c_char_p)), STATE),
    "stpete_state_apply_random": (c_int, (("state", StatePtr), ("random", c_uint64), ("pick", c_int), ("id", _int_p)),
                                  STATE),
    "stpete_state_apply_tracked": (c_int, (("state", StatePtr), ("id", c_int), ("freed", _int_p)), STATE),
    # states: what a front end draws
    "stpete_state_phase": (c_int, (("state", StatePtr),), VALUE),
    "stpete_state_round": (c_int, (("state", StatePtr),), VALUE),
    "stpete_state_is_final_round": (c_int, (("state", StatePtr), ("final_round", _int_p)), STATUS),
    "stpete_state_consecutive_passes": (c_int, (("state", StatePtr),), VALUE),
    "stpete_state_row": (c_int, (("state", StatePtr), ("row", c_int), ("cards", _int_p), ("capacity", c_size_t),
                                 ("count", _size_p)), STATUS),
    "stpete_state_stack_size": (c_int, (("state", StatePtr), ("stack", c_int)), VALUE),
    "stpete_state_display_count": (c_int, (("state", StatePtr), ("seat", c_int), ("card", c_int)), VALUE),
    "stpete_state_display": (c_int, (("state", StatePtr), ("seat", c_int), ("cards", _int_p),
                                     ("capacity", c_size_t), ("count", _size_p)), STATUS),
    "stpete_state_hand": (c_int, (("state", StatePtr), ("seat", c_int), ("cards", _int_p), ("capacity", c_size_t),
                                  ("count", _size_p)), STATUS),
    "stpete_state_hand_limit": (c_int, (("state", StatePtr), ("seat", c_int)), VALUE),
    "stpete_state_rubles": (c_int, (("state", StatePtr), ("seat", c_int)), VALUE),
    "stpete_state_rubles_visible": (c_int, (("state", StatePtr), ("viewer", c_int), ("seat", c_int),
                                            ("visible", _int_p)), STATUS),
    "stpete_state_visible_rubles": (c_int, (("state", StatePtr), ("viewer", c_int), ("seat", c_int),
                                            ("rubles", _int_p)), STATUS),
    "stpete_state_vp": (c_int, (("state", StatePtr), ("seat", c_int), ("vp", _int_p)), STATUS),
    "stpete_state_observatories_used": (c_int, (("state", StatePtr), ("seat", c_int)), VALUE),
    "stpete_state_observatory_card": (c_int, (("state", StatePtr),), VALUE),
    "stpete_state_is_prison_used": (c_int, (("state", StatePtr), ("seat", c_int), ("used", _int_p)), STATUS),
    "stpete_state_prison_card": (c_int, (("state", StatePtr),), VALUE),
    "stpete_state_gold_disc_holder": (c_int, (("state", StatePtr),), VALUE),
    "stpete_state_marker_holder": (c_int, (("state", StatePtr), ("phase", c_int)), VALUE),
    "stpete_state_discard_count": (c_int, (("state", StatePtr), ("card", c_int)), VALUE),
    "stpete_state_price": (c_int, (("state", StatePtr), ("seat", c_int), ("card", c_int), ("source", c_int),
                                   ("displaced", c_int), ("price", _int_p)), STATUS),
    "stpete_state_displacements": (c_int, (("state", StatePtr), ("seat", c_int), ("card", c_int), ("source", c_int),
                                           ("out", POINTER(DisplacementStruct)), ("capacity", c_size_t),
                                           ("count", _size_p)), STATUS),
    "stpete_state_get_score": (c_int, (("state", StatePtr), ("seat", c_int), ("out", POINTER(ScoreStruct))),
                               STATUS),
    # 1.2: what a front end asks (issue 41)
    "stpete_state_offers": (c_int, (("state", StatePtr), ("seat", c_int), ("out", POINTER(OfferStruct)),
                                    ("capacity", c_size_t), ("count", _size_p)), STATUS),
    "stpete_state_income": (c_int, (("state", StatePtr), ("seat", c_int), ("phase", c_int), ("rubles", _int_p),
                                    ("vp", _int_p)), STATUS),
    "stpete_state_next_scoring": (c_int, (("state", StatePtr),), VALUE),
    "stpete_state_last_discards": (c_int, (("state", StatePtr), ("cards", _int_p), ("capacity", c_size_t),
                                           ("count", _size_p)), STATUS),
    "stpete_game_card_text": (c_int, (("game", GamePtr), ("card", c_int), ("buf", c_char_p), ("capacity", c_size_t),
                                      ("len", _size_p)), STATUS),
    "stpete_state_table_to_json": (c_int, (("state", StatePtr), ("seat", c_int), ("since", c_int),
                                           ("flags", c_uint), ("buf", c_char_p), ("capacity", c_size_t),
                                           ("len", _size_p)), STATUS),
    "stpete_state_winners": (c_int, (("state", StatePtr), ("mask", POINTER(c_uint))), STATUS),
    # events
    "stpete_state_set_event_callback": (c_int, (("state", StatePtr), ("fn", EVENT_FN), ("user_data", c_void_p)),
                                        STATE),
    "stpete_state_set_event_queue": (c_int, (("state", StatePtr), ("enabled", c_int)), STATE),
    # 1 (an event written), 0 (the queue is empty) or a status
    "stpete_state_next_event": (c_int, (("state", StatePtr), ("out", POINTER(EventStruct))), STATE),
    "stpete_state_pending_events": (c_int, (("state", StatePtr),), VALUE),
    "stpete_event_kind_name": (c_char_p, (("kind", c_int),), RAW),
    "stpete_action_kind_name": (c_char_p, (("kind", c_int),), RAW),
    "stpete_event_to_string": (c_int, (("event", POINTER(EventStruct)), ("state", StatePtr), ("buf", c_char_p),
                                       ("capacity", c_size_t)), STATUS),
    # hidden information (§9)
    "stpete_state_determinize": (c_int, (("state", StatePtr), ("seat", c_int), ("seed", c_uint64),
                                         ("flags", c_uint)), STATE),
    # search and learning (OpenSpiel's vocabulary)
    "stpete_state_chance_outcomes": (c_int, (("state", StatePtr), ("outcomes", _int_p),
                                             ("probabilities", POINTER(c_double)), ("capacity", c_size_t),
                                             ("count", _size_p)), STATUS),
    "stpete_state_returns": (c_int, (("state", StatePtr), ("out", POINTER(c_double)), ("capacity", c_size_t)),
                             STATUS),
    "stpete_game_observation_tensor_size": (c_int, (("game", GamePtr),), VALUE),
    "stpete_state_observation_tensor": (c_int, (("state", StatePtr), ("seat", c_int), ("out", POINTER(c_float)),
                                                ("capacity", c_size_t)), STATUS),
    "stpete_state_observation_string": (c_int, (("state", StatePtr), ("seat", c_int), ("buf", c_char_p),
                                                ("capacity", c_size_t), ("len", _size_p)), STATUS),
    "stpete_state_information_state_string": (c_int, (("state", StatePtr), ("seat", c_int), ("buf", c_char_p),
                                                      ("capacity", c_size_t), ("len", _size_p)), STATUS),
    "stpete_state_information_state_key": (c_int, (("state", StatePtr), ("seat", c_int),
                                                   ("key", POINTER(c_uint64))), STATUS),
    "stpete_state_history": (c_int, (("state", StatePtr), ("ids", _int_p), ("capacity", c_size_t),
                                     ("count", _size_p)), STATUS),
    "stpete_state_undo": (c_int, (("state", StatePtr),), STATE),
    # serialization (JSON)
    "stpete_state_to_json": (c_int, (("state", StatePtr), ("buf", c_char_p), ("capacity", c_size_t),
                                     ("len", _size_p)), STATUS),
    "stpete_state_view_to_json": (c_int, (("state", StatePtr), ("seat", c_int), ("buf", c_char_p),
                                          ("capacity", c_size_t), ("len", _size_p)), STATUS),
    "stpete_game_from_json": (c_int, (("json", c_char_p), ("len", c_size_t), ("alloc", POINTER(AllocatorStruct)),
                                      ("out", POINTER(GamePtr)), ("err", POINTER(ErrorStruct))), ERROR),
    "stpete_state_from_json": (c_int, (("game", GamePtr), ("json", c_char_p), ("len", c_size_t),
                                       ("out", POINTER(StatePtr)), ("err", POINTER(ErrorStruct))), ERROR),
    "stpete_replay_to_json": (c_int, (("game", GamePtr), ("seed", c_uint64), ("actions", _int_p),
                                      ("count", c_size_t), ("buf", c_char_p), ("capacity", c_size_t),
                                      ("len", _size_p)), STATUS),
    "stpete_replay_from_json": (c_int, (("json", c_char_p), ("len", c_size_t), ("alloc", POINTER(AllocatorStruct)),
                                        ("game_out", POINTER(GamePtr)), ("actions", _int_p), ("capacity", c_size_t),
                                        ("count", _size_p), ("err", POINTER(ErrorStruct))), ERROR),
    # results files (stpete.experiment's and stpete-arena's)
    "stpete_results_hash": (c_int, (("definition", c_char_p), ("buf", c_char_p), ("capacity", c_size_t),
                                    ("len", _size_p)), STATUS),
    "stpete_results_header_to_json": (c_int, (("program", c_char_p), ("definition", c_char_p), ("buf", c_char_p),
                                              ("capacity", c_size_t), ("len", _size_p)), STATUS),
    "stpete_results_game_to_json": (c_int, (("game", GamePtr), ("definition", c_char_p), ("number", c_longlong),
                                            ("seed", c_uint64), ("actions", _int_p), ("count", c_size_t),
                                            ("fields", c_char_p), ("buf", c_char_p), ("capacity", c_size_t),
                                            ("len", _size_p)), STATUS),
    "stpete_results_read_line": (c_int, (("game", GamePtr), ("program", c_char_p), ("definition", c_char_p),
                                         ("line", c_char_p), ("len", c_size_t), ("state", StatePtr),
                                         ("number", POINTER(c_longlong)), ("seed", POINTER(c_uint64)),
                                         ("fields", c_char_p), ("capacity", c_size_t), ("fields_len", _size_p),
                                         ("err", POINTER(ErrorStruct))), ERROR),
    # names (the words of the JSON format)
    "stpete_phase_name": (c_char_p, (("phase", c_int),), RAW),
    "stpete_stack_name": (c_char_p, (("stack", c_int),), RAW),
    "stpete_decision_name": (c_char_p, (("decision", c_int),), RAW),
    "stpete_source_name": (c_char_p, (("source", c_int),), RAW),
    "stpete_colour_name": (c_char_p, (("colour", c_int),), RAW),
    "stpete_options_pub_cap_name": (c_char_p, (("pub_cap", c_int),), RAW),
    "stpete_options_tie_break_name": (c_char_p, (("tie_break", c_int),), RAW),
    "stpete_options_chance_mode_name": (c_char_p, (("chance_mode", c_int),), RAW),
    "stpete_options_pub_cap_from_name": (c_int, (("name", c_char_p), ("pub_cap", _int_p)), STATUS),
    "stpete_options_tie_break_from_name": (c_int, (("name", c_char_p), ("tie_break", _int_p)), STATUS),
    "stpete_options_chance_mode_from_name": (c_int, (("name", c_char_p), ("chance_mode", _int_p)), STATUS),
    # library
    "stpete_strerror": (c_char_p, (("status", c_int),), RAW),
    "stpete_version": (c_char_p, (), RAW),
    "stpete_version_number": (c_int, (), RAW),
}


# ---- checked conversions: one per C type, applied before ctypes can truncate ----------------------------------
def _integer(ctype, cname):
    """The conversion of an integer C type: an int (or an object with ``__index__``, e.g. an IntEnum), not a bool,
    in the type's range."""
    bits = 8 * ctypes.sizeof(ctype)
    signed = ctype(-1).value < 0
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)

    def convert(value, name, function):
        if type(value) is not int:
            if isinstance(value, bool) or not hasattr(type(value), "__index__"):
                raise TypeError(f"{function}(): {name} must be an int, not {type(value).__name__}")
            value = operator.index(value)
        if not low <= value <= high:
            raise InvalidArgumentError(f"{function}({name}={value}): invalid argument: {name} must be in "
                                       f"[{low}, {high}] (a C {cname})", function=function)
        return value

    convert.range = (low, high)
    return convert


def _string(value, name, function):
    """The conversion of a ``const char *``: ``str`` (encoded as UTF-8) or ``bytes``, without NUL (C would stop
    there); a ctypes buffer (an output) or None (NULL) is passed as it is."""
    if isinstance(value, str):
        value = value.encode("utf-8")
    elif isinstance(value, (bytearray, memoryview)):
        value = bytes(value)
    elif value is None or isinstance(value, ctypes.Array):
        return value
    elif not isinstance(value, bytes):
        raise TypeError(f"{function}(): {name} must be str or bytes, not {type(value).__name__}")
    if b"\0" in value:
        raise InvalidArgumentError(f"{function}(): invalid argument: {name} contains a NUL character at offset "
                                   f"{value.index(0)} (a C string would end there)", function=function)
    return value


#: C type -> checked conversion ``convert(value, name, function) -> value``; types not listed (pointers, structs,
#: callbacks) are checked by ctypes itself.
CONVERSIONS = {
    c_int: _integer(c_int, "int"),
    c_uint: _integer(c_uint, "unsigned int"),
    c_uint8: _integer(c_uint8, "uint8_t"),
    c_size_t: _integer(c_size_t, "size_t"),
    c_uint64: _integer(c_uint64, "uint64_t"),
    c_longlong: _integer(c_longlong, "long long"),
    c_char_p: _string,
}


def convert(ctype, value, name, function):
    """``value`` checked and converted for a C argument or field of type ``ctype`` (see :data:`CONVERSIONS`).
    Raises ``TypeError`` for a wrong type, :class:`~stpete.errors.InvalidArgumentError` for a value out of range
    or a string with NUL; both name ``name`` and ``function``."""
    conversion = CONVERSIONS.get(ctype)
    return value if conversion is None else conversion(value, name, function)


def set_fields(struct, function, values):
    """Set fields of a ctypes struct from a dict, each converted by its C type (arrays element by element, with
    their length checked)."""
    types = dict(struct._fields_)
    for name, value in values.items():
        ctype = types[name]
        if issubclass(ctype, ctypes.Array):
            if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
                raise TypeError(f"{function}(): {name} must be a sequence of {ctype._length_} ints, "
                                f"not {type(value).__name__}")
            if len(value) != ctype._length_:
                raise InvalidArgumentError(f"{function}(): {name} must have {ctype._length_} entries, not "
                                           f"{len(value)}", function=function)
            array = getattr(struct, name)
            for i, item in enumerate(value):
                array[i] = convert(ctype._type_, item, f"{name}[{i}]", function)
        else:
            setattr(struct, name, convert(ctype, value, name, function))


def _checked_function(fn, name, params):
    """``fn`` behind the conversions of its argument types. The wrapper is generated with the arguments spelled
    out (as dataclasses and namedtuple do), so that a plain int in range costs one type test and one comparison."""
    if not any(ctype in CONVERSIONS for _, ctype in params):
        return fn
    args = [f"a{i}" for i in range(len(params))]
    lines = [f"def {name}({', '.join(args)}):"]
    scope = {"_fn": fn}
    for i, (pname, ctype) in enumerate(params):
        conversion = CONVERSIONS.get(ctype)
        if conversion is None:
            continue
        scope[f"_c{i}"] = conversion
        call = f"a{i} = _c{i}(a{i}, {pname!r}, {name!r})"
        if hasattr(conversion, "range"):  # an integer: the common case inline
            low, high = conversion.range
            lines.append(f"    if type(a{i}) is not int or not {low} <= a{i} <= {high}: {call}")
        else:
            lines.append(f"    {call}")
    lines.append(f"    return _fn({', '.join(args)})")
    exec("\n".join(lines), scope)  # the names and types come from FUNCTIONS above, nothing else
    wrapper = scope[name]
    wrapper.__wrapped__ = fn
    return wrapper


class Checked:
    """Every function of :data:`FUNCTIONS` as an attribute, its arguments converted by :data:`CONVERSIONS` before
    the ctypes call (the binding calls the library only through this)."""

    def __init__(self, lib):
        for name, (_, params, _) in FUNCTIONS.items():
            setattr(self, name, _checked_function(getattr(lib, name), name, params))


def checked(lib):
    """The :class:`Checked` functions of a library returned by :func:`load_library`."""
    return Checked(lib)


def _describe_args(names, args):
    shown = []
    for name, value in zip(names, args):
        if isinstance(value, bool) or not isinstance(value, (int, bytes, str)):
            continue
        shown.append(f"{name}={value.decode(errors='replace') if isinstance(value, bytes) else value!r}")
    return ", ".join(shown)


def _make_errcheck(lib, name, names, check):
    strerror = lib.stpete_strerror
    last_error = lib.stpete_state_last_error

    def errcheck(result, func, args):
        if result > FAILED_MAX:
            return result
        cls = error_for_status(result)
        text = (strerror(result) or b"unknown status").decode()
        err = None
        if check == ERROR and args[-1] is not None:
            err = getattr(args[-1], "_obj", args[-1])  # the ErrorStruct, passed as it is or by byref()
            detail = err.message.decode("utf-8", "replace")
            if err.line > 0:
                detail += f" at line {err.line}, column {err.column}"
        else:
            detail = last_error(args[0]).decode("utf-8", "replace") if check == STATE else ""
        if detail:
            message = f"{detail} ({name}: {text})"
        else:
            shown = _describe_args(names, args)
            message = f"{name}({shown}): {text}"
        exc = cls(message, status=result, function=name)
        if err is not None and err.line > 0:
            exc.line, exc.column, exc.position = err.line, err.column, err.position
        raise exc

    return errcheck


def _declare(lib):
    # strerror and last_error first: the error checks use them.
    for name in ("stpete_strerror", "stpete_state_last_error"):
        restype, params, _ = FUNCTIONS[name]
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = [t for _, t in params]
    for name, (restype, params, check) in FUNCTIONS.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = [t for _, t in params]
        if check != RAW:
            fn.errcheck = _make_errcheck(lib, name, [n for n, _ in params], check)


def _library_names():
    if sys.platform == "darwin":
        return (f"libstpete.{EXPECTED_MAJOR}.dylib", "libstpete.dylib")
    if sys.platform == "win32":
        return (f"stpete-{EXPECTED_MAJOR}.dll", "stpete.dll", f"libstpete-{EXPECTED_MAJOR}.dll")
    return (f"libstpete.so.{EXPECTED_MAJOR}", "libstpete.so")


def _candidates():
    """(where, path) pairs in load order, without the environment variable."""
    here = os.path.dirname(os.path.abspath(__file__))
    names = _library_names()
    for n in names:
        yield "package", os.path.join(here, n)
    try:
        from . import _install_config  # written by meson install
        for n in names:
            yield "installed libdir", os.path.join(_install_config.LIBDIR, n)
    except ImportError:
        pass
    folder = os.path.dirname(here)
    seen = set()
    while folder not in seen:
        seen.add(folder)
        for build in ("build", "builddir"):
            for n in names:
                yield "build dir", os.path.join(folder, build, n)
        folder = os.path.dirname(folder)
    yield "find_library", ctypes.util.find_library("stpete")


def load_library(path=None, environ=None):
    """Find, load and declare libstpete (see the module docstring for the order).

    :param path: an explicit path to try instead of the search.
    :param environ: the environment to read ``STPETE_LIBRARY`` from (default ``os.environ``).
    :returns: the ``ctypes.CDLL`` with every function of :data:`FUNCTIONS` declared.
    :raises LibraryNotFoundError: nothing could be loaded (the message lists every place tried).
    :raises UnsupportedVersionError: the library's version does not match this binding.
    """
    environ = os.environ if environ is None else environ
    if path is not None:
        candidates = [("argument", path)]
    elif environ.get("STPETE_LIBRARY"):
        candidates = [("STPETE_LIBRARY", environ["STPETE_LIBRARY"])]
    else:
        candidates = list(_candidates())
    tried = []
    lib = None
    for where, candidate in candidates:
        if where not in ("find_library", "STPETE_LIBRARY", "argument") and not os.path.exists(candidate):
            tried.append(f"  {where}: {candidate} (no such file)")
            continue
        if candidate is None:
            tried.append(f'  {where}: ctypes.util.find_library("stpete") found nothing')
            continue
        try:
            lib = ctypes.CDLL(candidate)
        except OSError as e:
            tried.append(f"  {where}: {candidate} ({e})")
            continue
        missing = [name for name in FUNCTIONS if not hasattr(lib, name)]
        if missing:
            tried.append(f"  {where}: {candidate} (lacks {', '.join(missing[:3])}{'...' if len(missing) > 3 else ''};"
                         f" too old for this binding)")
            lib = None
            continue
        break
    if lib is None:
        raise LibraryNotFoundError("cannot load libstpete; tried, in order:\n" + "\n".join(tried) +
                                   f"\nSet STPETE_LIBRARY to the path of {_library_names()[0]}, or install the "
                                   f"library.")
    _declare(lib)
    number = lib.stpete_version_number()
    if number // 10000 != EXPECTED_MAJOR or number < MIN_VERSION:
        raise UnsupportedVersionError(
            f"{candidate} is libstpete {lib.stpete_version().decode()}; this binding needs major version "
            f"{EXPECTED_MAJOR}, at least {MIN_VERSION // 10000}.{MIN_VERSION // 100 % 100}.{MIN_VERSION % 100}",
            function="stpete_version_number")
    return lib


# ---- the reference bots (stpete/bots.h, version node STPETE_1.0) --------------------------------------------
from ctypes import c_double  # noqa: E402 (kept with the bots' declarations)


class _BotHandle(Structure):
    """Opaque ``stpete_bot``."""


BotPtr = POINTER(_BotHandle)
BOT_SPEC_MAX = 256


class BotStatsStruct(Structure):
    _fields_ = [("struct_size", c_size_t), ("iterations", c_uint64), ("elapsed_ns", c_uint64), ("nodes", c_uint64),
                ("playout_actions", c_uint64), ("value", c_double), ("action", c_int), ("seat", c_int),
                ("legal_actions", c_int)]


# RAW: stpete/bots.py checks the statuses itself, with stpete_bot_last_error() or stpete_bot_new()'s stpete_error.
FUNCTIONS.update({
    "stpete_bot_new": (c_int, (("game", GamePtr), ("spec", c_char_p), ("out", POINTER(BotPtr)),
                               ("err", POINTER(ErrorStruct))), RAW),
    "stpete_bot_free": (None, (("bot", BotPtr),), RAW),
    "stpete_bot_set_seed": (c_int, (("bot", BotPtr), ("seed", c_uint64)), RAW),
    "stpete_bot_choose": (c_int, (("bot", BotPtr), ("state", StatePtr), ("action", _int_p)), RAW),
    "stpete_bot_spec": (c_int, (("bot", BotPtr), ("buf", c_char_p), ("capacity", c_size_t), ("len", _size_p)),
                        RAW),
    "stpete_bot_last_error": (c_char_p, (("bot", BotPtr),), RAW),
    "stpete_bot_evaluate": (c_int, (("bot", BotPtr), ("state", StatePtr), ("returns", POINTER(c_double)),
                                    ("capacity", c_size_t)), RAW),
    "stpete_bot_get_stats": (c_int, (("bot", BotPtr), ("out", POINTER(BotStatsStruct))), RAW),
    "stpete_bot_play": (c_int, (("bots", POINTER(BotPtr)), ("count", c_size_t), ("state", StatePtr),
                                ("max_actions", c_size_t), ("played", _size_p)), RAW),
})
