"""Help at the table: the terminal's form of :func:`chuanma.advice.advise` (the advice the browser's
hint panel shows): shanten, the best discards with their waits (or useful tiles) and the copies still
unseen, the suggested 定缺 and exchange."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from chuanma.advice import Useful, advise
from chuanma.engine import Action, Exchange, SeatView
from chuanma.terminal.words import tile_label
from chuanma.tiles import SUIT_NAMES_ZH


def _useful(useful: Sequence[Useful]) -> str:
    """The useful tiles with copies left (those all seen are left out: none can come)."""
    return " ".join(f"{tile_label(u.tile)}×{u.remaining}" for u in useful if u.remaining)


def advice(view: SeatView, legal: list[Action]) -> Text:
    """The help panel's text."""
    out = Text()
    told = advise(view, legal)
    if isinstance(told.suggested, Exchange):
        out.append("suggested exchange: " + " ".join(tile_label(t) for t in told.suggested.tiles) + "\n")
    if view.void is None:
        out.append(f"suggested 定缺: 缺{SUIT_NAMES_ZH[told.void]} (the suit cheapest to clear)\n")
    sh = told.shanten
    words = {-1: "complete: you can win (胡)", 0: "ready (听牌)"}.get(sh, f"{sh} from ready")
    out.append(f"shanten {sh}: {words}\n", style="bold")
    for o in told.discards:
        kind = "waits" if o.shanten == 0 else "useful"
        out.append(f"  打 {tile_label(o.tile)} → shanten {o.shanten}, {kind} ")
        out.append(f"{_useful(o.useful) or '—'} ({o.useful_count} left)\n")
    if not told.discards:
        kind = "waits" if sh == 0 else "useful"
        out.append(f"  {kind} {_useful(told.useful) or '—'} ({sum(u.remaining for u in told.useful)} left)\n")
    out.rstrip()
    return out
