"""The cluster's message bus over Redis pub/sub: commands to a table's owner, messages to a socket.

Each node listens on its own channel (``<prefix>node:<name>``: commands for the tables it owns and
messages for the connections it holds) and on ``<prefix>all`` (a table's new owner announces it;
quick-join announces whom it seated; a table's owner whom it unseated; a node whose operator changed
the rooms or the notices, that every node read them again). The prefix names the cluster
(:func:`chuanma.server.table_leases.cluster_prefix`: an id kept in its database), so clusters on
different databases may share one Redis. What is published goes through one queue, in order; a
lost Redis connection is logged and opened again, waiting longer after each failed attempt (the
listener then subscribes again and calls ``on_reconnect``). See docs/server.md, Cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from chuanma.server import protocol as p
from chuanma.server import table_inputs as i
from chuanma.server.metrics import Metrics

log = logging.getLogger("chuanma.server.bus")
RETRY = 0.25
"""Seconds before the first attempt to reach Redis again; each failed attempt doubles them."""
RETRY_MAX = 2.0
"""The longest wait between two attempts to reach Redis again."""
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
"""What a call to Redis raises when Redis is out of reach."""
DRAIN = 2.0
"""Seconds a closing bus waits at most for what was queued to be published."""
HOST_INPUTS: dict[str, type[i.HostInput]] = {
    "sit": i.Sit, "rejoin": i.Rejoin, "detach": i.Detach, "idle": i.Idle, "expel": i.Expel, "rest": i.Rest,
    "void": i.Void}
"""The commands a host gives a table, by the name they cross the bus with (and their fields)."""
_client: TypeAdapter[p.ClientMessage] = TypeAdapter(p.ClientMessage)
Job = Callable[[], Awaitable[object]]


def encode(message: i.CommandMessage) -> dict[str, Any]:
    """A table command as it crosses the bus."""
    for name, kind in HOST_INPUTS.items():
        if isinstance(message, kind):
            return {"host": name, **dataclasses.asdict(message)}
    assert not isinstance(message, i.HostInput)
    return message.model_dump(mode="json")


def decode(data: dict[str, Any]) -> i.CommandMessage:
    """The table command ``data`` (:func:`encode`'s) stands for."""
    if "host" in data:
        return HOST_INPUTS[data["host"]](**{k: v for k, v in data.items() if k != "host"})
    message = _client.validate_python(data)
    if isinstance(message, p.Join | p.JoinPrivate | p.LeaveQueue | p.Ping):
        raise ValueError(f"{message.type} is the lobby's, not a table's command")
    return message


RAISE = ("if tonumber(redis.call('get', KEYS[1]) or '0') < tonumber(ARGV[1]) then "
         "redis.call('set', KEYS[1], ARGV[1]) end")
"""Redis's script for :meth:`Bus.saw_epoch`: set the key to the argument if it is higher (in one step)."""


EPOCH_WAIT = 1.0
"""Seconds a heartbeat waits at most for Redis's count (a Redis that hangs must not stop the database's heartbeats)."""


async def epoch_of(redis: Any, prefix: str) -> int:
    """The highest count of heartbeats written to ``redis`` by a node of the cluster of ``prefix``
    (:meth:`Bus.epoch`)."""
    try:
        return int(await asyncio.wait_for(redis.get(f"{prefix}epoch"), EPOCH_WAIT) or 0)
    except (TimeoutError, *UNREACHABLE):
        return 0


@dataclass
class Bus:
    """One node's Redis connection: its listener and its ordered publisher."""

    url: str
    prefix: str
    node: str
    metrics: Metrics
    jobs: asyncio.Queue[Job] = field(default_factory=asyncio.Queue)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    redis: Any = None
    down: str | None = None
    """Why Redis is out of reach (the listener lost it and has not subscribed again), or ``None``."""

    def channel(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    async def start(self, on_message: Callable[[dict[str, Any]], None],
                    on_announcement: Callable[[dict[str, Any]], None], on_reconnect: Callable[[], None]) -> None:
        """Connect (Redis must answer now) and start publishing, and listening: a message for this
        node goes to ``on_message``, an announcement to every node to ``on_announcement``; after a
        lost connection is back, ``on_reconnect()``."""
        import redis.asyncio as aioredis

        self.on_message, self.on_announcement, self.on_reconnect = on_message, on_announcement, on_reconnect
        self.redis = aioredis.from_url(self.url)
        await self.redis.ping()
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(self.channel(self.node), f"{self.prefix}all")
        self.tasks = [asyncio.create_task(self.listen(pubsub), name="bus-listener"),
                      asyncio.create_task(self.publisher(), name="bus-publisher")]

    def later(self, job: Job) -> None:
        """Run ``job`` after every job queued before it (the bus's order)."""
        self.jobs.put_nowait(job)

    def post(self, node: str, payload: dict[str, Any]) -> None:
        """Publish ``payload`` to ``node``'s channel, in order."""
        self.later(lambda: self.publish(node, payload))

    async def publish(self, node: str, payload: dict[str, Any]) -> bool:
        """Publish ``payload`` to ``node``'s channel now; whether a node heard it."""
        payload["at"] = time.time()
        heard = await self.redis.publish(self.channel(node), json.dumps(payload, separators=(",", ":")))
        return bool(heard)

    async def announce(self, table_id: str, token: int) -> None:
        """Tell every node that this node now owns ``table_id``, with fencing token ``token``."""
        await self.redis.publish(f"{self.prefix}all", json.dumps({"kind": "taken", "table": table_id,
                                                                  "node": self.node, "token": token}))

    async def seated(self, table_id: str, users: list[int]) -> None:
        """Tell every node that quick-join seated ``users`` (waiting on whichever node) at ``table_id``."""
        await self.redis.publish(f"{self.prefix}all", json.dumps({"kind": "seated", "table": table_id,
                                                                  "users": users}))

    async def unopened(self, users: list[int]) -> None:
        """Tell every node that the table quick-join was opening for ``users`` (waiting on whichever
        node) could not be opened: they left the queue."""
        await self.redis.publish(f"{self.prefix}all", json.dumps({"kind": "unopened", "users": users}))

    async def expelled(self, user_id: int, reason: str) -> None:
        """Tell every node that ``user_id`` was banned or kicked: each closes their sockets and
        expels them from its tables."""
        await self.redis.publish(f"{self.prefix}all", json.dumps({"kind": "expelled", "user": user_id,
                                                                  "reason": reason, "node": self.node}))

    async def logged_out(self, user_id: int, reason: str, digest: str | None, others: bool) -> None:
        """Tell every node that sessions of ``user_id`` ended (every one, that of the token whose
        digest is ``digest`` — never the token itself — or with ``others`` every one but it): each
        closes their sockets."""
        await self.redis.publish(f"{self.prefix}all", json.dumps({"kind": "logged_out", "user": user_id,
                                                                  "reason": reason, "digest": digest,
                                                                  "others": others, "node": self.node}))

    async def reconfigured(self) -> None:
        """Tell every node that an operator changed the rooms or the notices: each reads them again."""
        await self.redis.publish(f"{self.prefix}all", json.dumps({"kind": "reconfigured", "node": self.node}))

    async def unseated(self, users: list[int]) -> None:
        """Tell every node that ``users`` no longer sit where they sat (their table closed, or a
        bot took their seat)."""
        await self.redis.publish(f"{self.prefix}all", json.dumps({"kind": "unseated", "users": users}))

    async def epoch(self) -> int:
        """The highest count of heartbeats a node of this cluster wrote here (0: none yet, Redis was
        emptied or is out of reach, which lets any database in until it is back); the database's must
        not be behind it."""
        return await epoch_of(self.redis, self.prefix)

    async def saw_epoch(self, epoch: int) -> None:
        """Raise the highest count of heartbeats to ``epoch`` (a committed count: never lowered; not
        at all while Redis is out of reach)."""
        with contextlib.suppress(*UNREACHABLE, asyncio.TimeoutError):
            await asyncio.wait_for(self.redis.eval(RAISE, 1, f"{self.prefix}epoch", epoch), EPOCH_WAIT)

    def lock(self, name: str, seconds: float) -> Any:
        """A lock held across the cluster (Redis's; lapses after ``seconds`` if its holder dies)."""
        return self.redis.lock(f"{self.prefix}lock:{name}", timeout=seconds, blocking_timeout=seconds)

    async def publisher(self) -> None:
        while True:
            job = await self.jobs.get()
            try:
                await job()
            except UNREACHABLE as exc:  # Redis away: this message is lost (docs/server.md, Redis restart)
                log.warning(f"bus message not published: {exc}")
            except Exception:
                log.exception("bus message not published")
            finally:
                self.jobs.task_done()

    async def listen(self, pubsub: Any) -> None:
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except UNREACHABLE as exc:
                self.down = str(exc) or type(exc).__name__
                log.warning(f"bus: Redis connection lost ({self.down}): connecting again")
                pubsub = await self.subscribe_again(pubsub)
                continue
            if message is None:
                continue
            try:  # a frame that is not the cluster's is logged and dropped: the listener goes on
                data = json.loads(message["data"])
                if message["channel"].decode() == f"{self.prefix}all":
                    self.on_announcement(data)
                else:
                    self.metrics.bus_lag.observe(max(time.time() - data["at"], 0.0))
                    self.on_message(data)
            except Exception:
                log.exception("bus message not handled")

    async def subscribe_again(self, lost: Any) -> Any:
        """A new subscription of this node's channels once Redis answers again (waiting ever longer
        between attempts, up to :data:`RETRY_MAX`), every connection to Redis made anew (a pooled
        one would fail the next message published); then ``on_reconnect()``."""
        with contextlib.suppress(Exception):
            await lost.aclose()
        wait = RETRY
        while True:
            await asyncio.sleep(wait)
            await self.redis.connection_pool.disconnect()  # connections to the Redis that went away
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.channel(self.node), f"{self.prefix}all")
            except Exception as exc:
                self.down = str(exc) or type(exc).__name__
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                wait = min(wait * 2, RETRY_MAX)
                continue
            self.down = None
            self.metrics.bus_reconnects.inc()
            log.warning("bus: Redis reached again: subscribed again")
            self.on_reconnect()
            return pubsub

    async def close(self) -> None:
        """Publish what was queued (for :data:`DRAIN` seconds at most), then disconnect."""
        if self.tasks:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.jobs.join(), DRAIN)
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        if self.redis is not None:
            await self.redis.aclose()
