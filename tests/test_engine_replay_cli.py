"""``chuanma replay``: the JSON result, the readable account, and refusal of a bad record."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.engine import Game, Hu, replay, to_record
from chuanma.rules import RuleSet
from chuanma.tiles import full_wall

runner = CliRunner()


def _finished(preset: str = "xueliu", seed: int = 3) -> Game:
    rng = random.Random(seed)
    wall = full_wall()
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


def test_automatic_decisions_may_be_written_out() -> None:
    # a 血流 hand with locked winners: write every automatic decision into the record
    for seed in range(40):
        g = _finished("xueliu", seed)
        if any(type(a).__name__ == "Discard" for _, a in g.autos):
            break
    record = to_record(g)
    full = replay(record)
    assert full.result() == g.result()
    # rebuild the decision list with the automatic locked discards and voids in place
    decisions: list[dict[str, object]] = []
    real = iter(record["decisions"])
    shadow = Game(g.rules, g.wall, g.dealer, g.direction)
    seen = 0
    for d in real:
        for seat, auto in shadow.autos[seen:]:
            if type(auto).__name__ in ("Discard", "ChooseVoid"):
                decisions.append({"seat": seat, **auto.to_json()})
        seen = len(shadow.autos)
        from chuanma.engine import action_from_json

        if shadow.phase in ("claim", "rob") and d["seat"] not in shadow.to_act():
            shadow.pass_pending()
            for seat, auto in shadow.autos[seen:]:
                if type(auto).__name__ in ("Discard", "ChooseVoid"):
                    decisions.append({"seat": seat, **auto.to_json()})
            seen = len(shadow.autos)
        shadow.apply(int(d["seat"]), action_from_json(d))
        decisions.append(d)
    assert replay(dict(record, decisions=decisions)).result() == g.result()
    # the passes can all be left out
    no_passes = [d for d in record["decisions"] if "pass" not in d]
    assert replay(dict(record, decisions=no_passes)).result() == g.result()
