"""The search bot: legal in every preset, deterministic, and its fan estimate."""

from __future__ import annotations

import pytest

from chuanma.bots import make_bot
from chuanma.bots.evaluate import fan_estimate
from chuanma.bots.search import SearchBot
from chuanma.melds import Meld
from chuanma.rules import PRESETS, RuleSet
from chuanma.sim.play import bot_seed, deal_for, play_hand
from chuanma.tiles import parse_tiles, to_counts


def _counts(text: str) -> list[int]:
    return list(to_counts(parse_tiles(text))[:27])


@pytest.mark.parametrize("preset", list(PRESETS))
def test_search_plays_legal_hands(preset: str) -> None:
    rules = RuleSet.from_preset(preset)
    for i in range(3):
        bots = [make_bot(("search", "defensive", "search", "greedy")[s], bot_seed(3, i, s)) for s in range(4)]
        r = play_hand(rules, deal_for(3, i), bots)
        assert sum(x.delta for x in r.seats) == 0


def test_search_without_rollouts_is_defensive() -> None:
    rules = RuleSet.from_preset("xuezhan")

    class NoSearch(SearchBot):
        rollouts = 0

    for i in range(3):
        a = play_hand(rules, deal_for(9, i), [NoSearch(bot_seed(9, i, s)) for s in range(4)], record=True).record
        b = play_hand(rules, deal_for(9, i), [make_bot("defensive", bot_seed(9, i, s)) for s in range(4)],
                      record=True).record
        assert a is not None and b is not None
        assert a["decisions"] == b["decisions"]


def test_fan_estimate() -> None:
    assert fan_estimate(_counts("11223344556677m"), [], False, True) == 4  # 清一色 七对
    assert fan_estimate(_counts("123456789m11p"), [Meld("pong", 22)], False, True) == 0
    assert fan_estimate(_counts("111222m33p"), [Meld("pong", 13)], True, True) == 2  # 对对胡, 自摸
    assert fan_estimate(_counts("11112345678999m"), [], False, True) == 3  # 清一色, 根


@pytest.mark.parametrize("preset", ["xuezhan", "classic"])
def test_passing_cheap_wins_stays_legal(preset: str) -> None:
    from chuanma.bots.defensive import DefensiveBot

    class Passing(DefensiveBot):
        pass_cheap_wins = True

    rules = RuleSet.from_preset(preset)
    for i in range(4):
        r = play_hand(rules, deal_for(4, i), [Passing(bot_seed(4, i, s)) for s in range(4)])
        assert sum(x.delta for x in r.seats) == 0
