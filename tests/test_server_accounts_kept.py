"""Accounts people keep (docs/server.md, Accounts): a password changed (the other sessions logged
out), reset by an operator's one-time link or an e-mailed one (a local SMTP server), the data
exported, the account deleted (a tombstone, the chips audit exact, not at a table) and deleted
again after a restore from an older copy (docs/operations.md, Backup and restore)."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
from aiosmtpd.controller import Controller
from sqlalchemy import func, select
from typer.testing import CliRunner

from chuanma.cli import app as cli
from chuanma.server.deletions import erase
from chuanma.server.mail import Smtp
from chuanma.server.moderation import CONSOLE, Moderation
from chuanma.server.resets import OPERATOR_LINK_SECONDS
from chuanma.server.schema import deletions, logins, password_resets, seatings, tokens
from chuanma.server.store import Store, open_store, sqlite_url
from server_harness import TIMEOUT, Client, account, db_url, eventually, make_config, pg_database, running
from test_server_moderation import PASSWORD, bearer, close_code

__all__ = ["db_url", "pg_database"]
NEW_PASSWORD = "battery staple"


async def rows_of(store: Store, table: Any, user_id: int) -> int:
    return int(await store.read(lambda conn: conn.execute(
        select(func.count()).where(table.c.user_id == user_id)).scalar_one()))


def test_a_changed_password_needs_the_old_one_and_logs_out_every_other_session(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(make_config(sqlite_url(tmp_path))) as run:
            first = await account(run.base, "Keeper", PASSWORD)
            guest = await account(run.base)
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                r = await http.post("/api/login", json={"username": "keeper", "password": PASSWORD})
                other = r.json()["token"]
                http.cookies.clear()  # each request says whose it is
                elsewhere = await Client.open(run.base, other, "Keeper")
                here = bearer(first["token"])
                for body, headers, status, code in [
                        ({"old": "wrong password", "new": NEW_PASSWORD}, here, 403, "wrong_password"),
                        ({"old": PASSWORD, "new": "short"}, here, 400, "bad_password"),
                        ({"old": PASSWORD}, here, 400, "bad_request"),
                        ({"old": PASSWORD, "new": NEW_PASSWORD}, {}, 401, "not_logged_in"),
                        ({"old": PASSWORD, "new": NEW_PASSWORD}, bearer(guest["token"]), 403, "not_registered")]:
                    r = await http.post("/api/me/password", json=body, headers=headers)
                    assert (r.status_code, r.json()["code"]) == (status, code), r.text
                assert (await http.get("/api/me", headers=bearer(other))).status_code == 200  # nothing changed
                r = await http.post("/api/me/password", json={"old": PASSWORD, "new": NEW_PASSWORD}, headers=here)
                assert r.status_code == 200, r.text
                assert await close_code(elsewhere) == 4401
                assert (await http.get("/api/me", headers=bearer(other))).status_code == 401
                assert (await http.get("/api/me", headers=here)).status_code == 200  # this session goes on
                r = await http.post("/api/login", json={"username": "Keeper", "password": PASSWORD})
                assert r.status_code == 401
                r = await http.post("/api/login", json={"username": "Keeper", "password": NEW_PASSWORD})
                assert r.status_code == 200
    asyncio.run(scenario())


def test_an_operators_reset_link_works_once_within_a_day_and_is_logged(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(make_config(sqlite_url(tmp_path))) as run:
            target = await account(run.base, "Forgetful", PASSWORD)
            player, mod = await account(run.base, "Plain"), await account(run.base, "Moder")
            op = await account(run.base, "Opera")
            moderation = Moderation(run.server.store, run.clock)
            await moderation.set_role(mod["user"]["id"], "moderator")
            await moderation.set_role(op["user"]["id"], "operator")
            url = f"/api/admin/players/{target['user']['id']}/reset-link"
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                for headers, status in [({}, 401), (bearer(player["token"]), 403), (bearer(mod["token"]), 403)]:
                    assert (await http.post(url, json={"reason": "asked"}, headers=headers)).status_code == status
                r = await http.post(url, json={}, headers=bearer(op["token"]))
                assert r.status_code == 400  # no reason, no link
                assert await rows_of(run.server.store, password_resets, target["user"]["id"]) == 0
                r = await http.post(url, json={"reason": "asked by mail"}, headers=bearer(op["token"]))
                assert r.status_code == 200, r.text
                link = r.json()["link"]
                assert link.startswith(f"{run.base}/reset#")
                token = link.split("#", 1)[1]
                page = await http.get("/reset")
                assert page.status_code == 200 and "/api/password/reset" in (await http.get(
                    "/static/app/reset.js")).text
                log = (await http.get("/api/admin/log", headers=bearer(op["token"]))).json()
                assert (log[0]["action"], log[0]["actor_name"], log[0]["target_name"]) == (
                    "reset_link", "Opera", "Forgetful")
                assert token not in json.dumps(log)
                r = await http.post("/api/password/reset", json={"token": token, "password": "short"})
                assert r.status_code == 400 and r.json()["code"] == "bad_password"
                r = await http.post("/api/password/reset", json={"token": token + "x", "password": NEW_PASSWORD})
                assert r.status_code == 400 and r.json()["code"] == "bad_link"
                r = await http.post("/api/password/reset", json={"token": token, "password": NEW_PASSWORD})
                assert r.status_code == 200, r.text
                assert (await http.get("/api/me", headers=bearer(target["token"]))).status_code == 401
                r = await http.post("/api/login", json={"username": "Forgetful", "password": NEW_PASSWORD})
                assert r.status_code == 200
                r = await http.post("/api/password/reset", json={"token": token, "password": "third password"})
                assert r.status_code == 410 and r.json()["code"] == "link_used"
                late = (await http.post(url, json={"reason": "again"}, headers=bearer(op["token"]))).json()["link"]
                run.clock.advance(OPERATOR_LINK_SECONDS)
                r = await http.post("/api/password/reset", json={"token": late.split("#")[1], "password": "x" * 9})
                assert r.status_code == 410 and r.json()["code"] == "link_expired"
                r = await http.post("/api/login", json={"username": "Forgetful", "password": NEW_PASSWORD})
                assert r.status_code == 200  # the refused link changed nothing
                r = await http.post("/api/password/forgot", json={"email": "a@example.com"})
                assert r.status_code == 503 and r.json()["code"] == "no_mail"  # no SMTP here
    asyncio.run(scenario())


class Inbox:
    """aiosmtpd's handler: every message the local SMTP server was given."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], str]] = []

    async def handle_DATA(self, _server: object, _session: object, envelope: Any) -> str:
        self.messages.append((list(envelope.rcpt_tos), envelope.content.decode()))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_forgotten_password_is_mailed_as_a_link_and_the_answer_never_says_whether_the_address_exists(
        tmp_path: Path) -> None:
    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    config = make_config(sqlite_url(tmp_path), smtp=Smtp("127.0.0.1", smtp.port, "noreply@example.com", "none"),
                         public_url="https://mahjong.example", forgot_per_hour=2)

    async def scenario() -> None:
        async with running(config) as run:
            acc = await account(run.base, "Mailed", PASSWORD)
            guest = await account(run.base)
            me = bearer(acc["token"])
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                for body, headers, status in [({"password": PASSWORD, "email": "not an address"}, me, 400),
                                              ({"password": "wrong password", "email": "m@example.com"}, me, 403),
                                              ({"password": PASSWORD, "email": "m@example.com"}, {}, 401),
                                              ({"password": PASSWORD, "email": "m@example.com"},
                                               bearer(guest["token"]), 403)]:
                    assert (await http.put("/api/me/email", json=body, headers=headers)).status_code == status
                assert (await run.server.store.user(acc["user"]["id"]))["email"] is None
                r = await http.put("/api/me/email", json={"password": PASSWORD, "email": "M@Example.com"}, headers=me)
                assert r.status_code == 200 and r.json() == {"email": "M@Example.com"}
                known = await http.post("/api/password/forgot", json={"email": "m@example.com"})
                unknown = await http.post("/api/password/forgot", json={"email": "nobody@example.com"})
                assert known.status_code == unknown.status_code == 202 and known.json() == unknown.json()
                assert (await http.post("/api/password/forgot", json={"email": "nope"})).status_code == 400
                await eventually(lambda: bool(inbox.messages))
                [(to, text)] = inbox.messages
                assert to == ["m@example.com"] and "Mailed" in text
                token = re.search(r"https://mahjong\.example/reset#(\S+)", text)
                assert token is not None
                r = await http.post("/api/password/reset", json={"token": token[1], "password": NEW_PASSWORD})
                assert r.status_code == 200, r.text
                r = await http.post("/api/login", json={"username": "Mailed", "password": NEW_PASSWORD})
                assert r.status_code == 200
                # two an hour from one client address (and for one e-mail address)
                r = await http.post("/api/password/forgot", json={"email": "m@example.com"})
                assert r.status_code == 429 and r.json()["code"] == "rate_limited"
            await asyncio.sleep(0.05)
            assert len(inbox.messages) == 1
    try:
        asyncio.run(scenario())
    finally:
        smtp.stop()


