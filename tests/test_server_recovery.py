"""Recovery: the server process is killed mid-hand and started again; the hand resumes from the
stored decisions (same wall, same decisions) and is settled once."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import stat
import subprocess
import sys
from pathlib import Path

import httpx
from sqlalchemy import select, update

from chuanma.engine import replay
from chuanma.fairness import Level, verify_record
from chuanma.server.host import MAX_RESTARTS
from chuanma.server.schema import decisions, seatings, tables
from chuanma.server.store import open_store
from server_harness import TIMEOUT, Client, Running, account, db_url, make_config, pg_database, running, seat_four

__all__ = ["db_url", "pg_database"]
SRC = Path(__file__).resolve().parents[1] / "src"


async def _start(db: str, data: Path) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "chuanma", "serve", "--port", "0", "--data", str(data), "--db", db,
         "--turn-seconds", "3600", "--claim-seconds", "3600", "--ready-seconds", "3600", "--bot-wait", "3600",
         "--lease-seconds", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    assert proc.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 60)
    found = re.search(r"http://[\d.]+:\d+", line)
    assert found, line
    base = found.group(0)
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT, verify=False) as http:
        assert (await http.get("/healthz")).status_code == 200
    return proc, base


async def _stored(db: str) -> list[dict[str, object]]:
    store = await open_store(db)
    try:
        q = select(decisions).order_by(decisions.c.hand_id, decisions.c.idx)
        return await store.read(lambda conn: [dict(r._mapping) for r in conn.execute(q)])
    finally:
        await store.close()


def test_kill_and_restart_mid_hand_resumes_it(db_url: str, tmp_path: Path) -> None:
    async def scenario() -> None:
        proc, base = await _start(db_url, tmp_path)
        try:
            clients = []
            for _ in range(4):
                acc = await account(base)
                c = await Client.open(base, acc["token"], acc["user"]["username"])
                await c.send("join", room="chuji-xueliu", bots=False)
                clients.append(c)
            for c in clients:
                await c.expect("seated")
                c.rng.seed(clients.index(c))
            start = await clients[0].expect("hand_start")
            for c in clients:
                await c.send("ready", client_seed=f"seed{clients.index(c)}")
            tasks = [asyncio.create_task(c.play_on()) for c in clients]
            while sum(c.acts for c in clients) < 20:
                await asyncio.sleep(0.01)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            for t in tasks:
                t.cancel()
                with contextlib.suppress(BaseException):
                    await t
            before = await _stored(db_url)
            assert before, "decisions are stored as they are made"
            proc, base = await _start(db_url, tmp_path)
            back = []
            for c in clients:
                again = await Client.open(base, c.token, c.name)
                hello = again.seen[0]
                assert hello["table"] == c.table
                again.rng.seed(clients.index(c))
                await again.send("resume", table=c.table, hand=c.hand, last=c.last)
                back.append(again)
            ends = await asyncio.gather(*(c.play_on() for c in back))
            end = ends[0]
            assert end["type"] == "hand_end" and sum(end["chips"]) == 0
            async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT, verify=False) as http:
                record = (await http.get(end["record"], headers={"authorization": f"Bearer {back[0].token}"})).json()
                key = (await http.get("/api/fairness/key")).json()
            assert record["seeds"]["public_key"] == start["public_key"] == key["vrf_public_key"]
            assert verify_record(record, public_key=bytes.fromhex(key["public_key"])).level is Level.VERIFIED
            assert stat.S_IMODE((tmp_path / "dealer.key").stat().st_mode) == 0o600
            assert all(record["seeds"]["client_seeds"][c.seat] == f"seed{i}" for i, c in enumerate(clients))
            stored = [(r["seat"], r["action"]) for r in before]
            played = [(d["seat"], {k: v for k, v in d.items() if k != "seat"}) for d in record["decisions"]]
            assert played[: len(stored)] == stored
            store = await open_store(db_url)
            try:
                audit = await store.audit()
            finally:
                await store.close()
            assert audit["balances"] == audit["grants"] and audit["unbalanced_hands"] == 0
            assert audit["hands"] == 1
            for c in back:
                assert end["balances"][c.seat] == 10_000 + end["chips"][c.seat]
        finally:
            proc.kill()
            proc.wait()
    asyncio.run(scenario())


async def _private_table(run: Running, hands: int = 1) -> tuple[Client, dict[str, str], int]:
    """A new player seated at a new private table with three bots, its first hand collecting seeds;
    returns the player, the table (``{"table", "invite"}``) and the player's id."""
    acc = await account(run.base)
    async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
        made = (await http.post("/api/tables", json={"preset": "xueliu", "hands": hands, "bots": 3},
                                headers={"authorization": f"Bearer {acc['token']}"})).json()
    c = await Client.open(run.base, acc["token"])
    await c.send("join_private", invite=made["invite"])
    await c.expect("seated")
    await c.expect("hand_start")
    return c, made, int(acc["user"]["id"])


async def _given_up(run: Running, table_id: str, user_id: int) -> None:
    """``table_id`` is closed, its hand void (no chips moved), its seats free and counted as given up;
    its player may queue again."""
    store = run.server.store
    hand = await store.hand(f"{table_id}-0")
    assert hand is not None and hand["status"] == "void" and "given up" in hand["reason"]
    rows = await store.read(lambda conn: conn.execute(select(tables.c.status).where(tables.c.id == table_id)).all())
    assert [r.status for r in rows] == ["closed"]
    held = await store.read(lambda conn: conn.execute(select(seatings).where(seatings.c.table_id == table_id)).all())
    assert held == [] and run.server.host.table_of(user_id) is None
    audit = await store.audit()
    assert audit["hands"] == 0 and audit["balances"] == audit["grants"]
    async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
        assert "chuanma_tables_given_up_total 1.0" in (await http.get("/metrics")).text


