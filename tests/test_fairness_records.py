"""Records that prove the hand: the result, the dealer's signature, 32-byte server seeds."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.engine.game import Game
from chuanma.fairness import (
    FairHand,
    HandStateError,
    RecordError,
    ServerSeedError,
    Status,
    VRFKey,
    canonical_json,
    commitment,
    complete_record,
    sign_record,
    verify_record,
    write_key,
)
from chuanma.fairness.keys import signing_key_of
from chuanma.rules import RuleSet
from chuanma.tiles import SICHUAN_TILES
from engine_play import lean_to_win
from fairness_records import CLIENT_SEEDS, SERVER_SEED, VRF_SECRET, played_record

runner = CliRunner()
KEY = VRFKey(VRF_SECRET)


def _fair(seed: bytes = SERVER_SEED) -> FairHand:
    hand = FairHand(7, server_seed=seed, tile_set=SICHUAN_TILES)
    for seat, client_seed in enumerate(CLIENT_SEEDS):
        hand.add_client_seed(seat, client_seed)
    hand.deal()
    return hand


def _play(fair: FairHand, change_at: int | None = None) -> Game:
    """Play the hand with the engine tests' player that leans towards wins; at decision
    ``change_at`` take another legal one."""
    deal = fair.deal()
    game = Game(RuleSet.from_preset("xuezhan"), list(deal.wall), deal.dealer, deal.direction)
    rng = random.Random(5)
    n = 0
    while not game.finished:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        choice = legal.index(lean_to_win(rng, legal, game, seat, win=0.9, towards=0.9))
        if n == change_at and len(legal) > 1:
            choice = (choice + 1) % len(legal)
        game.apply(seat, legal[choice])
        n += 1
    return game


def _record(**kwargs: Any) -> dict[str, Any]:
    fair = _fair()
    return fair.finish(_play(fair), **kwargs)


def test_complete_record_carries_the_result_and_passes_every_check() -> None:
    fair = _fair()
    game = _play(fair)
    record = fair.finish(game)
    assert record["result"] == json.loads(json.dumps(game.result()))
    assert set(record["result"]) == {"deltas", "payments", "winners"}
    verdict = verify_record(record)
    assert verdict.ok
    assert verdict["result"].passed and verdict["replay"].passed
    assert verdict["signature"].status is Status.NOT_RUN
    assert verdict["signature"].message.startswith("unsigned")


def test_a_decision_changed_to_another_legal_one_fails_the_result() -> None:
    record = _record()
    for change_at in range(40, 200):  # find a changed decision that changes the payments
        fair = _fair()
        other = fair.finish(_play(fair, change_at))
        if other["result"] != record["result"]:
            break
    tampered = {**copy.deepcopy(record), "decisions": other["decisions"]}
    verdict = verify_record(tampered)
    assert verdict["replay"].passed  # every decision is still legal
    assert verdict["result"].status is Status.FAILED
    assert "the replay gives" in verdict["result"].message
    assert {c.name for c in verdict.failed} == {"result"}


def _claimed(record: dict[str, Any]) -> dict[str, Any] | None:
    """The record's first pong or chow decision."""
    return next((d for d in record["decisions"] if "chow" in d or "pong" in d), None)


@pytest.mark.parametrize(("preset", "tiles"), [("dazhong", 136), ("classic-normal", 108)])
def test_first_win_hands_verify_and_a_changed_claim_fails_the_replay(preset: str, tiles: int) -> None:
    """A played 大众麻将 hand (136-tile wall) and a played 普通场 hand pass every check; their
    first pong or chow changed to one of a tile of another suit than the one claimed (so of no
    tile under claim) fails the replay."""
    record = next(r for r in (played_record(s, preset) for s in range(40)) if _claimed(r) is not None)
    assert len(record["wall"]) == tiles
    verdict = verify_record(record)
    assert verdict.ok and verdict["wall"].passed and verdict["replay"].passed and verdict["result"].passed
    tampered = copy.deepcopy(record)
    claim = _claimed(tampered)
    assert claim is not None
    kind = "chow" if "chow" in claim else "pong"
    claim[kind] = "1p" if claim[kind][1] != "p" else "1s"
    bad = verify_record(tampered)
    assert bad["replay"].status is Status.FAILED and bad["wall"].passed


@pytest.mark.parametrize(
    ("part", "mutate"),
    [
        ("deltas", lambda r: r["result"]["deltas"].__setitem__(0, r["result"]["deltas"][0] + 1)),
        ("payments[0]", lambda r: r["result"]["payments"][0].update(amount=99)),
        ("payments", lambda r: r["result"]["payments"].pop()),
        ("winners", lambda r: r["result"].update(winners=[{"seat": 0}])),
    ],
)
def test_a_changed_payment_or_delta_is_named(part: str, mutate: Any) -> None:
    record = _record()
    mutate(record)
    check = verify_record(record)["result"]
    assert check.status is Status.FAILED
    assert f"result.{part}" in check.message


def test_a_played_record_without_result_fails_and_a_deal_only_record_is_not_checked() -> None:
    record = _record()
    del record["result"]
    assert verify_record(record)["result"].status is Status.FAILED
    fair = _fair()
    fair.mark_over()
    assert verify_record(fair.hand_record())["result"].status is Status.NOT_RUN


