"""Single-hand analysis: win check, waits and shanten (the compiled core, :mod:`chuanma._core`).

Every function takes *counts*: the copies held of each of the 34 (or 27) tile kinds
(``chuanma.tiles.to_counts``), as a sequence of ints or, fastest, as ``bytes``
(:func:`pack_counts`). Only concealed tiles are counted; declared melds are implied by the hand
size (3n+1 or 3n+2 concealed tiles need n sets and a pair).

Counts must be 0–4 each, at most 14 of one suit: other values raise :class:`TileCountError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from chuanma import _core
from chuanma.errors import HandSizeError, TileCountError
from chuanma.melds import Meld
from chuanma.tiles import SUITS, Tile, format_tiles

Counts = bytes | Sequence[int]

MAX_TILES = 14
"""The most concealed tiles a hand holds."""
_VOIDS: dict[str | None, int] = {None: -1, **{s: i for i, s in enumerate(SUITS)}}
_BAD_VOID = -2


def pack_counts(counts: Sequence[int]) -> bytes:
    """Counts as ``bytes``, checked: the fastest input of this module's functions.

    ``bytes`` passed to the functions are taken as made by this function and not re-checked.
    """
    try:
        packed = bytes(counts)
    except (ValueError, TypeError):
        raise TileCountError(_bad_counts(counts)) from None
    if not _core.counts_ok(packed):
        raise TileCountError(_bad_counts(counts))
    return packed


def _bad_counts(counts: Counts) -> str:
    if len(counts) not in (27, 34):
        return f"counts must list 27 or 34 tiles, got {len(counts)}"
    bad = [i for i, c in enumerate(counts) if not 0 <= c <= 4]
    if bad:
        return f"counts must be 0-4; tile {format_tiles([bad[0]])} has {counts[bad[0]]}"
    return f"hand has more than {MAX_TILES} tiles of one suit or of the honours"


def as_packed(counts: Counts) -> bytes:
    """``bytes`` as given (taken as made by :func:`pack_counts`), other counts through it."""
    return counts if type(counts) is bytes else pack_counts(counts)


def _void_index(void: str | None) -> int:
    return _VOIDS.get(void, _BAD_VOID) if void is None or type(void) is str else _BAD_VOID


def _refused(code: int, counts: Counts, void: str | None, sizes: tuple[int, ...], what: str) -> NoReturn:
    """Raise the error that the core's refusal ``code`` stands for."""
    if code == _core.BAD_COUNTS:
        raise TileCountError(_bad_counts(counts))
    if code == _core.BAD_SIZE:
        listed = ", ".join(str(s) for s in range(1, MAX_TILES + 1) if s % 3 in sizes) if sizes else "13 or 14"
        raise HandSizeError(f"{what} needs {listed} concealed tiles, got {sum(counts)}")
    raise ValueError(f"void must be one of m, p, s, got {void!r}")


def is_win(counts: Counts) -> bool:
    """True when the concealed tiles are n sets and a pair, or seven pairs (14 tiles), or 十三幺.

    Four identical tiles count as two pairs of a seven-pairs hand. ``bytes`` that are not such
    counts are no win.
    """
    return _core.is_win(as_packed(counts))


def shanten(counts: Counts, void: str | None = None) -> int:
    """Tiles away from ready: -1 complete, 0 ready, 1 one tile from ready, …

    The best of the sets-and-pair form, seven pairs and 十三幺 (these two: 13–14 tiles, no
    melds). With ``void`` (``m``, ``p`` or ``s``) the tiles of that suit are useless: each must be
    replaced (so 十三幺, which needs that suit's 1 and 9, is out of reach).
    """
    k = as_packed(counts)
    sh = _core.shanten(k, _void_index(void))
    return sh if sh >= -1 else _refused(sh, counts, void, (1, 2), "shanten")


def shanten_standard(counts: Counts, void: str | None = None) -> int:
    """Shanten of the sets-and-pair form only."""
    k = as_packed(counts)
    sh = _core.shanten_standard(k, _void_index(void))
    return sh if sh >= -1 else _refused(sh, counts, void, (1, 2), "shanten")


def shanten_seven_pairs(counts: Counts, void: str | None = None) -> int:
    """Shanten of the seven-pairs form (13 or 14 concealed tiles); four identical tiles are two pairs."""
    k = as_packed(counts)
    sh = _core.shanten_seven_pairs(k, _void_index(void))
    return sh if sh >= -1 else _refused(sh, counts, void, (), "seven pairs")


def shanten_thirteen_orphans(counts: Counts) -> int:
    """Shanten of the 十三幺 form (13 or 14 concealed tiles): 13 minus the orphan kinds held,
    minus one if one of them is held twice."""
    k = as_packed(counts)
    sh = _core.shanten_thirteen_orphans(k)
    return sh if sh >= -1 else _refused(sh, counts, None, (), "thirteen orphans")


def waits(counts: Counts, melds: Sequence[Meld] = (), void: str | None = None) -> list[Tile]:
    """The tiles that would complete this 3n+1-tile hand (十三幺 included), ascending.

    A tile of which the hand (concealed and melds) already holds all four is not a wait. With
    ``void``, a hand that still holds a void tile waits on nothing.
    """
    k = as_packed(counts)
    found = _core.waits(k, _void_index(void), [m.tiles for m in melds] if melds else [])
    if isinstance(found, int):
        _refused(found, counts, void, (1,), "waits")
    return found
