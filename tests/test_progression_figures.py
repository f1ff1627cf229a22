"""Progression's figures at the store, on SQLite and PostgreSQL: a settlement commits whatever its
figures do, two settlements share no row, the figures equal a rebuild from the records (and what
migration 0006 builds), a profile shows a viewer only the hands they may see, and its lists are
bounded."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Connection, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection

from chuanma.scoring import FANS
from chuanma.server import progress
from chuanma.server.progress import leaderboard, profile, rebuild, record_hand, settle_hook
from chuanma.server.rooms import PRIVATE_ROOM
from chuanma.server.schema import hand_players, hands, ledger, ratings, tables, users
from chuanma.server.store import AsyncRunner, Store, alembic_config, grant_chips, open_store
from server_harness import db_url, pg_database

__all__ = ["db_url", "pg_database"]  # pytest fixtures used here

FAN_IDS = sorted(FANS)[:4]
PLAYERS, BOTS = (1, 2, 3, 4), (5, 6, 7, 8)


def _people(conn: Connection) -> None:
    """Four registered players and four bot accounts, 1,000 chips each; a room's table, a private
    table and a 血流 room's table (no bot level: their bots play ``greedy``)."""
    for user_id in (*PLAYERS, *BOTS):
        kind = "bot" if user_id in BOTS else "player"
        conn.execute(users.insert().values(id=user_id, username=f"{kind}{user_id}", kind=kind, balance=0,
                                           created_at=0.0))
        grant_chips(conn, user_id, 1_000, 0.0)
    for table_id, room in (("room", "chuji-xuezhan"), ("mine", PRIVATE_ROOM), ("river", "chuji-xueliu")):
        conn.execute(tables.insert().values(id=table_id, room=room, rules={}, seats=[None] * 4, status="open",
                                            created_at=0.0))


def _win(seat: int, source: int, total: int, fans: Sequence[str], jipin: bool = False) -> dict[str, Any]:
    return {"seat": seat, "from": source, "self_drawn": source == seat, "total": total, "jipin": jipin,
            "fans": [{"id": f} for f in fans]}


HANDS: list[tuple[str, str, list[int], str, list[dict[str, Any]], list[dict[str, Any]], list[int]]] = [
    # id, table, seats (user ids), rules, winners, payments, deltas by seat
    ("h1", "room", [1, 2, 5, 6], "doublewin-xuezhan", [_win(0, 0, 3, FAN_IDS[:2])],
     [{"payer": 3, "reason": "flower_pig"}], [30, -10, -10, -10]),
    ("h2", "mine", [1, 2, 3, 7], "doublewin-xuezhan", [_win(0, 1, 6, FAN_IDS[2:], jipin=True)], [],
     [40, -40, 0, 0]),
    ("h3", "river", [3, 4, 7, 8], "doublewin-xueliu", [_win(1, 0, 2, FAN_IDS[:1]), _win(1, 1, 4, FAN_IDS[1:2])],
     [{"payer": 2, "reason": "chadajiao"}], [-20, 50, -20, -10]),
    ("h4", "room", [1, 2, 5, 6], "doublewin-xuezhan", [_win(1, 1, 1, FAN_IDS[3:])], [], [-5, 15, -5, -5]),
]


def _dealt(conn: Connection, hand_id: str, table_id: str, number: int, seats: list[int]) -> None:
    conn.execute(hands.insert().values(id=hand_id, table_id=table_id, number=number, server_seed="", commitment="",
                                       session={}, seats=seats, status="playing"))


async def _settle_all(store: Store, only: Sequence[str] | None = None) -> None:
    """Settle :data:`HANDS` (or those named ``only``) through the store, one second apart."""
    for number, (hand_id, table_id, seats, rules, wins, payments, deltas) in enumerate(HANDS):
        if only is not None and hand_id not in only:
            continue
        await store.write(partial(_dealt, hand_id=hand_id, table_id=table_id, number=number, seats=seats))
        record = {"rules": rules, "result": {"winners": wins, "payments": payments}}
        paid = dict(zip(seats, deltas, strict=True))
        assert await store.settle(hand_id, record, paid, {}, 10.0 + number) is not None


@asynccontextmanager
async def _store(db_url: str) -> AsyncIterator[Store]:
    store = await open_store(db_url)
    store.on_settle = settle_hook({})
    try:
        await store.write(_people)
        yield store
    finally:
        await store.close()


