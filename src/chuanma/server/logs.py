"""Structured logs: one JSON object per line. Only the fields named here are written, so a
password, a token or an unrevealed server seed can never reach the log by accident."""

from __future__ import annotations

import json
import logging

FIELDS = ("table", "hand", "room", "reason", "deltas", "decisions", "user", "error")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {"time": round(record.created, 3), "level": record.levelname.lower(),
                                  "logger": record.name, "message": record.getMessage()}
        for name in FIELDS:
            if name in record.__dict__:
                out[name] = record.__dict__[name]
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def setup_logging(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("chuanma")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
