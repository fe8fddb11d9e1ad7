"""Search and learning in the core binding (issue 12): the explicit chance mode (chance nodes, outcomes and their
probabilities, applying them), returns, the observation tensor and string, the information state, the history and
undo, determinization, the price of an action, event lines, and the second edition's names (issue 16)."""
import array
import json
import pickle
import random
import unittest

import stpete
from stpete import Action, Card, ChanceMode, ChanceOutcome, Game, State

SEAT_BLOCK, SEAT_SIZE = 232, 109  # doc/observation.md: the per-seat blocks


def play(state, rng, steps=None):
    """Random legal moves (chance outcomes drawn uniformly among the possible ones) until the end or ``steps``."""
    n = 0
    while not state.is_terminal and (steps is None or n < steps):
        state.apply(rng.choice(state.legal_action_ids()))
        n += 1
    return state


def unseen_copies(state):
    """Copies of each card type that are in no visible place (rows, displays, hands, discard pile, the Observatory
    card): in an explicit-chance game, the cards still in the stacks."""
    left = {card: state.game.card_info(card).copies for card in Card}
    places = [state.upper_row, state.lower_row] + [state.display(s) for s in range(state.players)] + \
        [state.hand(s) for s in range(state.players)]
    for place in places:
        for card in place:
            left[card] -= 1
    for card, n in state.discard_pile.items():
        left[card] -= n
    if state.observatory_card is not None:
        left[state.observatory_card] -= 1
    return left


