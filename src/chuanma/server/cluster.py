"""Several ``chuanma serve`` processes over one PostgreSQL and Redis: :class:`ClusterHost`.

Each node runs the tables it holds the lease of (:mod:`chuanma.server.table_leases`) exactly as
:class:`~chuanma.server.host.LocalHost` runs them, each table writing through a store fenced by its
own lease. A connection's command for a table held elsewhere crosses the bus
(:mod:`chuanma.server.bus`) to its owner, which answers through a stand-in connection whose
messages cross back. Every third of the lease time the node renews its leases (dropping the
tables taken over) and claims its share of the tables whose lease lapsed, rebuilt from their
stored decisions; a new owner announces each table, and every node attaches its connections of
that table again (they get ``resync``). docs/server.md, Cluster, has the whole design.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import LockError
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from chuanma.rules import RuleSet
from chuanma.server import protocol as p
from chuanma.server import table_inputs as i
from chuanma.server.bus import UNREACHABLE, Bus, decode, encode
from chuanma.server.dealer import DealerKeyError
from chuanma.server.host import Lobby, LocalHost, Waiting, not_opened
from chuanma.server.lease import LeaseHeldError, LeaseLostError
from chuanma.server.rooms import PRIVATE_ROOM, Room
from chuanma.server.schema import seatings, tables
from chuanma.server.seatings import Seatings, SeatTakenError
from chuanma.server.store import Row
from chuanma.server.table import Command, LiveTable, RefusedError, Send
from chuanma.server.table_leases import RENEWALS, ClusterCopyError, TableLeases

log = logging.getLogger("chuanma.server.cluster")
LOBBY_LOCK = 10.0
"""Seconds the lobby's cluster-wide lock is waited for, and lapses after if its holder dies."""
MAX_HOPS = 3
"""How many nodes a command may be passed along (an owner moving meanwhile) before it is refused."""


def reattach(message: i.CommandMessage) -> i.CommandMessage | None:
    """What attaches a connection again after ``message`` (to a table's new owner): a spectator's
    ``watch``, a player's rejoining; ``None`` once it left (or was never attached)."""
    if isinstance(message, p.Watch):
        return message
    if isinstance(message, i.Detach | p.Leave | i.Idle | i.Expel | i.Void):
        return None
    return i.Rejoin()


@dataclass(frozen=True, slots=True)
class Queued:
    """A player waiting in a room's queue (on any node): since when, and whether they allow bots."""

    user_id: int
    since: float
    bots: bool


@dataclass
class StandIn:
    """Another node's connection at tables held here: its messages cross back (``send``)."""

    send: Send
    tables: set[str] = field(default_factory=set)
    """The tables it gave a command to."""


