"""The cluster (docs/server.md, Cluster): per-table leases fence a node that lost a table, and three
``chuanma serve --redis`` nodes on PostgreSQL and Redis play hands for clients connected to other
nodes than their tables', one node killed (kill -9) mid-hand."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.exc import DBAPIError

from chuanma.fairness.keys import write_key
from chuanma.server import protocol as p
from chuanma.server import table_inputs as i
from chuanma.server.bus import Bus, decode, encode
from chuanma.server.clock import ManualClock
from chuanma.server.cluster import ClusterHost
from chuanma.server.lease import STATE, LeaseHeldError, LeaseLostError, held_by_another
from chuanma.server.metrics import Metrics
from chuanma.server.schema import lease, tables
from chuanma.server.store import AsyncRunner, open_store
from chuanma.server.table import Command
from chuanma.server.table_leases import CLUSTER, TableLeases

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from cluster_harness import DEALER, REDIS, check_books, cluster_db, private_table, quick_join_across, redis_reachable
from cluster_nodes import Node
from server_harness import DEALER_KEY, TIMEOUT, eventually, lock_waited, make_config, pg_database

__all__ = ["cluster_db", "pg_database"]

LEASE = 3.0
"""The nodes' lease time: a killed node's tables are taken over within about 4 s (shorter leases
lapse now and then on this loaded machine while their nodes wait for a core: harmless, but slower)."""
HANDS = 2
"""Hands each private table plays before it closes."""
DEADLINE = 45.0
"""Real seconds the whole game may take (all tables, the failover included)."""


def new_table_row(table_id: str) -> dict[str, Any]:
    return {"id": table_id, "room": "private", "rules": {}, "seats": [None] * 4, "status": "open",
            "created_at": 0.0}


@pytest.mark.parametrize("message", [
    i.Sit(), i.Rejoin(), i.Detach(), i.Idle(), i.Expel(), p.Ready(type="ready", client_seed="s"),
    p.Act(type="act", table="t1", version=3, action={"discard": "5m"}), p.Auto(type="auto", on=True),
    p.Views(type="views", on=True, hints=True), p.Leave(type="leave"),
    p.Resume(type="resume", table="t1", hand=2, last=7), p.Watch(type="watch", table="t1", invite="abc", views=True)])
def test_every_table_command_crosses_the_bus_unchanged(message: i.CommandMessage) -> None:
    crossed = decode(json.loads(json.dumps(encode(message))))
    assert crossed == message and type(crossed) is type(message)


def test_a_frame_that_is_not_the_clusters_is_dropped_and_the_bus_listens_on() -> None:
    """Junk on a node's channel (not JSON, or JSON of no message's shape) is logged and dropped; the
    node's next message still arrives."""
    why = redis_reachable()
    if why is not None:
        pytest.skip(f"Redis at 127.0.0.1:6379 is not reachable ({why}): the cluster tests skip")

    async def scenario() -> None:
        received: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        bus = Bus(REDIS, f"chuanma:test-junk-{secrets.token_hex(4)}:", "n1", Metrics())
        await bus.start(received.put_nowait, lambda _data: None, lambda: None)
        try:
            for junk in (b"\xff not json", b"[1, 2]", b'{"no": "at"}'):
                await bus.redis.publish(bus.channel("n1"), junk)
            assert await bus.publish("n1", {"kind": "after"})
            got = await asyncio.wait_for(received.get(), TIMEOUT)
            assert got["kind"] == "after" and received.empty()
            assert all(not task.done() for task in bus.tasks)
        finally:
            await bus.close()
    asyncio.run(scenario())


def test_a_node_that_lost_a_tables_lease_never_writes_for_it_again(cluster_db: str) -> None:
    """Node A claims a table, then is paused past its lease; B takes it over (one more on the
    token). A's next write for the table is refused, whatever its clock says, and A's heartbeat
    reports the table lost; B's writes go on."""
    async def scenario() -> None:
        store = await open_store(cluster_db)
        try:
            clock = ManualClock(1000.0)
            a, b = TableLeases(store, clock, LEASE, "a", DEALER), TableLeases(store, clock, LEASE, "b", DEALER)
            await store.create_table(new_table_row("t1"))
            assert await a.claim("t1") and not await b.claim("t1")  # held: B cannot take it
            fenced_a, fenced_b = store.fenced(a.fence("t1")), store.fenced(b.fence("t1"))
            await fenced_a.create_user("by_a", None, "guest", 0, clock.now())
            clock.advance(LEASE + 0.1)  # A paused past its lease: B takes the table over
            assert await b.claim("t1") and b.tokens["t1"] == a.tokens["t1"] + 1
            assert await a.heartbeat() == ["t1"] and "t1" not in a.tokens
            a.tokens["t1"] = 1  # even a node that believes it still holds the token it claimed
            with pytest.raises(LeaseLostError, match="lost the lease of table t1"):
                await fenced_a.create_user("by_a_late", None, "guest", 0, clock.now())
            await fenced_b.create_user("by_b", None, "guest", 0, clock.now())
            assert await store.user_by_name("by_a_late") is None and await store.user_by_name("by_b") is not None
            assert await a.owner("t1") == "b"
        finally:
            await store.close()
    asyncio.run(scenario())


