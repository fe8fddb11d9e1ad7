"""stpete.openspiel (issue 12 item 6): the pyspiel-shaped Game and State. The searches below are written only
against OpenSpiel's Python API (method names and semantics of pyspiel), as code written for OpenSpiel would be:
a depth-limited expectimax with chance nodes in three independent ways (child(), apply/undo, and a brute force
that rebuilds every node from its history with deserialize_state), and a flat Monte Carlo player with chance
sampling and determinization (resample_from_infostate) that plays whole games."""
import json
import math
import random
import unittest

import stpete
from stpete import openspiel as pyspiel


# ---- searches written against pyspiel's API only ------------------------------------------------------------

def heuristic(state):
    """Returns at the end; else each player's share of (VP - lowest VP + 1), VP read from its own observation
    tensor (element 233: relative seat 0's VP)."""
    if state.is_terminal():
        return state.returns()
    vp = [state.observation_tensor(p)[233] for p in range(state.num_players())]
    low = min(vp)
    weights = [v - low + 1.0 for v in vp]
    return [w / sum(weights) for w in weights]


def expectimax_child(state, depth):
    """max^n with chance: each player maximizes its own value (first best action kept), chance nodes average by
    probability."""
    if depth == 0 or state.is_terminal():
        return heuristic(state)
    if state.is_chance_node():
        value = [0.0] * state.num_players()
        for outcome, p in state.chance_outcomes():
            child = expectimax_child(state.child(outcome), depth - 1)
            value = [v + p * c for v, c in zip(value, child)]
        return value
    player, best = state.current_player(), None
    for action in state.legal_actions():
        child = expectimax_child(state.child(action), depth - 1)
        if best is None or child[player] > best[player]:
            best = child
    return best


def expectimax_undo(state, depth):
    """The same on one state, with apply_action and undo_action."""
    if depth == 0 or state.is_terminal():
        return heuristic(state)
    player = state.current_player()
    if player == pyspiel.PlayerId.CHANCE:
        value = [0.0] * state.num_players()
        for outcome, p in state.chance_outcomes():
            state.apply_action(outcome)
            child = expectimax_undo(state, depth - 1)
            state.undo_action(player, outcome)
            value = [v + p * c for v, c in zip(value, child)]
        return value
    best = None
    for action in state.legal_actions():
        state.apply_action(action)
        child = expectimax_undo(state, depth - 1)
        state.undo_action(player, action)
        if best is None or child[player] > best[player]:
            best = child
    return best


def expectimax_brute_force(game, root, depth):
    """The same, every node rebuilt from its history by deserialize_state (no clone, child or undo): enumerate
    the histories of up to ``depth`` more moves breadth first, then back the values up."""
    base = root.serialize()
    layers = [[((), game.deserialize_state(base))]]
    for _ in range(depth):
        layer = []
        for path, state in layers[-1]:
            if state.is_terminal():
                continue
            for action in state.legal_actions():
                text = base + "".join(f"{a}\n" for a in path + (action,))
                layer.append((path + (action,), game.deserialize_state(text)))
        layers.append(layer)
    nodes = {path: state for layer in layers for path, state in layer}
    value = {}
    for path in sorted(nodes, key=len, reverse=True):
        state = nodes[path]
        if len(path) == depth or state.is_terminal():
            value[path] = heuristic(state)
        elif state.is_chance_node():
            value[path] = [0.0] * state.num_players()
            for outcome, p in state.chance_outcomes():
                value[path] = [v + p * c for v, c in zip(value[path], value[path + (outcome,)])]
        else:
            player, best = state.current_player(), None
            for action in state.legal_actions():
                child = value[path + (action,)]
                if best is None or child[player] > best[player]:
                    best = child
            value[path] = best
    return value[()], len(nodes)


def flat_monte_carlo(state, player, simulations, rng):
    """UCB1 over the root actions; each simulation determinizes for ``player`` (resample_from_infostate), applies
    the action, and plays out with random moves and chance outcomes drawn by their probabilities."""
    actions = state.legal_actions()
    visits, totals = [0] * len(actions), [0.0] * len(actions)
    for n in range(simulations):
        def ucb(i):
            if visits[i] == 0:
                return math.inf
            return totals[i] / visits[i] + 1.4 * math.sqrt(math.log(n) / visits[i])
        i = max(range(len(actions)), key=ucb)
        world = state.resample_from_infostate(player, rng.random)
        world.apply_action(actions[i])
        while not world.is_terminal():
            if world.is_chance_node():
                outcomes, probabilities = zip(*world.chance_outcomes())
                world.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                world.apply_action(rng.choice(world.legal_actions()))
        visits[i] += 1
        totals[i] += world.returns()[player]
    return actions[max(range(len(actions)), key=lambda i: visits[i])]


def random_walk(game, rng, steps=None):
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal() and (steps is None or n < steps):
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return state


