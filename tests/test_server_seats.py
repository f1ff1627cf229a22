"""Who may sit where: one table per player, bounded private tables, voided settlements and who
may read a private table's hands."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update

from chuanma.rules import RuleSet
from chuanma.server.schema import hands, ledger, seatings, tables, users
from chuanma.server.store import open_store
from server_harness import (
    TIMEOUT,
    Client,
    Running,
    account,
    db_url,
    eventually,
    make_config,
    pg_database,
    running,
    user_at_0001,
)

__all__ = ["db_url", "pg_database"]


async def _private(run: Running, token: str, **body: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
        return await http.post("/api/tables", json={"preset": "xuezhan", "hands": 4, **body},
                               headers={"authorization": f"Bearer {token}"})


async def _guest(run: Running) -> Client:
    acc = await account(run.base)
    return await Client.open(run.base, acc["token"], acc["user"]["username"])


async def _count(run: Running, query: Any) -> int:
    found: int = await run.server.store.read(lambda conn: conn.execute(query).scalar_one())
    return found


BOTS = select(func.count()).where(users.c.kind == "bot")
GRANTS = select(func.count()).where(ledger.c.kind == "grant")


async def _seatings_agree(run: Running) -> None:
    """The invariant's rows are exactly the players of the open tables (nobody is queued)."""
    def work(conn: Any) -> tuple[set[tuple[int, str]], set[tuple[int, str]]]:
        placed = {(r.user_id, r.table_id) for r in conn.execute(select(seatings))}
        open_tables = conn.execute(select(tables.c.id, tables.c.seats).where(tables.c.status == "open"))
        return placed, {(u, t.id) for t in open_tables for u in t.seats if u is not None}
    placed, seated = await run.server.store.read(work)
    assert placed == seated


async def _tables_of(run: Running, user_id: int) -> list[str]:
    """The open tables whose stored seats hold ``user_id``."""
    rows = await run.server.store.read(lambda conn: conn.execute(
        select(tables.c.id, tables.c.seats).where(tables.c.status == "open")).all())
    return [r.id for r in rows if user_id in r.seats]


def test_a_queued_player_cannot_also_sit_at_a_private_table(db_url: str) -> None:
    """Queue for a room, then join a private table by invite before the bots come: the invite is
    refused, and when the bots fill the room's table the player sits at that one table only."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            host = await _guest(run)
            made = (await _private(run, host.token, bots=3)).json()
            c = await _guest(run)
            user_id = int((await run.server.store.user_by_name(c.name))["id"])
            await c.send("join", room="chuji-xuezhan", bots=True)
            await c.expect("queued")
            await c.send("join_private", invite=made["invite"])
            msg = await c.expect("seated", "error")
            assert msg["type"] == "error" and msg["code"] == "already_queued", msg
            run.clock.advance(5.0)
            seated = await c.expect("seated")
            assert await _tables_of(run, user_id) == [seated["table"]]
            await _seatings_agree(run)
    asyncio.run(scenario())


def test_two_invites_at_once_seat_a_player_once(db_url: str) -> None:
    """Two sockets of one player send ``join_private`` for two tables at the same moment."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            host = await _guest(run)
            invites = [(await _private(run, host.token, bots=3)).json()["invite"] for _ in range(2)]
            acc = await account(run.base)
            sockets = [await Client.open(run.base, acc["token"]) for _ in range(2)]
            await asyncio.gather(*(s.send("join_private", invite=i) for s, i in zip(sockets, invites, strict=True)))
            answers = [await s.expect("seated", "error") for s in sockets]
            assert sorted(a["type"] for a in answers) == ["error", "seated"], answers
            assert next(a for a in answers if a["type"] == "error")["code"] == "already_seated"
            assert len(await _tables_of(run, int(acc["user"]["id"]))) == 1
            await _seatings_agree(run)
    asyncio.run(scenario())