def test_a_take_over_waits_for_the_fenced_writes_in_flight(cluster_db: str) -> None:
    """A's write for the table has passed its fence and not committed; B's claim of the lapsed
    lease waits for it (so the stored decisions B rebuilds from hold it), then A is fenced off."""
    async def scenario() -> None:
        store, other = await open_store(cluster_db), await open_store(cluster_db)
        try:
            clock = ManualClock(1000.0)
            a, b = TableLeases(store, clock, LEASE, "a", DEALER), TableLeases(other, clock, LEASE, "b", DEALER)
            await store.create_table(new_table_row("t1"))
            assert await a.claim("t1")
            clock.advance(LEASE + 0.1)  # A paused past its lease, one of its writes in flight
            assert isinstance(store.runner, AsyncRunner)
            async with store.runner.engine.begin() as conn:
                await conn.run_sync(a.fence("t1"))
                taker = asyncio.create_task(b.claim("t1"))
                await asyncio.wait_for(lock_waited(other), TIMEOUT)  # the take-over waits for it
                assert not taker.done()
            assert await asyncio.wait_for(taker, TIMEOUT) and b.tokens["t1"] == a.tokens["t1"] + 1
            with pytest.raises(LeaseLostError):
                await store.fenced(a.fence("t1")).create_user("too_late", None, "guest", 0, clock.now())
        finally:
            await store.close()
            await other.close()
    asyncio.run(scenario())


def test_a_take_over_ends_the_write_of_a_node_stalled_inside_it(cluster_db: str) -> None:
    """A's write for the table passed its fence, then A stalled (paused) before committing: the
    database ends A's idle transaction after the idle time, so B's claim of the lapsed lease goes
    through instead of waiting for ever, and A's commit fails."""
    async def scenario() -> None:
        other = await open_store(cluster_db)  # migrated first: the idle time is for A's write alone
        store = await open_store(cluster_db, idle_seconds=1.0)
        try:
            clock = ManualClock(1000.0)
            a, b = TableLeases(store, clock, LEASE, "a", DEALER), TableLeases(other, clock, LEASE, "b", DEALER)
            await store.create_table(new_table_row("t1"))
            assert await a.claim("t1")
            clock.advance(LEASE + 0.1)  # A paused past its lease, inside one of its writes
            assert isinstance(store.runner, AsyncRunner)
            with pytest.raises(DBAPIError):
                async with store.runner.engine.begin() as conn:
                    await conn.run_sync(a.fence("t1"))
                    assert await asyncio.wait_for(b.claim("t1"), TIMEOUT)
            assert b.tokens["t1"] == a.tokens["t1"] + 1
        finally:
            await store.close()
            await other.close()
    asyncio.run(scenario())


def test_a_node_gives_up_no_table_another_node_took_over(cluster_db: str) -> None:
    """A table whose rebuild failed here after another node took its lease over is that node's: it
    is dropped here, its row stays open and its players hear nothing (no ``table_closed``)."""
    async def scenario() -> None:
        store = await open_store(cluster_db)
        try:
            config = make_config(cluster_db)
            metrics = Metrics()
            leases = TableLeases(store, ManualClock(1000.0), LEASE, "a", DEALER)
            host = ClusterHost(store, config, metrics, leases=leases,
                               bus=Bus(REDIS, "chuanma:unused:", "a", metrics))
            await store.create_table(new_table_row("t1"))
            told: list[dict[str, Any]] = []
            await host.give_up("t1", [], [Command(1, told.append, i.Rejoin())], "it could not be resumed")
            assert told == [] and metrics.registry.get_sample_value("chuanma_table_leases_lost_total") == 1
            statuses = await store.read(lambda conn: conn.execute(select(tables.c.status)).scalars().all())
            assert statuses == ["open"]
        finally:
            await store.close()
    asyncio.run(scenario())


