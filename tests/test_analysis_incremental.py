"""Incremental shanten (HandEval) gives exactly what shanten gives, on every one-tile change, and
its useful tiles are exactly the tiles whose draw lowers the shanten."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from chuanma.analysis import shanten, shanten_standard
from chuanma.analysis.incremental import HandEval, useful_tiles
from chuanma.analysis.orphans import ORPHANS
from chuanma.tiles import SUITS, Tile


def _hand(rng: random.Random, size: int, kinds: int = 27, orphans: bool = False) -> list[int]:
    """A random hand of ``size`` tiles of the first ``kinds`` kinds; with ``orphans``, all but
    two of them 1s, 9s and honours (near 十三幺)."""
    wall = [t for t in range(kinds) for _ in range(4)]
    counts = [0] * kinds
    if orphans:
        near = rng.sample([t for t in ORPHANS for _ in range(4)], max(0, size - 2))
        for t in near:
            counts[t] += 1
            wall.remove(t)
        size -= len(near)
    for t in rng.sample(wall, size):
        counts[t] += 1
    return counts


@pytest.mark.parametrize(("kinds", "orphans"), [(27, False), (34, False), (34, True)])
@pytest.mark.parametrize("seed", range(6))
def test_hand_eval_matches_shanten(seed: int, kinds: int, orphans: bool) -> None:
    """Sichuan hands (27 kinds, a void suit or none) and 大众麻将 hands (34 kinds, honours
    included, no void; random, and near 十三幺)."""
    rng = random.Random(seed)
    decided = 0  # hands whose shanten is a special form's (seven pairs, 十三幺)
    for _ in range(60):
        size = 14 if orphans else rng.choice((14, 11, 8, 5, 2))
        hand = _hand(rng, size, kinds, orphans)
        void = rng.choice((None, *SUITS)) if kinds == 27 else None
        ev = HandEval(hand, void)
        assert ev.shanten() == shanten(bytes(hand), void)
        decided += shanten(bytes(hand), void) < shanten_standard(bytes(hand), void)
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
                    if s2 < sh and (void is None or u // 9 == 3 or SUITS[u // 9] != void):
                        expected += unseen[u]
                        useful.append(u)
            assert useful_tiles(hand, void) == tuple(useful)  # the hand without t, 3n+1
            hand[t] += 1
            assert ev.useful(hand, t, sh, unseen) == expected
        small = _hand(rng, size - 1, kinds, orphans)
        ev = HandEval(small, void)
        for u in range(kinds):
            if small[u] < 4:
                small[u] += 1
                assert ev.with_(u) == shanten(bytes(small), void)
                small[u] -= 1
    if orphans:
        assert decided > 30


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
        play_hand(RuleSet.from_preset("xuezhan"), deal_for(2, i), [Checked(bot_seed(2, i, s)) for s in range(4)])
    assert checked > 50
