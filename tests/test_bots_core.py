"""Bots see one seat's view only, never choose an illegal decision, and reproduce exactly."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Sequence

import pytest

from chuanma.bots import BOTS, Bot, SeatView, make_bot
from chuanma.engine.actions import Action
from chuanma.engine.game import Game
from chuanma.rules import PRESETS, RuleSet
from chuanma.sim.play import bot_seed, deal_for, play_hand
from chuanma.tiles import SICHUAN_TILES


def test_bot_api_takes_a_view_and_the_legal_actions() -> None:
    hints = typing.get_type_hints(Bot.choose)
    assert hints["view"] == SeatView | None
    for name in BOTS:
        bot = BOTS[name](1)
        assert isinstance(bot, Bot)
        params = list(inspect.signature(bot.choose).parameters)
        assert params == ["view", "legal"]
    # the view is plain data: no field can hold the game, the state or the wall
    for name, kind in SeatView.__annotations__.items():
        assert "Game" not in str(kind) and "HandState" not in str(kind) and "Hidden" not in str(kind)
        assert name not in ("game", "state", "hidden")
    assert len(SeatView.__annotations__) == len(SeatView._fields) > 20


class Spy:
    """Checks that the view it is handed is the engine's redaction for its seat, then lets the
    bot it wraps play."""

    name = "spy"

    def __init__(self, game_ref: list[Game], seed: int, inner: str = "greedy") -> None:
        self.game_ref = game_ref
        self.inner = BOTS[inner](seed)
        self.checked = 0

    def choose(self, view: SeatView | None, legal: Sequence[Action]) -> Action:
        g = self.game_ref[0]
        assert view is not None and view.seat is not None
        assert view == g.view(view.seat)
        assert list(view.legal_actions) == list(legal)
        for p in view.players:
            if p.seat != view.seat:
                # another seat's concealed tiles are never shown, except a winner's laid-down hand
                assert p.hand is None or p.won
        self.checked += 1
        return self.inner.choose(view, legal)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("name", ["greedy", "expert"])
def test_bots_are_handed_the_engines_redaction_of_their_seat(preset: str, name: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    rules = RuleSet.from_preset(preset)
    ref: list[Game] = []
    real_init = Game.__init__

    def init(self: Game, *a: typing.Any, **k: typing.Any) -> None:
        real_init(self, *a, **k)
        ref[:] = [self]

    monkeypatch.setattr(Game, "__init__", init)
    for i in range(4):
        spies = [Spy(ref, s, name) for s in range(4)]
        play_hand(rules, deal_for(7, i, rules.tiles), spies)  # type: ignore[arg-type]
        assert all(s.checked for s in spies)


MIXES = [["random"] * 4, ["greedy"] * 4, ["defensive"] * 4, ["random", "greedy", "defensive", "greedy"],
         ["expert"] * 4, ["expert", "random", "defensive", "greedy"]]
HANDS_PER_PRESET = 480  # 4,320 hands over the nine presets


@pytest.mark.parametrize("preset", list(PRESETS))
def test_no_illegal_decision_in_any_preset(preset: str) -> None:
    """play_hand raises on any decision outside the legal list; every hand is zero-sum."""
    rules = RuleSet.from_preset(preset)
    for i in range(HANDS_PER_PRESET):
        names = MIXES[i % len(MIXES)]
        bots = [make_bot(names[s], bot_seed(11, i, s)) for s in range(4)]
        r = play_hand(rules, deal_for(11, i, rules.tiles), bots)
        assert sum(x.delta for x in r.seats) == 0


@pytest.mark.parametrize("preset", list(PRESETS))
def test_search_bot_makes_only_legal_decisions(preset: str) -> None:
    rules = RuleSet.from_preset(preset)
    for i in range(2):
        bots = [make_bot(name, bot_seed(12, i, s)) for s, name in enumerate(["search", "greedy", "search", "random"])]
        r = play_hand(rules, deal_for(12, i, rules.tiles), bots)
        assert sum(x.delta for x in r.seats) == 0


@pytest.mark.parametrize("name", list(BOTS))
def test_same_seed_same_record(name: str) -> None:
    rules = RuleSet.from_preset("xueliu")
    for i in range(3):
        recs = []
        for _ in range(2):
            bots = [make_bot(name, bot_seed(5, i, s)) for s in range(4)]
            recs.append(play_hand(rules, deal_for(5, i, SICHUAN_TILES), bots, record=True).record)
        assert recs[0] == recs[1]
