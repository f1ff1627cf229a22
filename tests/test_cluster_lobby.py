"""The cluster's lobby and bookkeeping (docs/server.md, Cluster): bots fill a queue across the
nodes, a dead node's queue rows and stand-ins are freed, ``GET /api/tables`` lists every node's
tables, and two clusters sharing a Redis do not hear each other. Two nodes run in this process
(a manual clock), but for the kill -9, which two ``chuanma serve --redis`` processes show."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Connection, select, update

from chuanma.fairness.keys import write_key
from chuanma.server import protocol as p
from chuanma.server.bus import Bus, encode
from chuanma.server.clock import ManualClock
from chuanma.server.cluster import ClusterHost, ClusterLobby, Queued
from chuanma.server.host import FILL_RETRY
from chuanma.server.metrics import Metrics
from chuanma.server.rooms import DEFAULT_ROOMS as ROOMS
from chuanma.server.schema import seatings, tables, users
from chuanma.server.seatings import BotNeed, Seatings, SeatTakenError
from chuanma.server.store import AsyncRunner, Row, Store, open_store
from chuanma.server.table import RefusedError
from chuanma.server.table_leases import GONE, TableLeases, cluster_prefix
from server_harness import (
    DEALER_KEY,
    TIMEOUT,
    Client,
    account,
    create_pg_database,
    drop_pg_database,
    eventually,
    lock_waited,
    make_config,
    pg_database,
)
from test_cluster import DEALER, LEASE, REDIS, Node, cluster_db, new_table_row, redis_reachable

__all__ = ["cluster_db", "pg_database"]

ROOM = ROOMS["chuji-xuezhan"]
BOT_WAIT = 5.0
NODE_LEASE = 30.0
"""The in-process nodes' lease time: longer than any step the tests move the clock by."""
PARKED = 5000
"""Seated bots whose ids come before the idle ones'."""
OPENINGS = 24
"""Private tables of four bots opened at once (half by each node)."""


@asynccontextmanager
async def two_nodes(db: str, clock: ManualClock) -> AsyncIterator[list[tuple[ClusterHost, ClusterLobby]]]:
    """Nodes ``a`` and ``b`` on database ``db`` and Redis (under a prefix of their own), joined."""
    prefix = f"chuanma:test-{secrets.token_hex(4)}:"
    nodes: list[tuple[ClusterHost, ClusterLobby]] = []
    try:
        for name in ("a", "b"):
            store = await open_store(db)
            metrics = Metrics()
            config = make_config(db, clock=clock, lease_holder=name, bot_wait=BOT_WAIT)
            host = ClusterHost(store, config, metrics, leases=TableLeases(store, clock, NODE_LEASE, name, DEALER),
                               bus=Bus(REDIS, prefix, name, metrics))
            nodes.append((host, ClusterLobby(host, cluster=host)))
            await host.resume_all()
        yield nodes
    finally:
        for host, lobby in nodes:
            for timer in lobby.timers.values():
                timer.cancel()
            await host.stop()
            await host.store.close()


async def guest(store: Store, clock: ManualClock) -> Row:
    user_id = await store.create_user(f"g_{secrets.token_hex(4)}", None, "guest", 10_000, clock.now())
    assert user_id is not None
    row = await store.user(user_id)
    assert row is not None
    return row


def unseated(table_id: str) -> dict[str, Any]:
    """A new table's row without its seats (:meth:`Seatings.open_table` writes them)."""
    return {k: v for k, v in new_table_row(table_id).items() if k != "seats"}


def seated_at(told: list[dict[str, Any]]) -> str | None:
    return next((m["table"] for m in told if m["type"] == "seated"), None)


