"""The verdict's levels (verified, consistent but not verified, failed) on records mutated in
ways that the deal checks alone cannot see: deleted decisions, another stake, another payment,
another exchange, other play with the same payments."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.engine.record import replay
from chuanma.fairness import Level, VRFKey, sign_record, verify_record
from chuanma.fairness.cli import EXIT_BAD_INPUT, EXIT_MISMATCH, EXIT_UNVERIFIED
from chuanma.fairness.signing import SIGNATURE_FIELD
from fairness_records import SERVER_SEED, played_record

runner = CliRunner()
KEY = VRFKey(bytes(range(1, 33)))
SEED = 4
"""A hand with a win and payments, dealt from a fixed server seed and played by a seeded random
player: the same record on every run."""


def played_copy(seed: int) -> dict[str, Any]:
    return played_record(seed, server_seed=SERVER_SEED)


def _exchanged(r: dict[str, Any]) -> None:
    """Seat 0 exchanges three other tiles of its hand (a legal exchange, other play follows)."""
    first = next(i for i, d in enumerate(r["decisions"]) if "exchange" in d)
    game = replay({**r, "decisions": r["decisions"][:first]}, complete=False)
    seat = r["decisions"][first]["seat"]
    options = sorted(json.dumps(a.to_json()) for a in game.legal_actions(seat))
    other = next(o for o in options if json.loads(o) != {k: v for k, v in r["decisions"][first].items() if k != "seat"})
    r["decisions"][first] = {"seat": seat, **json.loads(other)}


def _same_payments(r: dict[str, Any]) -> None:
    """Another legal discard, found from the end of the hand, whose replay gives the same result."""
    unsigned = {k: v for k, v in r.items() if k != SIGNATURE_FIELD}
    for i in range(len(r["decisions"]) - 1, -1, -1):
        decision = r["decisions"][i]
        if "discard" not in decision:
            continue
        game = replay({**unsigned, "decisions": r["decisions"][:i]}, complete=False)
        for action in sorted(game.legal_actions(decision["seat"]), key=lambda a: json.dumps(a.to_json())):
            other = {"seat": decision["seat"], **action.to_json()}
            if "discard" not in other or other == decision:
                continue
            changed = {**unsigned, "decisions": [*r["decisions"][:i], other, *r["decisions"][i + 1:]]}
            verdict = verify_record(changed)
            if verdict["replay"].passed and verdict["result"].passed:
                r["decisions"] = changed["decisions"]
                return
    raise AssertionError("no other discard with the same payments")


def _payment(r: dict[str, Any]) -> None:
    r["result"]["payments"][0]["amount"] += 1


MUTATIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "decisions emptied": lambda r: r.__setitem__("decisions", []),
    "decisions deleted": lambda r: r.pop("decisions"),
    "base 1000": lambda r: r.__setitem__("base", 1000),
    "base deleted": lambda r: r.pop("base"),
    "payment changed": _payment,
    "exchange changed": _exchanged,
    "same payments, other play": _same_payments,
}
CANNOT_REPRODUCE = {"decisions emptied", "decisions deleted", "payment changed", "exchange changed"}
"""Mutations after which the record states a result its decisions do not give."""


def _mutated(name: str, *, signed: bool) -> dict[str, Any]:
    record = played_copy(SEED)
    if signed:
        record = sign_record(record, KEY)
    MUTATIONS[name](record)
    return record


def test_genuine_signed_record_is_verified_and_unsigned_one_is_not() -> None:
    signed = verify_record(sign_record(played_copy(SEED), KEY), public_key=KEY.public_key)
    assert signed.level is Level.VERIFIED
    assert signed.summary.startswith("verified") and KEY.public_key.hex() in signed.summary
    unsigned = verify_record(played_copy(SEED))
    assert unsigned.level is Level.CONSISTENT and unsigned.ok
    assert unsigned.summary.startswith("consistent but unsigned")
    assert "nothing binds the decisions" in unsigned.summary and "base" in unsigned.summary


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_a_signed_record_changed_fails(name: str) -> None:
    verdict = verify_record(_mutated(name, signed=True), public_key=KEY.public_key)
    assert verdict.level is Level.FAILED
    assert "signature" in {c.name for c in verdict.failed}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_an_unsigned_record_changed_is_never_verified(name: str) -> None:
    verdict = verify_record(_mutated(name, signed=False))
    assert verdict.level is not Level.VERIFIED
    if name in CANNOT_REPRODUCE:
        assert verdict.level is Level.FAILED
        assert {c.name for c in verdict.failed} & {"replay", "result"}


def test_a_record_stating_a_result_without_decisions_fails() -> None:
    verdict = verify_record(_mutated("decisions deleted", signed=False))
    assert verdict["replay"].status.value == "failed"
    assert "ends before the hand is over" in verdict["replay"].message


def test_the_signature_covers_the_stake_and_the_rules() -> None:
    record = sign_record(played_copy(SEED), KEY)
    for field, value in (("base", 2), ("rules", "xueliu")):
        changed = copy.deepcopy(record)
        changed[field] = value
        assert not verify_record(changed)["signature"].passed, field


def _cli(path: Path, *extra: str) -> tuple[int, str]:
    result = runner.invoke(app, ["fair", "verify", str(path), *extra])
    return result.exit_code, result.stdout


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_cli_verdicts_on_changed_records(tmp_path: Path, name: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_mutated(name, signed=True)))
    code, out = _cli(path, "--public-key", KEY.public_key.hex())
    assert code == EXIT_MISMATCH and "verdict: FAILED" in out
    path.write_text(json.dumps(_mutated(name, signed=False)))
    code, out = _cli(path)
    assert code == (EXIT_MISMATCH if name in CANNOT_REPRODUCE else EXIT_UNVERIFIED), out
    assert "VERIFIED" not in out


def test_cli_levels_and_exit_codes(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(sign_record(played_copy(SEED), KEY)))
    code, out = _cli(path, "--public-key", KEY.public_key.hex())
    assert code == 0 and "verdict: VERIFIED" in out
    path.write_text(json.dumps(played_copy(SEED)))
    code, out = _cli(path)
    assert code == EXIT_UNVERIFIED and "CONSISTENT BUT UNSIGNED" in out
    as_json = json.loads(runner.invoke(app, ["fair", "verify", "--json", str(path)]).stdout)
    assert as_json["level"] == "consistent" and as_json["summary"].startswith("consistent but unsigned")


def test_cli_refuses_a_duplicated_key(tmp_path: Path) -> None:
    """A stake written twice is ambiguous (parsers keep one or the other): refused, not judged."""
    text = json.dumps(sign_record(played_copy(SEED), KEY))
    path = tmp_path / "r.json"
    for doubled in ('{"base": 1000, ' + text[1:], text[:-1] + ', "base": 1000}'):
        path.write_text(doubled)
        code, _ = _cli(path, "--public-key", KEY.public_key.hex())
        result = runner.invoke(app, ["fair", "verify", str(path)])
        assert code == EXIT_BAD_INPUT and "'base' twice" in result.output