def _figures(conn: Connection) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every ``hand_players`` row and every rating, in a fixed order."""
    rows = conn.execute(select(hand_players).order_by(hand_players.c.hand_id, hand_players.c.user_id)).all()
    rated = conn.execute(select(ratings).order_by(ratings.c.subject, ratings.c.family)).all()
    return [tuple(r) for r in rows], [tuple(r) for r in rated]


def test_a_settlement_whose_figures_fail_still_moves_the_chips(db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """An injected fault after the figures were written: the settlement commits (record, ledger,
    balances), what the hook wrote is rolled back to its savepoint, the failure is reported once,
    and a rebuild makes the figures from the records."""
    async def scenario() -> None:
        async with _store(db_url) as store:
            hook = settle_hook({})
            failures: list[Exception] = []

            def faulty(conn: Connection, hand_id: str, record: Mapping[str, Any], deltas: Mapping[int, int],
                       now: float) -> None:
                hook(conn, hand_id, record, deltas, now)
                raise RuntimeError("figures lost")
            store.on_settle, store.on_settle_failed = faulty, failures.append
            await _settle_all(store, only=["h1"])
            assert [str(f) for f in failures] == ["figures lost"]
            logged = [r for r in caplog.records if r.getMessage() == "hand settled without its figures"]
            assert [(r.__dict__["hand"], r.levelname) for r in logged] == [("h1", "ERROR")]
            hand = await store.hand("h1")
            assert hand is not None and hand["status"] == "settled" and hand["record"]["rules"] == "doublewin-xuezhan"
            assert await store.balances([1, 2, 5, 6]) == {1: 1_030, 2: 990, 5: 990, 6: 990}
            audit = await store.audit()
            assert audit["balances"] == audit["grants"] and audit["unbalanced_hands"] == 0 and audit["hands"] == 1
            assert await store.read(_figures) == ([], [])  # the hook's rows went with its savepoint
            store.on_settle = hook
            await _settle_all(store, only=["h2"])  # the next settlement writes its figures again
            assert len(failures) == 1
            await store.write(lambda conn: rebuild(conn, {}))
            rows, _ = await store.read(_figures)
            assert sorted({(r[0], r[1]) for r in rows}) == sorted(
                (h, u) for h, _, seats, *_rest in HANDS[:2] for u in seats)
    asyncio.run(scenario())


def test_the_figures_are_the_rebuild_and_what_migration_0006_builds(db_url: str) -> None:
    """Figures written settlement by settlement equal those rebuilt from the records; downgraded below
    0006 and upgraded to it, the migration's own rebuild makes the same rows; 0007 keeps them and
    moves a strategy's shared rating (before it) to its accounts."""
    async def scenario() -> None:
        async with _store(db_url) as store:
            await _settle_all(store)
            live = await store.read(_figures)
            assert {r[3] for r in live[0] if r[1] in BOTS} == {f"bot:greedy:{b}" for b in BOTS}
            assert not any(r[0] == "bot:greedy" for r in live[1])  # no rating row shared by every bot
            await store.write(lambda conn: rebuild(conn, {}))
            assert await store.read(_figures) == live
            await store.runner.write(lambda conn: command.downgrade(alembic_config(conn), "0005"))
            await store.runner.write(lambda conn: command.upgrade(alembic_config(conn), "0006"))
            assert await store.read(_figures) == live

            def shared(conn: Connection) -> None:  # as 0006 rated bots before this revision
                conn.execute(update(hand_players).where(hand_players.c.user_id.in_(BOTS))
                             .values(subject="bot:greedy"))
                conn.execute(ratings.insert().values(subject="bot:greedy", family="all", mu=30.0, sigma=2.0,
                                                     hands=9))
            await store.write(shared)
            await store.runner.write(lambda conn: command.upgrade(alembic_config(conn), "head"))
            assert await store.read(_figures) == live
            columns = await store.read(lambda conn: conn.execute(text("SELECT * FROM users")).keys())
            assert "last_grant" not in columns
    asyncio.run(scenario())


def test_a_profile_shows_a_private_tables_hands_only_to_its_players(db_url: str) -> None:
    """Player 1's private hand (h2, with 2 and 3): its players see it in every figure, list and
    history of 1's profile; player 4 sees none of it (the level, shown at every table, counts it)."""
    async def scenario() -> None:
        async with _store(db_url) as store:
            await _settle_all(store)
            owner = await store.user(1)
            assert owner is not None
            shown = {v: await store.read(partial(profile, user=owner, viewer=v)) for v in (1, 2, 4)}
            assert shown[1] == shown[2]
            sat, other = shown[2], shown[4]
            assert (sat["hands"], other["hands"]) == (3, 2)
            assert (sat["chips_won"], other["chips_won"]) == (65, 25)
            assert [p["balance"] for p in sat["chips_history"]] == [1_000, 1_030, 1_070, 1_065]
            assert [p["balance"] for p in other["chips_history"]] == [1_000, 1_030, 1_025]
            assert len(sat["rating_history"]) == 3 and len(other["rating_history"]) == 2
            assert {f["id"] for f in sat["common_fans"]} == set(FAN_IDS[:4])
            assert {f["id"] for f in other["common_fans"]} == set(FAN_IDS[:2])
            assert [b["hand_id"] for b in sat["best_hands"]] == ["h2", "h1"]
            assert [b["hand_id"] for b in other["best_hands"]] == ["h1"]
            assert (other["jipin"], sat["jipin"]) == (0, 1)
            assert sat["level"] == other["level"]
    asyncio.run(scenario())