# ---- tests ---------------------------------------------------------------------------------------------------

class Searches(unittest.TestCase):
    def test_expectimax_three_ways(self):
        """At positions along random explicit-chance games (chance nodes inside the horizon at most of them), the
        three expectimax implementations agree, and the values are distributions of the win (sum 1)."""
        with_chance = brute_forced = 0
        for players, seed in ((2, 3), (3, 1)):
            game = pyspiel.load_game("stpete", {"players": players})
            rng = random.Random(seed)
            state = game.new_initial_state()
            step = 0
            end = len(random_walk(game, random.Random(seed)).history())  # the same game, to know its end
            while not state.is_terminal():
                if step % 23 == 0 or step == end - 3:  # and 3 moves before the end: terminal states inside
                    a = expectimax_child(state, 3)
                    probe = state.clone()
                    b = expectimax_undo(probe, 3)
                    self.assertEqual(probe.history(), state.history())  # undone to the last move
                    for x, y in zip(a, b):
                        self.assertAlmostEqual(x, y, places=12)
                    self.assertAlmostEqual(sum(a), 1.0, places=9)
                    if step % 46 == 0 or step == end - 3:  # the brute force replays every node: half as often
                        c, nodes = expectimax_brute_force(game, state, 3)
                        for x, z in zip(a, c):
                            self.assertAlmostEqual(x, z, places=12)
                        brute_forced += 1
                    with_chance += any(s.is_chance_node() for s in [state] + [state.child(x) for x in
                                                                          state.legal_actions()])
                if state.is_chance_node():
                    outcomes, probabilities = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(outcomes, probabilities)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                step += 1
        self.assertGreater(with_chance, 10)  # a chance node at the root or right below it
        self.assertGreater(brute_forced, 6)

    def test_flat_monte_carlo_plays_whole_games(self):
        for players, chance_mode in ((2, "explicit"), (3, "sampled")):
            game = pyspiel.load_game("stpete", {"players": players, "chance_mode": chance_mode, "seed": 5})
            rng = random.Random(players)
            state = game.new_initial_state()
            decisions = chance = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    chance += 1
                    outcomes, probabilities = zip(*state.chance_outcomes())
                    self.assertTrue(all(0 <= o < game.max_chance_outcomes() for o in outcomes))
                    state.apply_action(rng.choices(outcomes, probabilities)[0])
                    continue
                decisions += 1
                player = state.current_player()
                legal = state.legal_actions()
                if player == 0 and len(legal) > 1 and decisions % 3 == 0:
                    action = flat_monte_carlo(state, player, 6, rng)
                else:
                    action = rng.choice(legal)
                self.assertIn(action, legal)
                state.apply_action(action)
            self.assertAlmostEqual(sum(state.returns()), 1.0)
            self.assertLessEqual(decisions, game.max_game_length())
            self.assertLessEqual(len(state.history()), game.max_history_length())
            self.assertEqual(chance > 0, chance_mode == "explicit")


class GameShape(unittest.TestCase):
    def test_game_methods_and_type(self):
        game = pyspiel.load_game("stpete")
        self.assertEqual((game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()), (4, 972, 305))
        self.assertEqual((game.observation_tensor_shape(), game.observation_tensor_size()), ([668], 668))
        self.assertEqual((game.min_utility(), game.max_utility(), game.utility_sum()), (0.0, 1.0, 1.0))
        self.assertEqual(game.max_game_length(), stpete.Game(players=4).max_game_length)
        self.assertEqual(game.max_history_length(), game.max_game_length() + game.max_chance_nodes_in_history())
        self.assertEqual(game.max_chance_nodes_in_history(), 117)
        t = game.get_type()
        self.assertEqual((t.short_name, t.dynamics, t.chance_mode, t.information, t.utility, t.reward_model),
                         ("stpete", pyspiel.GameType.Dynamics.SEQUENTIAL,
                          pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
                          pyspiel.GameType.Information.IMPERFECT_INFORMATION, pyspiel.GameType.Utility.CONSTANT_SUM,
                          pyspiel.GameType.RewardModel.TERMINAL))
        self.assertEqual((t.min_num_players, t.max_num_players), (2, 5))  # 5 with new_society (§12)
        self.assertTrue(t.provides_observation_tensor and t.provides_information_state_string)
        self.assertFalse(t.provides_information_state_tensor)
        with self.assertRaises(pyspiel.SpielError):
            game.information_state_tensor_shape()
        self.assertEqual(game.get_parameters()["chance_mode"], "explicit")
        sampled = pyspiel.load_game("stpete(players=3,chance_mode=sampled,seed=9,edition=2)")
        self.assertEqual(sampled.get_type().chance_mode, pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC)
        self.assertEqual((sampled.num_players(), sampled.max_chance_outcomes(), sampled.max_chance_nodes_in_history()),
                         (3, 0, 0))
        self.assertEqual(pyspiel.load_game(str(sampled)), sampled)
        self.assertEqual(sampled.get_parameters()["seed"], 9)
        self.assertEqual(pyspiel.load_game("stpete", {"players": 2, "start_markers": "0 1 0 1"})
                         .new_initial_state().current_player(), pyspiel.PlayerId.CHANCE)  # workers still dealt
        with self.assertRaises(pyspiel.SpielError):
            pyspiel.load_game("chess")
        with self.assertRaises(pyspiel.SpielError):
            pyspiel.load_game("stpete", {"player": 2})
        with self.assertRaises(stpete.InvalidArgumentError):
            pyspiel.load_game("stpete", {"players": 5})
        # the start markers are read by the library: its reason for a bad text (not int()'s ValueError), "random"
        self.assertIsNone(pyspiel.load_game("stpete(start_markers=random)").stpete_game.start_markers)
        self.assertEqual(pyspiel.load_game("stpete(start_markers= 1  0 1 0 ,players=2)").stpete_game.start_markers,
                         (1, 0, 1, 0))
        for markers, says in (("0 1 2 x", "start_markers must be \"random\" or four seats"),
                              ("0 1 2 7", "not 7: no game has it")):
            with self.subTest(markers=markers), self.assertRaises(stpete.InvalidArgumentError) as cm:
                pyspiel.load_game("stpete", {"start_markers": markers})
            self.assertIn(says, str(cm.exception))
        self.assertEqual([int(p) for p in (pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL)], [-1, -4])


