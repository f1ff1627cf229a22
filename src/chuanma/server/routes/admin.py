"""The moderation API, ``/api/admin/*`` (docs/server.md, Moderation): every route calls
:class:`~chuanma.server.moderation.Moderation`, as ``chuanma admin`` does. Anonymous callers get
401; guests and players 403; moderators may search, see, ban, unban, kick and rename players and
list the live tables of every node; operators
also adjust chips, void unsettled hands, make password-reset links and read the log. Both read players' reports and
dismiss or action them. The rooms, announcements, maintenance and staff notes are
:mod:`chuanma.server.routes.admin_config`'s. No route grants a role."""

# no ``from __future__ import annotations``: FastAPI reads the routes' annotations
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from chuanma.server.detectors import flags_of
from chuanma.server.moderation import MODERATOR_MAY, OPERATOR_MAY, Actor, ModerationError, may
from chuanma.server.routes.deps import ApiError, Config, ServerDep, User
from chuanma.server.store import Row

router = APIRouter(prefix="/api/admin")
T = TypeVar("T")


def allowed(action: str) -> Callable[[Row], Actor]:
    """The dependency admitting a caller whose role may do ``action``."""
    def check(user: User) -> Actor:
        if user["kind"] != "player" or not may(str(user["role"]), action):
            who = "moderators and operators" if action in MODERATOR_MAY else "operators"
            raise ApiError(403, "forbidden", f"{action}: for {who} only")
        return Actor(int(user["id"]), str(user["username"]))
    return check


Search = Annotated[Actor, Depends(allowed("search"))]
See = Annotated[Actor, Depends(allowed("see"))]
Ban = Annotated[Actor, Depends(allowed("ban"))]
Unban = Annotated[Actor, Depends(allowed("unban"))]
Kick = Annotated[Actor, Depends(allowed("kick"))]
Rename = Annotated[Actor, Depends(allowed("rename"))]
Adjust = Annotated[Actor, Depends(allowed("adjust"))]
Log = Annotated[Actor, Depends(allowed("log"))]
Reset = Annotated[Actor, Depends(allowed("reset"))]
ReportsDep = Annotated[Actor, Depends(allowed("reports"))]
Tables = Annotated[Actor, Depends(allowed("tables"))]
VoidDep = Annotated[Actor, Depends(allowed("void"))]


async def answered(action: Awaitable[T]) -> T:
    """The action's result, or its refusal as the API answers it."""
    try:
        return await action
    except ModerationError as exc:
        raise ApiError(exc.status, exc.code, str(exc)) from None


class Reason(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field(max_length=2000)


class BanBody(Reason):
    duration: str | None = Field(None, max_length=20)
    """e.g. ``7d``; ``null``: for good."""


class AdjustBody(Reason):
    amount: StrictInt
    hand: str | None = Field(None, max_length=40)


class HandleBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    status: str = Field(max_length=16)
    """dismissed or actioned"""
    note: str = Field(max_length=2000)


class RenameBody(Reason):
    username: str = Field(max_length=64)


@router.get("/me")
async def console_me(actor: Search, user: User) -> dict[str, Any]:
    """Who the console serves (moderators and operators): their id, name, role and what it may do."""
    role = str(user["role"])
    return {"id": actor.id, "username": actor.name, "role": role,
            "may": sorted(a for a in OPERATOR_MAY if may(role, a))}


@router.get("/players")
async def search(_actor: Search, server: ServerDep, q: str = "") -> list[dict[str, Any]]:
    return await answered(server.moderation.search(q))


@router.get("/players/{user_id}")
async def player(user_id: int, _actor: See, server: ServerDep) -> dict[str, Any]:
    page = await answered(server.moderation.player(user_id))
    return {**page, "reports": await server.reports.about(user_id), "flags": await flags_of(server.store, user_id),
            "notes": await server.notes.about(user_id)}


@router.post("/players/{user_id}/ban")
async def ban(user_id: int, body: BanBody, actor: Ban, server: ServerDep) -> dict[str, Any]:
    row = await answered(server.moderation.ban(actor, user_id, body.reason, body.duration))
    return {"ban": {k: row[k] for k in ("id", "user_id", "reason", "since", "until")}}


@router.post("/players/{user_id}/unban")
async def unban(user_id: int, body: Reason, actor: Unban, server: ServerDep) -> dict[str, Any]:
    row = await answered(server.moderation.unban(actor, user_id, body.reason))
    return {"lifted": row["id"]}


@router.post("/players/{user_id}/kick")
async def kick(user_id: int, body: Reason, actor: Kick, server: ServerDep) -> dict[str, bool]:
    await answered(server.moderation.kick(actor, user_id, body.reason))
    return {"ok": True}


@router.post("/players/{user_id}/rename")
async def rename(user_id: int, body: RenameBody, actor: Rename, server: ServerDep) -> dict[str, Any]:
    row = await answered(server.moderation.rename(actor, user_id, body.username, body.reason))
    return {"id": row["id"], "username": row["username"]}


@router.post("/players/{user_id}/adjust")
async def adjust(user_id: int, body: AdjustBody, actor: Adjust, server: ServerDep) -> dict[str, int]:
    balance = await answered(server.moderation.adjust(actor, user_id, body.amount, body.reason, body.hand))
    return {"balance": balance}


@router.post("/players/{user_id}/reset-link")
async def reset_link(user_id: int, body: Reason, actor: Reset, server: ServerDep, config: Config,
                     request: Request) -> dict[str, Any]:
    """A one-time link setting a new password, for the operator to hand on (shown once)."""
    link = await answered(server.moderation.reset_link(actor, user_id, body.reason))
    return {"link": link.url(config.public_url or str(request.base_url)), "expires": link.expires}


@router.get("/log")
async def log(_actor: Log, server: ServerDep, limit: int = 50, user: int | None = None) -> list[dict[str, Any]]:
    return await answered(server.moderation.log(limit, user))


@router.get("/reports")
async def reports(_actor: ReportsDep, server: ServerDep, status: str = "open") -> list[dict[str, Any]]:
    """Players' reports of ``status`` (``open``, ``dismissed``, ``actioned`` or ``all``), oldest first."""
    return await answered(server.reports.listed(status))


@router.post("/reports/{report_id}")
async def handle_report(report_id: int, body: HandleBody, actor: ReportsDep, server: ServerDep) -> dict[str, Any]:
    """Dismiss or action an open report, with a note (written to the operator log)."""
    row = await answered(server.reports.handle(actor, report_id, body.status, body.note))
    return {"report": {k: row[k] for k in ("id", "status", "handled_by", "handled_at", "note")}}


@router.get("/tables")
async def live_tables(_actor: Tables, server: ServerDep) -> list[dict[str, Any]]:
    """Every open table on every node: who sits where, its phase, the node running it."""
    return await server.moderation.tables()


@router.post("/hands/{hand_id}/void")
async def void(hand_id: str, body: Reason, actor: VoidDep, server: ServerDep) -> dict[str, Any]:
    """Void a hand not settled yet (no chips move; its table closes); a settled one is refused."""
    return await answered(server.moderation.void(actor, hand_id, body.reason))
