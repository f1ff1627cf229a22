"""The typed events (engine/event_types.py), their JSON Schema, the facts they carry for readers
(forced wins, automatic discards, waits, the last four, the exhaustive draw's findings) and the
hand's outcome read from them (engine/outcome.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chuanma.analysis import waits
from chuanma.commands.engine import schema_text
from chuanma.engine.actions import Discard, Hu, Kong
from chuanma.engine.event_types import (
    Discard as DiscardEvent,
)
from chuanma.engine.event_types import (
    Draw,
    End,
    EventError,
    Exhausted,
    parse_event,
    to_json,
)
from chuanma.engine.event_types import (
    Hu as HuEvent,
)
from chuanma.engine.events import EVENT_SCHEMA
from chuanma.engine.game import Game
from chuanma.engine.outcome import hand_outcome
from chuanma.engine.wall import in_last_four
from chuanma.rules import PRESETS
from chuanma.tiles import format_tiles, parse_tiles, tile_str, to_counts
from engine_play import pick, random_hand
from engine_setup import game, play, rules, run_out, t, wall_at
from test_engine_rules import XUELIU_DRAWS, robbing_game
from test_engine_situations import EXHAUST, LAST4

ROOT = Path(__file__).resolve().parent.parent


def played(preset: str, seed: int) -> Game:
    g, rng = random_hand(preset, seed)
    while not g.finished:
        seat = rng.choice(g.to_act())
        if rng.random() < 0.002:
            g.leave(seat)
            continue
        g.apply(seat, pick(rng, g.legal_actions(seat), g, seat))
    return g


def last_four(**options: Any) -> Game:
    """The hand of test_engine_situations' last-four tests, run to the wall's last tile."""
    g = game(LAST4, wall=wall_at(LAST4, {51: "5s", 54: "5p"}), voids="pmss", **options)
    run_out(g, lambda g: g.remaining == 0 and g.phase == "turn")
    return g


def test_the_schema_file_is_the_codes() -> None:
    """docs/events.schema.json is what `chuanma engine schema` writes now."""
    assert (ROOT / "docs" / "events.schema.json").read_text(encoding="utf-8") == schema_text()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32))
def test_every_event_every_seat_sees_is_read_whole_by_its_type(preset: str, seed: int) -> None:
    """Each event, whole and as each seat and a spectator see it, reads as its type and writes
    back the same JSON: the schema names every field a reader can meet, with its type."""
    g = played(preset, seed)
    for ev in g.events:
        assert to_json(parse_event(ev)) == ev.to_json()
    for seat in (0, 1, 2, 3, None):
        for message in g.events_for(seat):
            typed = parse_event(message)
            assert typed.schema == EVENT_SCHEMA and to_json(typed) == message


def test_a_malformed_event_is_refused_naming_the_field() -> None:
    with pytest.raises(EventError, match=r"event 7: Expected `int`, got `str` - at `\$.wall`"):
        parse_event({"type": "draw", "seq": 7, "wall": "x", "replacement": False})
    with pytest.raises(EventError, match="no event type 'shuffle'"):
        parse_event({"type": "shuffle", "seq": 1})


def test_a_forced_win_says_so() -> None:
    g = last_four()
    g.apply(3, Hu())
    hu = next(parse_event(e) for e in reversed(g.events_for(0)) if e["type"] == "hu")
    assert isinstance(hu, HuEvent) and hu.forced
    draws = [parse_event(e) for e in g.events_for(1) if e["type"] == "draw"]
    assert all(isinstance(d, Draw) and d.last_four == in_last_four(d.wall) for d in draws)
    assert [d.wall for d in draws if isinstance(d, Draw) and d.last_four] == [3, 2, 1, 0]


def test_a_win_outside_the_forced_zone_is_not_forced() -> None:
    g2 = last_four(forced_win_in_last_four=False)
    g2.apply(3, Hu())
    hu = next(parse_event(e) for e in reversed(g2.events) if e.type == "hu")
    assert isinstance(hu, HuEvent) and not hu.forced


def test_a_locked_hands_automatic_discard_says_so_and_its_wins_name_the_waits() -> None:
    g = robbing_game(draws=XUELIU_DRAWS, replacements="4p", ruleset=rules("xueliu"))
    play(g, (1, Kong(t("7p"))), (2, Hu()))
    play(g, (3, Discard(t("2p"))), (0, Discard(t("3p"))), (1, Discard(t("2m"))))
    discards = [parse_event(e) for e in g.events_for(0) if e["type"] == "discard"]
    auto = [(d.seat, d.tile) for d in discards if isinstance(d, DiscardEvent) and d.automatic]
    assert auto == [(2, "9p")]
    assert [d for d in discards if isinstance(d, DiscardEvent) and d.automatic and d.seat != 2] == []
    (hu,) = [parse_event(e) for e in g.events_for(0) if e["type"] == "hu"]
    assert isinstance(hu, HuEvent) and hu.waits == "47p" and not hu.forced


@pytest.mark.parametrize("preset", ["xuezhan", "doublewin-xuezhan", "portal-xuezhan"])
def test_the_exhaustive_draw_tells_pigs_ready_seats_and_their_values(preset: str) -> None:
    g = game(EXHAUST, voids="pmmm", ruleset=rules(preset))
    g.apply(0, Kong(t("1s")))
    run_out(g)
    (ex,) = [parse_event(e) for e in g.events_for(3) if e["type"] == "exhausted"]
    assert isinstance(ex, Exhausted)
    assert ex.part == [True] * 4 and ex.pig == [False, True, False, False]
    assert ex.ready == [False, False, True, False]
    fan = ex.fan[2]
    assert fan is not None and ex.fan[1] is None
    # every 查大叫 payment is the ready seat's value, as the event says
    assert {p.amount for p in g.ledger if p.reason == "chadajiao"} == {2 ** fan}
    out = hand_outcome(g.events_for(3))
    assert [s.pig for s in out.seats] == [False, True, False, False]
    assert out.seats[2].waits == "9p3s" and out.seats[2].ready and out.seats[2].fan_at_draw == fan
    assert out.seats[0].ready is False and out.seats[1].ready is False


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32))
def test_the_outcome_is_the_ledger_and_the_same_for_every_seat(preset: str, seed: int) -> None:
    """The outcome adds up to the ledger, each win is the game's, and every seat (and a
    spectator) reads the same outcome from its own events as the whole log gives."""
    g = played(preset, seed)
    out = hand_outcome(g.events)
    assert [s.delta for s in out.seats] == g.deltas()
    for s, res in enumerate(out.seats):
        assert sum(x.amount for x in res.received) - sum(x.amount for x in res.paid) == res.delta
        assert [(w.tile, w.total) for w in res.wins] == [(tile_str(w.tile), w.total) for w in g.wins if w.seat == s]
        assert res.dealt_in == sum(w.from_seat == s for w in g.wins)
        hand = g.state.seats[s].hand
        assert res.waits == (format_tiles(waits(hand, g.state.public.melds[s], g.state.seats[s].void))
                             if sum(hand) % 3 == 1 else None)
    assert out.reason == g.end_reason
    for seat in (0, 1, 2, 3, None):
        assert hand_outcome(g.events_for(seat)) == out


def test_an_unfinished_hand_has_no_outcome() -> None:
    g, _ = random_hand("xuezhan", 1)
    with pytest.raises(ValueError, match="not over"):
        hand_outcome(g.events)


def test_end_tells_each_seats_pig_and_waits_as_its_revealed_hand_shows() -> None:
    g = played("xuezhan", 3)
    (end,) = [parse_event(e) for e in g.events_for(None) if e["type"] == "end"]
    assert isinstance(end, End)
    for s in range(4):
        counts = to_counts(parse_tiles(end.hands[s]))
        if sum(counts) % 3 == 1:
            assert end.waits[s] == format_tiles(waits(counts, g.state.public.melds[s], g.state.seats[s].void))
