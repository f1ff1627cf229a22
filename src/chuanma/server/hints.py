"""Ready-hand hints for a seat, computed from that seat's own view only (never hidden information):
the browser's form of :func:`chuanma.advice.advise` (the advice the terminal's help panel shows).

On its turn (3n+2 tiles): the shanten after the best discard, the discards that keep it with the
most useful copies left, and what each of them waits for or improves on. Otherwise (3n+1): the
shanten and the useful tiles (the waits, when ready). Copies left count only what the seat cannot
see (``SeatView.unseen_counts``).
"""

from __future__ import annotations

from typing import Any

from chuanma.advice import Useful, advise
from chuanma.advice import suggestion as suggested
from chuanma.engine import TILE_TEXT, SeatView


def _useful(items: tuple[Useful, ...]) -> list[list[Any]]:
    return [[TILE_TEXT[u.tile], u.remaining] for u in items]


def hints(view: SeatView) -> dict[str, Any] | None:
    """The hints of a seat's view (``None`` for a spectator, a finished hand or a locked winner)."""
    if view.seat is None or view.finished or view.me.locked or view.me.out or not any(view.hand):
        return None
    advice = advise(view, view.legal_actions)
    if advice.discards:
        return {"shanten": advice.shanten,
                "discards": [{"tile": TILE_TEXT[o.tile], "shanten": o.shanten, "useful": _useful(o.useful),
                              "copies": o.useful_count} for o in advice.discards]}
    return {"shanten": advice.shanten, "useful": _useful(advice.useful),
            "copies": sum(u.remaining for u in advice.useful)}


def suggestion(view: SeatView) -> dict[str, Any] | None:
    """What 托管 would choose in the 换三张 or 定缺 picker (``None`` in other phases)."""
    if view.seat is None or view.phase not in ("exchange", "void"):
        return None
    action = suggested(view, view.legal_actions)
    return action.to_json() if action is not None else None
