"""Shared test helpers and Hypothesis strategies."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from chuanma.tiles import ALL_TILES, SICHUAN_TILES, to_counts

# ci_skips: where CI is set, a skipped test fails; browser_fixtures: the browser tests' Chromium;
# file_order: the longest test files first
pytest_plugins = ["ci_skips", "browser_fixtures", "file_order"]
pytest.register_assert_rewrite("ci_skips")  # imported here too, before pytest loads it as a plugin
from ci_skips import in_ci  # noqa: E402

# Three Hypothesis profiles: "default" (random examples, CHUANMA_EXAMPLES of them), "ci" (half as many,
# the same on every run: derandomized; loaded where CI is set) and "explore" (a long random search
# for a developer, EXPLORE_FACTOR times as many examples). HYPOTHESIS_PROFILE names one explicitly.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if in_ci() else "default")
EXPLORE_FACTOR = 20
CI_SHARE = 2
"""The ci profile runs every test's examples divided by this (the same ones on every run), so that
a CI run keeps within its time."""
if PROFILE not in ("default", "ci", "explore"):
    raise pytest.UsageError(f"HYPOTHESIS_PROFILE={PROFILE!r}: choose default, ci or explore")
DEFAULT_EXAMPLES = int(os.environ.get("CHUANMA_EXAMPLES", "300"))
settings.register_profile(  # on Hypothesis's own default, not the CI profile it may have loaded
    "default", settings.get_profile("default"), max_examples=DEFAULT_EXAMPLES, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large],
)
settings.register_profile("ci", settings.get_profile("default"), max_examples=DEFAULT_EXAMPLES // CI_SHARE,
                          derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", settings.get_profile("default"), max_examples=DEFAULT_EXAMPLES * EXPLORE_FACTOR)
settings.load_profile(PROFILE)


def examples(count: int) -> int:
    """A test's own number of examples: ``count``; EXPLORE_FACTOR times it in the explore profile,
    a CI_SHARE of it in the ci profile."""
    return count * EXPLORE_FACTOR if PROFILE == "explore" else count // CI_SHARE if PROFILE == "ci" else count


WALL = SICHUAN_TILES.wall()
WALL_136 = ALL_TILES.wall()
ORPHAN_KINDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@st.composite
def hands(draw: st.DrawFn, sizes: tuple[int, ...] = (13, 14), honours: bool = False) -> list[int]:
    """Counts (34) of a hand of one of ``sizes`` tiles drawn from the 108-tile set (or the 136)."""
    size = draw(st.sampled_from(sizes))
    rng = draw(st.randoms(use_true_random=False))
    return to_counts(rng.sample(WALL_136 if honours else WALL, size))


@st.composite
def winning_hands(draw: st.DrawFn, honours: bool = False) -> list[int]:
    """Counts of a complete 14-tile hand: four random sets and a pair (or seven pairs); with
    ``honours`` the sets and pairs may be of honours (triplets and pairs only), or 十三幺."""
    rng = draw(st.randoms(use_true_random=False))
    form = draw(st.sampled_from(("standard", "seven", "orphans") if honours else ("standard", "seven")))
    kinds = 34 if honours else 27
    if form == "orphans":
        counts = [0] * 34
        for t in ORPHAN_KINDS:
            counts[t] = 1
        counts[rng.choice(ORPHAN_KINDS)] += 1
        return counts
    seven = form == "seven"
    while True:
        counts = [0] * 34
        if seven:
            for _ in range(7):
                counts[rng.randrange(kinds)] += 2
        else:
            counts[rng.randrange(kinds)] += 2
            for _ in range(4):
                t = rng.randrange(kinds)
                if rng.random() < 0.5 and t < 27 and t % 9 < 7:
                    counts[t] += 1
                    counts[t + 1] += 1
                    counts[t + 2] += 1
                else:
                    counts[t] += 3
        if max(counts) <= 4:
            return counts
