"""Events: every change of a hand, numbered, with who may see it.

``visibility`` is ``"public"`` (everyone sees ``data``; ``private`` is shown only to ``seat``)
or ``"private"`` (only ``seat`` sees the event at all). A draw, for instance, is public but
its tile is in ``private``.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

Visibility = Literal["public", "private"]


class Event(NamedTuple):
    """One change of the hand (a named tuple: cheap to make, immutable)."""

    seq: int
    type: str
    seat: int | None
    data: dict[str, Any]
    private: dict[str, Any]
    visibility: Visibility = "public"

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` = spectator) sees this event at all."""
        return self.visibility == "public" or (seat is not None and seat == self.seat)

    def for_seat(self, seat: int | None) -> dict[str, Any] | None:
        """The event as ``seat`` sees it (``None`` if hidden from that seat)."""
        if not self.visible_to(seat):
            return None
        out: dict[str, Any] = {"seq": self.seq, "type": self.type}
        if self.seat is not None:
            out["seat"] = self.seat
        out.update(self.data)
        if seat is not None and seat == self.seat:
            out.update(self.private)
        return out

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


EventForms = tuple[int | None, dict[str, Any] | None, dict[str, Any]]
"""An event's owner, its form for everybody else (``None`` when hidden from them) and its
form for the owner."""


def event_forms(ev: Event) -> EventForms:
    """What :meth:`Event.for_seat` gives the other seats and the event's own seat."""
    shown: dict[str, Any] = {"seq": ev.seq, "type": ev.type}
    if ev.seat is not None:
        shown["seat"] = ev.seat
    shown.update(ev.data)
    own = {**shown, **ev.private} if ev.private and ev.seat is not None else shown
    return ev.seat, shown if ev.visibility == "public" else None, own
