"""The verdict of a verification: named checks that passed, failed or could not run."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class Status(enum.Enum):
    PASSED = "passed"
    FAILED = "failed"
    NOT_RUN = "not_run"


@dataclass(frozen=True, slots=True)
class Check:
    """One named check of a verdict."""

    name: str
    status: Status
    message: str

    @property
    def passed(self) -> bool:
        return self.status is Status.PASSED

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "status": self.status.value, "message": self.message}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The checks of one record, in the order they were made."""

    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        """True when no check failed (checks that could not run are listed, not failures)."""
        return not self.failed

    @property
    def failed(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.status is Status.FAILED)

    def __getitem__(self, name: str) -> Check:
        for c in self.checks:
            if c.name == name:
                return c
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "checks": [c.to_json() for c in self.checks]}
