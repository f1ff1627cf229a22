"""The bots in 大众麻将: which chow (or none), honour tiles, and whole hands of dazhong and
classic-normal played legally, with chows and honour pongs among the decisions."""

from __future__ import annotations

from collections import Counter

import pytest

from chuanma.bots import BOTS, make_bot
from chuanma.engine.actions import Chow, Discard, Pass
from chuanma.engine.game import Game
from chuanma.engine.wall import build_wall
from chuanma.rules import RuleSet
from chuanma.sim.play import bot_seed, deal_for, play_hand
from chuanma.tiles import NUM_SUITED, parse_tile

DAZHONG = RuleSet.from_preset("dazhong")
OTHERS = ["4445556667778s", "2224445556668p"]
"""Seats 2 and 3: hands that take no part."""


def after_dealer_discards(dealer_hand: str, seat1_hand: str, tile: str) -> Game:
    """A dazhong hand dealt by seat 0, which discards ``tile`` to seat 1, its 下家 (who alone
    may chow it)."""
    wall = build_wall([dealer_hand, seat1_hand, *OTHERS], size=136)
    g = Game(DAZHONG, wall, 0, "to_next")
    g.apply(0, Discard(parse_tile(tile)))
    return g


@pytest.mark.parametrize("name", ["greedy", "defensive", "search", "expert"])
def test_bots_chow_the_shape_that_leaves_the_hand_ready(name: str) -> None:
    """Seat 1 holds 34m 67m 789p 123s 11z 5z and may chow the 5m as 345m, 456m or 567m.
    345m leaves 67m 789p 123s 11z 5z: discarding 5z it is ready (on 5m or 8m); 567m leaves 34m
    and is ready the same way (on 2m or 5m); 456m leaves 3m and 7m apart, one tile from ready.
    Before the chow the hand is one tile from ready, so the bots chow, and never 456m."""
    g = after_dealer_discards("5m 19p 19s 1234567z 2m3p", "34m67m 789p 123s 11z 5z", "5m")
    legal = g.legal_actions(1)
    assert [a for a in legal if isinstance(a, Chow)] == [Chow(parse_tile(x)) for x in ("3m", "4m", "5m")]
    choice = BOTS[name](1).choose(g.view(1), legal)
    assert choice in (Chow(parse_tile("3m")), Chow(parse_tile("5m")))


@pytest.mark.parametrize("name", ["greedy", "defensive", "search", "expert"])
def test_bots_pass_a_chow_that_would_break_a_ready_hand(name: str) -> None:
    """Seat 1 is ready with seven pairs (33m 44m 77p 88p 11s 22s and 1z, waiting on 1z). The
    only chow of the 5m, 345m, spends a 3m and a 4m: the hand left (3m 4m 77p 88p 11s 22s 1z)
    is at best one tile from ready after a discard, so the bots pass."""
    g = after_dealer_discards("5m 19p 19s 234567z 2m3p9m", "3344m 7788p 1122s 1z", "5m")
    legal = g.legal_actions(1)
    assert Chow(parse_tile("3m")) in legal
    assert BOTS[name](1).choose(g.view(1), legal) == Pass()


@pytest.mark.parametrize("name", ["greedy", "defensive", "search", "expert"])
def test_bots_throw_a_lone_honour_before_a_lone_terminal(name: str) -> None:
    """The dealer holds 123m 456p 789s 11s, a lone 3p, a lone 9m and a lone 7z. Throwing any of
    the three keeps the hand one tile from ready; a 9m can still grow into a run or a pair (7m,
    8m, 9m help), a 7z only into a pair (7z alone helps), so the 7z goes."""
    hands = ["123m 456p 789s 11s 3p 9m 7z", "3344m 7788p 1122s 1z", *OTHERS]
    wall = build_wall(hands, size=136)
    g = Game(DAZHONG, wall, 0, "to_next")
    choice = BOTS[name](1).choose(g.view(0), g.legal_actions(0))
    assert isinstance(choice, Discard) and choice.tile >= NUM_SUITED


def _decisions(preset: str, names: list[str], hands: int) -> Counter[str]:
    """What the bots chose over ``hands`` simulated hands of ``preset``: kinds of decision, and
    ``pong-honour`` for a pong of an honour."""
    rules = RuleSet.from_preset(preset)
    seen: Counter[str] = Counter()
    for i in range(hands):
        bots = [make_bot(names[s], bot_seed(21, i, s)) for s in range(4)]
        r = play_hand(rules, deal_for(21, i, rules.tiles), bots, record=True)
        assert sum(x.delta for x in r.seats) == 0
        assert r.record is not None
        for d in r.record["decisions"]:
            kind = next(k for k in d if k != "seat")
            seen[kind] += 1
            if kind == "pong" and d["pong"].endswith("z"):
                seen["pong-honour"] += 1
    return seen


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_bot_plays_dazhong_with_chows(name: str) -> None:
    """Whole dazhong hands, every bot against greedy: legal (play_hand refuses anything else),
    zero-sum, and the chow is among the decisions taken, and so is a pong of honours."""
    hands = 6 if name == "search" else 30
    seen = _decisions("dazhong", [name, "greedy", name, "greedy"], hands)
    assert seen["chow"] > 0 and seen["pong-honour"] > 0
    assert "void" not in seen and "exchange" not in seen  # 大众麻将 has neither


def test_every_bot_plays_classic_normal() -> None:
    """classic-normal (001 普通场): every bot, whole hands, legal and zero-sum; no chow."""
    seen = _decisions("classic-normal", ["random", "greedy", "defensive", "search"], 8)
    assert seen["void"] > 0 and "chow" not in seen  # a seat whose void is plain chooses none
