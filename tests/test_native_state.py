"""The compiled hand's whole state in the ``chuanma-state/1`` JSON form, both ways, and its
automatic moves, in lockstep with the Python :class:`Game`.

At every step of random hands of every preset (seats leaving now and then, claim windows closed
by ``pass_pending`` now and then), ``_core.Hand.to_dict()`` equals ``HandState.to_dict()`` as JSON
text: the hidden wall and direction, the public part (logs, wins with their fans, payments, kongs,
the turn, the claim window), every seat's private part (claim options and claim, what its passes
bar it from, locked waits), the decisions and the automatic moves; every event with its payload
every tenth step and at the end.
A hand read back from that form mid-hand, on both sides (from the Python state's JSON or the
compiled one's), plays on in lockstep to the same end.
"""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys

import numpy as np
import pytest

from chuanma import _core
from chuanma.engine.events import Event
from chuanma.rules import PRESETS, RuleSet
from native_lockstep import Lockstep, native_rules
from reference_engine.game import Game

CASES = [(name, {}) for name in PRESETS] + [
    ("xuezhan", {"pass_rule": "forever", "concealed_kong_shown": True, "flower_pig": "ting_max"}),
    ("xueliu", {"exposed_kong_flower": "discarder_pays", "call_transfer": "first_winner", "base": 5}),
]


def play_comparing_states(lockstep: Lockstep) -> dict[str, object]:
    """Play to the end, the whole states compared before every step (the events, which never
    change once logged, every tenth step) and at the end."""
    while not lockstep.game.finished:
        lockstep.check_state(events=lockstep.steps % 10 == 0)
        lockstep.step()
    lockstep.check_state()
    return lockstep.play()


@pytest.mark.parametrize(("preset", "options"), CASES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CASES)])
@pytest.mark.parametrize("lean", [False, True], ids=["uniform", "leaning"])
def test_states_agree_at_every_step(preset: str, options: dict[str, object], lean: bool) -> None:
    play_comparing_states(Lockstep(RuleSet.from_preset(preset, **options), 0, lean=lean, leave=0.01, pass_pending=0.2))


@pytest.mark.parametrize(("preset", "options"), CASES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CASES)])
@pytest.mark.parametrize("from_core", [False, True], ids=["python-json", "core-json"])
@pytest.mark.parametrize("after_win", [False, True], ids=["random-step", "after-a-win"])
def test_a_state_read_back_mid_hand_plays_on(preset: str, options: dict[str, object], from_core: bool,
                                             after_win: bool) -> None:
    """Read back at a random step, or right after the hand's first win (whose laid-open hand every
    seat is shown)."""
    seed = int(from_core)
    lockstep = Lockstep(RuleSet.from_preset(preset, **options), seed, lean=True, pass_pending=0.1)
    stop = random.Random(seed).randrange(1, 120)
    while not lockstep.game.finished and (not lockstep.game.wins if after_win else lockstep.steps < stop):
        lockstep.step()
    before = lockstep.hand
    lockstep.read_back(from_core=from_core)
    lockstep.check_state()
    kinds = 34 if lockstep.rules.tiles.honours else 27
    for seat in range(4):  # every seat is shown the same hand, the planes' recent discards too
        shown = [np.empty((144, kinds), dtype=np.float32) for _ in range(2)]
        before.encode_planes(seat, shown[0])
        lockstep.hand.encode_planes(seat, shown[1])
        assert np.array_equal(*shown), f"seat {seat}'s planes differ after reading the state back"
    lockstep.play()
    lockstep.check_state()


