"""Rooms and tables: the rooms, the open tables to watch, private tables (docs/server.md, HTTP and
Rooms). Quick-join and sitting by invite are WebSocket messages (:mod:`chuanma.server.ws`)."""

# no ``from __future__ import annotations``: FastAPI reads the routes' annotations
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from chuanma.errors import ChuanmaError
from chuanma.rules import RuleSet
from chuanma.server.rooms import INVITE_TRIES, new_invite
from chuanma.server.routes.deps import ApiError, Config, ServerDep, User, within
from chuanma.server.seatings import InviteTakenError, SeatTakenError, StakesError, TooManyTablesError
from chuanma.server.table import RefusedError

MAX_PRIVATE_HANDS = 64

router = APIRouter()


class PrivateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    preset: str = Field("xuezhan", max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    hands: int = Field(4, ge=1, le=MAX_PRIVATE_HANDS)
    bots: int = Field(0, ge=0, le=3)
    bot_level: Literal["easy", "normal", "hard"] = "normal"


@router.get("/api/rooms")
async def rooms(server: ServerDep) -> list[dict[str, object]]:
    """The rooms taking new players, as the server last read them (an operator's change at once)."""
    return [r.to_json() for r in server.host.rooms.open()]


@router.get("/api/tables")
async def live_tables(user: User, server: ServerDep) -> list[dict[str, Any]]:
    """The open tables the player may watch: every room's, and the private ones they sit at."""
    return await server.host.live(int(user["id"]))


@router.post("/api/tables")
async def private_table(request: Request, body: PrivateTable, user: User, server: ServerDep,
                        config: Config) -> dict[str, Any]:
    try:
        rules = RuleSet.from_json({"preset": body.preset, "options": body.options})
    except ChuanmaError as exc:
        raise ApiError(400, "bad_rules", f"rules: {exc}") from None
    await within(server.table_limit, request, "too_many_tables",
                 f"this address opened {config.private_tables_per_hour} private tables within the hour: wait "
                 "(--private-tables-per-hour)")
    for _ in range(INVITE_TRIES):
        invite = new_invite()
        try:
            table_id = await server.host.open_table(None, rules, [], bots=body.bots, hands_limit=body.hands,
                                                    invite=invite, creator=int(user["id"]),
                                                    bot_level=body.bot_level)
        except (InviteTakenError, SeatTakenError):
            continue  # another table holds this code, or took a bot at this moment: draw again
        except StakesError as exc:
            raise ApiError(403, "stakes_too_high", str(exc)) from None
        except RefusedError as exc:  # a maintenance started: no new table
            raise ApiError(503, exc.code, str(exc)) from None
        except TooManyTablesError as exc:
            raise ApiError(409, "too_many_tables", f"{exc}; a private table closes when its hands are "
                                                   f"played or after {config.private_idle_seconds:g} s "
                                                   "with no player") from None
        return {"table": table_id, "invite": invite}
    raise ApiError(503, "busy", f"no table opened in {INVITE_TRIES} draws of an invite code and bots: try again")