class StateShape(unittest.TestCase):
    def test_chance_nodes_and_ids(self):
        game = pyspiel.load_game("stpete", {"players": 3})
        state = game.new_initial_state()
        self.assertTrue(state.is_chance_node() and state.is_initial_state())
        self.assertEqual(state.current_player(), pyspiel.PlayerId.CHANCE)
        outcomes = state.chance_outcomes()
        self.assertEqual([o for o, _ in outcomes], state.legal_actions())
        self.assertEqual(state.legal_actions(pyspiel.PlayerId.CHANCE), state.legal_actions())
        self.assertEqual(state.legal_actions(0), [])
        mask = state.legal_actions_mask()
        self.assertEqual((len(mask), sum(mask)), (305, len(outcomes)))
        self.assertTrue(all(0 <= o < 305 for o, _ in outcomes))
        self.assertAlmostEqual(sum(p for _, p in outcomes), 1.0)
        outcome = outcomes[0][0]
        text = state.action_to_string(pyspiel.PlayerId.CHANCE, outcome)
        self.assertTrue(text.startswith("chance markers"))
        self.assertEqual(state.string_to_action(pyspiel.PlayerId.CHANCE, text), outcome)
        self.assertEqual(state.action_to_string(outcome), text)  # the player to act: chance
        with self.assertRaises(stpete.InvalidArgumentError):
            state.apply_action(305)
        with self.assertRaises(stpete.IllegalActionError):
            state.apply_action(0)  # Lumberjack: not a marker deal
        state.apply_action(outcome)
        self.assertEqual(state.history(), [outcome])
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[-1])
        self.assertTrue(state.is_player_node())
        player = state.current_player()
        actions = state.legal_actions(player)
        self.assertEqual(state.legal_actions_mask(), [1 if a in actions else 0 for a in range(972)])
        self.assertEqual(state.legal_actions((player + 1) % 3), [])
        action = actions[-1]
        self.assertEqual(state.string_to_action(state.action_to_string(player, action)), action)
        self.assertEqual(state.history_str(), ", ".join(map(str, state.history())))
        self.assertEqual(len(state.observation_tensor()), 668)
        self.assertEqual(state.observation_tensor(1), list(state.stpete_state.observation_tensor(1)))
        self.assertIn("observer: seat 2", state.observation_string(2))
        self.assertIn("information state of seat 0", state.information_state_string(0))
        with self.assertRaises(pyspiel.SpielError):
            state.information_state_tensor(0)
        self.assertEqual(state.returns(), [0.0] * 3)
        self.assertEqual(state.rewards(), [0.0] * 3)

    def test_undo_clone_child_and_serialize(self):
        game = pyspiel.load_game("stpete", {"players": 2})
        state = random_walk(game, random.Random(1), steps=60)
        history = state.history()
        child = state.child(state.legal_actions()[0])
        self.assertEqual(child.history(), history + [state.legal_actions()[0]])
        self.assertEqual(state.history(), history)  # unchanged
        clone = state.clone()
        player = state.current_player()
        last = history[-1]
        before = game.new_initial_state()
        for a in history[:-1]:
            before.apply_action(a)
        wrong = (last + 1) % 305
        with self.assertRaises(stpete.InvalidArgumentError):
            clone.undo_action(player if player >= 0 else 0, wrong)
        self.assertEqual(clone.history(), history)  # a refused undo changes nothing
        last_player = before.current_player()
        other = (last_player + 1) % 2 if last_player >= 0 else 0
        with self.assertRaises(stpete.InvalidArgumentError):
            clone.undo_action(other, last)  # the right action, the wrong player
        self.assertEqual(clone.stpete_state, state.stpete_state)
        clone.undo_action(last_player, last)
        self.assertEqual(clone.stpete_state, before.stpete_state)
        self.assertEqual(clone.serialize(), "".join(f"{a}\n" for a in history[:-1]))  # OpenSpiel's default
        again = game.deserialize_state(state.serialize())
        self.assertEqual((again.history(), again.stpete_state), (history, state.stpete_state))
        end = random_walk(game, random.Random(2))
        self.assertTrue(end.is_terminal())
        self.assertEqual(end.current_player(), pyspiel.PlayerId.TERMINAL)
        winners = [p for p in range(2) if end.returns()[p] > 0]
        self.assertEqual(end.rewards(), end.returns())
        self.assertEqual(end.player_return(winners[0]), 1.0 / len(winners))
        fresh = game.new_initial_state()
        with self.assertRaises(stpete.InvalidArgumentError):
            fresh.undo_action(pyspiel.PlayerId.CHANCE, 0)

    def test_resample_from_infostate(self):
        for mode in ("sampled", "explicit"):
            game = pyspiel.load_game("stpete", {"players": 3, "chance_mode": mode, "seed": 4})
            state = random_walk(game, random.Random(4), steps=80)
            rng = random.Random(1)
            for player in range(3):
                world = state.resample_from_infostate(player, rng.random)
                self.assertEqual(world.information_state_string(player), state.information_state_string(player))
                self.assertEqual(world.observation_tensor(player), state.observation_tensor(player))
                self.assertEqual(world.history(), state.history())
                self.assertEqual(world.legal_actions(), state.legal_actions())
                text = world.serialize()
                self.assertTrue(text.startswith("# stpete-state\n"))  # no seed replays a determinization
                back = game.deserialize_state(text)
                self.assertEqual((back.stpete_state, back.history()), (world.stpete_state, world.history()))
                self.assertEqual(world.clone().history(), state.history())
                world.apply_action(world.legal_actions()[0])
                self.assertEqual(world.history()[:-1], state.history())
            if mode == "sampled":
                worlds = {state.resample_from_infostate(0, rng.random).stpete_state.to_json() for _ in range(3)}
                self.assertEqual(len(worlds), 3)  # the stacks' order is redrawn

    def test_resample_keeps_what_the_player_knows(self):
        """A seat's hand cards unseen by the others (a position loaded with hand_known false, doc/format.md):
        resampling for another seat redraws them, resampling for their owner keeps them."""
        game = pyspiel.load_game("stpete", {"players": 3, "chance_mode": "sampled", "seed": 2})
        state = random_walk(game, random.Random(2), steps=60)
        document = json.loads(state.stpete_state.to_json())
        owner = next(s for s in range(3) if document["players"][s]["hand"])
        other = (owner + 1) % 3
        document["players"][owner]["hand_known"] = [False] * len(document["players"][owner]["hand"])
        state = game.deserialize_state("# stpete-state\n" + json.dumps(document) + "\n")
        rng = random.Random(5)
        hands = {state.resample_from_infostate(other, rng.random).stpete_state.hand(owner) for _ in range(8)}
        self.assertGreater(len(hands), 1)  # redrawn for a seat that never saw them
        for _ in range(8):
            world = state.resample_from_infostate(owner, rng.random)
            self.assertEqual(world.stpete_state.hand(owner), state.stpete_state.hand(owner))
            self.assertEqual(world.information_state_string(owner), state.information_state_string(owner))

    def test_bad_arguments(self):
        game = pyspiel.load_game("stpete", {"players": 2, "chance_mode": "sampled"})
        state = game.new_initial_state()
        with self.assertRaises(TypeError):
            state.apply_action(1.0)
        with self.assertRaises(TypeError):
            state.apply_action(True)
        with self.assertRaises(stpete.InvalidArgumentError):
            state.apply_action(972)  # a player node: ids in [0, 972)
        with self.assertRaises(stpete.InvalidArgumentError):
            state.observation_tensor(2)
        with self.assertRaises(stpete.ParseError):
            state.string_to_action(0, "buy nothing")
        self.assertEqual(state.history(), [])
        terminal = random_walk(game, random.Random(3))
        with self.assertRaises(pyspiel.SpielError):
            terminal.observation_tensor()  # no player to act: say whose
        with self.assertRaises(stpete.GameOverError):
            terminal.apply_action(0)


if __name__ == "__main__":
    unittest.main()
