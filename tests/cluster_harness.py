"""Helpers of the cluster tests: Redis (the shared one, or a private one a test may kill and start
again), people playing private tables through any node (or a proxy in front of the nodes), and the
checks of the books once every table closed."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import httpx
import pytest
from sqlalchemy import func, select
from websockets.exceptions import ConnectionClosed, InvalidStatus

from chuanma.fairness import Level, verify_record
from chuanma.fairness.keys import signing_key_of
from chuanma.server.schema import hands, ledger, tables
from chuanma.server.store import open_store

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from cluster_nodes import free_port
from server_harness import DEALER_KEY, TIMEOUT, Client, account

DEALER = DEALER_KEY.public_key.hex()
"""The tests' nodes' dealer key, as :class:`~chuanma.server.table_leases.TableLeases` names it."""
RETRY = 0.25
"""Seconds a player waits before connecting again after a refusal."""
REDIS = "redis://127.0.0.1:6379/0"
"""The machine's Redis (shared: the tests never restart or flush it)."""


def redis_reachable(port: int = 6379) -> str | None:
    """Why Redis at 127.0.0.1:``port`` cannot be used, or ``None``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
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


def started(proc: subprocess.Popen[bytes], ready: Callable[[], bool], what: str) -> None:
    """Return once ``ready()`` holds; fail if ``proc`` (``what``) exits first, or after 5 s."""
    for _ in range(500):
        assert proc.poll() is None, f"{what} exited with {proc.returncode}"
        if ready():
            return
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(0.01)
    raise TimeoutError(f"{what} did not start")


@dataclass
class PrivateRedis:
    """A ``redis-server`` of one test's own, on a free port, without persistence."""

    port: int
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it (again, on the same port) and return once it answers ``PING``."""
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        started(self.proc, lambda: redis_reachable(self.port) is None, f"redis-server on port {self.port}")

    def kill(self) -> None:
        """Kill it (``SIGKILL``): every connection to it drops, everything it held is gone."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    """A running :class:`PrivateRedis` (the test skips if ``redis-server`` is not installed)."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed: the Redis restart test skips")
    redis = PrivateRedis(free_port())
    redis.start()
    try:
        yield redis
    finally:
        if redis.proc is not None and redis.proc.poll() is None:
            redis.kill()


class Door(Protocol):
    """Where people connect: a node, or a proxy in front of the nodes."""

    base: str
    alive: bool


@dataclass
class Player:
    """A person at a private table, connected through a door; reconnects through a live one if
    theirs closes."""

    token: str
    name: str
    table: str
    doors: Sequence[Door]
    at: int
    client: Client | None = None
    ends: set[int] = field(default_factory=set)
    """The hands whose end this player was told (a missed one is told again on resuming)."""
    errors: list[str] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)
    refused: list[int] = field(default_factory=list)
    """The HTTP status of each connection refused (the browser's client tries again, as this does)."""
    think: float = 0.0
    """Seconds this player thinks before each decision."""

    async def connect(self) -> Client:
        while True:
            while not self.doors[self.at].alive:
                self.at = (self.at + 1) % len(self.doors)
            try:
                return await Client.open(self.doors[self.at].base, self.token, self.name)
            except InvalidStatus as exc:  # no node could take it (a proxy's 502) or this one drains (503)
                self.refused.append(exc.response.status_code)
                await asyncio.sleep(RETRY)

    async def play(self, acted: asyncio.Queue[None]) -> None:
        """Answer every prompt, get ready for every hand, until the table closes."""
        client = self.client
        assert client is not None
        while True:
            try:
                msg = await client.recv()
                self.seen.append(msg["type"] if msg["type"] != "table_closed" else f"table_closed: {msg['reason']}")
                if msg["type"] == "prompt":
                    await asyncio.sleep(self.think)
                    await client.send("act", table=msg["table"], version=msg["version"],
                                      action=client.choose(msg["legal"]))
                    acted.put_nowait(None)
                elif msg["type"] == "hand_start" and not msg.get("dealt"):
                    await client.send("ready", client_seed=f"seed-{self.name}-{msg['hand']}")
                elif msg["type"] == "hand_end":
                    self.ends.add(msg["hand"])
                elif msg["type"] == "error":
                    self.errors.append(msg["code"])
                    if msg["code"] == "not_seated":  # reconnected after its table closed (its last words lost)
                        return
                elif msg["type"] == "table_closed":
                    return
            except ConnectionClosed:
                again = await self.connect()
                again.table, again.seat, again.hand, again.last = client.table, client.seat, client.hand, client.last
                self.client = client = again
                self.seen.append("reconnected")
                await client.send("resume", table=self.table, hand=client.hand, last=client.last)