async def settled_hand(store: Store, winner: int, loser: int, now: float) -> str:
    """A room's hand, settled: ``winner`` took 300 chips of ``loser``."""
    await store.create_table({"id": "t1", "room": "chuji-xuezhan", "rules": {}, "seats": [None] * 4,
                              "status": "open", "created_at": now})
    await store.create_hand({"id": "h1", "table_id": "t1", "number": 1, "server_seed": "", "commitment": "",
                             "session": {}, "seats": [winner, loser, None, None], "status": "playing"})
    await store.settle("h1", {"format": "test"}, {winner: 300, loser: -300}, {}, now)
    return "h1"


def test_the_export_holds_the_accounts_rows_and_hands_and_none_of_its_secrets(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(make_config(sqlite_url(tmp_path))) as run:
            acc, other = await account(run.base, "Exporter", PASSWORD), await account(run.base, "Other_one")
            hand = await settled_hand(run.server.store, acc["user"]["id"], other["user"]["id"], run.clock.now())
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                assert (await http.get("/api/me/export")).status_code == 401
                r = await http.get("/api/me/export", headers=bearer(acc["token"]))
                assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
                data = r.json()
            assert data["account"]["username"] == "Exporter" and data["account"]["balance"] == 10_300
            assert [(row["kind"], row["amount"]) for row in data["ledger"]] == [("grant", 10_000), ("hand", 300)]
            assert [h["id"] for h in data["hands"]] == [hand]
            assert data["hands"][0]["replay"] == f"/replay/{hand}" and data["hands"][0]["amount"] == 300
            assert [row["kind"] for row in data["logins"]] == ["register"] and len(data["tokens"]) == 1
            text = json.dumps(data)
            assert "password_hash" not in text and "digest" not in text and "Other_one" not in text
            assert all(row["user_id"] == acc["user"]["id"] for table in ("ledger", "logins", "tokens")
                       for row in data[table])
    asyncio.run(scenario())


def test_a_deleted_account_is_a_tombstone_its_chips_leave_by_the_ledger_and_a_seated_player_cannot(
        db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0, auto_delay=5.0)) as run:
            store = run.server.store
            acc, guest = await account(run.base, "Leaving", PASSWORD), await account(run.base)
            mod = await account(run.base, "Staying_mod", PASSWORD)
            await Moderation(store, run.clock).set_role(mod["user"]["id"], "moderator")
            user_id = acc["user"]["id"]
            me = bearer(acc["token"])
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                await http.put("/api/me/email", json={"password": PASSWORD, "email": "l@example.com"}, headers=me)
                await Moderation(store, run.clock).adjust(CONSOLE, user_id, 250, "a gift")
                client = await Client.open(run.base, acc["token"], "Leaving")
                await client.send("join", room="classic", bots=True)
                await client.expect("seated")
                r = await http.post("/api/me/delete", json={"password": PASSWORD}, headers=me)
                assert r.status_code == 409 and r.json()["code"] == "seated", r.text
                for body, headers, status in [({"password": "wrong password"}, me, 403), ({}, me, 400),
                                              ({"password": PASSWORD}, {}, 401),
                                              ({"password": PASSWORD}, bearer(guest["token"]), 403),
                                              ({"password": PASSWORD}, bearer(mod["token"]), 409)]:
                    assert (await http.post("/api/me/delete", json=body, headers=headers)).status_code == status
                assert (await store.user(user_id))["kind"] == "player"  # nothing changed
                await store.write(lambda conn: conn.execute(seatings.delete().where(seatings.c.user_id == user_id)))
                r = await http.post("/api/me/delete", json={"password": PASSWORD}, headers=me)
                assert r.status_code == 200, r.text
                assert await close_code(client) == 4401
                assert (await http.get("/api/me", headers=me)).status_code == 401
                r = await http.post("/api/login", json={"username": "Leaving", "password": PASSWORD})
                assert r.status_code == 401
                await account(run.base, "leaving")  # the name is free again
            row = await store.user(user_id)
            assert row is not None
            assert (row["username"], row["kind"], row["password_hash"], row["email"], row["balance"]) == (
                f"deleted-{user_id}", "deleted", None, None, 0)
            for table in (tokens, logins, password_resets):
                assert await rows_of(store, table, user_id) == 0
            assert await rows_of(store, deletions, user_id) == 1
            assert [(r["kind"], r["amount"]) for r in await store.ledger_of(user_id)] == [
                ("grant", 10_000), ("adjustment", 250), ("adjustment", -10_250)]
            audit = await store.audit()
            assert audit["balances"] == audit["grants"] + audit["adjustments"] and audit["lowest"] >= 0
    asyncio.run(scenario())


