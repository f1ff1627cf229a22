"""Many hands stepped together in one process, with stacked observations and masks.

Each of the ``n`` tables plays a hand of self-play: at every step the seat asked at each table
takes the action given for that table. A finished hand is replaced by a new one at once, so every
step returns a decision to make at every table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from chuanma.encoding import TRACKED_ENCODERS
from chuanma.engine import ACTION_COUNT, ActionIndexError, IllegalActionError, to_index
from chuanma.env.table import EnvOptionError, Table, check_tables, rules_of
from chuanma.rules import RuleSet


class BatchEnv:
    """``n`` tables; :meth:`reset` and :meth:`step` return stacked arrays.

    ``observations`` has shape ``(n, *encoder shape)``, ``masks`` ``(n, 623)`` (``int8``),
    ``seats`` ``(n,)`` (the seat asked at each table), ``rewards`` ``(n, 4)`` (what the step
    brought each seat, by absolute seat) and ``done`` ``(n,)`` (the table's hand ended at that
    step and a new one was dealt). The arrays returned are the caller's (copies): the next step
    leaves them as they were.
    """

    def __init__(self, n: int, rules: str | RuleSet = "xuezhan", *, encoder: str = "compact",
                 reward: str = "end", normalize: bool = False, **options: Any) -> None:
        ruleset = rules_of(rules, options)
        self.tables = [Table(ruleset, encoder, reward, normalize) for _ in range(check_tables(n))]
        self.encode = TRACKED_ENCODERS[encoder]
        shape = self.tables[0].shape
        self.observations = np.zeros((n, *shape), dtype=np.float32)
        self.masks = np.zeros((n, ACTION_COUNT), dtype=np.int8)
        self.seats = np.zeros(n, dtype=np.int64)
        self.hands = 0
        """Hands finished since the last reset."""

    @property
    def n(self) -> int:
        return len(self.tables)

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8],
                                                       npt.NDArray[np.int64]]:
        """Deal a hand at every table (table ``i`` seeded ``seed + i``); observations, masks, seats."""
        for i, table in enumerate(self.tables):
            table.seed(None if seed is None else seed + i)
            table.deal()
        self._observe(self.n)
        self.hands = 0
        return self._stacked()

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64],
            npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Apply ``actions[i]`` at table ``i``; observations, masks, seats, rewards, done.

        An illegal action raises (naming the table) after the tables before it have stepped (their
        rows observed).
        """
        if len(actions) != self.n:
            raise EnvOptionError(f"actions: give one action per table ({self.n}), got {len(actions)}")
        rewards = np.zeros((self.n, 4), dtype=np.float32)
        done = np.zeros(self.n, dtype=np.bool_)
        seats = self.seats.tolist()
        chosen = actions.tolist() if isinstance(actions, np.ndarray) else actions
        stepped = 0
        try:
            for i, table in enumerate(self.tables):
                try:
                    got = table.act(seats[i], int(chosen[i]))
                    if any(got):
                        rewards[i] = got
                except IllegalActionError as exc:
                    raise IllegalActionError(f"table {i}: {exc.reason}", exc.code, exc.seat) from None
                except ActionIndexError as exc:
                    raise ActionIndexError(f"table {i}: {exc}") from None
                stepped += 1
                if table.game.finished:
                    done[i] = True
                    self.hands += 1
                    table.deal()
        finally:
            if stepped:
                self._observe(stepped)
        return (*self._stacked(), rewards, done)

    def _stacked(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """Copies of the observations, masks and seats: the next step overwrites the batch's own
        arrays, and what a caller kept (a rollout buffer) must stay as it was returned."""
        return self.observations.copy(), self.masks.copy(), self.seats.copy()

    def _observe(self, tables: int) -> None:
        """Observe the first ``tables`` tables at once: the seat asked at each, its observation
        and its legal-action mask."""
        observed = self.tables[:tables]
        seats = [t.acting() for t in observed]
        legal = [t.game.legal_actions(s) for t, s in zip(observed, seats, strict=True)]
        for t in observed:
            t.tracker.update()
        self.seats[:tables] = seats
        self.encode([(t.tracker, s, bool(actions)) for t, s, actions in zip(observed, seats, legal, strict=True)],
                    self.observations[:tables])
        masks = self.masks[:tables]
        masks[...] = 0
        masks.reshape(-1)[[i * ACTION_COUNT + to_index(a) for i, actions in enumerate(legal) for a in actions]] = 1
