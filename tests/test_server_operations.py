"""What operators change that every player sees (docs/operations.md, Rooms, Announcements and
maintenance, Notes): rooms set through the service in ``/api/rooms`` at once (and on another node
over the bus), refused when unplayable, a disabled room taking no join; announcements on every
socket of every node and on one opened later; maintenance refusing new tables after its countdown,
also to a server started later; staff notes on a player's page."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from typer.testing import CliRunner

from chuanma.cli import app as cli
from chuanma.server.clock import ManualClock
from chuanma.server.host import CONFIG_WATCH
from chuanma.server.moderation import CONSOLE, Moderation, ModerationError
from chuanma.server.notices import Notices
from chuanma.server.room_config import RoomConfig
from chuanma.server.store import sqlite_url
from chuanma.server.table import RefusedError
from server_harness import TIMEOUT, Client, account, bearer, eventually, make_config, pg_database, running
from test_cluster_identity import said
from test_cluster_lobby import ROOM, cluster_db, guest, two_nodes

__all__ = ["cluster_db", "pg_database"]


def invoke(*args: str) -> str:
    return said(CliRunner().invoke(cli, ["admin", *args]))


async def room_of(http: httpx.AsyncClient, room_id: str) -> dict[str, Any] | None:
    r = await http.get("/api/rooms")
    assert r.status_code == 200
    return next((room for room in r.json() if room["id"] == room_id), None)


def test_operators_set_rooms_at_once_bad_rooms_are_refused_and_a_disabled_room_turns_its_queue_away(
        tmp_path: Path) -> None:
    async def scenario() -> None:
        db = sqlite_url(tmp_path)
        async with running(make_config(db)) as run:
            op = await account(run.base, "Opera")
            await Moderation(run.server.store, run.clock).set_role(op["user"]["id"], "operator")
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, headers=bearer(op["token"])) as http:
                r = await http.post("/api/admin/rooms/chuji-xuezhan", json={"reason": "cheaper", "base": 300})
                assert r.status_code == 200, r.text
                assert (await room_of(http, "chuji-xuezhan") or {})["base"] == 300  # at once
                for body, code in [({"preset": "nosuch"}, "bad_preset"), ({"base": 0}, "bad_base"),
                                   ({"low": 200_000}, "bad_entry"), ({"base": 50_000}, "bad_entry"),
                                   ({"min_level": 9}, "bad_level"), ({"colour": "red"}, "bad_request"),
                                   ({"name": " "}, "bad_name")]:
                    r = await http.post("/api/admin/rooms/chuji-xuezhan", json={"reason": "x", **body})
                    assert r.status_code == 400 and r.json()["code"] == code, (body, r.text)
                r = await http.post("/api/admin/rooms/new-room", json={"reason": "x", "base": 10})
                assert r.status_code == 404 and r.json()["code"] == "no_room"
                assert await room_of(http, "chuji-xuezhan") == {
                    "id": "chuji-xuezhan", "name": "初级场 血战到底", "en": "Beginners' room · Bloody battle (血战)",
                    "preset": "doublewin-xuezhan", "base": 300, "low": 2_000, "high": 100_000, "min_level": 0,
                    "enabled": True}
                r = await http.post("/api/admin/rooms/tiny", json={
                    "reason": "a room of our own", "name": "小场", "en": "Tiny room", "preset": "xuezhan",
                    "base": 2, "low": 10, "high": None})
                assert r.status_code == 200 and r.json()["room"]["entry"] == "10+"
                r = await http.get("/api/rooms")
                assert r.json()[-1]["id"] == "tiny"
                # a player waits in the room; disabling it tells them, and refuses the next join
                acc = await account(run.base)
                client = await Client.open(run.base, acc["token"], "waiting")
                await client.send("join", room="classic", bots=False)
                await client.expect("queued")
                r = await http.post("/api/admin/rooms/classic/disable", json={"reason": "closing"})
                assert r.status_code == 200 and r.json()["room"]["enabled"] is False
                assert (await client.expect("error"))["code"] == "room_closed"
                assert (await client.expect("queued"))["room"] is None
                await client.send("join", room="classic", bots=False)
                assert (await client.expect("error"))["code"] == "room_closed"
                assert await room_of(http, "classic") is None
                r = await http.post("/api/admin/rooms/classic/disable", json={"reason": "again"})
                assert r.status_code == 409 and r.json()["code"] == "unchanged"
                # the command line's change is read at the server's next look
                assert "classic: 经典场 血战到底" in await asyncio.to_thread(
                    invoke, "rooms", "enable", "classic", "--db", db)
                assert await room_of(http, "classic") is None
                run.clock.advance(CONFIG_WATCH)
                await eventually(lambda: (room := run.server.host.rooms.get("classic")) is not None and room.enabled)
                assert await room_of(http, "classic") is not None
                r = await http.get("/api/admin/log")
                rooms_rows = [row for row in r.json() if row["action"] == "room"]
                assert len(rooms_rows) == 4 and rooms_rows[-1]["details"]["to"]["base"] == 300
                await client.close()
        listed = await asyncio.to_thread(invoke, "rooms", "list", "--db", db)
        assert "tiny: 小场 / Tiny room, xuezhan, base 2, entry 10+, level any, open" in listed
        assert ("chuji-xuezhan: 初级场 血战到底 / Beginners' room · Bloody battle (血战), doublewin-xuezhan, "
                "base 300") in listed
    asyncio.run(scenario())


def test_an_announcement_and_a_maintenance_reach_every_socket_and_bind_a_server_started_later(tmp_path: Path) -> None:
    """An announcement reaches an open socket and one opened later; a maintenance's countdown is
    sent, and once it starts the waiting are turned away, joins and new private tables refused,
    also by a server started afterwards on the same database; notes go on a player's page."""
    async def scenario() -> None:
        db = sqlite_url(tmp_path)
        async with running(make_config(db)) as run:
            op = await account(run.base, "Opera")
            await Moderation(run.server.store, run.clock).set_role(op["user"]["id"], "operator")
            acc = await account(run.base)
            early = await Client.open(run.base, acc["token"], "early")
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, headers=bearer(op["token"])) as http:
                r = await http.post("/api/admin/announce", json={"text": "今晚维护 · maintenance tonight",
                                                                 "minutes": 30})
                assert r.status_code == 200, r.text
                shown = await early.expect("announcement")
                assert shown["topic"] == "notice" and shown["text"] == "今晚维护 · maintenance tonight"
                assert shown["until"] == run.clock.now() + 1800
                late = await Client.open(run.base, acc["token"], "late")
                assert (await late.expect("announcement"))["text"] == shown["text"]
                r = await http.post("/api/admin/announce", json={"text": " ", "minutes": 30})
                assert r.status_code == 400 and r.json()["code"] == "bad_text"
                r = await http.post("/api/admin/maintenance", json={"in": -1})
                assert r.status_code == 400 and r.json()["code"] == "bad_minutes"
                await late.send("join", room="classic", bots=False)
                await late.expect("queued")
                r = await http.post("/api/admin/maintenance", json={"in": 10, "message": "升级 · upgrade"})
                assert r.status_code == 200, r.text
                countdown = await early.expect("announcement")
                assert countdown["topic"] == "maintenance" and countdown["at"] == run.clock.now() + 600
                run.clock.advance(600)
                assert (await late.expect("error"))["code"] == "maintenance"
                await early.send("join", room="classic", bots=False)
                error = await early.expect("error")
                assert error["code"] == "maintenance" and "upgrade" in error["message"]
                target = acc["user"]["id"]
                r = await http.post(f"/api/admin/players/{target}/notes", json={"text": "asked about chips"})
                assert r.status_code == 200, r.text
                r = await http.get(f"/api/admin/players/{target}")
                assert [(n["text"], n["by_name"]) for n in r.json()["notes"]] == [("asked about chips", "Opera")]
            await early.close()
            await late.close()
        name = acc["user"]["username"]
        assert "note #2 written" in await asyncio.to_thread(invoke, "note", name, "again", "--db", db)
        page = await asyncio.to_thread(invoke, "player", acc["user"]["username"], "--db", db)
        assert "by command line: again" in page and "by Opera: asked about chips" in page
        async with running(make_config(db, clock=ManualClock(run.clock.now()))) as again:
            client = await Client.open(again.base, acc["token"], "after")
            greeted = [await client.expect("announcement") for _ in range(2)]
            assert {m["topic"] for m in greeted} == {"notice", "maintenance"}
            await client.send("join", room="classic", bots=False)
            assert (await client.expect("error"))["code"] == "maintenance"
            async with httpx.AsyncClient(base_url=again.base, timeout=TIMEOUT) as http:
                r = await http.post("/api/tables", json={"preset": "xuezhan"}, headers=bearer(acc["token"]))
                assert r.status_code == 503 and r.json()["code"] == "maintenance"
                r = await http.post("/api/admin/maintenance/off", headers=bearer(op["token"]))
                assert r.status_code == 200, r.text
                assert (await client.expect("announcement"))["id"] is None
                r = await http.post("/api/tables", json={"preset": "xuezhan"}, headers=bearer(acc["token"]))
                assert r.status_code == 200, r.text
            await client.close()
    asyncio.run(scenario())