class Options(unittest.TestCase):
    def test_chance_mode_and_edition_keywords(self):
        for words, mode in (("sampled", ChanceMode.SAMPLED), ("explicit", ChanceMode.EXPLICIT),
                            (ChanceMode.EXPLICIT, ChanceMode.EXPLICIT), ("EXPLICIT", ChanceMode.EXPLICIT)):
            game = Game(players=2, chance_mode=words, edition=2)
            self.assertIs(game.chance_mode, mode)
            self.assertEqual(game.edition, 2)
            again = Game(**game.options)
            self.assertEqual(again.options, game.options)
            self.assertEqual(pickle.loads(pickle.dumps(game)).options, game.options)
            self.assertEqual(json.loads(game.new_state().to_json())["options"]["chance_mode"], mode.name.lower())
        self.assertIs(Game().chance_mode, ChanceMode.SAMPLED)
        self.assertEqual(Game().edition, 1)
        with self.assertRaisesRegex(stpete.InvalidArgumentError, '"sampled" or "explicit"'):
            Game(chance_mode="random")
        with self.assertRaisesRegex(stpete.InvalidArgumentError, "edition must be 1 .* or 2"):
            Game(edition=3)
        with self.assertRaises(TypeError):
            Game(edition="2")
        with self.assertRaisesRegex(stpete.InvalidArgumentError, "chance_mode must be"):
            Game(chance_mode=2)

    def test_game_sizes(self):
        for players in (2, 3, 4):
            game = Game(players=players)
            self.assertEqual(game.observation_tensor_size, 668)
            explicit = Game(players=players, chance_mode="explicit")
            # doc/format.md "The longest game": N(232 + 9R), R = 2 floor((116 - 2N - 4) / 8) + 4; +117 chance
            rounds = 2 * ((116 - 2 * players - 4) // 8) + 4
            self.assertEqual(game.max_game_length, players * (232 + 9 * rounds))
            self.assertEqual(explicit.max_game_length, game.max_game_length + 117)


class ChanceNodes(unittest.TestCase):
    def test_outcome_objects(self):
        self.assertEqual(stpete.NUM_CHANCE_OUTCOMES, 305)
        for k in range(stpete.NUM_CHANCE_OUTCOMES):
            outcome = ChanceOutcome.from_outcome(k)
            self.assertEqual((outcome.outcome, int(outcome)), (k, stpete.CHANCE_CARD_FIRST + k))
            self.assertIs(ChanceOutcome.parse(str(outcome).upper()), outcome)
            self.assertIs(ChanceOutcome(outcome.id), outcome)
            self.assertIs(pickle.loads(pickle.dumps(outcome)), outcome)
            if k < stpete.NUM_CARD_TYPES:
                self.assertEqual((outcome.card, outcome.markers), (Card(k), None))
                self.assertEqual(str(outcome), f"chance {Card(k)}")
            else:
                m = outcome.markers
                self.assertIsNone(outcome.card)
                self.assertEqual(k - 49, m[0] + 4 * m[1] + 16 * m[2] + 64 * m[3])
                self.assertEqual(str(outcome), "chance markers %d %d %d %d" % m)
        for bad in (971, 1277, -1):
            with self.assertRaises(stpete.InvalidArgumentError):
                ChanceOutcome.from_id(bad)
        with self.assertRaises(stpete.InvalidArgumentError):
            ChanceOutcome.from_outcome(305)
        with self.assertRaises(TypeError):
            ChanceOutcome.from_id(972.0)
        with self.assertRaises(stpete.ParseError):
            Action.parse("chance Market")
        with self.assertRaises(stpete.ParseError):
            ChanceOutcome.parse("pass")
        with self.assertRaises(stpete.InvalidArgumentError):
            Action.from_id(972)  # an action id is below 972

    def test_probabilities_are_copies_left_over_cards_left(self):
        """At every chance node of random explicit-chance games: the outcomes are what legal_actions() lists, their
        probabilities add up to 1; a card outcome's probability is the copies of its type left in its stack over
        the cards left there (§4.5, §7.1), counted here from everything visible; the marker deal (§3.3) is uniform
        over 24, 36 or 6 deals."""
        nodes = {"card": 0, "markers": 0}
        for players, deals in ((2, 6), (3, 36), (4, 24)):
            state = Game(players=players, chance_mode="explicit", seed=players).new_state()
            self.assertTrue(state.is_chance_node)
            rng = random.Random(players)
            while not state.is_terminal:
                if not state.is_chance_node:
                    self.assertEqual(state.chance_outcomes(), [])
                    self.assertIsNotNone(state.current_player)
                    state.apply(rng.choice(state.legal_action_ids()))
                    continue
                self.assertIsNone(state.current_player)
                self.assertIs(state.decision, stpete.Decision.CHANCE)
                outcomes = state.chance_outcomes()
                self.assertEqual([o for o, _ in outcomes], state.legal_actions())
                self.assertAlmostEqual(sum(p for _, p in outcomes), 1.0, places=12)
                if outcomes[0][0].markers is not None:
                    nodes["markers"] += 1
                    self.assertEqual(len(outcomes), deals)
                    self.assertTrue(all(abs(p - 1 / deals) < 1e-12 for _, p in outcomes))
                    for outcome, _ in outcomes:  # every seat 1 or 2 markers (§3.3, R15)
                        self.assertTrue(all(outcome.markers.count(s) in (1, 2) for s in range(players)))
                else:
                    nodes["card"] += 1
                    left = unseen_copies(state)
                    stack = outcomes[0][0].card.info.stack
                    in_stack = state.stack_sizes[stack]
                    expected = {card: n / in_stack for card, n in left.items() if n and card.info.stack == stack}
                    self.assertEqual({o.card: p for o, p in outcomes}, pytest_approx(expected))
                # apply by object, id or string, drawn by the probabilities
                outcome = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
                state.apply(rng.choice([outcome, outcome.id, str(outcome)]))
        self.assertGreater(nodes["card"], 100)
        self.assertEqual(nodes["markers"], 3)

    def test_bad_moves_at_and_away_from_chance_nodes(self):
        state = Game(players=3, chance_mode="explicit").new_state()
        before = state.to_json()
        with self.assertRaisesRegex(stpete.IllegalActionError, "illegal"):
            state.apply(0)  # a player's action at a chance node
        self.assertEqual(state.to_json(), before)
        sampled = Game(players=3).new_state()
        for outcome in ("chance Market", ChanceOutcome.from_outcome(6), 978):
            with self.assertRaisesRegex(stpete.IllegalActionError, "sampled mode"):
                sampled.apply(outcome)
        self.assertEqual(sampled, Game(players=3).new_state())
        self.assertEqual(sampled.chance_outcomes(), [])
        self.assertFalse(sampled.is_chance_node)
        while state.is_chance_node:
            state.apply(state.legal_action_ids()[0])
        before = state.to_json()
        with self.assertRaisesRegex(stpete.IllegalActionError, "player's decision"):
            state.apply(ChanceOutcome.from_outcome(0))
        self.assertEqual(state.to_json(), before)

    def test_explicit_game_records_and_replays(self):
        state = play(Game(players=2, chance_mode="explicit").new_state(), random.Random(4))
        history = state.history
        self.assertTrue(any(i >= stpete.CHANCE_CARD_FIRST for i in history))
        self.assertEqual(list(history), state.local_history())
        again = State.from_replay(state.replay_to_json())
        self.assertEqual(again, state)
        twin = pickle.loads(pickle.dumps(state))
        self.assertEqual((twin, twin.history, twin.game.chance_mode), (state, history, ChanceMode.EXPLICIT))


class Returns(unittest.TestCase):
    def test_returns_are_shares_of_the_win(self):
        shared = None
        for seed in range(400):
            state = play(Game(players=2, seed=seed).new_state(), random.Random(seed))
            won = state.winners
            self.assertEqual(state.returns(), [1 / len(won) if s in won else 0.0 for s in range(2)])
            self.assertEqual(sum(state.returns()), 1.0)
            if len(won) > 1:
                shared = state
                break
        self.assertIsNotNone(shared, "no shared win in 400 random games")
        self.assertEqual(shared.returns(), [0.5, 0.5])  # §8, R14: a shared win shares the 1
        mid = play(Game(players=4, seed=1).new_state(), random.Random(1), steps=30)
        self.assertEqual(mid.returns(), [0.0] * 4)


class Observation(unittest.TestCase):
    def test_layout_items(self):
        """A few elements of doc/observation.md's layout, computed here from the state's own queries."""
        state = play(Game(players=3, seed=2).new_state(), random.Random(2), steps=34)
        self.assertTrue(all(state.rubles(s) > 0 for s in range(3)))  # so that a leaked amount would show
        for seat in range(3):
            t = state.observation_tensor(seat)
            self.assertIsInstance(t, array.array)
            self.assertEqual((t.typecode, len(t)), ("f", 668))
            self.assertEqual(t[0], state.round)
            self.assertEqual(list(t[1:5]), [1.0 if p == state.phase else 0.0 for p in stpete.Phase])
            self.assertEqual(list(t[16:20]), list(state.stack_sizes))
            self.assertEqual(list(t[20:69]), [state.upper_row.count(c) for c in Card])
            self.assertEqual(list(t[69:118]), [state.lower_row.count(c) for c in Card])
            to_act = (state.current_player - seat) % 3
            self.assertEqual(list(t[12:16]), [1.0 if k == to_act else 0.0 for k in range(4)])
            for k in range(4):
                block = t[SEAT_BLOCK + SEAT_SIZE * k:SEAT_BLOCK + SEAT_SIZE * (k + 1)]
                if k == 3:
                    self.assertEqual(set(block), {0.0})  # no fourth seat
                    continue
                other = (seat + k) % 3
                self.assertEqual(block[0], 1.0)
                self.assertEqual(block[1], state.vp(other))
                self.assertEqual(block[2:4], array.array("f", [state.rubles(seat), 1]) if k == 0 else
                                 array.array("f", [0, 0]))  # others' rubles are secret (§9)
                self.assertEqual(block[4], len(state.hand(other)))
                self.assertEqual(list(block[60:109]), [state.display(other).count(c) for c in Card])

    def test_what_is_secret_changes_nothing(self):
        state = play(Game(players=4, seed=6).new_state(), random.Random(6), steps=90)
        for seat in range(4):
            tensor, text = state.observation_tensor(seat), state.observation_string(seat)
            key, info = state.information_state_key(seat), state.information_state_string(seat)
            for seed in range(3):
                for rubles in (False, True):
                    d = state.clone()
                    d.determinize(seat, seed, rubles=rubles)
                    self.assertEqual(d.observation_tensor(seat), tensor)
                    self.assertEqual(d.observation_string(seat), text)
                    # perfect recall counts every purse in play: rubles=True leaves the information set
                    self.assertEqual(d.information_state_key(seat) == key, not rubles)
                    self.assertEqual(d.information_state_string(seat) == info, not rubles)
            self.assertNotEqual(state.resampled(seat, 1).to_json(), state.to_json())  # something was redrawn
        public = play(Game(players=2, seed=6, public_rubles=True).new_state(), random.Random(6), steps=20)
        t = public.observation_tensor(0)
        self.assertEqual(list(t[SEAT_BLOCK + SEAT_SIZE + 2:SEAT_BLOCK + SEAT_SIZE + 4]), [public.rubles(1), 1])

    def test_strings_and_keys(self):
        state = play(Game(players=2, seed=9).new_state(), random.Random(9), steps=25)
        text = state.observation_string(1)
        self.assertIn("observer: seat 1", text)
        key = state.information_state_key(0)
        self.assertTrue(0 <= key < 2 ** 64)
        self.assertIn(f"{key:016x}", state.information_state_string(0))
        self.assertNotEqual(key, state.information_state_key(1))
        loaded = State.from_json(state.to_json())
        self.assertEqual(loaded.information_state_key(0), key)  # survives JSON (doc/observation.md)
        state.apply(state.legal_action_ids()[0])
        self.assertNotEqual(state.information_state_key(0), key)

    def test_sampled_and_explicit_games_share_keys(self):
        """doc/observation.md: a sampled game and the explicit-chance game given the same outcomes (the cards its
        events show dealt and drawn, its marker deal) have the same information-state keys."""
        sampled = Game(players=3, seed=12).new_state()
        sampled.enable_event_queue()
        sampled.reset(12)  # the setup's events into the queue
        explicit = Game(players=3, chance_mode="explicit").new_state()
        rng = random.Random(12)
        cards, compared = [], 0
        while not sampled.is_terminal:
            cards += [ev.card for ev in sampled.events()
                      if ev.kind in (stpete.EventKind.DEAL, stpete.EventKind.OBSERVATORY_DRAW)]
            while explicit.is_chance_node:
                if explicit.chance_outcomes()[0][0].markers is not None:
                    m = sampled.marker_holders
                    explicit.apply(stpete.CHANCE_MARKERS_FIRST + m[0] + 4 * m[1] + 16 * m[2] + 64 * m[3])
                else:
                    explicit.apply(ChanceOutcome.from_outcome(cards.pop(0)))
            self.assertEqual(cards, [])
            keys = [sampled.information_state_key(s) for s in range(3)]
            self.assertEqual([explicit.information_state_key(s) for s in range(3)], keys)
            self.assertEqual(len(set(keys)), 3)
            compared += 1
            action = rng.choice(sampled.legal_action_ids())
            sampled.apply(action)
            explicit.apply(action)
        self.assertEqual(explicit.returns(), sampled.returns())
        self.assertGreater(compared, 100)

    def test_bad_seats(self):
        state = Game(players=2).new_state()
        for method in (state.observation_tensor, state.observation_string, state.information_state_string,
                       state.information_state_key):
            with self.subTest(method=method.__name__):
                with self.assertRaises(stpete.InvalidArgumentError):
                    method(2)
                with self.assertRaises(stpete.InvalidArgumentError):
                    method(-1)
                with self.assertRaises(TypeError):
                    method(True)
                with self.assertRaises(stpete.InvalidArgumentError):
                    method(2 ** 40)
        with self.assertRaises(TypeError):
            state.determinize(0, 1, rubles=1)
        with self.assertRaises(stpete.InvalidArgumentError):
            state.determinize(0, -1)


class HistoryAndUndo(unittest.TestCase):
    def test_undo_restores_each_position(self):
        for mode in ("sampled", "explicit"):
            state = Game(players=3, seed=4, chance_mode=mode).new_state()
            undone = []
            state.set_event_callback(lambda st, ev: ev.kind == stpete.EventKind.UNDO and undone.append(ev))
            rng = random.Random(4)
            positions = [state.to_json()]
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_action_ids()))
                positions.append(state.to_json())
            history = state.history
            self.assertEqual(len(history), len(positions) - 1)
            self.assertEqual(state.local_history(), list(history))
            for i in range(len(history) - 1, -1, -1):
                self.assertIs(state.undo(), stpete._core._move(history[i]))
                self.assertEqual(state.to_json(), positions[i])  # the position before, its PRNG included
                if i % 29 == 0:
                    self.assertEqual(state.history, history[:i])
            self.assertEqual([ev.amount for ev in undone], list(reversed(history)))
            self.assertIn(str(stpete._core._move(history[-1])), str(undone[0]))  # e.g. "undo: pass is taken back"
            with self.assertRaisesRegex(stpete.InvalidArgumentError, "invalid argument"):
                state.undo()  # the start of the history
            self.assertEqual(state.to_json(), positions[0])

    def test_histories_after_copies_and_determinization(self):
        state = play(Game(players=2, seed=3).new_state(), random.Random(3), steps=40)
        other = Game(players=2, seed=3).new_state()
        other.copy_from(state)
        self.assertEqual(other.history, state.history)  # since the seed: kept for replay records
        self.assertEqual(other.local_history(), [])     # the library's: begins at the copy
        with self.assertRaises(stpete.InvalidArgumentError):
            other.undo()
        other.apply(other.legal_action_ids()[0])
        self.assertEqual(other.history[:-1], state.history)
        self.assertEqual(State.from_replay(other.replay_to_json()), other)
        other.undo()
        self.assertEqual(other, state)
        clone = state.clone()
        self.assertEqual(clone.local_history(), state.local_history())
        clone.undo()
        self.assertNotEqual(clone, state)
        state.determinize(0, 5)
        self.assertIsNone(state.history)
        self.assertEqual(state.local_history(), [])
        with self.assertRaises(stpete.InvalidArgumentError):
            state.replay_to_json()


