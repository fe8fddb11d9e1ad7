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


class TableFacts(unittest.TestCase):
    """Issue 41: what a table UI draws, from the library (stpete_state_offers, stpete_state_income,
    stpete_state_next_scoring, stpete_state_last_discards, stpete_game_card_text, stpete_state_table_to_json)."""

    def test_action_kind_words(self):
        self.assertEqual([k.word for k in ActionKind][:3], ["pass", "buy", "play"])
        self.assertEqual(ActionKind.PRISON_PUT_BACK.word, "prison-put-back")

    def test_along_games(self):
        import json
        from collections import Counter
        for options, seed in (({"players": 3}, 1), ({"players": 5, "new_society": True}, 2),
                              ({"players": 4, "edition": 2}, 3)):
            game = stpete.Game(seed=seed, **options)
            state = game.new_state()
            rng = random.Random(seed)
            before = Counter(json.loads(state.view_to_json(None))["discard"])
            while not state.is_terminal:
                seat = state.current_player
                for offer in state.offers(seat):  # every offer at the library's price, its action's when legal
                    if offer.displaced is None:
                        self.assertEqual(offer.price, state.price(seat, offer.card, offer.source))
                    else:
                        self.assertIn((offer.displaced, offer.price),
                                      state.displacements(seat, offer.card, offer.source))
                    if state.is_legal(offer.action):
                        self.assertEqual(state.action_price(offer.action), offer.price)
                for s in range(state.players):
                    for phase in (stpete.Phase.WORKER, stpete.Phase.BUILDING, stpete.Phase.ARISTOCRAT):
                        rubles, vp = state.income(s, phase)
                        self.assertIsInstance(rubles, int)
                with self.assertRaises(stpete.InvalidArgumentError):
                    state.income(0, stpete.Phase.TRADING)
                doc = json.loads(state.table_to_json(seat))
                self.assertEqual(doc["to_act"], seat)
                self.assertEqual([a["id"] for a in doc["actions"]], [int(a) for a in state.legal_actions()])
                self.assertEqual(doc["incomes"]["next"], None if state.next_scoring is None else
                                 stpete.Phase(state.next_scoring).name.lower())
                state.apply(rng.choice(state.legal_actions()))
                after = Counter(json.loads(state.view_to_json(None))["discard"])
                gained = after - before
                if gained:
                    self.assertEqual(Counter(game.card_name(c) for c in state.last_discards()), gained)
                before = after
            self.assertIsNone(state.next_scoring)

    def test_incomes_of_a_later_round_turn_observatory_and_prison_up(self):
        """A face-down Observatory (§7.1, R9) and a used Debtor's Prison (R22) score nothing at this round's building
        scoring only: at every later one they are face up and unused again (§4.5 step 5, §12.4.5). On loaded
        positions: before the building scoring the income leaves their VP out, after it (aristocrat and trading
        phase, the Pub decision) it has them, as the next building scoring pays."""
        import json
        for options, card, key, used in (({"players": 2}, "Observatory", "observatories_used", 1),
                                         ({"players": 3, "new_society": True}, "Debtor's Prison", "prison_used",
                                          True)):
            game = stpete.Game(seed=3, **options)
            for phase in (stpete.Phase.BUILDING, stpete.Phase.ARISTOCRAT, stpete.Phase.TRADING):
                state = game.new_state()
                rng = random.Random(1)
                while state.phase != phase:
                    state.apply(rng.choice(state.legal_actions()))
                doc = json.loads(state.to_json())
                doc["stacks"]["building"].remove(card)  # from the stack into seat 0's display, used this round
                doc["stack_sizes"]["building"] -= 1
                doc["players"][0]["display"].append(card)
                unused = stpete.State.from_json(json.dumps(doc), game)
                doc["players"][0][key] = used
                loaded = stpete.State.from_json(json.dumps(doc), game)
                rubles, vp = unused.income(0, stpete.Phase.BUILDING)
                self.assertEqual(vp, json.loads(unused.table_to_json(0))["incomes"]["building"][0]["vp"])
                expected = vp - 1 if phase == stpete.Phase.BUILDING else vp  # 1 VP each (§2.2, §12.2.3)
                self.assertEqual(loaded.income(0, stpete.Phase.BUILDING), (rubles, expected), (card, phase))
                self.assertEqual(json.loads(loaded.table_to_json(0))["incomes"]["building"][0],
                                 {"rubles": rubles, "vp": expected})

    def test_a_sycophants_scoring_event_has_its_negative_rubles(self):
        """A seat whose aristocrat income is a Sycophant's -1 R (§12.7.9, R26) and who can pay it: the SCORING event
        says rubles=-1, as stpete_state_income() said before (not None, the word of an unused field). Loaded."""
        import json
        game = stpete.Game(players=2, seed=3, new_society=True)
        colour = {game.card_name(c): game.card_info(c).colour for c in range(game.num_card_types)}
        state = game.new_state()
        rng = random.Random(2)
        while state.phase != stpete.Phase.ARISTOCRAT:
            state.apply(rng.choice(state.legal_actions()))
        doc = json.loads(state.to_json())
        for place in (doc["stacks"]["aristocrat"], doc["upper_row"], doc["lower_row"], doc["discard"]):
            if "Sycophant" in place:  # into seat 0's display, whose green and orange cards go to the pile
                place.remove("Sycophant")
                break
        doc["stack_sizes"]["aristocrat"] = len(doc["stacks"]["aristocrat"])
        seat = doc["players"][0]
        doc["discard"] += [c for c in seat["display"] if colour[c] != Colour.BLUE]
        seat["display"] = [c for c in seat["display"] if colour[c] == Colour.BLUE] + ["Sycophant"]
        seat["rubles"] = 5
        state = stpete.State.from_json(json.dumps(doc), game)
        self.assertEqual(state.income(0, stpete.Phase.ARISTOCRAT), (-1, 0))
        state.enable_event_queue()
        while state.next_scoring == stpete.Phase.ARISTOCRAT:  # everyone passes
            state.apply("pass")
        scorings = [e for e in state.events() if e.kind == stpete.EventKind.SCORING and e.seat == 0]
        self.assertEqual([(e.rubles, e.vp) for e in scorings], [(-1, 0)])

    def test_card_texts(self):
        base, ns = stpete.Game(), stpete.Game(new_society=True, players=3)
        self.assertEqual(base.card_text(Card.WAREHOUSE), "Your hand limit is 4 instead of 3 (§7.3).")
        self.assertEqual(base.card_text(Card.FUR_SHOP), "Displaces Fur Trapper or Czar and Carpenter (§6.2).")
        self.assertEqual(base.card_text(Card.LUMBERJACK), "")
        self.assertIn("per Pub you have", base.card_text(Card.PUB))
        self.assertIn("however many Pubs", stpete.Game(pub_cap="per-player").card_text(Card.PUB))
        self.assertIn("scores no VP", ns.card_text(stpete.NewSocietyCard.DEBTORS_PRISON))
        self.assertIn("still scores its VP", stpete.Game(players=3, new_society=True, used_prison_scores=True)
                      .card_text(stpete.NewSocietyCard.DEBTORS_PRISON))
        self.assertEqual(ns.card_text(stpete.NewSocietyCard.NEW_SOCIETY), "Displaces any worker that is not a trading card (§6.2, §12.6).")
        with self.assertRaises(stpete.InvalidArgumentError):
            base.card_text(stpete.NewSocietyCard.MAYOR)  # not a card of a base game


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
