"""One WebSocket connection: authenticate, validate every message, route it, send what comes back.

Messages to the client go through a bounded :class:`Outbox` written by a task of its own, so a slow
client never holds up a table. Each connection has a message budget (:class:`Budget`) and a frame
size limit; a refused message gets an ``error`` naming the problem and the connection stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from fastapi import WebSocket, WebSocketDisconnect

from chuanma.server import protocol as p
from chuanma.server.accounts import RateLimiter
from chuanma.server.bans import ban_of, ban_words
from chuanma.server.host import TableHost
from chuanma.server.services import Server
from chuanma.server.store import Row
from chuanma.server.table import Command, RefusedError, Send
from chuanma.server.table_inputs import Detach, Sit

UNAUTHORIZED = 4401
BEHIND = 4408
"""Close code of a connection whose client left :data:`MAX_UNSENT` messages unread."""
MAX_UNSENT = 4096
"""Messages a connection may have waiting to be sent before it is closed (:data:`BEHIND`)."""
MAX_OWED = 8
"""Answers the server asked for that a connection may still send beyond its message rate."""
ANSWERS = frozenset({"act", "ready"})
"""The client messages that answer the server: the only ones an answer owed lets through."""


@dataclass(slots=True)
class Budget:
    """What one connection may send: an answer to every question the server asks (an ``act`` for
    each ``prompt``, a ``ready`` for each hand to get ready for; up to :data:`MAX_OWED` not yet
    sent), however fast it comes; every other message, and answers beyond those, at ``limiter``'s
    steady rate and bursts. A question only sent again (``resume``, ``watch``, 托管 off) owes nothing."""

    limiter: RateLimiter
    owed: int = 0
    latest: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Per table, the latest question owed an answer: its hand and its prompt version (-1: ready)."""

    def asked(self, msg: dict[str, Any]) -> None:
        """Note a server message: a question not asked before allows one more answer."""
        if msg["type"] == "prompt":
            question = (int(msg["hand"]), int(msg["version"]))
        elif msg["type"] == "hand_start" and not msg.get("dealt"):
            question = (int(msg["hand"]), -1)
        else:
            return
        latest = self.latest.get(msg["table"])
        if latest is None or question > latest:
            self.latest[msg["table"]] = question
            self.owed = min(MAX_OWED, self.owed + 1)

    def spend(self, kind: str | None) -> None:
        """Let one client message of type ``kind`` (``None``: not a valid message) through, or refuse it."""
        if kind in ANSWERS and self.owed:
            self.owed -= 1
        elif not self.limiter.allow("messages"):
            raise p.ProtocolError("too many messages: slow down", "rate_limited")


