"""``chuanma rules``: the presets and every rule option with its value."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from chuanma.commands.options import RulesOption, SetOption, rules_from_cli
from chuanma.errors import ChuanmaError
from chuanma.rules import PRESETS, RuleSet, valid_values


def rules(
    preset: RulesOption = "xuezhan",
    options: SetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the options as JSON.")] = False,
) -> None:
    """Show a rule set: every option, its value and what it accepts."""
    try:
        ruleset = rules_from_cli(preset, options)
    except ChuanmaError as exc:
        raise typer.BadParameter(str(exc), param_hint="--rules/--set") from None
    if as_json:
        typer.echo(json.dumps({"preset": ruleset.preset, "options": ruleset.options()}, ensure_ascii=False))
        return
    console = Console()
    console.print(f"[bold]Rules: {ruleset.describe()}[/]  (presets: {', '.join(PRESETS)})")
    table = Table(show_lines=False)
    table.add_column("option", no_wrap=True)
    table.add_column("value", no_wrap=True)
    table.add_column("meaning (and the values it accepts)", overflow="fold")
    for name, info in RuleSet.model_fields.items():
        if name != "preset":
            meaning = Text(sentence(info.description or name))
            meaning.append(f"\nAccepts {valid_values(name)}.", style="dim")
            table.add_row(name, typed(getattr(ruleset, name)), meaning)
    console.print(table)
    console.print("[dim]Change an option with --set option=value, e.g. --set max_fan=4 --set exchange=off.[/]")


def typed(value: Any) -> str:
    """An option's value as a user types it after ``--set name=``: on/off, none, JSON for objects."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def sentence(text: str) -> str:
    """An option's description as a full sentence: a capital first letter and a final full stop."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