def test_complete_record_refuses_an_unfinished_game() -> None:
    fair = _fair()
    deal = fair.deal()
    game = Game(RuleSet.from_preset("xuezhan"), list(deal.wall), deal.dealer, deal.direction)
    with pytest.raises(HandStateError, match="finished"):
        complete_record(game)
    with pytest.raises(HandStateError, match="not finished"):
        fair.finish(game)
    assert "server_seed" not in fair.seeds_record()  # nothing changed: still secret


def test_finish_refuses_a_game_played_on_another_deal() -> None:
    fair = _fair()
    other = _fair(bytes(range(32)))
    with pytest.raises(HandStateError, match="not played on this hand's deal"):
        fair.finish(_play(other))
    assert "server_seed" not in fair.seeds_record()


# ------------------------------------------------------------------------------- signatures


def test_signed_record_verifies_and_any_change_breaks_the_signature() -> None:
    record = _record(signing_key=KEY)
    signature = record["signature"]
    assert signature["scheme"] == "ed25519" and signature["public_key"] == KEY.public_key.hex()
    verdict = verify_record(record, public_key=KEY.public_key)
    assert verdict.ok and verdict["signature"].passed
    for mutate in (lambda r: r.update(base=2), lambda r: r["result"]["deltas"].reverse(),
                   lambda r: r["seeds"].update(nonce=8)):
        tampered = copy.deepcopy(record)
        mutate(tampered)
        check = verify_record(tampered)["signature"]
        assert check.status is Status.FAILED and "does not match" in check.message


def test_signature_by_another_key_or_missing_fails_when_a_key_is_required() -> None:
    other = VRFKey(bytes(32))
    signed = _record(signing_key=other)
    assert verify_record(signed)["signature"].passed
    check = verify_record(signed, public_key=KEY.public_key)["signature"]
    assert check.status is Status.FAILED and "not by the required key" in check.message
    # the signer, and where a server lists its keys
    assert other.public_key.hex() in check.message and "/api/fairness/keys" in check.message
    unsigned = verify_record(_record(), public_key=KEY.public_key)["signature"]
    assert unsigned.status is Status.FAILED and "unsigned" in unsigned.message


def test_canonical_json_is_sorted_compact_utf8_without_the_signature() -> None:
    record = {"b": "中", "a": [1, {"d": 2, "c": None}], "signature": {"value": "x"}}
    assert canonical_json(record) == '{"a":[1,{"c":null,"d":2}],"b":"中"}'.encode()
    assert sign_record(record, KEY)["signature"] != record["signature"]  # replaced, not kept


def test_malformed_signature_field_is_a_record_error() -> None:
    record = _record(signing_key=KEY)
    record["signature"]["value"] = "zz"
    with pytest.raises(RecordError, match=r"signature\.'value' must be hexadecimal"):
        verify_record(record)
    record["signature"] = {"scheme": "rsa"}
    with pytest.raises(RecordError, match="unknown signature scheme"):
        verify_record(record)


# ---------------------------------------------------------------------------- server seeds


def test_a_server_seed_must_be_32_bytes() -> None:
    for seed in (b"\x01", bytes(31), bytes(33)):
        with pytest.raises(ServerSeedError, match="exactly 32 bytes"):
            FairHand(0, server_seed=seed, tile_set=SICHUAN_TILES)
    record = _fair().hand_record()
    record["seeds"].update(server_seed="01", commitment=commitment(b"\x01"))
    verdict = verify_record(record)
    assert verdict["commitment"].status is Status.FAILED
    assert "1 bytes" in verdict["commitment"].message and "exactly 32 bytes" in verdict["commitment"].message
    assert verdict["wall"].status is Status.NOT_RUN  # nothing is derived from such a seed


# ------------------------------------------------------------------------------------ CLI


def test_fair_sign_then_verify(tmp_path: Path) -> None:
    key_file = tmp_path / "dealer.key"
    write_key(KEY, key_file)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(_record()), encoding="utf-8")
    signed = runner.invoke(app, ["fair", "sign", str(path), "--key", str(key_file)])
    assert signed.exit_code == 0, signed.output
    signer = signing_key_of(KEY).public_key.hex()  # the key derived from the file signs, not its VRF key
    assert signed.stdout.strip() == signer != KEY.public_key.hex()
    shown = runner.invoke(app, ["fair", "pubkey", "--key", str(key_file), "--signing"])
    assert shown.stdout.strip() == signer
    ok = runner.invoke(app, ["fair", "verify", str(path), "--public-key", signer])
    assert ok.exit_code == 0, ok.output
    data = json.loads(path.read_text(encoding="utf-8"))
    data["result"]["deltas"][1] += 1
    path.write_text(json.dumps(data), encoding="utf-8")
    bad = runner.invoke(app, ["fair", "verify", str(path)])
    assert bad.exit_code == 1 and "FAILED (result, signature)" in bad.stdout
    refused = runner.invoke(app, ["fair", "sign", str(path), "--key", str(key_file)])
    assert refused.exit_code == 2 and "refusing to sign" in refused.output
    nokey = runner.invoke(app, ["fair", "sign", str(path), "--key", str(tmp_path / "none")])
    assert nokey.exit_code == 2 and "no key file" in nokey.output
    badkey = runner.invoke(app, ["fair", "verify", str(path), "--public-key", "abcd"])
    assert badkey.exit_code == 2 and "--public-key must be 32 bytes" in badkey.output
