"""``chuanma replay RECORD.json``: play a hand record again and show what happened."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from chuanma.engine import Game, RecordError, hand_outcome, load
from chuanma.engine import replay as replay_record
from chuanma.narration import Lang, narrate
from chuanma.rules import RuleSet

SEATS = {"zh": "座位 {}", "en": "Seat {}"}
"""A seat's name (as the replay viewer's), by language."""


def event_line(ev: dict[str, Any], lang: Lang = "en", rules: RuleSet | None = None) -> str | None:
    """One event as a line for players: the sentence the browser's ticker and replay viewer say
    (with ``rules``, a win's fan total as the rules label it)."""
    return narrate(ev, SEATS[lang].format, lang, None if rules is None else rules.fan_label)


def _show(game: Game, console: Console, lang: Lang) -> None:
    for ev in game.events:
        data = ev.to_json()
        text = event_line(data, lang, game.rules)
        if text is not None:
            console.print(f"[dim]{ev.seq:4d}[/dim] {text}", highlight=False)
        if data["type"] == "end":  # every hand, revealed
            for seat, hand in enumerate(data["hands"]):
                console.print(f"     {SEATS[lang].format(seat)}: {hand}", highlight=False)
    table = Table(title="result (units of base)")
    for seat in range(4):
        table.add_column(SEATS[lang].format(seat), justify="right")
    table.add_row(*(f"{d:+d}" for d in game.deltas()))
    console.print(table)


def replay(
    record: Annotated[Path, typer.Argument(help="a chuanma-record/2 JSON file")],
    as_json: Annotated[bool, typer.Option("--json", help="print events and result as JSON")] = False,
    lang: Annotated[str, typer.Option("--lang", help="the events' language: zh or en")] = "en",
) -> None:
    """Replay a hand record: every event and payment (with ``--json`` also the hand's outcome by
    seat), or the reason it is refused."""
    if lang not in SEATS:
        raise typer.BadParameter(f"no language {lang!r}: zh or en", param_hint="--lang")
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
    _show(game, Console(), "zh" if lang == "zh" else "en")
