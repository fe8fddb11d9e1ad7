"""The Pythonic surface: Game options, State life cycle, legal actions, apply by Action / id / string, clone,
equality, queries, final scores and winners, handle ownership."""
import gc
import json
import random
import unittest
import weakref

import stpete
from stpete import Action, ActionKind, Card, Decision, Game, Phase, Source
from support import play_random


class GameOptions(unittest.TestCase):
    def test_defaults(self):
        with Game() as g:
            self.assertEqual(g.players, 4)
            self.assertEqual(g.seed, 0)
            self.assertEqual(g.pub_cap, stpete.PubCap.PER_PUB)
            self.assertEqual(g.tie_break, stpete.TieBreak.RUBLES_MOD_10)
            self.assertIsNone(g.start_markers)
            self.assertFalse(g.public_rubles or g.public_hands)

    def test_rule_options_round_trip(self):
        g = Game(players=3, seed=2 ** 64 - 1, pub_cap="per-player", tie_break="total", start_markers=(2, 0, 1, 2),
                 public_rubles=True, public_hands=True)
        self.assertEqual(g.options, {"players": 3, "seed": 2 ** 64 - 1, "pub_cap": stpete.PubCap.PER_PLAYER,
                                     "tie_break": stpete.TieBreak.RUBLES_TOTAL, "start_markers": (2, 0, 1, 2),
                                     "public_rubles": True, "public_hands": True,
                                     "chance_mode": stpete.ChanceMode.SAMPLED, "edition": 1})
        again = Game(**g.options)
        self.assertEqual(again.options, g.options)
        self.assertEqual(again.new_state(), g.new_state())  # same options and seed: same game
        self.assertEqual(g.new_state().marker_holders, (2, 0, 1, 2))
        self.assertIn("players=3", repr(g))
        self.assertEqual(Game(pub_cap=stpete.PubCap.PER_PLAYER).pub_cap, stpete.PubCap.PER_PLAYER)

    def test_option_words_are_the_json_words(self):
        """Issue 11, item 6: the words of the JSON format, the former words as aliases."""
        for tie_break in stpete.TieBreak:
            for pub_cap in stpete.PubCap:
                game = Game(players=2, pub_cap=pub_cap, tie_break=tie_break)
                words = json.loads(game.new_state().to_json())["options"]
                again = Game(players=2, pub_cap=words["pub_cap"], tie_break=words["tie_break"])
                self.assertEqual((again.pub_cap, again.tie_break), (pub_cap, tie_break))
        self.assertEqual(Game(tie_break="rubles-mod-10").tie_break, stpete.TieBreak.RUBLES_MOD_10)
        self.assertEqual(Game(tie_break="rubles-total").tie_break, stpete.TieBreak.RUBLES_TOTAL)
        self.assertEqual(Game(tie_break="RUBLES_TOTAL").tie_break, stpete.TieBreak.RUBLES_TOTAL)
        self.assertEqual(Game(tie_break="mod10").tie_break, stpete.TieBreak.RUBLES_MOD_10)  # former words
        self.assertEqual(Game(tie_break="total").tie_break, stpete.TieBreak.RUBLES_TOTAL)
        self.assertEqual(Game(pub_cap="per-player").pub_cap, stpete.PubCap.PER_PLAYER)
        with self.assertRaises(stpete.InvalidArgumentError) as cm:
            Game(tie_break="mod-10")
        self.assertIn('"rubles-mod-10" or "rubles-total"', cm.exception.message)

    def test_the_table_of_options(self):
        """Issue 42: stpete.options() is the library's table (its names, in the JSON format's order), described
        once; every option is a keyword of Game and an attribute of a game, by its name, and its values are read
        by the library (Option.parse)."""
        table = stpete.options()
        self.assertIs(table, stpete.options())
        names = [o.name for o in table]
        self.assertEqual(names[:13], ["players", "seed", "pub_cap", "tie_break", "start_markers", "public_rubles",
                                      "public_hands", "chance_mode", "edition", "new_society", "markers_one_seat",
                                      "used_prison_scores", "textile_without_new_society"])
        self.assertEqual(list(json.loads(Game(players=5, new_society=True).new_state().replay_to_json())["options"]),
                         names[:13])
        pub_cap = table[names.index("pub_cap")]
        self.assertEqual((pub_cap.type, pub_cap.category, pub_cap.default, pub_cap.words, pub_cap.rule),
                         (stpete.OptionType.ENUM, stpete.OptionCategory.RULES, "per-pub", ("per-pub", "per-player"),
                          "§7.2, R10"))
        self.assertEqual(table[names.index("markers_one_seat")].games, stpete.Games.NEW_SOCIETY)
        self.assertEqual(table[0].labels[-1], "5 (the New Society)")
        self.assertEqual(pub_cap.as_dict()["games"], ["first-edition", "second-edition", "new-society"])
        self.assertEqual(pub_cap.parse("per-player"), "per-player")
        self.assertEqual(table[names.index("start_markers")].parse("1,0,1,0"), (1, 0, 1, 0))
        with self.assertRaises(stpete.InvalidArgumentError) as cm:
            pub_cap.parse("per-seat")
        self.assertIn("(§7.2, R10)", cm.exception.message)
        # numbers that are none of the option's values are refused with the library's reason, never cut: four
        # seats of -2**31 read back as three numbers before (their text is longer than OPTION_VALUE_MAX)
        seats = table[names.index("start_markers")]
        self.assertEqual(seats.parse("0,1,2,4"), (0, 1, 2, 4))  # seats of 5 players: the combination is Game's
        for option, text, says in ((seats, ",".join(["-2147483648"] * 4), "not -2147483648: no game has it"),
                                   (seats, "0,1,2,7", "not 7: no game has it"), (pub_cap, "9", "not 9 (§7.2, R10)"),
                                   (table[names.index("public_rubles")], "7", "public_rubles must be 0 or 1, not 7")):
            with self.subTest(option=option.name, text=text):
                with self.assertRaises(stpete.InvalidArgumentError) as cm:
                    option.parse(text)
                self.assertIn(says, cm.exception.message)
        for option in table:
            if option.type == stpete.OptionType.BOOL:
                values = [False, True]
            elif option.type == stpete.OptionType.ENUM:
                values = list(option.words)
            elif option.type == stpete.OptionType.INT:
                values = list(range(option.min, option.max + 1))
            else:
                values = [option.default]
            for value in values:
                for given in ({option.name: value}, {"new_society": True, option.name: value}):
                    with self.subTest(**{k: str(v) for k, v in given.items()}):
                        reason = stpete.check_options(**given)
                        if reason is not None:
                            with self.assertRaises(stpete.InvalidArgumentError) as cm:
                                Game(**given)
                            self.assertIn(reason, cm.exception.message)
                            continue
                        with Game(**given) as game:
                            got = getattr(game, option.name)
                            self.assertEqual(getattr(got, "word", got), value)
                            with Game(**game.options) as again:
                                self.assertEqual(again.options, game.options)
        self.assertIn("5 players need the New Society (new_society, §12.0, R17)", stpete.check_options(players=5))
        self.assertIsNone(stpete.check_options(players=5, new_society=True))
        with self.assertRaises(TypeError):
            stpete.check_options(colour="red")

    def test_seed_determines_game(self):
        a, b, c = Game(seed=9).new_state(), Game(seed=9).new_state(), Game(seed=10).new_state()
        self.assertEqual(a, b)
        self.assertNotEqual(a, c)
        self.assertEqual(Game(seed=0).new_state(seed=10), c)


