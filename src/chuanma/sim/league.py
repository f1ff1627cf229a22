"""The league table of duplicate play: mean score per hand with 95% intervals over walls, and
paired differences between bots, wall by wall (the walls' luck cancels)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from chuanma.sim.stats import Z95

WallScores = list[dict[str, tuple[int, int]]]

MIN_WALLS = 30
"""Fewer walls than this are too few for the normal 95% interval: no difference is called
significant from them."""


def _mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, m, m
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    h = Z95 * math.sqrt(var / n)
    return m, m - h, m + h


def league_table(walls: WallScores, bots: Sequence[str]) -> dict[str, Any]:
    """Rank ``bots`` by mean score per hand; compare each pair (a difference is significant when its
    95% interval excludes 0 and there are at least :data:`MIN_WALLS` walls)."""
    per_bot: dict[str, list[float]] = {b: [] for b in bots}
    for w in walls:
        for b in bots:
            tot, n = w[b]
            per_bot[b].append(tot / n)
    stats = sorted(((b, *_mean_ci(per_bot[b])) for b in bots), key=lambda r: -r[1])
    rows = [{"bot": b, "mean_score": m, "ci95": [lo, hi]} for b, m, lo, hi in stats]
    pairs = []
    enough = len(walls) >= MIN_WALLS
    for i in range(len(stats)):
        for j in range(i + 1, len(stats)):
            a, b = stats[i][0], stats[j][0]
            diffs = [x - y for x, y in zip(per_bot[a], per_bot[b], strict=True)]
            m, lo, hi = _mean_ci(diffs)
            pairs.append({"better": a, "worse": b, "difference": m, "ci95": [lo, hi],
                          "significant": enough and (lo > 0 or hi < 0)})
    return {"walls": len(walls), "hands": 4 * len(walls), "enough_walls": enough, "ranking": rows,
            "pairs": pairs}
