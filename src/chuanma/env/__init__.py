"""Reinforcement-learning environments over the engine (needs the ``rl`` extra: PettingZoo and
Gymnasium).

>>> from chuanma.env import env
>>> e = env("xuezhan", encoder="compact")
>>> e.reset(seed=1)
>>> sorted(e.observe(e.agent_selection))
['action_mask', 'observation']

:func:`env` is the PettingZoo AEC environment with PettingZoo's checking wrappers; :func:`raw_env`
the bare one; :class:`~chuanma.env.single.SingleSeatEnv` the Gymnasium single-agent wrapper;
:class:`~chuanma.env.batch.BatchEnv` many hands stepped together. See docs/rl.md.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from chuanma.env.aec import AGENTS, RawEnv
from chuanma.env.batch import BatchEnv
from chuanma.env.single import SingleSeatEnv
from chuanma.env.table import EnvOptionError
from chuanma.rules import RuleSet


def raw_env(rules: str | RuleSet = "xuezhan", **options: Any) -> RawEnv:
    """The bare AEC environment: ``rules`` a preset name (or a RuleSet), ``options`` rule options
    and the environment's own (``encoder``, ``reward``, ``normalize``, ``render_mode``)."""
    return RawEnv(rules, **options)


class OrderedEnv(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's call-order wrapper, whose :meth:`last` asks the bare environment at once
    instead of reading its five attributes one by one through the wrapper."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]


def env(rules: str | RuleSet = "xuezhan", **options: Any) -> Any:
    """The AEC environment in PettingZoo's call-order wrapper (the bare environment already
    refuses an action index out of bounds, naming it)."""
    return OrderedEnv(raw_env(rules, **options))


__all__ = ["AGENTS", "BatchEnv", "EnvOptionError", "RawEnv", "SingleSeatEnv", "env", "raw_env"]
