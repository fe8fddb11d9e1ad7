"""The New Society expansion and five players through the Python binding (issue 30, doc/rules.md §12): the option,
its refusals (R17), whole random games at 2-5 players in both chance modes with their JSON documents (format
version 4) and replay records, the new action strings and card types, the gold disc (R18), and the OpenSpiel
module with 5 players and the expansion's ids."""
import inspect
import json
import os
import random
import re
import unittest

import stpete
from stpete import ActionKind, Decision, NewSocietyCard

from support import SOURCE_ROOT


class Options(unittest.TestCase):
    def test_refused_combinations(self):  # R17
        with self.assertRaises(stpete.InvalidArgumentError):
            stpete.Game(players=5)
        with self.assertRaises(stpete.InvalidArgumentError) as cm:
            stpete.Game(players=4, new_society=True, edition=2)
        self.assertIn("first edition", str(cm.exception))
        with self.assertRaises(stpete.InvalidArgumentError):
            stpete.Game(used_prison_scores=True)
        with self.assertRaises(TypeError):
            stpete.Game(new_society=1)

    def test_options_and_cards(self):  # R16, §12.2
        game = stpete.Game(players=3, new_society=True, textile_without_new_society=True)
        self.assertTrue(game.options["new_society"])
        self.assertTrue(game.options["textile_without_new_society"])
        self.assertFalse(game.options["used_prison_scores"])
        self.assertEqual(game.card_info(NewSocietyCard.SYCOPHANT).rubles, -1)
        self.assertEqual(game.card_info(stpete.Card.ACADEMY).cost, 25)
        self.assertEqual(sum(game.card_info(c).copies for c in (*stpete.Card, *NewSocietyCard)), 144)
        self.assertNotIn("new_society", stpete.Game().options)  # a base game's options are those of 1.0


class Games(unittest.TestCase):
    def test_random_games_round_trip(self):
        for players in (2, 5):
            for mode in ("sampled", "explicit"):
                game = stpete.Game(players=players, seed=players, new_society=True, chance_mode=mode)
                state, rng, seen = game.new_state(), random.Random(players), set()
                if players == 5 and mode == "sampled":  # R18: the disc's holder (no marker) has 27 R
                    holder = stpete._core._C.stpete_state_gold_disc_holder(state.handle)
                    self.assertNotIn(holder, state.marker_holders)
                    self.assertEqual(state.rubles(holder), 27)
                step = 0
                while not state.is_terminal:
                    seen.add(state.decision)
                    if state.decision == Decision.PRISON:  # §12.7.5: the card picked, shown as the drawn card
                        self.assertEqual(json.loads(state.view_to_json())["observatory_card"],
                                         game.card_name(state.prison_card))
                    else:
                        self.assertIsNone(state.prison_card)
                    if step % 40 == 0:
                        text = state.to_json()
                        self.assertEqual(json.loads(text)["format_version"], 4)
                        self.assertEqual(stpete.State.from_json(text, game), state)
                    state.apply(rng.choice(state.legal_actions()))
                    step += 1
                record = state.replay_to_json()
                self.assertEqual(json.loads(record)["format_version"], 4)
                back, ids = stpete.replay_from_json(record)
                self.assertEqual(list(ids), [int(a) for a in state.history])
                self.assertIn(Decision.TURN, seen)

    def test_rows_of_the_five_player_opening(self):  # §12.4.1, R20: 10 cards on the board, more than 8
        state = stpete.Game(players=5, seed=1, new_society=True).new_state()
        rows = state.row(stpete.Source.UPPER), state.row(stpete.Source.LOWER)
        self.assertEqual(len(rows[0]) + len(rows[1]), 10)
        self.assertGreater(len(rows[0]), 8)
        self.assertEqual(rows[0], state.upper_row)
        saved = json.loads(state.to_json())
        game = state.game
        self.assertEqual([game.card_name(c) for c in rows[0]], saved["upper_row"])
        self.assertEqual([game.card_name(c) for c in rows[1]], saved["lower_row"])

    def test_displacements_of_new_targets(self):  # §12.6: a base blue trading card may displace a new building
        game = stpete.Game(players=3, seed=4, new_society=True)
        state, rng, checked = game.new_state(), random.Random(4), 0
        theater = stpete.Card.MARIINSKIJ_THEATER
        while not state.is_terminal and checked < 20:
            for seat in range(3):
                shown = {int(c) for c in state.display(seat)}
                targets = state.displacements(seat, theater)
                self.assertEqual([int(c) for c, _ in targets], sorted(int(c) for c, _ in targets))
                for card, price in targets:
                    self.assertIn(int(card), shown)
                    self.assertEqual(price, state.price(seat, theater, displaced=card))
                    if int(card) >= stpete.NUM_CARD_TYPES:
                        self.assertIsInstance(card, NewSocietyCard)
                        checked += 1
            state.apply(rng.choice(state.legal_actions()))
        self.assertGreater(checked, 0, "no new building was ever a target")

    def test_actions_of_the_expansion(self):  # the ids of stpete.h, §12.7.5-§12.7.7
        action = stpete.Action.parse("prison buy New Society displacing New Farmer")
        self.assertEqual(action.kind, ActionKind.PRISON_BUY)
        self.assertIs(action.card, NewSocietyCard.NEW_SOCIETY)
        self.assertIs(action.displaced, NewSocietyCard.NEW_FARMER)
        self.assertEqual(stpete.Action.from_id(int(action)), action)
        self.assertEqual(stpete.Action.parse("guild hall 3").amount, 3)
        outcome = stpete.ChanceOutcome.parse("chance markers5 1 2 3 4")
        self.assertEqual(outcome.markers, (1, 2, 3, 4))
        self.assertIs(stpete.ChanceOutcome.parse("chance Mayor").card, NewSocietyCard.MAYOR)


