"""The operators' routes changing what every player sees (docs/server.md, Moderation; docs/operations.md,
Rooms, Announcements and maintenance): ``/api/admin/rooms``, ``/api/admin/announce``,
``/api/admin/maintenance`` (operators only), and staff notes on a player (moderators too). Each calls
the service ``chuanma admin`` calls (:mod:`chuanma.server.room_config`, :mod:`chuanma.server.notices`,
:mod:`chuanma.server.notes`)."""

# no ``from __future__ import annotations``: FastAPI reads the routes' annotations
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt

from chuanma.server.moderation import Actor
from chuanma.server.room_config import room_fields
from chuanma.server.routes.admin import Reason, allowed, answered
from chuanma.server.routes.deps import ServerDep

router = APIRouter(prefix="/api/admin")
Rooms = Annotated[Actor, Depends(allowed("rooms"))]
Announce = Annotated[Actor, Depends(allowed("announce"))]
Maintenance = Annotated[Actor, Depends(allowed("maintenance"))]
NotesDep = Annotated[Actor, Depends(allowed("notes"))]
Minutes = StrictInt | StrictFloat


class RoomBody(Reason):
    """The fields of a room to set (those left out are kept; ``high`` ``null``: no top)."""

    name: str | None = Field(None, max_length=200)
    en: str | None = Field(None, max_length=200)
    preset: str | None = Field(None, max_length=64)
    base: StrictInt | None = None
    low: StrictInt | None = None
    high: StrictInt | None = None
    min_level: StrictInt | None = None


class AnnounceBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=2000)
    minutes: Minutes | None = None
    """How long it is shown (``null``: until replaced or withdrawn)."""


class MaintenanceBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    minutes: Minutes = Field(alias="in")
    """From how many minutes on no new table opens (0: now)."""
    message: str = Field("", max_length=2000)


class NoteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=2000)


@router.get("/rooms")
async def rooms(_actor: Rooms, server: ServerDep) -> list[dict[str, Any]]:
    """Every room, open or disabled, in the lobby's order."""
    return [room_fields(room) for room in await server.room_config.listed()]


@router.post("/rooms/{room_id}")
async def set_room(room_id: str, body: RoomBody, actor: Rooms, server: ServerDep) -> dict[str, Any]:
    """Set some fields of a room, or make a new one (given ``name``, ``en``, ``preset``, ``base``, ``low``)."""
    changes = {key: getattr(body, key) for key in body.model_fields_set if key != "reason"}
    return {"room": room_fields(await answered(server.room_config.set(actor, room_id, changes, body.reason)))}


@router.post("/rooms/{room_id}/disable")
async def disable_room(room_id: str, body: Reason, actor: Rooms, server: ServerDep) -> dict[str, Any]:
    """Close a room to new players (those waiting are told); its open tables play on."""
    return {"room": room_fields(await answered(server.room_config.enable(actor, room_id, False, body.reason)))}


@router.post("/rooms/{room_id}/enable")
async def enable_room(room_id: str, body: Reason, actor: Rooms, server: ServerDep) -> dict[str, Any]:
    return {"room": room_fields(await answered(server.room_config.enable(actor, room_id, True, body.reason)))}


@router.get("/announce")
async def notices(_actor: Announce, server: ServerDep) -> dict[str, Any]:
    """The ``announcement`` of each topic as this server last read it (``id`` null: none)."""
    return dict(server.host.notices)


@router.post("/announce")
async def announce(body: AnnounceBody, actor: Announce, server: ServerDep) -> dict[str, Any]:
    """Show every connected player (every node) a banner, replacing the one before."""
    return {"announcement": await answered(server.notices.announce(actor, body.text, body.minutes))}


@router.post("/announce/withdraw")
async def withdraw(actor: Announce, server: ServerDep) -> dict[str, Any]:
    return {"withdrawn": (await answered(server.notices.withdraw(actor)))["id"]}


@router.post("/maintenance")
async def maintenance_on(body: MaintenanceBody, actor: Maintenance, server: ServerDep) -> dict[str, Any]:
    """From ``in`` minutes on, no new table opens on any node (players see the countdown)."""
    return {"maintenance": await answered(server.notices.maintenance_on(actor, body.minutes, body.message))}


@router.post("/maintenance/off")
async def maintenance_off(actor: Maintenance, server: ServerDep) -> dict[str, Any]:
    return {"ended": (await answered(server.notices.maintenance_off(actor)))["id"]}


@router.post("/players/{user_id}/notes")
async def note(user_id: int, body: NoteBody, actor: NotesDep, server: ServerDep) -> dict[str, Any]:
    """A staff note on a player, shown on their page."""
    return {"note": await answered(server.notes.add(actor, user_id, body.text))}
