"""JSON (issue 3's API): to_json / from_json round trips, per-seat views, replay records, the pull-style event
queue, pickling, and the JSON error paths (ParseError with line and column, UnsupportedVersionError,
RedactedError, MismatchError, InconsistentError)."""
import json
import pickle
import random
import unittest

import stpete
from stpete import Game, State
from support import play_random


def random_game(players=4, seed=3, steps=None):
    state = Game(players=players, seed=seed).new_state()
    rng = random.Random(seed)
    while not state.is_terminal and (steps is None or len(state.history) < steps):
        state.apply(rng.choice(state.legal_action_ids()))
    return state



def rules(options):
    """The rule options of a game: a state document carries its PRNG state, not the seed (doc/format.md)."""
    return {k: v for k, v in options.items() if k != "seed"}

class StateJson(unittest.TestCase):
    def test_round_trip_along_a_game(self):
        state = Game(players=3, seed=8, pub_cap="per-player").new_state()
        rng = random.Random(1)
        checked = 0
        while True:
            if len(state.history) % 17 == 0 or state.is_terminal:
                text = state.to_json()
                loaded = State.from_json(text)  # its own game, from the JSON's options
                self.assertEqual(loaded, state)
                self.assertEqual(loaded.to_json(), text)  # byte-exact
                self.assertEqual(rules(loaded.game.options), rules(state.game.options))
                self.assertIsNone(loaded.history)
                same_game = State.from_json(text.encode(), game=state.game)
                self.assertIs(same_game.game, state.game)
                if not state.is_terminal:  # the same future
                    a = rng.choice(state.legal_action_ids())
                    loaded.apply(a)
                    probe = state.clone()
                    probe.apply(a)
                    self.assertEqual(loaded, probe)
                checked += 1
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_action_ids()))
        self.assertGreater(checked, 5)
        self.assertEqual(json.loads(state.to_json())["format_version"], 3)

    def test_game_from_json(self):
        state = Game(players=2, seed=77, tie_break="total", public_hands=True).new_state()
        game = Game.from_json(state.to_json())
        self.assertEqual(rules(game.options), rules(state.game.options))
        self.assertEqual(game.options["seed"], 0)  # a state carries its PRNG, not the seed (doc/format.md)

    def test_views(self):
        state = random_game(players=4, seed=5, steps=60)
        full = json.loads(state.to_json())
        for seat in (None, 0, 3):
            with self.subTest(seat=seat):
                view_text = state.view_to_json(seat)
                view = json.loads(view_text)
                self.assertNotEqual(view, full)
                self.assertIn("null", view_text)
                with self.assertRaises(stpete.RedactedError) as cm:
                    State.from_json(view_text)
                self.assertEqual(cm.exception.status, -111)
        with self.assertRaises(stpete.InvalidArgumentError):
            state.view_to_json(4)

    def test_parse_error_has_line_and_column(self):
        with self.assertRaises(stpete.ParseError) as cm:
            State.from_json('{\n  "format_version": 1,\n  oops\n}')
        e = cm.exception
        self.assertEqual(e.status, -107)
        self.assertEqual(e.line, 3)
        self.assertGreaterEqual(e.column, 1)
        self.assertIn("line 3", e.message)
        with self.assertRaises(stpete.ParseError):
            Game.from_json("")
        with self.assertRaises(TypeError):
            State.from_json(42)

    def test_unsupported_version(self):
        doc = json.loads(random_game(steps=10).to_json())
        doc["format_version"] = 99
        with self.assertRaises(stpete.UnsupportedVersionError):
            State.from_json(json.dumps(doc))

    def test_mismatch(self):
        state = random_game(players=4, steps=5)
        with self.assertRaises(stpete.MismatchError):
            State.from_json(state.to_json(), game=Game(players=4, pub_cap="per-player"))

    def test_inconsistent(self):
        state = random_game(players=2, seed=4, steps=30)
        doc = json.loads(state.to_json())
        doc["players"][0]["rubles"] = 100001
        with self.assertRaises(stpete.InconsistentError) as cm:
            State.from_json(json.dumps(doc))
        self.assertEqual(cm.exception.status, -112)
        self.assertIn("players[0].rubles", cm.exception.message)
        doc = json.loads(state.to_json())
        doc["upper_row"].append(doc["upper_row"][0] if doc["upper_row"] else "Market")  # a 117th card (§2)
        with self.assertRaises(stpete.InconsistentError):
            State.from_json(json.dumps(doc))

    def test_pickle(self):
        state = random_game(players=3, seed=9, steps=40)
        again = pickle.loads(pickle.dumps(state))
        self.assertEqual(again, state)
        self.assertEqual(rules(again.game.options), rules(state.game.options))


