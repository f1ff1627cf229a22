"""Accounts: register, log in, guests, log out, the player (docs/server.md, HTTP and Accounts)."""

# no ``from __future__ import annotations``: FastAPI reads the routes' annotations
import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from chuanma.server.accounts import AccountError, token_digest
from chuanma.server.config import ServerConfig
from chuanma.server.honesty import Visit
from chuanma.server.routes.deps import (
    COOKIE,
    ApiError,
    Config,
    ServerDep,
    User,
    keep_device,
    public_user,
    set_cookie,
    token_of,
    visit_of,
    within,
)
from chuanma.server.store import Row

log = logging.getLogger(__name__)

router = APIRouter()


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=64)
    password: str = Field(max_length=256)


class Logout(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    everywhere: StrictBool = Field(False, alias="all")


def session(config: ServerConfig, request: Request, user: Row, token: str, visit: Visit) -> JSONResponse:
    """The answer to a login: the token, the session cookie and, if the browser had none, the
    device cookie of ``visit`` (``Secure`` over TLS or when configured)."""
    response = JSONResponse({"user": public_user(user), "token": token})
    set_cookie(response, config, request, COOKIE, token)
    keep_device(response, config, request, visit)
    return response


async def limit_logins(request: Request, server: ServerDep) -> None:
    await within(server.auth_limit, request, "rate_limited", "too many login or registration attempts; wait a minute")


async def sign_in(request: Request, server: ServerDep, config: Config, body: Credentials,
                  status: int) -> JSONResponse:
    """Register (``status`` 400 on refusal) or log in (401): the session cookie and a bearer token."""
    await limit_logins(request, server)
    kind, action = ("register", server.accounts.register) if status == 400 else ("login", server.accounts.login)
    visit = visit_of(request, mint=True)
    try:
        user, token = await action(body.username, body.password, visit)
    except AccountError as exc:
        server.metrics.signed_in(kind, exc.code)
        raise ApiError({"banned": 403, "too_many_grants": 429}.get(exc.code, status), exc.code, str(exc)) from None
    server.metrics.signed_in(kind, "ok")
    log.info("signed in", extra={"user": user["id"], "kind": kind})
    return session(config, request, user, token, visit)


@router.post("/api/register")
async def register(request: Request, server: ServerDep, config: Config, body: Credentials) -> JSONResponse:
    return await sign_in(request, server, config, body, 400)


@router.post("/api/login")
async def login(request: Request, server: ServerDep, config: Config, body: Credentials) -> JSONResponse:
    return await sign_in(request, server, config, body, 401)


@router.post("/api/guest")
async def guest(request: Request, server: ServerDep, config: Config) -> JSONResponse:
    await limit_logins(request, server)
    await within(server.guest_limit, request, "too_many_guests",
                 f"this address or device made {config.guests_per_hour} guest accounts within the hour: register, "
                 "or wait (--guests-per-hour)")
    visit = visit_of(request, mint=True)
    try:
        user, token = await server.accounts.guest(visit)
    except AccountError as exc:
        server.metrics.signed_in("guest", exc.code)
        raise ApiError(429, exc.code, str(exc)) from None
    server.metrics.signed_in("guest", "ok")
    log.info("signed in", extra={"user": user["id"], "kind": "guest"})
    return session(config, request, user, token, visit)


@router.post("/api/logout")
async def logout(request: Request, user: User, server: ServerDep,
                 body: Logout | None = None) -> JSONResponse:
    """End this session or, with ``{"all": true}``, every session of the account: their tokens stop
    working and their open sockets are closed (code 4401)."""
    token = token_of(request)
    assert token is not None
    everywhere = body is not None and body.everywhere
    await server.accounts.logout(token, everywhere)
    await server.host.log_out(int(user["id"]), "logged out", None if everywhere else token_digest(token))
    response = JSONResponse({"ok": True})
    response.delete_cookie(COOKIE)
    return response


@router.get("/api/me")
async def me(user: User, server: ServerDep) -> dict[str, Any]:
    row = await server.accounts.relieve(int(user["id"]))
    return {**public_user(row), "table": await server.host.seat_of(int(user["id"])),
            "relief": await server.accounts.relief(row)}
