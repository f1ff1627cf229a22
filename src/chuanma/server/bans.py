"""Bans as the rest of the server reads them: a player's ban in force, how it is worded, how long one lasts.

A ban is a row of ``bans`` (:mod:`chuanma.server.moderation` writes them): in force from ``since``
until ``until`` (``None``: for good) unless lifted. A player banned cannot log in, nor join a room's
queue or a private table.
"""

from __future__ import annotations

import re
import time

from sqlalchemy import Connection, func, or_, select

from chuanma.server.schema import bans
from chuanma.server.store import Row, Store

UNITS = {"m": 60.0, "h": 3600.0, "d": 86_400.0, "w": 7 * 86_400.0}
DURATION = re.compile(r"([1-9][0-9]{0,5})([mhdw])")
"""A ban's length: a whole number and a unit (m minutes, h hours, d days, w weeks), e.g. ``7d``."""
LONGEST = 10 * 365 * 86_400.0
"""The longest ban for a time (ten years); longer is for good."""


class DurationError(ValueError):
    """A ban's length that is not one (the message says what is)."""


def duration_seconds(text: str) -> float:
    """The seconds of a ban's length such as ``30m``, ``12h``, ``7d`` or ``2w``."""
    found = DURATION.fullmatch(text.strip().lower())
    if found is None:
        raise DurationError(f"duration: {text[:20]!r} is no length: a number and m, h, d or w (e.g. 7d), "
                            "or none for a ban for good")
    seconds = int(found[1]) * UNITS[found[2]]
    if seconds > LONGEST:
        raise DurationError("duration: at most ten years (3650d); longer is a ban for good")
    return seconds


def when(moment: float) -> str:
    """A moment as a ban's message gives it (UTC, to the minute)."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(moment))


def ban_words(ban: Row) -> str:
    """What a banned player is told: until when (or for good), and why."""
    end = "for good" if ban["until"] is None else f"until {when(ban['until'])}"
    return f"this account is banned {end}: {ban['reason']}"


def active_ban(conn: Connection, user_id: int, now: float) -> Row | None:
    """The ban of ``user_id`` in force at ``now`` (the latest: one at a time is in force), or ``None``."""
    q = (select(bans).where(bans.c.user_id == user_id, bans.c.lifted_at.is_(None), bans.c.since <= now,
                            or_(bans.c.until.is_(None), bans.c.until > now))
         .order_by(bans.c.id.desc()).limit(1))
    row = conn.execute(q).first()
    return None if row is None else dict(row._mapping)


def latest_ban(conn: Connection) -> int:
    """The id of the last ban made (0 before the first)."""
    return int(conn.execute(select(func.coalesce(func.max(bans.c.id), 0))).scalar_one())


def bans_after(conn: Connection, ban_id: int) -> list[Row]:
    """The bans made after ban ``ban_id`` and not lifted, first first."""
    q = select(bans).where(bans.c.id > ban_id, bans.c.lifted_at.is_(None)).order_by(bans.c.id)
    return [dict(r._mapping) for r in conn.execute(q)]


async def ban_of(store: Store, user_id: int, now: float) -> Row | None:
    """:func:`active_ban`, read from ``store``."""
    return await store.read(lambda conn: active_ban(conn, user_id, now))
