"""``chuanma engine schema``: the JSON Schema of the engine's events, for clients and other
implementations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from chuanma.engine.event_types import event_json_schema

engine_app = typer.Typer(help="The game engine's contract.", no_args_is_help=True)


def schema_text() -> str:
    """The events' JSON Schema as the file ``docs/events.schema.json`` holds it."""
    return json.dumps(event_json_schema(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


@engine_app.command()
def schema(
    out: Annotated[Path | None, typer.Option("--out", help="write it to this file instead of printing it")] = None,
) -> None:
    """Print (or write) the JSON Schema of every event's JSON form."""
    text = schema_text()
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        typer.echo(f"error: cannot write {out}: {exc.strerror}", err=True)
        raise typer.Exit(1) from None
