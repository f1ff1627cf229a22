"""Events: every change of a hand, numbered, with who may see it.

``visibility`` is ``"public"`` (everyone sees ``data``; ``private`` is shown only to ``seat``)
or ``"private"`` (only ``seat`` sees the event at all). A draw, for instance, is public but
its tile is in ``private``. What a seat is shown is decided in one place:
:func:`chuanma.engine.views.event_for`.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

Visibility = Literal["public", "private"]
EVENT_SCHEMA = 2
"""Version of the events' JSON form (:mod:`.event_types`); every event a seat is shown carries it
as ``"schema"``. 2: the facts readers need (``forced``, ``automatic``, ``waits``, ``last_four``,
the exhaustive draw's findings, each seat's standing at the end) were added to 1's fields."""


class Event(NamedTuple):
    """One change of the hand (a named tuple: cheap to make, immutable)."""

    seq: int
    type: str
    seat: int | None
    data: dict[str, Any]
    private: dict[str, Any]
    visibility: Visibility = "public"

    def to_json(self) -> dict[str, Any]:
        """The full event (what the finished record's replay shows)."""
        out: dict[str, Any] = {"seq": self.seq, "type": self.type}
        if self.seat is not None:
            out["seat"] = self.seat
        out.update(self.data)
        out.update(self.private)
        if self.visibility != "public":
            out["visibility"] = self.visibility
        return out
