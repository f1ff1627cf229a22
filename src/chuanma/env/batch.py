"""Many hands stepped together inside the compiled core (``chuanma._core.BatchHands``), with
stacked observations and masks.

Each of the ``n`` tables plays a hand of self-play: at every step the seat asked at each table
takes the action given for that table. A finished hand is replaced by a new one at once, so every
step returns a decision to make at every table. The core deals (each table from its own seeded
generator: a uniform shuffle, dealer and exchange direction), plays, redacts (each observation is
the encoding of the compiled view of the seat asked: ``src/native/view.hpp``) and writes every
table's row of the arrays in one call.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from chuanma import _core
from chuanma.encoding import encoder as encoder_of
from chuanma.engine import ACTION_COUNT, ActionIndexError, IllegalActionError, core_rules
from chuanma.env.table import EnvOptionError, check_tables, reward_scale, rules_of
from chuanma.rules import RuleSet

Stacked = tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]


class BatchEnv:
    """``n`` tables; :meth:`reset` and :meth:`step` return stacked arrays.

    ``observations`` has shape ``(n, *encoder shape)`` (``compact`` or ``planes``; 34 tile kinds
    under 大众麻将), ``masks`` ``(n, 623)`` (``int8``), ``seats`` ``(n,)`` (the seat asked at each
    table), ``rewards`` ``(n, 4)`` (what the step brought each seat, by absolute seat) and ``done``
    ``(n,)`` (the table's hand ended at that step and a new one was dealt).

    ``copy``: the arrays returned are the caller's copies, which the next step leaves as they were
    (false: the environment's own arrays, overwritten by the next step, which saves the copies).
    """

    def __init__(self, n: int, rules: str | RuleSet = "xuezhan", *, encoder: str = "compact",
                 reward: str = "end", normalize: bool = False, copy: bool = True, **options: Any) -> None:
        scale = reward_scale(reward, normalize)
        if not isinstance(copy, bool):
            raise EnvOptionError(f"copy must be true or false, got {copy!r}")
        self.rules = rules_of(rules, options)
        shape = encoder_of(encoder, self.rules)[1]  # refuses an unknown encoder
        self.core = _core.BatchHands(core_rules(self.rules), check_tables(n),
                                     reward == "event", scale, encoder)
        self.copy = copy
        self.observations = np.zeros((n, *shape), dtype=np.float32)
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
        elif isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed < 2**63:
            raise EnvOptionError(f"seed must be a whole number from 0 to 2**63 - 1, got {seed!r}")
        self.core.reset(int(seed), self.observations, self.masks, self.seats)
        return self._stacked()

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64],
            npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Apply ``actions[i]`` at table ``i``; observations, masks, seats, rewards, done.

        An action out of the action space raises :class:`~chuanma.engine.ActionIndexError`, and
        one that is not legal for its table's seat asked :class:`~chuanma.engine.IllegalActionError`,
        naming the table; either way no table steps.
        """
        try:
            given = np.asarray(actions)
            if given.dtype.kind not in "iu":  # no float rounded, no bool read as 0 or 1
                raise TypeError(f"got {given.dtype} values")
            chosen = np.ascontiguousarray(given, dtype=np.int64)
        except (TypeError, ValueError, OverflowError) as exc:
            raise EnvOptionError(f"actions: give one action index (a whole number) per table: {exc}") from None
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
