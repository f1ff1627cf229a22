"""Paths and variants the commands cannot use are refused up front with a clear message."""

from __future__ import annotations

import json
import os
from pathlib import Path

from typer.testing import CliRunner

from chuanma.cli import app

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, " ".join(result.output.replace("│", " ").split())  # as one line, unboxed


def test_simulate_record_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "taken"
    path.write_text("x", encoding="utf-8")
    code, out = _run("simulate", "-n", "1", "--record", str(path))
    assert code == 2 and "is a file; give a folder" in out
    code, out = _run("simulate", "-n", "1", "--record", str(path / "below"))
    assert code == 2 and "cannot create the folder" in out
    assert path.read_text(encoding="utf-8") == "x"


def test_simulate_record_folder_is_created_and_filled(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "b"
    code, _ = _run("simulate", "-n", "2", "--record", str(folder), "--json")
    assert code == 0 and sorted(p.name for p in folder.iterdir()) == ["hand-0000000.json", "hand-0000001.json"]


def test_rules_shows_the_dazhong_variant() -> None:
    code, out = _run("rules", "--set", "variant=dazhong", "--json")
    assert code == 0 and json.loads(out)["options"]["variant"] == "dazhong"


def test_keygen_force_on_a_directory_is_refused(tmp_path: Path) -> None:
    code, out = _run("fair", "keygen", "--out", str(tmp_path), "--force")
    assert code == 2 and "is a directory" in out
    assert tmp_path.is_dir()


def test_keygen_refuses_symbolic_links(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.key"
    link = tmp_path / "dangling.key"
    link.symlink_to(target)
    for extra in ([], ["--force"]):
        code, out = _run("fair", "keygen", "--out", str(link), *extra)
        assert code == 2 and "symbolic link" in out
        assert not target.exists() and link.is_symlink()
    target.write_text("kept\n", encoding="utf-8")
    code, out = _run("fair", "keygen", "--out", str(link), "--force")
    assert code == 2 and target.read_text(encoding="utf-8") == "kept\n"


def test_pubkey_warns_when_the_secret_key_is_readable_by_others(tmp_path: Path) -> None:
    key = tmp_path / "server.key"
    made = runner.invoke(app, ["fair", "keygen", "--out", str(key)])
    assert made.exit_code == 0
    result = runner.invoke(app, ["fair", "pubkey", "--key", str(key)])
    assert result.exit_code == 0 and "warning" not in result.stderr
    os.chmod(key, 0o644)
    result = runner.invoke(app, ["fair", "pubkey", "--key", str(key)])
    assert result.exit_code == 0 and result.stdout == made.stdout
    assert "warning:" in result.stderr and "chmod 600" in result.stderr
