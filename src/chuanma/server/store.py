"""The server's database: SQLAlchemy 2 Core over SQLite (WAL) or PostgreSQL (asyncpg).

:func:`open_store` runs the Alembic migrations, then every read and write goes through
:class:`Store`. Money only moves in :meth:`Store.grant`, :meth:`Store.relieve`,
:meth:`Store.settle` and :func:`adjust_chips` (an operator's), each in one transaction with its
ledger rows, so the sum of all balances is always the sum of all grants, reliefs and adjustments.
What a settlement also writes (progression's figures) runs in a savepoint: its failure never undoes the money.

Every query is a function of a synchronous :class:`~sqlalchemy.Connection`; how it reaches the
database is the backend's :class:`Runner`: SQLite's whole transaction runs in one database
thread (one thread hop per call, and one writer at a time, as SQLite wants), PostgreSQL's through
the asyncpg driver on the event loop.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    ScalarSelect,
    and_,
    bindparam,
    create_engine,
    event,
    func,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from chuanma.server.honesty import Trust, Visit, escape_caps, log_visit, relief_earned, spend_grant
from chuanma.server.schema import GRANT_KINDS, decisions, hands, ledger, tables, tokens, users

log = logging.getLogger("chuanma.server.store")
MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK = 0x6368_7561_6E6D_61
"""PostgreSQL's advisory lock (key: "chuanma" in ASCII) held while the migrations run, so two
processes never migrate one database at once."""

Row = dict[str, Any]
T = TypeVar("T")
Work = Callable[[Connection], T]
"""One store call: its queries on a connection (in a transaction when it writes)."""
SettleHook = Callable[[Connection, str, Mapping[str, Any], Mapping[int, int], float], None]
"""What runs in a settlement's transaction besides the settlement (:attr:`Store.on_settle`)."""


def alembic_config(connection: Connection) -> Config:
    """Alembic's configuration for running the migrations on ``connection``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


@functools.cache
def schema_head() -> str:
    """The schema revision this release runs on (its last migration)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None
    return head


def _migrate(connection: Connection, revision: str, before: Work[None] | None, then: Work[None] | None) -> None:
    if connection.dialect.name == "postgresql":  # SQLite: the write transaction began IMMEDIATE already
        # the Python steps between the migrations' statements (a data migration, ``before``) are
        # not a stall: the sessions' idle timeout (``open_store``'s ``idle_seconds``) is off here
        connection.execute(text("SET LOCAL idle_in_transaction_session_timeout = 0"))
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    cfg = alembic_config(connection)
    target = ScriptDirectory.from_config(cfg).as_revision_number(revision)
    if before is not None and MigrationContext.configure(connection).get_current_revision() != target:
        before(connection)
    command.upgrade(cfg, revision)
    if then is not None:
        then(connection)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def sqlite_url(data_dir: Path) -> str:
    """The default database: ``chuanma.db`` in the data directory."""
    return f"sqlite:///{data_dir / 'chuanma.db'}"


class Runner(Protocol):
    """How a backend runs one store call."""

    async def read(self, work: Work[T]) -> T: ...

    async def write(self, work: Work[T]) -> T: ...

    async def close(self) -> None: ...


class ThreadRunner:
    """SQLite: each call on the database's own thread, with the standard synchronous driver."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite")

    def _read(self, work: Work[T]) -> T:
        with self.engine.connect() as conn:
            return work(conn)

    def _write(self, work: Work[T]) -> T:
        with self.engine.begin() as conn:
            # the driver would begin only at the first write: the reads before it (a name taken?
            # the balances dealt with) belong to the transaction too, the write lock taken at once
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            return work(conn)

    async def read(self, work: Work[T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.thread, self._read, work)

    async def write(self, work: Work[T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.thread, self._write, work)

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self.thread, self.engine.dispose)
        self.thread.shutdown()


class AsyncRunner:
    """PostgreSQL: each call through the async driver (SQLAlchemy runs the work in a greenlet)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def read(self, work: Work[T]) -> T:
        async with self.engine.connect() as conn:
            return await conn.run_sync(work)

    async def write(self, work: Work[T]) -> T:
        async with self.engine.begin() as conn:
            return await conn.run_sync(work)

    async def close(self) -> None:
        await self.engine.dispose()


