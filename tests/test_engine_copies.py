"""A copied game is the same game: ``copy.deepcopy``, ``pickle`` and the state's JSON form
(:meth:`HandState.to_dict` / :meth:`HandState.from_dict`) all give a game that, played on with the
same decisions, offers the same legal actions, shows each seat the same events and ends with the
same result and record — including what a seat's passed wins bar it from (过水不胡)."""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable

import pytest

from chuanma.engine.actions import (
    Action,
    Discard,
    Exchange,
    Hu,
    IllegalActionError,
    Kong,
    Leave,
    Pass,
    action_from_json,
)
from chuanma.engine.game import Game
from chuanma.engine.state import HandState
from chuanma.rules import PRESETS
from engine_play import pick, random_hand
from engine_setup import game, play, rules, run_out, t, wall_at

COPIERS: dict[str, Callable[[Game], Game]] = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda g: pickle.loads(pickle.dumps(g)),
    "json": lambda g: Game.from_state(HandState.from_dict(json.loads(json.dumps(g.state.to_dict())))),
    "old pickle": lambda g: unpickled_old(g.state),
}


def unpickled_old(state: HandState) -> Game:
    """A game as unpickled from the form a game was pickled in before it ran on the compiled core:
    its whole :class:`HandState` (pickle makes the object, then hands it its pickled state)."""
    game = Game.__new__(Game)
    game.__setstate__({"state": pickle.loads(pickle.dumps(state))})
    return game


def test_decisions_are_the_seats_decisions_in_order_and_a_copy() -> None:
    g, rng = random_hand("xueliu", 3)
    made: list[tuple[int, Action]] = []
    while not g.finished and len(made) < 60:
        seat = rng.choice(g.to_act())
        action = pick(rng, g.legal_actions(seat), g, seat)
        g.apply(seat, action)
        made.append((seat, action))
    g.leave(2)
    made.append((2, Leave()))
    assert g.decisions == made == g.state.decisions
    g.decisions.append((0, Pass()))
    assert g.decisions == made
VIEWERS = (0, 1, 2, 3, None)
FOREVER = [name for name in sorted(PRESETS) if PRESETS[name].get("pass_rule") == "forever"]
MAX_COPIES = 15
"""Copies played along with one hand at the most (five moments, three copiers each)."""


def copies_of(g: Game) -> list[Game]:
    out = [make(g) for make in COPIERS.values()]
    assert out[0].rules is g.rules  # a deep copy shares the immutable rule set (caches are keyed by it)
    for c in out:
        assert c is not g and c.state is not g.state
        assert c.state == g.state
        for v in VIEWERS:
            assert c.events_for(v) == g.events_for(v)
    return out


def assert_same(g: Game, c: Game, since: int) -> None:
    """The copy offers what the original offers and has shown each seat the same events since
    event ``since``."""
    assert c.version == g.version and c.finished == g.finished
    assert c.to_act() == g.to_act()
    for seat in range(4):
        assert c.legal_actions(seat) == g.legal_actions(seat)
    for v in VIEWERS:
        assert c.events_for(v, since) == g.events_for(v, since)
    assert len(c.events) == len(g.events)


def decide(rng: random.Random, g: Game, seat: int, legal: list[Action]) -> Action:
    """The shared random player, except that under ``pass_rule: forever`` a seat offered a win on
    a discard passes it half the time (过水不胡)."""
    if (g.rules.pass_rule == "forever" and g.phase in ("claim", "rob") and Hu() in legal
            and Pass() in legal and rng.random() < 0.5):
        return Pass()
    return pick(rng, legal, g, seat)


def play_in_lockstep(preset: str, seed: int) -> tuple[int, int]:
    """Play a random hand and, from random moments and every passed win on, copies of it with the
    same decisions; returns (steps, copies made)."""
    g, rng = random_hand(preset, seed)
    copies: list[Game] = []
    steps = 0
    while not g.finished:
        seat = rng.choice(g.to_act())
        legal = g.legal_actions(seat)
        action: Action = Leave() if rng.random() < 0.003 else decide(rng, g, seat, legal)
        passes_win = isinstance(action, Pass) and Hu() in legal
        if len(copies) < MAX_COPIES and (passes_win or rng.random() < 0.02):
            copies += copies_of(g)  # inside the window, before the pass
        since, version = len(g.events), g.version
        events = g.apply(seat, action)
        for k, c in enumerate(copies):
            if isinstance(action, Leave):
                same: Action = Leave()
            elif (k + steps) % 2:
                same = c.legal_actions(seat)[legal.index(action)]  # the copy's own listed action
            else:
                same = action_from_json(action.to_json(), g.rules.tiles)  # an equal action, made afresh
            assert c.apply(seat, same, expected_version=version) == events
            assert_same(g, c, since)
        if passes_win and len(copies) < MAX_COPIES:
            copies += copies_of(g)  # right after the pass: in the window still, or just closed
        steps += 1
    for c in copies:
        assert c.result() == g.result()
        assert c.record() == g.record()
        assert c.deltas() == g.deltas() and c.end_reason == g.end_reason
    return steps, len(copies)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_copies_play_on_as_the_original(preset: str) -> None:
    hands = 60 if preset in FOREVER else 30
    steps = copies = 0
    for seed in range(hands):
        s, c = play_in_lockstep(preset, seed)
        steps += s
        copies += c
    assert steps > 40 * hands and copies > 2 * hands


