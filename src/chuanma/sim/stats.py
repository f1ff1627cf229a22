"""Per-bot statistics of many hands, mergeable and exact (integer sums only)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from chuanma.sim.play import HandResult

Z95 = 1.959963984540054
FanLabel = Callable[[int], int]
"""How a fan total is shown to players: ``RuleSet.fan_label`` (counted fan + ``fan_label_offset``)."""


def _counted(total: int) -> int:
    return total


def mean_ci(total: float, squares: float, n: int) -> tuple[float, float, float]:
    """Mean and 95% normal confidence interval from a sum and a sum of squares."""
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = total / n
    if n < 2:
        return mean, mean, mean
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


@dataclass(slots=True)
class BotStats:
    """Totals over every seat-hand a bot played."""

    hands: int = 0
    score: int = 0
    score_sq: int = 0
    won_hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    fans: dict[int, int] = field(default_factory=dict)
    draws: int = 0
    """Seat-hands still in play at an exhaustive draw."""
    ready_at_draw: int = 0
    flower_pigs: int = 0

    def merge(self, other: BotStats) -> None:
        self.hands += other.hands
        self.score += other.score
        self.score_sq += other.score_sq
        self.won_hands += other.won_hands
        self.wins += other.wins
        self.deal_ins += other.deal_ins
        for k, v in other.fans.items():
            self.fans[k] = self.fans.get(k, 0) + v
        self.draws += other.draws
        self.ready_at_draw += other.ready_at_draw
        self.flower_pigs += other.flower_pigs

    def summary(self, fan_label: FanLabel = _counted) -> dict[str, Any]:
        """The bot's rates and means; fans are shown through ``fan_label`` (``RuleSet.fan_label``)."""
        n = self.hands or 1
        mean, lo, hi = mean_ci(self.score, self.score_sq, self.hands)
        nf = sum(self.fans.values())
        return {
            "hands": self.hands,
            "win_rate": self.won_hands / n,
            "wins_per_hand": self.wins / n,
            "deal_in_rate": self.deal_ins / n,
            "mean_fan": (sum(fan_label(k) * v for k, v in self.fans.items()) / nf) if nf else None,
            "fan_distribution": {str(fan_label(k)): self.fans[k] for k in sorted(self.fans)},
            "mean_score": mean,
            "score_ci95": [lo, hi],
            "ready_at_draw_rate": (self.ready_at_draw / self.draws) if self.draws else None,
            "flower_pig_rate": self.flower_pigs / n,
        }


class Tally:
    """Statistics by bot name."""

    def __init__(self) -> None:
        self.bots: dict[str, BotStats] = {}
        self.hands = 0
        self.exhausted = 0

    def add(self, names: Iterable[str], result: HandResult) -> None:
        self.hands += 1
        self.exhausted += result.exhausted
        for name, r in zip(names, result.seats, strict=True):
            b = self.bots.setdefault(name, BotStats())
            b.hands += 1
            b.score += r.delta
            b.score_sq += r.delta * r.delta
            b.won_hands += r.wins > 0
            b.wins += r.wins
            b.deal_ins += r.deal_ins
            for f in r.fans:
                b.fans[f] = b.fans.get(f, 0) + 1
            if result.exhausted and (r.ready_at_draw or r.flower_pig or r.wins == 0):
                b.draws += 1
                b.ready_at_draw += r.ready_at_draw
            b.flower_pigs += r.flower_pig

    def merge(self, other: Tally) -> None:
        self.hands += other.hands
        self.exhausted += other.exhausted
        for name, b in other.bots.items():
            self.bots.setdefault(name, BotStats()).merge(b)

    def summary(self, fan_label: FanLabel = _counted) -> dict[str, Any]:
        """Every bot's summary by name; fans are shown through ``fan_label`` (``RuleSet.fan_label``)."""
        return {
            "hands": self.hands,
            "exhausted_rate": self.exhausted / self.hands if self.hands else 0.0,
            "bots": {name: b.summary(fan_label) for name, b in sorted(self.bots.items())},
        }
