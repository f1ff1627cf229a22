"""ASGI middleware counting every HTTP response by method, route and status (``/metrics``)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""The methods counted under their own name (any other is ``other``: a label per junk method would
let a client grow the server's metrics without bound)."""


class HttpCounts:
    """Counts each HTTP response in ``chuanma_http_responses_total``: its route is the path template
    the router matched (``/api/hands/{hand_id}``, ``/static/{path}``), or ``unmatched``, so the labels stay few whatever
    paths clients ask for. A request whose app failed before answering counts as a 500."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            server = getattr(scope["app"].state, "server", None)
            if server is not None:
                method = scope["method"] if scope["method"] in METHODS else "other"
                server.metrics.http_responses.labels(method, route_of(scope), str(status)).inc()


def route_of(scope: Scope) -> str:
    """The route that answered, once the router ran: its path template; a mounted app's (the static
    files) its mount path with ``/{path}``; ``unmatched`` for none."""
    route = getattr(scope.get("route"), "path", None)
    if route:
        return str(route)
    mounted = str(scope.get("root_path", ""))[len(str(scope.get("app_root_path", ""))):]
    return f"{mounted}/{{path}}" if mounted else "unmatched"
