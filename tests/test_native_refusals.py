"""The compiled hand's refusals in lockstep with the Python :class:`Game`'s.

At random steps of random hands of every preset, decisions that are not legal are tried on both
machines: random ones by random seats (as in the engine's property tests), and near-legal ones: a
legal action's neighbour tile, a legal action by another seat, a claim window's answer given
again (stale) and a kong, pong or win in any phase. Both refuse with the same code and words (the
compiled core chooses the rule and its facts, ``chuanma.engine.refusal_text`` words them) and
neither state changes.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from chuanma import _core
from chuanma.engine.actions import IllegalActionError
from chuanma.engine.indices import ACTION_COUNT, CHOW_AT, DISCARD_AT, HU_AT, KONG_AT, PASS_AT, PONG_AT, from_index
from chuanma.engine.refusal_text import refusal_message
from chuanma.engine.state import HandState
from chuanma.rules import PRESETS, RuleSet
from chuanma.tiles import parse_tile, tile_str
from native_lockstep import Lockstep
from reference_engine.game import Game
from reference_engine.legal import refusal

CASES = [(name, {}) for name in PRESETS] + [
    ("xuezhan", {"pass_rule": "forever", "no_kong_in_last_four": False}),
    ("xueliu", {"pass_rule": "same_turn", "winners_kong": True}),
]


def candidates(rng: random.Random, lockstep: Lockstep) -> list[tuple[int, int]]:
    """A few decisions, most of them not legal now: random, neighbours of legal ones, legal ones
    of other seats, stale answers, and by each seat a win, a pass, and a kong, pong, discard and
    chow of the tile on offer (or one it holds)."""
    hand = lockstep.hand
    out = [(rng.randrange(4), rng.randrange(ACTION_COUNT)) for _ in range(2)]
    window = lockstep.game.state.public.claim
    for seat in range(4):
        held = [t for t, n in enumerate(hand.counts(seat)) if n]
        tile = window.tile if window is not None else rng.choice(held or [0])
        for action in hand.legal(seat)[:3]:
            out.append((seat, action + rng.choice((-1, 1))))
            out.append(((seat + rng.randrange(1, 4)) % 4, action))
        out += [(seat, a) for a in (HU_AT, PASS_AT, KONG_AT + tile, PONG_AT + tile, DISCARD_AT + tile)]
        if tile < 27 and tile % 9 < 7:
            out.append((seat, CHOW_AT + tile // 9 * 7 + tile % 9))
    for event in hand.events()[-6:]:
        if event[0] == 10:  # a claim window's answer, given again
            out.append((event[1], event[4]))
    return [(s, a) for s, a in out if 0 <= a < ACTION_COUNT]


def check_refusals(rng: random.Random, lockstep: Lockstep, rules: set[str]) -> None:
    """Both machines refuse each candidate that is not legal alike, and stay unchanged; the rules
    that refused are added to ``rules``."""
    game, hand = lockstep.game, lockstep.hand
    before = json.dumps(hand.to_dict()), json.dumps(game.state.to_dict())
    for seat, index in candidates(rng, lockstep):
        action = from_index(index)
        legal = game.legal_actions(seat)
        if action in legal:
            continue
        code, rule, facts = hand.refusal(seat, index)
        assert (code, refusal_message(rule, facts)) == refusal(game.state, legal, seat, action), lockstep.where(seat)
        with pytest.raises(IllegalActionError) as refused_by_python:
            game.apply(seat, action)
        assert refused_by_python.value.code == code
        with pytest.raises(ValueError, match="not a legal action"):
            hand.apply(seat, index)
        rules.add(rule)
    assert (json.dumps(hand.to_dict()), json.dumps(game.state.to_dict())) == before


@pytest.mark.parametrize(("preset", "options"), CASES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CASES)])
def test_refusals_agree(preset: str, options: dict[str, object]) -> None:
    refused: set[str] = set()
    for seed in range(2):
        rng = random.Random(seed)
        lockstep = Lockstep(RuleSet.from_preset(preset, **options), seed, lean=True, leave=0.01)
        while not lockstep.game.finished:
            if rng.random() < 0.2:
                check_refusals(rng, lockstep, refused)
            lockstep.step()
        check_refusals(rng, lockstep, refused)
    assert len(refused) >= 6, refused  # (大众麻将 has no exchange, no void, no pass rule)



def reach(preset: str, seed: int, fits: Callable[[Lockstep], bool]) -> Lockstep:
    """A leaning hand played to the first step where ``fits`` holds."""
    lockstep = Lockstep(RuleSet.from_preset(preset), seed, lean=True)
    while not fits(lockstep):
        assert not lockstep.game.finished, "no step fits: pick another seed"
        lockstep.step()
    return lockstep


def in_window(lockstep: Lockstep) -> bool:
    return lockstep.game.phase == "claim" and bool(lockstep.game.to_act())


def on_turn_with_draw(lockstep: Lockstep) -> bool:
    st = lockstep.game.state
    return st.public.phase == "turn" and st.seats[st.public.current].drawn is not None


def refused_alike(data: dict[str, Any], seat: int, index: int) -> str:
    """The rule by which both machines, resumed from ``data``, refuse the seat's action."""
    game = Game.from_state(HandState.from_dict(copy.deepcopy(data)))
    hand = _core.Hand.from_dict(data)
    code, rule, facts = hand.refusal(seat, index)
    assert (code, refusal_message(rule, facts)) == refusal(game.state, game.legal_actions(seat), seat,
                                                           from_index(index))
    return rule