def test_presets_with_forever_pass_rule() -> None:
    assert FOREVER == ["doublewin-xueliu", "xueliu"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_state_reads_back_equal_at_every_step(preset: str) -> None:
    steps = 0
    for seed in range(10):
        g, rng = random_hand(preset, 1000 + seed)
        while True:
            data = g.state.to_dict()
            text = json.dumps(data)
            assert HandState.from_dict(data) == g.state
            assert HandState.from_dict(json.loads(text)) == g.state
            if g.finished:
                break
            seat = rng.choice(g.to_act())
            g.apply(seat, decide(rng, g, seat, g.legal_actions(seat)))
            steps += 1
    assert steps > 500


# 过水不胡 in 血流: seat 3 waits on 5p, passes the dealer's 5p, and may never win on 5p again.
PASS = [
    "12233445678m99s5p",  # dealer, void p
    "1111s2468m2468p5p",  # void p: kongs 1s, then discards 5p
    "2468m2468p2468s3s",  # void m
    "234567789s111p5p",  # void m (automatic): waits on 5p
]


def passed_win(**options: str) -> Game:
    g = game(PASS, wall=wall_at(PASS, {2: "5p"}), voids="ppmm", ruleset=rules("xueliu", **options),
             dihu_on_dealer_discard=False)
    g.apply(0, Discard(t("5p")))
    assert g.legal_actions(3) == [Hu(), Pass()]
    g.apply(3, Pass())
    return g


@pytest.mark.parametrize("copier", sorted(COPIERS))
def test_copies_keep_the_ban_of_a_passed_win_forever(copier: str) -> None:
    original = passed_win()
    assert original.rules.pass_rule == "forever"
    g = COPIERS[copier](original)
    play(g, (1, Kong(t("1s"))), (1, Discard(t("5p"))))
    # by discard: no window opens for seat 3, and a win there is refused
    assert g.phase == "turn" and g.current == 2 and g.legal_actions(3) == []
    with pytest.raises(IllegalActionError) as refused:
        g.apply(3, Hu())
    assert refused.value.code == "not_your_turn" and refused.value.seat == 3
    # by self-draw: seat 3 draws 5p and may not win on it
    run_out(g, lambda g: g.current == 3)
    assert g.state.seats[3].drawn == t("5p")
    assert Hu() not in g.legal_actions(3)
    with pytest.raises(IllegalActionError) as refused:
        g.apply(3, Hu())
    assert refused.value.code == "illegal_action" and "过水不胡" in refused.value.reason


def test_without_the_ban_the_same_tiles_win() -> None:
    """The ban test's moves reach a win on 5p by discard and by self-draw when passing costs
    nothing (``pass_rule: none``)."""
    g = passed_win(pass_rule="none")
    play(g, (1, Kong(t("1s"))), (1, Discard(t("5p"))))
    assert g.legal_actions(3) == [Hu(), Pass()]
    g.apply(3, Pass())
    run_out(g, lambda g: g.current == 3)
    assert g.state.seats[3].drawn == t("5p") and Hu() in g.legal_actions(3)


def test_the_state_is_a_snapshot_of_the_core_that_changing_changes_nothing() -> None:
    """``Game.state`` is read back from the compiled hand (``Game.core``), a new snapshot at each
    call; writing into it leaves the game, and what the game reports, as they were."""
    g, rng = random_hand("xueliu", 7)
    for _ in range(30):
        seat = rng.choice(g.to_act())
        g.apply(seat, pick(rng, g.legal_actions(seat), g, seat))
    snapshot = g.state
    assert snapshot is not g.state and snapshot == g.state == HandState.from_dict(g.core.to_dict())
    seat = g.to_act()[0]
    legal, events, version = g.legal_actions(seat), len(g.events), g.version
    reported = (g.wins, g.ledger, g.record(), g.open_seat(seat), g.tile_total())
    snapshot.seats[seat].hand[:] = bytes(len(snapshot.seats[seat].hand))
    snapshot.public.phase = "end"
    snapshot.public.wins.clear()
    snapshot.public.ledger.clear()
    snapshot.events.clear()
    g.wins.clear()
    g.ledger.clear()
    assert g.legal_actions(seat) == legal and not g.finished and len(g.events) == events
    assert (g.wins, g.ledger, g.record(), g.open_seat(seat), g.tile_total()) == reported
    assert g.state != snapshot
    g.apply(seat, legal[0])
    assert g.version == version + 1
    assert g.state == HandState.from_dict(g.core.to_dict()) and len(g.state.events) == len(g.events)


@pytest.mark.parametrize("action", [Exchange((0, 9, 18)), Exchange((0, 0, 30)), "discard 1m", Leave])
def test_an_action_outside_the_action_space_is_refused_by_the_moment(action: object) -> None:
    """Something the action space does not number (a mixed-suit exchange, a wrong object) is
    refused like any other action the moment does not offer, and the game does not change."""
    g, _ = random_hand("xuezhan", 1)
    assert g.phase == "exchange"
    before = g.core.to_dict()
    with pytest.raises(IllegalActionError) as refused:
        g.apply(0, action)  # type: ignore[arg-type]
    assert refused.value.code == "illegal_action"
    expected = f"cannot {action}" if isinstance(action, Exchange) else "choose three tiles of one suit"
    assert refused.value.reason.startswith(expected)
    assert g.core.to_dict() == before and g.decisions == []
