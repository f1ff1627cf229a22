"""The compiled hand's refusals in lockstep with the Python :class:`Game`'s.

At random steps of random hands of every preset, decisions that are not legal are tried on both
machines: random ones by random seats (as in the engine's property tests), and near-legal ones: a
legal action's neighbour tile, a legal action by another seat, a claim window's answer given
again (stale) and a kong, pong or win in any phase. Both refuse with the same code and words (the
compiled core chooses the rule and its facts, ``chuanma.engine.refusal_text`` words them) and
neither state changes.
"""

from __future__ import annotations

import json
import random

import pytest

from chuanma.engine.actions import IllegalActionError
from chuanma.engine.indices import ACTION_COUNT, CHOW_AT, DISCARD_AT, HU_AT, KONG_AT, PASS_AT, PONG_AT, from_index
from chuanma.engine.legal import refusal
from chuanma.engine.refusal_text import refusal_message
from chuanma.rules import PRESETS, RuleSet
from native_lockstep import Lockstep

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

