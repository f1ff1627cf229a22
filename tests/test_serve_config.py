"""``chuanma serve``'s configuration (docs/server.md, Configuration): each option from the command
line, the environment (``CHUANMA_…``) or a ``--config`` TOML file, in that order; a file's unknown
key refused in one line; ``--check`` answering in one line with exit code 0 or 1."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from chuanma.cli import app as cli
from chuanma.commands.serve import ENV_PREFIX, NOT_IN_FILE, file_keys
from server_harness import pg_database

__all__ = ["pg_database"]
DOCS = Path(__file__).parent.parent / "docs" / "server.md"


def serve_command() -> Any:
    return typer.main.get_command(cli).commands["serve"]  # type: ignore[attr-defined]


def settled(args: list[str], env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The values ``serve`` would run with (its options parsed, nothing started)."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with serve_command().make_context("serve", args) as ctx:
        return dict(ctx.params)


def test_the_command_line_comes_before_the_environment_before_the_file_before_the_default(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = tmp_path / "chuanma.toml"
    file.write_text('turn_seconds = 5.0\nclaim_seconds = 3\nallow_origin = ["https://a.example"]\n'
                    'smtp_password = "from the file"\nsecure_cookies = true\n')
    given = settled(["--config", str(file)], {}, monkeypatch)
    assert (given["turn_seconds"], given["claim_seconds"], given["ready_seconds"]) == (5.0, 3.0, 60.0)
    assert given["allow_origin"] == ["https://a.example"] and given["secure_cookies"] is True
    given = settled(["--config", str(file)], {"CHUANMA_TURN_SECONDS": "6", "CHUANMA_SMTP_PASSWORD": "secret"},
                    monkeypatch)
    assert (given["turn_seconds"], given["claim_seconds"], given["smtp_password"]) == (6.0, 3.0, "secret")
    given = settled(["--turn-seconds", "7"], {"CHUANMA_CONFIG_FILE": str(file)}, monkeypatch)
    assert (given["turn_seconds"], given["claim_seconds"]) == (7.0, 3.0)


def test_every_option_has_its_file_key_and_environment_name_in_the_docs() -> None:
    docs = DOCS.read_text()
    names = [p.name for p in serve_command().params if not getattr(p, "hidden", False)]
    assert len(names) > 30 and {"config_file", "check"} <= set(names)
    assert file_keys(serve_command()) == {n for n in names if n not in NOT_IN_FILE} | {"early_timers"}
    missing = [n for n in names if f"{ENV_PREFIX}_{n.upper()}" not in docs]
    assert not missing


def check(args: list[str], env: dict[str, str] | None = None) -> tuple[int, list[str]]:
    result = CliRunner().invoke(cli, ["serve", "--check", "--port", "0", *args], env=env)
    return result.exit_code, result.output.splitlines()


def test_check_answers_in_one_line_and_a_files_unknown_key_is_named(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for _ in range(2):  # the lease taken by the first check was given back: the second is not refused
        code, lines = check(["--data", str(data)])
        assert code == 0 and len(lines) == 1 and "valid" in lines[0] and "SQLite" in lines[0], lines
    file = tmp_path / "bad.toml"
    file.write_text("turn_seconds = 5\nturn_secs = 4\n")
    result = CliRunner().invoke(cli, ["serve", "--config", str(file)])
    assert result.exit_code == 1 and result.output.splitlines() == [
        re.sub(r"\s+", " ", result.output.strip())] and "'turn_secs'" in result.output
    file.write_text('turn_seconds = "soon"\n')
    code, lines = check(["--config", str(file), "--data", str(data)])
    assert code == 1 and len(lines) == 1 and "--turn-seconds" in lines[0], lines
    file.write_text("turn_seconds = [\n")
    code, lines = check(["--config", str(file)])
    assert code == 1 and len(lines) == 1 and "not TOML" in lines[0], lines
    code, lines = check(["--data", str(data)], {"CHUANMA_DB": "postgresql+asyncpg://postgres@127.0.0.1:1/none"})
    assert code == 1 and len(lines) == 1 and "cannot open the database" in lines[0], lines
    code, lines = check(["--data", str(data), "--smtp-host", "mail.example"])
    assert code == 1 and len(lines) == 1 and "--smtp-from" in lines[0], lines
    code, lines = check(["--data", str(data), "--public-url", "mahjong.example"])
    assert code == 1 and len(lines) == 1 and "--public-url" in lines[0], lines


def test_check_reaches_a_postgresql_database_named_in_the_environment_only(pg_database: str, tmp_path: Path) -> None:
    code, lines = check(["--data", str(tmp_path)], {"CHUANMA_DB": pg_database})
    assert code == 0 and lines == [
        "chuanma serve --check: the configuration is valid and the database (PostgreSQL) can be used"]


def test_the_shipped_node_settings_and_unit_name_only_options_serve_has(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """deploy/chuanma.toml parses as serve's file (every key one of its options), and the systemd
    unit's command line names only options serve has."""
    deploy = DOCS.parent.parent / "deploy"
    given = settled(["--config", str(deploy / "chuanma.toml")], {}, monkeypatch)
    assert given["drain_seconds"] == 120 and given["redis"] == "redis://127.0.0.1:6379/0"
    unit = (deploy / "chuanma@.service").read_text()
    start = re.search(r"^ExecStart=(.*?[^\\])$", unit, re.M | re.S)
    assert start is not None
    named = set(re.findall(r"(--[a-z-]+)", start[1]))
    options = {o for p in serve_command().params for o in p.opts}
    assert named and named <= options, named - options
    stop = re.search(r"^TimeoutStopSec=(\d+)$", unit, re.M)
    assert stop is not None and int(stop[1]) > given["drain_seconds"]  # the drain ends before systemd kills it