def test_rare_refusals_agree() -> None:
    """States set up (read back from a hand's JSON form, a few facts changed) to refuse by the
    rules random hands seldom reach: the pass rules' bars, a stale answer, a forced win, a chow
    from the wrong seat or of an honour, a locked hand's discard and kong, a passed self-drawn win."""
    lockstep = reach("xuezhan", 0, in_window)
    data = lockstep.game.state.to_dict()
    seat = lockstep.game.to_act()[0]
    tile = parse_tile(data["public"]["claim"]["tile"])
    me = data["seats"][seat]
    me["claim_options"] = [{"pass": True}]
    me["banned"] = tile_str(tile)
    assert refused_alike(data, seat, HU_AT) == "passed_win"
    me["banned"], me["bar"] = "", 2
    assert refused_alike(data, seat, HU_AT) == "win_bar"
    me["pong_ban"] = tile_str(tile)
    assert refused_alike(data, seat, PONG_AT + tile) == "passed_pong"
    me["claim_options"] = [{"hu": True}]
    assert refused_alike(data, seat, PASS_AT) == "must_win_on_claim"
    me["claim"] = {"hu": True}
    assert refused_alike(data, seat, PASS_AT) == "already_answered"

    lockstep = reach("dazhong", 0, in_window)
    data = lockstep.game.state.to_dict()
    window = data["public"]["claim"]
    seat = lockstep.game.to_act()[0]
    window["from"], window["tile"] = (seat + 1) % 4, "3m"  # the seat is its 下家, not its 上家
    assert refused_alike(data, seat, CHOW_AT + 1) == "chow_from_left"
    window["tile"] = "5z"
    assert refused_alike(data, seat, CHOW_AT + 1) == "honour_chow"

    lockstep = reach("xueliu", 0, on_turn_with_draw)
    data = lockstep.game.state.to_dict()
    seat = data["public"]["current"]
    drawn = parse_tile(data["seats"][seat]["drawn"])
    data["seats"][seat]["banned"] = tile_str(drawn)
    assert refused_alike(data, seat, HU_AT) == "passed_self_win"
    data["public"]["locked"][seat] = True
    other = next(t for t, n in enumerate(lockstep.hand.counts(seat)) if n and t != drawn)
    assert refused_alike(data, seat, DISCARD_AT + other) == "locked_discard"
    assert refused_alike(data, seat, KONG_AT + other) in ("locked_kong", "void_kong")
