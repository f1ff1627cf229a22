"""The database's lease: one server process at a time writes to a database; a second refuses to
start while the first renews, starts at once after a clean stop and once the lease lapses after
a crash; a process whose lease was taken over can never write again (the fencing token)."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import asyncpg
import httpx
import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from fastapi import FastAPI
from sqlalchemy import func, select, text, update

from chuanma.fairness.keys import write_key
from chuanma.server.app import create_app
from chuanma.server.clock import ManualClock
from chuanma.server.config import ServerConfig
from chuanma.server.host import LocalHost
from chuanma.server.lease import Lease, LeaseHeldError, LeaseLostError
from chuanma.server.schema import decisions, lease, users
from chuanma.server.store import MIGRATION_LOCK, MIGRATIONS, AsyncRunner, Row, Store, alembic_config, open_store
from server_harness import DEALER_KEY, TIMEOUT, Client, account, db_url, lock_waited, make_config, pg_database, running

__all__ = ["db_url", "pg_database"]
LEASE = 1.0


@asynccontextmanager
async def started(config: ServerConfig) -> AsyncIterator[FastAPI]:
    """The app started and stopped (its lifespan), without HTTP."""
    app = create_app(config)
    async with app.router.lifespan_context(app):
        yield app


async def lease_row(store: Store) -> Row:
    return await store.read(lambda conn: dict(conn.execute(select(lease)).one()._mapping))


async def logged(caplog: pytest.LogCaptureFixture, words: str) -> None:
    while not any(words in r.getMessage() for r in caplog.records):
        await asyncio.sleep(0.01)


def test_a_second_server_refuses_to_start_while_the_first_renews(db_url: str,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with started(make_config(db_url, clock=clock, lease_seconds=LEASE)) as first:
            holder = first.state.lease.holder
            store = first.state.server.store
            expiry = (await lease_row(store))["expires"]
            second = asyncio.create_task(AsyncExitStack().enter_async_context(
                started(make_config(db_url, clock=clock, lease_seconds=LEASE))))
            await logged(caplog, "waiting up to 1.0 s for it to lapse")
            clock.advance(LEASE / 2)  # the first renews at a third of its lease time
            while (await lease_row(store))["expires"] == expiry:
                await asyncio.sleep(0.01)
            clock.advance(LEASE / 10)  # the second looks again before the old expiry: renewed
            refusal = re.escape(f"in use by another server ({holder}, since ")
            with pytest.raises(LeaseHeldError, match=refusal):
                await second
            row = await lease_row(store)
            assert row["holder"] == holder and row["token"] == first.state.lease.token
            assert await store.create_user("still_writes", None, "guest", 5, clock.now()) is not None
    asyncio.run(scenario())


def test_a_cleanly_stopped_servers_lease_is_taken_at_once(db_url: str) -> None:
    async def scenario() -> None:
        async with started(make_config(db_url, lease_seconds=LEASE)) as first:
            token = first.state.lease.token
        # the clocks never move: a lease not released would keep the second waiting
        async with started(make_config(db_url, lease_seconds=LEASE)) as second:
            row = await lease_row(second.state.server.store)
            assert second.state.lease.token == token + 1 == row["token"]
            assert row["holder"] == second.state.lease.holder
    asyncio.run(scenario())


def test_after_a_crash_the_next_server_starts_once_the_lease_lapses(db_url: str,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        store = await open_store(db_url)
        crashed = Lease(store, ManualClock(), LEASE, "crashed:1:000000")
        await crashed.take()  # and never renewed nor released
        await store.close()
        clock = ManualClock()
        async with AsyncExitStack() as stack:
            second = asyncio.create_task(stack.enter_async_context(
                started(make_config(db_url, clock=clock, lease_seconds=LEASE))))
            await logged(caplog, "the database's lease is held by crashed:1:000000")
            assert not second.done()
            clock.advance(LEASE)
            app = await second
            assert app.state.lease.token == crashed.token + 1
    asyncio.run(scenario())


async def stopped(host: LocalHost) -> None:
    while host.tables:
        await asyncio.sleep(0.01)


def test_a_server_whose_lease_was_taken_over_never_writes_again(db_url: str) -> None:
    async def count(store: Store) -> int:
        return int(await store.read(lambda conn: conn.execute(select(func.count()).select_from(decisions))
                                    .scalar_one()))

    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0, lease_seconds=LEASE)) as run:
            acc = await account(run.base)
            c = await Client.open(run.base, acc["token"], acc["user"]["username"])
            await c.send("join", room="chuji-xuezhan", bots=True)
            await c.expect("seated")
            await c.send("ready")
            prompt = await c.expect("prompt")
            store = run.server.store
            stored = await count(store)
            hand = (await store.last_hand(prompt["table"]))
            assert hand is not None and hand["status"] == "playing"
            # this server is paused (its clock stands still: no renewal) while another takes over
            other = await open_store(db_url)
            try:
                await Lease(other, ManualClock(run.clock.now() + LEASE), LEASE, "other:2:000000").take()
                await c.send("act", table=prompt["table"], version=prompt["version"], action=prompt["legal"][0])
                await asyncio.wait_for(stopped(run.server.host), TIMEOUT)  # its decision refused, tables stop
                with pytest.raises(LeaseLostError):
                    await store.settle(hand["id"], {}, {acc["user"]["id"]: 100}, {}, run.clock.now())
                with pytest.raises(LeaseLostError):
                    await store.add_decisions([{"hand_id": hand["id"], "idx": 10_000, "seat": 0, "action": {},
                                                "by": "bot", "events": [], "at": 0.0}])
                assert await count(other) == stored
                assert (await other.hand(hand["id"]) or {})["status"] == "playing"
                assert (await other.user(acc["user"]["id"]) or {})["balance"] == acc["user"]["balance"]
            finally:
                await other.close()
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                health = await http.get("/healthz")
                refused = await http.post("/api/guest")
            assert health.status_code == 503 and health.json()["status"] == "lease_lost"
            assert refused.status_code == 503 and refused.json()["code"] == "lease_lost"
    asyncio.run(scenario())


def test_a_server_that_finds_at_renewal_its_lease_taken_over_stops_its_tables(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0, lease_seconds=LEASE)) as run:
            acc = await account(run.base)
            c = await Client.open(run.base, acc["token"], acc["user"]["username"])
            await c.send("join", room="chuji-xuezhan", bots=True)
            await c.expect("seated")  # the table waits for the player to be ready: it writes nothing
            other = await open_store(db_url)
            try:
                await Lease(other, ManualClock(run.clock.now() + LEASE), LEASE, "other:2:000000").take()
                taken = await lease_row(other)
                run.clock.advance(LEASE / 2)  # this server's renewal finds the lease another's
                await asyncio.wait_for(stopped(run.server.host), TIMEOUT)
                assert await lease_row(other) == taken
            finally:
                await other.close()
            assert run.app.state.lease.lost == "another server took the database's lease over (found at renewal)"
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                assert (await http.get("/healthz")).json()["status"] == "lease_lost"
    asyncio.run(scenario())


def test_on_postgresql_a_take_over_waits_for_the_fenced_writes_in_flight(pg_database: str) -> None:
    async def scenario() -> None:
        store, other = await open_store(pg_database), await open_store(pg_database)
        try:
            holder = Lease(store, ManualClock(), LEASE, "paused:1:000000")
            await holder.take()
            assert isinstance(store.runner, AsyncRunner)
            async with store.runner.engine.begin() as conn:  # a write of the holder's, checked, in flight
                await conn.run_sync(holder.check)
                taker = asyncio.create_task(Lease(other, ManualClock(holder.clock.now() + LEASE), LEASE,
                                                  "other:2:000000").take())
                await asyncio.wait_for(lock_waited(other), TIMEOUT)  # the take-over waits for it
                assert not taker.done()
            await asyncio.wait_for(taker, TIMEOUT)
            store.guard = holder.check
            with pytest.raises(LeaseLostError):
                await store.create_user("too_late", None, "guest", 5, 0.0)
        finally:
            await store.close()
            await other.close()
    asyncio.run(scenario())


def test_serve_on_a_database_another_live_server_holds_refuses_in_one_line(tmp_path: Any) -> None:
    """The first server's clock is an hour ahead: its lease never lapses for the second (with the
    same dealer key), which refuses once it sees it renewed."""
    async def scenario() -> None:
        db = f"sqlite:///{tmp_path / 'chuanma.db'}"
        clock = ManualClock(time.time() + 3600)
        key = write_key(DEALER_KEY, tmp_path / "dealer.key")
        async with running(make_config(db, clock=clock, lease_seconds=LEASE)) as run:
            proc = subprocess.Popen([sys.executable, "-m", "chuanma", "serve", "--port", "0", "--db", db,
                                     "--data", str(tmp_path), "--key", str(key), "--lease-seconds", str(LEASE)],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                assert proc.stderr is not None
                waiting = json.loads(await asyncio.to_thread(proc.stderr.readline))
                assert waiting["level"] == "warning" and run.app.state.lease.holder in waiting["message"]
                clock.advance(LEASE / 2)  # the first renews
                out, err = await asyncio.to_thread(proc.communicate, timeout=60)
            finally:
                proc.kill()
        assert proc.returncode == 2 and "Traceback" not in err and out == "", err
        said = " ".join(err.replace("│", " ").split())  # the error's box, wrapped at 80 columns
        assert f"--db: the database is in use by another server ({run.app.state.lease.holder}, since " in said
    asyncio.run(scenario())


def test_the_lease_migration_keeps_the_rows_of_an_older_database(db_url: str) -> None:
    async def scenario() -> None:
        store = await open_store(db_url)
        await store.runner.write(lambda conn: command.downgrade(alembic_config(conn), "0001"))
        assert await store.create_user("before_lease", None, "guest", 500, 1.0) is not None
        await store.close()
        store = await open_store(db_url)
        try:
            row = await lease_row(store)
            assert (row["holder"], row["token"]) == (None, 0)
            names = await store.read(lambda conn: list(conn.execute(select(users.c.username)).scalars()))
            assert names == ["before_lease"]
        finally:
            await store.close()
    asyncio.run(scenario())



def test_a_server_never_migrates_a_database_another_live_server_holds(db_url: str) -> None:
    """A database a revision behind, its lease held by a live older server: a newer server refuses to
    start at once and leaves the schema as the older one uses it."""
    async def scenario() -> None:
        config = make_config(db_url)
        store = await open_store(db_url, "0004")
        try:
            await store.write(lambda conn: conn.execute(update(lease).values(
                holder="older", token=1, since=0.0, expires=config.clock.now() + 60)))
            with pytest.raises(LeaseHeldError, match=re.escape("in use by another server (older, since ")):
                await asyncio.wait_for(AsyncExitStack().enter_async_context(started(config)), TIMEOUT)
            version = text("SELECT version_num FROM alembic_version")
            assert await store.read(lambda conn: conn.execute(version).scalar()) == "0004"
        finally:
            await store.close()
    asyncio.run(scenario())


def test_on_postgresql_a_process_waits_for_another_ones_migrations(pg_database: str) -> None:
    """While another session holds the migrations' lock, opening the database waits, having migrated
    nothing; once the lock is released it migrates."""
    async def waiting(admin: asyncpg.Connection) -> None:
        while not await admin.fetchval("SELECT count(*) FROM pg_locks JOIN pg_database ON database = pg_database.oid "
                                       "WHERE locktype = 'advisory' AND NOT granted AND datname = current_database()"):
            await asyncio.sleep(0.01)

    async def scenario() -> None:
        admin = await asyncpg.connect(pg_database.replace("postgresql+asyncpg", "postgresql"), timeout=TIMEOUT)
        try:
            await admin.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            opening = asyncio.create_task(open_store(pg_database))
            await asyncio.wait_for(waiting(admin), TIMEOUT)
            assert await admin.fetchval("SELECT to_regclass('users')") is None
            await admin.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
            store = await asyncio.wait_for(opening, TIMEOUT)
            await store.close()
            scripts = Config()
            scripts.set_main_option("script_location", str(MIGRATIONS))
            head = ScriptDirectory.from_config(scripts).get_current_head()
            assert await admin.fetchval("SELECT version_num FROM alembic_version") == head
        finally:
            await admin.close()
    asyncio.run(scenario())
