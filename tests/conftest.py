"""Shared test helpers and Hypothesis strategies."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from chuanma.tiles import full_wall, to_counts

pytest_plugins = ["ci_skips"]  # where CI is set, a skipped test fails

settings.register_profile(
    "default", max_examples=int(os.environ.get("CHUANMA_EXAMPLES", "300")), deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large],
)
settings.load_profile("default")

WALL = full_wall()


@st.composite
def hands(draw: st.DrawFn, sizes: tuple[int, ...] = (13, 14)) -> list[int]:
    """Counts (34) of a hand of one of ``sizes`` tiles drawn from the 108-tile set."""
    size = draw(st.sampled_from(sizes))
    rng = draw(st.randoms(use_true_random=False))
    return to_counts(rng.sample(WALL, size))


@st.composite
def winning_hands(draw: st.DrawFn) -> list[int]:
    """Counts of a complete 14-tile hand: four random sets and a pair (or seven pairs)."""
    rng = draw(st.randoms(use_true_random=False))
    seven = draw(st.booleans())
    while True:
        counts = [0] * 34
        if seven:
            for _ in range(7):
                counts[rng.randrange(27)] += 2
        else:
            counts[rng.randrange(27)] += 2
            for _ in range(4):
                t = rng.randrange(27)
                if rng.random() < 0.5 and t % 9 < 7:
                    counts[t] += 1
                    counts[t + 1] += 1
                    counts[t + 2] += 1
                else:
                    counts[t] += 3
        if max(counts) <= 4:
            return counts
