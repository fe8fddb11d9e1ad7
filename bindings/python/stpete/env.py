"""An environment in PettingZoo's AEC shape (agent-environment cycle), with no third-party imports.

    from stpete import env as make_env
    env = make_env(players=4)
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

Agents are ``"player_0"`` .. ``"player_{n-1}"`` (seat order). The action space is ``Discrete(972)`` (the dense
action ids of stpete.h); the observation is a dict with ``"observation"`` (a tuple of ints, layout in
:meth:`StPeteEnv.observe`, from the observing seat's point of view: other seats' rubles and hand cards are hidden
unless the game's ``public_rubles`` / ``public_hands`` options say otherwise, §9) and ``"action_mask"`` (``bytes``
of 972 entries, 1 = legal; all 0 for an agent not to act). Rewards are 0 until the end; then, with
``reward="win"`` (default), +1 for each winner (shared wins too, §8 R14) and -1 for the others, or with
``reward="score"`` each seat's final VP. No truncation: every game ends (§4.6).
"""
import random as _random

from ._core import Card, Game, Source
from .errors import InvalidArgumentError
from . import _ffi

_NCARD = _ffi.NUM_CARD_TYPES
_STACK_OF = [Card(c).info.stack for c in range(_NCARD)]


class Discrete:
    """A minimal stand-in for ``gymnasium.spaces.Discrete``: the integers ``0 .. n-1``."""

    def __init__(self, n, seed=None):
        self.n = n
        self._rng = _random.Random(seed)

    def seed(self, seed=None):
        self._rng.seed(seed)

    def sample(self, mask=None):
        """A uniform element, or a uniform element where ``mask`` is nonzero."""
        if mask is None:
            return self._rng.randrange(self.n)
        choices = [i for i, m in enumerate(mask) if m]
        if not choices:
            raise ValueError("the mask allows no action")
        return self._rng.choice(choices)

    def contains(self, x):
        return isinstance(x, int) and 0 <= x < self.n

    __contains__ = contains

    def __repr__(self):
        return f"Discrete({self.n})"


class Box:
    """A minimal description of the observation vector: ``shape`` and the bounds ``low`` / ``high``."""

    def __init__(self, low, high, shape):
        self.low, self.high, self.shape = low, high, shape

    def __repr__(self):
        return f"Box({self.low}, {self.high}, {self.shape})"


#: Lengths of the observation's blocks, in order (see StPeteEnv.observe).
_PER_SEAT = 5 + 4 + 2 * _NCARD
OBSERVATION_SIZE = 10 + 4 * _NCARD + 4 + 4 * _PER_SEAT


