"""Wins' payments: what each payer of a self-drawn win pays (the portal's calculator asks it; the
compiled core settles a hand's wins itself)."""

from __future__ import annotations

from chuanma.rules import RuleSet


def self_drawn_each(rules: RuleSet, multiplier: int) -> int:
    """What each payer of a self-drawn win pays, in units of base: the multiplier, +1 with 自摸加底."""
    return multiplier + (1 if rules.zimo_bonus == "base" else 0)