@dataclass
class ClusterHost(LocalHost):
    """The tables this node owns, and the way to every other node's (see the module's docstring)."""

    leases: TableLeases = field(kw_only=True)
    bus: Bus = field(kw_only=True)
    owners: dict[str, str] = field(default_factory=dict)
    """The owner of each table a command was sent to, as last known (the database has the truth)."""
    conns: dict[int, Send] = field(default_factory=dict)
    """This node's connections that reached a table, by number."""
    numbers: dict[int, int] = field(default_factory=dict)
    """Their numbers, by the identity of their callbacks."""
    attached: dict[str, dict[int, tuple[int, i.CommandMessage]]] = field(default_factory=dict)
    """Per table, this node's connections attached to it: their user and what attaches them again."""
    proxies: dict[tuple[str, int], StandIn] = field(default_factory=dict)
    """The stand-ins of other nodes' connections at the tables owned here, by node and number
    (freed when their node stops beating: :meth:`free`)."""
    fences: dict[str, Seatings] = field(default_factory=dict)
    """The seatings each table held here writes through (fenced by its lease)."""
    counter: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    keeper: asyncio.Task[None] | None = None
    on_seated: Callable[[str, list[int]], None] | None = None
    """What is told whom quick-join seated at a table, on whichever node (the lobby)."""
    on_unopened: Callable[[list[int]], None] | None = None
    """What is told whom quick-join could not seat, the table not opened, on whichever node (the lobby)."""
    on_back: Callable[[], Awaitable[None]] | None = None
    """What is done when this node beats again after the others may have taken it for dead (the
    lobby writes its queue rows again)."""
    seats: dict[int, tuple[str, float]] = field(default_factory=dict)
    """Where players sit as last read from the database (:meth:`seat_of`), each with the time until
    which it is believed: forgotten sooner when a node announces it unseated them."""
    on_drain: Callable[[], None] | None = None
    """What drains this node and stops it when an operator asks (``chuanma admin drain``: the app's)."""
    unseatings: int = 0
    """How many announcements of players unseated were heard (a read begun before one is not kept)."""

    @property
    def name(self) -> str:
        return self.leases.holder

    # ---------------------------------------------------------------- ownership

    def seatings_of(self, table_id: str) -> Seatings:
        fenced = self.fences.get(table_id)
        if fenced is None:
            raise LeaseLostError(f"this node holds no lease of table {table_id}")
        return fenced

    async def own(self, table_id: str) -> None:
        """Claim the lease of the table ``table_id`` this node just opened."""
        if not await self.leases.claim(table_id):
            raise LeaseLostError(f"table {table_id} was claimed by another node first")

    def new_table(self, table_id: str, room: Room | None, rules: RuleSet, hands_limit: int | None,
                  bot_level: str | None = None) -> LiveTable:
        """A table whose every write is fenced by its lease (claimed before it starts)."""
        fenced = self.fences[table_id] = Seatings(self.store.fenced(self.leases.fence(table_id)))
        return LiveTable(table_id, room, rules, store=fenced.store, config=self.config,
                         metrics=self.metrics, host=self, hands_limit=hands_limit, bot_level=bot_level)

    async def release(self, table_id: str, users: list[int], reason: str,
                      record: dict[str, Any] | None = None) -> None:
        await super().release(table_id, users, reason, record)
        self.fences.pop(table_id, None)
        self.unseat(users)
        await self.leases.drop(table_id)

    async def seat_bot(self, table_id: str, place: int, room: Room | None, replacing: int | None) -> Row:
        bot = await super().seat_bot(table_id, place, room, replacing)
        if replacing is not None:
            self.unseat([replacing])
        return bot

    async def expel(self, user_id: int, reason: str) -> None:
        """Expel ``user_id`` here, and tell every other node to do so with theirs."""
        self.expel_here(user_id, reason)
        await self.bus.expelled(user_id, reason)

    async def reconfigure(self) -> None:
        """Read the rooms and notices again here, and tell every other node to."""
        await self.reload()
        await self.bus.reconfigured()

    async def log_out(self, user_id: int, reason: str, digest: str | None, others: bool = False) -> None:
        """Close the ended sessions' sockets here, and tell every other node to close theirs."""
        self.close_here(user_id, reason, digest, others)
        await self.bus.logged_out(user_id, reason, digest, others)

    def unseat(self, users: list[int]) -> None:
        """``users`` were unseated here: forgotten here and by every other node."""
        self.unseated(users)
        self.bus.later(functools.partial(self.bus.unseated, users))

    def unseated(self, users: list[int]) -> None:
        """A node unseated ``users``: where they sat is read again."""
        self.unseatings += 1
        for user_id in users:
            self.seats.pop(user_id, None)

    async def give_up(self, table_id: str, users: list[int], connections: list[Command], why: str) -> None:
        """Give up a table only while this node holds its lease: one another node took over (during
        its rebuild here, say) is that node's to run, and is dropped here without a write or a word."""
        if table_id not in self.leases.tokens:
            self.lose(table_id)
            return
        await super().give_up(table_id, users, connections, why)

    async def resume_or_give_up(self, table_id: str, users: list[int], connections: list[Command],
                                rebuild: Callable[[], Awaitable[None]]) -> None:
        """As a single process does, but a table this node cannot deal (its hand was dealt by another
        of the cluster's keys, during a rotation) is not given up: its lease is released at once, for
        a node holding that key (whose claims :meth:`TableLeases.orphans` leaves it to)."""
        try:
            await super().resume_or_give_up(table_id, users, connections, rebuild)
        except DealerKeyError as exc:
            self.metrics.tables_refused.inc()
            log.warning(f"table not taken over: {exc}", extra={"table": table_id})
            self.fences.pop(table_id, None)
            self.tables.pop(table_id, None)
            self.forget(table_id, users)
            await self.leases.drop(table_id)

    async def resume_table(self, table_id: str, connections: list[Command]) -> None:
        """Rebuild a failed table if its lease is still this node's; else drop it (its new owner's
        announcement attaches its connections again)."""
        if table_id in self.leases.tokens:
            await super().resume_table(table_id, connections)
        else:
            self.lose(table_id)

    def lose(self, table_id: str) -> None:
        """Another node took ``table_id`` over: stop it here without writing anything more."""
        self.metrics.leases_lost.inc()
        log.warning("table lease lost", extra={"table": table_id})
        self.stop_here(table_id)

    def stop_here(self, table_id: str) -> asyncio.Task[None] | None:
        """Stop running ``table_id`` here (its task cancelled, returned); where its players sit is read again."""
        self.fences.pop(table_id, None)
        self.owners.pop(table_id, None)
        table = self.tables.get(table_id)
        if table is not None:
            self.forget(table_id, [s.user_id for s in table.seats if s is not None])
        task = self.tasks.get(table_id)
        if task is not None:
            task.cancel()
        return task

    async def hand_over(self, table_id: str) -> None:
        """Stop ``table_id`` here once its writes are done and let its lease lapse at once: another
        node claims it at its next look and rebuilds it from the database (the connections to it,
        this node's too, attach again at that node's announcement)."""
        task = self.stop_here(table_id)
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)
        await self.store.flush()
        await self.leases.lapse(table_id)
        self.metrics.handed_over.inc()
        log.info("table handed over", extra={"table": table_id})

    async def rested(self, table_id: str) -> None:
        """A draining table came to rest between hands: :meth:`hand_over`."""
        await self.hand_over(table_id)

    async def drain(self, seconds: float) -> int:
        """As one process drains, each table handed over as it comes to rest; then those still
        playing a hand are handed over too (rebuilt mid-hand elsewhere: their players resync). This
        node claims no table again (:meth:`look` hands over those opened here since)."""
        playing = await super().drain(seconds)
        for table_id in list(self.tables):
            await self.hand_over(table_id)
        return playing

    async def resume_all(self) -> int:
        """Join the cluster: connect the bus, write the first heartbeat, claim this node's share of
        the orphaned tables, and keep doing so; returns how many tables this node then holds."""
        await self.reload()
        await self.bus.start(self.received, self.announced, self.reconnected)
        log.info(f"cluster node {self.name}: Redis channels and keys under {self.bus.prefix}")
        await self.look()
        self.keeper = asyncio.create_task(self.keep(), name="cluster-keeper")
        return len(self.tables)

    async def keep(self) -> None:
        clock = self.config.clock
        while True:
            await clock.sleep_until(clock.now() + self.leases.seconds / RENEWALS)
            try:
                await self.look()
            except Exception:  # the database away: tried again at the next look
                log.exception("cluster: leases not looked after")

    async def look(self) -> None:
        """One heartbeat: drop the tables taken over, free the stand-ins of dead nodes' connections,
        then claim and rebuild this node's share of orphans (none while a single-process server
        holds the database: every table here is dropped). Back from a pause longer than a lease
        (the others took it for dead), it attaches its connections to their tables again and its
        waiting players' queue rows are written again (:attr:`on_back`)."""
        away, first = self.leases.lost is not None, self.leases.renewed is None
        try:
            taken = await self.leases.heartbeat(await self.bus.epoch())
        except (LeaseHeldError, ClusterCopyError) as exc:
            if first and isinstance(exc, ClusterCopyError):
                raise  # the node does not start
            log.error(f"this node stops its tables: {exc}" if isinstance(exc, ClusterCopyError) else
                      "a single-process server holds the database: this node stops its tables")
            for table_id in list(self.tables):
                self.lose(table_id)
            return
        await self.bus.saw_epoch(self.leases.epoch)
        for table_id in taken:
            self.lose(table_id)
        if away and self.leases.lost is None:
            for table_id in list(self.attached):
                self.attach_again(table_id)
            if self.on_back is not None:
                await self.on_back()
        self.free(await self.leases.nodes())
        if self.leases.drain is not None and not self.draining and self.on_drain is not None:
            self.on_drain()  # an operator asked (chuanma admin drain)
        if self.draining:  # it claims none, and hands over those opened here since
            for table_id, table in list(self.tables.items()):
                if table.at_rest:
                    await self.hand_over(table_id)
            return
        for table_id in await self.leases.orphans():
            if table_id in self.tables or not await self.leases.claim(table_id):
                continue
            self.metrics.handovers.inc()
            rows = [r for r in await self.store.open_tables() if r["id"] == table_id]
            if not rows:  # closed since it was found
                await self.leases.drop(table_id)
                continue
            users = [int(u) for u in rows[0]["seats"] if u is not None]
            await self.resume_or_give_up(table_id, users, [], functools.partial(self.resume, rows[0], []))
            log.info("table taken over", extra={"table": table_id})
            await self.bus.announce(table_id, self.leases.tokens.get(table_id, 0))

    async def stop(self) -> None:
        """Stop the tables, then let their leases lapse at once (the other nodes take them over)."""
        if self.keeper is not None:
            self.keeper.cancel()
        await super().stop()
        await self.store.flush()
        await self.leases.release()
        await self.bus.close()

    # ---------------------------------------------------------------- finding players and tables

    async def seat_of(self, user_id: int) -> str | None:
        """The table ``user_id`` sits at, whichever node owns it: the database's seatings, a table
        found kept for a third of the lease time or until a node announces it unseated them (a
        command routed meanwhile to a table they left is refused by that table, as one sent just
        before they left)."""
        now = self.config.clock.now()
        known = self.seats.get(user_id)
        if known is not None and known[1] > now:
            return known[0]
        heard = self.unseatings
        q = select(seatings.c.table_id).where(seatings.c.user_id == user_id)
        table_id: str | None = await self.store.read(lambda conn: conn.execute(q).scalar())
        if table_id is not None and heard == self.unseatings:
            self.seats[user_id] = (table_id, now + self.leases.seconds / RENEWALS)
        else:
            self.seats.pop(user_id, None)
        return table_id

    async def watchable(self, table_id: str, user_id: int, invite: str | None) -> bool:
        if table_id in self.tables:
            return await super().watchable(table_id, user_id, invite)
        row = await self.store.read(lambda conn: conn.execute(select(tables).where(tables.c.id == table_id)).first())
        if row is None or row.room != PRIVATE_ROOM or row.creator == user_id or user_id in row.seats:
            return True
        return invite is not None and row.invite == invite

    # ---------------------------------------------------------------- commands and messages

    def submit(self, table_id: str, cmd: Command) -> None:
        """Give ``cmd`` (of a connection of this node) to its table, here or over the bus."""
        conn = self.numbers.get(id(cmd.send))
        if conn is None:
            conn = self.numbers[id(cmd.send)] = next(self.counter)
            self.conns[conn] = cmd.send
        again = reattach(cmd.message)
        if again is not None:
            self.attached.setdefault(table_id, {})[conn] = (cmd.user_id, again)
        else:
            self.attached.get(table_id, {}).pop(conn, None)
        if isinstance(cmd.message, i.Detach):  # the connection closed: forgotten everywhere
            self.seats.pop(cmd.user_id, None)
            for table_conns in self.attached.values():
                table_conns.pop(conn, None)
            del self.conns[conn], self.numbers[id(cmd.send)]
        self.route(table_id, cmd, conn, 0)

    def hang_up(self, send: Send) -> None:
        """Forget the connection ``send`` the host gave itself (an operator's void, answered): its
        answer crossed back already."""
        conn = self.numbers.pop(id(send), None)
        if conn is not None:
            del self.conns[conn]

    def route(self, table_id: str, cmd: Command, conn: int, hops: int, node: str | None = None) -> None:
        """Give ``cmd`` to ``table_id`` if it runs here, else to the bus (``node``: the connection's,
        when not this one's)."""
        table = self.tables.get(table_id)
        if table is not None and not table.closed and table_id in self.leases.tokens:
            table.submit(cmd)
        else:
            self.bus.later(functools.partial(self.forward, table_id, cmd, node or self.name, conn, hops))

    async def forward(self, table_id: str, cmd: Command, node: str, conn: int, hops: int) -> None:
        """Publish ``cmd`` (of connection ``conn`` of ``node``) to the owner of ``table_id``; a
        table with no owner (closed, or being taken over) is refused to the connection."""
        owner = self.owners.get(table_id)
        if owner is None:
            try:
                owner = await self.leases.owner(table_id)
            except (SQLAlchemyError, OSError):
                owner = None
        if owner is None or owner == self.name or hops >= MAX_HOPS:
            if not isinstance(cmd.message, i.Detach):
                cmd.send(await self.no_owner(table_id))
            return
        self.owners[table_id] = owner
        heard = await self.bus.publish(owner, {"kind": "cmd", "table": table_id, "node": node, "conn": conn,
                                               "user": cmd.user_id, "msg": encode(cmd.message), "hops": hops})
        if not heard:  # its owner is gone: its successor announces the table, and attaches the connection
            self.owners.pop(table_id, None)

    async def no_owner(self, table_id: str) -> dict[str, Any]:
        """What a command for ``table_id`` with no owner to run it is answered: ``table_moving`` while
        the table is open (its node stopped or died: another takes it over within a lease time, and
        this connection is attached to it again), else ``no_table``."""
        try:
            status = await self.store.read(lambda conn: conn.execute(
                select(tables.c.status).where(tables.c.id == table_id)).scalar())
        except (SQLAlchemyError, OSError):
            status = None
        if status == "open":
            return p.error("table_moving", f"table {table_id} is moving to another node: ask again in a moment")
        return p.error("no_table", f"no open table {table_id}")

    def received(self, data: dict[str, Any]) -> None:
        """A bus message for this node: a command for a table held here, or a message for a connection."""
        if data["kind"] == "msg":
            send = self.conns.get(int(data["conn"]))
            if send is not None:
                send(data["msg"])
            return
        node, conn, table_id = str(data["node"]), int(data["conn"]), str(data["table"])
        message = decode(data["msg"])
        if table_id not in self.tables:  # it moved: passed on (answered, if need be, to its node)
            send = self.conns.get(conn) if node == self.name else None
            cmd = Command(int(data["user"]), send or functools.partial(self.deliver, node, conn), message)
            self.route(table_id, cmd, conn, int(data["hops"]) + 1, node)
            return
        stand_in = self.proxies.setdefault((node, conn), StandIn(functools.partial(self.deliver, node, conn)))
        if isinstance(message, i.Detach):
            del self.proxies[(node, conn)]
        else:
            stand_in.tables.add(table_id)
        self.route(table_id, Command(int(data["user"]), stand_in.send, message), conn, 0, node)

    def free(self, live: set[str]) -> None:
        """Detach the stand-ins of the connections of nodes not in ``live`` (their sockets died with
        them: their players reconnect to a live node) from the tables held here, and forget them."""
        for (node, conn), stand_in in list(self.proxies.items()):
            if node in live:
                continue
            del self.proxies[(node, conn)]
            for table_id in stand_in.tables:
                table = self.tables.get(table_id)
                if table is not None:
                    table.submit(Command(0, stand_in.send, i.Detach()))

    def deliver(self, node: str, conn: int, message: dict[str, Any]) -> None:
        """A table's message to connection ``conn`` of ``node`` (a stand-in's :data:`Send`)."""
        self.bus.post(node, {"kind": "msg", "conn": conn, "msg": message})

    def announced(self, data: dict[str, Any]) -> None:
        """An announcement to every node: a table's new owner, or whom quick-join seated where."""
        if data["kind"] == "taken":
            self.taken(str(data["table"]), str(data["node"]), int(data["token"]))
        elif data["kind"] == "unseated":
            self.unseated([int(u) for u in data["users"]])
        elif data["kind"] == "expelled":
            if data["node"] != self.name:  # this node expelled them already
                self.expel_here(int(data["user"]), str(data["reason"]))
        elif data["kind"] == "logged_out":
            if data["node"] != self.name:
                self.close_here(int(data["user"]), str(data["reason"]), data["digest"], bool(data["others"]))
        elif data["kind"] == "reconfigured":
            if data["node"] != self.name:
                self.chore(self.reload())
        elif data["kind"] == "unopened":
            if self.on_unopened is not None:
                self.on_unopened([int(u) for u in data["users"]])
        elif self.on_seated is not None:
            self.on_seated(str(data["table"]), [int(u) for u in data["users"]])

    def taken(self, table_id: str, node: str, token: int) -> None:
        """``node`` announced it owns ``table_id`` (with fencing token ``token``): this node drops it
        if it held it with an older token, and its connections of it attach again."""
        if node != self.name and self.leases.tokens.get(table_id, token) < token:
            del self.leases.tokens[table_id]
            self.lose(table_id)
        self.owners[table_id] = node
        self.attach_again(table_id)

    def attach_again(self, table_id: str) -> None:
        """Attach this node's connections of ``table_id`` to it again (they get ``resync``)."""
        for conn, (user_id, again) in list(self.attached.get(table_id, {}).items()):
            send = self.conns.get(conn)
            if send is not None:
                self.route(table_id, Command(user_id, send, again), conn, 0)

    def reconnected(self) -> None:
        """The bus was lost and is back (messages were lost meanwhile): where players sit, the rooms
        and the notices are read again (announcements of players unseated, or of an operator's
        change, may have been lost), every table held here is
        announced again, and this node's connections attach to their tables again (so that they
        are, whichever node subscribed again first)."""
        self.unseated(list(self.seats))
        self.chore(self.reload())  # a reconfigured message may have been lost too
        for table_id, token in list(self.leases.tokens.items()):
            self.bus.later(functools.partial(self.bus.announce, table_id, token))
        for table_id in list(self.attached):
            self.attach_again(table_id)

    async def queued(self, room: str) -> list[Queued]:
        """Who waits in ``room``'s queue on a live node (any), first come first."""
        q = (select(seatings.c.user_id, seatings.c.since, seatings.c.bots)
             .where(seatings.c.table_id.is_(None), seatings.c.room == room,
                    seatings.c.node.in_(self.leases.present(self.config.clock.now())))
             .order_by(seatings.c.since, seatings.c.user_id))
        return await self.store.read(lambda conn: [Queued(int(r.user_id), float(r.since), bool(r.bots))
                                                   for r in conn.execute(q)])


