"""The ASGI app: HTTP routes for accounts, rooms, private tables and history; ``/ws``; health and metrics.

:func:`create_app` builds it for a :class:`ServerConfig`; starting it runs the migrations (none while
another live process holds the database's lease), takes the lease (:mod:`chuanma.server.lease`),
resumes every unfinished table from the database, and only then does ``/healthz`` answer 200 (503
again if another process takes the lease over).
Every HTTP response carries the security headers of :mod:`chuanma.server.guards`; ``/ws`` refuses
a page of another origin; ``/metrics`` answers local clients only (or is on its own port) and the
OpenAPI pages exist only with ``api_docs``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest, start_http_server
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from starlette.middleware.gzip import GZipMiddleware

from chuanma.errors import ChuanmaError
from chuanma.fairness import SCHEME_VRF
from chuanma.fairness.signing import SIGNATURE_SCHEME
from chuanma.rules import PRESET_NAMES, PRESETS, RuleSet, option_schema
from chuanma.server.accounts import DAY, AccountError, Accounts, RateLimiter
from chuanma.server.config import ServerConfig
from chuanma.server.dealer import dealer_key
from chuanma.server.guards import SecurityHeaders, loopback, origin_allowed
from chuanma.server.hand_access import SHARE_SECRET, HandRefusedError, readable_hand, server_secret, share_link
from chuanma.server.host import Lobby, LocalHost
from chuanma.server.lease import Lease, LeaseLostError, migration_check
from chuanma.server.metrics import Metrics
from chuanma.server.passwords import Passwords, PasswordsBusy
from chuanma.server.portal import portal_router
from chuanma.server.rooms import LOWEST_ENTRY, ROOMS
from chuanma.server.seatings import TooManyTablesError
from chuanma.server.services import Server
from chuanma.server.store import Row, open_store
from chuanma.server.ws import UNAUTHORIZED, serve_socket

COOKIE = "chuanma_session"
STATIC = Path(__file__).resolve().parent.parent / "static"
"""The browser client and the verifier page, served under ``/static``."""
MAX_PRIVATE_HANDS = 64
FOREIGN_ORIGIN = 4403
"""The close code refusing a WebSocket opened by a page of another origin (the handshake answers 403)."""


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=64)
    password: str = Field(max_length=256)


class Logout(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    everywhere: StrictBool = Field(False, alias="all")


class PrivateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    preset: str = Field("xuezhan", max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    hands: int = Field(4, ge=1, le=MAX_PRIVATE_HANDS)
    bots: int = Field(0, ge=0, le=3)


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


def token_of(request: Request | WebSocket) -> str | None:
    """The session token: ``Authorization: Bearer``, the session cookie, or ``?token=`` (WebSocket)."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.cookies.get(COOKIE) or request.query_params.get("token")


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def current_user(request: Request) -> Row:
    user = await server_of(request).accounts.user(token_of(request))
    if user is None:
        raise ApiError(401, "not_logged_in", "log in first (bearer token or session cookie)")
    return user


User = Annotated[Row, Depends(current_user)]


def public_user(user: Row) -> dict[str, Any]:
    return {"id": user["id"], "username": user["username"], "kind": user["kind"], "balance": user["balance"]}


def _session(config: ServerConfig, request: Request, user: Row, token: str) -> JSONResponse:
    """The answer to a login: the token, and the session cookie (``Secure`` over TLS or when configured)."""
    response = JSONResponse({"user": public_user(user), "token": token})
    response.set_cookie(COOKIE, token, httponly=True, samesite="lax",
                        secure=config.secure_cookies or request.url.scheme == "https")
    return response


