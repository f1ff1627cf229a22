"""Set-ups shared by the engine tests: a game from four starting hands and a draw order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chuanma.engine.actions import Action, ChooseVoid, Discard, Hu, Pass
from chuanma.engine.game import Direction, Game
from chuanma.engine.variant import variant_of
from chuanma.engine.wall import build_wall
from chuanma.rules import RuleSet
from chuanma.tiles import parse_tile, parse_tiles


def rules(preset: str = "xuezhan", **options: Any) -> RuleSet:
    return RuleSet.from_preset(preset, **{"exchange": False, **options})


def game(
    hands: Sequence[str],
    draws: str | Sequence[int] = "",
    replacements: str = "",
    *,
    voids: str | None = None,
    dealer: int = 0,
    direction: Direction = "to_next",
    ruleset: RuleSet | None = None,
    wall: list[int] | None = None,
    **options: Any,
) -> Game:
    """A game dealt ``hands`` (by seat), with the wall's draws and replacements in order.

    ``voids`` ("spms": one suit per seat) is chosen for every seat whose void is not automatic.
    """
    ruleset = ruleset or rules(**options)
    if wall is None:
        wall = build_wall(hands, draws, replacements, dealer=dealer, size=variant_of(ruleset).wall.size)
    g = Game(ruleset, wall, dealer, direction)
    if voids is not None:
        for seat, suit in enumerate(voids):
            if g.state.seats[seat].void is None:
                g.apply(seat, ChooseVoid(suit))
    return g


def t(text: str) -> int:
    return parse_tile(text)


def play(g: Game, *moves: tuple[int, Action]) -> None:
    for seat, action in moves:
        g.apply(seat, action)


def wall_at(
    hands: Sequence[str], at: dict[int, str], replacements: str = "", dealer: int = 0
) -> list[int]:
    """A wall dealing ``hands`` whose k-th live draw is ``at[k]`` (other draws: the rest)."""
    wall = build_wall(hands, replacements=replacements, dealer=dealer)
    fixed = {53 + k for k in at} | {107 - i for i in range(len(parse_tiles(replacements)))}
    for k, text in sorted(at.items()):
        idx, want = 53 + k, parse_tile(text)
        if wall[idx] == want:
            continue
        j = next(j for j in range(53, 108) if j not in fixed and wall[j] == want)
        wall[idx], wall[j] = wall[j], wall[idx]
    return wall


def run_out(g: Game, stop: Callable[[Game], bool] | None = None) -> None:
    """Each seat discards what it drew (else its first legal discard) and every claim is
    passed, except wins that must be taken, until ``stop(g)`` or the end of the hand."""
    while not g.finished and not (stop is not None and stop(g)):
        if g.phase in ("claim", "rob"):
            for s in g.to_act():
                g.apply(s, Hu() if g.legal_actions(s) == [Hu()] else Pass())
            continue
        s = g.current
        acts = g.legal_actions(s)
        if acts == [Hu()]:
            g.apply(s, Hu())
            continue
        drawn = Discard(g.state.seats[g.current].drawn) if g.state.seats[g.current].drawn is not None else None
        g.apply(s, drawn if drawn in acts else next(a for a in acts if isinstance(a, Discard)))
