"""The ticker: every public event of the hand (and the viewer's own private ones) as a line a
player reads, seats named relative to the viewer (下家 暗杠), forced moves with their reason (the
events say which moves were forced or automatic: nothing here works a rule out)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chuanma.engine.event_types import (
    Chow,
    Discard,
    Draw,
    End,
    Exchange,
    ExchangeChosen,
    ExchangeReceived,
    Hu,
    Kong,
    Payment,
    VoidChosen,
    Voids,
    parse_event,
)
from chuanma.melds import Meld
from chuanma.narration import end_text, reason_text
from chuanma.rules import RuleSet
from chuanma.terminal.words import DIRECTION_WORDS, KONG_WORDS, seat_name, seat_possessive, zh
from chuanma.tiles import SUIT_NAMES_ZH, format_tiles, parse_tile

TEMPLATES = {
    "pong": "{who} 碰 {tile} from {from}",
    "kong_declared": "{who} adds {tile} to a pong (巴杠): it can be robbed",
    "kong_robbed": "{whose} 巴杠 of {tile} is robbed (抢杠)",
    "leave": "{who} leaves the table (逃跑)",
    "exhausted": "the wall is exhausted: 查花猪, 查大叫, 退税",
}
"""Events told in one fixed sentence."""


@dataclass(slots=True)
class Ticker:
    """Turns the viewer's events into lines; remembers the tiles it gave in the exchange."""

    me: int
    rules: RuleSet
    names: Sequence[str]
    gave: str = ""

    def who(self, seat: int) -> str:
        return seat_name(seat, self.me, self.names)

    def whose(self, seat: int) -> str:
        return seat_possessive(seat, self.me, self.names)

    def lines(self, events: Sequence[dict[str, Any]]) -> list[str]:
        out = []
        for ev in events:
            line = self.line(ev)
            if line is not None:
                out.append(line)
        return out

    def line(self, message: dict[str, Any]) -> str | None:
        ev = parse_event(message)
        seat, tile, frm = ev.seat, getattr(ev, "tile", None), getattr(ev, "from_seat", None)
        fields = {"who": self.who(seat) if seat is not None else "",
                  "whose": self.whose(seat) if seat is not None else "",
                  "tile": zh(tile) if isinstance(tile, str) else "(face down)",
                  "from": self.who(frm) if isinstance(frm, int) else ""}
        kind = message["type"]
        if kind in TEMPLATES:
            return TEMPLATES[kind].format(**fields)
        special = getattr(self, f"_{kind}", None)  # the method named after the event: _discard, _kong, …
        return special(ev, fields) if special is not None else None

    def _exchange_chosen(self, ev: ExchangeChosen, f: dict[str, str]) -> str | None:
        if ev.seat != self.me or ev.tiles is None:
            return f"{f['who']} has chosen its three tiles"
        self.gave = ev.tiles
        return f"换三张: you give {zh(self.gave)}"

    def _exchange(self, ev: Exchange, f: dict[str, str]) -> str:
        return f"换三张 direction {DIRECTION_WORDS[ev.direction]}"

    def _exchange_received(self, ev: ExchangeReceived, f: dict[str, str]) -> str:
        return f"换三张: you gave {zh(self.gave)}, received {zh(ev.tiles or '')} from {f['from']}"

    def _void_chosen(self, ev: VoidChosen, f: dict[str, str]) -> str | None:
        if ev.seat != self.me or ev.suit is None:
            return f"{f['who']} has chosen its void"
        auto = " (automatic: your hand holds only two suits)" if ev.automatic else ""
        return f"定缺: you are void in {SUIT_NAMES_ZH[ev.suit]}{auto}"

    def _voids(self, ev: Voids, f: dict[str, str]) -> str:
        return "定缺 revealed: " + ", ".join(
            f"{self.who(s)} 缺{SUIT_NAMES_ZH[v]}" for s, v in enumerate(ev.voids) if v)

    def _draw(self, ev: Draw, f: dict[str, str]) -> str | None:
        if ev.seat != self.me:  # another seat's live draw is told by its discard
            return f"{f['who']} draws a kong replacement · wall {ev.wall}" if ev.replacement else None
        extra = " (kong replacement)" if ev.replacement else ""
        return f"you draw {f['tile']}{extra} · wall {ev.wall}"

    def _discard(self, ev: Discard, f: dict[str, str]) -> str:
        forced = " (automatic: a locked 血流 hand)" if ev.automatic else ""
        return f"{f['who']} 打 {f['tile']}{forced}"

    def _chow(self, ev: Chow, f: dict[str, str]) -> str:
        run = zh(format_tiles(Meld("chow", parse_tile(ev.tile)).tiles))
        return f"{f['who']} 吃 {zh(ev.claimed)} from {f['from']}: {run}"

    def _kong(self, ev: Kong, f: dict[str, str]) -> str:
        frm = f" from {f['from']}" if f["from"] else ""
        late = " (过手杠: no kong money)" if ev.late else ""
        return f"{f['who']} {KONG_WORDS[ev.kind]} {f['tile']}{frm}{late}"

    def _payment(self, ev: Payment, f: dict[str, str]) -> str:
        verb = "pay" if ev.payer == self.me else "pays"
        return (f"  {self.who(ev.payer)} {verb} {self.who(ev.payee)} {ev.amount} "
                f"({reason_text(ev.reason)})")

    def _end(self, ev: End, f: dict[str, str]) -> str:
        return f"hand over: {end_text(ev.reason)}"

    def _hu(self, ev: Hu, f: dict[str, str]) -> str:
        who = f["who"]
        frm = ev.from_seat
        how = "自摸 self-drawn" if frm is None else f"on {self.whose(frm)} {zh(ev.tile)}"
        if ev.robbed_kong and frm is not None:
            how = f"抢杠 robbing {self.whose(frm)} kong"
        fans = " + ".join(f"{fan.name} {fan.fan}" for fan in ev.fans) or "平胡"
        why = " (forced: in the last four tiles a seat that can win must)" if ev.forced else ""
        return f"{who} 胡 {zh(ev.tile)} {how}: {fans} ×{ev.multiplier}{why}"
