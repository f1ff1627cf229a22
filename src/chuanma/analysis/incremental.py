"""Incremental shanten: one hand and its many one-tile changes (a bot's look-ahead).

A player deciding a discard asks for the shanten of its hand minus each discard, and of each of
those plus each tile that could be drawn: dozens of hands that differ from one hand in one or
two suits. :class:`HandEval` (the compiled core's) keeps each part of the hand (the three suits
and the honours) as its code in the analysis tables, so a changed hand costs one or two
indexings instead of a full :func:`chuanma.analysis.shanten` call. Results are exactly
``shanten(counts, void)`` (tested), 十三幺 included.
"""

from __future__ import annotations

from collections.abc import Sequence

from chuanma import _core
from chuanma.analysis.hand import MAX_TILES, pack_counts
from chuanma.errors import HandSizeError
from chuanma.tiles import SUITS, Tile

SIZES = tuple(n for n in range(1, MAX_TILES + 1) if n % 3)
"""The hand sizes :class:`HandEval` takes: 3n+1 or 3n+2 concealed tiles, at most 14."""
USEFUL_SIZES = tuple(n for n in SIZES if n % 3 == 1)
"""The hand sizes :func:`useful_tiles` takes: 3n+1 (1, 4, 7, 10 or 13)."""


def _checked(counts: Sequence[int], sizes: tuple[int, ...], what: str) -> bytes:
    """``counts`` packed, when they are counts (else :class:`TileCountError`) of a hand of one of
    ``sizes`` (else :class:`HandSizeError`)."""
    packed = pack_counts(counts)
    n = sum(packed)
    if n not in sizes:
        raise HandSizeError(f"{what} needs {', '.join(map(str, sizes))} concealed tiles, got {n}")
    return packed


class HandEval(_core.HandEval):
    """Shanten of ``counts`` (27 suited kinds, or 34 with the honours) and of its one-tile
    changes, with ``void``: :meth:`shanten`, :meth:`without` (a discard), :meth:`swap` (a discard
    and a draw), :meth:`with_` (a draw), and the draws that lower the shanten after a discard
    (:meth:`useful_tiles`, and :meth:`useful`: their unseen copies).

    Counts that are not 0-4 of 27 or 34 kinds raise :class:`TileCountError`, a hand of a size
    not in :data:`SIZES` :class:`HandSizeError`. A change that is no hand raises the same: a tile
    that is not a kind of the counts, a discard not held or a fifth copy drawn
    :class:`TileCountError`, a draw to more than 14 tiles :class:`HandSizeError`."""

    def __init__(self, counts: Sequence[int], void: str | None) -> None:
        super().__init__(_checked(counts, SIZES, "HandEval"), -1 if void is None else SUITS.index(void))


def load() -> None:
    """Build the analysis tables now (else the first analysis call does): before forking worker
    processes, so that they inherit them."""
    _core.load_tables()


def useful_tiles(counts: Sequence[int], void: str | None) -> tuple[Tile, ...]:
    """The useful tiles of a 3n+1 hand (27 or 34 kinds): those that, drawn, lower its shanten
    (a tile held four times is never one). The one implementation: :meth:`HandEval.useful_tiles`
    of the hand with a tile added and discarded again. Counts that are not 0-4 of 27 or 34 kinds
    raise :class:`TileCountError`, a hand of a size not in :data:`USEFUL_SIZES`
    :class:`HandSizeError`."""
    _checked(counts, USEFUL_SIZES, "useful tiles")
    probe = next(t for t in range(len(counts)) if counts[t] < 4)
    work = list(counts)
    work[probe] += 1
    ev = HandEval(work, void)
    return tuple(ev.useful_tiles(probe, ev.without(probe)))


__all__ = ["SIZES", "USEFUL_SIZES", "HandEval", "load", "useful_tiles"]
