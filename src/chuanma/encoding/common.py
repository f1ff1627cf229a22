"""What both encoders read from a view: relative seats and the one-hot codes of its fields."""

from __future__ import annotations

from chuanma.rules import RuleSet
from chuanma.tiles import NUM_KINDS, NUM_SUITED

KINDS = NUM_SUITED
"""Tile kinds encoded under the Sichuan presets: the 27 suited kinds."""
KINDS_HONORS = NUM_KINDS
"""Tile kinds encoded under 大众麻将: the 34 kinds, the honours ``1z``–``7z`` last."""
PHASES = ("exchange", "void", "turn", "claim", "rob", "waiting", "end")
DIRECTION_CODES = ("to_next", "opposite", "to_previous")
VOID_CODES = ("m", "p", "s")
WALL_SCALE = 1 / 108
"""Wall counts are given as a share of the 108-tile set."""
SCORE_SCALE = 1 / 32
"""Scores so far are given in units of 32 base."""
HELD_SCALE = 1 / 14
RECENT = 6
"""Discards of each seat that the planes encoder shows in order."""


def kinds_of(rules: RuleSet) -> int:
    """The tile kinds an observation under ``rules`` has a column for: 27, or 34 with honours."""
    return rules.tiles.kinds