def admin(*args: str) -> Any:
    return CliRunner().invoke(cli, ["admin", *args], env={"COLUMNS": "200"})


def copy_database(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into ``target`` (docs/operations.md, Backup and restore)."""
    with closing(sqlite3.connect(source)) as read, closing(sqlite3.connect(target)) as written:
        read.backup(written)


def test_deletions_exported_are_applied_again_to_a_database_restored_from_an_older_copy(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    db_file, backup = data / "chuanma.db", tmp_path / "backup.db"

    async def made() -> tuple[int, int]:
        store = await open_store(sqlite_url(data))
        try:
            ids = [await store.create_user(name, None, "player", 1_000, 5.0) for name in ("Gone", "Stays")]
            assert None not in ids
            return int(ids[0] or 0), int(ids[1] or 0)
        finally:
            await store.close()
    gone, stays = asyncio.run(made())
    copy_database(db_file, backup)  # the operator's nightly backup, made before the deletion

    async def deleted() -> None:
        store = await open_store(sqlite_url(data))
        try:
            await store.write(lambda conn: erase(conn, gone, 9.0))
        finally:
            await store.close()
    asyncio.run(deleted())
    done = admin("reset-link", "Stays", "--url", "https://mahjong.example", "--data", str(data))
    assert done.exit_code == 0 and done.output.startswith("https://mahjong.example/reset#"), done.output
    listed = tmp_path / "deletions.json"
    done = admin("deletions", "--out", str(listed), "--data", str(data))
    assert done.exit_code == 0 and "1 deletions" in done.output, done.output
    copy_database(backup, db_file)  # restored: Gone is back

    async def state() -> tuple[str, str, dict[str, int]]:
        store = await open_store(sqlite_url(data))
        try:
            a, b = await store.user(gone), await store.user(stays)
            assert a is not None and b is not None
            return a["kind"], b["kind"], await store.audit()
        finally:
            await store.close()
    assert asyncio.run(state())[0] == "player"
    bad = tmp_path / "bad.json"
    bad.write_text('{"deletions": [{"user_id": "x"}]}')
    done = admin("apply-deletions", "--from", str(bad), "--data", str(data))
    assert done.exit_code == 1 and "not a deletions list" in done.output
    done = admin("apply-deletions", "--from", str(listed), "--data", str(data))
    assert done.exit_code == 0 and f"1 of 1 deleted accounts deleted again: #{gone}" in done.output, done.output
    kind_gone, kind_stays, audit = asyncio.run(state())
    assert (kind_gone, kind_stays) == ("deleted", "player")
    assert audit["balances"] == audit["grants"] + audit["adjustments"] == 1_000
    done = admin("apply-deletions", "--from", str(listed), "--data", str(data))
    assert done.exit_code == 0 and "0 of 1" in done.output
