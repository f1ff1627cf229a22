"""The verdict's levels (verified, consistent but not verified, failed) on records mutated in
ways that the deal checks alone cannot see: deleted decisions, another stake, another payment,
another exchange, other play with the same payments."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.fairness import Level, VRFKey, sign_record, verify_record
from chuanma.fairness.checks import Check, Status, Verdict
from chuanma.fairness.cli import EXIT_BAD_INPUT, EXIT_MISMATCH, EXIT_UNVERIFIED
from chuanma.fairness.keys import signing_key_of
from chuanma.fairness.verify import ROTATED
from fairness_records import (
    CANNOT_REPRODUCE,
    KEY,
    MUTATIONS,
    SEED,
    VRF_SECRET,
    fixed_played,
    mutated_record,
    vrf_record,
)

runner = CliRunner()
def test_genuine_signed_record_is_verified_and_unsigned_one_is_not() -> None:
    signed = verify_record(sign_record(fixed_played(SEED), KEY), public_key=KEY.public_key)
    assert signed.level is Level.VERIFIED
    assert signed.summary.startswith("verified") and KEY.public_key.hex() in signed.summary
    unsigned = verify_record(fixed_played(SEED))
    assert unsigned.level is Level.CONSISTENT and unsigned.ok
    assert unsigned.summary.startswith("consistent but unsigned")
    assert "nothing binds the decisions" in unsigned.summary and "base" in unsigned.summary


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_a_signed_record_changed_fails(name: str) -> None:
    verdict = verify_record(mutated_record(name, signed=True), public_key=KEY.public_key)
    assert verdict.level is Level.FAILED
    assert "signature" in {c.name for c in verdict.failed}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_an_unsigned_record_changed_is_never_verified(name: str) -> None:
    verdict = verify_record(mutated_record(name, signed=False))
    assert verdict.level is not Level.VERIFIED
    if name in CANNOT_REPRODUCE:
        assert verdict.level is Level.FAILED
        assert {c.name for c in verdict.failed} & {"replay", "result"}


def test_a_record_stating_a_result_without_decisions_fails() -> None:
    verdict = verify_record(mutated_record("decisions deleted", signed=False))
    assert verdict["replay"].status.value == "failed"
    assert "ends before the hand is over" in verdict["replay"].message


def test_the_signature_covers_the_stake_and_the_rules() -> None:
    record = sign_record(fixed_played(SEED), KEY)
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
    path.write_text(json.dumps(mutated_record(name, signed=True)))
    code, out = _cli(path, "--public-key", KEY.public_key.hex())
    assert code == EXIT_MISMATCH and "verdict: FAILED" in out
    path.write_text(json.dumps(mutated_record(name, signed=False)))
    code, out = _cli(path)
    assert code == (EXIT_MISMATCH if name in CANNOT_REPRODUCE else EXIT_UNVERIFIED), out
    assert "VERIFIED" not in out


def test_cli_levels_and_exit_codes(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(sign_record(fixed_played(SEED), KEY)))
    code, out = _cli(path, "--public-key", KEY.public_key.hex())
    assert code == 0 and "verdict: VERIFIED" in out
    path.write_text(json.dumps(fixed_played(SEED)))
    code, out = _cli(path)
    assert code == EXIT_UNVERIFIED and "CONSISTENT BUT UNSIGNED" in out
    as_json = json.loads(runner.invoke(app, ["fair", "verify", "--json", str(path)]).stdout)
    assert as_json["level"] == "consistent" and as_json["summary"].startswith("consistent but unsigned")


def test_cli_names_the_key_a_record_is_verified_for(tmp_path: Path) -> None:
    """Without --public-key, "verified" is for the record's own signer, and the verdict says so."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(sign_record(fixed_played(SEED), KEY)))
    key = KEY.public_key.hex()
    code, out = _cli(path)
    flat = " ".join(out.split())
    assert code == 0 and f"verdict: VERIFIED FOR KEY {key}: dealt as the seeds give" in flat, flat
    assert "no key was pinned: only a pinned dealer key proves it is the server's" in flat
    code, out = _cli(path, "--public-key", key)
    flat = " ".join(out.split())
    assert code == 0 and f"verdict: VERIFIED FOR KEY {key}: dealt as the seeds give" in flat, flat
    assert "(the required key)" in flat and "no key was pinned" not in flat


