"""The cluster through a Redis restart (docs/server.md, Cluster, Redis restart): two nodes on a
private ``redis-server`` that is killed mid-hand and started again on the same port."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from chuanma.fairness.keys import write_key
from cluster_harness import PrivateRedis, check_books, private_redis, private_table, quick_join_across
from cluster_nodes import Node
from server_harness import DEALER_KEY, TIMEOUT, Client, account, pg_database

__all__ = ["pg_database", "private_redis"]

LEASE = 3.0
"""The nodes' lease time (as in test_cluster.py)."""
HANDS = 2
DEADLINE = 45.0
"""Real seconds the games may take once Redis is back."""


async def health(nodes: list[Node]) -> list[tuple[int, str, str]]:
    """Each node's ``/healthz``: its status code, status and bus."""
    answers = []
    async with httpx.AsyncClient(timeout=5) as http:
        for node in nodes:
            r = await http.get(node.base + "/healthz")
            answers.append((r.status_code, r.json()["status"], r.json()["bus"]))
    return answers


async def health_becomes(nodes: list[Node], expected: tuple[int, str, str]) -> None:
    """Return once every node's ``/healthz`` answers ``expected``; fail after TIMEOUT seconds."""
    async with asyncio.timeout(TIMEOUT):
        while await health(nodes) != [expected] * len(nodes):
            await asyncio.sleep(0.05)


def test_the_cluster_plays_on_after_redis_restarts(pg_database: str, private_redis: PrivateRedis,
                                                   tmp_path: Path) -> None:
    """Two nodes, a private table opened on each whose people are connected to the other node (every
    command and message crosses the bus). Mid-hand Redis is killed: both nodes' ``/healthz`` stay
    200 (each serves on) and say the bus is down; a ``join`` is refused (``busy``: the lobby's lock
    is Redis's), the socket kept. Redis starts again, empty, on the same port: each node's bus
    connects again and subscribes again (``/healthz`` says the bus is up), the tables' people are
    attached again (``seated``, ``resync``) and every hand finishes; quick-join (Redis's lock, the
    ``seated`` announcement) seats people across the nodes again. The tables never moved (their
    leases are PostgreSQL's); the books balance."""
    key = write_key(DEALER_KEY, tmp_path / "dealer.key")

    async def scenario() -> None:
        nodes = [Node.start(pg_database, private_redis.url, tmp_path / f"n{k}", key, LEASE) for k in range(2)]
        try:
            await asyncio.gather(*(n.ready() for n in nodes))
            players = (await private_table(nodes[0].base, nodes, [1, 1], HANDS)
                       + await private_table(nodes[1].base, nodes, [0, 0], HANDS))
            acted: asyncio.Queue[None] = asyncio.Queue()
            games = asyncio.gather(*(one.play(acted) for one in players))
            for _ in range(4):  # both tables dealt and playing
                await asyncio.wait_for(acted.get(), 20)
            private_redis.kill()
            await health_becomes(nodes, (200, "ok", "down"))
            acc = await account(nodes[0].base)  # quick-join needs the lobby's lock: refused, the socket kept
            late = await Client.open(nodes[0].base, acc["token"], acc["user"]["username"])
            await late.send("join", room="chuji-xuezhan", bots=False)
            assert (await late.expect("error", "queued"))["code"] == "busy"
            await late.send("ping")
            await late.expect("pong")
            await late.close()  # leaving the queue needs the lock too: nothing to undo, no traceback
            before = [len(one.seen) for one in players]
            private_redis.start()
            await health_becomes(nodes, (200, "ok", "up"))
            await asyncio.wait_for(games, DEADLINE)
            assert all(one.ends == set(range(HANDS)) for one in players), \
                [(one.name, one.ends, one.seen[-5:]) for one in players]
            # every connection attached to its table again (``seated``, then ``resync`` mid-hand)
            assert all("seated" in one.seen[at:] for one, at in zip(players, before, strict=True)), \
                [one.seen[at:][:8] for one, at in zip(players, before, strict=True)]
            await quick_join_across(nodes, (0, 1, 1, 0))
            for k, node in enumerate(nodes):
                assert await node.metric("chuanma_bus_reconnects_total") >= 1
                said = (tmp_path / f"n{k}" / "node.log").read_text()
                assert "Traceback" not in said, said
        finally:
            for node in nodes:
                node.stop()
        await check_books(pg_database, closed=3, settled=2 * HANDS, void=1)
    asyncio.run(scenario())
