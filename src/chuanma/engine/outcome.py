"""The result of a finished hand, by seat, read from its events: how each seat won and with
which fans, every payment in and out with its reason, and its standing at the end (花猪, ready
and its waits, the 查大叫 value, left, escaped).

The settlement writes these facts into the events (``hu``, ``payment``, ``leave``,
``exhausted``, ``end``); :func:`hand_outcome` gathers them. Every one of these events is public,
so a seat's own copy of the events gives the same outcome as the whole log: front ends, the
simulator's statistics and the portal read this instead of working a rule out again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from chuanma.engine.event_types import AnyEvent, End, EndReason, Exhausted, FanLine, Hu, Leave, Payment, parse_event
from chuanma.engine.events import Event
from chuanma.engine.ledger import Reason

READ = frozenset({"hu", "payment", "leave", "exhausted", "end"})
"""The events an outcome is made of."""


class WinResult(msgspec.Struct, frozen=True):
    """One win of a seat: the tile, from whom (``None``: self-drawn), on a robbed kong, the hand
    laid down and what it waited on, its fans, total and multiplier, 极品, forced."""

    seq: int
    tile: str
    from_seat: int | None
    robbed_kong: bool
    hand: str
    waits: str
    fans: list[FanLine]
    total: int
    multiplier: int
    jipin: bool
    forced: bool


class Transfer(msgspec.Struct, frozen=True):
    """A payment as one seat sees it: the other seat, the amount, why, and the event it is for."""

    other: int
    amount: int
    reason: Reason
    seq: int


class SeatResult(msgspec.Struct):
    """What happened to one seat in the hand."""

    seat: int
    delta: int = 0
    wins: list[WinResult] = []
    dealt_in: int = 0
    """Wins it paid as the discarder (or the declarer of a robbed kong)."""
    paid: list[Transfer] = []
    received: list[Transfer] = []
    pig: bool = False
    """A 花猪 at the end: it still held a tile of its void suit."""
    waits: str | None = None
    """Its waits at the end (``""``: not ready; ``None``: its hand was in the middle of a turn)."""
    at_draw: bool = False
    """It took part in the exhaustive draw's settlement."""
    pig_at_draw: bool = False
    """A 花猪 taking part in the exhaustive draw's settlement."""
    ready_at_draw: bool = False
    """Waiting at the exhaustive draw (in 血流 a winner counts)."""
    fan_at_draw: int | None = None
    """Its 查大叫 value at the exhaustive draw (``None``: none)."""
    left: bool = False
    escaped: bool = False
    """It left and ended the hand (逃跑)."""

    @property
    def ready(self) -> bool | None:
        """Whether its hand was ready at the end (``None``: in the middle of a turn)."""
        return None if self.waits is None else bool(self.waits)


class HandOutcome(msgspec.Struct):
    """A finished hand's result: why it ended, and each seat's :class:`SeatResult`."""

    reason: EndReason
    seats: list[SeatResult]

    @property
    def exhausted(self) -> bool:
        return self.reason == "exhausted"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = msgspec.to_builtins(self)
        return out


def hand_outcome(events: Iterable[AnyEvent | Event | Mapping[str, Any]]) -> HandOutcome:
    """The outcome of a finished hand from its events (typed, logged or their JSON forms: the
    whole log or one seat's copy). A log without its ``end`` event is refused (``ValueError``)."""
    seats = [SeatResult(s) for s in range(4)]
    end: End | None = None
    last_leaver: int | None = None
    for raw in events:
        if isinstance(raw, msgspec.Struct):
            ev = raw
        elif (raw.type if isinstance(raw, Event) else raw.get("type")) in READ:
            ev = parse_event(raw)
        else:
            continue
        if isinstance(ev, Hu):
            assert ev.seat is not None
            seats[ev.seat].wins.append(WinResult(
                ev.seq, ev.tile, ev.from_seat, ev.robbed_kong, ev.hand, ev.waits, ev.fans, ev.total,
                ev.multiplier, ev.jipin, ev.forced))
            if ev.from_seat is not None:
                seats[ev.from_seat].dealt_in += 1
        elif isinstance(ev, Payment):
            seats[ev.payer].paid.append(Transfer(ev.payee, ev.amount, ev.reason, ev.for_seq))
            seats[ev.payee].received.append(Transfer(ev.payer, ev.amount, ev.reason, ev.for_seq))
        elif isinstance(ev, Leave):
            assert ev.seat is not None
            seats[ev.seat].left = True
            last_leaver = ev.seat
        elif isinstance(ev, Exhausted):
            for s, res in enumerate(seats):
                res.at_draw = bool(ev.part) and ev.part[s]
                res.pig_at_draw = bool(ev.pig) and ev.pig[s]
                res.ready_at_draw = bool(ev.ready) and ev.ready[s]
                res.fan_at_draw = ev.fan[s] if ev.fan else None
        elif isinstance(ev, End):
            end = ev
    if end is None:
        raise ValueError("the hand is not over: its events have no 'end'")
    for s, res in enumerate(seats):
        res.delta = end.deltas[s]
        if end.pig:
            res.pig = end.pig[s]
        if end.waits:
            res.waits = end.waits[s]
    if end.reason == "escape" and last_leaver is not None:
        seats[last_leaver].escaped = True
    return HandOutcome(end.reason, seats)
