"""The ticker: every public event of the hand (and the viewer's own private ones) as a line a
player reads, in the words of :mod:`chuanma.narration` (the browser's and ``chuanma replay``'s):
seats named relative to the viewer (下家 east), the viewer's own events in the second person,
tiles and suits as the table shows them (5万, 缺万), forced and automatic moves with their reason (the events say
which moves were forced or automatic: nothing here works a rule out)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chuanma.narration import narrate
from chuanma.rules import RuleSet
from chuanma.terminal.words import seat_name, tile_label
from chuanma.tiles import SUIT_NAMES_ZH

QUIET = frozenset({"start", "deal", "deal_done", "claim"})
"""Events the ticker leaves out: the set-up (the table shows it) and one's own answers to a claim."""


@dataclass(slots=True)
class Ticker:
    """Turns the viewer's events into lines; ``rules`` label a win's fan total."""

    me: int
    rules: RuleSet
    names: Sequence[str]

    def who(self, seat: int) -> str:
        return seat_name(seat, self.me, self.names)

    def lines(self, events: Sequence[dict[str, Any]]) -> list[str]:
        out = []
        for ev in events:
            line = self.line(ev)
            if line is not None:
                out.append(line)
        return out

    def line(self, ev: dict[str, Any]) -> str | None:
        """The event's line; ``None`` for one the ticker leaves out (:data:`QUIET`, and another
        seat's ordinary draw: its discard tells it)."""
        kind = ev["type"]
        if kind in QUIET or (kind == "draw" and ev["seat"] != self.me and not ev["replacement"]):
            return None
        text = narrate(ev, self.who, "en", self.rules.fan_label, me=self.me,
                       tile_word=lambda t: tile_label(t).strip(), suit_word=SUIT_NAMES_ZH.__getitem__)
        return f"  {text}" if text is not None and kind == "payment" else text