def test_one_player_asking_for_every_place_at_once_gets_one(db_url: str) -> None:
    """Three sockets of one player: two rooms' queues and an invite at the same moment, then the
    bots' wait passes; the player ends at one table, and a fourth ask is refused."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            host = await _guest(run)
            made = (await _private(run, host.token, bots=3)).json()
            acc = await account(run.base)
            sockets = [await Client.open(run.base, acc["token"]) for _ in range(3)]
            await asyncio.gather(sockets[0].send("join", room="chuji-xuezhan", bots=True),
                                 sockets[1].send("join", room="chuji-xueliu", bots=True),
                                 sockets[2].send("join_private", invite=made["invite"]))
            answers = [await s.expect("queued", "seated", "error") for s in sockets]
            run.clock.advance(5.0)
            user_id = int(acc["user"]["id"])
            await eventually(lambda: run.server.host.table_of(user_id) is not None)
            again = await Client.open(run.base, acc["token"])  # asking a queue, whichever place the player won
            await again.send("join", room="chuji-xuezhan", bots=True)
            refusal = await again.expect("error", "queued")
            assert refusal["type"] == "error" and refusal["code"] == "already_seated", (answers, refusal)
            assert await _tables_of(run, user_id) == [run.server.host.table_of(user_id)]
            await _seatings_agree(run)
    asyncio.run(scenario())

def test_private_tables_per_account_are_limited_even_when_asked_at_once(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, private_tables=2)) as run:
            acc = await account(run.base)
            answers = await asyncio.gather(*(_private(run, acc["token"], bots=3) for _ in range(6)))
            assert sorted(r.status_code for r in answers) == [200, 200, 409, 409, 409, 409]
            refusal = next(r.json() for r in answers if r.status_code == 409)
            assert refusal["code"] == "too_many_tables" and "2 open private tables" in refusal["message"]
            mine = select(func.count()).where(tables.c.creator == acc["user"]["id"])
            assert await _count(run, mine) == 2
            other = await account(run.base)
            assert (await _private(run, other["token"])).status_code == 200  # the limit is per account
            assert await _count(run, BOTS) == 6
    asyncio.run(scenario())


def test_idle_private_tables_close_and_their_bots_serve_the_next_tables(db_url: str) -> None:
    """Private tables nobody joins close after the idle time (also after a restart); the next
    tables take the same bots: no new bot account and no new grant."""
    idle = 600.0

    async def scenario() -> None:
        config = make_config(db_url, private_idle_seconds=idle)
        async with running(config) as run:
            host = run.server.host
            rules = RuleSet.from_preset("xuezhan")
            first = await asyncio.gather(*(host.open_table(None, rules, [], bots=3) for _ in range(4)))
            bots = {s.user_id for t in first for s in host.tables[t].seats if s is not None}
            assert len(bots) == 12  # tables taking bots at the same moment get distinct ones
            player = await _guest(run)
            invite = (await _private(run, player.token, bots=2)).json()["invite"]
            await player.send("join_private", invite=invite)
            kept = (await player.expect("seated"))["table"]
            made, grants = await _count(run, BOTS), await _count(run, GRANTS)
            await eventually(lambda: all(host.tables[t].unattended_since is not None for t in first))
            run.clock.advance(idle - 1)
            await player.send("ping")
            await player.expect("pong")
            assert all(t in host.tables for t in first)
            run.clock.advance(idle / 4 + 1)
            await eventually(lambda: not any(t in host.tables for t in first))
            assert kept in host.tables  # a person sits there, connected
            again = await asyncio.gather(*(host.open_table(None, rules, [], bots=3) for _ in range(4)))
            assert {s.user_id for t in again for s in host.tables[t].seats if s is not None} == bots
            assert (await _count(run, BOTS), await _count(run, GRANTS)) == (made, grants)
            audit = await run.server.store.audit()
            assert audit["balances"] == audit["grants"]
            await _seatings_agree(run)
        async with running(make_config(db_url, private_idle_seconds=idle)) as run:
            host = run.server.host
            assert all(t in host.tables for t in again)  # resumed at the start
            await _seatings_agree(run)
            await eventually(lambda: all(host.tables[t].unattended_since is not None for t in again))
            run.clock.advance(idle + idle / 4)
            await eventually(lambda: not any(t in host.tables for t in again))
            await _seatings_agree(run)
        async with running(make_config(db_url, private_idle_seconds=idle)) as run:
            assert not any(t in run.server.host.tables for t in again)
    asyncio.run(scenario())


def test_a_hand_whose_settlement_fails_is_voided_and_its_table_closed(db_url: str,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    """A player whose balance went below zero (a logged grant, so balances = grants still holds)
    makes ``settle_chips`` fail: the hand is voided, no chip moves, the table closes, once."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            c = await _guest(run)
            user_id = int((await run.server.store.user_by_name(c.name))["id"])
            made = (await _private(run, c.token, bots=3, hands=2)).json()
            await c.send("join_private", invite=made["invite"])
            await c.expect("seated")
            await c.expect("hand_start")
            await run.server.store.grant(user_id, -20_000, run.clock.now())
            before = await run.server.store.audit()
            await c.send("ready")
            assert (await c.expect("hand_start"))["dealt"]
            await c.send("auto", on=True)
            void = await c.expect("hand_void", "hand_end")
            assert void["type"] == "hand_void" and void["hand_id"] == f"{made['table']}-0", void
            assert "ChipError" in void["reason"] and "no chips moved" in void["reason"]
            assert (await c.expect("table_closed"))["reason"] == "the hand was voided"
            hand = await run.server.store.hand(void["hand_id"])
            assert hand is not None and hand["status"] == "void"
            assert "balances must not be negative" in hand["reason"] and hand["record"]["decisions"]
            assert await run.server.store.audit() == before  # no chip moved
            assert await _count(run, select(func.count()).where(ledger.c.hand_id == void["hand_id"])) == 0
            host = run.server.host
            await eventually(lambda: made["table"] not in host.tables)
            assert host.failures == {} and host.table_of(user_id) is None  # not rebuilt; the seat is free
            assert await _count(run, select(func.count()).where(tables.c.status == "open")) == 0
            await _seatings_agree(run)
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                metrics = (await http.get("/metrics")).text
            assert 'chuanma_settlement_failures_total{error="ChipError"} 1.0' in metrics
        assert any(r.getMessage() == "hand voided" and "ChipError" in r.error for r in caplog.records)
    with caplog.at_level(logging.INFO):
        asyncio.run(scenario())