class DeterminizeRubles(unittest.TestCase):
    def test_rubles_flag(self):
        state = play(Game(players=3, seed=8).new_state(), random.Random(8), steps=60)
        rubles = [state.rubles(s) for s in range(3)]
        self.assertGreater(len(set(rubles)), 1)
        d = state.clone()
        d.determinize(1, 2)
        self.assertEqual([d.rubles(s) for s in range(3)], rubles)  # kept: perfect recall knows them
        d.determinize(1, 2, rubles=True)
        self.assertEqual([d.rubles(s) for s in range(3)], [rubles[1]] * 3)
        public = play(Game(players=3, seed=8, public_rubles=True).new_state(), random.Random(8), steps=60)
        rubles = [public.rubles(s) for s in range(3)]
        public.determinize(1, 2, rubles=True)
        self.assertEqual([public.rubles(s) for s in range(3)], rubles)  # public: nothing to redraw


class WhatASeatKnows(unittest.TestCase):
    """Issue 21: the binding reads the library's one definition of what a seat knows (no copy in Python)."""

    def loaded(self, state, recalled, rubles_of_1):
        doc = json.loads(state.to_json())
        doc["rubles_recalled"] = recalled
        doc["players"][1]["rubles"] = rubles_of_1
        return State.from_json(json.dumps(doc), state.game)

    def test_visible_rubles(self):
        for public in (False, True):
            state = play(Game(players=3, seed=4, public_rubles=public).new_state(), random.Random(4), steps=40)
            for s in (state, self.loaded(state, False, 55)):
                for viewer in (None, 0, 1, 2):
                    for seat in range(3):
                        shown = public or viewer == seat
                        self.assertEqual(s.rubles_visible(viewer, seat), shown)
                        if shown:
                            self.assertEqual(s.visible_rubles(viewer, seat), s.rubles(seat))
                        else:
                            with self.assertRaises(stpete.RedactedError):
                                s.visible_rubles(viewer, seat)
            with self.assertRaises(stpete.InvalidArgumentError):
                state.rubles_visible(3, 0)
            with self.assertRaises(stpete.InvalidArgumentError):
                state.visible_rubles(0, -1)

    def test_openspiel_resample_ignores_unknown_rubles(self):
        """Two loaded positions that differ only in seat 1's secret rubles (not recalled): seat 0 gets the same
        key and the same worlds from stpete.openspiel's resample_from_infostate (doc/python.md's flat Monte Carlo
        search); with rubles_recalled the seat knows them and the keys differ."""
        from stpete import openspiel
        state = play(Game(players=2, seed=3).new_state(), random.Random(3), steps=30)
        game = openspiel.load_game("stpete", {"players": 2, "chance_mode": "sampled"})
        for recalled in (False, True):
            a, b = (self.loaded(state, recalled, r) for r in (1, 60))
            self.assertEqual(a.information_state_key(0) == b.information_state_key(0), not recalled)
            if recalled:
                continue
            self.assertEqual(a.view_to_json(0), b.view_to_json(0))
            worlds = []
            for s in (a, b):
                ospiel = game.deserialize_state(f"# stpete-state\n{s.to_json()}\n")
                sampler = random.Random(99).random
                worlds.append([ospiel.resample_from_infostate(0, sampler).serialize() for _ in range(3)])
            self.assertEqual(worlds[0], worlds[1])