def test_a_table_failing_past_its_restarts_is_given_up_and_its_player_freed(db_url: str) -> None:
    async def crash(*_args: object, **_kwargs: object) -> bool:
        raise RuntimeError("the database refuses every settlement")

    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            c, made, user_id = await _private_table(run)
            run.server.store.settle = crash
            await c.send("ready")  # then 托管 for the hand dealt
            assert (await c.expect("hand_start"))["dealt"]
            await c.send("auto", on=True)
            closed = await c.expect("table_closed")
            assert closed == {"type": "table_closed", "v": 1, "table": made["table"],
                              "reason": "the table failed and was closed"}
            assert run.server.host.failures == {made["table"]: MAX_RESTARTS + 1}
            await _given_up(run, made["table"], user_id)
            await c.send("join", room="chuji-xueliu", bots=False)
            assert (await c.expect("queued", "error"))["type"] == "queued"
    asyncio.run(scenario())


def test_a_failed_table_whose_rebuild_fails_is_given_up(db_url: str) -> None:
    """The table fails, then reading it back from the database fails too: it is given up at once."""
    async def crash(*_args: object, **_kwargs: object) -> bool:
        raise RuntimeError("the settlement fails")

    async def unreadable() -> list[dict[str, object]]:
        raise ConnectionError("the database went away")

    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            c, made, user_id = await _private_table(run)
            store = run.server.store
            settle, open_tables = store.settle, store.open_tables
            store.settle, store.open_tables = crash, unreadable
            await c.send("ready")  # then 托管 for the hand dealt
            assert (await c.expect("hand_start"))["dealt"]
            await c.send("auto", on=True)
            assert (await c.expect("table_closed"))["reason"] == "the table failed and was closed"
            store.settle, store.open_tables = settle, open_tables
            assert run.server.host.failures == {made["table"]: 1}
            await _given_up(run, made["table"], user_id)
    asyncio.run(scenario())


def test_a_table_that_cannot_be_resumed_is_given_up_and_the_others_resume(db_url: str) -> None:
    """A table whose stored rules no longer read (a preset since removed, say) cannot be rebuilt: it
    closes, its player is free, the server starts and the other tables resume."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            bad, made_bad, bad_id = await _private_table(run)
            good, made_good, _ = await _private_table(run)
            await run.server.store.write(lambda conn: conn.execute(
                update(tables).where(tables.c.id == made_bad["table"]).values(rules={"preset": "no-such-preset"})))
        async with running(make_config(db_url)) as run:
            assert set(run.server.host.tables) == {made_good["table"]}
            await _given_up(run, made_bad["table"], bad_id)
            again = await Client.open(run.base, bad.token)
            assert again.seen[0]["table"] is None
            await again.send("join", room="chuji-xueliu", bots=False)
            assert (await again.expect("queued", "error"))["type"] == "queued"
            back = await Client.open(run.base, good.token)
            assert back.seen[0]["table"] == made_good["table"]
            await back.send("resume", table=made_good["table"], hand=0, last=-1)
            assert (await back.expect("hand_start"))["hand"] == 0
    asyncio.run(scenario())


def test_a_closed_connection_leaves_its_table_even_when_the_database_fails(db_url: str) -> None:
    async def down(_user_id: int) -> None:
        raise ConnectionError("the database went away")

    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            c, made, _ = await _private_table(run)
            run.server.lobby.drop = down
            table = run.server.host.tables[made["table"]]
            seat = next(s for s in table.seats if s is not None and not s.bot)
            assert len(seat.conns) == 1
            await c.close()

            async def detached() -> None:
                while seat.conns or any(t.get_coro().__qualname__ == "Outbox.write" for t in asyncio.all_tasks()):
                    await asyncio.sleep(0.01)
            await asyncio.wait_for(detached(), TIMEOUT)  # detached, and the writer ended
    asyncio.run(scenario())


def test_a_failed_table_is_rebuilt_and_its_players_carry_on(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            clients = await seat_four(run, "chuji-xueliu")
            store = run.server.store
            original = store.add_decisions
            calls = 0

            async def fail_once(rows: object) -> None:
                nonlocal calls
                calls += 1
                if calls == 6:
                    raise ConnectionError("the database went away for a moment")
                await original(rows)  # type: ignore[arg-type]

            store.add_decisions = fail_once
            for c in clients:
                await c.send("ready")
            ends = await asyncio.gather(*(c.play_on() for c in clients))
            assert run.server.host.failures == {clients[0].table: 1}
            assert all(any(m["type"] == "resync" for m in c.seen) for c in clients)
            assert ends[0]["type"] == "hand_end" and sum(ends[0]["chips"]) == 0
            record = await store.hand(ends[0]["hand_id"])
            assert record is not None
            assert len(replay(record["record"]).decisions) == len(await store.decisions_of(ends[0]["hand_id"]))
            audit = await store.audit()
            assert audit["hands"] == 1 and audit["balances"] == audit["grants"]
    asyncio.run(scenario())
