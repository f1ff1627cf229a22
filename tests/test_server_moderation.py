"""Moderation (docs/operations.md, Operating the community): roles from the command line only, the
admin routes' refusals by role, a ban mid-hand (托管 to the hand's end, sockets closed, no login),
chip adjustments in the audit, renames and the records they leave signed, the operator log."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from alembic import command
from sqlalchemy import func, inspect, select, text
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed

from chuanma.cli import app as cli
from chuanma.fairness import Level
from chuanma.fairness.chain import verify_records
from chuanma.server.accounts import token_digest
from chuanma.server.clock import ManualClock
from chuanma.server.host import BAN_WATCH
from chuanma.server.moderation import CONSOLE, MODERATOR_MAY, Moderation, ModerationError
from chuanma.server.schema import ledger, tokens
from chuanma.server.store import alembic_config, open_store
from server_harness import (
    DEALER_KEY,
    TIMEOUT,
    Client,
    account,
    auto_table,
    bearer,
    db_url,
    deal,
    eventually,
    make_config,
    pg_database,
    running,
)
from test_cluster_lobby import BOT_WAIT, ROOM, cluster_db, guest, seated_at, two_nodes

__all__ = ["cluster_db", "db_url", "pg_database"]
PASSWORD = "correct horse"
ROUTES = [("GET", "/api/admin/players?q=a", "search"), ("GET", "/api/admin/players/{id}", "see"),
          ("POST", "/api/admin/players/{id}/ban", "ban"), ("POST", "/api/admin/players/{id}/unban", "unban"),
          ("POST", "/api/admin/players/{id}/kick", "kick"), ("POST", "/api/admin/players/{id}/rename", "rename"),
          ("POST", "/api/admin/players/{id}/adjust", "adjust"), ("GET", "/api/admin/log", "log"),
          ("GET", "/api/admin/reports", "reports"), ("GET", "/api/admin/tables", "tables"),
          ("POST", "/api/admin/hands/nohand/void", "void"), ("GET", "/api/admin/me", "search"),
          ("GET", "/api/admin/rooms", "rooms"), ("POST", "/api/admin/rooms/classic", "rooms"),
          ("POST", "/api/admin/rooms/classic/disable", "rooms"), ("POST", "/api/admin/rooms/classic/enable", "rooms"),
          ("GET", "/api/admin/announce", "announce"), ("POST", "/api/admin/announce", "announce"),
          ("POST", "/api/admin/announce/withdraw", "announce"), ("POST", "/api/admin/maintenance", "maintenance"),
          ("POST", "/api/admin/maintenance/off", "maintenance"), ("POST", "/api/admin/players/{id}/notes", "notes"),
          ("POST", "/api/admin/players/{id}/reset-link", "reset"), ("POST", "/api/admin/reports/999999", "reports")]
MODERATOR_GETS = {"/api/admin/reports/999999": 404}
"""What a moderator gets where the route is theirs but what it names does not exist (200 elsewhere)."""
BODIES = {"ban": {"reason": "spam", "duration": "1d"}, "unban": {"reason": "appeal"}, "kick": {"reason": "afk"},
          "rename": {"reason": "rude", "username": "Renamed_one"}, "adjust": {"reason": "refund", "amount": 5},
          "void": {"reason": "stuck"}, "classic": {"reason": "cheaper", "base": 5}, "disable": {"reason": "closed"},
          "enable": {"reason": "open"}, "announce": {"text": "hello"}, "maintenance": {"in": 10},
          "notes": {"text": "warned"}, "reset-link": {"reason": "forgot"},
          "999999": {"status": "dismissed", "note": "no such report"}}


def test_every_admin_route_refuses_anonymous_with_401_guests_and_players_with_403_and_moderators_the_operators(
        db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            listed = [(method, path.split("?")[0]) for method, path, _ in ROUTES]
            for route in run.app.routes:  # every route of the console is tried below
                if getattr(route, "path", "").startswith("/api/admin"):
                    for method in route.methods - {"HEAD"}:
                        assert any(m == method and route.path_regex.match(p.format(id=1)) for m, p in listed), \
                            (method, route.path)
            store = run.server.store
            target = await account(run.base, "Target")
            guest, player = await account(run.base), await account(run.base, "Plain")
            mod, op = await account(run.base, "Moder"), await account(run.base, "Opera")
            await Moderation(store, run.clock).set_role(mod["user"]["id"], "moderator")
            await Moderation(store, run.clock).set_role(op["user"]["id"], "operator")
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                for method, path, action in ROUTES:
                    url = path.format(id=target["user"]["id"])
                    body = BODIES.get(url.rsplit("/", 1)[1]) if method == "POST" else None
                    for who, headers, status in [("anonymous", {}, 401), ("guest", bearer(guest["token"]), 403),
                                                 ("player", bearer(player["token"]), 403)]:
                        r = await http.request(method, url, json=body, headers=headers)
                        assert r.status_code == status, (who, url, r.text)
                    r = await http.request(method, url, json=body, headers=bearer(mod["token"]))
                    assert r.status_code == (MODERATOR_GETS.get(url, 200) if action in MODERATOR_MAY else 403), \
                        (url, r.text)
                # no route grants a role, to anyone
                r = await http.post(f"/api/admin/players/{player['user']['id']}/role", json={"role": "operator"},
                                    headers=bearer(op["token"]))
                assert r.status_code in (404, 405)
                # a moderator may not ban an operator, nor themself
                r = await http.post(f"/api/admin/players/{op['user']['id']}/ban", json={"reason": "x"},
                                    headers=bearer(mod["token"]))
                assert r.status_code == 409 and r.json()["code"] == "is_staff"
                # the operator's routes work for the operator; the log names each action's actor
                r = await http.post(f"/api/admin/players/{target['user']['id']}/adjust", json=BODIES["adjust"],
                                    headers=bearer(op["token"]))
                assert r.status_code == 200, r.text
                r = await http.get("/api/admin/log", headers=bearer(op["token"]))
                actions = [(row["action"], row["actor_name"]) for row in r.json()]
                assert ("adjust", "Opera") in actions and ("ban", "Moder") in actions
                assert ("role", CONSOLE.name) in actions
                r = await http.get("/api/me", headers=bearer(player["token"]))
                assert r.status_code == 200
    asyncio.run(scenario())


async def close_code(client: Client) -> int:
    """The close code the server closed ``client``'s socket with."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await client.recv()
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