class Prices(unittest.TestCase):
    def test_action_price_for_every_legal_action(self):
        seen = set()
        for seed in range(6):
            state = Game(players=4, seed=seed).new_state()
            rng = random.Random(seed)
            while not state.is_terminal:
                seat = state.current_player
                for action in state.legal_actions():
                    price = state.action_price(action)
                    kind = action.kind
                    seen.add(kind)
                    if kind in (stpete.ActionKind.BUY, stpete.ActionKind.PLAY):
                        self.assertEqual(price, state.price(seat, action.card, action.source, action.displaced))
                    elif kind == stpete.ActionKind.PUB:
                        self.assertEqual(price, 2 * action.amount)
                    elif kind == stpete.ActionKind.OBSERVATORY_BUY:
                        self.assertIsInstance(price, int)
                    else:
                        self.assertIsNone(price)
                state.apply(rng.choice(state.legal_action_ids()))
            with self.assertRaises(stpete.GameOverError):
                state.action_price(0)
        self.assertTrue({stpete.ActionKind.BUY, stpete.ActionKind.PLAY, stpete.ActionKind.PASS,
                         stpete.ActionKind.TAKE} <= seen)
        state = Game(players=2).new_state()
        illegal = next(a for a in range(stpete.NUM_DISTINCT_ACTIONS) if not state.is_legal(a))
        with self.assertRaises(stpete.IllegalActionError):
            state.action_price(illegal)
        with self.assertRaises(stpete.InvalidArgumentError):
            state.action_price(5000)
        with self.assertRaises(TypeError):
            state.action_price(1.5)