def test_a_command_for_a_table_in_transit_is_told_to_wait_and_one_for_a_closed_table_is_refused(
        cluster_db: str) -> None:
    """A table with no live owner (its node stopped or died, another not yet in charge) answers a
    player's command ``table_moving``, which the client waits out (it is attached again once the
    table is taken over); a closed one ``no_table``."""
    async def scenario() -> None:
        store = await open_store(cluster_db)
        try:
            metrics = Metrics()
            host = ClusterHost(store, make_config(cluster_db), metrics,
                               leases=TableLeases(store, ManualClock(1000.0), LEASE, "a", DEALER),
                               bus=Bus(REDIS, "chuanma:unused:", "a", metrics))
            await store.create_table(new_table_row("t1"))
            await store.create_table({**new_table_row("t2"), "status": "closed"})
            told: list[dict[str, Any]] = []
            for table_id in ("t1", "t2", "t3"):
                resume = p.Resume(type="resume", table=table_id, hand=0, last=-1)
                await host.forward(table_id, Command(1, told.append, resume), "a", 1, 0)
            assert [m["code"] for m in told] == ["table_moving", "no_table", "no_table"]
        finally:
            await store.close()
    asyncio.run(scenario())


def test_orphaned_tables_are_shared_among_the_live_nodes(cluster_db: str) -> None:
    """Four open tables with no live lease and two live nodes: each node's share is two of them (a
    table opened less than a lease time ago, whose node is claiming it, is none)."""
    async def scenario() -> None:
        store = await open_store(cluster_db)
        try:
            clock = ManualClock(1000.0)
            a, b = TableLeases(store, clock, LEASE, "a", DEALER), TableLeases(store, clock, LEASE, "b", DEALER)
            for k in range(4):
                await store.create_table(new_table_row(f"t{k}"))
            await store.create_table({**new_table_row("fresh"), "created_at": clock.now()})  # being claimed
            await a.heartbeat()
            assert sorted(await a.orphans()) == [f"t{k}" for k in range(4)]  # the only live node: all of them
            await b.heartbeat()
            share = await a.orphans()
            assert len(share) == 2 and set(share) <= {f"t{k}" for k in range(4)}
            for table_id in share:
                assert await a.claim(table_id)
            left = await b.orphans()  # two left over two nodes: one each
            assert len(left) == 1 and left[0] not in share
        finally:
            await store.close()
    asyncio.run(scenario())


def test_a_stopping_node_lets_its_tables_go_at_once_and_the_database_is_the_clusters(cluster_db: str) -> None:
    """While nodes beat, the database's lease is the cluster's (a single-process server refuses
    it); a node stopping cleanly lets its leases lapse at once (another claims its tables without
    waiting), and the last one frees the database's lease. A node refuses a database a
    single-process server holds."""
    async def scenario() -> None:
        store = await open_store(cluster_db)
        try:
            clock = ManualClock(1000.0)
            a, b = TableLeases(store, clock, LEASE, "a", DEALER), TableLeases(store, clock, LEASE, "b", DEALER)
            await store.create_table(new_table_row("t1"))
            await a.heartbeat()
            await b.heartbeat()
            row = await store.read(lambda conn: dict(conn.execute(STATE).one()._mapping))
            assert row["holder"] == CLUSTER and held_by_another(row, "single", clock.now())
            assert await a.claim("t1") and await b.orphans() == []
            await a.release()
            assert await b.orphans() == ["t1"] and await b.claim("t1")
            await b.release()
            row = await store.read(lambda conn: dict(conn.execute(STATE).one()._mapping))
            assert row["holder"] is None
            await store.write(lambda conn: conn.execute(update(lease).values(
                holder="single", token=row["token"] + 1, since=clock.now(), expires=clock.now() + 60)))
            with pytest.raises(LeaseHeldError, match=re.escape("in use by another server (single, since ")):
                await a.heartbeat()
            assert a.renewed == 1000.0 and a.lost is None  # the first heartbeats only
            clock.advance(LEASE + 0.5)  # /healthz says so once the heartbeats failed for a lease time
            assert a.lost == f"the leases were not renewed for {LEASE + 0.5:.1f} s: the database cannot be reached"
        finally:
            await store.close()
    asyncio.run(scenario())


