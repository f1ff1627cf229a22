"""What differs between the game systems: 血战到底, 血流成河, 普通场 (the first win ends the hand)
and 大众麻将.

A :class:`Variant` owns who keeps playing after a win, when the hand ends, whether there is an
exchange, and the wall: its size and layout. The rest of the engine asks the variant instead of
branching on the rule set's name.
"""

from __future__ import annotations

from dataclasses import dataclass

from chuanma.rules import RuleSet


@dataclass(frozen=True, slots=True)
class WallLayout:
    """Where the deal, the live draws and the kong replacements come from (docs/engine.md)."""

    size: int
    """Tiles in the set."""
    hand: int = 13
    """Tiles each seat is dealt (the dealer one more)."""

    @property
    def deal_end(self) -> int:
        """Index of the first live draw: the dealer's 14th tile is the one before it."""
        return 4 * self.hand + 1

    @property
    def last(self) -> int:
        """Index of the first kong replacement (the wall's end)."""
        return self.size - 1


@dataclass(frozen=True, slots=True)
class Variant:
    """One game system."""

    name: str
    wall: WallLayout
    winners_stay: bool
    """血流: a winner's hand is locked and it keeps drawing; 血战: a winner leaves play."""
    exchange: bool
    """换三张 exists (the rule option ``exchange`` may still turn it off)."""
    ends_at: int
    """Play stops once this many seats no longer play: 3 (血战: three winners; 血流: leavers
    only), or 1 (the first win ends the hand: 普通场, 大众麻将)."""
    over_reason: str
    """The end reason when :meth:`hand_over` stops the hand."""
    void: bool = True
    """定缺 exists (Sichuan); 大众麻将 has none."""
    chow: bool = False
    """吃: the 下家 of a discarder may chow its suited discard (大众麻将); claims are then win >
    pong/kong > chow."""

    def has_exchange(self, rules: RuleSet) -> bool:
        return self.exchange and rules.exchange

    def hand_over(self, out: list[bool]) -> bool:
        """Whether play stops before the wall is empty."""
        return sum(out) >= self.ends_at


XUEZHAN = Variant("xuezhan", WallLayout(108), winners_stay=False, exchange=True, ends_at=3,
                  over_reason="three_won")
XUELIU = Variant("xueliu", WallLayout(108), winners_stay=True, exchange=True, ends_at=3,
                 over_reason="too_few_players")
NORMAL = Variant("normal", WallLayout(108), winners_stay=False, exchange=True, ends_at=1,
                 over_reason="won")
DAZHONG = Variant("dazhong", WallLayout(136), winners_stay=False, exchange=False, ends_at=1,
                  over_reason="won", void=False, chow=True)
VARIANTS = {v.name: v for v in (XUEZHAN, XUELIU, NORMAL, DAZHONG)}


def variant_of(rules: RuleSet) -> Variant:
    """The variant a rule set plays."""
    return VARIANTS[rules.variant]
