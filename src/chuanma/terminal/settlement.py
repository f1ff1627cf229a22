"""The settlement a player can check: every hand revealed, each win with its fans, multiplier and
payers, then kong money, 呼叫转移, 查花猪, 查大叫 (with the hand and fan behind each amount), 退税
and escape penalties — only what happened — and the net per seat. Every payment of the ledger is
one line ``<payer> pays <payee> <amount>``. What each seat was at the end (花猪, ready and on
what, its 查大叫 value) is the hand's outcome, read from the events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from chuanma.engine import Payment, SeatView, Win, hand_outcome
from chuanma.engine.event_types import Kong, parse_event
from chuanma.terminal.words import KONG_WORDS, melds_text, seat_name, seat_possessive, tile_label, tiles_text
from chuanma.tiles import SUIT_NAMES_ZH, from_counts, parse_tile, parse_tiles

WIN_REASONS = ("zimo", "dianpao", "qianggang", "call_transfer")
SECTIONS = {
    "kong_exposed": "刮风 kong money", "kong_added": "刮风 kong money", "kong_concealed": "下雨 kong money",
    "flower_pig": "查花猪 a flower pig (still holding its void suit) pays",
    "chadajiao": "查大叫 a hand not ready pays each ready hand",
    "refund": "退税 a hand not ready returns its kong money", "escape": "逃跑 escape penalty",
}


class Settlement:
    """The settlement of a finished hand for the viewer ``view.seat``."""

    def __init__(self, view: SeatView, events: Sequence[dict[str, Any]], names: Sequence[str]) -> None:
        assert view.seat is not None and view.finished
        self.view = view
        self.names = names
        self.kong_tiles = kong_tiles(view, events)
        self.outcome = hand_outcome(events)

    def who(self, seat: int) -> str:
        assert self.view.seat is not None
        return seat_name(seat, self.view.seat, self.names)

    def whose(self, seat: int) -> str:
        assert self.view.seat is not None
        return seat_possessive(seat, self.view.seat, self.names)

    def pay_line(self, p: Payment, why: str = "") -> Text:
        verb = "pay" if p.payer == self.view.seat else "pays"
        out = Text(f"    {self.who(p.payer)} {verb} {self.who(p.payee)} {p.amount}")
        return out.append(f"  {why}", style="dim") if why else out

    def win_lines(self, win: Win) -> list[RenderableType]:
        how = "自摸 self-drawn" if win.from_seat is None else (
            f"抢杠 on {self.whose(win.from_seat)} kong" if win.robbed
            else f"点炮 on {self.whose(win.from_seat)} discard")
        fans = " + ".join(f"{name} {fan}" for _, name, fan in win.fans) or "平胡 0"
        head = Text(f"{self.who(win.seat)} 胡 ", style="bold green").append_text(tiles_text([win.tile]))
        head.append(f" {how}: {fans} = {self.view.rules.fan_label(win.total)} fan → ×{win.multiplier}")
        if win.jipin:
            head.append("  极品", style="bold magenta")
        lines: list[RenderableType] = [head, Text("    hand ").append_text(tiles_text(win.hand))]
        for p in self.view.payments:
            if p.seq == win.seq and p.payee == win.seat and p.reason in WIN_REASONS:
                lines.append(self.pay_line(p, "呼叫转移: the kong money of the kong before this win"
                                           if p.reason == "call_transfer" else ""))
        return lines

    def reason_why(self, p: Payment) -> str:
        """The hand and fan behind a 查花猪 / 查大叫 amount, the kong behind kong money."""
        if p.reason.startswith("kong_"):
            tile = self.kong_tiles.get(p.seq)
            return f"{self.whose(p.payee)} {KONG_WORDS[p.reason[5:]]} {tile_label(tile) if tile is not None else ''}"
        you = p.payer == self.view.seat
        who, its = ("you", "your") if you else (self.who(p.payer), "its")
        if p.reason == "refund":
            return f"{who} {'are' if you else 'is'} not ready: {its} kong money goes back"
        if p.reason == "flower_pig" and self.view.rules.flower_pig == "fixed":
            void = self.view.players[p.payer].void
            held = (f"{'hold' if you else 'holds'} {SUIT_NAMES_ZH[void]}, {its} void" if void
                    else f"{'are' if you else 'is'} a flower pig")
            return f"{who} {held}: the fixed 花猪 penalty {p.amount}"
        if p.reason in ("flower_pig", "chadajiao"):
            payee = self.outcome.seats[p.payee]
            waiting = " ".join(tile_label(t) for t in parse_tiles(payee.waits or ""))
            return f"{self.who(p.payee)} ready on {waiting or '—'}: {payee.fan_at_draw or 0} fan = {p.amount}"
        return ""

    def hands(self) -> Table:
        """Every seat's hand revealed, with its melds, 花猪 and ready marks."""
        t = Table.grid(padding=(0, 1))
        for seat in range(4):
            p = self.view.players[seat]
            res = self.outcome.seats[seat]
            mark = Text("")
            if p.won:
                mark = Text(f" 胡×{p.won}", style="bold green")
            elif res.pig:
                mark = Text(" 花猪", style="bold red")
            elif res.ready is not None:  # a hand between turns (an escape can end one in the middle)
                mark = Text(" 听 ready", style="green") if res.ready else Text(" 未听 not ready", style="yellow")
            row = tiles_text(from_counts(p.hand or ()))
            if p.melds:
                row.append("  ").append_text(melds_text(p.melds))
            t.add_row(Text(self.who(seat), style="bold"), row.append_text(mark))
        return t

    def render(self, session: Sequence[int]) -> RenderableType:
        view = self.view
        out: list[RenderableType] = [Text("hands revealed", style="bold underline"), self.hands()]
        if view.wins:
            out.append(Text("wins", style="bold underline"))
            for w in view.wins:
                out.extend(self.win_lines(w))
        shown_reason = None
        for p in view.payments:
            if p.reason in WIN_REASONS:
                continue
            title = SECTIONS[p.reason]
            if title != shown_reason:
                out.append(Text(title, style="bold underline"))
                shown_reason = title
            out.append(self.pay_line(p, self.reason_why(p)))
        if not view.payments:
            out.append(Text("no payments this hand", style="dim"))
        net = Table(title="net (× base)", title_justify="left")
        net.add_column("")
        for s in range(4):
            net.add_column(self.who(s), justify="right")
        net.add_row("this hand", *(f"{d:+d}" for d in view.totals))
        net.add_row("session", *(f"{session[s] + view.totals[s]:+d}" for s in range(4)))
        out.append(net)
        return Group(*out)


def kong_tiles(view: SeatView, events: Sequence[dict[str, Any]]) -> dict[int, int]:
    """The tile of each kong (by its event's seq), concealed ones included once the hand is over
    (a seat's concealed kongs are its concealed melds in the order declared)."""
    out: dict[int, int] = {}
    hidden: dict[int, list[int]] = {}
    for message in events:
        if message["type"] != "kong":
            continue
        ev = parse_event(message)
        assert isinstance(ev, Kong) and ev.seat is not None
        if ev.tile is not None:
            out[ev.seq] = parse_tile(ev.tile)
        else:
            hidden.setdefault(ev.seat, []).append(ev.seq)
    for seat, seqs in hidden.items():
        tiles = [m.tile for m in view.melds(seat) if m.kong == "concealed"]
        out.update(zip(seqs, tiles, strict=False))
    return out
