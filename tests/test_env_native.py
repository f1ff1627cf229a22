"""The batch (:class:`~chuanma.env.batch.BatchEnv`, inside the compiled core): its arrays' shapes,
each table's row against the compiled hand it plays (seat asked, mask of its legal actions, compact
or planes encoding of its view, what the action did, rewards and end), refusals that change
nothing, the same arrays from the same seed, and rewards that sum to zero."""

from __future__ import annotations

import contextlib
import copy
import threading
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the environments need the rl extra: pip install 'chuanma[rl]'")

from chuanma.encoding import UnknownEncoderError
from chuanma.engine import ActionIndexError, IllegalActionError
from chuanma.env import BatchEnv, EnvOptionError

Arrays = tuple[np.ndarray[Any, Any], ...]


def random_actions(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A uniform legal action per table."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)  # type: ignore[no-any-return]


def check_rows(env: BatchEnv, obs: np.ndarray[Any, Any], masks: np.ndarray[Any, Any],
               seats: np.ndarray[Any, Any]) -> None:
    """Each table's row is the seat asked at its hand, that seat's legal actions and the encoding
    of its view (compact: one dimension, planes: two)."""
    out = np.empty(obs.shape[1:], dtype=np.float32)
    for i in range(env.n):
        hand = env.core.hand(i)
        seat = hand.to_act()[0]
        assert seats[i] == seat
        assert np.flatnonzero(masks[i]).tolist() == sorted(hand.legal(seat))
        if out.ndim == 1:
            hand.encode_compact(seat, out)
        else:
            hand.encode_planes(seat, out)
        assert np.array_equal(obs[i], out)


@pytest.mark.parametrize(("preset", "reward", "encoder", "shape"), [
    ("xuezhan", "end", "compact", (644,)), ("xueliu", "event", "compact", (644,)),
    ("dazhong", "end", "compact", (791,)), ("xuezhan", "event", "planes", (144, 27)),
    ("dazhong", "end", "planes", (144, 34))])
def test_rows_follow_the_hands_they_play(preset: str, reward: str, encoder: str, shape: tuple[int, ...]) -> None:
    env = BatchEnv(3, preset, encoder=encoder, reward=reward, normalize=reward == "event")
    obs, masks, seats = env.reset(seed=5)
    assert obs.shape == (3, *shape) and obs.dtype == np.float32
    assert masks.shape == (3, 623) and masks.dtype == np.int8 and seats.shape == (3,)
    rng = np.random.default_rng(0)
    scale = 1 / 32 if reward == "event" else 1
    paid = [[0] * 4 for _ in range(3)]
    paying = 0
    for _ in range(400):
        check_rows(env, obs, masks, seats)
        actions = random_actions(masks, rng)
        before = [copy.copy(env.core.hand(i)) for i in range(3)]
        for i, hand in enumerate(before):
            hand.apply(int(seats[i]), int(actions[i]))
        obs, masks, seats, rewards, done = env.step(actions)
        assert rewards.shape == (3, 4) and done.shape == (3,)
        for i, hand in enumerate(before):
            assert bool(done[i]) == hand.finished
            if not hand.finished:
                assert env.core.hand(i).events() == hand.events()
            totals = hand.deltas()
            if reward == "event" or hand.finished:
                assert rewards[i].tolist() == [(t - p) * scale for t, p in zip(totals, paid[i], strict=True)]
                paid[i] = [0] * 4 if hand.finished else totals
            else:
                assert not rewards[i].any()
            paying += bool(rewards[i].any())
        assert not rewards.sum(axis=1).any()  # zero-sum at every table
    assert env.hands > 0
    assert paying > 0 or preset == "dazhong"  # random 大众麻将 hands seldom pay anything


def test_the_same_seed_gives_the_same_arrays() -> None:
    runs = []
    for _ in range(2):
        env = BatchEnv(4, "xuezhan")
        arrays: list[Arrays] = [env.reset(seed=11)]
        rng = np.random.default_rng(2)
        for _ in range(200):
            arrays.append(env.step(random_actions(arrays[-1][1], rng)))
        runs.append(arrays)
    for a, b in zip(*runs, strict=True):
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    other = BatchEnv(4, "xuezhan").reset(seed=12)
    assert not np.array_equal(other[0], runs[0][0][0])


def test_returned_arrays_are_copies_unless_asked_not_to_be() -> None:
    env = BatchEnv(2)
    obs, masks, _ = env.reset(seed=1)
    kept = obs.copy()
    env.step(random_actions(masks, np.random.default_rng(0)))
    assert np.array_equal(obs, kept)
    shared = BatchEnv(2, copy=False)
    assert shared.reset(seed=1)[0] is shared.observations


def test_an_illegal_action_is_refused_and_nothing_changes() -> None:
    env = BatchEnv(2)
    _, masks, _ = env.reset(seed=1)
    rows = [a.copy() for a in (env.observations, env.masks, env.seats)]
    events = [env.core.hand(i).events() for i in range(2)]
    actions = [int(np.flatnonzero(masks[0])[0]), int(np.flatnonzero(masks[1] == 0)[0])]
    with pytest.raises(IllegalActionError, match=r"^table 1: action \d+ is not legal for seat \d"):
        env.step(actions)
    with pytest.raises(ActionIndexError, match=r"^table 0: action index 623"):
        env.step([623, actions[1]])
    assert all(np.array_equal(a, b) for a, b in zip(rows, (env.observations, env.masks, env.seats), strict=True))
    assert [env.core.hand(i).events() for i in range(2)] == events
    with pytest.raises(EnvOptionError, match="one action per table"):
        env.step([0])
    with pytest.raises(EnvOptionError, match="a whole number"):
        env.step(["x", actions[1]])
    for inexact in ([float(actions[0]) + 0.9, float(actions[1])], np.array(actions, dtype=np.float32), [True, False]):
        with pytest.raises(EnvOptionError, match="a whole number"):  # not rounded into another action
            env.step(inexact)
    assert [env.core.hand(i).events() for i in range(2)] == events


@pytest.mark.parametrize(("options", "message"), [({"n": 0}, "n must be"), ({"n": 10**12}, "from 1 to 1,000,000"),
                                                   ({"reward": "hand"}, "reward must be"),
                                                   ({"normalize": 1}, "normalize must be"),
                                                   ({"copy": "no"}, "copy must be true or false")])
def test_options_that_are_not_valid_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(EnvOptionError, match=message):
        BatchEnv(**{"n": 1, **options})
    for seed in (-1, 2**63, 2**70, 1.5):
        with pytest.raises(EnvOptionError, match="seed must be"):
            BatchEnv(1).reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(UnknownEncoderError, match="pixels"):
        BatchEnv(1, encoder="pixels")


def test_a_step_in_another_thread_is_refused_while_one_runs() -> None:
    """The core steps without the GIL: a second thread's call on the same batch meanwhile is
    refused (RuntimeError), never run on the same tables; afterwards every row still follows its
    hand."""
    env = BatchEnv(2000, copy=False)
    env.reset(seed=3)
    stale = random_actions(env.masks, np.random.default_rng(1))
    busy = threading.Event()
    done = threading.Event()
    other: list[str] = []

    def hammer() -> None:
        while not done.is_set():
            try:
                env.step(stale)
            except RuntimeError as exc:
                other.append(str(exc))
                busy.set()
            except IllegalActionError:
                pass  # the other thread's steps made these actions stale

    thread = threading.Thread(target=hammer)
    thread.start()
    rng = np.random.default_rng(2)
    try:
        for _ in range(500):
            with contextlib.suppress(RuntimeError, IllegalActionError):  # the other was stepping, or stepped first
                env.step(random_actions(env.masks, rng))
            if busy.is_set():
                break
    finally:
        done.set()
        thread.join()
    assert busy.is_set() and set(other) == {"the batch is stepping in another thread"}
    check_rows(env, env.observations, env.masks, env.seats)
