"""The Hypothesis profile conftest loads: the same examples on every run where ``CI`` is set, a
long random search with ``HYPOTHESIS_PROFILE=explore``, a one-line refusal of an unknown name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SHOW = ("import conftest; from hypothesis import settings; s = settings.default; "
        "print(s.derandomize, s.database is None, s.max_examples, conftest.examples(10))")


def _profile(**env: str) -> subprocess.CompletedProcess[str]:
    """Import conftest in a fresh interpreter with ``env`` (CI and the profile unset otherwise)."""
    base = {k: v for k, v in os.environ.items() if k not in ("CI", "HYPOTHESIS_PROFILE", "CHUANMA_EXAMPLES")}
    path = os.pathsep.join([str(HERE), *sys.path])
    return subprocess.run([sys.executable, "-c", SHOW], cwd=HERE, env={**base, **env, "PYTHONPATH": path},
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("env", "shown"), [
    ({}, "False False 300 10"),
    ({"CI": "true"}, "True True 150 5"),
    ({"CI": "1", "HYPOTHESIS_PROFILE": "default"}, "False False 300 10"),
    ({"HYPOTHESIS_PROFILE": "explore"}, "False False 6000 200"),
])
def test_the_profile_follows_the_environment(env: dict[str, str], shown: str) -> None:
    result = _profile(**env)
    assert result.stdout.strip() == shown, result.stderr


def test_an_unknown_profile_is_refused_in_one_line() -> None:
    result = _profile(HYPOTHESIS_PROFILE="fast")
    assert result.returncode != 0
    assert result.stderr.strip().splitlines()[-1].endswith("HYPOTHESIS_PROFILE='fast': choose default, ci or explore")
