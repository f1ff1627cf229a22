"""Bots see one seat's view only, never choose an illegal decision, and reproduce exactly."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Sequence

import pytest

from chuanma.bots import BOTS, Bot, SeatView, make_bot
from chuanma.bots.view import Observer
from chuanma.engine.actions import Action
from chuanma.engine.game import Game
from chuanma.rules import PRESETS, RuleSet
from chuanma.sim.play import bot_seed, deal_for, play_hand
from chuanma.tiles import format_tiles, parse_tiles, to_counts


def test_bot_api_takes_a_view_and_the_legal_actions() -> None:
    hints = typing.get_type_hints(Bot.choose)
    assert hints["view"] is SeatView
    for name in BOTS:
        bot = make_bot(name, 1)
        assert isinstance(bot, Bot)
        params = list(inspect.signature(bot.choose).parameters)
        assert params == ["view", "legal"]
    # the view is plain data: no field can hold the game or the wall
    for f in dataclasses.fields(SeatView):
        assert "Game" not in str(f.type) and f.name not in ("game", "wall_order")


class Spy:
    """Checks each view it is given against the engine's own per-seat view, then plays greedy."""

    name = "spy"

    def __init__(self, game_ref: list[Game], seed: int) -> None:
        self.game_ref = game_ref
        self.inner = make_bot("greedy", seed)
        self.checked = 0

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        g = self.game_ref[0]
        seat = view.seat
        engine_view = g.view(seat)
        me = engine_view["players"][seat]
        assert format_tiles([t for t, c in enumerate(view.hand) for _ in range(c)]) == me["hand"]
        assert view.wall == engine_view["wall"]
        assert view.totals == engine_view["totals"]
        for p in engine_view["players"]:
            s = p["seat"]
            assert view.tiles[s] == p["tiles"]
            assert format_tiles(view.discards[s], sort=False) == p["discards"]
            assert format_tiles(view.win_piles[s], sort=False) == p["win_pile"]
            if "void" in p:
                assert view.voids[s] == p["void"]
            if s != seat:
                # another seat's concealed tiles are never in the bot's view, except a winner's
                # hand as the rules show it
                shown = view.shown[s]
                assert shown is None or p["won"]
            assert len(view.melds[s]) + (view.hidden_kongs[s] if s != seat else 0) == len(p["melds"])
        self.checked += 1
        return self.inner.choose(view, legal)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_view_matches_the_engine_view_and_hides_other_seats(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = RuleSet.from_preset(preset)
    ref: list[Game] = []
    real_init = Game.__init__

    def init(self: Game, *a: typing.Any, **k: typing.Any) -> None:
        real_init(self, *a, **k)
        ref[:] = [self]

    monkeypatch.setattr(Game, "__init__", init)
    for i in range(4):
        spies = [Spy(ref, s) for s in range(4)]
        play_hand(rules, deal_for(7, i), spies)  # type: ignore[arg-type]
        assert all(s.checked for s in spies)


def test_observer_reads_only_its_seat_stream() -> None:
    rules = RuleSet.from_preset("xuezhan")
    d = deal_for(3, 0)
    g = Game(rules, list(d.wall), d.dealer, d.direction)
    calls: list[int] = []

    def events_for(seat: int, since: int) -> list[dict[str, typing.Any]]:
        calls.append(seat)
        return g.events_for(seat, since)

    o = Observer(2, rules)
    v = o.observe(events_for)
    assert calls == [2]
    assert sum(v.hand) == (14 if d.dealer == 2 else 13)
    assert v.hand == to_counts(parse_tiles(g.view(2)["players"][2]["hand"]))[:27]


MIXES = [["random"] * 4, ["greedy"] * 4, ["defensive"] * 4, ["random", "greedy", "defensive", "greedy"]]
HANDS_PER_PRESET = 480  # 3,360 hands over the seven presets


@pytest.mark.parametrize("preset", list(PRESETS))
def test_no_illegal_decision_in_any_preset(preset: str) -> None:
    """play_hand raises on any decision outside the legal list; every hand is zero-sum."""
    rules = RuleSet.from_preset(preset)
    for i in range(HANDS_PER_PRESET):
        names = MIXES[i % len(MIXES)]
        bots = [make_bot(names[s], bot_seed(11, i, s)) for s in range(4)]
        r = play_hand(rules, deal_for(11, i), bots)
        assert sum(x.delta for x in r.seats) == 0


@pytest.mark.parametrize("preset", list(PRESETS))
def test_search_bot_makes_only_legal_decisions(preset: str) -> None:
    rules = RuleSet.from_preset(preset)
    for i in range(2):
        bots = [make_bot(name, bot_seed(12, i, s)) for s, name in enumerate(["search", "greedy", "search", "random"])]
        r = play_hand(rules, deal_for(12, i), bots)
        assert sum(x.delta for x in r.seats) == 0


@pytest.mark.parametrize("name", list(BOTS))
def test_same_seed_same_record(name: str) -> None:
    rules = RuleSet.from_preset("xueliu")
    for i in range(3):
        recs = []
        for _ in range(2):
            bots = [make_bot(name, bot_seed(5, i, s)) for s in range(4)]
            recs.append(play_hand(rules, deal_for(5, i), bots, record=True).record)
        assert recs[0] == recs[1]
