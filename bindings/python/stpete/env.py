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

This is the dependency-free twin of :mod:`stpete.pettingzoo`, whose environment *is* a ``pettingzoo.AECEnv``
(gymnasium spaces, NumPy observations) and passes PettingZoo's own ``api_test`` and ``seed_test``: both run the
same mechanics (:class:`AECMechanics`) and give the same observations, rewards and games for the same seed; only
the containers differ. Use this one where PettingZoo, Gymnasium and NumPy are not installed.

Agents are ``"player_0"`` .. ``"player_{n-1}"`` (seat order; 2 to 5 players, 5 only with ``new_society=True``,
§12). The action space is ``Discrete(972)`` (the dense action ids of stpete.h; ``Discrete(2188)`` with the New
Society: :attr:`stpete.Game.num_distinct_actions`); the observation is a dict with ``"observation"``, the
library's observation tensor of the observing seat (:meth:`stpete.State.observation_tensor`: 668 floats in the
layout of doc/observation.md, 972 with the New Society, exactly what §9 lets that seat know), here an
``array.array("f")``, and ``"action_mask"`` (``bytes`` of 972 entries, 2188 with the New Society, 1 = legal; all
0 for an agent not to act). Rewards are 0 until the end; then, with ``reward="win"`` (default),
the returns (:meth:`stpete.State.returns`: 1/k for each of the k winners, shared wins too, §8 R14, and 0 for the
others), or with ``reward="score"`` each seat's final VP. Random events are drawn inside the environment: by the
library in the default sampled chance mode, or with ``chance_mode="explicit"`` by the environment from the chance
outcomes' probabilities, seeded by ``reset(seed)``; no agent ever sees a chance node. No truncation: every game
ends (§4.6).
"""
import random as _random
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ._core import ActionLike, Game, State
from .errors import InvalidArgumentError

#: Length of the ``"observation"`` vector of a base game (the library's observation tensor, doc/observation.md);
#: a game's own size is :attr:`stpete.Game.observation_tensor_size` (972 with the New Society, §12).
OBSERVATION_SIZE = 668
#: Bounds of every element of the observation (VP saturate at ±STPETE_VP_MAX, rubles at STPETE_RUBLES_MAX).
OBSERVATION_LOW, OBSERVATION_HIGH = -100000.0, 100000.0


class AECMechanics:
    """The game mechanics of an AEC environment of Saint Petersburg, shared by :class:`StPeteEnv` and
    ``stpete.pettingzoo.raw_env``: agents, reset, step, rewards, terminations, infos, observe and render. A
    subclass supplies the spaces (``_make_spaces``), the observation's containers (``_observation``) and
    ``_was_dead_step`` (PettingZoo's name: remove an agent whose game is over)."""

    game_state: Optional[State]
    agents: List[str]
    possible_agents: List[str]
    agent_selection: str
    rewards: Dict[str, float]
    terminations: Dict[str, bool]
    truncations: Dict[str, bool]
    infos: Dict[str, Dict[str, Any]]
    render_mode: Optional[str]
    num_distinct_actions: int  # the game's: the size of the action space and of the action mask
    observation_size: int  # the game's observation tensor size: the length of "observation"
    # what a subclass supplies (annotations only: PettingZoo's AECEnv, after this class in raw_env's bases,
    # provides _was_dead_step)
    _make_spaces: Callable[[], Tuple[Dict[str, Any], Dict[str, Any]]]
    _observation: Callable[[Any, bytes], Dict[str, Any]]
    _was_dead_step: Callable[[Optional[ActionLike]], None]

    metadata: Dict[str, Any] = {"name": "stpete_v1", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def _setup(self, players, reward, render_mode, rule_options):
        if reward not in ("win", "score"):
            raise InvalidArgumentError(f"reward must be 'win' or 'score', not {reward!r}")
        if render_mode not in (None, "ansi", "human"):
            raise InvalidArgumentError(f"unknown render_mode {render_mode!r}")
        self._game = Game(players=players, **rule_options)
        # the sizes are the game's (one home: the library): 972 actions and 668 floats, 2188 and 972 with the
        # New Society (§12)
        self.num_distinct_actions = self._game.num_distinct_actions
        self.observation_size = self._game.observation_tensor_size
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        self.action_spaces, self.observation_spaces = self._make_spaces()
        self.game_state = None
        self._chance_rng = _random.Random()
        self.agents = []
        self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos = {}, {}, {}, {}, {}

    # -- spaces --

    def action_space(self, agent: str) -> Any:
        """The action space of ``agent`` (the same object every time)."""
        return self.action_spaces[agent]

    def observation_space(self, agent: str) -> Any:
        """The observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[agent]

    # -- the cycle --

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Start a new game. ``seed`` (an int in [0, 2**64)) makes it reproducible (the deal, the chance
        outcomes the environment draws, and the action spaces' ``sample``); None draws one. ``options`` is
        accepted and ignored (the rule options are given to the constructor)."""
        chosen = seed is not None
        if seed is None:
            seed = _random.getrandbits(64)
        if self.game_state is None:
            self.game_state = self._game.new_state(seed)
        else:
            self.game_state.reset(seed)  # checks the seed first: a refused seed changes nothing
        self._chance_rng.seed(seed)
        if chosen:
            for s, space in enumerate(self.action_spaces.values()):
                space.seed((seed * 31 + s) % 2 ** 64)
        self._resolve_chance()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game_state.current_player]
        self._update_infos()

    def _live_state(self) -> State:
        """The state of the game under way; InvalidArgumentError before the first :meth:`reset` or after
        :meth:`close`."""
        if self.game_state is None:
            raise InvalidArgumentError("the environment has no game: call reset() first")
        return self.game_state

    def _resolve_chance(self):
        """Apply chance outcomes (explicit-chance games) drawn by their probabilities until a player decides."""
        state = self.game_state
        while state.is_chance_node:
            outcomes = state.chance_outcomes()
            state.apply(self._chance_rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])

    def step(self, action: Optional[ActionLike]) -> None:
        """Apply ``action`` (an action id, or None for an agent whose game is over) for ``agent_selection``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._live_state()
        self._cumulative_rewards[agent] = 0.0
        state.apply(action)  # type: ignore[arg-type]  # None: State.apply's TypeError
        self._resolve_chance()
        self.rewards = {a: 0.0 for a in self.agents}
        if state.is_terminal:
            if self.reward_mode == "win":
                values = state.returns()
            else:
                values = [float(v) for v in state.final_scores]
            for a in self.agents:
                self.rewards[a] = values[self.agent_name_mapping[a]]
                self.terminations[a] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def _update_infos(self):
        state = self.game_state
        for a in self.agents:
            self.infos[a] = {"seat": self.agent_name_mapping[a], "round": state.round, "phase": state.phase}
            if state.is_terminal:
                self.infos[a]["winners"] = state.winners
                self.infos[a]["final_scores"] = state.final_scores

    def observe(self, agent: str) -> Dict[str, Any]:
        """``{"observation": the observation tensor of the agent's seat, "action_mask": 1 where the action id is
        legal for it}`` (the mask is all 0 for an agent not to act, and after the end)."""
        state = self._live_state()
        seat = self.agent_name_mapping[agent]
        tensor = state.observation_tensor(seat)
        if not self.terminations.get(agent) and state.current_player == seat:
            mask = state.legal_action_mask()
        else:
            mask = bytes(self.num_distinct_actions)
        return self._observation(tensor, mask)

    def render(self) -> str:
        """The position as text (``render_mode="ansi"`` returns it, ``"human"`` prints it)."""
        text = str(self.game_state) if self.game_state is not None else "(not reset)"
        if self.render_mode == "human":
            print(text)
        return text

    def close(self) -> None:
        """Release the state and the game."""
        if self.game_state is not None:
            self.game_state.close()
            self.game_state = None
        self._game.close()


class Discrete:
    """A minimal stand-in for ``gymnasium.spaces.Discrete``: the integers ``0 .. n-1``."""

    def __init__(self, n: int, seed: Optional[int] = None) -> None:
        self.n = n
        self._rng = _random.Random(seed)

    def seed(self, seed: Optional[int] = None) -> None:
        """Seed the space's own PRNG (:meth:`sample`)."""
        self._rng.seed(seed)

    def sample(self, mask: Optional[Sequence[int]] = None) -> int:
        """A uniform element, or a uniform element where ``mask`` is nonzero."""
        if mask is None:
            return self._rng.randrange(self.n)
        choices = [i for i, m in enumerate(mask) if m]
        if not choices:
            raise ValueError("the mask allows no action")
        return self._rng.choice(choices)

    def contains(self, x: object) -> bool:
        """Whether ``x`` is an int in [0, n)."""
        return isinstance(x, int) and 0 <= x < self.n

    __contains__ = contains

    def __repr__(self):
        return f"Discrete({self.n})"


