"""One WebSocket connection: authenticate, validate every message, route it, send what comes back.

Messages to the client go through a queue and a writer task, so a slow client never holds up a
table. Each connection has a message budget (:class:`Budget`) and a frame size limit; a refused
message gets an ``error`` naming the problem and the connection stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from chuanma.server import protocol as p
from chuanma.server.accounts import RateLimiter
from chuanma.server.host import TableHost
from chuanma.server.rooms import ROOMS
from chuanma.server.services import Server
from chuanma.server.store import Row
from chuanma.server.table import Command, RefusedError, Send

UNAUTHORIZED = 4401
MAX_OWED = 8
"""Answers the server asked for that a connection may still send beyond its message rate."""


@dataclass(slots=True)
class Budget:
    """What one connection may send: every answer the server asks for (an ``act`` for each
    ``prompt``, a ``ready`` for each hand to get ready for; up to :data:`MAX_OWED` not yet sent),
    however fast it comes, and beyond those ``limiter``'s steady rate and bursts."""

    limiter: RateLimiter
    owed: int = 0

    def asked(self, msg: dict[str, Any]) -> None:
        """Note a server message: one that asks for an answer allows one more message."""
        if msg["type"] == "prompt" or (msg["type"] == "hand_start" and not msg.get("dealt")):
            self.owed = min(MAX_OWED, self.owed + 1)

    def allow(self) -> bool:
        if self.owed:
            self.owed -= 1
            return True
        return self.limiter.allow("messages")


async def _write(ws: WebSocket, out: asyncio.Queue[dict[str, Any] | None]) -> None:
    while True:
        msg = await out.get()
        if msg is None:
            return
        await ws.send_text(json.dumps(msg, ensure_ascii=False, separators=(",", ":")))


async def serve_socket(ws: WebSocket, user: Row | None, server: Server) -> None:
    """Serve one connection of ``user`` (closed at once with code 4401 if not logged in)."""
    if user is None:
        await ws.accept()
        await ws.close(code=UNAUTHORIZED, reason="log in first: ?token=, a bearer token or the session cookie")
        return
    await ws.accept()
    user_id = int(user["id"])
    out: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    rate = server.config.messages_per_second
    budget = Budget(RateLimiter(time.monotonic, rate, 2 * rate))

    def send(msg: dict[str, Any]) -> None:
        budget.asked(msg)
        out.put_nowait(msg)

    writer = asyncio.create_task(_write(ws, out))
    watching: set[str] = set()
    server.metrics.connected.inc()
    send(p.server_message("hello", user=user["username"], balance=user["balance"],
                          table=server.host.table_of(user_id)))
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            try:
                if text is None:
                    raise p.ProtocolError("send JSON text frames, not binary", "bad_frame")
                if len(text.encode()) > server.config.max_frame:
                    raise p.ProtocolError(f"message too large: the limit is {server.config.max_frame} bytes",
                                          "too_large")
                if not budget.allow():
                    raise p.ProtocolError("too many messages: slow down", "rate_limited")
                await _route(p.parse_client(text), user_id, send, server, watching)
            except (p.ProtocolError, RefusedError) as exc:
                server.metrics.errors.labels(exc.code).inc()
                send(p.error(exc.code, str(exc)))
    except WebSocketDisconnect:
        pass
    finally:
        server.metrics.connected.dec()
        try:
            await server.lobby.drop(user_id)  # may fail (the database): the tables are still detached
        finally:
            seated = server.host.table_of(user_id)
            for table in watching | ({seated} if seated is not None else set()):
                with contextlib.suppress(RefusedError):  # a table closed since
                    server.host.submit(table, Command("detach", user_id, send))
            out.put_nowait(None)
            writer.cancel()


async def _route(msg: p.ClientMessage, user_id: int, send: Send, server: Server, watching: set[str]) -> None:
    """Carry out ``msg``; the tables this connection watches are added to ``watching``."""
    host: TableHost = server.host  # connections reach tables only through this seam
    if isinstance(msg, p.Ping):
        send(p.server_message("pong"))
    elif isinstance(msg, p.Join):
        room = ROOMS.get(msg.room)
        if room is None:
            raise p.ProtocolError(f"room: no room {msg.room!r}; rooms: {', '.join(ROOMS)}", "no_room")
        user = await server.store.user(user_id)
        assert user is not None
        await server.lobby.join(room, user, send, msg.bots)
    elif isinstance(msg, p.JoinPrivate):
        row = await server.store.table_by_invite(msg.invite)
        if row is None or row["status"] != "open":
            raise p.ProtocolError("invite: no open table has this invite code", "no_table")
        current = host.table_of(user_id)
        if current not in (None, row["id"]):
            raise RefusedError("already_seated", "you already sit at a table: leave it first")
        host.submit(row["id"], Command("sit", user_id, send))
    elif isinstance(msg, p.Watch):
        host.submit(msg.table, Command("watch", user_id, send, msg))
        watching.add(msg.table)
    elif isinstance(msg, p.Resume):
        if host.table_of(user_id) != msg.table:
            raise RefusedError("not_seated", f"you have no seat at table {msg.table}")
        host.submit(msg.table, Command("resume", user_id, send, msg))
    else:
        table = host.table_of(user_id)
        if table is None:
            raise RefusedError("not_seated", "you sit at no table: join a room first")
        host.submit(table, Command(msg.type, user_id, send, msg))
