"""Lockstep: the compiled hand analysis (chuanma._core) against the Python implementation it
replaces, on random hands of every size 0-14 (27 and 34 kinds, walls rich in the 十三幺 kinds,
seven-pairs shapes, tiles held four times), with and without a void."""

from __future__ import annotations

import random

import numpy as np
import pytest

from chuanma import _core
from chuanma.analysis import batch, hand
from chuanma.analysis.incremental import HandEval
from chuanma.analysis.orphans import is_thirteen_orphans
from chuanma.errors import HandSizeError, TileCountError
from chuanma.tiles import SUITS
from conftest import ORPHAN_KINDS


def _hand(rng: random.Random, size: int, kinds: int) -> list[int]:
    shape = rng.randrange(4)
    counts = [0] * kinds
    if shape == 1:  # pairs and fours: seven-pairs shapes
        while sum(counts) + 2 <= size:
            t = rng.randrange(kinds)
            if counts[t] <= 2:
                counts[t] += 2
        if sum(counts) < size:
            counts[next(t for t in range(kinds) if counts[t] < 4)] += 1
        return counts
    wall = [t for t in range(kinds) for _ in range(4)]
    if shape == 2 and kinds == 34:
        others = [t for t in wall if t not in ORPHAN_KINDS]
        wall = [t for t in ORPHAN_KINDS for _ in range(4)] + rng.sample(others, 10)
    if shape == 3:  # few kinds: triplets and fours
        few = rng.sample(range(kinds), 5)
        wall = [t for t in few for _ in range(4)]
    for t in rng.sample(wall, min(size, len(wall))):
        counts[t] += 1
    return counts


def _void(rng: random.Random, kinds: int) -> tuple[int, str | None]:
    vi = rng.choice((-1, 0, 1, 2)) if kinds == 27 or rng.random() < 0.2 else -1
    return vi, (None if vi < 0 else SUITS[vi])


def _python(f: object, *args: object) -> object:
    try:
        return f(*args)  # type: ignore[operator]
    except HandSizeError:
        return _core.BAD_SIZE
    except TileCountError:
        return _core.BAD_COUNTS


@pytest.mark.parametrize("seed", range(4))
def test_single_hand_functions_agree(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(4000):
        kinds = rng.choice((27, 34))
        counts = _hand(rng, rng.randrange(15), kinds)
        if rng.random() < 0.02:  # refused: a count of 5, or 15 tiles of one suit
            counts[rng.randrange(kinds)] = 5 if rng.random() < 0.5 else counts[0]
            counts[:9] = [2] * 7 + [1, 0] if rng.random() < 0.5 else counts[:9]
        k = bytes(counts)
        vi, void = _void(rng, kinds)
        assert _core.is_win(k) == hand.is_win(k), counts
        assert _core.is_thirteen_orphans(k) == is_thirteen_orphans(counts)
        assert _core.shanten(k, vi) == _python(hand.shanten, k, void), (counts, void)
        assert _core.shanten_standard(k, vi) == _python(hand.shanten_standard, k, void)
        assert _core.shanten_seven_pairs(k, vi) == _python(hand.shanten_seven_pairs, k, void)
        assert _core.shanten_thirteen_orphans(k) == _python(hand.shanten_thirteen_orphans, k)
        native = _core.waits(k, vi, [])
        assert native == _python(hand.waits, k, (), void), (counts, void)


@pytest.mark.parametrize("seed", range(3))
def test_hand_evaluators_agree(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(150):
        kinds = rng.choice((27, 34))
        counts = _hand(rng, rng.choice((14, 11, 8, 5, 2)), kinds)
        vi, void = _void(rng, kinds)
        ours, theirs = _core.HandEval(bytes(counts), vi), HandEval(counts, void)
        assert ours.shanten() == theirs.shanten()
        for t in range(kinds):
            if not counts[t]:
                continue
            sh = theirs.without(t)
            assert ours.without(t) == sh
            assert list(ours.useful_tiles(t, sh)) == list(theirs.useful_tiles(counts, t, sh)), (counts, void, t)
            for u in range(kinds):
                if counts[u] - (u == t) < 4:
                    assert ours.swap(t, u) == theirs.swap(t, u)
        for u in range(kinds):
            if counts[u] < 4 and sum(counts) < 14:
                assert ours.with_(u) == theirs.with_(u)


def test_batches_agree() -> None:
    rng = random.Random(7)
    for kinds in (27, 34):
        hands = np.array([_hand(rng, rng.choice((1, 2, 4, 5, 7, 8, 10, 11, 13, 14)), kinds) for _ in range(3000)],
                         np.uint8)
        voids = np.array([rng.choice((-1, 0, 1, 2)) for _ in range(len(hands))], np.int8)
        out = np.empty(len(hands), np.int8)
        assert _core.shanten_batch(hands, voids, out) == -1
        assert np.array_equal(out, batch.shanten_batch(hands, voids))
        wins = np.empty(len(hands), np.bool_)
        _core.is_win_batch(hands, wins)
        assert np.array_equal(wins, batch.is_win_batch(hands))
