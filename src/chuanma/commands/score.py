"""``chuanma score``: JSON Lines in, one scored result per line out."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any, TextIO

import typer

from chuanma.commands.options import RulesOption, SetOption, rules_from_cli
from chuanma.errors import ChuanmaError, NotationError, naming, shown
from chuanma.json_input import parse_json
from chuanma.melds import parse_meld
from chuanma.rules import RuleSet
from chuanma.scoring import score_hand
from chuanma.tiles import parse_hand, parse_tile

_DEFAULTS: dict[str, Any] = {"rules": None, "hand": None, "melds": [], "win_tile": None, "self_drawn": False,
                             "void": None, "situations": []}
"""Every key of a line and its value when left out (``rules`` and ``void`` may also be null)."""
_KIND_NAMES = {str: "a string", list: "a list", bool: "true or false"}


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    if key not in data or (data[key] is None and key in ("rules", "void")):
        return _DEFAULTS[key]
    value = data[key]
    if not isinstance(value, kind):
        raise NotationError(f"{key!r} must be {_KIND_NAMES[kind]}, got {shown(value)}")
    return value


def score_line(line: str, default_rules: RuleSet, cache: dict[str, RuleSet]) -> dict[str, Any]:
    """Score one JSON object; raise a ``ValueError`` subclass for malformed input."""
    data = parse_json(line, "the line")
    if not isinstance(data, dict):
        raise NotationError("each line must be a JSON object")
    unknown = sorted(set(data) - set(_DEFAULTS))
    if unknown:
        raise NotationError(f"unknown key {shown(unknown[0])}; valid keys: {', '.join(sorted(_DEFAULTS))}")
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
    situations = _field(data, "situations", list)
    if not all(isinstance(s, str) for s in situations):
        raise NotationError("'situations' must be a list of strings")
    result = score_hand(
        rules,
        naming("'hand'", lambda: parse_hand(hand, honors=rules.honors)),
        [parse_meld(m, honors=rules.honors) for m in _field(data, "melds", list)],
        naming("'win_tile'", lambda: parse_tile(win_tile, honors=rules.honors)),
        self_drawn=_field(data, "self_drawn", bool),
        void=_field(data, "void", str),
        situations=situations,
    )
    return result.to_dict(with_label=rules.fan_label_offset != 0)


def score_stream(source: Iterable[str | bytes], sink: TextIO, rules: RuleSet) -> int:
    """Score every non-blank line of ``source`` into ``sink``; return the number of malformed lines.

    Lines may be bytes (standard input is read as bytes, so a line that is not UTF-8 gets its
    error like any other bad line).
    """
    errors = 0
    cache: dict[str, RuleSet] = {}
    for number, raw in enumerate(source, 1):
        try:
            line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
            if not line.strip():
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
