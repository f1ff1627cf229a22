"""The tables in the flat forms the single-hand code indexes, bound once per process on first use.

Until :func:`load` runs, the data below are empty placeholders. The first analysis call of a
process calls :func:`load`, which reads the shipped tables and binds them here once, so the hot
paths read plain module globals with no check.
"""

from __future__ import annotations

from functools import cache

from chuanma.analysis import tables as tb
from chuanma.analysis.tables import MAX_TILES

COUNT_VALUES = bytes(range(5))
"""The bytes a count may be."""
SUIT = memoryview(b"").cast("q")
"""Packed value (see the ``F_*`` fields of :mod:`chuanma.analysis.tables`) of every suit vector, by base-5 code."""
HONOR = SUIT
"""The same for the seven honours."""
EMPTY = 0
"""Packed value of an empty suit."""
EMPTY_HONOR = 0
"""Packed value of no honours."""
J3 = b""
"""Class of three suits, by ``(class_m * N + class_p) * N + class_s``."""
DIST = b""
"""Tiles needed for n sets and a pair, by ``(three-suit class * NZ + honour class) * 5 + n``."""
N = 0
"""Number of suit classes."""
NZ = 0
"""Number of honour classes."""

_C = tb.F_CLASS
_F = tb.FIELD
_P, _O = tb.F_PAIRS, tb.F_ODD
_SETS = tb.MAX_SETS + 1


@cache
def load() -> None:
    """Bind the data of this module from the shipped tables (once; milliseconds)."""
    global SUIT, HONOR, EMPTY, EMPTY_HONOR, J3, DIST, N, NZ
    t = tb.tables()
    suit, honor = (st.packed.data.cast("B").cast("q") for st in (t.suit, t.honor))
    N, NZ = t.suit.class_dist.shape[0], t.honor.class_dist.shape[0]
    J3 = t.join3[t.join2].astype("u1").tobytes()
    DIST = t.final[t.join4].astype("u1").tobytes()
    SUIT, HONOR, EMPTY, EMPTY_HONOR = suit, honor, suit[0], honor[0]


def part_value(part: bytes, honor: bool) -> int | None:
    """Packed value of one part of a hand (nine suit counts, or seven or no honour counts).

    None when the part is not such counts, each 0–4, at most :data:`MAX_TILES` in all.
    """
    if honor and not part:
        return EMPTY_HONOR
    if len(part) != (7 if honor else 9) or part.translate(None, COUNT_VALUES) or sum(part) > MAX_TILES:
        return None
    code = 0
    for c in part:
        code = code * 5 + c
    return (HONOR if honor else SUIT)[code]


def standard_distance(a: int, b: int, c: int, z: int, n: int) -> int:
    """Tiles to add before a hand of packed parts ``a, b, c, z`` and ``n`` tiles holds n // 3 sets and a pair."""
    d: int = DIST[(J3[((a >> _C) * N + (b >> _C)) * N + (c >> _C)] * NZ + (z >> _C)) * _SETS + n // 3]
    return d


def shanten_of_parts(a: int, b: int, c: int, z: int, n: int) -> int:
    """Shanten from the packed parts (a void suit already emptied) and the hand size."""
    std = standard_distance(a, b, c, z, n)
    if n < 13:
        return std - 1
    s = a + b + c + z
    need = 7 - ((s >> _P) & _F)
    if need <= 0:
        return -1
    seven = need + max(0, need - ((s >> _O) & _F))
    return (std if std < seven else seven) - 1
