"""What the table reducer (:mod:`chuanma.server.reducer`) asks its shell to do: plain data.

The shell (:class:`chuanma.server.table.LiveTable`) carries the effects out in order, so a
decision is stored (:class:`StoreDecisions`) before any message about it is sent. A
:data:`Request` is a write or a read whose answer the reducer needs: it is always the last
effect of its batch, and the shell hands the answer back as the matching input of
:mod:`chuanma.server.table_inputs` before it takes the next command.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class RefusedError(Exception):
    """A command refused by the table (sent back as an ``error``; nothing changed)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``message`` to each of the connections ``conns``."""

    conns: tuple[int, ...]
    message: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Refuse:
    """Answer connection ``conn``'s command with an ``error`` (``code``, ``message``)."""

    conn: int
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class SetTimer:
    """Wake the table (:class:`~chuanma.server.table_inputs.Expire`) at ``at``, replacing the timer
    set before; ``None``: no timer."""

    at: float | None


@dataclass(frozen=True, slots=True)
class StoreDecisions:
    """Store these decision rows (with the events they caused)."""

    rows: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class CreateHand:
    """Store a new hand (collecting its client seeds)."""

    row: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ClaimSeat:
    """Seat ``user_id`` at ``place`` (the host stores it); answered by
    :class:`~chuanma.server.table_inputs.Seated` or :class:`~chuanma.server.table_inputs.SitRefused`."""

    place: int
    user_id: int
    conn: int


@dataclass(frozen=True, slots=True)
class SeatBot:
    """Seat a bot at ``place`` instead of ``replacing``; answered by :class:`~chuanma.server.table_inputs.BotSeated`."""

    place: int
    replacing: int


@dataclass(frozen=True, slots=True)
class LoadBalances:
    """Read the balances of ``users``; answered by :class:`~chuanma.server.table_inputs.Balances`."""

    users: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealHand:
    """Mark the hand dealt to ``users`` with these client seeds (a missing one is drawn at random);
    answered by :class:`~chuanma.server.table_inputs.Dealt`."""

    hand_id: str
    users: tuple[int, ...]
    client_seeds: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class SettleHand:
    """Store the finished hand's record and move its chips (``deltas`` by user, each of a ``kind``)
    in one transaction; answered by :class:`~chuanma.server.table_inputs.Settled`."""

    hand_id: str
    record: dict[str, Any]
    deltas: dict[int, int]
    kinds: dict[int, str]
    users: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandVoided:
    """The finished hand could not be settled (``error``: the exception's name, ``trace`` its traceback)."""

    hand_id: str | None
    error: str
    trace: str


@dataclass(frozen=True, slots=True)
class Release:
    """Close the table: free ``users``' seats and void an unsettled hand with ``reason`` (and its
    ``record``, if it has one). ``told`` is the reason the players read."""

    users: tuple[int, ...]
    reason: str
    told: str
    record: dict[str, Any] | None


Request = ClaimSeat | SeatBot | LoadBalances | DealHand | SettleHand
"""The effects whose answer comes back to the reducer."""
Effect = Send | Refuse | SetTimer | StoreDecisions | CreateHand | HandVoided | Release | Request
REQUESTS = (ClaimSeat, SeatBot, LoadBalances, DealHand, SettleHand)