def test_bots_fill_one_table_for_those_waiting_on_two_nodes_and_a_dead_nodes_stand_ins_go(cluster_db: str) -> None:
    """One player waits on node a, one on node b, both allowing bots: once the first has waited
    ``bot_wait`` they sit at one table with two bots (not at two tables with three each). A
    connection of a node that never beat (dead) watches that table through the owner's stand-in;
    the owner's next look detaches and forgets it."""
    async def scenario() -> None:
        clock = ManualClock(1000.0)
        async with two_nodes(cluster_db, clock) as [(a, lobby_a), (b, lobby_b)]:
            told: list[list[dict[str, Any]]] = [[], []]
            for lobby, said in ((lobby_a, told[0]), (lobby_b, told[1])):
                await lobby.join(ROOM, await guest(a.store, clock), said.append, True)
                clock.advance(1.0)
            assert [m["type"] for m in told[0] + told[1]] == ["queued", "queued"]
            clock.advance(BOT_WAIT - 2.0)  # the first has waited bot_wait
            await eventually(lambda: all(seated_at(said) for said in told))
            table_id = seated_at(told[0])
            assert table_id is not None and seated_at(told[1]) == table_id
            rows = await a.store.read(lambda conn: conn.execute(select(tables.c.id, tables.c.seats)).all())
            assert [row.id for row in rows] == [table_id]
            kinds = await a.store.read(lambda conn: conn.execute(
                select(users.c.kind).where(users.c.id.in_(rows[0].seats))).scalars().all())
            assert sorted(kinds) == ["bot", "bot", "guest", "guest"]

            owner = a if table_id in a.tables else b
            table = owner.tables[table_id]
            watch = p.Watch(type="watch", table=table_id, invite=None, views=False)
            owner.received({"kind": "cmd", "table": table_id, "node": "ghost", "conn": 7, "user": 0,
                            "msg": encode(watch), "hops": 0})
            await eventually(lambda: len(table.state.watchers) == 1)
            await owner.look()
            assert ("ghost", 7) not in owner.proxies
            await eventually(lambda: table.state.watchers == [])
    asyncio.run(scenario())


class Refusing(contextlib.AbstractAsyncContextManager[None]):
    """A lobby lock that cannot be had (as the cluster's while Redis is away); counts the tries."""

    def __init__(self) -> None:
        self.tries = 0

    async def __aenter__(self) -> None:
        self.tries += 1
        raise RefusedError("busy", "the lobby cannot be reached now (Redis is away): join again")

    async def __aexit__(self, *_exc: object) -> None:
        return None


def test_a_bot_fill_timer_refused_the_lobby_lock_tries_again(cluster_db: str) -> None:
    """A player allowing bots waits on node a; when their ``bot_wait`` is up the lobby's lock
    cannot be had: the timer is set again, and once the lock can be had they sit with bots."""
    async def scenario() -> None:
        clock = ManualClock(1000.0)
        async with two_nodes(cluster_db, clock) as [(a, lobby_a), _b]:
            told: list[dict[str, Any]] = []
            await lobby_a.join(ROOM, await guest(a.store, clock), told.append, True)
            lock, refusing = lobby_a.lock, Refusing()
            lobby_a.lock = refusing
            clock.advance(BOT_WAIT)
            await eventually(lambda: refusing.tries == 1 and ROOM.id in lobby_a.timers)
            assert seated_at(told) is None
            lobby_a.lock = lock
            clock.advance(FILL_RETRY)
            await eventually(lambda: seated_at(told) is not None)
    asyncio.run(scenario())


def test_a_table_the_cluster_cannot_open_sends_its_players_away_on_every_node(cluster_db: str) -> None:
    """Players allowing bots wait on nodes a and b; the table for them cannot be opened (a database
    error): as on one process, both leave the queue (their rows deleted), each told by its node
    to join again (``no_table``)."""
    async def scenario() -> None:
        clock = ManualClock(1000.0)
        async with two_nodes(cluster_db, clock) as [(a, lobby_a), (b, lobby_b)]:
            async def fail(*_args: object, **_kwargs: object) -> str:
                raise RuntimeError("the database cannot be reached")
            for host in (a, b):
                host.open_table = fail  # type: ignore[method-assign]
            told: list[list[dict[str, Any]]] = [[], []]
            for lobby, said in ((lobby_a, told[0]), (lobby_b, told[1])):
                await lobby.join(ROOM, await guest(a.store, clock), said.append, True)
                clock.advance(1.0)
            clock.advance(BOT_WAIT - 2.0)
            await eventually(lambda: all(any(m["type"] == "error" for m in said) for said in told))
            assert [[m.get("code") for m in said] for said in told] == [[None, "no_table"]] * 2
            rows = await a.store.read(lambda conn: conn.execute(select(seatings.c.user_id)).all())
            assert rows == []
            assert lobby_a.queues[ROOM.id] == lobby_b.queues[ROOM.id] == []
            assert lobby_a.elsewhere == lobby_b.elsewhere == {}
    asyncio.run(scenario())


