"""Threads (issue 10, finding 1): every C call on a State holds that state's lock, so one State used from several
threads at once is never corrupted (ctypes releases the GIL during C calls: without the lock, applies, resets and
serializations ran on one position at once and crashed the interpreter). A Game is shared safely too."""
import random
import threading
import time
import unittest

import stpete
from stpete import Game, State
from support import SOAK_SECONDS

SECONDS = SOAK_SECONDS  # per hammering test: thousands of interleavings in the quick suite, more in `python-soak`
THREADS = 5


def run_threads(target, count=THREADS):
    errors = []

    def guarded(k):
        try:
            target(k)
        except BaseException as e:  # reported by the test, not lost in the thread
            errors.append(e)

    threads = [threading.Thread(target=guarded, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


class OneStateManyThreads(unittest.TestCase):
    def test_hammer_one_state(self):
        game = Game(players=3, seed=5)
        state = game.new_state()
        state.enable_event_queue()
        other = game.new_state()
        done = [0] * 10
        stop = time.monotonic() + SECONDS

        def worker(k):
            rng = random.Random(k)
            while time.monotonic() < stop:
                op = rng.randrange(10)
                try:
                    if op < 3:
                        legal = state.legal_action_ids()
                        if legal:
                            state.apply(rng.choice(legal))
                        else:
                            state.reset(rng.randrange(2 ** 64))
                    elif op == 3:
                        if rng.random() < 0.3:
                            state.reset(rng.randrange(1000))
                        else:
                            try:
                                state.undo()
                            except stpete.InvalidArgumentError:
                                pass  # nothing to undo (another thread reset or copied into it)
                    elif op == 4:  # every snapshot is a consistent position: it reloads, byte for byte
                        text = state.to_json()
                        self.assertEqual(State.from_json(text, game).to_json(), text)
                    elif op == 5:
                        state.view_to_json(rng.choice([None, 0, 1, 2]))
                        state.legal_action_mask()
                        seat = rng.randrange(3)
                        state.observation_tensor(seat)
                        state.information_state_string(seat)
                        state.information_state_key(seat)
                        state.returns()
                        state.local_history()
                    elif op == 6:
                        with state.clone() as clone:
                            self.assertEqual(State.from_json(clone.to_json(), game), clone)
                            if clone.history is not None:  # the history of a clone is that of its position
                                self.assertEqual(State.from_replay(clone.replay_to_json()), clone)
                    elif op == 7:
                        str(state)
                        state.scores
                        [seat.hand for seat in state.seats]
                    elif op == 8:
                        state.events()
                        state.pending_events
                    else:
                        if rng.random() < 0.5:
                            other.copy_from(state)
                        else:
                            state.copy_from(other)
                        state == other
                except (stpete.IllegalActionError, stpete.GameOverError):
                    pass  # another thread moved first: listed, then applied elsewhere
                done[op] += 1

        errors = run_threads(worker)
        self.assertEqual(errors, [])
        self.assertGreater(min(done), 10, f"too few operations of some kind: {done}")
        # the state is valid and its history matches its position
        self.assertEqual(State.from_json(state.to_json()), state)
        if state.history is not None:
            self.assertEqual(State.from_replay(state.replay_to_json()), state)
        while not state.is_terminal:  # and it plays on to the end
            state.apply(state.legal_action_ids()[0])
        self.assertTrue(state.winners)

    def test_callbacks_run_under_the_lock(self):
        """Each thread's event callback sees the state it was called for, unchanged by the other threads while it
        runs: the round, phase and history do not move under it."""
        state = Game(players=2, seed=9).new_state()
        mismatches = []

        def check(st, ev):  # (a full state is not written inside its callback: the public view stands for it)
            before = (st.round, st.phase, st.history, st.view_to_json(None))
            time.sleep(0)  # let the other threads try to run
            if (st.round, st.phase, st.history, st.view_to_json(None)) != before:
                mismatches.append(ev)

        state.set_event_callback(check)
        stop = time.monotonic() + SECONDS / 2

        def worker(k):
            rng = random.Random(k)
            while time.monotonic() < stop:
                try:
                    legal = state.legal_action_ids()
                    if legal:
                        state.apply(rng.choice(legal))
                    else:
                        state.reset(rng.randrange(100))
                except (stpete.IllegalActionError, stpete.GameOverError):
                    pass

        self.assertEqual(run_threads(worker, 4), [])
        self.assertEqual(mismatches, [])

    def test_close_while_other_threads_use_it(self):
        """close() from one thread waits for the running call, then every other thread gets ClosedError."""
        game = Game(players=4, seed=3)
        state = game.new_state()
        closed_seen = [0] * THREADS
        started = threading.Barrier(THREADS + 1)

        def worker(k):
            rng = random.Random(k)
            started.wait()
            while True:
                try:
                    legal = state.legal_action_ids()
                    if legal:
                        state.apply(rng.choice(legal))
                    else:
                        state.reset(rng.randrange(100))
                    state.to_json()
                except (stpete.IllegalActionError, stpete.GameOverError):
                    pass
                except stpete.ClosedError:
                    closed_seen[k] += 1
                    return

        threads = [threading.Thread(target=worker, args=(k,)) for k in range(THREADS)]
        for t in threads:
            t.start()
        started.wait()
        time.sleep(0.3)
        state.close()
        for t in threads:
            t.join(30)
        self.assertTrue(all(not t.is_alive() for t in threads))
        self.assertEqual(closed_seen, [1] * THREADS)
        self.assertIn("closed", repr(state))
        self.assertEqual(game.new_state().players, 4)  # the game is still open


class SharedGame(unittest.TestCase):
    def test_states_of_one_game_in_many_threads(self):
        """Distinct states of one shared game, each used by its thread, give the same games as alone."""
        game = Game(players=2, seed=1)
        results = {}

        def worker(k):
            state = game.new_state(seed=k)
            rng = random.Random(k)
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_action_ids()))
            results[k] = state.to_json()

        self.assertEqual(run_threads(worker, 4), [])
        for k, text in results.items():
            state = game.new_state(seed=k)
            rng = random.Random(k)
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_action_ids()))
            self.assertEqual(state.to_json(), text)

    def test_close_game_while_threads_create_states(self):
        """Game.close() racing with new_state(), clone() and closing states: every state either exists with a live
        game or is refused with ClosedError; the game's handle is freed once, after its last state."""
        for _ in range(20):
            game = Game(players=2, seed=2)
            keep = game.new_state()
            made = []

            def worker(k):
                for _ in range(50):
                    try:
                        st = game.new_state()
                    except stpete.ClosedError:
                        return
                    made.append(st.clone())
                    st.close()

            threads = [threading.Thread(target=worker, args=(k,)) for k in range(3)]
            for t in threads:
                t.start()
            game.close()
            for t in threads:
                t.join()
            for st in made + [keep]:  # each still works: the game outlives them
                self.assertEqual(len(st.legal_action_ids()), len(keep.legal_action_ids()))
                st.close()
            self.assertIsNone(game._ptr)  # freed with the last state


if __name__ == "__main__":
    unittest.main()
