"""The ASGI app: the HTTP routes of :mod:`chuanma.server.routes`, ``/ws``, the static files.

:func:`create_app` builds it for a :class:`ServerConfig`; starting it runs the migrations (none while
another live process holds the database's lease), takes the lease (:mod:`chuanma.server.lease`),
resumes every unfinished table from the database, and only then does ``/healthz`` answer 200 (503
again if another process takes the lease over). With ``redis_url`` it is one node of a cluster
instead (:mod:`chuanma.server.cluster`): no database lease; it joins the cluster and claims its
share of the tables whose lease lapsed (``/healthz``: 503 once its heartbeats failed for a lease time).
Every HTTP response carries the security headers of :mod:`chuanma.server.guards`; ``/ws`` refuses
a page of another origin; ``/metrics`` answers local clients only (or is on its own port) and the
OpenAPI pages exist only with ``api_docs``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, WebSocket
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from prometheus_client import start_http_server
from starlette.middleware.gzip import GZipMiddleware

from chuanma.server.accounts import DAY, Accounts
from chuanma.server.bus import Bus
from chuanma.server.cluster import ClusterHost, ClusterLobby
from chuanma.server.config import ServerConfig
from chuanma.server.dealer import dealer_key
from chuanma.server.dealer_keys import admission
from chuanma.server.detectors import scan_daily
from chuanma.server.guards import SecurityHeaders, origin_allowed
from chuanma.server.host import Lobby, LocalHost
from chuanma.server.http_metrics import HttpCounts
from chuanma.server.lease import Lease, migration_check
from chuanma.server.limits import Reach, limiter
from chuanma.server.metrics import Metrics
from chuanma.server.passwords import Passwords
from chuanma.server.progress import settle_hook
from chuanma.server.retention import purge_daily
from chuanma.server.routes import accounts, admin, admin_config, hands, me, portal, progression, reports, rooms, service
from chuanma.server.routes.deps import ERROR_HANDLERS, OpenSockets, close_sockets, token_of
from chuanma.server.routes.service import STATIC
from chuanma.server.services import Server
from chuanma.server.store import open_store
from chuanma.server.table_leases import TableLeases, cluster_prefix, upgrade_check
from chuanma.server.ws import serve_socket

FOREIGN_ORIGIN = 4403
"""The close code refusing a WebSocket opened by a page of another origin (the handshake answers 403)."""


def create_app(config: ServerConfig) -> FastAPI:
    """The server's ASGI app (with the dealer's keys of ``config``, or the one :func:`dealer_key` finds)."""
    keys = config.dealer_key if config.dealer_key is not None else dealer_key(None, config.data_dir)
    config = dataclasses.replace(config, dealer_key=keys)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        metrics = Metrics()
        admitted = admission(keys, config.clock.now())  # one dealer key per cluster, checked before migrating
        lease: Lease | None = None
        reach: Reach | None = None
        if config.redis_url is not None:  # a node of a cluster: a lease per table (docs/server.md, Cluster)
            store = await open_store(config.db_url, before_migrating=upgrade_check(config),
                                     idle_seconds=config.lease_seconds, then=admitted)
            app.state.lease = leases = TableLeases.of(store, config)
            prefix = await cluster_prefix(store)
            reach = Reach.of(config.redis_url, prefix, config.clock.now)  # the rate limits, in Redis
            cluster = ClusterHost(store, config, metrics, leases=leases, bus=Bus(
                config.redis_url, prefix, config.lease_holder, metrics))
            host: LocalHost = cluster
            lobby: Lobby = ClusterLobby(cluster, cluster=cluster)
        else:
            store = await open_store(config.db_url, before_migrating=migration_check(config), then=admitted)
            app.state.lease = lease = Lease.of(store, config)
            try:
                await lease.take()
            except BaseException:
                await store.close()
                raise
            store.guard = lease.check
            host = LocalHost(store, config, metrics)
            lobby = Lobby(host)
        passwords = Passwords(config.password_threads, config.password_jobs)
        users = Accounts(store, config.clock, passwords, config.starting_grant, config.session_days * DAY,
                         config.reliefs_per_day, config.relief_hands, config.grants_per_day)
        closing: set[asyncio.Task[None]] = set()

        def close(user_id: int, reason: str, digest: str | None, others: bool) -> None:
            task = asyncio.create_task(close_sockets(sockets, user_id, reason, digest, others))
            closing.add(task)
            task.add_done_callback(closing.discard)
        host.on_close = close  # a ban, kick or logout closes the player's sockets on this node

        async def drain_then_leave() -> None:
            await host.drain(config.drain_seconds)
            if app.state.leave is not None:
                app.state.leave()

        def drain() -> None:
            """Take no new socket (nor, here, a hand), let the hands in play end (handed over, in a
            cluster), then stop the server (``app.state.leave``, uvicorn's: a stop, or an operator's drain)."""
            if host.draining:
                return
            host.draining = True  # at once: a second signal or operator's ask starts no second drain
            task = asyncio.create_task(drain_then_leave(), name="drain")
            closing.add(task)
            task.add_done_callback(closing.discard)
        app.state.drain = drain
        if isinstance(host, ClusterHost):
            host.on_drain = drain
        store.on_settle = settle_hook(config.bot_levels)  # progression's figures, in the settlement's transaction
        store.on_settle_failed = metrics.progression_failed
        store.on_ledger = metrics.ledger_written
        metrics.watch_queues(lobby.waiting_since, config.clock.now)
        app.state.server = Server(config, store, users, host, lobby, metrics, limiter(config.clock.now, reach))
        exporter = None
        if config.metrics_port is not None:
            exporter, _ = start_http_server(config.metrics_port, config.metrics_host, metrics.registry)
            app.state.metrics_port = exporter.server_port
        keeper = asyncio.create_task(lease.keep(host.stop)) if lease is not None else None
        purger = asyncio.create_task(purge_daily(store, config.clock, config.login_days), name="purge-logins")
        scanner = asyncio.create_task(scan_daily(store, config.clock), name="scan-abuse")
        gc.callbacks.append(watch_gc := metrics.gc_watcher())
        try:
            await host.resume_all()
            host.watch_idle()
            app.state.ready = True
            yield
        finally:
            app.state.ready = False
            purger.cancel()
            scanner.cancel()
            if keeper is not None:
                keeper.cancel()
            if exporter is not None:
                exporter.shutdown()
                exporter.server_close()
            await host.stop()
            if reach is not None:
                await reach.close()
            await store.flush()
            if lease is not None:
                await lease.release()
            await store.close()
            passwords.close()
            gc.callbacks.remove(watch_gc)

    docs = config.api_docs
    app = FastAPI(title="chuanma", lifespan=lifespan, exception_handlers=ERROR_HANDLERS,
                  docs_url="/docs" if docs else None, redoc_url="/redoc" if docs else None,
                  openapi_url="/openapi.json" if docs else None)
    app.add_middleware(HttpCounts)  # inside the others: it reads the route the router matched
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # the client's scripts and stylesheet, the API's lists
    app.state.ready = False
    app.state.leave = None
    app.state.config = config
    app.state.sockets = sockets = OpenSockets()

    app.include_router(service.router)
    app.include_router(accounts.router)
    app.include_router(me.router)
    app.include_router(rooms.router)
    app.include_router(hands.router)
    app.include_router(portal.router)
    app.include_router(progression.router)
    app.include_router(admin.router)
    app.include_router(admin_config.router)
    app.include_router(reports.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    origins = frozenset(o.rstrip("/").lower() for o in config.allowed_origins)

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), origins):
            await ws.close(code=FOREIGN_ORIGIN, reason="a page of another origin may not open this socket")
            return
        if ws.app.state.server.host.draining:  # the proxy tries another node (nginx: proxy_next_upstream http_503)
            await ws.send_denial_response(JSONResponse({"status": "draining"}, status_code=503))
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
