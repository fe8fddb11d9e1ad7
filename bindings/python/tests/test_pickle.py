"""Pickling and copying (issue 10, finding 6): State, Game and Action pickle, copy and deep-copy with everything
they carry (a state's history and seed, so that replay_to_json() still works; a game's seed), and cross process
boundaries through multiprocessing; exceptions too."""
import copy
import json
import multiprocessing
import pickle
import random
import unittest

import stpete
from stpete import Action, Game, State


def mid_game(players=3, seed=9, steps=40):
    game = Game(players=players, seed=seed, pub_cap="per-player", tie_break=stpete.TieBreak.RUBLES_TOTAL)
    state = game.new_state(seed=seed + 1)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_action_ids()))
    return state


def play_on(args):
    """Worker (another process): play a state on to the end with the given action choices and return it with its
    replay record; or raise what the library raises."""
    state, game, action, choice_seed = args
    if action is not None:
        state.apply(action)  # an Action from the parent: may be illegal here
    rng = random.Random(choice_seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    assert state.game.options == game.options
    return state, state.replay_to_json(), game.new_state()


class Pickling(unittest.TestCase):
    def assert_same_state(self, a, b):
        self.assertEqual(a, b)
        self.assertEqual(a.to_json(), b.to_json())
        self.assertEqual(a.history, b.history)
        self.assertEqual(a.seed, b.seed)
        self.assertEqual(a.game.options, b.game.options)

    def test_state_keeps_history_and_seed(self):
        state = mid_game()
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            with self.subTest(protocol=protocol):
                again = pickle.loads(pickle.dumps(state, protocol))
                self.assert_same_state(again, state)
                self.assertEqual(again.seed, 10)
                self.assertEqual(len(again.history), 40)
                self.assertEqual(again.replay_to_json(), state.replay_to_json())  # used to fail: no history
                self.assertEqual(again.game.seed, 9)  # used to become 0
                a = again.legal_action_ids()[0]
                again.apply(a)  # independent, and the same future
                self.assertEqual(len(state.history), 40)
                state_clone = state.clone()
                state_clone.apply(a)
                self.assertEqual(again, state_clone)

    def test_state_without_history(self):
        loaded = State.from_json(mid_game().to_json())
        again = pickle.loads(pickle.dumps(loaded))
        self.assertEqual(again, loaded)
        self.assertIsNone(again.history)
        self.assertIsNone(again.seed)

    def test_states_share_their_game(self):
        game = Game(players=2, seed=4)
        a, b = game.new_state(), game.new_state(seed=5)
        a2, b2 = pickle.loads(pickle.dumps([a, b]))
        self.assertIs(a2.game, b2.game)
        self.assertIsNot(a2.game, game)
        self.assertEqual((a2, b2), (a, b))

    def test_game(self):
        game = Game(players=3, seed=2 ** 64 - 1, pub_cap="per-player", tie_break=stpete.TieBreak.RUBLES_TOTAL,
                    start_markers=(2, 0, 1, 2), public_rubles=True, public_hands=True)
        again = pickle.loads(pickle.dumps(game))  # used to fail: ctypes pointers cannot be pickled
        self.assertEqual(again.options, game.options)
        self.assertEqual(again.seed, 2 ** 64 - 1)
        self.assertEqual(again.new_state(), game.new_state())
        loaded = Game.from_json(game.new_state().to_json())  # adopted from JSON: the same
        self.assertEqual(pickle.loads(pickle.dumps(loaded)).options, loaded.options)
        game.close()  # closed with no state open: nothing left to pickle
        with self.assertRaises(stpete.ClosedError):
            pickle.dumps(game)

    def test_game_options_python_does_not_read(self):
        """The JSON format's options travel even when this class has no keyword for them (the chance mode)."""
        record = json.loads(stpete.replay_to_json(Game(players=2, seed=8), 8, []))
        record["options"]["chance_mode"] = "explicit"
        game, _ = stpete.replay_from_json(json.dumps(record))
        again = pickle.loads(pickle.dumps(game))
        self.assertEqual(json.loads(stpete.replay_to_json(again, 8, []))["options"], record["options"])
        self.assertEqual(again.new_state().decision, stpete.Decision.CHANCE)  # explicit: the deal is a chance node

    def test_action(self):
        for action in (Action.from_id(0), Action.parse("buy Market from upper"), Action.from_id(971)):
            with self.subTest(action=str(action)):
                self.assertIs(pickle.loads(pickle.dumps(action)), action)  # one object per id
                self.assertIs(copy.copy(action), action)
                self.assertIs(copy.deepcopy(action), action)
        actions = [Action.from_id(i) for i in range(0, 972, 97)]
        self.assertEqual(pickle.loads(pickle.dumps(actions)), actions)

    def test_exceptions(self):
        state = Game(players=2).new_state()
        with self.assertRaises(stpete.IllegalActionError) as cm:
            state.apply(971)
        again = pickle.loads(pickle.dumps(cm.exception))
        self.assertIs(type(again), stpete.IllegalActionError)
        self.assertEqual((again.status, again.function, again.message),
                         (-102, "stpete_state_apply", cm.exception.message))

    def test_closed_state_does_not_pickle(self):
        state = Game(players=2).new_state()
        state.close()
        with self.assertRaises(stpete.ClosedError):
            pickle.dumps(state)


class Copying(unittest.TestCase):
    def test_copy_is_a_clone_of_the_same_game(self):
        state = mid_game()
        state.set_event_callback(lambda st, ev: None)
        twin = copy.copy(state)
        self.assertEqual(twin, state)
        self.assertIs(twin.game, state.game)
        self.assertEqual((twin.history, twin.seed), (state.history, state.seed))
        twin.apply(twin.legal_action_ids()[0])
        self.assertNotEqual(twin, state)  # independent handles
        self.assertEqual(len(state.history), 40)

    def test_deepcopy(self):
        state = mid_game()
        other = state.game.new_state()
        twin, other_twin = copy.deepcopy([state, other])
        self.assertEqual((twin, other_twin), (state, other))
        self.assertIsNot(twin.game, state.game)
        self.assertIs(twin.game, other_twin.game)  # the memo: one new game for both
        self.assertEqual(twin.game.options, state.game.options)
        self.assertEqual((twin.history, twin.seed), (state.history, state.seed))
        self.assertEqual(twin.replay_to_json(), state.replay_to_json())
        state.close()
        state.game.close()
        twin.apply(twin.legal_action_ids()[0])  # alive without the original and its game
        self.assertEqual(len(twin.history), 41)

    def test_game_copies(self):
        game = Game(players=2, seed=77, public_hands=True)
        for twin in (copy.copy(game), copy.deepcopy(game)):
            self.assertIsNot(twin, game)
            self.assertEqual(twin.options, game.options)
            self.assertEqual(twin.new_state(), game.new_state())
        twin.close()
        self.assertEqual(game.new_state().players, 2)  # its own handle


class Processes(unittest.TestCase):
    def test_through_a_process_pool(self):
        state = mid_game(players=4, seed=21, steps=30)
        game = state.game
        action = state.legal_actions()[0]
        expected = state.clone()
        expected.apply(action)
        rng = random.Random(3)
        while not expected.is_terminal:
            expected.apply(rng.choice(expected.legal_actions()))
        illegal = next(Action.from_id(i) for i in range(972) if not state.is_legal(i))
        with multiprocessing.get_context("spawn").Pool(2) as pool:
            results = pool.map(play_on, [(state, game, action, 3), (state, game, None, 4)])
            with self.assertRaises(stpete.IllegalActionError) as cm:
                pool.apply(play_on, ((state, game, illegal, 1),))
        self.assertEqual(cm.exception.status, -102)
        self.assertIn(str(illegal), cm.exception.message)
        (played, record, fresh), (played2, _, _) = results
        self.assertEqual(played, expected)
        self.assertEqual(played.history, expected.history)
        self.assertEqual(record, expected.replay_to_json())
        self.assertEqual(fresh, game.new_state())
        self.assertTrue(played2.is_terminal)
        self.assertEqual(played2.history[:30], state.history)

    def test_through_a_pipe(self):
        state = mid_game(players=2, seed=5, steps=25)
        parent, child = multiprocessing.Pipe()
        with parent, child:
            child.send((state, state.game, state.legal_actions()))
            got_state, got_game, got_actions = parent.recv()
        self.assertEqual(got_state, state)
        self.assertEqual(got_state.replay_to_json(), state.replay_to_json())
        self.assertEqual(got_game.options, state.game.options)
        self.assertEqual(got_actions, state.legal_actions())
        self.assertIs(got_actions[0], state.legal_actions()[0])


if __name__ == "__main__":
    unittest.main()
