"""Progression's routes: profiles, levels, leaderboards and a guest's claim to a name (docs/server.md,
Progression).

Pages: ``/profile/<username>`` and ``/leaderboard``. Endpoints (a session needed):
``GET /api/players/<username>``, ``GET /api/levels?names=a,b``, ``GET /api/leaderboard?family=&period=``
and ``POST /api/account/claim``. Bad input: status 400 (404 for an unknown player) with
``{"code", "message"}``, and nothing changes; reading more than ``READS_PER_MINUTE`` a minute from
one address (profiles and leaderboards): 429 ``rate_limited``.
"""

# no ``from __future__ import annotations``: FastAPI reads the routes' annotations
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from chuanma.server.accounts import AccountError
from chuanma.server.levels import LEVELS
from chuanma.server.progress import PERIODS, leaderboard, levels_by_name, profile
from chuanma.server.ratings import FAMILIES, OVERALL
from chuanma.server.routes.deps import ApiError, ServerDep, User, public_user, visit_of, within
from chuanma.server.routes.portal import page
from chuanma.server.services import Server

router = APIRouter()

MAX_NAMES = 8
"""Names one ``/api/levels`` asks about (a table's four and a few spectated)."""
LEADERS = 100
"""Players a leaderboard lists."""


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=64)
    password: str = Field(max_length=256)


@router.get("/profile/{username}", include_in_schema=False)
async def profile_page(username: str) -> HTMLResponse:
    return page("profile")


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> HTMLResponse:
    return page("leaderboard")


async def _read(server: Server, request: Request) -> None:
    await within(server.read_limit, request, "rate_limited", "too many profiles or leaderboards read; wait a minute")


@router.get("/api/players/{username}")
async def player(request: Request, username: str, viewer: User, server: ServerDep) -> dict[str, Any]:
    """A player's profile: level, ratings and their history, figures, best hands, chips history;
    and whether the viewer may report them (a registered viewer, another person)."""
    await _read(server, request)
    found = await server.store.user_by_name(username[:32])
    if found is None:
        raise ApiError(404, "no_player", f"no player named {username[:32]!r}")
    viewer_id = int(viewer["id"])
    shown = await server.store.read(lambda conn: profile(conn, found, viewer_id))
    return {**shown, "can_report": viewer["kind"] == "player" and found["kind"] != "bot"
            and int(found["id"]) != viewer_id}


@router.get("/api/levels")
async def levels(_viewer: User, server: ServerDep, names: str = "") -> dict[str, Any]:
    """Every level (number, names, experience), and the levels of the players ``names`` (comma-separated;
    the table asks after every hand: not rate-limited, at most :data:`MAX_NAMES` a request)."""
    wanted = [n for n in names.split(",") if n][:MAX_NAMES + 1]
    if len(wanted) > MAX_NAMES:
        raise ApiError(400, "bad_request", f"names: at most {MAX_NAMES}")
    found = await server.store.read(lambda conn: levels_by_name(conn, wanted)) if wanted else {}
    return {"levels": [{"level": lv.number, "zh": lv.zh, "en": lv.en, "xp": lv.xp} for lv in LEVELS],
            "players": found}


@router.get("/api/leaderboard")
async def leaders(request: Request, _viewer: User, server: ServerDep, family: str = OVERALL,
                  period: str = "week") -> dict[str, Any]:
    """Registered players by rating in ``family`` (or ``all``) over ``period`` (``week``, ``all``)."""
    await _read(server, request)
    if family not in (OVERALL, *FAMILIES):
        raise ApiError(400, "bad_request", f"family: one of {', '.join((OVERALL, *FAMILIES))}")
    if period not in PERIODS:
        raise ApiError(400, "bad_request", f"period: one of {', '.join(PERIODS)}")
    least, now = server.config.leaderboard_min_hands, server.config.clock.now()
    return await server.store.read(lambda conn: leaderboard(conn, family, period, least, now, LEADERS))


@router.post("/api/account/claim")
async def claim(request: Request, body: Claim, viewer: User, server: ServerDep) -> dict[str, Any]:
    """A guest takes a name and a password, keeping its account: chips, hands and sessions."""
    await within(server.auth_limit, request, "rate_limited", "too many login or registration attempts; wait a minute")
    try:
        row = await server.accounts.claim(int(viewer["id"]), body.username, body.password, visit_of(request))
    except AccountError as exc:
        raise ApiError(400, exc.code, str(exc)) from exc
    return {"user": public_user(row)}