def test_rooms_and_notices_changed_on_one_node_reach_the_other_over_the_bus(cluster_db: str) -> None:
    async def scenario() -> None:
        clock = ManualClock(1000.0)
        async with two_nodes(cluster_db, clock) as [(a, _lobby_a), (b, lobby_b)]:
            heard: list[list[dict[str, Any]]] = [[], []]
            a.listeners.add(heard[0].append)
            b.listeners.add(heard[1].append)
            moderation = Moderation(a.store, clock)
            await RoomConfig(moderation, a.reconfigure).set(CONSOLE, ROOM.id, {"base": 350}, "cheaper")
            assert (a.rooms.get(ROOM.id) or ROOM).base == 350  # this node at once, the other over the bus
            await eventually(lambda: (b.rooms.get(ROOM.id) or ROOM).base == 350)
            await Notices(moderation, a.reconfigure).announce(CONSOLE, "hello everyone")
            await eventually(lambda: all(m and m[-1]["text"] == "hello everyone" for m in heard))
            assert [m["text"] for m in b.greetings()] == ["hello everyone"]  # for a socket opened later
            await Notices(moderation, a.reconfigure).maintenance_on(CONSOLE, 0, "now")
            await eventually(lambda: b.maintenance_refusal() is not None)
            try:
                await lobby_b.join(ROOM, await guest(b.store, clock), heard[1].append, True)
            except RefusedError as exc:
                assert exc.code == "maintenance"
            else:
                raise AssertionError("a join during maintenance was let in")
            await RoomConfig(moderation, a.reconfigure).enable(CONSOLE, ROOM.id, False, "closing")
            await eventually(lambda: not (b.rooms.get(ROOM.id) or ROOM).enabled)
            try:
                await RoomConfig(moderation).set(CONSOLE, ROOM.id, {"low": 10}, "too low")
            except ModerationError as exc:
                assert exc.code == "bad_entry"
            else:
                raise AssertionError("an entry below five bases was let through")
    asyncio.run(scenario())
