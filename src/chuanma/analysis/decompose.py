"""Every decomposition of a winning hand's concealed tiles into sets and a pair, seven pairs, or 十三幺."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from chuanma.analysis.orphans import ORPHANS, is_thirteen_orphans, thirteen_orphans_pair
from chuanma.tiles import NUM_SUITED, Tile, format_tiles

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


def _sets(counts: list[int], start: int) -> Iterator[list[ConcealedSet]]:
    """Every multiset of sets using exactly ``counts`` (each once: lowest tile first)."""
    t = start
    while t < len(counts) and counts[t] == 0:
        t += 1
    if t == len(counts):
        yield []
        return
    c = counts[t]
    for triplets in (1, 0) if c >= 3 else (0,):
        runs = c - 3 * triplets
        if runs and (t >= NUM_SUITED or t % 9 > 6 or counts[t + 1] < runs or counts[t + 2] < runs):
            continue
        counts[t] -= c
        if runs:
            counts[t + 1] -= runs
            counts[t + 2] -= runs
        head = [ConcealedSet("triplet", t)] * triplets + [ConcealedSet("sequence", t)] * runs
        for rest in _sets(counts, t + 1):
            yield head + rest
        counts[t] += c
        if runs:
            counts[t + 1] += runs
            counts[t + 2] += runs


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    """All decompositions of the concealed ``counts`` (3n+2 tiles); empty if the hand is incomplete.

    Standard readings come first, each multiset of sets once; a 14-tile hand of pairs adds a
    seven-pairs reading (four identical tiles are two pairs); a 十三幺 hand has only its own reading.
    """
    if is_thirteen_orphans(counts):
        return [Decomposition("thirteen_orphans", pair=thirteen_orphans_pair(counts))]
    work = list(counts)
    found: list[Decomposition] = []
    for pair, c in enumerate(counts):
        if c < 2:
            continue
        work[pair] -= 2
        for sets in _sets(work, 0):
            found.append(Decomposition("standard", tuple(sets), pair))
        work[pair] += 2
    if sum(counts) == 14 and all(c % 2 == 0 for c in counts):
        pairs = tuple(t for t, c in enumerate(counts) for _ in range(c // 2))
        found.append(Decomposition("seven_pairs", pairs=pairs))
    return found
