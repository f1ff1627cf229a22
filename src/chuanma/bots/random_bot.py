"""``random``: a uniformly random legal decision, every time."""

from __future__ import annotations

from collections.abc import Sequence

from chuanma.bots.base import SeededBot
from chuanma.engine import Action, SeatView


class RandomBot(SeededBot):
    """Uniform over the legal decisions (exchange, void, discards, claims, wins alike)."""

    name = "random"
    needs_view = False

    def choose(self, view: SeatView | None, legal: Sequence[Action]) -> Action:
        # the same draw as legal[rng.randrange(len(legal))], with less argument checking
        return self.rng.choice(legal)
