"""``chuanma replay RECORD.json``: play a hand record again and show what happened."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from chuanma.engine.event_types import (
    AnyEvent,
    Deal,
    Discard,
    Draw,
    End,
    Exchange,
    ExchangeChosen,
    Exhausted,
    Hu,
    Kong,
    KongDeclared,
    KongRobbed,
    Leave,
    Payment,
    Pong,
    Voids,
    parse_event,
)
from chuanma.engine.game import Game
from chuanma.engine.outcome import hand_outcome
from chuanma.engine.record import RecordError, load
from chuanma.engine.record import replay as replay_record
from chuanma.rules import RuleSet

_SEAT = "seat {}"


def event_line(ev: AnyEvent, rules: RuleSet | None = None) -> str | None:
    """One event as a line for players (fan totals as ``rules.fan_label`` shows them, if given)."""
    who = _SEAT.format(ev.seat) if ev.seat is not None else ""
    match ev:
        case Deal():
            return f"{who} is dealt {ev.hand}"
        case ExchangeChosen():
            return f"{who} gives {ev.tiles}"
        case Exchange():
            return f"exchange direction: {ev.direction}"
        case Voids():
            return "voids: " + ", ".join(f"seat {i} {v}" for i, v in enumerate(ev.voids))
        case Draw():
            extra = " (replacement)" if ev.replacement else ""
            return f"{who} draws {ev.tile}{extra}, {ev.wall} left"
        case Discard():
            return f"{who} discards {ev.tile}"
        case Pong():
            return f"{who} pongs {ev.tile} from seat {ev.from_seat}"
        case Kong():
            frm = f" from seat {ev.from_seat}" if ev.from_seat is not None else ""
            late = " (过手杠)" if ev.late else ""
            return f"{who} {ev.kind} kong {ev.tile}{frm}{late}"
        case KongDeclared():
            return f"{who} adds {ev.tile} to a pong"
        case KongRobbed():
            return f"{who}'s kong of {ev.tile} is robbed"
        case Hu():
            how = "self-drawn" if ev.self_drawn else f"on seat {ev.from_seat}'s tile"
            fans = " + ".join(f"{f.name} {f.fan}" for f in ev.fans) or "no fan"
            total = ev.total if rules is None else rules.fan_label(ev.total)
            return (f"{who} wins {how} with {ev.hand} + {ev.tile}: {fans} = {total} fan "
                    f"(×{ev.multiplier})")
        case Payment():
            return f"  seat {ev.payer} pays seat {ev.payee} {ev.amount} ({ev.reason})"
        case Leave():
            return f"{who} leaves the table"
        case Exhausted():
            return "the wall is exhausted: 查花猪, 查大叫, 退税"
        case End():
            return f"hand over ({ev.reason}): " + " | ".join(f"seat {i} {h}" for i, h in enumerate(ev.hands))
    return None


def _show(game: Game, console: Console) -> None:
    for ev in game.events:
        text = event_line(parse_event(ev), game.rules)
        if text is not None:
            console.print(f"[dim]{ev.seq:4d}[/dim] {text}", highlight=False)
    table = Table(title="result (units of base)")
    for seat in range(4):
        table.add_column(f"seat {seat}", justify="right")
    table.add_row(*(f"{d:+d}" for d in game.deltas()))
    console.print(table)


def replay(
    record: Annotated[Path, typer.Argument(help="a chuanma-record/2 JSON file")],
    as_json: Annotated[bool, typer.Option("--json", help="print events and result as JSON")] = False,
) -> None:
    """Replay a hand record: every event and payment (with ``--json`` also the hand's outcome by
    seat), or the reason it is refused."""
    try:
        game = replay_record(load(str(record)))
    except RecordError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        out = {"events": [e.to_json() for e in game.events], "result": game.result(),
               "outcome": hand_outcome(game.events).to_json()}
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    _show(game, Console())
