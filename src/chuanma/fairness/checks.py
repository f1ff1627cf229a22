"""The verdict of a verification: named checks that passed, failed or could not run, and the
level they add up to (:class:`Level`)."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any


class Level(enum.Enum):
    """What a verdict establishes: ``verified`` (the deal, the play and the result checked, and
    the record signed), ``consistent`` (no check failed, but not all of that was shown) or
    ``failed``."""

    VERIFIED = "verified"
    CONSISTENT = "consistent"
    FAILED = "failed"


VERIFIED_BY = ("replay", "result", "signature")
"""The checks a record needs passed, besides every deal check, to be verified."""
UNSIGNED = ("consistent but unsigned: no check failed, but nothing binds the decisions, the result "
            "or the stake (base) to the dealer: anyone could rewrite them consistently")
LEVEL_WORDS = re.compile(r"[a-z]+(?: [a-z]+)*(?![0-9a-z])")
"""The words that begin a summary and say its level (up to a key in hex, a colon or a bracket)."""


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
    key: str | None = None
    """The public key (hex) of the signature, when the signature check passed."""

    @property
    def ok(self) -> bool:
        """True when no check failed (checks that could not run are listed, not failures)."""
        return not self.failed

    @property
    def failed(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.status is Status.FAILED)

    @property
    def level(self) -> Level:
        """Failed if a check failed; verified if every check passed (the session check may be
        not run: it needs the previous hand's record) and the play, result and signature were
        among them; consistent otherwise."""
        if self.failed:
            return Level.FAILED
        passed = {c.name for c in self.checks if c.passed}
        if all(name in passed for name in VERIFIED_BY) and all(
                c.passed or c.name == "session" for c in self.checks):
            return Level.VERIFIED
        return Level.CONSISTENT

    @property
    def summary(self) -> str:
        """The level in words (:attr:`headline` puts them in capitals): what failed, for which key it is
        verified, what was not checked."""
        level = self.level
        if level is Level.FAILED:
            return f"failed ({', '.join(c.name for c in self.failed)})"
        skipped = [c.name for c in self.checks if c.status is Status.NOT_RUN]
        unsigned = "signature" in skipped and level is Level.CONSISTENT
        rest = [name for name in skipped if not (unsigned and name == "signature")]
        unchecked = f"; not checked: {', '.join(rest)}" if rest else ""
        if level is Level.VERIFIED:
            return (f"verified for key {self.key}: dealt as the seeds give, played and paid as recorded, "
                    f"{self['signature'].message}{unchecked}")
        return (UNSIGNED if unsigned else "consistent but not verified") + unchecked

    @property
    def headline(self) -> str:
        """The summary with its level in capitals: ``VERIFIED FOR KEY 3b6a…: dealt as …``."""
        summary = self.summary
        words = LEVEL_WORDS.match(summary)
        end = words.end() if words else 0
        return summary[:end].upper() + summary[end:]

    def __getitem__(self, name: str) -> Check:
        for c in self.checks:
            if c.name == name:
                return c
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "level": self.level.value, "summary": self.summary,
                "checks": [c.to_json() for c in self.checks]}
