"""Where every player is: queued for a room or seated at a table, in one place at most.

The ``seatings`` table has one row per player so placed, keyed by the player's id: a second
place cannot be written, whichever path asks (quick-join, an invite, a bot taken for a seat, two
connections at once, two processes). Every change of a table's seats writes its seatings in the
same transaction, and a table's seatings are deleted in the transaction that closes it, so after
a restart the open tables and the seatings still agree.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, exists, func, select, update
from sqlalchemy.exc import IntegrityError

from chuanma.server.rooms import Stakes
from chuanma.server.schema import hands, seatings, tables, users
from chuanma.server.store import Row, Store, Work, grant_chips

T = TypeVar("T")
UNFINISHED = ("collecting", "playing")
"""The statuses of a hand not settled: a table closing voids it (no chips move)."""
TRIES = 3
"""How many times a seating transaction is run when another wrote the same place first."""


def close_table(conn: Connection, table_id: str, reason: str, now: float,
                record: Mapping[str, Any] | None = None) -> None:
    """In the transaction of ``conn``: close ``table_id``, void its unfinished hand with ``reason``
    (and ``record``, if given) and free its seats. No chips move."""
    void = {"status": "void", "reason": reason, "finished_at": now, **({"record": dict(record)} if record else {})}
    conn.execute(update(tables).where(tables.c.id == table_id).values(status="closed"))
    conn.execute(update(hands).where(hands.c.table_id == table_id, hands.c.status.in_(UNFINISHED)).values(**void))
    conn.execute(seatings.delete().where(seatings.c.table_id == table_id))


class SeatTakenError(Exception):
    """A player already has a place: ``table`` (seated) or ``room`` (queued); neither: they were to
    be seated from a room's queue and no longer wait there."""

    def __init__(self, user_id: int, table: str | None, room: str | None) -> None:
        where = f"table {table}" if table else f"the queue of room {room}" if room else None
        super().__init__(f"player {user_id} already has a place: {where}" if where
                         else f"player {user_id} no longer waits in the queue")
        self.user_id, self.table, self.room = user_id, table, room


class InviteTakenError(Exception):
    """Another table holds the invite code a new private table was given: draw another."""


class StakesError(Exception):
    """A player's balance does not fit a private table's base (docs/server.md, Keeping chips honest)."""

    def __init__(self, stakes: Stakes, balance: int) -> None:
        super().__init__(f"a private table of base {stakes.base:,} wants {stakes.text()}; you have {balance:,}")


def _fit(conn: Connection, user_id: int, stakes: Stakes | None) -> None:
    """Refuse (:class:`StakesError`) ``user_id`` if their balance, read in this transaction, does
    not fit ``stakes`` (a private table's; ``None``: no check)."""
    if stakes is None:
        return
    balance = int(conn.execute(select(users.c.balance).where(users.c.id == user_id)).scalar_one())
    if not stakes.admit(balance):
        raise StakesError(stakes, balance)


class TooManyTablesError(Exception):
    """A player already has as many open private tables as allowed."""


@dataclass(frozen=True, slots=True)
class BotNeed:
    """What a bot's balance must be to take a seat: at most ``high``; below ``low`` it is granted
    chips up to ``target`` (a logged grant)."""

    low: int
    high: int | None
    target: int


def _held(conn: Connection, user_id: int) -> Any:
    """``user_id``'s place, locked until the transaction ends: a second transaction placing them
    waits, then sees the place the first wrote (on PostgreSQL; SQLite has one writer at a time)."""
    return conn.execute(select(seatings).where(seatings.c.user_id == user_id).with_for_update()).first()


def _placed(conn: Connection, user_id: int) -> bool:
    """Whether ``user_id`` has a place, as committed when this is asked (not locked)."""
    return conn.execute(select(seatings.c.user_id).where(seatings.c.user_id == user_id)).first() is not None


