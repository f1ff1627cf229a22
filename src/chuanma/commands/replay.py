"""``chuanma replay RECORD.json``: play a hand record again and show what happened."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from chuanma.engine import Game, RecordError, load
from chuanma.engine import replay as replay_record
from chuanma.rules import RuleSet

_SEAT = "seat {}"


def event_line(ev: dict[str, Any], rules: RuleSet | None = None) -> str | None:
    """One event as a line for players (fan totals as ``rules.fan_label`` shows them, if given)."""
    kind = ev["type"]
    who = _SEAT.format(ev["seat"]) if "seat" in ev else ""
    if kind == "deal":
        return f"{who} is dealt {ev['hand']}"
    if kind == "exchange_chosen":
        return f"{who} gives {ev['tiles']}"
    if kind == "exchange":
        return f"exchange direction: {ev['direction']}"
    if kind == "voids":
        return "voids: " + ", ".join(f"seat {i} {v}" for i, v in enumerate(ev["voids"]))
    if kind == "draw":
        extra = " (replacement)" if ev["replacement"] else ""
        return f"{who} draws {ev['tile']}{extra}, {ev['wall']} left"
    if kind == "discard":
        return f"{who} discards {ev['tile']}"
    if kind == "pong":
        return f"{who} pongs {ev['tile']} from seat {ev['from']}"
    if kind == "kong":
        frm = f" from seat {ev['from']}" if "from" in ev else ""
        late = " (过手杠)" if ev.get("late") else ""
        return f"{who} {ev['kind']} kong {ev['tile']}{frm}{late}"
    if kind == "kong_declared":
        return f"{who} adds {ev['tile']} to a pong"
    if kind == "kong_robbed":
        return f"{who}'s kong of {ev['tile']} is robbed"
    if kind == "hu":
        how = "self-drawn" if ev["self_drawn"] else f"on seat {ev['from']}'s tile"
        fans = " + ".join(f"{f['name']} {f['fan']}" for f in ev["fans"]) or "no fan"
        total = ev["total"] if rules is None else rules.fan_label(ev["total"])
        return (f"{who} wins {how} with {ev['hand']} + {ev['tile']}: {fans} = {total} fan "
                f"(×{ev['multiplier']})")
    if kind == "payment":
        return f"  seat {ev['payer']} pays seat {ev['payee']} {ev['amount']} ({ev['reason']})"
    if kind == "leave":
        return f"{who} leaves the table"
    if kind == "exhausted":
        return "the wall is exhausted: 查花猪, 查大叫, 退税"
    if kind == "end":
        return f"hand over ({ev['reason']}): " + " | ".join(
            f"seat {i} {h}" for i, h in enumerate(ev["hands"]))
    return None


def _show(game: Game, console: Console) -> None:
    for ev in game.events:
        text = event_line(ev.to_json(), game.rules)
        if text is not None:
            console.print(f"[dim]{ev.seq:4d}[/dim] {text}", highlight=False)
    table = Table(title="result (units of base)")
    for seat in range(4):
        table.add_column(f"seat {seat}", justify="right")
    table.add_row(*(f"{d:+d}" for d in game.deltas()))
    console.print(table)


def replay(
    record: Annotated[Path, typer.Argument(help="a chuanma-record/1 JSON file")],
    as_json: Annotated[bool, typer.Option("--json", help="print events and result as JSON")] = False,
) -> None:
    """Replay a hand record: every event and payment, or the reason it is refused."""
    try:
        game = replay_record(load(str(record)))
    except RecordError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        out = {"events": [e.to_json() for e in game.events], "result": game.result()}
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    _show(game, Console())
