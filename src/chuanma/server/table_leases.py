"""The cluster's ownership of tables: one lease per live table, with a fencing token.

A node claims a table (:meth:`TableLeases.claim`: it opened it, or its lease lapsed) and from then
on every write of that table's shell checks, in the same transaction, that the table's token is
still the one the node claimed (:meth:`TableLeases.fence`): a node that lost a table can never
write for it again. Every third of the lease time a node renews, in one transaction, its row in
``cluster_nodes``, every lease it holds, and the database's lease (held by the cluster as a whole,
so that a single-process server refuses the database while nodes use it), and deletes the queue
rows of the nodes that stopped beating (their waiting players' connections died with them); see
docs/server.md.
PostgreSQL only: the claim is an ``INSERT … ON CONFLICT`` and the checks lock the lease rows.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import Connection, Select, and_, case, delete, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.exc import SQLAlchemyError

from chuanma import __version__
from chuanma.errors import ChuanmaError
from chuanma.server.clock import Clock
from chuanma.server.config import ServerConfig
from chuanma.server.dealer_keys import UNFINISHED
from chuanma.server.hand_access import server_secret
from chuanma.server.lease import ROW, STATE, LeaseHeldError, LeaseLostError, held_by_another, in_use
from chuanma.server.schema import cluster_nodes, hands, lease, seatings, server_keys, table_leases, tables
from chuanma.server.store import Store, schema_head

log = logging.getLogger("chuanma.server.cluster")
CLUSTER = "cluster"
"""The holder of the database's lease while cluster nodes use the database."""
RENEWALS = 3
"""Heartbeats per lease time: a node late by two thirds of it still keeps its tables."""
GONE = 2
"""Lease times without a heartbeat after which a node is taken for dead: its queue rows are deleted
and the stand-ins of its connections freed. Two: a node late by more than one finds itself away
at its next heartbeat (and attaches its connections again) before the others take it for dead."""


def cluster_check(config: ServerConfig) -> Callable[[Connection], None]:
    """What runs before a node migrates a database, and at its start:
    :class:`~chuanma.server.lease.LeaseHeldError` if a single-process server holds the database's
    lease, unexpired."""
    def check(conn: Connection) -> None:
        if conn.dialect.has_table(conn, lease.name):
            refuse_single(conn, config.clock.now())
    return check


CLUSTER_ID = "cluster"
"""The server key (``server_keys``) whose value names the cluster on the database."""


async def cluster_prefix(store: Store) -> str:
    """The prefix of every Redis channel and key of the cluster on ``store``'s database:
    ``chuanma:<id>:``, the id drawn once and kept in the database (the server key
    :data:`CLUSTER_ID`, 16 hex digits shown), so every node of one cluster has the same, however it
    reaches the database, and a cluster on another database another, whatever its name."""
    return f"chuanma:{(await server_secret(store, CLUSTER_ID)).hex()[:16]}:"


async def new_cluster(store: Store, seconds: float) -> str:
    """Make the database on ``store`` (a copy of a cluster's: a restored backup) a cluster of its own:
    a new cluster id (so new Redis channels and keys: :func:`cluster_prefix`), its count of
    heartbeats from 0, no node and no table lease left of the original. It first watches the nodes'
    rows for a lease time (``seconds``): a copy's rows are the original's, frozen; refused
    (:class:`ClusterCopyError`) if a node beats meanwhile. Returns the new prefix."""
    def beats(conn: Connection) -> set[tuple[str, float]]:
        return {(r.holder, float(r.seen)) for r in conn.execute(select(cluster_nodes.c.holder, cluster_nodes.c.seen))}
    before = await store.read(beats)
    await asyncio.sleep(seconds)

    def work(conn: Connection) -> None:
        if beats(conn) - before:
            raise ClusterCopyError("a node runs on this database: stop every node on it first")
        conn.execute(update(server_keys).where(server_keys.c.name == CLUSTER_ID).values(value=secrets.token_hex(32)))
        conn.execute(update(lease).where(lease.c.id == ROW).values(epoch=0))
        conn.execute(delete(table_leases))
        conn.execute(delete(cluster_nodes))
    await store.runner.write(work)
    return await cluster_prefix(store)


def live_nodes(now: float, seconds: float) -> Select[str]:
    """The nodes whose last heartbeat is less than a lease time (``seconds``) before ``now``."""
    return select(cluster_nodes.c.holder).where(cluster_nodes.c.seen >= now - seconds)


@dataclass(frozen=True, slots=True)
class Node:
    """A node of the cluster as its heartbeats left it (``chuanma admin nodes``)."""

    holder: str
    since: float
    seen: float
    release: str | None
    schema: str | None
    drain: float | None
    """When an operator asked it to drain, or ``None``."""
    tables: int
    """The tables whose lease it holds, unexpired."""