def _claim(conn: Connection, user_id: int, table_id: str, room: str | None, now: float) -> None:
    """Seat ``user_id`` at ``table_id``: their place in ``room``'s queue becomes it, or (no ``room``:
    a private table, a bot) a new seating. Refused (:class:`SeatTakenError`) if they have another
    place, or are no longer waiting in ``room``."""
    held = _held(conn, user_id)
    if held is None and room is not None:
        raise SeatTakenError(user_id, None, None)
    if held is None:
        conn.execute(seatings.insert().values(user_id=user_id, table_id=table_id, room=None, since=now))
    elif held.table_id is None and room is not None and held.room == room:
        conn.execute(update(seatings).where(seatings.c.user_id == user_id).values(table_id=table_id, since=now))
    elif held.table_id != table_id:
        raise SeatTakenError(user_id, held.table_id, held.room)


def _place(conn: Connection, table_id: str, place: int, user_id: int) -> None:
    """Write ``user_id`` into the stored seats of ``table_id`` at ``place``."""
    seats = list(conn.execute(select(tables.c.seats).where(tables.c.id == table_id)).scalar_one())
    seats[place] = user_id
    conn.execute(update(tables).where(tables.c.id == table_id).values(seats=seats))


def _bot(conn: Connection, need: BotNeed, now: float) -> Row:
    """An idle bot (seated nowhere) whose balance fits ``need``, or a new one; topped up if short.

    Bots another transaction holds are skipped; one that looked idle to the query but was seated
    by a transaction committed meanwhile (its lock then free again) is found seated once locked,
    and passed over."""
    passed: list[int] = []
    while True:
        q = select(users).where(users.c.kind == "bot", users.c.id.not_in(passed),
                                ~exists().where(seatings.c.user_id == users.c.id))
        if need.high is not None:
            q = q.where(users.c.balance <= need.high)
        found = conn.execute(q.order_by(users.c.id).limit(1).with_for_update(skip_locked=True)).first()
        if found is None or not _placed(conn, int(found.id)):
            break
        passed.append(int(found.id))
    if found is None:
        res = conn.execute(users.insert().values(username=f"bot_{secrets.token_hex(6)}", password_hash=None,
                                                 kind="bot", balance=0, created_at=now))
        bot_id = int(res.inserted_primary_key[0])  # type: ignore[index]
        balance = 0
    else:
        bot_id, balance = int(found.id), int(found.balance)
    if balance < need.low:
        grant_chips(conn, bot_id, need.target - balance, now)
    return dict(conn.execute(select(users).where(users.c.id == bot_id)).one()._mapping)


