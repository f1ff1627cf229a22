"""One dealer key per cluster and a key's life (docs/operations.md, Dealer keys), and a copy of the
cluster's database that never joins the original (docs/operations.md, Backup and restore)."""

from __future__ import annotations

import asyncio
import functools
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from sqlalchemy import select, text, update
from typer.testing import CliRunner

from chuanma.cli import app as cli
from chuanma.fairness import VRFKey
from chuanma.fairness.keys import signing_key_of, write_key
from chuanma.server.bus import Bus
from chuanma.server.clock import ManualClock
from chuanma.server.cluster import ClusterHost
from chuanma.server.dealer_keys import DealerKeyRefused, add, admission, published, retire
from chuanma.server.metrics import Metrics
from chuanma.server.schema import cluster_nodes, hands, lease, table_leases, tables
from chuanma.server.store import alembic_config, open_store, schema_head, sqlite_url
from chuanma.server.table_leases import ClusterCopyError, TableLeases, cluster_prefix, upgrade_check
from cluster_harness import DEALER, REDIS, cluster_db
from server_harness import (
    DEALER_KEY,
    TIMEOUT,
    create_pg_database,
    db_url,
    deal,
    drop_pg_database,
    make_config,
    pg_database,
    running,
    seat_four,
)

__all__ = ["cluster_db", "db_url", "pg_database"]

OTHER_KEY = VRFKey(bytes(range(90, 122)))
LEASE = 3.0


def short(key: VRFKey) -> str:
    return key.public_key.hex()[:16]


def said(result: Any) -> str:
    """What a command printed, as one line (the error box's borders and line breaks dropped)."""
    return " ".join(str(result.output).replace("│", " ").split())


def test_the_first_key_is_the_databases_and_another_is_admitted_only_once_added(db_url: str) -> None:
    """The first server's key becomes the database's; a server with another key is refused, naming
    both, until that key is added (a rotation); the old key is retired only once no unfinished hand
    names it and another deals, and a retired key is refused for good. Every key stays published."""
    async def scenario() -> None:
        store = await open_store(db_url)
        try:
            await store.runner.write(admission(DEALER_KEY, 100.0))
            await store.runner.write(admission(DEALER_KEY, 101.0))  # the same key again: admitted, nothing added
            with pytest.raises(DealerKeyRefused, match=re.escape(
                    f"dealer key {short(OTHER_KEY)} is not the database's ({short(DEALER_KEY)})")):
                await store.runner.write(admission(OTHER_KEY, 102.0))
            with pytest.raises(DealerKeyRefused, match="the only one that deals"):
                await retire(store, DEALER, 103.0)
            assert await add(store, OTHER_KEY, 104.0) and not await add(store, OTHER_KEY, 105.0)
            await store.runner.write(admission(OTHER_KEY, 106.0))
            await store.runner.write(lambda conn: conn.execute(tables.insert().values(
                id="t1", room="private", rules={}, seats=[None] * 4, status="open", created_at=0.0)))
            await store.runner.write(lambda conn: conn.execute(hands.insert().values(
                id="t1-0", table_id="t1", number=0, server_seed="", commitment="", public_key=DEALER,
                session={}, seats=[None] * 4, status="playing")))
            with pytest.raises(DealerKeyRefused, match="1 unfinished hand"):
                await retire(store, DEALER[:10], 107.0)
            await store.runner.write(lambda conn: conn.execute(update(hands).values(status="settled")))
            assert (await retire(store, DEALER[:10], 108.0)).retired == 108.0
            with pytest.raises(DealerKeyRefused, match="was retired"):
                await store.runner.write(admission(DEALER_KEY, 109.0))
            with pytest.raises(DealerKeyRefused, match="was retired"):
                await add(store, DEALER_KEY, 109.0)
            with pytest.raises(DealerKeyRefused, match="names no dealer key"):
                await retire(store, "ffff", 110.0)
            listed = [k.to_json() for k in await published(store)]
            assert listed == [
                {"vrf_public_key": DEALER, "public_key": signing_key_of(DEALER_KEY).public_key.hex(),
                 "added": 100.0, "retired": 108.0},
                {"vrf_public_key": OTHER_KEY.public_key.hex(), "public_key": signing_key_of(OTHER_KEY).public_key.hex(),
                 "added": 104.0, "retired": None}]
        finally:
            await store.close()
    asyncio.run(scenario())