async def nodes_of(store: Store, now: float) -> list[Node]:
    """Every node whose row is in the database (a clean stop deletes it; a dead one's stays), first started first."""
    def work(conn: Connection) -> list[Node]:
        held = (select(func.count()).where(table_leases.c.holder == cluster_nodes.c.holder,
                                           table_leases.c.expires >= now).scalar_subquery())
        rows = conn.execute(select(cluster_nodes, held.label("tables")).order_by(cluster_nodes.c.since)).all()
        return [Node(r.holder, r.since, r.seen, r.release, r.schema, r.drain, int(r.tables)) for r in rows]
    return await store.read(work)


async def ask_drain(store: Store, holder: str, now: float) -> None:
    """Ask the node ``holder`` to drain, then stop (it reads it at its next heartbeat)."""
    def work(conn: Connection) -> int:
        return int(conn.execute(update(cluster_nodes).where(cluster_nodes.c.holder == holder)
                                .values(drain=func.coalesce(cluster_nodes.c.drain, now))).rowcount)
    if not await store.runner.write(work):
        raise ChuanmaError(f"no node {holder!r} runs on the database (chuanma admin nodes lists them)")


def count(query: Select[str]) -> Select[int]:
    """How many rows ``query`` finds (a statement)."""
    return select(func.count()).select_from(query.subquery())


class ClusterCopyError(ChuanmaError):
    """The database is behind the cluster that shares its Redis: a copy (a restored backup, say)."""


def refuse_copy(epoch: int, seen: int) -> None:
    """:class:`ClusterCopyError` if the database's count of heartbeats ``epoch`` is behind ``seen``, the
    highest a node of the cluster on the same Redis wrote: the live database's count only grows, and
    each node writes a count to Redis only once it is in the database, so only a copy is behind."""
    if epoch < seen:
        raise ClusterCopyError(
            f"this database is behind the cluster on the same Redis (heartbeat {epoch:,} of {seen:,}): it is a "
            "copy, such as a restored backup; run chuanma admin new-cluster on it to run it as a cluster of its "
            "own (docs/operations.md, Backup and restore)")


class NodesAliveError(ChuanmaError):
    """A node would migrate the database's schema while nodes of the release before it run on it."""


def upgrade_check(config: ServerConfig) -> Callable[[Connection], None]:
    """What runs before a node migrates a database: :func:`cluster_check`, and
    :class:`NodesAliveError` while a node not taken for dead beats on it (one that runs on the
    schema now, an older release's: it would read and write tables it does not know)."""
    single = cluster_check(config)

    def check(conn: Connection) -> None:
        single(conn)
        if not conn.dialect.has_table(conn, cluster_nodes.name):
            return
        now = config.clock.now()
        alive = sorted(conn.execute(live_nodes(now, GONE * config.lease_seconds)).scalars())
        if alive:
            raise NodesAliveError(
                f"{len(alive)} node(s) of another release run on this database ({', '.join(alive)}): this "
                "release migrates its schema, which they cannot run on; stop every node, then start this "
                "release's (docs/operations.md, Upgrades)")
    return check


def copy_check(seen: int) -> Callable[[Connection], None]:
    """What a node runs at its start: :class:`ClusterCopyError` if the database is behind ``seen``."""
    def check(conn: Connection) -> None:
        refuse_copy(int(conn.execute(select(lease.c.epoch).where(lease.c.id == ROW)).scalar_one()), seen)
    return check


def refuse_single(conn: Connection, now: float) -> None:
    """:class:`~chuanma.server.lease.LeaseHeldError` if a single-process server holds the database's lease."""
    row = dict(conn.execute(STATE).one()._mapping)
    if held_by_another(row, CLUSTER, now):
        raise in_use(row)


