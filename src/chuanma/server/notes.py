"""Staff notes on a player (docs/operations.md, Notes): what a moderator or operator wants the next
one to know (a warning given, an appeal heard). Behind ``POST /api/admin/players/{id}/notes`` and
``chuanma admin note``; each note is written in one transaction with its row of the operator log,
and shown on the player's page in the console, newest first."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, select

from chuanma.server.moderation import Actor, Moderation, log_row
from chuanma.server.notices import check_text
from chuanma.server.schema import notes, users
from chuanma.server.store import Row

SHOWN = 50
"""The most notes a player's page shows."""


@dataclass
class Notes:
    """Staff notes over the moderation's store."""

    moderation: Moderation

    async def add(self, actor: Actor, user_id: int, text: object) -> Row:
        """Note ``text`` on the account ``user_id`` (a person, staff too); returns the note."""
        words = check_text(text, "text")
        now = self.moderation.clock.now()

        def work(conn: Connection) -> Row:
            self.moderation.target(conn, user_id)
            new = conn.execute(notes.insert().values(user_id=user_id, by=actor.id, at=now, text=words))
            note_id = int(new.inserted_primary_key[0])  # type: ignore[index]
            log_row(conn, actor, "note", user_id, words, {"note": note_id}, now)
            return {"id": note_id, "user_id": user_id, "by": actor.id, "by_name": actor.name, "at": now, "text": words}
        return await self.moderation.store.write(work)

    async def about(self, user_id: int) -> list[Row]:
        """The notes on ``user_id``, newest first (at most :data:`SHOWN`), each with its writer's name."""
        q = (select(notes.c.id, notes.c.user_id, notes.c.by, users.c.username.label("by_name"), notes.c.at,
                    notes.c.text)
             .outerjoin(users, users.c.id == notes.c.by).where(notes.c.user_id == user_id)
             .order_by(notes.c.id.desc()).limit(SHOWN))
        return await self.moderation.store.read(lambda conn: [dict(r._mapping) for r in conn.execute(q)])
