"""The compiled decompositions (chuanma._core, through chuanma.analysis) against the brute-force
reference of the tests, on a fixed-seed sample of complete and incomplete hands of 2, 5, 8, 11 and
14 tiles (27 and 34 kinds): sets spread over the tiles, sets crowded into a few kinds of one suit
(many readings), seven pairs with tiles held four times, 十三幺; and its refusals."""

from __future__ import annotations

import random

import pytest

from analysis_reference import Reading, reference_decompositions
from chuanma import _core
from chuanma.analysis import decompositions, is_win
from chuanma.errors import TileCountError
from chuanma.tiles import NUM_KINDS, parse_tiles, to_counts
from conftest import ORPHAN_KINDS


def _sets(rng: random.Random, kinds: int, sets: int, crowded: bool) -> list[int]:
    """A pair and ``sets`` sets, anywhere or (``crowded``) within four kinds of one suit."""
    while True:
        lo = 9 * rng.randrange(3) + rng.randrange(6)
        counts = [0] * kinds
        counts[lo + rng.randrange(4) if crowded else rng.randrange(kinds)] += 2
        for _ in range(sets):
            t = lo + rng.randrange(2) if crowded else rng.randrange(kinds)
            if rng.random() < 0.6 and t < 27 and t % 9 < 7:
                for u in (t, t + 1, t + 2):
                    counts[u] += 1
            else:
                counts[t + rng.randrange(2) if crowded else t] += 3
        if max(counts) <= 4:
            return counts


def _hand(rng: random.Random) -> list[int]:
    kinds = rng.choice((27, NUM_KINDS))
    shape = rng.randrange(5)
    if shape < 2:
        return _sets(rng, kinds, rng.randrange(5), crowded=shape == 1)
    counts = [0] * kinds
    if shape == 2:  # seven pairs, tiles held four times included
        while sum(counts) < 14:
            t = rng.randrange(kinds)
            if counts[t] <= 2:
                counts[t] += 2
    elif shape == 3 and kinds == NUM_KINDS:
        for t in ORPHAN_KINDS:
            counts[t] = 1
        counts[rng.choice(ORPHAN_KINDS)] += 1
    else:  # mostly incomplete: random tiles
        for t in rng.sample([t for t in range(kinds) for _ in range(4)], rng.choice((2, 5, 8, 11, 14))):
            counts[t] += 1
    return counts


def _readings(counts: list[int] | bytes) -> list[Reading]:
    return [(d.form, d.pair, tuple((s.kind, s.tile) for s in d.sets), d.pairs) for d in decompositions(counts)]


@pytest.mark.parametrize("seed", range(3))
def test_the_core_agrees_with_the_brute_force_reference(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        counts = _hand(rng)
        expected = reference_decompositions(counts)
        assert _readings(counts) == _readings(bytes(counts)) == expected, counts
        assert bool(expected) == is_win(counts)


def test_the_sample_has_hands_of_many_readings() -> None:
    """The sample above reaches what it is meant to: every form, and standard hands of 3 or more readings."""
    rng = random.Random(0)
    found = [reference_decompositions(_hand(rng)) for _ in range(300)]
    assert {r[0] for f in found for r in f} == {"standard", "seven_pairs", "thirteen_orphans"}
    assert sum(len(f) >= 3 for f in found) >= 10


def test_refusals_name_the_bad_input() -> None:
    with pytest.raises(TileCountError, match="counts must be 0-4; tile 1m has 5"):
        decompositions([5] + [0] * 26)
    with pytest.raises(TileCountError, match="counts must list 27 or 34 tiles, got 3"):
        decompositions([0, 0, 2])
    too_many = [3] * 5 + [2] + [0] * 28
    with pytest.raises(TileCountError, match="more than 14 tiles of one suit"):
        decompositions(too_many)
    # as for the win check: bytes that are not counts read as nothing
    assert decompositions(bytes(too_many)) == [] and not is_win(bytes(too_many))
    assert decompositions(bytes([5] + [0] * 26)) == [] == decompositions(b"\x02")


def test_the_facade_calls_the_core() -> None:
    """One implementation: the readings are the compiled module's."""
    counts = bytes(to_counts(parse_tiles("11122233344455m")))
    assert len(_core.decompositions(counts)) == len(decompositions(counts)) == 4
