"""Keeping chips honest (docs/server.md): a private table's base fits its players' balances, the
escapes of a new account cost it at most the cap, relief chips wait for rated hands, an address
gets a few starting grants a day; and the logins kept with their address and user agent, then purged.
The audit's attack (fresh guests feeding one account by escaping at its private tables, then
taking relief chips) moves no more than the escape cap per guest."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from sqlalchemy import select
from typer.testing import CliRunner

from chuanma.cli import app as cli
from chuanma.server.honesty import Visit, log_visit
from chuanma.server.retention import DAY, purge_logins
from chuanma.server.schema import logins
from chuanma.server.store import open_store
from server_harness import TIMEOUT, Client, Running, account, db_url, deal, make_config, pg_database, running

__all__ = ["db_url", "pg_database"]
BASE = 1_000
"""The private tables' base: 平民场's, which a starting grant fits; an escape there owes 48,000."""


async def _post(run: Running, path: str, token: str | None = None, **body: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
        auth = {"authorization": f"Bearer {token}"} if token else {}
        return await http.post(path, json=body or None, headers={"user-agent": "honest-test/1", **auth})


async def _me(run: Running, token: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
        r = await http.get("/api/me", headers={"authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        me: dict[str, Any] = r.json()
        return me


async def _table(run: Running, token: str, base: int = BASE) -> httpx.Response:
    return await _post(run, "/api/tables", token, preset="xuezhan", hands=1, bots=2, bot_level="easy",
                       options={"base": base})


async def _escape_round(run: Running, collector: dict[str, Any], guest: dict[str, Any]) -> int:
    """One round of the attack: the collector opens a one-hand private table (two bots), the guest
    joins by invite, leaves (逃跑) once dealt, and asks ``/api/me`` (relief); returns the guest's chips."""
    made = await _table(run, collector["token"])
    assert made.status_code == 200, made.text
    c = await Client.open(run.base, collector["token"], collector["user"]["username"])
    g = await Client.open(run.base, guest["token"], guest["user"]["username"])
    for client in (c, g):
        await client.send("join_private", invite=made.json()["invite"])
        await client.expect("seated")
    await deal([c, g])
    await g.send("leave")
    end = await c.play_on()
    assert end["type"] == "hand_end" and end["end_reason"] == "escape", end
    await c.expect("table_closed")
    await c.close()
    await g.close()
    return int((await _me(run, guest["token"]))["balance"])


def test_the_audit_attack_moves_at_most_the_escape_cap_per_guest(db_url: str) -> None:
    """Two fresh guests each escape twice at the collector's private tables of base 1,000, asking for
    relief after each: each loses at most ``escape_cap`` in all, no relief is paid, and the
    collector wins no more than the guests lost (before: 10,000 a round, refilled by relief)."""
    async def scenario() -> None:
        async with running(make_config(db_url, private_tables=10)) as run:
            cap = run.config.escape_cap
            collector = await account(run.base)
            guests = [await account(run.base) for _ in range(2)]
            for guest in guests:
                for _ in range(2):
                    await _escape_round(run, collector, guest)
            store = run.server.store
            lost = []
            for guest in guests:
                rows = await store.ledger_of(int(guest["user"]["id"]))
                assert [r["kind"] for r in rows] == ["grant", "escape", "escape"]  # no relief
                lost.append(-sum(r["amount"] for r in rows if r["kind"] == "escape"))
            assert all(0 < x <= cap for x in lost), lost
            won = int((await store.user(int(collector["user"]["id"])))["balance"]) - 10_000
            assert 0 < won <= sum(lost) <= len(guests) * cap
    asyncio.run(scenario())


