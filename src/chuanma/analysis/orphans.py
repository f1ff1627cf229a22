"""十三幺 (thirteen orphans), the special hand of 大众麻将: one each of the 1s and 9s of the three
suits and the seven honours, plus a second copy of any of them (14 concealed tiles, no melds).

It needs all seven honours, so it cannot occur with the 108 tiles of Sichuan mahjong; the
single-hand functions of :mod:`chuanma.analysis.hand` ask this module only about hands that hold
honours. Nothing here reads a table.
"""

from __future__ import annotations

from collections.abc import Sequence

from chuanma.tiles import NUM_KINDS, NUM_SUITED, Tile

ORPHANS: tuple[Tile, ...] = (0, 8, 9, 17, 18, 26, *range(NUM_SUITED, NUM_KINDS))
"""The thirteen tile kinds of the hand: 1m 9m 1p 9p 1s 9s and 1z–7z."""
SIZE = 14


def thirteen_orphans_distance(counts: Sequence[int]) -> int:
    """Tiles to add (to a 13- or 14-tile hand, swapping out the others) before it is 十三幺:
    13 minus the orphan kinds held, minus one more if any of them is held twice or more."""
    if len(counts) < NUM_KINDS:
        return 14
    kinds = 0
    pair = 0
    for t in ORPHANS:
        c = counts[t]
        if c:
            kinds += 1
            if c > 1:
                pair = 1
    return 14 - kinds - pair


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """True for a complete 十三幺 (14 concealed tiles)."""
    return sum(counts) == SIZE and thirteen_orphans_distance(counts) == 0


def thirteen_orphans_waits(counts: Sequence[int]) -> list[Tile]:
    """The tiles completing a ready 13-tile 十三幺 hand: all thirteen when it holds one of each
    (十三面), else the one kind it lacks; empty when it is not ready in this form."""
    if sum(counts) != SIZE - 1 or thirteen_orphans_distance(counts) != 1:
        return []
    missing = [t for t in ORPHANS if not counts[t]]
    return missing or list(ORPHANS)


def thirteen_orphans_pair(counts: Sequence[int]) -> Tile:
    """The kind a complete 十三幺 holds twice."""
    return next(t for t in ORPHANS if counts[t] == 2)
