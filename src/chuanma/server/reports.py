"""Players' reports (举报) of other players, and staff handling them (docs/server.md, Keeping chips
honest): behind ``POST /api/reports``, ``/api/admin/reports`` and ``chuanma admin reports``.

A registered player (not a guest: a throwaway account cannot file reports) reports another account,
optionally naming a hand that account was dealt into, for one of :data:`REASONS`, with words of
their own. At most :data:`PER_DAY` reports a reporter in any 24 hours, and one open report per
reporter, player and hand; both are counted under a lock of the reporter's row, so two reports at
once cannot both pass. Moderators and operators dismiss or action an open report with a note, in
one transaction with its row of the operator log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Select, func, select, update

from chuanma.server.clock import Clock
from chuanma.server.moderation import Actor, Moderation, ModerationError, check_reason, log_row
from chuanma.server.schema import hands, reports, users
from chuanma.server.store import Row, Store

REASONS = ("cheating", "collusion", "abuse", "bot", "other")
"""What a report may be about."""
STATUSES = ("open", "dismissed", "actioned")
"""A report's status: open until staff dismiss it or act on it."""
HANDLED = {"dismiss": "dismissed", "action": "actioned"}
"""What staff do to an open report, and the status it leaves."""
MAX_TEXT = 500
PER_DAY = 10
"""Reports one player may file in any 24 hours."""
DAY = 86_400.0
LISTED = 200
"""The most reports one list returns (oldest first: the queue's order)."""
RECENT = 20
"""The most reports about one player their page shows."""


@dataclass
class Reports:
    """Filing reports and handling them, over a :class:`Store` (the accounts found as moderation finds them)."""

    moderation: Moderation

    @property
    def store(self) -> Store:
        return self.moderation.store

    @property
    def clock(self) -> Clock:
        return self.moderation.clock

    async def file(self, reporter: Row, who: object, hand_id: object, reason: object, text: object) -> Row:
        """``reporter`` reports the account ``who`` (id or name); returns the report."""
        if reporter["kind"] != "player":
            raise ModerationError(403, "not_registered", "report: register (or claim a name) first: guests "
                                                         "cannot report")
        if reason not in REASONS:
            raise ModerationError(400, "bad_reason", f"reason: one of {', '.join(REASONS)}")
        words = "" if text is None else text
        if not isinstance(words, str) or len(words) > MAX_TEXT:
            raise ModerationError(400, "bad_text", f"text: at most {MAX_TEXT} characters")
        if hand_id is not None and (not isinstance(hand_id, str) or not 0 < len(hand_id) <= 40):
            raise ModerationError(400, "no_hand", "hand_id: a hand's id")
        if not isinstance(who, str | int) or isinstance(who, bool) or not str(who).strip():
            raise ModerationError(400, "no_player", "player: an account's id or name")
        player = await self.moderation.find(who)
        if player["id"] == reporter["id"]:
            raise ModerationError(400, "self_report", "player: you cannot report yourself")
        if player["kind"] == "bot":
            raise ModerationError(400, "is_bot", f"player: {player['username']} is one of the server's bots")
        now = self.clock.now()
        reporter_id, player_id = int(reporter["id"]), int(player["id"])

        def work(conn: Connection) -> Row:
            conn.execute(select(users.c.id).where(users.c.id == reporter_id).with_for_update())
            if hand_id is not None:
                seats = conn.execute(select(hands.c.seats).where(hands.c.id == hand_id)).scalar()
                if seats is None or player_id not in seats:
                    raise ModerationError(404, "no_hand", f"hand_id: {player['username']} was dealt no hand "
                                                          f"{str(hand_id)[:40]!r}")
            filed = conn.execute(select(func.count()).where(reports.c.reporter == reporter_id,
                                                            reports.c.at > now - DAY)).scalar_one()
            if filed >= PER_DAY:
                raise ModerationError(429, "too_many_reports", f"report: at most {PER_DAY} reports a day: "
                                                               "staff look at each")
            same = conn.execute(select(reports.c.id).where(
                reports.c.reporter == reporter_id, reports.c.player == player_id, reports.c.status == "open",
                reports.c.hand_id.is_(None) if hand_id is None else reports.c.hand_id == hand_id)).scalar()
            if same is not None:
                raise ModerationError(409, "already_reported", f"report: you reported this already (#{same}), "
                                                               "staff have not looked at it yet")
            row = {"reporter": reporter_id, "player": player_id, "hand_id": hand_id, "reason": reason,
                   "text": words.strip(), "at": now, "status": "open"}
            report_id = conn.execute(reports.insert().values(**row)).inserted_primary_key[0]  # type: ignore[index]
            return {"id": int(report_id), **row}
        return await self.store.write(work)

    async def handle(self, actor: Actor, report_id: int, status: object, note: object) -> Row:
        """Dismiss or action (``status``: dismissed or actioned) the open report ``report_id`` with
        ``note`` (also the operator log's reason); returns it."""
        if status not in HANDLED.values():
            raise ModerationError(400, "bad_status", f"status: {' or '.join(HANDLED.values())}")
        why = check_reason(note)
        now = self.clock.now()

        def work(conn: Connection) -> Row:
            found = conn.execute(select(reports).where(reports.c.id == report_id).with_for_update()).first()
            if found is None:
                raise ModerationError(404, "no_report", f"report: no report #{report_id}")
            if found.status != "open":
                raise ModerationError(409, "already_handled", f"report: #{report_id} is {found.status} already")
            done = {"status": status, "handled_by": actor.id, "handled_at": now, "note": why}
            conn.execute(update(reports).where(reports.c.id == report_id).values(**done))
            log_row(conn, actor, "report", found.player, why, {"report": report_id, "status": status}, now)
            return {**dict(found._mapping), **done}
        return await self.store.write(work)

    async def listed(self, status: str = "open") -> list[dict[str, Any]]:
        """The reports of ``status`` (or ``all``), oldest first: the queue."""
        if status not in (*STATUSES, "all"):
            raise ModerationError(400, "bad_status", f"status: one of {', '.join(STATUSES)} or all")
        q = named_reports().order_by(reports.c.id).limit(LISTED)
        if status != "all":
            q = q.where(reports.c.status == status)
        return await self.store.read(lambda conn: [dict(r._mapping) for r in conn.execute(q)])

    async def about(self, player: int) -> list[dict[str, Any]]:
        """The last reports about ``player``, newest first, whatever their status (their page's)."""
        q = named_reports().where(reports.c.player == player).order_by(reports.c.id.desc()).limit(RECENT)
        return await self.store.read(lambda conn: [dict(r._mapping) for r in conn.execute(q)])


def named_reports() -> Select[Any]:
    """Every report, with its reporter's, player's and handler's current names."""
    reporter, player, handler = users.alias("reporter_user"), users.alias("player_user"), users.alias("handler")
    return (select(reports, reporter.c.username.label("reporter_name"), player.c.username.label("player_name"),
                   handler.c.username.label("handled_by_name"))
            .join(reporter, reporter.c.id == reports.c.reporter).join(player, player.c.id == reports.c.player)
            .outerjoin(handler, handler.c.id == reports.c.handled_by))
