"""Structured logs: one JSON object per line, each naming the node that wrote it. Only the fields
named here are written, so a password, a token or an unrevealed server seed can never reach the
log by accident. Every logger writes through it (uvicorn's and asyncio's too): no plain-text line
or bare traceback comes between the JSON ones."""

from __future__ import annotations

import json
import logging
import sys

FIELDS = ("table", "hand", "room", "reason", "deltas", "decisions", "user", "tables", "kind", "error")
OTHERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "asyncio")
"""The libraries' loggers sent through the same handler (at warnings and above)."""


class JsonFormatter(logging.Formatter):
    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {"time": round(record.created, 3), "level": record.levelname.lower(),
                                  "node": self.node, "logger": record.name, "message": record.getMessage()}
        for name in FIELDS:
            if name in record.__dict__:
                out[name] = record.__dict__[name]
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


class StderrHandler(logging.Handler):
    """Writes each record to standard error as it is when the record comes (a stream captured at
    setup may be closed by then: a command run in-process, as the tests run them)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:  # logging's own rule: a record that cannot be written never raises
            self.handleError(record)


def setup_logging(node: str, level: int = logging.INFO) -> None:
    """Send chuanma's logs (at ``level``) and the libraries' warnings to standard error as JSON lines."""
    handler = StderrHandler()
    handler.setFormatter(JsonFormatter(node))
    for name in ("chuanma", *OTHERS):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level if name == "chuanma" else logging.WARNING)
        logger.propagate = False
