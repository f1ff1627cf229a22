"""The tables in the flat forms the single-hand functions index, bound once per process on first use.

Until :func:`load` runs, the data below are empty placeholders. The first analysis call of a
process calls :func:`load`, which reads the shipped file (without NumPy) and binds them here once,
so the hot paths read plain module globals with no check.

The file stores the packed value (see :mod:`chuanma.analysis.packing`) only of the suit vectors a
hand can hold (at most :data:`MAX_TILES` tiles), in the order of their base-5 codes (rank 1 the
most significant digit). :func:`part_value` finds a vector's place in that list with two
dictionary look-ups, one of the counts of the high ranks and one of the last four: no arithmetic
over the digits, so the first look-up of a shape costs about what a remembered one does. The file
also lists the vectors a winning hand can hold, with their win fields (:func:`win_parts`).
"""

from __future__ import annotations

from functools import cache
from itertools import accumulate, product

from chuanma.analysis.datafile import shipped_arrays
from chuanma.analysis.packing import F_CLASS, F_ODD, F_PAIRS, FIELD, MAX_SETS, MAX_TILES

COUNT_VALUES = bytes(range(5))
"""The bytes a count may be."""
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

_C, _F, _P, _O = F_CLASS, FIELD, F_PAIRS, F_ODD
_SETS = MAX_SETS + 1
_LOW = 5**4
"""Codes of the last four ranks."""
_VALUES = {9: memoryview(b"").cast("q"), 7: memoryview(b"").cast("q")}
"""By kinds (9 a suit, 7 the honours): the stored packed values."""
_HIGH: dict[int, dict[bytes, tuple[int, list[int]]]] = {9: {}, 7: {}}
"""By kinds, by the counts of the ranks but the last four (at most :data:`MAX_TILES` tiles): the
place of the first stored vector starting so, and the row of ``below`` for the tiles left."""
_LOW_CODE: dict[bytes, int] = {}
"""The counts of the last four ranks → their base-5 code."""


def _places() -> None:
    """Fill ``_LOW_CODE`` and ``_HIGH`` (a few thousand entries)."""
    lows = [bytes(k) for k in product(range(5), repeat=4)]  # in code order
    _LOW_CODE.update((k, low) for low, k in enumerate(lows))
    sizes = [sum(k) for k in lows]
    # below[s][low]: how many codes of the last four ranks below ``low`` have at most s tiles
    below = [list(accumulate((n <= s for n in sizes), initial=0)) for s in range(MAX_TILES + 1)]
    for kinds, high in _HIGH.items():
        place = 0
        for k in product(range(5), repeat=kinds - 4):
            size = sum(k)
            if size <= MAX_TILES:
                row = below[MAX_TILES - size]
                high[bytes(k)] = (place, row)
                place += row[-1]  # the codes of the last four ranks that fit


@cache
def load() -> None:
    """Bind the data of this module from the shipped tables (once; milliseconds, without NumPy)."""
    global EMPTY, EMPTY_HONOR, J3, DIST, N, NZ
    arrays = shipped_arrays()
    _VALUES[9], _VALUES[7] = arrays["suit_packed"][0], arrays["honor_packed"][0]
    n, nz = arrays["suit_class_dist"][1][0], arrays["honor_class_dist"][1][0]
    join3, (n2, _) = arrays["join3"]
    final, (n4, _) = arrays["final"]
    # J3 = join3[join2] and DIST = final[join4], flattened to bytes
    rows3 = [bytes(join3[i * n : (i + 1) * n].tolist()) for i in range(n2)]
    rows4 = [bytes(final[i * _SETS : (i + 1) * _SETS].tolist()) for i in range(n4)]
    J3 = b"".join([rows3[j] for j in arrays["join2"][0].tolist()])
    DIST = b"".join([rows4[j] for j in arrays["join4"][0].tolist()])
    _places()
    EMPTY, EMPTY_HONOR, N, NZ = _VALUES[9][0], _VALUES[7][0], n, nz


def win_parts(honor: bool) -> dict[bytes, int]:
    """Each part a winning hand can hold (nine suit counts, or seven honour counts, as bytes:
    complete, or all even for seven pairs) → the complete, even and size fields of its packed
    value, read from the shipped file (a new dictionary each call: the win check keeps one). No
    other part is in a winning hand."""
    kinds, name = (7, "honor") if honor else (9, "suit")
    arrays = shipped_arrays()
    shapes = arrays[f"{name}_win_shapes"][0].tobytes()
    keys = [shapes[i : i + kinds] for i in range(0, len(shapes), kinds)]
    return dict(zip(keys, arrays[f"{name}_win_fields"][0], strict=True))


def part_value(part: bytes, honor: bool) -> int | None:
    """Packed value of one part of a hand (nine suit counts, or seven or no honour counts).

    None when the part is not such counts, each 0–4, at most :data:`MAX_TILES` in all.
    """
    if honor and not part:
        return EMPTY_HONOR
    kinds = 7 if honor else 9
    if len(part) != kinds or sum(part) > MAX_TILES:
        return None
    try:
        place, below = _HIGH[kinds][part[:-4]]
        return _VALUES[kinds][place + below[_LOW_CODE[part[-4:]]]]
    except KeyError:  # a count above 4
        return None


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