class StateSurface(unittest.TestCase):
    def setUp(self):
        self.game = Game(players=4, seed=11)
        self.state = self.game.new_state()

    def test_initial_position(self):
        s = self.state
        self.assertEqual((s.round, s.phase, s.decision, s.is_final_round, s.consecutive_passes),
                         (1, Phase.WORKER, Decision.TURN, False, 0))
        self.assertIn(s.current_player, range(4))
        self.assertEqual(len(s.upper_row), 8)           # 2 workers per player (§3, R15)
        self.assertEqual(s.lower_row, ())
        self.assertEqual(sum(s.stack_sizes), stpete.NUM_CARDS - 8)
        self.assertTrue(all(c.info.colour == stpete.Colour.GREEN for c in s.upper_row))
        for seat in range(4):
            self.assertEqual((s.rubles(seat), s.vp(seat), s.hand(seat), s.display(seat)), (25, 0, (), ()))
            self.assertEqual(s.hand_limit(seat), 3)
            self.assertEqual(s.observatories_used(seat), 0)
        self.assertIsNone(s.observatory_card)
        self.assertEqual(s.discard_pile, {})
        for seat in s.seats:
            self.assertEqual((seat.rubles, seat.vp, seat.hand, seat.display, seat.hand_limit), (25, 0, (), (), 3))
            self.assertEqual(seat.score, s.score(seat.seat))
            self.assertTrue(1 <= len(seat.markers) <= 1)  # 1/1/1/1 with 4 players
            self.assertIn("25 R", repr(seat))
        with self.assertRaises(AttributeError):
            s.seats[0].rubles = 99
        self.assertEqual(sorted(s.marker_holders), [0, 1, 2, 3])  # 1/1/1/1 with 4 players (§3.3)
        self.assertEqual(s.current_player, s.marker_holders[Phase.WORKER])
        self.assertIn("upper row:", str(s))

    def test_legal_actions_agree(self):
        s = self.state
        actions = s.legal_actions()
        ids = s.legal_action_ids()
        mask = s.legal_action_mask()
        self.assertEqual([a.id for a in actions], ids)
        self.assertEqual(ids, sorted(ids))
        self.assertEqual([i for i, m in enumerate(mask) if m], ids)
        self.assertEqual(len(mask), stpete.NUM_DISTINCT_ACTIONS)
        for a in actions:
            self.assertTrue(s.is_legal(a) and s.is_legal(a.id) and s.is_legal(str(a)))
            self.assertIs(Action.parse(str(a).upper()), a)
            self.assertIs(Action(a.id), a)
            self.assertEqual(int(a), a.id)
            self.assertEqual(mask[a], 1)  # an Action indexes like its id
        self.assertFalse(s.is_legal("nonsense"))
        self.assertFalse(s.is_legal(-3))
        for r in (0, 1, 2 ** 64 - 1, 12345678901234567):  # the listed action at r % n (stpete_state_random_action)
            self.assertIs(s.random_action(r), actions[r % len(actions)])
        for bad in (-1, 2 ** 64, 1.5):
            with self.assertRaises((ValueError, TypeError, OverflowError)):
                s.random_action(bad)

    def test_action_structure(self):
        a = Action.parse("buy Wharf from upper displacing Ship Builder")
        self.assertEqual((a.kind, a.source, a.card, a.displaced), (ActionKind.BUY, Source.UPPER, Card.WHARF,
                                                                   Card.SHIP_BUILDER))
        self.assertIsNone(a.amount)
        p = Action("pub 3")
        self.assertEqual((p.kind, p.amount, p.card), (ActionKind.PUB, 3, None))
        self.assertEqual(repr(Action(0)), "Action(0, 'pass')")
        with self.assertRaises(AttributeError):
            a.id = 5
        self.assertEqual(len({Action(i) for i in range(stpete.NUM_DISTINCT_ACTIONS)}), 972)
        self.assertEqual(len({str(Action(i)) for i in range(stpete.NUM_DISTINCT_ACTIONS)}), 972)

    def test_apply_forms_are_equivalent(self):
        rng = random.Random(4)
        by_action, by_id, by_string = self.state, self.state.clone(), self.state.clone()
        while not by_action.is_terminal:
            a = rng.choice(by_action.legal_actions())
            by_action.apply(a)
            by_id.apply(a.id)
            by_string.apply(str(a))
            self.assertEqual(by_action, by_id)
            self.assertEqual(by_action, by_string)
        self.assertEqual(by_action.final_scores, by_string.final_scores)

    def test_clone_is_independent(self):
        s = self.state
        c = s.clone()
        self.assertIsNot(c, s)
        self.assertEqual(c, s)
        self.assertIs(c.game, s.game)
        c.apply(c.legal_action_ids()[-1])
        self.assertNotEqual(c, s)
        s.copy_from(c)
        self.assertEqual(c, s)
        c.close()
        self.assertEqual(s.round, 1)  # the original lives on

    def test_reset(self):
        fresh = self.state.clone()
        play_random(self.state, 3)
        self.assertTrue(self.state.is_terminal)
        self.state.reset(self.game.seed)
        self.assertEqual(self.state, fresh)

    def test_full_game_scores_and_winners(self):
        s = self.state
        moves = play_random(s, 8)
        self.assertTrue(s.is_terminal)
        self.assertGreater(len(moves), 50)
        self.assertIsNone(s.current_player)
        self.assertEqual(s.decision, Decision.NONE)
        final = s.final_scores
        self.assertEqual(len(final), 4)
        for seat, score in enumerate(s.scores):
            self.assertEqual(score.seat, seat)
            self.assertEqual(score.total, score.vp_before + score.aristocrat_bonus + score.rubles_bonus +
                             score.hand_penalty)
            self.assertEqual(score.total, final[seat])
            self.assertEqual(score.total, s.vp(seat))
            self.assertEqual(score.rubles, s.rubles(seat))
            self.assertEqual(score.hand_cards, len(s.hand(seat)))
            self.assertEqual(score.hand_penalty, -5 * score.hand_cards)  # §8, R13
        best = max(final)
        winners = s.winners
        self.assertTrue(winners)
        self.assertTrue(all(final[w] == best for w in winners))
        tied = [seat for seat in range(4) if final[seat] == best]
        best_tb = max(s.score(seat).tie_break for seat in tied)
        self.assertEqual(list(winners), [seat for seat in tied if s.score(seat).tie_break == best_tb])  # R14
        self.assertEqual(s.returns(), [1.0 if seat in winners else 0.0 for seat in range(4)])
        self.assertIn("winners:", str(s))

    def test_cards_conserved_during_a_game(self):
        s = self.state
        rng = random.Random(12)
        while not s.is_terminal:
            placed = (len(s.upper_row) + len(s.lower_row) + sum(s.stack_sizes) + sum(s.discard_pile.values()) +
                      sum(len(s.hand(p)) + len(s.display(p)) for p in range(4)) +
                      (1 if s.observatory_card is not None else 0))
            self.assertEqual(placed, stpete.NUM_CARDS)  # every card in exactly one place (§2)
            s.apply(rng.choice(s.legal_action_ids()))

    def test_price_query(self):
        s = self.state
        card = s.upper_row[0]
        self.assertEqual(s.price(0, card), card.info.cost)  # no discounts at the start (§5.1)
        self.assertEqual(s.price(0, card, Source.LOWER), max(1, card.info.cost - 1))
        self.assertEqual(s.price(0, Card.WHARF, Source.UPPER, Card.SHIP_BUILDER),
                         max(1, Card.WHARF.info.cost - Card.SHIP_BUILDER.info.cost))  # §5.2
        with self.assertRaises(stpete.InvalidArgumentError):
            s.price(0, Card.WHARF, Source.UPPER, Card.MARKET)  # not a target of Wharf (§6.2)

    def test_read_only_properties(self):
        with self.assertRaises(AttributeError):
            self.state.round = 3
        with self.assertRaises(AttributeError):
            self.state.current_player = 1


