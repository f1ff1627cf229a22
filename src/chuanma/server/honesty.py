"""Keeping chips honest (docs/server.md): the rules that keep fresh accounts from feeding one
account, each read in the transaction that pays, grants or seats, so two requests at once cannot
both pass them.

- **Starting grants per address and device**: an address, and a browser's device (its device
  cookie), each get at most ``grants_per_day`` new accounts (guests and registrations) a UTC day,
  counted in the ``logins`` table under a lock of each.
- **Relief needs play**: relief chips come only after ``relief_hands`` rated hands since the
  account's last grant or relief.
- **Escapes of new accounts are capped**: an account with fewer than ``trusted_hands`` rated hands
  loses at most ``escape_cap`` chips in all in the hands it escaped; the rest is not paid.

A *rated hand* is a hand of a room (not a private table) played to its end: a ledger row of kind
``hand`` (an escape's row is of kind ``escape``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, case, func, select, text

from chuanma.server.rooms import PRIVATE_ROOM
from chuanma.server.schema import GRANT_KINDS, hands, ledger, logins, tables, users

AGENT_CHARS = 256
"""The most of a User-Agent a login row keeps."""
ADDRESS_CHARS = 64
DEVICE = re.compile(r"[A-Za-z0-9_-]{22}")
"""A device id, as :func:`new_device` makes them: anything else a client sends is replaced."""
NEW_ACCOUNT_KINDS = ("register", "guest")
"""The logins that made an account (and paid its starting grant)."""
ADDRESS_LOCK = 0x63686970
"""PostgreSQL's advisory lock class ("chip" in ASCII) of an address's (or device's) starting grants:
the second key is a hash of the address, so two grants to one address count one after the other."""


@dataclass(frozen=True, slots=True)
class Visit:
    """Where a request came from: the client's address (as the rate limits resolve it), its
    User-Agent and its browser's device id (``None``: a client without the device cookie)."""

    address: str
    agent: str
    device: str | None = None

    @classmethod
    def of(cls, address: str, agent: str | None, device: str | None = None) -> Visit:
        return cls(address[:ADDRESS_CHARS], (agent or "")[:AGENT_CHARS], device_id(device))


def new_device() -> str:
    """A fresh random device id (:data:`DEVICE`)."""
    return secrets.token_urlsafe(16)


def device_id(value: str | None) -> str | None:
    """``value`` if it is a device id as :func:`new_device` makes them, else ``None``."""
    return value if value is not None and DEVICE.fullmatch(value) else None


@dataclass(frozen=True, slots=True)
class Trust:
    """When an account's escapes pay in full: after ``hands`` rated hands; before, they cost it at
    most ``escape_cap`` chips in all."""

    hands: int
    escape_cap: int


class GrantsSpentError(Exception):
    """The address (or device) has had its starting grants of the day."""

    def __init__(self, per_day: int, where: str = "address") -> None:
        super().__init__(f"this {where} made {per_day} accounts today (UTC): log in to one of them, or come "
                         "back tomorrow (--grants-per-day)")


def rated_hands(conn: Connection, user_id: int, after: int, enough: int) -> int:
    """The rated hands of ``user_id`` whose ledger rows come after row ``after``, counted up to ``enough``."""
    rows = (select(ledger.c.id).join(hands, hands.c.id == ledger.c.hand_id)
            .join(tables, tables.c.id == hands.c.table_id)
            .where(ledger.c.user_id == user_id, ledger.c.kind == "hand", ledger.c.id > after,
                   tables.c.room != PRIVATE_ROOM)
            .limit(enough).subquery())
    return int(conn.execute(select(func.count()).select_from(rows)).scalar_one())


def last_grant(conn: Connection, user_id: int) -> int:
    """The ledger row of ``user_id``'s last grant or relief that gave chips (0: none)."""
    return int(conn.execute(select(func.coalesce(func.max(ledger.c.id), 0)).where(
        ledger.c.user_id == user_id, ledger.c.kind.in_(GRANT_KINDS), ledger.c.amount > 0)).scalar_one())


def relief_earned(conn: Connection, user_id: int, hands_needed: int) -> int:
    """How many more rated hands ``user_id`` must play before a relief (0: none)."""
    if hands_needed <= 0:
        return 0
    return hands_needed - rated_hands(conn, user_id, last_grant(conn, user_id), hands_needed)


def escape_caps(conn: Connection, user_ids: Sequence[int], trust: Trust) -> list[int | None]:
    """Per user, the most an escape may still cost them (``None``: no cap, a bot or an account with
    ``trust.hands`` rated hands): ``trust.escape_cap`` less what the hands they escaped cost them."""
    kinds = {int(r.id): str(r.kind) for r in conn.execute(select(users.c.id, users.c.kind)
                                                          .where(users.c.id.in_(list(user_ids))))}
    caps: list[int | None] = []
    for user_id in user_ids:
        if trust.hands <= 0 or kinds.get(user_id) == "bot" or rated_hands(conn, user_id, 0, trust.hands) >= trust.hands:
            caps.append(None)
            continue
        paid = conn.execute(select(func.coalesce(func.sum(case((ledger.c.amount < 0, -ledger.c.amount), else_=0)), 0))
                            .where(ledger.c.user_id == user_id, ledger.c.kind == "escape")).scalar_one()
        caps.append(max(0, trust.escape_cap - int(paid)))
    return caps


def capped(balances: Sequence[int], caps: Sequence[int | None], escapers: Sequence[int]) -> list[int]:
    """The balances a hand's chips are settled against: an escaping seat with a cap loses at most it."""
    return [min(b, cap) if k in escapers and cap is not None else b
            for k, (b, cap) in enumerate(zip(balances, caps, strict=True))]


def spend_grant(conn: Connection, visit: Visit, per_day: int, since: float) -> None:
    """Refuse (:class:`GrantsSpentError`) a new account to ``visit``'s address, or its device, if
    it made ``per_day`` from ``since`` on; each is locked until the transaction ends (PostgreSQL;
    SQLite has one writer at a time)."""
    kept = [("address", logins.c.address, visit.address)]
    if visit.device is not None:
        kept.append(("device", logins.c.device, visit.device))
    for where, column, value in kept:
        if conn.dialect.name == "postgresql":
            key = int.from_bytes(hashlib.sha256(f"{where}:{value}".encode()).digest()[:4], "big", signed=True)
            conn.execute(text("SELECT pg_advisory_xact_lock(:space, :key)"), {"space": ADDRESS_LOCK, "key": key})
        made = conn.execute(select(func.count()).where(column == value, logins.c.kind.in_(NEW_ACCOUNT_KINDS),
                                                       logins.c.at >= since)).scalar_one()
        if made >= per_day:
            raise GrantsSpentError(per_day, where)


def log_visit(conn: Connection, user_id: int, kind: str, visit: Visit, now: float) -> None:
    """Keep a ``logins`` row: ``user_id`` registered, was made a guest, claimed a name or logged in."""
    conn.execute(logins.insert().values(user_id=user_id, kind=kind, address=visit.address, agent=visit.agent,
                                        device=visit.device, at=now))


def purge_visits(conn: Connection, before: float) -> int:
    """Delete the ``logins`` rows older than ``before``; returns how many."""
    return int(conn.execute(logins.delete().where(logins.c.at < before)).rowcount)

