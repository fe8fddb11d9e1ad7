"""Issue 22: the Python bots are safe by construction (each C call of a Bot holds the bot's lock and the state's),
a used Bot pickles, an enum member is no action id, wrong argument types are TypeError, and the event queue is
bounded. The races are also run in the sanitizer pass of CI (libasan preloaded into Python), where a missing lock
shows as a use-after-free."""
import pickle
import threading
import time
import unittest

import stpete
from stpete import Bot, Game, State
from support import SOAK_SECONDS

SECONDS = SOAK_SECONDS  # per race loop: short in the quick suite, longer in `python-soak` (suite slow)


def blocked_while_held(lock, call):
    """Whether ``call()`` in another thread waits while this thread holds ``lock``, and completes once it is
    released. Returns (waited, error)."""
    done = threading.Event()
    errors = []

    def target():
        try:
            call()
        except BaseException as e:
            errors.append(e)
        done.set()

    with lock:
        t = threading.Thread(target=target)
        t.start()
        waited = not done.wait(0.3)
    t.join(10)
    return waited and done.is_set(), errors


class BotLocks(unittest.TestCase):
    def setUp(self):
        self.game = Game(players=3, seed=2)
        self.state = self.game.new_state()
        self.bot = Bot("mc", iterations=4, depth=3, seed=1)
        self.bot.choose(self.state)  # bound

    def test_calls_wait_for_the_state_lock(self):
        """finding 1: evaluate() read the state without its lock (another thread's close freed it meanwhile)"""
        for name, call in (("evaluate", lambda: self.bot.evaluate(self.state)),
                           ("choose", lambda: self.bot.choose(self.state)),
                           ("play", lambda: stpete.play(self.state.clone(), [self.bot] * 3, max_actions=2))):
            with self.subTest(name):
                waited, errors = blocked_while_held(self.state._lock, call)
                if name == "play":  # plays a clone: waits for the bot only
                    waited, errors = blocked_while_held(self.bot._lock, call)
                self.assertTrue(waited, f"{name} did not wait for the lock")
                self.assertEqual(errors, [])

    def test_calls_wait_for_the_bot_lock(self):
        """finding 2: one bot used by two threads at once (on two states) corrupted it"""
        other = self.game.new_state()
        for name, call in (("evaluate", lambda: self.bot.evaluate(other)), ("choose", lambda: self.bot.choose(other)),
                           ("set_seed", lambda: self.bot.set_seed(5)), ("stats", lambda: self.bot.stats),
                           ("close", self.bot.close)):
            with self.subTest(name):
                waited, errors = blocked_while_held(self.bot._lock, call)
                self.assertTrue(waited, f"{name} did not wait for the bot's lock")
                self.assertEqual(errors, [])

    def test_close_the_state_while_evaluating(self):
        """finding 1 as reported: evaluate() in a loop while another thread closes the state"""
        stop = time.monotonic() + SECONDS
        rounds = 0
        while time.monotonic() < stop:
            state = self.game.new_state(seed=rounds)
            errors = []

            def evaluate():
                try:
                    while True:
                        self.bot.evaluate(state)
                except stpete.ClosedError:
                    pass
                except BaseException as e:
                    errors.append(e)

            t = threading.Thread(target=evaluate)
            t.start()
            time.sleep(0.001)
            state.close()
            t.join()
            self.assertEqual(errors, [])
            rounds += 1
        self.assertGreater(rounds, 10)

    def test_one_bot_two_threads_two_states(self):
        """finding 2 as reported: every choice is legal where it is applied, no crash"""
        bot = Bot("ismcts", iterations=20, seed=3)
        errors = []
        stop = time.monotonic() + SECONDS

        def play(seed):
            try:
                state = self.game.new_state(seed=seed)
                while time.monotonic() < stop:
                    if state.is_terminal:
                        state.reset(seed)
                    action = bot.choose(state)
                    state.apply(action)  # an illegal choice raises IllegalActionError
                    bot.evaluate(state)
            except BaseException as e:
                errors.append(e)

        threads = [threading.Thread(target=play, args=(k,)) for k in range(3)]
        for t in threads:
            t.start()
        closer = self.game.new_state()
        for t in threads:
            t.join()
        closer.close()
        self.assertEqual(errors, [])

    def test_play_and_close_the_bot(self):
        """a bot closed by another thread while play() uses it: play finishes first, later calls are ClosedError"""
        bot = Bot("random", seed=1)
        state = self.game.new_state(seed=4)
        t = threading.Thread(target=lambda: stpete.play(state, [bot] * 3))
        t.start()
        bot.close()
        t.join()
        with self.assertRaises(stpete.ClosedError):
            bot.choose(self.game.new_state())

    def test_close_from_the_event_callback_of_play(self):
        """play()'s event callback closing the state (a segfault: freed under stpete_bot_play) or a bot it uses
        (freed while in use): deferred until play() returns, as from State.apply's callback"""
        for which in ("state", "bot"):
            with self.subTest(which):
                state = self.game.new_state(seed=5)
                bot = Bot("random", seed=1)
                seen = []

                def callback(st, event):
                    seen.append(event)
                    if len(seen) == 5:
                        (state if which == "state" else bot).close()

                state.set_event_callback(callback)
                played = stpete.play(state, [bot] * 3)
                self.assertGreater(played, 5)
                with self.assertRaises(stpete.ClosedError):
                    if which == "state":
                        state.legal_action_ids()
                    else:
                        bot.choose(self.game.new_state())

    def test_an_exception_of_the_callback_is_raised_by_play(self):
        """it was left pending and raised by the state's next apply instead"""
        state = self.game.new_state(seed=6)
        state.set_event_callback(lambda st, event: 1 / 0)
        with self.assertRaises(ZeroDivisionError):
            stpete.play(state, [Bot("random", seed=1)] * 3, max_actions=3)
        state.set_event_callback(None)
        state.apply(state.legal_action_ids()[0])  # nothing pending any more


