"""What the HTTP routes share, handed to them by FastAPI's dependency injection.

:func:`chuanma.server.app.create_app` keeps the app's state on ``app.state``: ``config`` (the
:class:`ServerConfig`, from the start), ``server`` (the :class:`Server`, once the app has started),
``sockets`` (every open WebSocket). A route asks for what it needs by annotation: :data:`Config`,
:data:`ServerDep`, :data:`User` (401 without a session), :data:`Sockets`. A route refuses with
:class:`ApiError`, answered ``{"code", "message"}`` with its status (:data:`ERROR_HANDLERS`).
"""

# no ``from __future__ import annotations``: FastAPI reads the dependencies' annotations
import contextlib
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import Depends, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response

from chuanma.server.accounts import token_digest
from chuanma.server.config import ServerConfig
from chuanma.server.honesty import Visit, device_id, new_device
from chuanma.server.lease import LeaseLostError
from chuanma.server.limits import Limit
from chuanma.server.passwords import PasswordsBusy
from chuanma.server.services import Server
from chuanma.server.store import Row
from chuanma.server.ws import UNAUTHORIZED

COOKIE = "chuanma_session"
DEVICE_COOKIE = "chuanma_device"
"""The browser's device id (:mod:`chuanma.server.honesty`), kept :data:`DEVICE_DAYS` days."""
DEVICE_DAYS = 400
OpenSockets = dict[WebSocket, tuple[int, str]]
"""Every open socket: its user and the token it was opened with (a logout closes it)."""


class ApiError(Exception):
    """A refusal: ``status``, and ``code`` and the message the client is answered."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


def token_of(request: Request | WebSocket) -> str | None:
    """The session token: ``Authorization: Bearer``, the session cookie, or ``?token=`` (WebSocket)."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.cookies.get(COOKIE) or request.query_params.get("token")


def client_address(request: Request) -> str:
    """The client's address: the one that connected, or the one a proxy named in ``--forwarded-allow-ips``
    forwarded (uvicorn puts it in the request's ``client``)."""
    return request.client.host if request.client else "?"


def device_of(request: Request) -> str | None:
    """The device id of ``request``'s device cookie, if it holds a well-formed one."""
    return device_id(request.cookies.get(DEVICE_COOKIE))


def visit_of(request: Request, mint: bool = False) -> Visit:
    """Where ``request`` came from, as the ``logins`` table keeps it: its address, User-Agent and
    device (with ``mint``, a new device id when the request shows none well-formed: see
    :func:`set_cookie`)."""
    device = device_of(request)
    return Visit.of(client_address(request), request.headers.get("user-agent"),
                    new_device() if device is None and mint else device)


def set_cookie(response: Response, config: ServerConfig, request: Request, name: str, value: str,
               max_age: int | None = None) -> None:
    """Set an HttpOnly, SameSite=Lax cookie (``Secure`` over TLS or when configured)."""
    response.set_cookie(name, value, max_age=max_age, httponly=True, samesite="lax",
                        secure=config.secure_cookies or request.url.scheme == "https")


def keep_device(response: Response, config: ServerConfig, request: Request, visit: Visit) -> None:
    """Give the browser ``visit``'s device id in the device cookie unless it showed that one already."""
    if visit.device is not None and visit.device != device_of(request):
        set_cookie(response, config, request, DEVICE_COOKIE, visit.device, DEVICE_DAYS * 86_400)


def config_of(request: Request) -> ServerConfig:
    config: ServerConfig = request.app.state.config
    return config


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def sockets_of(request: Request) -> OpenSockets:
    sockets: OpenSockets = request.app.state.sockets
    return sockets


async def close_sockets(sockets: OpenSockets, user_id: int, reason: str, digest: str | None = None,
                        others: bool = False) -> None:
    """Close every open socket of ``user_id`` (opened with the token of ``digest``, if given; with
    ``others``, with any token but it) with code 4401."""
    ended = [ws for ws, (owner, used) in list(sockets.items())
             if owner == user_id and (digest is None or (token_digest(used) != digest) == others)]
    for ws in ended:
        with contextlib.suppress(RuntimeError, OSError):  # closed meanwhile (its client left, or fell behind)
            await ws.close(code=UNAUTHORIZED, reason=reason[:120])


Config = Annotated[ServerConfig, Depends(config_of)]
ServerDep = Annotated[Server, Depends(server_of)]
Sockets = Annotated[OpenSockets, Depends(sockets_of)]


async def current_user(request: Request, server: ServerDep) -> Row:
    user = await server.accounts.user(token_of(request))
    if user is None:
        raise ApiError(401, "not_logged_in", "log in first (bearer token or session cookie)")
    return user


User = Annotated[Row, Depends(current_user)]


async def within(limit: Limit, request: Request, code: str, message: str) -> None:
    """Refuse (429 ``code``) a request whose client address ``limit`` allows no more, or whose
    device (a browser showing its device cookie) it allows no more."""
    device = device_of(request)
    if not await limit.allow(client_address(request)) or (
            device is not None and not await limit.allow(f"device:{device}")):
        raise ApiError(429, code, message)


def public_user(user: Row) -> dict[str, Any]:
    return {"id": user["id"], "username": user["username"], "kind": user["kind"], "balance": user["balance"]}


async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
    return JSONResponse({"code": exc.code, "message": str(exc)}, status_code=exc.status)


async def lease_lost(_request: Request, exc: LeaseLostError) -> JSONResponse:
    return JSONResponse({"code": "lease_lost", "message": str(exc)}, status_code=503)


async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
    first = exc.errors()[0]
    where = ".".join(str(x) for x in first["loc"][1:]) or "body"
    return JSONResponse({"code": "bad_request", "message": f"{where}: {first['msg']}"}, status_code=400)


async def busy(_request: Request, _exc: PasswordsBusy) -> JSONResponse:
    return JSONResponse({"code": "busy", "message": "too many logins at once: try again in a few seconds"},
                        status_code=503, headers={"Retry-After": "2"})


Handler = Callable[[Request, Any], Coroutine[Any, Any, Response]]
ERROR_HANDLERS: dict[int | type[Exception], Handler] = {
    ApiError: api_error, LeaseLostError: lease_lost, RequestValidationError: bad_request, PasswordsBusy: busy}
"""How the app answers each refusal a route raises."""