async def open_store(url: str, revision: str = "head", before_migrating: Work[None] | None = None,
                     idle_seconds: float | None = None, then: Work[None] | None = None) -> Store:
    """Connect to ``url`` and bring its schema up to date, or up to ``revision`` (the migrations
    run here, in one transaction; on PostgreSQL under :data:`MIGRATION_LOCK`). ``before_migrating``
    runs first in that transaction when there is a migration to run, ``then`` last (migrations or
    not: the dealer key's admission): either raising leaves the schema as it was. On PostgreSQL,
    a transaction left idle for ``idle_seconds`` (its process stalled between two statements) is
    ended by the database, which frees its locks: a paused node's write in flight would otherwise
    hold its table's lease row from every node taking it over (the migrations' transaction has no
    such limit)."""
    parsed = make_url(url)
    runner: Runner
    if parsed.get_backend_name() == "sqlite":
        # no rollback when a connection goes back to the pool: every write transaction ends in its
        # own commit or rollback, and SQLite reads open none
        engine = create_engine(parsed.set(drivername="sqlite"), connect_args={"timeout": 30},
                               pool_reset_on_return=None)
        event.listen(engine, "connect", _sqlite_pragmas)
        runner = ThreadRunner(engine)
    else:
        settings = {} if idle_seconds is None else {
            "idle_in_transaction_session_timeout": str(max(1, round(idle_seconds * 1000)))}
        runner = AsyncRunner(create_async_engine(url, pool_size=10, max_overflow=20,
                                                 connect_args={"server_settings": settings}))
    try:
        await runner.write(lambda conn: _migrate(conn, revision, before_migrating, then))
    except BaseException:
        await runner.close()
        raise
    return Store(runner)


@dataclass(slots=True)
class _Batch:
    rows: list[dict[str, Any]]
    done: asyncio.Future[None]


def _one(row: Any) -> Row | None:
    return None if row is None else dict(row._mapping)


def _all(rows: Any) -> list[Row]:
    return [dict(r._mapping) for r in rows]


TOKEN_TOUCH = 60.0
"""A token's last use is written at most once a minute: the expiry is that much coarse."""
BALANCES = select(users.c.id, users.c.balance).where(users.c.id.in_(bindparam("ids", expanding=True)))
"""Built once: building a statement costs about as much as running it (read at every deal and settlement)."""


def named(username: str) -> ColumnElement[bool]:
    """The account named ``username`` without regard to case (what the unique index holds)."""
    return func.lower(users.c.username) == username.lower()


def _reliefs(conn: Connection, user_id: int, since: float) -> int:
    return int(conn.execute(select(func.count()).where(ledger.c.user_id == user_id, ledger.c.kind == "relief",
                                                       ledger.c.at >= since)).scalar_one())


def _balances(conn: Connection, user_ids: Iterable[int]) -> dict[int, int]:
    return {int(r.id): int(r.balance) for r in conn.execute(BALANCES, {"ids": list(user_ids)})}


ADJUSTMENT = "adjustment"
"""An operator's chips given or taken (a refund, a compensation, a removal: :mod:`chuanma.server.moderation`),
naming a hand or not; never part of a hand's zero sum."""
HAND_KINDS = ("hand", "escape")
"""The ledger rows a hand's settlement writes: those of one hand sum to zero."""


def grant_chips(conn: Connection, user_id: int, amount: int, now: float, kind: str = "grant") -> None:
    """In the transaction of ``conn``: give ``user_id`` ``amount`` chips, with its ledger row of
    ``kind`` (one of :data:`GRANT_KINDS`)."""
    conn.execute(ledger.insert().values(user_id=user_id, amount=amount, kind=kind, at=now))
    conn.execute(update(users).where(users.c.id == user_id).values(balance=users.c.balance + amount))
    noted(conn, [(kind, amount)])