def test_the_server_publishes_every_key_with_its_dates(db_url: str) -> None:
    async def scenario() -> None:
        store = await open_store(db_url)
        try:
            await store.runner.write(admission(OTHER_KEY, 50.0))
            await add(store, DEALER_KEY, 60.0)
            await retire(store, OTHER_KEY.public_key.hex(), 70.0)
        finally:
            await store.close()
        async with running(make_config(db_url)) as run, httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
            keys = (await http.get("/api/fairness/keys")).json()["keys"]
        assert [(k["vrf_public_key"], k["added"], k["retired"]) for k in keys] == [
            (OTHER_KEY.public_key.hex(), 50.0, 70.0), (DEALER, 60.0, None)]
    asyncio.run(scenario())


def test_a_server_with_another_key_refuses_to_start_in_one_line_and_the_keys_commands(tmp_path: Path) -> None:
    """``chuanma serve`` with a key the database does not admit stops before it starts, in one line
    naming both keys, its schema left as it was (an older release's, here: nothing migrated);
    ``chuanma admin keys add`` admits it, ``list`` shows both, ``retire`` retires one."""
    data = tmp_path / "data"
    data.mkdir()
    first, other = write_key(DEALER_KEY, tmp_path / "first.key"), write_key(OTHER_KEY, tmp_path / "other.key")
    url = sqlite_url(data.resolve())

    async def revision_of() -> str:
        store = await open_store(url, revision="0014")
        try:
            return str(await store.read(lambda conn: conn.execute(text("SELECT version_num FROM alembic_version"))
                                        .scalar_one()))
        finally:
            await store.close()

    async def admitted() -> None:
        store = await open_store(url, revision="0014", then=admission(DEALER_KEY, 1.0))
        await store.close()
    asyncio.run(admitted())
    runner = CliRunner()
    refused = runner.invoke(cli, ["serve", "--data", str(data), "--key", str(other), "--port", "0"])
    assert refused.exit_code == 2, refused.output
    assert f"dealer key {short(OTHER_KEY)} is not the database's ({short(DEALER_KEY)})" in said(refused)
    assert "Traceback" not in refused.output
    assert asyncio.run(revision_of()) == "0014"
    added = runner.invoke(cli, ["admin", "keys", "add", str(other), "--data", str(data)])
    assert added.exit_code == 0 and f"dealer key {OTHER_KEY.public_key.hex()} added" in added.output
    listed = runner.invoke(cli, ["admin", "keys", "list", "--data", str(data)], env={"COLUMNS": "200"})
    assert listed.exit_code == 0 and DEALER in listed.output and OTHER_KEY.public_key.hex() in listed.output
    retired = runner.invoke(cli, ["admin", "keys", "retire", DEALER[:12], "--data", str(data)])
    assert retired.exit_code == 0 and f"dealer key {DEALER} retired" in retired.output
    again = runner.invoke(cli, ["serve", "--data", str(data), "--key", str(first), "--port", "0"])
    assert again.exit_code == 2 and f"dealer key {short(DEALER_KEY)} was retired" in said(again)
    missing = runner.invoke(cli, ["admin", "keys", "list", "--data", str(tmp_path / "none")])
    assert missing.exit_code == 2 and "no database in" in said(missing)  # a usage error


