"""Tables and small caches for the state machine's hot path.

Everything here is a pure function of its arguments (or a constant), so sharing the results
between hands changes nothing but the time they take.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from operator import getitem

from chuanma.engine.actions import ChooseVoid, Chow, Discard, Exchange, Hu, Kong, Pass, Pong
from chuanma.tiles import NUM_KINDS, NUM_SUITED, SUIT_LETTERS, SUITS, Tile, tile_str

TILE_TEXT = [tile_str(t) for t in range(NUM_KINDS)]
"""``TILE_TEXT[t]`` is ``tile_str(t)``."""
DISCARD = [Discard(t) for t in range(NUM_KINDS)]
PONG = [Pong(t) for t in range(NUM_KINDS)]
KONG = [Kong(t) for t in range(NUM_KINDS)]
CHOW = {t: Chow(t) for t in range(NUM_SUITED) if t % 9 <= 6}
"""The chow starting at each suited tile of rank 1-7."""
VOID = {suit: ChooseVoid(suit) for suit in SUITS}
"""The 定缺 choice of each suit."""
HU = Hu()
PASS = Pass()
SUIT_OF = [SUIT_LETTERS[t // 9] for t in range(NUM_KINDS)]
RANK_TEXT = [str(t % 9 + 1) for t in range(NUM_KINDS)]


_RUNS = [[str(t % 9 + 1) * c for c in range(5)] for t in range(NUM_KINDS)]
_SUIT_RUNS = [(lo, _RUNS[lo : lo + 9], letter) for lo, letter in ((0, "m"), (9, "p"), (18, "s"), (27, "z"))]
"""Per suit: its first tile, each rank's text by count, its letter."""


def format_counts(counts: Sequence[int]) -> str:
    """``format_tiles`` of the tiles of a counts list (sorted), without listing them."""
    out = []
    for lo, runs, letter in _SUIT_RUNS:
        text = "".join(map(getitem, runs, counts[lo : lo + 9]))
        if text:
            out.append(text + letter)
    return "".join(out)


def format_sequence(tiles: Sequence[Tile]) -> str:
    """``format_tiles(tiles, sort=False)``: the tiles in their order, a suit letter after each run."""
    out = []
    suit = ""
    for t in tiles:
        if SUIT_OF[t] != suit:
            if suit:
                out.append(suit)
            suit = SUIT_OF[t]
        out.append(RANK_TEXT[t])
    if suit:
        out.append(suit)
    return "".join(out)


def format_river(tiles: Sequence[Tile]) -> str:
    """``format_sequence`` of a river (discards, a win pile), remembered for the last few thousand
    rivers: views ask for the same ones again and again."""
    return _river(tuple(tiles)) if tiles else ""


@lru_cache(maxsize=1 << 12)
def _river(tiles: tuple[Tile, ...]) -> str:
    return format_sequence(tiles)


EXCHANGE = {tiles: Exchange(tiles) for tiles in combinations_with_replacement(range(NUM_SUITED), 3)
            if tiles[0] // 9 == tiles[2] // 9}
"""Each 换三张 choice (three sorted tiles of one suit) as the one object the legal lists hold."""
