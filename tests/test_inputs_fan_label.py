"""``fan_label_offset`` (classic "1番 = 1倍") is applied wherever a fan count is shown: ``RuleSet.fan_label``."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.engine import Game, to_record
from chuanma.rules import RuleSet
from chuanma.tiles import SICHUAN_TILES
from engine_play import lean_to_win

runner = CliRunner()
CLASSIC = RuleSet.from_preset("classic")


def test_fan_label_adds_the_offset() -> None:
    assert [CLASSIC.fan_label(t) for t in (0, 3)] == [1, 4]
    assert RuleSet.from_preset("xuezhan").fan_label(3) == 3


def _won_classic_game() -> Game:
    for seed in range(50):
        rng = random.Random(seed)
        wall = SICHUAN_TILES.wall()
        rng.shuffle(wall)
        g = Game(CLASSIC, wall, 0, "to_next")
        while not g.finished:
            seat = g.to_act()[0]
            g.apply(seat, lean_to_win(rng, g.legal_actions(seat), g, seat, win=1.0, towards=0.9))
        if g.wins:
            return g
    raise AssertionError("no classic hand was won in 50 deals")


def test_fan_label_offset_in_replay_output(tmp_path: Path) -> None:
    g = _won_classic_game()
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(to_record(g)), encoding="utf-8")
    out = runner.invoke(app, ["replay", str(path)], env={"COLUMNS": "400"})
    assert out.exit_code == 0, out.output
    shown = [int(n) for n in re.findall(r"= (\d+) fan", out.output)]
    assert shown == [w.total + 1 for w in g.wins]


def test_fan_label_offset_in_simulate_statistics() -> None:
    def stats(*options: str) -> Any:
        out = runner.invoke(app, ["simulate", "-n", "40", "--rules", "classic", *options, "--json"])
        assert out.exit_code == 0, out.output
        return json.loads(out.stdout)["bots"]["greedy"]

    labelled, counted = stats(), stats("--set", "fan_label_offset=0")
    assert counted["fan_distribution"], "no hand was won"
    assert labelled["fan_distribution"] == {str(int(k) + 1): v for k, v in counted["fan_distribution"].items()}
    assert labelled["mean_fan"] == pytest.approx(counted["mean_fan"] + 1)


def test_fan_label_offset_in_score_output() -> None:
    line = json.dumps({"hand": "1112345678999m", "win_tile": "5m", "void": "p"})
    out = runner.invoke(app, ["score", "--rules", "classic"], input=line + "\n")
    result = json.loads(out.stdout)
    assert (result["total"], result["label"]) == (2, 3)
