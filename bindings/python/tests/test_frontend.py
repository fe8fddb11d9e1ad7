"""What front ends draw (issue 26): colour names, what a trading card could displace and at what price (checked
against the legal actions at every decision of seeded games and at states loaded from JSON), the game-over line
naming the winners, and undo lines naming the seat."""
import random
import unittest

import stpete
from stpete import ActionKind, Card, Colour


class Package(unittest.TestCase):
    def test_help_leads_with_a_map(self):
        import pydoc
        text = pydoc.render_doc(stpete, renderer=pydoc.plaintext)
        description = text[text.index("DESCRIPTION"):text.index("PACKAGE CONTENTS")]
        for part in ("Game, State", "Action", "Bot, play", "search, learning", "stpete.openspiel",
                     "stpete.pettingzoo", "stpete.experiment", "errors"):
            self.assertIn(part, description)
        self.assertLess(len(description.splitlines()), 40)


class Colours(unittest.TestCase):
    def test_words(self):
        self.assertEqual([c.word for c in Colour], ["green", "blue", "orange"])
        self.assertEqual(Colour(stpete.Game().card_info(Card.WHARF).colour).word, "green")


class Displacements(unittest.TestCase):
    def check_against_legal(self, state):
        seat = state.current_player
        compared = 0
        for action in state.legal_actions():
            if action.kind not in (ActionKind.BUY, ActionKind.PLAY, ActionKind.OBSERVATORY_BUY) or \
                    action.displaced is None or action.displaced < 0:
                continue
            listed = dict(state.displacements(seat, action.card, action.source))
            self.assertEqual(listed.get(Card(action.displaced)), state.action_price(action), str(action))
            compared += 1
        return compared

    def test_match_legal_actions_played_and_loaded(self):
        compared = loaded = 0
        for players in (2, 3, 4):
            rng = random.Random(players)
            state = stpete.Game(players=players, seed=players).new_state()
            step = 0
            while not state.is_terminal:
                compared += self.check_against_legal(state)
                if step % 29 == 0:
                    loaded += self.check_against_legal(stpete.State.from_json(state.to_json()))
                state.apply(rng.choice(state.legal_actions()))
                step += 1
        self.assertGreater(compared, 20)
        self.assertGreater(loaded, 0)

    def test_bad_input(self):
        state = stpete.Game(players=2, seed=1).new_state()
        self.assertEqual(state.displacements(0, Card.WHARF), [])  # an empty display
        for args in ((0, Card.MARKET), (2, Card.WHARF), (0, Card.WHARF, 5), (-1, Card.WHARF)):  # 4: discard, §12
            with self.assertRaises(stpete.InvalidArgumentError):
                state.displacements(*args)
        with self.assertRaises((stpete.InvalidArgumentError, TypeError)):
            state.displacements(0, 1.5)


class Lines(unittest.TestCase):
    def test_game_over_names_the_winners(self):
        state = stpete.Game(players=3, seed=4).new_state()
        state.enable_event_queue()
        stpete.play(state, [stpete.Bot("greedy"), stpete.Bot("random", seed=1), stpete.Bot("greedy")])
        over = [e for e in state.events() if e.kind == stpete.EventKind.GAME_OVER]
        seats = " and ".join(str(s) for s in state.winners)
        want = f"seat {seats} wins" if len(state.winners) == 1 else f"seats {seats} share the win"
        self.assertTrue(str(over[-1]).endswith(want), str(over[-1]))

    def test_undo_names_the_seat(self):
        state = stpete.Game(players=2, seed=2).new_state()
        state.apply(state.legal_actions()[0])
        state.enable_event_queue()
        state.undo()
        (event,) = [e for e in state.events() if e.kind == stpete.EventKind.UNDO]
        self.assertRegex(str(event), rf"^undo: seat {state.current_player}'s .* is taken back$")


if __name__ == "__main__":
    unittest.main()
