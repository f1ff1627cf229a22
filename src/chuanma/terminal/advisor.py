"""Help at the table, from the viewer's own view only: shanten, the discards that keep the best
shape with their waits (or useful tiles) and the copies still unseen, the suggested 定缺 and
exchange."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from chuanma.advice import Useful, discard_options, useful_tiles
from chuanma.analysis import shanten
from chuanma.bots.greedy import cheapest_suit, weakest_three
from chuanma.engine import Action, ChooseVoid, Exchange, SeatView
from chuanma.terminal.words import tile_label
from chuanma.tiles import COPIES, NUM_KINDS, SUIT_NAMES_ZH, SUITS, Tile

SHOWN = 4
"""Discards shown, best first."""


def seen_tiles(view: SeatView) -> list[Tile]:
    """Tiles the viewer sees outside its own hand and melds (rivers, others' melds, win piles,
    shown hands): each copy once."""
    unseen = view.unseen_counts()
    own = [0] * NUM_KINDS
    for m in view.own_melds():
        for t in m.tiles:
            own[t] += 1
    return [t for t in range(NUM_KINDS) for _ in range(max(0, COPIES - view.hand[t] - own[t] - unseen[t]))]


def suggested_void(view: SeatView) -> ChooseVoid:
    return ChooseVoid(SUITS[cheapest_suit(view.hand)])


def suggested_exchange(view: SeatView) -> Exchange:
    return Exchange(weakest_three(view.hand, cheapest_suit(view.hand, need=3)))


def suggestion(view: SeatView, legal: list[Action]) -> Action | None:
    """The advisor's choice at the exchange and 定缺 prompts (``None`` elsewhere)."""
    if any(isinstance(a, Exchange) for a in legal):
        ex = suggested_exchange(view)
        return ex if ex in legal else legal[0]
    if any(isinstance(a, ChooseVoid) for a in legal):
        void = suggested_void(view)
        return void if void in legal else legal[0]
    return None


def _useful(useful: Sequence[Useful]) -> str:
    """The useful tiles with copies left (those all seen are left out: none can come)."""
    return " ".join(f"{tile_label(u.tile)}×{u.remaining}" for u in useful if u.remaining)


def advice(view: SeatView, legal: list[Action]) -> Text:
    """The help panel's text."""
    out = Text()
    hint = suggestion(view, legal)
    if isinstance(hint, Exchange):
        out.append("suggested exchange: " + " ".join(tile_label(t) for t in hint.tiles) + "\n")
    void = view.void or suggested_void(view).suit
    if view.void is None:
        out.append(f"suggested 定缺: 缺{SUIT_NAMES_ZH[void]} (the suit cheapest to clear)\n")
    hand = view.hand
    melds = view.own_melds()
    seen = seen_tiles(view)
    sh = shanten(hand, void)
    words = {-1: "complete: you can win (胡)", 0: "ready (听牌)"}.get(sh, f"{sh} from ready")
    out.append(f"shanten {sh}: {words}\n", style="bold")
    if sum(hand) % 3 == 2:
        for o in discard_options(hand, melds, void, seen)[:SHOWN]:
            kind = "waits" if o.shanten == 0 else "useful"
            out.append(f"  打 {tile_label(o.tile)} → shanten {o.shanten}, {kind} ")
            out.append(f"{_useful(o.useful) or '—'} ({o.useful_count} left)\n")
    else:
        useful = useful_tiles(hand, melds, void, seen)
        kind = "waits" if sh == 0 else "useful"
        out.append(f"  {kind} {_useful(useful) or '—'} ({sum(u.remaining for u in useful)} left)\n")
    out.rstrip()
    return out