def test_a_node_never_keeps_a_table_whose_hand_another_key_dealt(cluster_db: str) -> None:
    """During a rotation a table's hand in play was dealt by the other key: a node holding this key
    leaves it to the nodes that hold that one (it is not its orphan to claim) and, made to rebuild
    it anyway, releases its lease at once (counted), without giving the table up."""
    async def scenario() -> None:
        async with running(make_config(cluster_db, dealer_key=OTHER_KEY)) as run:  # deals a hand with OTHER_KEY
            clients = await seat_four(run)
            await deal(clients)
            table_id = clients[0].table
            assert table_id is not None
            for c in clients:
                await c.close()
        store = await open_store(cluster_db)
        try:
            await add(store, DEALER_KEY, 1.0)
            clock = ManualClock(10**10)  # every lease lapsed long ago
            mine = TableLeases(store, clock, LEASE, "a", DEALER)
            theirs = TableLeases(store, clock, LEASE, "b", OTHER_KEY.public_key.hex())
            await mine.heartbeat()
            await theirs.heartbeat()
            assert await mine.orphans() == [] and await theirs.orphans() == [table_id]
            metrics = Metrics()
            host = ClusterHost(store, make_config(cluster_db), metrics, leases=mine,
                               bus=Bus(REDIS, "chuanma:unused:", "a", metrics))
            row = next(r for r in await store.open_tables() if r["id"] == table_id)
            assert await mine.claim(table_id)
            await host.resume_or_give_up(table_id, [], [], functools.partial(host.resume, row, []))
            assert metrics.registry.get_sample_value("chuanma_tables_refused_total") == 1
            assert table_id not in host.tables and table_id not in mine.tokens
            left = await store.read(lambda conn: conn.execute(
                select(table_leases.c.table_id).where(table_leases.c.table_id == table_id)).all())
            statuses = await store.read(lambda conn: conn.execute(
                select(tables.c.status).where(tables.c.id == table_id)).scalars().all())
            assert left == [] and statuses == ["open"]
            assert await theirs.claim(table_id)  # at once, not a lease time later
        finally:
            await store.close()
    asyncio.run(scenario())


async def copy_database(source: str) -> str:
    """A copy of the PostgreSQL database ``source`` (its URL) in a new database, as a backup
    restored with ``pg_dump`` and ``psql`` makes one; returns the copy's URL."""
    copy = await create_pg_database()
    dump = await asyncio.to_thread(subprocess.run, ["pg_dump", "-h", "127.0.0.1", "-U", "postgres", "-d",
                                                    source.rsplit("/", 1)[1]], capture_output=True, check=True)
    await asyncio.to_thread(subprocess.run, ["psql", "-q", "-h", "127.0.0.1", "-U", "postgres", "-d",
                                             copy.rsplit("/", 1)[1], "-v", "ON_ERROR_STOP=1"],
                            input=dump.stdout, capture_output=True, check=True)
    return copy


async def node(url: str, name: str, clock: ManualClock) -> tuple[ClusterHost, Any]:
    """A node on the database ``url`` (not started): its host and its store."""
    store = await open_store(url)
    config = make_config(url, lease_holder=name, clock=clock, redis_url=REDIS, lease_seconds=LEASE)
    metrics = Metrics()
    leases = TableLeases.of(store, config)
    return ClusterHost(store, config, metrics, leases=leases,
                       bus=Bus(REDIS, await cluster_prefix(store), name, metrics)), store


def test_a_restored_copy_never_joins_the_live_cluster(cluster_db: str, tmp_path: Path) -> None:
    """The cluster's database is copied (a backup) and the cluster beats on: a node started on the
    copy with the same Redis is refused, at the command line in one line and in the server itself,
    and so is a node of the copy found out after it started; ``chuanma admin new-cluster`` makes the
    copy a cluster of its own, whose nodes then start (on other Redis keys)."""
    async def scenario() -> None:
        clock = ManualClock(time.time())  # the nodes' heartbeats are recent to ``new-cluster``
        live, live_store = await node(cluster_db, "live", clock)
        await live.bus.start(lambda _m: None, lambda _m: None, lambda: None)
        copy: str | None = None
        try:
            await live.look()
            copy = await copy_database(cluster_db)
            for _ in range(3):
                clock.advance(1.0)
                await live.look()
            beats = await live_store.read(lambda conn: conn.execute(select(lease.c.epoch)).scalar_one())
            assert beats == 4 and await live.bus.epoch() == 4
            key = write_key(DEALER_KEY, tmp_path / "dealer.key")
            started = await asyncio.to_thread(CliRunner().invoke, cli, [
                "serve", "--data", str(tmp_path / "data"), "--db", copy, "--redis", REDIS, "--key", str(key),
                "--port", "0"])
            assert started.exit_code == 2 and "this database is behind the cluster on the same Redis (heartbeat 1 " \
                "of 4): it is a copy" in said(started) and "chuanma admin new-cluster" in said(started), started.output
            restored, restored_store = await node(copy, "restored", clock)
            await restored.bus.start(lambda _m: None, lambda _m: None, lambda: None)
            try:
                with pytest.raises(ClusterCopyError):
                    await restored.look()  # its first: the node does not start
                assert restored.leases.tokens == {}
            finally:
                await restored.bus.close()
                await restored_store.close()
            made = await asyncio.to_thread(CliRunner().invoke, cli, [
                "admin", "new-cluster", "--db", copy, "--lease-seconds", str(LEASE)])
            assert made.exit_code == 0, made.output
            own, own_store = await node(copy, "own", clock)
            try:
                await own.bus.start(lambda _m: None, lambda _m: None, lambda: None)
                assert own.bus.prefix != live.bus.prefix and await own.bus.epoch() == 0
                await own.look()  # a cluster of its own: it beats
                assert own.leases.epoch == 1
                await own.bus.close()
            finally:
                await own_store.close()
            refusing = asyncio.create_task(asyncio.to_thread(CliRunner().invoke, cli, [
                "admin", "new-cluster", "--db", cluster_db, "--lease-seconds", str(LEASE)]))
            await asyncio.sleep(LEASE / 3)
            clock.advance(1.0)
            await live.look()  # the original cluster beats on while it watches
            refused = await refusing
            assert refused.exit_code == 1 and "a node runs on this database" in said(refused)
        finally:
            await live.bus.close()
            await live_store.close()
            if copy is not None:
                await drop_pg_database(copy)
    asyncio.run(scenario())