class Ownership(unittest.TestCase):
    def test_state_keeps_game_alive(self):
        state = Game(players=2, seed=3).new_state()
        gc.collect()
        play_random(state, 1)
        self.assertTrue(state.is_terminal)
        self.assertEqual(state.game.players, 2)

    def test_game_close_waits_for_states(self):
        game = Game(players=2)
        state = game.new_state()
        game.close()
        with self.assertRaises(stpete.ClosedError):
            game.new_state()           # closing: no new states
        self.assertIsNotNone(game._ptr)  # still allocated for the open state
        state.apply(state.legal_action_ids()[0])
        state.close()
        self.assertIsNone(game._ptr)     # freed with the last state

    def test_context_managers(self):
        with Game(players=3) as game:
            with game.new_state() as state:
                state.apply(0)
            self.assertIsNone(state._ptr)
        self.assertIsNone(game._ptr)

    def test_garbage_collection_frees_handles(self):
        refs = []
        for i in range(200):
            game = Game(players=2 + i % 3, seed=i)
            state = game.new_state()
            clone = state.clone()
            clone.set_event_callback(lambda st, ev: None)
            refs.append((weakref.ref(game), weakref.ref(state), weakref.ref(clone)))
            del game, state, clone
        gc.collect()
        self.assertTrue(all(r() is None for triple in refs for r in triple))

    def test_cycle_with_game_and_states_is_collected(self):
        game = Game(players=2)
        state = game.new_state()
        state.me = state       # a reference cycle through the state
        game.me = (game, state)
        ref = weakref.ref(game)
        del game, state
        gc.collect()
        self.assertIsNone(ref())