class Box:
    """A minimal description of the observation vector: ``shape`` and the bounds ``low`` / ``high``."""

    def __init__(self, low: float, high: float, shape: Tuple[int, ...]) -> None:
        self.low, self.high, self.shape = low, high, shape

    def __repr__(self):
        return f"Box({self.low}, {self.high}, {self.shape})"


class StPeteEnv(AECMechanics):
    """Saint Petersburg as a PettingZoo-style AEC environment without third-party packages.
    ``StPeteEnv(players=4, reward="win", render_mode=None, **rule_options)``; rule options as :class:`stpete.Game`
    (``chance_mode="explicit"`` too: the environment then draws the chance outcomes; ``new_society=True`` for the
    expansion, §12, with 2 to 5 players). Options the game refuses raise its exception
    (:class:`stpete.InvalidArgumentError`, e.g. ``players=5`` without ``new_society``)."""

    def __init__(self, players: int = 4, reward: str = "win", render_mode: Optional[str] = None,
                 **rule_options: Any) -> None:
        self._setup(players, reward, render_mode, rule_options)

    def _make_spaces(self):
        return ({a: Discrete(self.num_distinct_actions) for a in self.possible_agents},
                {a: Box(OBSERVATION_LOW, OBSERVATION_HIGH, (self.observation_size,)) for a in self.possible_agents})

    @staticmethod
    def _observation(tensor, mask):
        return {"observation": tensor, "action_mask": mask}

    def _was_dead_step(self, action):
        if action is not None:
            raise InvalidArgumentError("the game is over: step(None) for each agent")
        agent = self.agent_selection
        i = self.agents.index(agent)
        self.agents.remove(agent)
        for d in (self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos):
            d.pop(agent, None)
        if self.agents:
            self.agent_selection = self.agents[i % len(self.agents)]
        for a in self.rewards:  # the rewards were those of the last step (as PettingZoo's _was_dead_step)
            self.rewards[a] = 0.0

    @property
    def num_agents(self) -> int:
        """Number of agents still in the cycle."""
        return len(self.agents)

    def agent_iter(self, max_iter: int = 2 ** 63) -> Iterator[str]:
        """Yield ``agent_selection`` until every agent is done (or ``max_iter`` steps)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def last(self, observe: bool = True) -> Tuple[Optional[Dict[str, Any]], float, bool, bool, Dict[str, Any]]:
        """``(observation, cumulative reward, termination, truncation, info)`` of ``agent_selection``."""
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])


def env(**kwargs: Any) -> StPeteEnv:
    """Create a :class:`StPeteEnv` (PettingZoo's ``env()`` factory convention)."""
    return StPeteEnv(**kwargs)
