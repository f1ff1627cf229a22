"""Discard advice: useful tiles and the best discards of a hand, by shanten then useful-tile count;
and :func:`advise`, the one advice of a seat's view that every help panel shows (the browser's
hints, the terminal's help)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chuanma.analysis import shanten, waits
from chuanma.analysis.incremental import useful_tiles as useful
from chuanma.bots.greedy import GreedyBot, cheapest_suit
from chuanma.engine import Action, ChooseVoid, Exchange, SeatView
from chuanma.melds import Meld
from chuanma.tiles import NUM_KINDS, NUM_SUITED, SUITS, Tile

SUGGESTER = GreedyBot()
"""The bot whose choice is suggested at the 换三张 and 定缺 prompts (托管's ``expert`` makes the same
choices there: it is ``greedy``'s exchange and 定缺)."""
BEST_SHOWN = 3
"""At most this many best discards are advised."""


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


def seen_tiles(view: SeatView) -> list[Tile]:
    """The tiles the seat sees outside its own hand and melds (rivers, others' melds, win piles,
    shown hands): each copy once."""
    outside = remaining_counts(view.hand, view.own_melds())
    unseen = view.unseen_counts()
    return [t for t in range(NUM_KINDS) for _ in range(max(0, outside[t] - unseen[t]))]


def suggestion(view: SeatView, legal: Sequence[Action]) -> Action | None:
    """What 托管 would choose at the 换三张 or 定缺 prompt (``None`` at other decisions)."""
    if not legal or not isinstance(legal[0], (Exchange, ChooseVoid)):
        return None
    return SUGGESTER.choose(view, legal)


@dataclass(frozen=True, slots=True)
class Advice:
    """A seat's advice: its shanten; on its turn (3n+2 tiles) the best discards (those tied for
    best, at most :data:`BEST_SHOWN`), otherwise the useful tiles (the waits when ready); the
    suggested 定缺 suit while none is chosen; the suggested exchange or 定缺 at those prompts."""

    shanten: int
    discards: tuple[DiscardOption, ...]
    useful: tuple[Useful, ...]
    void: str
    suggested: Action | None


def advise(view: SeatView, legal: Sequence[Action]) -> Advice:
    """The advice of ``view`` (the viewer's own tiles and what it sees; never hidden information)."""
    suggested = suggestion(view, legal)
    void = view.void or SUITS[cheapest_suit(view.hand)]
    hand, melds, seen = view.hand, view.own_melds(), seen_tiles(view)
    if sum(hand) % 3 == 2:
        options = discard_options(hand, melds, void, seen)
        first = options[0]
        best = tuple(o for o in options if (o.shanten, o.useful_count) == (first.shanten, first.useful_count))
        return Advice(first.shanten, best[:BEST_SHOWN], (), void, suggested)
    return Advice(shanten(hand, void), (), useful_tiles(hand, melds, void, seen), void, suggested)