def test_an_escape_of_a_new_account_costs_it_at_most_the_cap_in_all(db_url: str) -> None:
    """A guest's first escape at base 1,000 (owing 48,000) costs it the cap, the second nothing more."""
    async def scenario() -> None:
        async with running(make_config(db_url, escape_cap=1_500)) as run:
            collector, guest = await account(run.base), await account(run.base)
            assert await _escape_round(run, collector, guest) == 10_000 - 1_500
            assert await _escape_round(run, collector, guest) == 10_000 - 1_500
            hand = await run.server.store.last_hand((await run.server.store.ledger_of(
                int(guest["user"]["id"])))[-1]["hand_id"].rsplit("-", 1)[0], settled=True)
            assert hand is not None and 0 in hand["escape_caps"]  # the cap left when dealt: none
    asyncio.run(scenario())


def test_a_private_table_needs_balances_a_room_of_its_base_admits(db_url: str) -> None:
    """Base 2,000 asks 20,000 (官甲场's entry): a 10,000 guest may not open it; at base 1,000 a
    player drained to 4,000 (below 平民场's 5,000) may not sit."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            creator, poor = await account(run.base), await account(run.base)
            refused = await _table(run, creator["token"], base=2_000)
            assert refused.status_code == 403 and refused.json()["code"] == "stakes_too_high", refused.text
            assert "20,000" in refused.json()["message"]
            assert await run.server.store.live_tables() == []
            made = await _table(run, creator["token"])
            assert made.status_code == 200, made.text
            await run.server.store.grant(int(poor["user"]["id"]), -6_000, run.clock.now())
            client = await Client.open(run.base, poor["token"])
            await client.send("join_private", invite=made.json()["invite"])
            error = await client.expect("error", "seated")
            assert error["type"] == "error" and error["code"] == "stakes_too_high", error
            assert await run.server.host.seat_of(int(poor["user"]["id"])) is None
            await client.close()
    asyncio.run(scenario())


def test_relief_chips_wait_for_rated_hands_since_the_last_grant(db_url: str) -> None:
    """Below the entry, a guest gets no relief until it has played ``relief_hands`` room hands since
    its starting grant; then it does."""
    async def scenario() -> None:
        async with running(make_config(db_url, relief_hands=1, bot_wait=0.0)) as run:
            guest = await account(run.base)
            user_id = int(guest["user"]["id"])
            await run.server.store.grant(user_id, -9_000, run.clock.now())  # stands in for lost hands
            me = await _me(run, guest["token"])
            assert me["balance"] == 1_000 and me["relief"]["hands"] == 1 and me["relief"]["next"] is None
            client = await Client.open(run.base, guest["token"])
            await client.send("join", room="classic", bots=True)  # 60 chips enter 经典场
            await client.expect("seated")
            end = await client.play_hand()
            assert end["type"] == "hand_end", end
            await client.send("leave")
            await client.expect("table_closed")
            await client.close()
            me = await _me(run, guest["token"])
            assert me["balance"] == 10_000 and me["relief"]["hands"] == 1  # paid: the count starts again
            assert [r["kind"] for r in await run.server.store.ledger_of(user_id)] == ["grant", "grant", "hand",
                                                                                         "relief"]
    asyncio.run(scenario())


def test_an_address_gets_grants_per_day_new_accounts_a_day(db_url: str) -> None:
    """Two accounts a day from one address (guests and registrations alike), the third refused 429
    (no account made); the next UTC day two more."""
    async def scenario() -> None:
        async with running(make_config(db_url, grants_per_day=2)) as run:
            assert (await _post(run, "/api/guest")).status_code == 200
            assert (await _post(run, "/api/register", username="Alice", password="correct horse")).status_code == 200
            for refused in (await _post(run, "/api/guest"),
                            await _post(run, "/api/register", username="Bob", password="correct horse")):
                assert refused.status_code == 429 and refused.json()["code"] == "too_many_grants", refused.text
            assert await run.server.store.user_by_name("Bob") is None
            assert (await _post(run, "/api/login", username="Alice", password="correct horse")).status_code == 200
            run.clock.advance(DAY)
            assert (await _post(run, "/api/guest")).status_code == 200
    asyncio.run(scenario())


def test_logins_keep_address_and_agent_for_login_days_then_are_purged(db_url: str) -> None:
    """A registration, a guest and a login each leave a row (user, kind, address, agent, time); the
    purge forgets the rows older than the retention, here and by ``chuanma admin purge-logins``."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            await _post(run, "/api/register", username="Alice", password="correct horse")
            await _post(run, "/api/guest")
            await _post(run, "/api/login", username="Alice", password="correct horse")
            store = run.server.store
            rows = await store.read(lambda conn: conn.execute(
                select(logins.c.kind, logins.c.address, logins.c.agent).order_by(logins.c.id)).all())
            assert [tuple(r) for r in rows] == [("register", "127.0.0.1", "honest-test/1"),
                                                ("guest", "127.0.0.1", "honest-test/1"),
                                                ("login", "127.0.0.1", "honest-test/1")]
            now = run.clock.now()
            assert await purge_logins(store, now + 89 * DAY, 90) == 0
            assert await purge_logins(store, now + 91 * DAY, 90) == 3
            await _post(run, "/api/login", username="Alice", password="correct horse")

    async def old_login() -> None:
        store = await open_store(db_url)
        try:
            alice = await store.user_by_name("Alice")
            assert alice is not None
            await store.write(lambda conn: log_visit(conn, int(alice["id"]), "login", Visit("10.0.0.1", "old"),
                                                     time.time() - 2 * DAY))
        finally:
            await store.close()
    asyncio.run(scenario())
    asyncio.run(old_login())
    result = CliRunner().invoke(cli, ["admin", "purge-logins", "--db", db_url, "--days", "1"])
    assert result.exit_code == 0, result.output
    assert "purged 1 logins older than 1 days" in result.output  # the test clock's login (2027) is kept


