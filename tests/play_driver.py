"""Drives ``chuanma play`` through a pseudo-terminal (pexpect), as a person at the keyboard."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect

SRC = Path(__file__).resolve().parents[1] / "src"
PROMPT = "your move"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(*args: str, timeout: float = 30, pace: str = "0", rows: int = 60,
          preexec_fn: Callable[[], None] | None = None) -> pexpect.spawn:
    """``python -m chuanma play ARGS`` in an 80-column terminal of ``rows`` lines (60), 托管 making
    its decisions every ``pace`` seconds (at once); ``preexec_fn`` runs in the child before it starts."""
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "80", "LINES": str(rows), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    return pexpect.spawn(sys.executable, ["-m", "chuanma", "play", "--pace", pace, *args], env=env,
                         encoding="utf-8", timeout=timeout, dimensions=(rows, 80), preexec_fn=preexec_fn)


def screen(child: pexpect.spawn) -> str:
    """What the terminal showed up to the last match, without colour codes."""
    return ANSI.sub("", str(child.before))


def finish(child: pexpect.spawn) -> str:
    """Everything left until the program ends, without colour codes; the exit status is checked."""
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, screen(child)[-2000:]
    return screen(child)
