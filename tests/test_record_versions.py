"""Records carry the version of their rules' meaning: ``no_kong_in_last_four`` forbade a kong at 3
tiles or fewer in ``chuanma-record/1`` and forbids one at 4 or fewer in ``chuanma-record/2``
(RULES §9.3). A version 1 record replays when its decisions are legal today; one that made a kong at
4 tiles under that option is refused naming both versions, never replayed under a meaning it did not
have."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from chuanma.engine import Game, Hu, Kong, replay, to_record
from chuanma.engine.record import RecordError
from chuanma.engine.record_fields import FORMAT, FORMAT_1
from chuanma.rules import RuleSet
from chuanma.server.routes import hands
from chuanma.server.routes.deps import ERROR_HANDLERS
from chuanma.tiles import SICHUAN_TILES


def _play(seed: int = 5, kong: bool = False, **options: Any) -> tuple[dict[str, Any], list[int]]:
    """A random hand's record, and the wall's count at each kong made (``kong``: every kong offered
    is made)."""
    rng = random.Random(seed)
    wall = SICHUAN_TILES.wall()
    rng.shuffle(wall)
    g = Game(RuleSet.from_preset("xuezhan").with_options(**options), wall, 0, "opposite")
    kongs_at = []
    while not g.finished:
        seat = rng.choice(g.to_act())
        legal = g.legal_actions(seat)
        kongs = [a for a in legal if isinstance(a, Kong)] if kong else []
        if kongs:
            kongs_at.append(g.state.remaining)
        g.apply(seat, kongs[0] if kongs else Hu() if Hu() in legal else rng.choice(legal))
    return to_record(g), kongs_at


def _record(**options: Any) -> dict[str, Any]:
    return _play(**options)[0]


def _as_version_1_under_the_option(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` as a version 1 record of the same hand under ``no_kong_in_last_four``."""
    rules = RuleSet.from_json(record["rules"]).with_options(no_kong_in_last_four=True)
    return {**record, "format": FORMAT_1, "rules": rules.to_json()}


def test_records_are_written_in_version_2() -> None:
    record = _record()
    assert record["format"] == FORMAT == "chuanma-record/2"
    assert replay(record).finished


def _kong_at_four() -> dict[str, Any]:
    """A version 1 record under the option whose hand made a kong with 4 tiles in the wall (legal then)."""
    record, kongs_at = _play(seed=1, kong=True, no_kong_in_last_four=False)
    assert 4 in kongs_at
    return _as_version_1_under_the_option(record)


def test_a_version_1_record_with_a_kong_at_four_tiles_is_refused_naming_both_versions() -> None:
    with pytest.raises(RecordError, match=r"chuanma-record/1.*3 tiles.*chuanma-record/2.*4 or fewer"):
        replay(_kong_at_four())


def test_another_refusal_in_a_version_1_record_is_not_blamed_on_the_kong_rule() -> None:
    old = _as_version_1_under_the_option(_record())
    first = old["decisions"][0]
    old["decisions"][0] = {"seat": first["seat"], "exchange": "1m 1m 1m"}  # not what the seat holds
    with pytest.raises(RecordError) as refused:
        replay(old)
    assert "chuanma-record/1" not in str(refused.value)


def test_a_version_1_record_under_the_option_with_no_kong_at_four_tiles_replays() -> None:
    record, kongs_at = _play(seed=1, kong=True)  # the option on: no kong at 4 tiles
    assert kongs_at and 4 not in kongs_at
    old = {**record, "format": FORMAT_1}
    assert to_record(replay(old))["decisions"] == record["decisions"]


def test_a_version_1_record_without_the_option_replays_as_before() -> None:
    record = _record(no_kong_in_last_four=False)
    old = {**record, "format": FORMAT_1}
    assert to_record(replay(old))["decisions"] == record["decisions"]


def test_the_replay_endpoint_says_why() -> None:
    app = FastAPI(exception_handlers=ERROR_HANDLERS)
    app.include_router(hands.router)
    old = _kong_at_four()

    async def post() -> httpx.Response:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as http:
            return await http.post("/api/replay", json={"record": old, "seat": "all"})
    answer = asyncio.run(post())
    assert answer.status_code == 400 and answer.json()["code"] == "bad_replay"
    assert "chuanma-record/1" in answer.json()["message"] and "chuanma-record/2" in answer.json()["message"]