def test_a_node_back_from_a_long_pause_writes_its_queue_rows_again(cluster_db: str) -> None:
    """A player waits on node a, which stops beating for more than two lease times: node b's
    heartbeat deletes their queue row, and a's lobby finds them queued nowhere. When a beats
    again their row is written again, with their wait kept, and every node finds them queued."""
    async def scenario() -> None:
        clock = ManualClock(1000.0)
        async with two_nodes(cluster_db, clock) as [(a, lobby_a), (b, _lobby_b)]:
            assert a.keeper is not None
            a.keeper.cancel()  # a stalls
            user_id = int((user := await guest(a.store, clock))["id"])
            await lobby_a.join(ROOM, user, lambda _m: None, False)
            clock.advance(GONE * NODE_LEASE + 1.0)
            await b.leases.heartbeat()
            rows = await a.store.read(lambda conn: conn.execute(select(seatings.c.user_id)).all())
            assert rows == []
            async with lobby_a.lock:
                await lobby_a.match(ROOM)
            assert list(lobby_a.elsewhere) == [user_id]
            await a.look()
            assert await b.queued(ROOM.id) == [Queued(user_id, 1000.0, False)]
            assert [int(w.user["id"]) for w in lobby_a.queues[ROOM.id]] == [user_id] and lobby_a.elsewhere == {}
    asyncio.run(scenario())


def test_a_table_is_not_opened_for_a_player_who_left_the_queue(cluster_db: str) -> None:
    """Opening a room's table for a player with no place (they left its queue) is refused and
    stores nothing; a private table (no room) seats a player with no place."""
    async def scenario() -> None:
        store = await open_store(cluster_db)
        try:
            clock = ManualClock(1000.0)
            user_id = int((await guest(store, clock))["id"])
            need = BotNeed(10, None, 50)
            row = {k: v for k, v in new_table_row("roomed").items() if k != "seats"} | {"room": ROOM.id}
            with pytest.raises(SeatTakenError, match="no longer waits"):
                await Seatings(store).open_table(row, {0: user_id}, ROOM.id, [1, 2, 3], need, None, clock.now())
            assert await store.read(lambda conn: conn.execute(select(tables.c.id)).all()) == []
            private = {k: v for k, v in new_table_row("private").items() if k != "seats"}
            await Seatings(store).open_table(private, {0: user_id}, None, [], need, None, clock.now())
            placed = await store.read(lambda conn: conn.execute(select(seatings.c.table_id)).scalars().all())
            assert placed == ["private"]
        finally:
            await store.close()
    asyncio.run(scenario())


def test_a_seat_read_is_kept_until_the_tables_owner_unseats_the_player(cluster_db: str) -> None:
    """Node b reads where a player of a table held by node a sits once, then keeps it; node a
    gives the seat to a bot, announces it, and b reads the seat again (none)."""
    async def scenario() -> None:
        clock = ManualClock(1000.0)
        async with two_nodes(cluster_db, clock) as [(a, _lobby_a), (b, _lobby_b)]:
            user_id = int((await guest(a.store, clock))["id"])
            await a.seatings.queue(user_id, ROOM.id, clock.now(), "a", False)
            table_id = await a.open_table(ROOM, ROOM.rules(), [{"id": user_id, "username": "x", "kind": "guest"}],
                                          bots=3)
            reads: list[object] = []
            read = b.store.read

            async def counted(work: Any) -> Any:
                reads.append(work)
                return await read(work)
            b.store.read = counted  # type: ignore[method-assign]
            assert [await b.seat_of(user_id) for _ in range(3)] == [table_id] * 3 and len(reads) == 1
            place = a.tables[table_id].state.seat_of(user_id)
            assert place is not None
            await a.seat_bot(table_id, place, ROOM, user_id)
            await eventually(lambda: user_id not in b.seats)
            assert await b.seat_of(user_id) is None and len(reads) == 2
    asyncio.run(scenario())


def test_a_dead_nodes_queue_rows_are_deleted_by_a_live_nodes_heartbeat(cluster_db: str) -> None:
    """A player queued on node c, which stops beating: node a's heartbeats keep the row for two of
    c's lease times, and delete it then."""
    async def scenario() -> None:
        store = await open_store(cluster_db)
        try:
            clock = ManualClock(1000.0)
            a, c = TableLeases(store, clock, LEASE, "a", DEALER), TableLeases(store, clock, LEASE, "c", DEALER)
            await c.heartbeat()
            user = await guest(store, clock)
            await Seatings(store).queue(int(user["id"]), ROOM.id, clock.now(), "c", True)

            async def queued() -> list[int]:
                return await store.read(lambda conn: list(conn.execute(select(seatings.c.user_id)).scalars()))
            clock.advance(GONE * LEASE - 0.5)
            await a.heartbeat()
            assert await queued() == [user["id"]]
            clock.advance(1.0)
            await a.heartbeat()
            assert await queued() == []
        finally:
            await store.close()
    asyncio.run(scenario())


