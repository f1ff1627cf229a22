"""``chuanma replay``: the JSON result, the readable account, and refusal of a bad record."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.engine import Action, Discard, Game, Hu, action_from_json, replay, to_record
from chuanma.engine.outcome import hand_outcome
from chuanma.engine.record import RecordError
from chuanma.rules import RuleSet
from chuanma.tiles import SICHUAN_TILES, parse_tile

runner = CliRunner()


def _finished(preset: str = "xueliu", seed: int = 3) -> Game:
    rng = random.Random(seed)
    wall = SICHUAN_TILES.wall()
    rng.shuffle(wall)
    g = Game(RuleSet.from_preset(preset), wall, 1, "opposite")
    while not g.finished:
        seat = rng.choice(g.to_act())
        legal = g.legal_actions(seat)
        g.apply(seat, Hu() if Hu() in legal else rng.choice(legal))
    return g


def test_replay_json_matches_the_game(tmp_path: Path) -> None:
    g = _finished()
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(to_record(g)), encoding="utf-8")
    out = runner.invoke(app, ["replay", str(path), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["result"] == json.loads(json.dumps(g.result()))
    assert data["result"]["deltas"] == g.deltas() and sum(g.deltas()) == 0
    assert [e["seq"] for e in data["events"]] == list(range(len(g.events)))
    assert data["outcome"] == hand_outcome(g.events).to_json()
    assert [s["delta"] for s in data["outcome"]["seats"]] == g.deltas()
    text = runner.invoke(app, ["replay", str(path)])
    assert text.exit_code == 0 and "result" in text.output


def test_replay_refuses_an_illegal_decision_with_its_index(tmp_path: Path) -> None:
    record = to_record(_finished())
    i = next(i for i, d in enumerate(record["decisions"]) if "discard" in d)
    seat = record["decisions"][i]["seat"]
    record["decisions"][i] = {"seat": (seat + 1) % 4, "discard": record["decisions"][i]["discard"]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = runner.invoke(app, ["replay", str(path), "--json"])
    assert out.exit_code == 1
    assert f"decision {i}:" in out.output


def test_unreadable_record(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{", encoding="utf-8")
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 1 and "not valid JSON" in out.output
    out = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert out.exit_code == 1



def test_a_file_without_a_format_is_refused_naming_the_field_and_the_format(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text("{}", encoding="utf-8")
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 1 and "None" not in out.output
    assert out.output.strip() == 'error: a record has no "format" field: expected "chuanma-record/2"'
    path.write_text('{"format": null}', encoding="utf-8")
    out = runner.invoke(app, ["replay", str(path)])
    assert out.output.strip() == 'error: unknown record format null: expected "chuanma-record/2"'


def test_a_replay_upload_without_a_format_names_the_field() -> None:
    with pytest.raises(RecordError, match=r'^a record has no "format" field: expected "chuanma-record/2"$'):
        replay({})


VIEWS = (None, 0, 1, 2, 3)
SEEDS = range(200)
CLAIMED_LOCKED_DISCARD = {32, 71, 78, 82, 98, 164, 198}
"""Hands in which a seat claims a locked discard: written out, that discard is matched before its
claim window closes (the claim comes after it in the record)."""


def _automatic(game: Game, since: int, decided: Action) -> list[dict[str, object]]:
    """The automatic decisions among ``game``'s events from ``since`` on (after ``decided``)."""
    found: dict[int, dict[str, object]] = {}
    for view in VIEWS:
        for ev in game.events_for(view, since):
            if ev["type"] == "void_chosen" and ev.get("automatic"):
                found[ev["seq"]] = {"seat": ev["seat"], "void": ev["suit"]}
            elif ev["type"] == "discard":
                found[ev["seq"]] = {"seat": ev["seat"], "discard": ev["tile"]}
    items = [found[seq] for seq in sorted(found)]
    return items[1:] if isinstance(decided, Discard) else items


def _written_out(record: dict[str, Any]) -> list[dict[str, object]]:
    """The record's decisions with each automatic one (a forced void, a locked discard) written
    in right after the decision that brought it about."""
    shadow = Game(RuleSet.from_json(record["rules"]), [parse_tile(t) for t in record["wall"]],
                  record["dealer"], record["direction"])
    out: list[dict[str, object]] = []
    for d in record["decisions"]:
        since = 1 + max(evs[-1]["seq"] for evs in map(shadow.events_for, VIEWS) if evs)
        action = action_from_json(d, SICHUAN_TILES)
        shadow.apply(d["seat"], action)
        out += [d, *_automatic(shadow, since, action)]
    return out


def _fewer_passes(decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``decisions`` without their passes, except a pass whose seat's next decision other than a
    pass is a win, kong or pong (on its own turn: left out, it would be read as a claim)."""
    kept = []
    for i, d in enumerate(decisions):
        after = next((n for n in decisions[i + 1:] if "pass" not in n), {})
        if "pass" not in d or (after.get("seat") == d["seat"] and {"hu", "kong", "pong"} & set(after)):
            kept.append(d)
    return kept


@pytest.mark.parametrize("seed", SEEDS)
def test_automatic_decisions_may_be_written_out(seed: int) -> None:
    g = _finished("xueliu", seed)
    record = to_record(g)
    written = _written_out(record)
    assert replay(dict(record, decisions=written)).result() == g.result()


@pytest.mark.parametrize("seed", SEEDS)
def test_passes_may_be_left_out(seed: int) -> None:
    g = _finished("xueliu", seed)
    record = to_record(g)
    # the passes can be left out, but for one the same seat's next claim would be read as answering
    assert replay(dict(record, decisions=_fewer_passes(record["decisions"]))).result() == g.result()


def _locked_discards(seed: int) -> int:
    record = to_record(_finished("xueliu", seed))
    return sum("discard" in d for d in _written_out(record)) - sum("discard" in d for d in record["decisions"])


def test_the_seed_range_holds_many_locked_discards() -> None:
    with_locked = {s for s in SEEDS if _locked_discards(s)}
    assert len(with_locked) >= 15 and with_locked >= CLAIMED_LOCKED_DISCARD
