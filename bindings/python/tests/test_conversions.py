"""Checked conversions (issue 10, finding 4): Python ints and strings reach C only through one conversion per C
type (stpete._ffi.CONVERSIONS), so nothing is truncated: ints at 2**31, 2**32, 2**63, negative, bools and floats
get TypeError / InvalidArgumentError naming the argument, strings with NUL are refused, bool options must be bools.
Every refusal leaves the state unchanged."""
import ctypes
import os
import re
import unittest

import stpete
import support
from stpete import Action, Card, Game, Source, State, _core, _ffi
from support import HERE

HUGE = (2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 63, 2 ** 64, 2 ** 100, -2 ** 31 - 1, -2 ** 63, -2 ** 64)
NOT_INTS = (True, False, 1.0, 2.7, None, b"1", [1])


class Index:
    """An integer-like object (as numpy's integers are): accepted through __index__."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


class ActionIds(unittest.TestCase):
    def setUp(self):
        self.state = Game(players=2, seed=6).new_state()
        self.before = self.state.clone()

    def tearDown(self):
        self.assertEqual(self.state, self.before)  # every refusal left the state unchanged
        self.assertEqual(self.state.history, ())

    def test_apply_out_of_int_range(self):
        for bad in HUGE:
            with self.subTest(id=bad), self.assertRaises(stpete.InvalidArgumentError) as cm:
                self.state.apply(bad)  # 2**32 used to apply "pass", and record 4294967296
            self.assertEqual(cm.exception.status, -101)
            self.assertIn(f"id={bad}", cm.exception.message)
        with self.assertRaises(stpete.InvalidArgumentError) as cm:
            self.state.apply(2 ** 31)  # used to be reported as "action id -2147483648"
        self.assertNotIn("-2147483648)", cm.exception.message.split(":")[0])

    def test_apply_wrong_types(self):
        for bad in NOT_INTS + (Index,):
            with self.subTest(id=bad), self.assertRaises(TypeError) as cm:
                self.state.apply(bad)
            self.assertIn("id must be an int", str(cm.exception))
        self.assertFalse(self.state.is_legal(2 ** 32))
        self.assertFalse(self.state.is_legal(True))

    def test_apply_strings_with_nul(self):
        for text in ("pass\0junk", "pass\0", "\0pass"):
            with self.subTest(text=text), self.assertRaises(stpete.InvalidArgumentError) as cm:
                self.state.apply(text)  # used to apply "pass"
            self.assertIn("NUL", cm.exception.message)
            self.assertFalse(self.state.is_legal(text))

    def test_action_from_id_and_parse(self):
        for bad in HUGE + (-1, 972):
            with self.subTest(id=bad), self.assertRaises(stpete.InvalidArgumentError):
                Action.from_id(bad)  # 2**32 used to raise IndexError after decoding action 0
            with self.subTest(id=bad), self.assertRaises(stpete.InvalidArgumentError):
                Action(bad)
        for bad in NOT_INTS:
            with self.subTest(id=bad), self.assertRaises(TypeError):
                Action.from_id(bad)
        with self.assertRaises(stpete.InvalidArgumentError):
            Action.parse("pass\0junk")
        with self.assertRaises(TypeError):
            Action.parse(0)
        self.assertIs(Action.from_id(Index(7)), Action.from_id(7))
        self.assertEqual(Action.from_id(Index(7)).id, 7)
        self.assertIs(type(Action.from_id(Index(7)).id), int)

    def test_integer_like_ids_are_accepted(self):
        state = self.state.clone()
        legal = state.legal_action_ids()
        state.apply(Index(legal[0]))
        self.assertEqual(state.history, (legal[0],))
        self.assertIs(type(state.history[0]), int)


class SeatsCardsRows(unittest.TestCase):
    def setUp(self):
        self.state = Game(players=4, seed=2).new_state()

    def test_seats(self):
        s = self.state
        queries = {
            "rubles": s.rubles, "vp": s.vp, "hand": s.hand, "display": s.display, "hand_limit": s.hand_limit,
            "observatories_used": s.observatories_used, "score": s.score, "view_to_json": s.view_to_json,
            "display_count": lambda seat: s.display_count(seat, Card.MARKET),
            "price": lambda seat: s.price(seat, Card.MARKET),
        }
        for name, query in queries.items():
            for bad in HUGE:
                with self.subTest(query=name, seat=bad), self.assertRaises(stpete.InvalidArgumentError) as cm:
                    query(bad)  # s.rubles(2**32) used to be seat 0's; view_to_json(2**32 + 1) seat 1's view
                self.assertIn("seat", cm.exception.message)
            for bad in (True, 0.0, 1.5, "0"):
                with self.subTest(query=name, seat=bad), self.assertRaises(TypeError) as cm:
                    query(bad)
                self.assertIn("seat", str(cm.exception))
        self.assertEqual(s.rubles(Index(1)), 25)
        self.assertEqual(s.score(Index(1)).seat, 1)

    def test_cards_rows_phases(self):
        s = self.state
        for bad in HUGE:
            with self.subTest(card=bad), self.assertRaises(stpete.InvalidArgumentError):
                s.display_count(0, bad)
            with self.subTest(card=bad), self.assertRaises(stpete.InvalidArgumentError):
                s.price(0, bad)
            with self.subTest(row=bad), self.assertRaises(stpete.InvalidArgumentError):
                s.row(bad)
            with self.subTest(source=bad), self.assertRaises(stpete.InvalidArgumentError):
                s.price(0, Card.MARKET, source=bad)
        self.assertEqual(s.row(Source.UPPER), s.upper_row)
        with self.assertRaises(TypeError):
            s.row(1.0)

    def test_card_names(self):
        with self.assertRaises(stpete.InvalidArgumentError):
            Card.from_name("Market\0x")  # used to be Market
        with self.assertRaises(TypeError):
            Card.from_name(6)
        self.assertIs(Card.from_name(b"market"), Card.MARKET)


class Seeds(unittest.TestCase):
    """Seeds are uint64_t: an int in [0, 2**64). Negative seeds are refused (they used to be reduced mod 2**64)."""

    def test_seed_range(self):
        state = Game(players=2).new_state()
        before = state.clone()
        for bad in (-1, -2 ** 63, 2 ** 64, 2 ** 100):
            with self.subTest(seed=bad):
                for call in (lambda: state.reset(bad), lambda: state.resample(0, bad),
                             lambda: Game(seed=bad), lambda: Game(players=2).new_state(seed=bad),
                             lambda: stpete.replay_to_json(state.game, bad, [])):
                    with self.assertRaises(stpete.InvalidArgumentError) as cm:
                        call()
                    self.assertIn("seed", cm.exception.message)
        for bad in (True, 1.0, "1", None):
            with self.subTest(seed=bad), self.assertRaises(TypeError):
                state.reset(bad)
            if bad is not None:
                with self.subTest(seed=bad), self.assertRaises(TypeError):
                    Game(seed=bad)
        self.assertEqual(state, before)
        self.assertEqual(state.history, ())
        state.reset(2 ** 64 - 1)
        self.assertEqual(state.seed, 2 ** 64 - 1)
        self.assertEqual(Game(seed=Index(2 ** 64 - 1)).seed, 2 ** 64 - 1)
        state.reset(Index(5))
        self.assertEqual((state.seed, type(state.seed)), (5, int))


class Options(unittest.TestCase):
    def test_ints_out_of_range(self):
        for name in ("players", "pub_cap", "tie_break"):
            for bad in HUGE:
                with self.subTest(option=name, value=bad), self.assertRaises(stpete.InvalidArgumentError) as cm:
                    Game(**{name: bad})  # pub_cap=2**32 used to become per-pub, players=2**32 + 2 two players
                self.assertIn(name, cm.exception.message)
        with self.assertRaises(stpete.InvalidArgumentError) as cm:
            Game(players=2, start_markers=(0, 1, 2 ** 32, 1))
        self.assertIn("start_markers[2]", cm.exception.message)

    def test_types(self):
        for bad in (2.7, 2.0, True, "2", None):
            with self.subTest(players=bad), self.assertRaises(TypeError) as cm:
                Game(players=bad)  # 2.7 used to become 2
            self.assertIn("players", str(cm.exception))
        for name in ("public_rubles", "public_hands"):
            for bad in ("no", "", 0, 1, None, 1.0):
                with self.subTest(option=name, value=bad), self.assertRaises(TypeError) as cm:
                    Game(**{name: bad})  # "no" used to be True
                self.assertIn(name, str(cm.exception))
        for bad in (1.0, True):
            with self.subTest(pub_cap=bad), self.assertRaises(TypeError):
                Game(pub_cap=bad)
        for bad in (5, "0123", (0, 1, 0, 1.0), (0, 1, None, 1)):
            with self.subTest(start_markers=bad), self.assertRaises(TypeError):
                Game(players=2, start_markers=bad)
        with self.assertRaises(stpete.InvalidArgumentError):
            Game(start_markers=(0, 1, 2))  # 4 phases, 4 markers
        self.assertEqual(Game(players=Index(3), start_markers=[Index(0), 1, 2, 0]).start_markers, (0, 1, 2, 0))


class OneConversionPerCType(unittest.TestCase):
    """The checks live in one place: each function of the table is wrapped by the conversions of its argument
    types, and the binding calls the library only through those wrappers."""

    def test_every_function_with_a_checked_type_is_wrapped(self):
        for name, (_, params, _) in _ffi.FUNCTIONS.items():
            wrapper = getattr(_core._C, name)
            for i, (pname, ctype) in enumerate(params):
                if ctype not in _ffi.CONVERSIONS:
                    continue
                with self.subTest(function=name, argument=pname):
                    self.assertIs(wrapper.__wrapped__, getattr(_core._lib, name))
                    # valid values for the other checked arguments, None (never reached) for the rest
                    args = [(b"" if t is ctypes.c_char_p else 0) if t in _ffi.CONVERSIONS else None
                            for _, t in params]
                    args[i] = 2 ** 64 if ctype is not ctypes.c_char_p else b"a\0b"
                    with self.assertRaises(stpete.InvalidArgumentError) as cm:
                        wrapper(*args)
                    self.assertIn(pname, cm.exception.message)
                    self.assertIn(name, cm.exception.message)
                    if ctype is not ctypes.c_char_p:
                        args[i] = 1.5
                        with self.assertRaises(TypeError) as cm:
                            wrapper(*args)
                        self.assertIn(pname, str(cm.exception))

    def test_no_raw_calls_in_the_package(self):
        package = os.path.join(os.path.dirname(HERE), "stpete")
        for module in ("_core.py", "env.py"):
            with open(os.path.join(package, module), encoding="utf-8") as f:
                text = f.read()
            raw = [m for m in re.findall(r"_lib\.(\w+)", text) if m != "_name"]
            with self.subTest(module=module):
                self.assertEqual(raw, [], "C functions called without the checked conversions")

    def test_struct_fields_are_checked_too(self):
        opts = support.Options11()
        with self.assertRaises(stpete.InvalidArgumentError):
            _ffi.set_fields(opts, "test", {"players": 2 ** 32 + 2})
        with self.assertRaises(TypeError):
            _ffi.set_fields(opts, "test", {"seed": 1.0})
        with self.assertRaises(stpete.InvalidArgumentError):
            _ffi.set_fields(opts, "test", {"start_markers": (0, 1)})
        _ffi.set_fields(opts, "test", {"players": 3, "seed": 2 ** 64 - 1, "start_markers": (0, 1, 2, 0)})
        self.assertEqual((opts.players, opts.seed, list(opts.start_markers)), (3, 2 ** 64 - 1, [0, 1, 2, 0]))


class BotSpecs(unittest.TestCase):
    def test_nul_in_a_bot_spec_is_refused_not_cut(self):
        game = Game(players=2)
        for spec, params in (("random\0:x", {}), ("random\0greedy", {}), ("\0random", {}),
                             ("ismcts", {"playout": "random\0x"})):
            with self.subTest(spec=spec, params=params), self.assertRaises(stpete.InvalidArgumentError) as cm:
                stpete.Bot(spec, **params)  # 'random\0:x' used to be a random bot
            self.assertIsInstance(cm.exception, ValueError)
            self.assertIn("NUL", cm.exception.message)
            self.assertIn("stpete_bot_new", cm.exception.message)
            with self.subTest(spec=spec, params=params, game=True), self.assertRaises(stpete.InvalidArgumentError):
                stpete.Bot(spec, game=game, **params)
        self.assertEqual(stpete.Bot("random").spec, "random:seed=0")


class JsonText(unittest.TestCase):
    def test_nul_in_json_and_types(self):
        text = Game(players=2).new_state().to_json()
        with self.assertRaises(stpete.InvalidArgumentError):
            State.from_json(text + "\0")
        with self.assertRaises(TypeError):
            State.from_json(42)


if __name__ == "__main__":
    unittest.main()
