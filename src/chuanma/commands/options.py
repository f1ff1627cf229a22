"""Options shared by several commands: choosing the rules."""

from __future__ import annotations

from typing import Annotated

import typer

from chuanma.rules import RuleSet

RulesOption = Annotated[
    str,
    typer.Option("--rules", "-r", help='Preset (xuezhan, xueliu, classic, …) or JSON {"preset": …, "options": …}.'),
]
SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", help="Override one rule option, e.g. --set max_fan=4 (repeatable)."),
]


def rules_from_cli(rules: str, assignments: list[str] | None) -> RuleSet:
    """The rule set named on the command line with its ``--set`` overrides."""
    return RuleSet.from_json(rules).with_assignments(assignments or [])
