"""Draining (docs/operations.md, Draining a node): a stop (SIGTERM) or ``chuanma admin drain`` takes
no new socket, lets the hand in play end, deals no other, and in a cluster hands each table over
to another node as it comes to rest; the draining node claims none."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from chuanma.cli import app as cli
from chuanma.errors import ChuanmaError
from chuanma.server.clock import ManualClock
from chuanma.server.host import DRAIN_LOOK
from chuanma.server.schema import hands, table_leases
from chuanma.server.store import sqlite_url
from chuanma.server.table_leases import ask_drain
from cluster_harness import cluster_db
from server_harness import TIMEOUT, Client, account, deal, eventually, make_config, pg_database, running
from test_cluster_identity import said
from test_cluster_lobby import BOT_WAIT, ROOM, guest, seated_at, two_nodes

__all__ = ["cluster_db", "pg_database"]


def test_a_drain_lets_the_hand_in_play_end_deals_no_other_and_sends_new_sockets_elsewhere(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(make_config(sqlite_url(tmp_path), bot_wait=0.0, drain_seconds=1000.0)) as run:
            acc = await account(run.base)
            client = await Client.open(run.base, acc["token"], "drained")
            await client.send("join", room="classic", bots=True)
            await client.expect("seated")
            await deal([client])
            left = asyncio.Event()
            run.app.state.leave = left.set  # what stops uvicorn once drained
            run.app.state.drain()
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                r = await http.get("/healthz")
                assert r.status_code == 503 and r.json() == {"status": "draining", "tables": 1}
            with pytest.raises(InvalidStatus) as refused:  # a proxy tries another node
                await connect(run.base.replace("http", "ws") + f"/ws?token={acc['token']}")
            assert refused.value.response.status_code == 503
            end = await client.play_on()  # the hand in play goes on to its end
            assert end["type"] == "hand_end" and end["hand"] == 0
            while not left.is_set():
                run.clock.advance(DRAIN_LOOK)
                await asyncio.sleep(0.01)
            store = run.server.host.store
            assert await store.read(lambda c: c.execute(select(func.count()).select_from(hands)).scalar_one()) == 1
            await client.send("ready")  # no next hand opened
            assert (await client.expect("error"))["code"] == "not_now"
            assert not any(m["type"] == "hand_start" and m["hand"] == 1 for m in client.seen)
    asyncio.run(scenario())


def test_a_node_asked_to_drain_hands_its_tables_over_between_hands_and_claims_none(cluster_db: str) -> None:
    """``chuanma admin drain`` marks the node's row; its next heartbeat starts the drain: its table,
    between hands, is handed over (lease lapsed), the other node claims it at its next look and the
    player's connection follows it; the drained node claims no table back."""
    async def scenario() -> None:
        clock = ManualClock(1000.0)
        async with two_nodes(cluster_db, clock) as [(a, lobby_a), (b, _)]:
            told: list[dict[str, Any]] = []
            await lobby_a.join(ROOM, await guest(a.store, clock), told.append, True)
            clock.advance(BOT_WAIT)
            await eventually(lambda: seated_at(told) is not None)
            table_id = seated_at(told)
            assert table_id is not None
            owner, other = (a, b) if table_id in a.tables else (b, a)
            drains: list[asyncio.Task[int]] = []
            owner.on_drain = lambda: drains.append(asyncio.create_task(owner.drain(60.0)))
            with pytest.raises(ChuanmaError, match="no node 'nobody'"):
                await ask_drain(owner.store, "nobody", clock.now())
            await ask_drain(owner.store, owner.name, clock.now())
            await owner.look()  # the heartbeat reads the operator's ask
            assert len(drains) == 1
            while not drains[0].done():
                clock.advance(DRAIN_LOOK)
                await asyncio.sleep(0.01)
            assert drains[0].result() == 0 and not owner.tables
            assert owner.metrics.handed_over._value.get() == 1
            before = len(told)
            await other.look()
            assert table_id in other.tables
            holder = await other.store.read(lambda c: c.execute(
                select(table_leases.c.holder).where(table_leases.c.table_id == table_id)).scalar_one())
            assert holder == other.name
            # attached again by the new owner: told the seats and the hand getting ready again
            await eventually(lambda: [m["type"] for m in told[before:]] == ["seated", "hand_start"])
            await owner.look()
            assert not owner.tables and table_id in other.tables
            listed = said(await asyncio.to_thread(CliRunner().invoke, cli, ["admin", "nodes", "--db", cluster_db]))
            assert f"{owner.name} " in listed and "asked" in listed and f"{other.name} " in listed
    asyncio.run(scenario())