def test_a_player_banned_mid_hand_is_disconnected_plays_on_auto_to_the_end_leaves_and_cannot_log_in(
        db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0, auto_delay=5.0)) as run:
            store = run.server.store
            acc = await account(run.base, "Banned_one", PASSWORD)
            client = await Client.open(run.base, acc["token"], "Banned_one")
            await client.send("join", room="classic", bots=True)
            await client.expect("seated")
            await deal([client])
            await client.expect("prompt")
            table_id, user_id = client.table, acc["user"]["id"]
            assert table_id is not None
            mod = Moderation(store, run.clock, run.server.host.expel)
            await mod.ban(CONSOLE, user_id, "cheating", "7d")
            assert await close_code(client) == 4401
            table = run.server.host.tables[table_id]
            # mid-hand the seat plays on 托管 (with its 5 s pause) until the hand is over, then a bot sits there
            while (await store.audit())["hands"] == 0:
                run.clock.advance(5.0)
                await asyncio.sleep(0.01)
            await eventually(lambda: all(s is not None and s.bot for s in table.seats))
            audit = await store.audit()
            assert audit["balances"] == audit["grants"] + audit["adjustments"] and audit["lowest"] >= 0
            assert audit["unbalanced_hands"] == 0
            kinds = {r["kind"] for r in await store.ledger_of(user_id)}
            assert kinds == {"grant", "hand"}  # no escape: the others lose nothing
            # a refund naming the hand is no part of its zero sum, nor a second hand in the history
            [played] = await store.hands_of(user_id)
            await mod.adjust(CONSOLE, user_id, 100, "refund", played["id"])
            audit = await store.audit()
            assert audit["unbalanced_hands"] == 0 and audit["adjustments"] == 100
            assert audit["balances"] == audit["grants"] + audit["adjustments"]
            assert [h["id"] for h in await store.hands_of(user_id)] == [played["id"]]
            assert await store.read(lambda c: c.execute(select(func.count()).where(tokens.c.user_id == user_id))
                                    .scalar()) == 0
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                r = await http.post("/api/login", json={"username": "banned_one", "password": PASSWORD})
                assert r.status_code == 403 and r.json()["code"] == "banned"
                assert "until 20" in r.json()["message"] and "cheating" in r.json()["message"]
                r = await http.post("/api/login", json={"username": "banned_one", "password": "wrong password"})
                assert r.status_code == 401  # a wrong password never learns of the ban
                await mod.unban(CONSOLE, user_id, "appeal granted")
                r = await http.post("/api/login", json={"username": "banned_one", "password": PASSWORD})
                assert r.status_code == 200, r.text
    asyncio.run(scenario())


