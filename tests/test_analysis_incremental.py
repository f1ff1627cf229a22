"""Incremental shanten (HandEval) gives exactly what shanten gives, on every one-tile change, and
its useful tiles are exactly the tiles whose draw lowers the shanten."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from chuanma.analysis import shanten
from chuanma.analysis.incremental import HandEval, useful_tiles
from chuanma.errors import HandSizeError, TileCountError
from chuanma.tiles import NUM_SUITED, SICHUAN_TILES, SUITS, Tile, parse_tiles, to_counts
from conftest import ORPHAN_KINDS


def _hand(rng: random.Random, size: int, kinds: int = 27) -> list[int]:
    """A random hand of 27 kinds (Sichuan) or 34 (大众麻将: half of them drawn from a wall rich in
    the 十三幺 kinds, so that hands near 十三幺 come up)."""
    wall = [t for t in range(kinds) for _ in range(4)]
    if kinds == 34 and rng.random() < 0.5:
        others = [t for t in wall if t not in ORPHAN_KINDS]
        wall = [t for t in ORPHAN_KINDS for _ in range(4)] + rng.sample(others, 12)
    counts = [0] * kinds
    for t in rng.sample(wall, size):
        counts[t] += 1
    return counts


@pytest.mark.parametrize("kinds", [27, 34], ids=["108 tiles", "136 tiles"])
@pytest.mark.parametrize("seed", range(6))
def test_hand_eval_matches_shanten(seed: int, kinds: int) -> None:
    """Every one-tile change, and the useful tiles; with honours no void (大众麻将 has none)."""
    rng = random.Random(seed)
    for _ in range(60):
        size = rng.choice((14, 11, 8, 5, 2) if kinds == 27 else (14, 14, 14, 11, 5))
        hand = _hand(rng, size, kinds)
        void = rng.choice((None, *SUITS)) if kinds == 27 else None
        ev = HandEval(hand, void)
        assert ev.shanten() == shanten(bytes(hand), void)
        unseen = [rng.randrange(5) for _ in range(kinds)]
        for t in range(kinds):
            if not hand[t]:
                continue
            hand[t] -= 1
            sh = shanten(bytes(hand), void)
            assert ev.without(t) == sh
            expected = 0
            useful: list[Tile] = []
            for u in range(kinds):
                if hand[u] < 4:
                    hand[u] += 1
                    s2 = shanten(bytes(hand), void)
                    assert ev.swap(t, u) == s2
                    hand[u] -= 1
                    if s2 < sh and (void is None or SUITS[u // 9] != void):
                        expected += unseen[u]
                        useful.append(u)
            assert useful_tiles(hand, void) == tuple(useful)  # the hand without t, 3n+1
            hand[t] += 1
            assert ev.useful(t, sh, unseen) == expected
        small = _hand(rng, size - 1, kinds)
        ev = HandEval(small, void)
        for u in range(kinds):
            if small[u] < 4:
                small[u] += 1
                assert ev.with_(u) == shanten(bytes(small), void)
                small[u] -= 1


def _useful_by_brute_force(hand: list[int], void: str | None) -> tuple[Tile, ...]:
    """The tiles whose draw lowers the shanten of the 3n+1 ``hand``, by trying every one: every
    suited tile, and the honours when the hand holds one (34 counts with none may be a Sichuan
    hand's, which draws no honour)."""
    sh = shanten(bytes(hand), void)
    out = []
    for u in range(len(hand) if any(hand[NUM_SUITED:]) else NUM_SUITED):
        if hand[u] < 4 and (void is None or SUITS[u // 9] != void):
            hand[u] += 1
            if shanten(bytes(hand), void) < sh:
                out.append(u)
            hand[u] -= 1
    return tuple(out)


@pytest.mark.parametrize("kinds", [27, 34], ids=["108 tiles", "136 tiles"])
def test_useful_tiles_of_hands_holding_a_tile_four_times(kinds: int) -> None:
    """A tile held four times is a set and a copy nothing can pair: a tile far from every held
    tile can then be useful (444m 6666s: 1m drawn, the fourth 6s discarded, waits on 1m); in 34
    counts holding no honour (a Sichuan hand's, as the views give them) no honour is."""
    sichuan = to_counts(parse_tiles("444m6666s"))
    assert useful_tiles(sichuan, None) == useful_tiles(sichuan[:27], None) == _useful_by_brute_force(sichuan, None)
    assert 0 in useful_tiles(sichuan, None) and max(useful_tiles(sichuan, None)) < NUM_SUITED  # 1m, no honour
    dazhong = to_counts(parse_tiles("44m6666s1z"))  # holding an honour: the other honours may be drawn
    assert useful_tiles(dazhong, None) == _useful_by_brute_force(dazhong, None)
    rng = random.Random(kinds)
    for _ in range(300):
        size = rng.choice((13, 10, 7, 4))
        quad = rng.randrange(kinds)
        hand = [0] * kinds
        hand[quad] = 4
        while sum(hand) < size:
            t = rng.randrange(kinds)
            if hand[t] < 4:
                hand[t] += 1
        void = rng.choice((None, *[v for v in SUITS if SUITS.index(v) != quad // 9])) if kinds == 27 else None
        assert useful_tiles(hand, void) == _useful_by_brute_force(hand, void), (hand, void)


def test_greedy_pick_is_the_first_of_its_ranking() -> None:
    from chuanma.bots.greedy import GreedyBot
    from chuanma.engine.views import SeatView
    from chuanma.rules import RuleSet
    from chuanma.sim.play import bot_seed, deal_for, play_hand

    checked = 0

    class Checked(GreedyBot):
        def pick_discard(self, view: SeatView, discards: Sequence[Tile]) -> Tile:
            nonlocal checked
            t = super().pick_discard(view, discards)
            assert t == self.rank_discards(view, discards)[0][3]
            checked += 1
            return t

    for i in range(4):
        play_hand(RuleSet.from_preset("xuezhan"), deal_for(2, i, SICHUAN_TILES),
                  [Checked(bot_seed(2, i, s)) for s in range(4)])
    assert checked > 50


@pytest.mark.parametrize("counts", [[5] + [0] * 26, [1] * 26, [1] * 13 + [0] * 14 + [-1], [0] * 27])
def test_useful_tiles_of_bad_counts_are_refused_by_name(counts: list[int]) -> None:
    with pytest.raises(TileCountError if sum(counts) != 0 else HandSizeError):
        useful_tiles(counts, None)
