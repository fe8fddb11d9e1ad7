"""The dependency-free PettingZoo-shaped environment: reset(seed), agent_iter, last(), step(action), the
library's observation tensor + action_mask, rewards equal to the returns at the end, hidden information (§9),
chance outcomes drawn inside the environment."""
import array
import unittest

import stpete
from stpete import _ffi
from stpete.env import OBSERVATION_SIZE, StPeteEnv

SEAT_BLOCK, SEAT_SIZE = 232, 109  # doc/observation.md


def play(env, seed):
    env.reset(seed=seed)
    steps, finals = 0, {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            finals[agent] = (reward, info)
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
        steps += 1
    return steps, finals


class Environment(unittest.TestCase):
    def test_full_game(self):
        env = stpete.env(players=3)
        steps, finals = play(env, 7)
        self.assertEqual(sorted(finals), ["player_0", "player_1", "player_2"])
        winners = finals["player_0"][1]["winners"]
        returns = env.game_state.returns()
        for agent, (reward, info) in finals.items():
            self.assertEqual(reward, 1 / len(winners) if info["seat"] in winners else 0.0)  # the returns
            self.assertEqual(reward, returns[info["seat"]])
        self.assertEqual(env.agents, [])
        self.assertGreater(steps, 50)
        env.close()

    def test_reproducible_from_seed(self):
        a, b = StPeteEnv(players=4), StPeteEnv(players=4)
        self.assertEqual(play(a, 3), play(b, 3))
        self.assertEqual(a.game_state, b.game_state)

    def test_observation_and_mask(self):
        env = StPeteEnv(players=4)
        env.reset(seed=1)
        state = env.game_state
        agent = env.agent_selection
        self.assertEqual(agent, f"player_{state.current_player}")
        obs, reward, term, trunc, info = env.last()
        self.assertEqual((reward, term, trunc), (0.0, False, False))
        self.assertEqual(len(obs["observation"]), OBSERVATION_SIZE)
        self.assertEqual(env.observation_space(agent).shape, (OBSERVATION_SIZE,))
        self.assertEqual(obs["action_mask"], state.legal_action_mask())
        self.assertEqual(env.action_space(agent).n, stpete.NUM_DISTINCT_ACTIONS)
        other = next(a for a in env.agents if a != agent)
        self.assertEqual(sum(env.observe(other)["action_mask"]), 0)  # not to act: nothing legal
        for a in env.agents:  # the library's tensor of the agent's seat
            self.assertEqual(env.observe(a)["observation"], state.observation_tensor(env.agent_name_mapping[a]))
        self.assertIsInstance(obs["observation"], array.array)
        self.assertEqual(obs["observation"][12], 1)  # the seat to act, relative: the observer itself
        self.assertEqual(env.observe(other)["observation"][12], 0)

    def test_hidden_information(self):
        # 2 players: give seat 0 a hand card, then compare what each seat sees of the other (§9)
        for public in (False, True):
            env = StPeteEnv(players=2, public_rubles=public, public_hands=public)
            env.reset(seed=2)
            state = env.game_state
            while not state.hand(0):
                seat = state.current_player
                take = [a for a in state.legal_actions() if a.kind == stpete.ActionKind.TAKE and seat == 0]
                env.step(take[0] if take else state.legal_action_ids()[0])
            seen_by_1 = env.observe("player_1")["observation"]
            seen_by_0 = env.observe("player_0")["observation"]
            own_block = seen_by_0[SEAT_BLOCK:SEAT_BLOCK + SEAT_SIZE]
            their_view = seen_by_1[SEAT_BLOCK + SEAT_SIZE:SEAT_BLOCK + 2 * SEAT_SIZE]  # seat 0 is block 1 for seat 1
            self.assertEqual(own_block[4], 1)        # hand size is public
            self.assertEqual(their_view[4], 1)
            self.assertEqual(sum(their_view[7:11]), 1)  # the colour of its back is public
            self.assertEqual(own_block[2:4], array.array("f", [state.rubles(0), 1]))
            card = state.hand(0)[0]
            self.assertEqual(own_block[11 + card], 1)
            self.assertEqual(their_view[11 + card], 1)  # taken from the board in view of all (§9)
            if public:
                self.assertEqual(their_view, own_block)
            else:
                self.assertEqual(list(their_view[2:4]), [0, 0])  # rubles secret

    def test_explicit_chance_is_drawn_inside(self):
        a, b = StPeteEnv(players=3, chance_mode="explicit"), StPeteEnv(players=3, chance_mode="explicit")
        steps, finals = play(a, 5)
        self.assertEqual(play(b, 5), (steps, finals))
        self.assertEqual(a.game_state, b.game_state)
        self.assertTrue(any(i >= stpete.CHANCE_CARD_FIRST for i in a.game_state.history))
        self.assertEqual(len(finals), 3)

    def test_score_rewards_and_errors(self):
        env = StPeteEnv(players=2, reward="score")
        play(env, 11)
        state = env.game_state
        env.reset(seed=11)
        with self.assertRaises(stpete.IllegalActionError):
            bad = next(i for i, m in enumerate(env.last()[0]["action_mask"]) if not m)
            env.step(bad)
        with self.assertRaises(stpete.InvalidArgumentError):
            StPeteEnv(reward="money")
        steps, finals = play(env, 11)
        self.assertEqual({a: r for a, (r, _) in finals.items()},
                         {f"player_{s}": float(v) for s, v in enumerate(env.game_state.final_scores)})
        self.assertIs(state, env.game_state)  # reset reuses the state
        self.assertIn("round", env.render())

    def test_new_society_five_players(self):
        # the expansion (§12, issue 30): 5 agents, the game's 2188 action ids and 972-float tensor
        env = StPeteEnv(players=5, new_society=True)
        self.assertEqual(env.possible_agents, [f"player_{s}" for s in range(5)])
        env.reset(seed=4)
        game_sizes = (stpete.Game(players=5, new_society=True).num_distinct_actions,
                      stpete.Game(players=5, new_society=True).observation_tensor_size)
        self.assertEqual(game_sizes, (2188, 972))
        obs = env.last()[0]
        self.assertEqual((len(obs["action_mask"]), len(obs["observation"])), game_sizes)
        self.assertEqual(obs["action_mask"], env.game_state.legal_action_mask())
        for agent in env.possible_agents:
            self.assertEqual(env.action_space(agent).n, 2188)
            self.assertEqual(env.observation_space(agent).shape, (972,))
            self.assertEqual(len(env.observe(agent)["action_mask"]), 2188)  # all 0 too for one not to act
        steps, finals = play(env, 4)
        returns = env.game_state.returns()
        self.assertEqual({a: r for a, (r, _) in finals.items()}, {f"player_{s}": returns[s] for s in range(5)})
        self.assertGreater(steps, 100)
        # an expansion action (ids [NS_ACTION_FIRST, 2188) of stpete.h, after the base game's chance ids) was
        # legal in a mask and played
        self.assertTrue(any(_ffi.NS_ACTION_FIRST <= i < 2188 for i in env.game_state.history))
        with self.assertRaises(stpete.InvalidArgumentError):
            StPeteEnv(players=5)  # 5 seats only with the expansion (§12)
        env.close()


if __name__ == "__main__":
    unittest.main()
