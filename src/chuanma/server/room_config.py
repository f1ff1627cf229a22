"""The rooms as operators change them (docs/operations.md, Rooms): behind ``/api/admin/rooms`` and
``chuanma admin rooms``.

The rooms are the database's ``rooms`` (migration 0016, seeded with
:data:`~chuanma.server.rooms.DEFAULT_ROOMS`). One service, :class:`RoomConfig`, lists them, sets one
(a new one, or some fields of one), and disables or enables one, each change checked as a whole
room (:func:`check_room`) and written in one transaction with its row of the operator log (a
refused change writes nothing). Rooms are never deleted (open tables and old hands name them): a
disabled room takes no new player, its open tables play on. The running server is then told
(:attr:`RoomConfig.changed`: it reads the rooms again and, in a cluster, tells every node to);
without one (the command line) every server finds the change at its next look (``host.BAN_WATCH``).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection, func, select, update

from chuanma.errors import ChuanmaError
from chuanma.rules import RuleSet
from chuanma.server.levels import LEVELS
from chuanma.server.moderation import Actor, Moderation, ModerationError, check_reason, log_row
from chuanma.server.rooms import PRIVATE_ROOM, Room
from chuanma.server.schema import rooms

ROOM_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
"""A room's id: lower-case letters, digits and ``-``, at most 32 characters."""
FIELDS = ("name", "en", "preset", "base", "low", "high", "min_level")
"""What an operator sets of a room (``enabled`` is :meth:`RoomConfig.enable`'s and ``disable``'s)."""
NEEDED = ("name", "en", "preset", "base", "low")
"""What a new room must be given (``high`` defaults to no top, ``min_level`` to 0)."""
ENTRY_BASES = 5
"""A room's entry is at least this many bases: a player let in can pay a few hands' losses
(every default room's entry is 5 bases or more)."""
MAX_CHIPS = 10**12
NAME_LENGTH = {"name": 64, "en": 96}
Changed = Callable[[], Awaitable[None]]
"""What the running server does once the rooms (or the notices) changed: read them again, everywhere."""


def load_rooms(conn: Connection) -> dict[str, Room]:
    """Every room of the database, by id, in the lobby's order."""
    return {r.id: Room(r.id, r.name, r.en, r.preset, int(r.base), int(r.low), None if r.high is None else int(r.high),
                       int(r.min_level), bool(r.enabled))
            for r in conn.execute(select(rooms).order_by(rooms.c.position, rooms.c.id))}


def refuse(code: str, message: str) -> ModerationError:
    return ModerationError(400, code, message)


