"""``chuanma score``: JSON Lines in, one scored result per line out."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

import typer

from chuanma.commands.options import RulesOption, SetOption, rules_from_cli
from chuanma.errors import ChuanmaError, NotationError
from chuanma.melds import Meld
from chuanma.rules import RuleSet
from chuanma.scoring import score_hand
from chuanma.tiles import parse_hand, parse_tile

_KEYS = {"rules", "hand", "melds", "win_tile", "self_drawn", "void", "situations"}


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    value = data.get(key, default)
    if value is not None and not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise NotationError(f"{key!r} must be {names}, got {value!r}")
    return value


def score_line(line: str, default_rules: RuleSet, cache: dict[str, RuleSet]) -> dict[str, Any]:
    """Score one JSON object; raise a ``ValueError`` subclass for malformed input."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise NotationError(f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise NotationError("each line must be a JSON object")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise NotationError(f"unknown key {unknown[0]!r}; valid keys: {', '.join(sorted(_KEYS))}")
    rules = default_rules
    if data.get("rules") is not None:
        key = json.dumps(data["rules"], sort_keys=True)
        if key not in cache:
            cache[key] = RuleSet.from_json(data["rules"])
        rules = cache[key]
    hand = _field(data, "hand", str)
    win_tile = _field(data, "win_tile", str)
    if hand is None or win_tile is None:
        raise NotationError("'hand' and 'win_tile' are required")
    melds_raw = _field(data, "melds", list, [])
    situations = _field(data, "situations", list, [])
    if not all(isinstance(s, str) for s in situations):
        raise NotationError("'situations' must be a list of strings")
    result = score_hand(
        rules,
        parse_hand(hand),
        [Meld.from_dict(m) for m in melds_raw],
        parse_tile(win_tile),
        self_drawn=bool(_field(data, "self_drawn", bool, False)),
        void=_field(data, "void", str),
        situations=situations,
    )
    return result.to_dict(with_label=rules.fan_label_offset != 0)


def score_stream(source: TextIO, sink: TextIO, rules: RuleSet) -> int:
    """Score every non-blank line of ``source`` into ``sink``; return the number of malformed lines."""
    errors = 0
    cache: dict[str, RuleSet] = {}
    for number, line in enumerate(source, 1):
        if not line.strip():
            continue
        try:
            out = score_line(line, rules, cache)
        except (ChuanmaError, ValueError) as exc:
            errors += 1
            out = {"error": f"line {number}: {exc}"}
        sink.write(json.dumps(out, ensure_ascii=False) + "\n")
    return errors


def score(rules: RulesOption = "xuezhan", options: SetOption = None) -> None:
    """Score hands: read JSON Lines on stdin, write one JSON result per line on stdout.

    Each line: {"hand": "123m456m789m23p55p", "win_tile": "4p", "melds": [...], "self_drawn": false,
    "void": "s", "situations": [...], "rules": "xuezhan"}. A malformed line gets {"error": ...};
    the command goes on and exits 1 at the end.
    """
    try:
        ruleset = rules_from_cli(rules, options)
    except ChuanmaError as exc:
        raise typer.BadParameter(str(exc), param_hint="--rules/--set") from None
    if score_stream(sys.stdin, sys.stdout, ruleset):
        raise typer.Exit(1)