def test_only_a_player_waiting_on_the_node_is_dropped_under_the_lobbys_lock(cluster_db: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A closing connection takes its player out of the queues under the cluster's lobby lock only
    if they wait in a queue of its node: the connection of a player waiting nowhere (seated, or a
    stopping node's) never waits for that lock."""
    async def scenario() -> None:
        clock = ManualClock(1000.0)
        async with two_nodes(cluster_db, clock) as [(a, lobby_a), _]:
            taken: list[str] = []
            lock = a.bus.lock

            def counted(name: str, seconds: float) -> Any:
                taken.append(name)
                return lock(name, seconds)
            monkeypatch.setattr(a.bus, "lock", counted)
            waiting, elsewhere = await guest(a.store, clock), await guest(a.store, clock)
            await lobby_a.join(ROOM, waiting, [].append, False)
            await lobby_a.drop(int(elsewhere["id"]))
            assert taken == ["lobby"]  # the join's
            await lobby_a.drop(int(waiting["id"]))
            assert taken == ["lobby", "lobby"] and not lobby_a.waits_here(int(waiting["id"]))
            assert await a.store.read(lambda conn: conn.execute(select(seatings.c.user_id)).all()) == []
    asyncio.run(scenario())


def test_a_player_placed_by_a_transaction_in_flight_is_not_placed_twice(cluster_db: str) -> None:
    """A transaction seats a queued player and has not committed; another opening a table for them
    waits for it, then finds them seated and is refused (nothing of its table is stored)."""
    async def scenario() -> None:
        store = await open_store(cluster_db)
        try:
            clock = ManualClock(1000.0)
            user_id = int((await guest(store, clock))["id"])
            await Seatings(store).queue(user_id, ROOM.id, clock.now(), "a", True)
            await store.create_table(new_table_row("first"))
            assert isinstance(store.runner, AsyncRunner)
            async with store.runner.engine.begin() as conn:
                await conn.execute(update(seatings).where(seatings.c.user_id == user_id).values(table_id="first"))
                row = unseated("second") | {"room": ROOM.id}
                second = asyncio.create_task(Seatings(store).open_table(
                    row, {0: user_id}, ROOM.id, [1, 2, 3], BotNeed(10, None, 50), None, clock.now()))
                await asyncio.wait_for(lock_waited(store), TIMEOUT)
            with pytest.raises(SeatTakenError, match="table first"):
                await asyncio.wait_for(second, TIMEOUT)
            ids = await store.read(lambda conn: conn.execute(select(tables.c.id)).scalars().all())
            assert ids == ["first"]
        finally:
            await store.close()
    asyncio.run(scenario())


def test_tables_opened_at_once_by_two_nodes_never_take_one_bot_twice(cluster_db: str) -> None:
    """Two nodes open many private tables at once. A bot another transaction seated after this
    one's query began, then committed, looks idle to that query and is no longer locked: it is
    passed over once locked, not claimed a second time (which refused the opening). Many seated
    bots precede the idle ones, so each query runs long enough for such commits to land in it."""
    async def scenario() -> None:
        stores = [await open_store(cluster_db) for _ in range(2)]
        try:
            def park(conn: Connection) -> None:
                conn.execute(tables.insert().values(new_table_row("parked")))
                conn.execute(users.insert(), [{"username": f"b_{k}", "password_hash": None, "kind": "bot",
                                               "balance": 100, "created_at": 0.0} for k in range(PARKED + 60)])
                ids = conn.execute(select(users.c.id).order_by(users.c.id).limit(PARKED)).scalars().all()
                conn.execute(seatings.insert(), [{"user_id": u, "table_id": "parked", "since": 0.0} for u in ids])
            await stores[0].write(park)
            need = BotNeed(10, None, 50)
            opened = await asyncio.gather(*(
                Seatings(stores[k % 2]).open_table(unseated(f"t{k}"), {}, None, [0, 1, 2, 3], need, None, 0.0)
                for k in range(OPENINGS)))
            bots = [int(bot["id"]) for taken in opened for bot in taken.values()]
            assert len(bots) == 4 * OPENINGS and len(set(bots)) == len(bots)
            placed = await stores[0].read(lambda conn: dict(conn.execute(
                select(seatings.c.user_id, seatings.c.table_id).where(seatings.c.table_id != "parked")).all()))
            assert placed == {int(bot["id"]): f"t{k}" for k, taken in enumerate(opened) for bot in taken.values()}
        finally:
            for store in stores:
                await store.close()
    asyncio.run(scenario())


def test_two_clusters_sharing_a_redis_do_not_hear_each_other(cluster_db: str) -> None:
    """The prefix is the cluster's id, kept in its database: the same for every node of one
    cluster, another for a cluster on another database; an announcement of one reaches none of
    the other's nodes."""
    async def scenario() -> None:
        other_db = await create_pg_database()
        stores = [await open_store(cluster_db), await open_store(cluster_db), await open_store(other_db)]
        buses: list[Bus] = []
        try:
            prefixes = [await cluster_prefix(store) for store in stores]
            assert prefixes[0] == prefixes[1] != prefixes[2]
            assert all(prefix.startswith("chuanma:") and len(prefix) == len("chuanma::") + 16 for prefix in prefixes)
            heard: list[list[dict[str, Any]]] = [[], []]
            for prefix, said in zip((prefixes[0], prefixes[2]), heard, strict=True):
                bus = Bus(REDIS, prefix, "n1", Metrics())
                await bus.start(lambda _data: None, said.append, lambda: None)
                buses.append(bus)
            await buses[1].announce("theirs", 1)
            await buses[0].announce("ours", 1)
            await eventually(lambda: bool(heard[0]) and bool(heard[1]))
            await asyncio.sleep(0.2)
            assert [m["table"] for m in heard[0]] == ["ours"] and [m["table"] for m in heard[1]] == ["theirs"]
        finally:
            for bus in buses:
                await bus.close()
            for store in stores:
                await store.close()
            await drop_pg_database(other_db)
    asyncio.run(scenario())


def test_a_closing_bus_publishes_what_was_queued_first() -> None:
    """A node stopping (its bus closed) with messages still queued: they all reach their node, in order."""
    if redis_reachable() is not None:
        pytest.skip("Redis at 127.0.0.1:6379 is not reachable: the cluster tests skip")

    async def scenario() -> None:
        prefix = f"chuanma:test-{secrets.token_hex(4)}:"
        heard: list[dict[str, Any]] = []
        listener, sender = Bus(REDIS, prefix, "n2", Metrics()), Bus(REDIS, prefix, "n1", Metrics())
        await listener.start(heard.append, lambda _data: None, lambda: None)
        await sender.start(lambda _data: None, lambda _data: None, lambda: None)
        try:
            for k in range(50):
                sender.post("n2", {"kind": "msg", "k": k})
            await sender.close()
            await eventually(lambda: len(heard) == 50)
            assert [m["k"] for m in heard] == list(range(50))
        finally:
            await listener.close()
    asyncio.run(scenario())


def test_tables_listed_by_any_node_and_a_killed_nodes_queue_freed(cluster_db: str, tmp_path: Path) -> None:
    """Two nodes: a private table opened on each, both listed by ``GET /api/tables`` on each node
    (to their creator; to nobody else). A player waits in a room on node 0, which is killed (kill
    -9): their queue row is deleted within about two lease times, and node 1 still lists both tables
    (node 0's taken over)."""
    if redis_reachable() is not None:
        pytest.skip("Redis at 127.0.0.1:6379 is not reachable: the cluster tests skip")
    key = write_key(DEALER_KEY, tmp_path / "dealer.key")

    async def scenario() -> None:
        nodes = [Node.start(cluster_db, REDIS, tmp_path / f"n{k}", key, LEASE) for k in range(2)]
        try:
            await asyncio.gather(*(n.ready() for n in nodes))
            creator, stranger, waiting = [await account(nodes[0].base) for _ in range(3)]
            made = []
            for node in nodes:
                async with httpx.AsyncClient(base_url=node.base, timeout=10) as http:
                    made.append((await http.post("/api/tables", json={"bots": 3, "hands": 1}, headers={
                        "authorization": f"Bearer {creator['token']}"})).json()["table"])

            async def listed(node: Node, acc: dict[str, Any]) -> list[str]:
                async with httpx.AsyncClient(base_url=node.base, timeout=10) as http:
                    got = await http.get("/api/tables", headers={"authorization": f"Bearer {acc['token']}"})
                    return sorted(t["table"] for t in got.json())
            for node in nodes:  # each node holds one of them (or both, if one lapsed meanwhile)
                assert await listed(node, creator) == sorted(made) and await listed(node, stranger) == []
            client = await Client.open(nodes[0].base, waiting["token"])
            await client.send("join", room=ROOM.id, bots=False)
            await client.expect("queued")
            nodes[0].kill()
            store = await open_store(cluster_db)
            try:
                rows: list[int] = [waiting["user"]["id"]]
                while rows:
                    rows = await store.read(lambda conn: list(conn.execute(
                        select(seatings.c.user_id).where(seatings.c.table_id.is_(None))).scalars()))
                    await asyncio.sleep(0.1)
            finally:
                await store.close()
            assert await listed(nodes[1], creator) == sorted(made)
        finally:
            for node in nodes:
                node.stop()
    asyncio.run(asyncio.wait_for(scenario(), 60))
