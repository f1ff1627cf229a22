"""Voiding an unsettled hand and the live tables (docs/operations.md, Voiding a hand; The console):
an operator voids a hand in play through the API (its table closes, its players told, no chip
moves, the audit holds), a settled hand is refused with the adjustment to make, the command line
voids a hand only with no server running it, and a void given to the node not running the table
reaches it over the bus."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select
from typer.testing import CliRunner

from chuanma.cli import app as cli
from chuanma.server.clock import ManualClock
from chuanma.server.moderation import CONSOLE, Moderation, ModerationError
from chuanma.server.schema import hands
from chuanma.server.store import Store, sqlite_url
from server_harness import (
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


async def hand_row(store: Store, hand_id: str) -> dict[str, Any]:
    row = await store.read(lambda c: c.execute(select(hands.c.status, hands.c.reason).where(hands.c.id == hand_id))
                           .first())
    assert row is not None
    return dict(row._mapping)


async def books_hold(store: Store) -> None:
    audit = await store.audit()
    assert audit["balances"] == audit["grants"] + audit["adjustments"] and audit["unbalanced_hands"] == 0
    assert audit["lowest"] >= 0


async def playing(run: Any, name: str) -> Client:
    """A registered player quick-joins with bots, is dealt a hand and is asked to play."""
    acc = await account(run.base, name)
    client = await Client.open(run.base, acc["token"], name)
    await client.send("join", room="classic", bots=True)
    await client.expect("seated")
    await deal([client])
    await client.expect("prompt")
    return client


def test_an_operator_voids_a_hand_in_play_the_table_closes_no_chip_moves_and_a_settled_hand_is_refused(
        db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0)) as run:
            store = run.server.store
            op = await account(run.base, "Opera")
            await Moderation(store, run.clock).set_role(op["user"]["id"], "operator")
            client = await playing(run, "Voided_one")
            before = await store.audit()
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, headers=bearer(op["token"])) as http:
                [live] = (await http.get("/api/admin/tables")).json()
                assert live["table"] == client.table and live["phase"] == "playing"
                assert live["node"] == run.config.lease_holder
                assert [p["name"] for p in live["players"] if p and not p["bot"]] == ["Voided_one"]
                hand_id = live["hand_id"]
                r = await http.post(f"/api/admin/hands/{hand_id}/void", json={"reason": "a stuck deal"})
                assert r.status_code == 200 and r.json()["live"] is True, r.text
                told = await client.expect("hand_void")
                assert told["hand_id"] == hand_id and "a stuck deal" in told["reason"]
                assert (await client.expect("table_closed"))["table"] == live["table"]
                assert await hand_row(store, hand_id) == {"status": "void",
                                                          "reason": "voided by an operator: a stuck deal"}
                assert await store.audit() == before  # no chip moved, nothing settled
                await books_hold(store)
                assert (await http.get("/api/admin/tables")).json() == []
                [logged] = [r for r in (await http.get("/api/admin/log")).json() if r["action"] == "void"]
                assert logged["actor_name"] == "Opera" and logged["details"]["hand"] == hand_id
                again = await http.post(f"/api/admin/hands/{hand_id}/void", json={"reason": "twice"})
                assert again.status_code == 409 and again.json()["code"] == "already_void"
                unknown = await http.post("/api/admin/hands/nohand/void", json={"reason": "x"})
                assert unknown.status_code == 404
                blank = await http.post(f"/api/admin/hands/{hand_id}/void", json={"reason": " "})
                assert blank.status_code == 400
                # a settled hand: its chips moved, the operator is told to adjust, naming it
                await client.close()
                player = await auto_table(run, 1, "xuezhan")
                me = (await http.get("/api/me", headers=bearer(player.token))).json()
                [settled] = await store.hands_of(me["id"])
                r = await http.post(f"/api/admin/hands/{settled['id']}/void", json={"reason": "dispute"})
                assert r.status_code == 409 and r.json()["code"] == "settled"
                assert f"--hand {settled['id']}" in r.json()["message"]
                assert len([r for r in (await http.get("/api/admin/log")).json() if r["action"] == "void"]) == 1
                await books_hold(store)
    asyncio.run(scenario())


def test_the_command_line_voids_a_hand_only_when_no_server_runs_its_table(tmp_path: Path) -> None:
    """While the server runs, the command line's void (no live table to reach) is refused; once it
    stopped with a hand in play, ``chuanma admin tables`` lists the table with no server and
    ``chuanma admin void`` voids the hand and closes the table."""
    url = sqlite_url(tmp_path)

    async def serve() -> str:
        async with running(make_config(url, bot_wait=0.0)) as run:
            client = await playing(run, "Stuck_one")
            [live] = await Moderation(run.server.store, run.clock).tables()
            try:
                await Moderation(run.server.store, run.clock).void(CONSOLE, live["hand_id"], "stuck")
            except ModerationError as exc:
                assert exc.code == "server_runs" and "/admin" in str(exc)
            else:
                raise AssertionError("voided under a running server")
            await client.close()
            return str(live["hand_id"])
    hand_id = asyncio.run(serve())
    listed = CliRunner().invoke(cli, ["admin", "tables", "--db", url])
    assert listed.exit_code == 0 and "Stuck_one" in listed.output and "no server" in listed.output
    assert "playing" in listed.output
    done = CliRunner().invoke(cli, ["admin", "void", hand_id, "--reason", "server crashed", "--db", url])
    assert done.exit_code == 0 and f"hand {hand_id} void" in done.output, done.output
    again = CliRunner().invoke(cli, ["admin", "void", hand_id, "--reason", "again", "--db", url])
    assert again.exit_code == 1 and "void already" in again.output
    assert "Stuck_one" not in CliRunner().invoke(cli, ["admin", "tables", "--db", url]).output
    assert "void" in CliRunner().invoke(cli, ["admin", "log", "--db", url]).output


def test_a_void_given_to_the_node_not_running_the_table_reaches_it_over_the_bus(cluster_db: str) -> None:
    async def scenario() -> None:
        clock = ManualClock(1000.0)
        async with two_nodes(cluster_db, clock) as [(a, lobby_a), (b, _)]:
            told: list[dict[str, Any]] = []
            await lobby_a.join(ROOM, await guest(a.store, clock), told.append, True)
            clock.advance(BOT_WAIT)
            await eventually(lambda: any(m["type"] == "hand_start" for m in told))
            table_id = seated_at(told)
            owner, other = (a, b) if table_id in a.tables else (b, a)
            [live] = await Moderation(other.store, clock).tables()
            assert live["table"] == table_id and live["node"] == owner.name and live["phase"] == "dealing"
            conns = dict(other.conns)
            done = await Moderation(other.store, clock, other.expel, other.void).void(CONSOLE, live["hand_id"], "test")
            assert done["live"] is True and other.conns == conns  # the void's answered connection is forgotten
            await eventually(lambda: [m["type"] for m in told][-2:] == ["hand_void", "table_closed"])
            assert (await hand_row(a.store, live["hand_id"]))["status"] == "void"
            assert await Moderation(a.store, clock).tables() == []
    asyncio.run(scenario())