LEDGER_NOTES = "chuanma.ledger"
"""The ``conn.info`` key of the ledger rows a write transaction made, as (kind, amount):
:meth:`Store.write` hands them to :attr:`Store.on_ledger` once the transaction committed."""


def noted(conn: Connection, rows: Iterable[tuple[str, int]]) -> None:
    """Note ledger rows written in ``conn``'s transaction (told once it commits)."""
    conn.info.setdefault(LEDGER_NOTES, []).extend(rows)


class NegativeBalanceError(ValueError):
    """An adjustment that would take a balance below zero (nothing was written)."""

    def __init__(self, balance: int, amount: int) -> None:
        super().__init__(f"amount: the balance is {balance:,}; taking {-amount:,} would leave it below zero")
        self.balance = balance


def adjust_chips(conn: Connection, user_id: int, amount: int, now: float, hand_id: str | None) -> int:
    """In the transaction of ``conn``: add ``amount`` (below zero: take) to ``user_id``'s chips, with
    its ledger row of kind :data:`ADJUSTMENT` naming ``hand_id`` (or none); returns the new balance.
    Raises :class:`NegativeBalanceError` if the balance, read on the locked row, would go below zero."""
    balance = int(conn.execute(select(users.c.balance).where(users.c.id == user_id).with_for_update()).scalar_one())
    if balance + amount < 0:
        raise NegativeBalanceError(balance, amount)
    conn.execute(ledger.insert().values(user_id=user_id, amount=amount, kind=ADJUSTMENT, hand_id=hand_id, at=now))
    conn.execute(update(users).where(users.c.id == user_id).values(balance=users.c.balance + amount))
    noted(conn, [(ADJUSTMENT, amount)])
    return balance + amount


