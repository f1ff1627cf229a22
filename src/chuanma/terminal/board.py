"""The table as one seat sees it, drawn from :class:`SeatView` only (never another seat's
private state): the three other seats (上家 / 对家 / 下家), then one's own hand."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from chuanma.engine import SeatView
from chuanma.terminal.words import melds_text, relative, tiles_text, void_text
from chuanma.tiles import Tile, from_counts

PHASE_WORDS = {"exchange": "换三张", "void": "定缺", "turn": "playing", "claim": "claim",
               "rob": "抢杠?", "waiting": "claim window", "end": "hand over"}


WIDE = 120
"""From this width on the ticker stands beside the table."""


def seat_header(view: SeatView, seat: int, names: Sequence[str], session: Sequence[int]) -> Text:
    """``下家 greedy 庄 缺条 chips +3 (session −5) 13 tiles ◀ to play``."""
    assert view.seat is not None
    p = view.players[seat]
    rel = relative(seat, view.seat)
    out = Text(rel, style="bold yellow" if rel == "you" else "bold")
    if rel != "you":
        out.append(f" {names[seat]}")
    if seat == view.dealer:
        out.append(" 庄", style="bold red")
    if view.rules.game_variant.void:  # 大众麻将 has no 定缺
        out.append(" ").append_text(void_text(p.void))
    delta = view.totals[seat]
    out.append(f"  chips {delta:+d}", style="green" if delta > 0 else "red" if delta < 0 else "")
    out.append(f" (session {session[seat] + delta:+d})", style="dim")
    out.append(f"  {p.tiles} tiles")
    if p.won:
        out.append(f"  胡×{p.won}", style="bold green")
    if p.locked and not p.out:
        out.append(" locked", style="green")
    if p.left:
        out.append("  left 逃跑", style="red")
    elif p.out and p.won:
        out.append("  out (won)", style="green")
    if view.current == seat and view.phase == "turn":
        out.append("  ◀ to play", style="bold reverse")
    return out


def latest_discard(view: SeatView) -> tuple[int, Tile] | None:
    """The last discard of the hand, if it still lies in its river."""
    if not view.discard_log:
        return None
    seat, tile = view.discard_log[-1]
    river = view.players[seat].discards
    return (seat, tile) if river and river[-1] == tile else None


def seat_block(view: SeatView, seat: int, names: Sequence[str], session: Sequence[int]) -> Group:
    """One seat: header, melds, river (latest highlighted), win pile and shown hand."""
    p = view.players[seat]
    lines: list[RenderableType] = [seat_header(view, seat, names, session)]
    if p.melds:
        lines.append(Text("  melds ").append_text(melds_text(p.melds)))
    latest = latest_discard(view)
    river = Text("  river ", style="dim").append_text(
        tiles_text(p.discards, highlight_last=latest is not None and latest[0] == seat))
    lines.append(river if p.discards else Text("  river —", style="dim"))
    if p.win_pile:
        lines.append(Text("  胡牌  ", style="green").append_text(tiles_text(p.win_pile)))
    if p.hand is not None and seat != view.seat:
        label = "  hand  " if view.finished else "  shows "
        lines.append(Text(label, style="green").append_text(tiles_text(from_counts(p.hand))))
    return Group(*lines)


def own_hand(view: SeatView) -> Text:
    """One's own concealed tiles sorted, the drawn tile set apart, void-suit tiles marked."""
    counts = list(view.hand)
    drawn = view.drawn
    if drawn is not None:
        counts[drawn] -= 1
    out = tiles_text(from_counts(counts), marked=view.void)
    if drawn is not None:
        out.append("   drew ").append_text(tiles_text([drawn], marked=view.void))
    return out


def status_line(view: SeatView, hand_no: str) -> Text:
    """Hand number, rules, wall count and whose turn it is."""
    assert view.seat is not None
    phase = PHASE_WORDS.get(view.phase, view.phase)
    out = Text(f"{hand_no} · {view.rules.describe()} · wall ", style="bold")
    out.append(str(view.wall), style="bold cyan")
    if view.current is not None and view.phase == "turn":
        out.append(f" · {relative(view.current, view.seat)} to play")
    out.append(f" · {phase}")
    return out


def board(view: SeatView, names: Sequence[str], session: Sequence[int], hand_no: str,
          ticker: Sequence[str] = (), width: int = 80, compact: bool = False) -> RenderableType:
    """The whole table for the viewer: the other seats in the order 上家, 对家, 下家, then one's own
    seat and hand; with ``width`` of 120 or more the ticker stands beside the table. ``compact``
    (a short terminal): one's hand on one line without its frame."""
    me = view.seat
    assert me is not None
    blocks: list[RenderableType] = [status_line(view, hand_no)]
    for step in (3, 2, 1):
        blocks.append(seat_block(view, (me + step) % 4, names, session))
    mine = seat_block(view, me, names, session)
    hand: RenderableType = Panel(own_hand(view), title="your hand", title_align="left", border_style="yellow",
                                 subtitle="缺 tiles underlined: discard them first" if view.holds_void() else None,
                                 subtitle_align="left")
    if compact:
        hand = Text("your hand ", style="bold yellow").append_text(own_hand(view))
    table = Group(*blocks, mine, hand)
    news = Text("\n".join(ticker), style="dim", overflow="fold")
    if width >= WIDE:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(width=80)
        grid.add_column()
        grid.add_row(table, Panel(news, title="ticker", title_align="left"))
        return grid
    return Group(Panel(news, title="ticker", title_align="left", border_style="dim"), table) if ticker else table
