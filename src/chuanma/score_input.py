"""A hand to score as JSON (``chuanma score``'s lines, the portal's calculator), checked in one place.

``{"hand", "win_tile", "melds", "self_drawn", "void", "situations", "rules"}``: melds as
``"pong:5p"`` or ``{"kind": "pong", "tile": "5p"}``. Bad input raises a ``ValueError`` subclass
naming the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chuanma.errors import NotationError, naming, shown
from chuanma.melds import Meld, parse_meld
from chuanma.rules import RuleSet
from chuanma.scoring import ScoreResult, score_hand
from chuanma.tiles import Tile, parse_hand, parse_tile

FIELDS: dict[str, Any] = {"rules": None, "hand": None, "melds": [], "win_tile": None, "self_drawn": False,
                          "void": None, "situations": []}
"""Every key of a hand to score and its value when left out (``rules`` and ``void`` may also be null)."""
_KIND_NAMES = {str: "a string", list: "a list", bool: "true or false"}


@dataclass(frozen=True, slots=True)
class ScoreInput:
    """A checked hand to score, with its rule set."""

    rules: RuleSet
    hand: list[Tile]
    melds: list[Meld]
    win_tile: Tile
    self_drawn: bool
    void: str | None
    situations: list[str]

    def score(self) -> ScoreResult:
        """:func:`chuanma.scoring.score_hand` of this hand."""
        return score_hand(self.rules, self.hand, self.melds, self.win_tile, self_drawn=self.self_drawn,
                          void=self.void, situations=self.situations)


def _field(data: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in data or (data[key] is None and key in ("rules", "void")):
        return FIELDS[key]
    value = data[key]
    if not isinstance(value, kind):
        raise NotationError(f"{key!r} must be {_KIND_NAMES[kind]}, got {shown(value)}")
    return value


def read_score_input(data: object, default_rules: RuleSet, cache: dict[str, RuleSet]) -> ScoreInput:
    """``data`` (a decoded JSON value) as a :class:`ScoreInput`; ``cache`` keeps rule sets by their JSON."""
    if not isinstance(data, Mapping):
        raise NotationError("each hand to score must be a JSON object")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise NotationError(f"unknown key {shown(unknown[0])}; valid keys: {', '.join(sorted(FIELDS))}")
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
    return ScoreInput(
        rules,
        naming("'hand'", lambda: parse_hand(hand, tile_set=rules.tiles)),
        [parse_meld(m, tile_set=rules.tiles) for m in _field(data, "melds", list)],
        naming("'win_tile'", lambda: parse_tile(win_tile, tile_set=rules.tiles)),
        _field(data, "self_drawn", bool),
        _field(data, "void", str),
        situations,
    )