@pytest.mark.parametrize(("preset", "options"), CASES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CASES)])
def test_logged_events_are_the_states_events(preset: str, options: dict[str, object]) -> None:
    """After every step, ``Hand.logged(since)`` gives the new events as :class:`Event` objects equal
    to the rows of the state's JSON form from ``since`` on; ``logged(0)`` at the end, all of them."""
    lockstep = Lockstep(RuleSet.from_preset(preset, **options), 2, lean=True, leave=0.01, pass_pending=0.2)
    since = 0
    while not lockstep.game.finished:
        lockstep.step()
        new, rows = lockstep.hand.logged(since), lockstep.hand.to_dict()["events"][since:]
        assert all(type(e) is Event for e in new) and new == [Event(*row) for row in rows], lockstep.where()
        since += len(new)
    everything = lockstep.hand.logged(0)
    assert everything == [Event(*row) for row in lockstep.hand.to_dict()["events"]] and len(everything) == since
    assert lockstep.hand.logged(since) == [] and lockstep.hand.logged(-1) == everything
    with pytest.raises(TypeError, match="unhashable"):  # a tuple holding its data dict, as Event(*row) is
        hash(everything[0])


FIRST_EVENTS_IN_TWO_THREADS = """
import json, sys, threading
from chuanma import _core
hands = [_core.Hand.from_dict(json.loads(sys.stdin.read()))] * 2
print("chuanma.engine.events" in sys.modules)
go = threading.Barrier(2)
made = []
def run(hand):
    go.wait()
    for _ in range(200):
        made.append(len(hand.logged(0)) > 0)
threads = [threading.Thread(target=run, args=(hand,)) for hand in hands]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(sum(made))
"""


def test_the_first_events_of_a_process_are_made_in_two_threads_at_once() -> None:
    """Two threads asking a fresh process's hand for its events at once, before anything imported
    ``Event`` (the core imports it on first use, running Python code), both get them: no deadlock."""
    lockstep = Lockstep(RuleSet.from_preset("xuezhan"), 3)
    for _ in range(20):
        lockstep.step()
    state = json.dumps(lockstep.hand.to_dict())
    done = subprocess.run([sys.executable, "-c", FIRST_EVENTS_IN_TWO_THREADS], input=state, capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stdout.split() == ["False", "400"]


def test_automatic_moves_are_compared() -> None:
    """The hands compared make automatic moves of every kind: forced voids, a locked 血流 hand's
    discards and the passes (and forced wins) of ``pass_pending``."""
    kinds: set[str] = set()
    for seed in (11, 14, 26, 47):  # the first deals where a hand holds two suits after the exchange
        lockstep = Lockstep(RuleSet.from_preset("xueliu"), seed, lean=True, pass_pending=0.3)
        lockstep.play()
        kinds |= {next(iter(a.to_json())) for _, a in lockstep.game.autos}
    assert {"void", "discard", "pass"} <= kinds


def test_a_hand_pickles_whole() -> None:
    lockstep = Lockstep(RuleSet.from_preset("xueliu"), 4, lean=True)
    for _ in range(60):
        lockstep.step()
    copied = pickle.loads(pickle.dumps(lockstep.hand))
    assert copied.to_dict() == lockstep.hand.to_dict()
    lockstep.hand = copied  # the copy plays on in lockstep to the end
    lockstep.play()
    lockstep.check_state()


def test_pass_pending_outside_a_window_does_nothing() -> None:
    rules = RuleSet.from_preset("xuezhan")
    hand = _core.Hand(native_rules(rules), rules.tiles.wall(), 0, 1)
    before = hand.to_dict()
    hand.pass_pending()
    assert hand.to_dict() == before


def test_seeds_are_kept() -> None:
    rules = RuleSet.from_preset("xueliu")
    wall = rules.tiles.wall()
    random.Random(5).shuffle(wall)
    seeds = {"wall": 5, "names": ["a", None]}
    game = Game(rules, wall, 2, "opposite", seeds=seeds)
    hand = _core.Hand(native_rules(rules), wall, 2, 2)
    hand.set_seeds(seeds)
    assert hand.to_dict() == game.state.to_dict()
    assert _core.Hand.from_dict(hand.to_dict()).to_dict()["hidden"]["seeds"] == seeds


def test_another_format_is_refused() -> None:
    rules = RuleSet.from_preset("xuezhan")
    data = _core.Hand(native_rules(rules), rules.tiles.wall(), 0, 1).to_dict()
    data["format"] = "chuanma-state/0"
    with pytest.raises(ValueError, match="chuanma-state/1"):
        _core.Hand.from_dict(data)
