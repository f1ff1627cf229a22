"""Ready-hand hints for a seat, computed from that seat's own view only (never hidden information).

On its turn (3n+2 tiles): the shanten after the best discard, the discards that keep it with the
most useful copies left, and what each of them waits for or improves on. Otherwise (3n+1): the
shanten and the useful tiles (the waits, when ready). Copies left count only what the seat cannot
see (``SeatView.unseen_counts``).
"""

from __future__ import annotations

from typing import Any

from chuanma.advice import Useful, discard_options, remaining_counts, useful_tiles
from chuanma.analysis import shanten
from chuanma.bots import make_bot
from chuanma.engine import TILE_TEXT, SeatView
from chuanma.tiles import NUM_KINDS, Tile

SUGGESTER = make_bot("greedy")
"""The bot whose choice is suggested in the 换三张 and 定缺 pickers (the one 托管 uses)."""
BEST_SHOWN = 3
"""At most this many best discards are listed."""


def seen_tiles(view: SeatView) -> list[Tile]:
    """The tiles the seat sees outside its own hand and melds: rivers, others' melds, win piles, shown hands."""
    outside = remaining_counts(view.hand, view.own_melds())
    unseen = view.unseen_counts()
    return [t for t in range(NUM_KINDS) for _ in range(max(0, outside[t] - unseen[t]))]


def _useful(items: tuple[Useful, ...]) -> list[list[Any]]:
    return [[TILE_TEXT[u.tile], u.remaining] for u in items]


def hints(view: SeatView) -> dict[str, Any] | None:
    """The hints of a seat's view (``None`` for a spectator, a finished hand or a locked winner)."""
    if view.seat is None or view.finished or view.me.locked or view.me.out:
        return None
    hand, melds, void, seen = view.hand, view.own_melds(), view.void, seen_tiles(view)
    if sum(hand) % 3 == 2:
        options = discard_options(hand, melds, void, seen)
        if not options:
            return None
        first = options[0]
        best = [o for o in options if (o.shanten, o.useful_count) == (first.shanten, first.useful_count)]
        return {"shanten": first.shanten,
                "discards": [{"tile": TILE_TEXT[o.tile], "shanten": o.shanten, "useful": _useful(o.useful),
                              "copies": o.useful_count} for o in best[:BEST_SHOWN]]}
    useful = useful_tiles(hand, melds, void, seen)
    return {"shanten": shanten(hand, void), "useful": _useful(useful), "copies": sum(u.remaining for u in useful)}


def suggestion(view: SeatView) -> dict[str, Any] | None:
    """What 托管 would choose in the 换三张 or 定缺 picker (``None`` in other phases)."""
    if view.seat is None or view.phase not in ("exchange", "void") or not view.legal_actions:
        return None
    return SUGGESTER.choose(view, view.legal_actions).to_json()