class Store:
    """Typed queries over the server's tables."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.guard: Callable[[Connection], None] | None = None
        """Run first in every write transaction (the lease's fencing check): raising rolls it back."""
        self.on_settle: SettleHook | None = None
        """Run last in every settlement's transaction, with the hand's id, record, deltas by user
        and time (progression's figures), in a savepoint: raising rolls back what it wrote, never
        the settlement (logged, and handed to :attr:`on_settle_failed`)."""
        self.on_settle_failed: Callable[[Exception], None] | None = None
        """Told of every :attr:`on_settle` that raised (the metric counting them)."""
        self.on_ledger: Callable[[list[tuple[str, int]]], None] | None = None
        """Told, after each write transaction that committed ledger rows, their kinds and amounts
        (the economy's metrics)."""
        self._batch_lock = asyncio.Lock()
        self._open_batch: _Batch | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def fenced(self, guard: Callable[[Connection], None]) -> Store:
        """This store's database with another :attr:`guard` (a table's lease in a cluster): its
        writes check ``guard`` first; closing it is closing this store."""
        store = Store(self.runner)
        store.guard, store.on_settle, store.on_settle_failed = guard, self.on_settle, self.on_settle_failed
        store.on_ledger = self.on_ledger
        return store

    async def read(self, work: Work[T]) -> T:
        """Run ``work`` (queries that change nothing) and return what it returns."""
        return await self.runner.read(work)

    async def write(self, work: Work[T]) -> T:
        """Run ``work`` in one transaction (committed when it returns, rolled back if it raises),
        after the :attr:`guard` in the same transaction; the ledger rows it wrote are told to
        :attr:`on_ledger` once it committed."""
        guard = self.guard

        def noting(conn: Connection) -> tuple[T, list[tuple[str, int]]]:
            conn.info[LEDGER_NOTES] = []
            if guard is not None:
                guard(conn)
            done = work(conn)
            return done, conn.info.pop(LEDGER_NOTES)
        done, rows = await self.runner.write(noting)
        if rows and self.on_ledger is not None:
            self.on_ledger(rows)
        return done

    async def flush(self) -> None:
        """Wait for the decisions being committed."""
        await asyncio.gather(*self._tasks)

    async def close(self) -> None:
        await self.runner.close()

    async def ping(self) -> None:
        await self.read(lambda conn: conn.execute(select(1)).all())

    # ------------------------------------------------------------------ accounts

    async def create_user(self, username: str, password_hash: str | None, kind: str, grant: int,
                          now: float, visit: Visit | None = None,
                          grants: tuple[int, float] | None = None) -> int | None:
        """A new account with its starting ``grant`` (logged); ``None`` if the name is taken in any
        case (the database's unique index decides when two registrations race). Made for ``visit``
        (a registration or a guest), it is kept in ``logins``; with ``grants`` (at most so many from
        this time on), :class:`~chuanma.server.honesty.GrantsSpentError` if the address had them."""
        def work(conn: Connection) -> int | None:
            if conn.execute(select(users.c.id).where(named(username))).first() is not None:
                return None
            if visit is not None and grants is not None:
                spend_grant(conn, visit, *grants)
            res = conn.execute(users.insert().values(
                username=username, password_hash=password_hash, kind=kind, balance=0, created_at=now))
            user_id = int(res.inserted_primary_key[0])  # type: ignore[index]
            grant_chips(conn, user_id, grant, now)
            if visit is not None:
                log_visit(conn, user_id, "guest" if kind == "guest" else "register", visit, now)
            return user_id
        try:
            return await self.write(work)
        except IntegrityError:
            return None

    async def claim_guest(self, user_id: int, username: str, password_hash: str,
                          visit: Visit | None = None, now: float = 0.0) -> Row | None:
        """Guest ``user_id`` registered as ``username`` with this password: the same account, so
        its chips, hands and ledger stay its own; ``None`` if it is no guest or the name is taken.
        A ``visit`` is kept in ``logins`` (a claim)."""
        def work(conn: Connection) -> Row | None:
            if conn.execute(select(users.c.id).where(named(username))).first() is not None:
                return None
            done = conn.execute(update(users).where(users.c.id == user_id, users.c.kind == "guest").values(
                username=username, password_hash=password_hash, kind="player"))
            if done.rowcount != 1:
                return None
            if visit is not None:
                log_visit(conn, user_id, "claim", visit, now)
            return _one(conn.execute(select(users).where(users.c.id == user_id)).first())
        try:
            return await self.write(work)
        except IntegrityError:
            return None

    async def user_by_name(self, username: str) -> Row | None:
        """The account named ``username`` in any case."""
        return await self.read(lambda conn: _one(conn.execute(select(users).where(named(username))).first()))

    async def user(self, user_id: int) -> Row | None:
        return await self.read(lambda conn: _one(conn.execute(select(users).where(users.c.id == user_id)).first()))

    async def balances(self, user_ids: Sequence[int]) -> dict[int, int]:
        return await self.read(lambda conn: _balances(conn, user_ids))

    async def add_token(self, digest: str, user_id: int, now: float, visit: Visit | None = None) -> None:
        """A new session token of ``user_id``; with a ``visit``, the login is kept in ``logins``."""
        def work(conn: Connection) -> None:
            conn.execute(tokens.insert().values(digest=digest, user_id=user_id, created_at=now, last_used=now))
            if visit is not None:
                log_visit(conn, user_id, "login", visit, now)
        await self.write(work)
    async def user_for_token(self, digest: str, now: float, idle: float) -> Row | None:
        """The user of the token with this ``digest`` if it was last used less than ``idle`` seconds
        before ``now``; marks it used now (at most once every :data:`TOKEN_TOUCH` seconds: most
        requests only read). An expired token is deleted."""
        q = select(users, tokens.c.last_used).join(tokens, tokens.c.user_id == users.c.id).where(
            tokens.c.digest == digest)
        row = await self.read(lambda conn: _one(conn.execute(q).first()))
        if row is None:
            return None
        last_used = row.pop("last_used")
        if now - last_used >= idle:
            await self.write(lambda conn: conn.execute(tokens.delete().where(tokens.c.digest == digest)))
            return None
        if now - last_used >= TOKEN_TOUCH:
            await self.write(lambda conn: conn.execute(update(tokens).where(tokens.c.digest == digest)
                                                       .values(last_used=now)))
        return row

    async def drop_token(self, digest: str, every: bool = False, keep_this: bool = False) -> None:
        """Delete the token with this ``digest`` or, with ``every``, every token of its user (but
        this one, with ``keep_this``)."""
        def work(conn: Connection) -> None:
            if every:
                owner = select(tokens.c.user_id).where(tokens.c.digest == digest).scalar_subquery()
                spared = tokens.c.digest != digest if keep_this else true()
                conn.execute(tokens.delete().where(tokens.c.user_id == owner, spared))
            else:
                conn.execute(tokens.delete().where(tokens.c.digest == digest))
        await self.write(work)

    # ------------------------------------------------------------------ chips

    async def grant(self, user_id: int, amount: int, now: float) -> None:
        """Give ``user_id`` ``amount`` chips of play money, logged as a grant."""
        await self.write(lambda conn: grant_chips(conn, user_id, amount, now))

    async def reliefs_since(self, user_id: int, since: float) -> int:
        """How many reliefs ``user_id`` was paid from ``since`` on (their ledger rows)."""
        return await self.read(lambda conn: _reliefs(conn, user_id, since))

    async def relief_hands_left(self, user_id: int, hands_needed: int) -> int:
        """The rated hands ``user_id`` must still play before a relief (0: none)."""
        return await self.read(lambda conn: relief_earned(conn, user_id, hands_needed))

    async def relieve(self, user_id: int, lowest: int, target: int, now: float, since: float,
                      per_period: int, hands_needed: int = 0) -> Row | None:
        """The user, first brought back to ``target`` chips (a logged relief) if their balance is
        below ``lowest``, they were paid fewer than ``per_period`` reliefs from ``since`` on and
        played ``hands_needed`` rated hands since their last grant or relief.

        The rules are checked again, on the locked row, in the transaction that pays: requests at
        once pay it once."""
        row = await self.user(user_id)
        if (row is None or row["balance"] >= lowest or await self.reliefs_since(user_id, since) >= per_period
                or await self.relief_hands_left(user_id, hands_needed)):
            return row

        def work(conn: Connection) -> Row | None:
            # FOR UPDATE on PostgreSQL; SQLite's write transaction holds the database's write lock
            balance = conn.execute(select(users.c.balance).where(users.c.id == user_id, users.c.balance < lowest)
                                   .with_for_update()).scalar()
            if (balance is not None and _reliefs(conn, user_id, since) < per_period
                    and relief_earned(conn, user_id, hands_needed) == 0):
                grant_chips(conn, user_id, target - int(balance), now, "relief")
            return _one(conn.execute(select(users).where(users.c.id == user_id)).first())
        return await self.write(work)

    async def settle(self, hand_id: str, record: Mapping[str, Any], deltas: Mapping[int, int],
                     kinds: Mapping[int, str], now: float) -> dict[int, int] | None:
        """Store a finished hand's record and move its chips, all in one transaction; returns the
        balances of the users in ``deltas`` after it.

        Returns None (and changes nothing) when the hand was already settled: nothing is paid twice.
        """
        def work(conn: Connection) -> dict[int, int] | None:
            res = conn.execute(update(hands).where(hands.c.id == hand_id, hands.c.status == "playing")
                               .values(status="settled", record=dict(record), finished_at=now))
            if res.rowcount != 1:
                return None
            if deltas:  # an executemany of no rows would be one insert of no values
                conn.execute(ledger.insert(), [
                    {"user_id": user_id, "amount": delta, "kind": kinds.get(user_id, "hand"), "hand_id": hand_id,
                     "at": now} for user_id, delta in deltas.items()])
                conn.execute(update(users).where(users.c.id == bindparam("uid")).values(
                    balance=users.c.balance + bindparam("delta")),
                    [{"uid": user_id, "delta": delta} for user_id, delta in deltas.items()])
                noted(conn, [(kinds.get(user_id, "hand"), delta) for user_id, delta in deltas.items()])
            if self.on_settle is not None:
                self._after_settling(conn, self.on_settle, hand_id, record, deltas, now)
            return _balances(conn, deltas)
        return await self.write(work)

    def _after_settling(self, conn: Connection, hook: SettleHook, hand_id: str, record: Mapping[str, Any],
                        deltas: Mapping[int, int], now: float) -> None:
        """Run ``hook`` in a savepoint of the settlement's transaction: the chips, ledger and record
        commit whether it succeeds or not (what it would have written can be made again from them)."""
        try:
            with conn.begin_nested():
                hook(conn, hand_id, record, deltas, now)
        except Exception as exc:  # the settlement goes on: its figures can be rebuilt from the records
            log.exception("hand settled without its figures", extra={"hand": hand_id, "reason": repr(exc)})
            if self.on_settle_failed is not None:
                self.on_settle_failed(exc)

    async def audit(self) -> dict[str, int]:
        """The chips invariants: total balances, total grants (and reliefs), total adjustments, the most
        negative balance and the number of hands whose ledger rows do not sum to zero. ``balances`` is
        ``grants + adjustments`` while every chip moved with its ledger row."""
        def work(conn: Connection) -> dict[str, int]:
            def total(*kinds: str) -> ScalarSelect[Any]:
                amounts = select(func.coalesce(func.sum(ledger.c.amount), 0)).where(ledger.c.kind.in_(kinds))
                return amounts.scalar_subquery()
            # one statement, so one snapshot (PostgreSQL gives each statement of a transaction its own):
            # an account made between two reads would count in the grants and not in the balances
            balance, grants, adjustments, lowest = conn.execute(select(
                select(func.coalesce(func.sum(users.c.balance), 0)).scalar_subquery(), total(*GRANT_KINDS),
                total(ADJUSTMENT), select(func.coalesce(func.min(users.c.balance), 0)).scalar_subquery())).one()
            per_hand = select(ledger.c.hand_id).where(ledger.c.hand_id.is_not(None), ledger.c.kind.in_(HAND_KINDS)
                                                      ).group_by(ledger.c.hand_id).having(
                func.sum(ledger.c.amount) != 0).subquery()
            unbalanced = conn.execute(select(func.count()).select_from(per_hand)).scalar_one()
            hands_settled = conn.execute(select(func.count()).where(hands.c.status == "settled")).scalar_one()
            return {"balances": int(balance), "grants": int(grants), "adjustments": int(adjustments),
                    "lowest": int(lowest), "unbalanced_hands": int(unbalanced), "hands": int(hands_settled)}
        return await self.read(work)

    async def ledger_of(self, user_id: int) -> list[Row]:
        q = select(ledger).where(ledger.c.user_id == user_id).order_by(ledger.c.id)
        return await self.read(lambda conn: _all(conn.execute(q)))

    # ------------------------------------------------------------------ tables and hands

    async def create_table(self, row: Mapping[str, Any]) -> None:
        await self.write(lambda conn: conn.execute(tables.insert().values(**row)))

    async def open_tables(self) -> list[Row]:
        return await self.read(lambda conn: _all(conn.execute(select(tables).where(tables.c.status == "open"))))

    async def live_tables(self) -> list[Row]:
        """Every open table (whichever process runs it): its row, the number, id and status of its last
        hand (``None`` before the first) and its seats' accounts (``users``: id, username, kind)."""
        def work(conn: Connection) -> list[Row]:
            is_open = tables.c.status == "open"
            last = (select(hands.c.table_id, func.max(hands.c.number).label("number"))
                    .where(hands.c.table_id.in_(select(tables.c.id).where(is_open)))
                    .group_by(hands.c.table_id).subquery())
            q = (select(tables, last.c.number, hands.c.id.label("hand_id"), hands.c.status.label("hand_status"))
                 .outerjoin(last, last.c.table_id == tables.c.id)
                 .outerjoin(hands, and_(hands.c.table_id == tables.c.id, hands.c.number == last.c.number))
                 .where(is_open).order_by(tables.c.created_at, tables.c.id))
            rows = _all(conn.execute(q))
            seated = {int(u) for row in rows for u in row["seats"] if u is not None}
            accounts = {int(r.id): dict(r._mapping) for r in conn.execute(
                select(users.c.id, users.c.username, users.c.kind).where(users.c.id.in_(seated)))}
            for row in rows:
                row["users"] = [None if u is None else accounts[int(u)] for u in row["seats"]]
            return rows
        return await self.read(work)

    async def table_by_invite(self, invite: str) -> Row | None:
        return await self.read(lambda conn: _one(conn.execute(select(tables).where(tables.c.invite == invite))
                                                 .first()))

    async def create_hand(self, row: Mapping[str, Any]) -> None:
        await self.write(lambda conn: conn.execute(hands.insert().values(**row)))

    async def deal_hand(self, hand_id: str, seats: Sequence[int], client_seeds: Sequence[str | None],
                        trust: Trust | None = None) -> tuple[list[int], list[int | None]]:
        """Mark a hand dealt with these client seeds to these users (by seat) and store the balances
        they sit down with and, with ``trust``, the most an escape may cost each
        (:func:`~chuanma.server.honesty.escape_caps`); returns both (by seat). One transaction (a
        player sits at one table at a time: no other hand of theirs settles meanwhile)."""
        def work(conn: Connection) -> tuple[list[int], list[int | None]]:
            found = _balances(conn, seats)
            balances = [found[u] for u in seats]
            caps: list[int | None] = escape_caps(conn, seats, trust) if trust is not None else [None] * len(seats)
            conn.execute(update(hands).where(hands.c.id == hand_id).values(
                status="playing", client_seeds=list(client_seeds), seats=list(seats), balances=balances,
                escape_caps=caps))
            return balances, caps
        return await self.write(work)

    async def hand(self, hand_id: str) -> Row | None:
        return await self.read(lambda conn: _one(conn.execute(select(hands).where(hands.c.id == hand_id)).first()))

    async def last_hand(self, table_id: str, settled: bool = False) -> Row | None:
        """The last hand of ``table_id`` (``settled``: the last settled one); ``None`` if none."""
        q = select(hands).where(hands.c.table_id == table_id, *([hands.c.status == "settled"] if settled else []))
        q = q.order_by(hands.c.number.desc()).limit(1)
        return await self.read(lambda conn: _one(conn.execute(q).first()))

    async def add_decisions(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Store decisions (with the events they caused); returns once they are committed.

        Group commit: the decisions of every table that arrive while a batch is being written go
        into the next batch, one transaction for all of them.
        """
        if not rows:
            return
        batch = self._open_batch
        if batch is None:
            batch = self._open_batch = _Batch([], asyncio.get_running_loop().create_future())
            self._tasks.add(task := asyncio.create_task(self._commit(batch)))
            task.add_done_callback(self._tasks.discard)
        batch.rows.extend(dict(r) for r in rows)
        await asyncio.shield(batch.done)

    async def _commit(self, batch: _Batch) -> None:
        async with self._batch_lock:
            if self._open_batch is batch:
                self._open_batch = None
            try:
                await self.write(lambda conn: conn.execute(decisions.insert(), batch.rows))
            except Exception as exc:  # every table waiting on this batch gets the failure
                batch.done.set_exception(exc)
            else:
                batch.done.set_result(None)

    async def decisions_of(self, hand_id: str) -> list[Row]:
        q = select(decisions).where(decisions.c.hand_id == hand_id).order_by(decisions.c.idx)
        return await self.read(lambda conn: _all(conn.execute(q)))

    async def hands_of(self, user_id: int, limit: int | None = 50) -> list[Row]:
        """A player's settled hands, newest first (their ids, tables, numbers and results; ``limit``
        ``None``: all)."""
        q = (select(hands.c.id, hands.c.table_id, hands.c.number, hands.c.seats, hands.c.finished_at,
                    ledger.c.amount)
             .join(ledger, ledger.c.hand_id == hands.c.id)
             .where(ledger.c.user_id == user_id, ledger.c.kind.in_(HAND_KINDS), hands.c.status == "settled")
             .order_by(hands.c.finished_at.desc()).limit(limit))
        return await self.read(lambda conn: _all(conn.execute(q)))
