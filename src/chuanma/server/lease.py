"""The database's lease: one server process at a time may write to a database.

A process takes the lease at start (at once if it is free, lapsed or its own; else it waits for
it to lapse, and refuses if its holder renews it meanwhile), renews it every third of its time
and releases it when it stops cleanly. Each take-over adds one to the lease's fencing token, and
every write transaction of the :class:`~chuanma.server.store.Store` first checks, in the same
transaction, that the token is still the one its process took (:meth:`Lease.check`): a process
whose lease was taken over (paused past its expiry, say) can never write again.

PostgreSQL: the check locks the lease row ``FOR KEY SHARE`` and a take-over locks it ``FOR
UPDATE``, so a take-over waits for the writes in flight and every write after it sees its token
(a renewal, ``FOR NO KEY UPDATE``, waits for neither). SQLite: every write transaction begins
IMMEDIATE, so they run one at a time. Expiry times are the processes' own clocks: clocks that
disagree only move the moment a dead holder's lease lapses, never whether a write is fenced.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import Connection, inspect, select, update
from sqlalchemy.exc import SQLAlchemyError

from chuanma.errors import ChuanmaError
from chuanma.server.clock import Clock
from chuanma.server.config import ServerConfig
from chuanma.server.schema import lease
from chuanma.server.store import Row, Store

log = logging.getLogger("chuanma.server.lease")
ROW = 1
"""The lease table's one row."""
RENEWALS = 3
"""Renewals per lease time: a holder late by two thirds of it still keeps its lease."""
POLLS = 10
"""Looks at a held lease per lease time while waiting for it to lapse."""
STATE = select(lease.c.id, lease.c.holder, lease.c.token, lease.c.since, lease.c.expires).where(lease.c.id == ROW)
"""The lease's row, in the columns every revision since 0004 has (read before migrating too)."""
FENCE = select(lease.c.token).where(lease.c.id == ROW).with_for_update(read=True, key_share=True)
"""Built once: run in every write transaction."""


class LeaseHeldError(ChuanmaError):
    """Another live server process holds the database's lease."""


class LeaseLostError(ChuanmaError):
    """This process's lease was taken over: it may not write any more."""