def test_a_profiles_lists_and_a_leaderboard_are_bounded(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """More ledger rows than a chips history shows: the latest, their balances right; the fans of the
    latest winning hands only; a leaderboard cut by the database at its limit, best rating first."""
    monkeypatch.setattr(progress, "HISTORY", 3)
    monkeypatch.setattr(progress, "FAN_HANDS", 1)

    async def scenario() -> None:
        async with _store(db_url) as store:
            await _settle_all(store)
            for amount in (7, 8, 9, 10):
                await store.grant(1, amount, 20.0)
            owner = await store.user(1)
            assert owner is not None
            shown = await store.read(lambda conn: profile(conn, owner, 1))
            assert [p["balance"] for p in shown["chips_history"]] == [1_080, 1_089, 1_099]
            assert [p["at"] for p in shown["chips_history"]] == [20.0] * 3
            assert {f["id"] for f in shown["common_fans"]} == set(FAN_IDS[2:])  # h2 only: h4 it did not win
            full = await store.read(lambda conn: leaderboard(conn, "all", "all", 1, 100.0, 100))
            top = await store.read(lambda conn: leaderboard(conn, "all", "all", 1, 100.0, 2))
            assert len(full["players"]) == 4 and top["players"] == full["players"][:2]
            assert [p["rating"] for p in full["players"]] == sorted((p["rating"] for p in full["players"]),
                                                                   reverse=True)
            assert [b["bot"] for b in full["bots"]] == ["greedy"]
            rated = await store.read(lambda conn: conn.execute(select(ratings).where(
                ratings.c.family == "all", ratings.c.subject.startswith("bot:"))).all())
            played = sum(r.hands for r in rated)
            mu = sum(r.hands * r.mu for r in rated) / played
            sigma = sum(r.hands * r.sigma for r in rated) / played
            assert full["bots"][0]["hands"] == played == 7  # the bot seats of the four hands
            assert full["bots"][0]["rating"] == round(mu - 3 * sigma, 3)
    asyncio.run(scenario())


def test_two_settlements_at_once_share_no_rating_row(pg_database: str) -> None:
    """PostgreSQL: while one settlement's figures are written and not committed, another table's
    (bots of the same strategy) is written at once, not queued behind it (a lock wait would fail
    at the lock timeout); both committed, the figures equal the rebuild."""
    async def scenario() -> None:
        async with _store(pg_database) as store:
            assert isinstance(store.runner, AsyncRunner)

            def playing(conn: Connection) -> None:
                for number, (hand_id, table_id, seats, *_rest) in enumerate(HANDS[:3:2]):
                    _dealt(conn, hand_id, table_id, number, seats)
            await store.write(playing)

            async def figures_of(conn: AsyncConnection, at: int) -> None:
                hand_id, _table, seats, rules, wins, payments, deltas = HANDS[at]
                record = {"rules": rules, "result": {"winners": wins, "payments": payments}}
                paid = dict(zip(seats, deltas, strict=True))
                await conn.execute(text("SET LOCAL lock_timeout = '3s'"))
                await conn.run_sync(lambda c: c.execute(update(hands).where(hands.c.id == hand_id).values(
                    status="settled", record=record, finished_at=10.0 + at)))
                await conn.run_sync(lambda c: c.execute(ledger.insert(), [
                    {"user_id": u, "amount": d, "kind": "hand", "hand_id": hand_id, "at": 10.0 + at}
                    for u, d in paid.items()]))
                await conn.run_sync(lambda c: record_hand(c, hand_id, record, paid, 10.0 + at, {}))

            engine = store.runner.engine
            async with engine.connect() as first, engine.connect() as second:
                await first.begin()
                await figures_of(first, 0)  # h1: bots 5 and 6, not committed yet
                await second.begin()
                await figures_of(second, 2)  # h3: bots 7 and 8, of the same strategy
                await second.commit()
                await first.commit()
            live = await store.read(_figures)
            assert len(live[0]) == 8
            await store.write(lambda conn: rebuild(conn, {}))
            assert await store.read(_figures) == live
    asyncio.run(scenario())
