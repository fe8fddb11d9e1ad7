"""Every exception path: each C status becomes its exception class carrying the C message, and the state is
unchanged after a failing call."""
import ctypes
import unittest

import stpete
import support
from stpete import _core, _ffi
from stpete.errors import error_for_status
from support import play_random

lib = _core._lib


class StatusMapping(unittest.TestCase):
    def test_every_library_status_has_its_class(self):
        known = 0
        for code in range(-1, -140, -1):  # 1.0: the codes are -101..-114; -1..-99 are values' sentinels
            name = lib.stpete_strerror(code).decode()
            if name == "unknown status":
                continue
            known += 1
            with self.subTest(code=code, name=name):
                cls = error_for_status(code)
                self.assertIsNot(cls, stpete.StPeteError, f"status {code} ({name}) has no exception class")
                self.assertEqual(cls.status, code)
                self.assertTrue(issubclass(cls, stpete.StPeteError))
        self.assertGreaterEqual(known, 10)
        self.assertEqual(lib.stpete_strerror(0).decode() != "unknown status", True)

    def test_unknown_status_is_base_class(self):
        self.assertIs(error_for_status(-1000), stpete.StPeteError)


class Paths(unittest.TestCase):
    def setUp(self):
        self.game = stpete.Game(players=4, seed=5)
        self.state = self.game.new_state()

    def tearDown(self):
        self.state.close()
        self.game.close()

    def test_invalid_argument_bad_seat(self):
        with self.assertRaises(stpete.InvalidArgumentError) as cm:
            self.state.rubles(4)
        e = cm.exception
        self.assertEqual(e.status, -101)
        self.assertEqual(e.function, "stpete_state_rubles")
        self.assertIn("seat=4", e.message)
        self.assertIn("invalid argument", e.message)
        self.assertIsInstance(e, ValueError)

    def test_invalid_argument_bad_players(self):
        for players in (1, 5):
            with self.subTest(players=players), self.assertRaises(stpete.InvalidArgumentError) as cm:
                stpete.Game(players=players)
            self.assertIn(f"players must be 2, 3 or 4, not {players}", str(cm.exception))

    def test_options_say_which_argument_and_why(self):
        """Issue 10, finding 7: the reason comes from stpete_options_check() (it used to be only
        "stpete_game_new(): invalid argument")."""
        cases = [
            (dict(pub_cap=7), "pub_cap must be", "not 7 (§7.2, R10)"),
            (dict(tie_break=2), "tie_break must be", "not 2 (§8, R14)"),
            (dict(players=2, start_markers=(0, 0, 0, 0)), "seat 0 holds 4 start-player markers", "R15"),
            (dict(players=3, start_markers=(0, 1, 2, 5)), "trading phase's start-player marker", "not 5"),
            (dict(players=3, start_markers=(-1, 0, 1, 2)), "start_markers must be all -1", "not a mix"),
            (dict(players=4, start_markers=(0, 0, 1, 1)), "seat 2 holds 0 start-player markers", "§3.3"),
        ]
        for options, reason, detail in cases:
            with self.subTest(options=options), self.assertRaises(stpete.InvalidArgumentError) as cm:
                stpete.Game(**options)
            e = cm.exception
            self.assertIn(reason, e.message)
            self.assertIn(detail, e.message)
            self.assertEqual((e.status, e.function), (-101, "stpete_options_check"))

    def test_oversized_documents(self):
        """Issue 10, finding 5, through the binding: refused before parsing, with the bound in the message."""
        state = stpete.Game(players=2).new_state()
        text = state.to_json()
        huge = text + " " * (stpete._ffi.JSON_STATE_MAX - len(text) + 1)
        for load in (lambda: stpete.State.from_json(huge), lambda: stpete.State.from_json(huge, state.game)):
            with self.assertRaises(stpete.TooLargeError) as cm:
                load()
            self.assertEqual(cm.exception.status, -113)
            self.assertIn(f"at most {stpete._ffi.JSON_STATE_MAX}", cm.exception.message)
        self.assertEqual(stpete.State.from_json(huge[:-1]), state)  # at the bound: accepted
        record = stpete.replay_to_json(state.game, 0, [])
        with self.assertRaises(stpete.TooLargeError) as cm:
            stpete.replay_from_json(record + " " * stpete._ffi.JSON_REPLAY_MAX)
        self.assertIn(f"at most {stpete._ffi.JSON_REPLAY_MAX}", cm.exception.message)
        self.assertEqual(state.game.max_game_length, 1004)  # 2 players: N * (232 + 9R), doc/format.md

    def test_invalid_rule_options(self):
        with self.assertRaises(stpete.InvalidArgumentError):
            stpete.Game(pub_cap="per-table")
        with self.assertRaises(stpete.InvalidArgumentError):
            stpete.Game(tie_break=7)
        with self.assertRaises(stpete.InvalidArgumentError):
            stpete.Game(players=2, start_markers=(0, 0, 0, 0))  # a seat holds 1 or 2 markers (§3.3)
        with self.assertRaises(stpete.InvalidArgumentError):
            stpete.Game(start_markers=(0, 1))
        with self.assertRaises(TypeError):
            stpete.Game(pub_kap="per-pub")

    def test_invalid_argument_action_id_out_of_range(self):
        before = self.state.clone()
        for bad in (-1, 1277, 10 ** 6):  # 972..1276 are chance outcomes (illegal in sampled mode)
            with self.subTest(id=bad), self.assertRaises(stpete.InvalidArgumentError) as cm:
                self.state.apply(bad)
            self.assertIn(str(bad), cm.exception.message)  # the C message from stpete_state_last_error
        self.assertEqual(self.state, before)
        with self.assertRaises(stpete.InvalidArgumentError):
            stpete.Action.from_id(972)

    def test_illegal_action(self):
        before = self.state.clone()
        legal = set(self.state.legal_action_ids())
        illegal = next(i for i in range(stpete.NUM_DISTINCT_ACTIONS) if i not in legal)
        with self.assertRaises(stpete.IllegalActionError) as cm:
            self.state.apply(illegal)
        e = cm.exception
        self.assertEqual(e.status, -102)
        self.assertIn("is not legal", e.message)                    # stpete_state_last_error's detail
        self.assertIn(str(stpete.Action.from_id(illegal)), e.message)
        self.assertEqual(self.state, before)
        self.assertFalse(self.state.is_legal(illegal))
        with self.assertRaises(stpete.IllegalActionError):
            self.state.apply(str(stpete.Action.from_id(illegal)))   # the string path too
        with self.assertRaises(stpete.IllegalActionError):
            self.state.apply(stpete.Action.from_id(illegal))        # and the Action path
        self.assertEqual(self.state, before)

    def test_buffer_too_small(self):
        ids = (ctypes.c_int * 1)()
        count = ctypes.c_size_t()
        with self.assertRaises(stpete.BufferTooSmallError) as cm:
            lib.stpete_state_legal_actions(self.state.handle, ids, 1, ctypes.byref(count))
        self.assertEqual(cm.exception.status, -103)
        self.assertEqual(count.value, len(self.state.legal_action_ids()))  # the needed size is reported
        buf = ctypes.create_string_buffer(3)
        with self.assertRaises(stpete.BufferTooSmallError):
            lib.stpete_action_to_string(stpete.Edition.FIRST, 1, buf, 3)

    def test_out_of_memory(self):
        # a custom allocator that always fails (stpete_options::allocator)
        malloc_t = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
        realloc_t = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
        free_t = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
        fns = (malloc_t(lambda u, n: None), realloc_t(lambda u, p, n: None), free_t(lambda u, p: None))
        opts = support.Options11()
        lib.stpete_options_init_size(support.options_pointer(opts), ctypes.sizeof(opts))
        opts.allocator[0] = ctypes.cast(fns[0], ctypes.c_void_p)
        opts.allocator[1] = ctypes.cast(fns[1], ctypes.c_void_p)
        opts.allocator[2] = ctypes.cast(fns[2], ctypes.c_void_p)
        game = _ffi.GamePtr()
        with self.assertRaises(stpete.OutOfMemoryError) as cm:
            lib.stpete_game_new(support.options_pointer(opts), ctypes.byref(game), None)
        self.assertEqual(cm.exception.status, -104)
        self.assertIsInstance(cm.exception, MemoryError)
        self.assertFalse(game)  # NULL on failure

    def test_game_over(self):
        play_random(self.state, 1)
        final = self.state.clone()
        with self.assertRaises(stpete.GameOverError) as cm:
            self.state.apply(0)
        self.assertEqual(cm.exception.status, -105)
        self.assertTrue(cm.exception.message)
        self.assertEqual(self.state, final)
        self.assertEqual(self.state.legal_actions(), [])

    def test_not_terminal(self):
        with self.assertRaises(stpete.NotTerminalError) as cm:
            self.state.winners
        self.assertEqual(cm.exception.status, -106)
        with self.assertRaises(stpete.NotTerminalError):
            self.state.final_scores

    def test_parse(self):
        before = self.state.clone()
        with self.assertRaises(stpete.ParseError) as cm:
            self.state.apply("fly to the moon")
        self.assertIn("fly to the moon", cm.exception.message)
        self.assertEqual(cm.exception.status, -107)
        self.assertEqual(self.state, before)
        with self.assertRaises(stpete.ParseError):
            stpete.Action.parse("buy the Kremlin")
        with self.assertRaises(stpete.ParseError):
            stpete.Card.from_name("Kremlin")

    def test_unsupported_version(self):
        opts = support.Options11()
        lib.stpete_options_init_size(support.options_pointer(opts), ctypes.sizeof(opts))
        opts.struct_size = ctypes.sizeof(opts) + 64  # an options struct from a newer header
        game = _ffi.GamePtr()
        err = _ffi.new(_ffi.ErrorStruct)
        with self.assertRaises(stpete.UnsupportedVersionError) as cm:
            lib.stpete_game_new(support.options_pointer(opts), ctypes.byref(game), ctypes.byref(err))
        self.assertEqual(cm.exception.status, -108)
        self.assertEqual(err.status, -108)
        self.assertIn(err.message.decode(), cm.exception.message)  # the ERROR check: stpete_error's reason
        # a stpete_error from a newer header (1.0: every struct that may grow begins with struct_size)
        opts.struct_size = ctypes.sizeof(opts)
        err.struct_size = ctypes.sizeof(err) + 64
        with self.assertRaises(stpete.UnsupportedVersionError):
            lib.stpete_game_new(support.options_pointer(opts), ctypes.byref(game), ctypes.byref(err))
        self.assertFalse(game)

    def test_mismatch(self):
        with stpete.Game(players=3) as other_game, other_game.new_state() as other:
            before = self.state.clone()
            with self.assertRaises(stpete.MismatchError) as cm:
                self.state.copy_from(other)
            self.assertEqual(cm.exception.status, -109)
            self.assertIn("other options", cm.exception.message)
            self.assertEqual(self.state, before)

    def test_reentrant(self):
        seen = []

        def modify(state, event):
            try:
                state.apply(0)
            except stpete.ReentrantError as e:
                seen.append(e)
                raise

        self.state.set_event_callback(modify)
        with self.assertRaises(stpete.ReentrantError) as cm:
            self.state.apply(self.state.legal_action_ids()[0])
        self.assertEqual(cm.exception.status, -110)
        self.assertIn("must not modify", cm.exception.message)
        self.assertTrue(seen)
        self.assertIs(cm.exception, seen[0])  # the first exception of the callback, re-raised

    def test_closed(self):
        state = self.game.new_state()
        state.close()
        state.close()  # idempotent
        with self.assertRaises(stpete.ClosedError):
            state.apply(0)
        with self.assertRaises(stpete.ClosedError):
            state.round
        self.assertIn("closed", repr(state))

    def test_type_errors(self):
        with self.assertRaises(TypeError):
            self.state.apply(1.5)
        with self.assertRaises(TypeError):
            self.state.apply(None)
        with self.assertRaises(TypeError):
            stpete.State("not a game")
        with self.assertRaises(TypeError):
            self.state.set_event_callback(42)


if __name__ == "__main__":
    unittest.main()
