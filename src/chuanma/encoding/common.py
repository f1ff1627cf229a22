"""What both encoders read from a view: relative seats and the one-hot codes of its fields."""

from __future__ import annotations

from chuanma.rules import RuleSet
from chuanma.tiles import NUM_SUITED

KINDS = NUM_SUITED
"""Tile kinds encoded under the Sichuan presets: the 27 suited kinds."""
PHASES = ("exchange", "void", "turn", "claim", "rob", "waiting", "end")
DIRECTION_CODES = ("to_next", "opposite", "to_previous")
RECENT = 6
"""Discards of each seat that the planes encoder shows in order."""


def kinds_of(rules: RuleSet) -> int:
    """The tile kinds an observation under ``rules`` has a column for: 27, or 34 with honours."""
    return rules.tiles.kinds

