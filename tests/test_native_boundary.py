"""The compiled core at its boundary with Python: a hand cannot change while it is being read (a
collection's finalizer or another thread acting on it meanwhile gets a ``RuntimeError``), and
output arrays are written in place or refused with a ``TypeError`` (never a silent copy).
"""

from __future__ import annotations

import gc
import random
import threading
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from chuanma import _core
from chuanma.encoding.common import kinds_of
from chuanma.encoding.layout import compact_shape
from chuanma.engine import Game
from chuanma.engine.game import core_rules
from chuanma.engine.indices import ACTION_COUNT
from chuanma.rules import RuleSet


def played(seed: int, steps: int) -> Game:
    """A 血流 hand played at random for ``steps`` decisions, past its first win (another seed's if it
    ends first)."""
    for attempt in range(seed, seed + 100):
        rng = random.Random(attempt)
        rules = RuleSet.from_preset("xueliu")
        wall = rules.tiles.wall()
        rng.shuffle(wall)
        game = Game(rules, wall, 0, "to_next")
        done = 0
        while not game.finished and (done < steps or (steps and not game.core.wins())):
            seat = rng.choice(game.to_act())
            game.apply_index(seat, rng.choice(game.core.legal(seat)))
            done += 1
        if not game.finished:
            return game
    raise AssertionError("no hand went on past its first win")


@pytest.fixture
def collecting_often() -> Iterator[None]:
    """A collection at nearly every allocation of a container, as many as a long read meets."""
    threshold = gc.get_threshold()
    gc.set_threshold(1, 1, 1)
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


READS: dict[str, Callable[[_core.Hand], object]] = {
    "to_dict": lambda hand: hand.to_dict(),
    "view": lambda hand: hand.view(1),
    "wins": lambda hand: hand.wins(),
    "events": lambda hand: hand.events(),
    "logged": lambda hand: hand.logged(),
}


@pytest.mark.parametrize("read", sorted(READS))
@pytest.mark.usefixtures("collecting_often")
def test_a_finalizer_cannot_change_a_hand_being_read(read: str) -> None:
    game = played(11, 60)
    hand = game.core
    before = READS[read](hand)
    tried: list[BaseException | None] = []

    def act(phase: str, _info: dict[str, int]) -> None:
        if phase != "start" or tried:  # the first collection, inside the read
            return
        seat = hand.to_act()[0]
        try:
            hand.apply(seat, hand.legal(seat)[0])
            tried.append(None)
        except RuntimeError as e:
            tried.append(e)

    gc.callbacks.append(act)
    try:
        during = READS[read](hand)
    finally:
        gc.callbacks.remove(act)
    assert len(tried) == 1 and isinstance(tried[0], RuntimeError), tried
    assert "being read" in str(tried[0])
    assert during == before
    seat = hand.to_act()[0]
    hand.apply(seat, hand.legal(seat)[0])  # after the read the hand plays on
    assert READS[read](hand) != before or read == "wins"


def test_a_thread_cannot_change_a_hand_being_read() -> None:
    """Another thread acting while this one reads (the read lets it run whenever it runs Python
    code): each read is of one state, whole, and each action is applied or refused, never half."""
    hand = played(12, 40).core
    results: list[str] = []
    stop = threading.Event()

    def player() -> None:
        while not stop.is_set() and not hand.finished:
            seat = hand.to_act()[0]
            try:
                hand.apply(seat, hand.legal(seat)[0])
                results.append("applied")
            except RuntimeError:
                results.append("refused")

    thread = threading.Thread(target=player)
    thread.start()
    try:
        for _ in range(50):
            data = hand.to_dict()
            assert _core.Hand.from_dict(data).to_dict() == data
    finally:
        stop.set()
        thread.join()
    assert results and set(results) <= {"applied", "refused"}
    again = _core.Hand.from_dict(hand.to_dict())
    assert again.to_dict() == hand.to_dict() and again.version == len(hand.decisions())


def test_a_copy_made_during_a_read_can_change() -> None:
    hand = played(13, 40).core
    copies: list[_core.Hand] = []

    def copy_once(phase: str, _info: dict[str, int]) -> None:
        if phase == "start" and not copies:
            copies.append(hand.__copy__())

    gc.callbacks.append(copy_once)
    threshold = gc.get_threshold()
    gc.set_threshold(1, 1, 1)
    try:
        hand.to_dict()
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.pop()
    copy = copies[0]
    seat = copy.to_act()[0]
    copy.apply(seat, copy.legal(seat)[0])
    assert copy.version == hand.version + 1


# ------------------------------------------------------------------ output arrays

def wrong_outputs(good: np.ndarray) -> list[np.ndarray]:
    """Arrays the core could only write through a copy: another dtype, not C-contiguous."""
    wrong = [good.astype(np.float64 if good.dtype != np.float64 else np.float32)]
    if good.ndim == 2:
        wrong.append(np.asfortranarray(np.empty((good.shape[0], good.shape[1] + 1), good.dtype)[:, 1:]))
    else:
        wrong.append(np.empty(good.shape[0] * 2, good.dtype)[::2])
    return wrong


def test_batch_outputs_of_another_kind_are_refused() -> None:
    rules = RuleSet.from_preset("xuezhan")
    n = 3
    core = _core.BatchHands(core_rules(rules), n, False, 1.0, "compact")
    outs = {
        "observations": np.zeros((n, *compact_shape(kinds_of(rules))), np.float32),
        "masks": np.zeros((n, ACTION_COUNT), np.int8),
        "seats": np.zeros(n, np.int64),
    }
    core.reset(5, *outs.values())
    assert outs["masks"].any()  # written in place
    step = {"rewards": np.zeros((n, 4), np.float32), "done": np.zeros(n, np.bool_)}
    for name, good in outs.items():
        for bad in wrong_outputs(good):
            with pytest.raises(TypeError):
                core.reset(5, *{**outs, name: bad}.values())
    actions = np.array([int(np.flatnonzero(row)[0]) for row in outs["masks"]], np.int64)
    for name, good in {**outs, **step}.items():
        for bad in wrong_outputs(good):
            with pytest.raises(TypeError):
                core.step(actions, *{**outs, **step, name: bad}.values())
    assert core.step(actions, *outs.values(), *step.values()) is None


def test_encode_outputs_of_another_kind_are_refused() -> None:
    game = played(14, 0)
    rules = game.state.rules
    good = np.zeros(compact_shape(kinds_of(rules)), np.float32)
    hand = game.core
    tile = next(t for t in range(27) if hand.counts(1)[t])
    at = hand.dealt()[0].index(hand.dealt()[0][-1])
    for bad in wrong_outputs(good):
        with pytest.raises(TypeError):
            _core.encode_swapped(hand, 0, 1, tile, at, bad)
        with pytest.raises(TypeError):
            _core.encode_void_swapped(hand, 0, 1, 0, bad)


def test_batch_analysis_outputs_of_another_kind_are_refused() -> None:
    hands = np.zeros((3, 27), np.uint8)
    for bad in wrong_outputs(np.empty(3, np.bool_)):
        with pytest.raises(TypeError):
            _core.is_win_batch(hands, bad)
    for bad in wrong_outputs(np.empty(3, np.int8)):
        with pytest.raises(TypeError):
            _core.shanten_batch(hands, np.full(3, -1, np.int8), bad)
    out = np.empty(3, np.bool_)
    assert _core.is_win_batch(hands, out) == -1 and not out.any()