def create_app(config: ServerConfig) -> FastAPI:
    """The server's ASGI app (with the dealer's key of ``config``, or the one :func:`dealer_key` finds)."""
    key = config.dealer_key if config.dealer_key is not None else dealer_key(None, config.data_dir)
    config = dataclasses.replace(config, dealer_key=key)
    public_key = key.public_key.hex()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await open_store(config.db_url, before_migrating=migration_check(config))
        app.state.lease = lease = Lease.of(store, config)
        try:
            await lease.take()
        except BaseException:
            await store.close()
            raise
        store.guard = lease.check
        metrics = Metrics()
        host = LocalHost(store, config, metrics)
        passwords = Passwords(config.password_threads, config.password_jobs)
        accounts = Accounts(store, config.clock, passwords, config.starting_grant, config.session_days * DAY)
        app.state.server = Server(config, store, accounts, host, Lobby(host), metrics,
                                  RateLimiter(config.clock.now, config.auth_per_minute / 60, config.auth_per_minute))
        exporter = None
        if config.metrics_port is not None:
            exporter, _ = start_http_server(config.metrics_port, config.metrics_host, metrics.registry)
            app.state.metrics_port = exporter.server_port
        keeper = asyncio.create_task(lease.keep(host.stop))
        gc.callbacks.append(watch_gc := metrics.gc_watcher())
        try:
            await host.resume_all()
            host.watch_idle()
            app.state.ready = True
            yield
        finally:
            app.state.ready = False
            keeper.cancel()
            if exporter is not None:
                exporter.shutdown()
                exporter.server_close()
            await host.stop()
            await store.flush()
            await lease.release()
            await store.close()
            passwords.close()
            gc.callbacks.remove(watch_gc)

    docs = config.api_docs
    app = FastAPI(title="chuanma", lifespan=lifespan, docs_url="/docs" if docs else None,
                  redoc_url="/redoc" if docs else None, openapi_url="/openapi.json" if docs else None)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # the client's scripts and stylesheet, the API's lists
    app.state.ready = False
    origins = frozenset(o.rstrip("/").lower() for o in config.allowed_origins)
    sockets: dict[WebSocket, tuple[int, str]] = {}
    """Every open socket: its user and the token it was opened with (a logout closes it)."""

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"code": exc.code, "message": str(exc)}, status_code=exc.status)

    @app.exception_handler(LeaseLostError)
    async def lease_lost(_request: Request, exc: LeaseLostError) -> JSONResponse:
        return JSONResponse({"code": "lease_lost", "message": str(exc)}, status_code=503)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"][1:]) or "body"
        return JSONResponse({"code": "bad_request", "message": f"{where}: {first['msg']}"}, status_code=400)

    @app.exception_handler(PasswordsBusy)
    async def busy(_request: Request, _exc: PasswordsBusy) -> JSONResponse:
        return JSONResponse({"code": "busy", "message": "too many logins at once: try again in a few seconds"},
                            status_code=503, headers={"Retry-After": "2"})

    def limit(request: Request) -> None:
        client = request.client.host if request.client else "?"
        if not server_of(request).auth_limit.allow(client):
            raise ApiError(429, "rate_limited", "too many login or registration attempts; wait a minute")

    @app.get("/healthz")
    async def healthz(request: Request) -> JSONResponse:
        if not request.app.state.ready:
            return JSONResponse({"status": "starting"}, status_code=503)
        if request.app.state.lease.lost is not None:
            return JSONResponse({"status": "lease_lost", "message": request.app.state.lease.lost}, status_code=503)
        server = server_of(request)
        await server.store.ping()
        return JSONResponse({"status": "ok", "tables": len(server.host.tables)})

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """The Prometheus metrics, to clients on the loopback interface (none with ``metrics_port``)."""
        if config.metrics_port is not None or not loopback(request.client.host if request.client else None):
            raise ApiError(404, "not_found", "Not Found")
        return Response(generate_latest(server_of(request).metrics.registry), media_type=CONTENT_TYPE_LATEST)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(portal_router(current_user))

    @app.get("/", response_class=FileResponse)
    async def home() -> FileResponse:
        """The browser client (docs/client.md): plain ES modules under ``/static/app``."""
        return FileResponse(STATIC / "app" / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", response_class=FileResponse, include_in_schema=False)
    async def favicon() -> FileResponse:
        """The icon (``static/favicon.svg``, which the pages declare) for a browser that asks here."""
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def sign_in(request: Request, body: Credentials, status: int) -> JSONResponse:
        """Register (``status`` 400 on refusal) or log in (401): the session cookie and a bearer token."""
        limit(request)
        accounts = server_of(request).accounts
        action = accounts.register if status == 400 else accounts.login
        try:
            user, token = await action(body.username, body.password)
        except AccountError as exc:
            raise ApiError(status, exc.code, str(exc)) from None
        return _session(config, request, user, token)

    @app.post("/api/register")
    async def register(request: Request, body: Credentials) -> JSONResponse:
        return await sign_in(request, body, 400)

    @app.post("/api/login")
    async def login(request: Request, body: Credentials) -> JSONResponse:
        return await sign_in(request, body, 401)

    @app.post("/api/guest")
    async def guest(request: Request) -> JSONResponse:
        limit(request)
        user, token = await server_of(request).accounts.guest()
        return _session(config, request, user, token)

    @app.post("/api/logout")
    async def logout(request: Request, user: User, body: Logout | None = None) -> JSONResponse:
        """End this session or, with ``{"all": true}``, every session of the account: their tokens stop
        working and their open sockets are closed (code 4401)."""
        token = token_of(request)
        assert token is not None
        everywhere = body is not None and body.everywhere
        await server_of(request).accounts.logout(token, everywhere)
        ended = [ws for ws, (user_id, used) in sockets.items()
                 if user_id == user["id"] and (everywhere or used == token)]
        for ws in ended:
            with contextlib.suppress(RuntimeError, OSError):  # closed meanwhile (its client left, or fell behind)
                await ws.close(code=UNAUTHORIZED, reason="logged out")
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE)
        return response

    @app.get("/api/me")
    async def me(request: Request, user: User) -> dict[str, Any]:
        server = server_of(request)
        row = await server.accounts.top_up(int(user["id"]))
        return {**public_user(row), "table": server.host.table_of(int(user["id"])),
                "grant": {"below": LOWEST_ENTRY, "to": config.starting_grant}}

    @app.get("/api/fairness/key")
    async def fairness_key() -> dict[str, str]:
        """The dealer's public key: it checks every hand's VRF proof and every record's signature."""
        return {"public_key": public_key, "vrf": SCHEME_VRF, "signature": SIGNATURE_SCHEME}

    @app.get("/api/rooms")
    async def rooms() -> list[dict[str, object]]:
        return [r.to_json() for r in ROOMS.values()]

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        """Every preset with every option's value, each preset's names, and each option's description
        and choices."""
        return {"presets": {name: RuleSet.from_preset(name).options() for name in PRESETS},
                "names": PRESET_NAMES, "options": option_schema()}

    @app.get("/api/tables")
    async def live_tables(request: Request, _user: User) -> list[dict[str, Any]]:
        return server_of(request).host.live()

    @app.post("/api/tables")
    async def private_table(request: Request, body: PrivateTable, user: User) -> dict[str, Any]:
        try:
            rules = RuleSet.from_json({"preset": body.preset, "options": body.options})
        except ChuanmaError as exc:
            raise ApiError(400, "bad_rules", f"rules: {exc}") from None
        invite = secrets.token_hex(4)
        try:
            table_id = await server_of(request).host.open_table(None, rules, [], bots=body.bots,
                                                                hands_limit=body.hands, invite=invite,
                                                                creator=int(user["id"]))
        except TooManyTablesError as exc:
            raise ApiError(409, "too_many_tables", f"{exc}; a private table closes when its hands are "
                                                   f"played or after {config.private_idle_seconds:g} s "
                                                   "with no player") from None
        return {"table": table_id, "invite": invite}

    @app.get("/api/hands")
    async def history(request: Request, user: User) -> list[dict[str, Any]]:
        store = server_of(request).store
        rows = await store.hands_of(int(user["id"]))
        secret = await server_secret(store, SHARE_SECRET)
        return [{**r, "record": f"/api/hands/{r['id']}/record", "share": share_link(secret, r["id"])} for r in rows]

    @app.get("/api/hands/{hand_id}/record")
    async def record(request: Request, hand_id: str, user: User, key: str | None = None) -> JSONResponse:
        try:
            row = await readable_hand(server_of(request).store, hand_id, int(user["id"]), key)
        except HandRefusedError as exc:
            raise ApiError(exc.status, exc.code, str(exc)) from None
        return JSONResponse(row["record"])

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), origins):
            await ws.close(code=FOREIGN_ORIGIN, reason="a page of another origin may not open this socket")
            return
        server: Server = ws.app.state.server
        token = token_of(ws)
        user = await server.accounts.user(token)
        if user is not None and token is not None:
            sockets[ws] = (int(user["id"]), token)
        try:
            await serve_socket(ws, user, server)
        finally:
            sockets.pop(ws, None)

    return app
