"""Tables and small caches for the state machine's hot path.

Everything here is a pure function of its arguments (or a constant), so sharing the results
between hands changes nothing but the time they take.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from operator import getitem
from typing import Any

from chuanma.engine.actions import Action, ChooseVoid, Chow, Discard, Exchange, Hu, Kong, Pass, Pong
from chuanma.rules import RuleSet
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


def exchange_options(counts: Sequence[int]) -> list[Action]:
    """Every 换三张 choice of a hand: three tiles of one suit it holds (the three may be equal)."""
    out: list[Action] = []
    for lo in (0, 9, 18):
        # only whether a tile is held once, twice or three times or more matters
        out.extend(_suit_exchanges(lo, bytes(counts[lo : lo + 9]).translate(_UP_TO_THREE)))
    return out


_UP_TO_THREE = bytes([0, 1, 2, 3, 3]) + bytes(251)  # counts are 0-4
EXCHANGE = {tiles: Exchange(tiles) for tiles in combinations_with_replacement(range(NUM_SUITED), 3)
            if tiles[0] // 9 == tiles[2] // 9}
"""Each 换三张 choice (three sorted tiles of one suit) as the one object the legal lists hold."""


@lru_cache(maxsize=1 << 14)
def _suit_exchanges(lo: int, counts: bytes) -> tuple[Exchange, ...]:
    pool = [lo + i for i in range(9) if counts[i]]
    return tuple([
        EXCHANGE[a, b, c] for a, b, c in combinations_with_replacement(pool, 3)
        if (a != b or counts[a - lo] >= 2 + (b == c)) and (b != c or counts[b - lo] >= 2)
    ])


_RULES_JSON: dict[int, tuple[RuleSet, str | dict[str, Any]]] = {}


def rules_json(rules: RuleSet) -> str | dict[str, Any]:
    """``rules.to_json()``, remembered for the last few rule sets (a fresh copy each time)."""
    hit = _RULES_JSON.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_RULES_JSON) >= 64:
            _RULES_JSON.clear()
        hit = _RULES_JSON[id(rules)] = (rules, rules.to_json())
    spec = hit[1]
    return spec if isinstance(spec, str) else copy.deepcopy(spec)
