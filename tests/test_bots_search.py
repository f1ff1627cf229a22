"""The search bot: legal in every preset, deterministic, and its play-outs scored by the rules."""

from __future__ import annotations

import pytest

from chuanma.bots import make_bot
from chuanma.bots.search import SearchBot
from chuanma.rules import PRESETS, RuleSet
from chuanma.sim.play import bot_seed, deal_for, play_hand
from chuanma.tiles import SICHUAN_TILES, parse_tiles, to_counts


def _counts(text: str) -> list[int]:
    return list(to_counts(parse_tiles(text))[:27])


@pytest.mark.parametrize("preset", list(PRESETS))
def test_search_plays_legal_hands(preset: str) -> None:
    rules = RuleSet.from_preset(preset)
    for i in range(3):
        bots = [make_bot(("search", "defensive", "search", "greedy")[s], bot_seed(3, i, s)) for s in range(4)]
        r = play_hand(rules, deal_for(3, i, rules.tiles), bots)
        assert sum(x.delta for x in r.seats) == 0


def test_search_without_rollouts_is_defensive() -> None:
    rules = RuleSet.from_preset("xuezhan")

    class NoSearch(SearchBot):
        rollouts = 0

    for i in range(3):
        deal = deal_for(9, i, SICHUAN_TILES)
        a = play_hand(rules, deal, [NoSearch(bot_seed(9, i, s)) for s in range(4)], record=True).record
        b = play_hand(rules, deal, [make_bot("defensive", bot_seed(9, i, s)) for s in range(4)], record=True).record
        assert a is not None and b is not None
        assert a["decisions"] == b["decisions"]


def test_playouts_value_a_win_by_the_rules_scoring() -> None:
    """A play-out that wins is worth the multiplier the rules give the hand (no second fan count)."""
    rules = RuleSet.from_preset("xuezhan")
    # after discarding 9p: 111 234 567 89m + 11p, waiting on 7m (and 4m): a plain win, 2^0 = 1 base
    hand = _counts("11123456789m11p9p")
    nine_p, seven_m = parse_tiles("9p7m")
    assert SearchBot._playout(hand, nine_p, None, [seven_m] * 8, 1, 2, [], 1, rules) == 1.0
    # after discarding 9p: 1122334455667m waits on 7m: 七对 2 + 清一色 2 = 4 fan, 2^4 = 16 base
    flush = _counts("1122334455667m9p")
    assert SearchBot._playout(flush, nine_p, "p", [seven_m] * 4, 1, 1, [], 1, rules) == 16.0


@pytest.mark.parametrize("preset", ["xuezhan", "classic"])
def test_passing_cheap_wins_stays_legal(preset: str) -> None:
    from chuanma.bots.defensive import DefensiveBot

    class Passing(DefensiveBot):
        pass_cheap_wins = True

    rules = RuleSet.from_preset(preset)
    for i in range(4):
        r = play_hand(rules, deal_for(4, i, SICHUAN_TILES), [Passing(bot_seed(4, i, s)) for s in range(4)])
        assert sum(x.delta for x in r.seats) == 0
