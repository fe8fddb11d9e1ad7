"""stpete.Bot, the library's reference bots (bots.h, issue 13): specs and their errors, legal choices, the
selfplay random bot, determinism, binding to a game, statistics, returns, handle ownership; the learned bot
(issue 43): its spec, its games, and an evaluation that reads only what the seat knows (§9)."""
import json
import unittest

import stpete
from stpete import Bot, Game
from support import splitmix64


class Specs(unittest.TestCase):
    def test_keywords_make_the_spec(self):
        self.assertEqual(Bot("ismcts", iterations=500, c=0.25, seed=3).spec,
                         "ismcts:iterations=500:ms=0:c=0.25:playout=random:depth=0:temp=10:seed=3")
        self.assertEqual(Bot("mc:playout=greedy", iterations=20, depth=40).spec,
                         "mc:iterations=20:ms=0:playout=greedy:depth=40:temp=10:seed=0")
        self.assertEqual(Bot("greedy").spec, "greedy")
        self.assertEqual(Bot().spec, "random:seed=0")
        self.assertIn("ismcts:iterations=500", repr(Bot("ismcts", iterations=500)))
        self.assertEqual(Bot("learned", iterations=300, depth=2, seed=4).spec,
                         "learned:iterations=300:ms=0:c=" + Bot("learned").spec.split(":c=")[1].split(":")[0]
                         + ":depth=2:seed=4")

    def test_bad_specs_raise_at_once_with_the_library_message(self):
        cases = [(("clever",), {}, stpete.ParseError, "unknown bot kind 'clever'"),
                 (("ismcts",), {"bogus": 1}, stpete.ParseError, "unknown key 'bogus'"),
                 (("ismcts",), {"iterations": "many"}, stpete.ParseError, "bad value 'many' for iterations"),
                 (("ismcts",), {"iterations": 0}, stpete.InvalidArgumentError, "needs a time limit"),
                 (("ismcts",), {"c": 101}, stpete.InvalidArgumentError, "c=101 is out of range"),
                 (("learned",), {"playout": "greedy"}, stpete.ParseError, "unknown key 'playout' for a learned bot"),
                 (("learned",), {"temp": 3}, stpete.ParseError, "unknown key 'temp' for a learned bot"),
                 (("",), {}, stpete.ParseError, "empty bot spec")]
        for args, kw, cls, text in cases:
            with self.subTest(args=args, kw=kw):
                with self.assertRaises(cls) as cm:
                    Bot(*args, **kw)
                self.assertIn(text, str(cm.exception))
        with self.assertRaises(TypeError):
            Bot(5)
        with self.assertRaises(TypeError):
            Bot("ismcts", iterations=[1])


