"""The one function table: every exported C function is declared (and nothing else), with argument types, result
type and error check; struct layouts agree with the library."""
import ctypes
import os
import re
import shutil
import subprocess
import unittest

import stpete
from stpete import _ffi, _core
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
    text = open(path, encoding="utf-8").read()
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
                self.assertIn(check, (_ffi.STATUS, _ffi.VALUE, _ffi.STATE, _ffi.RAW))
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
        opts = _ffi.OptionsStruct()
        _core._lib.stpete_options_init(ctypes.byref(opts))
        self.assertEqual(opts.struct_size, ctypes.sizeof(_ffi.OptionsStruct))  # the library's own sizeof
        self.assertEqual((opts.players, opts.seed, opts.pub_cap, opts.tie_break), (4, 0, 0, 0))
        self.assertEqual(list(opts.start_markers), [-1, -1, -1, -1])
        self.assertEqual((opts.public_rubles, opts.public_hands), (0, 0))

    def test_constants(self):
        self.assertEqual(_core._lib.stpete_num_distinct_actions(), stpete.NUM_DISTINCT_ACTIONS)
        self.assertEqual(len(stpete.Card), stpete.NUM_CARD_TYPES)
        self.assertIsNone(_core._lib.stpete_card_name(stpete.NUM_CARD_TYPES))
        self.assertEqual(sum(c.info.copies for c in stpete.Card), stpete.NUM_CARDS)

    def test_card_enum_matches_library_names(self):
        for card in stpete.Card:
            with self.subTest(card=card.name):
                printed = str(card)
                self.assertEqual(printed, card.info.name)
                self.assertIs(stpete.Card.from_name(printed.lower()), card)

    def test_header_enums_match(self):
        header = open(os.path.join(SOURCE_ROOT, "include", "stpete", "stpete.h"), encoding="utf-8").read()
        for prefix, cls in (("STPETE_CARD_", stpete.Card), ("STPETE_EVENT_", stpete.EventKind),
                            ("STPETE_ACTION_", stpete.ActionKind),
                            ("STPETE_DECISION_", stpete.Decision), ("STPETE_SPECIAL_", stpete.Special)):
            body = re.search(r"enum stpete_\w+ \{([^}]*" + prefix + r"[^}]*)\}", header).group(1)
            names = [m for m in re.findall(r"^\s*" + prefix + r"(\w+)", body, re.M)]
            with self.subTest(enum=cls.__name__):
                self.assertEqual(names, list(cls.__members__))  # aliases (Decision.NONE) included


if __name__ == "__main__":
    unittest.main()