class OpenSpiel(unittest.TestCase):
    def test_five_players_with_chance_nodes(self):
        from stpete import openspiel
        game = openspiel.load_game("stpete", {"players": 5, "new_society": True})
        self.assertEqual(game.num_distinct_actions(), 2188)
        self.assertEqual(game.max_chance_outcomes(), 943)
        self.assertEqual(game.observation_tensor_size(), 972)
        state, rng, chance = game.new_initial_state(), random.Random(5), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                self.assertAlmostEqual(sum(p for _, p in outcomes), 1.0)
                self.assertTrue(all(0 <= k < 943 for k, _ in outcomes))
                action = rng.choice(outcomes)[0]
                chance += 1
            else:
                legal = state.legal_actions()
                self.assertTrue(all(0 <= a < 2188 for a in legal))
                action = rng.choice(legal)
            text = state.action_to_string(state.current_player(), action)
            self.assertEqual(state.string_to_action(state.current_player(), text), action)
            state.apply_action(action)
        self.assertGreaterEqual(chance, 11)  # at least the marker deal and the 10 opening workers (R18)
        self.assertAlmostEqual(sum(state.returns()), 1.0)


class SeatQueries(unittest.TestCase):
    """State.gold_disc_holder and State.prison_used (issue 45 item 14): the C queries (stpete_state_gold_disc_holder,
    stpete_state_is_prison_used) at every position of random games, positions loaded from JSON included."""

    def check(self, state):
        c = stpete._core._C
        holder = c.stpete_state_gold_disc_holder(state.handle)
        self.assertEqual(state.gold_disc_holder, holder if holder >= 0 else None)
        used = []
        for seat in range(state.players):
            out = stpete._core.c_int()
            c.stpete_state_is_prison_used(state.handle, seat, stpete._core.byref(out))
            self.assertIs(state.prison_used(seat), bool(out.value))
            self.assertIs(state.seats[seat].prison_used, bool(out.value))
            self.assertIs(state.seats[seat].gold_disc, holder == seat)
            used.append(bool(out.value))
        return used

    def test_against_the_library(self):
        used_seen = disc_moves = 0
        for players, seed in ((5, 1), (5, 2), (3, 3)):
            game = stpete.Game(players=players, seed=seed, new_society=True)
            state, rng, step, holders = game.new_state(), random.Random(seed), 0, set()
            while not state.is_terminal:
                used_seen += sum(self.check(state))
                holders.add(state.gold_disc_holder)
                if state.decision == Decision.PRISON:  # picked: used from the pick on (§12.7.5)
                    self.assertTrue(state.prison_used(state.current_player))
                if step % 25 == 0:  # a loaded position answers the same
                    loaded = stpete.State.from_json(state.to_json(), game)
                    self.assertEqual(self.check(loaded), self.check(state))
                    self.assertEqual(loaded.gold_disc_holder, state.gold_disc_holder)
                state.apply(rng.choice(state.legal_actions()))
                step += 1
            if players == 5:
                self.assertNotIn(None, holders)
                disc_moves += len(holders) - 1
            else:
                self.assertEqual(holders, {None})
        self.assertGreater(used_seen, 0, "no Debtor's Prison was ever used")
        self.assertGreater(disc_moves, 0, "the gold disc never moved (R19)")

    def test_without_the_expansion_and_bad_seats(self):
        state = stpete.Game(players=4, seed=1).new_state()
        self.assertIsNone(state.gold_disc_holder)
        self.assertEqual([state.prison_used(s) for s in range(4)], [False] * 4)
        for bad in (-1, 4):
            with self.assertRaises(stpete.InvalidArgumentError):
                state.prison_used(bad)
        explicit = stpete.Game(players=5, new_society=True, chance_mode="explicit").new_state()
        self.assertIsNone(explicit.gold_disc_holder)  # before the markers are dealt (a chance node)


