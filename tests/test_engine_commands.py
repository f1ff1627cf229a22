"""Versioned commands and refusals: ``apply(seat, action, expected_version)`` accepts a command
made against the seat's open question only (from the version it was posed at, ``Game.asked``);
every refusal carries a stable ``code`` from the documented set, the seat and a reason, pickles
whole, and changes nothing."""

from __future__ import annotations

import json
import pickle
import random
import re
from typing import Any

import numpy as np
import pytest

from chuanma.engine.actions import (
    Action,
    ChooseVoid,
    Chow,
    Discard,
    Exchange,
    Hu,
    IllegalActionError,
    Kong,
    Leave,
    Pass,
    Pong,
    StaleCommandError,
)
from chuanma.engine.game import Game
from chuanma.engine.indices import ACTION_COUNT, ActionIndexError, from_index, mask, to_index
from chuanma.rules import PRESETS, RuleSet
from chuanma.tiles import SICHUAN_TILES
from engine_play import pick, random_hand

CODES = {"not_your_turn", "illegal_action", "must_win", "hand_over", "no_such_seat", "already_left",
         "stale_version", "bad_command", "bad_setup"}


def documented_codes() -> set[str]:
    doc = IllegalActionError.__doc__ or ""
    listed = re.search(r"for programs:(.*?)\)", doc, re.DOTALL)
    assert listed is not None
    return set(re.findall(r"``(\w+)``", listed.group(1)))


def test_the_documented_codes() -> None:
    assert documented_codes() == CODES


def snapshot(g: Game) -> str:
    return json.dumps(g.state.to_dict())


def refused(g: Game, seat: Any, action: Action, expected_version: int | None = None) -> IllegalActionError:
    """Apply a decision that must be refused; check the refusal and that nothing changed."""
    before, version = snapshot(g), g.version
    with pytest.raises(IllegalActionError) as caught:
        g.apply(seat, action, expected_version=expected_version)
    err = caught.value
    assert err.code in CODES
    assert err.reason and str(err) == err.reason
    assert err.seat == (seat if err.code != "no_such_seat" else None)
    assert snapshot(g) == before and g.version == version
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is type(err)
    assert (again.code, again.seat, again.reason, str(again)) == (err.code, err.seat, err.reason, str(err))
    assert again.to_json() == err.to_json() == {"code": err.code, "seat": err.seat, "reason": err.reason}
    return err


