"""A :class:`HandReader` is handed a read-only observer of its seat: it writes that seat's encodings
(the hand's own, through the one redaction), holds nothing else, and keeps the hand alive."""

from __future__ import annotations

import copy
import gc
import pickle
from collections.abc import Sequence

import numpy as np
import pytest

from chuanma import _core
from chuanma.bots import BOTS, Bot, HandReader, SeatView, decide
from chuanma.encoding import ENCODERS, SeatObserver, encoder
from chuanma.engine import Action, Game
from chuanma.rules import RuleSet
from chuanma.sim.play import bot_seed, deal_for, play_game
from chuanma.tiles import SICHUAN_TILES

PUBLIC = {"seat", "kinds", "encode_compact", "encode_planes"}


class Checker(HandReader):
    """Checks each observer it is handed against the live hand (reached through ``game_ref``, which
    a real reader has not), then plays as ``greedy`` would from the seat's view."""

    name = "checker"

    def __init__(self, game_ref: list[Game], seed: int) -> None:
        self.game_ref = game_ref
        self.inner = BOTS["greedy"](seed)
        self.checked = 0

    def choose_in(self, observer: SeatObserver, legal: Sequence[Action]) -> Action:
        game = self.game_ref[0]
        seat = observer.seat
        assert type(observer) is _core.SeatObserver and legal == game.legal_actions(seat)
        assert {n for n in dir(observer) if not n.startswith("_")} == PUBLIC
        assert observer.kinds == game.rules.tiles.kinds
        for name in ENCODERS:
            encode, shape = encoder(name, game.rules)
            expected = np.empty(shape, dtype=np.float32)
            getattr(game.core, f"encode_{name}")(seat, expected)
            assert np.array_equal(encode(observer, np.empty(shape, dtype=np.float32)), expected)
        self.checked += 1
        return self.inner.choose(game.view(seat), legal)


@pytest.mark.parametrize("preset", ["xuezhan", "dazhong"])
def test_a_reader_is_handed_its_seats_encodings_and_nothing_else(preset: str) -> None:
    rules = RuleSet.from_preset(preset)
    game_ref: list[Game] = []
    readers = [Checker(game_ref, bot_seed(3, 0, s)) for s in range(4)]
    deal = deal_for(3, 0, rules.tiles)
    game_ref.append(Game(rules, list(deal.wall), deal.dealer, deal.direction))
    game = game_ref[0]
    decisions = 0
    while not game.finished:
        seat = game.to_act()[0]
        game.apply(seat, decide(readers[seat], game, seat, game.legal_actions(seat)))
        decisions += 1
    assert sum(r.checked for r in readers) == decisions > 20
    # the same hand played by play_game (which asks through decide) ends the same way
    replayed = play_game(rules, deal, [BOTS["greedy"](bot_seed(3, 0, s)) for s in range(4)])
    assert replayed.deltas() == game.deltas()


def test_an_observer_reaches_neither_the_hand_nor_a_copy_of_it() -> None:
    game = Game(RuleSet.from_preset("xueliu"), list(deal_for(5, 0, SICHUAN_TILES).wall), 0, "to_next")
    observer = game.core.observer(2)
    assert observer.seat == 2
    for name in dir(observer):
        value = getattr(observer, name)
        assert not isinstance(value, (_core.Hand, Game)), name
    assert not any(isinstance(o, (_core.Hand, Game)) for o in gc.get_referents(observer))
    for attribute in ("hand", "to_dict", "counts", "dealt", "apply", "leave", "pass_pending", "set_seeds"):
        assert not hasattr(observer, attribute)
    with pytest.raises(AttributeError):
        observer.seat = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        observer.hand = game.core  # type: ignore[attr-defined]
    for clone in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError, match="cannot be pickled"):
            clone(observer)
    with pytest.raises(TypeError):
        _core.SeatObserver()  # made by Hand.observer alone
    with pytest.raises(ValueError, match="seats are 0-3"):
        game.core.observer(4)


def test_an_observer_is_live_and_keeps_its_hand_alive() -> None:
    rules = RuleSet.from_preset("xuezhan")
    deal = deal_for(9, 0, SICHUAN_TILES)
    game = Game(rules, list(deal.wall), deal.dealer, deal.direction)
    encode, shape = encoder("compact", rules)
    observer = game.core.observer(1)
    before = encode(observer, np.empty(shape, dtype=np.float32))
    seat = game.to_act()[0]
    game.apply(seat, game.legal_actions(seat)[0])
    after = encode(observer, np.empty(shape, dtype=np.float32))
    assert not np.array_equal(before, after)  # the observer follows the hand as it plays on
    del game
    gc.collect()
    assert np.array_equal(encode(observer, np.empty(shape, dtype=np.float32)), after)


class ViewBotWithAReadersMethod:
    """A view bot that happens to have a ``choose_in`` attribute: it is still a Bot."""

    name = "view"
    needs_view = True

    def __init__(self) -> None:
        self.views: list[SeatView | None] = []

    def choose_in(self, observer: SeatObserver, legal: Sequence[Action]) -> Action:
        raise AssertionError("only a HandReader is handed an observer")

    def choose(self, view: SeatView | None, legal: Sequence[Action]) -> Action:
        self.views.append(view)
        return legal[0]


def test_decide_tells_a_reader_by_its_class_not_its_methods() -> None:
    game = Game(RuleSet.from_preset("xuezhan"), list(deal_for(2, 0, SICHUAN_TILES).wall), 0, "to_next")
    bot = ViewBotWithAReadersMethod()
    assert isinstance(bot, Bot) and not isinstance(bot, HandReader)
    seat = game.to_act()[0]
    decide(bot, game, seat, game.legal_actions(seat))
    assert bot.views == [game.view(seat)]
