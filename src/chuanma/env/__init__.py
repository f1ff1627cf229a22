"""Reinforcement-learning environments over the engine (needs the ``rl`` extra: PettingZoo and
Gymnasium).

>>> from chuanma.env import env
>>> e = env("xuezhan", encoder="compact")
>>> e.reset(seed=1)
>>> sorted(e.observe(e.agent_selection))
['action_mask', 'observation']

:func:`env` is the PettingZoo AEC environment with PettingZoo's checking wrappers; :func:`raw_env`
the bare one; :class:`~chuanma.env.single.SingleSeatEnv` the Gymnasium single-agent wrapper;
:class:`~chuanma.env.batch.BatchEnv` many hands stepped together inside the compiled core. See
docs/rl.md.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium  # noqa: F401 (the extra's other half, imported by the environments)
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as missing:  # without the extra: say which one to install
    raise ModuleNotFoundError(f"chuanma.env needs the rl extra (PettingZoo and Gymnasium): pip install "
                              f"'chuanma[rl]' ({missing})", name=missing.name) from missing
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

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
    """PettingZoo's call-order wrapper, which asks the bare environment at once what a step reads
    (:meth:`last`, :attr:`agents`, :attr:`agent_selection`, the seat :meth:`agent_iter` yields) and
    steps it at once, with the wrapper's checks, instead of going through the wrapper's attribute
    look-up and its layers of ``step``."""

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            super().agent_iter(max_iter)  # the wrapper's error
        return OrderedIterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._check_reset("agent_selection")
        return self.env.last(observe)  # type: ignore[no-any-return]

    @property
    def agents(self) -> list[str]:
        self._check_reset("agents")
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        self._check_reset("agent_selection")
        return self.env.agent_selection  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:  # the wrapper's error or warning
            super().step(action)

    def _check_reset(self, name: str) -> None:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")


class OrderedIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    """:meth:`OrderedEnv.agent_iter`'s iterable."""

    def __iter__(self) -> AECOrderEnforcingIterator:
        return OrderedIterator(self.env, self.max_iter)


class OrderedIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-checking iterator over the seats asked, reading the bare environment."""

    def __next__(self) -> str:
        wrapper = self.env
        bare = wrapper.env
        if not bare.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return bare.agent_selection  # type: ignore[no-any-return]


def env(rules: str | RuleSet = "xuezhan", **options: Any) -> Any:
    """The AEC environment in PettingZoo's call-order wrapper (the bare environment already
    refuses an action index out of bounds, naming it)."""
    return OrderedEnv(raw_env(rules, **options))


__all__ = ["AGENTS", "BatchEnv", "EnvOptionError", "RawEnv", "SingleSeatEnv", "env", "raw_env"]