@dataclass
class TableLeases:
    """This node's leases (see the module's docstring)."""

    store: Store
    clock: Clock
    seconds: float
    holder: str
    dealer: str
    """This node's dealer key (VRF public key, hex): it claims no table whose unfinished hand another
    key dealt (it could not deal that hand's wall again; a node holding that key takes it)."""
    tokens: dict[str, int] = field(default_factory=dict)
    """The tables this node holds, with the fencing token it claimed each with."""
    renewed: float | None = None
    """When the last heartbeat was written (``None`` before the first)."""
    epoch: int = 0
    """The cluster's heartbeats so far as this node's last one counted them (:meth:`heartbeat`)."""
    drain: float | None = None
    """When an operator asked this node to drain (``chuanma admin drain``), as its last heartbeat read."""
    copy: str | None = None
    """Why this node's database is a copy (:class:`ClusterCopyError`), once a heartbeat found it: from
    then on it claims no table and ``/healthz`` says it is lost, until it is restarted."""

    @classmethod
    def of(cls, store: Store, config: ServerConfig) -> TableLeases:
        assert config.dealer_key is not None
        return cls(store, config.clock, config.lease_seconds, config.lease_holder, config.dealer_key.public_key.hex())

    @property
    def lost(self) -> str | None:
        """Why this node's leases may have lapsed (its heartbeats failed for a lease time), or ``None``."""
        if self.copy is not None:
            return self.copy
        now = self.clock.now()
        if self.renewed is not None and now - self.renewed > self.seconds:
            return f"the leases were not renewed for {now - self.renewed:.1f} s: the database cannot be reached"
        return None

    def fence(self, table_id: str) -> Callable[[Connection], None]:
        """The check every write of ``table_id``'s shell runs first: :class:`LeaseLostError` (and
        the table is no longer this node's) unless its lease's token is the one this node claimed."""
        def check(conn: Connection) -> None:
            token = conn.execute(select(table_leases.c.token).where(table_leases.c.table_id == table_id)
                                 .with_for_update(read=True, key_share=True)).scalar()
            if token is None or token != self.tokens.get(table_id):
                self.tokens.pop(table_id, None)
                raise LeaseLostError(f"this node lost the lease of table {table_id} to another")
        return check

    async def claim(self, table_id: str) -> bool:
        """Take ``table_id``'s lease if it has none or it lapsed (one more on its token); whether taken
        (never on a database found to be a copy)."""
        if self.copy is not None:
            return False
        def work(conn: Connection) -> int | None:
            # FOR UPDATE waits for the fenced writes in flight (FOR KEY SHARE); the upsert alone
            # would lock the row only FOR NO KEY UPDATE, which does not wait for them
            conn.execute(select(table_leases.c.token).where(table_leases.c.table_id == table_id).with_for_update())
            now = self.clock.now()
            refuse_single(conn, now)  # a single-process server holds the database: no table is the cluster's
            stmt = insert(table_leases).values(table_id=table_id, holder=self.holder, token=1,
                                               expires=now + self.seconds)
            stmt = stmt.on_conflict_do_update(
                index_elements=[table_leases.c.table_id],
                set_={"holder": self.holder, "token": table_leases.c.token + 1, "expires": now + self.seconds},
                where=table_leases.c.expires < now)
            token = conn.execute(stmt.returning(table_leases.c.token)).scalar()
            return None if token is None else int(token)
        token = await self.store.runner.write(work)
        if token is None:
            return False
        self.tokens[table_id] = token
        return True

    async def drop(self, table_id: str) -> None:
        """Forget the lease of a table this node closed (its row deleted)."""
        token = self.tokens.pop(table_id, None)
        await self.store.runner.write(lambda conn: conn.execute(delete(table_leases).where(
            table_leases.c.table_id == table_id, table_leases.c.token == token)))

    async def lapse(self, table_id: str) -> None:
        """Let the lease of a table this node stopped running lapse now (another node claims it at its next look)."""
        token = self.tokens.pop(table_id, None)
        await self.store.runner.write(lambda conn: conn.execute(update(table_leases).where(
            table_leases.c.table_id == table_id, table_leases.c.holder == self.holder,
            table_leases.c.token == token).values(expires=0.0)))

    async def owner(self, table_id: str) -> str | None:
        """The node holding ``table_id``'s unexpired lease, if any."""
        q = select(table_leases.c.holder).where(table_leases.c.table_id == table_id,
                                                table_leases.c.expires >= self.clock.now())
        return await self.store.read(lambda conn: conn.execute(q).scalar())

    def present(self, now: float) -> Select[str]:
        """The nodes not taken for dead at ``now`` (:data:`GONE`)."""
        return live_nodes(now, GONE * self.seconds)

    async def nodes(self) -> set[str]:
        """The nodes not taken for dead (this one among them once it beat)."""
        return await self.store.read(lambda conn: set(conn.execute(self.present(self.clock.now())).scalars()))

    async def heartbeat(self, seen: int = 0) -> list[str]:
        """Renew this node's row, its leases and the cluster's hold on the database, counting one more
        heartbeat (:attr:`epoch`); returns the tables this node thought it held that were taken over
        (forgotten here). A database that cannot be reached is logged and tried again at the next
        heartbeat; one a single-process server holds raises :class:`~chuanma.server.lease.LeaseHeldError`,
        and one whose count is behind ``seen`` (the highest any node of the cluster counted: a
        restored copy) :class:`ClusterCopyError` (either way nothing renewed, and every table
        forgotten here, so that the fence refuses this node's writes for any of them)."""
        before = dict(self.tokens)
        try:
            epoch, held, self.drain = await self.store.runner.write(functools.partial(self._heartbeat, seen))
        except (SQLAlchemyError, OSError) as exc:
            log.warning(f"leases not renewed: {str(exc).splitlines()[0]}")
            return []
        except (LeaseHeldError, ClusterCopyError) as exc:  # this node may hold no table: it fenced off them all
            self.tokens.clear()
            if isinstance(exc, ClusterCopyError):
                self.copy = str(exc)
            raise
        self.renewed, self.epoch = self.clock.now(), epoch
        lost = [t for t, token in before.items() if held.get(t) != token and self.tokens.get(t) == token]
        for table_id in lost:
            del self.tokens[table_id]
        return lost

    def _heartbeat(self, seen: int, conn: Connection) -> tuple[int, dict[str, int], float | None]:
        now = self.clock.now()
        node = insert(cluster_nodes).values(holder=self.holder, since=now, seen=now, release=__version__,
                                            schema=schema_head())
        drain = conn.execute(node.on_conflict_do_update(index_elements=[cluster_nodes.c.holder], set_={"seen": now})
                             .returning(cluster_nodes.c.drain)).scalar()
        ours = lease.c.holder == CLUSTER
        epoch = conn.execute(
            update(lease).where(lease.c.id == ROW, or_(ours, lease.c.holder.is_(None), lease.c.expires < now))
            .values(holder=CLUSTER, token=case((ours, lease.c.token), else_=lease.c.token + 1),
                    since=case((ours, lease.c.since), else_=now), expires=now + self.seconds, epoch=lease.c.epoch + 1)
            .returning(lease.c.epoch)).scalar()
        refuse_single(conn, now)  # a single-process server holds it: this node may not write (rolled back)
        assert epoch is not None  # the row was renewed (else refuse_single raised)
        refuse_copy(int(epoch) - 1, seen)  # rolled back too
        # the queue rows of dead nodes: their players' connections died with them
        conn.execute(delete(seatings).where(seatings.c.table_id.is_(None), or_(
            seatings.c.node.is_(None), seatings.c.node.not_in(self.present(now)))))
        held = list(self.tokens)  # a table dropped here is not renewed: its lease lapses, another claims it
        rows = conn.execute(update(table_leases).where(table_leases.c.holder == self.holder,
                                                       table_leases.c.table_id.in_(held))
                            .values(expires=now + self.seconds)
                            .returning(table_leases.c.table_id, table_leases.c.token)).all()
        return int(epoch), {r.table_id: int(r.token) for r in rows}, drain

    async def orphans(self) -> list[str]:
        """This node's share of the open tables with no live lease (or none, a lease time after they
        were opened): the orphans divided by the live nodes, rounded up, drawn at random (so that a
        dead node's tables spread over the others)."""
        def work(conn: Connection) -> list[str]:
            now = self.clock.now()
            other_key = (select(hands.c.id).where(hands.c.table_id == tables.c.id, hands.c.status.in_(UNFINISHED),
                                                  hands.c.public_key.is_not(None), hands.c.public_key != self.dealer)
                         .exists())
            found = conn.execute(select(tables.c.id).outerjoin(table_leases, table_leases.c.table_id == tables.c.id)
                                 .where(tables.c.status == "open", ~other_key, or_(
                                     # no lease yet: its node is claiming it, unless that is a lease time ago
                                     and_(table_leases.c.expires.is_(None), tables.c.created_at < now - self.seconds),
                                     table_leases.c.expires < now))).all()
            nodes = conn.execute(count(live_nodes(now, self.seconds))).scalar_one()
            ids = [str(r.id) for r in found]
            return random.sample(ids, math.ceil(len(ids) / max(int(nodes), 1)))
        return await self.store.read(work)

    async def release(self) -> None:
        """A clean stop: every lease of this node lapses now (the others claim its tables at their
        next look) and its row is deleted."""
        def work(conn: Connection) -> None:
            conn.execute(update(table_leases).where(table_leases.c.holder == self.holder).values(expires=0.0))
            conn.execute(delete(cluster_nodes).where(cluster_nodes.c.holder == self.holder))
            alive = conn.execute(count(live_nodes(self.clock.now(), self.seconds))).scalar_one()
            if alive == 0:  # the last node: the database is free
                conn.execute(update(lease).where(lease.c.id == ROW, lease.c.holder == CLUSTER)
                             .values(holder=None, since=None, expires=0.0))
        self.tokens.clear()
        try:
            await self.store.runner.write(work)
        except (SQLAlchemyError, OSError) as exc:
            log.warning(f"leases not released: {str(exc).splitlines()[0]}")
