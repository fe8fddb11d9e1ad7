"""Saint Petersburg as a real PettingZoo environment (AEC API). Needs PettingZoo, Gymnasium and NumPy, imported
here only (``import stpete`` never imports them).

    import stpete.pettingzoo
    env = stpete.pettingzoo.env(players=4)
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)
    env.close()

:func:`env` returns :class:`raw_env`, a ``pettingzoo.AECEnv``, inside PettingZoo's ``OrderEnforcingWrapper`` (an
``AECEnv`` too), and passes PettingZoo's ``api_test`` and ``seed_test``. Agents are ``"player_0"`` ..
``"player_{n-1}"`` (seat order; 2 to 5 players, 5 only with ``new_society=True``, §12). Action space
``Discrete(972)``: the dense action ids of stpete.h (:class:`stpete.Action`). Observation space
``Dict({"observation": Box(-100000, 100000, (668,), float32), "action_mask": Box(0, 1, (972,), int8)})``; with the
New Society (``new_society=True``) the sizes are the game's, 2188 actions and 972 floats
(:attr:`stpete.Game.num_distinct_actions`, :attr:`stpete.Game.observation_tensor_size`): the observation is the
library's observation tensor of the agent's seat (:meth:`stpete.State.observation_tensor`, layout in
doc/observation.md: exactly what §9 lets that seat know, from its point of view), and the mask is 1 where the action
id is legal for the agent (all 0 when it is not to act). Rewards are 0 until the end, then the returns
(:meth:`stpete.State.returns`: 1/k for each of the k winners, §8 R14, 0 for the others; with ``reward="score"``,
each seat's final VP). Random events are drawn inside the environment (the default sampled chance mode; with
``chance_mode="explicit"`` the environment draws each chance outcome by its probability, seeded by ``reset(seed)``).
No truncation: every game ends (§4.6). Keywords: ``players``, ``reward``, ``render_mode`` (``"ansi"``, ``"human"``)
and the rule options of :class:`stpete.Game`.

The mechanics are those of the dependency-free :class:`stpete.env.StPeteEnv` (:class:`stpete.env.AECMechanics`):
the same seed gives the same game and the same observations there, in ``array`` and ``bytes`` instead of NumPy.
"""
from typing import Any, Optional

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._core import ActionLike
from .env import OBSERVATION_HIGH, OBSERVATION_LOW, AECMechanics

__all__ = ["env", "raw_env"]


class raw_env(AECMechanics, AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped environment class)
    """Saint Petersburg as a ``pettingzoo.AECEnv``: ``raw_env(players=4, reward="win", render_mode=None,
    **rule_options)`` (see the module's documentation)."""

    metadata = AECMechanics.metadata

    def __init__(self, players: int = 4, reward: str = "win", render_mode: Optional[str] = None,
                 **rule_options: Any) -> None:
        AECEnv.__init__(self)
        self._setup(players, reward, render_mode, rule_options)

    def _make_spaces(self):
        def observation_space():
            return gymnasium.spaces.Dict({
                "observation": gymnasium.spaces.Box(OBSERVATION_LOW, OBSERVATION_HIGH, (self.observation_size,),
                                                    np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.num_distinct_actions,), np.int8),
            })

        return ({a: gymnasium.spaces.Discrete(self.num_distinct_actions) for a in self.possible_agents},
                {a: observation_space() for a in self.possible_agents})

    @staticmethod
    def _observation(tensor, mask):
        return {"observation": np.frombuffer(tensor, dtype=np.float32),  # the array of this call: no copy
                "action_mask": np.frombuffer(mask, dtype=np.int8).copy()}

    def step(self, action: Optional[ActionLike]) -> None:
        """Apply ``action`` (an action id: an int, a NumPy integer or a :class:`stpete.Action`; None for an agent
        whose game is over) for ``agent_selection``. An illegal action raises
        :class:`stpete.IllegalActionError` with the library's reason, and changes nothing."""
        AECMechanics.step(self, action)


def env(**kwargs: Any) -> Any:
    """A new environment (:class:`raw_env` with PettingZoo's ``OrderEnforcingWrapper``), PettingZoo's ``env()``
    convention."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
