"""The migrations both ways: a database holding tables, hands and decisions downgrades step by step
to the first revision (keeping its rows) and to nothing, then upgrades again, with no warning from
SQLAlchemy. A cluster node's idle
timeout of its transactions does not end the migrations' transaction."""

from __future__ import annotations

import asyncio
import time

import pytest
from alembic import command
from sqlalchemy import Connection, func, inspect, select, text

from chuanma.server.schema import dealer_keys, decisions, hands, ledger, seatings, tables, tokens, users
from chuanma.server.store import alembic_config, open_store
from server_harness import db_url, pg_database

__all__ = ["db_url", "pg_database"]
IDLE = 0.5
"""A cluster node's idle-in-transaction timeout for this test (its reads after migrating are one
statement each: none idles that long)."""


def _played(conn: Connection) -> None:
    """One player seated at a table whose hand has a decision, with a token and a ledger row."""
    conn.execute(users.insert().values(id=1, username="Alice", kind="player", balance=900, created_at=0.0))
    conn.execute(tokens.insert().values(digest="d", user_id=1, created_at=1.0, last_used=2.0))
    conn.execute(ledger.insert().values(user_id=1, amount=900, kind="grant", hand_id=None, at=0.0))
    conn.execute(tables.insert().values(id="t1", room="novice", rules={}, seats=[1, None, None, None],
                                        status="open", created_at=0.0, creator=1))
    conn.execute(hands.insert().values(id="h1", table_id="t1", number=1, server_seed="", commitment="",
                                       public_key="ab", session={}, seats=[1, None, None, None],
                                       status="void", reason="a test"))
    conn.execute(decisions.insert().values(hand_id="h1", idx=0, seat=0, action={"type": "discard"}, by="player",
                                           events=[], at=3.0))
    conn.execute(seatings.insert().values(user_id=1, table_id="t1", room=None, since=0.0))


def _names(conn: Connection) -> set[str]:
    return set(inspect(conn).get_table_names()) - {"alembic_version"}


@pytest.mark.filterwarnings("error::sqlalchemy.exc.SAWarning")  # nothing SQLAlchemy cannot do (a reflection)
def test_a_played_database_downgrades_to_nothing_and_upgrades_again(db_url: str) -> None:
    async def scenario() -> None:
        store = await open_store(db_url)
        try:
            await store.runner.write(_played)
            # migration 0012 admits the key that dealt the hand (its signing key comes with its server)
            await store.runner.write(lambda conn: command.downgrade(alembic_config(conn), "0009"))
            await store.runner.write(lambda conn: command.upgrade(alembic_config(conn), "head"))
            admitted = await store.read(lambda conn: conn.execute(
                select(dealer_keys.c.public_key, dealer_keys.c.signing_key, dealer_keys.c.retired)).all())
            assert [tuple(row) for row in admitted] == [("ab", None, None)]
            await store.runner.write(lambda conn: command.downgrade(alembic_config(conn), "0001"))
            kept = await store.read(lambda conn: conn.execute(
                select(decisions.c.hand_id, decisions.c.idx, hands.c.table_id, tables.c.seats)
                .join(hands, hands.c.id == decisions.c.hand_id).join(tables, tables.c.id == hands.c.table_id)).all())
            assert [tuple(row) for row in kept] == [("h1", 0, "t1", [1, None, None, None])]
            await store.runner.write(lambda conn: command.downgrade(alembic_config(conn), "base"))
            assert await store.read(_names) == set()
            await store.runner.write(lambda conn: command.upgrade(alembic_config(conn), "head"))
            assert await store.read(_names) == {"users", "tokens", "ledger", "tables", "hands", "decisions",
                                                "seatings", "server_keys", "lease", "hand_players", "ratings",
                                                "table_leases", "cluster_nodes", "dealer_keys", "bans", "operator_log",
                                                "logins", "password_resets", "deletions", "reports", "flags",
                                                "flagged", "rooms", "announcements", "maintenance", "notes"}
        finally:
            await store.close()
    asyncio.run(scenario())


def test_migration_0012_lets_only_the_last_dealer_key_and_those_of_unfinished_hands_deal_on(db_url: str) -> None:
    """Upgrading a database from before dealer keys were kept: the key of the last finished hand and
    the key of a hand still in play deal on; a key that only dealt earlier hands is retired at its
    last hand's end (a node started with it is refused, its records verify on)."""
    def dealt(conn: Connection) -> None:
        conn.execute(tables.insert().values(id="t1", room="novice", rules={}, seats=[None] * 4, status="open",
                                            created_at=0.0))
        for number, key, status, finished in ((1, "k1", "settled", 5.0), (2, "k1", "settled", 6.0),
                                              (3, "k2", "settled", 9.0), (4, "k3", "playing", None)):
            conn.execute(hands.insert().values(id=f"h{number}", table_id="t1", number=number, server_seed="",
                                               commitment="", public_key=key, session={}, seats=[None] * 4,
                                               status=status, finished_at=finished))

    async def scenario() -> None:
        store = await open_store(db_url, revision="0011")
        try:
            await store.runner.write(dealt)
            await store.runner.write(lambda conn: command.upgrade(alembic_config(conn), "0012"))
            keys = await store.read(lambda conn: conn.execute(
                select(dealer_keys.c.public_key, dealer_keys.c.added, dealer_keys.c.retired)
                .order_by(dealer_keys.c.public_key)).all())
            assert [(key, retired) for key, _added, retired in keys] == [("k1", 6.0), ("k2", None), ("k3", None)]
            assert keys[0].added == 5.0 and keys[1].added == 9.0
        finally:
            await store.close()
    asyncio.run(scenario())


def test_migrations_are_not_ended_by_the_sessions_idle_timeout(pg_database: str) -> None:
    """A store opened with an idle-in-transaction timeout migrates a fresh database whose migration
    transaction pauses twice that long between two statements (as a data migration's Python step
    may on a loaded machine); its sessions then keep the timeout."""
    def pause(conn: Connection) -> None:
        conn.execute(text("SELECT 1"))
        time.sleep(2 * IDLE)

    async def scenario() -> None:
        store = await open_store(pg_database, before_migrating=pause, idle_seconds=IDLE)
        try:
            assert await store.read(lambda conn: conn.execute(select(func.count()).select_from(users)).scalar()) == 0
            show = text("SHOW idle_in_transaction_session_timeout")
            assert await store.read(lambda conn: conn.execute(show).scalar()) == "500ms"
        finally:
            await store.close()
    asyncio.run(scenario())