async def private_table(base: str, doors: Sequence[Door], at: Sequence[int], hands: int) -> list[Player]:
    """A private table opened through ``base`` (two easy bots, ``hands`` hands) and its two people,
    connected through ``doors[at[0]]`` and ``doors[at[1]]`` and seated."""
    creator = await account(base)
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT, verify=False) as http:
        r = await http.post("/api/tables", json={"bots": 2, "hands": hands, "bot_level": "easy"},
                            headers={"authorization": f"Bearer {creator['token']}"})
        assert r.status_code == 200, r.text
    made = r.json()
    guest = await account(base)
    players = []
    for acc, k in zip((creator, guest), at, strict=True):
        player = Player(acc["token"], acc["user"]["username"], made["table"], doors, k)
        player.client = await player.connect()
        await player.client.send("join_private", invite=made["invite"])
        await player.client.expect("seated")
        players.append(player)
    return players


async def quick_join_across(doors: Sequence[Door], at: Sequence[int] = (0, 1, 2, 0)) -> None:
    """Four people waiting in one room through ``doors[k]`` for each ``k`` of ``at`` meet at one
    table; they leave it again (the table closes, no hand played)."""
    clients = []
    for k in at:
        acc = await account(doors[k].base)
        client = await Client.open(doors[k].base, acc["token"], acc["user"]["username"])
        await client.send("join", room="chuji-xuezhan", bots=False)
        await client.expect("queued")
        clients.append(client)
    seated = [await c.expect("seated") for c in clients]
    assert len({m["table"] for m in seated}) == 1 and sorted(m["seat"] for m in seated) == [0, 1, 2, 3]
    for client in clients:
        await client.send("leave")
        assert (await client.expect("table_closed"))["reason"] == "you left the table"
        await client.close()


async def check_books(db: str, closed: int, settled: int, void: int = 0) -> None:
    """The database ``db`` once the cluster stopped: ``closed`` tables, all closed; ``settled`` hands
    settled and ``void`` void; balances equal grants, none is negative, no hand paid anyone twice,
    every settled hand's record verifies."""
    store = await open_store(db)
    try:
        statuses = await store.read(lambda conn: conn.execute(select(tables.c.status)).scalars().all())
        assert statuses == ["closed"] * closed
        played = await store.read(lambda conn: conn.execute(select(hands.c.status, hands.c.record)).all())
        assert sorted(row.status for row in played) == ["settled"] * settled + ["void"] * void
        audit = await store.audit()
        assert audit["balances"] == audit["grants"] and audit["lowest"] >= 0 and audit["unbalanced_hands"] == 0
        twice = await store.read(lambda conn: conn.execute(
            select(ledger.c.hand_id, ledger.c.user_id).where(ledger.c.hand_id.is_not(None))
            .group_by(ledger.c.hand_id, ledger.c.user_id).having(func.count() > 1)).all())
        assert twice == []
        public = signing_key_of(DEALER_KEY).public_key
        for row in played:
            if row.status == "settled":
                assert verify_record(row.record, public_key=public).level is Level.VERIFIED
    finally:
        await store.close()
