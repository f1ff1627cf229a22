"""The 算番 portal and the replay viewer: their pages and JSON endpoints (docs/portal.md).

Pages: ``/calc`` (the fan calculator), ``/rules`` (fan table and presets), ``/guide/<topic>``
(worked examples; ``/guide`` opens the first topic, an unknown topic is the guide page saying so,
status 404), ``/replay`` (an uploaded record) and ``/replay/<hand id>``. Endpoints:
``POST /api/portal/score``, ``GET /api/portal/fans``, ``GET /api/portal/presets``, ``GET /api/portal/tiles``,
``GET /api/portal/examples/<topic>``, ``GET /api/replay/<hand id>?seat=&move=`` (finished hands
only) and ``POST /api/replay`` (a record in the body). Bad input: status 400 with
``{"code", "message"}``, and nothing changes.
"""

# no ``from __future__ import annotations``: FastAPI reads the routes' annotations, among them the
# login dependency made inside portal_router
from collections.abc import Awaitable, Callable
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse

from chuanma.engine import RecordError
from chuanma.errors import ChuanmaError, InputError
from chuanma.json_input import parse_json
from chuanma.portal.calculator import calculate
from chuanma.portal.examples import TOPICS, topic
from chuanma.portal.reference import fan_table, presets, tile_table
from chuanma.portal.replays import read_viewer, replay_view
from chuanma.server.hand_access import HandRefusedError, readable_hand
from chuanma.server.services import Server
from chuanma.server.store import Row

PAGES = Path(__file__).resolve().parent.parent / "static" / "portal"
MAX_BODY = 1 << 20
"""The largest request body read (a record of a whole hand is about 10 KB)."""


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status)


HEAD = """<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>川麻 chuanma</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/app/style.css">
<link rel="stylesheet" href="/static/portal/portal.css">
<link rel="modulepreload" href="/static/app/i18n.js">
<link rel="modulepreload" href="/static/app/tiles.js">
<link rel="modulepreload" href="/static/portal/strings.js">
<link rel="modulepreload" href="/static/portal/common.js">
<script type="module" src="/static/portal/{name}.js"></script>
</head>
"""
"""Every portal page's head: the stylesheets, the shared modules preloaded, and the page's script."""


@cache
def page_html(name: str) -> str:
    """The page ``name`` (``calc``, ``rules``, ``guide``, ``replay``): the head and its body file."""
    return HEAD.replace("{name}", name) + (PAGES / f"{name}.html").read_text(encoding="utf-8")


def _page(name: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(page_html(name), status_code=status, headers={"Cache-Control": "no-cache"})


async def _json_body(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise InputError(f"the request body is larger than {MAX_BODY} bytes")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the request body is not UTF-8 text") from None
    return parse_json(text, "the request body")


def _move(value: str | None) -> int | None:
    if value is None or value == "end":
        return None
    if not value.isdigit() or len(value) > 6:
        raise RecordError(f"move must be a whole number from 0 or \"end\", not {value[:20]!r}")
    return int(value)


def portal_router(current_user: Callable[[Request], Awaitable[Row]]) -> APIRouter:
    """The portal's routes; ``current_user`` is the server's login check (the replay of a stored
    hand needs a session, like its record)."""
    router = APIRouter()
    user = Annotated[Row, Depends(current_user)]

    @router.get("/calc", include_in_schema=False)
    async def calc_page() -> HTMLResponse:
        return _page("calc")

    @router.get("/rules", include_in_schema=False)
    async def rules_page() -> HTMLResponse:
        return _page("rules")

    @router.get("/guide", include_in_schema=False)
    async def first_guide() -> RedirectResponse:
        return RedirectResponse(f"/guide/{TOPICS[0]}")

    @router.get("/guide/{name}", include_in_schema=False)
    async def guide_page(name: str) -> HTMLResponse:
        """The topic's page; an unknown topic gets the same page, which says so (status 404)."""
        return _page("guide", 200 if name in TOPICS else 404)

    @router.get("/replay", include_in_schema=False)
    async def upload_page() -> HTMLResponse:
        return _page("replay")

    @router.get("/replay/{hand_id}", include_in_schema=False)
    async def replay_page(hand_id: str) -> HTMLResponse:
        return _page("replay")

    @router.post("/api/portal/score")
    async def score(request: Request) -> JSONResponse:
        """Score a hand (the fields of ``chuanma score``, and ``from``: the discarder's seat)."""
        try:
            return JSONResponse(calculate(await _json_body(request)))
        except (ChuanmaError, ValueError) as exc:
            return _error(400, "bad_hand", str(exc))

    @router.get("/api/portal/fans")
    async def fans() -> dict[str, Any]:
        return fan_table()

    @router.get("/api/portal/presets")
    async def all_presets() -> dict[str, Any]:
        return presets()

    @router.get("/api/portal/tiles")
    async def tiles() -> dict[str, Any]:
        return tile_table()

    @router.get("/api/portal/examples/{name}", response_model=None)
    async def examples(name: str) -> dict[str, Any] | JSONResponse:
        if name not in TOPICS:
            return _error(404, "no_topic", f"no rules page {name[:40]!r}; pages: {', '.join(TOPICS)}")
        return topic(name)

    @router.get("/api/replay/{hand_id}", response_model=None)
    async def stored(request: Request, hand_id: str, viewer: user, seat: str = "all",
                     move: str | None = None, key: str | None = None) -> dict[str, Any] | JSONResponse:
        server: Server = request.app.state.server
        try:
            row = await readable_hand(server.store, hand_id, int(viewer["id"]), key)
        except HandRefusedError as exc:
            return _error(exc.status, exc.code, str(exc))
        try:
            return replay_view(row["record"], read_viewer(seat), _move(move))
        except (ChuanmaError, ValueError) as exc:
            return _error(400, "bad_replay", str(exc))

    @router.post("/api/replay", response_model=None)
    async def uploaded(request: Request) -> dict[str, Any] | JSONResponse:
        """Replay a record sent as ``{"record": {...}, "seat": 0-3 or "all", "move": n}``."""
        try:
            body = await _json_body(request)
            if not isinstance(body, dict) or not isinstance(body.get("record"), dict):
                raise RecordError('send {"record": {...}, "seat": 0-3 or "all", "move": n}')
            unknown = sorted(set(body) - {"record", "seat", "move"})
            if unknown:
                raise RecordError(f"unknown key {unknown[0][:40]!r}; keys: record, seat, move")
            return replay_view(body["record"], read_viewer(body.get("seat", "all")), body.get("move"))
        except (ChuanmaError, ValueError) as exc:
            return _error(400, "bad_replay", str(exc))

    return router
