"""RULES §8 over many random hands of every preset: conservation, zero-sum ledgers, exact
replay, views that leak nothing, and legal actions that are exactly what ``apply`` accepts."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chuanma.analysis import waits
from chuanma.engine.actions import (
    Action,
    ChooseVoid,
    Chow,
    Discard,
    Hu,
    IllegalActionError,
    Kong,
    Pass,
    Pong,
)
from chuanma.engine.event_types import EVENT_TYPES
from chuanma.engine.game import Game
from chuanma.engine.record import replay, to_record
from chuanma.engine.state import HandState
from chuanma.engine.views import SeatView
from chuanma.engine.wall import in_last_four
from chuanma.rules import PRESETS, RuleSet
from chuanma.tiles import format_tiles, parse_tiles, to_counts
from conftest import examples
from engine_play import hidden_swaps, pick, random_hand, record_decisions, written_and_omitted

XUELIU_PRESETS = [p for p in sorted(PRESETS) if RuleSet.from_preset(p).variant == "xueliu"]
FIRST_WIN_PRESETS = [p for p in sorted(PRESETS) if RuleSet.from_preset(p).variant in ("normal", "dazhong")]
"""The presets whose first win ends the hand (classic-normal, dazhong)."""


def _outsiders(rng: random.Random, g: Game) -> list[tuple[int, Action]]:
    """A few decisions that are not legal now."""
    out: list[tuple[int, Action]] = []
    for _ in range(3):
        seat = rng.randrange(4)
        legal = g.legal_actions(seat)
        cand: Action = rng.choice(
            [Discard(rng.randrange(34)), Pong(rng.randrange(34)), Kong(rng.randrange(34)), Hu(),
             Pass(), ChooseVoid(rng.choice("mps")), Chow(rng.choice([t for t in range(27) if t % 9 < 7]))]
        )
        if cand not in legal:
            out.append((seat, cand))
    return out


SECRET_SEED = "5eed" * 16
"""A server seed given to every game here: it must appear in no view and no event."""

PUBLIC_FIELDS: dict[str, set[str]] = {
    # what another seat or a spectator may see of each event, field by field
    "start": {"dealer", "rules", "base", "wall"},
    "deal_done": {"wall"},
    "exchange_chosen": set(),
    "exchange": {"direction"},
    "void_chosen": set(),
    "voids": {"voids"},
    "draw": {"wall", "replacement", "last_four"},
    "discard": {"tile", "wall", "automatic"},
    "pong": {"tile", "from"},
    "chow": {"tile", "from", "claimed"},
    "kong": {"tile", "kind", "from", "late"},
    "kong_declared": {"tile", "kind"},
    "kong_robbed": {"tile"},
    "hu": {"tile", "from", "self_drawn", "robbed_kong", "hand", "fans", "total", "multiplier",
           "situations", "seq", "jipin", "seat", "waits", "forced"},
    "payment": {"payer", "payee", "amount", "reason", "for"},
    "leave": {"wall"},
    "exhausted": {"part", "pig", "ready", "fan"},
    "end": {"reason", "hands", "melds", "deltas", "pig", "waits"},
}
"""Events never shown to anyone but their own seat: deal, exchange_received, claim."""


def _check_view(g: Game, seat: int | None, rng: random.Random) -> None:
    """RULES §8: the view and the events ``seat`` is shown hold nothing it may not know."""
    seat_view = g.view(seat)
    view = seat_view.to_dict()
    text = json.dumps(view)
    assert SECRET_SEED not in text
    # the same view, every field of it and not only its JSON form, whatever the hidden tiles and
    # choices are: another seat's concealed tile swapped with the wall, its secret void changed
    for other in hidden_swaps(g, seat, rng):
        other_view = other.view(seat)
        for name, value in zip(SeatView._fields, seat_view, strict=True):
            assert getattr(other_view, name) == value, f"seat {seat}'s {name} shows hidden information"
        assert other_view.to_dict() == view
    state = g.state  # one snapshot (each read builds one)
    if seat is not None:
        assert view["players"][seat]["hand"] == format_tiles(state.tiles(seat))
    for ev in g.events_for(seat):
        assert SECRET_SEED not in json.dumps(ev)
        if ev.get("seat") == seat and seat is not None:
            continue
        assert ev["type"] in PUBLIC_FIELDS, f"{ev['type']} shown to seat {seat}"
        fields = set(ev) - {"schema", "seq", "type", "seat"}
        allowed = set(PUBLIC_FIELDS[ev["type"]])
        if ev["type"] == "kong" and ev["kind"] == "concealed" and not g.rules.concealed_kong_shown:
            allowed.discard("tile")
        assert fields <= allowed, f"seat {seat} is shown {fields - allowed} of {ev}"
        if ev["type"] != "kong":  # a kong's tile is private only when concealed and hidden (above)
            assert not fields & EVENT_TYPES[ev["type"]].PRIVATE, f"seat {seat} is shown a private part of {ev}"
        _check_facts_are_public(g, state, ev)


def _check_facts_are_public(g: Game, state: HandState, ev: dict[str, Any]) -> None:
    """The facts events carry for readers tell nothing a seat could not see already: the waits
    of a hand the event shows, the zone of the wall count it shows, a flag of a public state."""
    kind = ev["type"]
    if kind == "hu":
        shown = to_counts(parse_tiles(ev["hand"]))
        melds = state.public.melds[ev["seat"]]
        assert ev["waits"] == format_tiles(waits(shown, melds, state.seats[ev["seat"]].void))
        wall = [e.data["wall"] for e in g.events[:ev["seq"]] if e.type in ("deal_done", "draw", "discard")][-1]
        assert ev.get("forced", False) == (g.rules.forced_win_in_last_four and in_last_four(wall))
    elif kind == "end":
        for s, hand in enumerate(ev["hands"]):
            counts = to_counts(parse_tiles(hand))
            between_turns = sum(counts) % 3 == 1
            assert ev["waits"][s] == (format_tiles(waits(counts, state.public.melds[s], state.seats[s].void))
                                      if between_turns else None)
    elif kind == "draw":
        assert ev.get("last_four", False) == in_last_four(ev["wall"])
    elif kind == "discard" and ev.get("automatic"):
        assert state.public.locked[ev["seat"]]  # only a locked (public) hand discards automatically


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32))
@example("portal-xueliu", 20580)  # a seat leaves while another must win in the last four
@example("doublewin-xueliu", 319)  # a 血流 winner leaves holding its draw; the wall runs out
def test_random_hands_keep_every_invariant(preset: str, seed: int) -> None:
    play_checked(preset, seed)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32))
def test_hands_whose_winners_leave_keep_every_invariant(preset: str, seed: int) -> None:
    """RULES §6: a winner who leaves stops playing and the hand goes on. Over hands where a winner
    asked for a decision (in a claim window, or on its own turn holding the tile it drew: a
    locked 血流 hand that may win again or kong) leaves instead at half of them, every invariant
    holds to the end of the hand, the exhaustive draw included."""
    play_checked(preset, seed, leaving=0.5, winners_leave=True)


@pytest.mark.parametrize("preset", FIRST_WIN_PRESETS)
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_first_win_presets_keep_every_invariant(preset: str, seed: int) -> None:
    """The presets whose first win ends the hand, over more hands than their share above: with
    it, a few hundred hands each."""
    play_checked(preset, seed)


def play_checked(preset: str, seed: int, *, leaving: float = 0.004, winners_leave: bool = False) -> None:
    """Play a random hand of ``preset``, checking every invariant of RULES §8 along the way:
    refused decisions change nothing, every legal decision applies, the whole tile set (108, or
    136 for 大众麻将) and a zero sum at every step, views hiding what they must, exact replay.

    At each decision a seat leaves instead with probability ``leaving``: any seat; with
    ``winners_leave`` only the seat asked, and only if it has won."""
    g, rng = random_hand(preset, seed, seeds={"server_seed": SECRET_SEED})
    total = g.rules.tiles.size
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
                assert trial.tile_total() == total and sum(trial.deltas()) == 0
        won = winners_leave and any(w.seat == seat for w in g.wins)
        if (won or not winners_leave) and rng.random() < leaving:  # 逃跑 now and then
            leaver = seat if winners_leave else rng.randrange(4)
            if not g.state.public.left[leaver]:
                g.leave(leaver)
        else:
            g.apply(seat, pick(rng, legal, g, seat))
        assert g.tile_total() == total
        assert sum(g.deltas()) == 0
        if steps % 5 == 0 or (g.phase == "turn" and g.view(None).players[g.current].locked):
            _check_view(g, rng.randrange(4), rng)
            _check_view(g, None, rng)
        steps += 1
    assert sum(g.deltas()) == 0
    assert all(p.amount > 0 for p in g.ledger)
    record = json.loads(json.dumps(to_record(g)))
    again = replay(record)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in g.events]
    assert again.result() == g.result()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(XUELIU_PRESETS), st.integers(0, 2**32))
@example("xueliu", 35)  # two locked hands discard in a row; the first discard opens no window
@example("xueliu", 17)  # the same, then a forced win in the last four
@example("xueliu", 1373)  # two forced self-drawn wins in a row left out
def test_xueliu_records_replay_with_automatic_moves_written_or_left_out(preset: str, seed: int) -> None:
    """docs/engine.md, Records: a 血流 hand's record replays to the same events whether its
    automatic moves (forced voids, locked discards) are written out where they happened or left
    out with the passes and forced wins a record may omit; a written locked discard is matched
    where it stands, also when the next locked hand has discarded after it."""
    g, rng = random_hand(preset, seed)
    while not g.finished:
        seat = rng.choice(g.to_act())
        g.apply(seat, pick(rng, g.legal_actions(seat), g, seat))
    record = to_record(g)
    for moves in (*written_and_omitted(g), g.decisions):
        again = replay(dict(record, decisions=record_decisions(moves)))
        # (the private claim events of omitted passes may come in another order)
        assert again.events_for(None) == g.events_for(None) and again.result() == g.result()


def test_views_hold_each_field_in_its_place() -> None:
    """The views are named tuples built without their constructor: each has all its fields, and
    each field holds what the state says it should (a field out of place would show here)."""
    for preset in sorted(PRESETS):
        for seed in range(25):
            g, rng = random_hand(preset, seed)
            while True:
                st = g.state
                for seat in (None, *range(4)):
                    view = g.view(seat)
                    records = [view, *view.players, *view.kongs, *([view.claim] if view.claim else [])]
                    for r in records:
                        assert len(r) == len(type(r)._fields) and type(r)._make(r) == r
                    assert (view.seat, view.rules, view.dealer, view.wall, view.version, view.finished) == (
                        seat, g.rules, st.public.dealer, st.remaining, st.public.version, g.finished)
                    assert (list(view.totals), list(view.payments), list(view.wins)) == (
                        g.deltas(), g.ledger, g.wins)
                    assert list(view.discard_log) == st.public.discard_log
                    assert view.voids_revealed == st.public.voids_revealed
                    assert view.legal_actions == (tuple(g.legal_actions(seat)) if seat is not None else ())
                    for s, p in enumerate(view.players):
                        assert (p.seat, p.tiles, list(p.discards), list(p.win_pile), list(p.claimed_at)) == (
                            s, sum(st.seats[s].hand), st.public.discards[s], st.public.win_piles[s],
                            st.public.claimed_at[s])
                        assert (p.out, p.left, p.locked, p.exchange_chosen) == (
                            st.public.out[s], st.public.left[s], st.public.locked[s], st.public.exchanged[s])
                    for k, record in zip(view.kongs, st.public.kongs, strict=True):
                        assert (k.seat, k.kind, k.seq, list(k.payments), k.transferred) == (
                            record.seat, record.kind, record.seq, record.payments, record.transferred)
                    if view.claim is not None:
                        w = st.public.claim
                        assert w is not None and view.claim == (w.tile, w.from_seat, w.rob, w.situations, w.kong)
                if g.finished:
                    break
                seat = rng.choice(g.to_act())
                g.apply(seat, pick(rng, g.legal_actions(seat), g, seat))


def test_many_hands_every_preset_replay_identically() -> None:
    for preset in sorted(PRESETS):
        total = RuleSet.from_preset(preset).tiles.size
        for seed in range(150):  # 150 hands a preset
            g, rng = random_hand(preset, seed, seeds={"server_seed": SECRET_SEED})
            while not g.finished:
                seat = rng.choice(g.to_act())
                g.apply(seat, pick(rng, g.legal_actions(seat), g, seat))
            again = replay(to_record(g))
            assert again.result() == g.result()
            assert sum(g.deltas()) == 0 and g.tile_total() == total