def play_some(g: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if g.finished:
            return
        seat = rng.choice(g.to_act())
        g.apply(seat, pick(rng, g.legal_actions(seat), g, seat))


# ---------------------------------------------------------------------------------- versions


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_commands_with_the_current_version_play_whole_hands(preset: str) -> None:
    for seed in range(5):
        g, rng = random_hand(preset, seed)
        while not g.finished:
            seat = rng.choice(g.to_act())
            version = g.version
            g.apply(seat, pick(rng, g.legal_actions(seat), g, seat), expected_version=version)
            assert g.version == version + 1
        assert g.version == len(g.decisions)


@pytest.mark.parametrize("offset", [-1, 1, -5])
def test_a_stale_version_is_refused_and_changes_nothing(offset: int) -> None:
    g, rng = random_hand("xueliu", 7)
    play_some(g, rng, 30)
    seat = g.to_act()[0]
    legal = g.legal_actions(seat)
    err = refused(g, seat, legal[0], expected_version=g.version + offset)
    assert isinstance(err, StaleCommandError)
    assert err.code == "stale_version" and err.seat == seat
    assert f"version {g.version + offset}" in err.reason and f"version {g.version}" in err.reason
    g.apply(seat, legal[0], expected_version=g.version)  # the same decision, made afresh, applies


def test_an_answer_stays_valid_while_the_other_seats_answer_the_same_question() -> None:
    """The exchange and a claim window ask several seats at once: the others' answers move the
    version, not the question, so an answer made at the version it was posed at is applied; one
    made against an earlier question is stale."""
    g, _ = random_hand("xuezhan", 4)
    assert g.phase == "exchange" and [g.asked(s) for s in range(4)] == [0] * 4
    for seat in range(3):
        g.apply(seat, g.legal_actions(seat)[0], expected_version=0)
        assert g.asked(seat) is None and g.asked(3) == 0 and g.version == seat + 1
    g.apply(3, g.legal_actions(3)[0], expected_version=0)
    windows = 0
    for seed in range(40):
        g, rng = random_hand("xueliu", seed)
        while not g.finished:
            seats = g.to_act()
            if g.phase == "claim" and len(seats) >= 2 and Pass() in g.legal_actions(seats[0]):
                posed = g.version
                assert all(g.asked(s) == posed for s in seats)
                g.apply(seats[0], Pass(), expected_version=posed)
                assert g.version == posed + 1 and g.asked(seats[1]) == posed
                before = g.version
                err = refused(g, seats[1], g.legal_actions(seats[1])[0], expected_version=posed - 1)
                assert err.code == "stale_version" and f"posed at version {posed}" in err.reason
                assert g.version == before
                g.apply(seats[1], g.legal_actions(seats[1])[0], expected_version=posed)
                windows += 1
                continue
            seat = rng.choice(seats)
            g.apply(seat, pick(rng, g.legal_actions(seat), g, seat), expected_version=g.asked(seat))
    assert windows >= 3


def test_a_command_sent_twice_is_refused_the_second_time() -> None:
    g, rng = random_hand("xuezhan", 3)
    play_some(g, rng, 12)
    assert g.phase == "turn"
    seat, version = g.current, g.version
    discard = next(a for a in g.legal_actions(seat) if isinstance(a, Discard))
    g.apply(seat, discard, expected_version=version)
    err = refused(g, seat, discard, expected_version=version)
    assert err.code == "stale_version"


def test_a_command_sent_twice_while_still_legal_is_refused_the_second_time() -> None:
    """In the exchange each seat chooses once; the same choice sent again with its version is
    refused as stale even though, without the version, it is refused as already chosen."""
    g, _ = random_hand("xuezhan", 4)
    assert g.phase == "exchange"
    choice = g.legal_actions(0)[0]
    g.apply(0, choice, expected_version=0)
    assert refused(g, 0, choice, expected_version=0).code == "stale_version"
    assert refused(g, 0, choice).code == "not_your_turn"


def test_a_leave_with_a_stale_version_is_refused() -> None:
    g, rng = random_hand("xuezhan", 5)
    play_some(g, rng, 10)
    err = refused(g, 2, Leave(), expected_version=g.version - 1)
    assert err.code == "stale_version" and not g.state.public.left[2]


@pytest.mark.parametrize("bad", [True, 1.0, "1"])
def test_an_expected_version_that_is_not_a_whole_number_is_refused_naming_it(bad: Any) -> None:
    g, rng = random_hand("xuezhan", 6)
    play_some(g, rng, 1)
    assert g.version == 1
    err = refused(g, g.to_act()[0], g.legal_actions(g.to_act()[0])[0], expected_version=bad)
    assert "expected_version" in err.reason and repr(bad) in err.reason
    assert err.code == "bad_command"


# ---------------------------------------------------------------------------------- refusals


def outsider(rng: random.Random, g: Game) -> tuple[Any, Action]:
    """A decision by some seat that is not among its legal actions."""
    while True:
        seat = rng.choice([0, 1, 2, 3, 0, 1, 2, 3, 4, -1, 9])
        choices: list[Action] = [
            Discard(rng.randrange(27)), Pong(rng.randrange(27)), Kong(rng.randrange(27)), Hu(), Pass(),
            ChooseVoid(rng.choice("mps")), Exchange((0, 1, 2)), Exchange((18, 18, 18))]
        action = rng.choice(choices)
        if seat not in range(4) or action not in g.legal_actions(seat):
            return seat, action


def test_every_refusal_has_a_stable_code_a_seat_and_a_reason() -> None:
    seen: dict[str, int] = dict.fromkeys(CODES, 0)
    for i, preset in enumerate(sorted(PRESETS) * 6):
        g, rng = random_hand(preset, 100 + i)
        while not g.finished:
            for _ in range(2):
                seat, action = outsider(rng, g)
                seen[refused(g, seat, action).code] += 1
            if rng.random() < 0.1:
                seen[refused(g, rng.randrange(4), Pass(), expected_version=g.version + 1).code] += 1
            winners = [w.seat for w in g.wins if not g.state.public.left[w.seat]]
            if winners and rng.random() < 0.05:  # a winner leaves: the hand goes on
                g.apply(winners[0], Leave())
                seen[refused(g, winners[0], Leave()).code] += 1
            elif rng.random() < 0.005:  # anyone leaves: the hand ends unless it had won
                g.apply(rng.randrange(4), Leave())
            else:
                seat = rng.choice(g.to_act())
                g.apply(seat, pick(rng, g.legal_actions(seat), g, seat))
        seen[refused(g, rng.randrange(4), Discard(0)).code] += 1
        seen[refused(g, rng.randrange(4), Leave()).code] += 1
        seen[refused(g, 5, Leave()).code] += 1
    for code in ("not_your_turn", "illegal_action", "hand_over", "no_such_seat", "already_left", "stale_version"):
        assert seen[code] > 0, code
    assert seen["bad_setup"] == 0  # only ever when a game is made


@pytest.mark.parametrize("seat", [4, -1, 99, "1", None])
def test_no_such_seat(seat: Any) -> None:
    g, rng = random_hand("xuezhan", 8)
    play_some(g, rng, 20)
    assert refused(g, seat, Discard(0)).code == "no_such_seat"
    assert refused(g, seat, Leave()).code == "no_such_seat"


@pytest.mark.parametrize("seat", [4, -1, "1", True, 1.0])
def test_a_view_of_no_such_seat_is_refused(seat: Any) -> None:
    g, rng = random_hand("xuezhan", 8)
    play_some(g, rng, 20)
    with pytest.raises(IllegalActionError) as refusal:
        g.view(seat)
    assert refusal.value.code == "no_such_seat"
    assert g.view(None).seat is None and g.view(1).seat == 1


@pytest.mark.parametrize("seat", [4, -1, "1", True, 1.0, np.int64(1)])
def test_the_events_of_no_such_seat_are_refused(seat: Any) -> None:
    """``events_for`` refuses a seat as ``view`` does (True, 1.0 or a NumPy 1 are not seat 1: their
    private events stay hidden), and a ``since`` that is no count of events."""
    g, rng = random_hand("xuezhan", 8)
    play_some(g, rng, 20)
    with pytest.raises(IllegalActionError) as refusal:
        g.events_for(seat)
    assert refusal.value.code == "no_such_seat"
    for since in (-1, -5, "a", 1.0, True, None):
        with pytest.raises(IllegalActionError, match="since must be a whole number 0 or more") as bad:
            g.events_for(1, since)  # type: ignore[arg-type]
        assert bad.value.code == "bad_command"
    everything = g.events_for(1)
    assert g.events_for(1, 0) == everything and g.events_for(1, len(g.events)) == []
    assert everything[0]["type"] == "start" and g.events_for(None)[0]["type"] == "start"


@pytest.mark.parametrize("seat", [True, 1.0])
def test_a_seat_that_is_not_a_whole_number_is_no_such_seat(seat: Any) -> None:
    g, rng = random_hand("xuezhan", 1)
    while g.phase != "turn" or g.current != 1:
        play_some(g, rng, 1)
    assert refused(g, seat, g.legal_actions(1)[0]).code == "no_such_seat"


def test_a_numpy_seat_keeps_the_record_readable() -> None:
    g, rng = random_hand("xuezhan", 1)
    while g.phase != "turn" or g.current != 1:
        play_some(g, rng, 1)
    try:
        seat: Any = np.int64(1)
        g.apply(seat, g.legal_actions(1)[0])
    except IllegalActionError as err:  # refusing it is as good as reading it as seat 1
        assert err.code == "no_such_seat"
        return
    json.dumps(g.record())


def test_refusing_a_forced_win_is_coded_must_win() -> None:
    for seed in range(300):
        g, rng = random_hand("xuezhan", seed)
        while not g.finished:
            seat = rng.choice(g.to_act())
            legal = g.legal_actions(seat)
            if legal == [Hu()]:
                held = next(t for t, c in enumerate(g.state.seats[seat].hand) if c)
                other: Action = Pass() if g.phase in ("claim", "rob") else Discard(held)
                err = refused(g, seat, other)
                assert "must win" in err.reason
                assert err.code == "must_win"
                return
            g.apply(seat, pick(rng, legal, g, seat))
    raise AssertionError("no forced win in 300 hands")


# ---------------------------------------------------------------------------------- set-up


@pytest.mark.parametrize(("dealer", "direction", "field"), [
    (True, "to_next", "dealer"), (4, "to_next", "dealer"), (-1, "to_next", "dealer"), ("0", "to_next", "dealer"),
    (0, "sideways", "direction"), (0, None, "direction")])
def test_a_bad_setup_is_refused(dealer: Any, direction: Any, field: str) -> None:
    with pytest.raises(IllegalActionError) as caught:
        Game(RuleSet.from_preset("xuezhan"), SICHUAN_TILES.wall(), dealer, direction)
    err = caught.value
    assert err.code == "bad_setup" and err.seat is None
    assert err.reason.startswith(field) and repr(dealer if field == "dealer" else direction) in err.reason
    assert pickle.loads(pickle.dumps(err)).code == "bad_setup"


def test_apply_index_plays_the_action_of_that_index_as_apply_does() -> None:
    by_action, rng = random_hand("xuezhan", 5)
    by_index, _ = random_hand("xuezhan", 5)
    while not by_action.finished:
        seat = by_action.to_act()[0]
        assert by_index.legal_mask(seat).tolist() == mask(by_action.legal_actions(seat)).tolist()
        action = pick(rng, by_action.legal_actions(seat), by_action, seat)
        index: Any = np.int64(to_index(action)) if rng.random() < 0.5 else to_index(action)  # NumPy's too
        assert by_index.apply_index(seat, index) == by_action.apply(seat, action)
    assert by_index.record() == by_action.record()


@pytest.mark.parametrize("index", [-1, ACTION_COUNT, 2.0, "3", None, True])
def test_apply_index_outside_the_action_space_is_refused_and_changes_nothing(index: Any) -> None:
    g, rng = random_hand("xuezhan", 6)
    play_some(g, rng, 15)
    before = snapshot(g)
    with pytest.raises(ActionIndexError):
        g.apply_index(g.to_act()[0], index)
    assert snapshot(g) == before


def test_apply_index_of_an_illegal_action_is_refused_as_apply_refuses_it() -> None:
    g, rng = random_hand("xuezhan", 7)
    play_some(g, rng, 15)
    for seat in range(4):
        legal = {to_index(a) for a in g.legal_actions(seat)}
        for index in sorted(set(range(ACTION_COUNT)) - legal)[::7]:
            before = snapshot(g)
            with pytest.raises(IllegalActionError) as by_index:
                g.apply_index(seat, index)
            assert snapshot(g) == before
            with pytest.raises(IllegalActionError) as by_action:
                g.apply(seat, from_index(index))
            assert (by_index.value.code, str(by_index.value)) == (by_action.value.code, str(by_action.value))


MALFORMED: list[Any] = [
    Discard(99), Discard(-1), Discard(2**70), Discard("1m"), Discard(1.0), Discard(None),  # type: ignore[arg-type]
    Pong(40), Kong(40), Chow(40), Pong("5p"),  # type: ignore[arg-type]
    Exchange((99, 1, 2)), Exchange(None), Exchange((0, 1)),  # type: ignore[arg-type]
    ChooseVoid("x"), ChooseVoid(None), ChooseVoid(3),  # type: ignore[arg-type]
    "discard 1m", 7, None, object(),
]
"""Actions no player can make: tiles out of range or of the wrong type, a suit that is none,
things that are no action."""


@pytest.mark.parametrize("phase", ["exchange", "void", "turn", "claim"])
def test_a_malformed_action_is_refused_in_every_phase_and_changes_nothing(phase: str) -> None:
    for seed in range(40):
        g, rng = random_hand("xuezhan", seed)
        while not g.finished and g.phase != phase:
            play_some(g, rng, 1)
        if g.phase == phase:
            break
    assert g.phase == phase
    for action in MALFORMED:
        for seat in range(4):
            refusal = refused(g, seat, action)
            assert refusal.code in ("illegal_action", "not_your_turn"), (action, refusal)
            assert refusal.reason
