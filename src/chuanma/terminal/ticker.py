"""The ticker: every public event of the hand (and the viewer's own private ones) as a line a
player reads, seats named relative to the viewer (下家 暗杠), forced moves with their reason."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from chuanma.engine import in_last_four
from chuanma.melds import Meld
from chuanma.rules import RuleSet
from chuanma.terminal.words import DIRECTION_WORDS, END_WORDS, KONG_WORDS, seat_name, seat_possessive, zh
from chuanma.tiles import SUIT_NAMES_ZH, format_tiles, parse_tile

REASON_WORDS = {
    "zimo": "自摸", "dianpao": "点炮", "qianggang": "抢杠胡",
    "kong_exposed": "明杠 刮风 kong money", "kong_concealed": "暗杠 下雨 kong money",
    "kong_added": "巴杠 刮风 kong money", "call_transfer": "呼叫转移 call transfer",
    "flower_pig": "查花猪 flower pig", "chadajiao": "查大叫 not ready", "refund": "退税 kong refund",
    "escape": "逃跑 escape penalty",
}

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
    """Turns the viewer's events into lines; remembers what it needs to explain forced moves."""

    me: int
    rules: RuleSet
    names: Sequence[str]
    wall: int = 108
    locked: set[int] = field(default_factory=set)
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

    def line(self, ev: dict[str, Any]) -> str | None:
        kind = ev["type"]
        if "wall" in ev and kind != "start":
            self.wall = ev["wall"]
        fields = {"who": self.who(ev["seat"]) if "seat" in ev else "",
                  "whose": self.whose(ev["seat"]) if "seat" in ev else "",
                  "tile": zh(ev["tile"]) if isinstance(ev.get("tile"), str) else "(face down)",
                  "from": self.who(ev["from"]) if isinstance(ev.get("from"), int) else ""}
        if kind in TEMPLATES:
            return TEMPLATES[kind].format(**fields)
        special = getattr(self, f"_{kind}", None)  # the method named after the event: _discard, _kong, …
        return special(ev, fields) if special is not None else None

    def _exchange_chosen(self, ev: dict[str, Any], f: dict[str, str]) -> str | None:
        if ev["seat"] != self.me:
            return f"{f['who']} has chosen its three tiles"
        self.gave = ev["tiles"]
        return f"换三张: you give {zh(self.gave)}"

    def _exchange(self, ev: dict[str, Any], f: dict[str, str]) -> str:
        return f"换三张 direction {DIRECTION_WORDS[ev['direction']]}"

    def _exchange_received(self, ev: dict[str, Any], f: dict[str, str]) -> str:
        return f"换三张: you gave {zh(self.gave)}, received {zh(ev['tiles'])} from {f['from']}"

    def _void_chosen(self, ev: dict[str, Any], f: dict[str, str]) -> str | None:
        if ev["seat"] != self.me:
            return f"{f['who']} has chosen its void"
        auto = " (automatic: your hand holds only two suits)" if ev.get("automatic") else ""
        return f"定缺: you are void in {SUIT_NAMES_ZH[ev['suit']]}{auto}"

    def _voids(self, ev: dict[str, Any], f: dict[str, str]) -> str:
        return "定缺 revealed: " + ", ".join(
            f"{self.who(s)} 缺{SUIT_NAMES_ZH[v]}" for s, v in enumerate(ev["voids"]) if v)

    def _draw(self, ev: dict[str, Any], f: dict[str, str]) -> str | None:
        if ev["seat"] != self.me:  # another seat's live draw is told by its discard
            return f"{f['who']} draws a kong replacement · wall {ev['wall']}" if ev["replacement"] else None
        extra = " (kong replacement)" if ev["replacement"] else ""
        return f"you draw {f['tile']}{extra} · wall {ev['wall']}"

    def _discard(self, ev: dict[str, Any], f: dict[str, str]) -> str:
        forced = " (automatic: a locked 血流 hand)" if ev["seat"] in self.locked else ""
        return f"{f['who']} 打 {f['tile']}{forced}"

    def _chow(self, ev: dict[str, Any], f: dict[str, str]) -> str:
        run = zh(format_tiles(Meld("chow", parse_tile(ev["tile"])).tiles))
        return f"{f['who']} 吃 {zh(ev['claimed'])} from {f['from']}: {run}"

    def _kong(self, ev: dict[str, Any], f: dict[str, str]) -> str:
        frm = f" from {f['from']}" if f["from"] else ""
        late = " (过手杠: no kong money)" if ev.get("late") else ""
        return f"{f['who']} {KONG_WORDS[ev['kind']]} {f['tile']}{frm}{late}"

    def _payment(self, ev: dict[str, Any], f: dict[str, str]) -> str:
        verb = "pay" if ev["payer"] == self.me else "pays"
        return (f"  {self.who(ev['payer'])} {verb} {self.who(ev['payee'])} {ev['amount']} "
                f"({REASON_WORDS.get(ev['reason'], ev['reason'])})")

    def _end(self, ev: dict[str, Any], f: dict[str, str]) -> str:
        return f"hand over: {END_WORDS.get(ev['reason'], ev['reason'])}"

    def _hu(self, ev: dict[str, Any], f: dict[str, str]) -> str:
        who = f["who"]
        how = "自摸 self-drawn" if ev["self_drawn"] else f"on {self.whose(ev['from'])} {zh(ev['tile'])}"
        if ev.get("robbed_kong"):
            how = f"抢杠 robbing {self.whose(ev['from'])} kong"
        fans = " + ".join(f"{fan['name']} {fan['fan']}" for fan in ev["fans"]) or "平胡"
        why = ""
        if self.rules.forced_win_in_last_four and in_last_four(self.wall):
            why = " (forced: in the last four tiles a seat that can win must)"
        if self.rules.variant == "xueliu":
            self.locked.add(ev["seat"])
        tile = zh(ev["tile"])
        return f"{who} 胡 {tile} {how}: {fans} ×{ev['multiplier']}{why}"