class StPeteEnv:
    """Saint Petersburg as a PettingZoo-style AEC environment. ``StPeteEnv(players=4, reward="win",
    render_mode=None, **rule_options)``; rule options as :class:`stpete.Game`."""

    metadata = {"name": "stpete_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, players=4, reward="win", render_mode=None, **rule_options):
        if reward not in ("win", "score"):
            raise InvalidArgumentError(f"reward must be 'win' or 'score', not {reward!r}", status=-1)
        if render_mode not in (None, "ansi", "human"):
            raise InvalidArgumentError(f"unknown render_mode {render_mode!r}", status=-1)
        self._game = Game(players=players, **rule_options)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        self._action_spaces = {a: Discrete(_ffi.NUM_DISTINCT_ACTIONS) for a in self.possible_agents}
        self._observation_spaces = {a: Box(-100, 1000, (OBSERVATION_SIZE,)) for a in self.possible_agents}
        self.game_state = None
        self.agents = []

    # -- spaces --

    def action_space(self, agent):
        return self._action_spaces[agent]

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    # -- the cycle --

    def reset(self, seed=None, options=None):
        """Start a new game. ``seed`` (an int in [0, 2**64)) makes it reproducible; None draws one."""
        chosen = seed is not None
        if not chosen:
            seed = _random.getrandbits(64)
        if self.game_state is None:
            self.game_state = self._game.new_state(seed)
        else:
            self.game_state.reset(seed)  # checks the seed first: a refused seed changes nothing
        if chosen:
            for s, space in enumerate(self._action_spaces.values()):
                space.seed(seed * 31 + s)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_player]
        self._update_infos()

    def step(self, action):
        """Apply ``action`` (an action id, or None for an agent whose game is over) for ``agent_selection``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise InvalidArgumentError("the game is over: step(None) for each agent", status=-1)
            self._remove(agent)
            return
        state = self.game_state
        self._cumulative_rewards[agent] = 0.0
        state.apply(action)
        self.rewards = {a: 0.0 for a in self.agents}
        if state.is_terminal:
            if self.reward_mode == "win":
                won = state.winners
                for a in self.agents:
                    self.rewards[a] = 1.0 if self.agent_name_mapping[a] in won else -1.0
            else:
                scores = state.final_scores
                for a in self.agents:
                    self.rewards[a] = float(scores[self.agent_name_mapping[a]])
            for a in self.agents:
                self.terminations[a] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def _remove(self, agent):
        i = self.agents.index(agent)
        self.agents.remove(agent)
        for d in (self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos):
            d.pop(agent, None)
        if self.agents:
            self.agent_selection = self.agents[i % len(self.agents)]

    def _update_infos(self):
        state = self.game_state
        for a in self.agents:
            self.infos[a] = {"seat": self.agent_name_mapping[a], "round": state.round, "phase": state.phase}
            if state.is_terminal:
                self.infos[a]["winners"] = state.winners
                self.infos[a]["final_scores"] = state.final_scores

    def agent_iter(self, max_iter=2 ** 63):
        """Yield ``agent_selection`` until every agent is done (or ``max_iter`` steps)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def last(self, observe=True):
        """``(observation, cumulative reward, termination, truncation, info)`` of ``agent_selection``."""
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def observe(self, agent):
        """``{"observation": tuple of ints, "action_mask": bytes}`` for ``agent``.

        Layout, with seats relative to the observer (block 0 = the observer, then clockwise; absent seats are 0):
        round, phase, decision, final round (0/1), consecutive passes, observer to act (0/1), 4 stack sizes;
        upper-row copies per card type (49), lower-row copies (49), the Observatory's drawn card one-hot (49, public
        §9), discard-pile copies (49); the holder of each phase's start-player marker, relative (4); per seat:
        VP, rubles (-1 if hidden), hand size, hand limit, Observatories used, hand cards by stack back (4), hand
        copies per card type (49, zeros if hidden), display copies per card type (49)."""
        state = self.game_state
        me = self.agent_name_mapping[agent]
        n = state.players
        opts = self._game
        obs = [state.round, int(state.phase), int(state.decision), int(state.is_final_round),
               state.consecutive_passes, int(state.current_player == me), *state.stack_sizes]
        for row in (Source.UPPER, Source.LOWER):
            counts = [0] * _NCARD
            for c in state.row(row):
                counts[c] += 1
            obs += counts
        drawn = [0] * _NCARD
        if state.observatory_card is not None:
            drawn[state.observatory_card] = 1
        obs += drawn
        pile = [0] * _NCARD
        for c, k in state.discard_pile.items():
            pile[c] = k
        obs += pile
        obs += [(holder - me) % n for holder in state.marker_holders]
        for k in range(4):
            if k >= n:
                obs += [0] * _PER_SEAT
                continue
            seat = (me + k) % n
            hand = state.hand(seat)
            backs = [0] * 4
            for c in hand:
                backs[_STACK_OF[c]] += 1
            hand_counts = [0] * _NCARD
            if seat == me or opts.public_hands:
                for c in hand:
                    hand_counts[c] += 1
            display = [0] * _NCARD
            for c in state.display(seat):
                display[c] += 1
            rubles = state.rubles(seat) if seat == me or opts.public_rubles else -1
            obs += [state.vp(seat), rubles, len(hand), state.hand_limit(seat), state.observatories_used(seat),
                    *backs, *hand_counts, *display]
        if not self.terminations.get(agent) and state.current_player == me:
            mask = state.legal_action_mask()
        else:
            mask = bytes(_ffi.NUM_DISTINCT_ACTIONS)
        return {"observation": tuple(obs), "action_mask": mask}

    def render(self):
        """The position as text (``render_mode="ansi"`` returns it, ``"human"`` prints it)."""
        text = str(self.game_state) if self.game_state is not None else "(not reset)"
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        """Release the state and the game."""
        if self.game_state is not None:
            self.game_state.close()
            self.game_state = None
        self._game.close()


def env(**kwargs):
    """Create a :class:`StPeteEnv` (PettingZoo's ``env()`` factory convention)."""
    return StPeteEnv(**kwargs)
