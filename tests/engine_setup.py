"""Set-ups shared by the engine tests: a game from four starting hands and a draw order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chuanma.engine.actions import Action, ChooseVoid, Discard, Hu, Pass, Pong
from chuanma.engine.game import Direction, Game
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
        wall = build_wall(hands, draws, replacements, dealer=dealer, size=ruleset.tiles.size)
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


# 抢杠胡 / 过手杠: seat 1 pongs seat 0's 7p, later adds the fourth 7p; seat 2 waits on 4p7p.
ROB = [
    "456m789m789m1111s7p",  # dealer, void p: discards 7p
    "77p11p234s345s567s",  # void m (automatic): pongs 7p
    "111222333m88p5p9s",  # void s: draws 6p, discards 9s, waits 4p 7p
    "444555666m3578s",  # void p (automatic)
]
ROB_DRAWS = "6p2p9m7p"
# 血流: seat 2 robs seat 1's kong (first win, hand locked on 4p 7p), discards a draw that is
# not a win automatically, konges 1m (waits unchanged) and wins again on the replacement 4p.
XUELIU_DRAWS = "6p2p9m7p" + "2p3p2m9p" + "9s3p3m1m" + "3p"


def robbing_game(
    hands: list[str] = ROB, draws: str = ROB_DRAWS, replacements: str = "3p", **options: Any
) -> Game:
    """The 抢杠胡 set-up: seat 1, holding seat 0's 7p as a pong, has just drawn (the last 7p)."""
    g = game(hands, draws=draws, replacements=replacements, voids="pmsp", **options)
    play(g, (0, Discard(t("7p"))), (1, Pong(t("7p"))), (1, Discard(t("2s"))),
         (2, Discard(t("9s"))), (3, Discard(t("2p"))), (0, Discard(t("9m"))))
    assert g.current == 1 and g.state.seats[g.current].drawn == t(draws[6:8] or "7p")
    return g
