"""What differs between the game systems: 血战到底, 血流成河, 普通场 (the first win ends the hand)
and 大众麻将.

A :class:`Variant` (modelled on scalachess's) owns the tile set, who keeps playing after a win,
when the hand ends, which phases and melds exist (换三张, 定缺, 吃) and how a hand is counted where
the systems differ (根). A :class:`~chuanma.rules.RuleSet` carries its variant
(``rules.game_variant``); the rest of the code asks it instead of branching on a name or a flag.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from chuanma.tiles import ALL_TILES, SICHUAN_TILES, TileSet


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
    tiles: TileSet
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
    """定缺 exists, and a winning hand lacks a suit (缺一门): Sichuan; 大众麻将 has neither."""
    chow: bool = False
    """吃: the 下家 of a discarder may chow its suited discard (大众麻将); claims are then win >
    pong/kong > chow."""
    fans: Literal["sichuan", "dazhong"] = "sichuan"
    """Whose fan list counts a hand: Sichuan's (根, 金钩钓), or 大众麻将's (门清, 平胡; its kongs
    are paid and count no 根)."""

    wall: WallLayout = field(init=False)
    """The wall's layout for this variant's tile set."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "wall", WallLayout(self.tiles.size))

    def hand_over(self, out: list[bool]) -> bool:
        """Whether play stops before the wall is empty."""
        return sum(out) >= self.ends_at


XUEZHAN = Variant("xuezhan", SICHUAN_TILES, winners_stay=False, exchange=True, ends_at=3,
                  over_reason="three_won")
XUELIU = Variant("xueliu", SICHUAN_TILES, winners_stay=True, exchange=True, ends_at=3,
                 over_reason="too_few_players")
NORMAL = Variant("normal", SICHUAN_TILES, winners_stay=False, exchange=True, ends_at=1,
                 over_reason="won")
DAZHONG = Variant("dazhong", ALL_TILES, winners_stay=False, exchange=False, ends_at=1,
                  over_reason="won", void=False, chow=True, fans="dazhong")
VARIANTS = {v.name: v for v in (XUEZHAN, XUELIU, NORMAL, DAZHONG)}
"""Every variant by the name the rule option ``variant`` gives."""
