"""``chuanma score``: JSON Lines in, one scored result per line out."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any, TextIO

import typer

from chuanma.commands.options import RulesOption, SetOption, rules_from_cli
from chuanma.errors import ChuanmaError
from chuanma.json_input import JSON_WHITESPACE, parse_json
from chuanma.rules import RuleSet
from chuanma.score_input import read_score_input


def score_line(line: str, default_rules: RuleSet, cache: dict[str, RuleSet]) -> dict[str, Any]:
    """Score one JSON object; raise a ``ValueError`` subclass for malformed input."""
    request = read_score_input(parse_json(line, "the line"), default_rules, cache)
    return request.score().to_dict(with_label=request.rules.fan_label_offset != 0)


def score_stream(source: Iterable[str | bytes], sink: TextIO, rules: RuleSet) -> int:
    """Score every non-blank line of ``source`` into ``sink``; return the number of malformed lines.

    A blank line holds only JSON whitespace; any other line gets an answer, a result or an error.

    Lines may be bytes (standard input is read as bytes, so a line that is not UTF-8 gets its
    error like any other bad line).
    """
    errors = 0
    cache: dict[str, RuleSet] = {}
    for number, raw in enumerate(source, 1):
        try:
            line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
            if not line.strip(JSON_WHITESPACE):
                continue
            out = score_line(line, rules, cache)
        except UnicodeDecodeError:
            errors += 1
            out = {"error": f"line {number}: not UTF-8 text"}
        except (ChuanmaError, ValueError) as exc:
            errors += 1
            out = {"error": f"line {number}: {exc}"}
        sink.write(json.dumps(out, ensure_ascii=False) + "\n")
    return errors


def score(rules: RulesOption = "xuezhan", options: SetOption = None) -> None:
    """Score hands: read JSON Lines on stdin, write one JSON result per line on stdout.

    Each line: {"hand": "123m456m789m23p55p", "win_tile": "4p", "melds": ["pong:5s"], "self_drawn": false,
    "void": "s", "situations": [...], "rules": "xuezhan"}. Every preset scores, dazhong (honours
    1z-7z, chow:3m melds, no void) included. A malformed line gets {"error": ...}; the command
    goes on and exits 1 at the end.
    """
    try:
        ruleset = rules_from_cli(rules, options)
    except ChuanmaError as exc:
        raise typer.BadParameter(str(exc), param_hint="--rules/--set") from None
    if score_stream(sys.stdin.buffer, sys.stdout, ruleset):
        raise typer.Exit(1)
