"""Operators' notices to every connected player (docs/operations.md, Announcements and
maintenance): an announcement, and the "no new tables" switch (maintenance) with its countdown.

One service, :class:`Notices`, behind ``/api/admin/announce``, ``/api/admin/maintenance`` and
``chuanma admin announce`` / ``maintenance``: each notice is a row (``announcements``,
``maintenance``: migration 0016) written in one transaction with its row of the operator log. The
running server is then told (:attr:`Notices.changed`): every node reads the notices again and sends
each socket the ``announcement`` that changed (docs/protocol.md); a socket connecting later is sent
those in force. Kept in the database, a switch made before a node started binds it too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select, update

from chuanma.server import protocol as p
from chuanma.server.moderation import Actor, Moderation, ModerationError, log_row
from chuanma.server.room_config import Changed
from chuanma.server.schema import announcements, maintenance
from chuanma.server.store import Row

MAX_TEXT = 500
MAX_MINUTES = 7 * 24 * 60
"""The longest an announcement lasts, and the furthest a maintenance may be set ahead: a week."""
NOTICE, MAINTENANCE = "notice", "maintenance"
"""The kinds of ``announcement``: an operator's words, or the "no new tables" switch."""


def _row(result: Any) -> Row | None:
    row = result.first()
    return None if row is None else dict(row._mapping)


def current_announcement(conn: Connection, now: float) -> Row | None:
    """The newest announcement not withdrawn, if it is not over at ``now``."""
    row = _row(conn.execute(select(announcements).where(announcements.c.withdrawn_at.is_(None))
                            .order_by(announcements.c.id.desc()).limit(1)))
    return row if row is not None and (row["until"] is None or row["until"] > now) else None


def current_maintenance(conn: Connection) -> Row | None:
    """The maintenance in force (switched on and not off), if any."""
    return _row(conn.execute(select(maintenance).where(maintenance.c.ended_at.is_(None))
                             .order_by(maintenance.c.id.desc()).limit(1)))


def announcement_message(row: Row | None) -> dict[str, Any]:
    """The ``announcement`` of an operator's announcement (``None``: none now, ``text`` null)."""
    if row is None:
        return p.server_message("announcement", topic=NOTICE, id=None, text=None, at=None, until=None)
    return p.server_message("announcement", topic=NOTICE, id=row["id"], text=row["text"], at=row["at"],
                            until=row["until"])


def maintenance_message(row: Row | None) -> dict[str, Any]:
    """The ``announcement`` of a maintenance (``None``: off, ``text`` null): ``at``, when no new table opens."""
    if row is None:
        return p.server_message("announcement", topic=MAINTENANCE, id=None, text=None, at=None, until=None)
    return p.server_message("announcement", topic=MAINTENANCE, id=row["id"], text=row["message"], at=row["starts"],
                            until=None)


def check_text(text: object, what: str, empty: bool = False) -> str:
    if not isinstance(text, str) or (not text.strip() and not empty) or len(text) > MAX_TEXT:
        raise ModerationError(400, "bad_text", f"{what}: {'' if empty else '1 to '}{MAX_TEXT} characters"
                              + (" at most" if empty else ""))
    return text.strip()


def check_minutes(minutes: object, what: str, low: float) -> float:
    if (not isinstance(minutes, int | float) or isinstance(minutes, bool)
            or not low <= minutes <= MAX_MINUTES):  # NaN fails too
        raise ModerationError(400, "bad_minutes", f"{what}: minutes from {low:g} to {MAX_MINUTES:,}")
    return float(minutes)


@dataclass
class Notices:
    """Announcements and maintenance over the moderation's store, each logged."""

    moderation: Moderation
    changed: Changed | None = None
    """The running server's :data:`~chuanma.server.room_config.Changed` (``None``: the command line)."""

    async def announce(self, actor: Actor, text: object, minutes: object | None = None) -> Row:
        """Show ``text`` to every connected player (for ``minutes``; ``None``: until replaced);
        it replaces the announcement before. Returns its row."""
        words = check_text(text, "text")
        seconds = None if minutes is None else 60 * check_minutes(minutes, "minutes", 1)
        now = self.moderation.clock.now()

        def work(conn: Connection) -> Row:
            until = None if seconds is None else now + seconds
            new = conn.execute(announcements.insert().values(text=words, at=now, until=until, by=actor.id))
            row_id = int(new.inserted_primary_key[0])  # type: ignore[index]
            log_row(conn, actor, "announce", None, words, {"announcement": row_id, "until": until}, now)
            return {"id": row_id, "text": words, "at": now, "until": until}
        return await self.done(work)

    async def withdraw(self, actor: Actor) -> Row:
        """Take the current announcement down; returns it."""
        now = self.moderation.clock.now()

        def work(conn: Connection) -> Row:
            row = current_announcement(conn, now)
            if row is None:
                raise ModerationError(409, "no_announcement", "announce: no announcement is shown now")
            conn.execute(update(announcements).where(announcements.c.id == row["id"]).values(withdrawn_at=now))
            log_row(conn, actor, "announce", None, "withdrawn", {"announcement": row["id"], "withdrawn": True}, now)
            return row
        return await self.done(work)

    async def maintenance_on(self, actor: Actor, minutes: object, message: object = "") -> Row:
        """From ``minutes`` on (0: now) no new table opens, on every node; players see the
        countdown with ``message``. Replaces a maintenance in force. Returns its row."""
        ahead = check_minutes(minutes, "in", 0)
        words = check_text(message, "message", empty=True)
        now = self.moderation.clock.now()

        def work(conn: Connection) -> Row:
            conn.execute(update(maintenance).where(maintenance.c.ended_at.is_(None)).values(ended_at=now))
            starts = now + 60 * ahead
            new = conn.execute(maintenance.insert().values(starts=starts, message=words, at=now, by=actor.id))
            row_id = int(new.inserted_primary_key[0])  # type: ignore[index]
            log_row(conn, actor, "maintenance", None, words or "maintenance", {"maintenance": row_id, "on": True,
                                                                               "starts": starts}, now)
            return {"id": row_id, "starts": starts, "message": words, "at": now}
        return await self.done(work)

    async def maintenance_off(self, actor: Actor) -> Row:
        """New tables open again; returns the maintenance switched off."""
        now = self.moderation.clock.now()

        def work(conn: Connection) -> Row:
            row = current_maintenance(conn)
            if row is None:
                raise ModerationError(409, "no_maintenance", "maintenance: it is not on")
            conn.execute(update(maintenance).where(maintenance.c.id == row["id"]).values(ended_at=now))
            log_row(conn, actor, "maintenance", None, "maintenance over", {"maintenance": row["id"], "on": False}, now)
            return row
        return await self.done(work)

    async def done(self, work: Callable[[Connection], Row]) -> Row:
        row = await self.moderation.store.write(work)
        if self.changed is not None:
            await self.changed()
        return row
