"""The learned evaluation in C (lib/bots/bot_value.c, through stpete_bot_evaluate of a `learned` bot) equals
tools/learn/export.py's integer reference, reading the same weights (lib/bots/bot_value_data.c), bit for bit: at
every decision of games of both families (the base game in both editions at 2-4 players, the New Society at 2-5),
on positions loaded from JSON with values past the inputs' limits, and at the end (the exact returns). NumPy and the
binding only."""
import json
import os
import random
import sys
import unittest

import numpy as np

import stpete

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import export  # noqa: E402
import selfplay  # noqa: E402

SOURCE_ROOT = os.environ.get("STPETE_SOURCE_ROOT") or os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DATA = os.path.join(SOURCE_ROOT, "lib", "bots", "bot_value_data.c")
CONFIGS = [(p, e, False) for p in (2, 3, 4) for e in (1, 2)] + [(p, 1, True) for p in (2, 3, 4, 5)]


def reference(nets, state, seat):
    """export.py's returns of seat's view of state, rotated to seats (as bot.evaluate gives them)."""
    game = state.game
    net = nets[1 if game.options.get("new_society") else 0]
    x = np.asarray(state.observation_tensor(seat), np.float64)
    x = np.append(x, 1.0 if game.edition == 2 else 0.0).astype(np.int64)
    r = net.returns(x[None, :], state.players)[0]
    return [float(r[(s - seat) % state.players]) for s in range(state.players)]


class Equality(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.nets, cls.record = export.read_c(DATA)

    def test_the_weights_are_the_c_file(self):
        base, ns = self.nets
        self.assertEqual((base.tensor, base.outputs), (668, 4))
        self.assertEqual((ns.tensor, ns.outputs), (972, 5))
        for net in self.nets:
            self.assertEqual(net.inputs, net.tensor + 1)
            self.assertEqual(net.hidden % 16, 0)
            self.assertLessEqual(int(np.abs(net.w1).max()), 32767)
            # no layer-1 sum leaves int32 for inputs within their limits (bot_value.h)
            self.assertLess(int((np.abs(net.b1) + net.limit @ np.abs(net.w1)).max()), 2 ** 31)
        self.assertTrue(any(line.startswith("command:") for line in self.record), self.record)

    def test_c_equals_python_at_every_decision(self):
        checked = 0
        for players, edition, new_society in CONFIGS:
            game = stpete.Game(players=players, edition=edition, **({"new_society": True} if new_society else {}))
            bot = stpete.Bot("learned", game=game)
            for g in range(2):
                state = game.new_state(seed=100 * players + 10 * edition + g)
                rng = random.Random(g)
                with self.subTest(players=players, edition=edition, new_society=new_society, game=g):
                    while not state.is_terminal:
                        seat = state.current_player
                        c = bot.evaluate(state)
                        self.assertEqual(c, reference(self.nets, state, seat))
                        self.assertAlmostEqual(sum(c), 1.0, places=12)
                        checked += 1
                        legal = state.legal_action_ids()
                        state.apply(legal[rng.randrange(len(legal))])
                    self.assertEqual(bot.evaluate(state), state.returns())  # the end: exact (§8, R14)
        self.assertGreater(checked, 3000)

    def test_loaded_positions_past_the_limits(self):
        """Positions loaded with VP and rubles far beyond anything played (the inputs are clamped to their limits, in
        C as in Python) and with each seat to act."""
        for players, edition, new_society in CONFIGS:
            game = stpete.Game(players=players, edition=edition, **({"new_society": True} if new_society else {}))
            bot = stpete.Bot("learned", game=game)
            state = game.new_state(seed=7)
            for _ in range(40):
                state.apply(state.legal_action_ids()[0])
            doc = json.loads(state.to_json())
            for i, p in enumerate(doc["players"]):
                p["vp"] = 900 + 37 * i
                p["rubles"] = 400 + i
            loaded = stpete.State.from_json(json.dumps(doc), game)
            seat = loaded.current_player
            with self.subTest(players=players, edition=edition, new_society=new_society):
                net = self.nets[1 if new_society else 0]
                x = np.asarray(loaded.observation_tensor(seat), np.int64)
                self.assertTrue((np.abs(np.append(x, 0)) > net.limit).any(), "some input is past its limit")
                self.assertEqual(bot.evaluate(loaded), reference(self.nets, loaded, seat))

    def test_the_inputs_are_selfplays(self):
        """selfplay.inputs (the training data) is the tensor and the edition that reference() and C read."""
        game = selfplay.load(3, 2, False, 5)
        state = game.new_initial_state()
        row = selfplay.inputs(state, 1, 2)
        self.assertEqual(row[:-1], list(state.observation_tensor(1)))
        self.assertEqual(row[-1], 1.0)


if __name__ == "__main__":
    unittest.main()
