"""Event callbacks: kept alive by the State, every kind reported, queries allowed, modification refused, an
exception in the callback re-raised in the caller after the C call returns, and close() from the callback
deferred until that call returns (issue 10, finding 2: it freed the state under the running apply)."""
import gc
import random
import unittest

import stpete
from stpete import EventKind, Game, State


class Callbacks(unittest.TestCase):
    def setUp(self):
        self.state = Game(players=4, seed=21).new_state()

    def test_callback_kept_alive(self):
        events = []
        self.state.set_event_callback(lambda st, ev: events.append(ev))  # no other reference to the lambda
        gc.collect()
        self.state.apply(self.state.legal_action_ids()[-1])
        self.assertTrue(events)

    def test_full_game_events(self):
        events = []
        s = self.state

        def record(st, ev):
            self.assertIs(st, s)
            events.append(ev)

        s.set_event_callback(record)
        s.reset(21)
        # reset reports the setup's deal (2 workers per player, §3) and the first phase
        self.assertEqual([e.kind for e in events[:9]], [EventKind.DEAL] * 8 + [EventKind.PHASE_START])
        self.assertEqual([e.card for e in events[:8]], list(s.upper_row))
        rng = random.Random(2)
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_action_ids()))
        kinds = {e.kind for e in events}
        for k in (EventKind.PHASE_START, EventKind.DEAL, EventKind.BUY, EventKind.PASS, EventKind.SCORING,
                  EventKind.ROUND_END, EventKind.MARKERS_MOVED, EventKind.LAST_ROUND, EventKind.FINAL_SCORING,
                  EventKind.GAME_OVER):
            self.assertIn(k, kinds)
        over = events[-1]
        self.assertEqual(over.kind, EventKind.GAME_OVER)
        self.assertEqual(over.amount, sum(1 << w for w in s.winners))
        finals = [e for e in events if e.kind == EventKind.FINAL_SCORING]
        self.assertEqual(sorted(e.seat for e in finals), [0, 1, 2, 3])
        self.assertEqual({e.seat: e.vp for e in finals}, dict(enumerate(s.final_scores)))
        buy = next(e for e in events if e.kind == EventKind.BUY)
        self.assertIsNotNone(buy.card)
        self.assertGreaterEqual(buy.price, 1)
        self.assertIn("BUY", repr(buy))
        self.assertEqual(buy.as_dict()["card"], buy.card)

    def test_queries_inside_callback_see_the_change(self):
        seen = []

        def check(st, ev):
            if ev.kind == EventKind.BUY:
                seen.append(st.display_count(ev.seat, ev.card) >= 1)

        self.state.set_event_callback(check)
        buy = next(a for a in self.state.legal_actions() if a.kind == stpete.ActionKind.BUY)
        self.state.apply(buy)
        self.assertEqual(seen, [True])

    def test_exception_reraised_after_c_call(self):
        calls = []

        class Boom(Exception):
            pass

        def explode(st, ev):
            calls.append(ev.kind)
            raise Boom(f"event {ev.kind.name}")

        expected = self.state.clone()
        action = self.state.legal_action_ids()[-1]
        expected.apply(action)
        self.state.set_event_callback(explode)
        with self.assertRaises(Boom) as cm:
            self.state.apply(action)
        self.assertEqual(str(cm.exception), f"event {calls[0].name}")  # the first exception
        self.assertEqual(self.state, expected)  # the C call completed: the action was applied
        self.assertEqual(self.state.history, (action,))  # and recorded
        # the next call is clean once the callback is removed
        self.state.set_event_callback(None)
        self.state.apply(self.state.legal_action_ids()[0])

    def test_exception_from_reset_and_keyboard_interrupt(self):
        def interrupt(st, ev):
            raise KeyboardInterrupt

        self.state.set_event_callback(interrupt)
        with self.assertRaises(KeyboardInterrupt):
            self.state.reset(5)
        self.assertEqual(self.state, Game(players=4, seed=5).new_state())

    def test_set_callback_inside_callback_is_reentrant(self):
        errors = []

        def swap(st, ev):
            try:
                st.set_event_callback(None)
            except stpete.ReentrantError as e:
                errors.append(e)

        self.state.set_event_callback(swap)
        self.state.apply(0)
        self.assertTrue(errors)
        self.assertEqual(errors[0].status, -110)

    def test_no_save_between_two_steps(self):  # issue 46 item 11: the state is mid-move inside its callback
        refused, written = [], []

        def save(st, ev):
            try:
                written.append(st.to_json())
            except stpete.ReentrantError as e:
                refused.append(e)

        state = Game(players=3, seed=5, new_society=True).new_state()
        state.set_event_callback(save)
        while not state.is_terminal and len(state.history) < 60:
            state.apply(state.legal_actions()[0])
        self.assertEqual(written, [])
        self.assertGreater(len(refused), 60)
        self.assertEqual(State.from_json(state.to_json()).to_json(), state.to_json())  # between moves: written

    def test_clear_and_clone_without_callback(self):
        events = []
        self.state.set_event_callback(lambda st, ev: events.append(ev))
        clone = self.state.clone()  # callbacks are not copied
        clone.apply(clone.legal_action_ids()[0])
        self.assertEqual(events, [])
        self.state.set_event_callback(None)
        self.state.apply(self.state.legal_action_ids()[0])
        self.assertEqual(events, [])

    def test_callback_does_not_keep_state_alive(self):
        import weakref
        state = Game(players=2).new_state()
        state.set_event_callback(lambda st, ev: None)
        ref = weakref.ref(state)
        del state
        self.assertIsNone(ref())  # no reference cycle through the callback: freed at once



