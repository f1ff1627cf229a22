"""The record verifier and the ``chuanma fair`` commands."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.fairness import (
    Check,
    Deal,
    RecordError,
    Status,
    derive_deal,
    verifier_page_html,
    verifier_page_path,
    verify_record,
)
from chuanma.fairness.cli import EXIT_UNVERIFIED
from chuanma.tiles import SICHUAN_TILES
from fairness_records import CASES, build, hmac_record

runner = CliRunner()
SEED_HEX = bytes(range(32)).hex()


def _statuses(record: dict[str, Any]) -> dict[str, str]:
    return {c.name: c.status.value for c in verify_record(record).checks}


@pytest.mark.parametrize("case", sorted(CASES))
def test_python_verifier_catches_tampering(case: str) -> None:
    _, _, must_fail, may_fail = CASES[case]
    verdict = verify_record(build(case))
    failed = {c.name for c in verdict.failed}
    assert must_fail <= failed <= must_fail | may_fail
    assert verdict.ok == (not must_fail)
    # these records hold a deal only: there is nothing to replay, and the check says so
    assert verdict["replay"].status is Status.NOT_RUN


def test_genuine_record_passes_every_fairness_check() -> None:
    for case in ("hmac-genuine", "vrf-genuine"):
        statuses = _statuses(build(case))
        assert set(statuses.values()) == {"passed", "not_run"}
        assert [n for n, s in statuses.items() if s == "not_run"] == ["replay", "result", "signature"]


def test_unrevealed_seed_fails_and_nothing_is_derived() -> None:
    record = hmac_record()
    del record["seeds"]["server_seed"]
    statuses = _statuses(record)
    assert statuses["commitment"] == "failed"
    assert statuses["dealer"] == statuses["wall"] == "not_run"


def test_invalid_client_seed_is_a_failed_check() -> None:
    record = hmac_record()
    record["seeds"]["client_seeds"][0] = "a|b"
    assert _statuses(record)["client_seeds"] == "failed"


def test_wall_mismatch_message_names_the_position() -> None:
    record = build("hmac-wall-tile")
    message = verify_record(record)["wall"].message
    assert "position 10" in message and record["wall"][10] in message


def test_extra_checks_plug_in() -> None:
    seen: list[Deal | None] = []

    def replay(record: Any, deal: Deal | None) -> Check:
        seen.append(deal)
        return Check("replay", Status.PASSED, "replayed")

    record = hmac_record()
    verdict = verify_record(record, extra_checks=[replay])
    assert verdict["replay"].passed
    seeds = record["seeds"]
    assert seen == [
        derive_deal(bytes.fromhex(seeds["server_seed"]), "|".join(seeds["client_seeds"]), 7, SICHUAN_TILES)
    ]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.pop("seeds"), "no 'seeds' field"),
        (lambda r: r.pop("wall"), "no 'wall' field"),
        (lambda r: r["seeds"].pop("commitment"), "no seeds.'commitment' field"),
        (lambda r: r["seeds"].update(scheme="md5"), "unknown seeds scheme"),
        (lambda r: r["seeds"].update(nonce="7"), "must be an integer"),
        (lambda r: r["seeds"].update(server_seed="zz"), "hexadecimal"),
        (lambda r: r["seeds"].update(client_seeds=["a", "b"]), "four strings"),
        (lambda r: r.update(direction="sideways"), "'direction' must be one of"),
        (lambda r: r["wall"].__setitem__(3, "0m"), "wall position 3"),
        (lambda r: r.update(format="other/9"), "unknown record format"),
    ],
)
def test_malformed_records_raise_record_error(mutate: Any, message: str) -> None:
    record = hmac_record()
    mutate(record)
    with pytest.raises(RecordError, match=message):
        verify_record(record)
    with pytest.raises(RecordError, match="JSON object"):
        verify_record([1, 2])


# ---------------------------------------------------------------------------------- the CLI


def test_cli_deal_json_matches_the_library() -> None:
    result = runner.invoke(
        app, ["fair", "deal", "--server-seed", SEED_HEX, "--client-seeds", "a,b,c,d",
              "--nonce", "0", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    deal = derive_deal(bytes(range(32)), "a|b|c|d", 0, SICHUAN_TILES)
    assert data == {
        "commitment": __import__("hashlib").sha256(bytes(range(32))).hexdigest(),
        "dealer": deal.dealer,
        "direction": deal.direction,
        "wall": deal.wall_strings(),
    }


def test_cli_deal_readable_output_and_bad_input() -> None:
    args = ["fair", "deal", "--server-seed", SEED_HEX, "--client-seeds", "a,b,c,d", "--nonce", "0"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0
    deal = derive_deal(bytes(range(32)), "a|b|c|d", 0, SICHUAN_TILES)
    assert f"seat {deal.dealer}" in result.stdout and deal.direction in result.stdout
    bad = runner.invoke(
        app, ["fair", "deal", "--server-seed", "xyz", "--client-seeds", "a,b,c,d", "--nonce", "0"]
    )
    assert bad.exit_code == 2 and "hexadecimal" in bad.output
    bad = runner.invoke(
        app, ["fair", "deal", "--server-seed", SEED_HEX, "--client-seeds", "a,b,c", "--nonce", "0"]
    )
    assert bad.exit_code == 2 and "exactly 4" in bad.output


def _write(tmp_path: Path, record: Any, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    return str(path)


def test_cli_verify_genuine_and_tampered(tmp_path: Path) -> None:
    ok = runner.invoke(app, ["fair", "verify", _write(tmp_path, build("vrf-genuine"))])
    assert ok.exit_code == EXIT_UNVERIFIED, ok.output  # a deal only, unsigned: not verified
    assert "PASSED" in ok.stdout and "NOT RUN" in ok.stdout and "FAILED" not in ok.stdout
    bad = runner.invoke(app, ["fair", "verify", _write(tmp_path, build("hmac-wrong-server-seed"))])
    assert bad.exit_code == 1
    assert "FAILED (commitment)" in bad.stdout
    as_json = runner.invoke(
        app, ["fair", "verify", "--json", _write(tmp_path, build("hmac-wall-tile"))]
    )
    assert as_json.exit_code == 1
    verdict = json.loads(as_json.stdout)
    assert verdict["ok"] is False
    assert [c["name"] for c in verdict["checks"] if c["status"] == "failed"] == ["wall"]


def test_cli_verify_bad_input_exits_2(tmp_path: Path) -> None:
    for content, message in (("{not json", "is not valid JSON"), ({"seeds": {}}, "no seeds.'scheme'")):
        result = runner.invoke(app, ["fair", "verify", _write(tmp_path, content)])
        assert result.exit_code == 2
        assert message in result.output
    missing = runner.invoke(app, ["fair", "verify", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "no such file" in missing.output


def test_cli_keygen_and_pubkey(tmp_path: Path) -> None:
    key = tmp_path / "server.key"
    first = runner.invoke(app, ["fair", "keygen", "--out", str(key)])
    assert first.exit_code == 0, first.output
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    pk = first.stdout.strip().splitlines()[-1]
    assert len(bytes.fromhex(pk)) == 32
    shown = runner.invoke(app, ["fair", "pubkey", "--key", str(key)])
    assert shown.exit_code == 0 and shown.stdout.strip() == pk
    again = runner.invoke(app, ["fair", "keygen", "--out", str(key)])
    assert again.exit_code == 2 and "already exists" in again.output
    forced = runner.invoke(app, ["fair", "keygen", "--out", str(key), "--force"])
    assert forced.exit_code == 0
    assert forced.stdout.strip().splitlines()[-1] != pk
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    nokey = runner.invoke(app, ["fair", "pubkey", "--key", str(tmp_path / "none.key")])
    assert nokey.exit_code == 2 and "no key file" in nokey.output


def test_python_dash_m_chuanma_fair(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    result = subprocess.run(
        [sys.executable, "-m", "chuanma", "fair", "verify", _write(tmp_path, build("hmac-dealer"))],
        capture_output=True, text=True, env=env, check=False, timeout=60,
    )
    assert result.returncode == 1
    assert "dealer" in result.stdout and "FAILED" in result.stdout


def test_verifier_page_is_packaged_and_self_contained() -> None:
    html = verifier_page_html()
    assert "<script>" in html and "crypto.subtle" in html
    for external in ("http://", "https://", "src=", "<link"):
        assert external not in html
    with verifier_page_path() as path:
        assert path.name == "verify.html" and path.read_text(encoding="utf-8") == html