class Docstrings(unittest.TestCase):
    """No docstring of the package states a base-game range alone (issue 45 item 14: ids in [0, 972), card types in
    [0, 49), players 2..4 where the New Society has more)."""

    def docstrings(self):
        """{where: docstring} of the modules (stpete.pettingzoo needs Gymnasium; stpete.env has its words), their
        classes and functions, and the classes' methods and properties."""
        import stpete.bots
        import stpete.env
        import stpete.openspiel
        seen = {}
        for module in (stpete, stpete._core, stpete.bots, stpete.env, stpete.openspiel):
            seen[module.__name__] = module.__doc__ or ""
            for name, value in vars(module).items():
                if getattr(value, "__module__", None) != module.__name__:
                    continue
                seen[f"{module.__name__}.{name}"] = inspect.getdoc(value) or ""
                for member, attr in (vars(value).items() if inspect.isclass(value) else ()):
                    if isinstance(attr, (classmethod, staticmethod)):
                        attr = attr.__func__
                    if isinstance(attr, property) or inspect.isfunction(attr):
                        seen[f"{module.__name__}.{name}.{member}"] = inspect.getdoc(attr) or ""
        return {k: re.sub(r"\s+", " ", v) for k, v in seen.items()}

    def test_base_ranges_name_the_expansion(self):
        docs = self.docstrings()
        self.assertGreater(len(docs), 300)  # every module, class, function, method and property was read
        stale = []
        for where, doc in docs.items():
            if "[0, 972)" in doc and "2188" not in doc:
                stale.append(f"{where}: ids [0, 972) without the New Society's")
            if re.search(r"\[0, 49\)", doc) and "62" not in doc and "num_card_types" not in doc:
                stale.append(f"{where}: card types [0, 49) without the New Society's 62")
            if re.search(r"\b2(\.\.|-|–| to )4\b|2, 3 or 4", doc) and not re.search(r"2(\.\.|-|–| to )5|New Society",
                                                                                  doc):
                stale.append(f"{where}: players 2..4 without the New Society's 5")
        self.assertEqual(stale, [])


def _section(name, title="Action strings"):
    """The nonterminals ({word: description}) and forms ([(form, kind)]) of doc/NAME's section TITLE."""
    with open(os.path.join(SOURCE_ROOT, "doc", name), encoding="utf-8") as f:
        text = f.read()
    m = re.search(rf"^## {title}\n(.*?)(?=^## )", text, re.S | re.M)
    if not m:
        return {}, []
    body = m.group(1)
    words = dict(re.findall(r"^- `([A-Z]+)`: (.*?)(?=^- |^\n|\Z)", body, re.S | re.M))
    forms = re.findall(r"^\| `([^`]+)` \| (`STPETE_ACTION_[A-Z_]+`|a chance outcome) \|", body, re.M)
    return words, forms


