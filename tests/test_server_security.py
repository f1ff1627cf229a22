"""Security and bad input: what a seat is sent, who may act, refusals, accounts, and the chips
invariants over the hands of a few tables (thousands of hands: many_hands.py)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed

from chuanma.engine import replay
from chuanma.fairness.vrf import proof_to_hash
from chuanma.server.schema import tokens, users
from server_harness import (
    TIMEOUT,
    Client,
    Running,
    account,
    auto_table,
    db_url,
    hands_of,
    make_config,
    pg_database,
    running,
    seat_four,
)

__all__ = ["db_url", "pg_database"]
PASSWORD = "a very secret password"


async def _record(run: Running, token: str, url: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
        r = await http.get(url, headers={"authorization": f"Bearer {token}"})
        assert r.status_code == 200
        data: dict[str, Any] = r.json()
        return data


def _walls(data: Any) -> bool:
    """True if a list-valued ``wall`` (the wall's order) appears anywhere in ``data``."""
    if isinstance(data, dict):
        return any((k == "wall" and isinstance(v, list)) or _walls(v) for k, v in data.items())
    if isinstance(data, list):
        return any(_walls(v) for v in data)
    return False


def test_no_seat_receives_concealed_tiles_the_wall_or_the_seed_and_chips_add_up(db_url: str) -> None:
    """192 hands on 16 tables; every message to every seat is checked, then the ledger."""
    hands_per_table = 12

    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            presets = ["xuezhan", "xueliu", "classic", "portal-xueliu"] * 4
            clients = await asyncio.gather(*(auto_table(run, hands_per_table, p) for p in presets))
            played = 0
            for c in clients:
                hands = hands_of(c.seen)
                assert len(hands) == hands_per_table
                for messages, end in hands:
                    proof = bytes.fromhex(end["seeds"]["proof"])
                    before = [m for m in messages if m["type"] != "hand_end"]
                    text = json.dumps(before)
                    assert proof.hex() not in text and proof_to_hash(proof).hex() not in text
                    assert not _walls(before)
                    record = await _record(run, c.token, end["record"])
                    seat = c.seat
                    got = [e for m in before if m["type"] == "events" for e in m["events"]]
                    assert got == replay(record).events_for(seat)
                    for ev in got:
                        if ev.get("seat") not in (None, seat) and ev["type"] in ("deal", "draw", "exchange_chosen"):
                            assert set(ev) <= {"schema", "seq", "type", "seat", "wall", "replacement", "last_four"}, ev
                    played += 1
            assert played == 16 * hands_per_table
            assert len({c.seat for c in clients}) > 1  # seats are drawn: more than one seat was checked
            audit = await run.server.store.audit()
            assert audit["hands"] == played
            assert audit["balances"] == audit["grants"]
            assert audit["lowest"] >= 0 and audit["unbalanced_hands"] == 0
    asyncio.run(scenario())


def test_a_client_cannot_act_for_another_seat_or_replay_a_command(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            clients = await seat_four(run)
            for c in clients:
                await c.send("ready")
            prompt = await clients[0].expect("prompt")
            action = prompt["legal"][0]
            c0 = clients[0]
            await c0.send("act", table=c0.table, version=prompt["version"], action=action, seat=1)
            err = await c0.expect("error")
            assert err["code"] == "bad_message" and "seat" in err["message"]
            await c0.send("act", table="0" * 16, version=prompt["version"], action=action)
            assert (await c0.expect("error"))["code"] == "wrong_table"
            await c0.send("act", table=c0.table, version=prompt["version"] + 5, action=action)
            assert (await c0.expect("error"))["code"] == "stale_version"
            await c0.send("act", table=c0.table, version=prompt["version"], action=action)
            await c0.send("act", table=c0.table, version=prompt["version"], action=action)  # the same again
            err = await c0.expect("error")
            assert err["code"] in ("stale_version", "not_your_turn")
            game = run.server.host.tables[c0.table].game
            assert len(game.decisions) == 1
            assert game.decisions[0][0] == c0.seat
    asyncio.run(scenario())


def test_joining_outside_the_rooms_range_is_refused(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            acc = await account(run.base)
            c = await Client.open(run.base, acc["token"])
            await c.send("join", room="zunjue-xuezhan")
            err = await c.expect("error")
            assert err["code"] == "out_of_range" and "400,000+" in err["message"] and "10,000" in err["message"]
            await c.send("join", room="no-such-room")
            assert (await c.expect("error"))["code"] == "no_room"
            assert run.server.lobby.queues.get("zunjue-xuezhan", []) == []
    asyncio.run(scenario())


def test_bad_input_gets_a_clear_error_and_the_connection_stays_usable(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, max_frame=2048)) as run:
            clients = await seat_four(run)
            c = clients[0]
            cases: list[tuple[str | bytes, str, str]] = [
                ("{not json", "bad_json", "malformed JSON"),
                ('["a list"]', "bad_message", "JSON object"),
                ('{"type": "fly", "v": 1}', "unknown_type", "'fly'"),
                ('{"type": "ping", "v": 2}', "bad_version", "version 2"),
                ('{"type": "join", "v": 1}', "bad_message", "room"),
                (json.dumps({"type": "ping", "v": 1, "pad": "x" * 5000}), "too_large", "2048 bytes"),
                (b"\x00\x01", "bad_frame", "text frames"),
                ('{"type": "ping", "v": 1, "x": ' + "[" * 1000 + "]" * 1000 + "}", "too_deep", "nested too deeply"),
                (json.dumps({"type": "ready", "v": 1, "client_seed": "a|b"}), "bad_seed", "client_seed"),
                (json.dumps({"type": "act", "v": 1, "table": c.table, "version": 0, "action": {"discard": "5m"}}),
                 "no_hand", "no hand"),
            ]
            for frame, code, words in cases:
                await c.ws.send(frame)
                err = await c.expect("error")
                assert err["code"] == code and words in err["message"], (frame, err)
            for other in clients:
                await other.send("ready")
            prompt = await c.expect("prompt")
            bad = {"type": "act", "v": 1, "table": c.table, "version": prompt["version"]}
            await c.ws.send(json.dumps({**bad, "action": {"discard": "9z"}}))
            assert (await c.expect("error"))["code"] == "bad_action"
            await c.ws.send(json.dumps({**bad, "action": {"fly": True}}))
            assert (await c.expect("error"))["code"] == "bad_action"
            held = {a.get("exchange") for a in prompt["legal"]}
            wrong = next(t for t in ("111m", "999p", "555s", "123m") if t not in held)
            await c.ws.send(json.dumps({**bad, "action": {"exchange": wrong}}))
            err = await c.expect("error")
            assert err["code"] in ("illegal_action", "not_your_turn") and err["message"]
            assert len(run.server.host.tables[c.table].game.decisions) == 0
            await c.send("ping")
            assert (await c.expect("pong"))["type"] == "pong"
    asyncio.run(scenario())


def test_a_flood_from_one_connection_is_rate_limited(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, messages_per_second=5.0)) as run:
            acc = await account(run.base)
            c = await Client.open(run.base, acc["token"])
            for _ in range(40):
                await c.send("ping")
            replies = [await c.expect("pong", "error") for _ in range(40)]
            limited = [r for r in replies if r["type"] == "error"]
            assert limited and all(r["code"] == "rate_limited" for r in limited)
            assert len(replies) - len(limited) <= 12
    asyncio.run(scenario())


def test_passwords_and_tokens_are_never_stored_or_logged_in_clear(db_url: str,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            acc = await account(run.base, "carol", PASSWORD)
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                r = await http.post("/api/login", json={"username": "carol", "password": PASSWORD})
                assert r.status_code == 200
                cookie = r.headers["set-cookie"].lower()
                assert "httponly" in cookie and "samesite=lax" in cookie
            row = await run.server.store.read(
                lambda conn: conn.execute(select(users).where(users.c.username == "carol")).one())
            stored = await run.server.store.read(lambda conn: [r.digest for r in conn.execute(select(tokens))])
            assert row.password_hash.startswith("$argon2") and PASSWORD not in row.password_hash
            assert acc["token"] not in stored and r.json()["token"] not in stored
            clients = await seat_four(run)
            for c in clients:
                await c.send("ready")
            await asyncio.gather(*(c.play_on() for c in clients))
            logged = "\n".join(r.getMessage() + repr(r.__dict__) for r in caplog.records
                                if r.name.startswith(("chuanma", "uvicorn")))
            assert "hand settled" in logged
            assert PASSWORD not in logged and acc["token"] not in logged
    with caplog.at_level(logging.DEBUG):
        asyncio.run(scenario())


def test_login_failures_do_not_say_whether_the_user_exists_and_are_rate_limited(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, auth_per_minute=3)) as run:
            await account(run.base, "dave", PASSWORD)
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                wrong = await http.post("/api/login", json={"username": "dave", "password": "not it at all"})
                unknown = await http.post("/api/login", json={"username": "nobody_here", "password": PASSWORD})
                assert wrong.status_code == unknown.status_code == 401
                assert wrong.json() == unknown.json() == {"code": "login_failed",
                                                          "message": "wrong username or password"}
                bad = await http.post("/api/register", json={"username": "x!", "password": PASSWORD})
                assert bad.status_code == 429  # the fourth attempt this minute
                run.clock.advance(60)
                bad = await http.post("/api/register", json={"username": "x!", "password": PASSWORD})
                assert bad.status_code == 400 and bad.json()["code"] == "bad_username"
                short = await http.post("/api/register", json={"username": "erin", "password": "short"})
                assert short.json()["code"] == "bad_password"
                missing = await http.post("/api/register", json={"username": "erin"})
                assert missing.status_code == 400 and "password" in missing.json()["message"]
                assert (await http.get("/api/me")).status_code == 401
    asyncio.run(scenario())


def test_a_socket_without_a_session_is_closed(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            with pytest.raises(ConnectionClosed) as info:
                c = await Client.open(run.base, "not-a-token")
                await c.recv()
            assert info.value.rcvd is not None and info.value.rcvd.code == 4401
    asyncio.run(scenario())


def test_a_hand_is_never_paid_twice(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            c = await auto_table(run, 1, "xuezhan")
            end = next(m for m in c.seen if m["type"] == "hand_end")
            store = run.server.store
            before = await store.audit()
            again = await store.settle(end["hand_id"], {}, {1: 5}, {}, 0.0)
            assert again is None
            assert await store.audit() == before
    asyncio.run(scenario())
