"""Finished hands: the player's history, a hand's signed record, its replay, and the dealer's public
keys that verify them (docs/server.md, HTTP; docs/portal.md, replays; docs/fairness.md)."""

# no ``from __future__ import annotations``: FastAPI reads the routes' annotations
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from chuanma.engine import RecordError
from chuanma.errors import ChuanmaError
from chuanma.fairness import SCHEME_VRF
from chuanma.fairness.keys import signing_key_of
from chuanma.fairness.signing import SIGNATURE_SCHEME
from chuanma.portal.replays import read_viewer, replay_view
from chuanma.server.dealer_keys import published
from chuanma.server.hand_access import (
    SHARE_SECRET,
    HandRefusedError,
    hand_players,
    readable_hand,
    server_secret,
    share_link,
)
from chuanma.server.routes.deps import ApiError, Config, ServerDep, User
from chuanma.server.routes.portal import json_body
from chuanma.server.store import Row

router = APIRouter()


def move_of(value: str | None) -> int | None:
    if value is None or value == "end":
        return None
    if not value.isdigit() or len(value) > 6:
        raise RecordError(f"move must be a whole number from 0 or \"end\", not {value[:20]!r}")
    return int(value)


async def readable(server: ServerDep, hand_id: str, user: Row, key: str | None) -> Row:
    """The hand if ``user`` may read it (:func:`readable_hand`); else its refusal."""
    try:
        return await readable_hand(server.store, hand_id, int(user["id"]), key)
    except HandRefusedError as exc:
        raise ApiError(exc.status, exc.code, str(exc)) from None


@router.get("/api/hands")
async def history(user: User, server: ServerDep) -> list[dict[str, Any]]:
    rows = await server.store.hands_of(int(user["id"]))
    secret = await server_secret(server.store, SHARE_SECRET)
    return [{**r, "record": f"/api/hands/{r['id']}/record", "share": share_link(secret, r["id"])} for r in rows]


@router.get("/api/hands/{hand_id}/record")
async def record(hand_id: str, user: User, server: ServerDep, key: str | None = None) -> JSONResponse:
    return JSONResponse((await readable(server, hand_id, user, key))["record"])


@router.get("/api/replay/{hand_id}")
async def stored(hand_id: str, user: User, server: ServerDep, seat: str = "all", move: str | None = None,
                 key: str | None = None) -> dict[str, Any]:
    """A finished hand at one move as ``seat`` saw it (who may replay it is who may read its record),
    with its players as they are named now and whether the caller may report them."""
    row = await readable(server, hand_id, user, key)
    try:
        view = replay_view(row["record"], read_viewer(seat), move_of(move))
    except (ChuanmaError, ValueError) as exc:
        raise ApiError(400, "bad_replay", str(exc)) from None
    return {**view, "players": await hand_players(server.store, row["seats"], int(user["id"])),
            "can_report": user["kind"] == "player"}



@router.post("/api/replay")
async def uploaded(request: Request) -> dict[str, Any]:
    """Replay a record sent as ``{"record": {...}, "seat": 0-3 or "all", "move": n}``."""
    try:
        body = await json_body(request)
        if not isinstance(body, dict) or not isinstance(body.get("record"), dict):
            raise RecordError('send {"record": {...}, "seat": 0-3 or "all", "move": n}')
        unknown = sorted(set(body) - {"record", "seat", "move"})
        if unknown:
            raise RecordError(f"unknown key {unknown[0][:40]!r}; keys: record, seat, move")
        return replay_view(body["record"], read_viewer(body.get("seat", "all")), body.get("move"))
    except (ChuanmaError, ValueError) as exc:
        raise ApiError(400, "bad_replay", str(exc)) from None


@router.get("/api/fairness/key")
async def fairness_key(config: Config) -> dict[str, str]:
    """The dealer's public keys: ``vrf_public_key`` checks every hand's VRF proof, ``public_key`` (the
    signing key) every record's signature."""
    assert config.dealer_key is not None
    return {"public_key": signing_key_of(config.dealer_key).public_key.hex(),
            "vrf_public_key": config.dealer_key.public_key.hex(), "vrf": SCHEME_VRF, "signature": SIGNATURE_SCHEME}


@router.get("/api/fairness/keys")
async def fairness_keys(server: ServerDep) -> dict[str, Any]:
    """Every dealer key of the database, retired ones included, oldest first, with when each was
    added and retired: a record names the key that signed it (``fairness.public_key``) and verifies
    against that key, whichever deals now."""
    return {"keys": [k.to_json() for k in await published(server.store)], "vrf": SCHEME_VRF,
            "signature": SIGNATURE_SCHEME}
