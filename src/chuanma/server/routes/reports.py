"""A player's report (举报) of another player, ``POST /api/reports`` (docs/server.md, Keeping chips
honest); staff read and handle them under ``/api/admin/reports`` (:mod:`chuanma.server.routes.admin`)."""

# no ``from __future__ import annotations``: FastAPI reads the routes' annotations
from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from chuanma.server.reports import MAX_TEXT
from chuanma.server.routes.admin import answered
from chuanma.server.routes.deps import ServerDep, User

router = APIRouter()


class ReportBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: StrictInt | Annotated[str, Field(max_length=64)]
    """The account reported: its id or its name."""
    hand_id: str | None = Field(None, max_length=40)
    reason: str = Field(max_length=16)
    text: str | None = Field(None, max_length=MAX_TEXT)


@router.post("/api/reports", status_code=201)
async def report(body: ReportBody, user: User, server: ServerDep) -> dict[str, Any]:
    """Report a player (registered players only): staff see it in their queue."""
    row = await answered(server.reports.file(user, body.player, body.hand_id, body.reason, body.text))
    return {"report": {k: row[k] for k in ("id", "player", "hand_id", "reason", "status")}}