def test_a_private_tables_hands_are_read_by_its_players_or_with_their_share_link(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            c = await _guest(run)
            made = (await _private(run, c.token, bots=3, hands=2)).json()
            await c.send("join_private", invite=made["invite"])
            await c.expect("seated")
            ends = []
            while len(ends) < 2:
                msg = await c.expect("hand_start", "hand_end")
                if msg["type"] == "hand_end":
                    ends.append(msg)
                else:  # ready (which ends 托管), then 托管 for the hand dealt
                    await c.send("auto", on=True) if msg.get("dealt") else await c.send("ready")
            outsider = await account(run.base)
            mine, theirs = ({"authorization": f"Bearer {t}"} for t in (c.token, outsider["token"]))
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                history = (await http.get("/api/hands", headers=mine)).json()
                links = {h["id"]: h["share"] for h in history}
                for end in ends:
                    hand_id = end["hand_id"]
                    replay = f"/api/replay/{hand_id}"
                    assert (await http.get(end["record"], headers=mine)).status_code == 200
                    assert (await http.get(replay, headers=mine)).status_code == 200
                    for url in (end["record"], replay, f"{replay}?key=0123", f"{end['record']}?key=" + "é" * 5):
                        r = await http.get(url, headers=theirs)
                        assert r.status_code == 403 and r.json()["code"] == "private_hand", (url, r.text)
                    shared = await http.get(links[hand_id], headers=theirs)
                    assert shared.status_code == 200 and shared.json()["hand_id"] == hand_id
                    key = links[hand_id].split("key=")[1]
                    assert (await http.get(f"{replay}?key={key}", headers=theirs)).status_code == 200
                    assert (await http.get(links[hand_id])).status_code == 401  # still a logged-in route
                first, second = (links[e["hand_id"]].split("key=")[1] for e in ends)
                wrong = await http.get(f"{ends[1]['record']}?key={first}", headers=theirs)
                assert first != second and wrong.status_code == 403  # a key opens its own hand only
    asyncio.run(scenario())


def test_the_seatings_migration_gives_each_player_of_an_existing_database_one_place(db_url: str) -> None:
    """A database at revision 0001 holding a player seated at two open tables (made before the
    invariant): the older table keeps them, the later one is closed and its hand voided."""
    async def scenario() -> None:
        store = await open_store(db_url, "0001")
        try:
            ann, bob, cat = await store.write(lambda conn: [user_at_0001(conn, name, kind="guest", balance=10_000)
                                                            for name in ("ann", "bob", "cat")])
            for table_id, seats, status, at in (("t1", [ann, bob, None, None], "open", 1.0),
                                                ("t2", [None, bob, cat, None], "open", 2.0),
                                                ("t3", [ann, None, None, None], "closed", 0.5)):
                await store.create_table({"id": table_id, "room": "private", "rules": {"preset": "xuezhan"},
                                          "seats": seats, "status": status, "created_at": at})
            await store.create_hand({"id": "t2-0", "table_id": "t2", "number": 0, "server_seed": "0" * 64,
                                     "commitment": "0" * 64, "session": {}, "seats": [None, bob, cat, None],
                                     "status": "playing"})
        finally:
            await store.close()
        store = await open_store(db_url)
        try:
            placed = await store.read(lambda conn: {(r.user_id, r.table_id) for r in conn.execute(select(seatings))})
            assert placed == {(ann, "t1"), (bob, "t1")}
            status = await store.read(lambda conn: dict(conn.execute(select(tables.c.id, tables.c.status)).all()))
            assert status == {"t1": "open", "t2": "closed", "t3": "closed"}
            hand = await store.read(lambda conn: conn.execute(select(hands).where(hands.c.id == "t2-0")).one())
            assert hand.status == "void" and "another table" in hand.reason
        finally:
            await store.close()
        async with running(make_config(db_url)) as run:
            assert list(run.server.host.tables) == ["t1"]
            assert run.server.host.table_of(cat) is None and run.server.host.table_of(bob) == "t1"
            await _seatings_agree(run)
    asyncio.run(scenario())


def test_a_queued_player_seated_meanwhile_by_another_process_is_left_out_of_the_lobbys_table(db_url: str) -> None:
    """Another process (here: a write to the database) seats a queued player; when the bots come,
    the lobby's table is refused that player, who is told, and the others are seated without them."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            host = await _guest(run)
            made = (await _private(run, host.token, bots=3)).json()
            queued = [await _guest(run) for _ in range(2)]
            for c in queued:
                await c.send("join", room="chuji-xuezhan", bots=True)
                await c.expect("queued")
            taken = int((await run.server.store.user_by_name(queued[0].name))["id"])
            await run.server.store.write(lambda conn: conn.execute(
                update(seatings).where(seatings.c.user_id == taken).values(table_id=made["table"])))
            run.clock.advance(5.0)
            refusal = await queued[0].expect("error", "seated")
            assert refusal["type"] == "error" and refusal["code"] == "already_seated", refusal
            seated = await queued[1].expect("seated")
            assert sum(p["bot"] for p in seated["players"]) == 3
            assert await _tables_of(run, taken) == []  # not at the lobby's table (nor at the stored one's seats)
    asyncio.run(scenario())


def test_a_group_whose_table_cannot_be_opened_is_told_and_may_join_again(db_url: str) -> None:
    """The database fails as the lobby opens a table: the four are sent an ``error``, their queue
    rows are freed, and joining again seats them."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            host = run.server.host
            original = host.open_table

            async def fail(*_args: Any, **_kwargs: Any) -> str:
                host.open_table = original
                raise ConnectionError("the database went away")

            host.open_table = fail
            clients = [await _guest(run) for _ in range(4)]
            for c in clients:
                await c.send("join", room="chuji-xueliu", bots=False)
                await c.expect("queued")
            for c in clients:
                error = await c.expect("error")
                assert error["code"] == "no_table" and "join again" in error["message"]
            assert await _count(run, select(func.count()).select_from(seatings)) == 0
            for c in clients:
                await c.send("join", room="chuji-xueliu", bots=False)
            tables_seen = {(await c.expect("seated", "error"))["table"] for c in clients}
            assert len(tables_seen) == 1 and None not in tables_seen
    asyncio.run(scenario())


def test_a_private_table_chooses_the_level_of_its_bots(db_url: str) -> None:
    """``bot_level`` picks the bots of a private table: ``hard`` seats the expert bot, the default
    the rooms' ``normal`` level (the defensive bot); an unknown level is refused and makes no
    table."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            host = await _guest(run)
            bad = await _private(run, host.token, bots=3, bot_level="grandmaster")
            assert bad.status_code == 400
            assert run.server.host.tables == {}
            for body, bot in (({"bot_level": "hard"}, "expert"), ({}, "defensive"), ({"bot_level": "easy"}, "greedy")):
                made = (await _private(run, host.token, bots=2, hands=1, **body)).json()
                table = run.server.host.tables[made["table"]]
                assert sorted(s.player.name for s in table.seats if s is not None and s.bot) == [bot, bot]
    asyncio.run(asyncio.wait_for(scenario(), TIMEOUT))