if __name__ == "__main__":
    unittest.main()


class ApplyRandom(unittest.TestCase):
    """State.apply_random (stpete_state_apply_random): the playout step applies what random_action picks (MODULO),
    the same games as the checked path, both chance modes; it refuses an unknown pick and the end of the game."""

    def test_same_games_as_random_action_then_apply(self):
        for mode in ("sampled", "explicit"):
            game = Game(players=3, seed=5, chance_mode=mode)
            a, b = game.new_state(), game.new_state()
            rng = random.Random(11)
            while not a.is_terminal:
                r = rng.getrandbits(64)
                expected = b.random_action(r)
                b.apply(expected)
                self.assertEqual(a.apply_random(r, stpete.Pick.MODULO), expected)
                self.assertEqual(a, b)
            self.assertEqual(a.local_history(), b.local_history())
            with self.assertRaises(stpete.GameOverError):
                a.apply_random(1)

    def test_bad_pick_refused_state_unchanged(self):
        state = Game(players=2, seed=1).new_state()
        before = state.clone()
        with self.assertRaises(stpete.InvalidArgumentError):
            state.apply_random(3, 7)
        with self.assertRaises(TypeError):
            state.apply_random(3, "scaled")
        with self.assertRaises((stpete.InvalidArgumentError, OverflowError, ValueError)):
            state.apply_random(-1)
        self.assertEqual(state, before)
