"""A quick fan estimate for the bots' look-ahead (exact scoring is :mod:`chuanma.scoring`)."""

from __future__ import annotations

from collections.abc import Sequence

from chuanma.melds import Meld


def fan_estimate(hand: Sequence[int], melds: Sequence[Meld], self_drawn: bool, zimo_fan: bool) -> int:
    """A quick fan count of a complete 14-tile (concealed plus melds) hand."""
    fan = 0
    suits = {t // 9 for t in range(27) if hand[t]} | {m.tile // 9 for m in melds}
    if len(suits) == 1:
        fan += 2
    held = [c for c in hand if c]
    if not melds and all(c % 2 == 0 for c in held) and sum(hand) == 14:
        fan += 2
    elif sum(1 for c in held if c == 2) == 1 and all(c in (2, 3) for c in held):
        fan += 1
    fan += sum(1 for c in hand if c == 4)
    fan += sum(1 for m in melds if m.kind == "kong" or hand[m.tile])
    if self_drawn and zimo_fan:
        fan += 1
    return fan


__all__ = ["fan_estimate"]