@dataclass(slots=True)
class Seatings:
    """The queries that place players, each one transaction over the :class:`Store`."""

    store: Store

    async def _write(self, work: Work[T]) -> T:
        """Run ``work`` in one transaction; if another one wrote a place it also wrote (PostgreSQL
        checks the key only at the write), run it again: it then sees that place."""
        for _ in range(TRIES - 1):
            try:
                return await self.store.write(work)
            except IntegrityError:
                continue
        return await self.store.write(work)

    async def queue(self, user_id: int, room: str, now: float, node: str, bots: bool) -> None:
        """Put ``user_id`` in ``room``'s queue (moving them from another room's queue), waiting on
        the server process ``node``, allowing bots or not."""
        def work(conn: Connection) -> None:
            held = _held(conn, user_id)
            place = {"room": room, "since": now, "node": node, "bots": bots}
            if held is None:
                conn.execute(seatings.insert().values(user_id=user_id, table_id=None, **place))
            elif held.table_id is None:
                conn.execute(update(seatings).where(seatings.c.user_id == user_id).values(**place))
            else:
                raise SeatTakenError(user_id, held.table_id, held.room)
        await self._write(work)

    async def unqueue(self, user_id: int) -> None:
        """Take ``user_id`` out of any queue (a seat is kept)."""
        await self.store.write(lambda conn: conn.execute(
            seatings.delete().where(seatings.c.user_id == user_id, seatings.c.table_id.is_(None))))

    async def clear_queues(self) -> None:
        """Forget every queue (at start: the queues of a stopped process are gone with it)."""
        await self.store.write(lambda conn: conn.execute(seatings.delete().where(seatings.c.table_id.is_(None))))

    async def open_table(self, row: Mapping[str, Any], people: Mapping[int, int], room: str | None,
                         bots: Sequence[int], need: BotNeed, limit: int | None, now: float,
                         stakes: Stakes | None = None) -> dict[int, Row]:
        """Store a new table, seat ``people`` (user id by place; those queued in ``room`` leave its
        queue) and bots at the places ``bots``, in one transaction; returns the bots by place. A
        private table (``row["creator"]`` set) is refused if its creator has ``limit`` open ones, and
        (:class:`InviteTakenError`) if another table holds its invite code, and (:class:`StakesError`)
        if its creator's balance does not fit ``stakes``."""
        creator = row.get("creator")

        def work(conn: Connection) -> dict[int, Row]:
            if creator is not None and limit is not None:
                # the creator's row locked: two requests of one player count one after the other
                conn.execute(select(users.c.id).where(users.c.id == creator).with_for_update()).first()
                count = conn.execute(select(func.count()).where(
                    tables.c.creator == creator, tables.c.status == "open")).scalar_one()
                if count >= limit:
                    raise TooManyTablesError(f"you already have {count} open private tables, the most allowed")
                _fit(conn, int(creator), stakes)
            invite = row.get("invite")
            if invite is not None and conn.execute(select(tables.c.id).where(tables.c.invite == invite)).first():
                raise InviteTakenError(f"invite code {invite} is taken")
            table_id = str(row["id"])
            conn.execute(tables.insert().values(**row, seats=[people.get(i) for i in range(4)]))
            for user_id in sorted(people.values()):  # locked in one order: two such transactions never deadlock
                _claim(conn, user_id, table_id, room, now)
            taken: dict[int, Row] = {}
            for place in bots:  # each claimed before the next is looked for: never the same bot twice
                taken[place] = _bot(conn, need, now)
                _claim(conn, int(taken[place]["id"]), table_id, None, now)
            if taken:
                seats = [people.get(i, int(taken[i]["id"]) if i in taken else None) for i in range(4)]
                conn.execute(update(tables).where(tables.c.id == table_id).values(seats=seats))
            return taken
        return await self._write(work)

    async def sit(self, table_id: str, place: int, user_id: int, now: float, stakes: Stakes | None = None) -> None:
        """Seat ``user_id`` at ``place`` of ``table_id``; :class:`SeatTakenError` if they have a place,
        :class:`StakesError` if their balance does not fit ``stakes`` (a private table's)."""
        def work(conn: Connection) -> None:
            _claim(conn, user_id, table_id, None, now)
            _fit(conn, user_id, stakes)
            _place(conn, table_id, place, user_id)
        await self._write(work)

    async def seat_bot(self, table_id: str, place: int, need: BotNeed, replacing: int | None, now: float) -> Row:
        """Seat a bot at ``place`` of ``table_id`` (unseating ``replacing``); returns the bot's row."""
        def work(conn: Connection) -> Row:
            if replacing is not None:
                conn.execute(seatings.delete().where(seatings.c.user_id == replacing,
                                                     seatings.c.table_id == table_id))
            bot = _bot(conn, need, now)
            _claim(conn, int(bot["id"]), table_id, None, now)
            _place(conn, table_id, place, int(bot["id"]))
            return bot
        return await self._write(work)

    async def close(self, table_id: str, reason: str, now: float, record: Mapping[str, Any] | None = None) -> None:
        """Close ``table_id``: its unfinished hand is voided with ``reason`` (and its ``record``, if
        it has one) and its seats freed. No chips move."""
        await self.store.write(lambda conn: close_table(conn, table_id, reason, now, record))