def test_a_node_fenced_off_by_a_single_process_server_writes_and_claims_nothing(cluster_db: str) -> None:
    """Every node paused past the database's lease, a single-process server takes the database: a
    node's next heartbeat forgets all its tables, so that its writes for them are refused, and it
    claims none (the single process resumes them all)."""
    async def scenario() -> None:
        store = await open_store(cluster_db)
        try:
            clock = ManualClock(1000.0)
            a = TableLeases(store, clock, LEASE, "a", DEALER)
            for table_id in ("t1", "t2"):
                await store.create_table(new_table_row(table_id))
            await a.heartbeat()
            assert await a.claim("t1")
            fenced = store.fenced(a.fence("t1"))
            clock.advance(LEASE + 0.1)
            row = await store.read(lambda conn: dict(conn.execute(STATE).one()._mapping))
            await store.write(lambda conn: conn.execute(update(lease).values(
                holder="single", token=row["token"] + 1, since=clock.now(), expires=clock.now() + 60)))
            with pytest.raises(LeaseHeldError):
                await a.heartbeat()
            assert a.tokens == {}
            with pytest.raises(LeaseLostError, match="lost the lease of table t1"):
                await fenced.create_user("by_a", None, "guest", 0, clock.now())
            with pytest.raises(LeaseHeldError):
                await a.claim("t2")
            assert await store.user_by_name("by_a") is None and a.tokens == {}
        finally:
            await store.close()
    asyncio.run(scenario())


def test_three_nodes_play_for_clients_on_other_nodes_and_survive_a_kill(cluster_db: str, tmp_path: Path) -> None:
    """Three nodes; quick-join seats four people waiting on three of them at one table. A private
    table opened on each node (two bots, two people) whose people connect to the two other nodes, so
    that every command and message crosses the bus. Mid-hand node 0 is killed: its table is taken
    over by another node and rebuilt from its decisions, its players on live nodes get ``resync``,
    those connected to it reconnect elsewhere and ``resume``. Then node 1 is stopped cleanly
    (SIGTERM): it drains, its tables ending the hand in play there and moving to node 2 between
    hands. Every table plays its hands and closes, no chip is paid twice, none is negative, every
    record verifies."""
    key = write_key(DEALER_KEY, tmp_path / "dealer.key")

    async def scenario() -> None:
        nodes = [Node.start(cluster_db, REDIS, tmp_path / f"n{k}", key, LEASE) for k in range(3)]
        try:
            await asyncio.gather(*(n.ready() for n in nodes))  # one migrates the database, the others wait
            await quick_join_across(nodes)
            players = []
            for k, node in enumerate(nodes):  # each table's people on the two other nodes
                players += await private_table(node.base, nodes, [(k + 1) % 3, (k + 2) % 3], HANDS)
            acted: asyncio.Queue[None] = asyncio.Queue()
            games = asyncio.gather(*(one.play(acted) for one in players))
            for _ in range(12):  # every table dealt and playing: node 0 dies mid-hand
                await asyncio.wait_for(acted.get(), 20)
            nodes[0].kill()
            moved = players[:2]  # table 0's people, on nodes 1 and 2: attached again to its new owner
            await eventually(lambda: all("resync" in one.seen for one in moved))
            assert not any("reconnected" in one.seen for one in moved)
            assert [one.seen.count("reconnected") for one in players] == [0, 0, 0, 1, 1, 0]  # those on node 0
            nodes[1].alive = False  # a clean stop, mid-hand: its tables move to node 2 after the hand
            nodes[1].proc.terminate()
            drained = asyncio.create_task(asyncio.to_thread(nodes[1].proc.wait, DEADLINE))
            await asyncio.wait_for(games, DEADLINE)
            assert await drained == -signal.SIGTERM  # uvicorn stops cleanly, then exits by the signal it caught
            said = (tmp_path / "n1" / "node.log").read_text()
            assert "Traceback" not in said and '"level": "error"' not in said, said
            assert '"message": "draining: no new hand is dealt here"' in said and '"message": "drained"' in said
            # its log is JSON lines naming the node (uvicorn's and asyncio's too), but for the start line
            # on standard output; no report of leaked objects at exit
            plain = [line for line in said.splitlines() if not line.startswith("{")]
            assert len(plain) == 1 and plain[0].startswith("chuanma server: open http://"), plain
            assert len({json.loads(line)["node"] for line in said.splitlines() if line.startswith("{")}) == 1
            # every hand's end reached every player (one missed while reconnecting is told on resuming),
            # but one whose node stopped as its table closed
            assert all(one.ends == set(range(HANDS)) or one.errors[-1:] == ["not_seated"] for one in players), \
                [(one.name, one.ends, one.seen[-5:], one.errors) for one in players]
            assert "reconnected" in players[0].seen  # was on node 1
            assert await nodes[2].metric("chuanma_table_handovers_total") >= 1
        finally:
            for node in nodes:
                node.stop()
        # the quick-join table's hand, waiting for its people to get ready when they left, is void
        await check_books(cluster_db, closed=4, settled=3 * HANDS, void=1)
    asyncio.run(scenario())
