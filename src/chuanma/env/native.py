"""Many hands stepped together inside the compiled core (``chuanma._core.BatchHands``): the batch
environment's API (:class:`~chuanma.env.batch.BatchEnv`) with the compact encoder, at the speed of
the compiled reducer.

The core deals, plays, redacts (each observation is the compact encoding of the compiled view of
the seat asked: ``src/native/view.hpp``) and writes every table's row of the arrays in one call.
What differs from :class:`~chuanma.env.batch.BatchEnv`: the hands are dealt from the core's own
seeded generator (a uniform shuffle, dealer and exchange direction; not the Python tables' deals,
and not the fairness dealing); only the ``compact`` encoder is offered; an illegal action refuses
the whole step (no table steps) and an action out of the action space raises
:class:`~chuanma.engine.ActionIndexError` before anything is done.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from chuanma import _core
from chuanma.engine import ACTION_COUNT, ActionIndexError, IllegalActionError
from chuanma.env.table import EnvOptionError, check_tables, reward_scale, rules_of
from chuanma.rules import RuleSet
from chuanma.scoring import score_options

Stacked = tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]


class NativeBatchEnv:
    """``n`` tables in the compiled core; :meth:`reset` and :meth:`step` return the arrays of
    :class:`~chuanma.env.batch.BatchEnv` (``observations`` ``(n, 644)``, or ``(n, 791)`` under
    大众麻将, ``masks``, ``seats``, ``rewards``, ``done``).

    ``copy``: the arrays returned are the caller's copies, as the Python batch's are (false: the
    environment's own arrays, overwritten by the next step, which saves the copies).
    """

    def __init__(self, n: int, rules: str | RuleSet = "xuezhan", *, encoder: str = "compact",
                 reward: str = "end", normalize: bool = False, copy: bool = True, **options: Any) -> None:
        if encoder != "compact":
            raise EnvOptionError(f"the native batch encodes compact observations only, got {encoder!r}")
        scale = reward_scale(reward, normalize)
        self.rules = rules_of(rules, options)
        self.core = _core.BatchHands(_core.Rules(self.rules, score_options(self.rules)), check_tables(n),
                                     reward == "event", scale)
        self.copy = copy
        self.observations = np.zeros((n, self.core.observation_size), dtype=np.float32)
        self.masks = np.zeros((n, ACTION_COUNT), dtype=np.int8)
        self.seats = np.zeros(n, dtype=np.int64)
        self.rewards = np.zeros((n, 4), dtype=np.float32)
        self.done = np.zeros(n, dtype=np.bool_)

    @property
    def n(self) -> int:
        return self.core.n

    @property
    def hands(self) -> int:
        """Hands finished since the last reset."""
        return self.core.hands

    def reset(self, seed: int | None = None) -> Stacked:
        """Deal a hand at every table (table ``i`` seeded ``seed + i``; ``None``: fresh entropy);
        observations, masks, seats."""
        if seed is None:
            seed = secrets.randbits(63)
        elif isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
            raise EnvOptionError(f"seed must be a whole number, at least 0, got {seed!r}")
        self.core.reset(int(seed), self.observations, self.masks, self.seats)
        return self._stacked()

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64],
            npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Apply ``actions[i]`` at table ``i``; observations, masks, seats, rewards, done.

        An action that is not legal for its table's seat asked raises
        :class:`~chuanma.engine.IllegalActionError` naming the table, and nothing is done.
        """
        chosen = np.ascontiguousarray(actions, dtype=np.int64)
        if chosen.shape != (self.n,):
            raise EnvOptionError(f"actions: give one action per table ({self.n}), got shape {chosen.shape}")
        outside = np.flatnonzero((chosen < 0) | (chosen >= ACTION_COUNT))
        if len(outside):
            i = int(outside[0])
            raise ActionIndexError(f"table {i}: action index {chosen[i]} is not in 0..{ACTION_COUNT - 1}")
        refused = self.core.step(chosen, self.observations, self.masks, self.seats, self.rewards, self.done)
        if refused is not None:
            raise IllegalActionError(refused)
        if self.copy:
            return (*self._stacked(), self.rewards.copy(), self.done.copy())
        return self.observations, self.masks, self.seats, self.rewards, self.done

    def _stacked(self) -> Stacked:
        if self.copy:
            return self.observations.copy(), self.masks.copy(), self.seats.copy()
        return self.observations, self.masks, self.seats
