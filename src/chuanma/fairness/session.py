"""Hands played in a session: which hand of it a record is, and who deals it.

The fair derivation makes every hand's wall and exchange direction. Its dealer is the stream's
draw for the first hand of a session and, under ``dealer: random``, for every hand; under the
other dealer rules (``first_winner``, ``discarder``, ``rotate``: docs/rules.md, Presets) each
later hand is dealt by the previous hand's next dealer (``Game.next_dealer()``). A record states
this in its ``"session"`` object, so a verifier accepts a dealer other than the stream's only
under such a rule, and can check the claim against the previous hand's record, named by its
SHA-256.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chuanma.fairness.derive import Deal
from chuanma.fairness.errors import RecordError
from chuanma.fairness.fields import require_field
from chuanma.fairness.seeds import SEATS
from chuanma.fairness.signing import record_digest

DEALER_RULES = ("random", "first_winner", "discarder", "rotate")
SESSION_FIELD = "session"


@dataclass(frozen=True, slots=True)
class SessionHand:
    """Hand ``hand`` (0, 1, …) of session ``session_id``, dealt under ``dealer_rule``.

    Under a chained rule (all but ``random``) every hand after the first names the previous hand's record
    (``previous_sha256``, the SHA-256 of its canonical JSON) and the dealer that hand passes on
    (``previous_next_dealer``); under ``random`` the hands are independent and name nothing.
    Raises :class:`RecordError`, naming the field, when these do not fit together.
    """

    session_id: str
    hand: int
    dealer_rule: str
    previous_sha256: str | None = None
    previous_next_dealer: int | None = None

    def __post_init__(self) -> None:
        if not self.session_id:
            raise RecordError("session.'id' must not be empty")
        if self.hand < 0:
            raise RecordError(f"session.'hand' must be 0 or more, not {self.hand}")
        if self.dealer_rule not in DEALER_RULES:
            raise RecordError(
                f"session.'dealer_rule' must be one of {', '.join(DEALER_RULES)}, "
                f"not {self.dealer_rule!r}"
            )
        has_previous = self.previous_sha256 is not None
        if has_previous != (self.chained and self.hand > 0) or has_previous != (
            self.previous_next_dealer is not None
        ):
            raise RecordError(
                "session.'previous' (the previous hand's sha256 and next_dealer) is required "
                "for every hand but the first of a session whose dealer rule is not random, and only then"
            )
        sha = self.previous_sha256
        if sha is not None and (len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha)):
            raise RecordError("session.previous.'sha256' must be 64 lower-case hex digits")
        if self.previous_next_dealer is not None and self.previous_next_dealer not in range(SEATS):
            raise RecordError(
                f"session.previous.'next_dealer' must be a seat 0-3, not {self.previous_next_dealer}"
            )

    @classmethod
    def first(cls, session_id: str, dealer_rule: str) -> SessionHand:
        """The first hand of a session."""
        return cls(session_id, 0, dealer_rule)

    @property
    def chained(self) -> bool:
        """True under every rule but ``random``: each hand's dealer depends on the hand before."""
        return self.dealer_rule != "random"

    @property
    def follows_winner(self) -> bool:
        """True when the dealer comes from the previous hand rather than the stream."""
        return self.previous_next_dealer is not None

    def following(self, record: Mapping[str, Any] | None, next_dealer: int) -> SessionHand:
        """The next hand of the session, after this one whose game's ``next_dealer()`` is
        ``next_dealer`` and whose complete record is ``record`` (needed only when
        :attr:`chained`)."""
        if not self.chained:
            return SessionHand(self.session_id, self.hand + 1, self.dealer_rule)
        if record is None:
            raise RecordError(f"a {self.dealer_rule} session names each hand's record in the next one")
        return SessionHand(self.session_id, self.hand + 1, self.dealer_rule,
                           record_digest(record), next_dealer)

    def dealer(self, drawn: int) -> int:
        """The dealer of this hand, given the stream's draw ``drawn``."""
        if self.follows_winner:
            assert self.previous_next_dealer is not None
            return self.previous_next_dealer
        return drawn

    def deal(self, deal: Deal) -> Deal:
        """The fair ``deal`` with its dealer set by the session's rule (wall and direction kept)."""
        return dataclasses.replace(deal, dealer=self.dealer(deal.dealer))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.session_id, "hand": self.hand,
                               "dealer_rule": self.dealer_rule}
        if self.previous_sha256 is not None:
            out["previous"] = {"sha256": self.previous_sha256,
                               "next_dealer": self.previous_next_dealer}
        return out

    @classmethod
    def from_json(cls, data: object) -> SessionHand:
        """Read a record's ``"session"`` object; :class:`RecordError` names a bad field."""
        if not isinstance(data, Mapping):
            raise RecordError(f"'session' must be an object, not {data!r}")
        session_id = require_field(data, "id", str, "session.")
        hand = require_field(data, "hand", int, "session.")
        rule = require_field(data, "dealer_rule", str, "session.")
        previous = data.get("previous")
        if previous is None:
            return cls(session_id, hand, rule)
        if not isinstance(previous, Mapping):
            raise RecordError(f"session.'previous' must be an object, not {previous!r}")
        return cls(session_id, hand, rule, require_field(previous, "sha256", str, "session.previous."),
                   require_field(previous, "next_dealer", int, "session.previous."))