class BotPickle(unittest.TestCase):
    def test_a_used_bot_pickles(self):
        """finding 9: pickling a used Bot raised ctypes' ValueError"""
        game = Game(players=2, seed=1, pub_cap="per-player")
        state = game.new_state(seed=9)
        bot = Bot("ismcts", iterations=30, seed=4)
        bot.set_seed(77)
        bot.choose(state)
        copy = pickle.loads(pickle.dumps(bot))
        self.assertEqual(copy.spec, bot.spec)
        self.assertEqual(copy.game.options, game.options)
        bot.set_seed(77)  # the copy starts afresh from its seed: the same choices as the bot reseeded
        self.assertEqual(copy.choose_id(state), bot.choose_id(state))
        unbound = pickle.loads(pickle.dumps(Bot("greedy")))
        self.assertIsNone(unbound.game)
        bot.close()
        self.assertEqual(pickle.loads(pickle.dumps(bot)).spec, bot.spec)


class ArgumentTypes(unittest.TestCase):
    def setUp(self):
        self.state = Game(players=2, seed=1).new_state()

    def test_an_enum_member_is_no_action_id(self):
        """finding 9: State.apply(Phase.TRADING) applied action 3"""
        before = self.state.to_json()
        for member in (stpete.Phase.TRADING, stpete.Card(3), stpete.EventKind(0)):
            with self.subTest(member=member):
                with self.assertRaises(TypeError):
                    self.state.apply(member)
                with self.assertRaises(TypeError):
                    stpete.Action.from_id(member)
                with self.assertRaises(TypeError):
                    self.state.game.action_string(member)
                self.assertEqual(self.state.to_json(), before)
        self.state.apply(self.state.legal_action_ids()[0])  # plain ints still work

    def test_wrong_argument_types(self):
        """finding 9: State.from_json(text, "x") raised AttributeError"""
        text = self.state.to_json()
        for call in (lambda: State.from_json(text, "x"), lambda: State.from_json(text, 3),
                     lambda: State.from_json(3), lambda: Bot("random", game="x"),
                     lambda: Bot("random").choose("state"), lambda: Bot("random").evaluate(None),
                     lambda: self.state.enable_event_queue(True, limit="10"),
                     lambda: stpete.replay_to_json("game", 1, []), lambda: stpete.replay_to_json(None, 1, [])):
            with self.assertRaises(TypeError):
                call()


class EventQueueBound(unittest.TestCase):
    def play(self, state, limit=None):
        """Three seeded random games in ``state`` (queue on, with ``limit``), never drained; returns the queue."""
        if limit is None:
            state.enable_event_queue()
        else:
            state.enable_event_queue(limit=limit)
        bot = Bot("random", seed=2)
        for g in range(3):
            state.reset(g)
            while not state.is_terminal:
                state.apply(bot.choose(state))
                if limit is not None:
                    self.assertLessEqual(state.pending_events, limit)
        return [str(e) for e in state.events()]

    def test_the_oldest_are_dropped_and_counted(self):
        """finding 9: a queue never drained grew without bound"""
        game = Game(players=4, seed=3)
        everything = self.play(game.new_state())
        bounded = game.new_state()
        kept = self.play(bounded, limit=50)
        self.assertEqual(kept, everything[-50:])  # the newest are kept, in order
        self.assertEqual(bounded.dropped_events, len(everything) - 50)
        self.assertEqual(bounded.pending_events, 0)
        # stpete.play() applies a whole game in one call: the bound holds after it
        other = game.new_state()
        other.enable_event_queue(limit=10)
        stpete.play(other, [Bot("random")] * 4)
        self.assertEqual(other.pending_events, 10)
        self.assertGreater(other.dropped_events, 100)
        with self.assertRaises(stpete.InvalidArgumentError):
            other.enable_event_queue(limit=0)
        self.assertEqual(State.EVENT_QUEUE_LIMIT, 100000)


if __name__ == "__main__":
    unittest.main()
