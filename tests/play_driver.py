"""Drives ``chuanma play`` through a pseudo-terminal (pexpect), as a person at the keyboard."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect

SRC = Path(__file__).resolve().parents[1] / "src"
PROMPT = "your move"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(*args: str, timeout: float = 30) -> pexpect.spawn:
    """``python -m chuanma play ARGS`` in an 80×60 terminal."""
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "80", "LINES": "60", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    return pexpect.spawn(sys.executable, ["-m", "chuanma", "play", *args], env=env, encoding="utf-8",
                         timeout=timeout, dimensions=(60, 80))


def screen(child: pexpect.spawn) -> str:
    """What the terminal showed up to the last match, without colour codes."""
    return ANSI.sub("", str(child.before))


def finish(child: pexpect.spawn) -> str:
    """Everything left until the program ends, without colour codes; the exit status is checked."""
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, screen(child)[-2000:]
    return screen(child)
