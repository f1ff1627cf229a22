"""Discard advice: useful tiles and the best discards of a hand, by shanten then useful-tile count."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chuanma.analysis import shanten, waits
from chuanma.analysis.incremental import useful_tiles as useful
from chuanma.melds import Meld
from chuanma.tiles import NUM_SUITED, SUITS, Tile


@dataclass(frozen=True, slots=True)
class Useful:
    """A tile that brings the hand closer (or completes it), and how many copies are unseen."""

    tile: Tile
    remaining: int


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """Discarding ``tile`` leaves a hand at ``shanten`` with these ``useful`` tiles."""

    tile: Tile
    shanten: int
    useful: tuple[Useful, ...]

    @property
    def useful_count(self) -> int:
        """Unseen copies of all useful tiles together."""
        return sum(u.remaining for u in self.useful)


def remaining_counts(counts: Sequence[int], melds: Sequence[Meld] = (), seen: Sequence[Tile] = ()) -> list[int]:
    """Copies of each tile not in this hand, its melds or the ``seen`` tiles (never below 0)."""
    left = [4 - c for c in counts]
    for t in [*(t for m in melds for t in m.tiles), *seen]:
        left[t] = max(0, left[t] - 1)
    return left


def useful_tiles(counts: Sequence[int], melds: Sequence[Meld] = (), void: str | None = None,
                 seen: Sequence[Tile] = ()) -> tuple[Useful, ...]:
    """For a 3n+1 hand: the tiles that lower its shanten (when ready: its waits), with copies left."""
    left = remaining_counts(counts, melds, seen)
    # a ready hand's useful tiles are its waits, which also count the copies its melds hold
    tiles = waits(counts, melds, void) if shanten(counts, void) == 0 else useful(counts, void)
    return tuple(Useful(t, left[t]) for t in tiles)


def discard_options(counts: Sequence[int], melds: Sequence[Meld] = (), void: str | None = None,
                    seen: Sequence[Tile] = ()) -> list[DiscardOption]:
    """Every distinct discard of a 3n+2 hand, best first (lowest shanten, then most useful copies).

    While the hand holds a tile of its void suit, only those tiles may be discarded.
    """
    held = [t for t, c in enumerate(counts) if c]
    if void is not None:
        void_tiles = [t for t in held if t < NUM_SUITED and SUITS[t // 9] == void]
        held = void_tiles or held
    options = []
    work = list(counts)
    for t in held:
        work[t] -= 1
        options.append(DiscardOption(t, shanten(work, void), useful_tiles(work, melds, void, [*seen, t])))
        work[t] += 1
    options.sort(key=lambda o: (o.shanten, -o.useful_count, o.tile))
    return options
