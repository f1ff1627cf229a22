"""The 算番 portal: its pages (calculator, rules, guide, replay viewer), the fan table, the tiles,
the presets and the worked examples (docs/portal.md).

Pages: ``/calc`` (the fan calculator), ``/rules`` (fan table and presets), ``/guide/<topic>``
(worked examples; ``/guide`` opens the first topic, an unknown topic is the guide page saying so,
status 404), ``/replay`` (an uploaded record) and ``/replay/<hand id>``. Endpoints:
``POST /api/portal/score``, ``GET /api/portal/fans``, ``GET /api/presets`` (also at
``/api/portal/presets``), ``GET /api/portal/tiles``, ``GET /api/portal/words`` (the narration's
wording in both languages: :mod:`chuanma.narration`), ``GET /api/portal/examples/<topic>``. Bad
input: status 400 with ``{"code", "message"}``, and nothing changes; a refused hand to score also
says what is wrong as ``facts`` (:func:`chuanma.errors.error_facts`), which the page words. The
replays' endpoints are with the hands (:mod:`chuanma.server.routes.hands`).
"""

# no ``from __future__ import annotations``: FastAPI reads the routes' annotations
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse

from chuanma.errors import ChuanmaError, InputError, error_facts
from chuanma.json_input import parse_json
from chuanma.narration import word_table
from chuanma.portal.calculator import calculate
from chuanma.portal.examples import TOPICS, topic
from chuanma.portal.reference import fan_table, preset_catalog, tile_table
from chuanma.server.routes.deps import ApiError

PAGES = Path(__file__).resolve().parent.parent.parent / "static" / "portal"
MAX_BODY = 1 << 20
"""The largest request body read (a record of a whole hand is about 10 KB)."""

router = APIRouter()


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


def page(name: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(page_html(name), status_code=status, headers={"Cache-Control": "no-cache"})


async def json_body(request: Request) -> Any:
    """The request's body as JSON (at most :data:`MAX_BODY` bytes of UTF-8); else :class:`InputError`."""
    body = await request.body()
    if len(body) > MAX_BODY:
        raise InputError(f"the request body is larger than {MAX_BODY} bytes")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the request body is not UTF-8 text") from None
    return parse_json(text, "the request body")


@router.get("/calc", include_in_schema=False)
async def calc_page() -> HTMLResponse:
    return page("calc")


@router.get("/rules", include_in_schema=False)
async def rules_page() -> HTMLResponse:
    return page("rules")


@router.get("/guide", include_in_schema=False)
async def first_guide() -> RedirectResponse:
    return RedirectResponse(f"/guide/{TOPICS[0]}")


@router.get("/guide/{name}", include_in_schema=False)
async def guide_page(name: str) -> HTMLResponse:
    """The topic's page; an unknown topic gets the same page, which says so (status 404)."""
    return page("guide", 200 if name in TOPICS else 404)


@router.get("/replay", include_in_schema=False)
async def upload_page() -> HTMLResponse:
    return page("replay")


@router.get("/replay/{hand_id}", include_in_schema=False)
async def replay_page(hand_id: str) -> HTMLResponse:
    return page("replay")


@router.post("/api/portal/score")
async def score(request: Request) -> Any:
    """Score a hand (the fields of ``chuanma score``, and ``from``: the discarder's seat)."""
    try:
        return calculate(await json_body(request))
    except (ChuanmaError, ValueError) as exc:
        return JSONResponse({"code": "bad_hand", "facts": error_facts(exc), "message": str(exc)}, status_code=400)


@router.get("/api/portal/fans")
async def fans() -> dict[str, Any]:
    return fan_table()


@router.get("/api/presets")
@router.get("/api/portal/presets")
async def presets() -> dict[str, Any]:
    """Every playable preset and every option (:func:`chuanma.portal.reference.preset_catalog`): the private
    table form, the rules page and the calculator read this one shape."""
    return preset_catalog()


@router.get("/api/portal/words")
async def words() -> dict[str, Any]:
    return word_table()


@router.get("/api/portal/tiles")
async def tiles() -> dict[str, Any]:
    return tile_table()


@router.get("/api/portal/examples/{name}")
async def examples(name: str) -> dict[str, Any]:
    if name not in TOPICS:
        raise ApiError(404, "no_topic", f"no rules page {name[:40]!r}; pages: {', '.join(TOPICS)}")
    return topic(name)