class Socket(Protocol):
    """What an :class:`Outbox` needs of a WebSocket."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Outbox:
    """What a connection has still to send, written in order by a task of its own. A client that
    leaves ``limit`` messages unread is disconnected (code :data:`BEHIND`) and sent nothing more."""

    def __init__(self, ws: Socket, limit: int = MAX_UNSENT) -> None:
        self.ws = ws
        self.limit = limit
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(limit)
        self.writer = asyncio.create_task(self.write())
        self.closing: asyncio.Task[None] | None = None

    def put(self, msg: dict[str, Any]) -> None:
        if self.closing is not None:
            return
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            self.writer.cancel()
            self.closing = asyncio.create_task(self.ws.close(
                code=BEHIND, reason=f"too far behind: {self.limit} messages unread"))

    async def write(self) -> None:
        while True:
            msg = await self.queue.get()
            await self.ws.send_text(json.dumps(msg, ensure_ascii=False, separators=(",", ":")))

    def stop(self) -> None:
        """Stop writing, and closing if the close still waits for the client: the connection is over."""
        self.writer.cancel()
        if self.closing is not None and not self.closing.cancel():
            self.closing.exception()  # a close that failed found the client gone: nothing to report


async def serve_socket(ws: WebSocket, user: Row | None, server: Server) -> None:
    """Serve one connection of ``user`` (closed at once with code 4401 if not logged in)."""
    if user is None:
        await ws.accept()
        await ws.close(code=UNAUTHORIZED, reason="log in first: ?token=, a bearer token or the session cookie")
        return
    await ws.accept()
    user_id = int(user["id"])
    out = Outbox(ws)
    rate = server.config.messages_per_second
    budget = Budget(RateLimiter(server.config.clock.now, rate, 2 * rate))

    def send(msg: dict[str, Any]) -> None:
        budget.asked(msg)
        out.put(msg)

    watching: set[str] = set()
    server.metrics.connected.inc()
    send(p.server_message("hello", user=user["username"], balance=user["balance"],
                          table=await server.host.seat_of(user_id)))
    for notice in server.host.greetings():
        send(notice)
    server.host.listeners.add(send)
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            try:
                try:
                    if text is None:
                        raise p.ProtocolError("send JSON text frames, not binary", "bad_frame")
                    if len(text.encode()) > server.config.max_frame:
                        raise p.ProtocolError(f"message too large: the limit is {server.config.max_frame} bytes",
                                              "too_large")
                    msg = p.parse_client(text)
                except p.ProtocolError:
                    budget.spend(None)  # a refused message counts against the rate too
                    raise
                budget.spend(msg.type)
                await _route(msg, user_id, send, server, watching)
            except (p.ProtocolError, RefusedError) as exc:
                server.metrics.errors.labels(exc.code).inc()
                send(p.error(exc.code, str(exc)))
    except WebSocketDisconnect:
        pass
    finally:
        server.host.listeners.discard(send)
        server.metrics.connected.dec()
        try:
            await server.lobby.drop(user_id)  # may fail (the database): the tables are still detached
        finally:
            try:  # a cluster reads the seat from the database, which may fail
                seated = await server.host.seat_of(user_id)
                for table in watching | ({seated} if seated is not None else set()):
                    with contextlib.suppress(RefusedError):  # a table closed since
                        server.host.submit(table, Command(user_id, send, Detach()))
            finally:
                out.stop()


async def _route(msg: p.ClientMessage, user_id: int, send: Send, server: Server, watching: set[str]) -> None:
    """Carry out ``msg``; the tables this connection watches are added to ``watching``."""
    host: TableHost = server.host  # connections reach tables only through this seam
    if isinstance(msg, p.Join | p.JoinPrivate):  # a ban closes the sockets: this closes the race with it
        ban = await ban_of(server.store, user_id, server.config.clock.now())
        if ban is not None:
            raise RefusedError("banned", ban_words(ban))
    if isinstance(msg, p.Ping):
        send(p.server_message("pong"))
    elif isinstance(msg, p.Join):
        room = server.host.rooms.get(msg.room)
        if room is None:
            rooms = ", ".join(r.id for r in server.host.rooms.open())
            raise p.ProtocolError(f"room: no room {msg.room!r}; rooms: {rooms}", "no_room")
        user = await server.store.user(user_id)
        assert user is not None
        await server.lobby.join(room, user, send, msg.bots)
    elif isinstance(msg, p.LeaveQueue):
        await server.lobby.drop(user_id)
        send(p.server_message("queued", room=None, waiting=0, bots_in=None))
    elif isinstance(msg, p.JoinPrivate):
        row = await server.store.table_by_invite(msg.invite)
        if row is None or row["status"] != "open":
            raise p.ProtocolError("invite: no open table has this invite code", "no_table")
        current = await host.seat_of(user_id)
        if current not in (None, row["id"]):
            raise RefusedError("already_seated", "you already sit at a table: leave it first")
        host.submit(row["id"], Command(user_id, send, Sit()))
    elif isinstance(msg, p.Watch):
        if not await host.watchable(msg.table, user_id, msg.invite):
            raise RefusedError("private_table", f"table {msg.table} is private: only its players and those "
                                                "they gave its invite code (invite) may watch it")
        host.submit(msg.table, Command(user_id, send, msg))
        watching.add(msg.table)
    elif isinstance(msg, p.Resume):
        if await host.seat_of(user_id) != msg.table:
            raise RefusedError("not_seated", f"you have no seat at table {msg.table}")
        host.submit(msg.table, Command(user_id, send, msg))
    else:
        table = await host.seat_of(user_id)
        if table is None:
            raise RefusedError("not_seated", "you sit at no table: join a room first")
        host.submit(table, Command(user_id, send, msg))
