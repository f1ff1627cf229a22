"""Where ``CI`` is set, a test skipped for a missing module or browser fails (the ``ci_skips`` plugin)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULE_SKIP = '''
import pytest

missing = pytest.importorskip("a_module_that_is_not_installed")


def test_never_runs() -> None:
    assert missing
'''
INNER_SKIP = '''
import pytest


def test_runs() -> None:
    assert True


def test_needs_a_browser() -> None:
    pytest.skip("Chromium is not installed")


@pytest.mark.xfail(strict=True, reason="a known bug")
def test_known_bug() -> None:
    assert False
'''


def _pytest(folder: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    """Run pytest on ``folder`` with ``CI`` set to ``ci`` (or unset), past collection errors."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "ci_skips", "-p", "no:cacheprovider", "-rA",
         "--continue-on-collection-errors", str(folder)],
        cwd=folder, env=env, capture_output=True, text=True, check=False,
    )


def test_skips_fail_only_where_ci_is_set(tmp_path: Path) -> None:
    (tmp_path / "test_module_skip.py").write_text(MODULE_SKIP, encoding="utf-8")
    (tmp_path / "test_inner_skip.py").write_text(INNER_SKIP, encoding="utf-8")
    (tmp_path / "conftest.py").write_text("", encoding="utf-8")
    for ci in (None, "false"):
        local = _pytest(tmp_path, ci)
        assert local.returncode == 0 and "1 passed, 2 skipped, 1 xfailed" in local.stdout, local.stdout
    ci_run = _pytest(tmp_path, "1")
    assert ci_run.returncode == 1, ci_run.stdout
    for line in ("ERROR test_module_skip.py - skipped, but CI is set and every test must run there: "
                 "Skipped: could not import 'a_module_that_is_not_installed'",
                 "FAILED test_inner_skip.py::test_needs_a_browser - skipped, but CI is set"):
        assert line in ci_run.stdout, ci_run.stdout
    assert "1 failed, 1 passed, 1 xfailed, 1 error" in ci_run.stdout


def test_the_extras_tests_skip_when_their_extra_is_missing(tmp_path: Path) -> None:
    # a package of each extra's name that cannot be imported, first on the path: as if not installed
    for name in ("gymnasium", "pettingzoo", "torch"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ModuleNotFoundError('no {name}')\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(HERE), env.get("PYTHONPATH", "")])
    files = [str(HERE / "test_env.py"), str(HERE / "test_learn.py")]
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-rs", *files],
                            cwd=HERE.parent, env=env, capture_output=True, text=True, check=False, timeout=300)
    # 5: no test ran (both files skipped); a file stopped at collection would give 2
    assert result.returncode == 5 and "2 skipped" in result.stdout, result.stdout + result.stderr
    assert "pip install 'chuanma[rl]'" in result.stdout and "pip install 'chuanma[learn]'" in result.stdout
