"""The verifier replays a played hand's decisions on its fairly dealt wall."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.engine.game import Game
from chuanma.engine.record import to_record
from chuanma.fairness import FairHand, Status, verify_record
from chuanma.fairness.cli import EXIT_UNVERIFIED
from chuanma.rules import RuleSet
from chuanma.tiles import SICHUAN_TILES, tile_str
from fairness_records import SEEDS, played_record


def test_a_played_hand_passes_every_check_including_the_replay() -> None:
    for seed, preset in ((11, "xuezhan"), (12, "xueliu"), (13, "classic")):
        verdict = verify_record(played_record(seed, preset))
        assert verdict.ok
        assert {c.status for c in verdict.checks if c.name != "signature"} == {Status.PASSED}
        assert verdict["signature"].message.startswith("unsigned")
        assert "replay legally" in verdict["replay"].message


def test_an_illegal_decision_fails_the_replay_with_its_index() -> None:
    record = played_record()
    decisions = record["decisions"]
    index = next(i for i, d in enumerate(decisions) if "discard" in d and i > 20)
    decisions[index] = {**decisions[index], "seat": (decisions[index]["seat"] + 1) % 4}  # out of turn
    verdict = verify_record(record)
    assert verdict["replay"].status is Status.FAILED
    assert f"decision {index}" in verdict["replay"].message
    assert not verdict.ok
    assert {c.name for c in verdict.failed} == {"replay"}  # the deal itself is still fair


def test_a_swapped_wall_fails_the_wall_check_even_if_the_hand_replays() -> None:
    record = played_record()
    record["wall"][100], record["wall"][101] = record["wall"][101], record["wall"][100]
    verdict = verify_record(record)
    if record["wall"][100] != record["wall"][101]:
        assert verdict["wall"].status is Status.FAILED
        assert not verdict.ok


def test_fair_verify_command_reports_the_replay(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(played_record()), encoding="utf-8")
    result = CliRunner().invoke(app, ["fair", "verify", str(path)])
    assert result.exit_code == EXIT_UNVERIFIED, result.output  # consistent, but unsigned
    assert "replay" in result.output and "CONSISTENT BUT UNSIGNED" in result.output


def test_no_seat_or_spectator_sees_the_seed_or_the_wall_before_the_hand_ends() -> None:
    server_seed = bytes(range(40, 72))
    secret = server_seed.hex()  # the one value that must stay on the server until the end
    fair = FairHand(3, server_seed=server_seed, tile_set=SICHUAN_TILES)
    for seat, client_seed in enumerate(SEEDS):
        fair.add_client_seed(seat, client_seed)
    deal = fair.deal()
    game = Game(RuleSet.from_preset("xueliu"), list(deal.wall), deal.dealer, deal.direction,  # type: ignore[arg-type]
                seeds=fair.seeds_record())
    rng = random.Random(3)
    wall = [tile_str(t) for t in deal.wall]
    steps = 0
    while not game.finished:
        texts = [json.dumps(game.view(s).to_dict()) + json.dumps(game.events_for(s)) for s in (0, 1, 2, 3, None)]
        drawn = 53 + steps  # at least this many live tiles are still undrawn: none may show up in order
        for text in texts:
            assert secret not in text
            assert "server_seed" not in text
            for start in range(min(drawn, 100), 100):
                assert json.dumps(wall[start:start + 8])[1:-1] not in text
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        steps += 1
    assert "server_seed" not in json.dumps(to_record(game))  # not revealed until the hand is marked over
    fair.mark_over()
    assert fair.seeds_record()["server_seed"] == secret
