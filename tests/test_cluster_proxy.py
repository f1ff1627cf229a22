"""The shipped nginx configuration (deploy/nginx-cluster.conf) in front of a cluster: nginx runs it
as this test's own process, on free ports, and the pages, the API and the game go through it,
one node killed (kill -9) mid-hand (docs/server.md, Cluster, Behind a proxy)."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import ssl
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from chuanma.fairness.keys import write_key
from cluster_harness import REDIS, check_books, cluster_db, private_table, quick_join_across, started
from cluster_nodes import Node, free_port
from server_harness import DEALER_KEY, TIMEOUT, account, pg_database

__all__ = ["cluster_db", "pg_database"]

SHIPPED = Path(__file__).resolve().parents[1] / "deploy" / "nginx-cluster.conf"
LEASE = 3.0
"""The nodes' lease time (as in test_cluster.py)."""
HANDS = 2
DEADLINE = 45.0
"""Real seconds the game may take once a node is killed."""
MAIN = """worker_processes 1;
pid nginx.pid;
error_log error.log info;
events {{ worker_connections 256; }}
http {{
    access_log access.log;
    client_body_temp_path temp/body;
    proxy_temp_path temp/proxy;
    fastcgi_temp_path temp/fastcgi;
    uwsgi_temp_path temp/uwsgi;
    scgi_temp_path temp/scgi;
    include {site};
}}
"""
"""The main configuration around the shipped file (as Debian's nginx.conf includes conf.d/*.conf),
with every path under the test's own directory (nginx's ``-p`` prefix)."""


def nginx_binary() -> str | None:
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def rendered(port: int, nodes: list[int], cert: Path, key: Path) -> str:
    """The shipped file with this installation's names: the port nginx listens on, the nodes'
    ports and the certificate's paths (each found exactly once, or the shipped file changed shape)."""
    text = SHIPPED.read_text()
    names = {"listen 443 ": f"listen 127.0.0.1:{port} ", "/etc/ssl/mahjong.example.com.pem": str(cert),
             "/etc/ssl/mahjong.example.com.key": str(key)}
    names.update({f"127.0.0.1:{8001 + k}": f"127.0.0.1:{node}" for k, node in enumerate(nodes)})
    for shipped, here in names.items():
        assert text.count(shipped) == 1, f"{SHIPPED.name} has {text.count(shipped)} {shipped!r}"
        text = text.replace(shipped, here)
    return text


@dataclass
class Nginx:
    """nginx in the foreground, run by this test's user, with everything under ``prefix``."""

    proc: subprocess.Popen[bytes]
    prefix: Path
    base: str
    alive: bool = True

    @classmethod
    def start(cls, prefix: Path, nodes: list[int]) -> Nginx:
        binary = nginx_binary()
        assert binary is not None
        (prefix / "temp").mkdir(parents=True)
        cert, key = prefix / "proxy.pem", prefix / "proxy.key"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
        port = free_port()
        (prefix / "chuanma.conf").write_text(rendered(port, nodes, cert, key))
        (prefix / "nginx.conf").write_text(MAIN.format(site=prefix / "chuanma.conf"))
        # run as root (a CI container), nginx's workers would switch to "nobody", who may not enter the
        # test's directory: they stay the test's user
        main = "daemon off;" + (" user root;" if os.geteuid() == 0 else "")
        proc = subprocess.Popen([binary, "-p", str(prefix), "-c", "nginx.conf", "-e", "error.log", "-g", main],
                                stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        started(proc, lambda: listening(port), f"nginx (its log: {prefix / 'error.log'})")
        return cls(proc, prefix, f"https://127.0.0.1:{port}")

    @property
    def cert(self) -> Path:
        return self.prefix / "proxy.pem"

    def log(self) -> str:
        path = self.prefix / "error.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


@pytest.fixture
def nginx_installed() -> Iterator[None]:
    """Skips (saying which is missing) without nginx and openssl (scripts/ensure-nginx installs them)."""
    missing = [name for name, found in (("nginx", nginx_binary()), ("openssl", shutil.which("openssl"))) if not found]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed (scripts/ensure-nginx): the proxy test skips")
    yield


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


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


def test_nginx_with_the_shipped_config_serves_the_cluster_and_outlives_a_node(
        cluster_db: str, nginx_installed: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two nodes behind nginx running deploy/nginx-cluster.conf (its third node's port has no node:
    nginx passes it over). Through nginx, over TLS: the page, a script and the API answer, /metrics
    does not; a WebSocket of the page's own origin is accepted, one of another origin refused.
    Four people quick-join through nginx and meet at one table (spread over both nodes). A private
    table's two people play through nginx; mid-hand the table's node is killed: the players
    reconnect through nginx to the other node (or stay on it), get ``resync``, and every hand
    finishes; nginx still answers every request. The books balance."""
    key = write_key(DEALER_KEY, tmp_path / "dealer.key")

    async def scenario() -> None:
        nodes = [Node.start(cluster_db, REDIS, tmp_path / f"n{k}", key, LEASE) for k in range(2)]
        proxy: Nginx | None = None
        games: asyncio.Future[list[None]] | None = None
        try:
            await asyncio.gather(*(n.ready() for n in nodes))
            ports = [int(node.base.rsplit(":", 1)[1]) for node in nodes]
            proxy = Nginx.start(tmp_path / "nginx", [*ports, free_port()])
            monkeypatch.setenv("SSL_CERT_FILE", str(proxy.cert))  # the clients trust the proxy's certificate
            trust = ssl.create_default_context(cafile=str(proxy.cert))
            async with httpx.AsyncClient(base_url=proxy.base, verify=trust, timeout=TIMEOUT) as http:
                page = await http.get("/")
                assert page.status_code == 200 and "text/html" in page.headers["content-type"]
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
            assert all(one.ends == HANDS for one in players), [(one.name, one.ends, one.seen[-5:]) for one in players]
            assert all("resync" in one.seen[at:] for one, at in zip(players, before, strict=True))
            async with httpx.AsyncClient(base_url=proxy.base, verify=trust, timeout=TIMEOUT) as http:
                assert await answers(http, "/healthz", 6) == [200] * 6
            assert "Connection refused) while connecting to upstream" in proxy.log()
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
