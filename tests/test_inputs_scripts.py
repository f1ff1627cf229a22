"""``./run`` keeps the caller's directory; ``./run`` (runtime and server) and ``./run-tests`` install
only what they need, once.

The scripts run in a copy of the repository whose ``.venv`` holds stand-ins: ``python`` logs the
installs it is asked for, ``chuanma`` prints its working directory and arguments.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    (copy / "scripts").mkdir(parents=True)
    for name in ("run", "run-tests", "scripts/ensure-venv", "pyproject.toml"):
        shutil.copy2(ROOT / name, copy / name)
    for name in ("ensure-system-packages", "build-native"):
        (copy / "scripts" / name).write_text("#!/bin/sh\n", encoding="utf-8")
        (copy / "scripts" / name).chmod(0o755)
    bin_dir = copy / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (copy / ".venv" / "site").mkdir()
    # a question (-c) is answered with the environment's site directory, anything else logged
    (bin_dir / "python").write_text('#!/bin/sh\nif [ "$1" = -c ]; then echo "$(dirname "$0")/../site"; exit; fi\n'
                                    'echo "$*" >> "$(dirname "$0")/../installs.log"\n', encoding="utf-8")
    (bin_dir / "chuanma").write_text('#!/bin/sh\necho "$PWD|$*"\n', encoding="utf-8")
    for tool in ("ruff", "mypy"):
        (bin_dir / tool).write_text("#!/bin/sh\n", encoding="utf-8")
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    os.utime(copy / "pyproject.toml", (1_000_000, 1_000_000))
    return copy


def _installs(repo: Path) -> list[str]:
    log = repo / ".venv" / "installs.log"
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return [line.split(" -e ")[1] for line in lines if " -e " in line]


def _run(repo: Path, where: Path, *args: str) -> str:
    done = subprocess.run([str(repo / "run"), *args], cwd=where, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_run_keeps_the_callers_directory(repo: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "work"
    elsewhere.mkdir()
    assert _run(repo, elsewhere, "replay", "hand.json") == f"{elsewhere}|replay hand.json"
    assert _run(repo, elsewhere, "fair", "keygen") == f"{elsewhere}|fair keygen"


def test_run_installs_the_runtime_with_the_server_and_each_level_once(repo: Path, tmp_path: Path) -> None:
    _run(repo, tmp_path)
    assert _installs(repo) == [".[server]"]
    _run(repo, tmp_path)
    assert _installs(repo) == [".[server]"]  # the runtime stamp holds
    subprocess.run([str(repo / "scripts" / "ensure-venv"), "dev"], check=True, capture_output=True)
    assert _installs(repo) == [".[server]", ".[dev]"]
    os.unlink(repo / ".venv" / ".chuanma-runtime")
    _run(repo, tmp_path)
    assert _installs(repo) == [".[server]", ".[dev]"]  # a dev install holds the runtime too
    (repo / "pyproject.toml").touch()
    _run(repo, tmp_path)
    assert _installs(repo) == [".[server]", ".[dev]", ".[server]"]  # pyproject.toml changed


def test_run_tests_installs_the_dev_extras_and_run_then_installs_nothing(repo: Path, tmp_path: Path) -> None:
    subprocess.run([str(repo / "run-tests")], cwd=tmp_path, check=True, capture_output=True)
    assert _installs(repo) == [".[dev]"]
    _run(repo, tmp_path)
    assert _installs(repo) == [".[dev]"]


def test_the_editable_install_is_a_plain_path_entry_after_pythonpath(repo: Path, tmp_path: Path) -> None:
    site = repo / ".venv" / "site"
    (site / "_editable_skbc_chuanma.pth").write_text("import _editable_skbc_chuanma\n", encoding="utf-8")
    _run(repo, tmp_path)
    assert not (site / "_editable_skbc_chuanma.pth").exists()
    assert (site / "chuanma-src.pth").read_text(encoding="utf-8").strip() == str(repo / "src")


def test_a_venv_whose_creation_was_interrupted_is_made_again(repo: Path, tmp_path: Path) -> None:
    """A ``.venv`` left without pip (its creation stopped by Ctrl-C) is made again, not used as is."""
    template = tmp_path / "template"
    shutil.copytree(repo / ".venv", template)
    python = repo / ".venv" / "bin" / "python"
    python.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")  # no pip: every `python -m pip` fails
    system = tmp_path / "python3"  # the machine's Python: `-m venv .venv` makes the stand-in environment
    system.write_text(f'#!/bin/sh\nif [ "$1" = --version ]; then echo Python 3; exit; fi\ncp -r "{template}" .venv\n',
                      encoding="utf-8")
    system.chmod(0o755)
    done = subprocess.run([str(repo / "run")], cwd=tmp_path, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHON": str(system)})
    assert "its creation was interrupted" in done.stderr
    assert _installs(repo) == [".[server]"]
