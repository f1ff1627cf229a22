"""Hand analysis against the ``mahjong`` package on 100,000 random hands of the 136-tile set.

Shanten of each form (sets and a pair, seven pairs, 十三幺) and the win check must agree. The
one difference of rules: here four identical tiles are two pairs of a seven-pairs hand (RULES §3),
while ``mahjong`` (Japanese rules) wants seven distinct pairs. The two readings agree while no
tile is held three times or more (13 tiles of at most two copies span seven kinds); on other hands
the seven-pairs figure is compared with the brute-force reading instead, and a 14-tile hand of
pairs with four of a kind wins here and not there.
"""

from __future__ import annotations

import random

import pytest

from chuanma.analysis import (
    is_win,
    shanten,
    shanten_seven_pairs,
    shanten_standard,
    shanten_thirteen_orphans,
)
from chuanma.tiles import ALL_TILES, to_counts
from conftest import ORPHAN_KINDS

mahjong_shanten = pytest.importorskip("mahjong.shanten")
mahjong_agari = pytest.importorskip("mahjong.agari")

HANDS = 100_000
NEAR = 20_000


def _pairs_reference(counts: list[int]) -> int:
    """Seven-pairs shanten with four of a kind as two pairs: the seven cheapest pairs to complete."""
    costs: list[int] = []
    for c in counts:
        costs += [max(0, 2 - c), max(0, 4 - c) - max(0, 2 - c)]
    return sum(sorted(costs)[:7]) - 1


def _near_complete(rng: random.Random) -> list[int]:
    """A complete 14-tile hand with honours (sets and a pair, seven pairs or 十三幺), then up to
    two tiles swapped at random and maybe one removed: hands at shanten -1 to 2, 13 or 14 tiles."""
    while True:
        counts = [0] * 34
        form = rng.randrange(3)
        if form == 0:
            for t in ORPHAN_KINDS:
                counts[t] = 1
            counts[rng.choice(ORPHAN_KINDS)] += 1
        elif form == 1:
            for _ in range(7):
                counts[rng.randrange(34)] += 2
        else:
            counts[rng.randrange(34)] += 2
            for _ in range(4):
                t = rng.randrange(34)
                if t < 27 and t % 9 < 7 and rng.random() < 0.5:
                    for u in (t, t + 1, t + 2):
                        counts[u] += 1
                else:
                    counts[t] += 3
        for _ in range(rng.randrange(3)):
            out = rng.choice([t for t in range(34) if counts[t]])
            counts[out] -= 1
            counts[rng.randrange(34)] += 1
        if rng.random() < 0.5:
            counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
        if max(counts) <= 4:
            return counts


def _disagreements(hands: list[list[int]]) -> list[str]:
    """Every hand where chuanma and ``mahjong`` disagree, described."""
    sh = mahjong_shanten.Shanten()
    agari = mahjong_agari.Agari()
    bad = []
    for counts in hands:
        quad = max(counts) == 4
        regular = sh.calculate_shanten_for_regular_hand(counts)
        three = max(counts) >= 3
        pairs = _pairs_reference(counts) if three else sh.calculate_shanten_for_chiitoitsu_hand(counts)
        orphans = sh.calculate_shanten_for_kokushi_hand(counts)
        ours = (shanten_standard(counts), shanten_seven_pairs(counts), shanten_thirteen_orphans(counts))
        if ours != (regular, pairs, orphans) or shanten(counts) != min(ours):
            bad.append(f"{counts}: shanten {ours}, expected {(regular, pairs, orphans)}")
        if sum(counts) == 14:
            wins = agari.is_agari(counts) or (quad and all(c % 2 == 0 for c in counts))
            if is_win(counts) != wins:
                bad.append(f"{counts}: win {is_win(counts)}, expected {wins}")
    return bad


def test_random_136_tile_hands_agree_with_the_mahjong_package() -> None:
    rng = random.Random(13)
    wall = ALL_TILES.wall()
    hands = [to_counts(rng.sample(wall, 13 + i % 2)) for i in range(HANDS)]
    assert _disagreements(hands) == []


def test_near_complete_honour_hands_agree_with_the_mahjong_package() -> None:
    """Random hands almost never win; these are complete or a few tiles away, 十三幺 included."""
    rng = random.Random(136)
    hands = [_near_complete(rng) for _ in range(NEAR)]
    assert sum(is_win(h) for h in hands if sum(h) == 14) > NEAR // 20
    assert _disagreements(hands) == []
