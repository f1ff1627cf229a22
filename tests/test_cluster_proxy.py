"""The shipped proxy configurations (deploy/nginx-cluster.conf, deploy/haproxy-cluster.cfg) in
front of a cluster: the proxy runs one as this test's own process, on free ports, and the pages,
the API and the game go through it, one node killed (kill -9) mid-hand (docs/server.md, Cluster,
Behind a proxy)."""

from __future__ import annotations

import asyncio
import ssl
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from chuanma.fairness.keys import write_key
from cluster_harness import REDIS, check_books, cluster_db, private_table, quick_join_across
from cluster_nodes import Node, free_port
from proxy_harness import Proxy, binary
from server_harness import DEALER_KEY, TIMEOUT, account, pg_database

__all__ = ["cluster_db", "pg_database"]

LEASE = 3.0
"""The nodes' lease time (as in test_cluster.py)."""
HANDS = 2
DEADLINE = 45.0
"""Real seconds the game may take once a node is killed."""


@pytest.fixture(params=["nginx", "haproxy"])
def proxy_kind(request: pytest.FixtureRequest) -> str:
    """Each shipped proxy configuration; skips (saying which is missing) without the proxy or
    openssl (scripts/ensure-system-packages installs them)."""
    kind: str = request.param
    missing = [name for name in (kind, "openssl") if binary(name) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed (scripts/ensure-system-packages): the proxy test skips")
    return kind


async def answers(http: httpx.AsyncClient, path: str, times: int) -> list[int]:
    return [(await http.get(path)).status_code for _ in range(times)]


async def owner_of_the_one_table(nodes: list[Node]) -> Node:
    """The node running the one table open (once the others closed)."""
    async with httpx.AsyncClient(timeout=TIMEOUT) as http, asyncio.timeout(TIMEOUT):
        while True:
            held = [(await http.get(node.base + "/healthz")).json()["tables"] for node in nodes]
            if sorted(held) == [0, 1]:
                return nodes[held.index(1)]
            await asyncio.sleep(0.05)


def test_a_shipped_proxy_config_serves_the_cluster_and_outlives_a_node(
        cluster_db: str, proxy_kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two nodes behind nginx running deploy/nginx-cluster.conf, or HAProxy running
    deploy/haproxy-cluster.cfg (their third node's port has no node: the proxy passes it over).
    Through the proxy, over TLS: the page, a script and the API answer, /metrics does not; a
    WebSocket of the page's own origin is accepted, one of another origin refused. Four people
    quick-join through the proxy and meet at one table (spread over both nodes). A private table's
    two people play through the proxy; mid-hand the table's node is killed: the players reconnect
    through the proxy to the other node (or stay on it), get ``resync``, and every hand finishes;
    the proxy still answers every request. The books balance."""
    key = write_key(DEALER_KEY, tmp_path / "dealer.key")

    async def scenario() -> None:
        nodes = [Node.start(cluster_db, REDIS, tmp_path / f"n{k}", key, LEASE) for k in range(2)]
        proxy: Proxy | None = None
        games: asyncio.Future[list[None]] | None = None
        try:
            await asyncio.gather(*(n.ready() for n in nodes))
            ports = [int(node.base.rsplit(":", 1)[1]) for node in nodes]
            proxy = Proxy.start(proxy_kind, tmp_path / proxy_kind, [*ports, free_port()])
            monkeypatch.setenv("SSL_CERT_FILE", str(proxy.cert))  # the clients trust the proxy's certificate
            trust = ssl.create_default_context(cafile=str(proxy.cert))
            async with httpx.AsyncClient(base_url=proxy.base, verify=trust, timeout=TIMEOUT) as http:
                page = await http.get("/")
                assert page.status_code == 200 and "text/html" in page.headers["content-type"]
                assert page.headers["strict-transport-security"] == "max-age=31536000"
                moved = await http.get(proxy.plain + "/calc?x=1")
                assert moved.status_code == 301 and moved.headers["location"].endswith("/calc?x=1")
                assert moved.headers["location"].startswith("https://")
                assert (await http.get("/static/app/socket.js")).status_code == 200
                assert await answers(http, "/healthz", 6) == [200] * 6
                assert (await http.get("/metrics")).status_code == 404
            ws = proxy.base.replace("https", "wss") + f"/ws?token={(await account(proxy.base))['token']}"
            async with connect(ws, origin=Origin(proxy.base)) as own:
                assert '"hello"' in str(await asyncio.wait_for(own.recv(), TIMEOUT))
            with pytest.raises(InvalidStatus) as refused:
                await connect(ws, origin=Origin("https://elsewhere.example"))
            assert refused.value.response.status_code == 403
            await quick_join_across([proxy], (0, 0, 0, 0))
            players = await private_table(proxy.base, [proxy], [0, 0], HANDS)
            owner = await owner_of_the_one_table(nodes)
            acted: asyncio.Queue[None] = asyncio.Queue()
            games = asyncio.gather(*(one.play(acted) for one in players))
            for _ in range(4):  # the table dealt and playing: its node dies mid-hand
                await asyncio.wait_for(acted.get(), 20)
            before = [len(one.seen) for one in players]
            owner.kill()
            await asyncio.wait_for(games, DEADLINE)
            assert all(one.ends == set(range(HANDS)) for one in players), \
                [(one.name, one.ends, one.seen[-5:]) for one in players]
            assert all("resync" in one.seen[at:] for one, at in zip(players, before, strict=True))
            async with httpx.AsyncClient(base_url=proxy.base, verify=trust, timeout=TIMEOUT) as http:
                assert await answers(http, "/healthz", 6) == [200] * 6
            assert proxy.passed_over in proxy.log()
        finally:
            if games is not None:
                games.cancel()
            if proxy is not None:
                proxy.stop()
            for node in nodes:
                node.stop()
        # the quick-join table's hand, waiting for its people to get ready when they left, is void
        await check_books(cluster_db, closed=2, settled=HANDS, void=1)
    asyncio.run(scenario())
