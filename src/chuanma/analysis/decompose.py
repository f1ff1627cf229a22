"""Every decomposition of a winning hand's concealed tiles into sets and a pair, seven pairs, or 十三幺
(the compiled core's, :mod:`chuanma._core`, read into dataclasses)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from chuanma import _core
from chuanma.analysis.hand import Counts, as_packed
from chuanma.analysis.orphans import ORPHANS
from chuanma.tiles import NUM_KINDS, Tile, format_tiles

SetKind = Literal["sequence", "triplet"]


@dataclass(frozen=True, slots=True)
class ConcealedSet:
    """A set formed from concealed tiles: ``sequence`` (``tile`` is the lowest) or ``triplet``."""

    kind: SetKind
    tile: Tile

    @property
    def tiles(self) -> list[Tile]:
        """The three tiles of the set."""
        if self.kind == "sequence":
            return [self.tile, self.tile + 1, self.tile + 2]
        return [self.tile] * 3

    def __str__(self) -> str:
        return format_tiles(self.tiles)


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One reading of a complete hand: ``sets`` and a ``pair``, seven ``pairs``, or 十三幺
    (``thirteen_orphans``: the thirteen kinds once and ``pair`` the one held twice)."""

    form: Literal["standard", "seven_pairs", "thirteen_orphans"]
    sets: tuple[ConcealedSet, ...] = ()
    pair: Tile | None = None
    pairs: tuple[Tile, ...] = ()

    def __str__(self) -> str:
        if self.form == "seven_pairs":
            return " ".join(format_tiles([t, t]) for t in self.pairs)
        assert self.pair is not None
        if self.form == "thirteen_orphans":
            return format_tiles([*ORPHANS, self.pair])
        return " ".join([*map(str, self.sets), format_tiles([self.pair, self.pair])])


_SETS = tuple(ConcealedSet(kind, t) for t in range(NUM_KINDS) for kind in ("triplet", "sequence"))
"""Every set by the core's code for it: ``2 * tile`` a triplet, ``2 * tile + 1`` a sequence."""


def decompositions(counts: Counts) -> list[Decomposition]:
    """All decompositions of the concealed ``counts`` (3n+2 tiles); empty if the hand is incomplete.

    Standard readings come first, by pair, each multiset of sets once (lowest tile first, a
    triplet before the sequences of its tile); a 14-tile hand of pairs adds a seven-pairs reading
    (four identical tiles are two pairs); a 十三幺 hand has only its own reading. Counts as for
    :func:`~chuanma.analysis.hand.is_win`: values that are not counts raise :class:`TileCountError`;
    more than 14 tiles of a suit, or ``bytes`` that are not counts, have no reading.
    """
    return [from_reading(r) for r in _core.decompositions(as_packed(counts))]


def from_reading(reading: Sequence[int]) -> Decomposition:
    """The decomposition the core gives as ``(form, pair, *items)`` (:func:`chuanma._core.decompositions`)."""
    form, pair, *items = reading
    if form == 0:
        return Decomposition("standard", tuple([_SETS[i] for i in items]), pair)
    if form == 1:
        return Decomposition("seven_pairs", pairs=tuple(items))
    return Decomposition("thirteen_orphans", pair=pair)