def whole(value: object, what: str, low: int) -> int:
    """``value`` if it is a whole number from ``low`` to :data:`MAX_CHIPS`, else refused naming ``what``."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= MAX_CHIPS:
        raise refuse(f"bad_{what}", f"{what}: a whole number from {low:,} to {MAX_CHIPS:,}")
    return value


def check_room(room: Room) -> None:
    """Refuse (:class:`ModerationError`, 400) a room that could not be played: an id not of
    :data:`ROOM_ID`, an empty name, a preset that does not exist, a base of 0, an entry range
    upside down or below :data:`ENTRY_BASES` bases, a level that does not exist."""
    if not ROOM_ID.fullmatch(room.id) or room.id == PRIVATE_ROOM:
        raise refuse("bad_room", f"room: {room.id[:40]!r} is not a room id (lower-case letters, digits and -, "
                                 f"at most 32, not {PRIVATE_ROOM!r})")
    for key, longest in NAME_LENGTH.items():
        text = getattr(room, key)
        if not isinstance(text, str) or not text.strip() or len(text) > longest:
            raise refuse("bad_name", f"{key}: a name of 1 to {longest} characters")
    base = whole(room.base, "base", 1)
    low = whole(room.low, "low", 0)
    if room.high is not None and whole(room.high, "high", 0) < low:
        raise refuse("bad_entry", f"entry: low {low:,} is above high {room.high:,}")
    if low < ENTRY_BASES * base:
        raise refuse("bad_entry", f"entry: a room of base {base:,} lets in {ENTRY_BASES} bases at least "
                                  f"(low {ENTRY_BASES * base:,} or more; it is {low:,})")
    levels = len(LEVELS)
    if not isinstance(room.min_level, int) or isinstance(room.min_level, bool) or not 0 <= room.min_level <= levels:
        raise refuse("bad_level", f"min_level: a level from 0 (any) to {levels}")
    if not isinstance(room.preset, str):
        raise refuse("bad_preset", "preset: a preset's name")
    try:
        RuleSet.from_preset(room.preset, base=base)
    except ChuanmaError as exc:
        raise refuse("bad_preset", f"preset: {exc}") from None


@dataclass
class RoomConfig:
    """Listing and changing the rooms, each change logged (see the module's docstring)."""

    moderation: Moderation
    changed: Changed | None = None
    """The running server's :data:`Changed` (``None``: the command line)."""

    async def listed(self) -> list[Room]:
        """Every room, open or not, in the lobby's order."""
        return list((await self.moderation.store.read(load_rooms)).values())

    async def set(self, actor: Actor, room_id: object, changes: Mapping[str, object], reason: object) -> Room:
        """Set ``changes`` (some of :data:`FIELDS`) of the room ``room_id``, or make it (given at least
        :data:`NEEDED`; open at once, last in the lobby). Returns the room."""
        why = check_reason(reason)
        unknown = sorted(set(changes) - set(FIELDS))
        if unknown:
            raise refuse("bad_field", f"room: no field {', '.join(unknown)}; fields: {', '.join(FIELDS)}")
        if not isinstance(room_id, str):
            raise refuse("bad_room", "room: an id")

        def work(conn: Connection) -> Room:
            old = load_rooms(conn).get(room_id)
            if old is None:
                missing = [key for key in NEEDED if key not in changes]
                if missing:
                    raise ModerationError(404, "no_room", f"room: no room {room_id[:40]!r}; a new room needs "
                                                          f"{', '.join(missing)}")
                new = Room(room_id, **{"high": None, "min_level": 0, **changes})  # type: ignore[arg-type]
            else:
                new = replace(old, **changes)  # type: ignore[arg-type]
            check_room(new)
            values = {key: getattr(new, key) for key in (*FIELDS, "enabled")}
            if old is None:
                last = conn.execute(select(func.max(rooms.c.position))).scalar()
                conn.execute(rooms.insert().values(id=room_id, position=(last or 0) + 1, **values))
            else:
                conn.execute(update(rooms).where(rooms.c.id == room_id).values(**values))
            log_row(conn, actor, "room", None, why, {"room": room_id, "from": old and old.to_json(),
                                                     "to": new.to_json()}, self.moderation.clock.now())
            return new
        return await self.write(work)

    async def enable(self, actor: Actor, room_id: str, on: bool, reason: object) -> Room:
        """Open (``on``) or close the room ``room_id`` to new players; its open tables play on."""
        why = check_reason(reason)

        def work(conn: Connection) -> Room:
            old = load_rooms(conn).get(room_id)
            if old is None:
                raise ModerationError(404, "no_room", f"room: no room {room_id[:40]!r}")
            if old.enabled == on:
                raise ModerationError(409, "unchanged", f"room: {room_id} is {'open' if on else 'disabled'} already")
            conn.execute(update(rooms).where(rooms.c.id == room_id).values(enabled=on))
            log_row(conn, actor, "room", None, why, {"room": room_id, "enabled": on}, self.moderation.clock.now())
            return replace(old, enabled=on)
        return await self.write(work)

    async def write(self, work: Callable[[Connection], Room]) -> Room:
        room = await self.moderation.store.write(work)
        if self.changed is not None:
            await self.changed()
        return room


def room_fields(room: Room) -> dict[str, Any]:
    """A room as the console and the command line show it (its JSON, with its entry in words)."""
    return {**room.to_json(), "entry": room.range_text()}