class CloseInsideCallback(unittest.TestCase):
    def test_close_is_deferred_until_the_call_returns(self):
        state = Game(players=2, seed=3).new_state()
        action = state.legal_action_ids()[-1]
        seen, inside = [], []

        def close_at_first_event(st, ev):
            seen.append(ev.kind)
            st.close()
            st.close()  # idempotent there too
            with self.assertRaises(stpete.ClosedError):  # closed at once for every later call
                st.round
            inside.append(repr(st))

        state.set_event_callback(close_at_first_event)
        state.apply(action)  # completes its step; no use-after-free (ASan checks it in the sanitizer pass)
        self.assertEqual(len(seen), 1)  # no further event reached the callback
        self.assertEqual(inside, ["<stpete.State closed>"])
        with self.assertRaises(stpete.ClosedError):
            state.apply(0)
        state.close()

    def test_game_outlives_the_call_that_closes_its_last_state(self):
        """The game was closed first: the state's close from the callback must not free the game while the C call
        of the state still runs (the deferred free itself reads the game's allocator)."""
        game = Game(players=2, seed=3)
        state = game.new_state()
        game.close()  # deferred: a state is open
        game_alive_inside = []

        def close_it(st, ev):
            st.close()
            game_alive_inside.append(game._ptr is not None)

        state.set_event_callback(close_it)
        state.apply(state.legal_action_ids()[-1])
        self.assertEqual(game_alive_inside, [True])
        self.assertIsNone(game._ptr)  # freed once the apply returned and the state was freed
        with self.assertRaises(stpete.ClosedError):
            game.new_state()

    def test_close_from_reset_and_with_an_exception(self):
        state = Game(players=3, seed=4).new_state()

        class Boom(Exception):
            pass

        def close_and_raise(st, ev):
            st.close()
            raise Boom("after close")

        state.set_event_callback(close_and_raise)
        with self.assertRaises(Boom):
            state.reset(8)
        with self.assertRaises(stpete.ClosedError):
            state.to_json()

    def test_closing_another_state_inside_a_callback_is_immediate(self):
        game = Game(players=2, seed=3)
        state, other = game.new_state(), game.new_state()

        def close_other(st, ev):
            other.close()
            with self.assertRaises(stpete.ClosedError):
                other.round

        state.set_event_callback(close_other)
        state.apply(state.legal_action_ids()[-1])
        self.assertIn("closed", repr(other))
        self.assertEqual(len(state.history), 1)  # this one is fine

if __name__ == "__main__":
    unittest.main()