def test_a_record_signed_before_the_split_by_the_vrf_key_passes_with_the_vrf_key_pinned() -> None:
    """Before the signing key was derived, the dealer signed with its VRF key itself: pinned with
    the server's two keys (as the verifier page served by the server pins them), such a record still
    passes; one signed by any other key still fails."""
    dealer = VRFKey(VRF_SECRET)
    signer = signing_key_of(dealer)
    earlier = sign_record(vrf_record(), dealer)
    pinned = verify_record(earlier, public_key=signer.public_key, vrf_public_key=dealer.public_key)
    assert pinned["signature"].passed and "before its signing key" in pinned["signature"].message
    assert not verify_record(earlier, public_key=signer.public_key)["signature"].passed
    stranger = sign_record(vrf_record(), KEY)
    assert not verify_record(stranger, public_key=signer.public_key,
                             vrf_public_key=dealer.public_key)["signature"].passed


def test_the_headline_capitalizes_the_level_words_not_the_key() -> None:
    checks = tuple(Check(name, Status.PASSED, "signed by abcd12") for name in ("wall", "replay", "result", "signature"))
    headline = Verdict(checks, "abcd12").headline
    assert headline.startswith("VERIFIED FOR KEY abcd12: dealt as the seeds give"), headline


def test_the_dealer_signs_with_a_key_of_its_own_and_both_keys_can_be_pinned(tmp_path: Path) -> None:
    """The signing key is derived from the dealer's key file but is not its VRF key; ``--public-key``
    pins the signer, ``--vrf-public-key`` the key that dealt (a dealer may not pick one per hand)."""
    dealer = VRFKey(VRF_SECRET)
    signer = signing_key_of(dealer)
    assert signer.public_key != dealer.public_key and signer.secret != dealer.secret
    assert signing_key_of(dealer).secret == signer.secret  # derived: the same from the same file
    signed = sign_record(vrf_record(), signer)
    pinned = verify_record(signed, public_key=signer.public_key, vrf_public_key=dealer.public_key)
    assert pinned.ok and pinned["signature"].passed and pinned["proof"].passed  # a deal only: not replayed
    other = verify_record(signed, public_key=signer.public_key, vrf_public_key=KEY.public_key)
    assert other["proof"].status is Status.FAILED
    assert other["proof"].message == (f"dealt by the VRF key {dealer.public_key.hex()}, not by the required "
                                      f"VRF key {KEY.public_key.hex()}{ROTATED}")
    path = tmp_path / "signed.json"
    path.write_text(json.dumps(signed))
    pins = ("--public-key", signer.public_key.hex(), "--vrf-public-key", dealer.public_key.hex())
    assert _cli(path, *pins)[0] == EXIT_UNVERIFIED  # consistent: a deal only, nothing failed
    code, out = _cli(path, "--vrf-public-key", KEY.public_key.hex())
    assert code == EXIT_MISMATCH and "proof" in out
    code, _ = _cli(path, "--public-key", dealer.public_key.hex())  # the VRF key does not sign
    assert code == EXIT_MISMATCH


def test_cli_refuses_a_duplicated_key(tmp_path: Path) -> None:
    """A stake written twice is ambiguous (parsers keep one or the other): refused, not judged."""
    text = json.dumps(sign_record(fixed_played(SEED), KEY))
    path = tmp_path / "r.json"
    for doubled in ('{"base": 1000, ' + text[1:], text[:-1] + ', "base": 1000}'):
        path.write_text(doubled)
        code, _ = _cli(path, "--public-key", KEY.public_key.hex())
        result = runner.invoke(app, ["fair", "verify", str(path)])
        assert code == EXIT_BAD_INPUT and "'base' twice" in result.output
