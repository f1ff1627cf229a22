"""The cluster (docs/server.md, Cluster): per-table leases fence a node that lost a table, and three
``chuanma serve --redis`` nodes on PostgreSQL and Redis play hands for clients connected to other
nodes than their tables', one node killed (kill -9) mid-hand."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from chuanma.server.clock import ManualClock
from chuanma.server.lease import LeaseLostError
from chuanma.server.store import open_store
from chuanma.server.table_leases import TableLeases
from server_harness import pg_database

__all__ = ["pg_database"]

REDIS = "redis://127.0.0.1:6379/0"
LEASE = 2.0
"""The nodes' lease time: a killed node's tables are taken over within about 2.7 s."""
HANDS = 2
"""Hands each private table plays before it closes."""
DEADLINE = 45.0
"""Real seconds the whole game may take (all tables, the failover included)."""


def redis_reachable() -> str | None:
    """Why Redis at 127.0.0.1:6379 cannot be used, or ``None``."""
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=2) as sock:
            sock.sendall(b"PING\r\n")
            answer = sock.recv(16)
    except OSError as exc:
        return str(exc)
    return None if answer.startswith(b"+PONG") else f"it answered {answer!r}"


@pytest.fixture
def cluster_db(pg_database: str) -> Iterator[str]:
    """A fresh PostgreSQL database, with Redis reachable (else the test skips, saying which)."""
    why = redis_reachable()
    if why is not None:
        pytest.skip(f"Redis at 127.0.0.1:6379 is not reachable ({why}): the cluster tests skip")
    yield pg_database


def new_table_row(table_id: str) -> dict[str, Any]:
    return {"id": table_id, "room": "private", "rules": {}, "seats": [None] * 4, "status": "open",
            "created_at": 0.0}


def test_a_node_that_lost_a_tables_lease_never_writes_for_it_again(cluster_db: str) -> None:
    """Node A claims a table, then is paused past its lease; B takes it over (one more on the
    token). A's next write for the table is refused, whatever its clock says, and A's heartbeat
    reports the table lost; B's writes go on."""
    async def scenario() -> None:
        store = await open_store(cluster_db)
        try:
            clock = ManualClock(1000.0)
            a, b = TableLeases(store, clock, LEASE, "a"), TableLeases(store, clock, LEASE, "b")
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


def test_orphaned_tables_are_shared_among_the_live_nodes(cluster_db: str) -> None:
    """Four open tables with no live lease and two live nodes: each node's share is two of them."""
    async def scenario() -> None:
        store = await open_store(cluster_db)
        try:
            clock = ManualClock(1000.0)
            a, b = TableLeases(store, clock, LEASE, "a"), TableLeases(store, clock, LEASE, "b")
            for k in range(4):
                await store.create_table(new_table_row(f"t{k}"))
            await a.heartbeat()
            assert len(await a.orphans()) == 4  # the only live node: all of them
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