def test_starting_grants_asked_at_once_are_counted_one_after_the_other(db_url: str) -> None:
    """Six guests asked for at once from one address with two grants a day: two made, four refused."""
    async def scenario() -> None:
        async with running(make_config(db_url, grants_per_day=2)) as run:
            answers = await asyncio.gather(*(_post(run, "/api/guest") for _ in range(6)))
            assert sorted(r.status_code for r in answers) == [200, 200, 429, 429, 429, 429]
            made = await run.server.store.read(lambda conn: conn.execute(
                select(logins.c.kind).where(logins.c.kind == "guest")).all())
            assert len(made) == 2
    asyncio.run(scenario())


def test_purge_logins_refuses_a_bad_retention_or_database_in_one_line() -> None:
    for args, code, named in ((["--db", "sqlite://", "--days", "nan"], 2, "--days"),
                              (["--db", "nosuch://host/db"], 1, "the database cannot be used")):
        result = CliRunner().invoke(cli, ["admin", "purge-logins", *args])
        assert result.exit_code == code and named in result.output, result.output
        assert isinstance(result.exception, SystemExit)


def test_a_table_rebuilt_after_a_restart_caps_an_escape_as_the_hand_was_dealt(db_url: str) -> None:
    """The cap left when the hand was dealt is stored with it: after a restart (with another cap)
    the guest's escape costs what the hand was dealt with."""
    async def scenario() -> None:
        async with running(make_config(db_url, escape_cap=700)) as run:
            collector, guest = await account(run.base), await account(run.base)
            made = await _table(run, collector["token"])
            c = await Client.open(run.base, collector["token"])
            g = await Client.open(run.base, guest["token"])
            for client in (c, g):
                await client.send("join_private", invite=made.json()["invite"])
                await client.expect("seated")
            await deal([c, g])
            await c.close()
            await g.close()
        async with running(make_config(db_url, escape_cap=5_000)) as run:
            g = await Client.open(run.base, guest["token"])
            await g.send("resume", table=made.json()["table"], hand=0, last=-1)
            await g.expect("resync", "events")
            await g.send("leave")
            await g.expect("table_closed")
            await g.close()
            ledger = run.server.store.ledger_of
            for _ in range(200):
                rows = await ledger(int(guest["user"]["id"]))
                if rows[-1]["kind"] == "escape":
                    break
                await asyncio.sleep(0.05)
            assert [(r["kind"], r["amount"]) for r in rows] == [("grant", 10_000), ("escape", -700)]
    asyncio.run(scenario())