def test_a_node_that_finds_its_database_a_copy_later_stops_its_tables(cluster_db: str) -> None:
    """Redis away while a copy's node started, it learns at a later heartbeat that the cluster went
    further: it stops its tables (fenced off, none claimed) rather than play them beside the original."""
    async def scenario() -> None:
        clock = ManualClock(1_000_000.0)
        host, store = await node(cluster_db, "a", clock)
        await host.bus.start(lambda _m: None, lambda _m: None, lambda: None)
        try:
            await store.create_table({"id": "t1", "room": "private", "rules": {}, "seats": [None] * 4,
                                      "status": "open", "created_at": 0.0})
            await host.look()
            assert host.leases.epoch == 1
            await host.bus.saw_epoch(host.leases.epoch + 5)  # the original cluster beat on meanwhile
            clock.advance(1.0)
            await host.look()  # not its first: logged, its tables stopped
            assert host.leases.tokens == {} and host.leases.epoch == 1
            await store.create_table({"id": "t2", "room": "private", "rules": {}, "seats": [None] * 4,
                                      "status": "open", "created_at": 0.0})
            assert not await host.leases.claim("t2")  # nor does it open or take another
            assert host.leases.lost is not None and "it is a copy" in host.leases.lost  # /healthz: not ok
        finally:
            await host.bus.close()
            await store.close()
    asyncio.run(scenario())


def test_a_node_does_not_migrate_the_schema_under_nodes_of_an_older_release(cluster_db: str, tmp_path: Path) -> None:
    """A node of a release with a migration to run finds nodes beating on the database (on its schema
    now, the older release's): it refuses to start in one line, the schema as it was; once they
    stopped (their rows gone, or not seen for two lease times), it migrates."""
    async def scenario() -> None:
        store = await open_store(cluster_db)
        try:
            await store.runner.write(lambda conn: command.downgrade(alembic_config(conn), "0009"))
            await store.runner.write(lambda conn: conn.execute(cluster_nodes.insert().values(
                holder="old-a", since=time.time(), seen=time.time())))
        finally:
            await store.close()
        key = write_key(DEALER_KEY, tmp_path / "dealer.key")
        started = await asyncio.to_thread(CliRunner().invoke, cli, [
            "serve", "--data", str(tmp_path / "data"), "--db", cluster_db, "--redis", REDIS, "--key", str(key),
            "--port", "0"])
        assert started.exit_code == 2 and "1 node(s) of another release run on this database (old-a): this " \
            "release migrates its schema" in said(started), started.output
        store = await open_store(cluster_db, revision="0009")
        try:
            assert await store.read(lambda conn: conn.execute(text("SELECT version_num FROM alembic_version"))
                                    .scalar_one()) == "0009"
            await store.runner.write(lambda conn: conn.execute(update(cluster_nodes).values(seen=time.time() - 60)))
        finally:
            await store.close()
        store = await open_store(cluster_db, before_migrating=upgrade_check(make_config(cluster_db, lease_seconds=3.0)))
        try:  # the old node not seen for two lease times: dead, the migration ran
            assert await store.read(lambda conn: conn.execute(text("SELECT version_num FROM alembic_version"))
                                    .scalar_one()) == schema_head()
        finally:
            await store.close()
    asyncio.run(scenario())