class Replays(unittest.TestCase):
    def test_history_and_replay_round_trip(self):
        state = Game(players=4, seed=12).new_state()
        ids = play_random(state, 6)
        self.assertEqual(list(state.history), ids)
        self.assertEqual(state.seed, 12)
        text = state.replay_to_json()
        game, actions = stpete.replay_from_json(text)
        self.assertEqual(actions, ids)
        self.assertEqual(game.seed, 12)
        again = State.from_replay(text)
        self.assertEqual(again, state)
        self.assertEqual(again.final_scores, state.final_scores)

    def test_history_after_reset_clone_and_string_actions(self):
        state = Game(players=2, seed=1).new_state(seed=40)
        self.assertEqual(state.seed, 40)
        first = state.legal_actions()[-1]
        state.apply(str(first))
        state.apply(state.legal_actions()[0])
        clone = state.clone()
        self.assertEqual(clone.history, state.history)
        self.assertEqual(clone.history[0], first.id)
        _, actions = stpete.replay_from_json(clone.replay_to_json())
        self.assertEqual(actions, list(state.history))
        loaded = State.from_json(state.to_json())
        with self.assertRaises(stpete.InvalidArgumentError):
            loaded.replay_to_json()  # unknown history
        state.reset(41)
        self.assertEqual((state.history, state.seed), ((), 41))

    def test_the_binding_keeps_only_the_history_c_forgets(self):
        """Issue 23 item 8: C's history survives clone (stpete_state_clone copies it), so a clone's history is C's
        (undo works there, no Python copy of the ids); copy_from and from_json start C's history anew, so there the
        binding's prefix (the ids before it) and seed carry what C forgets, or say None when nobody knows."""
        state = Game(players=2, seed=7).new_state()
        ids = play_random(state, 5, limit=12)
        clone = state.clone()
        self.assertEqual(clone.local_history(), ids)  # from C
        self.assertEqual(clone._prefix, ())           # nothing kept in Python
        undone = clone.undo()
        self.assertEqual((undone.id, clone.history), (ids[-1], tuple(ids[:-1])))
        target = Game(players=2, seed=99).new_state()
        target.copy_from(state)
        self.assertEqual(target.local_history(), [])  # C: the copy has no past
        self.assertEqual((target.history, target.seed), (tuple(ids), 7))  # the binding's prefix and seed
        more = target.legal_action_ids()[0]
        target.apply(more)
        self.assertEqual(target.history, tuple(ids) + (more,))
        _, actions = stpete.replay_from_json(target.replay_to_json())
        self.assertEqual(actions, ids + [more])
        loaded = State.from_json(state.to_json())
        self.assertEqual((loaded.local_history(), loaded.history), ([], None))
        again = pickle.loads(pickle.dumps(state))
        self.assertEqual((again.local_history(), again.history, again.seed), ([], tuple(ids), 7))

    def test_empty_replay(self):
        game = Game(players=3, seed=5)
        text = stpete.replay_to_json(game, 5, [])
        g2, actions = stpete.replay_from_json(text)
        self.assertEqual(actions, [])
        self.assertEqual(g2.new_state(), game.new_state())

    def test_illegal_and_tampered_replays(self):
        game = Game(players=2, seed=3)
        state = game.new_state()
        legal = set(state.legal_action_ids())
        illegal = next(i for i in range(972) if i not in legal)
        with self.assertRaises(stpete.IllegalActionError):
            stpete.replay_to_json(game, 3, [illegal])
        ids = play_random(state, 2)
        doc = json.loads(stpete.replay_to_json(game, 3, ids[:20]))
        self.assertEqual(len(doc["actions"]), 20)
        doc["options"]["seed"] = str(int(doc["options"]["seed"]) + 1)  # another deal
        with self.assertRaises(stpete.InconsistentError) as cm:
            stpete.replay_from_json(json.dumps(doc))
        self.assertTrue(cm.exception.message)


class Resample(unittest.TestCase):
    def test_resample_keeps_the_seats_view(self):
        state = random_game(players=3, seed=6, steps=45)
        for seat in range(3):
            with self.subTest(seat=seat):
                view = state.view_to_json(seat)
                a = state.resampled(seat, 1)
                b = state.resampled(seat, 2)
                self.assertEqual(a.view_to_json(seat), view)  # what the seat knows is unchanged (§9)
                self.assertEqual(b.view_to_json(seat), view)
                self.assertNotEqual(a.to_json(), b.to_json())  # the hidden part is redrawn
                self.assertEqual(a, state.resampled(seat, 1))  # reproducible from its seed
                self.assertEqual(a.legal_action_ids(), state.legal_action_ids())
                self.assertIsNone(a.history)
                play_random(a, seat)                           # a playable determinization
                self.assertTrue(a.is_terminal)
        self.assertIsNotNone(state.history)  # the original is unchanged
        with self.assertRaises(stpete.InvalidArgumentError):
            state.resample(3, 1)

    def test_resample_inside_callback_is_reentrant(self):
        state = Game(players=2, seed=2).new_state()
        errors = []

        def resample(st, ev):
            try:
                st.resample(0, 1)
            except stpete.ReentrantError as e:
                errors.append(e)

        state.set_event_callback(resample)
        state.apply(state.legal_action_ids()[-1])
        self.assertTrue(errors)


class EventQueue(unittest.TestCase):
    def test_queue_matches_callback(self):
        state = Game(players=3, seed=14).new_state()
        seen = []
        state.set_event_callback(lambda st, ev: seen.append(ev.as_dict()))
        state.enable_event_queue()
        self.assertEqual(state.pending_events, 0)
        self.assertIsNone(state.next_event())
        pulled = []
        rng = random.Random(3)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_action_ids()))
            n = state.pending_events
            events = state.events()
            self.assertEqual(len(events), n)
            pulled += [e.as_dict() for e in events]
        self.assertEqual(pulled, seen)
        self.assertEqual(pulled[-1]["kind"], stpete.EventKind.GAME_OVER)

    def test_queue_off_drops_events(self):
        state = Game(players=2, seed=2).new_state()
        state.enable_event_queue(True)
        state.apply(state.legal_action_ids()[-1])
        self.assertGreater(state.pending_events, 0)
        state.enable_event_queue(False)
        self.assertEqual(state.pending_events, 0)
        self.assertIsNone(state.next_event())

    def test_next_event_inside_callback_is_reentrant(self):
        state = Game(players=2, seed=2).new_state()
        state.enable_event_queue()
        errors = []

        def pull(st, ev):
            try:
                st.next_event()
            except stpete.ReentrantError as e:
                errors.append(e)

        state.set_event_callback(pull)
        state.apply(state.legal_action_ids()[-1])
        self.assertTrue(errors)


if __name__ == "__main__":
    unittest.main()
