"""Options shared by several commands: choosing the rules, the bounds of hands and seeds."""

from __future__ import annotations

from typing import Annotated

import typer

from chuanma.rules import RuleSet

MAX_HANDS = 10**8
"""The most hands one command plays (simulate, league, play): days of work at the fastest bots."""
MAX_SEED = 2**63 - 1
"""The largest seed a command accepts."""
MAX_WORKERS = 1024
"""The most worker processes a command accepts (it starts no more than its chunks of work or the cores)."""

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
