"""Deleted accounts (docs/server.md, Accounts; docs/operations.md, Backup and restore).

A deleted account stays as a *tombstone*: its row keeps its id (the ledger, the hands and the
operator log name it) under the name ``deleted-ID`` (no registration can take it: names have no
``-``), of kind ``deleted``, its old name free for anyone. Its password hash, e-mail address,
sessions, logins and reset links are erased; its chips are taken by an adjustment row of the
ledger, so the chips audit's ``balances == grants + adjustments`` holds exactly. The hands' signed
records keep the name each hand was played under, as they do after a rename.

Each deletion is kept in ``deletions`` (the account's id and creation time, and when): its list
(:func:`tombstones`) applied to a database restored from an older copy (:func:`apply_tombstones`)
deletes those accounts again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, select, update

from chuanma.server.schema import deletions, logins, password_resets, seatings, tokens, users
from chuanma.server.store import adjust_chips

DELETED = "deleted"
"""The kind of a deleted account's row."""


class DeletionError(ValueError):
    """An account that cannot be deleted now (nothing changed): ``code`` for the API."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def erase(conn: Connection, user_id: int, now: float, unseat: bool = False) -> None:
    """In the transaction of ``conn``: make ``user_id`` a tombstone and record its deletion. A player
    queued or seated is refused (:class:`DeletionError`), or, with ``unseat`` (a deletion applied
    again to a stopped server's restored database), taken off their place."""
    row = conn.execute(select(users).where(users.c.id == user_id).with_for_update()).one()
    placed = conn.execute(select(seatings.c.table_id).where(seatings.c.user_id == user_id)).first()
    if placed is not None and not unseat:
        raise DeletionError("you are at a table or waiting for one: leave it first (after the hand)", "seated")
    conn.execute(seatings.delete().where(seatings.c.user_id == user_id))
    if row.balance:
        adjust_chips(conn, user_id, -int(row.balance), now, None)
    conn.execute(update(users).where(users.c.id == user_id).values(
        username=f"deleted-{user_id}", password_hash=None, email=None, kind=DELETED, role="player"))
    for table in (tokens, logins, password_resets):
        conn.execute(table.delete().where(table.c.user_id == user_id))
    if conn.execute(select(deletions.c.user_id).where(deletions.c.user_id == user_id)).first() is None:
        conn.execute(deletions.insert().values(user_id=user_id, created_at=row.created_at, deleted_at=now))


def tombstones(conn: Connection) -> list[dict[str, Any]]:
    """Every deletion recorded, oldest first: ``{"user_id", "created_at", "deleted_at"}``."""
    return [dict(r._mapping) for r in conn.execute(select(deletions).order_by(deletions.c.deleted_at))]


def apply_tombstones(conn: Connection, rows: Iterable[dict[str, Any]]) -> list[int]:
    """In the transaction of ``conn``: delete again each account of ``rows`` (as :func:`tombstones`
    gives them) that this database still holds, the same account (its id and creation time) not
    deleted; returns their ids. The others (deleted already, or made after this copy) are left."""
    again = []
    for row in rows:
        user_id, created = int(row["user_id"]), float(row["created_at"])
        found = conn.execute(select(users.c.kind).where(users.c.id == user_id, users.c.created_at == created)).first()
        if found is not None and found.kind != DELETED:
            erase(conn, user_id, float(row["deleted_at"]), unseat=True)
            again.append(user_id)
    return again
