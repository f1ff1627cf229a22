"""Moderation: roles, bans, kicks, chip adjustments, renames, password-reset links, and the operator
log recording each.

One service, :class:`Moderation`, behind both the HTTP routes ``/api/admin/*`` and ``chuanma admin``
(docs/operations.md, Operating the community). Each action is checked, then written in one
transaction with its row of the append-only ``operator_log`` (who, what, to whom, why, details):
an action refused writes nothing. Roles are granted only by the command line (:data:`CONSOLE`);
moderators and operators may not be banned, kicked or renamed: they are made players again first.

The live part of a ban or kick (closing the player's sockets, putting their seat on 托管 until
the hand ends) is the running server's :attr:`Moderation.expel`; without one (the command line)
the ban holds for every new login and join, and revokes the player's tokens; every running server
finds it at its next look for bans (:meth:`~chuanma.server.host.LocalHost.watch_bans`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from chuanma.server.accounts import AccountError, check_username
from chuanma.server.bans import DurationError, active_ban, ban_words, duration_seconds
from chuanma.server.clock import Clock
from chuanma.server.lease import STATE
from chuanma.server.progress import subject_of
from chuanma.server.resets import OPERATOR_LINK_SECONDS, ResetLink, issue
from chuanma.server.rooms import PRIVATE_ROOM
from chuanma.server.schema import (
    bans,
    hands,
    ledger,
    logins,
    operator_log,
    ratings,
    table_leases,
    tables,
    tokens,
    users,
)
from chuanma.server.seatings import close_table
from chuanma.server.store import HAND_KINDS, NegativeBalanceError, Row, Store, adjust_chips, named
from chuanma.server.table_leases import CLUSTER

ROLES = ("player", "moderator", "operator")
"""Every role, least first: a new account is a player."""
MODERATOR_MAY = frozenset({"search", "see", "ban", "unban", "kick", "rename", "reports", "tables", "notes"})
"""What a moderator may do through the API (``reports``: read players' reports and handle them;
``notes``: write staff notes on a player)."""
OPERATOR_MAY = MODERATOR_MAY | {"adjust", "log", "reset", "void", "rooms", "announce", "maintenance"}
"""What an operator may do through the API (roles are the command line's alone): also change the
rooms, announce, and switch maintenance on and off."""
MAY = {"player": frozenset[str](), "moderator": MODERATOR_MAY, "operator": OPERATOR_MAY}
MAX_REASON = 500
MAX_ADJUSTMENT = 10**12
LOG_LIMIT = 500
"""The most log rows one read returns."""
FOUND = 20
"""The most players a search returns."""
RECENT = 20
"""How many ledger rows and hands a player's page shows."""
PHASES = {None: "waiting", "collecting": "dealing", "playing": "playing", "settled": "between_hands"}
"""A live table's phase by its last hand's status (``None``: no hand yet)."""
Expel = Callable[[int, str], Awaitable[None]]
"""What a running server does to a player banned or kicked: ``(user id, why)``."""
VoidAt = Callable[[str, str, str], Awaitable[dict[str, Any]]]
"""What a running server does to void a hand at its live table, on whichever node runs it:
``(table id, hand id, why)``, returning the table's answer (``hand_void``, or an ``error``)."""


class ModerationError(ValueError):
    """An action refused (nothing written): ``status`` and ``code`` for the API, a message for anyone."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts: a staff account (its id and name), or the command line (id ``None``)."""

    id: int | None
    name: str


CONSOLE = Actor(None, "command line")


def may(role: str, action: str) -> bool:
    """Whether an account of ``role`` may do ``action`` (one of :data:`OPERATOR_MAY`) through the API."""
    return action in MAY.get(role, frozenset())


def log_row(conn: Connection, actor: Actor, action: str, target: int | None, reason: str,
            details: dict[str, Any], now: float) -> None:
    """Append one row to the operator log, in the action's transaction."""
    conn.execute(operator_log.insert().values(at=now, actor=actor.id, action=action, target=target, reason=reason,
                                              details=details))


def check_reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ModerationError(400, "bad_reason", "reason: say why (it goes into the operator log)")
    if len(reason) > MAX_REASON:
        raise ModerationError(400, "bad_reason", f"reason: at most {MAX_REASON} characters")
    return reason.strip()


def public_ban(ban: Row | None) -> dict[str, Any] | None:
    return None if ban is None else {"id": ban["id"], "reason": ban["reason"], "since": ban["since"],
                                     "until": ban["until"], "by": ban["by"], "words": ban_words(ban)}


def _row(result: Any) -> Row | None:
    row = result.first()
    return None if row is None else dict(row._mapping)


def _account(user: Row) -> dict[str, Any]:
    return {k: user[k] for k in ("id", "username", "kind", "role", "balance", "created_at")}


def unsettled(conn: Connection, hand_id: str, lock: bool = False) -> Row:
    """The hand ``hand_id`` (with its table's status), refused unless it is unsettled."""
    q = (select(hands.c.id, hands.c.table_id, hands.c.status, hands.c.seats, tables.c.status.label("table_status"))
         .join(tables, tables.c.id == hands.c.table_id).where(hands.c.id == hand_id))
    row = _row(conn.execute(q.with_for_update() if lock else q))
    if row is None:
        raise ModerationError(404, "no_hand", f"hand: no hand {hand_id[:40]!r}")
    if row["status"] == "settled":
        raise ModerationError(409, "settled", f"hand: {hand_id} is settled, its chips moved: undo them with a "
                              f"compensating adjustment naming it (chuanma admin adjust NAME AMOUNT --hand {hand_id}, "
                              "or the console's adjustment with the hand)")
    if row["status"] == "void":
        raise ModerationError(409, "already_void", f"hand: {hand_id} is void already")
    return row


def server_holds(conn: Connection, now: float) -> bool:
    """Whether a running server (one process, or a cluster's nodes) holds the database's lease."""
    row = conn.execute(STATE).first()
    return row is not None and row.holder is not None and bool(row.expires > now)


@dataclass
class Moderation:
    """Every moderation action over a :class:`Store`, each logged."""

    store: Store
    clock: Clock
    expel: Expel | None = None
    """The running server's :data:`Expel` (``None``: the command line, with no server of its own)."""
    void_at: VoidAt | None = None
    """The running server's :data:`VoidAt` (``None``: the command line)."""

    async def find(self, who: str | int) -> Row:
        """The account ``who`` names: its id (a number) or its name in any case."""
        text = str(who).strip()
        cond = users.c.id == int(text) if text.isdigit() and len(text) < 10 else named(text)
        row = await self.store.read(lambda conn: _row(conn.execute(select(users).where(cond))))
        if row is None:
            raise ModerationError(404, "no_player", f"player: no account {text[:40]!r}")
        return row

    def target(self, conn: Connection, user_id: int) -> Row:
        """The account ``user_id``, locked, for an action on a person (no bot)."""
        row = _row(conn.execute(select(users).where(users.c.id == user_id).with_for_update()))
        if row is None:
            raise ModerationError(404, "no_player", f"player: no account {user_id}")
        if row["kind"] == "bot":
            raise ModerationError(400, "is_bot", f"player: {row['username']} is a bot")
        return row

    def _player(self, conn: Connection, user_id: int) -> Row:
        """As :meth:`target`, refusing staff (made players again first, on the command line)."""
        row = self.target(conn, user_id)
        if row["role"] != "player":
            raise ModerationError(409, "is_staff", f"player: {row['username']} is a {row['role']}: make them a "
                                                   "player first (chuanma admin role NAME player)")
        return row

    # ---------------------------------------------------------------- roles (the command line only)

    async def set_role(self, user_id: int, role: str, reason: str = "role granted") -> Row:
        """Give a registered player's account ``role`` (the command line's alone: logged as it)."""
        if role not in ROLES:
            raise ModerationError(400, "bad_role", f"role: {role!r} is none of {', '.join(ROLES)}")
        why = check_reason(reason)

        def work(conn: Connection) -> Row:
            row = self.target(conn, user_id)
            if row["kind"] != "player":
                raise ModerationError(400, "not_registered", f"player: {row['username']} is a guest: only a "
                                                             "registered account gets a role")
            conn.execute(update(users).where(users.c.id == user_id).values(role=role))
            log_row(conn, CONSOLE, "role", user_id, why, {"from": row["role"], "to": role}, self.clock.now())
            return {**row, "role": role}
        return await self.store.write(work)

    # ---------------------------------------------------------------- bans and kicks

    async def ban(self, actor: Actor, user_id: int, reason: object, duration: str | None) -> Row:
        """Ban ``user_id`` for ``duration`` (e.g. ``7d``; ``None``: for good): their tokens are revoked
        in the same transaction, then the running server (:attr:`expel`) closes their sockets and puts
        their seat on 托管 until the hand ends. Returns the ban."""
        why = check_reason(reason)
        try:
            seconds = None if duration is None else duration_seconds(duration)
        except DurationError as exc:
            raise ModerationError(400, "bad_duration", str(exc)) from None
        now = self.clock.now()

        def work(conn: Connection) -> Row:
            row = self._player(conn, user_id)
            current = active_ban(conn, user_id, now)
            if current is not None:
                raise ModerationError(409, "already_banned", f"player: {row['username']} is already banned "
                                      f"({ban_words(current)}): unban first to change it")
            until = None if seconds is None else now + seconds
            ban_id = conn.execute(bans.insert().values(user_id=user_id, reason=why, since=now, until=until,
                                                       by=actor.id)).inserted_primary_key[0]  # type: ignore[index]
            revoked = conn.execute(tokens.delete().where(tokens.c.user_id == user_id)).rowcount
            log_row(conn, actor, "ban", user_id, why, {"ban": int(ban_id), "until": until, "tokens": revoked}, now)
            ban = _row(conn.execute(select(bans).where(bans.c.id == ban_id)))
            assert ban is not None
            return ban
        ban = await self.store.write(work)
        if self.expel is not None:
            await self.expel(user_id, ban_words(ban))
        return ban

    async def unban(self, actor: Actor, user_id: int, reason: object) -> Row:
        """Lift the ban in force on ``user_id``; returns it."""
        why = check_reason(reason)
        now = self.clock.now()

        def work(conn: Connection) -> Row:
            row = self.target(conn, user_id)
            current = active_ban(conn, user_id, now)
            if current is None:
                raise ModerationError(409, "not_banned", f"player: {row['username']} is not banned")
            conn.execute(update(bans).where(bans.c.id == current["id"]).values(lifted_at=now))
            log_row(conn, actor, "unban", user_id, why, {"ban": current["id"]}, now)
            return {**current, "lifted_at": now}
        return await self.store.write(work)

    async def kick(self, actor: Actor, user_id: int, reason: object) -> None:
        """Close ``user_id``'s sockets and take them off their table (托管 to the hand's end first);
        they may come back. Only a running server kicks."""
        why = check_reason(reason)
        if self.expel is None:
            raise ModerationError(400, "no_server", "kick: only a running server closes connections "
                                                    "(POST /api/admin/players/ID/kick)")

        def work(conn: Connection) -> None:
            self._player(conn, user_id)
            log_row(conn, actor, "kick", user_id, why, {}, self.clock.now())
        await self.store.write(work)
        await self.expel(user_id, f"you were removed from the table: {why}")

    # ---------------------------------------------------------------- chips and names

    async def adjust(self, actor: Actor, user_id: int, amount: object, reason: object,
                     hand_id: str | None = None) -> int:
        """Give (or, below zero, take) ``amount`` chips to ``user_id``, a ledger row of kind
        ``adjustment`` (naming ``hand_id``, a settled hand they played, if given); never below
        zero. Returns the new balance."""
        if not isinstance(amount, int) or isinstance(amount, bool) or not 0 < abs(amount) <= MAX_ADJUSTMENT:
            raise ModerationError(400, "bad_amount", f"amount: a whole number of chips, not 0, at most "
                                                     f"{MAX_ADJUSTMENT:,} either way")
        why = check_reason(reason)
        now = self.clock.now()

        def work(conn: Connection) -> int:
            row = self.target(conn, user_id)
            if hand_id is not None:
                played = conn.execute(select(hands.c.seats, hands.c.status).where(hands.c.id == hand_id)).first()
                if played is None or played.status != "settled" or user_id not in played.seats:
                    raise ModerationError(404, "no_hand", f"hand: {row['username']} played no settled hand "
                                                          f"{hand_id[:40]!r}")
            try:
                balance = adjust_chips(conn, user_id, amount, now, hand_id)
            except NegativeBalanceError as exc:
                raise ModerationError(409, "negative_balance", str(exc)) from None
            log_row(conn, actor, "adjust", user_id, why, {"amount": amount, "hand": hand_id, "balance": balance}, now)
            return balance
        return await self.store.write(work)

    async def rename(self, actor: Actor, user_id: int, username: object, reason: object) -> Row:
        """Give ``user_id`` another name, valid and free as a registration's must be. Signed hand
        records keep the name each hand was played under (docs/operations.md)."""
        why = check_reason(reason)
        try:
            name = check_username(username)
        except AccountError as exc:
            raise ModerationError(400, exc.code, str(exc)) from None
        taken = ModerationError(409, "username_taken", f"username: {name} is taken, choose another name")

        def work(conn: Connection) -> Row:
            row = self._player(conn, user_id)
            holder = conn.execute(select(users.c.id).where(named(name))).scalar()
            if holder is not None and holder != user_id:
                raise taken
            conn.execute(update(users).where(users.c.id == user_id).values(username=name))
            log_row(conn, actor, "rename", user_id, why, {"from": row["username"], "to": name}, self.clock.now())
            return {**row, "username": name}
        try:
            return await self.store.write(work)
        except IntegrityError:  # registered meanwhile: the database's unique index decided
            raise taken from None

    async def reset_link(self, actor: Actor, user_id: int, reason: object) -> ResetLink:
        """A one-time link setting a new password for ``user_id``, a registered player (staff too,
        from the command line), working for :data:`~chuanma.server.resets.OPERATOR_LINK_SECONDS`."""
        why = check_reason(reason)
        now = self.clock.now()

        def work(conn: Connection) -> ResetLink:
            row = self.target(conn, user_id) if actor is CONSOLE else self._player(conn, user_id)
            if row["kind"] != "player":
                raise ModerationError(400, "not_registered", f"player: {row['username']} has no password "
                                                             "(a guest claims a name first)")
            link = issue(conn, user_id, now, OPERATOR_LINK_SECONDS)
            log_row(conn, actor, "reset_link", user_id, why, {"expires": link.expires}, now)
            return link
        return await self.store.write(work)

    # ---------------------------------------------------------------- hands

    async def void(self, actor: Actor, hand_id: object, reason: object) -> dict[str, Any]:
        """Void the hand ``hand_id``, not settled yet: it is kept, with status ``void`` and the
        reason, its decisions kept; no chips move (none move before a settlement); its players are
        told (``hand_void``) and its table closes. A hand in play is voided by its live table, on
        whichever node runs it (:attr:`void_at`); without a running server (the command line) only
        a hand whose table no server runs (the server stopped). A settled hand is refused: its chips
        moved, and a compensating adjustment naming it undoes them (:meth:`adjust`)."""
        why = check_reason(reason)
        if not isinstance(hand_id, str) or not 0 < len(hand_id) <= 40:
            raise ModerationError(400, "bad_hand", "hand: a hand's id (as its record and the player's page show it)")
        now = self.clock.now()
        hand = await self.store.read(lambda conn: unsettled(conn, hand_id))
        live = hand["table_status"] == "open" and self.void_at is not None
        if live:
            assert self.void_at is not None
            answer = await self.void_at(hand["table_id"], hand_id, why)
            if answer["type"] != "hand_void":
                await self.store.read(lambda conn: unsettled(conn, hand_id))  # settled meanwhile: says so
                raise ModerationError(503 if answer["code"] in ("table_moving", "no_answer") else 409,
                                      answer["code"], answer["message"])

        def work(conn: Connection) -> None:
            if not live:
                row = unsettled(conn, hand_id, lock=True)
                if row["table_status"] == "open" and server_holds(conn, now):
                    raise ModerationError(409, "server_runs", f"hand: a running server plays table {row['table_id']}: "
                                          f"void it there (the console /admin, POST /api/admin/hands/{hand_id}/void)")
                close_table(conn, row["table_id"], f"voided by an operator: {why}", now)
            log_row(conn, actor, "void", None, why, {"hand": hand_id, "table": hand["table_id"],
                                                      "players": hand["seats"], "live": live}, now)
        await self.store.write(work)
        return {"hand": hand_id, "table": hand["table_id"], "status": "void", "live": live}

    # ---------------------------------------------------------------- seeing

    async def search(self, query: object) -> list[dict[str, Any]]:
        """Accounts whose name starts with ``query`` (any case), or whose id it is; at most :data:`FOUND`."""
        if not isinstance(query, str) or not 0 < len(query.strip()) <= 32:
            raise ModerationError(400, "bad_query", "q: 1-32 characters: the start of a name, or an id")
        text = query.strip()
        found = func.lower(users.c.username).startswith(text.lower(), autoescape=True)
        if text.isdigit() and len(text) < 10:
            found = or_(found, users.c.id == int(text))
        q = select(users).where(found, users.c.kind != "bot").order_by(users.c.username).limit(FOUND)
        now = self.clock.now()

        def work(conn: Connection) -> list[dict[str, Any]]:
            return [{**_account(dict(r._mapping)), "ban": public_ban(active_ban(conn, int(r.id), now))}
                    for r in conn.execute(q)]
        return await self.store.read(work)

    async def player(self, user_id: int) -> dict[str, Any]:
        """A player's page: account and role, the ban in force, balance, the last ledger rows (kind,
        amount, hand), the last hands (with their result), their sessions (when each began and was
        last used), their last logins (kind, address, user agent) and their ratings."""
        row = await self.find(user_id)
        now = self.clock.now()

        def work(conn: Connection) -> dict[str, Any]:
            rows = conn.execute(select(ledger.c.id, ledger.c.kind, ledger.c.amount, ledger.c.hand_id, ledger.c.at)
                                .where(ledger.c.user_id == user_id).order_by(ledger.c.id.desc()).limit(RECENT))
            played = conn.execute(
                select(hands.c.id, hands.c.table_id, hands.c.number, hands.c.finished_at, ledger.c.amount)
                .join(ledger, ledger.c.hand_id == hands.c.id)
                .where(ledger.c.user_id == user_id, ledger.c.kind.in_(HAND_KINDS), hands.c.status == "settled")
                .order_by(hands.c.finished_at.desc()).limit(RECENT))
            sessions = conn.execute(select(tokens.c.created_at, tokens.c.last_used).where(tokens.c.user_id == user_id)
                                    .order_by(tokens.c.last_used.desc()).limit(RECENT))
            visits = conn.execute(select(logins.c.kind, logins.c.address, logins.c.agent, logins.c.device, logins.c.at)
                                  .where(logins.c.user_id == user_id).order_by(logins.c.id.desc()).limit(RECENT))
            rated = conn.execute(select(ratings.c.family, ratings.c.mu, ratings.c.sigma, ratings.c.hands)
                                 .where(ratings.c.subject == subject_of(user_id, row["kind"], ""))
                                 .order_by(ratings.c.family))
            return {"account": _account(row), "ban": public_ban(active_ban(conn, user_id, now)),
                    "balance": row["balance"], "ledger": [dict(r._mapping) for r in rows],
                    "hands": [dict(r._mapping) for r in played], "sessions": [dict(r._mapping) for r in sessions],
                    "logins": [dict(r._mapping) for r in visits], "ratings": [dict(r._mapping) for r in rated]}
        return await self.store.read(work)

    async def log(self, limit: int = 50, target: int | None = None) -> list[dict[str, Any]]:
        """The operator log, newest first (``target``: about one account only), each with its actor's
        and target's current names."""
        if not 0 < limit <= LOG_LIMIT:
            raise ModerationError(400, "bad_limit", f"limit: 1-{LOG_LIMIT}")
        actor, target_user = users.alias("actor_user"), users.alias("target_user")
        q = (select(operator_log, actor.c.username.label("actor_name"), target_user.c.username.label("target_name"))
             .outerjoin(actor, actor.c.id == operator_log.c.actor)
             .outerjoin(target_user, target_user.c.id == operator_log.c.target)
             .order_by(operator_log.c.id.desc()).limit(limit))
        if target is not None:
            q = q.where(operator_log.c.target == target)

        def work(conn: Connection) -> list[dict[str, Any]]:
            return [{**dict(r._mapping), "actor_name": r.actor_name or CONSOLE.name} for r in conn.execute(q)]
        return await self.store.read(work)

    async def tables(self) -> list[dict[str, Any]]:
        """Every open table, whichever node runs it: its id, room, rules (a preset's name, or the
        preset and its options changed), invite code (a private
        table's, for watching it), last hand (number, id), :data:`PHASES` phase, who sits where, and
        the node running it: in a cluster the holder of its unexpired lease, on one server the
        holder of the database's lease (``None``: no server runs it now)."""
        now = self.clock.now()

        def owners(conn: Connection) -> tuple[dict[str, str], str | None]:
            held = {str(r.table_id): str(r.holder) for r in conn.execute(
                select(table_leases.c.table_id, table_leases.c.holder).where(table_leases.c.expires >= now))}
            db = conn.execute(STATE).first()
            single = db is not None and db.holder not in (None, CLUSTER) and db.expires > now
            return held, str(db.holder) if db is not None and single else None
        rows = await self.store.live_tables()
        held, server = await self.store.read(owners)
        return [{"table": t["id"], "room": t["room"], "rules": t["rules"],
                 "invite": t["invite"] if t["room"] == PRIVATE_ROOM else None, "hand": t["number"] or 0,
                 "hand_id": t["hand_id"], "phase": PHASES.get(t["hand_status"], t["hand_status"]),
                 "node": held.get(t["id"], server),
                 "players": [None if u is None else {"seat": k, "id": u["id"], "name": u["username"],
                                                     "bot": u["kind"] == "bot"} for k, u in enumerate(t["users"])]}
                for t in rows]
