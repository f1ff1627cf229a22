"""RULES §8 over many random hands of every preset: conservation, zero-sum ledgers, exact
replay, views that leak nothing, and legal actions that are exactly what ``apply`` accepts."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chuanma.engine.actions import (
    Action,
    ChooseVoid,
    Discard,
    Hu,
    IllegalActionError,
    Kong,
    Pass,
    Pong,
)
from chuanma.engine.game import Game
from chuanma.engine.record import replay, to_record
from chuanma.rules import PRESETS
from chuanma.tiles import format_tiles
from engine_play import pick, random_hand


def _outsiders(rng: random.Random, g: Game) -> list[tuple[int, Action]]:
    """A few decisions that are not legal now."""
    out: list[tuple[int, Action]] = []
    for _ in range(3):
        seat = rng.randrange(4)
        legal = g.legal_actions(seat)
        cand: Action = rng.choice(
            [Discard(rng.randrange(27)), Pong(rng.randrange(27)), Kong(rng.randrange(27)), Hu(),
             Pass(), ChooseVoid(rng.choice("mps"))]
        )
        if cand not in legal:
            out.append((seat, cand))
    return out


def _check_view(g: Game, seat: int | None) -> None:
    view = g.view(seat)
    text = json.dumps(view)
    assert "wall_order" not in text
    won = {w.seat for w in g.wins}
    for p in view["players"]:
        if p["seat"] != seat and p["seat"] not in won and not g.finished:
            assert "hand" not in p and "exchange" not in p
            if not g.state.public.voids_revealed:
                assert "void" not in p
        for m in p["melds"]:
            if m.get("kong") == "concealed" and p["seat"] != seat and not g.finished:
                assert m["tile"] is None
    if seat is not None:
        assert view["players"][seat]["hand"] == format_tiles(g.state.tiles(seat))
    for ev in g.events_for(seat):
        if ev["type"] in ("deal", "exchange_received", "claim") or ("tile" in ev and ev[
                "type"] == "draw"):
            assert ev.get("seat") == seat


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32))
@example("portal-xueliu", 20580)  # a seat leaves while another must win in the last four
def test_random_hands_keep_every_invariant(preset: str, seed: int) -> None:
    g, rng = random_hand(preset, seed)
    steps = 0
    while not g.finished:
        for seat, bad in _outsiders(rng, g) if steps % 7 == 0 else ():
            before = (json.dumps(g.view(None).to_dict()), len(g.events), len(g.decisions))
            try:
                g.apply(seat, bad)
            except IllegalActionError:
                pass
            else:  # pragma: no cover
                raise AssertionError(f"{bad} by seat {seat} was accepted")
            assert (json.dumps(g.view(None).to_dict()), len(g.events), len(g.decisions)) == before
        seat = rng.choice(g.to_act())
        legal = g.legal_actions(seat)
        assert legal
        if steps % 11 == 3:  # every legal action applies without error
            for action in legal[:12]:
                trial = copy.deepcopy(g)
                trial.apply(seat, action)
                assert trial.tile_total() == 108 and sum(trial.deltas()) == 0
        if rng.random() < 0.004:  # 逃跑 now and then
            leaver = rng.randrange(4)
            if not g.state.public.left[leaver]:
                g.leave(leaver)
        else:
            g.apply(seat, pick(rng, legal, g, seat))
        assert g.tile_total() == 108
        assert sum(g.deltas()) == 0
        if steps % 5 == 0:
            _check_view(g, rng.randrange(4))
            _check_view(g, None)
        steps += 1
    assert sum(g.deltas()) == 0
    assert all(p.amount > 0 for p in g.ledger)
    record = json.loads(json.dumps(to_record(g)))
    again = replay(record)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in g.events]
    assert again.result() == g.result()


def test_many_hands_every_preset_replay_identically() -> None:
    for preset in sorted(PRESETS):
        for seed in range(150):  # 1,050 hands in all
            g, rng = random_hand(preset, seed)
            while not g.finished:
                seat = rng.choice(g.to_act())
                g.apply(seat, pick(rng, g.legal_actions(seat), g, seat))
            again = replay(to_record(g))
            assert again.result() == g.result()
            assert sum(g.deltas()) == 0 and g.tile_total() == 108
