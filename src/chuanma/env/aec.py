"""The PettingZoo AEC environment: four seats ``seat_0``…``seat_3`` playing one hand.

The action space is the engine's fixed numbering (:mod:`chuanma.engine.indices`, 623 actions,
every one naming its tile); observations are ``{"observation": array, "action_mask": int8
array}``, made from what the seat may know alone (:mod:`chuanma.encoding`). See docs/rl.md.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from chuanma.engine import ACTION_COUNT
from chuanma.env.table import EnvOptionError, Table, rules_of
from chuanma.rules import RuleSet

AGENTS = tuple(f"seat_{s}" for s in range(4))
SEATS = {a: s for s, a in enumerate(AGENTS)}
RENDER_MODES = ("ansi", "human")


def spaces(shape: tuple[int, ...]) -> tuple[gymnasium.spaces.Dict, gymnasium.spaces.Discrete]:
    """The observation space (for an encoder's ``shape``) and the action space of one seat."""
    obs = gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(-np.inf, np.inf, shape, np.float32),
        "action_mask": gymnasium.spaces.Box(0, 1, (ACTION_COUNT,), np.int8),
    })
    return obs, gymnasium.spaces.Discrete(ACTION_COUNT)


class RawEnv(AECEnv):  # type: ignore[misc]
    """One hand of Sichuan mahjong as a PettingZoo AEC environment (unwrapped)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "chuanma_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, rules: str | RuleSet = "xuezhan", *, encoder: str = "compact", reward: str = "end",
                 normalize: bool = False, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise EnvOptionError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}")
        self.table = Table(rules_of(rules, options), encoder, reward, normalize)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        obs, act = spaces(self.table.shape)
        self._observation_spaces = {a: obs if i == 0 else _copy(obs) for i, a in enumerate(AGENTS)}
        self._action_spaces = {a: gymnasium.spaces.Discrete(ACTION_COUNT) if i else act
                               for i, a in enumerate(AGENTS)}
        self._start()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._action_spaces[agent]

    def _start(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.table.acting()]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand; ``seed`` restarts the dealing generator (same seed, same hands)."""
        if seed is not None:
            self.table.seed(seed)
        self.table.deal()
        self._start()

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observe(SEATS[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} owes a decision: give an action index 0-{ACTION_COUNT - 1}, not None")
        rewards = self.table.act(SEATS[agent], action)  # refuses a bad index, changing nothing
        self._cumulative_rewards[agent] = 0.0
        if any(rewards) or any(self.rewards.values()):  # else they are zeros already
            self.rewards = dict(zip(AGENTS, rewards, strict=True))
            self._accumulate_rewards()
        if self.table.game.finished:
            self.terminations = dict.fromkeys(AGENTS, True)
            self._deads_step_first()
        else:
            self.agent_selection = AGENTS[self.table.acting()]
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        """A line about the hand: the phase, the wall, the seat asked and everyone's score."""
        if self.render_mode is None:
            return None
        game = self.table.game
        view = game.view(None)
        return (f"{view.phase}: wall {view.wall}, asking {self.agent_selection}, "
                f"scores {list(view.totals)}")

    def close(self) -> None:
        """Nothing to release."""


def _copy(space: gymnasium.spaces.Dict) -> gymnasium.spaces.Dict:
    """An equal space of its own (each agent's space is seeded separately)."""
    return spaces(space["observation"].shape)[0]  # type: ignore[arg-type]
