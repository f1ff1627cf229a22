"""The WebSocket protocol: every message is a JSON object with a ``type`` and a version ``v``.

Client messages are validated by the Pydantic models below (:func:`parse_client`); server
messages are built with :func:`server_message`. docs/protocol.md shows an example of each.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from chuanma.json_input import nesting

VERSION = 1
MAX_DEPTH = 8
"""The deepest nesting of objects and lists a client message may have (a decision has 2)."""
TOO_DEEP = f"message nested too deeply: at most {MAX_DEPTH} levels of objects and lists"


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    v: Literal[1] = 1


class Join(_Message):
    """Quick-join a room; ``bots``: let bots fill the empty seats after the wait."""

    type: Literal["join"]
    room: str = Field(max_length=32)
    bots: bool = True


class JoinPrivate(_Message):
    """Sit at a private table by its invite code."""

    type: Literal["join_private"]
    invite: str = Field(max_length=16)


class LeaveQueue(_Message):
    """Stop waiting in a room's queue (answered by a ``queued`` with ``room`` null)."""

    type: Literal["leave_queue"]


class Ready(_Message):
    """Ready for the next hand, with this seat's client seed (a random one if omitted)."""

    type: Literal["ready"]
    client_seed: str | None = Field(None, max_length=64)


class Act(_Message):
    """A decision, made against table version ``version`` (as in the prompt)."""

    type: Literal["act"]
    table: str = Field(max_length=40)
    version: int = Field(ge=0, strict=True)
    action: dict[str, Any]


class Auto(_Message):
    """Turn 托管 (auto-play by the bot) on or off for one's seat."""

    type: Literal["auto"]
    on: bool


class Leave(_Message):
    """Leave the table: during a hand this is 逃跑 (RULES §6), between hands it costs nothing."""

    type: Literal["leave"]


class Resume(_Message):
    """After a reconnect: the table, hand and the last event number seen (-1: none)."""

    type: Literal["resume"]
    table: str = Field(max_length=40)
    hand: int = Field(ge=0, strict=True)
    last: int = Field(ge=-1, strict=True)


class Watch(_Message):
    """Watch a table as a spectator (public events only; with ``views``, the public view after each batch)."""

    type: Literal["watch"]
    table: str = Field(max_length=40)
    invite: str | None = Field(None, max_length=16)
    """A private table's invite code: only its players and whoever holds it may watch it."""
    views: bool = False


class Views(_Message):
    """Ask for one's whole seat view after each batch of events (``hints``: with ready-hand hints)."""

    type: Literal["views"]
    on: bool
    hints: bool = False


class Ping(_Message):
    type: Literal["ping"]


ClientMessage = Annotated[Join | JoinPrivate | LeaveQueue | Ready | Act | Auto | Leave | Resume | Watch | Views | Ping,
                          Field(discriminator="type")]
CLIENT_TYPES = ("join", "join_private", "leave_queue", "ready", "act", "auto", "leave", "resume", "watch", "views",
                "ping")
_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)

SERVER_TYPES = ("hello", "queued", "seated", "hand_start", "events", "prompt", "auto", "hand_end",
                "hand_void", "resync", "view", "table_closed", "error", "pong", "announcement")


class ProtocolError(ValueError):
    """A client message refused; ``code`` and the message say why (sent back as an ``error``)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def parse_client(text: str) -> ClientMessage:
    """The client message in ``text``, or :class:`ProtocolError` naming what is wrong."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ProtocolError(TOO_DEEP, "too_deep") from None
    except ValueError as exc:
        raise ProtocolError(f"malformed JSON: {exc}", "bad_json") from None
    if nesting(data) > MAX_DEPTH:
        raise ProtocolError(TOO_DEEP, "too_deep")
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object", "bad_message")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(f"unknown message type {kind!r}; types: {', '.join(CLIENT_TYPES)}", "unknown_type")
    if data.get("v", VERSION) != VERSION:
        raise ProtocolError(f"unsupported protocol version {data.get('v')!r}; this server speaks {VERSION}",
                            "bad_version")
    try:
        return _adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError(f"{kind}: {where}: {first['msg']}", "bad_message") from None


def server_message(kind: str, **fields: Any) -> dict[str, Any]:
    """A server message of type ``kind``."""
    assert kind in SERVER_TYPES, kind
    return {"type": kind, "v": VERSION, **fields}


def error(code: str, message: str) -> dict[str, Any]:
    return server_message("error", code=code, message=message)