def moment(seconds: float) -> str:
    """A time of the lease as a message shows it."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def held_by_another(row: Row, holder: str, now: float) -> bool:
    """Whether the lease ``row`` is held, unexpired at ``now``, by a process other than ``holder``."""
    return row["holder"] not in (None, holder) and bool(row["expires"] > now)


def in_use(row: Row) -> LeaseHeldError:
    """The refusal of a database whose lease ``row`` another live process holds."""
    return LeaseHeldError(f"the database is in use by another server ({row['holder']}, since "
                          f"{moment(row['since'])}): stop it, or give this one another database")


def migration_check(config: ServerConfig) -> Callable[[Connection], None]:
    """What runs before this process migrates a database (``open_store``'s ``before_migrating``):
    if the database has a lease yet and another live process holds it, :class:`LeaseHeldError`
    at once, the schema left as that process uses it."""
    def check(conn: Connection) -> None:
        if inspect(conn).has_table(lease.name):
            row = dict(conn.execute(STATE).one()._mapping)
            if held_by_another(row, config.lease_holder, config.clock.now()):
                raise in_use(row)
    return check


@dataclass
class Lease:
    """One process's hold on the database's lease (see the module's docstring)."""

    store: Store
    clock: Clock
    seconds: float
    holder: str
    token: int | None = None
    """The fencing token this process took (``None`` until it takes the lease)."""
    lost: str | None = None
    """Why the lease was lost, once it is: this process writes no more."""
    _lost: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False)
    _loop: asyncio.AbstractEventLoop | None = field(default=None, init=False, repr=False)

    @classmethod
    def of(cls, store: Store, config: ServerConfig) -> Lease:
        return cls(store, config.clock, config.lease_seconds, config.lease_holder)

    async def take(self) -> None:
        """Take the lease: at once if it is free, lapsed or this process's own; else wait (saying so
        in one log line) until it lapses, and raise :class:`LeaseHeldError` as soon as its holder
        renews it (or another takes it)."""
        self._loop = asyncio.get_running_loop()
        first: Row | None = None
        while True:
            row, taken = await self.store.runner.write(self._take)
            if taken:
                self.token = int(row["token"]) + 1
                if row["holder"] != self.holder:  # not already its own (taken by the start-up check)
                    lapsed = f", lapsed, from {row['holder']}" if row["holder"] else ""
                    log.info(f"lease taken: fencing token {self.token}{lapsed}")
                return
            now = self.clock.now()
            if first is None:
                first = row
                log.warning(f"the database's lease is held by {row['holder']} (since {moment(row['since'])}): "
                            f"waiting up to {row['expires'] - now:.1f} s for it to lapse")
            elif (row["holder"], row["token"], row["expires"]) != (first["holder"], first["token"], first["expires"]):
                raise in_use(row)
            await self.clock.sleep_until(min(row["expires"], now + self.seconds / POLLS))

    def _take(self, conn: Connection) -> tuple[Row, bool]:
        """The lease as it was, and whether this process took it."""
        row = dict(conn.execute(STATE.with_for_update()).one()._mapping)
        now = self.clock.now()
        if held_by_another(row, self.holder, now):
            return row, False
        conn.execute(update(lease).where(lease.c.id == ROW).values(
            holder=self.holder, token=row["token"] + 1, since=now, expires=now + self.seconds))
        return row, True

    def check(self, conn: Connection) -> None:
        """The fencing check, in every write transaction (``Store.guard``): raises
        :class:`LeaseLostError` unless the lease's token is still this process's."""
        if conn.execute(FENCE).scalar() != self.token:
            self._lose("another server took the database's lease over")
            raise LeaseLostError("this server lost the database's lease to another: it writes no more")

    def _lose(self, why: str) -> None:
        self.lost = why
        if self._loop is not None:  # the check may run in the database's thread
            self._loop.call_soon_threadsafe(self._lost.set)

    async def keep(self, on_lost: Callable[[], Awaitable[object]]) -> None:
        """Renew the lease every third of its time until it is found lost; then ``on_lost()``."""
        lost = asyncio.ensure_future(self._lost.wait())
        try:
            while not self._lost.is_set():
                tick = asyncio.ensure_future(self.clock.sleep_until(self.clock.now() + self.seconds / RENEWALS))
                await asyncio.wait((tick, lost), return_when=asyncio.FIRST_COMPLETED)
                tick.cancel()
                if not self._lost.is_set():
                    await self.renew()
        finally:
            lost.cancel()
        log.error(f"lease lost: {self.lost}; the tables stop")
        await on_lost()

    async def renew(self) -> None:
        """Move the lease's expiry on; a lease taken over meanwhile is lost. A database that cannot
        be reached is tried again at the next renewal (writes stay fenced meanwhile)."""
        kept = await self._unfenced("renewed", self._renew)
        if kept is False:
            self._lose("another server took the database's lease over (found at renewal)")

    def _renew(self, conn: Connection) -> bool:
        res = conn.execute(update(lease).where(lease.c.id == ROW, lease.c.token == self.token)
                           .values(expires=self.clock.now() + self.seconds))
        return res.rowcount == 1

    async def release(self) -> None:
        """Give the lease up (a clean stop), so that the next server takes it at once (if the
        database cannot be reached, the next waits for it to lapse)."""
        if self.token is not None and self.lost is None:
            await self._unfenced("released", lambda conn: conn.execute(
                update(lease).where(lease.c.id == ROW, lease.c.token == self.token).values(
                    holder=None, since=None, expires=0.0)).rowcount == 1)

    async def _unfenced(self, what: str, work: Callable[[Connection], bool]) -> bool | None:
        """``work`` on the lease row in a transaction of its own; ``None`` (logged) if the database
        cannot be reached."""
        try:
            return await self.store.runner.write(work)
        except (SQLAlchemyError, OSError) as exc:
            log.warning(f"lease not {what}: {str(exc).splitlines()[0]}")
            return None