class Playing(unittest.TestCase):
    def test_every_kind_plays_legal_actions_for_every_seat(self):
        for spec in ("random", "greedy", "mc:iterations=6:depth=6", "ismcts:iterations=12:depth=6",
                     "learned:iterations=20", "learned:iterations=10:depth=5"):
            for players in (2, 3, 4):
                with self.subTest(spec=spec, players=players):
                    game = Game(players=players, seed=players)
                    state = game.new_state()
                    bot = Bot(spec, seed=1) if spec.split(":")[0] in ("random", "mc", "ismcts", "learned") else Bot(spec)
                    moves = 0
                    while not state.is_terminal:
                        action = bot.choose(state)
                        self.assertIsInstance(action, stpete.Action)
                        self.assertTrue(state.is_legal(action))
                        state.apply(action)
                        moves += 1
                    self.assertGreater(moves, 50)
                    with self.assertRaises(stpete.GameOverError) as cm:
                        bot.choose(state)
                    self.assertIn("the game is over", str(cm.exception))

    def test_random_bot_is_selfplays(self):
        state = Game(players=3, seed=4).new_state()
        bot = Bot("random", seed=77)
        x = 77
        while not state.is_terminal:
            ids = state.legal_action_ids()
            value, x = splitmix64(x)
            self.assertEqual(bot.choose_id(state), ids[value % len(ids)])
            state.apply(ids[value % len(ids)])

    def test_same_seed_same_choices(self):
        state = Game(players=2, seed=9).new_state()
        a, b = Bot("ismcts", iterations=40, depth=8), Bot("ismcts", iterations=40, depth=8)
        a.set_seed(5)
        b.set_seed(5)
        for _ in range(30):
            if state.is_terminal:
                break
            choice = a.choose_id(state)
            self.assertEqual(choice, b.choose_id(state))
            self.assertEqual(a.stats.value, b.stats.value)
            state.apply(choice)

    def test_stats_and_returns(self):
        game = Game(players=2, seed=2)
        state = game.new_state()
        bot = Bot("ismcts", iterations=50, depth=5, game=game)
        self.assertIs(bot.game, game)
        self.assertIsNone(bot.stats.action)
        action = bot.choose(state)
        s = bot.stats
        self.assertEqual(s.action, action)
        self.assertEqual(s.seat, state.current_player)
        self.assertEqual(s.iterations, 50)
        self.assertTrue(1 < s.nodes <= 51)
        self.assertTrue(0 <= s.value <= 1)
        returns = bot.evaluate(state)
        self.assertEqual(len(returns), 2)
        self.assertAlmostEqual(sum(returns), 1.0)

    def test_every_kind_refuses_another_game(self):
        """Every kind of bot asks the library's one "same game" check (stpete_game_compatible()): a first-edition,
        sampled-chance bot refuses a second-edition state and an explicit-chance state with MismatchError."""
        ed2 = Game(players=2, edition=2).new_state()
        explicit = Game(players=2, chance_mode="explicit").new_state()
        while explicit.is_chance_node:
            explicit.apply(explicit.chance_outcomes()[0][0])
        for spec in ("random", "greedy", "mc:iterations=5", "ismcts:iterations=5", "learned:iterations=5"):
            bot = Bot(spec, game=Game(players=2))
            for state in (ed2, explicit):
                with self.subTest(spec=spec, state=state), self.assertRaises(stpete.MismatchError) as cm:
                    bot.choose(state)
                self.assertIn("other rule options", str(cm.exception))
            bot.close()

    def test_learned_evaluation_reads_only_what_the_seat_knows(self):
        """The learned bot's evaluation (its network on the observation tensor of the seat to act, bots.h): 1/k per
        winner at the end, a distribution over the seats before, the same for positions that differ only in what
        that seat cannot know (another seat's secret rubles, the order of a stack: §9), and another when what it
        knows changes (its own rubles)."""
        for options in ({"players": 3}, {"players": 2, "edition": 2}, {"players": 5, "new_society": True}):
            with self.subTest(**options):
                game = Game(seed=3, **options)
                bot = Bot("learned", game=game)
                state = game.new_state()
                for _ in range(30):
                    state.apply(state.legal_action_ids()[-1])
                seat = state.current_player
                returns = bot.evaluate(state)
                self.assertEqual(len(returns), state.players)
                self.assertAlmostEqual(sum(returns), 1.0, places=12)
                self.assertTrue(all(0 <= r <= 1 for r in returns))
                doc = json.loads(state.to_json())
                other = doc["players"][(seat + 1) % state.players]
                other["rubles"] += 9
                for stack in doc["stacks"].values():
                    stack.reverse()
                hidden = stpete.State.from_json(json.dumps(doc), game)
                self.assertNotEqual(hidden.to_json(), state.to_json())
                self.assertEqual(bot.evaluate(hidden), returns)
                doc["players"][seat]["rubles"] += 30
                self.assertNotEqual(bot.evaluate(stpete.State.from_json(json.dumps(doc), game)), returns)
                while not state.is_terminal:
                    state.apply(state.legal_action_ids()[0])
                self.assertEqual(bot.evaluate(state), state.returns())

    def test_mismatch_and_ownership(self):
        g2, g3 = Game(players=2), Game(players=3)
        bot = Bot("greedy")
        self.assertIsNone(bot.game)
        bot.choose(g2.new_state())
        self.assertIs(bot.game, g2)
        with self.assertRaises(stpete.MismatchError):
            bot.choose(g3.new_state())
        g2.close()  # the bot keeps its game's handle alive
        state = Game(players=2, seed=5).new_state()
        self.assertTrue(state.is_legal(bot.choose(state)))
        bot.close()
        bot.close()
        with self.assertRaises(stpete.ClosedError):
            bot.choose(state)
        with self.assertRaises(TypeError):
            Bot().choose("not a state")


if __name__ == "__main__":
    unittest.main()


class PlayInOneCall(unittest.TestCase):
    """stpete.play(): stpete_bot_play, a whole game (or up to a limit, or a chance node) in one library call."""

    def test_same_game_as_the_python_loop(self):
        for players in (2, 3, 4):
            game = Game(players=players, seed=11)
            loop, fast = game.new_state(), game.new_state()
            bots = [Bot("greedy"), Bot("random", seed=4)]
            seats = [bots[s % 2] for s in range(players)]
            n = 0
            while not loop.is_terminal:
                loop.apply(seats[loop.current_player].choose(loop))
                n += 1
            bots[1].set_seed(4)
            self.assertEqual(stpete.play(fast, seats, max_actions=30), 30)
            self.assertEqual(len(fast.history), 30)
            self.assertEqual(stpete.play(fast, seats), n - 30)
            self.assertTrue(fast.is_terminal)
            self.assertEqual(fast, loop)
            self.assertEqual(stpete.play(fast, seats), 0)

    def test_stops_at_chance_nodes(self):
        state = Game(players=2, chance_mode="explicit").new_state()
        bot = Bot("random", seed=1)
        stops = 0
        while True:
            stpete.play(state, [bot, bot])
            if state.is_terminal:
                break
            self.assertTrue(state.is_chance_node)
            state.apply(state.legal_actions()[0])
            stops += 1
        self.assertGreater(stops, 20)

    def test_bad_input_leaves_the_state(self):
        game = Game(players=3, seed=2)
        state = game.new_state()
        before = state.to_json()
        bot = Bot("random")
        with self.assertRaises(stpete.InvalidArgumentError):
            stpete.play(state, [bot, bot])
        with self.assertRaises(TypeError):
            stpete.play(state, [bot, bot, "greedy"])
        with self.assertRaises(TypeError):
            stpete.play("state", [bot, bot, bot])
        with self.assertRaises(stpete.InvalidArgumentError):
            stpete.play(state, [bot, bot, bot], max_actions=-1)
        with self.assertRaises(TypeError):
            stpete.play(state, [bot, bot, bot], max_actions=2.5)
        other = Bot("greedy", game=Game(players=2))
        with self.assertRaises(stpete.MismatchError) as cm:
            stpete.play(state, [other, other, other])
        self.assertIn("other rule options", str(cm.exception))
        self.assertEqual(state.to_json(), before)
        with self.assertRaises(stpete.InvalidArgumentError):
            Bot("random").set_seed(-1)
