"""Who may read a finished hand (its record, its replay): one check for every route that serves one.

A room's hands are readable by anyone logged in. A private table's hands are readable by the
players dealt in them, and by whoever holds the hand's share key: an HMAC-SHA256 of the hand id
under a server secret (made once, kept in the database), which its players find in their history
as a link to pass on.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.exc import IntegrityError

from chuanma.server.rooms import PRIVATE_ROOM
from chuanma.server.schema import hands, server_keys, tables, users
from chuanma.server.store import Row, Store

SHARE_SECRET = "share"
"""The name of the server secret the share keys are made with."""


class HandRefusedError(Exception):
    """A hand that may not be read: ``status`` (404 or 403) and ``code`` say why."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


async def server_secret(store: Store, name: str) -> bytes:
    """The server secret ``name``: made at the first need (256 random bits), then always the same."""
    query = select(server_keys.c.value).where(server_keys.c.name == name)
    found: str | None = await store.read(lambda conn: conn.execute(query).scalar_one_or_none())
    if found is None:
        def work(conn: Connection) -> None:
            conn.execute(server_keys.insert().values(name=name, value=secrets.token_hex(32)))
        with contextlib.suppress(IntegrityError):  # another request made it first: that one holds
            await store.write(work)
        found = await store.read(lambda conn: conn.execute(query).scalar_one())
    return bytes.fromhex(str(found))


def share_key(secret: bytes, hand_id: str) -> str:
    """The key that opens hand ``hand_id`` to whoever holds it."""
    return hmac.new(secret, f"hand:{hand_id}".encode(), hashlib.sha256).hexdigest()[:32]


def share_link(secret: bytes, hand_id: str) -> str:
    """The address of a hand's record that anyone logged in may open (``secret``: the share secret)."""
    return f"/api/hands/{hand_id}/record?key={share_key(secret, hand_id)}"


async def readable_hand(store: Store, hand_id: str, user_id: int, key: str | None) -> Row:
    """The settled hand ``hand_id`` if ``user_id`` may read it (with ``key``, its share key, for a
    private table's hand they did not play); else :class:`HandRefusedError`."""
    hand_id = hand_id[:40]
    query = select(hands, tables.c.room).join(tables, tables.c.id == hands.c.table_id).where(hands.c.id == hand_id)
    found = await store.read(lambda conn: conn.execute(query).first())
    if found is None or found.status != "settled":
        raise HandRefusedError(404, "no_record", f"hand {hand_id!r} has no record (unknown or not finished)")
    row = dict(found._mapping)
    if row["room"] != PRIVATE_ROOM or user_id in row["seats"]:
        return row
    if key is not None and hmac.compare_digest(key.encode(), share_key(
            await server_secret(store, SHARE_SECRET), hand_id).encode()):
        return row
    raise HandRefusedError(403, "private_hand", "this hand was played at a private table: only its players, "
                                                "or whoever one of them gave its share link, may read it")


async def hand_players(store: Store, seats: list[int | None], viewer: int) -> list[dict[str, Any] | None]:
    """A stored hand's players by seat (``None``: none): ``id``, ``name`` (as named now), ``bot``, and
    ``you`` for ``viewer`` — what a replay shows beside its report controls."""
    ids = [int(u) for u in seats if u is not None]
    query = select(users.c.id, users.c.username, users.c.kind).where(users.c.id.in_(ids))
    found = {int(r.id): r for r in await store.read(lambda conn: list(conn.execute(query)))}
    return [None if u is None or int(u) not in found else {
        "id": int(u), "name": str(found[int(u)].username), "bot": found[int(u)].kind == "bot", "you": int(u) == viewer}
        for u in seats]
