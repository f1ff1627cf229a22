"""Importing the command line (``--help`` included), the engine, the bots or the simulator does not
import NumPy: only the batch analysis, the encoders and the environments do."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
CHECK = """
import sys
{body}
print("numpy" in sys.modules)
"""


def _imports_numpy(body: str) -> bool:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-c", CHECK.format(body=body)], env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1] == "True"


@pytest.mark.parametrize("body", [
    "import chuanma.cli",
    "from chuanma.cli import app\ntry:\n    app(['--help'])\nexcept SystemExit:\n    pass",
    "from chuanma.cli import app\ntry:\n    app(['simulate', '--help'])\nexcept SystemExit:\n    pass",
    "import chuanma.engine, chuanma.bots, chuanma.advice, chuanma.sim.runner, chuanma.analysis",
])
def test_no_numpy_on_import(body: str) -> None:
    assert not _imports_numpy(body)


def test_the_check_sees_numpy_where_it_is_imported() -> None:
    assert _imports_numpy("from chuanma.analysis import shanten_batch\nshanten_batch([[0] * 26 + [1]])")