class ActionStrings(unittest.TestCase):
    """The grammar of the action strings in doc/api.md (the base game) and doc/expansion.md (the New Society, issue
    45 item 14) is the library's: every id's string (stpete_action_to_string) has exactly one documented form, of its
    kind, every form is written for some id, and each number of a form takes exactly the documented values."""

    def grammar(self, words, forms, names, seats):
        card = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        numbers = {}
        pattern_of = {"CARD": f"(?:{card})", "ROW": "(?:upper|lower)",
                      "STACK": "(?:" + "|".join(s.name.lower() for s in stpete.Stack) + ")"}
        for word, description in words.items():
            if word in pattern_of:
                continue
            m = re.search(r"(\d+) to (\d+)", description)
            values = range(int(m.group(1)), int(m.group(2)) + 1) if m else range(seats)
            numbers[word] = set(values)
            pattern_of[word] = r"(\d+)"
        compiled = []
        for form, kind in forms:
            used = re.findall(r"\b[A-Z]+\b", form)
            self.assertTrue(set(used) <= set(words), f"{form}: undocumented word {set(used) - set(words)}")
            regex = re.sub(r"\b[A-Z]+\b", lambda w: pattern_of[w.group(0)], re.escape(form).replace(r"\ ", " "))
            compiled.append((form, kind, re.compile(regex), [u for u in used if u in numbers]))
        return compiled, numbers

    def check(self, compiled, numbers, ids, name):
        matched, values, texts = {form: 0 for form, *_ in compiled}, {w: set() for w in numbers}, {}
        for i in ids:
            is_action = i < stpete._ffi.CHANCE_CARD_FIRST or \
                stpete._ffi.NS_ACTION_FIRST <= i < stpete._ffi.NUM_DISTINCT_ACTIONS_NEW_SOCIETY
            item = stpete.Action.from_id(i) if is_action else stpete.ChanceOutcome.from_id(i)
            kind = f"`STPETE_ACTION_{item.kind.name}`" if is_action else "a chance outcome"
            text = str(item)
            self.assertNotIn(text, texts, f"ids {texts.get(text)} and {i} have the same string")
            texts[text] = i
            hits = [(form, k, m, used) for form, k, regex, used in compiled for m in [regex.fullmatch(text)] if m]
            self.assertEqual(len(hits), 1, f"{i} {text!r}: {[h[0] for h in hits]} of {name}")
            form, k, m, used = hits[0]
            self.assertEqual(k, kind, f"{i} {text!r} is {kind}, documented as {k}")
            matched[form] += 1
            for word, value in zip(used, m.groups()):
                values.setdefault(word, set()).add(int(value))
        return matched, values

    def test_base_game(self):
        words, forms = _section("api.md")
        self.assertTrue(forms, "doc/api.md has no section 'Action strings' with forms")
        names = [str(c) for c in stpete.Card]
        compiled, numbers = self.grammar(words, forms, names, 4)
        ids = range(stpete._ffi.CHANCE_CARD_FIRST + stpete._ffi.NUM_CHANCE_OUTCOMES)
        matched, values = self.check(compiled, numbers, ids, "doc/api.md")
        self.assertEqual([f for f, n in matched.items() if not n], [], "forms no id is written with")
        for word, expected in numbers.items():
            self.assertEqual(values[word], expected, f"the values of {word}")

    def test_new_society(self):
        base_words, base_forms = _section("api.md")
        words, forms = _section("expansion.md")
        self.assertTrue(forms, "doc/expansion.md has no section 'Action strings' with forms")
        game = stpete.Game(players=5, new_society=True)
        names = [game.card_name(c) for c in range(game.num_card_types)]
        compiled, numbers = self.grammar(words, forms, names, 5)
        base_compiled, _ = self.grammar(base_words, base_forms, names, 5)
        ids = range(stpete._ffi.NS_ACTION_FIRST, stpete._ffi.NS_ID_END)
        matched, values = self.check(compiled + base_compiled, numbers, ids, "doc/expansion.md and doc/api.md")
        expansion_forms = [f for f, *_ in compiled]
        self.assertEqual([f for f in expansion_forms if not matched[f]], [], "forms no id is written with")
        for word, expected in numbers.items():
            self.assertEqual(values[word], expected, f"the values of {word}")


if __name__ == "__main__":
    unittest.main()
