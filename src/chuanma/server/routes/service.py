"""The service's own routes: health, metrics, the browser client's page, the console's and the icon."""

# no ``from __future__ import annotations``: FastAPI reads the routes' annotations
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from chuanma.server.cluster import ClusterHost
from chuanma.server.guards import loopback
from chuanma.server.routes.deps import ApiError, Config, ServerDep, client_address

STATIC = Path(__file__).resolve().parent.parent.parent / "static"
"""The browser client and the verifier page, served under ``/static``."""

router = APIRouter()


@router.get("/healthz")
async def healthz(request: Request) -> JSONResponse:
    """200 once the server can take players; 503 while starting, draining, or after another process took the
    lease. A cluster node whose bus cannot reach Redis still answers 200, saying so (``"bus": "down"``):
    every node loses Redis at once, and its tables, pages and logins work on meanwhile."""
    state = request.app.state
    if not state.ready:
        return JSONResponse({"status": "starting"}, status_code=503)
    if state.server.host.draining:  # the proxy sends new players elsewhere
        return JSONResponse({"status": "draining", "tables": len(state.server.host.tables)}, status_code=503)
    if state.lease.lost is not None:
        return JSONResponse({"status": "lease_lost", "message": state.lease.lost}, status_code=503)
    server = state.server
    await server.store.ping()
    body: dict[str, object] = {"status": "ok", "tables": len(server.host.tables)}
    if isinstance(server.host, ClusterHost):  # why Redis is away (its address, say) is in the node's log only
        body["bus"] = "up" if server.host.bus.down is None else "down"
    return JSONResponse(body)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request, config: Config, server: ServerDep) -> Response:
    """The Prometheus metrics, to clients on the loopback interface (none with ``metrics_port``)."""
    if config.metrics_port is not None or not loopback(client_address(request)):
        raise ApiError(404, "not_found", "Not Found")
    return Response(generate_latest(server.metrics.registry), media_type=CONTENT_TYPE_LATEST)


@router.get("/", response_class=FileResponse)
async def home() -> FileResponse:
    """The browser client (docs/client.md): plain ES modules under ``/static/app``."""
    return FileResponse(STATIC / "app" / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/admin", response_class=FileResponse, include_in_schema=False)
async def console() -> FileResponse:
    """The console of moderators and operators (``static/admin.html``): it calls ``/api/admin/*`` only."""
    return FileResponse(STATIC / "admin.html", headers={"Cache-Control": "no-cache"})


@router.get("/favicon.ico", response_class=FileResponse, include_in_schema=False)
async def favicon() -> FileResponse:
    """The icon (``static/favicon.svg``, which the pages declare) for a browser that asks here."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")
