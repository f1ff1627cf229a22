"""Options shared by several commands: choosing the rules and reading melds."""

from __future__ import annotations

from typing import Annotated

import typer

from chuanma.melds import Meld
from chuanma.rules import RuleSet
from chuanma.tiles import parse_tile

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


def parse_meld_option(text: str) -> Meld:
    """Read ``pong:5p``, ``kong:7p`` (exposed), ``kong:7p:concealed`` or ``chow:3m``."""
    parts = text.split(":")
    if len(parts) not in (2, 3):
        raise typer.BadParameter(f"meld {text!r} must look like pong:5p or kong:7p:concealed")
    kind = parts[0]
    kong = parts[2] if len(parts) == 3 else ("exposed" if kind == "kong" else None)
    return Meld(kind, parse_tile(parts[1]), kong)  # type: ignore[arg-type]