def test_a_ban_made_without_the_server_refuses_joins_at_once_and_closes_the_socket_at_the_servers_next_look(
        db_url: str) -> None:
    """A ban the server did not make (``chuanma admin ban``: no expulsion of its own) is refused every
    join on a socket still open, and the server closes that socket at its next look for bans."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            acc = await account(run.base, "Late_one")
            client = await Client.open(run.base, acc["token"], "Late_one")
            await Moderation(run.server.store, run.clock).ban(CONSOLE, acc["user"]["id"], "spam", None)
            await client.send("join", room="classic", bots=True)
            error = await client.expect("error")
            assert error["code"] == "banned" and "for good" in error["message"]
            await client.send("join_private", invite="whatever")
            assert (await client.expect("error"))["code"] == "banned"
            run.clock.advance(BAN_WATCH)
            assert await close_code(client) == 4401
    asyncio.run(scenario())


def test_an_adjustment_is_a_ledger_row_of_its_own_never_below_zero_and_the_audit_holds(db_url: str) -> None:
    async def scenario() -> None:
        store = await open_store(db_url)
        try:
            clock = make_config(db_url).clock
            mod = Moderation(store, clock)
            user_id = await store.create_user("Ada", None, "player", 1000, clock.now())
            assert user_id is not None
            assert await mod.adjust(CONSOLE, user_id, 250, "compensation") == 1250
            assert await mod.adjust(CONSOLE, user_id, -1250, "removal") == 0
            with pytest.raises(ModerationError) as refused:
                await mod.adjust(CONSOLE, user_id, -1, "removal")
            assert refused.value.code == "negative_balance" and "below zero" in str(refused.value)
            for amount, reason, hand in [(0, "x", None), (True, "x", None), (5, " ", None), (5, "refund", "nohand")]:
                with pytest.raises(ModerationError):
                    await mod.adjust(CONSOLE, user_id, amount, reason, hand)
            rows = await store.ledger_of(user_id)
            assert [(r["kind"], r["amount"]) for r in rows] == [("grant", 1000), ("adjustment", 250),
                                                                ("adjustment", -1250)]
            audit = await store.audit()
            assert audit["adjustments"] == -1000 and audit["balances"] == audit["grants"] + audit["adjustments"] == 0
            assert [r["action"] for r in await mod.log()] == ["adjust", "adjust"]
            assert (await mod.log())[0]["details"] == {"amount": -1250, "hand": None, "balance": 0}
        finally:
            await store.close()
    asyncio.run(scenario())


def test_a_renamed_players_old_records_still_verify_and_keep_the_name_they_were_played_under(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            client = await auto_table(run, 1, "xuezhan")
            await client.close()
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                me = (await http.get("/api/me", headers=bearer(client.token))).json()
                history = (await http.get("/api/hands", headers=bearer(client.token))).json()
                mod = run.server.moderation
                other = await account(run.base, "Taken_name")
                for bad, code in [("x", "bad_username"), ("taken_NAME", "username_taken")]:
                    with pytest.raises(ModerationError) as refused:
                        await mod.rename(CONSOLE, me["id"], bad, "offensive")
                    assert refused.value.code == code
                await mod.rename(CONSOLE, me["id"], "Kind_name", "offensive")
                assert (await http.get("/api/me", headers=bearer(client.token))).json()["username"] == "Kind_name"
                key = (await http.get("/api/fairness/key")).json()
                records = [(await http.get(h["record"], headers=bearer(client.token))).json() for h in history]
            assert other["user"]["username"] == "Taken_name" and len(records) == 1
            verdicts = verify_records(records, public_key=bytes.fromhex(key["public_key"]),
                                      vrf_public_key=DEALER_KEY.public_key)
            assert [v.level for v in verdicts] == [Level.VERIFIED]
            assert me["username"] in records[0]["players"] and "Kind_name" not in records[0]["players"]
            assert (await mod.log())[0]["details"] == {"from": me["username"], "to": "Kind_name"}
    asyncio.run(scenario())


def _cli(*args: str) -> Any:
    return CliRunner().invoke(cli, ["admin", *args])


def test_roles_are_granted_on_the_command_line_which_sees_players_and_the_log(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'chuanma.db'}"

    async def setup() -> int:
        store = await open_store(url)
        try:
            user_id = await store.create_user("Olga", None, "player", 1000, 0.0)
            assert user_id is not None
            return user_id
        finally:
            await store.close()
    user_id = asyncio.run(setup())
    done = _cli("role", "olga", "operator", "--db", url)
    assert done.exit_code == 0 and "Olga (#1): role operator" in done.output
    refused = _cli("role", "olga", "admin", "--db", url)
    assert refused.exit_code == 1 and "role: 'admin' is none of player, moderator, operator" in refused.output
    removal = _cli("adjust", "--reason", "removal", "--db", url, "--", "Olga", "-5000")
    assert removal.exit_code == 1 and "below zero" in removal.output
    assert _cli("adjust", "Olga", "500", "--reason", "refund", "--db", url).output.strip() == "balance now 1,500"
    assert "Olga" in _cli("players", "ol", "--db", url).output
    page = _cli("player", str(user_id), "--data", str(tmp_path)).output
    assert "operator" in page and "adjustment" in page and "+500" in page
    logged = _cli("log", "--db", url).output
    assert "role" in logged and "adjust" in logged and "refund" in logged
    nobody = _cli("ban", "Nobody", "--reason", "x", "--db", url)
    assert nobody.exit_code == 1 and "no account 'Nobody'" in nobody.output
    away = _cli("players", "ol", "--db", "postgresql+asyncpg://nobody@127.0.0.1:1/none")
    assert away.exit_code == 1 and "the database cannot be used" in away.output and "Traceback" not in away.output

    async def ledger_kinds() -> list[str]:
        store = await open_store(url)
        try:
            return list(await store.read(lambda c: c.execute(select(ledger.c.kind).order_by(ledger.c.id)).scalars()))
        finally:
            await store.close()
    assert asyncio.run(ledger_kinds()) == ["grant", "adjustment"]


def test_a_ban_on_one_node_closes_the_players_sockets_and_takes_their_seat_on_every_node(cluster_db: str) -> None:
    """Two nodes: a player waiting on node a and one on node b sit at one table with bots; expelled
    through the node that does not own the table, each node closes that player's sockets (its
    ``on_close``) and the owner unseats them (the hand not dealt yet: at once)."""
    async def scenario() -> None:
        clock = ManualClock(1000.0)
        async with two_nodes(cluster_db, clock) as [(a, lobby_a), (b, lobby_b)]:
            closed: dict[str, list[int]] = {"a": [], "b": []}
            a.on_close = lambda user_id, _why, _digest, _others: closed["a"].append(user_id)
            b.on_close = lambda user_id, _why, _digest, _others: closed["b"].append(user_id)
            told: list[list[dict[str, Any]]] = [[], []]
            players = [await guest(a.store, clock), await guest(a.store, clock)]
            for lobby, said, user in ((lobby_a, told[0], players[0]), (lobby_b, told[1], players[1])):
                await lobby.join(ROOM, user, said.append, True)
            clock.advance(BOT_WAIT)
            await eventually(lambda: all(seated_at(said) for said in told))
            table_id = seated_at(told[0])
            assert table_id is not None
            owner, other = (a, b) if table_id in a.tables else (b, a)
            banned = int(players[0]["id"])
            await other.expel(banned, "banned for good")
            await eventually(lambda: closed["a"] == closed["b"] == [banned])
            table = owner.tables[table_id]
            await eventually(lambda: all(s is None or s.user_id != banned for s in table.seats))
            assert any(s is not None and s.user_id == int(players[1]["id"]) for s in table.seats)
    asyncio.run(scenario())


def test_logging_out_on_one_node_closes_the_sessions_sockets_on_every_node(cluster_db: str) -> None:
    """Log out everywhere through node a: both nodes close every socket of the player; one session's
    logout through node b: both close the sockets of that session's token only (named by its digest)."""
    async def scenario() -> None:
        clock = ManualClock(1000.0)
        async with two_nodes(cluster_db, clock) as [(a, _), (b, _)]:
            closed: dict[str, list[tuple[int, str | None]]] = {"a": [], "b": []}
            a.on_close = lambda user_id, _why, digest, _others: closed["a"].append((user_id, digest))
            b.on_close = lambda user_id, _why, digest, _others: closed["b"].append((user_id, digest))
            await a.log_out(7, "logged out", None)
            await eventually(lambda: closed["a"] == closed["b"] == [(7, None)])
            await b.log_out(7, "logged out", token_digest("one session"))
            await eventually(lambda: closed["a"] == closed["b"] == [(7, None), (7, token_digest("one session"))])
    asyncio.run(scenario())


def test_downgrading_0010_turns_adjustments_into_grants_so_the_books_still_add_up(db_url: str) -> None:
    async def scenario() -> None:
        store = await open_store(db_url)
        try:
            user_id = await store.create_user("Ada", None, "player", 1000, 0.0)
            assert user_id is not None
            mod = Moderation(store, ManualClock())
            await mod.set_role(user_id, "moderator")
            await mod.adjust(CONSOLE, user_id, -300, "removal")
            await store.runner.write(lambda conn: command.downgrade(alembic_config(conn), "0009"))
            kinds = await store.read(lambda c: c.execute(text("SELECT kind, amount FROM ledger ORDER BY id")).all())
            assert [tuple(k) for k in kinds] == [("grant", 1000), ("grant", -300)]
            columns = await store.read(lambda c: {col["name"] for col in inspect(c).get_columns("users")})
            assert "role" not in columns
            await store.runner.write(lambda conn: command.upgrade(alembic_config(conn), "head"))
            assert (await store.user(user_id) or {}).get("role") == "player"
            audit = await store.audit()
            assert audit["balances"] == audit["grants"] == 700 and audit["adjustments"] == 0
        finally:
            await store.close()
    asyncio.run(scenario())