class EventLines(unittest.TestCase):
    def test_callback_and_queue_lines(self):
        state = Game(players=2, seed=1).new_state()
        lines = []
        state.set_event_callback(lambda st, ev: lines.append((ev.kind, str(ev), st.rubles(ev.seat)
                                                              if ev.seat is not None else None)))
        state.enable_event_queue()
        rng = random.Random(1)
        while not any(kind == stpete.EventKind.BUY for kind, _, _ in lines):
            state.apply(rng.choice(state.legal_action_ids()))
        kind, text, rubles = next(line for line in lines if line[0] == stpete.EventKind.BUY)
        self.assertRegex(text, rf"^seat \d buys .* for \d+ R \({rubles} R left\)$")  # the state's details
        queued = [ev for ev in state.events() if ev.kind == stpete.EventKind.BUY][0]
        self.assertRegex(str(queued), r"^seat \d buys .* for \d+ R$")  # the event's own fields only
        self.assertEqual(text.rsplit(" (", 1)[0], str(queued))


class SecondEdition(unittest.TestCase):
    def test_names_and_costs(self):
        game = Game(players=2, edition=2)
        self.assertEqual(game.card_name(Card.POPE), "Abbot")
        self.assertEqual(game.card_name(Card.CZAR), "Czarina")
        self.assertEqual(str(Card.POPE), "Pope")  # game-free: the first edition
        self.assertEqual(Game().card_name(Card.POPE), "Pope")
        costs = {card: game.card_info(card).cost for card in (Card.OBSERVATORY, Card.JUDGE,
                                                               Card.MISTRESS_OF_CEREMONIES, Card.MARIINSKIJ_THEATER)}
        self.assertEqual(costs, {Card.OBSERVATORY: 7, Card.JUDGE: 17, Card.MISTRESS_OF_CEREMONIES: 20,
                                 Card.MARIINSKIJ_THEATER: 15})
        self.assertEqual(Card.JUDGE.info.cost, 16)
        self.assertEqual(game.card_info(Card.MARIINSKIJ_THEATER).name, "Mariinsky Theater")
        pope = next(a for a in stpete._core._ACTIONS if a.card == Card.POPE and a.kind == stpete.ActionKind.BUY)
        self.assertIn("Abbot", game.action_string(pope))
        self.assertIn("Pope", str(pope))
        self.assertEqual(game.action_string("chance Czar"), "chance Czarina")
        self.assertIs(Action.parse(game.action_string(pope)), pope)  # both editions' names are read
        with self.assertRaises(stpete.InvalidArgumentError):
            game.card_name(49)
        with self.assertRaises(stpete.InvalidArgumentError):
            game.action_string(5000)
        state = play(game.new_state(), random.Random(2))
        text = str(state)
        names = {game.card_name(c) for s in range(2) for c in state.display(s)}
        self.assertTrue(all(name in text for name in names))
        if any(c in (Card.POPE, Card.CZAR) for s in range(2) for c in state.display(s)):
            self.assertNotRegex(text, r"\bPope\b|\bCzar\b(?! and)")


def pytest_approx(expected):
    """A dict whose values compare equal within 1e-12 (unittest has no dict-of-floats comparison)."""
    class Approx(dict):
        def __eq__(self, other):
            return set(other) == set(self) and all(abs(other[k] - v) < 1e-12 for k, v in self.items())
    return Approx(expected)


if __name__ == "__main__":
    unittest.main()
