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


def rules_from_cli(rules: str, assignments: list[str] | None, *, any_variant: bool = False) -> RuleSet:
    """The rule set named on the command line with its ``--set`` overrides.

    Unless ``any_variant`` (for showing a rule set), the engine must be able to play it: a
    ``variant`` it does not implement (dazhong) is refused with a :class:`RuleSetError`.
    """
    ruleset = RuleSet.from_json(rules).with_assignments(assignments or [])
    return ruleset if any_variant else ruleset.require_playable()
