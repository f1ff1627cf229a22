"""Progression's routes: profiles, levels, leaderboards and a guest's claim to a name (docs/server.md,
Progression).

Pages: ``/profile/<username>`` and ``/leaderboard``. Endpoints (a session needed):
``GET /api/players/<username>``, ``GET /api/levels?names=a,b``, ``GET /api/leaderboard?family=&period=``
and ``POST /api/account/claim``. Bad input: status 400 (404 for an unknown player) with
``{"code", "message"}``, and nothing changes.
"""

# no ``from __future__ import annotations``: FastAPI reads the routes' annotations, among them the
# login dependency made inside progression_router
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from chuanma.server.accounts import AccountError
from chuanma.server.levels import LEVELS
from chuanma.server.portal import page_html
from chuanma.server.progress import PERIODS, leaderboard, levels_by_name, profile
from chuanma.server.ratings import FAMILIES, OVERALL
from chuanma.server.services import Server
from chuanma.server.store import Row

MAX_NAMES = 8
"""Names one ``/api/levels`` asks about (a table's four and a few spectated)."""
LEADERS = 100
"""Players a leaderboard lists."""


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=64)
    password: str = Field(max_length=256)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status)


def _page(name: str) -> HTMLResponse:
    return HTMLResponse(page_html(name), headers={"Cache-Control": "no-cache"})


def progression_router(current_user: Callable[[Request], Awaitable[Row]]) -> APIRouter:
    """Progression's routes; ``current_user`` is the server's login check."""
    router = APIRouter()
    user = Annotated[Row, Depends(current_user)]

    @router.get("/profile/{username}", include_in_schema=False)
    async def profile_page(username: str) -> HTMLResponse:
        return _page("profile")

    @router.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> HTMLResponse:
        return _page("leaderboard")

    @router.get("/api/players/{username}", response_model=None)
    async def player(request: Request, username: str, viewer: user) -> dict[str, Any] | JSONResponse:
        """A player's profile: level, ratings and their history, figures, best hands, chips history."""
        server: Server = request.app.state.server
        found = await server.store.user_by_name(username[:32])
        if found is None:
            return _error(404, "no_player", f"no player named {username[:32]!r}")
        viewer_id = int(viewer["id"])
        return await server.store.read(lambda conn: profile(conn, found, server.config.bot_name, viewer_id))

    @router.get("/api/levels", response_model=None)
    async def levels(request: Request, _viewer: user, names: str = "") -> dict[str, Any] | JSONResponse:
        """Every level (number, names, experience), and the levels of the players ``names`` (comma-separated)."""
        wanted = [n for n in names.split(",") if n][:MAX_NAMES + 1]
        if len(wanted) > MAX_NAMES:
            return _error(400, "bad_request", f"names: at most {MAX_NAMES}")
        server: Server = request.app.state.server
        found = await server.store.read(lambda conn: levels_by_name(conn, wanted)) if wanted else {}
        return {"levels": [{"level": lv.number, "zh": lv.zh, "en": lv.en, "xp": lv.xp} for lv in LEVELS],
                "players": found}

    @router.get("/api/leaderboard", response_model=None)
    async def leaders(request: Request, _viewer: user, family: str = OVERALL,
                      period: str = "week") -> dict[str, Any] | JSONResponse:
        """Registered players by rating in ``family`` (or ``all``) over ``period`` (``week``, ``all``)."""
        if family not in (OVERALL, *FAMILIES):
            return _error(400, "bad_request", f"family: one of {', '.join((OVERALL, *FAMILIES))}")
        if period not in PERIODS:
            return _error(400, "bad_request", f"period: one of {', '.join(PERIODS)}")
        server: Server = request.app.state.server
        least, now = server.config.leaderboard_min_hands, server.config.clock.now()
        return await server.store.read(lambda conn: leaderboard(conn, family, period, least, now, LEADERS))

    @router.post("/api/account/claim", response_model=None)
    async def claim(request: Request, body: Claim, viewer: user) -> dict[str, Any] | JSONResponse:
        """A guest takes a name and a password, keeping its account: chips, hands and sessions."""
        server: Server = request.app.state.server
        if not server.auth_limit.allow(request.client.host if request.client else "?"):
            return _error(429, "rate_limited", "too many login or registration attempts; wait a minute")
        try:
            row = await server.accounts.claim(int(viewer["id"]), body.username, body.password)
        except AccountError as exc:
            return _error(400, exc.code, str(exc))
        return {"user": {"id": row["id"], "username": row["username"], "kind": row["kind"],
                         "balance": row["balance"]}}

    return router
