"""The hot path's tables and caches give exactly what the plain forms give."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from chuanma.engine.actions import Exchange
from chuanma.engine.game import Game
from chuanma.engine.tables import format_counts, format_river, format_sequence
from chuanma.engine.views import event_for
from chuanma.rules import PRESETS, RuleSet
from chuanma.tiles import SICHUAN_TILES, format_tiles
from reference_engine.legal import offered
from reference_engine.tables import exchange_options, rules_json

tiles27 = st.lists(st.integers(0, 26), max_size=20)
hand_tiles = tiles27.filter(lambda ts: all(ts.count(t) <= 4 for t in ts))


@given(hand_tiles)
def test_format_counts_is_format_tiles(tiles: list[int]) -> None:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    assert format_counts(counts) == format_tiles(tiles)


@given(tiles27)
def test_format_sequence_is_format_tiles_unsorted(tiles: list[int]) -> None:
    assert format_sequence(tiles) == format_tiles(tiles, sort=False)
    assert format_river(tiles) == format_tiles(tiles, sort=False)
    assert format_river(tiles) == format_river(list(tiles))  # remembered: the same text again


@given(st.lists(st.integers(0, 26), min_size=13, max_size=14).filter(
    lambda ts: all(ts.count(t) <= 4 for t in ts)))
def test_exchange_options_are_every_three_tiles_of_one_suit(tiles: list[int]) -> None:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    expected = sorted({tuple(sorted(c)) for c in combinations(tiles, 3) if len({t // 9 for t in c}) == 1})
    got = exchange_options(counts)
    assert [a.tiles for a in got if isinstance(a, Exchange)] == expected
    assert exchange_options(counts) == got  # the cached answer is the same


def test_offered_finds_equal_actions_too() -> None:
    options = exchange_options([3, 1, 1] + [0] * 31)
    assert offered(options[1], options)
    assert offered(Exchange((0, 0, 1)), options)
    assert not offered(Exchange((1, 1, 1)), options)


def test_rules_json_is_to_json_and_a_copy() -> None:
    for name in PRESETS:
        rules = RuleSet.from_preset(name, base=3)
        first = rules_json(rules)
        assert first == rules.to_json() == rules_json(rules)
        assert isinstance(first, dict)
        first["options"]["base"] = 99
        assert rules_json(rules) == rules.to_json()


def test_events_for_is_every_visible_event_for_seat() -> None:
    for seed in range(3):
        rng = random.Random(seed)
        wall = SICHUAN_TILES.wall()
        rng.shuffle(wall)
        g = Game(RuleSet.from_preset("xueliu"), wall, seed % 4)
        while not g.finished:
            seat = rng.choice(g.to_act())
            g.apply(seat, rng.choice(g.legal_actions(seat)))
            if rng.random() < 0.2:
                since = rng.randrange(len(g.events))
                for viewer in (0, 1, 2, 3, None):
                    shown = [event_for(e, viewer) for e in g.events[since:]]
                    assert g.events_for(viewer, since) == [e for e in shown if e is not None]
        mine = g.events_for(0)
        mine[0]["type"] = "changed"
        assert g.events_for(0)[0]["type"] == "start"  # each call gives new dicts
