"""``chuanma rules``: the presets and every rule option with its value."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

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
        ruleset = rules_from_cli(preset, options, any_variant=True)
    except ChuanmaError as exc:
        raise typer.BadParameter(str(exc), param_hint="--rules/--set") from None
    if as_json:
        typer.echo(json.dumps({"preset": ruleset.preset, "options": ruleset.options()}, ensure_ascii=False))
        return
    table = Table(title=f"Rules: {ruleset.describe()}   (presets: {', '.join(PRESETS)})")
    for column in ("option", "value", "accepts", "meaning"):
        table.add_column(column)
    for name, info in RuleSet.model_fields.items():
        if name != "preset":
            table.add_row(name, str(getattr(ruleset, name)), valid_values(name), info.description or "")
    Console().print(table)
