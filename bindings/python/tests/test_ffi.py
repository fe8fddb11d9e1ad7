"""The one function table: every exported C function is declared (and nothing else), with argument types, result
type and error check; struct layouts agree with the library."""
import ctypes
import os
import re
import shutil
import subprocess
import unittest

import stpete
import support
from stpete import _ffi, _core
from stpete.errors import error_for_status
from support import LIBRARY, SOURCE_ROOT


def exported_symbols(path):
    out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TWiDBR":
            names.add(parts[2].split("@")[0])
    return {n for n in names if n.startswith("stpete_")}


def map_symbols(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return set(re.findall(r"^\s*(stpete_\w+);", text, re.M))


class Table(unittest.TestCase):
    @unittest.skipUnless(shutil.which("nm"), "nm (binutils) not installed")
    def test_table_equals_exported_symbols(self):
        exported = exported_symbols(os.path.realpath(LIBRARY))
        self.assertGreater(len(exported), 40)
        table = set(_ffi.FUNCTIONS)
        self.assertEqual(sorted(exported - table), [], "exported by the library but missing from the table")
        self.assertEqual(sorted(table - exported), [], "in the table but not exported by the library")

    def test_table_equals_version_script(self):
        mapped = map_symbols(os.path.join(SOURCE_ROOT, "lib", "libstpete.map"))
        table = set(_ffi.FUNCTIONS)
        self.assertEqual(sorted(mapped - table), [], "in lib/libstpete.map but missing from the table")
        self.assertEqual(sorted(table - mapped), [], "in the table but not in lib/libstpete.map")

    def test_every_function_declared(self):
        lib = _core._lib
        for name, (restype, params, check) in _ffi.FUNCTIONS.items():
            with self.subTest(name=name):
                fn = getattr(lib, name)
                self.assertEqual(fn.restype, restype)
                self.assertEqual(list(fn.argtypes), [t for _, t in params])
                self.assertIn(check, (_ffi.STATUS, _ffi.VALUE, _ffi.STATE, _ffi.ERROR, _ffi.RAW))
                if check != _ffi.RAW:
                    self.assertIsNotNone(fn.errcheck)

    def test_opaque_handles_are_distinct_types(self):
        game = stpete.Game(players=2)
        with self.assertRaises(ctypes.ArgumentError):
            _core._lib.stpete_state_round(game.handle)  # a game where a state is expected
        state = game.new_state()
        with self.assertRaises(ctypes.ArgumentError):
            _core._lib.stpete_game_num_players(state.handle)
        self.assertEqual(_core._lib.stpete_game_num_players(game.handle), 2)
        self.assertEqual(ctypes.addressof(_core._lib.stpete_state_game(state.handle).contents),
                         ctypes.addressof(game.handle.contents))

    def test_options_layout(self):
        opts = support.Options11()
        _core._lib.stpete_options_init_size(support.options_pointer(opts), ctypes.sizeof(opts))
        self.assertEqual(opts.struct_size, ctypes.sizeof(support.Options11))  # a released layout (1.1)
        self.assertEqual((opts.new_society, opts.markers_one_seat, opts.used_prison_scores,
                          opts.textile_without_new_society), (0, 0, 0, 0))
        # the 1.0 symbol writes the 1.0 layout only (a program built against 1.0 has no more), issue 30
        old = support.Options11()
        old.new_society = 77
        _core._lib.stpete_options_init(support.options_pointer(old))
        self.assertEqual(old.struct_size, support.Options11.new_society.offset)
        self.assertEqual((old.new_society, old.edition), (77, 1))
        self.assertEqual((opts.players, opts.seed, opts.pub_cap, opts.tie_break), (4, 0, 0, 0))
        self.assertEqual(list(opts.start_markers), [-1, -1, -1, -1])
        self.assertEqual((opts.public_rubles, opts.public_hands), (0, 0))
        # the binding's own struct is the library's size (stpete_options_new), whatever options it has
        ptr = ctypes.POINTER(_ffi.OptionsStruct)()
        _core._lib.stpete_options_new(ctypes.byref(ptr), _ffi.new(_ffi.ErrorStruct))
        self.assertGreaterEqual(ctypes.cast(ptr, ctypes.POINTER(ctypes.c_size_t))[0], ctypes.sizeof(opts))
        _core._lib.stpete_options_free(ptr)

    def test_constants(self):
        self.assertEqual(_core._lib.stpete_num_distinct_actions(), stpete.NUM_DISTINCT_ACTIONS)
        self.assertEqual(len(stpete.Card), stpete.NUM_CARD_TYPES)
        with self.assertRaises(stpete.InvalidArgumentError):  # 1.0: stpete_card_get_info() replaced card_name()
            stpete.Game(players=2).card_name(stpete.NUM_CARD_TYPES)
        self.assertEqual(sum(c.info.copies for c in stpete.Card), stpete.NUM_CARDS)

    def test_card_enum_matches_library_names(self):
        for card in stpete.Card:
            with self.subTest(card=card.name):
                printed = str(card)
                self.assertEqual(printed, card.info.name)
                self.assertIs(stpete.Card.from_name(printed.lower()), card)


def header_values(path):
    """The enums of stpete.h ({enum name: [constant, ...]}) and the value of every enum constant and numeric
    #define ({STPETE_NAME: int}), read from the header as a C compiler would count them."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    values, enums = {}, {}

    def evaluate(expr):
        expr = expr.strip()
        while expr.startswith("(") and expr.endswith(")"):
            expr = expr[1:-1].strip()
        if "+" in expr:  # a sum of constants, e.g. (STPETE_CHANCE_CARD_FIRST + STPETE_NUM_CARD_TYPES)
            return sum(evaluate(term) for term in expr.split("+"))
        if re.fullmatch(r"-?\d+u?", expr):
            return int(expr.rstrip("u"))
        return values[expr]

    for enum_name, body in re.findall(r"enum (stpete_\w+)\s*\{(.*?)\}", text, re.S):
        value = -1
        enums[enum_name] = []
        for item in filter(None, (i.strip() for i in body.split(","))):
            ident, _, expr = (part.strip() for part in item.partition("="))
            value = evaluate(expr) if expr else value + 1
            values[ident] = value
            enums[enum_name].append(ident)
    for ident, expr in re.findall(r"^#define (STPETE_\w+)[ \t]+(\(?-?\d+u?\)?|\(?[\w +]+\)?)[ \t]*$", text, re.M):
        if ident in ("STPETE_STPETE_H", "STPETE_API"):
            continue
        values[ident] = evaluate(expr)
    return enums, values


class HeaderByValue(unittest.TestCase):
    """Issue 11, item 6: the Python enums and constants are compared with stpete.h by name AND value, and with
    the library's own name functions."""

    @classmethod
    def setUpClass(cls):
        cls.enums, cls.values = header_values(os.path.join(SOURCE_ROOT, "include", "stpete", "stpete.h"))
        bot_enums, bot_values = header_values(os.path.join(SOURCE_ROOT, "include", "stpete", "bots.h"))
        cls.enums.update(bot_enums)  # bots.h: the reference bots' constants (stpete.Bot)
        cls.values.update(bot_values)

    def test_enums(self):
        pairs = [("stpete_card", "STPETE_CARD_", stpete.Card), ("stpete_colour", "STPETE_COLOUR_", stpete.Colour),
                 ("stpete_card_new_society", "STPETE_CARD_", stpete.NewSocietyCard),
                 ("stpete_special", "STPETE_SPECIAL_", stpete.Special),
                 ("stpete_source", "STPETE_SOURCE_", stpete.Source), ("stpete_stack", "STPETE_STACK_", stpete.Stack),
                 ("stpete_phase", "STPETE_PHASE_", stpete.Phase),
                 ("stpete_decision", "STPETE_DECISION_", stpete.Decision),
                 ("stpete_action_kind", "STPETE_ACTION_", stpete.ActionKind),
                 ("stpete_event_kind", "STPETE_EVENT_", stpete.EventKind),
                 ("stpete_pub_cap", "STPETE_PUB_CAP_", stpete.PubCap),
                 ("stpete_tie_break", "STPETE_TIE_BREAK_", stpete.TieBreak),
                 ("stpete_chance_mode", "STPETE_CHANCE_", stpete.ChanceMode),
                 ("stpete_edition", "STPETE_EDITION_", stpete.Edition), ("stpete_pick", "STPETE_PICK_", stpete.Pick),
                 ("stpete_option_type", "STPETE_OPTION_", stpete.OptionType),
                 ("stpete_option_category", "STPETE_OPTION_", stpete.OptionCategory),
                 ("stpete_games", "STPETE_GAMES_", stpete.Games)]
        self.assertEqual(sorted(e for e, _, _ in pairs), sorted(self.enums), "an enum of stpete.h has no Python twin")
        for enum_name, prefix, cls in pairs:
            with self.subTest(enum=enum_name):
                header = {c[len(prefix):]: self.values[c] for c in self.enums[enum_name] if c.startswith(prefix)}
                python = {name: int(member) for name, member in cls.__members__.items()}  # aliases included
                if cls is stpete.Decision:  # Python keeps 0.3's name as an alias; 1.0's header dropped it
                    del python["NONE"]
                self.assertEqual(python, header)
        self.assertEqual(self.enums["stpete_card"][-1], "STPETE_NUM_CARD_TYPES")

    def test_constants(self):
        constants = {k: v for k, v in vars(_ffi).items() if k.isupper() and type(v) is int}
        # FAILED_MAX is the bound of STPETE_FAILED(), a macro
        for name in sorted(set(constants) - {"EXPECTED_MAJOR", "MIN_VERSION", "FAILED_MAX"}):
            with self.subTest(constant=name):
                self.assertIn("STPETE_" + name, self.values)
                self.assertEqual(constants[name], self.values["STPETE_" + name])
        self.assertGreaterEqual(len(constants), 15)
        self.assertEqual(support.Options11.start_markers.size // ctypes.sizeof(ctypes.c_int),
                         self.values["STPETE_NUM_PHASES"])

    def test_statuses(self):
        statuses = {k[len("STPETE_E_"):]: v for k, v in self.values.items() if k.startswith("STPETE_E_")
                    and k not in ("STPETE_E_FIRST", "STPETE_E_LAST")}  # the bounds of the range, not codes
        self.assertEqual((min(statuses.values()), max(statuses.values())),
                         (self.values["STPETE_E_LAST"], self.values["STPETE_E_FIRST"]))
        self.assertGreaterEqual(len(statuses), 14)
        for name, value in statuses.items():
            with self.subTest(status=name):
                cls = getattr(stpete, "".join(w.capitalize() for w in name.split("_")) + "Error")
                self.assertEqual(cls.status, value)
                self.assertIs(error_for_status(value), cls)

    def test_name_functions(self):
        lib = _core._C
        for function, cls in ((lib.stpete_phase_name, stpete.Phase), (lib.stpete_stack_name, stpete.Stack),
                              (lib.stpete_decision_name, stpete.Decision), (lib.stpete_source_name, stpete.Source),
                              (lib.stpete_event_kind_name, stpete.EventKind),
                              (lib.stpete_action_kind_name, stpete.ActionKind)):
            with self.subTest(function=function.__name__):
                words, value = {}, 0
                while function(value) is not None:
                    words[function(value).decode()] = value
                    value += 1
                self.assertIsNone(function(-1))
                self.assertEqual({m.name.lower().replace("_", "-"): int(m) for m in cls}, words)
        self.assertEqual(lib.stpete_decision_name(stpete.Decision.GAME_OVER), b"game-over")
        self.assertIs(stpete.Decision.NONE, stpete.Decision.GAME_OVER)  # the former name, an alias

if __name__ == "__main__":
    unittest.main()
