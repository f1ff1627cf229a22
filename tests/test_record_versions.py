"""Records carry the version of their rules' meaning: ``no_kong_in_last_four`` forbade a kong at 3
tiles or fewer in ``chuanma-record/1`` and forbids one at 4 or fewer in ``chuanma-record/2``
(RULES §9.3), so a version 1 record under that option is refused by name, never replayed under the
new meaning."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from chuanma.engine import Game, Hu, replay, to_record
from chuanma.engine.record import RecordError
from chuanma.engine.record_fields import FORMAT, FORMAT_1
from chuanma.rules import RuleSet
from chuanma.server.routes import hands
from chuanma.server.routes.deps import ERROR_HANDLERS
from chuanma.tiles import full_wall


def _record(**options: Any) -> dict[str, Any]:
    rng = random.Random(5)
    wall = full_wall()
    rng.shuffle(wall)
    g = Game(RuleSet.from_preset("xuezhan").with_options(**options), wall, 0, "opposite")
    while not g.finished:
        seat = rng.choice(g.to_act())
        legal = g.legal_actions(seat)
        g.apply(seat, Hu() if Hu() in legal else rng.choice(legal))
    return to_record(g)


def test_records_are_written_in_version_2() -> None:
    record = _record()
    assert record["format"] == FORMAT == "chuanma-record/2"
    assert replay(record).finished


def test_a_version_1_record_under_no_kong_in_last_four_is_refused_naming_both_versions() -> None:
    old = {**_record(), "format": FORMAT_1}
    assert RuleSet.from_json(old["rules"]).no_kong_in_last_four
    with pytest.raises(RecordError, match=r"chuanma-record/1.*3 tiles.*chuanma-record/2.*4 or fewer"):
        replay(old)


def test_a_version_1_record_without_the_option_replays_as_before() -> None:
    record = _record(no_kong_in_last_four=False)
    old = {**record, "format": FORMAT_1}
    assert to_record(replay(old))["decisions"] == record["decisions"]


def test_the_replay_endpoint_says_why() -> None:
    app = FastAPI(exception_handlers=ERROR_HANDLERS)
    app.include_router(hands.router)
    old = {**_record(), "format": FORMAT_1}

    async def post() -> httpx.Response:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as http:
            return await http.post("/api/replay", json={"record": old, "seat": "all"})
    answer = asyncio.run(post())
    assert answer.status_code == 400 and answer.json()["code"] == "bad_replay"
    assert "chuanma-record/1" in answer.json()["message"] and "chuanma-record/2" in answer.json()["message"]
