"""Helpers of the server tests: the databases (SQLite and PostgreSQL), a server running in-process
under uvicorn, and WebSocket clients that play what they are prompted."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from sqlalchemy import Connection, text
from websockets.asyncio.client import ClientConnection, connect

from chuanma.commands.serve import uvicorn_config
from chuanma.fairness import VRFKey
from chuanma.server.app import create_app
from chuanma.server.clock import ManualClock
from chuanma.server.config import ServerConfig
from chuanma.server.store import Store, sqlite_url

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
TIMEOUT = 60.0
"""Real seconds a test waits for a message before failing (the game's own timers use a ManualClock)."""
DEALER_KEY = VRFKey(bytes(range(7, 39)))
"""The dealer's key of the servers the tests start (the same after a restart)."""


async def _pg(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def create_pg_database() -> str:
    """A fresh PostgreSQL database at 127.0.0.1:5432; returns its URL (drop it with :func:`drop_pg_database`).
    Raises ``OSError`` or ``TimeoutError`` if PostgreSQL is not reachable."""
    name = f"chuanma_test_{secrets.token_hex(4)}"
    await _pg(f"CREATE DATABASE {name}")
    return f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"


async def drop_pg_database(url: str) -> None:
    await _pg(f"DROP DATABASE {url.rsplit('/', 1)[1]} WITH (FORCE)")


def user_at_0001(conn: Connection, name: str, password_hash: str | None = None, kind: str = "player",
                 balance: int = 0) -> int:
    """Add an account to a database at revision 0001, in that revision's columns (``last_grant``
    among them); returns its id."""
    conn.execute(text("INSERT INTO users (username, password_hash, kind, balance, last_grant, created_at) "
                      "VALUES (:name, :hash, :kind, :balance, 0.0, 0.0)"),
                 {"name": name, "hash": password_hash, "kind": kind, "balance": balance})
    return int(conn.execute(text("SELECT id FROM users WHERE username = :name"), {"name": name}).scalar_one())


@pytest.fixture
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one test (dropped after it); skips if none is reachable."""
    try:
        url = asyncio.run(create_pg_database())
    except (TimeoutError, OSError) as exc:
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 is not reachable ({exc}): the PostgreSQL runs skip")
    yield url
    asyncio.run(drop_pg_database(url))


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Every server test runs on SQLite (in a fresh data directory) and on PostgreSQL."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    url: str = request.getfixturevalue("pg_database")
    return url


def make_config(db_url: str, **overrides: Any) -> ServerConfig:
    settings: dict[str, Any] = {"clock": ManualClock(), "bot_wait": 5.0, "auth_per_minute": 1000,
                                "messages_per_second": 1000.0, "dealer_key": DEALER_KEY,
                                "guests_per_hour": 10_000, "private_tables_per_hour": 10_000, "auto_delay": 0.0,
                                "grants_per_day": 10_000}
    settings.update(overrides)
    return ServerConfig(db_url=db_url, **settings)


@dataclass
class Running:
    base: str
    config: ServerConfig
    app: Any
    loop: asyncio.AbstractEventLoop
    """The event loop the server runs in."""

    @property
    def clock(self) -> ManualClock:
        assert isinstance(self.config.clock, ManualClock)
        return self.config.clock

    @property
    def server(self) -> Any:
        return self.app.state.server


@asynccontextmanager
async def running(config: ServerConfig) -> AsyncIterator[Running]:
    """The server under uvicorn (as ``chuanma serve`` runs it) in this event loop, on a free port."""
    app = create_app(config)
    server = uvicorn.Server(uvicorn_config(app, config, "127.0.0.1", 0))
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield Running(f"http://127.0.0.1:{port}", config, app, asyncio.get_running_loop())
    finally:
        server.should_exit = True
        await task


def bearer(token: str) -> dict[str, str]:
    """The headers of a request made with ``token`` (a session's bearer token)."""
    return {"authorization": f"Bearer {token}"}


async def account(base: str, username: str | None = None, password: str = "correct horse") -> dict[str, Any]:
    """Register ``username``, or without one make a guest (no Argon2 hashing: quicker); returns
    ``{"user", "token"}``."""
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT, verify=False) as http:
        if username is None:
            r = await http.post("/api/guest")
        else:
            r = await http.post("/api/register", json={"username": username, "password": password})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data


@dataclass
class Client:
    """One player's WebSocket connection and everything it was sent."""

    ws: ClientConnection
    token: str
    name: str
    seen: list[dict[str, Any]] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    table: str | None = None
    seat: int | None = None
    hand: int = 0
    last: int = -1
    acts: int = 0

    @classmethod
    async def open(cls, base: str, token: str, name: str = "") -> Client:
        ws = await connect(base.replace("http", "ws") + f"/ws?token={token}", max_size=1 << 22)
        client = cls(ws, token, name)
        await client.expect("hello")
        return client

    async def send(self, type_: str, **fields: Any) -> None:
        await self.ws.send(json.dumps({"type": type_, "v": 1, **fields}))

    async def recv(self) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
        self.seen.append(msg)
        if msg["type"] == "seated":
            self.table, self.seat = msg["table"], msg["seat"]
        if msg["type"] in ("events", "resync", "hand_start"):
            if msg["hand"] != self.hand:
                self.hand, self.last = msg["hand"], -1
            if msg["type"] == "events":
                self.last = msg["events"][-1]["seq"]
            elif msg["type"] == "resync":
                self.last = msg["last"]
        return msg

    async def expect(self, *types: str) -> dict[str, Any]:
        """The next message of one of ``types`` (others are kept in :attr:`seen`)."""
        while True:
            msg = await self.recv()
            if msg["type"] in types:
                return msg

    def events(self) -> list[dict[str, Any]]:
        """Every event received in the current hand, in order."""
        return [e for m in self.seen if m["type"] == "events" and m["hand"] == self.hand for e in m["events"]]

    def choose(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        wins = [a for a in legal if "hu" in a]
        return wins[0] if wins else self.rng.choice(legal)

    async def play_hand(self, *, seed: str | None = None) -> dict[str, Any]:
        """Get ready, then answer every prompt until the hand ends; returns the ``hand_end``."""
        await self.send("ready", **({"client_seed": seed} if seed else {}))
        return await self.play_on()

    async def play_on(self, prompts: int | None = None) -> dict[str, Any]:
        """Answer prompts until the hand ends (returns ``hand_end``) or, with ``prompts``, until that
        many are answered (returns the last prompt)."""
        while True:
            msg = await self.expect("prompt", "hand_end", "error", "table_closed")
            if msg["type"] == "prompt":
                await self.send("act", table=msg["table"], version=msg["version"], action=self.choose(msg["legal"]))
                self.acts += 1
                if prompts is not None:
                    prompts -= 1
                    if prompts == 0:
                        return msg
            elif msg["type"] == "error":
                assert msg["code"] == "stale_version", msg
            else:
                return msg

    async def close(self) -> None:
        await self.ws.close()


async def seated_with_bots(base: str) -> Client:
    """A new player quick-joins 经典场 with bots allowed and is seated (with a bot wait of 0, at
    once, with three bots; base 6: a few hands never take a balance out of the room's range)."""
    acc = await account(base)
    client = await Client.open(base, acc["token"], acc["user"]["username"])
    await client.send("join", room="classic", bots=True)
    await client.expect("seated")
    return client


async def seat_four(run: Running, room: str = "chuji-xuezhan") -> list[Client]:
    """Four new players quick-join ``room`` (no bots) and are seated at one table."""
    clients = []
    for i in range(4):
        acc = await account(run.base)
        client = await Client.open(run.base, acc["token"], acc["user"]["username"])
        client.rng = random.Random(i)
        await client.send("join", room=room, bots=False)
        await client.expect("queued")
        clients.append(client)
    for client in clients:
        await client.expect("seated")
    assert len({c.table for c in clients}) == 1
    return clients


async def deal(clients: list[Client]) -> dict[str, Any]:
    """Every client gets ready with its seed; returns the ``hand_start`` of the deal (to the first)."""
    await asyncio.gather(*(c.send("ready", client_seed=f"seed-{c.name}") for c in clients))
    while not (start := await clients[0].expect("hand_start")).get("dealt"):
        pass
    return start


async def play_hands(clients: list[Client], hands: int = 1) -> list[list[dict[str, Any]]]:
    """Every client plays ``hands`` hands; returns each hand's ``hand_end`` per client."""
    ends = []
    for _ in range(hands):
        ends.append(list(await asyncio.gather(*(c.play_hand(seed=f"seed-{c.name}") for c in clients))))
    return ends


async def auto_table(run: Running, hands: int, preset: str) -> Client:
    """A private table of three easy bots and one client on 托管 that plays ``hands`` hands."""
    acc = await account(run.base)
    async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
        r = await http.post("/api/tables", json={"preset": preset, "hands": hands, "bots": 3, "bot_level": "easy"},
                            headers={"authorization": f"Bearer {acc['token']}"})
        assert r.status_code == 200, r.text
    c = await Client.open(run.base, acc["token"], acc["user"]["username"])
    await c.send("join_private", invite=r.json()["invite"])
    await c.expect("seated")
    while True:
        msg = await c.expect("hand_start", "table_closed", "error")
        assert msg["type"] != "error", msg
        if msg["type"] == "table_closed":
            return c
        await c.send("auto", on=True) if msg.get("dealt") else await c.send("ready")  # ready ends 托管


def hands_of(messages: list[dict[str, Any]]) -> list[tuple[list[dict[str, Any]], dict[str, Any]]]:
    """The messages of each hand (from its first ``hand_start`` to its ``hand_end``) and the end."""
    out, current = [], []
    for msg in messages:
        current.append(msg)
        if msg["type"] == "hand_end":
            out.append((current, msg))
            current = []
    return out


async def eventually(condition: Callable[[], bool]) -> None:
    """Let the server run until ``condition()`` holds (what a closed connection leaves behind is
    cleared a moment after it closes); fail if it still does not after :data:`TIMEOUT` real seconds."""
    async with asyncio.timeout(TIMEOUT):
        while not condition():
            await asyncio.sleep(0.01)


async def lock_waited(store: Store) -> None:
    """Return once a connection of the store's PostgreSQL database waits for a row lock."""
    waiting = text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                   "AND datname = current_database()")
    while not await store.read(lambda c: c.execute(waiting).scalar()):
        await asyncio.sleep(0.01)