@dataclass
class ClusterLock:
    """The lobby's one writer across the cluster: this node's lock, then the cluster's (Redis)."""

    bus: Bus
    here: asyncio.Lock = field(default_factory=asyncio.Lock)
    held: Any = None

    async def __aenter__(self) -> None:
        await self.here.acquire()
        try:
            self.held = self.bus.lock("lobby", LOBBY_LOCK)
            if not await self.held.acquire():
                raise RefusedError("busy", "the lobby is busy: join again")
        except UNREACHABLE as exc:
            self.here.release()
            raise RefusedError("busy", "the lobby cannot be reached now (Redis is away): join again") from exc
        except BaseException:
            self.here.release()
            raise

    async def __aexit__(self, *_exc: object) -> None:
        try:
            await self.held.release()
        except LockError:  # held past its time (logged): another node may have seated meanwhile
            log.warning("cluster: the lobby's lock lapsed while held")
        except UNREACHABLE:  # Redis went away meanwhile: the lock went with it
            log.warning("cluster: the lobby's lock was not released: Redis cannot be reached")
        finally:
            self.here.release()


@dataclass
class ClusterLobby(Lobby):
    """Quick-join across the cluster: the queues are the database's (``seatings``), so four people
    waiting on four nodes meet at one table, opened by the node that found them; the others are
    told (``seated``) and sit their people down. Bots fill likewise: once the first of those in a
    room's queue who allow bots (on any nodes) has waited ``bot_wait``, they are seated together
    with bots, by whichever node's timer fires first (the others find them seated)."""

    cluster: ClusterHost = field(kw_only=True)
    elsewhere: dict[int, tuple[Room, Waiting]] = field(default_factory=dict)
    """Those waiting here whose queue row is gone, with their room: another node seated them (its
    announcement may still be on its way), or deleted the row while this node seemed dead."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.lock = ClusterLock(self.cluster.bus)
        self.cluster.on_seated = self.seated
        self.cluster.on_unopened = self.unopened
        self.cluster.on_back = self.requeue

    def forget(self, user_id: int) -> None:
        super().forget(user_id)
        self.elsewhere.pop(user_id, None)

    def waits_here(self, user_id: int) -> bool:
        """Whether ``user_id`` waits in a queue of this node (or was seated by another, not yet told)."""
        return user_id in self.elsewhere or any(int(w.user["id"]) == user_id for q in self.queues.values() for w in q)

    async def drop(self, user_id: int) -> None:
        """Take ``user_id`` out of the queues. Without the lock when they wait in no queue here (the
        connection of a seated player closing, every connection of a stopping node: a disconnect
        never waits for the cluster's lobby), and while it cannot be had (Redis away): at worst a
        node matching meanwhile seats them, and they are unseated when not ready in time."""
        try:
            if self.waits_here(user_id):
                await super().drop(user_id)
                return
        except RefusedError:
            pass
        self.forget(user_id)
        await self.host.seatings.unqueue(user_id)

    async def match(self, room: Room) -> None:
        current = self.takes(room)
        if current is None:
            return
        room = current
        queued = await self.cluster.queued(room.id)
        ids = {q.user_id for q in queued}
        queue = self.queues.setdefault(room.id, [])
        for w in queue:
            if int(w.user["id"]) not in ids:
                self.elsewhere[int(w.user["id"])] = (room, w)
        queue[:] = [w for w in queue if int(w.user["id"]) in ids]
        while len(queued) >= 4:
            group, queued = queued[:4], queued[4:]
            await self.seat_anywhere(room, [q.user_id for q in group])
        willing = [q for q in queued if q.bots]
        if self.bots_due(room, [q.since for q in willing]):
            await self.seat_anywhere(room, [q.user_id for q in willing])

    async def seat_anywhere(self, room: Room, group: list[int]) -> None:
        """Open a table here for ``group`` (waiting on any node), bots in the seats left; tell the
        nodes of the others. One of them seated meanwhile (by a node whose lock lapsed): the
        table is not opened, and the queue is matched again."""
        users = [await self.host.store.user(user_id) for user_id in group]
        try:
            table_id = await self.host.open_table(room, room.rules(), [u for u in users if u is not None],
                                                  bots=4 - len(group))
        except SeatTakenError:
            log.warning("cluster: a player was seated meanwhile", extra={"room": room.id})
            await self.match(room)
            return
        except Exception:  # a database error: as on one process, they leave the queue, told to join again
            log.exception("table not opened", extra={"room": room.id})
            await self.unqueue(group)
            away = [user_id for user_id in group if not self.tell_unopened(user_id)]
            if away:
                await self.cluster.bus.unopened(away)
            return
        here = {int(w.user["id"]): w for w in self.queues.get(room.id, [])}
        self.queues[room.id][:] = [w for w in self.queues[room.id] if int(w.user["id"]) not in group]
        for user_id in group:
            if user_id in here:
                self.host.submit(table_id, Command(user_id, here[user_id].send, i.Sit()))
        await self.cluster.bus.seated(table_id, [u for u in group if u not in here])

    def take(self, user_id: int) -> Waiting | None:
        """``user_id`` if they wait here (queued, or their row gone), no longer waiting here."""
        waiting = self.elsewhere.pop(user_id, (None, None))[1]
        for queue in self.queues.values():
            waiting = waiting or next((w for w in queue if int(w.user["id"]) == user_id), None)
        if waiting is not None:
            super().forget(user_id)
        return waiting

    def seated(self, table_id: str, users: list[int]) -> None:
        """Another node seated ``users`` at ``table_id``: those waiting here sit down."""
        for user_id in users:
            waiting = self.take(user_id)
            if waiting is not None:
                self.host.submit(table_id, Command(user_id, waiting.send, i.Sit()))

    def unopened(self, users: list[int]) -> None:
        """A node could not open the table for ``users``: those waiting here are told."""
        for user_id in users:
            self.tell_unopened(user_id)

    def tell_unopened(self, user_id: int) -> bool:
        """Tell ``user_id``, if they wait here, that their table could not be opened (whether they do)."""
        waiting = self.take(user_id)
        if waiting is not None:
            not_opened(waiting.send)
        return waiting is not None

    async def requeue(self) -> None:
        """This node beats again after the others may have taken it for dead (and deleted its
        queue rows): the rows of those waiting here are written again, as they were (their wait
        kept), and their rooms matched; one seated meanwhile keeps their seat."""
        node = self.host.config.lease_holder
        waiting = [(room, w) for room, w in self.elsewhere.values()]
        waiting += [(room, w) for room_id, queue in self.queues.items() for w in queue
                    if (room := self.host.rooms.get(room_id)) is not None]
        for room, w in waiting:
            user_id = int(w.user["id"])
            try:
                await self.host.seatings.queue(user_id, room.id, w.since, node, w.bots)
            except SeatTakenError:
                continue
            if self.elsewhere.pop(user_id, None) is not None:
                self.queues.setdefault(room.id, []).append(w)
        for room in {room.id: room for room, _w in waiting}.values():
            self.fill_at(room, self.host.config.clock.now())
