"""Set-ups shared by the engine tests: a game from four starting hands and a draw order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chuanma.engine.actions import Action, ChooseVoid
from chuanma.engine.game import Direction, Game
from chuanma.engine.wall import build_wall
from chuanma.rules import RuleSet
from chuanma.tiles import parse_tile


def rules(preset: str = "xuezhan", **options: Any) -> RuleSet:
    return RuleSet.from_preset(preset, **{"exchange": False, **options})


def game(
    hands: Sequence[str],
    draws: str = "",
    replacements: str = "",
    *,
    voids: str | None = None,
    dealer: int = 0,
    direction: Direction = "to_next",
    ruleset: RuleSet | None = None,
    **options: Any,
) -> Game:
    """A game dealt ``hands`` (by seat), with the wall's draws and replacements in order.

    ``voids`` ("spms": one suit per seat) is chosen for every seat whose void is not automatic.
    """
    wall = build_wall(hands, draws, replacements, dealer=dealer)
    g = Game(ruleset or rules(**options), wall, dealer, direction)
    if voids is not None:
        for seat, suit in enumerate(voids):
            if g.voids[seat] is None:
                g.apply(seat, ChooseVoid(suit))
    return g


def t(text: str) -> int:
    return parse_tile(text)


def play(g: Game, *moves: tuple[int, Action]) -> None:
    for seat, action in moves:
        g.apply(seat, action)
